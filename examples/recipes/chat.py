"""Keep a chat at its end: followsEnd, then messages arrive."""
from flowlayout import Client, Rect

with Client() as c:
    layout = {"type": "flow", "itemSize": {"width": 320, "height": 60}, "minimumLineSpacing": 10}
    # 20 messages of 60 points, 10 apart: 20·60 + 19·10 = 1390 tall; the end is at 1390 − 400 = 990.
    c.open("chat", layout, Rect(0, 990, 320, 400), [{"itemCount": 20}], follows_end=True)
    grown = c.append_items("chat", 0, item_count=3)
    print("content height", grown.content_size.height, "viewport at y", grown.bounds.y)
    print("at the end:", grown.bounds.y + grown.bounds.height == grown.content_size.height)
