"""The waterfall layout type through the wire: frames worked out by hand from
protocol.md's waterfall rules, every live-session method on it, stable
placement, and its bad input (each error names its field and leaves the
session exactly as it was)."""

import json

import pytest


def rect(x, y, w, h):
    return {"x": x, "y": y, "width": w, "height": h}


def size(w, h, **extra):
    return dict({"width": w, "height": h}, **extra)


MASONRY = {
    "session": "w",
    "layout": {"type": "waterfall", "columnCount": 3, "headerHeight": 20, "footerHeight": 10},
    "bounds": rect(0, 0, 320, 300),
    "sections": [
        {"itemSizes": [size(100, 100), size(100, 50), size(100, 150), size(100, 50),
                       size(100, 40, fullSpan=True), size(50, 50)]},
        {"itemCount": 4, "columnCount": 2, "minimumColumnSpacing": 20, "headerHeight": 0},
    ],
}


def frames(attrs, kind="cell"):
    return {(a["section"], a["item"]): a["frame"] for a in attrs if a["kind"] == kind}


def everything(server, session="w"):
    r = server.call("layout/attributesInRect", {"session": session, "rect": rect(-1, -1, 1e6, 1e6)})
    return r["attributes"]


def test_open_places_columns_full_span_items_and_section_overrides(server):
    r = server.call("layout/open", MASONRY)
    # colW = (320 − 20) / 3 = 100; header 0…20; the full-span item at
    # max(top) = 180, 128 tall; item 5 at 318 in column 0, 100 tall.
    all_ = everything(server)
    f = frames(all_)
    assert f[(0, 0)] == rect(0, 20, 100, 100)
    assert f[(0, 3)] == rect(110, 80, 100, 50)
    assert f[(0, 4)] == rect(0, 180, 320, 128)
    assert f[(0, 5)] == rect(0, 318, 100, 100)
    # Footer at 418 (10 thick); section 1 from 428 with no header: two
    # columns of (320 − 20) / 2 = 150, items 50×50 → 150 tall.
    assert frames(all_, "footer") == {(0, 0): rect(0, 418, 320, 10), (1, 0): rect(0, 738, 320, 10)}
    assert f[(1, 0)] == rect(0, 428, 150, 150)
    assert f[(1, 1)] == rect(170, 428, 150, 150)
    assert f[(1, 2)] == rect(0, 588, 150, 150)
    assert r["contentSize"] == {"width": 320, "height": 748}
    # Document order: header, cells by index, footer, section by section.
    keys = [(a["kind"], a["section"], a["item"]) for a in all_]
    assert keys[:3] == [("header", 0, 0), ("cell", 0, 0), ("cell", 0, 1)]
    assert keys[7] == ("footer", 0, 0)


def test_scrolling_sends_only_what_changed_and_queries_answer_frames(server):
    server.call("layout/open", MASONRY)
    r = server.call("layout/setBounds", {"session": "w", "bounds": rect(0, 150, 320, 300)})
    # 150…450: item 5, footer 0 and section 1's first row enter.
    cells = [(a["section"], a["item"]) for a in r["invalidated"] if a["kind"] == "cell"]
    assert cells == [(0, 5), (1, 0), (1, 1)]
    assert frames(r["invalidated"], "footer") == {(0, 0): rect(0, 418, 320, 10)}
    assert {"kind": "header", "section": 0, "item": 0} in r["removed"]
    assert r["centeredItem"] == {"section": 0, "item": 4}
    hit = server.call("layout/itemAtPoint", {"session": "w", "point": {"x": 150, "y": 100}})
    assert hit == {"section": 0, "item": 3}
    assert server.call("layout/itemAtPoint", {"session": "w", "point": {"x": 105, "y": 100}}) is None
    a = server.call("layout/attributesForItem", {"session": "w", "section": 1, "item": 3})
    assert a["attributes"]["frame"] == rect(170, 588, 150, 150)
    # Item 5 (318…418): leading puts its top at the bounds' top.
    r = server.call("layout/scrollToItem", {"session": "w", "section": 0, "item": 5, "position": "leading"})
    assert r["contentOffset"] == {"x": 0, "y": 318}
    h = server.call("layout/attributesForSupplementary", {"session": "w", "kind": "footer", "section": 1})
    assert h["attributes"]["frame"] == rect(0, 738, 320, 10)


def test_pinned_headers_stick_and_are_pushed_out(server):
    p = json.loads(json.dumps(MASONRY))
    p["layout"]["sectionHeadersPinToVisibleBounds"] = True
    p["sections"][1]["headerHeight"] = 30
    server.call("layout/open", p)
    r = server.call("layout/setBounds", {"session": "w", "bounds": rect(0, 100, 320, 300)})
    assert frames(r["invalidated"], "header") == {(0, 0): rect(0, 100, 320, 20)}
    assert [a["zIndex"] for a in r["invalidated"] if a["kind"] == "header"] == [1024]
    # Section 0's items end at 418: the header stops at 398.
    r = server.call("layout/setBounds", {"session": "w", "bounds": rect(0, 405, 320, 300)})
    assert frames(r["invalidated"], "header")[(0, 0)] == rect(0, 398, 320, 20)


def test_batch_updates_animate_and_stable_keeps_columns(server):
    base = {
        "bounds": rect(0, 0, 210, 400),
        "sections": [{"itemSizes": [size(100, 100), size(100, 50), size(100, 50), size(100, 50)],
                      "ids": ["a", "b", "c", "d"]}],
    }
    server.call("layout/open", dict(base, session="packed", layout={"type": "waterfall"}))
    server.call("layout/open", dict(base, session="stable", layout={"type": "waterfall", "placement": "stable"}))
    insert = {"insertItems": [{"section": 0, "item": 0, "size": size(100, 10), "id": "new"}]}

    def columns(session):
        return [0 if a["frame"]["x"] == 0 else 1 for a in everything(server, session) if a["kind"] == "cell"]

    r = server.call("layout/performBatchUpdates", {"session": "stable", "updates": insert})
    assert columns("stable") == [0, 0, 1, 1, 0]
    assert [a["item"] for a in r["appearing"]] == [0]
    # Only column 0 moved: items 1 and 4 (a and d); b and c only changed index.
    moved = {m["item"]: (m["fromFrame"], m["frame"]) for m in r["moved"]}
    assert set(moved) == {1, 4}
    assert moved[1] == (rect(0, 0, 100, 100), rect(0, 20, 100, 100))
    assert moved[4] == (rect(0, 110, 100, 50), rect(0, 130, 100, 50))
    server.call("layout/performBatchUpdates", {"session": "packed", "updates": insert})
    assert columns("packed") == [0, 1, 0, 0, 1]
    # UIKit's validation, and the session unchanged after a rejected batch.
    before = everything(server, "stable")
    e = server.error("layout/performBatchUpdates", {"session": "stable", "updates": {
        "deleteItems": [{"section": 0, "item": 9}]}}, code=1003)
    assert "attempt to delete item 9 from section 0" in e["message"]
    assert everything(server, "stable") == before
    # reloadData places afresh; the anchor follows its id.
    server.call("layout/reloadData", {"session": "stable", "sections": [
        {"itemSizes": [size(100, 10), size(100, 100), size(100, 50), size(100, 50), size(100, 50)]}]})
    assert columns("stable") == [0, 1, 0, 0, 1]


def test_rotation_keeps_stable_columns_and_anchors(server):
    sizes = [size(100, 10 + 37 * i % 90) for i in range(40)]
    server.call("layout/open", {"session": "s", "layout": {"type": "waterfall", "placement": "stable",
                                                          "columnCount": 3},
                                "bounds": rect(0, 0, 320, 400), "sections": [{"itemSizes": sizes}]})
    server.call("layout/performBatchUpdates", {"session": "s", "updates": {
        "insertItems": [{"section": 0, "item": 0, "size": size(100, 300)}]}})
    before = [a["frame"]["x"] for a in everything(server, "s") if a["kind"] == "cell"]
    r = server.call("layout/setBounds", {"session": "s", "bounds": rect(0, 300, 650, 400)})
    after = [a["frame"]["x"] for a in everything(server, "s") if a["kind"] == "cell"]
    # (650 − 20) / 3 = 210 per column: every item keeps its column index.
    assert [round(x / 210) for x in after] == [round(x / 100) for x in before]
    assert r["bounds"]["width"] == 650


def test_self_sizing_append_and_configure(server):
    server.call("layout/open", {"session": "e", "layout": {"type": "waterfall", "estimatedItemSize": size(10, 10)},
                                "bounds": rect(0, 0, 210, 400), "sections": [{"itemCount": 3}]})
    # Estimates: 100 tall each, columns 0, 1, 0.
    assert frames(everything(server, "e"))[(0, 2)] == rect(0, 110, 100, 100)
    server.call("layout/setItemSizes", {"session": "e", "sizes": [
        {"section": 0, "item": 0, "size": size(100, 20)}]})
    # Item 0 is 20 tall now: item 2 goes to column 0 at 30.
    assert frames(everything(server, "e"))[(0, 2)] == rect(0, 30, 100, 100)
    server.call("layout/appendItems", {"session": "e", "section": 0,
                                       "itemSizes": [size(1, 1, fullSpan=True), size(1, 2)]})
    f = frames(everything(server, "e"))
    assert f[(0, 3)] == rect(0, 140, 210, 210)
    assert f[(0, 4)] == rect(0, 360, 100, 200)
    r = server.call("layout/configure", {"session": "e", "layout": {"columnCount": 1}})
    # One column of 210: 42 + 210 + 210 + 210 (full span) + 420, and 4 gaps.
    assert r["contentSize"]["height"] == 42 + 210 + 210 + 210 + 420 + 4 * 10
    # Configure to flow drops fullSpan: item 3 is 1×1 again.
    server.call("layout/configure", {"session": "e", "layout": {"type": "flow"}})
    assert frames(everything(server, "e"))[(0, 3)]["width"] == 1


def test_horizontal_rtl_masonry(server):
    r = server.call("layout/open", {"session": "h", "layout": {
        "type": "waterfall", "scrollDirection": "horizontal", "layoutDirection": "rtl"},
        "bounds": rect(0, 0, 300, 210), "sections": [{"itemSizes": [size(50, 100), size(100, 50)]}]})
    # Rows 100 tall; item 0 is 50 long, item 1 200 long; content 200 wide,
    # mirrored about W = 300: item 0 at 300 − 0 − 50.
    assert r["contentSize"] == {"width": 200, "height": 210}
    f = frames(r["attributes"])
    assert f[(0, 0)] == rect(250, 0, 50, 100)
    assert f[(0, 1)] == rect(100, 110, 200, 100)


def test_pixel_scale_and_minimum_content_height(server):
    r = server.call("layout/open", {"session": "p", "layout": {
        "type": "waterfall", "pixelScale": 3, "minimumContentHeight": 500, "minimumColumnSpacing": 10},
        "bounds": rect(0, 0, 101, 400), "sections": [{"itemSizes": [size(3, 2), size(1, 1)]}]})
    f = frames(r["attributes"])
    assert f[(0, 0)] == rect(0, 0, 136 / 3, 30)
    assert f[(0, 1)] == rect(136 / 3 + 10, 0, 136 / 3, 136 / 3)
    assert r["contentSize"] == {"width": 101, "height": 500}


OPEN = {"session": "b", "layout": {"type": "waterfall"}, "bounds": rect(0, 0, 320, 400),
        "sections": [{"itemCount": 5}]}


@pytest.mark.parametrize("params, field, problem", [
    ({"layout": {"type": "waterfall", "columnCount": 0}}, "params.layout.columnCount", "must be an integer from 1 to 1024"),
    ({"layout": {"type": "waterfall", "columnCount": 2.5}}, "params.layout.columnCount", "must be an integer"),
    ({"layout": {"type": "waterfall", "placement": "loose"}}, "params.layout.placement", "must be one of"),
    ({"layout": {"type": "waterfall", "itemRenderDirection": "up"}}, "params.layout.itemRenderDirection", "must be one of"),
    ({"layout": {"type": "waterfall", "pixelScale": -1}}, "params.layout.pixelScale", "must be"),
    ({"layout": {"type": "waterfall", "minimumColumnSpacing": -1}}, "params.layout.minimumColumnSpacing", "must be"),
    ({"layout": {"type": "waterfall", "minimumLineSpacing": 3}}, "params.layout.minimumLineSpacing", ""),
    ({"layout": {"type": "waterfall", "snap": {"edges": "wrap"}}}, "params.layout.snap.edges", "must be one of"),
    ({"sections": [{"itemCount": 1, "headerSize": size(0, 1)}]}, "params.sections[0].headerSize", ""),
    ({"sections": [{"itemCount": 1, "columnCount": 0}]}, "params.sections[0].columnCount", "must be an integer from 1 to 1024"),
    ({"sections": [{"itemSizes": [size(1, 1, fullSpan=1)]}]}, "params.sections[0].itemSizes[0].fullSpan", "must be"),
    ({"sections": [{"itemSizes": [size(1, 1, span=True)]}]}, "params.sections[0].itemSizes[0].span", ""),
])
def test_bad_waterfall_open_names_the_field(server, params, field, problem):
    e = server.error("layout/open", dict(OPEN, **params), code=-32602)
    assert e["data"]["field"] == field
    assert problem in e["message"]
    # Nothing was opened.
    server.error("layout/contentSize", {"session": "b"}, code=1001)


def test_flow_sessions_reject_waterfall_fields(server):
    e = server.error("layout/open", {"session": "f", "layout": {"type": "flow"}, "bounds": rect(0, 0, 320, 400),
                                     "sections": [{"itemSizes": [size(1, 1, fullSpan=True)]}]}, code=-32602)
    assert e["data"]["field"] == "params.sections[0].itemSizes[0].fullSpan"
    e = server.error("layout/open", {"session": "f", "layout": {"type": "flow"}, "bounds": rect(0, 0, 320, 400),
                                     "sections": [{"itemCount": 1, "columnCount": 2}]}, code=-32602)
    assert e["data"]["field"] == "params.sections[0].columnCount"


def test_bad_waterfall_changes_leave_the_session_unchanged(server):
    server.call("layout/open", OPEN)
    before = everything(server, "b")
    for method, params, field in [
        ("layout/configure", {"layout": {"columnCount": 5000}}, "params.layout.columnCount"),
        ("layout/performBatchUpdates", {"updates": {"insertItems": [
            {"section": 0, "item": 0, "size": size(1, 1, fullSpan="yes")}]}},
         "params.updates.insertItems[0].size.fullSpan"),
        ("layout/setItemSizes", {"sizes": [{"section": 0, "item": 0, "size": size(1, -1)}]},
         "params.sizes[0].size.height"),
        ("layout/appendItems", {"section": 0, "itemSizes": [size(1, 1, wide=True)]},
         "params.itemSizes[0].wide"),
        ("layout/reloadData", {"sections": [{"itemCount": 1, "minimumLineSpacing": 1}]},
         "params.sections[0].minimumLineSpacing"),
    ]:
        e = server.error(method, dict(params, session="b"), code=-32602)
        assert e["data"]["field"] == field, method
        assert everything(server, "b") == before


def test_python_client_chunks_full_span_items_with_their_flag():
    """5,000 sizes exceed the 2,048 values a request may carry: the client
    sends the rest through layout/appendItems, as itemSizes (not the flat
    widthsAndHeights) wherever a size spans every column, so every 100th
    item still spans the 320 points."""
    import os

    from flowlayout.client import Client

    sizes = [size(100, 50 + i % 7 * 10, **({"fullSpan": True} if i % 100 == 0 else {}))
             for i in range(5000)]
    with Client(os.environ.get("FLOWLAYOUTD")) as client:
        client.open("c", {"type": "waterfall", "columnCount": 3}, rect(0, 0, 320, 400),
                    [{"itemSizes": sizes}])
        spanning = [a.item for a in client.attributes_in_rect("c", rect(-1, -1, 400, 1e9))
                    if a.kind == "cell" and a.frame.width == 320]
    assert spanning == list(range(0, 5000, 100))


def test_scroll_ended_snaps_an_item_top_to_the_visible_top(server):
    """Tops 0, 60, 110, 120 and 170 in a 100-point viewport (content 220):
    a release projected to 70 rests on item 2's top, 60; without snap the
    projection stands."""
    sizes = [size(100, h) for h in (100, 50, 50, 50, 100, 30)]
    base = {"bounds": rect(0, 0, 210, 100), "sections": [{"itemSizes": sizes}]}
    server.call("layout/open", dict(base, session="s", layout={"type": "waterfall", "snap": {"policy": "nearest"}}))
    server.call("layout/open", dict(base, session="f", layout={"type": "waterfall"}))
    r = server.call("layout/scrollEnded", {"session": "s", "contentOffset": {"x": 0, "y": 0},
                                           "velocity": {"x": 0, "y": 0}, "proposedContentOffset": {"x": 0, "y": 70}})
    assert r["targetContentOffset"] == {"x": 0, "y": 60}
    assert r["targetItem"] == {"section": 0, "item": 2}
    assert r["policy"] == "nearest"
    r = server.call("layout/scrollEnded", {"session": "f", "contentOffset": {"x": 0, "y": 0},
                                           "velocity": {"x": 0, "y": 0}, "proposedContentOffset": {"x": 0, "y": 70}})
    assert r["targetContentOffset"] == {"x": 0, "y": 70}
    assert r["policy"] == "free"
    e = server.error("layout/configure", {"session": "s", "layout": {"snap": {"policy": "sideways"}}}, code=-32602)
    assert e["data"]["field"] == "params.layout.snap.policy"


def test_deletes_disappear_and_the_anchor_stays_where_it_was(server):
    """Scrolled to 500 in one column of 100-point items 110 apart, the
    first visible item is 4 (440…540): its centre, 490, is 10 above the
    bounds' origin. Two items inserted above move it to 660…760, and the
    answer's bounds follow to 720, keeping it 10 above. A delete lists the
    deleted item as disappearing, at its old frame with alpha 0."""
    server.call("layout/open", {"session": "a", "layout": {"type": "waterfall", "columnCount": 1},
                                "bounds": rect(0, 500, 100, 300),
                                "sections": [{"itemSizes": [size(100, 100)] * 30}]})
    r = server.call("layout/performBatchUpdates", {"session": "a", "updates": {"insertItems": [
        {"section": 0, "item": 0, "size": size(100, 100)}, {"section": 0, "item": 1, "size": size(100, 100)}]}})
    assert r["bounds"]["y"] == 720
    r = server.call("layout/performBatchUpdates", {"session": "a", "updates": {
        "deleteItems": [{"section": 0, "item": 7}]}})
    gone = [(a["item"], a["alpha"], a["frame"]["y"]) for a in r["disappearing"]]
    assert gone == [(7, 0, 770)]


def test_waterfall_sessions_have_their_own_item_limit(spawn):
    """With --max-waterfall-items 100: 101 items are refused at open,
    reload, append and batch, and a flow session of 101 items cannot become
    a waterfall; every refusal leaves the session as it was."""
    d = spawn("--max-waterfall-items", "100")
    limits = d.initialize()["capabilities"]["limits"]
    assert limits["maxWaterfallItems"] == 100
    message = "holds more than 100 items, the per-session limit of a waterfall"
    e = d.error("layout/open", dict(OPEN, sections=[{"itemCount": 101}]), code=1004)
    assert e["data"]["field"] == "params.sections" and message in e["message"]
    d.call("layout/open", dict(OPEN, sections=[{"itemCount": 100}]))
    for method, params, field in [
        ("layout/reloadData", {"sections": [{"itemCount": 101}]}, "params.sections"),
        ("layout/appendItems", {"section": 0, "itemCount": 1}, "params.itemCount"),
        ("layout/performBatchUpdates", {"updates": {"insertItems": [{"section": 0, "item": 0}]}},
         "params.updates"),
    ]:
        e = d.error(method, dict(params, session="b"), code=1004)
        assert e["data"]["field"] == field and message in e["message"], method
    assert d.call("layout/contentSize", {"session": "b"})["contentSize"]["height"] == 50 * 165 - 10
    d.call("layout/open", {"session": "f", "layout": {"type": "flow"}, "bounds": rect(0, 0, 320, 400),
                           "sections": [{"itemCount": 101}]})
    e = d.error("layout/configure", {"session": "f", "layout": {"type": "waterfall"}}, code=1004)
    assert e["data"]["field"] == "params.layout.type"
    # Still a flow layout: 101 items of 50×50, 5 a row (55 apart), 21 rows.
    assert d.call("layout/contentSize", {"session": "f"})["contentSize"]["height"] == 21 * 60 - 10
