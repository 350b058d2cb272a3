"""Drag to reorder's property, on every kind: random drags (begin, 20
updates with now and then a scroll, then end or cancel) with random
targeting, hysteresis and cross-section rules, items of varied sizes with
ids. After each update every item the client sees, but the moving one,
has exactly the attributes a session holding the data with the item at
the target gives it (a twin opened with that data, bit for bit); the
moving item is at the position. An end equals performBatchUpdates of the
same move on a twin, and the answered `updates` is that move; a cancel
gives the client back the picture it had before the drag. A section that
does not allow reordering never receives the item."""

from __future__ import annotations

import os
import random
import zlib
from typing import Any, Dict, List, Tuple

import pytest
from kind_configs import KINDS

BOUNDS = {"x": 0, "y": 0, "width": 400, "height": 300}
Data = List[List[Tuple[str, Any]]]  # per section: (id, size or None)


def key(a: dict) -> tuple:
    return (a["kind"], a["section"], a["item"], a.get("lap"), a.get("edge"))


class Picture:
    """The client's copy of the visible elements, patched by each answer."""

    def __init__(self, opened: dict) -> None:
        self.by_key = {key(a): a for a in opened["attributes"]}

    def apply(self, answer: dict) -> None:
        for k in answer["removed"]:
            self.by_key.pop(key(k), None)
        for a in answer["invalidated"]:
            self.by_key[key(a)] = a


def sections(data: Data, closed: set) -> List[dict]:
    out = []
    for s, items in enumerate(data):
        section: Dict[str, Any] = {"ids": [i for i, _ in items]}
        if any(size is not None for _, size in items):
            section["itemSizes"] = [size for _, size in items]
        else:
            section["itemCount"] = len(items)
        if s in closed:
            section["allowsReordering"] = False
        out.append(section)
    return out


def moved(data: Data, origin: dict, target: dict) -> Data:
    out = [list(items) for items in data]
    item = out[origin["section"]].pop(origin["item"])
    out[target["section"]].insert(target["item"], item)
    return out


def seen_center(a: dict) -> Tuple[float, float]:
    """The centre carried by the transform's translation (a carousel's)."""
    t = a.get("transform")
    if not t:
        return a["center"]["x"], a["center"]["y"]
    return a["center"]["x"] + t[12] / t[15], a["center"]["y"] + t[13] / t[15]


def by_identity(attributes: List[dict], data: Data) -> Dict[tuple, dict]:
    """Items by (id, lap), a list row's separators by their item's id (from
    `data`, the items by path) and edge, others by key, without their
    paths."""
    out = {}
    for a in attributes:
        if a["kind"] == "cell":
            ident = (a["kind"], a.get("id"), a.get("lap"))
        elif a["kind"] == "separator":
            ident = (a["kind"], data[a["section"]][a["item"]][0], a.get("lap"), a["edge"])
        else:
            ident = key(a)
        out[ident] = {k: v for k, v in a.items() if k not in ("section", "item")}
    return out


@pytest.mark.parametrize("kind", KINDS, ids=[k[0] for k in KINDS])
def test_random_drags_match_the_data_with_the_item_at_the_target(server, kind):
    name, layout, section_count, per_section = kind
    rng = random.Random(zlib.crc32(name.encode()) + int(os.environ.get("REORDER_SEED", "0")))
    sized = layout["type"] != "pager"
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        return f"i{counter[0]}"

    data: Data = [[(fresh(), {"width": rng.choice([40, 55.5, 90, 120]), "height": rng.choice([30, 60, 71.25])}
                    if sized and rng.random() < 0.7 else None) for _ in range(per_section)]
                  for _ in range(section_count)]
    twins = [0]

    def twin(d: Data, bounds: dict, closed: set, extra: dict) -> str:
        twins[0] += 1
        t = f"t{twins[0]}"
        server.call("layout/open", {"session": t, "layout": {**layout, **extra}, "bounds": bounds,
                                    "sections": sections(d, closed)})
        return t

    for drag in range(6):
        closed = {rng.randrange(section_count)} if section_count > 1 and rng.random() < 0.4 else set()
        extra = {"reorderTargeting": rng.choice(["uikit", "nearest"]),
                 "reorderHysteresis": rng.choice([0, 8, 20]),
                 "allowsCrossSectionReordering": rng.random() < 0.7}
        opened = server.call("layout/open", {"session": "a", "layout": {**layout, **extra}, "bounds": BOUNDS,
                                             "sections": sections(data, closed)})
        picture = Picture(opened)
        # Start anywhere: often near a section's end, where items cross.
        filled = [k for k in range(section_count) if data[k]]
        near_section = rng.choice(filled)
        near = {"section": near_section,  # cross-section moves change the counts
                "item": rng.choice([rng.randrange(len(data[near_section])), len(data[near_section]) - 1])}
        offset = server.call("layout/scrollToItem", {"session": "a", **near})["contentOffset"]
        bounds = start = {**BOUNDS, **offset}
        picture.apply(server.call("layout/setBounds", {"session": "a", "bounds": bounds}))
        before = dict(picture.by_key)
        cells = [a for a in picture.by_key.values() if a["kind"] == "cell"]
        grabbed = rng.choice(cells)
        origin = {"section": grabbed["section"], "item": grabbed["item"]}
        begin = {"session": "a", **origin}
        if grabbed.get("lap") is not None:
            begin["lap"] = grabbed["lap"]
        began = server.call("layout/beginInteractiveMovement", begin)["began"]
        assert began == (origin["section"] not in closed), (name, drag)
        if not began:
            server.call("layout/close", {"session": "a"})
            continue
        target = dict(origin)
        for step in range(20):
            if rng.random() < 0.15:  # the client autoscrolls: a setBounds
                main = "y" if opened["contentSize"]["height"] > bounds["height"] else "x"
                bounds = {**bounds, main: bounds[main] + rng.choice([-40, 25, 60])}
                r = server.call("layout/setBounds", {"session": "a", "bounds": bounds})
                assert "movementCancelled" not in r
                bounds = r["bounds"]
                picture.apply(r)
            position = {"x": bounds["x"] + rng.uniform(0, bounds["width"]),
                        "y": bounds["y"] + rng.uniform(0, bounds["height"])}
            r = server.call("layout/updateInteractiveMovement", {"session": "a", "position": position})
            picture.apply(r)
            target = r["target"]
            assert target["section"] not in closed, (name, drag, step)
            if not extra["allowsCrossSectionReordering"]:
                assert target["section"] == origin["section"], (name, drag, step)
            # Every element keeps its data path: the moving one is the origin.
            moving = [a for a in picture.by_key.values() if a.get("moving")]
            assert len(moving) == 1 and (moving[0]["section"], moving[0]["item"]) == (
                origin["section"], origin["item"]), (name, drag, step)
            m = moving[0]
            assert seen_center(m) == pytest.approx((position["x"], position["y"]), abs=1e-6), (name, drag, step)
            if "transform" not in m or m["transform"][12:14] == [0, 0]:
                assert m["center"] == position, (name, drag, step)
            assert m["id"] == data[origin["section"]][origin["item"]][0]
            assert all(m["zIndex"] > a["zIndex"] for a in picture.by_key.values() if a is not m)
            # The others: as a session holding the data with the item at the target.
            t = twin(moved(data, origin, target), r["bounds"], closed, extra)
            expected = by_identity(server.call("layout/attributesInRect", {
                "session": t, "rect": r["bounds"]})["attributes"], moved(data, origin, target))
            server.call("layout/close", {"session": t})
            shown = by_identity([a for a in picture.by_key.values() if not a.get("moving")], data)
            # The moving item is lifted alone: its cell and its row's
            # separators leave their place.
            expected = {k: v for k, v in expected.items() if k[1] != m["id"] or k[0] not in ("cell", "separator")}
            assert shown == expected, (name, drag, step, origin, target)
        everything = {"x": r["bounds"]["x"] - 1000, "y": r["bounds"]["y"] - 1000,
                      "width": r["bounds"]["width"] + 2000, "height": r["bounds"]["height"] + 2000}
        if rng.random() < 0.35:
            r = server.call("layout/cancelInteractiveMovement", {"session": "a"})
            picture.apply(r)
            # The picture of the data as it was, at the bounds the drag left.
            t = twin(data, r["bounds"], closed, extra)
            seen = server.call("layout/attributesInRect", {"session": t, "rect": r["bounds"]})["attributes"]
            assert picture.by_key == {key(a): a for a in seen}, (name, drag)
            if r["bounds"] == start:
                assert picture.by_key == before, (name, drag)
        else:
            r = server.call("layout/endInteractiveMovement", {"session": "a"})
            picture.apply(r)
            expected_move = [] if target == origin else [{"from": origin, "to": target}]
            assert r["updates"] == ({"moveItems": expected_move} if expected_move else {}), (name, drag)
            settled = [(x["section"], x["item"]) for x in r["moved"] if x.get("id") == m["id"]]
            assert (target["section"], target["item"]) in settled, (name, drag, r["moved"])
            assert set(settled) == {(target["section"], target["item"])}, (name, drag)
            # A twin of the data before, given the same move as a batch.
            t = twin(data, BOUNDS, closed, extra)
            server.call("layout/performBatchUpdates", {"session": t, "updates": r["updates"]})
            server.call("layout/setBounds", {"session": t, "bounds": r["bounds"]})
            data = moved(data, origin, target)
            ours = server.call("layout/attributesInRect", {"session": "a", "rect": everything})["attributes"]
            theirs = server.call("layout/attributesInRect", {"session": t, "rect": everything})["attributes"]
            assert ours == theirs, (name, drag)
            # The client's picture is the session's visible elements.
            seen = server.call("layout/attributesInRect", {"session": "a", "rect": r["bounds"]})["attributes"]
            assert picture.by_key == {key(a): a for a in seen}, (name, drag)
        server.call("layout/close", {"session": t})
        server.call("layout/close", {"session": "a"})
