"""Paging for snapshots (issue #18): layout/attributesInRect with `limit`
and `after` answers a rect a page at a time, in document order, each
element exactly once, with `next` while more remain."""

from __future__ import annotations

import pytest

from daemon_support import DAEMON, TIMEOUT

from flowlayout import Client


def rect(x, y, w, h):
    return {"x": x, "y": y, "width": w, "height": h}


def answer_timeout(elements: int) -> float:
    """The harness's wait, plus one for every 20,000 elements (about 4 MB)."""
    return TIMEOUT * (1 + elements / 20_000)


def walk(d, session: str, r: dict, limit: int):
    out, after, pages = [], None, 0
    while True:
        params = {"session": session, "rect": r, "limit": limit}
        if after is not None:
            params["after"] = after
        # A page's answer is about 200 bytes an element: its wait scales
        # with it (a loaded machine writes and parses it slowly).
        page = d.call("layout/attributesInRect", params, timeout=answer_timeout(limit))
        pages += 1
        assert len(page["attributes"]) <= limit
        out += page["attributes"]
        if "next" not in page:
            return out, pages
        last = page["attributes"][-1]
        assert page["next"] == {k: last[k] for k in ("kind", "section", "item", "lap") if k in last}
        after = page["next"]


def test_a_large_flow_pages_through_every_element_once_in_order(spawn):
    """200,000 cells of 10×10 in two sections with headers: 20 pages of
    10,000, concatenated equal to the whole answer (about 40 MB, which the
    default maxAnswerBytes of 8 MiB refuses: this daemon allows 64 MiB)."""
    server = spawn("--max-answer-bytes", str(64 << 20))
    server.initialize()
    server.call("layout/open", {"session": "big", "layout": {
        "type": "flow", "itemSize": {"width": 10, "height": 10}, "headerReferenceSize": {"width": 0, "height": 30}},
        "bounds": rect(0, 0, 375, 600), "sections": [{"itemCount": 150_000}, {"itemCount": 50_000}]})
    size = server.call("layout/contentSize", {"session": "big"})["contentSize"]
    whole_rect = rect(0, 0, 375, size["height"])
    paged, pages = walk(server, "big", whole_rect, 10_000)
    assert pages == 21  # 200,002 elements (two headers)
    keys = [(a["section"], a["kind"], a["item"]) for a in paged]
    assert keys[0] == (0, "header", 0) and keys[1] == (0, "cell", 0)
    assert keys[150_001] == (1, "header", 0) and keys[-1] == (1, "cell", 49_999)
    assert len(set(keys)) == len(keys) == 200_002
    whole = server.call("layout/attributesInRect", {"session": "big", "rect": whole_rect},
                        timeout=answer_timeout(200_002))["attributes"]
    assert paged == whole


@pytest.mark.parametrize("layout", [
    {"type": "waterfall", "columnCount": 3, "headerHeight": 20},
    {"type": "coverFlow", "loop": True, "itemSize": {"width": 60, "height": 80}},
    {"type": "carousel", "style": "rotary"},
    {"type": "flow", "layoutDirection": "rtl", "scrollDirection": "horizontal"},
    # Groups of three: a cursor's page starts in the group holding it.
    {"type": "compositional", "section": {"group": {
        "direction": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 40}},
        "count": 3, "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]}}},
])
def test_every_type_pages_as_it_answers(server, layout):
    sizes = [{"width": 40 + (i * 7) % 50, "height": 30 + (i * 13) % 70} for i in range(300)]
    server.call("layout/open", {"session": "t", "layout": layout, "bounds": rect(0, 0, 375, 600),
                                "sections": [{"itemSizes": sizes}, {"itemCount": 40}]})
    r = rect(-3000, -3000, 9000, 9000)
    whole = server.call("layout/attributesInRect", {"session": "t", "rect": r})["attributes"]
    assert whole
    for limit in (1, 7, 64):
        assert walk(server, "t", r, limit)[0] == whole, limit


def test_a_page_far_in_costs_what_it_answers(server):
    """after a key deep in a large section: the page is the next elements,
    found by descent (the answer is the same as the slice of the whole)."""
    server.call("layout/open", {"session": "big", "layout": {"type": "flow", "itemSize": {"width": 10, "height": 10}},
                                "bounds": rect(0, 0, 375, 600), "sections": [{"itemCount": 10_000_000}]})
    size = server.call("layout/contentSize", {"session": "big"})["contentSize"]
    page = server.call("layout/attributesInRect", {"session": "big", "rect": rect(0, 0, 375, size["height"]),
                                                   "limit": 3, "after": {"kind": "cell", "section": 0, "item": 9_999_990}})
    assert [a["item"] for a in page["attributes"]] == [9_999_991, 9_999_992, 9_999_993]
    assert page["next"] == {"kind": "cell", "section": 0, "item": 9_999_993}
    # The last page has no next.
    page = server.call("layout/attributesInRect", {"session": "big", "rect": rect(0, 0, 375, size["height"]),
                                                   "limit": 30, "after": {"kind": "cell", "section": 0, "item": 9_999_990}})
    # Nine cells remain (a footer of zero size is no element).
    assert len(page["attributes"]) == 9 and "next" not in page

def test_bad_paging_parameters_name_their_field(server):
    server.call("layout/open", {"session": "f", "layout": {"type": "flow"}, "bounds": rect(0, 0, 375, 600),
                                "sections": [{"itemCount": 10}]})
    base = {"session": "f", "rect": rect(0, 0, 375, 600)}
    e = server.error("layout/attributesInRect", dict(base, limit=0), code=-32602)
    assert e["message"] == "params.limit must be an integer from 1 to 9223372036854775807"
    e = server.error("layout/attributesInRect", dict(base, after={"kind": "cell", "section": 0}), code=-32602)
    assert e["data"] == {"field": "params.after.item"}
    e = server.error("layout/attributesInRect", dict(base, after={"kind": "row", "section": 0, "item": 0}), code=-32602)
    assert e["data"] == {"field": "params.after.kind"}
    e = server.error("layout/attributesInRect", dict(base, after={"kind": "cell", "section": 0, "item": 0, "lap": 1}),
                     code=-32602)
    assert e["message"] == "params.after.lap is only accepted when the layout loops"


def test_the_python_client_iterates_every_page():
    with Client(daemon=DAEMON) as c:
        c.open("g", {"type": "flow", "itemSize": {"width": 10, "height": 10}}, (0, 0, 375, 600), [{"itemCount": 25_000}])
        h = c.content_size("g").height
        items = [a.item for a in c.iter_attributes_in_rect("g", (0, 0, 375, h), page_size=4_000)]
        assert items == list(range(25_000))
        page = c.attributes_in_rect("g", (0, 0, 375, h), limit=2)
        assert [a.item for a in page] == [0, 1] and page.next == ("cell", 0, 1)
        assert c.attributes_in_rect("g", (0, 0, 375, h), limit=5, after=page.next)[0].item == 2
