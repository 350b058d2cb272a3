"""Looping carousels (`loop: true`) through the daemon, by hand.

Cards of 200x300, spacing 30 (pitch 230), a 375x300 viewport and no scaling
(scale peak 1, factor 0), so frames are exact. In a loop the section has no
inset before its cards and the spacing after them: the period is P = 230n,
card k of lap L spans 230k + P*L ... +200, and rests (its centre at the
viewport's centre, 187.5) at 230k - 87.5 + P*L.
"""

from __future__ import annotations

import pytest

B = {"x": 0, "y": 0, "width": 375, "height": 300}


def bounds(x, width=375):
    return {"x": x, "y": 0, "width": width, "height": 300}


def open_loop(server, session, n, x=0, **layout):
    fields = {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"peak": 1, "factor": 0}, "loop": True}
    fields.update(layout)
    return server.call("layout/open", {"session": session, "layout": fields, "bounds": bounds(x),
                                       "sections": [{"itemCount": n}]})


def key(a):
    return (a["kind"], a["section"], a["item"], a.get("lap"))


def cells(attributes):
    """(item, lap, frame.x) of each element, in the daemon's order."""
    return [(a["item"], a["lap"], a["frame"]["x"]) for a in attributes]


class Picture:
    """The client's picture, keyed by (kind, section, item, lap)."""

    def __init__(self, opened):
        self.elements = {key(a): a for a in opened["attributes"]}

    def apply(self, result):
        for k in result["removed"]:
            assert key(k) in self.elements, f"removed {k} was not in the picture"
            del self.elements[key(k)]
        for a in result["invalidated"]:
            self.elements[key(a)] = a

    def check(self, server, session, visible):
        truth = server.call("layout/attributesInRect", {"session": session, "rect": visible})["attributes"]
        assert {key(a): a for a in truth} == self.elements


def test_open_reports_laps_and_one_period(server):
    # n = 3, P = 690. Bounds 0..375: lap 0's cards 0 (0..200) and 1 (230..430);
    # lap -1's card 2 (-230..-30) is outside. Centre 187.5: card 0 (100) is
    # 87.5 away, card 1 (330) 142.5.
    r = open_loop(server, "l", 3)
    assert r["contentSize"] == {"width": 690, "height": 300}
    assert cells(r["attributes"]) == [(0, 0, 0), (1, 0, 230)]
    assert r["centeredItem"] == {"section": 0, "item": 0, "lap": 0}
    assert server.call("layout/contentSize", {"session": "l"}) == {"contentSize": {"width": 690, "height": 300}}


def test_set_bounds_across_the_seam_sends_copies_as_distinct_elements(server):
    p = Picture(open_loop(server, "l", 3))
    # Bounds -300..75: lap -1's cards 1 (-460..-260) and 2 (-230..-30) enter,
    # card 0 stays (its zIndex changes: now 187.5 + 112.5 = 212.5 from the
    # centre -112.5, -(2*212 + 1) = -425), card 1 of lap 0 (230..) leaves.
    r = server.call("layout/setBounds", {"session": "l", "bounds": bounds(-300)})
    assert cells(r["invalidated"]) == [(1, -1, -460), (2, -1, -230), (0, 0, 0)]
    assert r["invalidated"][2]["zIndex"] == -425
    assert r["removed"] == [{"kind": "cell", "section": 0, "item": 1, "lap": 0}]
    # The centre -112.5 is 17.5 from lap -1's card 2 (centre -130).
    assert r["centeredItem"] == {"section": 0, "item": 2, "lap": -1}
    assert r["bounds"] == bounds(-300)
    p.apply(r)
    p.check(server, "l", bounds(-300))
    # Back and forth across several seams, both ways: the picture, patched
    # by each delta, always equals attributesInRect of the viewport.
    for x in [-700, -1400, -1390, 500, 690, 1380, 2000, -5, 0]:
        p.apply(server.call("layout/setBounds", {"session": "l", "bounds": bounds(x)}))
        p.check(server, "l", bounds(x))


@pytest.mark.parametrize("n", [1, 2, 50])
def test_few_or_many_items_loop_seamlessly(server, n):
    r = open_loop(server, "l", n, x=-100)
    p = Picture(r)
    if n == 1:
        # Bounds -100..275: three copies of item 0, at -230, 0 and 230.
        assert cells(r["attributes"]) == [(0, -1, -230), (0, 0, 0), (0, 1, 230)]
    if n == 2:
        # P = 460: lap -1's card 1 (230 - 460 = -230), then cards 0 and 1 (230 < 275).
        assert cells(r["attributes"]) == [(1, -1, -230), (0, 0, 0), (1, 0, 230)]
    if n == 50:
        # P = 11500: lap -1's card 49 at 11270 - 11500 = -230.
        assert cells(r["attributes"]) == [(49, -1, -230), (0, 0, 0), (1, 0, 230)]
    for x in range(-100, -1200, -170):
        p.apply(server.call("layout/setBounds", {"session": "l", "bounds": bounds(x)}))
        p.check(server, "l", bounds(x))
    for x in range(-1200, 1500, 130):
        p.apply(server.call("layout/setBounds", {"session": "l", "bounds": bounds(x)}))
        p.check(server, "l", bounds(x))


def test_snap_and_scroll_to_item_cross_the_seam(server):
    open_loop(server, "l", 10)
    # At rest at 2150: lap 1's card 0 rests at 2300 - 87.5 = 2212.5 (62.5
    # away), card 9 at 1982.5 (167.5 away).
    r = server.call("layout/scrollEnded", {"session": "l", "contentOffset": {"x": 2150, "y": 0},
                                           "velocity": {"x": 0, "y": 0}, "frameInterval": 1000})
    assert r["targetContentOffset"] == {"x": 2212.5, "y": 0}
    assert r["targetItem"] == {"section": 0, "item": 0, "lap": 1}
    assert r["trajectory"][-1] == r["targetContentOffset"]
    # Backward: from card 0 (-87.5) at -0.5 pt/ms: p = -87.5 - 249.5 = -337,
    # 19.5 from lap -1's card 9 (-317.5).
    r = server.call("layout/scrollEnded", {"session": "l", "contentOffset": {"x": -87.5, "y": 0},
                                           "velocity": {"x": -0.5, "y": 0}})
    assert r["targetContentOffset"] == {"x": -317.5, "y": 0}
    assert r["targetItem"] == {"section": 0, "item": 9, "lap": -1}
    server.call("layout/setBounds", {"session": "l", "bounds": bounds(-87.5)})
    # scrollToItem the shortest way round from -87.5: card 9 is 230 back
    # (lap -1) rather than 2070 ahead; card 5 is 1150 either way: forward.
    r = server.call("layout/scrollToItem", {"session": "l", "section": 0, "item": 9})
    assert r == {"contentOffset": {"x": -317.5, "y": 0}, "lap": -1}
    r = server.call("layout/scrollToItem", {"session": "l", "section": 0, "item": 5})
    assert r == {"contentOffset": {"x": 1062.5, "y": 0}, "lap": 0}


def test_far_offsets_are_reduced_by_the_daemon(server):
    near = open_loop(server, "l", 10, x=1400, scale={"factor": 0.4, "minimum": 0.6})["attributes"]
    # 1e9 = 434782 * 2300 + 1400: the same frames, moved by 999998600.
    far = server.call("layout/setBounds", {"session": "l", "bounds": bounds(1e9)})
    assert far["bounds"] == bounds(1e9)
    # 1400..1775 shows cards 6 (1380..1580) and 7 (1610..1810).
    assert [(a["item"], a["lap"]) for a in near] == [(6, 0), (7, 0)]
    assert [(a["item"], a["lap"]) for a in far["invalidated"]] == [(a["item"], a["lap"] + 434782) for a in near]
    for a, b in zip(far["invalidated"], near):
        assert a["frame"]["x"] == b["frame"]["x"] + 999998600
        assert a["transform"] == b["transform"]
    # The centre 1587.5 (reduced) is nearest card 6 (1480).
    assert far["centeredItem"] == {"section": 0, "item": 6, "lap": 434782}
    r = server.call("layout/scrollEnded", {"session": "l", "contentOffset": {"x": 1e9, "y": 0},
                                           "velocity": {"x": 0, "y": 0}})
    assert r["targetContentOffset"] == {"x": 999999892.5, "y": 0}
    assert r["targetItem"] == {"section": 0, "item": 6, "lap": 434782}
    # -1e9 = -434783 * 2300 + 900.
    r = server.call("layout/setBounds", {"session": "l", "bounds": bounds(-1e9)})
    assert r["centeredItem"]["lap"] == -434783


def test_anchoring_keeps_the_centred_card_and_its_lap(server):
    open_loop(server, "l", 3, x=-317.5)
    p = Picture(server.call("layout/attributesInRect", {"session": "l", "rect": bounds(-317.5)}))
    # Lap -1's card 2 is centred (-130). Deleting card 0 makes it card 1 of
    # the same lap: P = 460, centre 100 + 230 - 460 = -130, so the bounds stay.
    r = server.call("layout/performBatchUpdates", {"session": "l", "updates": {"deleteItems": [{"section": 0, "item": 0}]}})
    assert r["contentSize"] == {"width": 460, "height": 300}
    assert r["bounds"] == bounds(-317.5)
    assert r["centeredItem"] == {"section": 0, "item": 1, "lap": -1}
    p.apply(r)
    p.check(server, "l", bounds(-317.5))
    # Far away the lap is kept too, so the offset moves by lap * dP: at 1e9
    # (n = 10) card 6 of lap 434782 (centre 1480 + 999998600) sits 107.5
    # left of the centre. Without card 0 it is card 5: 1250 + 434782 * 2070
    # = 899999990, so the bounds start at 899999990 + 107.5 - 187.5.
    open_loop(server, "far", 10, x=1e9)
    r = server.call("layout/performBatchUpdates", {"session": "far", "updates": {"deleteItems": [{"section": 0, "item": 0}]}})
    assert r["bounds"] == bounds(899999910)
    assert r["centeredItem"] == {"section": 0, "item": 5, "lap": 434782}
    # A rotation keeps it too: its centre 899999990 stays 107.5 left of the
    # centre of a 500-wide viewport: x = 899999990 + 107.5 - 250.
    r = server.call("layout/setBounds", {"session": "far", "bounds": bounds(0, width=500)})
    assert r["bounds"] == bounds(899999847.5, width=500)
    assert r["centeredItem"] == {"section": 0, "item": 5, "lap": 434782}


def test_element_queries_name_the_lap(server):
    open_loop(server, "l", 10, headerReferenceSize={"width": 40, "height": 0})
    # With a 40-wide header: P = 40 + 2300 = 2340; card k at 40 + 230k.
    a = server.call("layout/attributesForItem", {"session": "l", "section": 0, "item": 9, "lap": -1})["attributes"]
    assert (a["lap"], a["frame"]["x"]) == (-1, 40 + 2070 - 2340)
    # Without a lap: the copy nearest the viewport's centre (lap -1's
    # centre -130 is nearer 187.5 than lap 0's 2210).
    a = server.call("layout/attributesForItem", {"session": "l", "section": 0, "item": 9})["attributes"]
    assert a["lap"] == -1
    h = server.call("layout/attributesForSupplementary", {"session": "l", "kind": "header", "section": 0, "lap": 2})
    assert h["attributes"]["frame"] == {"x": 4680, "y": 0, "width": 40, "height": 300}
    assert h["attributes"]["lap"] == 2
    # Lap -1's card 9 spans -230..-30; lap 0's header 0..40 is not hit;
    # card 0 spans 40..240.
    assert server.call("layout/itemAtPoint", {"session": "l", "point": {"x": -100, "y": 150}}) == \
        {"section": 0, "item": 9, "lap": -1}
    assert server.call("layout/itemAtPoint", {"session": "l", "point": {"x": 20, "y": 150}}) is None
    assert server.call("layout/itemAtPoint", {"session": "l", "point": {"x": 100, "y": 150}}) == \
        {"section": 0, "item": 0, "lap": 0}


def test_rtl_loops_mirror(server):
    # Mirrored about 375: card k of lap L at 175 - 230k - 2300L, so lap -1
    # lies to the right: bounds 200..575 show lap -1's card 9 (405) and card 0 (175).
    r = open_loop(server, "l", 10, x=200, layoutDirection="rtl")
    assert cells(r["attributes"]) == [(9, -1, 405), (0, 0, 175)]


@pytest.mark.parametrize("layout, field, message", [
    ({"loop": 1}, "params.layout.loop", "must be a boolean"),
    ({"loop": True, "scale": {"factor": -0.4}}, "params.layout.scale",
     "must stay bounded when loop is on: a linear curve needs a minimum (a maximum for a negative factor), "
     "a reciprocal one with a negative factor both"),
    ({"loop": True, "itemSize": {"width": 0, "height": 300}, "minimumLineSpacing": 0}, "params.layout.loop",
     "leaves the loop a period of 0 points (one copy's extent along the scroll axis); it must be at least 1"),
])
def test_bad_loops_are_refused(server, layout, field, message):
    e = server.error("layout/open", {"session": "c", "layout": dict({"type": "coverFlow"}, **layout), "bounds": B,
                                     "sections": [{"itemCount": 3}]}, code=-32602)
    assert e["data"] == {"field": field}
    assert e["message"] == f"{field} {message}"


def test_lap_limit_and_lap_without_loop_leave_sessions_unchanged(server):
    # A viewport 1e8 wide over a period of 230 spans ~434783 copies > 100000.
    e = server.error("layout/open", {"session": "c", "layout": {"type": "coverFlow", "loop": True},
                                     "bounds": bounds(0, width=1e8), "sections": [{"itemCount": 1}]}, code=1004)
    assert e["data"] == {"field": "params.bounds"}
    open_loop(server, "c", 1)
    before = server.call("layout/attributesInRect", {"session": "c", "rect": B})
    e = server.error("layout/setBounds", {"session": "c", "bounds": bounds(0, width=1e8)}, code=1004)
    assert e["message"] == "params.bounds makes one query span more than 100000 copies of the looping content, the limit"
    e = server.error("layout/attributesInRect", {"session": "c", "rect": bounds(0, width=1e8)}, code=1004)
    assert e["data"] == {"field": "params.rect"}
    assert server.call("layout/attributesInRect", {"session": "c", "rect": B}) == before
    # Turning the loop off through configure: laps are gone; lap is refused.
    r = server.call("layout/configure", {"session": "c", "layout": {"loop": False}})
    assert all("lap" not in a for a in r["invalidated"]) and "lap" not in r["centeredItem"]
    e = server.error("layout/attributesForItem", {"session": "c", "section": 0, "item": 0, "lap": 1}, code=-32602)
    assert e["message"] == "params.lap is only accepted when the layout loops"
