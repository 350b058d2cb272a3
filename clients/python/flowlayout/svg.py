"""Draws a :class:`~flowlayout.picture.Picture` as SVG (``flowlayout render``).

Coordinates are the viewport's: content coordinates less the bounds'
origin, so the viewport is the rectangle (0, 0, width, height). The view box
takes in the viewport and everything the picture draws, with a margin, so
that cards cut by the viewport's edges are seen whole.

What is drawn, back to front:

- the background, and the viewport as a white rectangle (``class="viewport"``);
- the elements (``<g id="elements">``), in painting order (``zIndex``, then
  document order), one ``<g class="element …">`` each with its opacity
  (``alpha``), holding exactly one shape and one label:

  - with a 2D transform (every transform without a perspective row), a
    ``<rect>`` of the element's untransformed size centred on the origin,
    placed with ``transform="matrix(m11 m12 m21 m22 e f)"``, where (e, f)
    is the centre (plus m41, m42) in viewport coordinates: exactly the
    transform about the centre;
  - with perspective (m14, m24 ≠ 0, as tilted cards have), a
    ``<polygon>`` through the four projected corners, which is exact, as
    the transform maps straight edges to straight edges;

  labelled by the item's index (``section-item`` past section 0; headers
  and footers ``header``/``footer`` and their section past 0). Headers and
  footers are styled apart (``class="header"``, ``"footer"``), and the
  centred item is highlighted (``class="centered"``);
- a veil over what lies outside the viewport (``class="outside"``), the
  content's bounds, outlined dashed (``class="content"``), and the
  viewport's edge (``class="viewport-edge"``).

The chrome is drawn with ``<path>`` elements, so the ``<rect>`` and
``<polygon>`` elements of the document are exactly the picture's elements.
Standard library only (``xml.etree.ElementTree``).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Dict, Iterable, List, Optional, Tuple

from .model import Attributes, IndexPath, Point
from .picture import Picture

__all__ = ["SVG_NS", "picture_svg", "element_label", "view_box", "section_radii", "corner_rounding"]

SVG_NS = "http://www.w3.org/2000/svg"

#: Space around the viewport and the elements, in points.
MARGIN = 20.0

_STYLE = """
.background { fill: #eef0f3; }
.viewport { fill: #ffffff; }
.viewport-edge { fill: none; stroke: #1f2933; stroke-width: 2; }
.outside { fill: #eef0f3; fill-opacity: 0.55; fill-rule: evenodd; }
.content { fill: none; stroke: #7b8794; stroke-width: 1; stroke-dasharray: 6 4; }
.element rect, .element polygon { fill: #cfe1f9; stroke: #2f5d9e; stroke-width: 1.5;
  vector-effect: non-scaling-stroke; }
.element.header rect, .element.header polygon,
.element.footer rect, .element.footer polygon {
  fill: #e4e7eb; stroke: #616e7c; stroke-dasharray: 4 3; }
.element.centered rect, .element.centered polygon {
  fill: #ffe3b3; stroke: #d97706; stroke-width: 3; }
.element text { fill: #1f2933; font-family: sans-serif; text-anchor: middle;
  dominant-baseline: central; }
.element.header text, .element.footer text { fill: #52606d; font-style: italic; }
.element.decoration rect { fill: #f5f7fa; stroke: #cbd2d9; stroke-dasharray: none; }
.element.decoration text { fill: #9aa5b1; font-size: 10px; }
.element.separator rect { fill: #7b8794; stroke: none; }
.element.centered text { font-weight: bold; }
"""


def _n(v: float) -> str:
    """A number for an attribute: at most 4 decimals, no trailing zeros,
    no ``-0``."""
    if not math.isfinite(v):
        raise ValueError(f"cannot draw the non-finite number {v}")
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def element_label(a: Attributes) -> str:
    """``4`` for item 4 of section 0, ``1-4`` past section 0; ``header``,
    ``footer``, or ``header 1`` past section 0; a decoration by its
    element kind (``background``)."""
    if a.kind == "cell":
        return str(a.item) if a.section == 0 else f"{a.section}-{a.item}"
    if a.kind == "decoration":
        name = a.element_kind or "decoration"
        return name if a.section == 0 else f"{name} {a.section}"
    return a.kind if a.section == 0 else f"{a.kind} {a.section}"


def section_radii(elements: Iterable[Attributes]) -> Dict[Tuple[int, int], float]:
    """Each pictured list background's corner radius, by (section, lap):
    the radius its section's cells round their ``cornerMask`` corners by."""
    return {(a.section, a.lap): a.corner_radius for a in elements
            if a.kind == "decoration" and a.corner_radius}


def corner_rounding(a: Attributes, radii: Dict[Tuple[int, int], float]) -> Tuple[float, Tuple[bool, bool, bool, bool]]:
    """The radius an element is drawn with and which corners it rounds
    (top-left, top-right, bottom-right, bottom-left): a background's own,
    a grouped list cell's masked corners by its section's background
    radius (leading and trailing corners come in pairs, so the sides need
    no direction); (0, …) for square elements."""
    if a.corner_radius:
        return a.corner_radius, (True, True, True, True)
    mask = a.corner_mask or ()
    radius = radii.get((a.section, a.lap), 0.0)
    if not mask or radius <= 0:
        return 0.0, (False, False, False, False)
    top = "topLeading" in mask
    bottom = "bottomLeading" in mask
    return radius, (top, top, bottom, bottom)


def _rounded_path(x: float, y: float, w: float, h: float, r: float, corners: Tuple[bool, bool, bool, bool]) -> str:
    """A rectangle's outline with the given corners rounded by r."""
    r = min(r, w / 2, h / 2)
    tl, tr, br, bl = (r if c else 0.0 for c in corners)
    return (f"M{_n(x + tl)} {_n(y)}H{_n(x + w - tr)}" + (f"A{_n(tr)} {_n(tr)} 0 0 1 {_n(x + w)} {_n(y + tr)}" if tr else "")
            + f"V{_n(y + h - br)}" + (f"A{_n(br)} {_n(br)} 0 0 1 {_n(x + w - br)} {_n(y + h)}" if br else "")
            + f"H{_n(x + bl)}" + (f"A{_n(bl)} {_n(bl)} 0 0 1 {_n(x)} {_n(y + h - bl)}" if bl else "")
            + f"V{_n(y + tl)}" + (f"A{_n(tl)} {_n(tl)} 0 0 1 {_n(x + tl)} {_n(y)}" if tl else "") + "Z")


def _bbox(points: Iterable[Point]) -> Tuple[float, float, float, float]:
    pts = list(points)
    xs = [p.x for p in pts]
    ys = [p.y for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _rect_path(x: float, y: float, w: float, h: float) -> str:
    return f"M{_n(x)} {_n(y)}H{_n(x + w)}V{_n(y + h)}H{_n(x)}Z"


def _shape(a: Attributes, ox: float, oy: float) -> Tuple[ET.Element, Point]:
    """The element's outline in viewport coordinates, and where its centre
    is drawn (for the label)."""
    w, h = a.size.width, a.size.height
    t = a.transform or (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    if a.is_affine:
        e = a.center.x - ox + t[12]
        f = a.center.y - oy + t[13]
        shape = ET.Element(
            f"{{{SVG_NS}}}rect",
            {
                "x": _n(-w / 2),
                "y": _n(-h / 2),
                "width": _n(w),
                "height": _n(h),
                "transform": f"matrix({_n(t[0])} {_n(t[1])} {_n(t[4])} {_n(t[5])} {_n(e)} {_n(f)})",
            },
        )
        return shape, Point(e, f)
    corners = a.corners()
    points = " ".join(f"{_n(p.x - ox)},{_n(p.y - oy)}" for p in corners)
    shape = ET.Element(f"{{{SVG_NS}}}polygon", {"points": points})
    c = a.project(0, 0)
    return shape, Point(c.x - ox, c.y - oy)


def view_box(picture: Picture) -> Tuple[int, int, int, int]:
    """What a drawing of the picture takes in, in viewport coordinates: the
    viewport and every element's drawn outline, with MARGIN around, to whole
    points: (left, top, right, bottom)."""
    assert picture.bounds is not None
    bounds = picture.bounds
    lo_x, lo_y, hi_x, hi_y = 0.0, 0.0, bounds.width, bounds.height
    for a in picture.elements():
        x0, y0, x1, y1 = _bbox(a.corners())
        lo_x, lo_y = min(lo_x, x0 - bounds.x), min(lo_y, y0 - bounds.y)
        hi_x, hi_y = max(hi_x, x1 - bounds.x), max(hi_y, y1 - bounds.y)
    return (math.floor(lo_x - MARGIN), math.floor(lo_y - MARGIN),
            math.ceil(hi_x + MARGIN), math.ceil(hi_y + MARGIN))


def picture_svg(
    picture: Picture, title: Optional[str] = None, content_origin: Point = Point(0, 0),
    scale: float = 1.0,
) -> str:
    """The picture's viewport as an SVG document (a string, with an XML
    declaration). ``content_origin`` is where the content's bounds start in
    content coordinates: (0, 0) but in right-to-left horizontal layouts,
    where the content spans [W − contentSize.width, W] (W the bounds' width
    less the content insets). ``scale`` multiplies the document's width and
    height (the viewBox, in points, stays)."""
    if picture.bounds is None or picture.content_size is None:
        raise ValueError("the picture is empty: apply a layout/open result first")
    bounds = picture.bounds
    ox, oy = bounds.x, bounds.y
    centred: Optional[IndexPath] = picture.centered_item
    elements = picture.painting_order()

    lo_x, lo_y, hi_x, hi_y = view_box(picture)
    vw, vh = hi_x - lo_x, hi_y - lo_y

    ET.register_namespace("", SVG_NS)
    svg = ET.Element(
        f"{{{SVG_NS}}}svg",
        {
            "version": "1.1",
            "width": _n(vw * scale),
            "height": _n(vh * scale),
            "viewBox": f"{_n(lo_x)} {_n(lo_y)} {_n(vw)} {_n(vh)}",
        },
    )
    size = picture.content_size
    caption = title or "flowlayout"
    ET.SubElement(svg, f"{{{SVG_NS}}}title").text = (
        f"{caption}: bounds {_n(bounds.x)},{_n(bounds.y)} {_n(bounds.width)}x{_n(bounds.height)}, "
        f"contentSize {_n(size.width)}x{_n(size.height)}, {len(elements)} elements, "
        f"centred item {'-' if centred is None else f'{centred.section}-{centred.item}'}"
    )
    ET.SubElement(svg, f"{{{SVG_NS}}}style").text = _STYLE
    ET.SubElement(
        svg, f"{{{SVG_NS}}}path", {"class": "background", "d": _rect_path(lo_x, lo_y, vw, vh)}
    )
    ET.SubElement(
        svg,
        f"{{{SVG_NS}}}path",
        {"class": "viewport", "d": _rect_path(0, 0, bounds.width, bounds.height)},
    )

    radii = section_radii(elements)
    defs = None
    group = ET.SubElement(svg, f"{{{SVG_NS}}}g", {"id": "elements"})
    for a in elements:
        classes: List[str] = ["element", a.kind]
        if a.kind == "cell" and centred == a.index_path:
            classes.append("centered")
        attrs = {
            "class": " ".join(classes),
            "opacity": _n(a.alpha),
            "data-kind": a.kind,
            "data-section": str(a.section),
            "data-item": str(a.item),
            "data-z-index": str(a.z_index),
        }
        if a.lap:
            attrs["data-lap"] = str(a.lap)
        radius, rounded = corner_rounding(a, radii)
        if radius > 0 and a.transform is None:
            # A rounded list background or cell: the rect clipped to its
            # rounded outline (the rect stays the element's one shape).
            if defs is None:
                defs = ET.Element(f"{{{SVG_NS}}}defs")
                svg.insert(list(svg).index(group), defs)
            clip = f"round-{len(defs)}"
            path = _rounded_path(a.frame.x - ox, a.frame.y - oy, a.frame.width, a.frame.height, radius, rounded)
            ET.SubElement(ET.SubElement(defs, f"{{{SVG_NS}}}clipPath", {"id": clip}),
                          f"{{{SVG_NS}}}path", {"d": path})
            attrs["clip-path"] = f"url(#{clip})"
        g = ET.SubElement(group, f"{{{SVG_NS}}}g", attrs)
        shape, centre = _shape(a, ox, oy)
        g.append(shape)
        if a.kind == "separator":
            continue
        x0, y0, x1, y1 = _bbox(a.corners())
        font = min(24.0, max(9.0, 0.3 * min(x1 - x0, y1 - y0)))
        label = ET.SubElement(
            g,
            f"{{{SVG_NS}}}text",
            {"x": _n(centre.x), "y": _n(centre.y), "font-size": _n(font)},
        )
        label.text = element_label(a)

    # What lies outside the viewport is veiled, not hidden.
    ET.SubElement(
        svg,
        f"{{{SVG_NS}}}path",
        {
            "class": "outside",
            "d": _rect_path(lo_x, lo_y, vw, vh) + _rect_path(0, 0, bounds.width, bounds.height),
        },
    )
    ET.SubElement(
        svg,
        f"{{{SVG_NS}}}path",
        {
            "class": "content",
            "d": _rect_path(content_origin.x - ox, content_origin.y - oy, size.width, size.height),
        },
    )
    ET.SubElement(
        svg,
        f"{{{SVG_NS}}}path",
        {"class": "viewport-edge", "d": _rect_path(0, 0, bounds.width, bounds.height)},
    )
    ET.indent(svg, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") + "\n"

