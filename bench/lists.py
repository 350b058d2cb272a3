"""Issue #42's list rows: a `list`'s setBounds frame against a one-column
`flow` holding the same rows (callgrind instructions per frame, the
difference between ping-pongs of 1,500 and 500 frames over 1,000), and the
resident memory of 1e7 rows of the estimated height (RSS over an empty
daemon's)."""

from __future__ import annotations

import json
import os
import random

from common import (DAEMON, LOG_DIR, QUICK, SEED, Ids, Scroller, Server, append_frame, callgrind_total, daemon, label,
                    log, open_frame, request)

#: Rows of varied heights, as a table of messages or settings has them.
LIST_N = 10**5 if QUICK else 10**6
LIST_W, LIST_H = 390, 844
ROW_HEIGHTS = (30, 90)
LIST_STEP = 13.7
LIST_CHUNK = 2048
#: The same rows as a list and as a one-column flow (item width = the
#: viewport's, no spacing): the flow is the cost a list is held to.
LIST_LAYOUTS = {
    "list": {"type": "list"},
    "list (no separators)": {"type": "list", "showsSeparators": False},
    "flow (one column)": {"type": "flow", "minimumLineSpacing": 0, "minimumInteritemSpacing": 0},
}
MEMORY_N = 10**7


def _rows(n: int):
    """The rows' sizes, LIST_CHUNK at a time (the same for every layout)."""
    rng = random.Random(SEED + 42)
    for start in range(0, n, LIST_CHUNK):
        k = min(LIST_CHUNK, n - start)
        yield [LIST_W] * k, [rng.randint(*ROW_HEIGHTS) for _ in range(k)]


def _pingpong(layout: dict, frames_k: int) -> tuple[int, int]:
    """callgrind's instructions for initialize, loading LIST_N rows (open
    and packed appends) and frames_k setBounds frames sent one at a time;
    and the elements on screen after the last frame."""
    os.makedirs(LOG_DIR, exist_ok=True)
    out = os.path.join(LOG_DIR, f"callgrind-list.{os.getpid()}.out")
    s = Server(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", DAEMON], "callgrind-list")
    ids = Ids()
    bounds = {"x": 0, "y": 0, "width": LIST_W, "height": LIST_H}
    elements = 0
    try:
        s.call("initialize", {})
        height = 0.0
        for j, (ws, hs) in enumerate(_rows(LIST_N)):
            f = (open_frame(ids(), "rows", layout, bounds, ws, hs) if j == 0
                 else append_frame(ids(), "rows", ws, hs, "packed"))
            s.send(f)
            answer = json.loads(s.recv())
            height = answer["result"]["contentSize"]["height"]
        sc = Scroller(height / 2, height * 0.1, height * 0.9, LIST_STEP)
        last = bounds
        for y in sc.take(frames_k):
            last = {"x": 0, "y": y, "width": LIST_W, "height": LIST_H}
            s.send(request(ids(), "layout/setBounds", {"session": "rows", "bounds": last}))
            s.recv()
        elements = len(s.call("layout/attributesInRect", {"session": "rows", "rect": last})["attributes"])
    finally:
        s.close()
    return callgrind_total(out), elements


def bench_lists() -> dict:
    """Instructions per setBounds frame for each of LIST_LAYOUTS, their
    ratios to the flow's, and RSS after opening MEMORY_N rows."""
    res: dict = {"n": LIST_N, "frames": {}}
    a, b = 500, 1500
    for name, layout in LIST_LAYOUTS.items():
        d1, _ = _pingpong(layout, a)
        d2, elements = _pingpong(layout, b)
        per = (d2 - d1) / (b - a)
        res["frames"][name] = {"instructions_per_frame": per, "elements_on_screen": elements}
        log(f"  {name} of {label(LIST_N)} rows: {per:,.0f} instructions per setBounds frame "
            f"({elements} elements on screen)")
    flow = res["frames"]["flow (one column)"]["instructions_per_frame"]
    for name in ("list", "list (no separators)"):
        res["frames"][name]["ratio_to_flow"] = res["frames"][name]["instructions_per_frame"] / flow
    res["memory"] = list_memory()
    return res


def list_memory() -> dict:
    """RSS (MiB) of a daemon with one empty session, and after opening an
    insetGrouped list of MEMORY_N rows of the estimated height (no sizes:
    one run) and scrolling to its middle."""
    s = daemon("list-memory")
    try:
        bounds = {"x": 0, "y": 0, "width": LIST_W, "height": LIST_H}
        s.call("layout/open", {"session": "e", "layout": {"type": "list"}, "bounds": bounds,
                               "sections": [{"itemCount": 0}]})
        base = s.status()["VmRSS"] / 2**20
        s.call("layout/open", {"session": "big", "layout": {"type": "list", "appearance": "insetGrouped"},
                               "bounds": bounds, "sections": [{"itemCount": MEMORY_N}]})
        s.call("layout/setBounds", {"session": "big", "bounds": {**bounds, "y": MEMORY_N * 22.0}})
        after = s.status()["VmRSS"] / 2**20
    finally:
        s.close()
    out = {"rows": MEMORY_N, "rss_empty_mib": base, "rss_after_mib": after}
    log(f"  list of {label(MEMORY_N)} estimated rows: RSS {base:.1f} MiB before, {after:.1f} MiB after")
    return out


if __name__ == "__main__":
    print(json.dumps(bench_lists(), indent=1))
