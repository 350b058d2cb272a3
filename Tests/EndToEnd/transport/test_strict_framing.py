"""Strict framing (issue 28): every damaged header block is a -32700 with
id null, and the reader resynchronises on the next valid header, so that
the frame after a bad one is always answered. Plus errors that quote a
client's name quote at most 256 bytes of it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daemon_support import encode, frame, req

INIT = req(1, "initialize", {})


def parse_error(r: dict) -> str:
    assert r["id"] is None and r["error"]["code"] == -32700, r
    return r["error"]["message"]


@pytest.mark.parametrize("header, message", [
    # Beyond 2^63: once taken as a 9.2e18-byte body that swallowed every later frame.
    (b"Content-Length: 99999999999999999999", "Content-Length must be a decimal of at most 19 digits, got "
                                              '"99999999999999999999"'),
    (b"Content-Length: 9999999999999999999", "Content-Length 9999999999999999999 exceeds the maximum of "
                                             "67108864 bytes"),
    (b"Content-Length: 67108865", "Content-Length 67108865 exceeds the maximum of 67108864 bytes"),
    (b"Content-Length: -2", 'Content-Length must be a decimal of at most 19 digits, got "-2"'),
    (b"Content-Length: 0x10", 'Content-Length must be a decimal of at most 19 digits, got "0x10"'),
    (b"Content-Length: 2\r\nContent-Length: 2", "duplicate Content-Length headers"),
    (b"Content-Length: 2\r\ncontent-length: 999", "duplicate Content-Length headers"),
    (b"Content-Length: 2\nX-Note: y", "a header line must end with CRLF"),
    (b"Content-Length: 2\r\nX Note: y", 'header name "X Note" is empty or has a character outside the token '
                                        "characters"),
    (b"Content-Length: 2\r\n: y", 'header name "" is empty or has a character outside the token characters'),
    (b"Content-Length: 2\r\nX-\xc3\xa9: y", 'header name "X-?" is empty or has a character outside the token '
                                            "characters"),
])
def test_each_damaged_header_is_a_parse_error_and_the_next_frame_is_answered(daemon, header, message):
    daemon.write(header + b"\r\n\r\n{}" + frame(INIT))
    assert parse_error(daemon.read()) == f"Parse error: invalid frame header: {message}"
    r = daemon.read()
    assert r["id"] == 1 and "result" in r


def test_a_header_ended_by_lf_alone_does_not_hide_the_next_frame(daemon):
    # The bad block runs into the next frame's header (the first CRLFCRLF is
    # the good frame's): the reader resumes at the good header inside it.
    daemon.write(b"Content-Length: 2\n\n{}" + frame(INIT))
    parse_error(daemon.read())
    r = daemon.read()
    assert r["id"] == 1 and "result" in r


def test_a_body_over_the_limit_is_skipped_as_it_streams_past(spawn):
    d = spawn("--max-message-bytes", "100")
    big = encode(INIT)[:-1] + b" " * 5000 + b"}"
    data = frame(big) + frame(req(2, "initialize"))
    # In pieces, the body's bytes arriving after its header's error.
    head = data.index(b"\r\n\r\n") + 4
    d.write_pieces(data, [head - 2, head + 10, head + 3000, len(data) - 40])
    assert parse_error(d.read()) == (
        f"Parse error: invalid frame header: Content-Length {len(big)} exceeds the maximum of 100 bytes")
    r = d.read()
    assert r["id"] == 2 and r["result"]["capabilities"]["limits"]["maxMessageBytes"] == 100


def test_an_unknown_field_of_16_mib_is_quoted_in_256_bytes(daemon):
    daemon.initialize()
    name = "x" * (16 << 20)
    r = daemon.request("layout/contentSize", {"session": "s", name: 1})
    e = r["error"]
    field = "params." + "x" * 256 + "\u2026"
    assert e == {"code": -32602, "message": f"{field} is not a known field", "data": {"field": field}}
    assert len(json.dumps(r)) < 1000
    r = daemon.request("y" * 100000, {})
    assert r["error"]["message"] == "Method not found: " + "y" * 256 + "\u2026"


HEADER_MUTATIONS = st.sampled_from([
    b"Content-Length: 3\n",  # LF alone
    b"Content-Length: 3\r\nContent-Length: 3\r\n",  # duplicate
    b"Content-Length: 123456789012345678901\r\n",  # too many digits
    b"Content-Length: 68000000\r\n",  # over the limit
    b"Content Length: 3\r\n",  # not a token
    b"Content-Length: x\r\n",  # not a decimal
    b"X-Thing\r\nContent-Length: 3\r\n",  # no colon
    b"Content-Type: application/json; charset=latin1\r\nContent-Length: 3\r\n",  # charset
    b"",  # no Content-Length at all
])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    # Junk glued to the next frame must not name its header in any case:
    # "content-length:" before "Content-Length: N" damages that frame too.
    bad=st.lists(st.tuples(HEADER_MUTATIONS, st.binary(max_size=40).filter(lambda b: b"content-length" not in b.lower())),
                 min_size=1, max_size=4),
    cut=st.integers(1, 50),
)
def test_every_valid_frame_after_bad_ones_is_answered(spawn, bad, cut):
    """Random damaged frames, each followed by a valid one: every valid
    frame is answered, in order, whatever came before it; the damaged
    ones answer only errors with id null (a parse error, or -32600 where
    the reader took a line for junk before a header and what followed it
    for a frame), and nothing is lost. A daemon
    of its own per example: a failure leaves nothing for the next."""
    daemon = spawn()
    data = b""
    for k, (header, body) in enumerate(bad):
        data += header + b"\r\n" + b"{}\r\n" + body + frame(req(100 + k, "initialize" if k == 0 else "nope/" + str(k)))
    daemon.write_pieces(data, sorted({min(len(data) - 1, cut * j) for j in range(1, 5)}))
    answered = []
    while len(answered) < len(bad):
        r = daemon.read()
        if r["id"] is None:
            assert r["error"]["code"] in (-32700, -32600), r
            continue
        answered.append(r["id"])
    assert answered == [100 + k for k in range(len(bad))]
    daemon.ping()
