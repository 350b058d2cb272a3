"""Bounded resources and no leaks (issue #8).

(a) A client that writes requests without reading the responses cannot make
    the daemon grow without bound: once the stdout pipe is full the daemon's
    writes block, it stops reading, and the client's writes block in turn.
    Every response still arrives, in order, once the client reads.
(b) valgrind memcheck over a full session: no memory errors and no
    definitely lost bytes (Swift's runtime caches may stay "still reachable"
    or "possibly lost"; only definite leaks and errors count).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time

import pytest

from daemon_support import DAEMON, encode, frame, note, req
from hardening_util import FrameParser, RawDaemon

MIB = 1 << 20


def is_asan_build(path: str) -> bool:
    with open(path, "rb") as f:
        return b"AddressSanitizer" in f.read()


# -- (a) a client that does not read ------------------------------------------------


def padded_frame(message: dict, size: int) -> bytes:
    """A frame whose body is `message` followed by JSON whitespace up to
    `size` bytes: a valid, larger request, so that 40 MB is a few tens of
    thousands of requests rather than hundreds of thousands."""
    body = encode(message)
    return frame(body + b" " * max(0, size - len(body)))


def test_unread_responses_do_not_grow_the_daemon():
    env = dict(os.environ)
    if is_asan_build(DAEMON):
        # ASan keeps freed memory in a quarantine (256 MB by default), which
        # would be counted as growth.
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=4").lstrip(":")
    d = RawDaemon(env=env)
    try:
        d.proc.stdin.write(
            frame(req(1, "initialize", {}))
            + frame(
                req(
                    2,
                    "layout/open",
                    {
                        "session": "c",
                        "layout": {"type": "coverFlow"},
                        "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
                        "sections": [{"itemCount": 1000}],
                    },
                )
            )
        )
        first = d.read_frames(2)
        assert [r["id"] for r in first] == [1, 2] and "result" in first[1], first
        time.sleep(0.2)
        baseline = d.rss_kib()

        # ~40 MB of setBounds requests: each scroll frame moves the carousel,
        # so each answer carries a delta of a few cards (about 1 KB).
        size = 2048
        n = (40 * MIB) // (size + 25)
        data = b"".join(
            padded_frame(
                req(10 + i, "layout/setBounds", {"session": "c", "bounds": {"x": (i % 60) * 37, "y": 0, "width": 375, "height": 300}}),
                size,
            )
            for i in range(n)
        )
        assert len(data) > 39 * MIB
        written = [0]
        writer_error: list[BaseException] = []

        def write() -> None:
            view = memoryview(data)
            try:
                while written[0] < len(data):
                    written[0] += d.proc.stdin.write(view[written[0] : written[0] + 65536])
            except BaseException as e:  # pragma: no cover - reported below
                writer_error.append(e)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()

        # Not reading for 3 s: the daemon must stall, not swallow the input.
        peak = baseline
        for _ in range(12):
            time.sleep(0.25)
            peak = max(peak, d.rss_kib())
        stalled_at = written[0]
        assert not writer_error, writer_error
        assert d.proc.poll() is None, "the daemon died"
        assert stalled_at < 16 * MIB, (
            f"the daemon read {stalled_at / MIB:.1f} MiB without its answers being read: it buffers without bound"
        )
        assert peak - baseline < 60 * 1024, f"VmRSS grew by {(peak - baseline) / 1024:.1f} MiB while the client did not read"

        # Now read: every response arrives, in order, and memory stays bounded.
        expected = 10
        deadline = time.monotonic() + 240
        sampled = time.monotonic()
        while expected < 10 + n:
            assert time.monotonic() < deadline, f"only {expected - 10} of {n} responses"
            batch = d.read_frames(1, timeout=30) + d.ready
            d.ready = []
            for r in batch:
                assert r["id"] == expected, f"response {r['id']} where {expected} was due"
                assert "result" in r, r
                expected += 1
            if time.monotonic() - sampled > 0.1:
                sampled = time.monotonic()
                peak = max(peak, d.rss_kib())
        writer.join(10)
        assert not writer_error, writer_error
        assert written[0] == len(data)
        assert peak - baseline < 60 * 1024, f"VmRSS grew by {(peak - baseline) / 1024:.1f} MiB"
        print(
            f"{n} requests, {len(data) / MIB:.1f} MiB; the daemon stalled after reading {stalled_at / MIB:.2f} MiB; "
            f"VmRSS {baseline / 1024:.1f} MiB at the start, peak {peak / 1024:.1f} MiB"
        )

        d.proc.stdin.write(frame(req("bye", "shutdown")) + frame(note("exit")))
        assert d.read_frames(1) == [{"jsonrpc": "2.0", "id": "bye", "result": None}]
        d.proc.stdin.close()
        assert d.proc.wait(10) == 0
    finally:
        d.kill()


def test_a_bulk_loads_memory_is_given_back_once_its_answer_is_written():
    """Memory a message of 1 MiB or more grew and freed (here the reader's
    24 MB buffer) is given back as soon as its answer is written when no
    message waits (RSS is what a user sees, issue #40); pipelined bulk
    messages are all answered, and their memory given back after the last."""
    if is_asan_build(DAEMON):
        pytest.skip("ASan's allocator keeps freed memory in its quarantine")
    d = RawDaemon()
    try:
        d.proc.stdin.write(frame(req(1, "initialize", {})) + frame(note("initialized")))
        assert "result" in d.read_frames(1)[0]
        baseline = d.rss_kib()
        # A bulk message the daemon refuses: nothing of it stays in a session.
        bulk = padded_frame(req(2, "layout/contentSize", {"session": "none"}), 24 * MIB)

        def held_mib() -> float:
            return (d.rss_kib() - baseline) / 1024

        def given_back(what: str) -> None:
            # The release follows the answer's write at once: well within
            # the second that an idle pause once waited.
            deadline = time.monotonic() + 0.6
            while held_mib() >= 8:
                assert time.monotonic() < deadline, f"{held_mib():.1f} MiB still held after {what}"
                time.sleep(0.05)

        for _ in range(2):  # one at a time, each answered before the next
            d.proc.stdin.write(bulk)
            assert "error" in d.read_frames(1)[0]
            given_back("a bulk message's answer")
        d.proc.stdin.write(bulk + bulk)  # pipelined
        assert all("error" in r for r in d.read_frames(2))
        given_back("two pipelined bulk messages")
        d.proc.stdin.write(frame(req(3, "layout/contentSize", {"session": "none"})))
        assert "error" in d.read_frames(1)[0]
    finally:
        d.kill()


# -- (b) valgrind -------------------------------------------------------------------------


def full_session() -> list[dict]:
    bounds = {"x": 0, "y": 0, "width": 320, "height": 100}
    msgs = [
        req(1, "initialize", {"clientInfo": {"name": "valgrind"}}),
        note("initialized", {}),
        req(
            2,
            "layout/open",
            {
                "session": "f",
                "layout": {
                    "type": "flow",
                    "itemSize": {"width": 100, "height": 50},
                    "headerReferenceSize": {"width": 0, "height": 20},
                    "sectionHeadersPinToVisibleBounds": True,
                },
                "bounds": bounds,
                "sections": [
                    {"itemCount": 50},
                    {"itemSizes": [{"width": 30 + i, "height": 40} for i in range(20)], "ids": [f"i{i}" for i in range(20)]},
                ],
            },
        ),
        req(
            3,
            "layout/open",
            {
                "session": "c",
                "layout": {"type": "coverFlow", "scale": {"curve": "reciprocal", "factor": 2}},
                "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
                "sections": [{"itemCount": 10, "ids": list(range(10))}],
            },
        ),
    ]
    i = 4
    for k in range(10):
        msgs.append(req(i, "layout/setBounds", {"session": "f", "bounds": {"x": 0, "y": k * 37, "width": 320, "height": 100}}))
        msgs.append(req(i + 1, "layout/setBounds", {"session": "c", "bounds": {"x": k * 91, "y": 0, "width": 375, "height": 300}}))
        i += 2
    msgs.append(req(i, "layout/setBounds", {"session": "c", "bounds": {"x": 0, "y": 0, "width": 300, "height": 375}}))  # rotation
    msgs += [
        req(
            i + 1,
            "layout/performBatchUpdates",
            {
                "session": "f",
                "updates": {
                    "deleteItems": [{"section": 0, "item": 1}],
                    "insertItems": [{"section": 1, "item": 0, "size": {"width": 10, "height": 10}, "id": "new"}],
                    "moveItems": [{"from": {"section": 0, "item": 5}, "to": {"section": 0, "item": 0}}],
                },
            },
        ),
        req(i + 2, "layout/reloadData", {"session": "c", "sections": [{"itemCount": 12, "ids": list(range(5, 17))}]}),
        req(i + 3, "layout/configure", {"session": "f", "layout": {"minimumLineSpacing": 5, "estimatedItemSize": {"width": 80, "height": 40}}, "overscan": 10}),
        req(i + 4, "layout/setItemSizes", {"session": "f", "sizes": [{"section": 0, "item": 2, "size": {"width": 90, "height": 70}}]}),
        req(i + 5, "layout/scrollEnded", {"session": "c", "contentOffset": {"x": 300, "y": 0}, "velocity": {"x": 1, "y": 0}}),
        req(i + 6, "layout/attributesInRect", {"session": "f", "rect": {"x": 0, "y": 0, "width": 320, "height": 2000}}),
        req(i + 7, "layout/contentSize", {"session": "nope"}),  # an error, too
        req(i + 8, "layout/close", {"session": "c"}),
        req(i + 9, "shutdown"),
        note("exit"),
    ]
    return msgs


def test_valgrind_full_session_has_no_errors_or_definite_leaks(tmp_path):
    valgrind = shutil.which("valgrind")
    if not valgrind:
        pytest.skip("valgrind is not installed (Debian package valgrind)")
    if is_asan_build(DAEMON):
        pytest.skip(f"{DAEMON} is built with AddressSanitizer, which cannot run under valgrind")
    msgs = full_session()
    requests = [m for m in msgs if "id" in m]
    log = tmp_path / "valgrind.log"
    t = time.monotonic()
    p = subprocess.run(
        [
            valgrind,
            "--leak-check=full",
            "--errors-for-leak-kinds=definite",
            "--error-exitcode=99",
            f"--log-file={log}",
            DAEMON,
        ],
        input=b"".join(frame(m) for m in msgs),
        capture_output=True,
        timeout=120,
    )
    elapsed = time.monotonic() - t
    report = log.read_text(errors="replace")
    assert p.returncode == 0, f"exit {p.returncode} under valgrind after {elapsed:.1f}s:\n{report[-4000:]}"
    assert "definitely lost: 0 bytes in 0 blocks" in report, report[-4000:]
    assert "ERROR SUMMARY: 0 errors" in report, report[-4000:]
    # The session really ran: one answer per request, only the one error.
    answers = list(FrameParser().feed(p.stdout))
    assert [a["id"] for a in answers] == [m["id"] for m in requests]
    errors = [a for a in answers if "error" in a]
    assert [e["error"]["code"] for e in errors] == [1001], errors
