"""LSP base-protocol framing and daemon discovery.

Kept apart from the typed client so that tools which must send arbitrary
bytes (``flowlayout replay``) share the exact framing the client uses.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Optional, Sequence

__all__ = [
    "DaemonNotFound",
    "ProtocolError",
    "encode_frame",
    "write_frame",
    "read_frame",
    "dumps",
    "find_daemon",
    "spawn",
]

_CANDIDATES = (".build/release/flowlayoutd", ".build/debug/flowlayoutd")


class DaemonNotFound(FileNotFoundError):
    """No flowlayoutd binary could be located."""


class ProtocolError(ConnectionError):
    """The daemon's output is not a well-formed LSP frame."""


def dumps(message: Any) -> bytes:
    """Compact UTF-8 JSON. NaN and infinities are refused here, because
    Python would otherwise emit the non-JSON tokens ``NaN``/``Infinity``."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def encode_frame(body: bytes) -> bytes:
    """``Content-Length: N\\r\\n\\r\\n`` followed by the body."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def write_frame(stream: IO[bytes], body: bytes) -> None:
    """Writes one frame and flushes, so the daemon sees it at once."""
    stream.write(encode_frame(body))
    stream.flush()


def read_frame(stream: IO[bytes]) -> Optional[bytes]:
    """Reads one frame's body; None at a clean end of stream.

    Header names are matched case-insensitively and unknown headers (such
    as Content-Type) are skipped, as LSP allows.
    """
    length: Optional[int] = None
    first = True
    while True:
        line = stream.readline()
        if not line:
            if first:
                return None
            raise ProtocolError("end of stream inside a frame header")
        first = False
        if line in (b"\r\n", b"\n"):
            break
        name, sep, value = line.partition(b":")
        if not sep:
            raise ProtocolError(f"malformed header line {line!r}")
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise ProtocolError(f"bad Content-Length {value.strip()!r}") from None
    if length is None or length < 0:
        raise ProtocolError("frame without a Content-Length header")
    body = stream.read(length)
    if len(body) != length:
        raise ProtocolError(f"end of stream after {len(body)} of {length} body bytes")
    return body


def _ancestors(start: Path) -> Iterator[Path]:
    yield start
    yield from start.parents


def find_daemon(daemon: Optional[str] = None) -> str:
    """Locates flowlayoutd.

    The order every client shares (README.md, "Finding the daemon"):
    the argument; ``$FLOWLAYOUTD``; ``.build/release`` then
    ``.build/debug`` in the working directory or any parent, then beside
    this package or any of its parents (a checkout's client finds the
    checkout's daemon); finally ``flowlayoutd`` on ``PATH``.
    """
    if daemon:
        return daemon
    env = os.environ.get("FLOWLAYOUTD")
    if env:
        return env
    starts = [Path.cwd(), Path(__file__).resolve().parent]
    for start in starts:
        for directory in _ancestors(start):
            for candidate in _CANDIDATES:
                path = directory / candidate
                if path.is_file() and os.access(path, os.X_OK):
                    return str(path)
    found = shutil.which("flowlayoutd")
    if found:
        return found
    raise DaemonNotFound(
        "flowlayoutd not found: pass its path, set FLOWLAYOUTD, build it with "
        "`swift build` (searched for .build/{release,debug}/flowlayoutd upward from "
        "the working directory), or put it on PATH"
    )


def spawn(
    daemon: Optional[str] = None,
    args: Iterable[str] = (),
    stderr: Optional[int] = subprocess.PIPE,
    new_session: bool = False,
) -> "subprocess.Popen[bytes]":
    """Starts the daemon with stdin and stdout piped; stderr is piped too
    unless ``stderr=None`` passes it through. Streams are buffered (reads
    need it); every frame written is flushed. ``new_session`` starts it in
    a session of its own, out of reach of the terminal's Ctrl-C, for a
    parent that shuts it down itself (it still ends at EOF on stdin when
    the parent dies)."""
    argv: Sequence[str] = [find_daemon(daemon), *args]
    return subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
        start_new_session=new_session,
    )
