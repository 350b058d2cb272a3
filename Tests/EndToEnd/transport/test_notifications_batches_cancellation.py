"""Notifications, batches and cancellation."""

from __future__ import annotations

from daemon_support import assert_same_id, frame, note, req

SEED_OPEN = {
    "session": "s",
    "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}},
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}


# -- notifications -----------------------------------------------------------


def test_notifications_get_no_reply(server):
    server.send(
        note("initialized", {}),
        note("layout/contentSize", {"session": "nope"}),
        note("no/such/method"),
        note("$/setTrace", {"value": "off"}),
        note("$/cancelRequest", {"id": 12345}),
    )
    server.ping()


def test_notification_runs_the_method_without_an_answer(server):
    # JSON-RPC: a notification is carried out, just not answered.
    server.send(note("layout/open", SEED_OPEN))
    server.ping()
    assert server.call("layout/contentSize", {"session": "s"}) == {"contentSize": {"width": 2445, "height": 300}}
    # A failing notification is not answered either, and changes nothing.
    server.send(note("layout/open", SEED_OPEN))
    server.ping()
    assert server.call("layout/contentSize", {"session": "s"}) == {"contentSize": {"width": 2445, "height": 300}}


# -- batches ---------------------------------------------------------------


def test_batch_of_requests_answered_in_order(server):
    server.send(
        [
            req(1, "layout/open", SEED_OPEN),
            req("two", "layout/contentSize", {"session": "s"}),
            req(3, "layout/contentSize", {"session": "missing"}),
            req(4, "layout/close", {"session": "s"}),
            req(5, "layout/close", {"session": "s"}),
        ]
    )
    r = server.read()
    assert isinstance(r, list) and len(r) == 5
    assert [x["id"] for x in r] == [1, "two", 3, 4, 5]
    assert r[0]["result"]["contentSize"] == {"width": 2445, "height": 300}
    assert r[1]["result"] == {"contentSize": {"width": 2445, "height": 300}}
    assert r[2]["error"]["code"] == 1001
    assert r[3]["result"] is None
    assert r[4]["error"]["code"] == 1001
    server.ping()


def test_empty_batch_is_a_single_error_object(server):
    server.write(frame(b"[]"))
    r = server.read()
    assert isinstance(r, dict), f"expected one error object, not {r!r}"
    assert r == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid request: empty batch"}}
    server.ping()


def test_batch_of_only_notifications_gets_nothing(server):
    server.send([note("initialized"), note("layout/contentSize", {"session": "x"}), note("foo")])
    server.ping()


def test_mixed_batch(server):
    server.send(
        [
            req(10, "layout/open", SEED_OPEN),
            note("initialized"),
            5,
            {"jsonrpc": "2.0", "id": 1.5, "method": "layout/contentSize"},
            req(11, "layout/contentSize", {"session": "s"}),
            {"jsonrpc": "2.0", "id": 99, "result": None},  # a response: ignored
            req(12, "no/such"),
            {"jsonrpc": "2.0", "id": 13, "method": "layout/contentSize", "params": [1]},
        ]
    )
    r = server.read()
    assert isinstance(r, list)
    assert [x["id"] for x in r] == [10, None, None, 11, 12, 13]
    assert r[0]["result"]["contentSize"] == {"width": 2445, "height": 300}
    assert r[1]["error"] == {"code": -32600, "message": "Invalid request: a message must be an object"}
    assert r[2]["error"] == {"code": -32600, "message": "Invalid request: id must be an integer or a string"}
    assert r[3]["result"] == {"contentSize": {"width": 2445, "height": 300}}
    assert r[4]["error"]["code"] == -32601
    assert r[5]["error"]["code"] == -32602
    server.ping()


def test_batch_can_initialize(daemon):
    daemon.send([req(1, "initialize"), req(2, "layout/contentSize", {"session": "s"}), req(3, "layout/open", SEED_OPEN)])
    r = daemon.read()
    assert [x["id"] for x in r] == [1, 2, 3]
    assert r[0]["result"]["serverInfo"]["name"] == "flowlayoutd"
    assert r[1]["error"]["code"] == 1001
    assert r[2]["result"]["contentSize"] == {"width": 2445, "height": 300}


def test_batch_whose_first_request_fails(server):
    """The first element's handler throws (unknown session): the reply
    must still be a valid JSON array (no leading comma)."""
    server.send([req(1, "layout/contentSize", {"session": "missing"}), req(2, "layout/open", SEED_OPEN)])
    r = server.read()
    assert [x["id"] for x in r] == [1, 2]
    assert r[0]["error"]["code"] == 1001
    assert r[1]["result"]["contentSize"] == {"width": 2445, "height": 300}


def test_single_element_batch_with_failing_request(server):
    server.send([req(1, "no/such")])
    r = server.read()
    assert r == [{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found: no/such"}}]


def test_batch_before_initialize(daemon):
    daemon.send([req(1, "layout/contentSize", {"session": "s"}), req(2, "initialize")])
    r = daemon.read()
    assert [x["id"] for x in r] == [1, 2]
    assert r[0]["error"]["code"] == -32002
    assert "result" in r[1]


def test_batch_ending_in_exit_stops(server):
    server.send([req(1, "shutdown"), note("exit"), req(2, "layout/contentSize", {"session": "s"})])
    r = server.read()
    assert r == [{"jsonrpc": "2.0", "id": 1, "result": None}]
    server.expect_eof()
    assert server.wait() == 0


# -- cancellation ------------------------------------------------------------


def test_cancel_request_in_same_write(server):
    server.send(req(7, "layout/open", SEED_OPEN), note("$/cancelRequest", {"id": 7}))
    r = server.read()
    assert r == {"jsonrpc": "2.0", "id": 7, "error": {"code": -32800, "message": "Request cancelled"}}
    server.ping()  # the cancel notification itself gets no reply
    # The cancelled open did not run.
    assert server.error("layout/contentSize", {"session": "s"})["code"] == 1001


def test_cancel_string_id_and_only_that_request(server):
    server.call("layout/open", SEED_OPEN)
    server.send(
        req("a", "layout/contentSize", {"session": "s"}),
        req("b", "layout/setBounds", {"session": "s", "bounds": {"x": 500, "y": 0, "width": 375, "height": 300}}),
        req(7, "layout/contentSize", {"session": "s"}),
        note("$/cancelRequest", {"id": "b"}),
        note("$/cancelRequest", {"id": "7"}),  # a string, not the integer 7
    )
    a, b, c = server.read(), server.read(), server.read()
    assert a["id"] == "a" and "result" in a
    assert b == {"jsonrpc": "2.0", "id": "b", "error": {"code": -32800, "message": "Request cancelled"}}
    assert_same_id(c["id"], 7)
    assert "result" in c
    server.ping()
    # The cancelled setBounds left the bounds at x = 0: card 0 undecorated.
    item0 = server.call("layout/attributesForItem", {"session": "s", "section": 0, "item": 0})["attributes"]
    assert "transform" not in item0 and item0["zIndex"] == 0


def test_cancel_unknown_id_is_ignored(server):
    server.send(note("$/cancelRequest", {"id": 424242}), note("$/cancelRequest", {"id": "nope"}))
    server.ping()


def test_cancel_of_answered_request_does_not_poison_id_reuse(server):
    r = server.request("layout/contentSize", {"session": "s"}, id=55)
    assert r["error"]["code"] == 1001
    server.send(note("$/cancelRequest", {"id": 55}))
    server.ping()
    server.call("layout/open", SEED_OPEN)
    r = server.request("layout/contentSize", {"session": "s"}, id=55)
    assert r["result"] == {"contentSize": {"width": 2445, "height": 300}}


def test_malformed_cancel_is_ignored(server):
    server.send(
        req(8, "layout/contentSize", {"session": "s"}),
        note("$/cancelRequest", {}),
        note("$/cancelRequest", {"id": 8.5}),
        note("$/cancelRequest"),
    )
    r = server.read()
    assert r["id"] == 8 and r["error"]["code"] == 1001
    server.ping()


def test_layout_methods_sent_as_notifications_are_carried_out(server):
    """JSON-RPC: a notification is executed, just not answered."""
    server.send({"jsonrpc": "2.0", "method": "layout/open", "params": {
        "session": "n", "layout": {"type": "flow"}, "bounds": {"x": 0, "y": 0, "width": 100, "height": 100},
        "sections": [{"itemCount": 3}]}})
    r = server.request("layout/contentSize", {"session": "n"})
    # 50x50 items, one per 100-wide row (50 + 10 + 50 > 100): 3 rows, 170 tall.
    assert r["result"] == {"contentSize": {"width": 100, "height": 170}}
    server.send({"jsonrpc": "2.0", "method": "layout/close", "params": {"session": "n"}})
    assert server.request("layout/contentSize", {"session": "n"})["error"]["code"] == 1001
