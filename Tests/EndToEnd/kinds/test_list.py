"""The `list` layout type (UIKit's UICollectionLayoutListConfiguration,
vertical scrolling).

Written from the specification only: the worked examples and the other
hand-computed cases below were worked out by hand from the rules, and the
seeded random comparison runs against list_model, an independent model
written from the same rules, without reading the daemon's code.
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, List, Optional, Tuple

import pytest

from list_model import BACKGROUNDS, PINNED_Z, at_bounds, build

TOL = 1e-9
TL, TT, BL, BT = "topLeading", "topTrailing", "bottomLeading", "bottomTrailing"


# MARK: helpers


def rect(x: float, y: float, w: float, h: float) -> Dict[str, float]:
    return {"x": x, "y": y, "width": w, "height": h}


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=TOL, abs_tol=TOL)


def open_list(server, name: str, fields: dict, W: float, sections: List[dict],
              H: float = 1000.0, y: float = 0.0) -> dict:
    return server.call("layout/open", {"session": name, "layout": {"type": "list", **fields},
                                       "bounds": rect(0, y, W, H), "sections": sections})


def everything(server, name: str) -> List[dict]:
    """Every element: a rect a little larger than the content all round."""
    size = server.call("layout/contentSize", {"session": name})["contentSize"]
    r = rect(-10, -10, size["width"] + 20, size["height"] + 20)
    return server.call("layout/attributesInRect", {"session": name, "rect": r})["attributes"]


def key(a: dict) -> Tuple[str, int, int, Optional[str]]:
    return (a["kind"], a["section"], a["item"], a.get("edge"))


def frame_of(a: dict) -> Tuple[float, float, float, float]:
    f = a["frame"]
    return (f["x"], f["y"], f["width"], f["height"])


def same_frame(got: dict, want: Tuple[float, float, float, float]) -> bool:
    return all(close(g, w) for g, w in zip(frame_of(got), want))


def expect(got: List[dict], want: List[Tuple[str, int, int, Optional[str], Tuple[float, float, float, float]]]) -> None:
    """`got` is exactly `want`, in order: (kind, section, item, edge, frame)."""
    assert [key(a) for a in got] == [w[:4] for w in want], [key(a) for a in got]
    for a, w in zip(got, want):
        assert same_frame(a, w[4]), (w[:4], a["frame"], w[4])


def cell(s: int, i: int, f) -> tuple:
    return ("cell", s, i, None, f)


def bottom(s: int, i: int, f) -> tuple:
    return ("separator", s, i, "bottom", f)


def top(s: int, i: int, f) -> tuple:
    return ("separator", s, i, "top", f)


def header(s: int, f) -> tuple:
    return ("header", s, 0, None, f)


def footer(s: int, f) -> tuple:
    return ("footer", s, 0, None, f)


def background(s: int, f) -> tuple:
    return ("decoration", s, 0, None, f)


def masks(got: List[dict]) -> List[Any]:
    return [a.get("cornerMask", "absent") for a in got if a["kind"] == "cell"]


def content_height(server, name: str) -> float:
    return server.call("layout/contentSize", {"session": name})["contentSize"]["height"]


# MARK: (a) the worked examples (W 390, cellLayoutMargins 16, displayScale 2, no safe area)


def test_worked_example_plain(server):
    got = open_list(server, "l", {}, 390, [{"itemCount": 3}])
    assert close(got["contentSize"]["width"], 390) and close(got["contentSize"]["height"], 132)
    a = everything(server, "l")
    expect(a, [
        cell(0, 0, (0, 0, 390, 44)), bottom(0, 0, (16, 43.5, 374, 0.5)),
        cell(0, 1, (0, 44, 390, 44)), bottom(0, 1, (16, 87.5, 374, 0.5)),
        cell(0, 2, (0, 88, 390, 44)),
    ])
    assert masks(a) == ["absent"] * 3


def test_worked_example_inset_grouped(server):
    got = open_list(server, "l", {"appearance": "insetGrouped", "layoutMargins": 16, "sectionSpacing": 20},
                    390, [{"itemCount": 3}])
    assert close(got["contentSize"]["height"], 172)
    a = everything(server, "l")
    expect(a, [
        background(0, (16, 20, 358, 132)),
        cell(0, 0, (16, 20, 358, 44)), bottom(0, 0, (32, 63.5, 342, 0.5)),
        cell(0, 1, (16, 64, 358, 44)), bottom(0, 1, (32, 107.5, 342, 0.5)),
        cell(0, 2, (16, 108, 358, 44)),
    ])
    assert a[0]["elementKind"] == "background" and close(a[0]["cornerRadius"], 10)
    assert a[0]["zIndex"] < a[1]["zIndex"]
    assert masks(a) == [[TL, TT], [], [BL, BT]]


def test_worked_example_inset_grouped_measured_row(server):
    sizes = [{"width": 1, "height": 44}, {"width": 1, "height": 60}, {"width": 1, "height": 44}]
    got = open_list(server, "l", {"appearance": "insetGrouped"}, 390, [{"itemSizes": sizes}])
    assert close(got["contentSize"]["height"], 188)
    expect(everything(server, "l"), [
        background(0, (16, 20, 358, 148)),
        cell(0, 0, (16, 20, 358, 44)), bottom(0, 0, (32, 63.5, 342, 0.5)),
        cell(0, 1, (16, 64, 358, 60)), bottom(0, 1, (32, 123.5, 342, 0.5)),
        cell(0, 2, (16, 124, 358, 44)),
    ])


# MARK: (b) hand-computed cases


def test_grouped(server):
    """Full-width rows, spacing 20 before each section and after the last,
    square backgrounds, no separator under each section's last row."""
    got = open_list(server, "l", {"appearance": "grouped"}, 390, [{"itemCount": 2}, {"itemCount": 1}])
    assert close(got["contentSize"]["height"], 192)
    a = everything(server, "l")
    expect(a, [
        background(0, (0, 20, 390, 88)),
        cell(0, 0, (0, 20, 390, 44)), bottom(0, 0, (16, 63.5, 374, 0.5)),
        cell(0, 1, (0, 64, 390, 44)),
        background(1, (0, 128, 390, 44)),
        cell(1, 0, (0, 128, 390, 44)),
    ])
    assert [b["cornerRadius"] for b in a if b["kind"] == "decoration"] == [0, 0]
    assert masks(a) == [[TL, TT], [BL, BT], [TL, TT, BL, BT]]


def test_sidebar(server):
    """Inset rows and spacing like insetGrouped, but no separators, no
    background and no cornerMask; an explicit visible still shows them."""
    open_list(server, "l", {"appearance": "sidebar", "headerMode": "supplementary"}, 390, [{"itemCount": 3}])
    assert close(content_height(server, "l"), 210)
    a = everything(server, "l")
    expect(a, [
        header(0, (16, 20, 358, 38)),
        cell(0, 0, (16, 58, 358, 44)), cell(0, 1, (16, 102, 358, 44)), cell(0, 2, (16, 146, 358, 44)),
    ])
    assert masks(a) == ["absent"] * 3
    open_list(server, "v", {"appearance": "sidebar", "headerMode": "supplementary",
                            "separatorConfiguration": {"bottomSeparatorVisibility": "visible"}},
              390, [{"itemCount": 3}])
    expect(everything(server, "v"), [
        header(0, (16, 20, 358, 38)),
        cell(0, 0, (16, 58, 358, 44)), bottom(0, 0, (32, 101.5, 342, 0.5)),
        cell(0, 1, (16, 102, 358, 44)), bottom(0, 1, (32, 145.5, 342, 0.5)),
        cell(0, 2, (16, 146, 358, 44)), bottom(0, 2, (32, 189.5, 342, 0.5)),
    ])


def test_sidebar_plain(server):
    """Full width, no spacing, no separators, no background."""
    open_list(server, "l", {"appearance": "sidebarPlain", "headerMode": "supplementary", "headerHeight": 30},
              390, [{"itemCount": 2}, {"itemCount": 1}])
    assert close(content_height(server, "l"), 192)
    a = everything(server, "l")
    expect(a, [
        header(0, (0, 0, 390, 30)), cell(0, 0, (0, 30, 390, 44)), cell(0, 1, (0, 74, 390, 44)),
        header(1, (0, 118, 390, 30)), cell(1, 0, (0, 148, 390, 44)),
    ])
    assert masks(a) == ["absent"] * 3


def test_supplementary_header_with_top_padding(server):
    """headerTopPadding 12 above each 30-point header; a section whose
    headerHeight is 0 has neither header nor padding. Plain: only the
    list's very last row has no separator."""
    open_list(server, "l", {"headerMode": "supplementary", "headerHeight": 30, "headerTopPadding": 12},
              390, [{"itemCount": 1}, {"itemCount": 2}, {"itemCount": 1, "headerHeight": 0}])
    assert close(content_height(server, "l"), 260)
    expect(everything(server, "l"), [
        header(0, (0, 12, 390, 30)),
        cell(0, 0, (0, 42, 390, 44)), bottom(0, 0, (16, 85.5, 374, 0.5)),
        header(1, (0, 98, 390, 30)),
        cell(1, 0, (0, 128, 390, 44)), bottom(1, 0, (16, 171.5, 374, 0.5)),
        cell(1, 1, (0, 172, 390, 44)), bottom(1, 1, (16, 215.5, 374, 0.5)),
        cell(2, 0, (0, 216, 390, 44)),
    ])


def test_supplementary_footer(server):
    """Footers of 25 under each section, also under an empty one (which has
    no background); the default footerHeight 0 means no footer at all."""
    open_list(server, "l", {"appearance": "grouped", "footerMode": "supplementary", "footerHeight": 25},
              390, [{"itemCount": 2}, {"itemCount": 0}])
    assert close(content_height(server, "l"), 198)
    expect(everything(server, "l"), [
        background(0, (0, 20, 390, 88)),
        cell(0, 0, (0, 20, 390, 44)), bottom(0, 0, (16, 63.5, 374, 0.5)),
        cell(0, 1, (0, 64, 390, 44)),
        footer(0, (0, 108, 390, 25)),
        footer(1, (0, 153, 390, 25)),
    ])
    open_list(server, "z", {"footerMode": "supplementary"}, 390, [{"itemCount": 1}])
    assert close(content_height(server, "z"), 44)
    expect(everything(server, "z"), [cell(0, 0, (0, 0, 390, 44))])


def test_first_item_in_section(server):
    """Row 0 is the header: an ordinary cell, no header element, no padding,
    no separator under it; an explicit visible on it wins."""
    fields = {"appearance": "insetGrouped", "headerMode": "firstItemInSection", "headerTopPadding": 12}
    open_list(server, "l", fields, 390, [{"itemCount": 3}])
    assert close(content_height(server, "l"), 172)
    a = everything(server, "l")
    expect(a, [
        background(0, (16, 20, 358, 132)),
        cell(0, 0, (16, 20, 358, 44)),
        cell(0, 1, (16, 64, 358, 44)), bottom(0, 1, (32, 107.5, 342, 0.5)),
        cell(0, 2, (16, 108, 358, 44)),
    ])
    assert masks(a) == [[TL, TT], [], [BL, BT]]
    open_list(server, "v", fields, 390,
              [{"itemCount": 3, "itemSeparators": [{"item": 0, "bottomSeparatorVisibility": "visible"}]}])
    expect(everything(server, "v"), [
        background(0, (16, 20, 358, 132)),
        cell(0, 0, (16, 20, 358, 44)), bottom(0, 0, (32, 63.5, 342, 0.5)),
        cell(0, 1, (16, 64, 358, 44)), bottom(0, 1, (32, 107.5, 342, 0.5)),
        cell(0, 2, (16, 108, 358, 44)),
    ])


def test_plain_pins_header_and_footer(server):
    """Two sections: a 30-point header, four rows, a 20-point footer each
    (content 452), in a 200-point viewport."""
    open_list(server, "l", {"headerMode": "supplementary", "headerHeight": 30,
                            "footerMode": "supplementary", "footerHeight": 20},
              390, [{"itemCount": 4}, {"itemCount": 4}], H=200)
    assert close(content_height(server, "l"), 452)

    def supplementaries() -> Dict[Tuple[str, int], dict]:
        return {(a["kind"], a["section"]): a for a in everything(server, "l") if a["kind"] in ("header", "footer")}

    # (bounds y, {element: (y, displaced)}): a header at max(own, min(minY, E - 30)),
    # a footer at min(own, max(maxY - 20, S)); S, E = 30, 206 and 256, 432.
    for y, want in [
        (0, {("header", 0): (0, False), ("footer", 0): (180, True),
             ("header", 1): (226, False), ("footer", 1): (256, True)}),
        (100, {("header", 0): (100, True), ("footer", 0): (206, False),
               ("header", 1): (226, False), ("footer", 1): (280, True)}),
        (252, {("header", 0): (176, True), ("footer", 0): (206, False),
               ("header", 1): (252, True), ("footer", 1): (432, False)}),
    ]:
        server.call("layout/setBounds", {"session": "l", "bounds": rect(0, y, 390, 200)})
        got = supplementaries()
        assert set(got) == set(want), (y, sorted(got))
        for k, (wy, displaced) in want.items():
            h = 30 if k[0] == "header" else 20
            assert same_frame(got[k], (0, wy, 390, h)), (y, k, got[k]["frame"])
            if displaced:
                assert got[k]["zIndex"] == PINNED_Z, (y, k, got[k])
    # Rows never move.
    rows = [a for a in everything(server, "l") if a["kind"] == "cell"]
    assert [a["frame"]["y"] for a in rows] == [30, 74, 118, 162, 256, 300, 344, 388]


def test_item_separator_overrides(server):
    """Per-item overrides fall back field by field to the section's
    separatorConfiguration, then the layout's, then the automatic values."""
    layout = {"separatorConfiguration": {"bottomSeparatorVisibility": "hidden",
                                         "bottomSeparatorInsets": {"leading": 5, "trailing": 7}}}
    sections = [
        {"itemCount": 3,
         "separatorConfiguration": {"bottomSeparatorVisibility": "visible", "bottomSeparatorInsets": {"leading": 40}},
         "itemSeparators": [
             {"item": 0, "topSeparatorVisibility": "visible", "topSeparatorInsets": {"leading": 0}},
             {"item": 1, "bottomSeparatorVisibility": "hidden"},
             {"item": 2, "bottomSeparatorInsets": {"trailing": 10}},
         ]},
        {"itemCount": 2,
         "itemSeparators": [{"item": 0, "bottomSeparatorVisibility": "visible",
                             "bottomSeparatorInsets": {"trailing": 3}}]},
    ]
    open_list(server, "l", layout, 390, sections)
    assert close(content_height(server, "l"), 220)
    expect(everything(server, "l"), [
        top(0, 0, (0, 0, 390, 0.5)),  # leading 0 (item), trailing automatic 0
        cell(0, 0, (0, 0, 390, 44)),
        bottom(0, 0, (40, 43.5, 343, 0.5)),  # visible (section), leading 40 (section), trailing 7 (layout)
        cell(0, 1, (0, 44, 390, 44)),  # hidden (item)
        cell(0, 2, (0, 88, 390, 44)),
        bottom(0, 2, (40, 131.5, 340, 0.5)),  # leading 40 (section), trailing 10 (item)
        cell(1, 0, (0, 132, 390, 44)),
        bottom(1, 0, (5, 175.5, 382, 0.5)),  # leading 5 (layout), trailing 3 (item)
        cell(1, 1, (0, 176, 390, 44)),  # hidden (layout)
    ])


def test_separator_insets_merge_field_by_field(server):
    """A given inset replaces the automatic one; the other stays automatic."""
    two = [{"itemCount": 2}]
    open_list(server, "t", {"separatorConfiguration": {"bottomSeparatorInsets": {"trailing": 30}}}, 390, two)
    expect([a for a in everything(server, "t") if a["kind"] == "separator"],
           [bottom(0, 0, (16, 43.5, 344, 0.5))])
    open_list(server, "l", {"separatorConfiguration": {"bottomSeparatorInsets": {"leading": 50}}}, 390, two)
    expect([a for a in everything(server, "l") if a["kind"] == "separator"],
           [bottom(0, 0, (50, 43.5, 340, 0.5))])
    open_list(server, "i", {"appearance": "insetGrouped",
                            "separatorConfiguration": {"bottomSeparatorInsets": {"trailing": 30}}}, 390, two)
    expect([a for a in everything(server, "i") if a["kind"] == "separator"],
           [bottom(0, 0, (32, 63.5, 312, 0.5))])
    open_list(server, "s", {"safeAreaInsets": {"top": 0, "left": 20, "bottom": 0, "right": 0},
                            "separatorConfiguration": {"bottomSeparatorInsets": {"trailing": 30}}}, 390, two)
    expect([a for a in everything(server, "s") if a["kind"] == "separator"],
           [bottom(0, 0, (36, 43.5, 324, 0.5))])  # leading automatic 16 + 20


def test_rtl(server):
    """rtl: leading is the physical right; sL = right inset 30, sR = left 10."""
    safe = {"top": 0, "left": 10, "bottom": 0, "right": 30}
    open_list(server, "i", {"appearance": "insetGrouped", "layoutDirection": "rtl", "safeAreaInsets": safe,
                            "headerMode": "supplementary"}, 390, [{"itemCount": 2}])
    assert close(content_height(server, "i"), 166)
    # Leading coordinates: rows at 30 + 16 = 46, width 390 - 40 - 32 = 318 -> x' = 390 - 46 - 318 = 26;
    # separator at 46 + 16 = 62, width 302 -> x' = 26.
    expect(everything(server, "i"), [
        background(0, (26, 58, 318, 88)),
        header(0, (26, 20, 318, 38)),
        cell(0, 0, (26, 58, 318, 44)), bottom(0, 0, (26, 101.5, 302, 0.5)),
        cell(0, 1, (26, 102, 318, 44)),
    ])
    open_list(server, "p", {"layoutDirection": "rtl", "safeAreaInsets": safe}, 390, [{"itemCount": 2}])
    # Full width; leading inset 16 + 30 from the right: x' = 390 - 46 - 344 = 0.
    expect(everything(server, "p"), [
        cell(0, 0, (0, 0, 390, 44)), bottom(0, 0, (0, 43.5, 344, 0.5)),
        cell(0, 1, (0, 44, 390, 44)),
    ])


def test_safe_area_on_plain(server):
    """Rows stay full width; the automatic leading separator inset grows by
    the leading safe-area inset. Top and bottom insets change nothing."""
    open_list(server, "l", {"safeAreaInsets": {"top": 47, "left": 44, "bottom": 34, "right": 20},
                            "headerMode": "supplementary", "headerHeight": 30}, 390, [{"itemCount": 3}])
    assert close(content_height(server, "l"), 162)
    expect(everything(server, "l"), [
        header(0, (0, 0, 390, 30)),
        cell(0, 0, (0, 30, 390, 44)), bottom(0, 0, (60, 73.5, 330, 0.5)),
        cell(0, 1, (0, 74, 390, 44)), bottom(0, 1, (60, 117.5, 330, 0.5)),
        cell(0, 2, (0, 118, 390, 44)),
    ])


def test_layout_margins_20_from_768_wide(server):
    got = open_list(server, "w", {"appearance": "insetGrouped"}, 800, [{"itemCount": 2}])
    assert close(got["contentSize"]["width"], 800) and close(got["contentSize"]["height"], 128)
    expect(everything(server, "w"), [
        background(0, (20, 20, 760, 88)),
        cell(0, 0, (20, 20, 760, 44)), bottom(0, 0, (36, 63.5, 744, 0.5)),  # 20 + cellLayoutMargins 16
        cell(0, 1, (20, 64, 760, 44)),
    ])
    open_list(server, "n", {"appearance": "insetGrouped"}, 767.5, [{"itemCount": 1}])
    expect(everything(server, "n"), [background(0, (16, 20, 735.5, 44)), cell(0, 0, (16, 20, 735.5, 44))])
    open_list(server, "e", {"appearance": "insetGrouped"}, 768, [{"itemCount": 1}])
    expect(everything(server, "e"), [background(0, (20, 20, 728, 44)), cell(0, 0, (20, 20, 728, 44))])
    # The rule follows the viewport: widening to 800 switches to 20.
    server.call("layout/setBounds", {"session": "n", "bounds": rect(0, 0, 800, 1000)})
    expect(everything(server, "n"), [background(0, (20, 20, 760, 44)), cell(0, 0, (20, 20, 760, 44))])


def test_measurement_with_set_item_sizes(server):
    """Measured heights replace the estimate; the width reported is ignored."""
    open_list(server, "l", {}, 390, [{"itemCount": 2}, {"itemCount": 2}])
    assert close(content_height(server, "l"), 176)
    server.call("layout/setItemSizes", {"session": "l", "sizes": [
        {"section": 0, "item": 1, "size": {"width": 123, "height": 60}},
        {"section": 1, "item": 0, "size": {"width": 7, "height": 30.5}},
    ]})
    assert close(content_height(server, "l"), 178.5)
    expect(everything(server, "l"), [
        cell(0, 0, (0, 0, 390, 44)), bottom(0, 0, (16, 43.5, 374, 0.5)),
        cell(0, 1, (0, 44, 390, 60)), bottom(0, 1, (16, 103.5, 374, 0.5)),
        cell(1, 0, (0, 104, 390, 30.5)), bottom(1, 0, (16, 134, 374, 0.5)),
        cell(1, 1, (0, 134.5, 390, 44)),
    ])
    # The same against an estimatedRowHeight of 50: measured rows keep their heights.
    open_list(server, "e", {"estimatedRowHeight": 50}, 390, [{"itemCount": 2}])
    server.call("layout/setItemSizes", {"session": "e", "sizes": [
        {"section": 0, "item": 0, "size": {"width": 1, "height": 20}}]})
    expect(everything(server, "e"), [
        cell(0, 0, (0, 0, 390, 20)), bottom(0, 0, (16, 19.5, 374, 0.5)),
        cell(0, 1, (0, 20, 390, 50)),
    ])


def test_shows_separators_false(server):
    """No separators at all, not even explicitly visible ones."""
    open_list(server, "l", {"showsSeparators": False,
                            "separatorConfiguration": {"topSeparatorVisibility": "visible"}},
              390, [{"itemCount": 2}, {"itemCount": 1, "showsSeparators": True}])
    expect(everything(server, "l"), [
        cell(0, 0, (0, 0, 390, 44)), cell(0, 1, (0, 44, 390, 44)),
        top(1, 0, (16, 88, 374, 0.5)), cell(1, 0, (0, 88, 390, 44)),
    ])


# MARK: (c) seeded random comparison against list_model


APPEARANCES = ["plain", "grouped", "insetGrouped", "sidebar", "sidebarPlain"]


def _maybe(rng: random.Random, p: float, value):
    return value if rng.random() < p else None


def _insets(rng: random.Random) -> Optional[dict]:
    out = {}
    if rng.random() < 0.5:
        out["leading"] = rng.choice([0, 4, 20, 33.5])
    if rng.random() < 0.5:
        out["trailing"] = rng.choice([0, 6, 12.25])
    return out or None


def _sep_config(rng: random.Random, p: float) -> dict:
    out = {}
    for edge in ("top", "bottom"):
        if rng.random() < p:
            out[edge + "SeparatorVisibility"] = rng.choice(["automatic", "visible", "hidden"])
        if rng.random() < p:
            ins = _insets(rng)
            if ins:
                out[edge + "SeparatorInsets"] = ins
    return out


def random_case(rng: random.Random) -> Tuple[dict, float, float, List[dict]]:
    W = rng.choice([320, 375, 390, 414.5, 700, 768, 820, 1024])
    layout: Dict[str, Any] = {"appearance": rng.choice(APPEARANCES)}
    if rng.random() < 0.4:
        layout["layoutDirection"] = rng.choice(["ltr", "rtl"])
    if rng.random() < 0.5:
        layout["safeAreaInsets"] = {"top": rng.choice([0, 20, 47]), "left": rng.choice([0, 10, 44, 59]),
                                    "bottom": rng.choice([0, 34]), "right": rng.choice([0, 21.5, 44])}
    if W < 768 and rng.random() < 0.3:  # explicit margins only where the automatic value would be 16
        layout["layoutMargins"] = rng.choice([0, 8, 16, 24])
    for name, choices in [("cellLayoutMargins", [0, 12, 16, 20]), ("displayScale", [1, 2, 3]),
                          ("sectionSpacing", [0, 20, 35]), ("cornerRadius", [0, 10, 12.5]),
                          ("estimatedRowHeight", [44, 50, 100 / 3]), ("indentationWidth", [10, 15]),
                          ("headerTopPadding", [0, 8, 22]), ("headerHeight", [0, 38, 30]),
                          ("footerHeight", [0, 18, 25])]:
        if rng.random() < 0.35:
            layout[name] = rng.choice(choices)
    layout["headerMode"] = rng.choice(["none", "supplementary", "supplementary", "firstItemInSection"])
    layout["footerMode"] = rng.choice(["none", "supplementary"])
    if rng.random() < 0.1:
        layout["showsSeparators"] = False
    sc = _sep_config(rng, 0.3)
    if sc:
        layout["separatorConfiguration"] = sc
    sections = []
    for _ in range(rng.randint(1, 4)):
        n = rng.choice([0, 1, 2, 3, 4])
        if n and rng.random() < 0.4:
            sec: Dict[str, Any] = {"itemSizes": [{"width": 1, "height": rng.choice([20, 30.5, 44, 61.25, 100 / 3])}
                                                 for _ in range(n)]}
        else:
            sec = {"itemCount": n}
        if rng.random() < 0.2:
            sec["headerMode"] = rng.choice(["none", "supplementary", "firstItemInSection"])
        if rng.random() < 0.15:
            sec["footerMode"] = rng.choice(["none", "supplementary"])
        if rng.random() < 0.15:
            sec["headerHeight"] = rng.choice([0, 26])
        if rng.random() < 0.15:
            sec["footerHeight"] = rng.choice([0, 14])
        if rng.random() < 0.1:
            sec["showsSeparators"] = rng.choice([True, False])
        if rng.random() < 0.25:
            sec["separatorConfiguration"] = _sep_config(rng, 0.5)
        if n and rng.random() < 0.3:
            items = rng.sample(range(n), rng.randint(1, n))
            sec["itemSeparators"] = [{"item": i, **_sep_config(rng, 0.5)} for i in items]
        sections.append(sec)
    H = rng.choice([150, 300, 700])
    return layout, W, H, sections


def compare(got: List[dict], want: List[dict], appearance: str, where: str) -> None:
    assert [key(a) for a in got] == [key(w) for w in want], (where, [key(a) for a in got], [key(w) for w in want])
    for a, w in zip(got, want):
        assert same_frame(a, frame_of(w)), (where, key(w), a["frame"], w["frame"])
        if w["kind"] == "decoration":
            assert a.get("elementKind") == "background", (where, a)
            assert close(a["cornerRadius"], w["cornerRadius"]), (where, a, w)
        if w["kind"] == "cell":
            if appearance in BACKGROUNDS:
                assert a.get("cornerMask") == w["cornerMask"], (where, a, w)
            else:
                assert "cornerMask" not in a, (where, a)
        if w.get("pinned"):
            assert a["zIndex"] == PINNED_Z, (where, a)


@pytest.mark.parametrize("seed", range(40))
def test_random_against_model(server, seed):
    rng = random.Random(seed)
    layout, W, H, sections = random_case(rng)
    where = f"seed {seed}: layout {layout!r}, W {W}, sections {sections!r}"
    got = open_list(server, "r", layout, W, sections, H=H)
    measured: Dict[Tuple[int, int], float] = {}
    rows = [(s, i) for s, sec in enumerate(sections)
            for i in range(len(sec["itemSizes"]) if "itemSizes" in sec else sec["itemCount"])]
    if rows and rng.random() < 0.5:
        for s, i in rng.sample(rows, rng.randint(1, min(3, len(rows)))):
            measured[(s, i)] = rng.choice([25, 44, 52.5, 90])
        server.call("layout/setItemSizes", {"session": "r", "sizes": [
            {"section": s, "item": i, "size": {"width": 1, "height": h}} for (s, i), h in measured.items()]})
    model = build({"type": "list", **layout}, W, sections, measured)
    size = server.call("layout/contentSize", {"session": "r"})["contentSize"]
    assert close(size["width"], W) and close(size["height"], model.height), (where, size, model.height)
    top_y = max(0.0, model.height - H)
    y = rng.choice([0.0, top_y, round(rng.uniform(0, top_y) * 2) / 2])
    bounds = rect(0, y, W, H)
    server.call("layout/setBounds", {"session": "r", "bounds": bounds})
    r = rect(-10, -10, W + 20, model.height + 20)
    attrs = server.call("layout/attributesInRect", {"session": "r", "rect": r})["attributes"]
    compare(attrs, at_bounds(model, bounds), layout["appearance"], where + f", bounds y {y}")


# MARK: (d) validation


@pytest.mark.parametrize("field,value", [("displayScale", 0), ("estimatedRowHeight", -1),
                                         ("indentationWidth", 0), ("sectionSpacing", -1)])
def test_invalid_numbers(server, field, value):
    bad = {"type": "list", "appearance": "insetGrouped", field: value}
    e = server.error("layout/open", {"session": "bad", "layout": bad, "bounds": rect(0, 0, 390, 800),
                                     "sections": [{"itemCount": 3}]}, -32602)
    assert field in e["message"], e
    open_list(server, "ok", {"appearance": "insetGrouped"}, 390, [{"itemCount": 3}])
    before = everything(server, "ok")
    size = server.call("layout/contentSize", {"session": "ok"})["contentSize"]
    e = server.error("layout/configure", {"session": "ok", "layout": bad}, -32602)
    assert field in e["message"], e
    assert everything(server, "ok") == before
    assert server.call("layout/contentSize", {"session": "ok"})["contentSize"] == size
    assert close(size["height"], 172)
