"""Issue 40: the seams between live features. Written from the issue text
and protocol.md only.

1. Drag to reorder: during a movement the picture a client builds from the
   deltas (the preview) is what `layout/attributesInRect`,
   `layout/attributesForItem`, `layout/itemAtPoint` and the answer's
   `centeredItem` answer, on every type; preview frames are bit for bit
   those of a session holding the previewed data; the drop equals a fresh
   session opened with the moved data.
2. Snapshots report only real changes: restating an item's uniform size
   is no change.
3. The pager re-centres on a size change: origin = j*·s'.
4. The seams suite: every pair of live features together on every type,
   each step checked against `attributesInRect` of the visible rect and a
   twin session that replays every answer's `updates` (and mirrors every
   other mutation).

Every scenario uses fixed seeds. Expected values are worked out in the
comments from protocol.md's rules.
"""

from __future__ import annotations

import math
import random
import zlib
from typing import Any, Dict, List, Optional, Tuple

import pytest

from daemon_support import Daemon

# -- the types ------------------------------------------------------------------

COMPOSITIONAL = {"type": "compositional", "section": {
    "group": {"direction": "horizontal",
              "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 60}},
              "count": 2,
              "subitems": [{"size": {"width": {"fractionalWidth": 0.5}, "height": {"estimated": 60}}}]},
    "interGroupSpacing": 8,
    "boundarySupplementaryItems": [{"kind": "header", "size": {"width": {"fractionalWidth": 1},
                                                               "height": {"absolute": 30}}}]}}

# name, layout, bounds (width, height), item count, whether items take sizes
# of their own (a pager refuses them), whether the opened items are varied.
TYPES: List[Tuple[str, Dict[str, Any], Tuple[float, float], int, bool, bool]] = [
    ("flow", {"type": "flow", "itemSize": {"width": 80, "height": 60}, "minimumLineSpacing": 10,
              "minimumInteritemSpacing": 10}, (375, 500), 30, True, False),
    ("flow-varied", {"type": "flow", "itemSize": {"width": 80, "height": 60}, "minimumLineSpacing": 10,
                     "minimumInteritemSpacing": 10}, (375, 400), 40, True, True),
    ("coverFlow", {"type": "coverFlow", "itemSize": {"width": 160, "height": 220}}, (375, 300), 20, True, False),
    ("coverFlow-loop", {"type": "coverFlow", "itemSize": {"width": 160, "height": 220}, "loop": True},
     (375, 300), 7, True, False),
    ("waterfall-packed", {"type": "waterfall", "columnCount": 3, "itemSize": {"width": 50, "height": 70}},
     (320, 480), 40, True, True),
    ("waterfall-stable", {"type": "waterfall", "columnCount": 3, "itemSize": {"width": 50, "height": 70},
                          "placement": "stable"}, (320, 480), 40, True, True),
    ("carousel-linear", {"type": "carousel", "style": "linear", "itemSize": {"width": 100, "height": 100}},
     (375, 300), 12, True, False),
    ("carousel-rotary", {"type": "carousel", "style": "rotary", "itemSize": {"width": 120, "height": 120}},
     (375, 300), 12, True, False),
    ("compositional", COMPOSITIONAL, (375, 500), 30, True, False),
    ("pager", {"type": "pager", "itemSize": {"width": 260, "height": 200}, "transformer": "zoomOut"},
     (400, 300), 8, False, False),
    ("pager-wrap", {"type": "pager", "itemSize": {"width": 260, "height": 200}, "transformer": "cubic",
                    "wrap": True}, (400, 300), 6, False, False),
]
IDS = [t[0] for t in TYPES]

Item = Tuple[str, Optional[dict]]  # (id, own size or None)


def key(a: dict) -> tuple:
    return (a["kind"], a["section"], a["item"], a.get("lap"), a.get("edge"))


def ref(a: dict) -> dict:
    """An ItemRef as itemAtPoint / centeredItem answer it: section, item,
    lap (in a loop) and id (when the item has one)."""
    return {k: a[k] for k in ("section", "item", "lap", "id") if k in a}


def rect(x: float, y: float, w: float, h: float) -> dict:
    return {"x": x, "y": y, "width": w, "height": h}


def direction_of(layout: dict) -> str:
    default = "horizontal" if layout["type"] in ("coverFlow", "carousel", "pager") else "vertical"
    return layout.get("scrollDirection", default)


def seen_center(a: dict) -> Tuple[float, float]:
    """The centre as drawn: a carousel's or pager's transform translates it."""
    t = a.get("transform")
    if not t:
        return a["center"]["x"], a["center"]["y"]
    return a["center"]["x"] + t[12] / t[15], a["center"]["y"] + t[13] / t[15]


def section_of(items: List[Item]) -> dict:
    s: Dict[str, Any] = {"id": "s", "ids": [i for i, _ in items]}
    if any(size is not None for _, size in items):
        s["itemSizes"] = [size for _, size in items]
    else:
        s["itemCount"] = len(items)
    return s


def initial_items(name: str, layout: dict, n: int, varied: bool) -> List[Item]:
    rng = random.Random(zlib.crc32(name.encode()))
    out: List[Item] = []
    for k in range(n):
        size = None
        if varied:
            if layout["type"] == "waterfall":
                size = {"width": 50, "height": rng.choice([35, 50, 70, 95.5, 120])}
            else:
                size = {"width": rng.choice([40, 55.5, 80, 120]), "height": rng.choice([30, 60, 71.25])}
        out.append((f"i{k}", size))
    return out


def move(items: List[Item], origin: int, target: int) -> List[Item]:
    out = list(items)
    out.insert(target, out.pop(origin))
    return out


# -- the client's picture, and a session -------------------------------------------


class Session:
    """One open session and the client's picture of it, keyed with lap."""

    def __init__(self, d: Daemon, name: str, layout: dict, bounds: dict, items: List[Item]) -> None:
        self.d = d
        self.name = name
        self.layout = layout
        self.items = list(items)
        self.direction = direction_of(layout)
        opened = d.call("layout/open", {"session": name, "layout": layout, "bounds": bounds,
                                        "sections": [section_of(items)]})
        self.opened = opened
        self.bounds = opened["bounds"]
        self.centered = opened["centeredItem"]
        self.content_size = opened["contentSize"]
        self.picture: Dict[tuple, dict] = {key(a): a for a in opened["attributes"]}

    def call(self, method: str, **params: Any) -> Any:
        return self.d.call(method, {"session": self.name, **params})

    def in_rect(self, r: dict) -> List[dict]:
        return self.call("layout/attributesInRect", rect=r)["attributes"]

    def apply(self, answer: dict) -> dict:
        for r in answer["removed"]:
            assert key(r) in self.picture, f"removed {key(r)}, not in the picture"
            del self.picture[key(r)]
        for a in answer["invalidated"]:
            self.picture[key(a)] = a
        self.bounds = answer["bounds"]
        self.centered = answer["centeredItem"]
        self.content_size = answer["contentSize"]
        return answer

    def mutate(self, method: str, **params: Any) -> dict:
        return self.apply(self.call(method, **params))

    def check_picture(self, where: Any) -> None:
        """The core promise: the picture equals attributesInRect of the
        visible rect (overscan 0: the bounds)."""
        got = {key(a): a for a in self.in_rect(self.bounds)}
        if got != self.picture:
            missing = sorted(set(got) - set(self.picture), key=str)
            stale = sorted(set(self.picture) - set(got), key=str)
            differ = sorted((k for k in set(got) & set(self.picture) if got[k] != self.picture[k]), key=str)
            detail = "; ".join(f"{k}: picture {self.picture[k]['frame']} moving={self.picture[k].get('moving')} "
                               f"vs attributesInRect {got[k]['frame']} moving={got[k].get('moving')}"
                               for k in differ[:3])
            raise AssertionError(f"{where}: picture != attributesInRect({self.bounds}): "
                                 f"missing {missing[:5]}, stale {stale[:5]}, {len(differ)} differ: {detail}")

    def widened(self) -> dict:
        """The bounds grown by one viewport on each side along the scroll axis."""
        b = self.bounds
        if self.direction == "vertical":
            return rect(b["x"], b["y"] - b["height"], b["width"], 3 * b["height"])
        return rect(b["x"] - b["width"], b["y"], 3 * b["width"], b["height"])

    def index_of(self, ident: str) -> int:
        return [i for i, _ in self.items].index(ident)


def by_identity(attributes: List[dict]) -> Dict[tuple, dict]:
    """Cells by (id, lap), without their paths (a preview keeps data paths)."""
    out = {}
    for a in attributes:
        ident = ("cell", a.get("id"), a.get("lap")) if a["kind"] == "cell" else key(a)
        out[ident] = {k: v for k, v in a.items() if k not in ("section", "item")}
    return out


def fresh_twin(d: Daemon, layout: dict, bounds: dict, items: List[Item], name: str) -> Session:
    return Session(d, name, layout, bounds, items)


def moved_twin(d: Daemon, layout: dict, bounds: dict, items: List[Item], origin: int, target: int,
               name: str) -> Session:
    """A session holding the data with the item moved: opened with the data
    as it was, given the move as a batch (so a stable waterfall's items keep
    their columns, as they do in the preview), then scrolled to `bounds`."""
    t = Session(d, name, layout, bounds, items)
    if target != origin:
        t.mutate("layout/performBatchUpdates", updates={"moveItems": [
            {"from": {"section": 0, "item": origin}, "to": {"section": 0, "item": target}}]})
    t.items = move(items, origin, target)
    t.mutate("layout/setBounds", bounds=bounds)
    return t


def start(d: Daemon, name: str, layout: dict, size: Tuple[float, float], items: List[Item],
          at: Optional[int] = None) -> Session:
    s = Session(d, "a", layout, rect(0, 0, *size), items)
    if at is not None:
        off = s.call("layout/scrollToItem", section=0, item=at)["contentOffset"]
        s.mutate("layout/setBounds", bounds={**s.bounds, **off})
    s.check_picture(f"{name}: opened")
    return s


def positions(rng: random.Random, s: Session, count: int) -> List[dict]:
    """Finger positions inside the bounds, 70 points off the edges along the
    scroll axis (no autoscroll), anywhere across it."""
    b = s.bounds
    out = []
    for _ in range(count):
        if s.direction == "vertical":
            out.append({"x": b["x"] + rng.uniform(10, b["width"] - 10),
                        "y": b["y"] + rng.uniform(70, b["height"] - 70)})
        else:
            out.append({"x": b["x"] + rng.uniform(70, b["width"] - 70),
                        "y": b["y"] + rng.uniform(20, b["height"] - 20)})
    return out


def grab(rng: random.Random, s: Session) -> dict:
    """A visible cell other than the centred one."""
    cells = sorted((a for a in s.picture.values() if a["kind"] == "cell"), key=key)
    others = [a for a in cells if ref(a) != s.centered] or cells
    return rng.choice(others)


def begin(s: Session, a: dict) -> None:
    params = {"section": a["section"], "item": a["item"]}
    if "lap" in a:
        params["lap"] = a["lap"]
    assert s.call("layout/beginInteractiveMovement", **params) == {"began": True}


# -- item 1: queries during a movement answer the preview ---------------------------


def test_the_issue_flow_example_answers_the_preview(server):
    # 30 items 80x60, spacing 10, bounds 375x500: four to a line (4·80 + 3·10
    # = 350 <= 375; five need 440), justified: the 55 free points spread over
    # 3 gaps of 18.33, so columns at x 0, 98.33, 196.67, 295; lines at y 0,
    # 70, 140, 210, ... (60 + 10).
    layout = TYPES[0][1]
    items = [(f"i{k}", None) for k in range(30)]
    s = Session(server, "a", layout, rect(0, 0, 375, 500), items)
    begin(s, s.picture[("cell", 0, 2, None, None)])
    r = s.mutate("layout/updateInteractiveMovement", position={"x": 200, "y": 200})
    # Item 2 follows the finger: centre (200, 200), so origin (200 - 40,
    # 200 - 30) = (160, 170); moving, on top.
    moving = [a for a in r["invalidated"] if a["item"] == 2]
    assert len(moving) == 1 and moving[0]["moving"] is True, r["invalidated"]
    assert moving[0]["frame"] == rect(160, 170, 80, 60), moving[0]
    assert moving[0]["center"] == {"x": 200, "y": 200}
    # UIKit targeting: the point (200, 200) is on the bottom edge of item
    # 10's frame (column 2, line 2: y 140...200; edges count), so the target
    # is 10; items 3...10 each slide back one slot: item 3 to slot 2
    # (196.67, 0), item 10 to slot 9 (98.33, 140).
    assert r["target"] == {"section": 0, "item": 10}
    f3 = s.picture[("cell", 0, 3, None, None)]["frame"]
    f10 = s.picture[("cell", 0, 10, None, None)]["frame"]
    assert (f3["x"], f3["y"]) == (pytest.approx(2 * (80 + 55 / 3)), 0), f3
    assert (f10["x"], f10["y"]) == (pytest.approx(80 + 55 / 3), 140), f10
    # What the issue saw: attributesInRect answered item 2 at (196.67, 0)
    # without `moving`. It must answer the picture.
    got = {a["item"]: a for a in s.in_rect(rect(0, 0, 375, 500))}
    assert got[2].get("moving") is True and got[2]["frame"] == rect(160, 170, 80, 60), got[2]
    assert got[3]["frame"] == f3, got[3]
    s.check_picture("flow example")
    # attributesForItem answers the preview too.
    a2 = s.call("layout/attributesForItem", section=0, item=2)["attributes"]
    assert a2 == s.picture[("cell", 0, 2, None, None)], a2
    a3 = s.call("layout/attributesForItem", id="i3")["attributes"]
    assert a3["frame"] == f3, a3
    # itemAtPoint: (230, 30) is item 3's preview slot (data: item 2's);
    # (200, 200) is under the moving item, the topmost.
    assert s.call("layout/itemAtPoint", point={"x": 230, "y": 30}) == {"section": 0, "item": 3, "id": "i3"}
    assert s.call("layout/itemAtPoint", point={"x": 200, "y": 200}) == {"section": 0, "item": 2, "id": "i2"}
    # (130, 150) is in slot 9 (x 98.33...178.33, y 140...200): item 10 in
    # the preview (data: item 9).
    assert s.call("layout/itemAtPoint", point={"x": 130, "y": 150}) == {"section": 0, "item": 10, "id": "i10"}
    # The drop: a batch move 2 -> 10, the bounds unchanged, the picture exact.
    end = s.mutate("layout/endInteractiveMovement")
    assert end["updates"] == {"moveItems": [{"from": {"section": 0, "item": 2}, "to": {"section": 0, "item": 10}}]}
    assert end["bounds"] == rect(0, 0, 375, 500)
    s.check_picture("flow example, dropped")
    fresh = fresh_twin(server, layout, end["bounds"], move(items, 2, 10), "fresh")
    assert s.in_rect(rect(0, 0, 375, 1000)) == fresh.in_rect(rect(0, 0, 375, 1000))


@pytest.mark.parametrize("kind", TYPES, ids=IDS)
def test_queries_during_a_movement_answer_the_picture(server, kind):
    """At every update of a drag: picture == attributesInRect; each
    visible cell's attributesForItem is its picture element; itemAtPoint
    at the finger is the moving item; `centeredItem` is the centred item of
    the previewed data (a twin holding it); the non-moving elements are bit
    for bit the twin's. After the drop: a fresh session with the moved data."""
    name, layout, size, n, _, varied = kind
    rng = random.Random(zlib.crc32(("queries-" + name).encode()))
    items = initial_items(name, layout, n, varied)
    s = start(server, name, layout, size, items, at=n // 3)
    grabbed = grab(rng, s)
    origin = grabbed["item"]
    begin(s, grabbed)
    target = origin
    for step, pos in enumerate(positions(rng, s, 5)):
        where = f"{name} step {step}"
        r = s.mutate("layout/updateInteractiveMovement", position=pos)
        target = r["target"]["item"]
        moving = [a for a in s.picture.values() if a.get("moving")]
        assert len(moving) == 1 and moving[0]["item"] == origin, (where, moving)
        m = moving[0]
        assert seen_center(m) == pytest.approx((pos["x"], pos["y"]), abs=1e-6), where
        # The preview: a session holding the data with the item at the target.
        twin = moved_twin(server, layout, r["bounds"], items, origin, target, f"preview{step}")
        shown = by_identity([a for a in s.picture.values() if not a.get("moving")])
        expected = {k: v for k, v in by_identity(twin.in_rect(r["bounds"])).items() if k[1] != m["id"]}
        assert shown == expected, f"{where}: preview frames differ from a session holding that data"
        # centeredItem: the twin's centred item, named by its data path.
        tc = twin.centered
        if tc is not None and tc.get("id") != m["id"]:
            exp = {"section": 0, "item": s.index_of(tc["id"]), "id": tc["id"]}
            if "lap" in tc:
                exp["lap"] = tc["lap"]
            assert {k: r["centeredItem"][k] for k in exp} == exp, (
                f"{where}: centeredItem {r['centeredItem']} is not the preview's {exp}")
        server.call("layout/close", {"session": twin.name})
        # attributesInRect of the visible rect is the picture.
        s.check_picture(where)
        # attributesForItem of each visible cell (a few) is its picture element.
        cells = sorted((a for a in s.picture.values() if a["kind"] == "cell"), key=key)
        for a in [m] + rng.sample(cells, min(4, len(cells))):
            params = {"section": a["section"], "item": a["item"]}
            if "lap" in a:
                params["lap"] = a["lap"]
            got = s.call("layout/attributesForItem", **params)["attributes"]
            assert got == a, f"{where}: attributesForItem {params} = {got['frame']}, picture {a['frame']}"
        # itemAtPoint at the finger: the moving item, above every other.
        hit = s.call("layout/itemAtPoint", point=pos)
        assert hit == ref(m), f"{where}: itemAtPoint({pos}) = {hit}, the moving item is {ref(m)}"
    end = s.mutate("layout/endInteractiveMovement")
    expected_updates = {} if target == origin else {
        "moveItems": [{"from": {"section": 0, "item": origin}, "to": {"section": 0, "item": target}}]}
    assert end["updates"] == expected_updates
    s.check_picture(f"{name}: dropped")
    # The drop equals a session given the same move as a batch, and (but a
    # stable waterfall, whose open places every item afresh) a fresh
    # session opened with the moved data.
    twin = moved_twin(server, layout, end["bounds"], items, origin, target, "batched")
    assert s.in_rect(s.widened()) == twin.in_rect(s.widened()), f"{name}: the drop differs from a batch move"
    if layout.get("placement") != "stable":
        fresh = fresh_twin(server, layout, end["bounds"], move(items, origin, target), "fresh")
        assert s.in_rect(s.widened()) == fresh.in_rect(s.widened()), f"{name}: the drop differs from a fresh session"


@pytest.mark.parametrize("kind", TYPES, ids=IDS)
def test_nothing_changes_until_the_first_update(server, kind):
    """protocol.md: `layout/beginInteractiveMovement` answers `{began}`
    and "the picture does not change until the first update". So between
    the begin and the first update every query answers the data as before
    the begin (the grabbed item in its own place, not `moving`), and a
    scroll's delta marks nothing moving; the first update lifts it."""
    name, layout, size, n, _, varied = kind
    rng = random.Random(zlib.crc32(("unlifted-" + name).encode()))
    items = initial_items(name, layout, n, varied)
    s = start(server, name, layout, size, items, at=n // 3)
    grabbed = grab(rng, s)
    params = {"section": grabbed["section"], "item": grabbed["item"]}
    if "lap" in grabbed:
        params["lap"] = grabbed["lap"]
    before = s.in_rect(s.bounds)
    own = s.call("layout/attributesForItem", **params)["attributes"]
    begin(s, grabbed)
    assert s.in_rect(s.bounds) == before, f"{name}: attributesInRect changed at the begin"
    assert s.call("layout/attributesForItem", **params)["attributes"] == own
    assert not any(a.get("moving") for a in before)
    s.check_picture(f"{name}: begun")
    # A scroll before the first update: still the data, nothing moving.
    b = dict(s.bounds)
    b["x" if s.direction == "horizontal" else "y"] += 7
    r = s.mutate("layout/setBounds", bounds=b)
    assert not any(a.get("moving") for a in r.get("invalidated", [])), f"{name}: a scroll lifted the item"
    s.check_picture(f"{name}: scrolled before the first update")
    assert not any(a.get("moving") for a in s.picture.values())
    # The first update lifts it.
    c = grabbed["center"]
    s.mutate("layout/updateInteractiveMovement", position={"x": c["x"] + 3, "y": c["y"] + 2})
    assert [a["item"] for a in s.picture.values() if a.get("moving")] == [grabbed["item"]]
    s.check_picture(f"{name}: first update")


@pytest.mark.parametrize("offset", [600, 690.25])
def test_a_carousel_preview_frame_is_bit_for_bit_the_final_frame(server, offset):
    """The issue's carousel: a preview width of 100.00000000000001 where the
    final frame is 100. A linear carousel of 100x100 cards: a card is
    translated by off·w·spacing = off·100 along x, so at offset 600 (u = 6,
    every off an integer) its corners are integers and its frame is exactly
    100 wide; at 690.25 the corners are fractional. Drag a card over its
    neighbours and drop: every card's preview frame (the picture before the
    drop, but the moving one) equals its final frame exactly, the bounds
    unchanged by the drop."""
    layout = {"type": "carousel", "style": "linear", "itemSize": {"width": 100, "height": 100}}
    items = [(f"c{k}", None) for k in range(12)]
    s = Session(server, "a", layout, rect(0, 0, 375, 300), items)
    for x in (450, 560.5, offset):
        s.mutate("layout/setBounds", bounds=rect(x, 0, 375, 300))
    grabbed = s.picture[key({"kind": "cell", "section": 0, "item": 8})]
    begin(s, grabbed)
    b = s.bounds
    for dx in (100, 60, 35, 20):
        r = s.mutate("layout/updateInteractiveMovement", position={"x": b["x"] + dx, "y": b["y"] + 150})
    preview = {a["id"]: a["frame"] for a in s.picture.values() if not a.get("moving")}
    end = s.mutate("layout/endInteractiveMovement")
    assert end["bounds"] == r["bounds"]
    final = {a["id"]: a["frame"] for a in s.picture.values()}
    for ident, f in preview.items():
        assert final[ident] == f, f"{ident}: preview {f!r}, final {final[ident]!r}"


# -- item 2: snapshots report only real changes ---------------------------------


@pytest.mark.parametrize("layout", [
    {"type": "flow", "itemSize": {"width": 90, "height": 40}},
    {"type": "coverFlow", "itemSize": {"width": 90, "height": 40}},
    {"type": "waterfall", "itemSize": {"width": 90, "height": 40}},
], ids=["flow", "coverFlow", "waterfall"])
def test_restating_the_uniform_size_is_no_change(server, layout):
    """The issue's example: [x, y, z] by bare ids, then the same with
    {"id": "y", "size": 90x40}, y's size already: an empty batch (protocol:
    "an identical snapshot answers updates: {} and an empty delta"). Then a
    twin replaying every `updates` stays equal after a configure of
    itemSize: y stayed uniform, so it follows the new size in both."""
    bounds = rect(0, 0, 320, 300) if layout["type"] != "coverFlow" else rect(0, 0, 375, 300)
    for name in ("a", "b"):
        server.call("layout/open", {"session": name, "layout": layout, "bounds": bounds,
                                    "sections": [{"id": "s", "itemCount": 0}]})
    first = server.call("layout/applySnapshot", {"session": "a", "sections": [{"id": "s", "items": ["x", "y", "z"]}]})
    server.call("layout/performBatchUpdates", {"session": "b", "updates": first["updates"]})
    same = server.call("layout/applySnapshot", {"session": "a", "sections": [
        {"id": "s", "items": ["x", {"id": "y", "size": {"width": 90, "height": 40}}, "z"]}]})
    assert same["updates"] == {}, f"updates {same['updates']} for a size equal to the item's own"
    assert same["invalidated"] == [] and same["removed"] == [] and same["moved"] == []
    server.call("layout/performBatchUpdates", {"session": "b", "updates": same["updates"]})
    for name in ("a", "b"):
        server.call("layout/configure", {"session": name, "layout": {"itemSize": {"width": 120, "height": 70}}})
    whole = rect(-1000, -1000, 5000, 5000)
    a = server.call("layout/attributesInRect", {"session": "a", "rect": whole})["attributes"]
    b = server.call("layout/attributesInRect", {"session": "b", "rect": whole})["attributes"]
    assert a == b
    # y follows the new uniform size: 120x70 (no transform on a flow).
    y = server.call("layout/attributesForItem", {"session": "a", "id": "y"})["attributes"]
    assert y["size"] == {"width": 120, "height": 70} or layout["type"] == "waterfall", y
    # A size that really changes is still reported, once.
    real = server.call("layout/applySnapshot", {"session": "a", "sections": [
        {"id": "s", "items": ["x", {"id": "y", "size": {"width": 60, "height": 50}}, "z"]}]})
    assert real["updates"] == {"reconfigureItems": [{"section": 0, "item": 1,
                                                     "size": {"width": 60, "height": 50}}]}, real["updates"]


# -- item 3: the pager re-centres on a size change -----------------------------------

TRANSFORMERS = [None, "crossFading", "zoomOut", "depth", "overlap", "linear", "coverFlow", "ferrisWheel",
                "invertedFerrisWheel", "cubic"]


@pytest.mark.parametrize("wrap", [False, True], ids=["plain", "wrap"])
@pytest.mark.parametrize("transformer", TRANSFORMERS, ids=[str(t) for t in TRANSFORMERS])
def test_a_pager_resize_recentres_on_the_centred_page(server, transformer, wrap):
    # itemSize null: pages take the bounds' size, so cw = 0 and every
    # transformer's proposed spacing (-0.6·m·cw, ...) is 0: s = 400. At x 920
    # o/s = 2.3, the centred slot ⌈2.3 - ½⌉ = 2. After 300x400 the pitch is
    # s' = 300, so the origin is 2·300 = 600 (not 720, the generic anchor),
    # within [0, (7 - 1)·300] without wrap.
    layout: Dict[str, Any] = {"type": "pager"}
    if transformer:
        layout["transformer"] = transformer
    if wrap:
        layout["wrap"] = True
    server.call("layout/open", {"session": "p", "layout": layout, "bounds": rect(920, 0, 400, 300),
                                "sections": [{"itemCount": 7}]})
    r = server.call("layout/setBounds", {"session": "p", "bounds": rect(920, 0, 300, 400)})
    assert r["bounds"] == rect(600, 0, 300, 400), r["bounds"]
    c = {k: v for k, v in r["centeredItem"].items() if k != "lap"}
    assert c == {"section": 0, "item": 2}


# -- the seams suite -----------------------------------------------------------------


class Pair:
    """Session `a` with the client's picture, and a twin `t` that replays
    every answer's `updates` and receives every other mutation as sent."""

    def __init__(self, d: Daemon, name: str, layout: dict, size: Tuple[float, float], items: List[Item],
                 at: int) -> None:
        self.d = d
        self.name = name
        self.layout = layout
        self.a = start(d, name, layout, size, items, at=at)
        self.t = Session(d, "t", layout, rect(0, 0, *size), items)
        self.t.mutate("layout/setBounds", bounds=self.a.bounds)
        self.moving = False

    def mirror(self, method: str, **params: Any) -> dict:
        r = self.a.mutate(method, **params)
        self.a.check_picture(f"{self.name}: {method}")
        self.t.call(method, **params)
        return r

    def replay(self, answer: dict) -> None:
        if answer.get("updates") is not None:
            self.t.call("layout/performBatchUpdates", updates=answer["updates"])

    def compare(self, where: str) -> None:
        """The data: twin == a at a's bounds (a scroll of the twin, same size)."""
        r = self.t.call("layout/setBounds", bounds=self.a.bounds)
        assert r["bounds"] == self.a.bounds, f"{where}: twin bounds {r['bounds']} vs {self.a.bounds}"
        assert self.t.call("layout/contentSize") == self.a.call("layout/contentSize"), where
        assert self.a.in_rect(self.a.widened()) == self.t.in_rect(self.a.widened()), (
            f"{where}: the twin replaying `updates` differs")

    def update(self, pos: dict, origin: int) -> dict:
        r = self.a.mutate("layout/updateInteractiveMovement", position=pos)
        self.a.check_picture(f"{self.name}: update {pos}")
        # The preview against a session holding the previewed data.
        twin = moved_twin(self.d, self.layout, r["bounds"], self.a.items, origin, r["target"]["item"], "pv")
        shown = by_identity([a for a in self.a.picture.values() if not a.get("moving")])
        mid = self.a.items[origin][0]
        expected = {k: v for k, v in by_identity(twin.in_rect(r["bounds"])).items() if k[1] != mid}
        self.d.call("layout/close", {"session": "pv"})
        assert shown == expected, f"{self.name}: preview frames differ from a session holding that data"
        return r


def other_size(size: Tuple[float, float]) -> Tuple[float, float]:
    """A rotation: width and height swapped."""
    return (size[1], size[0])


@pytest.mark.parametrize("kind", TYPES, ids=IDS)
def test_seam_movement_with_a_resize(server, kind):
    """A rotation mid-drag keeps the movement (protocol: "a rotation keeps
    it too"); the picture holds at every step; the drop equals the twin
    given the same rotation and the answered `updates`."""
    name, layout, size, n, _, varied = kind
    rng = random.Random(zlib.crc32(("resize-" + name).encode()))
    items = initial_items(name, layout, n, varied)
    p = Pair(server, name, layout, size, items, at=n // 3)
    grabbed = grab(rng, p.a)
    origin = grabbed["item"]
    begin(p.a, grabbed)
    for pos in positions(rng, p.a, 2):
        p.update(pos, origin)
    rotated = rect(p.a.bounds["x"], p.a.bounds["y"], *other_size(size))
    r = p.mirror("layout/setBounds", bounds=rotated)
    assert "movementCancelled" not in r, r
    assert (r["bounds"]["width"], r["bounds"]["height"]) == other_size(size)
    moving = [a for a in p.a.picture.values() if a.get("moving")]
    assert [a["item"] for a in moving] in ([origin], []), moving  # still dragged (if still in view)
    last = None
    for pos in positions(rng, p.a, 2):
        last = p.update(pos, origin)
    end = p.a.mutate("layout/endInteractiveMovement")
    p.a.check_picture(f"{name}: dropped after a rotation")
    target = last["target"]["item"]
    assert end["updates"] == ({} if target == origin else {
        "moveItems": [{"from": {"section": 0, "item": origin}, "to": {"section": 0, "item": target}}]})
    p.a.items = move(p.a.items, origin, target)
    p.replay(end)
    p.compare(f"{name}: dropped after a rotation")


def snapshot_of(rng: random.Random, items: List[Item], sized: bool, tag: str) -> Tuple[List[Item], List[Any]]:
    """A new snapshot: one item deleted, one inserted, two swapped, and
    (where items take sizes) one item given a new size. Returns the new
    items and the snapshot's `items` list."""
    new = list(items)
    del new[rng.randrange(len(new))]
    new.insert(rng.randrange(len(new) + 1), (f"n{tag}", None))
    i, j = rng.sample(range(len(new)), 2)
    new[i], new[j] = new[j], new[i]
    listed: List[Any] = [ident for ident, _ in new]
    if sized:
        k = rng.randrange(len(new))
        size = {"width": rng.choice([50, 80, 95.5]), "height": rng.choice([40, 60, 88])}
        new[k] = (new[k][0], size)
        listed[k] = {"id": new[k][0], "size": size}
    return new, listed


@pytest.mark.parametrize("kind", TYPES, ids=IDS)
def test_seam_movement_with_a_snapshot(server, kind):
    """A snapshot mid-drag cancels the movement first (`movementCancelled:
    true`), diffs the data (not the preview), and its delta leads from the
    preview to the new data: the picture then equals attributesInRect, and
    a twin replaying `updates` equals the session. The movement is over."""
    name, layout, size, n, sized, varied = kind
    rng = random.Random(zlib.crc32(("snapshot-" + name).encode()))
    items = initial_items(name, layout, n, varied)
    p = Pair(server, name, layout, size, items, at=n // 3)
    grabbed = grab(rng, p.a)
    origin = grabbed["item"]
    begin(p.a, grabbed)
    for pos in positions(rng, p.a, 3):
        p.update(pos, origin)
    new, listed = snapshot_of(rng, items, sized, "1")
    r = p.a.mutate("layout/applySnapshot", sections=[{"id": "s", "items": listed}])
    assert r.get("movementCancelled") is True, sorted(r)
    assert not any(a.get("moving") for a in p.a.picture.values())
    p.a.check_picture(f"{name}: snapshot mid-drag")
    p.a.items = new
    p.replay(r)
    p.compare(f"{name}: snapshot mid-drag")
    e = server.error("layout/updateInteractiveMovement", {"session": "a", "position": {"x": 1, "y": 1}}, code=-32602)
    assert e["data"]["field"] == "params.session", e
    # The ids are the snapshot's, in its order.
    got = [server.call("layout/attributesForItem", {"session": "a", "section": 0, "item": k})["attributes"]["id"]
           for k in range(len(new))]
    assert got == [i for i, _ in new]


@pytest.mark.parametrize("kind", TYPES, ids=IDS)
def test_seam_snapshot_with_a_measurement(server, kind):
    """Snapshots and measured sizes interleaved: each answer's picture is
    attributesInRect, and a twin that replays `updates` and receives the
    same setItemSizes stays equal. A pager refuses measured sizes (-32602,
    nothing changes)."""
    name, layout, size, n, sized, varied = kind
    rng = random.Random(zlib.crc32(("measure-" + name).encode()))
    items = initial_items(name, layout, n, varied)
    p = Pair(server, name, layout, size, items, at=n // 3)
    cur = items
    for step in range(3):
        new, listed = snapshot_of(rng, cur, sized, str(step))
        r = p.a.mutate("layout/applySnapshot", sections=[{"id": "s", "items": listed}])
        p.a.check_picture(f"{name}: snapshot {step}")
        p.replay(r)
        p.a.items = cur = new
        p.compare(f"{name}: snapshot {step}")
        # Measure two visible items by id and one far one by index path.
        visible = sorted((a for a in p.a.picture.values() if a["kind"] == "cell"), key=key)
        chosen = rng.sample(visible, min(2, len(visible)))
        sizes: List[dict] = [{"id": a["id"], "size": {"width": rng.choice([60, 75.5, 90]),
                                                      "height": rng.choice([45, 52.25, 100])}} for a in chosen]
        sizes.append({"section": 0, "item": len(cur) - 1, "size": {"width": 70, "height": 33}})
        if not sized:
            e = server.error("layout/setItemSizes", {"session": "a", "sizes": sizes}, code=-32602)
            assert e["data"]["field"].startswith("params.sizes"), e
            continue
        p.mirror("layout/setItemSizes", sizes=sizes)
        for s in sizes:
            k = p.a.index_of(s["id"]) if "id" in s else s["item"]
            cur[k] = (cur[k][0], s["size"])
        p.a.items = cur
        p.compare(f"{name}: measured {step}")
    # The same snapshot, restating every size as it is (a measured item's
    # own, and a uniform item's the layout's itemSize): nothing changes
    # (issue 40 item 2), and a uniform item stays uniform.
    uniform = layout.get("itemSize") if sized else None
    same: List[Any] = []
    for i, sz in cur:
        if sz is not None and sized:
            same.append({"id": i, "size": sz})
        elif uniform is not None:
            same.append({"id": i, "size": uniform})
        else:
            same.append(i)
    r = p.a.mutate("layout/applySnapshot", sections=[{"id": "s", "items": same}])
    assert r["updates"] == {}, f"{name}: restated sizes answered {str(r['updates'])[:300]}"
    assert r["invalidated"] == [] and r["removed"] == [], name
    p.replay(r)
    if uniform is not None:
        # A new uniform size: the items without sizes of their own follow it
        # in both sessions alike.
        p.mirror("layout/configure", layout={"itemSize": {"width": uniform["width"] + 17,
                                                           "height": uniform["height"] + 9}})
        p.compare(f"{name}: itemSize changed after the restated sizes")


def slot_pitch(layout: dict, bounds: dict) -> float:
    """A pager's pitch s = e + g (transformers proposing spacing from cw;
    zoomOut and cubic keep interitemSpacing 0): with a fixed itemSize,
    e is its width."""
    size = layout.get("itemSize")
    return size["width"] if size else bounds["width"]


@pytest.mark.parametrize("kind", TYPES, ids=IDS)
def test_seam_resize_during_a_fling(server, kind):
    """A release (scrollEnded) and the client following its trajectory with
    setBounds, then a rotation mid-fling: the picture and the twin hold. For
    a pager, the rotation re-centres FSPagerView's way: origin j*·s', j*
    the slot centred before the change."""
    name, layout, size, n, _, varied = kind
    items = initial_items(name, layout, n, varied)
    p = Pair(server, name, layout, size, items, at=1)
    axis = "y" if p.a.direction == "vertical" else "x"
    # Released 37 points past item 1's rest offset (a pager pages from the
    # current offset, ⌈x⌉, so it must be between pages to move).
    p.mirror("layout/setBounds", bounds={**p.a.bounds, axis: p.a.bounds[axis] + 37})
    velocity = {"x": 0, "y": 0, axis: 1.2}
    plan = p.a.call("layout/scrollEnded", contentOffset={"x": p.a.bounds["x"], "y": p.a.bounds["y"]},
                    velocity=velocity, frameInterval=50)
    trajectory = plan["trajectory"]
    assert len(trajectory) >= 3, plan
    for off in trajectory[1:3]:  # the client follows the fling
        r = p.mirror("layout/setBounds", bounds={**p.a.bounds, **off})
        assert r["bounds"] == {**p.a.bounds, **off}  # a scroll: the bounds as sent
        p.compare(f"{name}: fling frame {off}")
    before = p.a.bounds
    rotated = rect(before["x"], before["y"], *other_size(size))
    r = p.mirror("layout/setBounds", bounds=rotated)
    p.compare(f"{name}: rotated mid-fling")
    if layout["type"] == "pager":
        s = slot_pitch(layout, before)
        o = before[axis]
        j = math.ceil(o / s - 0.5)  # ⌈o/s − ½⌉
        if not layout.get("wrap"):
            j = min(max(j, 0), n - 1)
        s2 = slot_pitch(layout, r["bounds"])
        assert r["bounds"][axis] == j * s2, f"offset {o} (slot {o / s:.3f}) -> {r['bounds']}, expected {j}·{s2}"


@pytest.mark.parametrize("wrap", [False, True], ids=["plain", "wrap"])
@pytest.mark.parametrize("transformer", [None, "zoomOut", "cubic", "coverFlow"], ids=str)
def test_seam_pager_resize_during_a_fling_recentres(server, transformer, wrap):
    # 7 pages of the bounds' size (itemSize null: s = 400). A fling: the
    # client follows the trajectory for a few frames, then rotates to
    # 300x400. The origin must be j*·300 with j* = ⌈o/400 −
    # ½⌉ for the o the client was at.
    layout: Dict[str, Any] = {"type": "pager"}
    if transformer:
        layout["transformer"] = transformer
    if wrap:
        layout["wrap"] = True
    server.call("layout/open", {"session": "p", "layout": layout, "bounds": rect(400, 0, 400, 300),
                                "sections": [{"itemCount": 7, "ids": [f"p{k}" for k in range(7)]}]})
    # A release mid-drag at 520 (x = o/s = 1.3) at 0.8 pt/ms: the default
    # decelerationDistance 1 is "paging" with N = 1, and v >= 0.3 gives
    # ⌈x + N − 1⌉ = ⌈1.3⌉ = 2: the fling rests at 2·400 = 800.
    plan = server.call("layout/scrollEnded", {"session": "p", "contentOffset": {"x": 520, "y": 0},
                                              "velocity": {"x": 0.8, "y": 0}, "frameInterval": 40})
    assert plan["targetContentOffset"] == {"x": 800, "y": 0}, plan["targetContentOffset"]
    frames = plan["trajectory"]
    o = frames[2]["x"]  # somewhere between 520 and 800
    assert 520 < o < 800
    server.call("layout/setBounds", {"session": "p", "bounds": rect(o, 0, 400, 300)})
    r = server.call("layout/setBounds", {"session": "p", "bounds": rect(o, 0, 300, 400)})
    j = math.ceil(o / 400 - 0.5)
    assert r["bounds"] == rect(j * 300, 0, 300, 400), (o, j, r["bounds"])
    assert r["centeredItem"]["item"] == j
