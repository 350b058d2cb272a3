"""The ``flowlayout`` command: a cover-flow demo, a JSON-RPC replayer, an SVG
renderer of a session script's final viewport, and the web client's bridge."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import threading
from collections import deque
from typing import IO, Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import web
from .client import Client, DaemonError, RPCError
from .model import Attributes, BatchResult, IndexPath, Point, Rect, SnapPlan
from .picture import Picture
from .png import PNGUnavailable, picture_png
from .svg import picture_svg
from .wire import DaemonNotFound, ProtocolError, dumps, encode_frame, read_frame, spawn

__all__ = ["main", "demo", "replay", "render_script", "project_offset"]

# MARK: demo

#: The seeds' carousel: 200×300 cards 30 pt apart, shrinking with distance.
DEMO_LAYOUT = {
    "type": "coverFlow",
    "itemSize": {"width": 200, "height": 300},
    "minimumLineSpacing": 30,
    "scale": {"factor": 0.5},
}
DEMO_SECTIONS = [{"itemCount": 10}]
DEMO_VIEWPORT = Rect(0, 0, 375, 300)
DEMO_DRAG = (60.0, 120.0, 300.0)
DEMO_FLING_VELOCITY = 1.5  # pt/ms, to the right
#: The fling's animation sends setBounds at every this many trajectory
#: samples (the daemon's default frame interval is 1000/60 ms), and at the end.
DEMO_ANIMATION_STRIDE = 30

#: UIScrollView.DecelerationRate.normal: the speed kept after each ms.
DECELERATION_RATE = 0.998
PT_PER_COLUMN = 5.0
#: The largest `render --scale`: a 375-point viewport at 8 is 3000 pixels wide.
MAX_RENDER_SCALE = 8.0


def project_offset(offset: float, velocity: float, rate: float = DECELERATION_RATE) -> float:
    """Where UIScrollView's deceleration stops from ``offset`` at
    ``velocity`` pt/ms: the geometric series v·r + v·r² + … = v·r/(1−r)."""
    return offset + velocity * rate / (1 - rate)


def _num(v: float) -> str:
    """At most one decimal, no trailing zeros, no ``-0``."""
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _column(pt: float) -> int:
    return math.floor(pt / PT_PER_COLUMN + 0.5)


def _nearest_item(picture: Picture) -> Optional[IndexPath]:
    """The cell whose centre is nearest the viewport's along x. Used for
    the opening picture only, because layout/open does not report a
    centred item (setBounds does, and then the daemon's answer is used)."""
    if picture.bounds is None:
        return None
    mid = picture.bounds.center.x
    cells = [a for a in picture.elements() if a.kind == "cell"]
    if not cells:
        return None
    best = min(cells, key=lambda a: (abs(a.center.x - mid), a.section, a.item))
    return best.index_path


def _label(a: Attributes) -> str:
    if a.kind == "cell":
        return str(a.item)
    return f"{a.kind[0].upper()}{a.section}"


def _card_row(a: Attributes, origin_x: float, width: int) -> str:
    """The element's frame drawn to scale: ``[===3===]``, cut off with no
    bracket where the viewport edge clips it."""
    row = [" "] * width
    c0, c1 = _column(a.frame.x - origin_x), _column(a.frame.max_x - origin_x)
    lo, hi = max(c0, 0), min(c1, width)
    if hi <= lo:
        return "".join(row)
    for c in range(lo, hi):
        row[c] = "="
    if c0 >= 0:
        row[c0] = "["
    if c1 <= width:
        row[c1 - 1] = "]"
    # The label goes at the card's middle, slid inside the visible part.
    label = _label(a)
    inner_lo, inner_hi = lo + (c0 >= 0), hi - (c1 <= width)
    if inner_hi - inner_lo >= len(label):
        start = min(max((c0 + c1 - len(label)) // 2, inner_lo), inner_hi - len(label))
        row[start : start + len(label)] = label
    return "".join(row)


def render(
    step: int,
    title: str,
    picture: Picture,
    notes: Sequence[str] = (),
    extra: Sequence[Tuple[str, Attributes, str]] = (),
) -> List[str]:
    """A text picture of the viewport: a header, any notes, a ruler in
    viewport points, and one to-scale line per visible element (the
    centred card marked ``*``). ``extra`` adds rows ``(mark, attributes,
    note)`` after them, such as the appearing (``+``) and disappearing
    (``-``) elements of a batch update."""
    assert picture.bounds is not None and picture.content_size is not None
    bounds = picture.bounds
    width = _column(bounds.width)
    centred = picture.centered_item if picture.centered_item is not None else _nearest_item(picture)
    size = picture.content_size
    lines = [
        f"[{step}] {title:<22} bounds.x={_num(bounds.x):<6} "
        f"contentSize={_num(size.width)}x{_num(size.height)}  "
        f"centredItem={'-' if centred is None else centred.item}"
    ]
    lines += [f"    {n}" for n in notes]
    labels = [" "] * (width + 1)
    for c in range(0, width + 1, 20):
        text = _num(c * PT_PER_COLUMN)
        labels[c : c + len(text)] = text
    lines.append("       " + "".join(labels).rstrip() + f"   (pt; {_num(PT_PER_COLUMN)} pt/column)")
    mid = _column(bounds.width / 2 - PT_PER_COLUMN / 2)
    ruler = "".join("^" if c == mid else "+" if c % 10 == 0 else "-" for c in range(width))
    lines.append(f"      |{ruler}|")
    for a in picture.elements():
        mark = "*" if a.kind == "cell" and centred == a.index_path else " "
        lines.append(
            f"  {mark}{_label(a):>2} |{_card_row(a, bounds.x, width)}|"
            f"  scale {a.scale:.2f}  alpha {a.alpha:.2f}  z {a.z_index}"
        )
    for mark, a, note in extra:
        lines.append(
            f"  {mark}{_label(a):>2} |{_card_row(a, bounds.x, width)}|"
            f"  scale {a.scale:.2f}  alpha {a.alpha:.2f}  z {a.z_index}  {note}".rstrip()
        )
    return lines


def _span(a: Attributes) -> str:
    return f"x={_num(a.frame.x)}..{_num(a.frame.max_x)}"


def _trajectory_summary(plan: SnapPlan) -> str:
    """``218 samples, one every 16.7 ms, over 3616.7 ms: x=230, 252.6, 274.5, …, 919.5, 920``"""
    xs = [_num(p.x) for p in plan.trajectory]
    shown = ", ".join(xs) if len(xs) <= 6 else ", ".join(xs[:3] + ["..."] + xs[-2:])
    n = len(xs)
    every = f", one every {_num(plan.frame_interval_ms)} ms" if n > 1 else ""
    return f"trajectory: {n} sample{'s' if n != 1 else ''}{every}, over {_num(plan.duration_ms)} ms: x={shown}"


def _moves(batch: BatchResult) -> str:
    parts = []
    for m in sorted(batch.moved, key=lambda m: m.key.document_order()):
        name = str(m.item) if m.from_path == m.index_path else f"{m.from_path.item}->{m.item}"
        parts.append(f"{name} (x={_num(m.from_frame.x)} -> {_num(m.frame.x)})")
    return "moved: " + (", ".join(parts) if parts else "none")


def demo(daemon: Optional[str] = None, out: Optional[IO[str]] = None) -> int:
    """Drags the seeds' carousel, lets go gently (it snaps back), flings it
    (printing the daemon's snap plan and animating along its trajectory),
    inserts a card at the centre, scrolls to it, and deletes it again,
    printing the viewport after each step."""
    out = out or sys.stdout
    session = "demo"
    step = 0
    picture = Picture()

    def show(
        title: str, notes: Sequence[str] = (), extra: Sequence[Tuple[str, Attributes, str]] = ()
    ) -> None:
        nonlocal step
        step += 1
        if step > 1:
            print(file=out)
        print("\n".join(render(step, title, picture, notes, extra)), file=out)

    def centred() -> int:
        c = picture.centered_item if picture.centered_item is not None else _nearest_item(picture)
        return 0 if c is None else c.item

    with Client(daemon) as client:
        info = client.server_info
        print(
            f"{info.get('name', 'flowlayoutd')} {info.get('version', '?')}: cover flow, "
            f"10 cards 200x300 pt, spacing 30, scale factor 0.5, viewport "
            f"{_num(DEMO_VIEWPORT.width)}x{_num(DEMO_VIEWPORT.height)}; * marks the centred card",
            file=out,
        )
        print(file=out)
        picture.apply_open(client.open(session, DEMO_LAYOUT, DEMO_VIEWPORT, DEMO_SECTIONS))
        show("open")

        for x in DEMO_DRAG:
            picture.apply(client.set_bounds(session, DEMO_VIEWPORT.with_origin(x, 0)))
            show(f"drag to x={_num(x)}")

        # The finger lifts without velocity: the layout picks the card to rest on.
        here = Point(DEMO_DRAG[-1], 0)
        snap = client.scroll_ended(session, here, Point(0, 0))
        target = snap.target_content_offset
        picture.apply(client.set_bounds(session, DEMO_VIEWPORT.with_origin(target.x, target.y)))
        show(
            "release (v=0), snap",
            [
                f"scrollEnded at x={_num(here.x)}, velocity 0 -> targetContentOffset "
                f"x={_num(target.x)} (item {_item(snap.target_item)})",
                f"plan: policy {snap.policy}, projected x={_num(snap.projected_content_offset.x)}, "
                f"settles in {_num(snap.duration_ms)} ms",
                _trajectory_summary(snap),
            ],
        )

        # A fling: the daemon projects where UIKit's deceleration would stop,
        # snaps that to a card and plans the motion there.
        start = target
        v = DEMO_FLING_VELOCITY
        plan = client.scroll_ended(session, start, Point(v, 0))
        target = plan.target_content_offset
        notes = [
            f"scrollEnded at x={_num(start.x)}, velocity {_num(v)} pt/ms -> policy {plan.policy}",
            f"projectedContentOffset x={_num(start.x)} + {_num(v)}*r/(1-r) = "
            f"{_num(plan.projected_content_offset.x)} (r = {DECELERATION_RATE}/ms)",
            f"targetContentOffset x={_num(target.x)} (item {_item(plan.target_item)}), "
            f"durationMs {_num(plan.duration_ms)}",
            _trajectory_summary(plan),
            f"animation: setBounds at every {DEMO_ANIMATION_STRIDE}th sample and the last",
        ]
        times = plan.sample_times_ms()
        last = len(plan.trajectory) - 1
        for i in sorted(set(range(0, last, DEMO_ANIMATION_STRIDE)) | {last}):
            p = plan.trajectory[i]
            moved = client.set_bounds(session, DEMO_VIEWPORT.with_origin(p.x, p.y))
            picture.apply(moved)
            notes.append(
                f"  t={_num(times[i]):>6} ms  x={_num(p.x):<6} centredItem={_item(moved.centered_item)}"
                f"  ({len(moved.invalidated)} invalidated, {len(moved.removed)} removed)"
            )
        show(f"fling v={_num(v)} pt/ms", notes)

        # An insert at the centred index: the new card appears (fading in
        # from alpha 0) and the view stays anchored on the card that was
        # centred, which moves up one index.
        at = centred()
        batch = client.perform_batch_updates(session, {"insertItems": [{"section": 0, "item": at}]})
        picture.apply(batch)
        show(
            f"insert at item {at}",
            [
                f"performBatchUpdates insertItems [0-{at}] -> bounds.x={_num(batch.bounds.x)}, "
                f"anchored on the centred card, now item {_item(batch.centered_item)}",
                "appearing: "
                + (", ".join(f"{a.item} at {_span(a)}, alpha {_num(a.alpha)}" for a in batch.appearing)
                   or "none"),
                _moves(batch),
            ],
            [("+", a, "appearing") for a in batch.appearing],
        )

        # Bring the new card to the centre.
        offset = client.scroll_to_item(session, 0, at)
        picture.apply(client.set_bounds(session, DEMO_VIEWPORT.with_origin(offset.x, offset.y)))
        show(
            f"scrollToItem {at}",
            [f"scrollToItem item {at} (center) -> contentOffset x={_num(offset.x)}, then setBounds"],
        )

        # Delete the centred card: it fades out and the next takes its place.
        at = centred()
        batch = client.perform_batch_updates(session, {"deleteItems": [{"section": 0, "item": at}]})
        picture.apply(batch)
        show(
            f"delete item {at}",
            [
                f"performBatchUpdates deleteItems [0-{at}] -> bounds.x={_num(batch.bounds.x)}, "
                f"centredItem={_item(batch.centered_item)} (the next card takes its place)",
                "disappearing: "
                + (", ".join(f"{a.item} at {_span(a)}, alpha {_num(a.alpha)}" for a in batch.disappearing)
                   or "none"),
                _moves(batch),
            ],
            [("-", a, "disappearing") for a in batch.disappearing],
        )
        client.close(session)
    return 0


def _item(p: Optional[IndexPath]) -> str:
    return "-" if p is None else str(p.item)


# MARK: replay


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not JSON")


def _prepare(line: str) -> Tuple[bytes, Any]:
    """The body to send for one script line, and the parsed message (None
    when the line is not JSON: it is sent verbatim, so scripts can test
    the daemon's parse errors). A message missing ``jsonrpc`` gets "2.0"
    and is re-encoded; any other line is sent byte for byte."""
    try:
        message = json.loads(line, parse_constant=_reject_constant)
    except ValueError:
        return line.encode(), None
    changed = False
    targets = message if isinstance(message, list) else [message]
    for m in targets:
        if isinstance(m, dict) and "jsonrpc" not in m:
            m["jsonrpc"] = "2.0"
            changed = True
    if changed:
        try:
            return dumps(message), message
        except ValueError:  # a number Python cannot round-trip, such as 1e400
            pass
    return line.encode(), message


def _canonical(body: bytes) -> str:
    try:
        value = json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _read_script(script: IO[str]) -> Tuple[List[bytes], List[Any]]:
    """The bodies to send, one per non-blank line, and the parsed messages
    (None for lines that are not JSON)."""
    frames: List[bytes] = []
    messages: List[Any] = []
    for raw in script:
        line = raw.strip()
        if not line:
            continue
        body, message = _prepare(line)
        frames.append(body)
        messages.append(message)
    return frames, messages


def _run_script(
    command: str,
    frames: Sequence[bytes],
    first: Any,
    daemon: Optional[str],
    initialize: bool,
    on_response: Callable[[bytes], None],
    on_initialize: Optional[Callable[[Mapping[str, Any]], None]] = None,
) -> int:
    """Sends the frames to a fresh daemon (after ``initialize`` unless the
    script starts with it or ``initialize`` is false) and hands every body
    the daemon writes to ``on_response``, until it closes its output (at
    ``exit``, or at the end of the script, when its input is closed). The
    result of our own ``initialize`` goes to ``on_initialize``."""
    starts_with_initialize = isinstance(first, dict) and first.get("method") == "initialize"
    process = spawn(daemon, stderr=None)  # the daemon's diagnostics go to our stderr
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    try:
        if initialize and not starts_with_initialize:
            init = {"jsonrpc": "2.0", "id": f"{command}:init", "method": "initialize", "params": {}}
            done = {"jsonrpc": "2.0", "method": "initialized", "params": {}}
            stdin.write(encode_frame(dumps(init)) + encode_frame(dumps(done)))
            stdin.flush()
            answer = read_frame(stdout)
            if answer is None or "error" in json.loads(answer):
                why = _canonical(answer) if answer else "no response"
                print(f"flowlayout {command}: initialize failed: {why}", file=sys.stderr)
                return 1
            if on_initialize is not None:
                on_initialize(json.loads(answer).get("result") or {})

        def write_all() -> None:
            # A thread, so that a long script and long answers cannot
            # deadlock with both sides blocked on full pipes.
            try:
                for body in frames:
                    stdin.write(encode_frame(body))
                stdin.close()
            except (BrokenPipeError, ValueError):
                pass  # the daemon exited mid-script (an `exit` line)

        writer = threading.Thread(target=write_all, name=f"{command}-writer", daemon=True)
        writer.start()
        while True:
            response = read_frame(stdout)
            if response is None:
                break
            on_response(response)
        writer.join()
    finally:
        # Closing stdout too means a daemon still writing (after an error
        # here) gets EPIPE and exits instead of blocking forever.
        for stream in (stdin, stdout):
            try:
                stream.close()
            except OSError:
                pass
        code = process.wait()
    if code < 0:
        print(f"flowlayout {command}: flowlayoutd died of signal {-code}", file=sys.stderr)
        return 1
    return 0


def replay(
    script: IO[str],
    daemon: Optional[str] = None,
    initialize: bool = True,
    out: Optional[IO[str]] = None,
) -> int:
    """Sends a JSONL script to a fresh daemon and prints every response it
    writes, one compact sorted-key JSON line each, until the daemon closes
    its output (at ``exit``, or at the end of the script, when the client
    closes the daemon's input)."""
    sink = out or sys.stdout
    frames, messages = _read_script(script)

    def show(response: bytes) -> None:
        print(_canonical(response), file=sink, flush=True)

    return _run_script("replay", frames, messages[0] if messages else None, daemon, initialize, show)


# MARK: render

def _picture_effects(result: Any) -> Dict[str, str]:
    """What each method's answer does to the picture (``open``, ``delta``
    or ``none``), from ``initialize``'s ``capabilities.methodTable``: the
    daemon's one table of methods, so that no list here can go stale."""
    table = result.get("capabilities", {}).get("methodTable") if isinstance(result, Mapping) else None
    effects: Dict[str, str] = {}
    for m in table if isinstance(table, list) else []:
        if isinstance(m, Mapping) and isinstance(m.get("name"), str):
            effects[m["name"]] = str(m.get("picture", "none"))
    return effects


class _SessionView:
    """What the client knows of one session from the script's answers."""

    def __init__(self) -> None:
        self.picture = Picture()
        self.layout: Dict[str, Any] = {}
        self.content_inset: Mapping[str, Any] = {}

    def content_origin(self) -> Point:
        """(0, 0), but W − contentSize.width across in right-to-left
        horizontal layouts (protocol.md, flow geometry rule 10)."""
        picture = self.picture
        if picture.bounds is None or picture.content_size is None:
            return Point(0, 0)
        default = "horizontal" if self.layout.get("type") == "coverFlow" else "vertical"
        horizontal = self.layout.get("scrollDirection", default) == "horizontal"
        if self.layout.get("layoutDirection") != "rtl" or not horizontal:
            return Point(0, 0)
        inset = self.content_inset

        def side(name: str) -> float:
            v = inset.get(name, 0) if isinstance(inset, Mapping) else 0
            return float(v) if isinstance(v, (int, float)) else 0.0

        w = picture.bounds.width - side("left") - side("right")
        return Point(w - picture.content_size.width, 0)


def _id_key(value: Any) -> str:
    """A request id as a dict key that keeps 1 and "1" apart."""
    return json.dumps(value, sort_keys=True)


def render_script(
    script: IO[str],
    out_path: str,
    daemon: Optional[str] = None,
    initialize: bool = True,
    session: Optional[str] = None,
    out: Optional[IO[str]] = None,
    fmt: Optional[str] = None,
    scale: float = 1.0,
) -> int:
    """Runs a JSONL session script (as ``replay`` does) against a fresh
    daemon, keeps the client's picture of each session from the answers to
    ``layout/open`` and the methods that change a session, and draws the
    final viewport of ``session`` (default: the session of the last such
    answer) to ``out_path`` (``-``: standard output): as SVG, or as PNG
    when ``fmt`` is ``"png"`` (by default, when the path ends in .png;
    PNG needs Pillow, which ``make install`` installs; without it the
    error names the pip command for this Python). ``scale`` is pixels per
    point (PNG) or the SVG's size per point: 2 for crisp pictures in docs."""
    if not (isinstance(scale, (int, float)) and math.isfinite(scale) and 0 < scale <= MAX_RENDER_SCALE):
        print(f"flowlayout render: --scale must be a number > 0 and <= {MAX_RENDER_SCALE:g}, got {scale!r}",
              file=sys.stderr)
        return 2
    sink = out or sys.stdout
    frames, messages = _read_script(script)

    # Requests by id, in order: the daemon answers in order, so the first
    # pending request with an id is the one an answer with that id is for.
    pending: Dict[str, Deque[Tuple[str, Mapping[str, Any]]]] = {}
    for message in messages:
        for m in message if isinstance(message, list) else [message]:
            if not isinstance(m, dict) or "id" not in m or not isinstance(m.get("method"), str):
                continue
            params = m.get("params")
            entry = (m["method"], params if isinstance(params, Mapping) else {})
            pending.setdefault(_id_key(m["id"]), deque()).append(entry)

    views: Dict[str, _SessionView] = {}
    last: List[str] = []
    failures: List[str] = []
    effects: Dict[str, str] = {}

    def learn(result: Mapping[str, Any]) -> None:
        effects.update(_picture_effects(result))

    def handle(response: Any) -> None:
        if not isinstance(response, dict) or "id" not in response:
            return
        queue = pending.get(_id_key(response["id"]))
        if not queue:
            return  # id null, or an answer to our own initialize
        method, params = queue.popleft()
        if "error" in response:
            failures.append(f"{method}: {json.dumps(response['error'], sort_keys=True)}")
            return
        result = response.get("result")
        if method == "initialize":
            learn(result)  # the script's own initialize
            return
        name = params.get("session")
        effect = effects.get(method, "none")
        if effect == "none" or not isinstance(name, str) or not isinstance(result, dict):
            return
        if effect == "open":
            view = views[name] = _SessionView()
            view.layout = dict(params.get("layout") or {})
            view.content_inset = params.get("contentInset") or {}
        else:
            view = views.setdefault(name, _SessionView())
            if "layout" in params or "contentInset" in params:  # a reconfiguration
                changes = params.get("layout")
                if isinstance(changes, Mapping):
                    new_type = changes.get("type")
                    if new_type is not None and new_type != view.layout.get("type"):
                        view.layout = dict(changes)  # a new type starts from its defaults
                    else:
                        view.layout.update(changes)
                if "contentInset" in params:
                    view.content_inset = params["contentInset"] or {}
            if view.picture.bounds is None:
                return  # no picture to patch: the open was not in the script
        view.picture.apply(result)
        last.append(name)

    def on_response(body: bytes) -> None:
        try:
            value = json.loads(body)
        except ValueError:
            return
        for response in value if isinstance(value, list) else [value]:
            handle(response)

    code = _run_script("render", frames, messages[0] if messages else None, daemon, initialize,
                       on_response, on_initialize=learn)
    if code != 0:
        return code
    if failures:
        print(
            f"flowlayout render: {len(failures)} request(s) failed; the first: {failures[0]}",
            file=sys.stderr,
        )
    chosen = session if session is not None else (last[-1] if last else None)
    view = views.get(chosen) if chosen is not None else None
    if view is None or view.picture.bounds is None:
        what = f"session {chosen!r} has no picture" if chosen is not None else "no session was opened"
        print(f"flowlayout render: {what} (a layout/open answer is needed)", file=sys.stderr)
        return 1
    if fmt is None:
        fmt = "png" if out_path.lower().endswith(".png") else "svg"
    if fmt == "png":
        try:
            drawn: Union[str, bytes] = picture_png(view.picture, content_origin=view.content_origin(),
                                                   scale=scale)
        except PNGUnavailable as e:
            print(f"flowlayout render: {e}", file=sys.stderr)
            return 2
    else:
        drawn = picture_svg(view.picture, title=f"flowlayout session {chosen}",
                            content_origin=view.content_origin(), scale=scale)
    if out_path == "-":
        if isinstance(drawn, bytes):
            sink.flush()
            getattr(sink, "buffer", sys.stdout.buffer).write(drawn)
        else:
            sink.write(drawn)
        sink.flush()
    else:
        if isinstance(drawn, bytes):
            with open(out_path, "wb") as b:
                b.write(drawn)
        else:
            with open(out_path, "w", encoding="utf-8") as f:
                f.write(drawn)
        picture = view.picture
        assert picture.bounds is not None
        c = picture.centered_item
        print(
            f"flowlayout render: wrote {out_path}: session {chosen!r}, {len(picture)} elements, "
            f"bounds x={_num(picture.bounds.x)} y={_num(picture.bounds.y)} "
            f"{_num(picture.bounds.width)}x{_num(picture.bounds.height)}, centred item "
            f"{'-' if c is None else f'{c.section}-{c.item}'}",
            file=sink,
        )
    return 0


# MARK: main


def _parser() -> argparse.ArgumentParser:
    daemon = argparse.ArgumentParser(add_help=False)
    daemon.add_argument(
        "--daemon", metavar="PATH", help="flowlayoutd to run (default: $FLOWLAYOUTD, .build/, PATH)"
    )
    parser = argparse.ArgumentParser(
        prog="flowlayout",
        description="A cover-flow demo, a JSON-RPC replayer, an SVG renderer and a web client "
        "for flowlayoutd."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    # The descriptions are the commands' own words for a terminal: plain
    # text, naming options as they are typed (the functions' docstrings
    # are for the API).
    sub.add_parser(
        "demo", parents=[daemon], help="scroll and fling the seeds' cover-flow carousel",
        description="Drags the seeds' carousel, lets go gently (it snaps back), flings it "
        "(printing the daemon's snap plan and animating along its trajectory), inserts a card "
        "at the centre, scrolls to it and deletes it again, printing the viewport after each step.",
    )
    r = sub.add_parser(
        "replay", parents=[daemon], help="send a JSONL script of messages, print the responses",
        description="Sends a JSONL script (one JSON message per line) to a fresh daemon and "
        "prints every response it writes, one compact JSON line each, until the daemon closes "
        "its output (at exit, or at the end of the script).",
    )
    r.add_argument("script", metavar="SCRIPT.jsonl", help="one JSON message per line; - for stdin")
    r.add_argument(
        "--no-initialize", action="store_true",
        help="do not send initialize first (to test the uninitialized server)",
    )
    rd = sub.add_parser(
        "render", parents=[daemon],
        help="run a JSONL session script, draw the final viewport as SVG or PNG",
        description="Runs a JSONL session script (as replay does) against a fresh daemon, keeps "
        "the client's picture of each session from the answers, and draws the final viewport of "
        "--session (default: the session of the last answer that changed a picture) as SVG or "
        "PNG to --out (- for standard output).",
    )
    rd.add_argument(
        "--session-script", required=True, metavar="SCRIPT.jsonl",
        help="one JSON request or notification per line (as replay); - for stdin",
    )
    rd.add_argument(
        "--out", required=True, metavar="VIEW.svg",
        help="the picture to write (SVG, or PNG for a .png path); - for stdout",
    )
    rd.add_argument(
        "--format", choices=["svg", "png"], default=None,
        help="svg or png (default: png for a .png path, else svg); "
        "png needs Pillow (make install installs it; else flowlayout render names the pip command)",
    )
    rd.add_argument(
        "--scale", type=float, default=1.0, metavar="S",
        help=f"pixels per point (default 1; 2 for crisp pictures in docs; at most {MAX_RENDER_SCALE:g})",
    )
    rd.add_argument(
        "--session", metavar="NAME",
        help="the session to draw (default: the one of the last answer that changed a picture)",
    )
    rd.add_argument(
        "--no-initialize", action="store_true", help="do not send initialize first",
    )
    w = sub.add_parser(
        "web", parents=[daemon], help="serve the web client on 127.0.0.1, bridged to the daemon",
        description="Serves the web client (clients/web) on 127.0.0.1 and relays its JSON-RPC "
        "messages (POST /rpc) to one flowlayoutd, which it spawns, initializes and shuts down.",
    )
    web.add_arguments(w)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            return demo(args.daemon)
        if args.command == "web":
            if args.screenshot:
                try:
                    window = web._window(args.window)
                except ValueError as e:
                    print(f"flowlayout web: {e}", file=sys.stderr)
                    return 2
                return web.screenshot(args.screenshot, args.url_state, args.daemon, args.root, window)
            if args.url_state:
                print("flowlayout web: --url-state goes with --screenshot (open the URL with it after #)",
                      file=sys.stderr)
                return 2
            return web.serve(args.port, args.daemon, args.root, args.verbose)
        if args.command == "render":
            initialize = not args.no_initialize
            if args.session_script == "-":
                return render_script(sys.stdin, args.out, args.daemon, initialize, args.session,
                                     fmt=args.format, scale=args.scale)
            with open(args.session_script, encoding="utf-8") as script:
                return render_script(script, args.out, args.daemon, initialize, args.session,
                                     fmt=args.format, scale=args.scale)
        if args.script == "-":
            return replay(sys.stdin, args.daemon, initialize=not args.no_initialize)
        with open(args.script, encoding="utf-8") as script:
            return replay(script, args.daemon, initialize=not args.no_initialize)
    except BrokenPipeError:
        # Our reader went away (`flowlayout demo | head`): not an error worth
        # a traceback. Point stdout at /dev/null so the final flush is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except DaemonNotFound as e:
        print(f"flowlayout: {e}", file=sys.stderr)
        return 2
    except (RPCError, DaemonError, ProtocolError, OSError) as e:
        print(f"flowlayout {args.command}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
