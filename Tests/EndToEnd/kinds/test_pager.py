"""The `pager` layout type (protocol.md, "pager"): FSPagerView. protocol.md's
worked example by hand; every transformer, both axes, with and without
wrap, at n = 1, 2, 3 and 50, at integer and fractional offsets, against
pager_model (an independent implementation of the rules); snapping,
hit-testing, the edge cases and every error."""

from __future__ import annotations

import math
import random
from typing import Any, Dict, List, Optional, Tuple

import pytest

from pager_model import TRANSFORMERS, Config, Model

B = (0.0, 0.0, 400.0, 300.0)


def rect(b: Tuple[float, float, float, float]) -> Dict[str, float]:
    return {"x": b[0], "y": b[1], "width": b[2], "height": b[3]}


def close(a: float, b: float, tol: float = 1e-9) -> bool:
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def open_pager(d, name: str, c: Config, n: int, bounds=B) -> dict:
    return d.call("layout/open", {"session": name, "layout": c.layout(), "bounds": rect(bounds),
                                  "sections": [{"itemCount": n}]})


def check(got: Dict[str, Any], want, where: str) -> None:
    """One page against the model: identity, centre, transform, frame,
    alpha and zIndex."""
    assert (got["item"], got.get("lap")) == (want.item, want.lap), where
    assert close(got["center"]["x"], want.center[0]) and close(got["center"]["y"], want.center[1]), (
        where, got["center"], want.center)
    flat = [v for row in want.transform for v in row]
    t = got.get("transform") or [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    assert all(close(a, b, 1e-9) for a, b in zip(t, flat)), (where, t, flat)
    if not want.hidden:
        f = got["frame"]
        for k, v in zip(("x", "y", "width", "height"), want.frame):
            assert close(f[k], v, 1e-7), (where, k, f, want.frame)
    assert close(got["alpha"], want.alpha, 1e-12), (where, got["alpha"], want.alpha)
    assert got["zIndex"] == want.z, (where, got["zIndex"], want.z)


def test_protocol_worked_example(server):
    """protocol.md's example: bounds 400x300, itemSize 260x200, overlap,
    n = 3, offset 0: g = -0.6·0.65·260 = -101.4, s = 158.6."""
    got = open_pager(server, "ex", Config(item=(260, 200), transformer="overlap"), 3)
    assert got["contentSize"] == {"width": 717.2, "height": 300}
    a = got["attributes"]
    assert [x["item"] for x in a] == [0, 1]  # item 2 lies outside the viewport
    assert a[0]["center"] == {"x": 200, "y": 150}
    assert a[0]["frame"] == {"x": 70, "y": 50, "width": 260, "height": 200}
    assert (a[0]["alpha"], a[0]["zIndex"]) == (1, 10) and "transform" not in a[0]
    assert a[1]["center"] == {"x": 358.6, "y": 150}
    assert a[1]["frame"] == {"x": 274.1, "y": 85, "width": 169, "height": 130}
    assert (a[1]["alpha"], a[1]["zIndex"]) == (0.6, 0)
    assert a[1]["transform"][0] == 0.65 and a[1]["transform"][5] == 0.65
    b = server.call("layout/attributesForItem", {"session": "ex", "section": 0, "item": 2})["attributes"]
    assert close(b["frame"]["x"], 432.7) and (b["frame"]["width"], b["frame"]["height"]) == (169, 130)
    assert close(b["alpha"], 0.2) and b["zIndex"] == -10
    assert got["centeredItem"] == {"section": 0, "item": 0}
    # A fling at 0.5 pt/ms from 30 (x = 0.189) targets slot 1; at -0.5 slot 0.
    plan = server.call("layout/scrollEnded", {"session": "ex", "contentOffset": {"x": 30, "y": 0},
                                              "velocity": {"x": 0.5, "y": 0}})
    assert plan["targetContentOffset"] == {"x": 158.6, "y": 0} and plan["targetItem"] == {"section": 0, "item": 1}
    assert plan["policy"] == "paging" and plan["trajectory"][-1] == {"x": 158.6, "y": 0}
    plan = server.call("layout/scrollEnded", {"session": "ex", "contentOffset": {"x": 30, "y": 0},
                                              "velocity": {"x": -0.5, "y": 0}})
    assert plan["targetContentOffset"] == {"x": 0, "y": 0}


def offsets(s: float, n: int, wraps: bool) -> List[float]:
    base = [0.0, 1.0, 0.5, 0.25, 0.75, 1.4, float(max(n - 1, 0)), max(n - 1, 0) - 0.3]
    if wraps:
        # Ties (halves) only in copy 0: beyond it the loop's reduction of
        # the offset may break an exact tie either way.
        base += [-0.4, -2.6, n + 0.3, 7 * n + 0.45, -3 * n - 0.25]
    return [u * s for u in base]


@pytest.mark.parametrize("transformer", [None] + TRANSFORMERS)
@pytest.mark.parametrize("vertical", [False, True])
def test_every_transformer_matches_the_model(server, transformer, vertical):
    checked = 0
    for n in (1, 2, 3, 50):
        for wrap in (False, True):
            item = (260, 200) if not vertical else (200, 220)
            c = Config(item=item, transformer=transformer, wrap=wrap, vertical=vertical,
                       spacing=12 if transformer in (None, "crossFading", "zoomOut", "depth") else 0)
            name = f"{transformer}-{vertical}-{n}-{wrap}"
            got = open_pager(server, name, c, n)
            m = Model(c, n, B)
            cs = m.content_size()
            assert close(got["contentSize"]["width"], cs[0]) and close(got["contentSize"]["height"], cs[1]), name
            for o in offsets(m.s, n, m.wraps):
                bounds = (0.0, o, 400.0, 300.0) if vertical else (o, 0.0, 400.0, 300.0)
                m = Model(c, n, bounds)
                server.call("layout/setBounds", {"session": name, "bounds": rect(bounds)})
                # A rect wider than the viewport: pages drawn far from their slots.
                wide = (bounds[0] - 300, bounds[1] - 300, 1000.0, 900.0)
                got = server.call("layout/attributesInRect", {"session": name, "rect": rect(wide)})["attributes"]
                want = m.visible(wide)
                assert [(a["item"], a.get("lap")) for a in got] == [(p.item, p.lap) for p in want], (name, o)
                for a, p in zip(got, want):
                    check(a, p, f"{name} at {o}: page {p.slot}")
                    checked += 1
                # attributesForItem answers every page, hidden or transparent.
                for i in (range(n) if n <= 3 else range(0, n, 9)):
                    slot = i
                    if m.wraps:
                        centre = m.centered()
                        slot = i + centre[1] * n
                    a = server.call("layout/attributesForItem",
                                    {"session": name, "section": 0, "item": i,
                                     **({"lap": slot // n} if m.wraps else {})})["attributes"]
                    check(a, m.page(slot), f"{name} at {o}: attributesForItem {i}")
                    checked += 1
                c_item = server.call("layout/setBounds", {"session": name, "bounds": rect(bounds)})
                want_c = m.centered()

                def ref(c):
                    return None if c is None else {
                        "section": 0, "item": c[0], **({"lap": c[1]} if c[1] is not None else {})}
                accepted = [ref(want_c)]
                u = m.o / m.s
                if want_c is not None and abs(u - math.floor(u) - 0.5) < 1e-9:
                    # A tie within rounding of the slots' centres: either page.
                    later = Model(c, n, (bounds[0] + 1e-6, bounds[1] + 1e-6, 400.0, 300.0)).centered()
                    accepted.append(ref(later))
                assert c_item["centeredItem"] in accepted, (name, o, c_item["centeredItem"], accepted)
            server.call("layout/close", {"session": name})
    assert checked > 100


@pytest.mark.parametrize("distance", [1, 2, 3, "automatic"])
def test_snapping_matches_the_model(server, distance):
    rng = random.Random(7)
    for wrap in (False, True):
        for vertical in (False, True):
            c = Config(item=(300, 250) if not vertical else (250, 200), transformer="linear", wrap=wrap,
                       vertical=vertical, distance=distance)
            name = f"snap-{distance}-{wrap}-{vertical}"
            open_pager(server, name, c, 9)
            m = Model(c, 9, B)
            for _ in range(60):
                o = rng.uniform(-2 * m.s, 10 * m.s) if wrap else rng.uniform(0, 8 * m.s)
                v = rng.choice([0.0, 0.1, 0.29, 0.3, -0.3, 0.5, -0.5, 2.0, -2.0, 7.5, -7.5])
                point = {"x": 0, "y": o} if vertical else {"x": o, "y": 0}
                vel = {"x": 0, "y": v} if vertical else {"x": v, "y": 0}
                plan = server.call("layout/scrollEnded", {"session": name, "contentOffset": point, "velocity": vel})
                target, page = m.snap(o, v)
                main = plan["targetContentOffset"]["y" if vertical else "x"]
                assert close(main, target), (name, o, v, main, target)
                assert plan["targetContentOffset"]["x" if vertical else "y"] == 0
                want = {"section": 0, "item": page[0], **({"lap": page[1]} if page[1] is not None else {})}
                assert plan["targetItem"] == want, (name, o, v)
                assert plan["policy"] == ("directional" if distance == "automatic" else "paging")
                if not wrap:
                    assert 0 <= main <= 8 * m.s + 1e-9
            server.call("layout/close", {"session": name})


def test_a_fling_passes_at_most_the_deceleration_distance(server):
    """An integer N: from x pages, a forward fling lands N - 1 to N pages on."""
    open_pager(server, "far", Config(item=(200, 200), distance=3), 50)
    for x in (0.0, 0.2, 1.0, 4.7):
        plan = server.call("layout/scrollEnded", {"session": "far", "contentOffset": {"x": x * 200, "y": 0},
                                                  "velocity": {"x": 50, "y": 0}})
        j = plan["targetContentOffset"]["x"] / 200
        assert 2 <= j - x < 3, (x, j)


def test_hit_testing_matches_the_model(server):
    for t in ("ferrisWheel", "coverFlow", "cubic", "zoomOut", "depth", "overlap", "crossFading"):
        c = Config(item=(240, 200), transformer=t, wrap=True)
        open_pager(server, f"hit-{t}", c, 6)
        s = Model(c, 6, B).s
        bounds = (0.35 * s, 0.0, 400.0, 300.0)
        server.call("layout/setBounds", {"session": f"hit-{t}", "bounds": rect(bounds)})
        m = Model(c, 6, bounds)
        hits = 0
        for gx in range(3, 400, 17):
            for gy in range(5, 300, 23):
                pt = (bounds[0] + gx + 0.25, gy + 0.25)
                want = m.hit(pt)
                got = server.call("layout/itemAtPoint", {"session": f"hit-{t}", "point": {"x": pt[0], "y": pt[1]}})
                assert (None if got is None else (got["item"], got["lap"])) == (
                    None if want is None else (want.item, want.lap)), (t, pt)
                hits += want is not None
        assert hits > 20, t


def test_edge_cases(server):
    # n = 0: contentSize (max(0, E - s), E⊥), nothing to show or centre,
    # and a release rests at the origin.
    got = open_pager(server, "none", Config(item=(260, 200), spacing=40), 0)
    assert got["contentSize"] == {"width": 100, "height": 300} and got["attributes"] == []
    assert got["centeredItem"] is None
    plan = server.call("layout/scrollEnded", {"session": "none", "contentOffset": {"x": 10, "y": 0},
                                              "velocity": {"x": 3, "y": 0}})
    assert plan["targetContentOffset"] == {"x": 0, "y": 0} and plan["targetItem"] is None
    assert server.call("layout/itemAtPoint", {"session": "none", "point": {"x": 200, "y": 150}}) is None
    # n = 1 without wrap: contentSize (E, E⊥); every fling rests on page 0.
    got = open_pager(server, "one", Config(item=(260, 200)), 1)
    assert got["contentSize"] == {"width": 400, "height": 300}
    plan = server.call("layout/scrollEnded", {"session": "one", "contentOffset": {"x": 0, "y": 0},
                                              "velocity": {"x": 5, "y": 0}})
    assert plan["targetContentOffset"] == {"x": 0, "y": 0} and plan["targetItem"] == {"section": 0, "item": 0}
    # n = 1 with wrap: copies of page 0 in every slot; removesInfiniteLoop…
    # makes it behave exactly as without wrap (no lap anywhere).
    got = open_pager(server, "one-wrap", Config(item=(260, 200), wrap=True), 1)
    assert got["contentSize"] == {"width": 260, "height": 300}
    assert [(a["item"], a["lap"]) for a in got["attributes"]] == [(0, -1), (0, 0), (0, 1)]
    got = open_pager(server, "one-kept", Config(item=(260, 200), wrap=True, removes_single=True), 1)
    assert got["contentSize"] == {"width": 400, "height": 300}
    assert all("lap" not in a for a in got["attributes"]) and "lap" not in got["centeredItem"]
    # n = 2 with wrap: both neighbours of the centred page are the other page.
    got = open_pager(server, "two", Config(item=(260, 200), wrap=True), 2)
    assert [(a["item"], a["lap"]) for a in got["attributes"]] == [(1, -1), (0, 0), (1, 0)]
    # An automatic size is the bounds' size, and follows a rotation.
    got = open_pager(server, "auto", Config(), 4)
    assert got["attributes"][0]["frame"] == {"x": 0, "y": 0, "width": 400, "height": 300}
    got = server.call("layout/setBounds", {"session": "auto", "bounds": rect((0, 0, 300, 500))})
    assert got["contentSize"] == {"width": 1200, "height": 500}
    assert got["invalidated"][0]["frame"] == {"x": 0, "y": 0, "width": 300, "height": 500}
    # Re-centred on the page it showed: at rest on page 2, still page 2.
    server.call("layout/setBounds", {"session": "auto", "bounds": rect((600, 0, 300, 500))})
    got = server.call("layout/setBounds", {"session": "auto", "bounds": rect((600, 0, 400, 300))})
    assert got["bounds"] == {"x": 800, "y": 0, "width": 400, "height": 300}
    assert got["centeredItem"] == {"section": 0, "item": 2}


def test_capabilities_list_the_pager(spawn):
    caps = spawn().initialize()["capabilities"]
    assert "pager" in caps["layoutTypes"]
    assert caps["pagerTransformers"] == TRANSFORMERS


@pytest.mark.parametrize("layout,sections,extra,field", [
    ({"transformer": "spin"}, [{"itemCount": 3}], {}, "params.layout.transformer"),
    ({"decelerationDistance": 0}, [{"itemCount": 3}], {}, "params.layout.decelerationDistance"),
    ({"decelerationDistance": 1.5}, [{"itemCount": 3}], {}, "params.layout.decelerationDistance"),
    ({"decelerationDistance": "fast"}, [{"itemCount": 3}], {}, "params.layout.decelerationDistance"),
    ({"minimumScale": 1}, [{"itemCount": 3}], {}, "params.layout.minimumScale"),
    ({"minimumAlpha": 1.5}, [{"itemCount": 3}], {}, "params.layout.minimumAlpha"),
    ({}, [{"itemSizes": [{"width": 10, "height": 10}]}], {}, "params.sections[0].itemSizes"),
    ({}, [{"itemCount": 1}, {"itemCount": 1}], {}, "params.sections"),
    ({}, [{"itemCount": 3}], {"contentInset": {"top": 0, "left": 10, "bottom": 0, "right": 0}},
     "params.contentInset"),
    ({"itemSize": {"width": 260, "height": 200}, "interitemSpacing": -260}, [{"itemCount": 3}], {},
     "params.layout.interitemSpacing"),
    ({"cubes": True}, [{"itemCount": 3}], {}, "params.layout.cubes"),
])
def test_errors_name_the_field(server, layout, sections, extra, field):
    err = server.error("layout/open", {"session": "bad", "layout": {"type": "pager", **layout},
                                       "bounds": rect(B), "sections": sections, **extra}, code=-32602)
    assert field in err["message"], err
    # Nothing was opened.
    server.error("layout/contentSize", {"session": "bad"}, code=1001)


def test_changes_that_break_a_pager_leave_it_as_it_was(server):
    open_pager(server, "live", Config(item=(260, 200)), 3)
    before = server.call("layout/attributesInRect", {"session": "live", "rect": rect(B)})
    err = server.error("layout/performBatchUpdates", {"session": "live", "updates": {
        "insertSections": [{"index": 1, "itemCount": 2}]}}, code=-32602)
    assert "params.updates" in err["message"] and "at most one" in err["message"]
    err = server.error("layout/setItemSizes", {"session": "live", "sizes": [
        {"section": 0, "item": 0, "size": {"width": 10, "height": 10}}]}, code=-32602)
    assert "params.sizes" in err["message"]
    err = server.error("layout/configure", {"session": "live", "layout": {"interitemSpacing": -300}}, code=-32602)
    assert "params.layout.interitemSpacing" in err["message"]
    assert server.call("layout/attributesInRect", {"session": "live", "rect": rect(B)}) == before
    # A flow of two sections cannot become a pager: its type is refused.
    server.call("layout/open", {"session": "two", "layout": {"type": "flow"}, "bounds": rect(B),
                                "sections": [{"itemCount": 2}, {"itemCount": 2}]})
    err = server.error("layout/configure", {"session": "two", "layout": {"type": "pager"}}, code=-32602)
    assert err["message"].startswith("params.layout.type gives the pager 2 sections"), err
    # Batch updates and anchoring work as on every kind: an insert before
    # the centred page keeps it centred, a pitch further on.
    server.call("layout/setBounds", {"session": "live", "bounds": rect((260, 0, 400, 300))})
    got = server.call("layout/performBatchUpdates", {"session": "live", "updates": {
        "insertItems": [{"section": 0, "item": 0}]}})
    assert got["bounds"]["x"] == 520 and got["centeredItem"] == {"section": 0, "item": 2}
