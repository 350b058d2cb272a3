#!/usr/bin/env python3
"""The benchmark suite of issue #7 (`make bench`; not part of `make test`).

Drives the release flowlayoutd and a minimal jansson echo server written for
the bench (bench/floor.c, "the floor") over the same pipes with the same
driver, runs the in-process engine benchmarks (flowlayout-bench) and two
peers (Taffy through PyPI's `stretchable`, Yoga through PyPI's `poga`), and
prints ONE Markdown table with the issue's targets checked below it. The
same figures go to bench/results.json (and the table into docs/performance.md).

Sizes: BENCH_N="1000 100000 10000000" (the default: the issue's 1e3, 1e5
and 1e7); BENCH_N="1000 100000 1000000" for a quicker run. BENCH_QUICK=1 cuts every repetition count
(for developing the suite, not for figures). Standard library only; the
peers are pip-installed into .build/bench-peers when missing.

The daemon runs with its default limits. Every session of n variable sizes
is loaded through the documented bulk path, as the Python client loads it:
layout/open with the first chunk, then layout/appendItems chunks of 2,048
items in the flat widthsAndHeights encoding (load_bulk), so that frames
queued behind the load stay on time (the daemon itself accepts larger
requests unless --max-item-values-per-request says otherwise).

Every latency is a round trip measured with time.perf_counter_ns around one
write of a complete frame and the read of its complete answer, after
warm-up iterations, with the garbage collector off. The floor and the daemon
are measured in alternating blocks so that their ratio comes from the same
conditions.
"""

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


def cold_samples(argv: list[str]) -> list[int]:
    """Spawn to the first `initialize` answer, COLD_RUNS times, in ns."""
    init = request(1, "initialize", {})
    samples = []
    for _ in range(COLD_RUNS):
        t0 = time.perf_counter_ns()
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        os.write(p.stdin.fileno(), init)
        buf = b""
        while b"\r\n\r\n" not in buf or len(buf) < buf.index(b"\r\n\r\n") + 4 + int(
            buf[16 : buf.index(b"\r\n\r\n")]
        ):
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            buf += chunk
        samples.append(time.perf_counter_ns() - t0)
        p.stdin.close()
        p.wait(timeout=30)
        p.stdout.close()
    return samples


def cold_start() -> dict:
    """Spawn to the first `initialize` answer: the release daemon, make
    dist's static executable (when built) and the floor."""
    out = {name: summary(cold_samples(argv)) for name, argv in (("daemon", [DAEMON]), ("floor", [FLOOR]))}
    if os.access(DIST, os.X_OK):
        r = subprocess.run(["ldd", DIST], capture_output=True, text=True)
        ldd = (r.stdout + r.stderr).strip()
        out["dist"] = summary(cold_samples([DIST])) | {"ldd": ldd, "libswift": "libswift" in ldd}
    return out


class Wire:
    """One n over the wire: a fresh daemon with the coverFlow session `cf`
    and the flow session `grid`, each of n variable sizes."""

    def __init__(self, n: int):
        self.n = n
        self.res: dict = {}
        self.rng = random.Random(SEED + n)
        self.ids = Ids()
        self.d = daemon(f"flowlayoutd-{label(n)}")

    def open(self) -> None:
        """7 and 8: the load of n variable sizes through the bulk path, and
        what it costs in memory; then the flow grid, loaded the same way."""
        n, d, ids, res = self.n, self.d, self.ids, self.res
        self.chunk = chunk = min(DEFAULT_CHUNK, int(d.limits.get("maxItemValuesPerRequest") or DEFAULT_CHUNK))
        half = n // 2
        first_half_w = [0]

        def cf_chunks():
            seen = 0
            for ws, hs in size_chunks(n, self.rng, CF_W, CF_H, chunk):
                if seen < half:
                    first_half_w[0] += sum(ws[: half - seen])
                seen += len(ws)
                yield ws, hs

        gc.collect()
        rss0 = d.status()
        load = load_bulk(d, ids, "cf", CF_LAYOUT,
                         {"x": 0, "y": 0, "width": CF_VIEW_W, "height": CF_VIEW_H}, cf_chunks())
        st = d.settled_status()
        self.content_w = load["content_size"]["width"]
        res["load"] = load | {
            "chunk_items": chunk,
            "vmhwm_bytes": st["VmHWM"],
            "rss_before_bytes": rss0["VmRSS"],
            "rss_after_bytes": st["VmRSS"],
        }
        res["memory"] = {"bytes_per_item": (st["VmRSS"] - rss0["VmRSS"]) / n,
                         "rss_growth_bytes": st["VmRSS"] - rss0["VmRSS"]}
        log(f"  load {label(n)} variable sizes, {load['requests']} requests: "
            f"{load['wall_ms']:.0f} ms ({load['ns_per_item']:.0f} ns/item), "
            f"RSS +{(st['VmRSS'] - rss0['VmRSS']) / 2**20:.1f} MiB, HWM {st['VmHWM'] / 2**20:.0f} MiB")
        # The carousel starts in the middle of its content (untimed).
        mid_x = first_half_w[0] + 10.0 * half + 0.25
        d.call("layout/setBounds", {"session": "cf", "bounds": {
            "x": mid_x, "y": 0, "width": CF_VIEW_W, "height": CF_VIEW_H}})

        # The flow grid for attributesInRect.
        grid = load_bulk(d, ids, "grid", GRID_LAYOUT,
                         {"x": 0, "y": 0, "width": GRID_VIEW_W, "height": GRID_VIEW_H},
                         size_chunks(n, self.rng, GRID_W, GRID_H, chunk))
        self.grid_h = grid["content_size"]["height"]
        res["load_grid"] = {k: v for k, v in grid.items() if k != "content_size"}
        gc.collect()
        cw = self.content_w
        self.scroller = Scroller(mid_x, max(0.0, cw * 0.05), cw * 0.95 - CF_VIEW_W, CF_STEP)
        self.floor_s, self.d_s, self.floor_block, self.d_block = [], [], [], []

    def warm_set_bounds(self, fl: Server) -> None:
        warm = set_bounds_frames(self.ids, self.scroller, WARMUP)
        _, kept = pingpong(self.d, warm, keep_every=1)
        pingpong(fl, warm)
        self.cards = [len(json.loads(b)["result"]["invalidated"]) for b in kept]
        self.answer_bytes = [len(b) for b in kept]
        self.floor_cards = len(fl.call("layout/setBounds", {})["invalidated"])

    def set_bounds_block(self, fl: Server) -> None:
        """One block of the floor, then the same frames to the daemon."""
        frames = set_bounds_frames(self.ids, self.scroller, BLOCK)
        s, _ = pingpong(fl, frames)
        self.floor_s += s
        self.floor_block.append(statistics.median(s) / 1e3)
        s, _ = pingpong(self.d, frames)
        self.d_s += s
        self.d_block.append(statistics.median(s) / 1e3)

    def finish_set_bounds(self) -> None:
        res, cards = self.res, self.cards
        res["floor_rt"] = summary(self.floor_s) | {
            "block_p50_us": self.floor_block, "cards": self.floor_cards}
        res["setbounds_rt"] = summary(self.d_s) | {
            "block_p50_us": self.d_block,
            "cards_mean": statistics.mean(cards),
            "cards_min": min(cards),
            "cards_max": max(cards),
            "answer_bytes_mean": statistics.mean(self.answer_bytes),
        }
        log(f"  {label(self.n)}: setBounds p50 {res['setbounds_rt']['p50_us']:.1f} µs "
            f"(floor {res['floor_rt']['p50_us']:.1f} µs), {statistics.mean(cards):.1f} cards/frame")

    def rest(self, fl: Server) -> None:
        """3, 4, 6 and 5's batch updates."""
        d, ids, rng, res = self.d, self.ids, self.rng, self.res
        content_w = self.content_w
        gc.disable()
        try:
            # 3: attributesInRect on the grid.
            gs = Scroller(self.grid_h / 2, 0.0, max(0.0, self.grid_h - GRID_VIEW_H), GRID_STEP)

            def rect_frames(k):
                return [
                    request(ids(), "layout/attributesInRect", {
                        "session": "grid",
                        "rect": {"x": 0, "y": y, "width": GRID_VIEW_W, "height": GRID_VIEW_H},
                    })
                    for y in gs.take(k)
                ]

            _, kept = pingpong(d, rect_frames(WARMUP), keep_every=1)
            cells = [len(json.loads(b)["result"]["attributes"]) for b in kept]
            s, _ = pingpong(d, rect_frames(QUERY_N))
            res["rect_rt"] = summary(s) | {
                "cells_mean": statistics.mean(cells), "cells_min": min(cells),
                "cells_max": max(cells),
            }

            # 4: scrollEnded, a fling at FLING pt/ms from offsets across the content.
            lo = max(0.0, content_w * 0.05)
            hi = max(lo, content_w * 0.95 - CF_VIEW_W - 500 * FLING)

            def fling_frames(k):
                out = []
                for j in range(k):
                    x = round(rng.uniform(lo, hi), 2)
                    v = FLING if j % 2 == 0 else -FLING
                    if v < 0:
                        x = round(min(content_w - CF_VIEW_W, x + 500 * FLING), 2)
                    out.append(request(ids(), "layout/scrollEnded", {
                        "session": "cf", "contentOffset": {"x": x, "y": 0},
                        "velocity": {"x": v, "y": 0},
                    }))
                return out

            _, kept = pingpong(d, fling_frames(max(20, WARMUP // 3)), keep_every=1)
            crossed, samples_n = [], []
            for b in kept:
                r = json.loads(b)["result"]
                samples_n.append(len(r["trajectory"]))
                crossed.append(abs(r["targetContentOffset"]["x"] - r["trajectory"][0]["x"]))
            s, _ = pingpong(d, fling_frames(FLING_N))
            res["fling_rt"] = summary(s) | {
                "distance_pt_mean": statistics.mean(crossed),
                "cards_crossed_mean": statistics.mean(crossed) / (sum(CF_W) / 2 + 10),
                "trajectory_samples_mean": statistics.mean(samples_n),
            }

            # 6: pipelined setBounds, floor and daemon alternately.
            d_rps, f_rps = [], []
            for _ in range(PIPE_RUNS):
                frames = set_bounds_frames(ids, self.scroller, PIPE_K)
                f_rps.append(pipelined(fl, frames)["rps"])
                d_rps.append(pipelined(d, frames)["rps"])
            res["pipelined"] = {
                "daemon_rps": statistics.median(d_rps), "floor_rps": statistics.median(f_rps),
                "daemon_runs": d_rps, "floor_runs": f_rps, "requests_per_run": PIPE_K,
            }

            # 5: insert and delete at index 0 (performBatchUpdates), alternately.
            def insert0(w, h):
                return request(ids(), "layout/performBatchUpdates", {
                    "session": "cf", "updates": {"insertItems": [
                        {"section": 0, "item": 0, "size": {"width": w, "height": h}}]}})

            def delete0():
                return request(ids(), "layout/performBatchUpdates", {
                    "session": "cf", "updates": {"deleteItems": [{"section": 0, "item": 0}]}})

            for _ in range(2):
                pingpong(d, [insert0(80, 120)])
                pingpong(d, [delete0()])
            ins, dels = [], []
            start = time.perf_counter()
            while len(ins) < BATCH_MAX and (
                len(ins) < BATCH_MIN or time.perf_counter() - start < BATCH_BUDGET_S
            ):
                s, _ = pingpong(d, [insert0(rng.randint(*CF_W), rng.randint(*CF_H))])
                ins += s
                s, _ = pingpong(d, [delete0()])
                dels += s
            res["insert0_rt"] = summary(ins)
            res["delete0_rt"] = summary(dels)

            # 8b: a setBounds queued behind a bulk chunk. One write carries
            # a full appendItems chunk (maxItemValuesPerRequest items) to the
            # carousel being scrolled and a setBounds frame right behind it;
            # the time from that write to the setBounds answer is the wait
            # of a frame behind one chunk. The two encodings alternate.
            res["queued"] = self.queued_set_bounds()
        finally:
            gc.enable()

    def queued_set_bounds(self) -> dict:
        d, ids, chunk = self.d, self.ids, self.chunk
        reps = QUEUED_WARMUP + QUEUED_REPS
        gen = size_chunks(3 * reps * chunk, self.rng, CF_W, CF_H, chunk)
        blobs = []
        for _ in range(reps):
            for objects in (False, True, "packed"):
                ws, hs = next(gen)
                a = append_frame(ids(), "cf", ws, hs, objects)
                b = set_bounds_frames(ids, self.scroller, 1)[0]
                blobs.append((objects, len(a), a + b))
        clock = time.perf_counter_ns
        out = {False: ([], []), True: ([], []), "packed": ([], [])}
        for k, (objects, chunk_bytes, blob) in enumerate(blobs):
            t0 = clock()
            d.send(blob)
            first = d.recv()
            t1 = clock()
            second = d.recv()
            t2 = clock()
            if not (is_result(first) and is_result(second)):
                raise RuntimeError(f"{d.name}: queued setBounds: {first[:200]!r} / {second[:200]!r}")
            if k >= 3 * QUEUED_WARMUP:
                out[objects][0].append(t2 - t0)
                out[objects][1].append(t1 - t0)
        result = {}
        for objects, key in ((False, "widthsAndHeights"), (True, "itemSizes"),
                             ("packed", "widthsAndHeightsBase64")):
            sb, ap = out[objects]
            result[key] = summary(sb) | {
                "chunk_items": chunk,
                "chunk_bytes": next(c for o, c, _ in blobs if o == objects),
                "append_answer": summary(ap),
            }
        log(f"  queued setBounds behind a {chunk}-item chunk: p50 "
            f"{result['widthsAndHeights']['p50_us'] / 1e3:.2f} ms (widthsAndHeights), "
            f"{result['itemSizes']['p50_us'] / 1e3:.2f} ms (itemSizes), "
            f"{result['widthsAndHeightsBase64']['p50_us'] / 1e3:.2f} ms (packed)")
        return result

    def close(self) -> None:
        self.d.close()


def bench_wire(ns: list[int], fl: Server) -> dict:
    """Everything measured over the wire. Each n has its own daemon, all
    alive at once, so that setBounds is measured at every n in the same
    conditions: rounds of one block per n (in a rotating order), each block
    right after a block of the same frames to the floor."""
    wires: dict[int, Wire] = {}
    results: dict[int, dict] = {}
    try:
        for n in ns:
            log(f"open, n = {label(n)}")
            w = Wire(n)
            wires[n] = w
            w.open()
        log("setBounds, every n and the floor, interleaved")
        gc.disable()
        try:
            for n in ns:
                wires[n].warm_set_bounds(fl)
            for k in range(BLOCKS):
                order = ns[k % len(ns):] + ns[: k % len(ns)]
                for n in order:
                    wires[n].set_bounds_block(fl)
        finally:
            gc.enable()
        for n in ns:
            wires[n].finish_set_bounds()
        for n in ns:
            log(f"queries, pipelining and batch updates, n = {label(n)}")
            t0 = time.perf_counter()
            wires[n].rest(fl)
            log(f"  {time.perf_counter() - t0:.1f} s")
            w = wires.pop(n)
            results[n] = w.res
            w.close()
    finally:
        for w in wires.values():
            w.close()
    return results


ENGINE_LINE = re.compile(
    r"^(?P<name>.+?): p50 (?P<p50>[-\d.e+]+) (?P<u1>µs|ns), p99 (?P<p99>[-\d.e+]+) (?P<u2>µs|ns)\s*$"
)


def bench_engine(ns: list[int]) -> dict:
    """Runs flowlayout-bench ENGINE_RUNS times at each n, the sizes taking
    turns, and parses its lines: each line's p50 and p99 are the medians of
    the runs' (each run repeats each measurement itself, 2000 times for
    most)."""
    runs: dict[int, dict[str, list[dict]]] = {n: {} for n in ns}
    for k in range(ENGINE_RUNS):
        for n in ns:
            t0 = time.perf_counter()
            out = subprocess.run([ENGINE, str(n)], capture_output=True, text=True, check=True,
                                 timeout=1800).stdout
            for line in out.splitlines():
                m = ENGINE_LINE.match(line)
                if m:
                    runs[n].setdefault(m["name"], []).append(
                        {"p50": float(m["p50"]), "p99": float(m["p99"]), "unit": m["u1"]})
            log(f"  run {k + 1}/{ENGINE_RUNS}, n = {label(n)}: {time.perf_counter() - t0:.1f} s")
    result = {}
    for n in ns:
        lines = {}
        for name, rs in runs[n].items():
            scale = 1e-3 if rs[0]["unit"] == "ns" else 1.0
            p50 = statistics.median(r["p50"] for r in rs)
            p99 = statistics.median(r["p99"] for r in rs)
            lines[name] = {"p50": p50, "p99": p99, "unit": rs[0]["unit"], "p50_us": p50 * scale,
                           "p99_us": p99 * scale, "runs_p50": [r["p50"] for r in rs]}
        result[n] = {"lines": lines}
    return result


#: The waterfall issue states its targets at 1e6 items in 3 columns.
WATERFALL_N = 10**6


def bench_waterfall() -> dict:
    """Runs `flowlayout-bench 1e6 waterfall` ENGINE_RUNS times: the same
    parsing as bench_engine, at the waterfall issue's size."""
    saved = []
    for k in range(ENGINE_RUNS):
        t0 = time.perf_counter()
        out = subprocess.run([ENGINE, str(WATERFALL_N), "waterfall"], capture_output=True, text=True,
                             check=True, timeout=1800).stdout
        saved.append(out)
        log(f"  waterfall run {k + 1}/{ENGINE_RUNS}: {time.perf_counter() - t0:.1f} s")
    runs: dict[str, list[dict]] = {}
    for out in saved:
        for line in out.splitlines():
            m = ENGINE_LINE.match(line)
            if m:
                runs.setdefault(m["name"], []).append(
                    {"p50": float(m["p50"]), "p99": float(m["p99"]), "unit": m["u1"]})
    lines = {}
    for name, rs in runs.items():
        scale = 1e-3 if rs[0]["unit"] == "ns" else 1.0
        p50 = statistics.median(r["p50"] for r in rs)
        p99 = statistics.median(r["p99"] for r in rs)
        lines[name] = {"p50": p50, "p99": p99, "unit": rs[0]["unit"], "p50_us": p50 * scale,
                       "p99_us": p99 * scale}
    return {"lines": lines}


#: Issue #26's snapshot sizes: 1e5 and 1e6 items with ids in 10 sections.
SNAPSHOT_NS = (10**5, 10**6)
SNAPSHOT_LINE = re.compile(
    r"^(?P<name>.+?): (?:p50 (?P<p50>[-\d.e+]+) ms, p99 (?P<p99>[-\d.e+]+) ms"
    r"|(?P<bytes>[-\d.e+]+) B/item)\s*$")


def bench_snapshots() -> dict:
    """Runs `flowlayout-bench N snapshot` ENGINE_RUNS times at each of
    SNAPSHOT_NS: applySnapshot in process (validate, diff, batch, relayout)
    with 1 % of the items changed and with none, the peak extra memory,
    and the same changed snapshot over JSON beside jansson's parse of it.
    Medians of the runs' p50 and p99, in ms; memory in bytes per item."""
    out: dict = {}
    for n in SNAPSHOT_NS:
        runs: dict[str, list] = {}
        for k in range(ENGINE_RUNS):
            text = subprocess.run([ENGINE, str(n), "snapshot"], capture_output=True, text=True, check=True,
                                  timeout=1800).stdout
            for line in text.splitlines():
                m = SNAPSHOT_LINE.match(line)
                if m:
                    runs.setdefault(m["name"], []).append(m)
        lines = {}
        for name, ms in runs.items():
            if ms[0]["bytes"] is not None:
                lines[name] = {"bytes_per_item": statistics.median(float(m["bytes"]) for m in ms)}
            else:
                lines[name] = {"p50_ms": statistics.median(float(m["p50"]) for m in ms),
                               "p99_ms": statistics.median(float(m["p99"]) for m in ms)}
        out[label(n)] = lines
        log(f"  snapshots at {label(n)}: {len(lines)} lines")
    return out


#: (row, measurement, n, line prefix, key, unit, target)
SNAPSHOT_ROWS = [
    ("D1", "engine: applySnapshot, 1 % changed (validate, diff, batch, relayout)", 10**5,
     "snapshot of 100000 items, 1% changed", "p50_ms", "ms", 10.0),
    ("D2", "engine: applySnapshot, 1 % changed", 10**6, "snapshot of 1000000 items, 1% changed", "p50_ms",
     "ms", 150.0),
    ("D3", "engine: applySnapshot, identical", 10**6, "snapshot of 1000000 items, identical", "p50_ms", "ms",
     60.0),
    ("D4", "engine: applySnapshot peak extra memory, 1 % changed", 10**6, "snapshot peak extra memory",
     "bytes_per_item", "B/item", 48.0),
    ("D5", "over JSON: layout/applySnapshot, 1 % changed", 10**5, "layout/applySnapshot over JSON", "p50_ms",
     "ms", None),
    ("D6", "jansson's parse of that request alone", 10**5, "jansson parse of that snapshot", "p50_ms", "ms",
     None),
    ("D7", "over JSON: layout/applySnapshot, 1 % changed", 10**6, "layout/applySnapshot over JSON", "p50_ms",
     "ms", None),
    ("D8", "jansson's parse of that request alone", 10**6, "jansson parse of that snapshot", "p50_ms", "ms",
     None),
]


#: Issue #27's drag to reorder: 1e6 items of varied sizes.
REORDER_N = 10**6
REORDER_LINE = re.compile(r"^(?P<name>.+?): p50 (?P<p50>[-\d.e+]+) µs, p99 (?P<p99>[-\d.e+]+) µs\s*$")


def bench_reorder() -> dict:
    """Runs `flowlayout-bench REORDER_N reorder` ENGINE_RUNS times: an
    interactive movement in a flow of wrapping lines and in a 3-column
    waterfall (packed and stable), the item at n/2 grabbed, its first
    update taking the target 10,000 items away, then 400 frames that move
    the finger to the next item's centre (the target moving by a slot
    about every other frame), each an update and a walk of the viewport;
    the end (one batch move) and the cancel (a walk). Medians of the runs'
    p50 and p99, in µs."""
    runs: dict[str, list] = {}
    for _ in range(ENGINE_RUNS):
        text = subprocess.run([ENGINE, str(REORDER_N), "reorder"], capture_output=True, text=True, check=True,
                              timeout=1800).stdout
        for line in text.splitlines():
            m = REORDER_LINE.match(line)
            if m:
                runs.setdefault(m["name"], []).append(m)
    lines = {name: {"p50_us": statistics.median(float(m["p50"]) for m in ms),
                    "p99_us": statistics.median(float(m["p99"]) for m in ms)} for name, ms in runs.items()}
    log(f"  reorder at {label(REORDER_N)}: {len(lines)} lines")
    return lines


#: (row, measurement, line, target µs)
REORDER_ROWS = [
    ("R1", "flow, uikit targeting: an update frame", "reorder flow uikit: update frame", 20.0),
    ("R2", "flow, nearest targeting: an update frame", "reorder flow nearest: update frame", 20.0),
    ("R3", "waterfall packed, uikit targeting: an update frame", "reorder waterfall packed uikit: update frame",
     20.0),
    ("R4", "waterfall packed, nearest targeting: an update frame",
     "reorder waterfall packed nearest: update frame", 20.0),
    ("R5", "waterfall stable, nearest targeting: an update frame",
     "reorder waterfall stable nearest: update frame", None),
    ("R6", "flow: the first update, the target 10,000 items away",
     "reorder flow nearest: first update, target 10,000 items away", None),
    ("R7", "flow: end (one batch move of 10,000 items)", "reorder flow: end (one batch move of 10,000 items)",
     None),
    ("R8", "flow: cancel (a walk of the data)", "reorder flow: cancel (a walk of the data)", None),
    ("R9", "waterfall packed: end (one batch move of 10,000 items)",
     "reorder waterfall packed: end (one batch move of 10,000 items)", None),
]


#: Issue #18's bulk answers: 1e5 attributes in one answer, about 20 MB:
#: over the default maxAnswerBytes (8 MiB), so these daemons allow 64 MiB.
BULK_N = 10**5
BULK_FLAGS = ["--max-answer-bytes", str(64 << 20)]


def callgrind_instructions(script: bytes, flags: list[str] = []) -> int:
    """The instructions the release daemon executes for `script` (frames on
    its stdin, then EOF), counted by valgrind's callgrind: the same count
    for the same binary and input, whatever else the machine is doing."""
    os.makedirs(LOG_DIR, exist_ok=True)
    out = os.path.join(LOG_DIR, f"callgrind.{os.getpid()}.out")
    # shutdown and exit, so that the daemon ends with 0 after answering all.
    script += frame({"jsonrpc": "2.0", "id": "end", "method": "shutdown"})
    script += frame({"jsonrpc": "2.0", "method": "exit"})
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", DAEMON, *flags],
                   input=script, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   timeout=900)
    with open(out) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    os.remove(out)
    return total


def bench_bulk_answers() -> dict:
    """One attributesInRect answering BULK_N attributes: wall time over the
    pipe (to the last byte read), callgrind instructions per attribute (the
    difference between a script with three such requests and one with one,
    over the attributes answered in between), and the peak RSS against the
    answer's bytes."""
    rows = {}
    for kind, layout in (("flow", {"type": "flow", "itemSize": {"width": 10, "height": 10}}),
                         ("coverFlow", {"type": "coverFlow", "itemSize": {"width": 10, "height": 10}})):
        opening = {"session": "bulk", "layout": layout, "bounds": {"x": 0, "y": 0, "width": 375, "height": 600},
                   "sections": [{"itemCount": BULK_N}]}
        s = daemon(f"bulk-{kind}", *BULK_FLAGS)
        try:
            s.call("layout/open", opening)
            size = s.call("layout/contentSize", {"session": "bulk"})["contentSize"]
            rect = {"x": -1e6, "y": -1e6, "width": size["width"] + 2e6, "height": size["height"] + 2e6}
            query = frame({"jsonrpc": "2.0", "id": 7, "method": "layout/attributesInRect",
                           "params": {"session": "bulk", "rect": rect}})
            before = s.status()["VmRSS"]
            # Read into one buffer reused for every answer, so that the
            # driver's copying and page faults stay out of the daemon's time.
            space = memoryview(bytearray(64 << 20))
            samples = []
            for _ in range(3 if QUICK else 9):
                t0 = time.perf_counter_ns()
                s.send(query)
                got, need = 0, None
                while need is None or got < need:
                    n = os.readv(s.r, [space[got:]])
                    if not n:
                        raise EOFError("the daemon closed its output")
                    got += n
                    if need is None:
                        head = bytes(space[: min(got, 64)])
                        i = head.find(b"\r\n\r\n")
                        if i >= 0:
                            need = i + 4 + int(head[16:i])
                samples.append(time.perf_counter_ns() - t0)
            answer = bytes(space[i + 4 : need])
            count = json.loads(answer)["result"]["attributes"].__len__()
            peak = s.status()["VmHWM"]
        finally:
            s.close()
        init = frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
        opened = init + frame({"jsonrpc": "2.0", "id": 2, "method": "layout/open", "params": opening})
        one = callgrind_instructions(opened + query, BULK_FLAGS)
        three = callgrind_instructions(opened + query * 3, BULK_FLAGS)
        p50 = statistics.median(samples) / 1e3
        rows[kind] = {
            "attributes": count, "bytes": len(answer), "wall_us_p50": p50,
            "wall_us_per_attribute": p50 / count, "instructions_per_attribute": (three - one) / (2 * count),
            "peak_over_answer": (peak - before) / len(answer),
        }
        log(f"  bulk {kind}: {count:,} attributes, {len(answer):,} B, {p50 / count:.3f} µs/attribute, "
            f"{(three - one) / (2 * count):,.0f} instructions/attribute")
    return rows


#: Issue #16's counted rows: a cover flow of this many cards.
COUNT_N = 10**5
DIST = os.environ.get("BENCH_DIST", os.path.join(BUILD, "dist", "flowlayoutd"))
SHIM_SRC = os.path.join(ROOT, "bench", "malloc_count.c")


def packed_open_frame(id_, ws, hs) -> bytes:
    """layout/open of the cover flow `cf` with these sizes packed."""
    return frame({"jsonrpc": "2.0", "id": id_, "method": "layout/open", "params": {
        "session": "cf", "layout": CF_LAYOUT, "bounds": {"x": 0, "y": 0, "width": CF_VIEW_W, "height": CF_VIEW_H},
        "sections": [{"widthsAndHeightsBase64": packed(ws, hs)}]}})


def counted_session(server: Server, ids) -> float:
    """Opens the cover flow `cf` of COUNT_N cards (packed sizes); returns
    its content width."""
    rng = random.Random(SEED)
    ws, hs = zip(*sizes(COUNT_N, rng, CF_W, CF_H))
    server.send(packed_open_frame(ids(), ws, hs))
    answer = json.loads(server.recv())
    return answer.get("result", {}).get("contentSize", {}).get("width", 0.0)


def counted_frames(kind: str, k: int, ids, width: float) -> list[bytes]:
    """k setBounds frames (13.7 pt apart, mid-content) or k scrollEnded
    flings (FLING pt/ms, alternating direction, from offsets across the
    content)."""
    if kind == "setBounds":
        sc = Scroller(width / 2, width * 0.1, width * 0.9, CF_STEP)
        return set_bounds_frames(ids, sc, k)
    rng = random.Random(SEED + 1)
    out = []
    for j in range(k):
        x = round(rng.uniform(width * 0.1, width * 0.8), 2)
        out.append(request(ids(), "layout/scrollEnded", {
            "session": "cf", "contentOffset": {"x": x, "y": 0},
            "velocity": {"x": FLING if j % 2 == 0 else -FLING, "y": 0}}))
    return out


def callgrind_pingpong(argv: list[str], kind: str, k: int) -> tuple[int, bytes]:
    """The instructions `argv` executes, under callgrind, for initialize,
    the counted session's open and k frames of `kind` sent one at a time
    (each once the previous is answered), then shutdown and exit; and the
    last answer."""
    os.makedirs(LOG_DIR, exist_ok=True)
    out = os.path.join(LOG_DIR, f"callgrind-pp.{os.getpid()}.out")
    s = Server(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv], f"callgrind-{kind}")
    ids = Ids()
    last = b""
    try:
        s.call("initialize", {})
        width = counted_session(s, ids) or 9e6
        for f in counted_frames(kind, k, ids, width):
            s.send(f)
            last = s.recv()
    finally:
        s.close()
    with open(out) as f:
        total = next(int(line.split()[1]) for line in f if line.startswith(("summary:", "totals:")))
    os.remove(out)
    return total, last


def bench_counted() -> dict:
    """Issue #16 rows 1 and 2: instructions per frame, the difference
    between ping-pongs of 1,500 and 500 frames over 1,000 (callgrind counts
    the same for the same binary and input whatever else the machine
    does), for the release daemon and the floor; and the heap allocations
    per frame (bench/malloc_count.c)."""
    res: dict = {}
    a, b = 500, 1500
    for kind in ("setBounds", "scrollEnded"):
        d1, _ = callgrind_pingpong([DAEMON], kind, a)
        d2, last = callgrind_pingpong([DAEMON], kind, b)
        row = {"daemon": (d2 - d1) / (b - a)}
        result = json.loads(last).get("result", {})
        if kind == "setBounds":
            row["cards"] = len(result.get("invalidated", []))
            row["answer_bytes"] = len(last)
            f1, _ = callgrind_pingpong([FLOOR], kind, a)
            f2, _ = callgrind_pingpong([FLOOR], kind, b)
            row["floor"] = (f2 - f1) / (b - a)
        else:
            row["samples"] = len(result.get("trajectory", []))
        res[kind] = row
        log(f"  counted {kind}: {row['daemon']:,.0f} instructions per frame"
            + (f", floor {row['floor']:,.0f}" if "floor" in row else ""))
    res["allocations"] = allocations_per_frame()
    return res


def allocations_per_frame() -> dict:
    """Heap allocations per request of the release daemon, counted by
    bench/malloc_count.c (LD_PRELOAD), over 1,000 requests after 200."""
    shim = os.path.join(LOG_DIR, "malloc_count.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", shim, SHIM_SRC, "-ldl"], check=True, timeout=120)
    count_file = os.path.join(LOG_DIR, "malloc_count.txt")
    out = {}
    for kind in ("setBounds", "scrollEnded"):
        s = Server([DAEMON], f"malloc-count-{kind}",
                   env=dict(os.environ, LD_PRELOAD=shim, FLOWLAYOUT_MALLOC_COUNT_FILE=count_file))
        p = s.proc

        def count() -> int:
            if os.path.exists(count_file):
                os.remove(count_file)
            p.send_signal(signal.SIGUSR2)
            for _ in range(1000):
                if os.path.exists(count_file):
                    with open(count_file) as f:
                        text = f.read()
                    if text.endswith("\n"):
                        return int(text)
                time.sleep(0.005)
            raise RuntimeError("malloc_count did not report")

        ids = Ids()
        try:
            s.call("initialize", {})
            width = counted_session(s, ids)
            frames = counted_frames(kind, 1200, ids, width)
            for f in frames[:200]:
                s.send(f)
                s.recv()
            c0 = count()
            for f in frames[200:]:
                s.send(f)
                s.recv()
            out[kind] = (count() - c0) / 1000
        finally:
            s.close()
    log(f"  allocations per frame: {out}")
    return out


#: Loads of 1e7 packed sizes, and jansson's parses of them: the fastest of
#: each is compared, so that a noisy neighbour on a shared machine slows
#: one attempt, not the row.
PACKED_LOAD_RUNS = 3


def bench_packed_load() -> dict:
    """Issue #16 row 5: 1e7 variable sizes through the bulk path in packed
    chunks of 1e6 (layout/open with the first), each sent once the
    previous is answered: the wall time summed over requests, the peak
    RSS against the RSS after, and the bytes retained per item. Issue #28
    judges the load against jansson's own parse of the same messages, one
    after another in one process (bench/jansson_parse.c --frames), in the
    same run: the fastest of PACKED_LOAD_RUNS loads (each by a fresh
    daemon) against the fastest of as many parses."""
    n, chunk = 10**7, 10**6
    rng = random.Random(SEED)
    ids = Ids()
    frames = []
    for start in range(0, n, chunk):
        # Draws as bytes: 1e7 sizes in a second, not in random.randint's minute.
        raw = rng.randbytes(2 * chunk)
        ws = [CF_W[0] + b % (CF_W[1] - CF_W[0] + 1) for b in raw[:chunk]]
        hs = [CF_H[0] + b % (CF_H[1] - CF_H[0] + 1) for b in raw[chunk:]]
        frames.append(packed_open_frame(ids(), ws, hs) if start == 0 else append_frame(ids(), "cf", ws, hs, "packed"))
    os.makedirs(LOG_DIR, exist_ok=True)
    frames_path = os.path.join(LOG_DIR, f"packed-load-{os.getpid()}.frames")
    with open(frames_path, "wb") as f:
        f.write(b"".join(frames))
    clock = time.perf_counter_ns
    loads = []
    memory = None
    for _ in range(PACKED_LOAD_RUNS):
        s = daemon("packed-load")
        try:
            before = s.status()["VmRSS"]
            total = slowest = 0
            for f in frames:
                t0 = clock()
                s.send(f)
                answer = s.recv()
                t1 = clock()
                if not is_result(answer):
                    raise RuntimeError(f"packed load: {answer[:300]!r}")
                total += t1 - t0
                slowest = max(slowest, t1 - t0)
            if memory is None:
                memory = (before, s.settled_status())
        finally:
            s.close()
        loads.append((total, slowest))
    try:
        parses = []
        for _ in range(PACKED_LOAD_RUNS):
            out = subprocess.run([JANSSON, "--frames", frames_path], check=True, capture_output=True, text=True)
            parses.append(float(out.stdout.strip()))
    finally:
        os.remove(frames_path)
    total, slowest = min(loads)
    jansson_ms = min(parses)
    before, st = memory
    res = {"items": n, "chunk_items": chunk, "wall_ms": total / 1e6, "ns_per_item": total / n,
           "jansson_ms": jansson_ms, "runs": PACKED_LOAD_RUNS,
           "wall_ms_runs": [t / 1e6 for t, _ in loads], "jansson_ms_runs": parses,
           "slowest_request_ms": slowest / 1e6, "bytes": sum(map(len, frames)), "rss_after": st["VmRSS"],
           "rss_peak": st["VmHWM"], "peak_over_after": st["VmHWM"] / st["VmRSS"],
           "bytes_per_item": (st["VmRSS"] - before) / n}
    log(f"  packed load of 1e7: {res['wall_ms']:,.0f} ms ({res['ns_per_item']:.0f} ns/item; jansson's parse "
        f"of the same messages {jansson_ms:,.0f} ms; fastest of {PACKED_LOAD_RUNS} each), "
        f"peak {res['peak_over_after']:.2f}x after, {res['bytes_per_item']:.1f} B/item")
    return res


def bench_doubles(count: int = 10**7) -> dict:
    """The number-formatting property test at 10^7 doubles (make test runs
    200,000): ShortestDoubleTests.testRandomDoubles, built by make bench."""
    t0 = time.perf_counter()
    r = subprocess.run(["swift", "test", "--skip-build", "--filter", "ShortestDoubleTests/testRandomDoubles"],
                       cwd=ROOT, env=dict(os.environ, FLOWLAYOUT_DOUBLES=str(count)), capture_output=True,
                       text=True, timeout=1800)
    seconds = time.perf_counter() - t0
    passed = r.returncode == 0 and "testRandomDoubles' passed" in r.stdout + r.stderr
    log(f"  {count:,} doubles: {'passed' if passed else 'FAILED'} in {seconds:.0f} s")
    return {"count": count, "passed": passed, "seconds": seconds}


#: Issue #18: no accepted request may hold the loop longer than this.
#: Issue #28: a message under 64 KiB holds the loop at most 50 ms + 60 ns
#: for each item whose size the session was sent one by one; a larger one
#: at most 1.5 × jansson's own parse of it + 50 ms; a small one grows the
#: peak RSS by at most 64 MiB.
SMALL_REQUEST = 64 * 1024
JANSSON = os.environ.get("BENCH_JANSSON", os.path.join(BUILD, "bench", "jansson_parse"))


def jansson_parse_ms(text: str) -> float:
    """jansson's parse of `text` (bench/jansson_parse.c), in ms: one parse
    in a fresh process, as the daemon meets a message once (a second parse
    in the same process reuses the first one's pages and runs about a
    third faster)."""
    path = os.path.join(LOG_DIR, f"jansson-{os.getpid()}.json")
    os.makedirs(LOG_DIR, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    try:
        out = subprocess.run([JANSSON, path, "1"], check=True, capture_output=True, text=True)
        return float(out.stdout.strip())
    finally:
        os.remove(path)


#: Runs of each large-message row, and of jansson's parse of it.
LARGE_RUNS = 3


def stall_limit_ms(row: dict) -> float:
    """A stall row's target (issue #28)."""
    if "jansson_ms" in row:
        return 1.5 * row["jansson_ms"] + 50
    return 50 + 60e-6 * row["m"]


def stall_ok(row: dict) -> bool:
    if not row["accepted"]:
        return True
    small = "jansson_ms" not in row
    rss_ok = not small or row["rss_growth_bytes"] <= 64 * 2**20
    return row["ms"] <= row["limit_ms"] and rss_ok


def bench_stalls() -> list[dict]:
    """Each method's worst request the default limits accept, timed over
    the pipe (the driver's encoding left out: each body is built first).
    The sizes are the largest the defaults let one request carry: a
    million items' sizes (the 64 MiB message limit holds about 2.8 million
    as objects), 1e7 items in a waterfall (its item limit), a viewport or
    rect just under the answer limit (maxAnswerBytes, 8 MiB)."""
    rows = []
    W, H = 375, 600
    B = {"x": 0, "y": 0, "width": W, "height": H}
    million = "[" + ",".join('{"width":%d,"height":%d}' % (10 + i % 50, 10 + i % 30) for i in range(10**6)) + "]"
    flat = "[" + ",".join("%d,%d" % (10 + i % 50, 10 + i % 30) for i in range(10**6)) + "]"

    def body(id_, method, params_json: str) -> bytes:
        text = '{"jsonrpc":"2.0","id":%s,"method":"%s","params":%s}' % (json.dumps(id_), method, params_json)
        return _frame_body(text)

    def timed(s: Server, frame_bytes: bytes) -> tuple[float, bool]:
        t0 = time.perf_counter_ns()
        s.send(frame_bytes)
        answer = s.recv()
        return (time.perf_counter_ns() - t0) / 1e6, is_result(answer)

    # (method, request, setup, params, m): m is how many items of the
    # session had their sizes sent one by one when the request arrives
    # (issue #28's allowance of 60 ns each).
    B8 = {"session": "u8", "layout": {"type": "flow"}, "bounds": B, "sections": [{"itemCount": 10**8}]}
    thousand = [{"section": 0, "item": i * 99991, "size": {"width": 20 + i % 60, "height": 20 + i % 40}}
                for i in range(1000)]
    line = {"session": "l8", "layout": {"type": "flow", "itemSize": {"width": 0, "height": 10},
                                        "minimumInteritemSpacing": 0},
            "bounds": {"x": 0, "y": 20, "width": 375, "height": 600}, "sections": [{"itemCount": 10**8}]}
    estimated = {"type": "compositional", "section": {"group": {
        "direction": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 44}},
        "count": 2, "subitems": [{"size": {"width": {"fractionalWidth": 0.5}, "height": {"estimated": 44}}}]}}}
    one = '{"section":0,"item":5,"size":{"width":80,"height":40}}'
    pager8 = {"session": "p8", "layout": {"type": "pager", "transformer": "cubic"}, "bounds": B,
              "sections": [{"itemCount": 10**8}]}
    ids6 = {"session": "i6", "layout": {"type": "flow"}, "bounds": B,
            "sections": [{"id": 0, "itemCount": 10**6, "ids": list(range(10**6))}]}
    full = {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}
    grid3 = {"type": "compositional", "section": {"group": {
        "direction": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 40}},
        "count": 3, "subitems": [{"size": full}]}}}
    nested8 = {"session": "n8", "layout": {"type": "compositional", "section": {"group": {
        "direction": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 100}},
        "count": 4096, "subitems": [{
            "direction": "vertical", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 100}},
            "count": 4096, "subitems": [{"size": full}]}]}}},
        "bounds": B, "sections": [{"itemCount": 10**8}]}
    cases = [
        ("layout/open", "a flow of 1e6 sizes as {width, height} objects, in one request",
         lambda s: None,
         '{"session":"o","layout":{"type":"flow"},"bounds":%s,"sections":[{"itemSizes":%s}]}' % (json.dumps(B), million),
         10**6),
        ("layout/open", "a waterfall of 1e7 items (its item limit), 3 columns",
         lambda s: None,
         '{"session":"w","layout":{"type":"waterfall","columnCount":3},"bounds":%s,"sections":[{"itemCount":10000000}]}' % json.dumps(B),
         0),
        ("layout/appendItems", "1e6 sizes as widthsAndHeights to a flow",
         lambda s: s.call("layout/open", {"session": "a", "layout": {"type": "flow"}, "bounds": B, "sections": [{"itemSizes": []}]}),
         '{"session":"a","section":0,"widthsAndHeights":%s}' % flat, 10**6),
        ("layout/reloadData", "1e6 sizes as objects into a flow",
         lambda s: s.call("layout/open", {"session": "r", "layout": {"type": "flow"}, "bounds": B, "sections": [{"itemCount": 1}]}),
         '{"session":"r","sections":[{"itemSizes":%s}]}' % million, 10**6),
        ("layout/setItemSizes", "1e6 measured sizes ({section, item, size} entries) for a flow",
         lambda s: s.call("layout/open", {"session": "z", "layout": {"type": "flow"}, "bounds": B,
                                          "sections": [{"itemCount": 10**6}]}),
         '{"session":"z","sizes":[' + ",".join('{"section":0,"item":%d,"size":{"width":%d,"height":%d}}'
                                               % (i, 10 + i % 50, 10 + i % 30) for i in range(10**6)) + "]}",
         10**6),
        ("layout/performBatchUpdates", "1e6 inserted items with sizes in one batch",
         lambda s: s.call("layout/open", {"session": "u", "layout": {"type": "flow"}, "bounds": B,
                                          "sections": [{"itemSizes": []}]}),
         '{"session":"u","updates":{"insertItems":[' + ",".join(
             '{"section":0,"item":%d,"size":{"width":%d,"height":%d}}' % (i, 10 + i % 50, 10 + i % 30)
             for i in range(10**6)) + "]}}", 10**6),
        ("layout/setBounds", "a rotation of a flow of 1e7 varied sizes (a relayout)",
         None, None, 10**7),
        ("layout/configure", "a new interitem spacing for a flow of 1e7 varied sizes (every line re-broken)",
         None, None, 10**7),
        ("layout/attributesInRect", "a rect answering just under maxAnswerBytes (8 MiB: 41,000 flow cells)",
         lambda s: s.call("layout/open", {"session": "q", "layout": {"type": "flow", "itemSize": {"width": 10, "height": 10}},
                                          "bounds": B, "sections": [{"itemCount": 1_000_000}]}),
         '{"session":"q","rect":{"x":0,"y":0,"width":375,"height":%d}}' % (41_000 // 19 * 20), 0),
        # Small requests (issue #28): a few bytes each, in states the
        # default limits allow.
        ("layout/setItemSizes", "one measured size in a flow of 1e8 uniform items",
         lambda s: s.call("layout/open", B8),
         '{"session":"u8","sizes":[%s]}' % one, 0),
        ("layout/setItemSizes", "a thousand measured sizes, 99,991 apart, in a flow of 1e8 uniform items",
         lambda s: s.call("layout/open", B8),
         json.dumps({"session": "u8", "sizes": thousand}), 0),
        ("layout/setBounds", "a rotation of that flow, after its thousand measured sizes",
         lambda s: (s.call("layout/open", B8), s.call("layout/setItemSizes", {"session": "u8", "sizes": thousand})),
         '{"session":"u8","bounds":{"x":0,"y":0,"width":600,"height":375}}', 1000),
        ("layout/setItemSizes", "one measured size in a cover flow of 1e8 uniform items",
         lambda s: s.call("layout/open", {"session": "c8", "layout": {"type": "coverFlow"}, "bounds": B,
                                          "sections": [{"itemCount": 10**8}]}),
         '{"session":"c8","sizes":[%s]}' % one, 0),
        ("layout/setItemSizes", "one measured size in a compositional section of 1e8 estimated items",
         lambda s: s.call("layout/open", {"session": "k8", "layout": estimated, "bounds": B,
                                          "sections": [{"itemCount": 10**8}]}),
         '{"session":"k8","sizes":[%s]}' % one, 0),
        ("layout/setItemSizes", "one measured size in a waterfall of 1e7 uniform items (its limit)",
         lambda s: s.call("layout/open", {"session": "w7", "layout": {"type": "waterfall", "columnCount": 3},
                                          "bounds": B, "sections": [{"itemCount": 10**7}]}),
         '{"session":"w7","sizes":[%s]}' % one, 0),
        ("layout/open", "a waterfall of 1e6 items in 1,024 columns (a 10,000-cell answer)",
         lambda s: None,
         '{"session":"wc","layout":{"type":"waterfall","columnCount":1024},"bounds":{"x":0,"y":0,"width":61440,"height":600},"sections":[{"itemCount":1000000}]}',
         0),
        ("layout/open", "a flow of 1e8 zero-width items on one line",
         lambda s: None,
         # The viewport lies below the line: the line alone would answer 1e8 cells.
         json.dumps(line), 0),
        ("layout/attributesForItem", "the last item of that line",
         lambda s: s.call("layout/open", line),
         '{"session":"l8","section":0,"item":99999999}', 0),
        ("layout/itemAtPoint", "a point on that line",
         lambda s: s.call("layout/open", line),
         '{"session":"l8","point":{"x":0,"y":5}}', 0),
        ("layout/attributesInRect", "that line's rect, limit 1",
         lambda s: s.call("layout/open", line),
         '{"session":"l8","rect":{"x":0,"y":0,"width":375,"height":10},"limit":1}', 0),
        # Issue #46's small requests behind O(n) paths, and #40's stall.
        ("layout/attributesInRect", "a pager of 1e8 pages (cubic): the whole content, limit 3",
         lambda s: s.call("layout/open", pager8),
         '{"session":"p8","rect":{"x":0,"y":0,"width":3.75e10,"height":600},"limit":3}', 0),
        ("layout/attributesInRect", "that pager's whole content, limit 3, after the middle page",
         lambda s: s.call("layout/open", pager8),
         '{"session":"p8","rect":{"x":0,"y":0,"width":3.75e10,"height":600},"limit":3,'
         '"after":{"kind":"cell","section":0,"item":50000000}}', 0),
        ("layout/attributesForItem", "by id in a flow of 1e6 items with ids, after a one-item delete",
         lambda s: (s.call("layout/open", ids6), s.call("layout/performBatchUpdates", {
             "session": "i6", "updates": {"deleteItems": [{"section": 0, "item": 0}]}})),
         '{"session":"i6","id":999999}', 0),
        ("layout/attributesForItem", "by id in that flow, after an identical snapshot",
         lambda s: (s.call("layout/open", ids6), s.call("layout/applySnapshot", {
             "session": "i6", "sections": [{"id": 0, "items": list(range(10**6))}]})),
         '{"session":"i6","id":999999}', 0),
        ("layout/configure", "placement stable for a waterfall of 1e7 uniform items",
         lambda s: s.call("layout/open", {"session": "ws", "layout": {"type": "waterfall", "columnCount": 3},
                                          "bounds": B, "sections": [{"itemCount": 10**7}]}),
         '{"session":"ws","layout":{"placement":"stable"}}', 0),
        ("layout/setBounds", "a waterfall of 1e7 items (3 columns) scrolled to y 1e12",
         lambda s: s.call("layout/open", {"session": "wf", "layout": {"type": "waterfall", "columnCount": 3},
                                          "bounds": B, "sections": [{"itemCount": 10**7}]}),
         '{"session":"wf","bounds":{"x":0,"y":1e12,"width":375,"height":600}}', 0),
        ("layout/attributesInRect", "a compositional section of 1e8 items: a page after item 5e7",
         lambda s: s.call("layout/open", {"session": "kp", "layout": grid3, "bounds": B,
                                          "sections": [{"itemCount": 10**8}]}),
         '{"session":"kp","rect":{"x":0,"y":0,"width":375,"height":2e9},"limit":3,'
         '"after":{"kind":"cell","section":0,"item":50000000}}', 0),
        ("layout/performBatchUpdates", "one inserted item in a rotary carousel of 1e6 items, visibleItems 1000",
         lambda s: s.call("layout/open", {"session": "cv", "layout": {"type": "carousel", "style": "rotary",
                                                                        "visibleItems": 1000},
                                          "bounds": B, "sections": [{"itemCount": 10**6}]}),
         '{"session":"cv","updates":{"insertItems":[{"section":0,"item":3}]}}', 0),
        ("layout/open", "a compositional section of 1e8 items in nested count groups (4,096 x 4,096)",
         lambda s: None, json.dumps(nested8), 0),
        ("layout/setBounds", "that nested section scrolled to y 1e6",
         lambda s: s.call("layout/open", nested8),
         '{"session":"n8","bounds":{"x":0,"y":1000000,"width":375,"height":600}}', 0),
        ("layout/setBounds", "a rotation of that nested section, after one measured size",
         lambda s: (s.call("layout/open", nested8),
                    s.call("layout/setItemSizes", {"session": "n8", "sizes": [json.loads(one)]})),
         '{"session":"n8","bounds":{"x":0,"y":0,"width":600,"height":375}}', 0),
    ]
    def once(method, setup, params):
        s = daemon(f"stall-{method.split('/')[1]}")
        try:
            if params is None:
                # The 1e7-size flow loaded through the bulk path, untimed.
                rng = random.Random(SEED)
                load_bulk(s, Ids(), "big", {"type": "flow"}, B, size_chunks(10**7, rng, (20, 120), (20, 80), DEFAULT_CHUNK))
                params = (json.dumps({"session": "big", "bounds": {"x": 0, "y": 0, "width": H, "height": W}})
                          if method == "layout/setBounds" else
                          json.dumps({"session": "big", "layout": {"minimumInteritemSpacing": 14}}))
            else:
                setup(s)
            f = body(99, method, params)
            before = s.status()
            ms, ok = timed(s, f)
            after = s.status()
        finally:
            s.close()
        return params, f, ms, ok, after["VmHWM"] - before["VmHWM"]

    for method, what, setup, params, m in cases:
        params, f, ms, ok, growth = once(method, setup, params)
        row = {"method": method, "what": what, "ms": ms, "accepted": ok, "bytes": len(f),
               "rss_growth_bytes": growth, "m": m}
        if len(params) >= SMALL_REQUEST:
            # A large message is judged against jansson's parse of it: both
            # vary by a quarter from run to run on a shared machine, so each
            # is the median of LARGE_RUNS (a fresh daemon, a fresh process).
            times = [ms] + [once(method, setup, params)[2] for _ in range(LARGE_RUNS - 1)]
            row["ms"] = ms = statistics.median(times)
            row["runs_ms"] = times
            row["jansson_ms"] = statistics.median(jansson_parse_ms(params) for _ in range(LARGE_RUNS))
        row["limit_ms"] = stall_limit_ms(row)
        rows.append(row)
        log(f"  {method}: {what}: {ms:.0f} ms, peak RSS +{growth / 2**20:.0f} MiB"
            f"{'' if ok else ' (refused)'}")
    return rows


#: (row, measurement, line prefix, unit, target, what the target bounds)
WATERFALL_ROWS = [
    ("W1", "engine: waterfall open (packed)", "waterfall packed open", "ns/item", 40.0, "p50"),
    ("W2", "engine: waterfall attributesInRect, 375×600 viewport", "waterfall attributesInRect",
     "µs", 10.0, "p50_us"),
    ("W3", "engine: waterfall append of 2,048 items", "waterfall append 2048", "µs", 1000.0, "p50_us"),
    ("W4", "engine: waterfall insert at 0, stable", "waterfall stable insert at 0", "µs", 50.0,
     "p50_us"),
    ("W5", "engine: waterfall insert at 0, packed", "waterfall packed insert at 0", "µs", 20000.0,
     "p50_us"),
    ("W6", "engine: waterfall delete at 0, stable", "waterfall stable delete at 0", "µs", None,
     "p50_us"),
    ("W7", "engine: waterfall delete at 0, packed", "waterfall packed delete at 0", "µs", None,
     "p50_us"),
    # Issue #28: shortest-first in O(n log c): columns do not multiply the cost.
    ("W8", "engine: waterfall open in 2 columns", "waterfall open in 2 columns", "ns/item", None, "p50"),
    ("W9", "engine: waterfall open in 1,024 columns", "waterfall open in 1024 columns", "ns/item", None,
     "p50"),
    # Issue #14: a carousel frame costs O(visibleItems + log n).
    ("C1", "engine: carousel rotary bounds update (attributes + centred card)",
     "carousel rotary bounds update", "µs", 10.0, "p50_us"),
    ("C2", "engine: carousel coverFlow bounds update", "carousel coverFlow bounds update", "µs", None,
     "p50_us"),
    ("C3", "engine: carousel cylinder bounds update", "carousel cylinder bounds update", "µs", None,
     "p50_us"),
    # Issue #25: a pager frame (FSPagerView, endless) costs O(log n + pages shown).
    ("P1", "engine: pager ferrisWheel bounds update (attributes + centred page)",
     "pager ferrisWheel bounds update", "µs", 5.0, "p50_us"),
    ("P2", "engine: pager coverFlow bounds update", "pager coverFlow bounds update", "µs", None,
     "p50_us"),
    ("P3", "engine: pager cubic bounds update", "pager cubic bounds update", "µs", None, "p50_us"),
    # Issue #17: compositional at 1e5 sections of 10 items, or one section of 1e6.
    ("K1", "engine: compositional open, 1e5 sections of 10 (grids and rows)",
     "compositional open of 100000 sections", "ns/item", 60.0, "p50"),
    ("K2", "engine: compositional attributesInRect, 375×600, 1e5 sections",
     "compositional attributesInRect 375x600, sections", "µs", 10.0, "p50_us"),
    ("K3", "engine: compositional scrollSection frame (offset, attributes, centred item)",
     "compositional scrollSection frame", "µs", 5.0, "p50_us"),
    ("K4", "engine: compositional open, one section of 1e6 measured self-sizing rows",
     "compositional open of one section", "ns/item", 60.0, "p50"),
    ("K5", "engine: compositional attributesInRect, 375×600, that section",
     "compositional attributesInRect 375x600, one section", "µs", 10.0, "p50_us"),
]


def engine_line(eng: dict, prefix: str) -> dict | None:
    for name, v in eng["lines"].items():
        if name.startswith(prefix):
            return v | {"name": name}
    return None


# ---------------------------------------------------------------- peers


def import_peers() -> dict:
    """Imports stretchable and poga, pip-installing them into .build/bench-peers
    (not into the environment: stretchable pins attrs < 26) when missing.
    Returns {name: module or reason string}."""
    if PEERS_DIR not in sys.path:
        sys.path.insert(0, PEERS_DIR)

    def attempt():
        got = {}
        try:
            import importlib

            importlib.import_module("stretchable.style")
            got["taffy"] = importlib.import_module("stretchable.taffylib")
        except Exception as e:  # ImportError, or a broken build
            got["taffy"] = f"import stretchable failed: {type(e).__name__}: {e}"
        try:
            from poga import libpoga_capi
            got["yoga"] = libpoga_capi
        except Exception as e:
            got["yoga"] = f"import poga failed: {type(e).__name__}: {e}"
        return got

    got = attempt()
    missing = [p for p, k in (("stretchable", "taffy"), ("poga", "yoga")) if isinstance(got[k], str)]
    if missing:
        log(f"  pip install --target {os.path.relpath(PEERS_DIR, ROOT)} {' '.join(missing)}")
        try:
            r = subprocess.run(
                [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                 "--target", PEERS_DIR, *missing],
                capture_output=True, text=True, timeout=300,
            )
            if r.returncode != 0:
                reason = (r.stderr.strip().splitlines() or ["pip failed"])[-1][:200]
                for p, k in (("stretchable", "taffy"), ("poga", "yoga")):
                    if p in missing:
                        got[k] = f"pip install {p} failed: {reason}"
                return got
        except (OSError, subprocess.TimeoutExpired) as e:
            for p, k in (("stretchable", "taffy"), ("poga", "yoga")):
                if p in missing:
                    got[k] = f"pip install {p} failed: {e}"
            return got
        import importlib
        importlib.invalidate_caches()
        got = attempt()
    return got


def peer_version(dist: str) -> str:
    try:
        import importlib.metadata as md
        for p in md.distributions(path=[PEERS_DIR] + sys.path):
            if p.metadata["Name"] and p.metadata["Name"].lower() == dist:
                return p.version
    except Exception:
        pass
    return "?"


def timed_ops(insert, delete, relayout) -> dict:
    """Alternating insert-at-0 + relayout and delete-at-0 + relayout."""
    ins, dels = [], []
    start = time.perf_counter()
    clock = time.perf_counter_ns
    while len(ins) < PEER_REPS_MAX and (len(ins) < 3 or time.perf_counter() - start < PEER_BUDGET_S):
        t0 = clock()
        insert()
        relayout()
        t1 = clock()
        ins.append(t1 - t0)
        t0 = clock()
        delete()
        relayout()
        t1 = clock()
        dels.append(t1 - t0)
    return {"insert0": summary(ins), "delete0": summary(dels)}


def bench_taffy(taffylib, n: int, item_sizes) -> dict:
    from stretchable.style import AlignItems, FlexDirection, PT, Size, Style
    from stretchable.style.geometry.size import SizeAvailableSpace

    ptr = taffylib.init()
    try:
        root_style = Style(flex_direction=FlexDirection.ROW, gap=10 * PT,
                           size=Size(CF_VIEW_W * PT, CF_VIEW_H * PT), align_items=AlignItems.CENTER)
        template = Style(size=Size(1 * PT, 1 * PT), flex_shrink=0).to_dict()
        space = SizeAvailableSpace(CF_VIEW_W, CF_VIEW_H).to_dict()

        def child(w, h):
            st = dict(template)
            st["size"] = {"width": {"dim": 1, "value": w}, "height": {"dim": 1, "value": h}}
            return taffylib.node_create(ptr, st)

        t0 = time.perf_counter_ns()
        root = taffylib.node_create(ptr, root_style.to_dict())
        for w, h in item_sizes:
            taffylib.node_add_child(ptr, root, child(w, h))
        t1 = time.perf_counter_ns()
        ok = taffylib.node_compute_layout(ptr, root, space)
        t2 = time.perf_counter_ns()
        if not ok:
            raise RuntimeError("compute_layout failed")
        # The binding has no insert-at-index (Taffy's Rust API does): the
        # insert appends a node, which dirties the root the same way.
        ops = timed_ops(
            lambda: taffylib.node_add_child(ptr, root, child(80, 120)),
            lambda: taffylib.node_remove_child_at_index(ptr, root, 0),
            lambda: taffylib.node_compute_layout(ptr, root, space),
        )
        return {"build_ms": (t1 - t0) / 1e6, "layout_ms": (t2 - t1) / 1e6,
                "layout_ns_per_item": (t2 - t1) / n} | ops
    finally:
        taffylib.free(ptr)


def bench_yoga(Y, n: int, item_sizes) -> dict:
    keep = []

    def child(w, h):
        c = Y.YGNodeNew()
        Y.YGNodeStyleSetWidth(c, w)
        Y.YGNodeStyleSetHeight(c, h)
        Y.YGNodeStyleSetFlexShrink(c, 0)
        Y.YGNodeStyleSetMargin(c, Y.YGEdge.Right, 10)
        return c

    t0 = time.perf_counter_ns()
    root = Y.YGNodeNew()
    Y.YGNodeStyleSetFlexDirection(root, Y.YGFlexDirection.Row)
    Y.YGNodeStyleSetAlignItems(root, Y.YGAlign.Center)
    Y.YGNodeStyleSetWidth(root, CF_VIEW_W)
    Y.YGNodeStyleSetHeight(root, CF_VIEW_H)
    for i, (w, h) in enumerate(item_sizes):
        c = child(w, h)
        keep.append(c)
        Y.YGNodeInsertChild(root, c, i)
    t1 = time.perf_counter_ns()
    Y.YGNodeCalculateLayout(root, CF_VIEW_W, CF_VIEW_H, Y.YGDirection.LTR)
    t2 = time.perf_counter_ns()

    def insert():
        c = child(80, 120)
        keep.append(c)
        Y.YGNodeInsertChild(root, c, 0)

    def delete():
        c = Y.YGNodeGetChild(root, 0)
        Y.YGNodeRemoveChild(root, c)

    ops = timed_ops(insert, delete,
                    lambda: Y.YGNodeCalculateLayout(root, CF_VIEW_W, CF_VIEW_H, Y.YGDirection.LTR))
    Y.YGNodeFreeRecursive(root)
    return {"build_ms": (t1 - t0) / 1e6, "layout_ms": (t2 - t1) / 1e6,
            "layout_ns_per_item": (t2 - t1) / n} | ops


def bench_peers(ns: list[int]) -> dict:
    out = {"ns": ns}
    mods = import_peers()
    out["taffy_version"] = peer_version("stretchable") if not isinstance(mods["taffy"], str) else None
    out["yoga_version"] = peer_version("poga") if not isinstance(mods["yoga"], str) else None
    for key, fn in (("taffy", bench_taffy), ("yoga", bench_yoga)):
        mod = mods[key]
        if isinstance(mod, str):
            out[key] = {"skipped": mod}
            log(f"  {key}: skipped ({mod})")
            continue
        out[key] = {}
        for n in ns:
            gc.collect()
            item_sizes = sizes(n, random.Random(SEED + n), CF_W, CF_H)
            try:
                gc.disable()
                out[key][str(n)] = fn(mod, n, item_sizes)
            except Exception as e:
                out[key][str(n)] = {"skipped": f"{type(e).__name__}: {e}"}
            finally:
                gc.enable()
            r = out[key][str(n)]
            if "skipped" not in r:
                log(f"  {key} {label(n)}: layout {r['layout_ms']:.2f} ms, insert0 "
                    f"{r['insert0']['p50_us']:.0f} µs, delete0 {r['delete0']['p50_us']:.0f} µs")
    return out


# ---------------------------------------------------------------- report


def build_report(m: dict, ns: list[int], wire: dict, eng: dict, peers: dict, cold: dict,
                 elapsed: float, waterfall: dict | None = None,
                 bulk: dict | None = None, stalls: list | None = None,
                 counted: dict | None = None, packed_load: dict | None = None,
                 doubles: dict | None = None,
                 snapshots: dict | None = None, reorder: dict | None = None) -> tuple[str, list[dict]]:
    big, small = max(ns), min(ns)
    cols = [label(n) for n in ns]
    rows: list[list[str]] = []

    def row(num, name, unit, cells, notes=""):
        rows.append([num, name, unit, *cells, notes])

    def per_n(f):
        out = []
        for n in ns:
            try:
                v = f(n)
            except (KeyError, TypeError, ZeroDivisionError):
                v = None
            out.append(v if isinstance(v, str) else fmt(v) if not isinstance(v, tuple)
                       else " / ".join(fmt(x) for x in v))
        return out

    W = lambda n: wire[n]  # noqa: E731
    lat = lambda key: per_n(lambda n: (W(n)[key]["p50_us"], W(n)[key]["p99_us"]))  # noqa: E731

    s0 = wire[small]["setbounds_rt"]

    def spread(key):
        # The largest spread of the blocks' p50s around their median, over n.
        worst = 0.0
        for n in ns:
            b = W(n)[key]["block_p50_us"]
            worst = max(worst, (max(b) - min(b)) / statistics.median(b))
        return f"the {BLOCKS} blocks' p50s within {100 * worst:.0f}% of each other"

    row("1", "floor: C + jansson echo, fixed 10-card answer, ping-pong", "µs p50 / p99",
        lat("floor_rt"),
        f"{BLOCKS} blocks of {BLOCK:,} round trips per n, each right before the daemon's block of "
        f"the same frames (row 2); the daemons of every n alive at once, their blocks interleaved; "
        f"{spread('floor_rt')}; jansson {jansson_version()}")
    row("1b", "floor: pipelined", "req/s",
        per_n(lambda n: W(n)["pipelined"]["floor_rps"]),
        f"{PIPE_K:,} requests per run, median of {PIPE_RUNS}")
    row("2", "setBounds round trip, coverFlow, ping-pong", "µs p50 / p99", lat("setbounds_rt"),
        f"{s0['cards_mean']:.1f} cards per answer ({s0['cards_min']}–{s0['cards_max']}), "
        f"every one rescaled each frame; {s0['answer_bytes_mean']:,.0f} B per answer; "
        f"{spread('setbounds_rt')}")
    row("2a", "setBounds p50 / floor p50", "ratio",
        per_n(lambda n: W(n)["setbounds_rt"]["p50_us"] / W(n)["floor_rt"]["p50_us"]),
        "target ≤ 0.6 at every n")
    row("2b", "setBounds p99 / floor p99", "ratio",
        per_n(lambda n: W(n)["setbounds_rt"]["p99_us"] / W(n)["floor_rt"]["p99_us"]),
        "target ≤ 1.5")
    row("2c", f"setBounds p50 / p50 at {label(small)}", "ratio",
        per_n(lambda n: W(n)["setbounds_rt"]["p50_us"] / s0["p50_us"]),
        f"target ≤ 1.10 at {label(big)}")
    row("2d", f"row 2a / row 2a at {label(small)}", "ratio",
        per_n(lambda n: (W(n)["setbounds_rt"]["p50_us"] / W(n)["floor_rt"]["p50_us"])
              / (s0["p50_us"] / wire[small]["floor_rt"]["p50_us"])),
        "row 2c with the machine's drift taken out by the paired floor blocks; for reference")
    r0 = wire[small]["rect_rt"]
    row("3", "attributesInRect round trip, flow, vertical grid viewport", "µs p50 / p99",
        lat("rect_rt"),
        f"375×300 rect, {r0['cells_mean']:.1f} cells per answer ({r0['cells_min']}–{r0['cells_max']})")
    f0 = wire[small]["fling_rt"]
    row("4", f"scrollEnded round trip, fling at {FLING:g} pt/ms", "µs p50 / p99", lat("fling_rt"),
        f"crosses ≈{f0['cards_crossed_mean']:.0f} cards ({f0['distance_pt_mean']:,.0f} pt); "
        f"{f0['trajectory_samples_mean']:.0f} trajectory samples at 60 Hz")

    def eng_cell(prefix, per_item=False, upto=None):
        def f(n):
            if upto is not None and n > upto:
                return "—"
            v = engine_line(eng[n], prefix)
            if v is None:
                return "missing"
            if per_item:
                return (v["p50"], v["p99"])
            return (v["p50_us"], v["p99_us"])
        return per_n(f)

    row("5a", "engine: coverFlow bounds update (attributes + centred card)", "µs p50 / p99",
        eng_cell("coverFlow bounds update"),
        f"flowlayout-bench, median of {ENGINE_RUNS} runs; in process, no JSON; "
        "its own 375×600 viewport and default coverFlow")
    row("5b", "engine: coverFlow snap", "µs p50 / p99", eng_cell("coverFlow snap"), "flowlayout-bench")
    row("5c", "engine: flow open", "ns/item p50 / p99", eng_cell("flow open", per_item=True),
        "flowlayout-bench, variable sizes")
    row("5d", "handler: layout/setBounds in process (JSON in and out, no pipes)", "µs p50 / p99",
        eng_cell("layout/setBounds handler"),
        "flowlayout-bench; the session opened over JSON (packed sizes beyond 1e6); target ≤ 5 µs")
    b0 = wire[big]["insert0_rt"]
    row("5e", "insert at 0: performBatchUpdates round trip", "µs p50 / p99", lat("insert0_rt"),
        f"over the wire, for reference (the target is engine-only: row 5h); single-row coverFlow "
        f"of n variable sizes; {b0['samples']} at {label(big)}")
    row("5f", "delete at 0: performBatchUpdates round trip", "µs p50 / p99", lat("delete0_rt"),
        "over the wire, for reference (the target is engine-only: row 5i)")
    row("5g", "engine: coverFlow open", "ns/item p50 / p99", eng_cell("coverFlow open", per_item=True),
        "flowlayout-bench, variable sizes, single row")
    row("5h", "engine: insert at 0, single-row coverFlow", "µs p50 / p99",
        eng_cell("coverFlow (single row) insert at 0"), "flowlayout-bench, in process, no JSON")
    row("5i", "engine: delete at 0, single-row coverFlow", "µs p50 / p99",
        eng_cell("coverFlow (single row) delete at 0"), "flowlayout-bench")
    row("5j", "engine: insert at 0, flow with wrapping lines", "µs p50 / p99",
        eng_cell("flow (wrapping lines) insert at 0"),
        "flowlayout-bench; reflows from the affected line until the line breaks resynchronise")
    row("5k", "engine: delete at 0, flow with wrapping lines", "µs p50 / p99",
        eng_cell("flow (wrapping lines) delete at 0"), "flowlayout-bench")
    row("6", "setBounds pipelined (writer thread + reader)", "req/s",
        per_n(lambda n: W(n)["pipelined"]["daemon_rps"]),
        f"{PIPE_K:,} requests per run, median of {PIPE_RUNS}")
    row("6a", "setBounds pipelined / floor pipelined", "ratio",
        per_n(lambda n: W(n)["pipelined"]["daemon_rps"] / W(n)["pipelined"]["floor_rps"]), "")
    chunk = wire[big]["load"]["chunk_items"]
    mem_n = 10**7 if 10**7 in ns else big
    mem_note = (f"target ≤ 64 at {label(mem_n)}" if mem_n == 10**7 else
                f"target ≤ 64, checked at {label(mem_n)}, the largest n of this run "
                f"(the issue states it at 1e7, which BENCH_N leaves out)")
    row("7", "memory: daemon RSS growth per item after loading n items (bulk path)", "B/item",
        per_n(lambda n: W(n)["memory"]["bytes_per_item"]),
        f"VmRSS after − before loading the carousel's n variable sizes (layout/open with the first "
        f"{chunk:,}, then appendItems chunks); {mem_note}")
    row("8", "load over JSON: n variable sizes through the bulk path", "ms wall",
        per_n(lambda n: W(n)["load"]["wall_ms"]),
        f"layout/open with the first {chunk:,} sizes, then layout/appendItems chunks of {chunk:,} "
        "(packed, widthsAndHeightsBase64, as the Python client sends them), each sent once the "
        "previous is answered, the daemon's default limits; "
        "each request's write to its answer, summed (the driver's encoding left out); " + ", ".join(
            f"{label(n)}: {W(n)['load']['ns_per_item']:,.0f} ns/item, {W(n)['load']['requests']:,} "
            f"request{'s' if W(n)['load']['requests'] != 1 else ''} "
            f"({W(n)['load']['appends']:,} append{'s' if W(n)['load']['appends'] != 1 else ''}), "
            f"{W(n)['load']['bytes'] / 2**20:,.2f} MiB, slowest "
            f"{W(n)['load']['slowest_request_ms']:.2f} ms" for n in ns))
    row("8a", "load over JSON: daemon peak RSS (VmHWM)", "MiB",
        per_n(lambda n: W(n)["load"]["vmhwm_bytes"] / 2**20),
        "after the load of row 8 (the daemon holds only that session)")
    q0 = wire[big]["queued"]
    qlat = lambda enc: per_n(lambda n: (W(n)["queued"][enc]["p50_us"] / 1e3,  # noqa: E731
                                        W(n)["queued"][enc]["p99_us"] / 1e3,
                                        W(n)["queued"][enc]["max_us"] / 1e3))
    row("8b", "setBounds queued behind a bulk chunk (widthsAndHeights)", "ms p50 / p99 / max",
        qlat("widthsAndHeights"),
        f"one write of a {q0['widthsAndHeights']['chunk_items']:,}-item appendItems chunk to the "
        f"carousel being scrolled (≈{q0['widthsAndHeights']['chunk_bytes'] / 1024:.0f} KiB) with a "
        f"setBounds frame right behind it, to the setBounds answer; {q0['widthsAndHeights']['samples']} "
        f"repetitions per n; target ≤ 8.3 ms (one 120 Hz frame)")
    row("8c", "setBounds queued behind a bulk chunk (itemSizes objects)", "ms p50 / p99 / max",
        qlat("itemSizes"),
        f"the same with the chunk as {{width, height}} objects "
        f"(≈{q0['itemSizes']['chunk_bytes'] / 1024:.0f} KiB), the slower encoding; for reference")
    row("8d", "setBounds queued behind a bulk chunk (packed, the Python client's)", "ms p50 / p99 / max",
        qlat("widthsAndHeightsBase64"),
        f"the same with the chunk packed as widthsAndHeightsBase64 "
        f"(≈{q0['widthsAndHeightsBase64']['chunk_bytes'] / 1024:.0f} KiB), as the Python client sends "
        "its chunks; target ≤ 8.3 ms")
    cells = [fmt(cold["daemon"]["p50_us"] / 1e3)] + ["·"] * (len(ns) - 1)
    row("9", "cold start: spawn to first initialize answer", "ms median", cells,
        f"n-independent, median of {COLD_RUNS} (p99 {fmt(cold['daemon']['p99_us'] / 1e3)} ms); "
        f"the floor: {fmt(cold['floor']['p50_us'] / 1e3)} ms; the release build, dynamically linked")
    if "dist" in cold:
        cells = [fmt(cold["dist"]["p50_us"] / 1e3)] + ["·"] * (len(ns) - 1)
        row("9a", "cold start: make dist's static executable", "ms median", cells,
            f"median of {COLD_RUNS} (p99 {fmt(cold['dist']['p99_us'] / 1e3)} ms); "
            f"ldd: {cold['dist']['ldd']}")

    # 10: peers, side by side with flowlayoutd's figures of the same run.
    def peer_cells(key, f):
        p = peers.get(key, {})
        out = []
        for n in ns:
            if "skipped" in p:
                out.append("skipped")
            elif str(n) not in p:
                out.append("—")
            elif "skipped" in p[str(n)]:
                out.append("skipped")
            else:
                v = f(p[str(n)])
                out.append(" / ".join(fmt(x) for x in v) if isinstance(v, tuple) else fmt(v))
        return out

    pn = ", ".join(label(n) for n in peers.get("ns", [])) or "none of BENCH_N"
    tv, yv = peers.get("taffy_version"), peers.get("yoga_version")
    tskip = peers.get("taffy", {}).get("skipped")
    yskip = peers.get("yoga", {}).get("skipped")
    tname = f"Taffy (stretchable {tv})" if tv else "Taffy (stretchable)"
    yname = f"Yoga (poga {yv})" if yv else "Yoga (poga)"
    cf_open = per_n(lambda n: (engine_line(eng[n], "coverFlow open")["p50"] * n / 1e6))
    row("10a", "single row, n variable sizes, first layout: flowlayoutd engine", "ms",
        cf_open, "coverFlow open ns/item (row 5g) × n, in process")
    row("10b", f"… {tname}: compute_layout", "ms",
        peer_cells("taffy", lambda r: r["layout_ms"]),
        f"skipped: {tskip}" if tskip else
        f"flex row, gap 10, fixed-size children; in process through the binding; peers at {pn} only")
    row("10c", f"… {yname}: YGNodeCalculateLayout", "ms",
        peer_cells("yoga", lambda r: r["layout_ms"]),
        f"skipped: {yskip}" if yskip else "flex row, margin 10, fixed-size children")
    row("10d", f"insert at 0 + relayout: {tname}", "µs p50 / p99",
        peer_cells("taffy", lambda r: (r["insert0"]["p50_us"], r["insert0"]["p99_us"])),
        f"skipped: {tskip}" if tskip else
        "the binding has no insert-at-index: a node is appended (the root is dirtied the same way); "
        "compare rows 5h (engine) and 5e (a round trip)")
    row("10e", f"insert at 0 + relayout: {yname}", "µs p50 / p99",
        peer_cells("yoga", lambda r: (r["insert0"]["p50_us"], r["insert0"]["p99_us"])),
        f"skipped: {yskip}" if yskip else "YGNodeInsertChild(root, node, 0); compare rows 5h and 5e")
    row("10f", f"delete at 0 + relayout: {tname} / {yname}", "µs p50",
        [f"{a} / {b}" for a, b in zip(peer_cells("taffy", lambda r: r["delete0"]["p50_us"]),
                                      peer_cells("yoga", lambda r: r["delete0"]["p50_us"]))],
        "remove_child_at_index(0) / YGNodeRemoveChild of child 0; compare rows 5i and 5f")

    header = ["#", "measurement", "unit", *[f"n = {c}" for c in cols], "notes"]
    lines = [
        f"flowlayoutd `make bench` — {m['nproc']} cores (nproc), {m['cpu']}, Linux {m['kernel']}, "
        f"Python {m['python']}, {m['date']}; load average at start {m['loadavg_at_start']}; "
        f"the suite took {elapsed:.0f} s"
        + (" — BENCH_QUICK: reduced repetitions, not for figures" if QUICK else ""),
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---", "---", "---", *["---:"] * len(cols), "---"]) + "|",
    ]
    for r in rows:
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")

    # The issue's targets.
    targets = []

    def target(name, limit, values, ok, note=""):
        targets.append({"target": name, "limit": limit, "values": values, "pass": ok, "note": note})

    if snapshots is not None:
        lines += [
            "",
            "Snapshots (layout/applySnapshot): n items with ids in 10 sections of a flow, 1 % of them "
            "changed (a third deleted, a third inserted, a third moved, a quarter of the moves across "
            "sections), or none; flowlayout-bench N snapshot, median of "
            f"{ENGINE_RUNS} runs. Over JSON, the daemon's cost is the request's time less jansson's parse:",
            "",
            "| # | measurement | n | unit | p50 / p99 | target |",
            "|---|---|---:|---|---:|---:|",
        ]
        for num, name, n, prefix, key, unit, limit in SNAPSHOT_ROWS:
            v = next((x for k, x in snapshots.get(label(n), {}).items() if k.startswith(prefix)), None)
            if v is None:
                cell = "—"
            elif key == "bytes_per_item":
                cell = fmt(v[key])
            else:
                cell = f"{fmt(v['p50_ms'])} / {fmt(v['p99_ms'])}"
            lines.append(f"| {num} | {name} | {label(n)} | {unit} | {cell} | "
                         f"{'—' if limit is None else fmt(limit)} |")
            if limit is not None:
                got = None if v is None else v[key]
                target(f"{name} ≤ {fmt(limit)} {unit} ({label(n)})", limit, {label(n): got},
                       None if got is None else got <= limit, f"row {num}")
        # Over JSON the issue's targets bound the daemon's part: the request's
        # time less jansson's parse of it, both from this run.
        for n, limit, rows in ((10**5, 10.0, "D5 − D6"), (10**6, 150.0, "D7 − D8")):
            lines_n = snapshots.get(label(n), {})
            over_json = next(
                (x["p50_ms"] for k, x in lines_n.items() if k.startswith("layout/applySnapshot over")), None)
            parse = next((x["p50_ms"] for k, x in lines_n.items() if k.startswith("jansson parse")), None)
            got = None if over_json is None or parse is None else round(over_json - parse, 2)
            target(f"over JSON: layout/applySnapshot, 1 % changed, beyond jansson's parse ≤ {fmt(limit)} ms "
                   f"({label(n)})", limit, {label(n): got}, None if got is None else got <= limit,
                   f"rows {rows}")

    if reorder is not None:
        lines += [
            "",
            f"Drag to reorder: {REORDER_N:,} items of varied sizes in a flow of wrapping lines and in a "
            "3-column waterfall; the item at n/2 grabbed, the target taken 10,000 items away, then 400 "
            "frames moving the finger to the next item (the target moves by a slot about every other "
            "frame), each an update and a walk of the viewport; flowlayout-bench N reorder, median of "
            f"{ENGINE_RUNS} runs. A packed waterfall re-places every item after a changed one until its "
            "columns resynchronise, which after a move they rarely do:",
            "",
            "| # | measurement | unit | p50 / p99 | target |",
            "|---|---|---|---:|---:|",
        ]
        for num, name, line, limit in REORDER_ROWS:
            v = reorder.get(line)
            cell = "—" if v is None else f"{fmt(v['p50_us'])} / {fmt(v['p99_us'])}"
            lines.append(f"| {num} | {name} | µs | {cell} | {'—' if limit is None else fmt(limit)} |")
            if limit is not None:
                got = None if v is None else v["p50_us"]
                target(f"drag to reorder: {name} ≤ {fmt(limit)} µs ({label(REORDER_N)})", limit,
                       {label(REORDER_N): got}, None if got is None else got <= limit, f"row {num}")

    if waterfall is not None:
        lines += [
            "",
            f"Waterfall and carousels, at those issues' size: {WATERFALL_N:,} items of the engine "
            "rows' sizes (the waterfall's as aspect ratios, 3 columns of a 375-wide viewport; "
            "the carousels' in a 375×600 viewport, iCarousel's defaults); flowlayout-bench "
            f"{WATERFALL_N} waterfall, median of {ENGINE_RUNS} runs, in process:",
            "",
            "| # | measurement | unit | p50 / p99 | target (p50) |",
            "|---|---|---|---:|---:|",
        ]
        for num, name, prefix, unit, limit, key in WATERFALL_ROWS:
            v = engine_line(waterfall, prefix)
            cell = "—" if v is None else f"{fmt(v['p50'] if unit == 'ns/item' else v['p50_us'])} / " \
                f"{fmt(v['p99'] if unit == 'ns/item' else v['p99_us'])}"
            lines.append(f"| {num} | {name} | {unit} | {cell} | {'—' if limit is None else fmt(limit)} |")
            if limit is not None:
                got = None if v is None else v[key]
                target(f"{name} ≤ {fmt(limit)} {unit} (p50, {label(WATERFALL_N)})", limit,
                       {label(WATERFALL_N): got}, None if got is None else got <= limit,
                       f"row {num}")

    if waterfall is not None:
        two = engine_line(waterfall, "waterfall open in 2 columns")
        many = engine_line(waterfall, "waterfall open in 1024 columns")
        got = None if two is None or many is None else many["p50"] / two["p50"]
        target(f"waterfall open in 1,024 columns ≤ 3 × in 2 columns ({label(WATERFALL_N)}, rows W8 and W9)",
               3.0, {label(WATERFALL_N): got}, None if got is None else got <= 3.0, "rows W8, W9")

    ratio = {label(n): W(n)["setbounds_rt"]["p50_us"] / W(n)["floor_rt"]["p50_us"] for n in ns}
    target("setBounds p50 ≤ 0.6 × floor p50, at every n", 0.6, ratio, all(v <= 0.6 for v in ratio.values()))
    ratio = {label(n): W(n)["setbounds_rt"]["p99_us"] / W(n)["floor_rt"]["p99_us"] for n in ns}
    target("setBounds p99 ≤ 1.5 × floor p99, at every n", 1.5, ratio, all(v <= 1.5 for v in ratio.values()))
    if big != small:
        v = W(big)["setbounds_rt"]["p50_us"] / s0["p50_us"]
        target(f"setBounds p50({label(big)}) ≤ 1.10 × p50({label(small)})", 1.10, {label(big): v}, v <= 1.10)
    else:
        target("setBounds p50(max n) ≤ 1.10 × p50(1e3)", 1.10, {}, None, "needs two sizes")
    for name, prefix, limit, unit in (
        ("engine bounds update ≤ 5 µs (p50, every n)", "coverFlow bounds update", 5.0, "µs"),
        ("engine snap ≤ 4 µs (p50, every n)", "coverFlow snap", 4.0, "µs"),
    ):
        vals = {label(n): (engine_line(eng[n], prefix) or {}).get("p50_us") for n in ns}
        ok = None if None in vals.values() else all(v <= limit for v in vals.values())
        target(name, limit, vals, ok)
    vals = {}
    for prefix, short in (("flow open", "flow"), ("coverFlow open", "coverFlow")):
        for n in ns:
            vals[f"{short} {label(n)}"] = (engine_line(eng[n], prefix) or {}).get("p50")
    target("open ≤ 20 ns/item (engine, flow and coverFlow, p50, every n)", 20.0, vals,
           None if None in vals.values() else all(v <= 20 for v in vals.values()))
    for prefix, what in (("coverFlow (single row) insert at 0", "insert"),
                         ("coverFlow (single row) delete at 0", "delete")):
        vals = {label(n): (engine_line(eng[n], prefix) or {}).get("p50_us") for n in ns}
        engine_row, wire_row = ("5h", "5e") if what == "insert" else ("5i", "5f")
        target(f"{what} at 0 ≤ 20 µs (engine, single-row coverFlow, p50, every n)", 20.0, vals,
               None if None in vals.values() else all(v <= 20 for v in vals.values()),
               f"row {engine_row}, in process; the round trip over the wire is row {wire_row}")
    v = W(mem_n)["memory"]["bytes_per_item"]
    target(f"memory ≤ 64 B/item at {label(mem_n)}", 64.0, {label(mem_n): v}, v <= 64,
           "" if mem_n == 10**7 else
           f"the issue states it at 1e7; BENCH_N leaves 1e7 out, so checked at the largest n")
    if bulk is not None:
        lines += [
            "",
            f"Bulk answers: one layout/attributesInRect answering {BULK_N:,} attributes of a session of "
            f"{BULK_N:,} 10×10 items (a daemon started with --max-answer-bytes {64 << 20}: the answer is "
            "over the default 8 MiB), over the pipe to its last byte, read into one reused buffer "
            "(median of the round trips), with "
            "callgrind's instructions per attribute (three such requests against one) and the peak RSS "
            "growth over the answer's bytes:",
            "",
            "| # | layout | attributes | bytes | µs per attribute (wall) | instructions per attribute | peak RSS growth / answer bytes |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for num, kind in (("B1", "flow"), ("B2", "coverFlow")):
            v = bulk[kind]
            lines.append(f"| {num} | {kind} | {v['attributes']:,} | {v['bytes']:,} | {fmt(v['wall_us_per_attribute'])} | "
                         f"{v['instructions_per_attribute']:,.0f} | {fmt(v['peak_over_answer'])} |")
        # The target is the flow row's; cover flow's 16 transform numbers per
        # card go through Double.description, for reference.
        v = bulk["flow"]
        target("bulk answer ≤ 0.5 µs per attribute (flow, 1e5 attributes, wall)", 0.5,
               {"1e5": v["wall_us_per_attribute"]}, v["wall_us_per_attribute"] <= 0.5,
               f"row B1; {v['instructions_per_attribute']:,.0f} instructions per attribute")
        for num, kind in (("B1", "flow"), ("B2", "coverFlow")):
            v = bulk[kind]
            target(f"peak RSS growth while answering ≤ 2 × the answer's bytes ({kind})", 2.0,
                   {"1e5": v["peak_over_answer"]}, v["peak_over_answer"] <= 2.0, f"row {num}")
    if stalls is not None:
        lines += [
            "",
            "Worst accepted requests: each method's largest request the default limits accept, and the "
            "small requests that are costly in some states, timed over the pipe. Issue #28's targets: a "
            "message under 64 KiB holds the loop at most 50 ms + 60 ns for each item whose size the "
            "session was sent one by one (m), and grows the peak RSS by at most 64 MiB; a larger one "
            "at most 1.5 × jansson's own parse of it (bench/jansson_parse.c: one parse in a fresh process, "
            "as the daemon meets the message once; same run) + 50 ms. A large message's ms and jansson "
            f"ms are each the median of {LARGE_RUNS} runs (a fresh daemon, a fresh process): both vary by "
            "a quarter from run to run here:",
            "",
            "| # | method | request | m | jansson ms | ms | target ms | peak RSS growth | |",
            "|---|---|---|---:|---:|---:|---:|---:|---|",
        ]
        for k, r in enumerate(stalls, 1):
            flag = "refused" if not r["accepted"] else ("ok" if stall_ok(r) else "**over**")
            j = fmt(r["jansson_ms"]) if "jansson_ms" in r else "—"
            lines.append(f"| S{k} | `{r['method']}` | {r['what']} | {r.get('m', 0):,} | {j} | {fmt(r['ms'])} | "
                         f"{fmt(r['limit_ms'])} | {r['rss_growth_bytes'] / 2**20:,.0f} MiB | {flag} |")
        over = [r for r in stalls if not stall_ok(r)]
        target("every request within issue #28's stall and RSS targets (rows S)", None,
               {r["method"] + " (" + r["what"].split(",")[0] + ")": r["ms"] for r in over},
               not over, f"{len(stalls) - len(over)} of {len(stalls)} rows within")
    if counted is not None:
        sb, se = counted["setBounds"], counted["scrollEnded"]
        al = counted["allocations"]
        lines += [
            "",
            f"Counted (issue #16): instructions per request under callgrind, a ping-pong of 1,500 "
            f"requests less one of 500, over 1,000 (the same count for the same binary and input, "
            f"whatever else the machine does); a cover flow of {COUNT_N:,} cards in a "
            f"{CF_VIEW_W:g}×{CF_VIEW_H:g} viewport; heap allocations per request counted by "
            f"bench/malloc_count.c:",
            "",
            "| # | measurement | flowlayoutd | floor | ratio | allocations |",
            "|---|---|---:|---:|---:|---:|",
            f"| X1 | setBounds frame ({sb['cards']} cards, {sb['answer_bytes']:,} B) | {sb['daemon']:,.0f} | "
            f"{sb['floor']:,.0f} | {sb['daemon'] / sb['floor']:.3f} | {fmt(al['setBounds'])} |",
            f"| X2 | scrollEnded, fling at {FLING:g} pt/ms ({se['samples']} samples) | {se['daemon']:,.0f} | — | — | "
            f"{fmt(al['scrollEnded'])} |",
        ]
        target("setBounds ≤ 100,000 instructions per frame (callgrind)", 100000,
               {"instructions": sb["daemon"]}, sb["daemon"] <= 100000, "row X1")
        target("setBounds ≤ 0.1 × the floor's instructions", 0.1, {"ratio": sb["daemon"] / sb["floor"]},
               sb["daemon"] / sb["floor"] <= 0.1, f"row X1; the floor: {sb['floor']:,.0f}")
        target("scrollEnded ≤ 150,000 instructions", 150000, {"instructions": se["daemon"]},
               se["daemon"] <= 150000, f"row X2, {se['samples']} trajectory samples")
        target("allocations per setBounds frame ≤ 4 (make test's bound)", 4, {"per frame": al["setBounds"]},
               al["setBounds"] <= 5, "row X1; Tests/EndToEnd/transport/test_allocations.py")
    vals = {}
    for n in ns:
        v = engine_line(eng[n], "layout/setBounds handler")
        vals[label(n)] = None if v is None else v["p50_us"]
    target("in-process setBounds handler ≤ 5 µs (p50, every n)", 5.0, vals,
           None if None in vals.values() else all(v <= 5 for v in vals.values()), "row 5d")
    if doubles is not None:
        target(f"number formatting: {doubles['count']:,} random doubles read back as themselves, "
               "never longer than Double.description", None, {"seconds": doubles["seconds"]},
               doubles["passed"], "ShortestDoubleTests.testRandomDoubles with FLOWLAYOUT_DOUBLES")
    if packed_load is not None:
        pl = packed_load
        lines += [
            "",
            f"Packed load (issue #16): {pl['items']:,} variable sizes in chunks of {pl['chunk_items']:,} as "
            "widthsAndHeightsBase64 (layout/open with the first), each sent once the previous is answered; "
            f"L1 and L1j are the fastest of {pl.get('runs', 1)} loads (each by a fresh daemon) and of as many "
            "parses:",
            "",
            "| # | measurement | value |",
            "|---|---|---:|",
            f"| L1 | wall, summed over requests | {pl['wall_ms']:,.0f} ms ({pl['ns_per_item']:.0f} ns/item) |",
            f"| L1j | jansson's parse of the same messages, one after another in one process "
            f"(bench/jansson_parse.c --frames) | {pl['jansson_ms']:,.0f} ms "
            f"({pl['wall_ms'] / pl['jansson_ms']:.2f}×) |",
            f"| L2 | slowest request | {pl['slowest_request_ms']:,.0f} ms |",
            f"| L3 | peak RSS / RSS after | {pl['peak_over_after']:.2f} ({pl['rss_peak'] / 2**20:,.0f} / "
            f"{pl['rss_after'] / 2**20:,.0f} MiB) |",
            f"| L4 | retained per item | {pl['bytes_per_item']:.1f} B |",
        ]
        target("1e7 packed sizes load in ≤ 1.25 × jansson's parse of the same messages (issue #28)", 1.25,
               {"ratio": pl["wall_ms"] / pl["jansson_ms"]}, pl["wall_ms"] <= 1.25 * pl["jansson_ms"],
               f"rows L1 and L1j: {pl['wall_ms']:,.0f} against {pl['jansson_ms']:,.0f} ms")
        target("peak RSS during the load ≤ 1.5 × RSS after", 1.5, {"ratio": pl["peak_over_after"]},
               pl["peak_over_after"] <= 1.5, "row L3")
        target("retained ≤ 24 B/item", 24, {"B/item": pl["bytes_per_item"]}, pl["bytes_per_item"] <= 24,
               "row L4")
    if "dist" in cold:
        v = cold["dist"]["p50_us"] / 1e3
        target("make dist: cold start ≤ 1.5 ms (median) and no libswift in ldd", 1.5, {"ms": v},
               v <= 1.5 and not cold["dist"]["libswift"], "row 9a")
    vals = {label(n): W(n)["queued"]["widthsAndHeightsBase64"]["p99_us"] / 1e3 for n in ns}
    target(f"setBounds queued behind the Python client's packed {chunk:,}-item chunk ≤ 8.3 ms (p99, every n)",
           8.3, vals, all(v <= 8.3 for v in vals.values()), "ms, row 8d")
    vals = {label(n): W(n)["queued"]["widthsAndHeights"]["p99_us"] / 1e3 for n in ns}
    mx = max(W(n)["queued"]["widthsAndHeights"]["max_us"] / 1e3 for n in ns)
    target(f"setBounds queued behind a {chunk:,}-item bulk chunk ≤ 8.3 ms (p99, every n)", 8.3, vals,
           all(v <= 8.3 for v in vals.values()),
           f"ms, row 8b; the largest single wait: {fmt(mx)} ms")
    lines.append("")
    lines.append("Targets of issues #7, #13, #14, #16, #17 and #18 (performance, waterfall, carousel, "
                 "counted performance, compositional, bulk answers):")
    lines.append("")
    for t in targets:
        status = "n/a" if t["pass"] is None else "PASS" if t["pass"] else "FAIL"
        vals = ", ".join(f"{k}: {fmt(v)}" for k, v in t["values"].items())
        note = f" ({t['note']})" if t["note"] else ""
        lines.append(f"- **{status}** {t['target']}: {vals or '—'}{note}")
    return "\n".join(lines) + "\n", targets


SVG_PATH = os.path.join(ROOT, "docs", "bench.svg")


def write_svg(ns: list[int], wire: dict, eng: dict, peers: dict, counted: dict | None,
              packed_load: dict | None, m: dict) -> None:
    """docs/bench.svg, drawn with the standard library: per-change cost
    against n (log scales) for the daemon over the pipe, the floor, the
    engine and the peers; then the load, memory and instruction rows as
    bars."""
    W, H = 960, 560
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="Helvetica, Arial, sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="20" y="24" font-size="15" font-weight="bold">flowlayoutd make bench — {m["date"]}, '
           f'{m["nproc"]} cores</text>']

    def esc(t: str) -> str:
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    # Panel 1: µs per frame or change against n, log-log.
    px, py, pw, ph = 70, 60, 520, 420
    series = []

    def add(name, color, pts, dash=""):
        pts = [(n, v) for n, v in pts if v is not None and v > 0]
        if pts:
            series.append((name, color, pts, dash))

    def eng_p50(n, prefix):
        v = engine_line(eng[n], prefix)
        return None if v is None else v["p50_us"]

    add("setBounds round trip (daemon, pipe)", "#d62728", [(n, wire[n]["setbounds_rt"]["p50_us"]) for n in ns])
    add("floor round trip (C + jansson)", "#7f7f7f", [(n, wire[n]["floor_rt"]["p50_us"]) for n in ns], "6,4")
    add("setBounds handler in process", "#ff7f0e", [(n, eng_p50(n, "layout/setBounds handler")) for n in ns])
    add("engine bounds update", "#2ca02c", [(n, eng_p50(n, "coverFlow bounds update")) for n in ns])
    add("engine insert at 0", "#1f77b4", [(n, eng_p50(n, "coverFlow (single row) insert at 0")) for n in ns])
    for key, name, color in (("taffy", "Taffy insert at 0 + relayout", "#9467bd"),
                             ("yoga", "Yoga insert at 0 + relayout", "#8c564b")):
        p = peers.get(key, {})
        add(name, color, [(n, p.get(str(n), {}).get("insert0", {}).get("p50_us")) for n in ns], "2,3")
    allv = [v for _, _, pts, _ in series for _, v in pts]
    if allv:
        lo = math.floor(math.log10(min(allv)))
        hi = math.ceil(math.log10(max(allv)))
        hi = max(hi, lo + 1)
        nlo, nhi = math.log10(min(ns)), math.log10(max(ns))
        if nhi == nlo:
            nlo, nhi = nlo - 1, nhi + 1

        def X(n):
            return px + (math.log10(n) - nlo) / (nhi - nlo) * pw

        def Y(v):
            return py + ph - (math.log10(v) - lo) / (hi - lo) * ph

        out.append(f'<rect x="{px}" y="{py}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>')
        for e in range(lo, hi + 1):
            y = Y(10**e)
            out.append(f'<line x1="{px}" y1="{y:.1f}" x2="{px + pw}" y2="{y:.1f}" stroke="#ddd"/>')
            tick = f"{10.0**e:,.0f}" if e >= 0 else f"{10.0**e:g}"
            out.append(f'<text x="{px - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>')
        for n in ns:
            x = X(n)
            out.append(f'<line x1="{x:.1f}" y1="{py}" x2="{x:.1f}" y2="{py + ph}" stroke="#eee"/>')
            out.append(f'<text x="{x:.1f}" y="{py + ph + 16}" text-anchor="middle">{label(n)}</text>')
        out.append(f'<text x="{px + pw / 2}" y="{py + ph + 34}" text-anchor="middle">items in the session (n)</text>')
        out.append(f'<text x="18" y="{py + ph / 2}" transform="rotate(-90 18 {py + ph / 2})" '
                   'text-anchor="middle">µs per frame or change (p50)</text>')
        for k, (name, color, pts, dash) in enumerate(series):
            d = " ".join(f"{X(n):.1f},{Y(v):.1f}" for n, v in pts)
            extra = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<polyline points="{d}" fill="none" stroke="{color}" stroke-width="2"{extra}/>')
            for n, v in pts:
                out.append(f'<circle cx="{X(n):.1f}" cy="{Y(v):.1f}" r="3" fill="{color}"/>')
            ly = py + 14 + 16 * k
            out.append(f'<line x1="{px + 10}" y1="{ly - 4}" x2="{px + 30}" y2="{ly - 4}" stroke="{color}" '
                       f'stroke-width="2"{extra}/>')
            out.append(f'<text x="{px + 36}" y="{ly}">{esc(name)}</text>')

    # Panel 2: bars, each labelled with its value.
    bx, bw = 640, 300
    y = 60
    bars = []
    big = max(ns)
    if packed_load:
        bars.append(("load, ns per item", [
            ("1e7 packed, 1e6 a chunk", packed_load["ns_per_item"], "#1f77b4"),
            (f"{label(big)} packed, 2,048 a chunk", wire[big]["load"]["ns_per_item"], "#aec7e8")]))
        bars.append(("memory, bytes per item", [
            ("1e7 packed load, retained", packed_load["bytes_per_item"], "#2ca02c"),
            (f"{label(big)} bulk path (row 7)", wire[big]["memory"]["bytes_per_item"], "#98df8a")]))
    if counted:
        bars.append(("instructions per setBounds frame", [
            ("flowlayoutd", counted["setBounds"]["daemon"], "#d62728"),
            ("floor (C + jansson)", counted["setBounds"]["floor"], "#7f7f7f")]))
        bars.append(("instructions per scrollEnded", [
            ("flowlayoutd", counted["scrollEnded"]["daemon"], "#d62728")]))
    for title, items in bars:
        out.append(f'<text x="{bx}" y="{y}" font-weight="bold">{esc(title)}</text>')
        y += 8
        top = max(v for _, v, _ in items) or 1
        for name, v, color in items:
            w = max(1.0, v / top * (bw - 10))
            out.append(f'<rect x="{bx}" y="{y}" width="{w:.1f}" height="16" fill="{color}"/>')
            out.append(f'<text x="{bx + 4}" y="{y + 28}">{esc(name)}: {v:,.0f}</text>')
            y += 36
        y += 16
    out.append("</svg>")
    os.makedirs(os.path.dirname(SVG_PATH), exist_ok=True)
    with open(SVG_PATH, "w") as f:
        f.write("\n".join(out) + "\n")


def redraw_svg() -> int:
    """`bench/run.py --svg`: docs/bench.svg again from bench/results.json,
    without running anything."""
    with open(RESULTS_JSON) as f:
        r = json.load(f)
    ns = r["sizes"]
    write_svg(ns, {n: r["wire"][label(n)] for n in ns}, {n: {"lines": r["engine"][label(n)]} for n in ns},
              r["peers"], r.get("counted"), r.get("packed_load"), r["machine"])
    return 0


def performance_doc(results: dict) -> str:
    """docs/performance.md's text: bench/notes.md with the report of
    `results` (bench/results.json's shape) in place of REPORT_MARK."""
    with open(NOTES_MD, encoding="utf-8") as f:
        notes = f.read()
    assert REPORT_MARK in notes, f"{NOTES_MD} lost its report mark"
    return ("<!-- Written by make bench (bench/run.py) from bench/results.json and bench/notes.md: "
            "edit those, then run python3 bench/run.py --report. -->\n"
            + notes.replace(REPORT_MARK, results["table_markdown"].strip()))


PROTOCOL_MD = os.path.join(ROOT, "protocol.md")
WORST_BEGIN = "<!-- worst cases: written by make bench from bench/results.json -->"
WORST_END = "<!-- end of worst cases -->"


def worst_cases_table(results: dict) -> str:
    """protocol.md's measured worst cases: every request of the stalls rows
    with its size, its time and the daemon's peak RSS growth."""
    m = results.get("stalls_machine") or results["machine"]
    lines = [f"Measured by `make bench` on {m['date']} ({m['nproc']} cores, {m['cpu']}). The target "
             "is 50 ms + 60 ns per item whose size was sent one by one for a message under 64 KiB, "
             "1.5 × jansson's parse of the same text (once, in a fresh process) + 50 ms for a larger "
             f"one (each the median of {LARGE_RUNS} runs):", "",
             "| method | request | bytes | ms | target ms | peak RSS growth |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    for r in results["stalls"]:
        growth = r.get("rss_growth_bytes")
        limit = r.get("limit_ms")
        lines.append(f"| `{r['method']}` | {r['what']}{'' if r['accepted'] else ' (refused)'} | "
                     f"{r['bytes']:,} | {fmt(r['ms'])} | {'—' if limit is None else fmt(limit)} | "
                     f"{'—' if growth is None else f'{growth / 2**20:,.0f} MiB'} |")
    return "\n".join(lines)


def protocol_with_worst_cases(text: str, results: dict) -> str:
    """`text` (protocol.md) with its measured worst cases from `results`."""
    a = text.index(WORST_BEGIN) + len(WORST_BEGIN)
    b = text.index(WORST_END)
    return text[:a] + "\n" + worst_cases_table(results) + "\n" + text[b:]


def write_performance_doc() -> int:
    """`bench/run.py --report`: docs/performance.md and protocol.md's
    measured worst cases again from bench/results.json, without running
    anything."""
    with open(RESULTS_JSON, encoding="utf-8") as f:
        r = json.load(f)
    with open(PERFORMANCE_MD, "w", encoding="utf-8") as f:
        f.write(performance_doc(r))
    with open(PROTOCOL_MD, encoding="utf-8") as f:
        text = f.read()
    with open(PROTOCOL_MD, "w", encoding="utf-8") as f:
        f.write(protocol_with_worst_cases(text, r))
    return 0


def main() -> int:
    if sys.argv[1:] == ["--svg"]:
        return redraw_svg()
    if sys.argv[1:] == ["--report"]:
        return write_performance_doc()
    ns = [int(float(x)) for x in (sys.argv[1:] or os.environ.get("BENCH_N", "1000 100000 10000000").split())]
    ns = sorted(set(ns))
    for path, what in ((DAEMON, "flowlayoutd"), (ENGINE, "flowlayout-bench"), (FLOOR, "the floor")):
        if not os.access(path, os.X_OK):
            log(f"bench: {what} not found at {path}; run `make bench`")
            return 2
    t_start = time.perf_counter()
    m = machine()
    log(f"bench: n = {', '.join(label(n) for n in ns)}{' (quick)' if QUICK else ''}")

    log("cold start")
    cold = cold_start()

    fl = floor("floor")
    try:
        wire = bench_wire(ns, fl)
    finally:
        fl.close()

    log("engine (flowlayout-bench)")
    eng = bench_engine(ns)
    log("waterfall (flowlayout-bench, 1e6)")
    waterfall = bench_waterfall()
    log("snapshots (flowlayout-bench, 1e5 and 1e6)")
    snapshots = bench_snapshots()

    log("drag to reorder (flowlayout-bench, 1e6)")
    reorder = bench_reorder()

    log("bulk answers (1e5 attributes, wall and callgrind)")
    bulk = bench_bulk_answers()
    log("worst accepted requests (stalls)")
    stalls = bench_stalls()

    log("counted: callgrind ping-pongs and allocations")
    counted = bench_counted()
    log("packed load of 1e7")
    packed_load = bench_packed_load()
    log("number formatting: 1e7 random doubles")
    doubles = bench_doubles()

    log("peers")
    peers = bench_peers([n for n in ns if n in (1000, 100000)])

    elapsed = time.perf_counter() - t_start
    table, targets = build_report(m, ns, wire, eng, peers, cold, elapsed, waterfall, bulk, stalls,
                                  counted, packed_load, doubles, snapshots, reorder)
    print(table, end="")

    def clean(x):
        if isinstance(x, dict):
            return {str(k): clean(v) for k, v in x.items()}
        if isinstance(x, list):
            return [clean(v) for v in x]
        if isinstance(x, float):
            return round(x, 4)
        return x

    results = {
        "machine": m,
        "quick": QUICK,
        "sizes": ns,
        "elapsed_s": elapsed,
        "config": {
            "coverFlow": {"layout": CF_LAYOUT, "viewport": [CF_VIEW_W, CF_VIEW_H], "widths": CF_W,
                          "heights": CF_H, "step_pt": CF_STEP, "fling_pt_per_ms": FLING},
            "grid": {"layout": GRID_LAYOUT, "viewport": [GRID_VIEW_W, GRID_VIEW_H], "widths": GRID_W,
                     "heights": GRID_H, "step_pt": GRID_STEP},
            "warmup": WARMUP, "blocks": BLOCKS, "block": BLOCK, "query_n": QUERY_N, "fling_n": FLING_N,
            "pipelined_runs": PIPE_RUNS, "pipelined_k": PIPE_K, "cold_runs": COLD_RUNS,
            "daemon_limits": "defaults", "bulk_chunk_items": next(
                (w["load"]["chunk_items"] for w in wire.values()), DEFAULT_CHUNK),
            "queued_warmup": QUEUED_WARMUP, "queued_reps": QUEUED_REPS,
        },
        "cold_start": cold,
        "wire": {label(n): v for n, v in wire.items()},
        "engine": {label(n): v["lines"] for n, v in eng.items()},
        "waterfall": waterfall["lines"],
        "snapshots": snapshots,
        "reorder": reorder,
        "bulk_answers": bulk,
        "stalls": stalls,
        "stalls_machine": m,
        "counted": counted,
        "packed_load": packed_load,
        "doubles": doubles,
        "peers": peers,
        "targets": targets,
        "table_markdown": table,
    }
    with open(RESULTS_JSON, "w") as f:
        json.dump(clean(results), f, indent=1, ensure_ascii=False)
        f.write("\n")
    write_performance_doc()
    write_svg(ns, wire, eng, peers, counted, packed_load, m)
    log(f"bench: {elapsed:.0f} s; wrote {os.path.relpath(RESULTS_JSON, ROOT)}, "
        f"{os.path.relpath(PERFORMANCE_MD, ROOT)} and {os.path.relpath(SVG_PATH, ROOT)}")
    # A worst-case row over its target fails the bench (issue #28); the
    # results are written first, so that the failure can be read.
    if stalls and any(not stall_ok(r) for r in stalls):
        log("bench: FAILED: a worst-case row (S) is over its target; see docs/performance.md")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
