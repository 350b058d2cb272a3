"""Engine rows: flowlayout-bench in process (flow, waterfall, snapshots,
drag to reorder, carousel, pager and compositional lines)."""

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
from wire import *  # noqa: F401,F403


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


#: Issue #43's outlines: a node of 1e5 visible descendants among 1e6 nodes.
OUTLINE_N = 10**6
OUTLINE_LINE = re.compile(r"^(?P<name>.+?): p50 (?P<p50>[-\d.e+]+) (?P<unit>ms|µs), p99 (?P<p99>[-\d.e+]+) (ms|µs)\s*$")


def bench_outlines() -> dict:
    """Runs `flowlayout-bench OUTLINE_N outline` ENGINE_RUNS times: a plain
    list whose first root, expanded, holds 1e5 leaves, collapsed and
    expanded again as live commits (11 runs each), and 2,000 setBounds
    frames over the outline and over a flat list of the same rows.
    Medians of the runs' p50 and p99, in µs."""
    runs: dict[str, list] = {}
    for _ in range(ENGINE_RUNS):
        text = subprocess.run([ENGINE, str(OUTLINE_N), "outline"], capture_output=True, text=True, check=True,
                              timeout=1800).stdout
        for line in text.splitlines():
            m = OUTLINE_LINE.match(line)
            if m:
                scale = 1000.0 if m["unit"] == "ms" else 1.0
                runs.setdefault(m["name"], []).append((float(m["p50"]) * scale, float(m["p99"]) * scale))
    lines = {name: {"p50_us": statistics.median(r[0] for r in rs), "p99_us": statistics.median(r[1] for r in rs)}
             for name, rs in runs.items()}
    log(f"  outlines at {label(OUTLINE_N)}: {len(lines)} lines")
    return lines


#: (row, measurement, line prefix, target µs)
OUTLINE_ROWS = [
    ("O1", "collapse a node of 100,000 visible descendants", "outline: collapse", 8333.0),
    ("O2", "expand it again", "outline: expand it again", 8333.0),
    ("O3", "a setBounds frame over the outline", "outline: setBounds frame over the outline", None),
    ("O4", "a setBounds frame over a flat list of the same rows", "outline: setBounds frame over the flat list",
     None),
]


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


__all__ = [n for n in dir() if not n.startswith("__")]
