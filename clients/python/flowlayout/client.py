"""A synchronous client for flowlayoutd (JSON-RPC 2.0 over LSP framing).

The daemon answers requests strictly in order and never calls the client,
so one request at a time over a lock is all the machinery needed.
"""

from __future__ import annotations

import base64
import collections
import json
import os
import re
import struct
import subprocess
import threading
from types import TracebackType
from typing import (
    IO,
    Any,
    Callable,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    Union,
)

from ._version import __version__
from .model import (
    Attributes,
    BatchResult,
    ElementKey,
    IndexPath,
    InsetsLike,
    JSONDict,
    MovementBegan,
    OutlineChangeResult,
    OutlineResult,
    SwipeBegan,
    SwipeClosed,
    SwipeEnd,
    SwipeUpdate,
    MovementEnd,
    MovementUpdate,
    MutationResult,
    OpenResult,
    Point,
    PointLike,
    RectLike,
    RowScrollResult,
    Size,
    SizeLike,
    SnapPlan,
    SnapshotResult,
    insets_json,
    item_sizes_json,
    point_json,
    rect_json,
    updates_json,
)
from .model import _size_or_raw
from .picture import Picture
from .wire import ProtocolError, dumps, encode_frame, find_daemon, read_frame, spawn, write_frame

__all__ = ["Client", "RPCError", "DaemonError", "find_daemon", "pack_sizes", "DEFAULT_MAX_ITEM_VALUES_PER_REQUEST"]

#: ``maxItemValuesPerRequest`` of a daemon that serves ``layout/appendItems``
#: but does not report the limit (the daemon's default).
DEFAULT_MAX_ITEM_VALUES_PER_REQUEST = 2048


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
    INVALID_BATCH_UPDATE = 1003
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


class AttributesPage(Tuple[Attributes, ...]):
    """A tuple of attributes, with ``next``: the key to continue after
    when the answer was a page with more to come (else None)."""

    next: Optional[ElementKey]

    def __new__(cls, items: Iterable[Attributes], next: Optional[ElementKey] = None) -> "AttributesPage":
        page = super().__new__(cls, tuple(items))
        page.next = next
        return page


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
        restart: bool = False,
    ) -> None:
        if (stdin is None) != (stdout is None):
            raise ValueError("pass both stdin and stdout, or neither")
        if stdin is not None and (daemon is not None or tuple(args)):
            raise ValueError("daemon and args apply only when the client spawns the daemon")
        if stdin is not None and restart:
            raise ValueError("restart applies only when the client spawns the daemon")
        self._spawn_args = (daemon, tuple(args), new_session)
        #: Whether a daemon that dies is replaced (see :meth:`request`).
        self.restart = restart
        #: How many times the daemon was replaced.
        self.restarts = 0
        #: Per open session, in the order they were opened: the requests
        #: that made it what it is (see ``_record``).
        self._logs: Dict[str, List[Tuple[str, str]]] = {}
        self._bounds_size: Dict[str, Tuple[Any, Any]] = {}
        #: Per session, the scrolls that end its log, oldest first: the
        #: main scroll's and each row's, at most one of each.
        self._scroll_ends: Dict[str, List[Tuple[str, Any]]] = {}
        self.process: Optional[subprocess.Popen[bytes]] = None
        self._stderr: Deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._stderr_thread: Optional[threading.Thread] = None
        self._lock = threading.Lock()
        self._next_id = 1
        self._closed = False
        if stdin is not None and stdout is not None:
            self._in, self._out = stdin, stdout
        else:
            self._start_process()
        try:
            result = self._initialize()
        except BaseException:
            self._terminate(timeout=1.0)
            raise
        self.server_info: Mapping[str, Any] = result.get("serverInfo", {})
        self.capabilities: Mapping[str, Any] = result.get("capabilities", {})
        # What each method's answer does to a session, from the daemon's
        # method table: "open" and "delta" answers come from requests that
        # change it.
        self._effects: Dict[str, str] = {
            m["name"]: m.get("picture", "none")
            for m in self.capabilities.get("methodTable", [])
            if isinstance(m, Mapping) and isinstance(m.get("name"), str)
        }
        #: The item sizes and ids one request may carry: the daemon's
        #: ``capabilities.limits.maxItemValuesPerRequest``, 2048 when it
        #: serves ``layout/appendItems`` without reporting the limit, None
        #: (never chunk) for a daemon without ``layout/appendItems``.
        #: :meth:`open`, :meth:`reload_data`, :meth:`set_item_sizes` and
        #: :meth:`append_items` split what they send to stay within it.
        self.max_item_values_per_request: Optional[int] = _values_limit(self.capabilities)
        #: ``capabilities.limits.maxItemsPerSession``, if reported.
        self.max_items_per_session: Optional[int] = _positive_limit(
            self.capabilities, "maxItemsPerSession"
        )

    def _start_process(self) -> None:
        daemon, args, new_session = self._spawn_args
        self.process = spawn(daemon, args, new_session=new_session)
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self._in, self._out = self.process.stdin, self.process.stdout
        self._stderr_thread = threading.Thread(
            target=self._drain_stderr, args=(self.process.stderr,), name="flowlayoutd-stderr",
            daemon=True,
        )
        self._stderr_thread.start()

    def _initialize(self) -> Any:
        result = self._request_once(
            "initialize",
            {
                "processId": os.getpid(),
                "clientInfo": {"name": "flowlayout-python", "version": __version__},
            },
        )
        self.notify("initialized", {})
        return result

    # MARK: surviving a crash

    #: Restarts in a row without a request answered in between before the
    #: client gives up: a daemon that always dies is not retried forever.
    MAX_RESTARTS_IN_A_ROW = 3

    def _record(self, method: str, params: Optional[Mapping[str, Any]]) -> None:
        """Keeps, per session, what it was last sent: a ``layout/open``
        starts the session's log, every request whose answer is a delta
        (the method table's ``picture``) is appended, ``layout/close``
        drops it. A scroll (a ``setBounds`` of the size in force) replaces
        a scroll that ends the log, so the log grows with the data changes
        and rotations, not with the frames; so does a row's scroll
        (``scrollSection``) replace the one before it of the same row."""
        if not isinstance(params, Mapping) or not isinstance(params.get("session"), str):
            return
        name = params["session"]
        effect = self._effects.get(method, "none")
        if method == "layout/close":
            self._logs.pop(name, None)
            self._bounds_size.pop(name, None)
            self._scroll_ends.pop(name, None)
            return
        if effect == "none" or (effect == "delta" and name not in self._logs):
            return
        entry = (method, dumps(params))
        if effect == "open":
            self._logs.pop(name, None)  # a re-open goes to the end
            self._logs[name] = [entry]
            self._scroll_ends.pop(name, None)
        else:
            log = self._logs[name]
            scroll: Optional[Tuple[str, Any]] = None
            if method == "layout/setBounds":
                b = params.get("bounds") or {}
                size = (b.get("width"), b.get("height")) if isinstance(b, Mapping) else None
                if size == self._bounds_size.get(name):
                    scroll = ("bounds", None)
            elif method == "layout/scrollSection":
                scroll = ("row", params.get("section"))
            # A scroll replaces the scroll of the same kind among those
            # that end the log (the main scroll, or the same row's): a
            # rotation anchors from where the view was, so it stays, and a
            # data change ends the run.
            trailing = self._scroll_ends.setdefault(name, [])
            if scroll is None:
                trailing.clear()
            elif scroll in trailing:
                k = trailing.index(scroll)
                del log[len(log) - len(trailing) + k]
                del trailing[k]
            log.append(entry)
            if scroll is not None:
                trailing.append(scroll)
        b = params.get("bounds")
        if isinstance(b, Mapping):
            self._bounds_size[name] = (b.get("width"), b.get("height"))

    def _replace_daemon(self) -> None:
        """Starts a new daemon and replays every session's log into it, in
        the order the sessions were opened."""
        old = self.process
        if old is not None:
            try:
                old.kill()
            except OSError:
                pass
            old.wait()
            for stream in (old.stdin, old.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
        self.restarts += 1
        self._start_process()
        self._initialize()
        for log in list(self._logs.values()):
            for method, body in log:
                self._request_once(method, json.loads(body))

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
        the daemon is gone. ``params`` None is sent as absent.

        With ``restart=True``, a daemon that died (its output closed, a
        broken pipe, a bad frame) is replaced: a new one is started, every
        open session is re-opened from what it was last sent (its log,
        replayed in order), and this request is sent again, so its answer,
        and every later one, is what the first daemon would have said."""
        if not self.restart or method in ("initialize", "shutdown"):
            return self._request_once(method, params)
        restarts = 0
        while True:
            try:
                result = self._request_once(method, params)
                break
            except DaemonError:
                if self._closed or restarts >= self.MAX_RESTARTS_IN_A_ROW:
                    raise
                restarts += 1
                try:
                    self._replace_daemon()
                except DaemonError:
                    continue  # the new one died too: the retry finds out
                except RPCError as e:
                    if e.code == -32700:
                        # A parse error to a frame this client wrote whole: its
                        # bytes did not arrive (the daemon lost its input): a death.
                        continue
                    raise DaemonError(f"the restarted flowlayoutd refused the replay: {e}") from None
        self._record(method, params)
        return result

    def _request_once(self, method: str, params: Optional[Mapping[str, Any]] = None) -> Any:
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
        overscan: Optional[float] = None,
        follows_end: Optional[bool] = None,
    ) -> OpenResult:
        """Creates a session. ``layout`` and ``sections`` are wire JSON,
        e.g. ``{"type": "flow", "itemSize": {...}}`` and
        ``[{"itemCount": 10}]``. ``overscan`` (points) grows the visible
        rect along the scroll axis.

        Sections carrying more sizes and ids than
        :attr:`max_item_values_per_request` are sent in chunks: ``layout/open``
        with as many leading values as fit (every section is in it, the
        later ones with their first items or none, so that the section
        count and per-section fields are right from the start), then
        ``layout/appendItems`` per section for the rest, in order, with the
        matching ``ids``. The answers are applied to the open's picture
        and, should the appends have moved the bounds (bounds beyond the
        first chunk's content are clamped to it), a ``layout/setBounds``
        puts them back; the result is then what one ``layout/open`` of
        everything answers: the final content size, the bounds as sent,
        every element visible in them and the centred item. If a later
        request fails, the session is closed again and the error is raised
        with its field named as in ``sections``
        (``params.sections[0].itemSizes[5000].width``), so a failed open
        still leaves no session behind."""
        params: JSONDict = {
            "session": session,
            "layout": dict(layout),
            "bounds": rect_json(bounds),
            "sections": [dict(s) for s in sections],
        }
        if content_inset is not None:
            params["contentInset"] = insets_json(content_inset)
        if overscan is not None:
            params["overscan"] = overscan
        if follows_end is not None:
            params["followsEnd"] = follows_end
        plan = _plan_sections(
            params["sections"], self.max_item_values_per_request, self.max_items_per_session
        )
        if plan is None:
            return OpenResult.from_json(self.request("layout/open", params))
        params["sections"] = plan.first
        opened = OpenResult.from_json(self.request("layout/open", params))
        picture = Picture()
        picture.apply_open(opened)
        last: Optional[MutationResult] = None
        try:
            for append, translate in plan.appends(session):
                last = self._append_once(append, translate)
                picture.apply(last)
            if last is not None and last.bounds != opened.bounds:
                last = self.set_bounds(session, opened.bounds)
                picture.apply(last)
        except BaseException:
            try:
                self.close(session)
            except (RPCError, DaemonError, OSError):
                pass
            raise
        if last is None:
            return opened
        return OpenResult(last.content_size, last.bounds, tuple(picture.elements()), last.centered_item)

    def set_bounds(self, session: str, bounds: RectLike) -> MutationResult:
        """Reports the viewport after a scroll or resize. After a resize
        the answer's ``bounds`` is anchored: adopt it."""
        return MutationResult.from_json(
            self.request("layout/setBounds", {"session": session, "bounds": rect_json(bounds)})
        )

    def scroll_ended(
        self,
        session: str,
        content_offset: PointLike,
        velocity: PointLike,
        proposed_content_offset: Optional[PointLike] = None,
        frame_interval: Optional[float] = None,
        section: Optional[int] = None,
    ) -> SnapPlan:
        """Asks where a scroll should settle, and how. ``velocity`` is in
        points per millisecond (UIKit's unit); ``proposed_content_offset``,
        when given, replaces the daemon's own projection of the release;
        ``frame_interval`` is the time in ms between the plan's trajectory
        samples (the daemon's default is 1000/60). With ``section``, the
        release is that orthogonal row's: offsets and velocity along the
        row, and the plan's offsets are the row's."""
        params: JSONDict = {
            "session": session,
            "contentOffset": point_json(content_offset),
            "velocity": point_json(velocity),
        }
        if proposed_content_offset is not None:
            params["proposedContentOffset"] = point_json(proposed_content_offset)
        if frame_interval is not None:
            params["frameInterval"] = frame_interval
        if section is not None:
            params["section"] = section
        return SnapPlan.from_json(self.request("layout/scrollEnded", params))

    def scroll_section(self, session: str, section: int, offset: float) -> RowScrollResult:
        """Scrolls an orthogonal row of a compositional layout to
        ``offset`` (along the cross axis, left to right): a row's scroll
        frame. The answer is the delta and the offset the daemon clamped
        to the row's range."""
        return RowScrollResult.from_json(
            self.request(
                "layout/scrollSection", {"session": session, "section": section, "offset": offset}
            )
        )

    def row_offset_for_item(
        self, session: str, section: int, item: int, position: Optional[str] = "center"
    ) -> Optional[float]:
        """The offset of the item's orthogonal row that shows it at
        ``position`` (``layout/scrollToItem``'s ``rowOffset``), or None when
        its section does not scroll on its own."""
        params: JSONDict = {"session": session, "section": section, "item": item}
        if position is not None:
            params["position"] = position
        v = self.request("layout/scrollToItem", params).get("rowOffset")
        return None if v is None else float(v)

    def scroll_to_item(
        self,
        session: str,
        section: Optional[int] = None,
        item: Optional[int] = None,
        position: Optional[str] = "center",
        *,
        id: Optional[Union[int, str]] = None,
    ) -> Point:
        """The content offset that shows the item at ``position``
        (``"center"``, ``"leading"`` or ``"trailing"``; None leaves it to
        the daemon, whose default is ``"center"``), clamped to the offset
        range. The item is ``section``, ``item``, or instead its ``id``.
        The session does not move: scroll there with :meth:`set_bounds`."""
        params = _item_params(session, section, item, id)
        if position is not None:
            params["position"] = position
        return Point.from_json(self.request("layout/scrollToItem", params)["contentOffset"])

    def perform_batch_updates(self, session: str, updates: Mapping[str, Any]) -> BatchResult:
        """UICollectionView's ``performBatchUpdates``. ``updates`` has the
        wire shape (``deleteItems``, ``insertItems``, ``moveItems``,
        ``reloadItems``, ``deleteSections``, ``insertSections``,
        ``moveSections``, ``itemCounts``); item entries may also be
        IndexPaths or ``(section, item)`` pairs and moves ``(from, to)``
        pairs. A batch UIKit would reject raises :class:`RPCError` 1003
        (``INVALID_BATCH_UPDATE``) and changes nothing."""
        params = {"session": session, "updates": updates_json(updates)}
        return BatchResult.from_json(self.request("layout/performBatchUpdates", params))

    def apply_snapshot(
        self,
        session: str,
        sections: Iterable[Mapping[str, Any]],
        reload_items: Optional[Iterable[Any]] = None,
        reconfigure_items: Optional[Iterable[Any]] = None,
    ) -> SnapshotResult:
        """UICollectionViewDiffableDataSource's ``apply``: ``sections`` is
        the whole new data, each ``{"id": …, "items": [id or {"id", "size"},
        …], …its own fields}``. The daemon diffs it against the session
        with as few moves as there can be and applies the batch; the answer
        is ``performBatchUpdates``' plus ``updates``, that batch (None on a
        first apply to a session without ids). ``reload_items`` and
        ``reconfigure_items`` are ids (or ``{"id", "size"}``)."""
        params: JSONDict = {"session": session, "sections": [dict(s) for s in sections]}
        if reload_items is not None:
            params["reloadItems"] = list(reload_items)
        if reconfigure_items is not None:
            params["reconfigureItems"] = list(reconfigure_items)
        return SnapshotResult.from_json(self.request("layout/applySnapshot", params))

    def begin_interactive_movement(
        self,
        session: str,
        section: Optional[int] = None,
        item: Optional[int] = None,
        *,
        id: Optional[Union[int, str]] = None,
        lap: Optional[int] = None,
    ) -> MovementBegan:
        """UICollectionView's ``beginInteractiveMovementForItem``: starts
        dragging the item (``section``, ``item`` or its ``id``; ``lap``: the
        copy grabbed in a looping layout). The answer's shape, ``{began}``,
        as every client has it (``MovementBegan``, which is truthy when it
        began): ``began`` is False when another movement is in progress or
        the item's section has ``allowsReordering: false``."""
        params = _item_params(session, section, item, id)
        if lap is not None:
            params["lap"] = lap
        return MovementBegan.from_json(self.request("layout/beginInteractiveMovement", params))

    def update_interactive_movement(self, session: str, position: PointLike) -> MovementUpdate:
        """``updateInteractiveMovementTargetPosition``: the dragged item's
        centre is at ``position`` (content coordinates). The answer is the
        delta (the others laid out as if the item sat at the target), the
        target and the autoscroll velocity."""
        params = {"session": session, "position": point_json(position)}
        return MovementUpdate.from_json(self.request("layout/updateInteractiveMovement", params))

    def end_interactive_movement(self, session: str) -> MovementEnd:
        """``endInteractiveMovement``: the item lands at the target, as one
        ``performBatchUpdates`` move (``updates``)."""
        return MovementEnd.from_json(
            self.request("layout/endInteractiveMovement", {"session": session})
        )

    def cancel_interactive_movement(self, session: str) -> MutationResult:
        """``cancelInteractiveMovement``: the delta back to the data."""
        return MutationResult.from_json(
            self.request("layout/cancelInteractiveMovement", {"session": session})
        )

    def set_item_separators(self, session: str, items: Sequence[Mapping[str, Any]]) -> BatchResult:
        """A list's per-item separator overrides (UIKit's
        ``itemSeparatorHandler``): each of ``items`` names an item by
        ``section`` and ``item`` or by ``id`` and gives any of
        ``topSeparatorVisibility``, ``bottomSeparatorVisibility``,
        ``topSeparatorInsets`` and ``bottomSeparatorInsets``, replacing that
        item's earlier override. Answers the batch's delta."""
        return BatchResult.from_json(
            self.request("layout/setItemSeparators", {"session": session, "items": [dict(i) for i in items]}))

    def begin_swipe(
        self,
        session: str,
        section: Optional[int] = None,
        item: Optional[int] = None,
        *,
        id: Optional[Union[int, str]] = None,
        edge: str,
        actions: Sequence[Mapping[str, Any]],
        performs_first_action_with_full_swipe: Optional[bool] = None,
    ) -> SwipeBegan:
        """UISwipeActionsConfiguration, headless: starts swiping the row
        (``section``, ``item`` or its ``id``) from ``edge`` (``"leading"``
        or ``"trailing"``) to reveal ``actions`` (``[{width, style?}]``,
        ``style`` ``"normal"`` or ``"destructive"``). Closes any other
        open row (``closed_swipe``)."""
        params = _item_params(session, section, item, id)
        params["edge"] = edge
        params["actions"] = [dict(a) for a in actions]
        if performs_first_action_with_full_swipe is not None:
            params["performsFirstActionWithFullSwipe"] = performs_first_action_with_full_swipe
        return SwipeBegan.from_json(self.request("layout/beginSwipe", params))

    def update_swipe(self, session: str, translation: float) -> SwipeUpdate:
        """The row's content slid to ``translation`` (signed like a pan's
        x: a trailing swipe is negative in ltr): the buttons' frames."""
        return SwipeUpdate.from_json(
            self.request("layout/updateSwipe", {"session": session, "translation": translation}))

    def end_swipe(self, session: str, velocity: float) -> SwipeEnd:
        """Releases the swipe with ``velocity`` (points per ms along x):
        ``performed``, ``open`` or ``closed``, and the translation."""
        return SwipeEnd.from_json(
            self.request("layout/endSwipe", {"session": session, "velocity": velocity}))

    def close_swipe(self, session: str) -> SwipeClosed:
        """Closes the open swipe, if any."""
        return SwipeClosed.from_json(self.request("layout/closeSwipe", {"session": session}))

    def expand(
        self, session: str, ids: Sequence[Union[int, str]], children: Optional[Sequence[Mapping[str, Any]]] = None
    ) -> OutlineChangeResult:
        """Expands outline nodes (UIKit's section snapshot ``expand``): each
        node's visible descendants' rows appear after its own. ``children``
        (outline nodes, wire JSON) gives one childless node its subtree, as
        a lazily loaded ``snapshotForExpandingParent``. Answers the batch's
        delta and ``updates``, which a flat twin replays."""
        params: Dict[str, Any] = {"session": session, "ids": list(ids)}
        if children is not None:
            params["children"] = [dict(c) for c in children]
        return OutlineChangeResult.from_json(self.request("layout/expand", params))

    def collapse(self, session: str, ids: Sequence[Union[int, str]]) -> OutlineChangeResult:
        """Collapses outline nodes: their descendants' rows go; the flags
        below them are kept. Answers the batch's delta and ``updates``."""
        return OutlineChangeResult.from_json(
            self.request("layout/collapse", {"session": session, "ids": list(ids)}))

    def outline_append(
        self, session: str, items: Sequence[Mapping[str, Any]], section: Optional[int] = None,
        parent: Optional[Union[int, str]] = None,
    ) -> OutlineChangeResult:
        """Appends outline nodes (wire JSON, as in ``outline``) as
        ``parent``'s last children, or as the last roots of ``section``.
        Answers the batch's delta and ``updates``."""
        params: Dict[str, Any] = {"session": session, "items": [dict(i) for i in items]}
        if section is not None:
            params["section"] = section
        if parent is not None:
            params["parent"] = parent
        return OutlineChangeResult.from_json(self.request("layout/outlineAppend", params))

    def outline_insert(
        self, session: str, items: Sequence[Mapping[str, Any]], before: Optional[Union[int, str]] = None,
        after: Optional[Union[int, str]] = None,
    ) -> OutlineChangeResult:
        """Inserts outline nodes as siblings right before or after an
        existing node (give exactly one of ``before`` and ``after``)."""
        params: Dict[str, Any] = {"session": session, "items": [dict(i) for i in items]}
        if before is not None:
            params["before"] = before
        if after is not None:
            params["after"] = after
        return OutlineChangeResult.from_json(self.request("layout/outlineInsert", params))

    def outline_delete(self, session: str, ids: Sequence[Union[int, str]]) -> OutlineChangeResult:
        """Deletes outline nodes, each with its descendants."""
        return OutlineChangeResult.from_json(
            self.request("layout/outlineDelete", {"session": session, "ids": list(ids)}))

    def outline_replace_children(
        self, session: str, parent: Union[int, str], children: Sequence[Mapping[str, Any]]
    ) -> OutlineChangeResult:
        """Replaces ``parent``'s children; they may reuse ids of the subtree
        they replace (those rows keep their cells)."""
        return OutlineChangeResult.from_json(self.request(
            "layout/outlineReplaceChildren",
            {"session": session, "parent": parent, "children": [dict(c) for c in children]}))

    def outline(self, session: str, section: int) -> OutlineResult:
        """A section's whole outline, every node with its flag (for a
        client that reconnects); empty for a flat section."""
        return OutlineResult.from_json(self.request("layout/outline", {"session": session, "section": section}))

    def reload_data(self, session: str, sections: Iterable[Mapping[str, Any]]) -> MutationResult:
        """Replaces every section (wire JSON, as in :meth:`open`), anchoring
        the view on its centred (carousel) or first visible (flow) item, by
        ``id`` when the sections carry ids.

        More sizes and ids than :attr:`max_item_values_per_request` are sent
        as :meth:`open` sends them: ``layout/reloadData`` with the leading
        values, then ``layout/appendItems``. The answer is the answers
        composed into one delta: applied to the picture it does what
        applying each in turn does. An anchor with an id lands where one
        ``layout/reloadData`` would put it: when the id comes in a later
        chunk, the daemon re-anchors on the ``appendItems`` that brings it.
        An anchor without an id keeps its index path when the view fits in
        the first request's content, and is clamped there otherwise. A
        request after the first that
        fails raises the error (its field named as in ``sections``) and
        leaves the session holding the items sent before it."""
        sent = [dict(s) for s in sections]
        plan = _plan_sections(sent, self.max_item_values_per_request, self.max_items_per_session)
        if plan is None:
            params = {"session": session, "sections": sent}
            return MutationResult.from_json(self.request("layout/reloadData", params))
        composed = _Deltas()
        params = {"session": session, "sections": plan.first}
        composed.add(MutationResult.from_json(self.request("layout/reloadData", params)))
        for append, translate in plan.appends(session):
            composed.add(self._append_once(append, translate))
        return composed.result()

    def configure(
        self,
        session: str,
        layout: Optional[Mapping[str, Any]] = None,
        content_inset: Optional[InsetsLike] = None,
        overscan: Optional[float] = None,
        *,
        content_insets: Optional[InsetsLike] = None,
        follows_end: Optional[bool] = None,
    ) -> MutationResult:
        """Changes layout fields (those absent keep their values), the
        content inset or the overscan. ``content_insets`` is accepted as
        another spelling of ``content_inset``."""
        if content_insets is not None:
            if content_inset is not None:
                raise TypeError("pass content_inset or content_insets, not both")
            content_inset = content_insets
        params: JSONDict = {"session": session}
        if layout is not None:
            params["layout"] = dict(layout)
        if content_inset is not None:
            params["contentInset"] = insets_json(content_inset)
        if overscan is not None:
            params["overscan"] = overscan
        if follows_end is not None:
            params["followsEnd"] = follows_end
        return MutationResult.from_json(self.request("layout/configure", params))

    def set_item_sizes(self, session: str, sizes: Iterable[Any]) -> MutationResult:
        """Self-sizing: reports measured item sizes. Each entry is
        ``(section, item, size)`` or ``(IndexPath, size)``, with ``size`` a
        :class:`Size`, a ``{"width", "height"}`` dict or ``(width,
        height)``, or a wire dict ``{"section", "item", "size"}`` or
        ``{"id", "size"}`` (keyed measurement).

        More entries than :attr:`max_item_values_per_request` go in several
        ``layout/setItemSizes`` requests, in order, and their answers are
        composed into one delta. Each request anchors the view on its own,
        and one that fails raises (its field named as in ``sizes``:
        ``params.sizes[5000].size.width``) with the chunks before it
        applied."""
        entries = item_sizes_json(sizes)
        limit = self.max_item_values_per_request
        if limit is None or len(entries) <= limit:
            params = {"session": session, "sizes": entries}
            return MutationResult.from_json(self.request("layout/setItemSizes", params))
        composed = _Deltas()
        for start in range(0, len(entries), limit):
            params = {"session": session, "sizes": entries[start : start + limit]}
            try:
                result = self.request("layout/setItemSizes", params)
            except RPCError as e:
                raise _renamed(e, _index_renamer("params.sizes", "params.sizes", start)) from None
            composed.add(MutationResult.from_json(result))
        return composed.result()

    def append_items(
        self,
        session: str,
        section: int,
        *,
        item_count: Optional[int] = None,
        item_sizes: Optional[Iterable[SizeLike]] = None,
        widths_and_heights: Optional[Iterable[float]] = None,
        widths_and_heights_base64: Optional[str] = None,
        ids: Optional[Iterable[Any]] = None,
    ) -> MutationResult:
        """``layout/appendItems``, the bulk path: appends items to the end
        of ``section``. Give exactly one of ``item_count`` (items of the
        uniform size), ``item_sizes`` (Sizes, dicts or ``(width, height)``)
        ``widths_and_heights`` (``[w0, h0, w1, h1, ...]``, the leaner
        encoding) and ``widths_and_heights_base64`` (the same pairs packed,
        the leanest: see :func:`pack_sizes`); ``ids``, one per appended
        item, gives them ids. The
        anchor stays put and no existing item moves.

        Sizes and ids beyond :attr:`max_item_values_per_request` are sent in
        several requests (the answers composed into one delta); a request
        after the first that fails raises with the items before it
        appended. ``item_count`` alone is sent in one request: it carries
        no values unless the section stores sizes or ids, when the daemon
        counts a value per item and answers 1004 over the limit. Items
        appended without ids to a section with ids count twice (a size and
        an empty id each), so send their ids."""
        params: JSONDict = {"session": session, "section": section}
        if item_count is not None:
            params["itemCount"] = item_count
        if item_sizes is not None:
            params["itemSizes"] = [_size_or_raw(v) for v in item_sizes]
        if widths_and_heights is not None:
            params["widthsAndHeights"] = list(widths_and_heights)
        if widths_and_heights_base64 is not None:
            params["widthsAndHeightsBase64"] = widths_and_heights_base64
        if ids is not None:
            params["ids"] = list(ids)
        chunks = _split_append(params, self.max_item_values_per_request)
        if chunks is None:
            return MutationResult.from_json(self.request("layout/appendItems", params))
        composed = _Deltas()
        for chunk, translate in chunks:
            composed.add(self._append_once(chunk, translate))
        return composed.result()

    def _append_once(self, params: JSONDict, translate: "_Translate") -> MutationResult:
        """One ``layout/appendItems`` of a chunked call; an error's field
        (and its message, which starts with it) renamed by ``translate``."""
        try:
            return MutationResult.from_json(self.request("layout/appendItems", params))
        except RPCError as e:
            raise _renamed(e, translate) from None

    def attributes_in_rect(
        self,
        session: str,
        rect: RectLike,
        limit: Optional[int] = None,
        after: Optional[ElementKey] = None,
    ) -> "AttributesPage":
        """Every element whose frame overlaps ``rect``, in document order;
        with ``limit``, at most that many, just after ``after`` (an
        :class:`ElementKey`), and the page's ``next`` is the key to pass as
        ``after`` for the rest (None when nothing remains). An answer over
        the daemon's answer limit (``maxAnswerBytes``, 8 MiB by default) is
        error 1004: page through it (:meth:`iter_attributes_in_rect`)."""
        params: JSONDict = {"session": session, "rect": rect_json(rect)}
        if limit is not None:
            params["limit"] = limit
        if after is not None:
            params["after"] = ElementKey(*after).to_json()
        result = self.request("layout/attributesInRect", params)
        nxt = result.get("next")
        return AttributesPage(
            (Attributes.from_json(a) for a in result["attributes"]),
            None if nxt is None else ElementKey.from_json(nxt),
        )

    def iter_attributes_in_rect(
        self, session: str, rect: RectLike, page_size: int = 10_000
    ) -> Iterator[Attributes]:
        """Every element meeting ``rect``, in document order, fetched a page
        of ``page_size`` at a time: a snapshot of any size, each request
        small. Each page costs the daemon O(log n + page_size)."""
        after: Optional[ElementKey] = None
        while True:
            page = self.attributes_in_rect(session, rect, limit=page_size, after=after)
            yield from page
            if page.next is None:
                return
            after = page.next

    def attributes_for_item(
        self,
        session: str,
        section: Optional[int] = None,
        item: Optional[int] = None,
        lap: Optional[int] = None,
        *,
        id: Optional[Union[int, str]] = None,
    ) -> Attributes:
        """One cell's attributes, the cell named by ``section`` and
        ``item`` or by its ``id``; in a looping carousel, of copy ``lap``
        (default: the copy nearest the viewport's centre)."""
        params = _item_params(session, section, item, id)
        if lap is not None:
            params["lap"] = lap
        result = self.request("layout/attributesForItem", params)
        return Attributes.from_json(result["attributes"])

    def attributes_for_supplementary(
        self, session: str, kind: str, section: int, lap: Optional[int] = None
    ) -> Optional[Attributes]:
        """``kind`` is ``"header"``, ``"footer"`` or ``"decoration"`` (a
        compositional section's background); None when the section has none
        (zero reference size, or no background). ``lap`` as for
        :meth:`attributes_for_item`."""
        params: JSONDict = {"session": session, "kind": kind, "section": section}
        if lap is not None:
            params["lap"] = lap
        result = self.request("layout/attributesForSupplementary", params)
        a = result["attributes"]
        return None if a is None else Attributes.from_json(a)

    def item_at_point(self, session: str, point: PointLike) -> Optional[IndexPath]:
        """The topmost cell drawn over ``point`` (its transformed outline,
        edges included), if any."""
        return IndexPath.from_json(
            self.request("layout/itemAtPoint", {"session": session, "point": point_json(point)})
        )

    def content_size(self, session: str) -> Size:
        result = self.request("layout/contentSize", {"session": session})
        return Size.from_json(result["contentSize"])

    def close(self, session: str) -> None:
        """Closes a layout session (not the connection: see :meth:`shutdown`)."""
        self.request("layout/close", {"session": session})


# MARK: chunking (maxItemValuesPerRequest)


def _positive_limit(capabilities: Mapping[str, Any], name: str) -> Optional[int]:
    limits = capabilities.get("limits")
    if isinstance(limits, Mapping):
        v = limits.get(name)
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            return v
    return None


def _values_limit(capabilities: Mapping[str, Any]) -> Optional[int]:
    """``maxItemValuesPerRequest`` from ``initialize``'s capabilities; the
    default for a daemon that does not report it, unless its method list
    shows it has no ``layout/appendItems`` to send the rest with."""
    reported = _positive_limit(capabilities, "maxItemValuesPerRequest")
    if reported is not None:
        return reported
    methods = capabilities.get("methods")
    if isinstance(methods, (list, tuple)) and "layout/appendItems" not in methods:
        return None
    return DEFAULT_MAX_ITEM_VALUES_PER_REQUEST


#: ``translate(code, field)``: an error's field as the caller would name
#: it, or None to keep it.
_Translate = Callable[[int, str], Optional[str]]

_INDEXED = re.compile(r"params\.(widthsAndHeights|itemSizes|ids)\[(\d+)\](.*)\Z", re.S)


def _renamed(error: RPCError, translate: _Translate) -> RPCError:
    """``error`` with its field (and the message, which starts with the
    field) renamed; ``error`` itself when there is nothing to rename."""
    old = error.field
    if old is None:
        return error
    new = translate(error.code, old)
    if new is None or new == old:
        return error
    message = new + error.message[len(old) :] if error.message.startswith(old) else error.message
    data = dict(error.data) if isinstance(error.data, Mapping) else {}
    data["field"] = new
    return RPCError(error.code, message, data)


def _index_renamer(key: str, into: str, start: int) -> _Translate:
    """``key[j]…`` of a chunk starting at ``start`` is ``into[start + j]…``."""
    pattern = re.compile(re.escape(key) + r"\[(\d+)\](.*)\Z", re.S)

    def translate(code: int, field: str) -> Optional[str]:
        m = pattern.match(field)
        return f"{into}[{start + int(m.group(1))}]{m.group(2)}" if m else None

    return translate


def _section_renamer(section: int, start: int) -> _Translate:
    """Names the fields of a ``layout/appendItems`` that carries items
    ``start…`` of ``params.sections[section]`` as that section's: a
    width or height of ``widthsAndHeights`` as ``itemSizes[i].width`` or
    ``.height``, an id as ``ids[i]``, and a limit as one-request
    ``layout/open`` or ``layout/reloadData`` names it, ``params.sections``."""
    base = f"params.sections[{section}]"

    def translate(code: int, field: str) -> Optional[str]:
        m = _INDEXED.match(field)
        if m:
            key, j, tail = m.group(1), int(m.group(2)), m.group(3)
            if key == "widthsAndHeights":
                return f"{base}.itemSizes[{start + j // 2}].{'height' if j % 2 else 'width'}{tail}"
            return f"{base}.{key}[{start + j}]{tail}"
        if code == RPCError.LIMIT_EXCEEDED:
            return "params.sections"
        if field in ("params.widthsAndHeights", "params.itemSizes"):
            return f"{base}.itemSizes"
        if field in ("params.itemCount", "params.ids"):
            return f"{base}.{field[len('params.') :]}"
        return None

    return translate


def _is_array(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def _declared_values(section: Mapping[str, Any]) -> int:
    """The sizes and ids a section object carries, counted as the daemon
    counts them."""
    total = 0
    for key in ("itemSizes", "ids"):
        v = section.get(key)
        if _is_array(v):
            total += len(v)
    return total


def _declared_count(section: Mapping[str, Any]) -> int:
    count = section.get("itemCount")
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    sizes = section.get("itemSizes")
    return len(sizes) if _is_array(sizes) else 0


class _Shape:
    """A well-formed section object, as far as splitting it goes: its
    item count, its sizes (None: ``itemCount`` items) and ids."""

    __slots__ = ("count", "sizes", "ids")

    def __init__(self, count: int, sizes: Optional[Sequence[Any]], ids: Optional[Sequence[Any]]) -> None:
        self.count = count
        self.sizes = sizes
        self.ids = ids

    @property
    def cost(self) -> int:
        """Values per item: a size, an id, both or neither."""
        return (self.sizes is not None) + (self.ids is not None)

    @classmethod
    def of(cls, section: Any) -> Optional["_Shape"]:
        """None for anything the daemon would refuse as it stands (the
        section is then sent whole, for the daemon to name the fault)."""
        if not isinstance(section, Mapping):
            return None
        ids = section.get("ids") if "ids" in section else None
        if "ids" in section and not _is_array(ids):
            return None
        if "itemCount" in section:
            count = section["itemCount"]
            if "itemSizes" in section or not isinstance(count, int) or isinstance(count, bool) or count < 0:
                return None
            sizes = None
        elif "itemSizes" in section and _is_array(section["itemSizes"]):
            sizes = section["itemSizes"]
            count = len(sizes)
        else:
            return None
        if ids is not None and len(ids) != count:
            return None
        return cls(count, sizes, ids)


def _widths_and_heights(sizes: Sequence[Any]) -> Optional[List[float]]:
    """``[w0, h0, w1, h1, ...]`` for ``{width, height}`` objects holding
    plain numbers; None if any is something else (sent as itemSizes then,
    so that the daemon names what is wrong with it)."""
    flat: List[float] = []
    for size in sizes:
        if not isinstance(size, Mapping) or len(size) != 2:
            return None
        w, h = size.get("width"), size.get("height")
        if type(w) not in (int, float) or type(h) not in (int, float):
            return None
        flat.append(w)
        flat.append(h)
    return flat


def pack_sizes(widths_and_heights: Sequence[float]) -> str:
    """``[w0, h0, w1, h1, ...]`` as ``widthsAndHeightsBase64`` takes them:
    base64 of little-endian float64 pairs (protocol.md, "Packed sizes").
    Every double arrives exactly."""
    return base64.b64encode(struct.pack(f"<{len(widths_and_heights)}d", *widths_and_heights)).decode("ascii")


def _packed(flat: Sequence[float]) -> Optional[str]:
    """The packed encoding of pairs the daemon accepts (finite, >= 0, at
    most 1e15; NaN fails every comparison); None otherwise, so that the
    chunk goes as ``widthsAndHeights`` and the daemon names the bad value
    exactly as for one request."""
    for v in flat:
        if not 0 <= v <= 1e15:
            return None
    return pack_sizes(flat)


class _SectionPlan:
    """A ``layout/open`` or ``layout/reloadData`` over the values limit:
    ``first`` holds every section with its leading items, ``appends``
    yields the ``layout/appendItems`` requests that send the rest."""

    def __init__(self, first: List[Any], rest: List[Tuple[int, _Shape, int]], limit: int) -> None:
        self.first = first
        self._rest = rest
        self._limit = limit

    def appends(self, session: str) -> Iterator[Tuple[JSONDict, _Translate]]:
        for index, shape, start in self._rest:
            step = self._limit // shape.cost
            for a in range(start, shape.count, step):
                b = min(a + step, shape.count)
                params: JSONDict = {"session": session, "section": index}
                if shape.sizes is not None:
                    chunk = shape.sizes[a:b]
                    flat = _widths_and_heights(chunk)
                    packed = _packed(flat) if flat is not None else None
                    if packed is not None:
                        params["widthsAndHeightsBase64"] = packed
                    elif flat is not None:
                        params["widthsAndHeights"] = flat
                    else:
                        params["itemSizes"] = list(chunk)
                else:
                    params["itemCount"] = b - a
                if shape.ids is not None:
                    params["ids"] = list(shape.ids[a:b])
                yield params, _section_renamer(index, a)


def _plan_sections(
    sections: List[Any], limit: Optional[int], max_items: Optional[int]
) -> Optional[_SectionPlan]:
    """How to send ``sections`` within ``limit`` values a request: None
    when they fit (or cannot be split: sent as they are, the daemon then
    answers for them), else a plan. The first request gets the leading
    values in document order: sections that cannot be split and uniform
    sections without ids whole, then each section's first items while
    values remain."""
    if limit is None:
        return None
    mappings = [s if isinstance(s, Mapping) else {} for s in sections]
    if sum(_declared_values(s) for s in mappings) <= limit:
        return None
    if max_items is not None and sum(_declared_count(s) for s in mappings) > max_items:
        return None  # one request, for the daemon's own 1004 on params.sections
    shapes = [_Shape.of(s) for s in sections]
    budget = limit - sum(_declared_values(m) for m, sh in zip(mappings, shapes) if sh is None)
    if budget < 0:
        return None
    first: List[Any] = []
    rest: List[Tuple[int, _Shape, int]] = []
    for index, (section, shape) in enumerate(zip(sections, shapes)):
        if shape is None or shape.cost == 0:
            first.append(section)
            continue
        k = min(shape.count, budget // shape.cost)
        budget -= k * shape.cost
        if k == shape.count:
            first.append(section)
            continue
        if shape.cost > limit:
            return None  # not even one item fits a request
        head = dict(section)
        if shape.sizes is not None:
            head["itemSizes"] = list(shape.sizes[:k])
        else:
            head["itemCount"] = k
        if shape.ids is not None:
            head["ids"] = list(shape.ids[:k])
        first.append(head)
        rest.append((index, shape, k))
    return _SectionPlan(first, rest, limit)


def _split_append(
    params: JSONDict, limit: Optional[int]
) -> Optional[Iterator[Tuple[JSONDict, _Translate]]]:
    """The chunks of a ``layout/appendItems`` carrying more sizes and ids
    than ``limit``, or None to send it as it is."""
    if limit is None or "itemCount" in params:
        return None
    keys = [k for k in ("itemSizes", "widthsAndHeights", "widthsAndHeightsBase64") if k in params]
    if len(keys) != 1:
        return None
    key = keys[0]
    values = params[key]
    per = 2 if key == "widthsAndHeights" else 1
    if key == "widthsAndHeightsBase64":
        # Split as 16-byte items, each chunk packed again; a string that
        # is not well-formed goes whole, for the daemon to name the fault.
        try:
            raw = base64.b64decode(values, validate=True) if isinstance(values, str) else None
        except ValueError:
            raw = None
        if raw is None or len(raw) % 16:
            return None
        values = [raw[i : i + 16] for i in range(0, len(raw), 16)]
    if len(values) % per:
        return None
    count = len(values) // per
    ids = params.get("ids")
    if ids is not None and len(ids) != count:
        return None
    cost = 1 + (ids is not None)
    if count * cost <= limit or limit < cost:
        return None
    step = limit // cost

    def chunks() -> Iterator[Tuple[JSONDict, _Translate]]:
        for a in range(0, count, step):
            b = min(a + step, count)
            chunk: JSONDict = {"session": params["session"], "section": params["section"]}
            if key == "widthsAndHeightsBase64":
                chunk[key] = base64.b64encode(b"".join(values[a:b])).decode("ascii")
            else:
                chunk[key] = values[a * per : b * per]
            renamers = [_index_renamer(f"params.{key}", f"params.{key}", a * per)]
            if ids is not None:
                chunk["ids"] = ids[a:b]
                renamers.append(_index_renamer("params.ids", "params.ids", a))

            def translate(code: int, field: str, renamers: List[_Translate] = renamers) -> Optional[str]:
                for r in renamers:
                    new = r(code, field)
                    if new is not None:
                        return new
                return None

            yield chunk, translate

    return chunks()


class _Deltas:
    """Mutation answers composed into one: for each element, the last
    thing said about it (replaced or removed) wins, so applying the
    composition to a picture equals applying each answer in turn."""

    def __init__(self) -> None:
        self._last: Dict[ElementKey, Optional[Attributes]] = {}
        self._result: Optional[MutationResult] = None

    def add(self, result: MutationResult) -> None:
        for key in result.removed:
            self._last[key] = None
        for a in result.invalidated:
            self._last[a.key] = a
        self._result = result

    def result(self) -> MutationResult:
        r = self._result
        assert r is not None, "no answer to compose"
        order = sorted(self._last, key=lambda k: k.document_order())
        invalidated = tuple(a for a in (self._last[k] for k in order) if a is not None)
        removed = tuple(k for k in order if self._last[k] is None)
        return MutationResult(r.content_size, r.bounds, invalidated, removed, r.centered_item)


def _item_params(
    session: str, section: Optional[int], item: Optional[int], id: Optional[Union[int, str]]
) -> JSONDict:
    """An item named by its path or by its id: the given ones are sent (the
    daemon names what is missing or given twice)."""
    params: JSONDict = {"session": session}
    if section is not None:
        params["section"] = section
    if item is not None:
        params["item"] = item
    if id is not None:
        params["id"] = id
    return params
