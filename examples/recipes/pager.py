"""Page with the pager: a fling moves one page, not as far as it would glide."""
from flowlayout import Client, Rect

with Client() as c:
    layout = {"type": "pager", "itemSize": {"width": 300, "height": 200}}
    c.open("p", layout, Rect(0, 0, 375, 300), [{"itemCount": 5}])
    plan = c.scroll_ended("p", (40, 0), (2, 0))  # a fast fling to the left
    print("page", plan.target_item.item, "at", plan.target_content_offset.x, "policy", plan.policy)
