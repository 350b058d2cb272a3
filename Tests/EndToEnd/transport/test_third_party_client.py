"""A JSON-RPC client this project did not write (python-lsp-jsonrpc, the
transport of python-lsp-server) drives a whole session over real pipes.
test_shared_session_with_python_lsp_jsonrpc sends the session every
third-party client sends (client_session.py; see also test_lsp_clients.py and
test_editor_clients.py)."""

from __future__ import annotations

import subprocess
import threading

import pytest

from client_session import STEPS, check_initialize, check_outcomes
from daemon_support import DAEMON, TIMEOUT

try:
    from pylsp_jsonrpc.endpoint import Endpoint
    from pylsp_jsonrpc.exceptions import JsonRpcException
    from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter
except ImportError as e:  # a missing client fails, never skips
    pytest.fail(f"{e}: pip install -r Tests/EndToEnd/requirements.txt (make deps-python)", pytrace=False)

SEED = {
    "session": "carousel",
    "layout": {"type": "coverFlow", "itemSize": {"width": 200, "height": 300}, "minimumLineSpacing": 30,
               "scale": {"factor": 0.5}},
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}


@pytest.fixture
def lsp(tmp_path):
    err = open(tmp_path / "stderr.txt", "wb")
    proc = subprocess.Popen([DAEMON], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
    reader = JsonRpcStreamReader(proc.stdout)
    writer = JsonRpcStreamWriter(proc.stdin)
    endpoint = Endpoint({}, writer.write, max_workers=2)
    listener = threading.Thread(target=reader.listen, args=(endpoint.consume,), daemon=True)
    listener.start()
    yield proc, endpoint, listener
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=TIMEOUT)
    listener.join(TIMEOUT)
    endpoint.shutdown()
    err.close()


def test_full_session_with_python_lsp_jsonrpc(lsp):
    proc, endpoint, listener = lsp

    def call(method, params=None):
        # Endpoint ids are uuid strings: the daemon must echo them.
        return endpoint.request(method, params).result(timeout=TIMEOUT)

    init = call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert init["serverInfo"]["name"] == "flowlayoutd"
    assert "coverFlow" in init["capabilities"]["layoutTypes"]
    endpoint.notify("initialized", {})

    opened = call("layout/open", SEED)
    assert opened["contentSize"] == {"width": 2445, "height": 300}
    assert [a["item"] for a in opened["attributes"]] == [0, 1]
    assert opened["attributes"][1]["zIndex"] == -461

    moved = call("layout/setBounds", {"session": "carousel", "bounds": {"x": 1000, "y": 0, "width": 375, "height": 300}})
    assert [a["item"] for a in moved["invalidated"]] == [4, 5]
    assert moved["removed"] == [{"kind": "cell", "section": 0, "item": i} for i in (0, 1)]
    assert moved["centeredItem"] == {"section": 0, "item": 4}

    snap = call(
        "layout/scrollEnded",
        {"session": "carousel", "contentOffset": {"x": 1000, "y": 0}, "velocity": {"x": 0.5, "y": 0},
         "proposedContentOffset": {"x": 99999, "y": 0}},
    )
    assert {k: snap[k] for k in ("targetContentOffset", "targetItem")} == {
        "targetContentOffset": {"x": 2070, "y": 0}, "targetItem": {"section": 0, "item": 9}}
    assert snap["trajectory"][-1] == {"x": 2070, "y": 0}

    # Errors surface as the library's exception, with the code and data.
    with pytest.raises(JsonRpcException) as e:
        call("layout/contentSize", {"session": "nope"})
    assert e.value.code == 1001 and e.value.data == {"field": "params.session"}
    with pytest.raises(JsonRpcException) as e:
        call("layout/setBounds", {"session": "carousel", "bounds": {"x": 0, "y": 0, "width": -1, "height": 1}})
    assert e.value.code == -32602
    assert e.value.message == "params.bounds.width must be a finite number >= 0"
    assert e.value.data == {"field": "params.bounds.width"}

    assert call("layout/close", {"session": "carousel"}) is None
    assert call("shutdown") is None
    endpoint.notify("exit")
    assert proc.wait(timeout=TIMEOUT) == 0
    listener.join(TIMEOUT)
    assert not listener.is_alive()


def test_shared_session_with_python_lsp_jsonrpc(lsp):
    """open, setBounds, scrollEnded, performBatchUpdates, two errors and
    close (client_session.STEPS, with the answers worked out by hand), then
    shutdown, exit and exit status 0."""
    proc, endpoint, listener = lsp

    def call(method, params=None):
        return endpoint.request(method, params).result(timeout=TIMEOUT)

    check_initialize(call("initialize", {"processId": None, "rootUri": None, "capabilities": {}}))
    endpoint.notify("initialized", {})
    outcomes = []
    for method, params in STEPS:
        try:
            outcomes.append({"result": call(method, params)})
        except JsonRpcException as e:
            outcomes.append({"error": {"code": e.code, "message": e.message, "data": e.data}})
    check_outcomes(outcomes)
    # python-lsp-jsonrpc leaves out `params` when it is None.
    assert call("shutdown") is None
    endpoint.notify("exit")
    assert proc.wait(timeout=TIMEOUT) == 0
    listener.join(TIMEOUT)
    assert not listener.is_alive()


def test_concurrent_requests_from_python_lsp_jsonrpc(lsp):
    """Many requests in flight at once from several threads: every future
    resolves with its own answer."""
    proc, endpoint, _ = lsp
    endpoint.request("initialize", {}).result(timeout=TIMEOUT)
    endpoint.request("layout/open", SEED).result(timeout=TIMEOUT)
    futures = {}
    lock = threading.Lock()

    def fire(k):
        for i in range(20):
            item = (k * 20 + i) % 10
            f = endpoint.request("layout/attributesForItem", {"session": "carousel", "section": 0, "item": item})
            with lock:
                futures[f] = item

    threads = [threading.Thread(target=fire, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert len(futures) == 80
    for f, item in futures.items():
        a = f.result(timeout=TIMEOUT)["attributes"]
        assert a["item"] == item and a["center"]["x"] == 187.5 + 230 * item
    endpoint.request("shutdown").result(timeout=TIMEOUT)
    endpoint.notify("exit")
    assert proc.wait(timeout=TIMEOUT) == 0
