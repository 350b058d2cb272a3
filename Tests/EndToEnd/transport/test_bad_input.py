"""protocol.md's `## Bad input` catalogue, row by row (issue #8).

One test per row of the table; each reads its expected answer (code and
exact message, or result) and its `then` (keeps serving / exits with code N)
from the row itself, so the document and the daemon cannot drift apart.
Where a row says "keeps serving", the test then requires a follow-up request
to be answered, no stray frame (ping), and both fixture sessions to be
exactly as before (contentSize and attributesInRect of the whole content).

`params.wrong-type` is a walk over every field of every layout/* method: the
field, at any depth, given each wrong JSON type, must be -32602 with
`data.field` the exact path.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from typing import Any, Callable, Iterator

import pytest

from daemon_support import DAEMON, TIMEOUT, Daemon, assert_same_id, encode, frame, note, req
from hardening_util import (
    FIXTURE_SESSIONS,
    Row,
    bad_input_table,
    open_fixture_sessions,
    row,
    snapshot,
)

COVERED: set[str] = set()


def case(c: str) -> str:
    """Registers `c` as covered by the test using it; the row must exist."""
    row(c)
    COVERED.add(c)
    return c


def covers(c: str) -> Callable:
    """Marks a test as the one for the row `c`."""
    case(c)
    return lambda f: f


def test_every_row_has_a_test():
    assert set(bad_input_table()) == COVERED, (
        f"rows without a test: {sorted(set(bad_input_table()) - COVERED)}; "
        f"tests without a row: {sorted(COVERED - set(bad_input_table()))}"
    )


# -- the harness ---------------------------------------------------------------------


def start(spawn, r: Row) -> tuple[Daemon, dict]:
    """A daemon with the row's flags, initialized, with the fixture sessions
    open; and their state."""
    d = spawn(*r.flags())
    d.initialize()
    open_fixture_sessions(d)
    return d, snapshot(d)


def expect_answer(d: Daemon, r: Row, id: Any = None, timeout: float = TIMEOUT) -> dict:
    """The next frame must be the row's error, with `id` (None: id null)."""
    code, message = r.error()
    got = d.read(timeout=timeout)
    assert isinstance(got, dict), got
    if id is None:
        assert got["id"] is None, got
    else:
        assert_same_id(got["id"], id)
    assert "error" in got, got
    assert got["error"]["code"] == code and got["error"]["message"] == message, (
        f"{r.case}: expected {code} {message!r}, got {got['error']!r}"
    )
    return got


def expect_field_error(d: Daemon, r: Row, got: dict) -> None:
    """An error about one field carries the field in data.field, and the
    message starts with it."""
    field = got["error"]["message"].split(" ")[0]
    assert field.startswith("params"), got
    assert got["error"].get("data") == {"field": field}, got


def then(d: Daemon, r: Row, before: dict) -> None:
    """The row's `then`: keeps serving, with sessions unchanged."""
    assert r.keeps_serving, f"{r.case}: then is {r.then!r}"
    assert d.proc.poll() is None, f"daemon exited: {d.proc.poll()}; {d.stderr_text()!r}"
    d.ping()  # the next frame answers the next request: nothing stray
    assert d.call("layout/contentSize", {"session": "flow"}) == {"contentSize": {"width": 320, "height": 260}}
    assert snapshot(d) == before, f"{r.case}: a session changed"


def bad_request(spawn, case: str, id: Any = "bad") -> tuple[Daemon, dict, dict]:
    """Sends the row's `method` `params` request; checks the exact error."""
    r = row(case)
    d, before = start(spawn, r)
    method, params = r.request()
    d.send(req(id, method, params))
    got = expect_answer(d, r, id=id)
    return d, before, got


def unescape(text: str) -> bytes:
    r"""A body as written in the table: `\xff` is the raw byte 0xFF."""
    return re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), text.encode("utf-8"))


def header(r: Row) -> bytes:
    """The header block of the row's input: the code span ending in a blank line."""
    blocks = [h for h in r.spans(r.input) if h.endswith("\\r\\n\\r\\n")]
    assert blocks, f"{r.case}: no header block in {r.input!r}"
    return blocks[0].replace("\\r\\n", "\r\n").encode("ascii")


# -- framing -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        case("framing.no-content-length"),
        case("framing.negative-content-length"),
        case("framing.non-numeric-content-length"),
        case("framing.content-length-20-digits"),
        case("framing.duplicate-content-length"),
        case("framing.header-name-not-token"),
    ],
)
def test_framing_bad_content_length(spawn, case):
    r = row(case)
    d, before = start(spawn, r)
    # The lost body would close a session if it were handled.
    lost = encode(req("lost", "layout/close", {"session": "flow"}))
    d.write(header(r) + lost)
    expect_answer(d, r)
    then(d, r, before)


def framing_hint_line(message: str) -> str:
    """The one stderr line a framing error writes (protocol.md's Transport)."""
    return f"flowlayoutd: framing: {message} (see protocol.md#transport)\n"


def answer_messages(r: Row) -> list[str]:
    """The error messages the row's answer cell quotes (code spans)."""
    return [m for m in r.spans(r.answer) if m.startswith("Parse error:")]


@covers("framing.content-length-beyond-body")
def test_framing_content_length_beyond_body(spawn):
    r = row("framing.content-length-beyond-body")
    head = header(r)
    body = r.body()
    assert int(re.search(rb"\d+", head).group()) - len(body) == 456 and len(body) == 44
    [message] = answer_messages(r)
    assert "Content-Length 500 declared, 44 bytes of body arrived" in message
    assert 'expected "Content-Length: N\\r\\n\\r\\n"' in message
    for shutdown_first, code in ((False, r.exit_code), (True, 0)):
        d, _ = start(spawn, r)
        if shutdown_first:
            assert d.call("shutdown") is None
        d.write(head + body.encode("utf-8"))
        # The daemon waits for the rest of the body: no answer, still alive.
        with pytest.raises(AssertionError, match="no frame"):
            d.read(timeout=0.5)
        assert d.proc.poll() is None
        d.close_stdin()
        # At EOF the short frame is answered, not dropped in silence.
        got = d.read()
        assert got["id"] is None and got["error"] == {"code": -32700, "message": message}, got
        d.expect_eof()
        assert d.wait() == code, f"exit code after EOF (shutdown first: {shutdown_first})"
        assert d.stderr_text() == framing_hint_line(message)


@covers("framing.unframed")
def test_framing_unframed_line_is_answered_at_once(spawn):
    r = row("framing.unframed")
    d, before = start(spawn, r)
    # As `echo '...' | flowlayoutd` sends it: the body and a newline, and
    # the answer comes before EOF (a user typing waits for none).
    d.write(r.body().encode("utf-8") + b"\n")
    got = expect_answer(d, r)
    code, message = r.error()
    assert code == -32700 and 'expected "Content-Length: N\\r\\n\\r\\n"' in message
    then(d, r, before)
    [line] = [s for s in r.spans(r.answer) if s.startswith("flowlayoutd:")]
    assert line.replace("<message>", message) == framing_hint_line(message).rstrip("\n")
    assert d.stderr_text() == framing_hint_line(message)


def test_unframed_input_then_eof_is_answered_on_stdout_and_stderr():
    """The issue's first mistake, exactly: one unframed request through a
    pipe, then EOF. The answer is a frame on stdout, with a line on stderr."""
    body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'
    message = row("framing.unframed").error()[1]
    for tail in (b"\n", b""):  # echo, and printf without a newline
        p = subprocess.run([DAEMON], input=body + tail, capture_output=True, timeout=TIMEOUT)
        assert p.returncode == 1
        expected = json.dumps(
            {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": message}},
            separators=(",", ":"),
        ).encode("utf-8")
        assert p.stdout == b"Content-Length: %d\r\n\r\n" % len(expected) + expected, p.stdout
        assert p.stderr.decode() == framing_hint_line(message)


@covers("framing.body-over-maximum")
def test_framing_body_over_maximum(spawn):
    r = row("framing.body-over-maximum")
    assert r.flags() == ["--max-message-bytes", "10000"]
    d, before = start(spawn, r)
    # A valid (and destructive) request padded to 10001 bytes with spaces.
    body = encode(req("big", "layout/close", {"session": "flow"}))
    body += b" " * (10001 - len(body))
    assert len(body) == 10001
    d.write(frame(body))
    expect_answer(d, r)
    then(d, r, before)


@covers("framing.lf-line-end")
def test_framing_lf_line_end(spawn):
    r = row("framing.lf-line-end")
    d, before = start(spawn, r)
    d.write(b"Content-Length: 2\n\n{}" + frame(req("after", "layout/contentSize", {"session": "flow"})))
    expect_answer(d, r)
    got = d.read()
    assert got["id"] == "after" and "result" in got, got
    then(d, r, before)


@covers("framing.header-flood")
def test_framing_header_flood(spawn):
    r = row("framing.header-flood")
    d, before = start(spawn, r)
    flood = b"a" * 1048576
    for i in range(0, len(flood), 65536):
        d.write(flood[i : i + 65536])
    d.write(b"\r\n\r\n")
    expect_answer(d, r)
    then(d, r, before)  # the ping proves the error came once


# -- content -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        case(c)
        for c in [
            "content.invalid-utf8",
            "content.nan",
            "content.infinity",
            "content.1e400",
            "content.integer-beyond-64-bits",
            "content.duplicate-keys",
        ]
    ],
)
def test_content_not_json(spawn, case):
    r = row(case)
    d, before = start(spawn, r)
    body = unescape(r.body())
    if case == "content.invalid-utf8":
        assert b"\xff\xfe" in body
    d.write(frame(body))
    expect_answer(d, r)
    then(d, r, before)


@covers("content.deep-nesting")
def test_content_deep_nesting(spawn):
    r = row("content.deep-nesting")
    d, before = start(spawn, r)
    d.write(frame(b"[" * 100000 + b"]" * 100000))
    expect_answer(d, r)
    # Objects too, and nesting inside a real request.
    d.write(frame(b'{"jsonrpc":"2.0","id":1,"method":"layout/contentSize","params":' + b'{"a":' * 100000 + b"1" + b"}" * 100001))
    got = d.read()
    assert got["id"] is None and got["error"]["code"] == -32700, got
    assert got["error"]["message"].startswith("Parse error: maximum parsing depth reached"), got
    then(d, r, before)


@covers("content.nul-in-string")
def test_content_nul_in_string(spawn):
    """Found by test_stateful_fuzz.py: a `\\u0000` escape is valid JSON, but
    jansson (without JSON_ALLOW_NUL) refuses the whole message."""
    r = row("content.nul-in-string")
    d, before = start(spawn, r)
    value, key = [s for s in r.spans(r.input) if s.startswith('{"jsonrpc"')]
    assert "\\u0000" in value and "\\u0000" in key
    d.write(frame(value.encode("utf-8")))
    expect_answer(d, r)
    d.write(frame(key.encode("utf-8")))
    got = d.read()
    assert got["id"] is None and got["error"] == {"code": -32700, "message": r.spans(r.answer)[1]}, got
    then(d, r, before)


@covers("content.huge-string-id")
def test_content_huge_string_id(spawn):
    r = row("content.huge-string-id")
    d, before = start(spawn, r)
    big = "i" * (10 << 20)
    template = r.body()
    assert template.count('"…"') == 1
    body = template.replace('"…"', json.dumps(big)).encode("utf-8")
    assert len(body) < 64 << 20
    d.write(frame(body))
    got = d.read(timeout=60)
    assert "result" in got, {k: v for k, v in got.items() if k != "id"}
    assert type(got["id"]) is str and got["id"] == big, "the 10 MiB id was not echoed byte for byte"
    assert got["result"] == r.result()
    then(d, r, before)


@covers("content.jsonrpc-not-2.0")
def test_content_jsonrpc_not_2_0(spawn):
    r = row("content.jsonrpc-not-2.0")
    d, before = start(spawn, r)
    body = r.body()
    variants = [body, body.replace('"jsonrpc":"1.0"', '"jsonrpc":2.0'), body.replace('"jsonrpc":"1.0",', "")]
    assert len(set(variants)) == 3
    for b in variants:
        d.write(frame(b.encode("utf-8")))
        expect_answer(d, r, id="v1")
    then(d, r, before)


# -- params: wrong types -------------------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        case(c)
        for c in [
            "params.wrong-type.open",
            "params.wrong-type.view",
            "params.wrong-type.batch",
            "params.wrong-type.configure",
            "params.wrong-type.sizes",
            "params.not-an-object",
        ]
    ],
)
def test_params_wrong_type_by_family(spawn, case):
    d, before, got = bad_request(spawn, case)
    expect_field_error(d, row(case), got)
    then(d, row(case), before)


# The walk: base requests holding every field each method reads. Each base
# is accepted as it is (test_walk_bases_are_accepted); the walk replaces one
# field at a time by each wrong value.

B = {"x": 0, "y": 0, "width": 320, "height": 100}
INSETS = {"top": 1, "left": 2, "bottom": 3, "right": 4}
FLOW_LAYOUT = {
    "type": "flow",
    "scrollDirection": "vertical",
    "itemSize": {"width": 100, "height": 50},
    "minimumLineSpacing": 10,
    "minimumInteritemSpacing": 10,
    "sectionInset": INSETS,
    "headerReferenceSize": {"width": 0, "height": 20},
    "footerReferenceSize": {"width": 0, "height": 10},
    "sectionHeadersPinToVisibleBounds": True,
    "sectionFootersPinToVisibleBounds": False,
    "layoutDirection": "ltr",
    "estimatedItemSize": {"width": 90, "height": 40},
}
COVER_LAYOUT = {
    **FLOW_LAYOUT,
    "type": "coverFlow",
    "scrollDirection": "horizontal",
    "scale": {"curve": "linear", "peak": 1, "factor": 0.4, "minimum": 0.6, "maximum": 1},
    "alpha": {"curve": "reciprocal", "peak": 1, "factor": 0.1, "minimum": 0.2, "maximum": 1},
    "distanceUnit": "pitch",
}
SECTION_EXTRAS = {
    "inset": INSETS,
    "minimumLineSpacing": 5,
    "minimumInteritemSpacing": 6,
    "headerSize": {"width": 0, "height": 7},
    "footerSize": {"width": 0, "height": 8},
}
SECTIONS = [
    {"itemCount": 3, "ids": ["a", 2, "c"], **SECTION_EXTRAS},
    {"itemSizes": [{"width": 150, "height": 40}, {"width": 60, "height": 40}], "ids": [5, "y"], **SECTION_EXTRAS},
]


def open_params(session: str, layout: dict) -> dict:
    return {
        "session": session,
        "layout": layout,
        "bounds": B,
        "sections": SECTIONS,
        "contentInset": INSETS,
        "overscan": 10,
    }


BATCH_UPDATES = {
    "deleteSections": [3],
    "insertSections": [
        {"index": 3, "itemCount": 2, "ids": ["n1", "n2"], **SECTION_EXTRAS},
        {"index": 4, "itemSizes": [{"width": 10, "height": 10}, {"width": 20, "height": 10}], "ids": ["m1", 7], **SECTION_EXTRAS},
    ],
    "moveSections": [{"from": 2, "to": 0}],
    "deleteItems": [{"section": 0, "item": 4}],
    "insertItems": [{"section": 1, "item": 0, "size": {"width": 10, "height": 10}, "id": "new"}],
    "moveItems": [{"from": {"section": 1, "item": 0}, "to": {"section": 1, "item": 4}}],
    "reloadItems": [{"section": 1, "item": 2, "size": {"width": 20, "height": 20}}],
    "itemCounts": [5, 6, 4, 2, 2],
}

WATERFALL_LAYOUT = {
    "type": "waterfall",
    "scrollDirection": "vertical",
    "columnCount": 3,
    "minimumColumnSpacing": 4,
    "minimumInteritemSpacing": 5,
    "sectionInset": INSETS,
    "headerHeight": 10,
    "footerHeight": 11,
    "headerInset": INSETS,
    "footerInset": INSETS,
    "itemRenderDirection": "leftToRight",
    "placement": "stable",
    "pixelScale": 2,
    "minimumContentHeight": 100,
    "itemSize": {"width": 40, "height": 30},
    "estimatedItemSize": {"width": 40, "height": 31},
    "sectionHeadersPinToVisibleBounds": True,
    "sectionFootersPinToVisibleBounds": False,
    "layoutDirection": "rtl",
    "snap": {"policy": "paging", "maxItems": 2, "edges": "free", "bias": 0.5},
}
WATERFALL_EXTRAS = {
    "inset": INSETS,
    "minimumInteritemSpacing": 6,
    "columnCount": 2,
    "minimumColumnSpacing": 3,
    "headerHeight": 7,
    "footerHeight": 8,
    "headerInset": INSETS,
    "footerInset": INSETS,
}
WATERFALL_SECTIONS = [
    {"itemCount": 3, "ids": ["a", 2, "c"], **WATERFALL_EXTRAS},
    {"itemSizes": [{"width": 150, "height": 40, "fullSpan": True}, {"width": 60, "height": 40}], "ids": [5, "y"],
     **WATERFALL_EXTRAS},
]

#: A compositional section layout with every field: a nested group with
#: `count`, flexible and fixed spacing, insets at every level, boundary
#: items, a background, a row behaviour and a row effect.
ROW_LAYOUT = {
    "group": {
        "direction": "horizontal",
        "size": {"width": {"absolute": 150}, "height": {"estimated": 60}},
        "subitems": [
            {"size": {"width": {"fractionalWidth": 0.5}, "height": {"fractionalHeight": 1}},
             "contentInsets": {"top": 1, "leading": 2, "bottom": 3, "trailing": 4}},
            {"direction": "vertical", "size": {"width": {"fractionalWidth": 0.5}, "height": {"fractionalHeight": 1}},
             "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 20}}}],
             "count": 2, "interItemSpacing": {"fixed": 2}, "contentInsets": {"top": 1}},
        ],
        "interItemSpacing": {"flexible": 4},
        "contentInsets": {"leading": 3, "trailing": 3},
    },
    "interGroupSpacing": 8,
    "contentInsets": {"top": 5, "leading": 6, "bottom": 7, "trailing": 8},
    "orthogonalScrollingBehavior": "groupPaging",
    "boundarySupplementaryItems": [
        {"kind": "header", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 20}}, "pinToVisibleBounds": True},
        {"kind": "footer", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 10}}},
    ],
    "decorationItems": [{"kind": "background", "contentInsets": {"top": 1, "leading": 1, "bottom": 1, "trailing": 1}}],
    "effect": {"scale": {"curve": "linear", "peak": 1, "factor": 0.5, "minimum": 0.8}, "alpha": {"peak": 1, "factor": 0.2}},
}
COMPOSITIONAL_LAYOUT = {
    "type": "compositional",
    "scrollDirection": "vertical",
    "interSectionSpacing": 12,
    "section": ROW_LAYOUT,
    "layoutDirection": "rtl",
}
COMPOSITIONAL_SECTIONS = [
    {"itemCount": 6, "ids": ["a", 2, "c", "d", "e", "f"]},
    {"itemSizes": [{"width": 150, "height": 40}, {"width": 60, "height": 40}], "ids": [5, "y"],
     "layout": {"group": {"direction": "vertical", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 30}},
                          "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]}}},
]

#: Sessions the walk's daemon opens first (walk-flow, walk-cover, walk-batch, walk-waterfall, walk-comp).
WALK_SESSIONS = [
    ("layout/open", open_params("walk-flow", FLOW_LAYOUT)),
    ("layout/open", open_params("walk-cover", COVER_LAYOUT)),
    ("layout/open", {"session": "walk-batch", "layout": {"type": "flow"}, "bounds": B, "sections": [{"itemCount": 5}] * 4}),
    ("layout/open", dict(open_params("walk-waterfall", WATERFALL_LAYOUT), sections=WATERFALL_SECTIONS)),
    ("layout/open", dict(open_params("walk-comp", COMPOSITIONAL_LAYOUT), sections=COMPOSITIONAL_SECTIONS)),
]
WALKED = ["walk-flow", "walk-cover", "walk-batch", "walk-waterfall", "walk-comp"]

#: (method, base params) for every layout/* method; several for some.
WALK_BASES = [
    ("layout/open", open_params("walk-new", FLOW_LAYOUT)),
    ("layout/open", open_params("walk-new", COVER_LAYOUT)),
    ("layout/open", dict(open_params("walk-new", WATERFALL_LAYOUT), sections=WATERFALL_SECTIONS)),
    ("layout/open", dict(open_params("walk-new", COMPOSITIONAL_LAYOUT), sections=COMPOSITIONAL_SECTIONS)),
    ("layout/scrollSection", {"session": "walk-comp", "section": 0, "offset": 40}),
    (
        "layout/scrollEnded",
        {
            "session": "walk-comp",
            "section": 0,
            "contentOffset": {"x": 30, "y": 0},
            "velocity": {"x": 1, "y": 0},
            "proposedContentOffset": {"x": 100, "y": 0},
            "frameInterval": 20,
        },
    ),
    ("layout/configure", {"session": "walk-comp", "layout": COMPOSITIONAL_LAYOUT}),
    ("layout/reloadData", {"session": "walk-comp", "sections": COMPOSITIONAL_SECTIONS}),
    ("layout/setItemSizes", {"session": "walk-comp", "sizes": [{"section": 0, "item": 1, "size": {"width": 30, "height": 70}}]}),
    ("layout/setBounds", {"session": "walk-flow", "bounds": {"x": 0, "y": 10, "width": 320, "height": 100}}),
    (
        "layout/scrollEnded",
        {
            "session": "walk-cover",
            "contentOffset": {"x": 30, "y": 0},
            "velocity": {"x": 1, "y": 0},
            "proposedContentOffset": {"x": 100, "y": 0},
        },
    ),
    ("layout/attributesInRect", {"session": "walk-flow", "rect": {"x": 0, "y": 0, "width": 320, "height": 500}}),
    ("layout/attributesForItem", {"session": "walk-flow", "section": 1, "item": 1}),
    ("layout/attributesForSupplementary", {"session": "walk-flow", "kind": "header", "section": 1}),
    ("layout/itemAtPoint", {"session": "walk-flow", "point": {"x": 10, "y": 40}}),
    ("layout/contentSize", {"session": "walk-flow"}),
    ("layout/close", {"session": "walk-flow"}),
    ("layout/performBatchUpdates", {"session": "walk-batch", "updates": BATCH_UPDATES}),
    ("layout/reloadData", {"session": "walk-flow", "sections": SECTIONS}),
    ("layout/configure", {"session": "walk-flow", "layout": FLOW_LAYOUT, "contentInset": INSETS, "overscan": 5}),
    ("layout/configure", {"session": "walk-cover", "layout": COVER_LAYOUT}),
    ("layout/setItemSizes", {"session": "walk-flow", "sizes": [{"section": 1, "item": 0, "size": {"width": 30, "height": 30}}]}),
    ("layout/configure", {"session": "walk-waterfall", "layout": WATERFALL_LAYOUT}),
    (
        "layout/performBatchUpdates",
        {
            "session": "walk-waterfall",
            "updates": {
                "insertSections": [{"index": 2, **WATERFALL_SECTIONS[1]}],
                "insertItems": [{"section": 0, "item": 0, "size": {"width": 10, "height": 10, "fullSpan": True}}],
                "reloadItems": [{"section": 1, "item": 1, "size": {"width": 20, "height": 20, "fullSpan": False}}],
            },
        },
    ),
    ("layout/setItemSizes", {"session": "walk-waterfall", "sizes": [
        {"section": 1, "item": 0, "size": {"width": 30, "height": 30, "fullSpan": True}}]}),
]

#: Fields that take a string or an integer: only other types are wrong.
ID_FIELD = re.compile(r"\.ids\[\d+\]$|\.id$")


def wrong_values(path: str, value: Any) -> list[Any]:
    """Values of other JSON types than the field takes."""
    if ID_FIELD.search(path):
        return [{}, [1], True]
    if isinstance(value, bool):
        return ["true", 1]
    if isinstance(value, (int, float)):
        return ["1", []]
    if isinstance(value, str):
        return [1, {}]
    if isinstance(value, dict):
        return [[], "x"]
    if isinstance(value, list):
        return [{}, 1]
    raise AssertionError(f"{path}: {value!r}")


def fields(value: Any, path: str = "params") -> Iterator[tuple[str, Any]]:
    """Every field under `value`, depth first, `value` itself included."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from fields(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from fields(v, f"{path}[{i}]")


def replaced(params: Any, path: str, new: Any) -> Any:
    """A deep copy of params with the field at `path` replaced."""
    steps = [k if k else int(i) for k, i in re.findall(r"\.([A-Za-z]+)|\[(\d+)\]", path[len("params"):])]
    if not steps:
        return new
    out = json.loads(json.dumps(params))  # no shared sub-objects, unlike deepcopy
    node = out
    for s in steps[:-1]:
        node = node[s]
    node[steps[-1]] = new
    return out


WALK_CASES = [
    pytest.param(method, base, path, bad, id=f"{method}:{path}={json.dumps(bad)}")
    for method, base in WALK_BASES
    for path, value in fields(base)
    for bad in wrong_values(path, value)
]


@pytest.fixture(scope="module")
def walker():
    """One daemon for the whole walk, with the sessions the bases use."""
    d = Daemon()
    try:
        d.initialize()
        for method, params in WALK_SESSIONS:
            d.call(method, params)
        d.walk_before = snapshot(d, WALKED)
        yield d
    finally:
        code = d.finish()
    assert code in (0, 1), f"the walk's daemon ended with {code}: {d.stderr_text()!r}"


def test_walk_covers_every_method():
    methods = {m for m, _ in WALK_BASES}
    assert len(methods) == 14, sorted(methods)
    assert len(WALK_CASES) > 400, len(WALK_CASES)


def test_walk_bases_are_accepted(spawn):
    """Every base request succeeds as it is, so that each case of the walk
    differs from an accepted request by exactly one field."""
    d = spawn()
    d.initialize()
    for method, params in WALK_SESSIONS:
        d.call(method, params)
    for method, params in WALK_BASES:
        if method == "layout/close":
            continue  # last, below
        d.call(method, params)
        if method == "layout/open":
            d.call("layout/close", {"session": params["session"]})
    d.call("layout/close", {"session": "walk-flow"})


@covers("params.wrong-type")
@pytest.mark.parametrize("method,base,path,bad", WALK_CASES)
def test_params_wrong_type_every_field(walker, method, base, path, bad):
    r = row("params.wrong-type")
    code, _ = r.error()
    rid = walker.next_id()
    walker.send(req(rid, method, replaced(base, path, bad)))
    got = walker.read()
    assert_same_id(got["id"], rid)
    assert "error" in got, f"{path} = {bad!r} was accepted: {got['result']!r}"[:500]
    e = got["error"]
    assert e["code"] == code, e
    assert e.get("data") == {"field": path}, e
    assert r.message_pattern(path).match(e["message"]), f"message {e['message']!r} is not `<path> must be …`"
    # Nothing changed, and the daemon keeps serving.
    assert snapshot(walker, WALKED) == walker.walk_before


# -- values --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        case(c)
        for c in [
            "values.negative-size",
            "values.non-finite-size",
            "values.waterfall-column-count",
            "values.full-span-outside-waterfall",
            "values.item-size-unknown-field",
            "values.carousel-style",
            "values.carousel-visible-items",
            "values.carousel-fade-range",
            "values.carousel-section-header",
            "values.packed-sizes-malformed",
            "values.packed-sizes-negative",
            "values.compositional-empty-subitems",
            "values.compositional-dimension",
            "values.compositional-effect-without-row",
            "values.scroll-section-not-a-row",
        ]
    ],
)
def test_values_rejected(spawn, case):
    d, before, got = bad_request(spawn, case)
    expect_field_error(d, row(case), got)
    then(d, row(case), before)


@covers("values.unknown-session")
def test_values_unknown_session(spawn):
    d, before, got = bad_request(spawn, "values.unknown-session")
    assert got["error"]["data"] == {"field": "params.session"}, got
    then(d, row("values.unknown-session"), before)


@covers("values.index-path-out-of-range")
def test_values_index_path_out_of_range(spawn):
    d, before, got = bad_request(spawn, "values.index-path-out-of-range")
    expect_field_error(d, row("values.index-path-out-of-range"), got)
    # The section variant, as the row documents it.
    r = row("values.index-path-out-of-range")
    section_message = r.spans(r.answer)[1]
    e = d.error("layout/attributesForItem", {"session": "flow", "section": 2, "item": 0}, code=-32602)
    assert e["message"] == section_message and e["data"] == {"field": "params.section"}, e
    then(d, r, before)


@pytest.mark.parametrize(
    "case", [case(c) for c in ["values.zero-viewport", "values.item-larger-than-viewport"]]
)
def test_values_accepted(spawn, case):
    r = row(case)
    d, before = start(spawn, r)
    method, params = r.request()
    assert d.call(method, params) == r.result()
    # The items exist where the geometry puts them: each alone on its line
    # at x 0, whatever the viewport.
    size = params["layout"]["itemSize"]
    n = params["sections"][0]["itemCount"]
    attrs = d.call(
        "layout/attributesInRect", {"session": params["session"], "rect": {"x": -1, "y": -1, "width": 5000, "height": 5000}}
    )["attributes"]
    assert [(a["item"], a["frame"]["x"], a["frame"]["y"], a["frame"]["width"]) for a in attrs] == [
        (i, 0, i * (size["height"] + 10), size["width"]) for i in range(n)
    ]
    then(d, r, before)


@covers("values.item-count-1e12")
def test_values_item_count_1e12(spawn):
    r = row("values.item-count-1e12")
    d, before = start(spawn, r)
    method, params = r.request()
    t = time.monotonic()
    d.send(req("huge", method, params))
    got = expect_answer(d, r, id="huge")
    assert time.monotonic() - t < 1.0, "not answered at once"
    expect_field_error(d, r, got)
    then(d, r, before)


@covers("values.item-sizes-over-limit")
def test_values_item_sizes_over_limit(spawn):
    r = row("values.item-sizes-over-limit")
    assert r.flags() == ["--max-items", "1000"]
    d, before = start(spawn, r)
    method, text = r.request_text()
    params = json.loads(text.replace("…", ",".join(['{"width":1,"height":1}'] * 1001)))
    assert len(params["sections"][0]["itemSizes"]) == 1001
    d.send(req("many", method, params))
    got = expect_answer(d, r, id="many")
    expect_field_error(d, r, got)
    # One fewer is within the limit.
    params["sections"][0]["itemSizes"].pop()
    assert d.call(method, params)["contentSize"]["width"] == 320
    d.call("layout/close", {"session": params["session"]})
    then(d, r, before)


@covers("values.sizes-over-request-limit")
def test_values_sizes_over_request_limit(spawn):
    r = row("values.sizes-over-request-limit")
    assert r.flags() == ["--max-item-values-per-request", "2048"]
    d, before = start(spawn, r)
    method, text = r.request_text()
    params = json.loads(text.replace("…", ",".join(['{"width":1,"height":1}'] * 2049)))
    assert len(params["sections"][0]["itemSizes"]) == 2049
    d.send(req("bulk", method, params))
    got = expect_answer(d, r, id="bulk")
    expect_field_error(d, r, got)
    # The documented way: 2,048 in the open, the last one appended.
    params["sections"][0]["itemSizes"].pop()
    d.call(method, params)
    d.call("layout/appendItems", {"session": "bulk", "section": 0, "widthsAndHeights": [1, 1]})
    # 2,049 one-point items, 30 a line (11 points apart): 69 lines, 10
    # apart: 69 + 680 = 749.
    assert d.call("layout/contentSize", {"session": "bulk"})["contentSize"] == {"width": 320, "height": 749}
    d.call("layout/close", {"session": params["session"]})
    then(d, r, before)


def test_values_many_sizes_accepted_by_default(spawn):
    """By default one request may carry as many sizes as the message holds:
    100,000 sizes open a session in one request."""
    d = spawn()
    d.initialize()
    sizes = [{"width": 10, "height": 10 + (i % 3)} for i in range(100_000)]
    got = d.call("layout/open", {
        "session": "bulk", "layout": {"type": "flow"},
        "bounds": {"x": 0, "y": 0, "width": 320, "height": 100}, "sections": [{"itemSizes": sizes}],
    })
    # 10-point items 10 apart across 320: 16 a line ((320 + 10) / 20), so
    # 6,250 lines, each 12 tall (every line has a 12), 10 apart.
    assert got["contentSize"] == {"width": 320, "height": 6250 * 12 + 6249 * 10}
    # The last item (10 tall) is centred on the last line's 12: 1 below it.
    assert d.call("layout/attributesForItem", {"session": "bulk", "section": 0, "item": 99_999})[
        "attributes"]["frame"]["y"] == 6249 * 22 + 1


@covers("values.answer-over-maximum")
def test_values_answer_over_maximum(spawn):
    r = row("values.answer-over-maximum")
    d, before = start(spawn, r)
    method, params = r.request()
    t = time.monotonic()
    d.send(req("tall", method, params))
    got = expect_answer(d, r, id="tall")
    assert time.monotonic() - t < 1.0, "not answered at once"
    expect_field_error(d, r, got)
    then(d, r, before)


@covers("values.session-id-too-long")
def test_values_session_id_too_long(spawn):
    r = row("values.session-id-too-long")
    d, before = start(spawn, r)
    method, text = r.request_text()
    params = json.loads(text.replace("xxx…", "x" * 257))
    assert len(params["session"]) == 257
    d.send(req("long", method, params))
    got = expect_answer(d, r, id="long")
    expect_field_error(d, r, got)
    then(d, r, before)


@covers("values.id-too-long")
def test_values_id_too_long(spawn):
    r = row("values.id-too-long")
    d, before = start(spawn, r)
    method, text = r.request_text()
    params = json.loads(text.replace("yyy…", "y" * 1025))
    assert len(params["sections"][0]["items"][0]) == 1025
    d.send(req("long", method, params))
    got = expect_answer(d, r, id="long")
    expect_field_error(d, r, got)
    then(d, r, before)
    # 1,024 bytes is within the limit; the other places ids are read refuse
    # longer ones alike.
    d.call("layout/open", {"session": "ok", "layout": {"type": "flow"}, "bounds": {"x": 0, "y": 0, "width": 10, "height": 10},
                           "sections": [{"itemCount": 1, "ids": ["z" * 1024]}]})
    assert d.call("layout/attributesForItem", {"session": "ok", "id": "z" * 1024})["attributes"]["item"] == 0
    for m, p in [
        ("layout/open", {"session": "o", "layout": {"type": "flow"}, "bounds": {"x": 0, "y": 0, "width": 10, "height": 10},
                         "sections": [{"itemCount": 1, "ids": ["z" * 1025]}]}),
        ("layout/attributesForItem", {"session": "flow", "id": "z" * 1025}),
    ]:
        e = d.error(m, p, code=-32602)
        assert "bytes long; the limit (maxIdBytes) is 1024" in e["message"], e


@covers("values.over-total-items")
def test_values_over_total_items(spawn):
    r = row("values.over-total-items")
    assert r.flags() == ["--max-total-items", "1000"]
    d, before = start(spawn, r)
    spans = [s for s in r.spans(r.input) if s.startswith("{")]
    first, second = json.loads(spans[0]), json.loads(spans[1])
    d.call("layout/open", first)
    every = FIXTURE_SESSIONS + ("big",)
    before = snapshot(d, every)
    d.send(req("more", "layout/open", second))
    got = expect_answer(d, r, id="more")
    expect_field_error(d, r, got)
    assert snapshot(d, every) == before
    # At the budget exactly: one more item fits.
    d.call("layout/open", dict(second, session="one", sections=[{"itemCount": 1}]))
    # Every other way of growing a session past it is refused, naming its
    # field, and changes nothing.
    for method, params, field in [
        ("layout/appendItems", {"session": "big", "section": 0, "itemCount": 1}, "params.itemCount"),
        ("layout/performBatchUpdates",
         {"session": "big", "updates": {"insertItems": [{"section": 0, "item": 0}]}}, "params.updates"),
        ("layout/reloadData", {"session": "big", "sections": [{"itemCount": 981}]}, "params.sections"),
    ]:
        e = d.error(method, params, code=1004)
        assert e["data"] == {"field": field}
        assert e["message"] == (
            f"{field} holds more than 980 items, what the daemon-wide limit of 1000 "
            "(maxTotalItems) leaves beside the other sessions' 20")
        assert snapshot(d, every) == before
    # A batch that nets out is within the budget.
    d.call("layout/performBatchUpdates", {"session": "big", "updates": {
        "deleteItems": [{"section": 0, "item": 0}], "insertItems": [{"section": 0, "item": 0}]}})
    # Closing a session gives its items back.
    d.call("layout/close", {"session": "one"})
    d.call("layout/appendItems", {"session": "big", "section": 0, "itemCount": 1})
    assert d.error("layout/open", dict(second, session="two", sections=[{"itemCount": 1}]),
                   code=1004)["data"] == {"field": "params.sections"}
    d.call("layout/close", {"session": "big"})
    d.call("layout/open", dict(second, session="two", sections=[{"itemCount": 981}]))
    d.call("layout/close", {"session": "two"})
    then(d, r, snapshot(d))


@covers("values.ten-million-sizes")
def test_values_ten_million_sizes(spawn):
    """The real thing: 10 million entries, 230 MB, streamed at the default
    maximum; the daemon skips it as it arrives."""
    r = row("values.ten-million-sizes")
    d, before = start(spawn, r)
    template = r.body()
    assert template.count("[…]") == 1
    pre, post = template.split("[…]")
    pre, post = (pre + "[").encode(), ("]" + post).encode()
    entry = b'{"width":1,"height":1}'
    n = 10_000_000
    length = len(pre) + len(post) + n * len(entry) + (n - 1)
    assert f"Content-Length {length} exceeds" in r.error()[1], "the documented size is not this body's"
    rss_before = rss_kib(d.proc.pid)
    d.write(f"Content-Length: {length}\r\n\r\n".encode() + pre)
    chunk = b",".join([entry] * 40000) + b","
    sent = 0
    while sent + 40000 < n:
        d.write(chunk)
        sent += 40000
    d.write(b",".join([entry] * (n - sent)) + post)
    expect_answer(d, r)
    assert rss_kib(d.proc.pid) - rss_before < 32 * 1024, "the oversized body was buffered"
    then(d, r, before)


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


# -- lifecycle and transport -----------------------------------------------------------


@covers("lifecycle.request-after-shutdown")
def test_lifecycle_request_after_shutdown(spawn):
    r = row("lifecycle.request-after-shutdown")
    d, _ = start(spawn, r)
    assert d.call("shutdown") is None
    method, params = r.request()
    for rid in ("late", 2, "later"):
        d.send(req(rid, method, params))
        expect_answer(d, r, id=rid)
    d.send(note("exit"))
    d.expect_eof()
    assert d.wait() == r.exit_code
    # And at EOF instead of exit.
    d2, _ = start(spawn, r)
    assert d2.call("shutdown") is None
    d2.send(req("late", method, params))
    expect_answer(d2, r, id="late")
    d2.close_stdin()
    d2.expect_eof()
    assert d2.wait() == r.exit_code


@covers("transport.stdout-closed")
def test_transport_stdout_closed():
    r = row("transport.stdout-closed")
    allowed = [s for s in r.spans(r.answer) if s.startswith("flowlayoutd: ")][0]
    p = subprocess.Popen([DAEMON], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    try:
        p.stdout.close()  # the client's read end: the daemon's writes now fail with EPIPE
        try:
            p.stdin.write(frame(req(1, "initialize", {})) + frame(req(2, "layout/contentSize", {"session": "x"})))
            p.stdin.write(frame(req(3, "layout/contentSize", {"session": "x"})))
        except BrokenPipeError:
            pass  # it may already have gone
        code = p.wait(TIMEOUT)
        err = p.stderr.read().decode("utf-8", "replace")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        for s in (p.stdin, p.stderr):
            try:
                s.close()
            except OSError:
                pass
    assert code == r.exit_code, f"exit {code} (negative: killed by a signal); stderr {err!r}"
    assert err in ("", allowed + "\n"), f"unexpected stderr {err!r}"


@covers("transport.stdin-closed-mid-frame")
@pytest.mark.parametrize("cut", ["header", "body"])
def test_transport_stdin_closed_mid_frame(spawn, cut):
    r = row("transport.stdin-closed-mid-frame")
    header_message, body_message = answer_messages(r)
    hint = row("framing.unframed").error()[1].split(": ", 2)[2]
    header_message, body_message = header_message.replace("…", hint), body_message.replace("…", hint)
    for last, code in (("layout/contentSize", r.exit_code), ("shutdown", 0)):
        d = spawn()
        three = [
            req(1, "initialize", {}),
            req(2, "layout/open", {"session": "s", "layout": {"type": "flow"}, "bounds": B, "sections": [{"itemCount": 3}]}),
            req(3, last, {"session": "s"} if last != "shutdown" else None),
        ]
        fourth = frame(req(4, "layout/close", {"session": "s"}))
        partial = fourth[:10] if cut == "header" else fourth[: len(fourth) - 5]
        d.write(b"".join(frame(m) for m in three) + partial)
        d.close_stdin()
        got = [d.read() for _ in three]
        assert [g["id"] for g in got] == [1, 2, 3]
        assert all("result" in g for g in got), got
        last_answer = d.read()
        assert last_answer["id"] is None and last_answer["error"]["code"] == -32700, last_answer
        message = last_answer["error"]["message"]
        if cut == "header":
            assert message == header_message
        else:
            declared = len(encode(req(4, "layout/close", {"session": "s"})))
            assert hint.startswith('expected "Content-Length: N')
            assert body_message.replace("N declared, M bytes", f"{declared} declared, {declared - 5} bytes") == message
        d.expect_eof()
        assert d.wait() == code
        assert d.stderr_text() == framing_hint_line(message)
