"""Diff by ids: give the whole data, get the batch (fewest moves)."""
from flowlayout import Client, Rect

with Client() as c:
    c.open("s", {"type": "flow", "itemSize": {"width": 100, "height": 40}}, Rect(0, 0, 320, 200),
           [{"id": "inbox", "itemCount": 4, "ids": ["a", "b", "c", "d"]}])
    result = c.apply_snapshot("s", [{"id": "inbox", "items": ["d", "a", "c", "e"]}])
    print("the batch:", result.updates)
    print("cells that slide (from, to):", [(m.from_path.item, m.item) for m in result.moved])
