"""Validation of the carousel options and of scrollEnded/scrollToItem params:
each bad value is -32602 naming its field path, and leaves the session as it
was."""

import pytest

B = {"x": 0, "y": 0, "width": 375, "height": 300}


def open_params(session, **layout):
    return {"session": session, "layout": dict({"type": "coverFlow"}, **layout), "bounds": B,
            "sections": [{"itemCount": 10}]}


@pytest.mark.parametrize("layout, field, message", [
    ({"snap": {"policy": "sticky"}}, "params.layout.snap.policy", 'must be one of "nearest", "directional", "paging", "free"'),
    ({"snap": {"decelerationRate": 1}}, "params.layout.snap.decelerationRate", "must not exceed 0.999 in magnitude"),
    ({"snap": {"decelerationRate": "slow"}}, "params.layout.snap.decelerationRate", 'must be one of "normal", "fast"'),
    ({"snap": {"maxItems": 0}}, "params.layout.snap.maxItems", "must be an integer from 1 to 1000000000"),
    ({"snap": {"edge": "free"}}, "params.layout.snap.edge", "is not a known field; did you mean edges?"),
    ({"overlap": {"visibleOffset": 10}}, "params.layout.overlap", 'requires spacingMode "overlap"'),
    ({"spacingMode": "overlap", "overlap": {"visibleOffset": 0}}, "params.layout.overlap.visibleOffset", "must be > 0"),
    ({"rotation": {"maxAngle": 100}}, "params.layout.rotation.maxAngle", "must not exceed 90 in magnitude"),
    ({"rotation": {"perspective": 50}}, "params.layout.rotation.perspective",
     "must exceed half the largest card extent times the largest scale times sin(maxAngle)"),
    ({"ends": "both"}, "params.layout.ends", 'must be one of "center", "contain", "centerIfFits"'),
    ({"loop": "yes"}, "params.layout.loop", "must be a boolean"),
])
def test_bad_carousel_options(server, layout, field, message):
    e = server.error("layout/open", open_params("c", **layout), code=-32602)
    suggestion = {"suggestion": "edges"} if "did you mean edges?" in message else {}
    assert e["data"] == {"field": field, **suggestion}
    assert e["message"] == f"{field} {message}"
    # Nothing was opened: the id is free.
    server.call("layout/open", open_params("c"))


def test_bad_scroll_params_leave_the_session_unchanged(server):
    server.call("layout/open", open_params("c"))
    before = server.call("layout/attributesInRect", {"session": "c", "rect": {"x": 0, "y": 0, "width": 3000, "height": 300}})
    e = server.error("layout/scrollEnded", {"session": "c", "contentOffset": {"x": 0, "y": 0}, "velocity": {"x": 0, "y": 0},
                                            "frameInterval": 0.5}, code=-32602)
    assert e["message"] == "params.frameInterval must be a finite number >= 1"
    e = server.error("layout/scrollToItem", {"session": "c", "section": 0, "item": 10}, code=-32602)
    assert e["message"] == "params.item is out of range: section 0 has 10 items"
    e = server.error("layout/scrollToItem", {"session": "c", "section": 0, "item": 1, "position": "middle"}, code=-32602)
    assert e["data"] == {"field": "params.position"}
    after = server.call("layout/attributesInRect", {"session": "c", "rect": {"x": 0, "y": 0, "width": 3000, "height": 300}})
    assert after == before
