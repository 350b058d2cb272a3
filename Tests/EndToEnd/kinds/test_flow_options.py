"""Flow options through the wire: pinned headers and footers, rtl, and
their validation. Expected frames are worked out by hand (protocol.md,
rules 9 and 10)."""

from daemon_support import snap_target


def rect(x, y, w, h):
    return {"x": x, "y": y, "width": w, "height": h}


PINNED = {
    "session": "p",
    "layout": {
        "type": "flow",
        "itemSize": {"width": 100, "height": 50},
        "headerReferenceSize": {"width": 0, "height": 30},
        "sectionHeadersPinToVisibleBounds": True,
    },
    "bounds": rect(0, 0, 320, 200),
    "sections": [{"itemCount": 6}, {"itemCount": 6}],
}


def headers(result_list):
    return {a["section"]: (a["frame"], a["zIndex"]) for a in result_list if a["kind"] == "header"}


def test_pinned_headers_follow_the_bounds(server):
    r = server.call("layout/open", PINNED)
    # Section 0 spans 0–140 (header 0–30, rows 30–80 and 90–140); section 1 140–280.
    assert headers(r["attributes"]) == {0: (rect(0, 0, 320, 30), 1024), 1: (rect(0, 140, 320, 30), 1024)}
    r = server.call("layout/setBounds", {"session": "p", "bounds": rect(0, 125, 320, 200)})
    # Header 0 is pushed up by section 1: at most 140 − 30 = 110.
    # Only header 0 moved, so only it is sent again.
    assert headers(r["invalidated"]) == {0: (rect(0, 110, 320, 30), 1024)}
    r = server.call("layout/setBounds", {"session": "p", "bounds": rect(0, 200, 320, 200)})
    assert headers(r["invalidated"]) == {1: (rect(0, 200, 320, 30), 1024)}
    assert {"kind": "header", "section": 0, "item": 0} in r["removed"]
    r = server.call("layout/attributesForSupplementary", {"session": "p", "kind": "header", "section": 1})
    assert r["attributes"]["frame"] == rect(0, 200, 320, 30)


def test_rtl_horizontal_flow_runs_to_negative_x(server):
    params = {
        "session": "r",
        "layout": {"type": "flow", "scrollDirection": "horizontal", "itemSize": {"width": 40, "height": 40},
                   "layoutDirection": "rtl"},
        "bounds": rect(0, 0, 300, 100),
        "sections": [{"itemCount": 20}],
    }
    r = server.call("layout/open", params)
    # Ten columns 50 apart (content 490 wide) mirrored about W = 300: item 0 at 260.
    assert r["contentSize"] == {"width": 490, "height": 100}
    first = [a for a in r["attributes"] if a["item"] in (0, 1)]
    assert [a["frame"] for a in first] == [rect(260, 0, 40, 40), rect(260, 60, 40, 40)]
    r = server.call("layout/attributesForItem", {"session": "r", "section": 0, "item": 19})
    assert r["attributes"]["frame"] == rect(-190, 60, 40, 40)
    assert server.call("layout/itemAtPoint", {"session": "r", "point": {"x": 280, "y": 70}}) == {"section": 0, "item": 1}


def test_rtl_cover_flow_snaps_to_negative_offsets(server):
    server.call("layout/open", {
        "session": "c",
        "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}, "layoutDirection": "rtl"},
        "bounds": rect(0, 0, 375, 300),
        "sections": [{"itemCount": 10}],
    })
    r = server.call("layout/scrollEnded", {"session": "c", "contentOffset": {"x": -100, "y": 0},
                                           "velocity": {"x": 0, "y": 0}, "proposedContentOffset": {"x": -120, "y": 0}})
    assert snap_target(r) == {"targetContentOffset": {"x": -230, "y": 0}, "targetItem": {"section": 0, "item": 1}}
    r = server.call("layout/setBounds", {"session": "c", "bounds": rect(-230, 0, 375, 300)})
    assert r["centeredItem"] == {"section": 0, "item": 1}
    centred = [a for a in r["invalidated"] if a["item"] == 1][0]
    assert centred["center"] == {"x": -42.5, "y": 150}
    assert "transform" not in centred


def test_option_types_are_checked(server):
    bad = dict(PINNED, layout=dict(PINNED["layout"], sectionHeadersPinToVisibleBounds="yes"))
    e = server.error("layout/open", bad, code=-32602)
    assert e["message"] == "params.layout.sectionHeadersPinToVisibleBounds must be a boolean"
    bad = dict(PINNED, layout=dict(PINNED["layout"], layoutDirection="up"))
    e = server.error("layout/open", bad, code=-32602)
    assert e["message"] == 'params.layout.layoutDirection must be one of "ltr", "rtl"'
