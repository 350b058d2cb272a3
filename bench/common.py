"""The harness every area shares: paths and repetition counts, statistics,
framing, the daemon and floor servers, the workloads and the machine."""

from __future__ import annotations

import array
import base64
import datetime
import gc
import json
import math
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, ".build")
DAEMON = os.environ.get("BENCH_DAEMON", os.path.join(BUILD, "release", "flowlayoutd"))
ENGINE = os.environ.get("BENCH_ENGINE", os.path.join(BUILD, "release", "flowlayout-bench"))
FLOOR = os.environ.get("BENCH_FLOOR", os.path.join(BUILD, "bench", "floor"))
PEERS_DIR = os.path.join(BUILD, "bench-peers")
LOG_DIR = os.path.join(BUILD, "bench")
RESULTS_JSON = os.path.join(ROOT, "bench", "results.json")
#: docs/performance.md: bench/notes.md with the report in place of REPORT_MARK.
PERFORMANCE_MD = os.path.join(ROOT, "docs", "performance.md")
NOTES_MD = os.path.join(ROOT, "bench", "notes.md")
REPORT_MARK = "<!-- the report of bench/results.json goes here -->"

QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
SEED = 7
# The bulk path's chunk, the Python client's; a lower
# maxItemValuesPerRequest reported by initialize is used instead (Wire.chunk).
DEFAULT_CHUNK = 2048

# The cover-flow carousel: the seed's scale factor 0.5, variable card sizes,
# spacing 10, in a 960x200 viewport: 10 to 12 cards visible, each changing
# scale on every frame.
CF_VIEW_W, CF_VIEW_H = 960.0, 200.0
CF_LAYOUT = {"type": "coverFlow", "minimumLineSpacing": 10, "scale": {"factor": 0.5}}
CF_W, CF_H = (60, 100), (90, 150)
CF_STEP = 13.7  # points per setBounds frame (about 820 pt/s at 60 Hz)
FLING = 8.0  # pt/ms: projects 499*8 = 3992 pt, across about 44 cards
# The vertical flow grid: variable sizes in a 375x300 viewport (10 to 12
# cells visible).
GRID_VIEW_W, GRID_VIEW_H = 375.0, 300.0
GRID_LAYOUT = {"type": "flow", "minimumLineSpacing": 10, "minimumInteritemSpacing": 10}
GRID_W, GRID_H = (90, 130), (70, 100)
GRID_STEP = 37.3

# Repetitions (blocks of ping-pong round trips; the floor and the daemon
# alternate block by block).
if QUICK:
    WARMUP, BLOCKS, BLOCK = 50, 2, 200
    QUERY_N, FLING_N = 400, 200
    PIPE_RUNS, PIPE_K = 1, 1000
    BATCH_MIN, BATCH_MAX, BATCH_BUDGET_S = 3, 20, 0.5
    COLD_RUNS = 5
    ENGINE_RUNS = 1
    PEER_REPS_MAX, PEER_BUDGET_S = 5, 0.5
    QUEUED_WARMUP, QUEUED_REPS = 3, 20
else:
    WARMUP, BLOCKS, BLOCK = 300, 6, 1000
    QUERY_N, FLING_N = 3000, 1500
    PIPE_RUNS, PIPE_K = 3, 5000
    BATCH_MIN, BATCH_MAX, BATCH_BUDGET_S = 10, 200, 3.0
    COLD_RUNS = 20
    ENGINE_RUNS = 3
    PEER_REPS_MAX, PEER_BUDGET_S = 100, 2.0
    QUEUED_WARMUP, QUEUED_REPS = 5, 100


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- statistics


def summary(ns: list[int] | list[float]) -> dict:
    """p50 and p99 (nearest rank) of samples in nanoseconds, in µs."""
    s = sorted(ns)
    k = len(s)
    p99 = s[max(0, math.ceil(0.99 * k) - 1)]
    return {
        "samples": k,
        "p50_us": statistics.median(s) / 1e3,
        "p99_us": p99 / 1e3,
        "mean_us": sum(s) / k / 1e3,
        "min_us": s[0] / 1e3,
        "max_us": s[-1] / 1e3,
    }


def fmt(x: float | None) -> str:
    if x is None:
        return "—"
    if x != x:
        return "nan"
    a = abs(x)
    if a >= 10000:
        return f"{x:,.0f}"
    if a >= 100:
        return f"{x:.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def label(n: int) -> str:
    k = round(math.log10(n)) if n > 0 else 0
    return f"1e{k}" if 10**k == n else str(n)


# ---------------------------------------------------------------- framing


def callgrind_total(path: str) -> int:
    """The instructions a callgrind output file counts in all, the file
    then removed."""
    with open(path) as f:
        total = next(int(line.split()[1]) for line in f if line.startswith(("summary:", "totals:")))
    os.remove(path)
    return total


def frame(obj) -> bytes:
    body = json.dumps(obj, separators=(",", ":")).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(id_, method, params) -> bytes:
    return frame({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})


def is_result(body: bytes) -> bool:
    # {"jsonrpc":"2.0","id":N,"result":...}: the member after the id.
    return body.find(b'"result":', 0, 64) >= 0


class Server:
    """A server on the other end of two pipes: flowlayoutd or the floor."""

    def __init__(self, argv: list[str], name: str, env: dict | None = None):
        os.makedirs(LOG_DIR, exist_ok=True)
        self.name = name
        self.err = open(os.path.join(LOG_DIR, f"{name}.stderr"), "ab")
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, bufsize=0, env=env
        )
        self.w = self.proc.stdin.fileno()
        self.r = self.proc.stdout.fileno()
        self.buf = b""
        self.next_id = 1

    def send(self, data: bytes) -> None:
        if len(data) < 65536:
            n = os.write(self.w, data)
            if n == len(data):
                return
            data = data[n:]
        view = memoryview(data)
        while view:
            n = os.write(self.w, view)
            view = view[n:]

    def recv(self) -> bytes:
        buf = self.buf
        while True:
            i = buf.find(b"\r\n\r\n")
            if i >= 0:
                break
            chunk = os.read(self.r, 65536)
            if not chunk:
                raise EOFError(f"{self.name} closed its output")
            buf += chunk
        if buf.startswith(b"Content-Length: "):
            n = int(buf[16:i])
        else:
            m = re.search(rb"(?i)content-length:\s*(\d+)", buf[:i])
            n = int(m.group(1))
        end = i + 4 + n
        if len(buf) < end:
            parts = [buf]
            have = len(buf)
            while have < end:
                chunk = os.read(self.r, max(65536, end - have))
                if not chunk:
                    raise EOFError(f"{self.name} closed its output")
                parts.append(chunk)
                have += len(chunk)
            buf = b"".join(parts)
        body = buf[i + 4 : end]
        self.buf = buf[end:]
        return body

    def call(self, method: str, params=None):
        """An untimed request; returns the result or raises on an error."""
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(frame(msg))
        answer = json.loads(self.recv())
        if "error" in answer:
            raise RuntimeError(f"{self.name} {method}: {answer['error']}")
        return answer.get("result")

    def notify(self, method: str, params=None) -> None:
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(frame(msg))

    def settled_status(self) -> dict:
        """status() as a user reads it after a load: 50 ms after the last
        answer, with no further message (the daemon gives a bulk message's
        memory back once its answer is written, when nothing waits)."""
        time.sleep(0.05)
        return self.status()

    def status(self) -> dict:
        """VmRSS and VmHWM in bytes."""
        out = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value = line.split(":", 1)
                    out[key] = int(value.split()[0]) * 1024
        return out

    def close(self) -> None:
        try:
            self.call("shutdown")
            self.notify("exit")
        except (OSError, EOFError, RuntimeError):
            pass
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.err.close()


def daemon(name: str, *flags: str) -> Server:
    """flowlayoutd with its default limits (or `flags`); s.limits is what
    initialize reports."""
    s = Server([DAEMON, *flags], name)
    init = s.call("initialize", {"clientInfo": {"name": "bench"}})
    s.limits = init.get("capabilities", {}).get("limits", {})
    s.notify("initialized", {})
    return s


def floor(name: str) -> Server:
    s = Server([FLOOR], name)
    s.call("initialize", {})
    return s


def pingpong(server: Server, frames: list[bytes], keep_every: int = 0) -> tuple[list[int], list[bytes]]:
    """Times each frame's round trip; returns the samples and a few bodies."""
    samples = []
    kept = []
    clock = time.perf_counter_ns
    send, recv = server.send, server.recv
    errors = 0
    for k, f in enumerate(frames):
        t0 = clock()
        send(f)
        body = recv()
        t1 = clock()
        samples.append(t1 - t0)
        if not is_result(body):
            errors += 1
            if errors == 1:
                log(f"  {server.name}: error answer: {body[:300]!r}")
        if keep_every and k % keep_every == 0:
            kept.append(body)
    if errors:
        raise RuntimeError(f"{server.name}: {errors} error answers")
    return samples, kept


def pipelined(server: Server, frames: list[bytes], chunk: int = 32) -> dict:
    """A writer thread sends every frame as fast as the pipe takes them while
    this thread reads the answers: requests per second, first write to last
    answer."""
    blobs = [b"".join(frames[i : i + chunk]) for i in range(0, len(frames), chunk)]
    failure = []

    def writer():
        try:
            for b in blobs:
                server.send(b)
        except OSError as e:
            failure.append(e)

    total = len(frames)
    count = errors = 0
    buf = server.buf
    pos = 0
    r = server.r
    thread = threading.Thread(target=writer)
    t0 = time.perf_counter_ns()
    thread.start()
    while count < total:
        i = buf.find(b"\r\n\r\n", pos)
        if i >= 0:
            n = int(buf[pos + 16 : i])
            end = i + 4 + n
            if end <= len(buf):
                if buf.find(b'"result":', i + 4, i + 68) < 0:
                    errors += 1
                count += 1
                pos = end
                continue
        chunk_ = os.read(r, 65536)
        if not chunk_:
            raise EOFError(f"{server.name} closed its output")
        buf = buf[pos:] + chunk_
        pos = 0
    t1 = time.perf_counter_ns()
    thread.join()
    server.buf = buf[pos:]
    if failure:
        raise failure[0]
    if errors:
        raise RuntimeError(f"{server.name}: {errors} error answers while pipelined")
    return {"requests": total, "seconds": (t1 - t0) / 1e9, "rps": total / ((t1 - t0) / 1e9)}


# ---------------------------------------------------------------- workloads


def sizes(n: int, rng: random.Random, wr, hr) -> list[tuple[int, int]]:
    r = rng.randint
    return [(r(*wr), r(*hr)) for _ in range(n)]


def size_chunks(n: int, rng: random.Random, wr, hr, chunk: int):
    """The n sizes of sizes(n, rng, wr, hr) (the same draws, in the same
    order), `chunk` at a time, as (widths, heights) lists: n = 1e7 never
    lives in the driver as one list."""
    r = rng.randint
    for start in range(0, n, chunk):
        k = min(chunk, n - start)
        ws, hs = [0] * k, [0] * k
        for i in range(k):
            ws[i] = r(*wr)
            hs[i] = r(*hr)
        yield ws, hs


def _frame_body(body: str) -> bytes:
    b = body.encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


def open_frame(id_, session, layout, bounds, ws, hs) -> bytes:
    """layout/open of one section holding these sizes (itemSizes objects,
    the only encoding a section object has)."""
    items = ",".join([f'{{"width":{w},"height":{h}}}' for w, h in zip(ws, hs)])
    head = json.dumps(
        {"session": session, "layout": layout, "bounds": bounds}, separators=(",", ":")
    )[:-1]
    return _frame_body(
        f'{{"jsonrpc":"2.0","id":{id_},"method":"layout/open","params":{head},'
        f'"sections":[{{"itemSizes":[{items}]}}]}}}}'
    )


def packed(ws, hs) -> str:
    """widthsAndHeightsBase64: base64 of little-endian float64 pairs."""
    flat = array.array("d", bytes(16 * len(ws)))
    flat[0::2] = array.array("d", ws)
    flat[1::2] = array.array("d", hs)
    if sys.byteorder != "little":
        flat.byteswap()
    return base64.b64encode(flat.tobytes()).decode("ascii")


def append_frame(id_, session, ws, hs, objects: bool | str = False) -> bytes:
    """layout/appendItems to section 0: packed (widthsAndHeightsBase64, the
    Python client's bulk path), the flat widthsAndHeights, or itemSizes
    objects (objects=True)."""
    if objects == "packed":
        values = f'"widthsAndHeightsBase64":"{packed(ws, hs)}"'
    elif objects is True:
        values = '"itemSizes":[' + ",".join(
            [f'{{"width":{w},"height":{h}}}' for w, h in zip(ws, hs)]) + "]"
    else:
        flat = [0] * (2 * len(ws))
        flat[0::2] = ws
        flat[1::2] = hs
        values = '"widthsAndHeights":[' + ",".join(map(str, flat)) + "]"
    return _frame_body(
        f'{{"jsonrpc":"2.0","id":{id_},"method":"layout/appendItems","params":'
        f'{{"session":{json.dumps(session)},"section":0,{values}}}}}'
    )


def load_bulk(server: Server, ids, session: str, layout: dict, bounds: dict, chunks,
              encoding: bool | str = "packed") -> dict:
    """The documented bulk path: layout/open with the first chunk of sizes,
    then one layout/appendItems (packed: widthsAndHeightsBase64, as the
    Python client sends them) per further chunk, each
    written once the previous one is answered, as a client does. `chunks`
    yields (widths, heights), at most maxItemValuesPerRequest items each.

    wall_ms sums each request's write-to-answer time: the daemon's reading,
    parsing and applying, and the pipes. The driver's own drawing and
    encoding of the next chunk between requests is left out (elapsed_ms
    has it). Returns those, the request count and bytes, the slowest
    request, and the last answer's contentSize."""
    clock = time.perf_counter_ns
    total = requests = sent = items = 0
    slowest = 0
    answer = None
    e0 = clock()
    for ws, hs in chunks:
        if requests == 0:
            f = open_frame(ids(), session, layout, bounds, ws, hs)
        else:
            f = append_frame(ids(), session, ws, hs, encoding)
        t0 = clock()
        server.send(f)
        answer = server.recv()
        t1 = clock()
        if not is_result(answer):
            what = "layout/open" if requests == 0 else f"layout/appendItems #{requests}"
            raise RuntimeError(f"{server.name} {session}: {what} failed: {answer[:300]!r}")
        total += t1 - t0
        slowest = max(slowest, t1 - t0)
        requests += 1
        sent += len(f)
        items += len(ws)
    e1 = clock()
    return {
        "items": items,
        "requests": requests,
        "appends": requests - 1,
        "bytes": sent,
        "wall_ms": total / 1e6,
        "elapsed_ms": (e1 - e0) / 1e6,
        "ns_per_item": total / max(1, items),
        "slowest_request_ms": slowest / 1e6,
        "content_size": json.loads(answer)["result"]["contentSize"],
    }


class Scroller:
    """Offsets along one axis, `step` apart, bouncing inside [lo, hi]."""

    def __init__(self, start, lo, hi, step):
        self.x, self.lo, self.hi, self.step = start, lo, hi, step

    def take(self, k: int) -> list[float]:
        out = []
        for _ in range(k):
            nx = self.x + self.step
            if nx > self.hi or nx < self.lo:
                self.step = -self.step
                nx = self.x + self.step
            self.x = nx
            out.append(round(nx, 3))
        return out


class Ids:
    def __init__(self):
        self.k = 1000

    def __call__(self):
        self.k += 1
        return self.k


def set_bounds_frames(ids, scroller, k, session="cf"):
    return [
        request(
            ids(),
            "layout/setBounds",
            {"session": session, "bounds": {"x": x, "y": 0, "width": CF_VIEW_W, "height": CF_VIEW_H}},
        )
        for x in scroller.take(k)
    ]


# ---------------------------------------------------------------- phases


def jansson_version() -> str:
    try:
        return subprocess.run(["pkg-config", "--modversion", "jansson"], capture_output=True,
                              text=True, timeout=10).stdout.strip() or "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def machine() -> dict:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
    except OSError:
        load = "?"
    return {
        "nproc": os.cpu_count(),
        "loadavg_at_start": load,
        "cpu": cpu,
        "kernel": platform.release(),
        "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


DIST = os.environ.get("BENCH_DIST", os.path.join(BUILD, "dist", "flowlayoutd"))

JANSSON = os.environ.get("BENCH_JANSSON", os.path.join(BUILD, "bench", "jansson_parse"))

__all__ = [n for n in dir() if not n.startswith("__")]
