"""Stall rows: how long any accepted request holds the loop, and the RSS
it costs (issues #18, #28, #40 and #46)."""

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


#: Issue #18: no accepted request may hold the loop longer than this.
#: Issue #28: a message under 64 KiB holds the loop at most 50 ms + 60 ns
#: for each item whose size the session was sent one by one; a larger one
#: at most 1.5 × jansson's own parse of it + 50 ms; a small one grows the
#: peak RSS by at most 64 MiB.
SMALL_REQUEST = 64 * 1024


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


__all__ = [n for n in dir() if not n.startswith("__")]
