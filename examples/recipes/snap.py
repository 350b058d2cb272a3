"""Snap a cover flow and read the centred card's transform."""
from flowlayout import Client, Rect

with Client() as c:  # finds flowlayoutd: README.md, "Finding the daemon"
    layout = {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}}
    c.open("s", layout, Rect(0, 0, 375, 300), [{"itemCount": 10}])
    # The finger lifts at x = 500, at rest: the nearest card's rest offset.
    plan = c.scroll_ended("s", (500, 0), (0, 0))
    print("rests at", plan.target_content_offset.x, "on item", plan.target_item.item)
    c.set_bounds("s", Rect(plan.target_content_offset.x, 0, 375, 300))
    centred = c.attributes_for_item("s", 0, plan.target_item.item)
    print("centred card: transform", centred.transform, "scale", centred.scale)
    beside = c.attributes_for_item("s", 0, plan.target_item.item + 1)
    print("the next card: scale", round(beside.scale, 4), "transform m11..m44", beside.transform)
