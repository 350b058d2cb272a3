"""Indexed lines (issue 28): a flow of 1e8 zero-width items with no
spacing puts every item on one line. Each query finds its items by
arithmetic inside the line instead of walking it, so every answer below
comes well within the harness's timeout (walking the line took 20 to 40 s
each in a debug build), with the walk's own doubles."""

from __future__ import annotations

N = 100_000_000
GAP = 320 / (N - 1)  # rule 5: the line's 320 points shared by N − 1 gaps


def open_line(d) -> dict:
    # The viewport below the line: it meets no item (the line alone would
    # be an answer of 1e8 elements).
    return d.call("layout/open", {
        "session": "line", "layout": {"type": "flow", "itemSize": {"width": 0, "height": 10},
                                      "minimumInteritemSpacing": 0},
        "bounds": {"x": 0, "y": 20, "width": 320, "height": 100}, "sections": [{"itemCount": N}]})


def test_every_query_on_a_line_of_1e8_items(server):
    opened = open_line(server)
    assert opened["contentSize"] == {"width": 320, "height": 10} and opened["attributes"] == []
    for k in (0, 1, 50_000_000, N - 1):
        a = server.call("layout/attributesForItem", {"session": "line", "section": 0, "item": k})["attributes"]
        assert a["center"] == {"x": k * (0 + GAP), "y": 5}, (k, a)
    # A thin rect meets the items inside it: x = k · GAP in [100, 100.00001].
    page = server.call("layout/attributesInRect", {"session": "line", "rect": {"x": 100, "y": 0, "width": 1e-5,
                                                                                "height": 10}})
    items = [a["item"] for a in page["attributes"]]
    want = [k for k in range(int(100 / GAP) - 2, int(100.00001 / GAP) + 3) if 100 <= k * GAP <= 100.00001]
    assert items == want, (items[:3], want[:3])
    first = server.call("layout/attributesInRect", {"session": "line", "rect": {"x": 200, "y": 0, "width": 5,
                                                                                 "height": 10}, "limit": 1})
    assert [a["item"] for a in first["attributes"]] == [min(k for k in range(int(200 / GAP) - 2, int(200 / GAP) + 3)
                                                            if k * GAP >= 200)]
    # The resting place of a release and the nearest item come from a few
    # items around the point, not the line.
    plan = server.call("layout/scrollEnded", {"session": "line", "contentOffset": {"x": 0, "y": 0},
                                              "velocity": {"x": 0, "y": 1}})
    assert plan["targetContentOffset"] == {"x": 0, "y": 0}
    # A zero-width item holds a point only on its edge: at x = k · GAP.
    hit = server.call("layout/itemAtPoint", {"session": "line", "point": {"x": 7 * GAP, "y": 5}})
    assert hit is None or hit["item"] == 7, hit
    assert server.call("layout/itemAtPoint", {"session": "line", "point": {"x": 160, "y": 50}}) is None


def test_pages_of_the_whole_line_start_and_stop_by_index(server):
    # The rect spans the whole line: a page of 2 is its first 2 items met,
    # and the page after item 5e7 starts at item 5e7 + 1, each without
    # walking the 1e8 items (walking them once took 180 ms in release).
    open_line(server)
    rect = {"x": 0, "y": 0, "width": 320, "height": 10}
    first = server.call("layout/attributesInRect", {"session": "line", "rect": rect, "limit": 2})
    # Item 0's frame, of no width, lies on the rect's edge: the first met is 1.
    assert [a["item"] for a in first["attributes"]] == [1, 2]
    assert first["next"] == {"kind": "cell", "section": 0, "item": 2}
    deep = server.call("layout/attributesInRect", {
        "session": "line", "rect": rect, "limit": 3, "after": {"kind": "cell", "section": 0, "item": 50_000_000}})
    assert [a["item"] for a in deep["attributes"]] == [50_000_001, 50_000_002, 50_000_003]
    assert deep["attributes"][0]["center"] == {"x": 50_000_001 * GAP, "y": 5}
