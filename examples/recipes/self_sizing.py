"""Self-sizing cells: estimates first, measured sizes replace them."""
from flowlayout import Client, Rect

with Client() as c:
    layout = {"type": "flow", "estimatedItemSize": {"width": 320, "height": 50}, "minimumLineSpacing": 0}
    opened = c.open("feed", layout, Rect(0, 0, 320, 200), [{"itemCount": 100}])
    print("estimated height", opened.content_size.height)
    # The visible cells measured: items 0 to 3 are 80, 120, 45 and 60 tall.
    sizes = [(0, i, (320, h)) for i, h in enumerate([80, 120, 45, 60])]
    measured = c.set_item_sizes("feed", sizes)
    print("after measuring", measured.content_size.height)
    print("item 3 now at y", c.attributes_for_item("feed", 0, 3).frame.y)
