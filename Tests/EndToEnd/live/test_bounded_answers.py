"""Bounded answers (issues #18 and #28): an answer that would exceed
maxAnswerBytes (8 MiB by default: about 25 ms of writing, within the 50 ms
a small request may hold the loop) is refused with 1004 before it is
built, counted from the placement's index, and nothing changes."""

from __future__ import annotations

import time

import pytest


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def rect(x, y, w, h):
    return {"x": x, "y": y, "width": w, "height": h}


def test_a_rect_over_ten_million_cells_is_refused_at_once(server):
    """37 cells of 10×10 a line across 375 (10 apart: (375 + 10) / 20 = 19
    … with the default 10-point spacing, 19 a line): 10,000,000 cells in
    526,316 lines. The whole rect meets every one: at 154 bytes each at the
    least, over 8 MiB."""
    server.call("layout/open", {"session": "big", "layout": {"type": "flow", "itemSize": {"width": 10, "height": 10}},
                                "bounds": rect(0, 0, 375, 600), "sections": [{"itemCount": 10_000_000}]})
    size = server.call("layout/contentSize", {"session": "big"})["contentSize"]
    assert size == {"width": 375, "height": 526316 * 20 - 10}
    before = rss_kib(server.proc.pid)
    t = time.monotonic()
    e = server.error("layout/attributesInRect", {"session": "big", "rect": rect(0, 0, 375, size["height"])}, code=1004)
    assert time.monotonic() - t < 1.0
    assert e["data"] == {"field": "params.rect"}
    assert e["message"] == (
        "params.rect meets up to 10000002 elements: an answer of at least 1540000308 bytes, "
        "more than maxAnswerBytes (8388608); ask for a smaller rect")
    assert rss_kib(server.proc.pid) - before < 4096
    # A viewport is answered as ever.
    got = server.call("layout/attributesInRect", {"session": "big", "rect": rect(0, 1000, 375, 600)})
    assert len(got["attributes"]) == 19 * 30


def test_a_huge_viewport_is_refused_and_the_session_stays(server):
    server.call("layout/open", {"session": "big", "layout": {"type": "flow", "itemSize": {"width": 10, "height": 10}},
                                "bounds": rect(0, 0, 375, 600), "sections": [{"itemCount": 10_000_000}]})
    before = server.call("layout/attributesInRect", {"session": "big", "rect": rect(0, 0, 375, 600)})
    t = time.monotonic()
    e = server.error("layout/setBounds", {"session": "big", "bounds": rect(0, 0, 375, 1e14)}, code=1004)
    assert time.monotonic() - t < 1.0
    assert e["data"] == {"field": "params.bounds"}
    assert e["message"].startswith("params.bounds meets up to 10000002 elements")
    assert server.call("layout/attributesInRect", {"session": "big", "rect": rect(0, 0, 375, 600)}) == before
    # The next frame's delta is against the picture before the refusal.
    r = server.call("layout/setBounds", {"session": "big", "bounds": rect(0, 20, 375, 600)})
    assert len(r["invalidated"]) == 19 and len(r["removed"]) == 19
    # An open with such a viewport is refused and opens nothing.
    e = server.error("layout/open", {"session": "tall", "layout": {"type": "flow", "itemSize": {"width": 10, "height": 10}},
                                     "bounds": rect(0, 0, 375, 1e14), "sections": [{"itemCount": 10_000_000}]}, code=1004)
    assert e["data"] == {"field": "params.bounds"}
    server.error("layout/contentSize", {"session": "tall"}, code=1001)


def test_a_change_that_would_fill_a_large_viewport_is_refused(spawn):
    """A viewport that was fine with few items cannot be filled by an
    append whose answer would not fit: under --max-answer-bytes 100000 a
    viewport of 2,000 cells answers about 160 KB."""
    d = spawn("--max-answer-bytes", "100000")
    d.initialize()
    d.call("layout/open", {"session": "s", "layout": {"type": "flow", "itemSize": {"width": 10, "height": 10}},
                           "bounds": rect(0, 0, 375, 2400), "sections": [{"itemCount": 10}]})
    e = d.error("layout/appendItems", {"session": "s", "section": 0, "itemCount": 3000}, code=1004)
    assert e["data"] == {"field": "params.itemCount"}
    assert d.call("layout/contentSize", {"session": "s"})["contentSize"]["height"] == 10
    e = d.error("layout/performBatchUpdates", {"session": "s", "updates": {"insertSections": [
        {"index": 1, "itemCount": 3000}]}}, code=1004)
    assert e["data"] == {"field": "params.updates"}
    e = d.error("layout/reloadData", {"session": "s", "sections": [{"itemCount": 3000}]}, code=1004)
    assert e["data"] == {"field": "params.sections"}
    assert d.call("layout/contentSize", {"session": "s"})["contentSize"]["height"] == 10
    # 400 cells (about 64 KB) fit.
    d.call("layout/appendItems", {"session": "s", "section": 0, "itemCount": 390})


def test_answers_longer_than_their_shortest_are_refused_too(spawn):
    """The count's lower bound passes 500 cover-flow cards under 100 KB
    (500 × 154 = 77 KB), but with their transforms they take about 250 KB:
    the answer is refused as soon as what is written passes the limit, and
    nothing was changed."""
    d = spawn("--max-answer-bytes", "100000")
    d.initialize()
    d.call("layout/open", {"session": "cf", "layout": {"type": "coverFlow", "itemSize": {"width": 100, "height": 100},
                                                       "scale": {"factor": 0.3}},
                           "bounds": rect(0, 0, 375, 300), "sections": [{"itemCount": 500}]})
    size = d.call("layout/contentSize", {"session": "cf"})["contentSize"]
    e = d.error("layout/attributesInRect", {"session": "cf", "rect": rect(-1000, -1000, size["width"] + 2000, 2300)},
                code=1004)
    assert e["data"] == {"field": "params.rect"}
    # Refused as soon as the answer being written passes the limit.
    n = int(e["message"].split()[4])
    assert 100_000 // 500 < n < 500
    assert e["message"] == (
        f"params.rect meets at least {n} elements: an answer of more than 100000 bytes "
        "(maxAnswerBytes); ask for a smaller rect")
    d.ping()


@pytest.mark.parametrize("layout", [
    {"type": "coverFlow", "loop": True, "itemSize": {"width": 20, "height": 20}},
    {"type": "waterfall", "columnCount": 3},
    {"type": "carousel", "style": "rotary"},
])
def test_every_type_counts_its_rect(server, layout):
    server.call("layout/open", {"session": "t", "layout": layout, "bounds": rect(0, 0, 375, 600),
                                "sections": [{"itemCount": 2_000_000}]})
    whole = rect(-1e9, -1e9, 2e9, 2e9) if layout["type"] != "waterfall" else rect(0, 0, 375, 1e12)
    r = server.request("layout/attributesInRect", {"session": "t", "rect": whole})
    if layout["type"] == "carousel":
        assert len(r["result"]["attributes"]) == 12  # its visible items, whatever the rect
    elif layout.get("loop"):
        assert r["error"]["code"] in (1004,)  # too many laps, or too many elements
    else:
        assert r["error"]["code"] == 1004 and r["error"]["message"].startswith("params.rect meets up to 2000002")
