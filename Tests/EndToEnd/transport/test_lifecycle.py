"""LSP 3.17 lifecycle: initialize, shutdown, exit, EOF."""

from __future__ import annotations

import subprocess

from daemon_support import DAEMON, note, req

SEED_OPEN = {
    "session": "s",
    "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}},
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}

NOT_INITIALIZED = {"code": -32002, "message": "Server not initialized: send initialize first"}
SHUTTING_DOWN = {"code": -32600, "message": "Invalid request: the server is shutting down; only exit is accepted"}


def test_request_before_initialize(daemon):
    for method, params in [
        ("layout/open", SEED_OPEN),
        ("layout/contentSize", {"session": "s"}),
        ("shutdown", None),
        ("no/such", {}),
    ]:
        r = daemon.request(method, params)
        assert r["error"] == NOT_INITIALIZED, (method, r)
    daemon.initialize()
    # Nothing ran before initialize: no session exists.
    assert daemon.error("layout/contentSize", {"session": "s"})["code"] == 1001


def test_notification_before_initialize_dropped(daemon):
    daemon.send(note("initialized"), note("layout/open", SEED_OPEN), note("whatever"))
    daemon.ping()
    daemon.initialize()
    daemon.ping()


def test_initialize_result(spawn):
    d = spawn(
        "--max-sessions", "7", "--max-items", "1234", "--max-message-bytes", "99999",
        "--max-answer-bytes", "88888", "--max-item-values-per-request", "321", "--max-total-items", "5000",
    )
    result = d.call("initialize", {"processId": None, "capabilities": {}, "clientInfo": {"name": "pytest"}})
    assert result["serverInfo"]["name"] == "flowlayoutd"
    assert isinstance(result["serverInfo"]["version"], str) and result["serverInfo"]["version"]
    caps = result["capabilities"]
    assert "coverFlow" in caps["layoutTypes"] and "flow" in caps["layoutTypes"]
    assert "nearest" in caps["snapPolicies"]
    assert set(caps["scaleCurves"]) == {"linear", "reciprocal"}
    assert set(caps["distanceUnits"]) == {"viewport", "points", "pitch"}
    # The method list and the method table are one table's two views.
    assert caps["methods"] == [m["name"] for m in caps["methodTable"]]
    assert set(caps["methods"]) == {
        "layout/open",
        "layout/setBounds",
        "layout/scrollEnded",
        "layout/scrollToItem",
        "layout/attributesInRect",
        "layout/attributesForItem",
        "layout/attributesForSupplementary",
        "layout/itemAtPoint",
        "layout/contentSize",
        "layout/performBatchUpdates",
        "layout/reloadData",
        "layout/applySnapshot",
        "layout/configure",
        "layout/setItemSizes",
        "layout/appendItems",
        "layout/scrollSection",
        "layout/close",
        "layout/beginInteractiveMovement",
        "layout/updateInteractiveMovement",
        "layout/endInteractiveMovement",
        "layout/cancelInteractiveMovement",
        "layout/setItemSeparators",
        "layout/expand",
        "layout/collapse",
        "layout/outlineAppend",
        "layout/outlineInsert",
        "layout/outlineDelete",
        "layout/outlineReplaceChildren",
        "layout/outline",
        "layout/beginSwipe",
        "layout/updateSwipe",
        "layout/endSwipe",
        "layout/closeSwipe",
    }
    table = {m["name"]: m for m in caps["methodTable"]}
    assert table["layout/setBounds"] == {
        "name": "layout/setBounds",
        "summary": "A scroll frame or a resize: the delta of the viewport.",
        "params": [
            {"name": "session", "type": "string", "required": True},
            {"name": "bounds", "type": "Rect", "required": True},
        ],
        "result": "MutationResult",
        "picture": "delta",
    }
    assert table["layout/open"]["picture"] == "open"
    # Every method that answers a delta of the picture, and only those.
    assert {n for n, m in table.items() if m["picture"] == "delta"} == {
        "layout/setBounds",
        "layout/performBatchUpdates",
        "layout/reloadData",
        "layout/applySnapshot",
        "layout/configure",
        "layout/setItemSizes",
        "layout/appendItems",
        "layout/scrollSection",
        "layout/updateInteractiveMovement",
        "layout/endInteractiveMovement",
        "layout/cancelInteractiveMovement",
        "layout/setItemSeparators",
        "layout/expand",
        "layout/collapse",
        "layout/outlineAppend",
        "layout/outlineInsert",
        "layout/outlineDelete",
        "layout/outlineReplaceChildren",
    }
    assert [p["name"] for p in table["layout/appendItems"]["params"]] == [
        "session", "section", "itemCount", "itemSizes", "widthsAndHeights", "widthsAndHeightsBase64", "ids",
    ]
    assert caps["limits"] == {
        "maxSessions": 7,
        "maxItemsPerSession": 1234,
        "maxSections": 1000000,
        "maxSessionIdBytes": 256,
        "maxIdBytes": 1024,
        "maxMessageBytes": 99999,
        "maxAnswerBytes": 88888,
        "maxLapsPerQuery": 100000,
        "maxItemValuesPerRequest": 321,
        "maxWaterfallItems": 1234,
        "maxTotalItems": 5000,
    }
    assert caps["loop"] is True


def test_initialize_defaults(daemon):
    limits = daemon.initialize()["capabilities"]["limits"]
    assert limits["maxSessions"] == 1000
    assert limits["maxItemsPerSession"] == 100000000
    assert limits["maxMessageBytes"] == 64 * 1024 * 1024
    # Answers of elements are smaller: writing 8 MiB takes about 25 ms.
    assert limits["maxAnswerBytes"] == 8 * 1024 * 1024
    # No limit on the values one request carries (the message size bounds
    # it); a daemon-wide item budget instead.
    assert limits["maxItemValuesPerRequest"] is None
    assert limits["maxTotalItems"] == 100000000


def test_initialize_twice(server):
    err = server.error("initialize", {}, code=-32600)
    assert err["message"] == "Invalid request: initialize may only be sent once"
    server.ping()


def test_shutdown_then_requests_rejected(server):
    server.call("layout/open", SEED_OPEN)
    assert server.request("shutdown")["result"] is None
    for method, params in [
        ("layout/contentSize", {"session": "s"}),
        ("layout/open", dict(SEED_OPEN, session="t")),
        ("initialize", {}),
        ("shutdown", None),
    ]:
        assert server.request(method, params)["error"] == SHUTTING_DOWN, method
    # Notifications after shutdown are dropped.
    server.send(note("initialized"), note("layout/close", {"session": "s"}))
    server.ping()


def test_exit_after_shutdown_exits_0(server):
    assert server.request("shutdown")["result"] is None
    server.send(note("exit"))
    server.expect_eof()
    assert server.wait() == 0


def test_exit_without_shutdown_exits_1(server):
    server.call("layout/open", SEED_OPEN)
    server.send(note("exit"))
    server.expect_eof()
    assert server.wait() == 1


def test_exit_before_initialize_exits_1(daemon):
    daemon.send(note("exit"))
    daemon.expect_eof()
    assert daemon.wait() == 1


def test_exit_with_params_still_exits(server):
    server.send(req(1, "shutdown"), note("exit", {}))
    assert server.read()["result"] is None
    server.expect_eof()
    assert server.wait() == 0


def test_messages_after_exit_are_not_answered(server):
    server.send(req(1, "shutdown"), note("exit"), req(2, "layout/contentSize", {"session": "s"}), req(3, "shutdown"))
    assert server.read() == {"jsonrpc": "2.0", "id": 1, "result": None}
    server.expect_eof()
    assert server.wait() == 0


def pipelined(n: int) -> list:
    msgs = [req(1, "initialize", {}), req(2, "layout/open", SEED_OPEN)]
    for i in range(n):
        x = (i * 37) % 2070
        msgs.append(
            req(100 + i, "layout/setBounds", {"session": "s", "bounds": {"x": x, "y": 0, "width": 375, "height": 300}})
        )
    msgs.append(req(3, "layout/contentSize", {"session": "s"}))
    return msgs


def test_eof_after_pipelined_requests_without_shutdown(daemon):
    msgs = pipelined(200)
    daemon.send(*msgs)
    daemon.close_stdin()
    responses = [daemon.read() for _ in msgs]
    assert [r["id"] for r in responses] == [m["id"] for m in msgs]
    assert all("result" in r for r in responses), [r for r in responses if "error" in r][:3]
    assert responses[-1]["result"] == {"contentSize": {"width": 2445, "height": 300}}
    daemon.expect_eof()
    assert daemon.wait() == 1


def test_eof_after_pipelined_requests_with_shutdown(daemon):
    msgs = pipelined(200) + [req(4, "shutdown"), req(5, "layout/contentSize", {"session": "s"})]
    daemon.send(*msgs)
    daemon.close_stdin()
    responses = [daemon.read() for _ in msgs]
    assert [r["id"] for r in responses] == [m["id"] for m in msgs]
    assert responses[-2]["result"] is None
    assert responses[-1]["error"] == SHUTTING_DOWN
    daemon.expect_eof()
    assert daemon.wait() == 0


def test_eof_mid_frame(daemon):
    daemon.write(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"")
    daemon.close_stdin()
    # The short body is answered at EOF (issue #45), then the daemon exits.
    got = daemon.read()
    assert got["id"] is None and got["error"]["code"] == -32700, got
    assert got["error"]["message"].startswith(
        "Parse error: incomplete frame at EOF: Content-Length 100 declared, 10 bytes of body arrived; "
    ), got
    daemon.expect_eof()
    assert daemon.wait() == 1


def test_large_pipelined_burst_without_reading_first(daemon):
    """Many responses while the client is still writing: neither side may
    deadlock (the reader thread drains stdout concurrently)."""
    msgs = [req(1, "initialize", {}), req(2, "layout/open", dict(SEED_OPEN, sections=[{"itemCount": 200}]))]
    for i in range(2000):
        msgs.append(
            req(10 + i, "layout/attributesInRect", {"session": "s", "rect": {"x": 0, "y": 0, "width": 2000, "height": 300}})
        )
    daemon.send(*msgs)
    for m in msgs:
        r = daemon.read()
        assert r["id"] == m["id"] and "result" in r
    daemon.send(req(3, "shutdown"), note("exit"))
    assert daemon.read()["result"] is None
    assert daemon.wait() == 0


def test_help_and_version_and_bad_flags():
    out = subprocess.run([DAEMON, "--version"], capture_output=True, timeout=5)
    assert out.returncode == 0 and out.stdout.decode().startswith("flowlayoutd ")
    out = subprocess.run([DAEMON, "--help"], capture_output=True, timeout=5)
    assert out.returncode == 0 and b"--max-message-bytes" in out.stdout
    for args in (["--max-sessions", "0"], ["--max-items", "x"], ["--bogus"], ["--log"]):
        out = subprocess.run([DAEMON, *args], capture_output=True, timeout=5, stdin=subprocess.DEVNULL)
        assert out.returncode == 2, args
        assert out.stdout == b"", args


def test_log_file_keeps_stdout_clean(spawn, tmp_path):
    log = tmp_path / "d.log"
    d = spawn("--log", str(log))
    d.write(b"X-Foo: 1\r\n\r\n")
    d.send(req(1, "initialize"))
    assert d.read()["error"]["code"] == -32700
    assert d.read()["id"] == 1
    d.send(req(2, "shutdown"), note("exit"))
    assert d.read()["result"] is None
    assert d.wait() == 0
    assert "no Content-Length" in log.read_text()
    assert d.stderr_text() == ""
