"""Property test of live sessions: random sequences of setBounds (scrolls
and size changes), performBatchUpdates (valid ones generated from a
client-side model of the data, and invalid ones expecting 1003 and no
change), configure, setItemSizes and reloadData, on flow and coverFlow
sessions with uniform and varied sizes, against one daemon.

After every step (live_support.Live checks (a)-(c)):
  (a) the picture, after applying removed then invalidated, equals
      attributesInRect of the visible rect (the answer's bounds grown by the
      overscan along the scroll axis), as exact JSON values;
  (b) nothing in `invalidated` equals what the picture already held;
  (c) every removed key was in the picture;
  (d) anchoring: for steps that relayout, the anchor (coverFlow: the
      previous centeredItem; flow: the first cell visible in the bounds
      before the step), mapped to its new index path by the client's own
      model of UIKit's batch semantics (or by id / index path across
      reloadData, or to its nearest survivor when deleted), keeps its
      centre at the same scroll-axis distance from the viewport's reference
      point (coverFlow: the centre; flow: the origin), the offset clamped
      to 0...contentExtent - viewportExtent;
  (e) every request gets exactly one response and the daemon stays alive.
Batch answers are also checked against the model: `appearing` holds
exactly the inserted elements now in the picture, `disappearing` exactly
the deleted elements of the old picture, and `moved` names each element's
old index path.
"""

from __future__ import annotations

import itertools
import os
import math
from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from daemon_support import Daemon
from live_support import (
    Live,
    clamp,
    extent_key,
    first_visible_cell,
    main_axis,
    offset_range,
)

SETTINGS = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "50")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def shared_daemon():
    d = Daemon()
    d.initialize()
    yield d
    code = d.finish()
    assert code is not None and code >= 0, f"daemon died: {code} {d.stderr_text()}"


_session_ids = itertools.count()


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


# -- the client's model of the data ------------------------------------------


class Model:
    """Sections as lists of items {tok, id, size}: tok is a client-side
    identity that follows an item through batch updates; id is the stable id
    the daemon was given (or None); size is the item's own size (itemSizes,
    an insert's or reload's size, a measured size), or None for the uniform
    size: estimatedItemSize when set, else itemSize."""

    def __init__(self, kind: str) -> None:
        self.sections: list[list[dict]] = []
        self._tok = itertools.count()
        self.item_size = {"width": 50, "height": 50} if kind == "flow" else {"width": 200, "height": 300}
        self.estimated: Optional[dict] = None

    def new_item(self, with_id: bool) -> dict:
        t = next(self._tok)
        return {"tok": t, "id": f"t{t}" if with_id else None, "size": None}

    def size_of(self, s: int, i: int) -> dict:
        return self.sections[s][i]["size"] or self.estimated or self.item_size

    def counts(self) -> list[int]:
        return [len(s) for s in self.sections]

    def path_of(self, tok: int) -> Optional[tuple]:
        for s, items in enumerate(self.sections):
            for i, it in enumerate(items):
                if it["tok"] == tok:
                    return (s, i)
        return None

    def total(self) -> int:
        return sum(self.counts())


# -- generators ---------------------------------------------------------------

SIZES = st.builds(lambda w, h: {"width": w, "height": h}, st.integers(20, 160), st.integers(20, 160))


def draw_section(draw, model: Model, kind: str, ids: bool, items: Optional[list] = None) -> tuple:
    """A section object and its model items: itemCount (uniform) or
    itemSizes (varied); `items` reuses existing model items."""
    if items is None:
        n = draw(st.integers(0, 18))
        items = [model.new_item(ids) for _ in range(n)]
    n = len(items)
    if draw(st.booleans()):
        sec: dict = {"itemCount": n}
        for it in items:
            it["size"] = None
    else:
        sec = {"itemSizes": [draw(SIZES) for _ in range(n)]}
        for it, size in zip(items, sec["itemSizes"]):
            it["size"] = size
    if ids and n:
        for it in items:
            if it["id"] is None:
                it["id"] = f"t{it['tok']}"
        sec["ids"] = [it["id"] for it in items]
    if kind == "flow" and draw(st.integers(0, 5)) == 0:
        sec["minimumLineSpacing"] = draw(st.integers(0, 30))
    return sec, items


def draw_layout(draw, kind: str) -> dict:
    lay: dict = {"type": kind}
    if draw(st.booleans()):
        lay["scrollDirection"] = draw(st.sampled_from(["vertical", "horizontal"]))
    if kind == "flow":
        if draw(st.booleans()):
            lay["itemSize"] = draw(SIZES)
        if draw(st.integers(0, 3)) == 0:
            lay["headerReferenceSize"] = {"width": draw(st.integers(0, 40)), "height": draw(st.integers(0, 40))}
        if draw(st.integers(0, 3)) == 0:
            lay["footerReferenceSize"] = {"width": draw(st.integers(0, 30)), "height": draw(st.integers(0, 30))}
        if draw(st.integers(0, 5)) == 0:
            lay["sectionHeadersPinToVisibleBounds"] = True
        if draw(st.integers(0, 4)) == 0:
            lay["sectionInset"] = {k: draw(st.integers(0, 15)) for k in ("top", "left", "bottom", "right")}
    else:
        if draw(st.booleans()):
            lay["itemSize"] = {"width": draw(st.integers(60, 220)), "height": draw(st.integers(60, 320))}
        if draw(st.booleans()):
            lay["scale"] = {"factor": draw(st.sampled_from([0.4, 1, 2.5]))}
        if draw(st.integers(0, 3)) == 0:
            lay["distanceUnit"] = draw(st.sampled_from(["viewport", "points", "pitch"]))
    if draw(st.integers(0, 4)) == 0:
        lay["estimatedItemSize"] = draw(SIZES)
    if draw(st.booleans()):
        lay["minimumLineSpacing"] = draw(st.integers(0, 30))
    if draw(st.booleans()):
        lay["minimumInteritemSpacing"] = draw(st.integers(0, 20))
    return lay


def half_points(draw, lo: float, hi: float) -> float:
    """A coordinate in [lo, hi] on the half-point grid."""
    a, b = math.ceil(lo * 2), math.floor(hi * 2)
    if b < a:
        return lo
    return draw(st.integers(a, b)) / 2


class BatchPlan:
    """A valid batch, built so that UIKit accepts it, and its outcome."""

    def __init__(self) -> None:
        self.updates: dict = {}
        self.new_sections: list[list[dict]] = []
        self.inserted_sections: set = set()
        self.inserted_toks: set = set()
        self.deleted_sections: set = set()
        self.old_to_new: dict = {}  # old (s, i) -> new (s, i) for survivors
        self.new_to_old: dict = {}
        self.section_source: list = []
        self.section_target: dict = {}


def draw_valid_batch(draw, model: Model, kind: str) -> BatchPlan:
    old = model.sections
    m = len(old)
    plan = BatchPlan()
    u = plan.updates
    # Sections.
    deleted = set()
    if m and draw(st.integers(0, 7)) == 0:
        deleted.add(draw(st.integers(0, m - 1)))
    survivors = [s for s in range(m) if s not in deleted]
    n_ins = 1 if (m < 4 and draw(st.integers(0, 6)) == 0) else 0
    new_count = len(survivors) + n_ins
    moves = []
    if len(survivors) >= 2 and draw(st.integers(0, 5)) == 0:
        moves.append(draw(st.sampled_from(survivors)))
    slots = draw(st.permutations(list(range(new_count)))) if new_count else []
    source: list = [None] * new_count
    taken = set()
    section_moves = []
    for k, frm in enumerate(moves):
        to = slots[k]
        source[to] = frm
        taken.add(to)
        section_moves.append({"from": frm, "to": to})
    inserted_at = []
    for k in range(n_ins):
        to = slots[len(moves) + k]
        taken.add(to)
        inserted_at.append(to)
    rest = iter(s for s in survivors if s not in moves)
    for s in range(new_count):
        if s not in taken:
            source[s] = next(rest)
    target = {o: s for s, o in enumerate(source) if o is not None}
    plan.section_source = source
    plan.section_target = target
    plan.deleted_sections = deleted
    plan.inserted_sections = set(inserted_at)
    if deleted:
        u["deleteSections"] = sorted(deleted)
    if section_moves:
        u["moveSections"] = section_moves
    new_sections: list = [None] * new_count
    ins_secs = []
    for to in inserted_at:
        sec, items = draw_section(draw, model, kind, ids=draw(st.booleans()))
        ins_secs.append({"index": to, **sec})
        new_sections[to] = items
        plan.inserted_toks |= {it["tok"] for it in items}
    if ins_secs:
        u["insertSections"] = ins_secs

    # Items: deletes, reloads and move sources by old path.
    removed: dict = {}  # old section -> set of old items leaving
    deletes, reloads, move_srcs = [], [], []
    for o in survivors:
        n = len(old[o])
        if not n:
            continue
        picks = draw(st.lists(st.integers(0, n - 1), max_size=min(n, 6), unique=True))
        roles = [draw(st.sampled_from(["delete", "delete", "reload", "move"])) for _ in picks]
        for i, role in zip(picks, roles):
            if role == "delete":
                deletes.append((o, i))
                removed.setdefault(o, set()).add(i)
            elif role == "reload":
                r: dict = {"section": o, "item": i}
                if draw(st.booleans()):
                    r["size"] = draw(SIZES)
                    old[o][i]["size"] = r["size"]  # a reload's size replaces the item's
                reloads.append(r)
            else:
                move_srcs.append((o, i))
                removed.setdefault(o, set()).add(i)
    existing_new = [s for s in range(new_count) if source[s] is not None]
    arrivals: dict = {s: [] for s in existing_new}  # new section -> [tok of move | insert spec]
    if not existing_new:
        # Nowhere to move to: the move sources are deleted instead.
        deletes += move_srcs
        move_srcs = []
    for frm in move_srcs:
        arrivals[draw(st.sampled_from(existing_new))].append(("move", frm))
    for s in existing_new:
        for _ in range(draw(st.integers(0, 3))):
            with_id = draw(st.integers(0, 3)) == 0
            item = model.new_item(with_id)
            spec: dict = {"section": s}
            if draw(st.booleans()):
                spec["size"] = draw(SIZES)
                item["size"] = spec["size"]
            if with_id:
                spec["id"] = item["id"]
            arrivals[s].append(("insert", (spec, item)))
    insert_items, move_items = [], []
    for s in existing_new:
        o = source[s]
        staying = [it for i, it in enumerate(old[o]) if i not in removed.get(o, set())]
        adds = arrivals[s]
        n = len(staying) + len(adds)
        positions = draw(st.lists(st.integers(0, n - 1), min_size=len(adds), max_size=len(adds), unique=True)) if adds else []
        placed: dict = {}
        for pos, (what, data) in zip(positions, adds):
            if what == "move":
                fo, fi = data
                move_items.append({"from": {"section": fo, "item": fi}, "to": {"section": s, "item": pos}})
                placed[pos] = old[fo][fi]
            else:
                spec, item = data
                spec["item"] = pos
                insert_items.append(spec)
                placed[pos] = item
                plan.inserted_toks.add(item["tok"])
        it = iter(staying)
        new_sections[s] = [placed[i] if i in placed else next(it) for i in range(n)]
    if deletes:
        u["deleteItems"] = [{"section": s, "item": i} for s, i in deletes]
    if insert_items:
        u["insertItems"] = insert_items
    if move_items:
        u["moveItems"] = move_items
    if reloads:
        u["reloadItems"] = reloads
    if draw(st.booleans()):
        u["itemCounts"] = [len(s) for s in new_sections]
    plan.new_sections = new_sections
    where = {it["tok"]: (s, i) for s, items in enumerate(new_sections) for i, it in enumerate(items)}
    for o, items in enumerate(old):
        for i, it in enumerate(items):
            if it["tok"] in where:
                plan.old_to_new[(o, i)] = where[it["tok"]]
                plan.new_to_old[where[it["tok"]]] = (o, i)
    return plan


P = "{length = 2, path = %d - %d}"


def draw_invalid_batch(draw, model: Model) -> tuple:
    """A batch UIKit rejects, and the message it must be rejected with."""
    counts = model.counts()
    m = len(counts)
    full = [s for s in range(m) if counts[s]]
    choices = ["delete-section-range", "insert-into-inserted", "sections-count"]
    if m:
        choices += ["delete-range", "reload-range", "move-range", "insert-range", "items-count"]
    if full:
        choices += ["delete-reload", "delete-move", "reload-move", "delete-in-deleted"]
    what = draw(st.sampled_from(choices))
    extra = draw(st.integers(0, 2))
    if what == "delete-section-range":
        return {"deleteSections": [m + extra]}, f"attempt to delete section {m + extra}, but there are only {m} sections before the update"
    if what == "insert-into-inserted":
        j = draw(st.integers(0, m))
        return (
            {"insertSections": [{"index": j, "itemCount": 0}], "insertItems": [{"section": j, "item": 0}]},
            f"attempt to insert item 0 into section {j}, which is itself being inserted",
        )
    if what == "sections-count":
        return (
            {"itemCounts": counts + [0]},
            f"Invalid update: invalid number of sections. The number of sections contained in the collection view after the update ({m + 1}) must be equal to the number of sections contained in the collection view before the update ({m}), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted).",
        )
    s = draw(st.integers(0, m - 1))
    c = counts[s]
    if what in ("delete-range", "reload-range", "move-range"):
        verb = what.split("-")[0]
        p = {"section": s, "item": c + extra}
        if verb == "delete":
            u = {"deleteItems": [p]}
        elif verb == "reload":
            u = {"reloadItems": [p]}
        else:
            u = {"moveItems": [{"from": p, "to": {"section": 0, "item": 0}}]}
        return u, f"attempt to {verb} item {c + extra} from section {s} which only contains {c} items before the update"
    if what == "insert-range":
        i = c + 1 + extra
        return (
            {"insertItems": [{"section": s, "item": i}]},
            f"attempt to insert item {i} into section {s}, but there are only {c + 1} items in section {s} after the update",
        )
    if what == "items-count":
        wrong = list(counts)
        wrong[s] += 1 + extra
        return (
            {"itemCounts": wrong},
            f"Invalid update: invalid number of items in section {s}. The number of items contained in an existing section after the update ({c + 1 + extra}) must be equal to the number of items contained in that section before the update ({c}), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).",
        )
    s = draw(st.sampled_from(full))
    i = draw(st.integers(0, counts[s] - 1))
    p = {"section": s, "item": i}
    mv = {"from": p, "to": {"section": s, "item": 0}}
    if what == "delete-reload":
        return {"deleteItems": [p], "reloadItems": [p]}, "attempt to delete and reload the same index path " + P % (s, i)
    if what == "delete-move":
        return {"deleteItems": [p], "moveItems": [mv]}, "attempt to perform a delete and a move from the same index path " + P % (s, i)
    if what == "reload-move":
        return {"reloadItems": [p], "moveItems": [mv]}, "attempt to perform a reload and a move from the same index path " + P % (s, i)
    return (
        {"deleteSections": [s], "deleteItems": [p]},
        f"attempt to delete item {i} from section {s}, which is also being deleted",
    )


# -- anchoring ---------------------------------------------------------------


def clamp_path(p: tuple, counts: list) -> Optional[tuple]:
    s = min(p[0], len(counts) - 1)
    while s >= 0 and counts[s] == 0:
        s -= 1
    if s < 0:
        return None
    return (s, min(p[1], counts[s] - 1))


class Anchor:
    def __init__(self, path: tuple, offset: float) -> None:
        self.path = path
        self.offset = offset


def take_anchor(live: Live) -> Optional[Anchor]:
    """What the user is looking at before a step, as protocol.md's
    "Anchoring" defines it."""
    ax = main_axis(live.direction)
    if live.type == "coverFlow":
        if live.centered is None:
            return None
        path = (live.centered["section"], live.centered["item"])
        c = live.item(*path)["center"][ax]
        ref = live.bounds[ax] + live.bounds[extent_key(live.direction)] / 2
    else:
        path = first_visible_cell(live.picture, live.bounds)
        if path is None:
            return None
        c = live.picture[("cell",) + path]["center"][ax]
        ref = live.bounds[ax]
    return Anchor(path, c - ref)


def take_measure_anchor(live: Live) -> Optional[Anchor]:
    """The anchor of measured sizes (protocol.md's measurement rule) in a
    layout that does not centre cards: the first cell, by index path, that
    starts inside the bounds; its offset is its leading edge's distance
    from the bounds' origin. None where the rule does not apply."""
    if live.type == "coverFlow":
        return None
    ax = main_axis(live.direction)
    b = live.bounds
    lo, _ = offset_range(live.content_size, b, live.direction)
    if b[ax] <= lo:
        return Anchor(None, 0)  # at the start: it stays there
    starting = sorted(k[1:] for k, a in live.picture.items() if k[0] == "cell"
                      and a["frame"][ax] >= b[ax] and overlaps(a["frame"], b))
    if not starting:
        return None
    return Anchor(starting[0], live.picture[("cell",) + starting[0]]["frame"][ax] - b[ax])


def overlaps(f: dict, r: dict) -> bool:
    return (f["x"] < r["x"] + r["width"] and r["x"] < f["x"] + f["width"]
            and f["y"] < r["y"] + r["height"] and r["y"] < f["y"] + f["height"])


def check_leading_anchor(live: Live, anchor: Anchor, what: str) -> None:
    """The measurement rule: the anchor's leading edge is where it was on
    screen, up to the clamp."""
    ax = main_axis(live.direction)
    lo, hi = offset_range(live.content_size, live.bounds, live.direction)
    if anchor.path is None:
        assert close(live.bounds[ax], lo), f"{what}: left the content's start for {live.bounds[ax]}"
        return
    edge = live.item(*anchor.path)["frame"][ax]
    want = clamp(edge - anchor.offset, lo, hi)
    assert close(live.bounds[ax], want), (
        f"{what}: measurement anchor {anchor.path} started {anchor.offset} past the origin; its "
        f"leading edge is now {edge}: expected offset {want} (range {lo}..{hi}), got {live.bounds[ax]}")


def check_anchor(live: Live, anchor: Optional[Anchor], new_path: Optional[tuple], what: str) -> None:
    """(d): the anchor's centre is where it was, up to the clamp."""
    ax = main_axis(live.direction)
    ek = extent_key(live.direction)
    lo, hi = offset_range(live.content_size, live.bounds, live.direction)
    got = live.bounds[ax]
    if anchor is None or new_path is None:
        assert lo - 1e-6 <= got <= hi + 1e-6, f"{what}: offset {got} outside {lo}..{hi}"
        return
    c = live.item(*new_path)["center"][ax]
    ref_shift = live.bounds[ek] / 2 if live.type == "coverFlow" else 0
    want = clamp(c - anchor.offset - ref_shift, lo, hi)
    assert close(got, want), (
        f"{what}: anchor {anchor.path} -> {new_path} was {anchor.offset} from the reference; "
        f"bounds {live.bounds}, its centre {c}: expected offset {want} (range {lo}..{hi}), got {got}"
    )


def nearest_survivor(path: tuple, old_counts: list, old_to_new: dict) -> Optional[tuple]:
    s, item = path
    n = old_counts[s]
    for d in range(1, max(n, 1)):
        for i in (item + d, item - d):
            if 0 <= i < n and (s, i) in old_to_new:
                return old_to_new[(s, i)]
    return None


# -- the run -------------------------------------------------------------------


ORDER = {"header": 0, "cell": 1, "footer": 2}


def run(d: Daemon, data: Any, kind: str) -> None:
    draw = data.draw
    model = Model(kind)
    sid = f"p{next(_session_ids)}"
    layout = draw_layout(draw, kind)
    ids = draw(st.booleans())
    sections = []
    for _ in range(draw(st.integers(1, 3))):
        sec, items = draw_section(draw, model, kind, ids)
        sections.append(sec)
        model.sections.append(items)
    w, h = draw(st.integers(150, 480)), draw(st.integers(150, 480))
    params = {
        "session": sid,
        "layout": layout,
        "bounds": {"x": 0, "y": 0, "width": w, "height": h},
        "sections": sections,
    }
    if draw(st.booleans()):
        params["overscan"] = draw(st.integers(0, 80))
    model.item_size = layout.get("itemSize", model.item_size)
    model.estimated = layout.get("estimatedItemSize")
    note(f"open {params}")
    live = Live(d, params)

    try:
        steps = draw(st.integers(20, 40))
        for n in range(steps):
            step = draw(st.sampled_from(["scroll", "scroll", "scroll", "resize", "batch", "batch", "invalid", "configure", "sizes", "reload"]))
            anchor = take_anchor(live)
            ax = main_axis(live.direction)
            what = f"step {n} {step}"

            if step == "scroll":
                lo, hi = offset_range(live.content_size, live.bounds, live.direction)
                b = dict(live.bounds)
                b[ax] = half_points(draw, lo - 40, hi + 40)
                note(f"{what}: {b}")
                r = live.set_bounds(b)
                assert r["bounds"] == b, f"a scroll must answer the bounds as sent: {r['bounds']} != {b}"

            elif step == "resize":
                b = dict(live.bounds)
                b["width"], b["height"] = draw(st.integers(150, 480)), draw(st.integers(150, 480))
                # The requested scroll-axis origin is replaced by the anchored one.
                b[ax] = half_points(draw, 0, 300)
                resized = (b["width"], b["height"]) != (live.bounds["width"], live.bounds["height"])
                note(f"{what}: {b}")
                r = live.set_bounds(b)
                assert (r["bounds"]["width"], r["bounds"]["height"]) == (b["width"], b["height"]), r["bounds"]
                if not resized:
                    assert r["bounds"] == b, f"a scroll must answer the bounds as sent: {r['bounds']} != {b}"
                elif anchor is not None:
                    check_anchor(live, anchor, anchor.path, what)

            elif step == "batch":
                old_picture = dict(live.picture)
                old_counts = model.counts()
                plan = draw_valid_batch(draw, model, kind)
                note(f"{what}: {plan.updates}")
                r = live.batch(plan.updates)
                model.sections = plan.new_sections
                check_batch_lists(r, old_picture, live.picture, plan)
                new_path = None
                if anchor is not None:
                    new_path = plan.old_to_new.get(anchor.path) or nearest_survivor(anchor.path, old_counts, plan.old_to_new)
                check_anchor(live, anchor, new_path, what)

            elif step == "invalid":
                updates, message = draw_invalid_batch(draw, model)
                note(f"{what}: {updates}")
                err = live.expect_unchanged_after("layout/performBatchUpdates", {"updates": updates}, 1003)
                assert err == {"code": 1003, "message": message, "data": {"field": "params.updates"}}, err

            elif step == "configure":
                lay: dict = {}
                if draw(st.booleans()):
                    lay["minimumLineSpacing"] = draw(st.integers(0, 40))
                if draw(st.booleans()):
                    lay["minimumInteritemSpacing"] = draw(st.integers(0, 20))
                if draw(st.booleans()):
                    lay["itemSize"] = draw(SIZES) if kind == "flow" else {"width": draw(st.integers(60, 220)), "height": draw(st.integers(60, 320))}
                if draw(st.integers(0, 5)) == 0:
                    lay["estimatedItemSize"] = draw(SIZES)
                flips = draw(st.integers(0, 4)) == 0
                if flips:
                    lay["scrollDirection"] = "horizontal" if live.direction == "vertical" else "vertical"
                p: dict = {"layout": lay} if lay or draw(st.booleans()) else {}
                if draw(st.integers(0, 2)) == 0:
                    p["overscan"] = draw(st.integers(0, 80))
                note(f"{what}: {p}")
                live.configure(**p)
                model.item_size = lay.get("itemSize", model.item_size)
                model.estimated = lay.get("estimatedItemSize", model.estimated)
                if not flips:
                    check_anchor(live, anchor, anchor.path if anchor else None, what)

            elif step == "sizes":
                measure_anchor = take_measure_anchor(live)
                paths = [(s, i) for s, c in enumerate(model.counts()) for i in range(c)]
                if not paths:
                    continue
                chosen = draw(st.lists(st.sampled_from(paths), min_size=1, max_size=4))
                sizes = [{"section": s, "item": i, "size": draw(SIZES)} for s, i in chosen]
                note(f"{what}: {sizes}")
                live.set_item_sizes(sizes)
                for z in sizes:
                    model.sections[z["section"]][z["item"]]["size"] = z["size"]
                if measure_anchor is not None:
                    check_leading_anchor(live, measure_anchor, what)
                else:
                    check_anchor(live, anchor, anchor.path if anchor else None, what)

            elif step == "reload":
                old_sections = model.sections
                anchor_item = old_sections[anchor.path[0]][anchor.path[1]] if anchor else None
                anchor_had_id = anchor_item is not None and anchor_item["id"] is not None
                with_ids = draw(st.booleans())
                pool = [it for items in old_sections for it in items]
                keep = draw(st.lists(st.sampled_from(pool), unique_by=lambda it: it["tok"], max_size=len(pool))) if pool else []
                new_model_sections, secs = [], []
                for k in range(draw(st.integers(0 if draw(st.integers(0, 9)) == 0 else 1, 3))):
                    share = keep[k::3] if with_ids else []
                    fresh = [model.new_item(with_ids) for _ in range(draw(st.integers(0, 8)))]
                    items = share + fresh
                    items = draw(st.permutations(items)) if items else []
                    sec, items = draw_section(draw, model, kind, with_ids, items=list(items))
                    secs.append(sec)
                    new_model_sections.append(items)
                note(f"{what}: {secs}")
                live.reload(secs)
                model.sections = new_model_sections
                new_path = None
                if anchor is not None:
                    if anchor_had_id and with_ids:
                        new_path = model.path_of(anchor_item["tok"])
                    if new_path is None:
                        new_path = clamp_path(anchor.path, model.counts())
                check_anchor(live, anchor, new_path, what)

            assert live.content_size[extent_key(live.direction)] >= 0, f"{what}: negative contentSize {live.content_size}"
            # (f) every visible cell has its item's size (its own, else the
            # uniform size of the moment).
            for k, a in live.picture.items():
                if k[0] == "cell":
                    assert a["size"] == model.size_of(k[1], k[2]), (
                        f"{what}: {k} has size {a['size']}, the model says {model.size_of(k[1], k[2])} "
                        f"({model.sections[k[1]][k[2]]})"
                    )
    finally:
        # A failing example must not leak its session into the next ones
        # (the shared daemon's session limit would hide the failure).
        if d.proc.poll() is None:
            d.request("layout/close", {"session": sid})
    # (e): alive, and nothing unanswered or extra on the wire.
    d.ping()
    assert d.proc.poll() is None, d.stderr_text()


def check_batch_lists(r: dict, old_picture: dict, new_picture: dict, plan: BatchPlan) -> None:
    """appearing, disappearing and moved against the model."""

    def old_of(k: tuple) -> Optional[tuple]:
        """The old key of the element now at new key k (None: inserted)."""
        kind, s, i = k
        if kind == "cell":
            o = plan.new_to_old.get((s, i))
            return ("cell",) + o if o else None
        o = plan.section_source[s]
        return (kind, o, 0) if o is not None else None

    def new_of(k: tuple) -> Optional[tuple]:
        kind, s, i = k
        if kind == "cell":
            n = plan.old_to_new.get((s, i))
            return ("cell",) + n if n else None
        n = plan.section_target.get(s)
        return (kind, n, 0) if n is not None else None

    sort = lambda xs: sorted(xs, key=lambda a: (a["section"], ORDER[a["kind"]], a["item"]))  # noqa: E731
    want_appearing = [{**a, "alpha": 0} for k, a in new_picture.items() if old_of(k) is None]
    assert sort(r["appearing"]) == sort(want_appearing), "appearing != the inserted elements now visible"
    want_disappearing = [{**a, "alpha": 0} for k, a in old_picture.items() if new_of(k) is None]
    assert sort(r["disappearing"]) == sort(want_disappearing), "disappearing != the deleted elements of the old picture"
    moved = {}
    for mv in r["moved"]:
        k = (mv["kind"], mv["section"], mv["item"])
        assert k not in moved, f"moved twice: {k}"
        moved[k] = mv
        o = old_of(k)
        assert o is not None, f"an inserted element is reported as moved: {mv}"
        assert (mv["from"]["section"], mv["from"]["item"]) == (o[1], o[2]), f"wrong from: {mv}, model says {o}"
        assert mv["fromFrame"] != mv["frame"], mv
        if k in new_picture:
            assert mv["frame"] == new_picture[k]["frame"], mv
        if o in old_picture:
            assert mv["fromFrame"] == old_picture[o]["frame"], mv
    # Every element in both pictures whose frame changed is reported.
    for k, a in new_picture.items():
        o = old_of(k)
        if o is not None and o in old_picture and old_picture[o]["frame"] != a["frame"]:
            assert k in moved, f"{k} (was {o}) moved from {old_picture[o]['frame']} to {a['frame']} but is not in moved"


@SETTINGS
@given(data=st.data())
def test_flow_delta_invariants(shared_daemon, data):
    run(shared_daemon, data, "flow")


@SETTINGS
@given(data=st.data())
def test_cover_flow_delta_invariants(shared_daemon, data):
    run(shared_daemon, data, "coverFlow")
