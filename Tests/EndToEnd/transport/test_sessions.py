"""Every layout/* method, its errors, and that an error changes nothing.

The flow session used here (values worked out by hand):
  viewport 320x480, vertical, itemSize 100x100, line and interitem spacing
  10, headers 40 high, footers 20 high, sections of 7 and 2 items.
  3 items per line (3*100 + 2*10 = 320), so section 0 has lines at
  y = 40, 150, 260 (items at x = 0, 110, 220), its footer at 360..380;
  section 1's header is 380..420, its one line 420..520 (x = 0, 110) and
  its footer 520..540. contentSize = (320, 540).
"""

from __future__ import annotations

import json
import time

import pytest

from daemon_support import assert_close, frame, req

FLOW = {
    "session": "f",
    "layout": {
        "type": "flow",
        "itemSize": {"width": 100, "height": 100},
        "minimumLineSpacing": 10,
        "minimumInteritemSpacing": 10,
        "headerReferenceSize": {"width": 0, "height": 40},
        "footerReferenceSize": {"width": 0, "height": 20},
    },
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 480},
    "sections": [{"itemCount": 7}, {"itemCount": 2}],
}

SEED = {
    "session": "s",
    "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}},
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}

WHOLE_SEED = {"x": -100, "y": -100, "width": 2645, "height": 500}
WHOLE_FLOW = {"x": -10, "y": -10, "width": 340, "height": 560}


def element(kind, section, item, x, y, w, h):
    return {
        "kind": kind,
        "section": section,
        "item": item,
        "center": {"x": x + w / 2, "y": y + h / 2},
        "size": {"width": w, "height": h},
        "frame": {"x": x, "y": y, "width": w, "height": h},
        "alpha": 1,
        "zIndex": 0,
    }


def cell(section, item):
    if section == 0:
        return element("cell", 0, item, (item % 3) * 110, 40 + (item // 3) * 110, 100, 100)
    return element("cell", 1, item, item * 110, 420, 100, 100)


HEADER0 = element("header", 0, 0, 0, 0, 320, 40)
FOOTER0 = element("footer", 0, 0, 0, 360, 320, 20)
HEADER1 = element("header", 1, 0, 0, 380, 320, 40)
FOOTER1 = element("footer", 1, 0, 0, 520, 320, 20)
ALL_FLOW = [HEADER0] + [cell(0, i) for i in range(7)] + [FOOTER0, HEADER1, cell(1, 0), cell(1, 1), FOOTER1]


@pytest.fixture
def flow(server):
    server.opened = server.call("layout/open", FLOW)
    return server


@pytest.fixture
def seed(server):
    server.opened = server.call("layout/open", SEED)
    return server


def snapshot(d, session="s", rect=WHOLE_SEED):
    """Everything observable about a session: its content size, and the
    attributes of all its content as decorated for its current bounds."""
    return (
        d.call("layout/contentSize", {"session": session}),
        d.call("layout/attributesInRect", {"session": session, "rect": rect}),
    )


# -- the methods -------------------------------------------------------------


def test_open_flow(flow):
    assert_close(
        flow.opened,
        {
            "contentSize": {"width": 320, "height": 540},
            "bounds": FLOW["bounds"],
            "attributes": [HEADER0] + [cell(0, i) for i in range(7)] + [FOOTER0, HEADER1, cell(1, 0), cell(1, 1)],
            # The viewport's centre (160, 240) is 40 from item 4's centre (160, 200).
            "centeredItem": {"section": 0, "item": 4},
        },
    )


def test_attributes_in_rect(flow):
    r = flow.call("layout/attributesInRect", {"session": "f", "rect": WHOLE_FLOW})
    assert_close(r, {"attributes": ALL_FLOW})
    # Items 1 and 4 (column x = 110..210) between y = 100 and 200 only.
    r = flow.call("layout/attributesInRect", {"session": "f", "rect": {"x": 120, "y": 100, "width": 50, "height": 100}})
    assert_close(r, {"attributes": [cell(0, 1), cell(0, 4)]})
    # A rect in the gap between columns and between lines touches nothing.
    r = flow.call("layout/attributesInRect", {"session": "f", "rect": {"x": 101, "y": 141, "width": 8, "height": 8}})
    assert r == {"attributes": []}
    # Edges only touching do not intersect: y = 140..150 is the line gap.
    r = flow.call("layout/attributesInRect", {"session": "f", "rect": {"x": 0, "y": 140, "width": 320, "height": 10}})
    assert r == {"attributes": []}
    r = flow.call("layout/attributesInRect", {"session": "f", "rect": {"x": 0, "y": 1000, "width": 320, "height": 10}})
    assert r == {"attributes": []}


def test_set_bounds_flow(flow):
    r = flow.call("layout/setBounds", {"session": "f", "bounds": {"x": 0, "y": 200, "width": 320, "height": 480}})
    assert_close(
        r,
        {
            "contentSize": {"width": 320, "height": 540},
            "bounds": {"x": 0, "y": 200, "width": 320, "height": 480},
            # A delta: everything else visible was already in the picture, unchanged.
            "invalidated": [FOOTER1],
            "removed": [
                {"kind": "header", "section": 0, "item": 0},
                {"kind": "cell", "section": 0, "item": 0},
                {"kind": "cell", "section": 0, "item": 1},
                {"kind": "cell", "section": 0, "item": 2},
            ],
            # The bounds' centre (160, 440) is nearest item 1 of section 1 at (160, 470).
            "centeredItem": {"section": 1, "item": 1},
        },
    )
    # Back to the top: the footer of section 1 leaves again.
    r = flow.call("layout/setBounds", {"session": "f", "bounds": {"x": 0, "y": 0, "width": 320, "height": 480}})
    assert r["removed"] == [{"kind": "footer", "section": 1, "item": 0}]
    assert_close(r["invalidated"], [HEADER0] + [cell(0, i) for i in (0, 1, 2)])
    assert r["centeredItem"] == {"section": 0, "item": 4}  # centre (160, 240) vs item 4 at (160, 200)


def test_set_bounds_flow_relayout_on_width_change(flow):
    # 430 wide: 4 per line (4*100 + 3*10 = 430). Section 0: lines at 40 and
    # 150, footer 250..270; section 1: header 270..310, line 310..410,
    # footer 410..430.
    r = flow.call("layout/setBounds", {"session": "f", "bounds": {"x": 0, "y": 0, "width": 430, "height": 480}})
    assert r["contentSize"] == {"width": 430, "height": 430}
    assert_close(
        flow.call("layout/attributesForItem", {"session": "f", "section": 0, "item": 5})["attributes"],
        element("cell", 0, 5, 110, 150, 100, 100),
    )
    assert_close(
        flow.call("layout/attributesForSupplementary", {"session": "f", "kind": "footer", "section": 1})["attributes"],
        element("footer", 1, 0, 0, 410, 430, 20),
    )


def test_attributes_for_item(flow):
    for s, n in ((0, 7), (1, 2)):
        for i in range(n):
            r = flow.call("layout/attributesForItem", {"session": "f", "section": s, "item": i})
            assert_close(r, {"attributes": cell(s, i)})
    assert_close(
        flow.call("layout/attributesForItem", {"session": "f", "section": 0, "item": 4}),
        {"attributes": element("cell", 0, 4, 110, 150, 100, 100)},
    )


def test_attributes_for_supplementary(flow, seed):
    def sup(session, kind, section):
        return flow.call("layout/attributesForSupplementary", {"session": session, "kind": kind, "section": section})

    assert_close(sup("f", "header", 0), {"attributes": HEADER0})
    assert_close(sup("f", "footer", 0), {"attributes": FOOTER0})
    assert_close(sup("f", "header", 1), {"attributes": HEADER1})
    assert_close(sup("f", "footer", 1), {"attributes": FOOTER1})
    # The cover flow has no headers or footers: null.
    assert sup("s", "header", 0) == {"attributes": None}
    assert sup("s", "footer", 0) == {"attributes": None}


def test_item_at_point_flow(flow):
    def hit(x, y):
        return flow.call("layout/itemAtPoint", {"session": "f", "point": {"x": x, "y": y}})

    assert hit(160, 200) == {"section": 0, "item": 4}
    assert hit(0, 40) == {"section": 0, "item": 0}  # the corner is inside
    assert hit(100, 140) == {"section": 0, "item": 0}  # so is the far corner
    assert hit(105, 100) is None  # between columns
    assert hit(50, 145) is None  # between lines
    assert hit(10, 10) is None  # a header is not an item
    assert hit(209.5, 470) == {"section": 1, "item": 1}
    assert hit(215, 470) is None  # right of it
    assert hit(250, 470) is None  # the last line has two items
    assert hit(-1, 50) is None


def test_content_size(flow):
    assert flow.call("layout/contentSize", {"session": "f"}) == {"contentSize": {"width": 320, "height": 540}}


def test_close_and_reopen(seed):
    assert seed.call("layout/close", {"session": "s"}) is None
    for method, extra in [
        ("layout/contentSize", {}),
        ("layout/close", {}),
        ("layout/attributesForItem", {"section": 0, "item": 0}),
    ]:
        assert seed.error(method, dict({"session": "s"}, **extra))["code"] == 1001
    # The id is free again, for a different layout.
    r = seed.call("layout/open", dict(FLOW, session="s"))
    assert r["contentSize"] == {"width": 320, "height": 540}


def test_sessions_are_independent(flow, seed):
    seed.call("layout/setBounds", {"session": "s", "bounds": {"x": 1000, "y": 0, "width": 375, "height": 300}})
    assert flow.call("layout/contentSize", {"session": "f"}) == {"contentSize": {"width": 320, "height": 540}}
    assert_close(flow.call("layout/attributesInRect", {"session": "f", "rect": WHOLE_FLOW}), {"attributes": ALL_FLOW})
    flow.call("layout/close", {"session": "f"})
    assert seed.call("layout/contentSize", {"session": "s"}) == {"contentSize": {"width": 2445, "height": 300}}


def test_empty_sections_and_zero_items(server):
    r = server.call(
        "layout/open",
        {"session": "e", "layout": {"type": "coverFlow"}, "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
         "sections": [{"itemCount": 0}]},
    )
    assert r["attributes"] == []
    r = server.call("layout/setBounds", {"session": "e", "bounds": {"x": 0, "y": 0, "width": 375, "height": 300}})
    assert r["centeredItem"] is None and r["invalidated"] == [] and r["removed"] == []
    r = server.call(
        "layout/scrollEnded",
        {"session": "e", "contentOffset": {"x": 50, "y": 0}, "velocity": {"x": 0, "y": 0}},
    )
    assert r["targetItem"] is None
    err = server.error("layout/attributesForItem", {"session": "e", "section": 0, "item": 0}, code=-32602)
    assert err["message"] == "params.item is out of range: section 0 has 0 items"


# -- application errors ----------------------------------------------------

UNKNOWN_SESSION_CALLS = [
    ("layout/setBounds", {"bounds": {"x": 0, "y": 0, "width": 1, "height": 1}}),
    ("layout/scrollEnded", {"contentOffset": {"x": 0, "y": 0}, "velocity": {"x": 0, "y": 0}}),
    ("layout/attributesInRect", {"rect": {"x": 0, "y": 0, "width": 1, "height": 1}}),
    ("layout/attributesForItem", {"section": 0, "item": 0}),
    ("layout/attributesForSupplementary", {"kind": "header", "section": 0}),
    ("layout/itemAtPoint", {"point": {"x": 0, "y": 0}}),
    ("layout/contentSize", {}),
    ("layout/close", {}),
]


@pytest.mark.parametrize("method, extra", UNKNOWN_SESSION_CALLS, ids=[m for m, _ in UNKNOWN_SESSION_CALLS])
def test_unknown_session(seed, method, extra):
    before = snapshot(seed)
    err = seed.error(method, dict({"session": "nope"}, **extra))
    assert err == {"code": 1001, "message": 'unknown session "nope"', "data": {"field": "params.session"}}
    assert snapshot(seed) == before


def test_session_already_open(seed):
    seed.call("layout/setBounds", {"session": "s", "bounds": {"x": 500, "y": 0, "width": 375, "height": 300}})
    before = snapshot(seed)
    err = seed.error("layout/open", dict(FLOW, session="s"))
    assert err == {"code": 1002, "message": 'session "s" is already open', "data": {"field": "params.session"}}
    assert snapshot(seed) == before


def test_max_sessions(spawn):
    d = spawn("--max-sessions", "2")
    d.initialize()
    d.call("layout/open", dict(SEED, session="a"))
    d.call("layout/open", dict(SEED, session="b"))
    d.call("layout/setBounds", {"session": "a", "bounds": {"x": 700, "y": 0, "width": 375, "height": 300}})
    before = snapshot(d, "a"), snapshot(d, "b")
    err = d.error("layout/open", dict(SEED, session="c"))
    assert err == {
        "code": 1004,
        "message": "2 sessions are open, the limit; close one first",
        "data": {"field": "params.session"},
    }
    assert d.error("layout/contentSize", {"session": "c"})["code"] == 1001
    assert (snapshot(d, "a"), snapshot(d, "b")) == before
    # An id already open is reported as such, even at the limit.
    assert d.error("layout/open", dict(SEED, session="a"))["code"] == 1002
    d.call("layout/close", {"session": "a"})
    assert d.call("layout/open", dict(SEED, session="c"))["contentSize"] == {"width": 2445, "height": 300}
    assert d.error("layout/open", dict(SEED, session="a"))["code"] == 1004


@pytest.mark.parametrize("count", [b"1e12", b"1000000000000", b"9223372036854775807", b"1e300"])
def test_huge_item_count_is_refused_at_once(server, count):
    body = (
        b'{"jsonrpc":"2.0","id":5,"method":"layout/open","params":{"session":"big",'
        b'"layout":{"type":"coverFlow"},"bounds":{"x":0,"y":0,"width":375,"height":300},'
        b'"sections":[{"itemCount":' + count + b"}]}}"
    )
    t0 = time.monotonic()
    server.write(frame(body))
    r = server.read()
    elapsed = time.monotonic() - t0
    assert r["id"] == 5
    if count == b"1e300":
        # Too large for an integer at all: a type error, not a limit.
        assert r["error"] == {
            "code": -32602,
            "message": "params.sections[0].itemCount must be an integer",
            "data": {"field": "params.sections[0].itemCount"},
        }
    else:
        assert r["error"] == {
            "code": 1004,
            "message": "params.sections holds more than 100000000 items, the per-session limit",
            "data": {"field": "params.sections"},
        }
    assert elapsed < 1.0, f"took {elapsed:.2f}s"
    assert server.error("layout/contentSize", {"session": "big"})["code"] == 1001


def test_max_items_across_sections(spawn):
    d = spawn("--max-items", "10")
    d.initialize()
    base = {"layout": {"type": "flow"}, "bounds": {"x": 0, "y": 0, "width": 100, "height": 100}}
    err = d.error("layout/open", dict(base, session="a", sections=[{"itemCount": 6}, {"itemCount": 5}]))
    assert err["code"] == 1004
    assert err["message"] == "params.sections holds more than 10 items, the per-session limit"
    sizes = [{"width": 1, "height": 1}] * 11
    assert d.error("layout/open", dict(base, session="a", sections=[{"itemSizes": sizes}]))["code"] == 1004
    r = d.call("layout/open", dict(base, session="a", sections=[{"itemCount": 6}, {"itemSizes": sizes[:4]}]))
    assert r["contentSize"]["width"] == 100


def test_session_id_length_limit(server):
    ok = "x" * 256
    assert server.call("layout/open", dict(SEED, session=ok))["contentSize"] == {"width": 2445, "height": 300}
    assert server.call("layout/contentSize", {"session": ok})["contentSize"]["width"] == 2445
    # A documented limit exceeded is 1004, naming the field, the length
    # and the limit.
    def expected(n):
        return {
            "code": 1004,
            "message": f"params.session is {n} bytes long; the limit (maxSessionIdBytes) is 256",
            "data": {"field": "params.session"},
        }

    assert server.error("layout/open", dict(SEED, session="x" * 257)) == expected(257)
    assert server.error("layout/contentSize", {"session": "y" * 1000}) == expected(1000)
    # Bytes, not characters: 128 two-byte characters fit, 129 do not.
    assert "result" in server.request("layout/open", dict(SEED, session="é" * 128))
    assert server.error("layout/open", dict(SEED, session="é" * 129)) == expected(258)


def test_session_id_must_be_a_non_empty_string(server):
    assert server.error("layout/open", dict(SEED, session="")) == {
        "code": -32602,
        "message": "params.session must not be empty",
        "data": {"field": "params.session"},
    }
    assert server.error("layout/open", dict(SEED, session=5)) == {
        "code": -32602,
        "message": "params.session must be a string",
        "data": {"field": "params.session"},
    }
    assert server.error("layout/contentSize", {})["message"] == "params.session is required"


# -- invalid params, and that they change nothing --------------------------


def bad(path, problem):
    return {"code": -32602, "message": f"{path} {problem}", "data": {"field": path}}


BOUNDS = {"x": 500, "y": 0, "width": 375, "height": 300}

BAD_CALLS = [
    ("layout/setBounds", {"bounds": dict(BOUNDS, width=-1)}, bad("params.bounds.width", "must be a finite number >= 0")),
    ("layout/setBounds", {"bounds": dict(BOUNDS, height="300")}, bad("params.bounds.height", "must be a finite number >= 0")),
    ("layout/setBounds", {"bounds": dict(BOUNDS, x=None)}, bad("params.bounds.x", "is required")),
    ("layout/setBounds", {"bounds": dict(BOUNDS, y=True)}, bad("params.bounds.y", "must be a finite number")),
    ("layout/setBounds", {"bounds": [0, 0, 375, 300]}, bad("params.bounds", "must be an object")),
    ("layout/setBounds", {}, bad("params.bounds", "is required")),
    ("layout/setBounds", {"bounds": BOUNDS, "animated": True}, bad("params.animated", "is not a known field")),
    ("layout/scrollEnded", {"contentOffset": {"x": 0, "y": 0}}, bad("params.velocity", "is required")),
    ("layout/scrollEnded", {"contentOffset": {"x": 0}, "velocity": {"x": 0, "y": 0}}, bad("params.contentOffset.y", "is required")),
    (
        "layout/scrollEnded",
        {"contentOffset": {"x": 0, "y": 0}, "velocity": {"x": 0, "y": 0}, "proposedContentOffset": {"x": "a", "y": 0}},
        bad("params.proposedContentOffset.x", "must be a finite number"),
    ),
    ("layout/attributesInRect", {"rect": {"x": 0, "y": 0, "width": -5, "height": 1}}, bad("params.rect.width", "must be a finite number >= 0")),
    ("layout/attributesForItem", {"section": 0, "item": 10}, bad("params.item", "is out of range: section 0 has 10 items")),
    ("layout/attributesForItem", {"section": 1, "item": 0}, bad("params.section", "is out of range: the session has 1 sections")),
    ("layout/attributesForItem", {"section": 0, "item": -1}, bad("params.item", "must be an integer from 0 to 9223372036854775807")),
    ("layout/attributesForItem", {"section": 0, "item": 1.5}, bad("params.item", "must be an integer")),
    ("layout/attributesForItem", {"section": 0}, bad("params.item", "is required")),
    ("layout/attributesForSupplementary", {"kind": "middle", "section": 0}, bad("params.kind", 'must be one of "header", "footer", "decoration"')),
    ("layout/attributesForSupplementary", {"section": 0}, bad("params.kind", "is required")),
    ("layout/attributesForSupplementary", {"kind": "footer", "section": 3}, bad("params.section", "is out of range: the session has 1 sections")),
    ("layout/itemAtPoint", {}, bad("params.point", "is required")),
    ("layout/itemAtPoint", {"point": {"x": "1", "y": 0}}, bad("params.point.x", "must be a finite number")),
    ("layout/contentSize", {"extra": 1}, bad("params.extra", "is not a known field")),
    ("layout/close", {"force": True}, bad("params.force", "is not a known field")),
]


@pytest.mark.parametrize("method, extra, expected", BAD_CALLS, ids=[f"{m}:{e['message']}" for m, _, e in BAD_CALLS])
def test_invalid_params_name_the_field_and_change_nothing(seed, method, extra, expected):
    seed.call("layout/setBounds", {"session": "s", "bounds": {"x": 230, "y": 0, "width": 375, "height": 300}})
    before = snapshot(seed)
    assert seed.error(method, dict({"session": "s"}, **extra)) == expected
    assert snapshot(seed) == before
    # Still usable, and still at x = 230: card 1 centred and unscaled.
    item1 = seed.call("layout/attributesForItem", {"session": "s", "section": 0, "item": 1})["attributes"]
    assert item1["zIndex"] == 0 and "transform" not in item1


def with_layout(**changes):
    p = json.loads(json.dumps(SEED))
    p["session"] = "t"
    p["layout"].update(changes)
    return p


def with_section(section, **changes):
    p = json.loads(json.dumps(SEED))
    p["session"] = "t"
    p["sections"] = [{"itemCount": 3}, section]
    return dict(p, **changes)


BAD_OPENS = [
    (dict(SEED, session="t", layout=None), bad("params.layout", "is required")),
    (with_layout(type="grid"), bad("params.layout.type", 'must be one of "flow", "coverFlow", "waterfall", "carousel", "compositional", "pager", "list"')),
    (with_layout(itemSize={"width": -1, "height": 3}), bad("params.layout.itemSize.width", "must be a finite number >= 0")),
    (with_layout(minimumLineSpacing=-0.5), bad("params.layout.minimumLineSpacing", "must be a finite number >= 0")),
    (with_layout(scale={"factor": 0.5, "minimum": 0.9, "maximum": 0.5}), bad("params.layout.scale.minimum", "must not exceed params.layout.scale.maximum")),
    (with_layout(scale={"slope": 1}), bad("params.layout.scale.slope", "is not a known field")),
    (with_layout(scale={"curve": "cubic"}), bad("params.layout.scale.curve", 'must be one of "linear", "reciprocal"')),
    (with_layout(distanceUnit="km"), bad("params.layout.distanceUnit", 'must be one of "viewport", "points", "pitch"')),
    (with_layout(scrollDirection="diagonal"), bad("params.layout.scrollDirection", 'must be one of "vertical", "horizontal"')),
    (with_layout(type="flow", scale={"factor": 1}), bad("params.layout.scale", "is not a known field")),
    (with_layout(sectionInset={"top": 0, "left": 0, "bottom": 0}), bad("params.layout.sectionInset.right", "is required")),
    (dict(SEED, session="t", bounds={"x": 0, "y": 0, "width": 375, "height": -300}), bad("params.bounds.height", "must be a finite number >= 0")),
    (dict(SEED, session="t", sections=None), bad("params.sections", "is required")),
    (dict(SEED, session="t", sections={"itemCount": 3}), bad("params.sections", "must be an array")),
    (with_section(7), bad("params.sections[1]", "must be an object")),
    (with_section({}), bad("params.sections[1].itemCount", "is required (or itemSizes, or widthsAndHeightsBase64)")),
    (with_section({"itemCount": -1}), bad("params.sections[1].itemCount", "must be an integer from 0 to 9223372036854775807")),
    (with_section({"itemCount": 2.5}), bad("params.sections[1].itemCount", "must be an integer")),
    (with_section({"itemCount": "3"}), bad("params.sections[1].itemCount", "must be an integer")),
    (with_section({"itemCount": 2, "itemSizes": []}), bad("params.sections[1].itemSizes", "cannot be given with itemCount")),
    (with_section({"itemSizes": {}}), bad("params.sections[1].itemSizes", "must be an array")),
    (
        with_section({"itemSizes": [{"width": 1, "height": 1}, {"width": 1, "height": 1}, {"width": -3, "height": 1}]}),
        bad("params.sections[1].itemSizes[2].width", "must be a finite number >= 0"),
    ),
    (with_section({"itemSizes": [{"width": 1}]}), bad("params.sections[1].itemSizes[0].height", "is required")),
    (with_section({"itemCount": 1, "inset": {"top": 0, "left": "x", "bottom": 0, "right": 0}}), bad("params.sections[1].inset.left", "must be a finite number")),
    (with_section({"itemCount": 1, "minimumLineSpacing": -1}), bad("params.sections[1].minimumLineSpacing", "must be a finite number >= 0")),
    (with_section({"itemCount": 1, "headerSize": {"width": 1, "height": -1}}), bad("params.sections[1].headerSize.height", "must be a finite number >= 0")),
    (with_section({"itemCount": 1, "colour": "red"}), bad("params.sections[1].colour", "is not a known field")),
    (dict(SEED, session="t", contentInset={"top": 1}), bad("params.contentInset.left", "is required")),
    (dict(SEED, session="t", delegate=True), bad("params.delegate", "is not a known field")),
]


@pytest.mark.parametrize("params, expected", BAD_OPENS, ids=[e["message"] for _, e in BAD_OPENS])
def test_invalid_open_names_the_field_and_opens_nothing(seed, params, expected):
    params = {k: v for k, v in params.items() if v is not None}
    before = snapshot(seed)
    assert seed.error("layout/open", params) == expected
    assert seed.error("layout/contentSize", {"session": "t"})["code"] == 1001
    assert snapshot(seed) == before
    # The same id opens fine once the request is valid.
    assert "result" in seed.request("layout/open", dict(SEED, session="t"))


def test_number_out_of_double_range_is_a_parse_error(seed):
    before = snapshot(seed)
    seed.write(
        frame(
            b'{"jsonrpc":"2.0","id":3,"method":"layout/setBounds","params":{"session":"s",'
            b'"bounds":{"x":1e400,"y":0,"width":375,"height":300}}}'
        )
    )
    r = seed.read()
    assert r["id"] is None and r["error"]["code"] == -32700
    assert snapshot(seed) == before


def test_flow_set_bounds_far_below_the_content(flow):
    """Finite but enormous coordinates must not crash the daemon."""
    far = {"x": 0, "y": 1e15, "width": 320, "height": 480}
    r = flow.request("layout/setBounds", {"session": "f", "bounds": far})
    assert "result" in r, r
    res = r["result"]
    assert res["contentSize"] == {"width": 320, "height": 540}
    assert res["invalidated"] == []
    assert len(res["removed"]) == 12  # everything visible at y = 0 left
    assert res["centeredItem"]["section"] == 1  # the last line is the nearest
    flow.ping()
