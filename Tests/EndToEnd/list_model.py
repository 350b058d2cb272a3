"""An independent reference model of the `list` layout type (UIKit's
UICollectionLayoutListConfiguration, vertical scrolling).

Written from the specification only (the rules restated in the comments
below), without reading or sharing any of the daemon's code.

`build(layout, W, sections, measured)` lays a list out for a viewport W
points wide: `layout` is the wire layout object ({"type": "list", ...}),
`sections` the wire sections ({"itemCount": n} or {"itemSizes": [...]},
with their optional overrides), `measured` maps (section, item) to a height
reported by layout/setItemSizes. It returns every element in document order,
as dicts shaped like the daemon's attributes (kind, section, item, frame;
edge for separators; elementKind and cornerRadius for backgrounds;
cornerMask for grouped and insetGrouped cells), and the content height.
`at_bounds(result, bounds)` applies pinning (plain and sidebarPlain) for a
viewport {x, y, width, height}."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

SPACED = ("grouped", "insetGrouped", "sidebar")      # sectionSpacing around sections
INSET_ROWS = ("insetGrouped", "sidebar")              # rows inset by safe area + margins
BACKGROUNDS = ("grouped", "insetGrouped")             # background decoration + cornerMask
PINNING = ("plain", "sidebarPlain")                   # headers and footers pin
PINNED_Z = 1024


def frame(x: float, y: float, w: float, h: float) -> Dict[str, float]:
    return {"x": x, "y": y, "width": w, "height": h}


@dataclass
class Result:
    elements: List[dict]
    height: float
    width: float
    pins: bool
    spans: List[Tuple[float, float]] = field(default_factory=list)  # per section: rows start, rows end


def _sep_value(layers: List[dict], key: str):
    """The first layer (item override, section, layout) that gives `key`."""
    for layer in layers:
        if key in layer:
            return layer[key]
    return None


def _sep_inset(layers: List[dict], key: str, side: str) -> Optional[float]:
    """Insets merge field by field: leading and trailing fall back separately."""
    for layer in layers:
        insets = layer.get(key)
        if isinstance(insets, dict) and side in insets:
            return insets[side]
    return None


def build(layout: dict, W: float, sections: List[dict],
          measured: Optional[Dict[Tuple[int, int], float]] = None) -> Result:
    measured = measured or {}
    appearance = layout.get("appearance", "plain")
    rtl = layout.get("layoutDirection", "ltr") == "rtl"
    m = layout.get("layoutMargins", 20.0 if W >= 768 else 16.0)
    c = layout.get("cellLayoutMargins", 16.0)
    t = 1.0 / layout.get("displayScale", 2.0)
    safe = {"top": 0.0, "left": 0.0, "bottom": 0.0, "right": 0.0, **layout.get("safeAreaInsets", {})}
    sL, sR = (safe["right"], safe["left"]) if rtl else (safe["left"], safe["right"])
    spacing = layout.get("sectionSpacing", 20.0) if appearance in SPACED else 0.0
    radius = layout.get("cornerRadius", 10.0) if appearance == "insetGrouped" else 0.0
    estimate = layout.get("estimatedRowHeight", 44.0)
    padding = layout.get("headerTopPadding", 0.0)
    layout_seps = layout.get("separatorConfiguration", {})

    # Rule 1: row x and width (in leading coordinates; rule 7 mirrors at the end).
    full_width = appearance not in INSET_ROWS
    row_x, row_w = (0.0, W) if full_width else (sL + m, W - sL - sR - 2 * m)

    def heights(s: int, sec: dict) -> List[float]:
        if "itemSizes" in sec:
            hs = [float(z["height"]) for z in sec["itemSizes"]]
        else:
            hs = [float(estimate)] * sec.get("itemCount", 0)
        return [measured.get((s, i), h) for i, h in enumerate(hs)]

    all_heights = [heights(s, sec) for s, sec in enumerate(sections)]
    last_nonempty = max((s for s, hs in enumerate(all_heights) if hs), default=-1)

    out: List[dict] = []
    spans: List[Tuple[float, float]] = []
    y = 0.0
    for s, sec in enumerate(sections):
        hs = all_heights[s]
        n = len(hs)
        header_mode = sec.get("headerMode", layout.get("headerMode", "none"))
        footer_mode = sec.get("footerMode", layout.get("footerMode", "none"))
        header_h = sec.get("headerHeight", layout.get("headerHeight", 38.0))
        footer_h = sec.get("footerHeight", layout.get("footerHeight", 0.0))
        shows = sec.get("showsSeparators", layout.get("showsSeparators", True))
        section_seps = sec.get("separatorConfiguration", {})
        item_seps: Dict[int, dict] = {}
        for o in sec.get("itemSeparators", []):
            item_seps.setdefault(o["item"], {}).update({k: v for k, v in o.items() if k != "item"})
        first_item_header = header_mode == "firstItemInSection"

        # Rule 2: [spacing][headerTopPadding][header][rows][footer], spacing after the last too.
        y += spacing
        mine: List[dict] = []
        if header_mode == "supplementary" and header_h > 0:
            y += padding
            mine.append({"kind": "header", "section": s, "item": 0, "frame": frame(row_x, y, row_w, header_h)})
            y += header_h
        rows_start = y
        for i, h in enumerate(hs):
            row = frame(row_x, y, row_w, h)
            cell = {"kind": "cell", "section": s, "item": i, "frame": row}
            if appearance in BACKGROUNDS:  # rule 4
                mask = []
                if i == 0:
                    mask += ["topLeading", "topTrailing"]
                if i == n - 1:
                    mask += ["bottomLeading", "bottomTrailing"]
                cell["cornerMask"] = mask
            # Rule 3: separators.
            layers = [item_seps.get(i, {}), section_seps, layout_seps]
            last = (s == last_nonempty and i == n - 1) if appearance == "plain" else (i == n - 1)
            auto_bottom = not (appearance in ("sidebar", "sidebarPlain")
                               or (first_item_header and i == 0)
                               or (appearance in ("plain", "grouped", "insetGrouped") and last))
            seps = {}
            for edge, auto in (("top", False), ("bottom", auto_bottom)):
                vis = _sep_value(layers, edge + "SeparatorVisibility") or "automatic"
                visible = auto if vis == "automatic" else vis == "visible"
                if not (shows and visible):
                    continue
                lead = _sep_inset(layers, edge + "SeparatorInsets", "leading")
                trail = _sep_inset(layers, edge + "SeparatorInsets", "trailing")
                lead = (c + (sL if full_width else 0.0)) if lead is None else lead
                trail = 0.0 if trail is None else trail
                sy = y if edge == "top" else y + h - t
                seps[edge] = {"kind": "separator", "section": s, "item": i, "edge": edge,
                              "frame": frame(row_x + lead, sy, row_w - lead - trail, t)}
            if "top" in seps:
                mine.append(seps["top"])
            mine.append(cell)
            if "bottom" in seps:
                mine.append(seps["bottom"])
            y += h
        rows_end = y
        spans.append((rows_start, rows_end))
        if n and appearance in BACKGROUNDS:  # rule 4, first in its section
            mine.insert(0, {"kind": "decoration", "elementKind": "background", "section": s, "item": 0,
                            "cornerRadius": radius, "frame": frame(row_x, rows_start, row_w, rows_end - rows_start)})
        if footer_mode == "supplementary" and footer_h > 0:
            mine.append({"kind": "footer", "section": s, "item": 0, "frame": frame(row_x, y, row_w, footer_h)})
            y += footer_h
        out.extend(mine)
    if sections:
        y += spacing

    if rtl:  # rule 7
        for e in out:
            f = e["frame"]
            f["x"] = W - f["x"] - f["width"]
    return Result(out, y, W, appearance in PINNING, spans)


def pinned_y(kind: str, own: Dict[str, float], span: Tuple[float, float], bounds: dict) -> float:
    """Rule 6. span = (S, E): the y of the section's first row and the end
    of its last (both the rows' start for a section without rows)."""
    S, E = span
    h = own["height"]
    if kind == "header":
        return max(own["y"], min(bounds["y"], E - h))
    return min(own["y"], max(bounds["y"] + bounds["height"] - h, S))


def at_bounds(result: Result, bounds: dict) -> List[dict]:
    """The elements as seen from `bounds`: in plain and sidebarPlain the
    supplementary headers and footers pin. Each element gets "pinned": True
    when its y differs from its own."""
    out = []
    for e in result.elements:
        e = {**e, "frame": dict(e["frame"])}
        if result.pins and e["kind"] in ("header", "footer"):
            y = pinned_y(e["kind"], e["frame"], result.spans[e["section"]], bounds)
            if y != e["frame"]["y"]:
                e["frame"]["y"] = y
                e["pinned"] = True
        out.append(e)
    return out
