"""Wire rows: cold start, and the daemon against the floor over pipes
(ping-pong, pipelined, fling, batch, bulk loading)."""

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

from common import *  # noqa: F401,F403


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


__all__ = [n for n in dir() if not n.startswith("__")]
