"""The ``flowlayout`` command: a cover-flow demo, a JSON-RPC replayer and the
web client's bridge."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import threading
from typing import IO, Any, List, Optional, Sequence, Tuple

from . import web
from .client import Client, DaemonError, RPCError
from .model import Attributes, IndexPath, Point, Rect
from .picture import Picture
from .wire import DaemonNotFound, ProtocolError, dumps, encode_frame, read_frame, spawn

__all__ = ["main", "demo", "replay", "project_offset"]

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

#: UIScrollView.DecelerationRate.normal: the speed kept after each ms.
DECELERATION_RATE = 0.998
PT_PER_COLUMN = 5.0


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


def render(step: int, title: str, picture: Picture, notes: Sequence[str] = ()) -> List[str]:
    """A text picture of the viewport: a header, any notes, a ruler in
    viewport points, and one to-scale line per visible element."""
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
    return lines


def demo(daemon: Optional[str] = None, out: Optional[IO[str]] = None) -> int:
    """Drags the seeds' carousel, lets go gently, then flings it, printing
    the viewport after each step."""
    out = out or sys.stdout
    session = "demo"
    step = 0
    picture = Picture()

    def show(title: str, notes: Sequence[str] = ()) -> None:
        nonlocal step
        step += 1
        if step > 1:
            print(file=out)
        print("\n".join(render(step, title, picture, notes)), file=out)

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
                f"x={_num(target.x)} (item {_item(snap.target_item)})"
            ],
        )

        # A fling: the client projects where deceleration would stop, as
        # UIScrollView does before asking the layout for a target.
        start = target
        v = DEMO_FLING_VELOCITY
        proposed = Point(project_offset(start.x, v), start.y)
        fling = client.scroll_ended(session, start, Point(v, 0), proposed)
        target = fling.target_content_offset
        picture.apply(client.set_bounds(session, DEMO_VIEWPORT.with_origin(target.x, target.y)))
        show(
            f"fling v={_num(v)} pt/ms",
            [
                f"lift at x={_num(start.x)}; deceleration {DECELERATION_RATE}/ms projects "
                f"x={_num(start.x)} + {_num(v)}*r/(1-r) = {_num(proposed.x)}",
                f"scrollEnded -> targetContentOffset x={_num(target.x)} "
                f"(item {_item(fling.target_item)})",
            ],
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
    out = out or sys.stdout
    frames: List[bytes] = []
    first: Any = None
    for raw in script:
        line = raw.strip()
        if not line:
            continue
        body, message = _prepare(line)
        if not frames:
            first = message
        frames.append(body)
    starts_with_initialize = isinstance(first, dict) and first.get("method") == "initialize"

    process = spawn(daemon, stderr=None)  # the daemon's diagnostics go to our stderr
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    try:
        if initialize and not starts_with_initialize:
            init = {"jsonrpc": "2.0", "id": "replay:init", "method": "initialize", "params": {}}
            done = {"jsonrpc": "2.0", "method": "initialized", "params": {}}
            stdin.write(encode_frame(dumps(init)) + encode_frame(dumps(done)))
            stdin.flush()
            answer = read_frame(stdout)
            if answer is None or "error" in json.loads(answer):
                why = _canonical(answer) if answer else "no response"
                print(f"flowlayout replay: initialize failed: {why}", file=sys.stderr)
                return 1

        def write_all() -> None:
            # A thread, so that a long script and long answers cannot
            # deadlock with both sides blocked on full pipes.
            try:
                for body in frames:
                    stdin.write(encode_frame(body))
                stdin.close()
            except (BrokenPipeError, ValueError):
                pass  # the daemon exited mid-script (an `exit` line)

        writer = threading.Thread(target=write_all, name="replay-writer", daemon=True)
        writer.start()
        while True:
            response = read_frame(stdout)
            if response is None:
                break
            print(_canonical(response), file=out, flush=True)
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
        print(f"flowlayout replay: flowlayoutd died of signal {-code}", file=sys.stderr)
        return 1
    return 0


# MARK: main


def _parser() -> argparse.ArgumentParser:
    daemon = argparse.ArgumentParser(add_help=False)
    daemon.add_argument(
        "--daemon", metavar="PATH", help="flowlayoutd to run (default: $FLOWLAYOUTD, .build/, PATH)"
    )
    parser = argparse.ArgumentParser(
        prog="flowlayout",
        description="A cover-flow demo, a JSON-RPC replayer and a web client for flowlayoutd."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    sub.add_parser(
        "demo", parents=[daemon], help="scroll and fling the seeds' cover-flow carousel",
        description=demo.__doc__,
    )
    r = sub.add_parser(
        "replay", parents=[daemon], help="send a JSONL script of messages, print the responses",
        description=replay.__doc__,
    )
    r.add_argument("script", metavar="SCRIPT.jsonl", help="one JSON message per line; - for stdin")
    r.add_argument(
        "--no-initialize", action="store_true",
        help="do not send initialize first (to test the uninitialized server)",
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
            return web.serve(args.port, args.daemon, args.root, args.verbose)
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
