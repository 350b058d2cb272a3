"""Draws a :class:`~flowlayout.picture.Picture` as PNG (``flowlayout render
--format png``), the same picture as :mod:`flowlayout.svg` draws: the
viewport and everything the elements draw around it, with a margin, each
element as the quadrilateral its transform projects it to, in painting
order, with its alpha and its label; what lies outside the viewport veiled;
the content's bounds and the viewport's edge outlined.

Pillow draws it: an optional dependency (``pip install 'flowlayout[png]'``;
``make install`` installs it). :func:`picture_png` raises
:class:`PNGUnavailable` without it, naming the command that installs it for
the very Python that runs this (:func:`install_hint`).
"""

from __future__ import annotations

import io
import shlex
import sys
from typing import List, Optional, Tuple

from .model import IndexPath, Point
from .picture import Picture
from .svg import corner_rounding, element_label, section_radii, view_box

__all__ = ["picture_png", "PNGUnavailable", "install_hint"]

#: Pillow as the ``png`` extra (pyproject.toml) requires it.
PILLOW = "pillow>=9.2"


def install_hint() -> str:
    """The command that installs Pillow for this interpreter: its own pip
    (``make install``'s private virtualenv's, a user's venv's, or the
    system's), so that it works whichever installed the client."""
    return f"{shlex.quote(sys.executable)} -m pip install {shlex.quote(PILLOW)}"


class PNGUnavailable(RuntimeError):
    """Pillow, which draws PNG pictures, is not installed."""


Colour = Tuple[int, int, int]
BACKGROUND: Colour = (0xEE, 0xF0, 0xF3)
VIEWPORT: Colour = (0xFF, 0xFF, 0xFF)
EDGE: Colour = (0x1F, 0x29, 0x33)
CONTENT: Colour = (0x7B, 0x87, 0x94)
#: (fill, outline, text) by class, as the SVG's style sheet has them.
STYLES = {
    "cell": ((0xCF, 0xE1, 0xF9), (0x2F, 0x5D, 0x9E), (0x1F, 0x29, 0x33)),
    "centered": ((0xFF, 0xE3, 0xB3), (0xD9, 0x77, 0x06), (0x1F, 0x29, 0x33)),
    "header": ((0xE4, 0xE7, 0xEB), (0x61, 0x6E, 0x7C), (0x52, 0x60, 0x6D)),
    "footer": ((0xE4, 0xE7, 0xEB), (0x61, 0x6E, 0x7C), (0x52, 0x60, 0x6D)),
    "decoration": ((0xF5, 0xF7, 0xFA), (0xCB, 0xD2, 0xD9), (0x9A, 0xA5, 0xB1)),
    "separator": ((0x7B, 0x87, 0x94), (0x7B, 0x87, 0x94), (0x7B, 0x87, 0x94)),
}


def picture_png(picture: Picture, content_origin: Point = Point(0, 0), scale: float = 1.0) -> bytes:
    """The picture's viewport as PNG bytes, one pixel per point times
    ``scale``. ``content_origin`` is as :func:`flowlayout.svg.picture_svg`
    takes it."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise PNGUnavailable(
            f"PNG pictures need Pillow, which this Python ({sys.executable}) lacks: "
            f"{install_hint()} (or draw SVG with --format svg)"
        ) from e
    if picture.bounds is None or picture.content_size is None:
        raise ValueError("the picture is empty: apply a layout/open result first")
    bounds = picture.bounds
    ox, oy = bounds.x, bounds.y
    centred: Optional[IndexPath] = picture.centered_item
    elements = picture.painting_order()

    lo_x, lo_y, hi_x, hi_y = view_box(picture)
    width = max(1, round((hi_x - lo_x) * scale))
    height = max(1, round((hi_y - lo_y) * scale))

    def px(x: float, y: float) -> Tuple[float, float]:
        return ((x - lo_x) * scale, (y - lo_y) * scale)

    def box(x: float, y: float, w: float, h: float) -> List[float]:
        (x0, y0), (x1, y1) = px(x, y), px(x + w, y + h)
        return [x0, y0, x1, y1]

    image = Image.new("RGB", (width, height), BACKGROUND)
    ImageDraw.Draw(image).rectangle(box(0, 0, bounds.width, bounds.height), fill=VIEWPORT)
    font = ImageFont.load_default()
    radii = section_radii(elements)
    for a in elements:
        style = "centered" if a.kind == "cell" and centred == a.index_path else a.kind
        fill, outline, ink = STYLES.get(style, STYLES["cell"])
        corners = [px(p.x - ox, p.y - oy) for p in a.corners()]
        # Each element on a layer of its own, composited with its alpha.
        layer = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        radius, rounded = corner_rounding(a, radii)
        if a.kind == "separator":
            # A hairline: filled, unlabelled, at least a pixel thick.
            x0, y0 = corners[0]
            x1, y1 = corners[2]
            draw.rectangle([x0, y0, x1, max(y1, y0 + 1)], fill=fill + (255,))
        elif radius > 0 and a.transform is None:
            x0, y0 = corners[0]
            x1, y1 = corners[2]
            draw.rounded_rectangle(
                [x0, y0, x1, y1], radius=radius * scale, fill=fill + (255,), outline=outline + (255,),
                corners=rounded)
        else:
            draw.polygon(corners, fill=fill + (255,), outline=outline + (255,))
        if a.kind != "separator":
            c = a.project(0, 0)
            cx, cy = px(c.x - ox, c.y - oy)
            draw.text((cx, cy), element_label(a), fill=ink + (255,), font=font, anchor="mm")
        if a.alpha < 1:
            alpha = layer.getchannel("A").point(lambda v: round(v * max(0.0, a.alpha)))
            layer.putalpha(alpha)
        image.paste(layer, (0, 0), layer)

    # Outside the viewport: veiled, not hidden.
    veil = Image.new("RGBA", (width, height), BACKGROUND + (140,))
    mask = Image.new("L", (width, height), 255)
    ImageDraw.Draw(mask).rectangle(box(0, 0, bounds.width, bounds.height), fill=0)
    image.paste(veil, (0, 0), Image.composite(veil.getchannel("A"), Image.new("L", veil.size, 0), mask))
    draw = ImageDraw.Draw(image)
    size = picture.content_size
    draw.rectangle(box(content_origin.x - ox, content_origin.y - oy, size.width, size.height), outline=CONTENT)
    draw.rectangle(box(0, 0, bounds.width, bounds.height), outline=EDGE, width=max(1, round(2 * scale)))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
