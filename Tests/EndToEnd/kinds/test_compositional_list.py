"""List sections in a compositional layout (`{"list": {…}}` in place of
`group`): NSCollectionLayoutSection.list(using:layoutEnvironment:).

Every expected value below was worked out by hand from the issue's rules
(W 390, cellLayoutMargins 16, displayScale 2 so separators are 0.5 thick),
before running the daemon: a list section's grouped spacing lies inside
the section, above and below its rows, `interSectionSpacing` adds between
sections, `contentInsets` sit around the list, the "last row of the list" is
that section's last, and `layoutDirection` is the compositional layout's.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Tuple

import pytest

TOL = 1e-9


def rect(x: float, y: float, w: float, h: float) -> Dict[str, float]:
    return {"x": x, "y": y, "width": w, "height": h}


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=TOL, abs_tol=TOL)


def key(a: dict) -> Tuple[str, int, int, Optional[str]]:
    return (a["kind"], a["section"], a["item"], a.get("edge"))


def frames(server, name: str, r: Optional[dict] = None) -> Dict[tuple, Tuple[float, ...]]:
    if r is None:
        size = server.call("layout/contentSize", {"session": name})["contentSize"]
        r = rect(-10, -10, size["width"] + 20, size["height"] + 20)
    attrs = server.call("layout/attributesInRect", {"session": name, "rect": r})["attributes"]
    return {key(a): tuple(a["frame"][k] for k in ("x", "y", "width", "height")) for a in attrs}


def assert_frame(got: Tuple[float, ...], want: Tuple[float, ...]) -> None:
    assert all(close(g, w) for g, w in zip(got, want)), (got, want)


GRID = {"group": {"direction": "horizontal",
                  "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 100}},
                  "subitems": [{"size": {"width": {"fractionalWidth": 0.5},
                                         "height": {"fractionalHeight": 1}}}]}}


def open_mixed(server, name: str, **layout) -> dict:
    """An insetGrouped list (3 rows), a two-column grid (4 items), a plain
    list (2 rows), 10 points apart."""
    return server.call("layout/open", {
        "session": name,
        "layout": {"type": "compositional", "interSectionSpacing": 10, **layout},
        "bounds": rect(0, 0, 390, 800),
        "sections": [
            {"itemCount": 3, "layout": {"list": {"appearance": "insetGrouped"}}},
            {"itemCount": 4, "layout": GRID},
            {"itemCount": 2, "layout": {"list": {}}},
        ]})


def test_mixed_sections_worked_example(server):
    open_mixed(server, "mixed")
    f = frames(server, "mixed")
    # Section 0, insetGrouped: 20 of spacing above, rows x 16 width 358.
    for j, y in enumerate([20, 64, 108]):
        assert_frame(f[("cell", 0, j, None)], (16, y, 358, 44))
    assert_frame(f[("decoration", 0, 0, None)], (16, 20, 358, 132))
    assert_frame(f[("separator", 0, 0, "bottom")], (32, 63.5, 342, 0.5))
    assert_frame(f[("separator", 0, 1, "bottom")], (32, 107.5, 342, 0.5))
    assert ("separator", 0, 2, "bottom") not in f
    # 20 of spacing below: the section ends at 172, the grid starts at 182.
    assert_frame(f[("cell", 1, 0, None)], (0, 182, 195, 100))
    assert_frame(f[("cell", 1, 1, None)], (195, 182, 195, 100))
    assert_frame(f[("cell", 1, 3, None)], (195, 282, 195, 100))
    # The plain list from 392: full width, its own last row has no separator.
    assert_frame(f[("cell", 2, 0, None)], (0, 392, 390, 44))
    assert_frame(f[("cell", 2, 1, None)], (0, 436, 390, 44))
    assert_frame(f[("separator", 2, 0, "bottom")], (16, 435.5, 374, 0.5))
    assert ("separator", 2, 1, "bottom") not in f
    assert ("decoration", 2, 0, None) not in f
    size = server.call("layout/contentSize", {"session": "mixed"})["contentSize"]
    assert size == {"width": 390, "height": 480}
    # The background carries its radius and lies below the cells; the
    # corners are named on the first and last rows only.
    attrs = server.call("layout/attributesInRect",
                        {"session": "mixed", "rect": rect(0, 0, 390, 172)})["attributes"]
    by = {key(a): a for a in attrs}
    bg = by[("decoration", 0, 0, None)]
    assert bg["elementKind"] == "background" and bg["cornerRadius"] == 10
    assert bg["zIndex"] < by[("cell", 0, 0, None)]["zIndex"]
    assert sorted(by[("cell", 0, 0, None)]["cornerMask"]) == ["topLeading", "topTrailing"]
    assert "cornerMask" not in by[("cell", 0, 1, None)] or by[("cell", 0, 1, None)]["cornerMask"] == []
    assert sorted(by[("cell", 0, 2, None)]["cornerMask"]) == ["bottomLeading", "bottomTrailing"]


def test_measured_row_moves_what_follows(server):
    open_mixed(server, "measured")
    server.call("layout/setItemSizes", {"session": "measured", "sizes": [
        {"section": 0, "item": 1, "size": {"width": 999, "height": 60}}]})
    f = frames(server, "measured")
    # Row 1 is 60 tall (its width ignored); everything after moves by 16.
    assert_frame(f[("cell", 0, 1, None)], (16, 64, 358, 60))
    assert_frame(f[("cell", 0, 2, None)], (16, 124, 358, 44))
    assert_frame(f[("decoration", 0, 0, None)], (16, 20, 358, 148))
    assert_frame(f[("cell", 1, 0, None)], (0, 198, 195, 100))
    assert_frame(f[("cell", 2, 1, None)], (0, 452, 390, 44))
    assert server.call("layout/contentSize", {"session": "measured"})["contentSize"]["height"] == 496


def test_content_insets_sit_around_the_list(server):
    server.call("layout/open", {
        "session": "insets", "layout": {"type": "compositional"},
        "bounds": rect(0, 0, 390, 600),
        "sections": [
            {"itemCount": 2, "layout": {"list": {}, "contentInsets":
                                    {"top": 5, "leading": 10, "bottom": 7, "trailing": 20}}},
            {"itemCount": 2, "layout": {"list": {"appearance": "insetGrouped"},
                                    "contentInsets": {"leading": 10, "trailing": 20}}},
        ]})
    f = frames(server, "insets")
    # Plain: the rows fill the 360 between the insets.
    assert_frame(f[("cell", 0, 0, None)], (10, 5, 360, 44))
    assert_frame(f[("separator", 0, 0, "bottom")], (26, 48.5, 344, 0.5))
    # Section 0 ends at 5 + 88 + 7 = 100; insetGrouped adds its margins
    # inside the insets: x 10 + 16, width 360 - 32, and 20 of spacing.
    assert_frame(f[("cell", 1, 0, None)], (26, 120, 328, 44))
    assert_frame(f[("separator", 1, 0, "bottom")], (42, 163.5, 312, 0.5))
    assert_frame(f[("decoration", 1, 0, None)], (26, 120, 328, 88))
    assert server.call("layout/contentSize", {"session": "insets"})["contentSize"]["height"] == 228


def test_rtl_is_the_compositional_layouts(server):
    server.call("layout/open", {
        "session": "rtl", "layout": {"type": "compositional", "layoutDirection": "rtl"},
        "bounds": rect(0, 0, 390, 600),
        "sections": [{"itemCount": 2, "layout": {"list": {}, "contentInsets": {"leading": 10}}}]})
    f = frames(server, "rtl")
    # Mirrored: the leading inset is on the right, the separator's 16 too.
    assert_frame(f[("cell", 0, 0, None)], (0, 0, 380, 44))
    assert_frame(f[("separator", 0, 0, "bottom")], (0, 43.5, 364, 0.5))


def test_plain_list_section_headers_pin(server):
    server.call("layout/open", {
        "session": "pin", "layout": {"type": "compositional"},
        "bounds": rect(0, 50, 390, 300),
        "sections": [{"itemCount": 10, "layout": {"list": {"headerMode": "supplementary"}}},
                     {"itemCount": 10, "layout": {"list": {"headerMode": "supplementary",
                                                       "appearance": "grouped"}}}]})
    f = frames(server, "pin", rect(0, 50, 390, 300))
    # Rows 38..478: the header pins at the bounds' top.
    assert_frame(f[("header", 0, 0, None)], (0, 50, 390, 38))
    # Near the section's end it is pushed up: max(0, min(460, 478 - 38)).
    server.call("layout/setBounds", {"session": "pin", "bounds": rect(0, 460, 390, 300)})
    f = frames(server, "pin", rect(0, 460, 390, 300))
    assert_frame(f[("header", 0, 0, None)], (0, 440, 390, 38))
    # A grouped section's header never pins: 478 + 20 of spacing.
    assert_frame(f[("header", 1, 0, None)], (0, 498, 390, 38))
    server.call("layout/setBounds", {"session": "pin", "bounds": rect(0, 700, 390, 300)})
    f = frames(server, "pin", rect(0, 700, 390, 300))
    assert ("header", 1, 0, None) not in f


def test_item_separators_at_open_and_later(server):
    server.call("layout/open", {
        "session": "seps", "layout": {"type": "compositional"},
        "bounds": rect(0, 0, 390, 600),
        "sections": [
            {"itemCount": 3, "layout": {"list": {"itemSeparators": [
                {"item": 0, "bottomSeparatorInsets": {"leading": 0}}]}}},
            {"itemCount": 2, "layout": GRID}]})
    f = frames(server, "seps")
    assert_frame(f[("separator", 0, 0, "bottom")], (0, 43.5, 390, 0.5))
    assert_frame(f[("separator", 0, 1, "bottom")], (16, 87.5, 374, 0.5))
    answer = server.call("layout/setItemSeparators", {"session": "seps", "items": [
        {"section": 0, "item": 2, "bottomSeparatorVisibility": "visible",
         "bottomSeparatorInsets": {"trailing": 8}}]})
    # The change's delta carries the new separator.
    changed = {key(a): a for a in answer["invalidated"]}
    assert ("separator", 0, 2, "bottom") in changed
    f = frames(server, "seps")
    assert_frame(f[("separator", 0, 2, "bottom")], (16, 131.5, 366, 0.5))
    # The earlier override stays: entries merge per item.
    assert_frame(f[("separator", 0, 0, "bottom")], (0, 43.5, 390, 0.5))
    e = server.error("layout/setItemSeparators", {"session": "seps", "items": [
        {"section": 1, "item": 0, "bottomSeparatorVisibility": "visible"}]}, -32602)
    assert "params.items[0]" in e["message"], e
    assert frames(server, "seps") == f


@pytest.mark.parametrize("extra", ["boundarySupplementaryItems", "decorationItems", "group"])
def test_list_sections_take_no_group_fields(server, extra):
    value = {"boundarySupplementaryItems": [{"kind": "header", "size": {
        "width": {"fractionalWidth": 1}, "height": {"absolute": 30}}}],
        "decorationItems": [{"kind": "background"}],
        "group": GRID["group"]}[extra]
    e = server.error("layout/open", {
        "session": "bad", "layout": {"type": "compositional"},
        "bounds": rect(0, 0, 390, 600),
        "sections": [{"itemCount": 2, "layout": {"list": {}, extra: value}}]}, -32602)
    assert f"params.sections[0].layout.{extra}" in e["message"], e
    # Nothing was opened.
    server.error("layout/contentSize", {"session": "bad"})


def test_list_sections_need_a_vertical_layout(server):
    e = server.error("layout/open", {
        "session": "h", "layout": {"type": "compositional", "scrollDirection": "horizontal",
                                   "section": {"list": {}}},
        "bounds": rect(0, 0, 390, 600), "sections": [{"itemCount": 2}]}, -32602)
    assert "params.layout.scrollDirection" in e["message"], e
    open_mixed(server, "turn")
    before = frames(server, "turn")
    e = server.error("layout/configure", {"session": "turn", "layout": {
        "type": "compositional", "scrollDirection": "horizontal"}}, -32602)
    assert "section 0" in e["message"] and "scrollDirection" in e["message"], e
    assert frames(server, "turn") == before
    e = server.error("layout/open", {
        "session": "dir", "layout": {"type": "compositional"},
        "bounds": rect(0, 0, 390, 600),
        "sections": [{"itemCount": 2, "layout": {"list": {"layoutDirection": "rtl"}}}]}, -32602)
    assert "params.sections[0].layout.list.layoutDirection" in e["message"], e


def test_queries_agree_on_list_sections(server):
    open_mixed(server, "q")
    # itemAtPoint and attributesForItem see the list rows.
    hit = server.call("layout/itemAtPoint", {"session": "q", "point": {"x": 200, "y": 70}})
    assert (hit["section"], hit["item"]) == (0, 1)
    a = server.call("layout/attributesForItem", {"session": "q", "section": 2, "item": 1})
    assert a["attributes"]["frame"] == rect(0, 436, 390, 44)
    # Pages with `after` on a separator go on with the next row.
    page = server.call("layout/attributesInRect", {
        "session": "q", "rect": rect(0, 0, 390, 480), "limit": 2,
        "after": {"kind": "separator", "edge": "bottom", "section": 0, "item": 0}})
    assert [key(a) for a in page["attributes"]] == [("cell", 0, 1, None),
                                                    ("separator", 0, 1, "bottom")]
