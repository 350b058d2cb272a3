"""Clients that survive a crash (issue #18): with ``restart=True`` the
Python client replaces a daemon that died, re-opens every session from
what it last sent, answers the interrupted call, and every later answer,
and the picture built from them, is what the uninterrupted run gets."""

from __future__ import annotations

import json
import os
import signal
from typing import Any, Callable, List, Tuple

import pytest

from daemon_support import DAEMON

from flowlayout import Client, DaemonError, Picture

B = {"x": 0, "y": 0, "width": 375, "height": 300}


def bounds(x: float, y: float = 0, w: float = 375, h: float = 300) -> dict:
    return {"x": x, "y": y, "width": w, "height": h}


def script() -> List[Tuple[str, dict]]:
    """About 45 calls over two sessions: scrolls, a fling's plan, batch
    updates, appends, a reconfiguration, a rotation, queries and a close."""
    sizes = [{"width": 120 + 7 * (i % 5), "height": 200 + 9 * (i % 3)} for i in range(20)]
    calls: List[Tuple[str, dict]] = [
        ("layout/open", {"session": "cf", "layout": {"type": "coverFlow", "minimumLineSpacing": 20,
                                                     "scale": {"factor": 0.5}},
                         "bounds": B, "sections": [{"itemSizes": sizes}]}),
    ]
    calls += [("layout/setBounds", {"session": "cf", "bounds": bounds(37 * k)}) for k in range(1, 9)]
    calls += [
        ("layout/scrollEnded", {"session": "cf", "contentOffset": {"x": 296, "y": 0}, "velocity": {"x": 1.2, "y": 0}}),
        ("layout/open", {"session": "grid", "layout": {"type": "flow", "itemSize": {"width": 60, "height": 40}},
                         "bounds": B, "sections": [{"itemCount": 50}, {"itemCount": 7}]}),
        ("layout/performBatchUpdates", {"session": "cf", "updates": {
            "insertItems": [{"section": 0, "item": 0, "size": {"width": 150, "height": 220}}],
            "deleteItems": [{"section": 0, "item": 3}]}}),
        ("layout/setBounds", {"session": "grid", "bounds": bounds(0, 120)}),
        ("layout/appendItems", {"session": "cf", "section": 0, "widthsAndHeights": [90, 160, 130, 210]}),
        ("layout/configure", {"session": "cf", "layout": {"minimumLineSpacing": 35}}),
    ]
    calls += [("layout/setBounds", {"session": "cf", "bounds": bounds(500 + 41 * k)}) for k in range(6)]
    calls += [
        ("layout/setBounds", {"session": "cf", "bounds": bounds(700, 0, 300, 375)}),  # a rotation
        ("layout/setBounds", {"session": "cf", "bounds": bounds(730, 0, 300, 375)}),  # then a scroll
        ("layout/attributesInRect", {"session": "cf", "rect": bounds(600, 0, 600, 375)}),
        ("layout/attributesForItem", {"session": "cf", "section": 0, "item": 5}),
        ("layout/performBatchUpdates", {"session": "grid", "updates": {"deleteSections": [1]}}),
        ("layout/setItemSizes", {"session": "cf", "sizes": [{"section": 0, "item": 4, "size": {"width": 170, "height": 240}}]}),
        ("layout/reloadData", {"session": "grid", "sections": [{"itemCount": 30}]}),
        ("layout/scrollToItem", {"session": "cf", "section": 0, "item": 12}),
    ]
    calls += [("layout/setBounds", {"session": "cf", "bounds": bounds(900 + 53 * k, 0, 300, 375)}) for k in range(6)]
    calls += [
        ("layout/itemAtPoint", {"session": "cf", "point": {"x": 1100, "y": 180}}),
        ("layout/close", {"session": "grid"}),
        ("layout/contentSize", {"session": "cf"}),
        ("layout/scrollEnded", {"session": "cf", "contentOffset": {"x": 1165, "y": 0}, "velocity": {"x": -2, "y": 0}}),
    ]
    return calls


def run(client: Client, before: Callable[[int], None] = lambda k: None) -> Tuple[List[Any], List[Any]]:
    """Every answer, and the pictures of both sessions after each call."""
    pictures = {"cf": Picture(), "grid": Picture()}
    effects = {m["name"]: m["picture"] for m in client.capabilities["methodTable"]}
    answers, snapshots = [], []
    for k, (method, params) in enumerate(script()):
        before(k)
        result = client.request(method, params)
        answers.append(result)
        if effects[method] != "none":
            pictures[params["session"]].apply(result)
        snapshots.append({n: [(a.key, a.frame, a.transform, a.alpha, a.z_index) for a in p] for n, p in pictures.items()})
    return answers, snapshots


@pytest.fixture(scope="module")
def uninterrupted():
    with Client(daemon=DAEMON) as c:
        return run(c)


@pytest.mark.parametrize("kill_at", [1, 5, 10, 13, 17, 21, 22, 23, 24, 31, 37])
def test_a_sigkill_changes_no_answer(uninterrupted, kill_at):
    with Client(daemon=DAEMON, restart=True) as c:
        pid = c.process.pid

        def before(k: int) -> None:
            if k == kill_at:
                os.kill(c.process.pid, signal.SIGKILL)
                c.process.wait()

        answers, snapshots = run(c, before)
        assert c.restarts == 1 and c.process.pid != pid
    want_answers, want_snapshots = uninterrupted
    assert json.dumps(answers, sort_keys=True) == json.dumps(want_answers, sort_keys=True)
    assert snapshots == want_snapshots


def test_a_kill_in_the_middle_of_a_request(uninterrupted):
    """The daemon dies after the request is written and before it answers:
    the call is answered by the new daemon, as the old would have."""
    with Client(daemon=DAEMON, restart=True) as c:
        original = c._send
        state = {"k": 0}

        def send_then_die(message):
            original(message)
            if message.get("method") == "layout/performBatchUpdates" and state["k"] == 0:
                state["k"] += 1
                os.kill(c.process.pid, signal.SIGKILL)

        c._send = send_then_die  # type: ignore[method-assign]
        answers, snapshots = run(c)
        assert c.restarts == 1
    assert json.dumps(answers, sort_keys=True) == json.dumps(uninterrupted[0], sort_keys=True)
    assert snapshots == uninterrupted[1]


def test_the_log_keeps_data_changes_and_rotations_not_every_frame():
    with Client(daemon=DAEMON, restart=True) as c:
        run(c)
        log = [m for m, _ in c._logs["cf"]]
        # open, the last scroll before each change, every change, the
        # rotation, the last scroll.
        assert log.count("layout/setBounds") <= 5
        assert log[0] == "layout/open" and "grid" not in c._logs
        assert log.count("layout/performBatchUpdates") == 1 and "layout/appendItems" in log
        # The rotation stays, though scrolls of its size follow it.
        sizes = [json.loads(body)["bounds"]["width"] for m, body in c._logs["cf"] if m == "layout/setBounds"]
        assert 375 in sizes and 300 in sizes


def test_without_restart_a_dead_daemon_is_an_error():
    with Client(daemon=DAEMON) as c:
        c.request("layout/open", script()[0][1])
        os.kill(c.process.pid, signal.SIGKILL)
        c.process.wait()
        with pytest.raises(DaemonError):
            c.request("layout/contentSize", {"session": "cf"})


def test_a_daemon_that_keeps_dying_is_given_up_on(tmp_path):
    """After MAX_RESTARTS_IN_A_ROW replacements that die at once, the call
    fails rather than looping."""
    with Client(daemon=DAEMON, restart=True) as c:
        c.request("layout/open", script()[0][1])
        dying = tmp_path / "flowlayoutd"
        dying.write_text("#!/bin/sh\nexit 3\n")
        dying.chmod(0o755)
        c._spawn_args = (str(dying), (), False)
        os.kill(c.process.pid, signal.SIGKILL)
        c.process.wait()
        with pytest.raises(DaemonError):
            c.request("layout/contentSize", {"session": "cf"})
        assert c.restarts == Client.MAX_RESTARTS_IN_A_ROW
