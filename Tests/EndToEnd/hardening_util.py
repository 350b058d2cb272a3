"""Helpers for the hardening tests (issue #8): test_bad_input.py,
test_stateful_fuzz.py and test_resources.py.

- `bad_input_table()` parses protocol.md's `## Bad input` table into rows
  keyed by their `case` id; each test reads its expected answer from there.
- `FLOW_OPEN`, `COVER_OPEN`, `open_fixture_sessions()` and `snapshot()`:
  the two sessions every row starts from, and what "unchanged" compares.
- `RawDaemon`: a daemon whose stdout is read only when the test says so
  (daemon_support's `Daemon` drains stdout all the time), and `FrameParser`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from daemon_support import DAEMON, REPO, TIMEOUT, Daemon

PROTOCOL = REPO / "protocol.md"

# -- the table -----------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    case: str
    input: str
    answer: str
    then: str

    @staticmethod
    def spans(cell: str) -> list[str]:
        """The contents of the cell's code spans, in order."""
        return re.findall(r"`([^`]*)`", cell)

    # What the row expects -------------------------------------------------

    def error(self) -> Optional[tuple[int, str]]:
        """(code, message) when the answer is an error: the cell starts
        with the code, then the message as a code span."""
        m = re.match(r"(-?\d+) `([^`]*)`", self.answer)
        return (int(m.group(1)), m.group(2)) if m else None

    def result(self) -> Any:
        """The exact result when the answer starts with `result` and a
        JSON code span."""
        m = re.match(r"result `([^`]*)`", self.answer)
        assert m, f"{self.case}: the answer is not a result: {self.answer!r}"
        return json.loads(m.group(1))

    @property
    def no_answer(self) -> bool:
        return self.answer.startswith("no answer") or self.answer.startswith("nothing can be answered")

    @property
    def keeps_serving(self) -> bool:
        return self.then.strip() == "keeps serving"

    @property
    def exit_code(self) -> Optional[int]:
        m = re.search(r"exits with code (\d+)", self.then)
        return int(m.group(1)) if m else None

    def flags(self) -> list[str]:
        """Daemon flags named in the input, as `--max-items 1000`."""
        out: list[str] = []
        for s in self.spans(self.input):
            if re.fullmatch(r"--[a-z-]+ \d+", s):
                out += s.split(" ")
        return out

    def request(self) -> tuple[str, Any]:
        """(method, params) of an input written as a method name's code
        span followed by the params' code span."""
        method, text = self.request_text()
        return method, json.loads(text)

    def request_text(self) -> tuple[str, str]:
        """(method, params as written) of such an input."""
        spans = self.spans(self.input)
        for i, s in enumerate(spans[:-1]):
            if re.fullmatch(r"layout/[A-Za-z]+|shutdown|initialize", s) and spans[i + 1][:1] in "{[":
                return s, spans[i + 1]
        raise AssertionError(f"{self.case}: no `method` `params` pair in {self.input!r}")

    def body(self) -> str:
        """The first code span of the input that is a JSON-RPC body."""
        for s in self.spans(self.input):
            if s.startswith('{"jsonrpc"'):
                return s
        raise AssertionError(f"{self.case}: no body in the input {self.input!r}")

    def message_pattern(self, path: str) -> "re.Pattern[str]":
        """The error message as a regex: `<path>` is the given path and `…`
        any text."""
        _, message = self.error()
        parts = re.split(r"(<path>|…)", message)
        rx = "".join(re.escape(path) if p == "<path>" else ".+" if p == "…" else re.escape(p) for p in parts)
        return re.compile(rx + r"\Z")


def _cells(line: str) -> list[str]:
    # Cells are separated by unescaped pipes; the line starts and ends with one.
    parts = re.split(r"(?<!\\)\|", line.strip())
    assert parts[0] == "" and parts[-1] == "", f"not a table row: {line!r}"
    return [p.strip().replace("\\|", "|") for p in parts[1:-1]]


_TABLE: Optional[dict[str, Row]] = None


def bad_input_table() -> dict[str, Row]:
    """protocol.md's `## Bad input` table, keyed by case id."""
    global _TABLE
    if _TABLE is not None:
        return _TABLE
    text = PROTOCOL.read_text(encoding="utf-8")
    m = re.search(r"^## Bad input\n(.*?)(?=^## )", text, flags=re.S | re.M)
    assert m, "protocol.md has no `## Bad input` section before the next section"
    lines = [ln for ln in m.group(1).splitlines() if ln.startswith("|")]
    assert len(lines) >= 3, "the Bad input section has no table"
    assert _cells(lines[0]) == ["case", "input", "answer", "then"], lines[0]
    assert set(lines[1].replace("|", "").strip()) <= {"-", " "}, lines[1]
    rows: dict[str, Row] = {}
    for ln in lines[2:]:
        cells = _cells(ln)
        assert len(cells) == 4, f"a row needs 4 cells: {ln!r}"
        # A cell too long for a line of the table is a link to a file of
        # docs/bad-input holding its text.
        for k in (1, 2, 3):
            link = re.fullmatch(r"\[[^\]]*\]\((docs/bad-input/[^)]+\.md)\)", cells[k])
            if link:
                cells[k] = (REPO / link.group(1)).read_text(encoding="utf-8").strip()
        case = re.fullmatch(r"`([a-z0-9.-]+)`", cells[0])
        assert case, f"the case cell must be one code span: {cells[0]!r}"
        assert case.group(1) not in rows, f"duplicate case {case.group(1)}"
        rows[case.group(1)] = Row(case.group(1), cells[1], cells[2], cells[3])
    _TABLE = rows
    return rows


def row(case: str) -> Row:
    rows = bad_input_table()
    assert case in rows, f"protocol.md's Bad input table has no row {case!r}"
    return rows[case]


# -- the fixture sessions ---------------------------------------------------------

FLOW_OPEN = {
    "session": "flow",
    "layout": {"type": "flow", "itemSize": {"width": 100, "height": 50}, "headerReferenceSize": {"width": 0, "height": 20}},
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 100},
    "sections": [
        {"itemCount": 7},
        {
            "itemSizes": [{"width": 150, "height": 40}, {"width": 60, "height": 40}],
            "inset": {"top": 5, "left": 10, "bottom": 5, "right": 10},
        },
    ],
}
COVER_OPEN = {
    "session": "cover",
    "layout": {"type": "coverFlow"},
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}
FIXTURE_SESSIONS = ("flow", "cover")


def open_fixture_sessions(d: Daemon) -> None:
    d.call("layout/open", FLOW_OPEN)
    d.call("layout/open", COVER_OPEN)


#: The protocol's largest coordinate or extent (protocol.md, Values).
MAX_COORDINATE = 1e15


def whole_content(content_size: dict, margin: float = 10000.0) -> dict:
    """A rect holding all of the content and well beyond (carousel cards and
    rtl content may stick out of [0, contentSize]), within what a rect may
    be: a waterfall item a billionth of a point wide is 1e15 tall (its
    aspect ratio, clamped), and content that tall is snapshotted to the
    largest rect the protocol takes."""
    return {
        "x": -margin,
        "y": -margin,
        "width": min(content_size["width"] + 2 * margin, MAX_COORDINATE),
        "height": min(content_size["height"] + 2 * margin, MAX_COORDINATE),
    }


def session_state(d: Daemon, session: str) -> Any:
    """contentSize and the attributes of the whole content, or the error
    (an unknown session compares as its error)."""
    r = d.request("layout/contentSize", {"session": session})
    if "error" in r:
        return ("error", r["error"]["code"])
    size = r["result"]["contentSize"]
    # A loop of tiny content repeats thousands of times across the margin:
    # an answer over maxAnswerBytes (1004) is asked again nearer.
    for margin in (10000.0, 1000.0, 100.0):
        r = d.request("layout/attributesInRect", {"session": session, "rect": whole_content(size, margin)})
        if r.get("error", {}).get("code") != 1004:
            break
    assert "error" not in r, f"layout/attributesInRect failed: {r['error']!r}"
    return size, r["result"]["attributes"]


def snapshot(d: Daemon, sessions=FIXTURE_SESSIONS) -> dict:
    return {s: session_state(d, s) for s in sessions}


# -- raw framing without a reader thread ---------------------------------------


class FrameParser:
    """Incremental LSP frame parser over bytes that arrive in pieces. Strict:
    exactly `Content-Length: N\\r\\n\\r\\n` then N bytes of JSON."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.pos = 0

    def feed(self, data: bytes) -> Iterator[Any]:
        self.buf += data
        while True:
            end = self.buf.find(b"\r\n\r\n", self.pos, self.pos + 64)
            if end < 0:
                assert len(self.buf) - self.pos < 64, f"bad header: {bytes(self.buf[self.pos:self.pos + 80])!r}"
                break
            head = bytes(self.buf[self.pos:end])
            assert head.startswith(b"Content-Length: ") and head[16:].isdigit(), f"bad header {head!r}"
            n = int(head[16:])
            if len(self.buf) < end + 4 + n:
                break
            body = bytes(self.buf[end + 4 : end + 4 + n])
            self.pos = end + 4 + n
            yield json.loads(body)
        if self.pos > (1 << 20):
            del self.buf[: self.pos]
            self.pos = 0

    @property
    def pending(self) -> int:
        return len(self.buf) - self.pos


class RawDaemon:
    """flowlayoutd with plain pipes: nothing reads its stdout unless asked."""

    def __init__(self, *args: str, stderr: Any = subprocess.DEVNULL, env: Optional[dict] = None) -> None:
        self.proc = subprocess.Popen(
            [DAEMON, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, bufsize=0, env=env
        )
        self.parser = FrameParser()
        self.ready: list[Any] = []

    @property
    def pid(self) -> int:
        return self.proc.pid

    def rss_kib(self) -> int:
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def read_frames(self, count: int, timeout: float = TIMEOUT) -> list[Any]:
        """Reads until `count` frames have arrived (fails on timeout/EOF)."""
        import select

        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while len(self.ready) < count:
            left = deadline - time.monotonic()
            assert left > 0, f"only {len(self.ready)} of {count} frames within {timeout}s"
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 1 << 20)
            assert chunk, f"EOF after {len(self.ready)} of {count} frames (exit {self.proc.poll()})"
            self.ready.extend(self.parser.feed(chunk))
        out, self.ready = self.ready[:count], self.ready[count:]
        return out

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(TIMEOUT)
        for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if s:
                    s.close()
            except OSError:
                pass
