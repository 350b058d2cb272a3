"""End-to-end test support: spawn flowlayoutd and talk raw LSP framing to it.

The tests import it as `daemon_support` (conftest.py in this folder, and
clients/python/tests/conftest.py for the client's own tests, put this folder
on sys.path and register its fixtures and hook).

The daemon is taken from $FLOWLAYOUTD, else <repo>/.build/debug/flowlayoutd.
Nothing here depends on the flowlayout client package: every byte sent is
written by hand, and every frame read back is checked strictly.

No read ever blocks for long: a reader thread drains stdout into a queue and
every wait has a timeout of a few seconds.
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Optional

import pytest

REPO = Path(__file__).resolve().parents[2]  # Tests/EndToEnd/daemon_support.py
# Absolute: tests run clients (editors, a venv) from other directories.
DAEMON = os.path.abspath(os.environ.get("FLOWLAYOUTD") or str(REPO / ".build" / "debug" / "flowlayoutd"))

#: Seconds any single read or wait may take before the test fails, times
#: FLOWLAYOUT_TIMEOUT_SCALE: the AddressSanitizer pass of `make test` sets 6,
#: as a sanitizer build on a machine whose cores are busy runs the heaviest
#: accepted requests (two million waterfall items opened) several times
#: slower. A hang still fails, later.
TIMEOUT = 5.0 * float(os.environ.get("FLOWLAYOUT_TIMEOUT_SCALE", "1"))

_EOF = object()


class ProtocolViolation(Exception):
    """The daemon wrote something that is not a well-formed frame."""


def encode(obj: Any) -> bytes:
    """A JSON body as compact UTF-8 bytes."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def frame(body: Any, headers: Optional[list[str]] = None) -> bytes:
    """One frame. `body` is bytes/str (sent verbatim) or a JSON value.
    `headers` replaces the default `Content-Length: N` header lines; use
    `{n}` in them for the body's byte length."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    elif not isinstance(body, (bytes, bytearray)):
        body = encode(body)
    if headers is None:
        headers = ["Content-Length: {n}"]
    head = "".join(h.format(n=len(body)) + "\r\n" for h in headers) + "\r\n"
    return head.encode("ascii") + bytes(body)


def req(id: Any, method: str, params: Any = None) -> dict:
    m = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        m["params"] = params
    return m


def note(method: str, params: Any = None) -> dict:
    m = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        m["params"] = params
    return m


class Daemon:
    """One flowlayoutd process driven over raw bytes."""

    def __init__(self, *args: str) -> None:
        if not os.access(DAEMON, os.X_OK):
            pytest.fail(f"daemon not found or not executable: {DAEMON} (set FLOWLAYOUTD)")
        self.args = list(args)
        self.proc = subprocess.Popen(
            [DAEMON, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
        )
        self.frames: "queue.Queue[Any]" = queue.Queue()
        self.stderr = bytearray()
        self._next_id = 1000
        self._stdin_closed = False
        self._out = threading.Thread(target=self._read_stdout, daemon=True)
        self._err = threading.Thread(target=self._read_stderr, daemon=True)
        self._out.start()
        self._err.start()

    # -- background readers ------------------------------------------------

    def _read_stdout(self) -> None:
        fd = self.proc.stdout.fileno()
        buf = bytearray()
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    if buf:
                        self.frames.put(ProtocolViolation(f"EOF inside a frame: {bytes(buf)[:200]!r}"))
                    self.frames.put(_EOF)
                    return
                buf += chunk
                while True:
                    end = buf.find(b"\r\n\r\n")
                    if end < 0:
                        break
                    head = bytes(buf[:end])
                    if not head.startswith(b"Content-Length: ") or b"\r\n" in head:
                        self.frames.put(ProtocolViolation(f"unexpected header block {head[:200]!r}"))
                        self.frames.put(_EOF)
                        return
                    digits = head[len(b"Content-Length: "):]
                    if not digits.isdigit():
                        self.frames.put(ProtocolViolation(f"bad Content-Length {head!r}"))
                        self.frames.put(_EOF)
                        return
                    n = int(digits)
                    if len(buf) < end + 4 + n:
                        break
                    body = bytes(buf[end + 4 : end + 4 + n])
                    del buf[: end + 4 + n]
                    try:
                        self.frames.put(json.loads(body.decode("utf-8")))
                    except (UnicodeDecodeError, ValueError) as e:
                        self.frames.put(ProtocolViolation(f"body is not UTF-8 JSON ({e}): {body[:200]!r}"))
        except OSError as e:  # pragma: no cover - pipe torn down
            self.frames.put(ProtocolViolation(f"read failed: {e}"))
            self.frames.put(_EOF)

    def _read_stderr(self) -> None:
        fd = self.proc.stderr.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.stderr += chunk

    # -- writing -----------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Writes raw bytes to the daemon's stdin."""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def write_pieces(self, data: bytes, cuts: list[int], pause: float = 0.03) -> None:
        """Writes `data` in several writes split at the offsets `cuts`, with
        a short sleep between them so that the daemon sees each piece apart."""
        last = 0
        for c in list(cuts) + [len(data)]:
            self.write(data[last:c])
            last = c
            time.sleep(pause)

    def send(self, *messages: Any) -> None:
        """Writes each message as its own frame, all in one write."""
        self.write(b"".join(frame(m) for m in messages))

    def close_stdin(self) -> None:
        if not self._stdin_closed:
            self._stdin_closed = True
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    # -- reading -----------------------------------------------------------

    def read(self, timeout: float = TIMEOUT) -> Any:
        """The next frame's JSON body. Fails on timeout, EOF or a bad frame."""
        try:
            item = self.frames.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(
                f"no frame from the daemon within {timeout}s; stderr: {self.stderr_text()!r}"
            ) from None
        if item is _EOF:
            self.frames.put(_EOF)
            raise AssertionError(
                f"daemon closed stdout (exit {self.proc.poll()}); stderr: {self.stderr_text()!r}"
            )
        if isinstance(item, ProtocolViolation):
            raise AssertionError(f"protocol violation: {item}")
        if isinstance(item, dict):
            check_response_shape(item)
        elif isinstance(item, list):
            for r in item:
                check_response_shape(r)
        return item

    def expect_eof(self, timeout: float = TIMEOUT) -> None:
        """Asserts that stdout ends with no further frame."""
        try:
            item = self.frames.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"stdout did not close within {timeout}s") from None
        assert item is _EOF, f"expected EOF, got another frame: {item!r}"
        self.frames.put(_EOF)

    def wait(self, timeout: float = TIMEOUT) -> int:
        """Waits for the process to exit and returns its exit code."""
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"daemon did not exit within {timeout}s") from None
        # The process is gone, but the reader thread may not have drained
        # the last of stderr yet: wait for its EOF before anyone reads it.
        self._err.join(timeout)
        return code

    def stderr_text(self) -> str:
        if self.proc.poll() is not None:
            self._err.join(TIMEOUT)  # exited: take all it wrote
        return self.stderr.decode("utf-8", "replace")

    # -- requests ----------------------------------------------------------

    def next_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def request(self, method: str, params: Any = None, id: Any = None, timeout: float = TIMEOUT) -> dict:
        """Sends one request and returns its response, which must be the
        next frame and must carry the same id (same type). A request whose
        answer is large passes a `timeout` scaled to its size."""
        if id is None:
            id = self.next_id()
        self.send(req(id, method, params))
        r = self.read(timeout)
        assert isinstance(r, dict), f"expected one response object, got {r!r}"
        assert_same_id(r["id"], id)
        return r

    def call(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> Any:
        """The result of a request that must succeed."""
        r = self.request(method, params, timeout=timeout)
        assert "error" not in r, f"{method} failed: {r['error']!r}"
        return r["result"]

    def error(self, method: str, params: Any = None, code: Optional[int] = None) -> dict:
        """The error object of a request that must fail (with `code`, if given)."""
        r = self.request(method, params)
        assert "result" not in r, f"{method} unexpectedly succeeded: {r['result']!r}"
        if code is not None:
            assert r["error"]["code"] == code, r["error"]
        return r["error"]

    def initialize(self) -> dict:
        return self.call("initialize", {})

    def ping(self) -> None:
        """A request whose answer must be the very next frame: proves that
        nothing was written for what was sent before it."""
        tag = f"ping-{self.next_id()}"
        self.send(req(tag, "layout/contentSize", {"session": "\u2400no-such-session"}))
        r = self.read()
        assert r.get("id") == tag, f"expected the answer to {tag!r} next, got {r!r}"

    # -- teardown ----------------------------------------------------------

    def finish(self) -> Optional[int]:
        """Ends the process: EOF on stdin, then a bounded wait, then kill."""
        self.close_stdin()
        try:
            code = self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=TIMEOUT)
            code = None
        # The reader threads end at EOF, which follows the exit. Close the
        # pipes only after they have: a thread still about to read a closed
        # descriptor could otherwise read from whatever pipe the next daemon
        # is given under the same number.
        self._out.join(TIMEOUT)
        self._err.join(TIMEOUT)
        for t, s in ((self._out, self.proc.stdout), (self._err, self.proc.stderr)):
            if not t.is_alive():
                try:
                    s.close()
                except OSError:
                    pass
        return code


def snap_target(result: dict) -> dict:
    """The part of a layout/scrollEnded plan that says where the scroll
    stops (the plan also carries the projection, policy and trajectory)."""
    return {k: result[k] for k in ("targetContentOffset", "targetItem")}


def assert_same_id(actual: Any, expected: Any) -> None:
    """Equal and of the same JSON type (0 is not "0", 1 is not true)."""
    assert type(actual) is type(expected) and actual == expected, (
        f"id {actual!r} ({type(actual).__name__}) != {expected!r} ({type(expected).__name__})"
    )


def check_response_shape(r: Any) -> None:
    """Every response: an object with jsonrpc 2.0, an id, and exactly one
    of result and error; an error has an integer code and a string message."""
    assert isinstance(r, dict), f"response is not an object: {r!r}"
    assert r.get("jsonrpc") == "2.0", r
    assert "id" in r, r
    assert ("result" in r) != ("error" in r), r
    extra = set(r) - {"jsonrpc", "id", "result", "error"}
    assert not extra, f"unexpected members {extra} in {r!r}"
    if "error" in r:
        e = r["error"]
        assert isinstance(e, dict) and type(e.get("code")) is int and isinstance(e.get("message"), str), r


def assert_close(actual: Any, expected: Any, path: str = "$", tol: float = 1e-9) -> None:
    """Deep equality with numbers compared to a relative/absolute tolerance.
    Dict keys must match exactly (so an omitted transform is checked)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        assert set(actual) == set(expected), (
            f"{path}: keys {sorted(actual)} != {sorted(expected)}; actual {actual!r}"
        )
        for k in expected:
            assert_close(actual[k], expected[k], f"{path}.{k}", tol)
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected an array, got {actual!r}"
        assert len(actual) == len(expected), (
            f"{path}: length {len(actual)} != {len(expected)}\nactual:   {actual!r}\nexpected: {expected!r}"
        )
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_close(a, e, f"{path}[{i}]", tol)
    elif isinstance(expected, bool) or expected is None or isinstance(expected, str):
        assert actual == expected and type(actual) is type(expected), f"{path}: {actual!r} != {expected!r}"
    elif isinstance(expected, int) and not isinstance(expected, bool):
        # Integers (zIndex, indices) must come back as JSON integers.
        assert type(actual) is int and actual == expected, f"{path}: {actual!r} != {expected!r}"
    else:
        assert isinstance(actual, (int, float)) and not isinstance(actual, bool), f"{path}: {actual!r}"
        assert math.isclose(actual, expected, rel_tol=tol, abs_tol=tol), f"{path}: {actual!r} != {expected!r}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test item, so that fixtures can see
    at teardown whether the test itself already failed."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)


@pytest.fixture
def spawn(request):
    """A factory: spawn(*args) starts a daemon that is ended after the test.
    At teardown a daemon still running gets EOF and must exit 0 or 1: a
    crash (death by signal) fails an otherwise passing test."""
    started: list[Daemon] = []

    def make(*args: str) -> Daemon:
        d = Daemon(*args)
        started.append(d)
        return d

    yield make
    crashed = []
    for d in started:
        already = d.proc.poll()
        code = d.finish()
        if code is not None and code < 0:
            crashed.append((d.args, code, d.stderr_text()))
        if already is None and code is None:
            crashed.append((d.args, "did not exit on EOF", d.stderr_text()))
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        return  # already reported; the crash shows in the test's own failure
    assert not crashed, f"daemon died badly: {crashed}"


@pytest.fixture
def daemon(spawn) -> Daemon:
    """A fresh daemon, not yet initialized."""
    return spawn()


@pytest.fixture
def server(spawn) -> Daemon:
    """A fresh, initialized daemon."""
    d = spawn()
    d.initialize()
    return d


# MARK: the web bridge (`flowlayout web`), for web/test_web_bridge.py and web/test_web.py


class WebBridge:
    """`python3 -m flowlayout web --port 0` in a subprocess (the client
    package from this checkout), started and known to be serving when the
    constructor returns. Its first stdout line names the URL, the daemon's
    pid and where the page and /js/ come from (`first_line`).

    `command`, `env` and `cwd` run another `flowlayout web` instead (such
    as an installed one, test_install.py): the whole command line and
    environment, and the working directory."""

    def __init__(self, command: Optional[list[str]] = None, env: Optional[dict] = None,
                 cwd: Optional[str] = None) -> None:
        if not os.access(DAEMON, os.X_OK):
            pytest.fail(f"daemon not found or not executable: {DAEMON} (set FLOWLAYOUTD)")
        if env is None:
            env = dict(os.environ)
            package = str(REPO / "clients" / "python")
            env["PYTHONPATH"] = package + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        if command is None:
            command = [sys.executable, "-m", "flowlayout", "web", "--port", "0", "--daemon", DAEMON]
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
            text=True,
        )
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        errors = threading.Thread(target=self._read, args=(self.proc.stderr, self.stderr.append), daemon=True)
        errors.start()
        first = self.next_line(timeout=3 * TIMEOUT)
        m = re.search(r"serving (http://127\.0\.0\.1:(\d+)/) .*pid (\d+)", first or "")
        if not m:
            self.proc.kill()
            self.proc.wait()
            errors.join(TIMEOUT)
            stderr = "".join(line for line in self.stderr if line is not None)
            pytest.fail(f"flowlayout web did not start: {first!r}; stderr: {stderr!r}")
        self.first_line = first or ""
        self.url = m.group(1)
        self.port = int(m.group(2))
        self.daemon_pid = int(m.group(3))

    @staticmethod
    def _read(stream: Any, put: Any) -> None:
        for line in stream:
            put(line)
        put(None)

    def next_line(self, timeout: float = TIMEOUT) -> Optional[str]:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def stop(self, sig: int = signal.SIGINT) -> tuple[int, str]:
        """Sends `sig` (Ctrl-C by default) and returns the exit code and
        the rest of stdout. Kills the bridge if it does not stop in time."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=2 * TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("flowlayout web did not stop on a signal") from None
        rest = []
        while (line := self.next_line(timeout=1.0)) is not None:
            rest.append(line)
        return code, "".join(rest)


def daemon_gone(pid: int, timeout: float = TIMEOUT) -> bool:
    """True once no process has this pid, not even a zombie: the bridge
    must have reaped the daemon it spawned."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


# MARK: the package installed into a fresh virtualenv, for clients/python/tests/test_install.py and web/test_web.py


@pytest.fixture(scope="session")
def installed_flowlayout(tmp_path_factory):
    """``pip install <repo>/clients/python`` into a new venv outside the
    checkout (install_support.py), once per run."""
    from install_support import install

    return install(tmp_path_factory.mktemp("flowlayout-install"))
