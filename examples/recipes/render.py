"""Render a picture: the client's picture of the viewport, as SVG (and PNG)."""
import sys

from flowlayout import Client, Picture, Rect
from flowlayout.svg import picture_svg

out = sys.argv[1] if len(sys.argv) > 1 else "view.svg"
with Client() as c:
    picture = Picture()
    picture.apply_open(c.open("s", {"type": "coverFlow"}, Rect(0, 0, 375, 300), [{"itemCount": 10}]))
    picture.apply(c.set_bounds("s", Rect(220, 0, 375, 300)))
    with open(out, "w", encoding="utf-8") as f:
        f.write(picture_svg(picture, scale=2))
    print("drew", len(picture.painting_order()), "elements to", out)
# The same from a session script: flowlayout render --session-script S.jsonl --out view.png --scale 2
