"""A synchronous client for flowlayoutd (JSON-RPC 2.0 over LSP framing).

The daemon answers requests strictly in order and never calls the client,
so one request at a time over a lock is all the machinery needed.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import threading
from types import TracebackType
from typing import IO, Any, Deque, Iterable, List, Mapping, Optional, Tuple, Type

from ._version import __version__
from .model import (
    Attributes,
    BoundsResult,
    IndexPath,
    InsetsLike,
    JSONDict,
    OpenResult,
    PointLike,
    RectLike,
    Size,
    SnapResult,
    insets_json,
    point_json,
    rect_json,
)
from .wire import ProtocolError, dumps, encode_frame, find_daemon, read_frame, spawn, write_frame

__all__ = ["Client", "RPCError", "DaemonError", "find_daemon"]


class RPCError(Exception):
    """A JSON-RPC error response. ``data`` is the daemon's ``error.data``;
    for invalid params it is ``{"field": "params.bounds.width"}``."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    SERVER_NOT_INITIALIZED = -32002
    REQUEST_CANCELLED = -32800
    UNKNOWN_SESSION = 1001
    SESSION_EXISTS = 1002
    LIMIT_EXCEEDED = 1004

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(code, message, data)
        self.code = code
        self.message = message
        self.data = data

    @property
    def field(self) -> Optional[str]:
        """The path of the offending field, when the daemon named one."""
        if isinstance(self.data, Mapping):
            f = self.data.get("field")
            return f if isinstance(f, str) else None
        return None

    def __str__(self) -> str:
        return f"{self.message} (code {self.code})"

    @classmethod
    def from_json(cls, error: Any) -> "RPCError":
        if not isinstance(error, Mapping):
            return cls(RPCError.INTERNAL_ERROR, f"malformed error object {error!r}")
        return cls(int(error.get("code", 0)), str(error.get("message", "")), error.get("data"))


class DaemonError(ConnectionError):
    """The daemon went away or broke the protocol. The message ends with
    the last lines it wrote to stderr, which usually say why."""


_STDERR_LINES = 50


class Client:
    """A connection to one flowlayoutd.

    ``Client()`` spawns the daemon found by :func:`find_daemon` (or
    ``daemon``, with extra command-line ``args``); ``Client(stdin=w,
    stdout=r)`` talks over existing binary streams instead, ``stdin`` being
    the daemon's input (written here) and ``stdout`` its output (read
    here). Either way the LSP handshake (``initialize``, ``initialized``)
    is done before the constructor returns. Use it as a context manager so
    that ``shutdown`` and ``exit`` are sent and the process reaped.
    ``new_session`` keeps a spawned daemon out of the terminal's process
    group, so that Ctrl-C reaches only this process, which then shuts the
    daemon down in order.
    """

    def __init__(
        self,
        daemon: Optional[str] = None,
        args: Iterable[str] = (),
        stdin: Optional[IO[bytes]] = None,
        stdout: Optional[IO[bytes]] = None,
        new_session: bool = False,
    ) -> None:
        if (stdin is None) != (stdout is None):
            raise ValueError("pass both stdin and stdout, or neither")
        if stdin is not None and (daemon is not None or tuple(args)):
            raise ValueError("daemon and args apply only when the client spawns the daemon")
        self.process: Optional[subprocess.Popen[bytes]] = None
        self._stderr: Deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._stderr_thread: Optional[threading.Thread] = None
        self._lock = threading.Lock()
        self._next_id = 1
        self._closed = False
        if stdin is not None and stdout is not None:
            self._in, self._out = stdin, stdout
        else:
            self.process = spawn(daemon, args, new_session=new_session)
            assert self.process.stdin and self.process.stdout and self.process.stderr
            self._in, self._out = self.process.stdin, self.process.stdout
            self._stderr_thread = threading.Thread(
                target=self._drain_stderr, args=(self.process.stderr,), name="flowlayoutd-stderr",
                daemon=True,
            )
            self._stderr_thread.start()
        try:
            result = self.request(
                "initialize",
                {
                    "processId": os.getpid(),
                    "clientInfo": {"name": "flowlayout-python", "version": __version__},
                },
            )
            self.notify("initialized", {})
        except BaseException:
            self._terminate(timeout=1.0)
            raise
        self.server_info: Mapping[str, Any] = result.get("serverInfo", {})
        self.capabilities: Mapping[str, Any] = result.get("capabilities", {})

    # MARK: lifecycle

    def __enter__(self) -> "Client":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.shutdown()

    @property
    def closed(self) -> bool:
        return self._closed

    def shutdown(self, timeout: float = 5.0) -> Optional[int]:
        """Sends ``shutdown`` then ``exit`` and waits up to ``timeout``
        seconds for the process, killing it after that. Never raises for a
        daemon that is already gone. Returns the exit code (None when the
        client did not spawn the daemon). Idempotent."""
        if self._closed:
            return self.process.returncode if self.process else None
        try:
            self.request("shutdown")
            self.notify("exit")
        except (RPCError, DaemonError, OSError, ValueError):
            pass
        return self._terminate(timeout)

    def _terminate(self, timeout: float) -> Optional[int]:
        self._closed = True
        if self.process is None:
            return None
        try:
            self._in.close()  # EOF also ends a daemon that missed `exit`
        except OSError:
            pass
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=1.0)
        self._out.close()
        return code

    def _drain_stderr(self, stream: IO[bytes]) -> None:
        """Keeps the daemon's stderr pipe empty so a chatty daemon never
        blocks on it, remembering the tail for error messages."""
        for raw in iter(stream.readline, b""):
            self._stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))
        stream.close()

    def stderr_tail(self) -> List[str]:
        """The daemon's last stderr lines (empty over given pipes)."""
        return list(self._stderr)

    def _daemon_error(self, what: str) -> DaemonError:
        if self.process is not None:
            try:
                code = self.process.wait(timeout=0.5)
                what += f" (exit status {code})"
            except subprocess.TimeoutExpired:
                pass
            if self._stderr_thread is not None:
                self._stderr_thread.join(timeout=0.5)
        tail = self.stderr_tail()
        if tail:
            what += "\nflowlayoutd stderr:\n  " + "\n  ".join(tail[-20:])
        return DaemonError(what)

    # MARK: raw JSON-RPC

    def _send(self, message: Mapping[str, Any]) -> None:
        if self._closed:
            raise DaemonError("the client is shut down")
        body = dumps(message)
        try:
            write_frame(self._in, body)
        except (BrokenPipeError, ValueError) as e:  # ValueError: write to a closed file
            raise self._daemon_error(f"cannot write to flowlayoutd: {e}") from None

    def request(self, method: str, params: Optional[Mapping[str, Any]] = None) -> Any:
        """Sends a request and returns its ``result``; raises
        :class:`RPCError` for an error response, :class:`DaemonError` when
        the daemon is gone. ``params`` None is sent as absent."""
        with self._lock:
            rid = self._next_id
            self._next_id += 1
            message: JSONDict = {"jsonrpc": "2.0", "id": rid, "method": method}
            if params is not None:
                message["params"] = params
            self._send(message)
            while True:
                try:
                    body = read_frame(self._out)
                except ProtocolError as e:
                    raise self._daemon_error(f"bad frame from flowlayoutd: {e}") from None
                except ValueError as e:  # read from a closed file
                    raise self._daemon_error(f"cannot read from flowlayoutd: {e}") from None
                if body is None:
                    raise self._daemon_error(f"flowlayoutd closed its output during {method}")
                try:
                    response = json.loads(body)
                except ValueError as e:
                    raise self._daemon_error(f"flowlayoutd sent invalid JSON: {e}") from None
                if not isinstance(response, dict) or "method" in response:
                    continue  # the daemon sends no requests or notifications today
                rid_back = response.get("id")
                if rid_back != rid and rid_back is not None:
                    continue  # a stale answer: cannot happen with one request at a time
                if "error" in response:
                    # id null: the daemon could not read our message at all,
                    # and ours is the only one in flight.
                    raise RPCError.from_json(response["error"])
                if rid_back is None:
                    continue
                return response.get("result")

    def exchange(self, body: bytes) -> List[bytes]:
        """Forwards one raw message body (a request, a notification, a
        batch, or even bytes that are not JSON) and returns the bodies the
        daemon writes in answer, unparsed: one, or none for notifications
        and batches of notifications.

        The end of the answer is found without guessing what the daemon
        will reply to: a request of the client's own (``$/sync``, which the
        daemon answers with "method not found") is written right behind the
        message, and since the daemon answers in order, every frame before
        the answer to it belongs to the message. This is what a bridge
        (``flowlayout web``) needs to relay messages it does not interpret.
        """
        with self._lock:
            # Unguessable, so that no relayed message can pass for it.
            sync_id = f"flowlayout:sync:{self._next_id}:{os.urandom(6).hex()}"
            self._next_id += 1
            sync = dumps({"jsonrpc": "2.0", "id": sync_id, "method": "$/sync"})
            if self._closed:
                raise DaemonError("the client is shut down")
            try:
                self._in.write(encode_frame(body) + encode_frame(sync))
                self._in.flush()
            except (BrokenPipeError, ValueError) as e:
                raise self._daemon_error(f"cannot write to flowlayoutd: {e}") from None
            answers: List[bytes] = []
            while True:
                try:
                    frame = read_frame(self._out)
                except ProtocolError as e:
                    raise self._daemon_error(f"bad frame from flowlayoutd: {e}") from None
                except ValueError as e:
                    raise self._daemon_error(f"cannot read from flowlayoutd: {e}") from None
                if frame is None:
                    raise self._daemon_error("flowlayoutd closed its output")
                if sync_id.encode() in frame:
                    try:
                        parsed = json.loads(frame)
                    except ValueError:
                        parsed = None
                    if isinstance(parsed, dict) and parsed.get("id") == sync_id:
                        return answers
                answers.append(frame)

    def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        """Sends a notification (no response is ever read)."""
        message: JSONDict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        with self._lock:
            self._send(message)

    # MARK: layout/*

    def open(
        self,
        session: str,
        layout: Mapping[str, Any],
        bounds: RectLike,
        sections: Iterable[Mapping[str, Any]],
        content_inset: Optional[InsetsLike] = None,
    ) -> OpenResult:
        """Creates a session. ``layout`` and ``sections`` are wire JSON,
        e.g. ``{"type": "flow", "itemSize": {...}}`` and
        ``[{"itemCount": 10}]``."""
        params: JSONDict = {
            "session": session,
            "layout": dict(layout),
            "bounds": rect_json(bounds),
            "sections": [dict(s) for s in sections],
        }
        if content_inset is not None:
            params["contentInset"] = insets_json(content_inset)
        return OpenResult.from_json(self.request("layout/open", params))

    def set_bounds(self, session: str, bounds: RectLike) -> BoundsResult:
        """Reports the viewport after a scroll or resize."""
        return BoundsResult.from_json(
            self.request("layout/setBounds", {"session": session, "bounds": rect_json(bounds)})
        )

    def scroll_ended(
        self,
        session: str,
        content_offset: PointLike,
        velocity: PointLike,
        proposed_content_offset: Optional[PointLike] = None,
    ) -> SnapResult:
        """Asks where a scroll should settle. ``velocity`` is in points per
        millisecond (UIKit's unit); ``proposed_content_offset`` is where
        deceleration alone would stop (defaults to ``content_offset``)."""
        params: JSONDict = {
            "session": session,
            "contentOffset": point_json(content_offset),
            "velocity": point_json(velocity),
        }
        if proposed_content_offset is not None:
            params["proposedContentOffset"] = point_json(proposed_content_offset)
        return SnapResult.from_json(self.request("layout/scrollEnded", params))

    def attributes_in_rect(self, session: str, rect: RectLike) -> Tuple[Attributes, ...]:
        params = {"session": session, "rect": rect_json(rect)}
        result = self.request("layout/attributesInRect", params)
        return tuple(Attributes.from_json(a) for a in result["attributes"])

    def attributes_for_item(self, session: str, section: int, item: int) -> Attributes:
        result = self.request(
            "layout/attributesForItem", {"session": session, "section": section, "item": item}
        )
        return Attributes.from_json(result["attributes"])

    def attributes_for_supplementary(
        self, session: str, kind: str, section: int
    ) -> Optional[Attributes]:
        """``kind`` is ``"header"`` or ``"footer"``; None when the section
        has none (zero reference size)."""
        params = {"session": session, "kind": kind, "section": section}
        result = self.request("layout/attributesForSupplementary", params)
        a = result["attributes"]
        return None if a is None else Attributes.from_json(a)

    def item_at_point(self, session: str, point: PointLike) -> Optional[IndexPath]:
        """The topmost cell whose frame contains ``point``, if any."""
        return IndexPath.from_json(
            self.request("layout/itemAtPoint", {"session": session, "point": point_json(point)})
        )

    def content_size(self, session: str) -> Size:
        result = self.request("layout/contentSize", {"session": session})
        return Size.from_json(result["contentSize"])

    def close(self, session: str) -> None:
        """Closes a layout session (not the connection: see :meth:`shutdown`)."""
        self.request("layout/close", {"session": session})
