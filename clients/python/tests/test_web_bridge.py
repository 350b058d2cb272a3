"""The web client's bridge (`flowlayout web`) without a browser: the files it
serves, the JSON-RPC relay on POST /rpc, what it refuses, and a clean daemon
shutdown on Ctrl-C and SIGTERM. Standard library only (http.client)."""

from __future__ import annotations

import http.client
import json
import signal
import socket
from typing import Any, Optional

import pytest

from conftest import TIMEOUT, WebBridge, daemon_gone


@pytest.fixture(scope="module")
def bridge():
    b = WebBridge()
    yield b
    code, rest = b.stop()
    assert code == 0, rest
    assert "flowlayoutd exited with status 0" in rest, rest


def fetch(bridge: WebBridge, method: str, path: str, body: Any = None,
         headers: Optional[dict] = None) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", bridge.port, timeout=TIMEOUT)
    try:
        h = {"Content-Type": "application/json"} if body is not None else {}
        h.update(headers or {})
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        conn.request(method, path, body=body, headers=h)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def rpc(bridge: WebBridge, message: Any) -> tuple[int, Any]:
    status, _, body = fetch(bridge, "POST", "/rpc", message)
    return status, (json.loads(body) if body else None)


SEED_OPEN = {
    "session": "bridge-seed",
    "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}},
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}


def test_serves_the_page(bridge):
    status, headers, body = fetch(bridge, "GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'src="app.js"' in body and b'href="style.css"' in body
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css"), ("index.html", "text/html")):
        status, headers, body = fetch(bridge, "GET", "/" + name)
        assert status == 200 and headers["content-type"].startswith(kind), (name, status, headers)
        assert body
    status, headers, body = fetch(bridge, "HEAD", "/app.js")
    assert status == 200 and int(headers["content-length"]) > 0 and body == b""


@pytest.mark.parametrize(
    "path", ["/missing.js", "/../README.md", "/%2e%2e/README.md", "/..%2fREADME.md", "/.hidden.js", "/rpc"]
)
def test_serves_nothing_else(bridge, path):
    status, _, _ = fetch(bridge, "GET", path)
    assert status == 404, path


def test_info_reports_the_daemon(bridge):
    status, headers, body = fetch(bridge, "GET", "/info")
    info = json.loads(body)
    assert status == 200 and headers["content-type"] == "application/json"
    assert info["serverInfo"]["name"] == "flowlayoutd"
    assert "layout/setBounds" in info["capabilities"]["methods"]


def test_rpc_relays_requests_answers_and_errors(bridge):
    status, r = rpc(bridge, {"jsonrpc": "2.0", "id": 1, "method": "layout/open", "params": SEED_OPEN})
    assert status == 200 and r["id"] == 1 and r["result"]["contentSize"] == {"width": 2445, "height": 300}
    status, r = rpc(bridge, {"jsonrpc": "2.0", "id": "b", "method": "layout/setBounds", "params": {
        "session": "bridge-seed", "bounds": {"x": 460, "y": 0, "width": 375, "height": 300}}})
    assert status == 200 and r["id"] == "b"
    assert r["result"]["centeredItem"] == {"section": 0, "item": 2}
    assert r["result"]["removed"] == [{"kind": "cell", "section": 0, "item": 0}]
    # An error answer is relayed as it is, with HTTP 200: it is the daemon's.
    status, r = rpc(bridge, {"jsonrpc": "2.0", "id": 3, "method": "layout/open", "params": SEED_OPEN})
    assert status == 200 and r["error"]["code"] == 1002
    status, r = rpc(bridge, {"jsonrpc": "2.0", "id": 4, "method": "layout/close", "params": {"session": "bridge-seed"}})
    assert (status, r) == (200, {"jsonrpc": "2.0", "id": 4, "result": None})


def test_rpc_notifications_batches_and_bad_json(bridge):
    status, r = rpc(bridge, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    assert (status, r) == (204, None)
    status, r = rpc(bridge, {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 99}})
    assert (status, r) == (204, None)
    batch = [
        {"jsonrpc": "2.0", "id": 7, "method": "layout/contentSize", "params": {"session": "none"}},
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 8, "method": "layout/twist"},
    ]
    status, r = rpc(bridge, batch)
    assert status == 200 and [a["id"] for a in r] == [7, 8]
    assert [a["error"]["code"] for a in r] == [1001, -32601]
    status, r = rpc(bridge, [{"jsonrpc": "2.0", "method": "initialized"}])
    assert (status, r) == (204, None)
    status, r = rpc(bridge, "{not json")
    assert status == 200 and r["id"] is None and r["error"]["code"] == -32700
    # The relay is still in step: the next answer is the next request's.
    status, r = rpc(bridge, {"jsonrpc": "2.0", "id": 9, "method": "layout/contentSize", "params": {"session": "x"}})
    assert status == 200 and r["id"] == 9


@pytest.mark.parametrize("method", ["initialize", "shutdown", "exit"])
def test_lifecycle_belongs_to_the_bridge(bridge, method):
    message = {"jsonrpc": "2.0", "method": method}
    if method != "exit":
        message["id"] = 5
    status, r = rpc(bridge, message)
    assert status == 400 and r["error"]["code"] == -32600 and method in r["error"]["message"]
    status, r = rpc(bridge, [{"jsonrpc": "2.0", "id": 6, "method": "layout/contentSize"}, message])
    assert status == 400
    # The daemon is still there and initialized.
    status, r = rpc(bridge, {"jsonrpc": "2.0", "id": 10, "method": "layout/contentSize", "params": {"session": "x"}})
    assert status == 200 and r["error"]["code"] == 1001


def test_refuses_other_hosts_origins_and_content_types(bridge):
    status, _, _ = fetch(bridge, "GET", "/", headers={"Host": "evil.example:80"})
    assert status == 403
    ok = {"jsonrpc": "2.0", "id": 1, "method": "layout/contentSize", "params": {"session": "x"}}
    status, _, _ = fetch(bridge, "POST", "/rpc", ok, {"Origin": "http://evil.example"})
    assert status == 403
    status, _, _ = fetch(bridge, "POST", "/rpc", ok, {"Origin": f"http://localhost:{bridge.port}"})
    assert status == 200
    status, _, _ = fetch(bridge, "POST", "/rpc", json.dumps(ok), {"Content-Type": "text/plain"})
    assert status == 415
    status, _, _ = fetch(bridge, "POST", "/elsewhere", ok)
    assert status == 404


def test_listens_on_127_0_0_1_only(bridge):
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.2", bridge.port), timeout=1.0).close()
    socket.create_connection(("127.0.0.1", bridge.port), timeout=1.0).close()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_shuts_the_daemon_down(sig):
    b = WebBridge()
    try:
        status, r = rpc(b, {"jsonrpc": "2.0", "id": 1, "method": "layout/open", "params": SEED_OPEN})
        assert status == 200 and "result" in r
    except BaseException:
        b.stop()
        raise
    code, rest = b.stop(sig)
    assert code == 0, rest
    # shutdown and exit were sent: the daemon's status 0 says so (1 without shutdown).
    assert "flowlayoutd exited with status 0" in rest, rest
    assert daemon_gone(b.daemon_pid), f"flowlayoutd (pid {b.daemon_pid}) outlived the bridge"
