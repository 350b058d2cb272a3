"""The web client's bridge (`flowlayout web`) without a browser: the files it
serves, the JSON-RPC relay on POST /rpc, what it refuses, and a clean daemon
shutdown on Ctrl-C and SIGTERM. Standard library only (http.client)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Any, Iterator, Optional

import pytest

from daemon_support import REPO, TIMEOUT, WebBridge, daemon_gone

sys.path.insert(0, str(REPO / "clients" / "python"))
from flowlayout import web  # noqa: E402  (this checkout's package)

JS = REPO / "clients" / "js"


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


def test_serves_the_js_client_module(bridge):
    """`/js/flowlayout.js`, which the page imports, from the checkout's
    clients/js (404 while there is none)."""
    status, headers, body = fetch(bridge, "GET", "/js/flowlayout.js")
    if (JS / "flowlayout.js").is_file():
        assert status == 200 and headers["content-type"].startswith("text/javascript"), (status, headers)
        assert body == (JS / "flowlayout.js").read_bytes()
        assert f"/js/ from {JS.resolve()}" in bridge.first_line, bridge.first_line
    else:
        assert status == 404
        assert "/js/ from nowhere" in bridge.first_line, bridge.first_line


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


# MARK: /js/ without a daemon: a bridge in this process, with a stub client


class _StubClient:
    """What WebBridge asks of its client before any /rpc."""

    capabilities: dict = {}
    server_info: dict = {"name": "stub"}

    def exchange(self, body: bytes) -> list:
        return []


@pytest.fixture
def js_tree(tmp_path: Path) -> Path:
    """tmp/web (the page), tmp/js (a dummy JS client, a hidden file, a
    subdirectory, a file of a type the bridge does not serve) and files
    beside them that must stay out of reach."""
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "index.html").write_text("<!doctype html><title>stub</title>")
    js = tmp_path / "js"
    (js / "sub").mkdir(parents=True)
    (js / "flowlayout.js").write_text("export const VERSION = 'dummy';\n")
    (js / "flowlayout.d.ts").write_text("export declare const VERSION: string;\n")
    (js / ".hidden.js").write_text("HIDDEN CONTENT")
    (js / "notes.txt").write_text("TEXT CONTENT")
    (js / "sub" / "inner.js").write_text("INNER CONTENT")
    (tmp_path / "secret.js").write_text("SECRET CONTENT")
    return tmp_path


@pytest.fixture
def local_bridge(js_tree: Path) -> Iterator[web.WebBridge]:
    httpd = web.WebBridge(0, js_tree / "web", _StubClient(), js_root=js_tree / "js")  # type: ignore[arg-type]
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(TIMEOUT)


def local_get(httpd: web.WebBridge, path: str, method: str = "GET") -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", httpd.port, timeout=TIMEOUT)
    try:
        conn.request(method, path)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_js_files_are_served_from_the_js_root(local_bridge):
    status, headers, body = local_get(local_bridge, "/js/flowlayout.js")
    assert status == 200 and body == b"export const VERSION = 'dummy';\n"
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["x-content-type-options"] == "nosniff"
    status, headers, body = local_get(local_bridge, "/js/flowlayout.js", "HEAD")
    assert status == 200 and int(headers["content-length"]) == 32 and body == b""
    status, headers, _ = local_get(local_bridge, "/js/flowlayout.d.ts")
    assert status == 200 and headers["content-type"].startswith("text/plain")
    status, _, body = local_get(local_bridge, "/js/flowlayout.js?v=2#x")
    assert status == 200 and body.startswith(b"export")
    # The page is still served from its own root.
    status, _, body = local_get(local_bridge, "/")
    assert status == 200 and b"<title>stub</title>" in body


@pytest.mark.parametrize("path", [
    "/js/../secret.js", "/js/%2e%2e/secret.js", "/js/..%2fsecret.js", "/js/..%5csecret.js",
    "/js/..\\secret.js", "/js/../../secret.js", "/js/.hidden.js", "/js/sub/inner.js",
    "/js/sub%2finner.js", "/js//flowlayout.js", "/js/", "/js", "/js/..", "/js/.", "/js/notes.txt",
    "/js/missing.js", "/js/flowlayout.js/", "/flowlayout.js", "/secret.js", "/../secret.js",
    "/web/index.html", "/js/%66lowlayout.js",
])
def test_js_paths_outside_the_flat_js_root_are_refused(local_bridge, path):
    status, _, body = local_get(local_bridge, path)
    assert status == 404, (path, body)
    assert b"CONTENT" not in body, (path, body)


def test_no_js_root_means_404(js_tree):
    httpd = web.WebBridge(0, js_tree / "web", _StubClient(), js_root=None)  # type: ignore[arg-type]
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        assert local_get(httpd, "/js/flowlayout.js")[0] == 404
        assert local_get(httpd, "/")[0] == 200
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(TIMEOUT)


def test_find_js_root(js_tree, monkeypatch):
    monkeypatch.delenv("FLOWLAYOUT_JS_ROOT", raising=False)
    # In the checkout: clients/js, or none yet.
    assert web.find_js_root() == (JS.resolve() if JS.is_dir() else None)
    assert web.find_js_root(str(js_tree / "js")) == (js_tree / "js").resolve()
    monkeypatch.setenv("FLOWLAYOUT_JS_ROOT", str(js_tree / "js"))
    assert web.find_js_root() == (js_tree / "js").resolve()
    monkeypatch.setenv("FLOWLAYOUT_JS_ROOT", str(js_tree / "nowhere"))
    assert web.find_js_root() is None


def test_the_bridge_serves_flowlayout_js_root(js_tree):
    """`flowlayout web` with $FLOWLAYOUT_JS_ROOT, end to end."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "clients" / "python") + (
        os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["FLOWLAYOUT_JS_ROOT"] = str(js_tree / "js")
    b = WebBridge(env=env)
    try:
        assert f"/js/ from {(js_tree / 'js').resolve()}" in b.first_line, b.first_line
        status, headers, body = fetch(b, "GET", "/js/flowlayout.js")
        assert status == 200 and body == b"export const VERSION = 'dummy';\n"
        assert headers["content-type"].startswith("text/javascript")
        assert fetch(b, "GET", "/js/../secret.js")[0] == 404
    finally:
        code, rest = b.stop()
    assert code == 0, rest
