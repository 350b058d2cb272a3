"""The conformance suite: what every layout kind must do, run against every
kind (and its axes, rtl and repetition where it has them). New kinds join
by adding a configuration to KINDS.

- a rect's answer is the whole answer filtered by the rect (brute force);
- pages of a rect concatenate to its answer;
- itemAtPoint is the topmost cell whose projected outline holds the point;
- every delta is exact and minimal: the picture patched by it is the
  visible rect's answer, and nothing unchanged is sent again;
- incremental relayout equals a full recompute, bit for bit;
- batch updates keep the element the user was looking at in place."""

from __future__ import annotations

import json
import random
from typing import Any, Dict, List, Optional, Tuple

import pytest
from kind_configs import KINDS

BOUNDS = {"x": 0, "y": 0, "width": 400, "height": 300}

IDS = [k[0] for k in KINDS]


def open_kind(d, name: str, kind: tuple, counts: Optional[List[int]] = None, bounds: dict = BOUNDS) -> dict:
    _, layout, sections, items = kind
    counts = counts if counts is not None else [items] * sections
    return d.call("layout/open", {"session": name, "layout": layout, "bounds": bounds,
                                  "sections": [{"itemCount": c} for c in counts]})


def key(a: dict) -> tuple:
    return (a["kind"], a["section"], a["item"], a.get("lap"), a.get("edge"))


def overlaps(f: dict, r: dict) -> bool:
    return (f["x"] < r["x"] + r["width"] and r["x"] < f["x"] + f["width"]
            and f["y"] < r["y"] + r["height"] and r["y"] < f["y"] + f["height"])


def horizontal(kind: tuple) -> bool:
    layout = kind[1]
    default = "horizontal" if layout["type"] in ("coverFlow", "carousel", "pager") else "vertical"
    return layout.get("scrollDirection", default) == "horizontal"


def around(bounds: dict, pad: float) -> dict:
    return {"x": bounds["x"] - pad, "y": bounds["y"] - pad, "width": bounds["width"] + 2 * pad,
            "height": bounds["height"] + 2 * pad}


def scroll_to(d, name: str, kind: tuple, offset: float) -> dict:
    """Bounds `offset` along the scroll axis into the content (from its
    leading edge: right to left in rtl, where offsets run negative)."""
    b = dict(BOUNDS)
    rtl = kind[1].get("layoutDirection") == "rtl" and horizontal(kind)
    b["x" if horizontal(kind) else "y"] = -offset if rtl else offset
    return d.call("layout/setBounds", {"session": name, "bounds": b})


def outline(a: dict) -> List[Tuple[float, float]]:
    t = a.get("transform") or [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    hw, hh = a["size"]["width"] / 2, a["size"]["height"] / 2
    cx, cy = a["center"]["x"], a["center"]["y"]
    out = []
    for dx, dy in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)):
        w = max(dx * t[3] + dy * t[7] + t[15], 1e-9)
        out.append((cx + (dx * t[0] + dy * t[4] + t[12]) / w, cy + (dx * t[1] + dy * t[5] + t[13]) / w))
    return out


def inside(q: List[Tuple[float, float]], p: Tuple[float, float], margin: float) -> Optional[bool]:
    """Whether p is inside the convex quad q; None within `margin` of an edge."""
    sides = []
    for k in range(4):
        (ax, ay), (bx, by) = q[k], q[(k + 1) % 4]
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        if length == 0:
            continue
        s = ((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)) / length
        if abs(s) <= margin:
            return None
        sides.append(s > 0)
    return all(sides) or not any(sides)


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_a_rects_answer_is_the_whole_filtered(server, kind):
    rng = random.Random(1)
    open_kind(server, "k", kind)
    for offset in (0.0, 137.25, 410.5):
        b = scroll_to(server, "k", kind, offset)["bounds"]
        R = around(b, 500)
        whole = server.call("layout/attributesInRect", {"session": "k", "rect": R})["attributes"]
        assert len({key(a) for a in whole}) == len(whole), "an element answered twice"
        for _ in range(25):
            x = rng.uniform(R["x"], R["x"] + R["width"] - 10)
            y = rng.uniform(R["y"], R["y"] + R["height"] - 10)
            r = {"x": x, "y": y, "width": rng.uniform(1, R["x"] + R["width"] - x),
                 "height": rng.uniform(1, R["y"] + R["height"] - y)}
            got = server.call("layout/attributesInRect", {"session": "k", "rect": r})["attributes"]
            want = [a for a in whole if overlaps(a["frame"], r)]
            assert got == want, (kind[0], offset, r, [key(a) for a in got], [key(a) for a in want])


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_pages_concatenate_to_the_answer(server, kind):
    open_kind(server, "k", kind)
    b = scroll_to(server, "k", kind, 211.0)["bounds"]
    for r in (b, around(b, 300)):
        whole = server.call("layout/attributesInRect", {"session": "k", "rect": r})["attributes"]
        for limit in (1, 2, 3, 7):
            pages: List[dict] = []
            after = None
            for _ in range(len(whole) + 2):
                params: Dict[str, Any] = {"session": "k", "rect": r, "limit": limit}
                if after is not None:
                    params["after"] = after
                page = server.call("layout/attributesInRect", params)
                assert len(page["attributes"]) <= limit
                pages += page["attributes"]
                if "next" not in page:
                    break
                after = page["next"]
            assert pages == whole, (kind[0], limit)


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_item_at_point_is_the_topmost_outline(server, kind):
    open_kind(server, "k", kind)
    b = scroll_to(server, "k", kind, 173.5)["bounds"]
    cells = [a for a in server.call("layout/attributesInRect", {"session": "k", "rect": around(b, 400)})["attributes"]
             if a["kind"] == "cell"]
    checked = 0
    for gx in range(0, 400, 13):
        for gy in range(0, 300, 17):
            p = (b["x"] + gx + 0.37, b["y"] + gy + 0.41)
            hits = [(inside(outline(a), p, 1e-6), a) for a in cells]
            if any(h is None for h, _ in hits):
                continue  # on an edge: either answer holds
            top = max((a for h, a in hits if h), default=None,
                      key=lambda a: (a["zIndex"], a.get("lap") or 0, a["section"], a["item"]))
            got = server.call("layout/itemAtPoint", {"session": "k", "point": {"x": p[0], "y": p[1]}})
            want = None if top is None else {"section": top["section"], "item": top["item"],
                                             **({"lap": top["lap"]} if "lap" in top else {})}
            assert got == want, (kind[0], p)
            checked += top is not None
    assert checked > 10, kind[0]


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_deltas_are_exact_and_minimal(server, kind):
    rng = random.Random(2)
    opened = open_kind(server, "k", kind)
    picture = {key(a): a for a in opened["attributes"]}
    main = "x" if horizontal(kind) else "y"
    for _ in range(30):
        offset = rng.choice([rng.uniform(-50, 900), rng.uniform(-3, 3), 0.0])
        r = scroll_to(server, "k", kind, offset)
        removed = [key(x) for x in r["removed"]]
        for k in removed:
            assert k in picture, (kind[0], "removed what the client does not hold", k)
            del picture[k]
        for a in r["invalidated"]:
            assert picture.get(key(a)) != a, (kind[0], "sent again unchanged", key(a))
            picture[key(a)] = a
        now = server.call("layout/attributesInRect", {"session": "k", "rect": r["bounds"]})["attributes"]
        assert picture == {key(a): a for a in now}, (kind[0], offset)
        assert abs(r["bounds"][main]) == abs(offset)


def batch_counts(counts: List[int]) -> Tuple[dict, List[int]]:
    """A batch on the first section (delete 1 and 3, insert 0 and 1, move
    5 to 2) and the counts after it."""
    updates = {"deleteItems": [{"section": 0, "item": 1}, {"section": 0, "item": 3}],
               "insertItems": [{"section": 0, "item": 0}, {"section": 0, "item": 1}],
               "moveItems": [{"from": {"section": 0, "item": 5}, "to": {"section": 0, "item": 2}}]}
    return updates, counts


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_incremental_relayout_equals_a_full_recompute(server, kind):
    _, _, sections, items = kind
    counts = [items] * sections
    open_kind(server, "k", kind, counts)
    scroll_to(server, "k", kind, 240.0)
    updates, after = batch_counts(counts)
    r = server.call("layout/performBatchUpdates", {"session": "k", "updates": updates})
    r = server.call("layout/performBatchUpdates", {"session": "k", "updates": {
        "insertItems": [{"section": 0, "item": items - 1}], "deleteItems": [{"section": 0, "item": 0}]}})
    # The same data opened afresh at the same bounds: every double the same.
    twin = open_kind(server, "twin", kind, after, bounds=r["bounds"])
    assert twin["contentSize"] == r["contentSize"]
    R = around(r["bounds"], 600)
    a = server.call("layout/attributesInRect", {"session": "k", "rect": R})["attributes"]
    b = server.call("layout/attributesInRect", {"session": "twin", "rect": R})["attributes"]
    assert json.dumps(a) == json.dumps(b), kind[0]
    # A rotation and back, too.
    for s in ({"width": 300, "height": 500}, {"width": 400, "height": 300}):
        bounds = dict(r["bounds"], **s)
        r = server.call("layout/setBounds", {"session": "k", "bounds": bounds})
    twin = open_kind(server, "twin2", kind, after, bounds=r["bounds"])
    a = server.call("layout/attributesInRect", {"session": "k", "rect": R})["attributes"]
    b = server.call("layout/attributesInRect", {"session": "twin2", "rect": R})["attributes"]
    assert json.dumps(a) == json.dumps(b), kind[0]


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_batch_updates_keep_the_anchor_in_place(server, kind):
    """Two items inserted before the element the user looks at: a kind that
    centres cards keeps the same card centred; the others keep the first
    visible cell where it was on screen."""
    opened = open_kind(server, "k", kind)
    main = "x" if horizontal(kind) else "y"
    r = scroll_to(server, "k", kind, 300.0)
    before = r["centeredItem"]
    cells = sorted((a for a in server.call("layout/attributesInRect", {"session": "k", "rect": r["bounds"]})["attributes"]
                    if a["kind"] == "cell" and a["section"] == 0), key=lambda a: a["item"])
    r2 = server.call("layout/performBatchUpdates", {"session": "k", "updates": {
        "insertItems": [{"section": 0, "item": 0}, {"section": 0, "item": 1}]}})
    centres = kind[1]["type"] in ("coverFlow", "carousel", "pager")
    if centres:
        assert before is not None and r2["centeredItem"]["item"] == before["item"] + 2, (kind[0], before, r2["centeredItem"])
        assert r2["centeredItem"].get("lap") == before.get("lap")
    elif cells:
        first = cells[0]
        now = server.call("layout/attributesForItem", {"session": "k", "section": 0, "item": first["item"] + 2})["attributes"]
        assert abs((now["frame"][main] - r2["bounds"][main]) - (first["frame"][main] - r["bounds"][main])) < 1e-9, kind[0]
