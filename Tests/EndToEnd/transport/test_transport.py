"""LSP base-protocol framing and JSON-RPC 2.0 message validation."""

from __future__ import annotations

import pytest

from daemon_support import assert_same_id, encode, frame, note, req

INIT = req(1, "initialize", {})


def assert_parse_error(r: dict) -> None:
    assert r["id"] is None, r
    assert r["error"]["code"] == -32700, r
    assert r["error"]["message"].startswith("Parse error: "), r


def assert_invalid_request(r: dict, id=None) -> None:
    assert_same_id(r["id"], id) if id is not None else None
    if id is None:
        assert r["id"] is None, r
    assert r["error"]["code"] == -32600, r
    assert r["error"]["message"].startswith("Invalid request: "), r


# -- framing ---------------------------------------------------------------


def test_frame_split_across_several_writes(daemon):
    data = frame(INIT)
    # Cut inside the header name, between \r and \n, inside the blank line,
    # and twice inside the body.
    head = data.index(b"\r\n\r\n")
    cuts = [3, 10, head + 1, head + 3, head + 10, len(data) - 2]
    daemon.write_pieces(data, cuts)
    r = daemon.read()
    assert r["id"] == 1 and r["result"]["serverInfo"]["name"] == "flowlayoutd"


def test_frame_split_one_byte_at_a_time(daemon):
    data = frame(req(7, "initialize"))
    daemon.write_pieces(data, list(range(1, len(data))), pause=0.001)
    r = daemon.read()
    assert_same_id(r["id"], 7)
    assert "result" in r


def test_two_frames_in_one_write(daemon):
    daemon.write(frame(INIT) + frame(req(2, "layout/contentSize", {"session": "x"})))
    a = daemon.read()
    b = daemon.read()
    assert a["id"] == 1 and "result" in a
    assert b["id"] == 2 and b["error"]["code"] == 1001


def test_frame_boundary_inside_second_header(daemon):
    data = frame(INIT) + frame(req(2, "shutdown"))
    cut = len(frame(INIT)) + 5  # inside "Content-Length" of the second frame
    daemon.write_pieces(data, [cut])
    assert daemon.read()["id"] == 1
    assert daemon.read() == {"jsonrpc": "2.0", "id": 2, "result": None}


@pytest.mark.parametrize(
    "header",
    ["content-length: {n}", "CONTENT-LENGTH: {n}", "cOnTeNt-LeNgTh: {n}", "Content-Length:{n}", "Content-Length: \t{n} "],
)
def test_header_name_case_insensitive_and_spacing(daemon, header):
    daemon.write(frame(INIT, [header]))
    r = daemon.read()
    assert r["id"] == 1 and "result" in r


@pytest.mark.parametrize(
    "content_type",
    [
        "application/vscode-jsonrpc; charset=utf-8",
        "application/vscode-jsonrpc; charset=utf8",
        "application/vscode-jsonrpc; charset=UTF-8",
        'application/vscode-jsonrpc; charset="utf-8"',
        "application/vscode-jsonrpc",
    ],
)
def test_content_type_accepted(daemon, content_type):
    # Content-Type both after and before Content-Length.
    daemon.write(frame(INIT, ["Content-Length: {n}", "Content-Type: " + content_type]))
    assert "result" in daemon.read()
    daemon.write(frame(req(2, "shutdown"), ["content-type: " + content_type, "Content-Length: {n}"]))
    assert daemon.read() == {"jsonrpc": "2.0", "id": 2, "result": None}


def test_unsupported_charset_is_a_parse_error_and_daemon_continues(daemon):
    daemon.write(frame(INIT, ["Content-Length: {n}", "Content-Type: application/vscode-jsonrpc; charset=latin1"]))
    daemon.write(frame(req(2, "initialize")))
    r = daemon.read()
    assert_parse_error(r)
    assert "latin1" in r["error"]["message"]
    r = daemon.read()
    assert r["id"] == 2 and "result" in r


def test_unknown_headers_ignored(daemon):
    daemon.write(frame(INIT, ["X-Trace: abc", "Content-Length: {n}", "X-Other: a: b: c", "Accept: */*"]))
    assert daemon.read()["id"] == 1


def test_body_length_counts_bytes_not_characters(server):
    # A multi-byte id: Content-Length must count UTF-8 bytes both ways.
    sid = "é✓😀"
    server.send(req(sid, "layout/contentSize", {"session": "ß"}))
    r = server.read()
    assert_same_id(r["id"], sid)
    assert r["error"]["code"] == 1001
    assert r["error"]["message"] == 'unknown session "ß"'


def test_header_block_without_content_length(daemon):
    bad = frame(INIT, ["Content-Type: application/vscode-jsonrpc; charset=utf-8"])
    daemon.write(bad + frame(req(2, "initialize")))
    r = daemon.read()
    assert_parse_error(r)
    assert "Content-Length" in r["error"]["message"]
    # Exactly one error: the very next frame answers the next valid request.
    r = daemon.read()
    assert r["id"] == 2 and "result" in r
    daemon.ping()


def test_header_block_without_content_length_in_separate_writes(daemon):
    daemon.write(b"X-Foo: bar\r\n\r\n")
    daemon.write(encode(INIT))  # the body of the damaged frame: junk now
    daemon.write(frame(req(2, "initialize")))
    assert_parse_error(daemon.read())
    r = daemon.read()
    assert r["id"] == 2 and "result" in r


@pytest.mark.parametrize("junk_body", [b"null", b"42", b"abc"])
def test_header_block_without_content_length_then_token_body(daemon, junk_body):
    """A damaged frame whose body ends in token characters (letters, digits)
    must not swallow the valid frame that follows it."""
    daemon.write(b"X-Foo: bar\r\n\r\n" + junk_body + frame(req(2, "initialize")))
    assert_parse_error(daemon.read())
    r = daemon.read()
    assert r["id"] == 2 and "result" in r


@pytest.mark.parametrize("value", ["-5", "abc", "", "12abc", "1.5"])
def test_bad_content_length_value(daemon, value):
    daemon.write(b"Content-Length: " + value.encode() + b"\r\n\r\n" + frame(req(2, "initialize")))
    r = daemon.read()
    assert_parse_error(r)
    r = daemon.read()
    assert r["id"] == 2 and "result" in r


def test_header_line_without_colon(daemon):
    daemon.write(b"Content-Length: 2\r\nbogus\r\n\r\n{}" + frame(req(2, "initialize")))
    r = daemon.read()
    assert_parse_error(r)
    assert daemon.read()["id"] == 2


def test_oversized_body_rejected_and_skipped(spawn):
    d = spawn("--max-message-bytes", "100")
    body = encode(INIT)
    big = body[:-1] + b" " * (200 - len(body)) + b"}"
    assert len(big) == 200
    d.write(frame(big) + frame(req(2, "initialize")))
    r = d.read()
    assert r["id"] is None
    assert r["error"]["code"] == -32700
    assert r["error"]["message"] == (
        "Parse error: invalid frame header: Content-Length 200 exceeds the maximum of 100 bytes"
    )
    r = d.read()
    assert r["id"] == 2
    assert r["result"]["capabilities"]["limits"]["maxMessageBytes"] == 100


def test_oversized_body_streamed_in_pieces(spawn):
    d = spawn("--max-message-bytes", "100")
    d.write(frame(INIT))
    assert d.read()["id"] == 1
    big = b"[" + b" " * 198 + b"]"
    data = frame(big) + frame(req(2, "layout/contentSize", {"session": "s"}))
    head = data.index(b"\r\n\r\n") + 4
    d.write_pieces(data, [head - 2, head + 10, head + 150, head + 199])
    r = d.read()
    assert r["id"] is None and r["error"]["code"] == -32700
    r = d.read()
    assert r["id"] == 2 and r["error"]["code"] == 1001


def test_body_exactly_at_limit_accepted(spawn):
    d = spawn("--max-message-bytes", "100")
    body = encode(INIT)
    exact = body[:-1] + b" " * (100 - len(body)) + b"}"
    assert len(exact) == 100
    d.write(frame(exact))
    assert d.read()["id"] == 1


def test_header_flood_without_blank_line(daemon):
    """64 KiB of header bytes with no blank line are dropped with one error;
    the next frame is answered."""
    daemon.write(b"X" * 70000 + b"\r\n")
    daemon.write(frame(req(2, "initialize")))
    r = daemon.read()
    assert_parse_error(r)
    r = daemon.read()
    assert r["id"] == 2 and "result" in r


def test_header_flood_of_token_characters(daemon):
    """As above, but the flood is all letters: the kept tail of the flood
    must not glue onto the next header and swallow that frame."""
    daemon.write(b"X" * 70000)
    daemon.write(frame(req(2, "initialize")))
    r = daemon.read()
    assert_parse_error(r)
    r = daemon.read()
    assert r["id"] == 2 and "result" in r


# -- JSON and JSON-RPC validation --------------------------------------------


@pytest.mark.parametrize(
    "body", [b'{"jsonrpc": "2.0", "id": 1, "method": ', b"not json", b"{\"a\":1,\"a\":2}", b"\xff\xfe", b"[1,]", b"1e400"]
)
def test_bad_json_is_parse_error_and_daemon_continues(daemon, body):
    daemon.write(frame(body) + frame(INIT))
    r = daemon.read()
    assert_parse_error(r)
    r = daemon.read()
    assert r["id"] == 1 and "result" in r


def test_empty_body_is_parse_error(daemon):
    daemon.write(b"Content-Length: 0\r\n\r\n" + frame(INIT))
    r = daemon.read()
    assert_parse_error(r)
    assert r["error"]["message"] == "Parse error: empty message body"
    assert daemon.read()["id"] == 1


@pytest.mark.parametrize("bad_id", [1.5, 1.0, {"a": 1}, [1], True, None])
def test_id_of_wrong_type_is_invalid_request_with_null_id(server, bad_id):
    server.send({"jsonrpc": "2.0", "id": bad_id, "method": "layout/contentSize", "params": {"session": "s"}})
    r = server.read()
    assert r["id"] is None
    assert r["error"] == {"code": -32600, "message": "Invalid request: id must be an integer or a string"}
    server.ping()


@pytest.mark.parametrize("version", ["1.0", 2.0, None, "2.00"])
def test_wrong_jsonrpc_version(server, version):
    m = req(5, "layout/contentSize", {"session": "s"})
    m["jsonrpc"] = version
    server.send(m)
    r = server.read()
    assert_same_id(r["id"], 5)
    assert r["error"] == {"code": -32600, "message": 'Invalid request: jsonrpc must be "2.0"'}


def test_missing_jsonrpc_member(server):
    server.send({"id": 6, "method": "layout/contentSize", "params": {"session": "s"}})
    r = server.read()
    assert r["id"] == 6 and r["error"]["code"] == -32600


@pytest.mark.parametrize("params", [[1, 2], [], "x", 3, True])
def test_params_not_an_object_is_invalid_params(server, params):
    server.send({"jsonrpc": "2.0", "id": 8, "method": "layout/contentSize", "params": params})
    r = server.read()
    assert_same_id(r["id"], 8)
    assert r["error"] == {"code": -32602, "message": "params must be an object", "data": {"field": "params"}}


def test_params_array_on_notification_is_dropped(server):
    server.send({"jsonrpc": "2.0", "method": "layout/open", "params": [1]})
    server.ping()


def test_null_params_read_as_empty_object(server):
    r = server.request("layout/contentSize", None)  # params omitted
    assert r["error"]["code"] == -32602 and r["error"]["data"] == {"field": "params.session"}
    server.send({"jsonrpc": "2.0", "id": 9, "method": "layout/contentSize", "params": None})
    r = server.read()
    assert r["error"] == {
        "code": -32602,
        "message": "params.session is required",
        "data": {"field": "params.session"},
    }


def test_unknown_method(server):
    err = server.error("layout/frobnicate", {}, code=-32601)
    assert err["message"] == "Method not found: layout/frobnicate"
    err = server.error("$/unknownRequest", {}, code=-32601)
    assert err["message"] == "Method not found: $/unknownRequest"


def test_method_missing_or_not_a_string(server):
    server.send({"jsonrpc": "2.0", "id": 3})
    r = server.read()
    assert r["id"] == 3 and r["error"] == {"code": -32600, "message": "Invalid request: method is required"}
    server.send({"jsonrpc": "2.0", "id": 4, "method": 12})
    r = server.read()
    assert r["id"] == 4 and r["error"] == {"code": -32600, "message": "Invalid request: method must be a string"}


def test_non_object_message(server):
    server.send(42)
    r = server.read()
    assert r["id"] is None
    assert r["error"] == {"code": -32600, "message": "Invalid request: a message must be an object"}


def test_client_response_is_ignored(server):
    server.send({"jsonrpc": "2.0", "id": 77, "result": {"ok": True}})
    server.send({"jsonrpc": "2.0", "id": 78, "error": {"code": 1, "message": "x"}})
    server.ping()


@pytest.mark.parametrize(
    "rid",
    [0, "0", -1, 9007199254740993, 9223372036854775807, -9223372036854775808, "", "a\"b\\c\n", "x" * 1000],
)
def test_ids_echoed_with_their_type(server, rid):
    server.send(req(rid, "layout/contentSize", {"session": "s"}))
    r = server.read()
    assert_same_id(r["id"], rid)
    assert r["error"]["code"] == 1001


def test_id_zero_on_success_and_string_zero_distinct(server):
    server.send(req(0, "layout/contentSize", {"session": "a"}), req("0", "layout/contentSize", {"session": "b"}))
    a = server.read()
    b = server.read()
    assert_same_id(a["id"], 0)
    assert a["error"]["message"] == 'unknown session "a"'
    assert_same_id(b["id"], "0")
    assert b["error"]["message"] == 'unknown session "b"'


def test_integer_id_beyond_64_bits_is_parse_error(server):
    server.write(frame(b'{"jsonrpc":"2.0","id":18446744073709551616,"method":"shutdown"}'))
    r = server.read()
    assert_parse_error(r)
    server.ping()  # and shutdown did not run
