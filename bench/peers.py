"""Peer rows: Taffy (stretchable) and Yoga (poga) on the same workloads."""

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
from engine import *  # noqa: F401,F403
from counted import *  # noqa: F401,F403
from stalls import *  # noqa: F401,F403


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


__all__ = [n for n in dir() if not n.startswith("__")]
