"""The `carousel` layout type (protocol.md, "carousel"): iCarousel's ten
styles. Every style's transform, frame, alpha, hidden and zIndex, at
integer and fractional offsets, horizontal and vertical, with and without
wrap, for n = 1, 2, 3 and 50, against carousel_model (an independent
implementation of the formulas); hand-computed values; hit-testing,
backfaces, snapping, scrolling to an item, live sessions."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

import pytest

from carousel_model import CIRCULAR, Config, Model, z_index_range

STYLES = ["linear", "rotary", "invertedRotary", "cylinder", "invertedCylinder", "wheel",
          "invertedWheel", "coverFlow", "timeMachine", "invertedTimeMachine"]

B = (0.0, 0.0, 600.0, 400.0)


def rect(b: Tuple[float, float, float, float]) -> Dict[str, float]:
    return {"x": b[0], "y": b[1], "width": b[2], "height": b[3]}


def close(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def check(got: Dict[str, Any], want, where: str, model) -> None:
    """One element against the model: transform, frame, alpha, hidden,
    zIndex and lap."""
    assert got["item"] == want.item, where
    assert got.get("lap") == want.lap, where
    t = got.get("transform") or [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    flat = [v for row in want.transform for v in row]
    assert all(close(a, b, 1e-9) for a, b in zip(t, flat)), (where, t, flat)
    f = got["frame"]
    if not want.hidden:
        for k, v in zip(("x", "y", "width", "height"), want.frame):
            assert close(f[k], v, 1e-7), (where, k, f, want.frame)
    assert close(got["alpha"], want.alpha, 1e-12), where
    assert bool(got.get("hidden", False)) == want.hidden, where
    lo, hi = z_index_range(model, want)
    assert lo <= got["zIndex"] <= hi, (where, got["zIndex"], lo, hi)


def open_carousel(d, name: str, c: Config, n: int, bounds=B, sizes=None) -> dict:
    section: Dict[str, Any] = {"itemCount": n}
    if sizes is not None:
        section = {"itemSizes": [{"width": w, "height": h} for w, h in sizes]}
    return d.call("layout/open", {"session": name, "layout": c.layout(), "bounds": rect(bounds),
                                  "sections": [section]})


def offsets_for(m_pitch: float, n: int, wrap: bool) -> List[float]:
    """Integer and fractional scroll positions, in points; beyond the ends
    and several periods away with wrap."""
    base = [0.0, 1.0, 0.5, 0.25, 2.75, float(max(n - 1, 0))]
    if wrap:
        base += [-0.4, -3.6, n + 0.3, 7 * n + 0.5]
    else:
        base += [-0.3, n - 0.7]
    return [u * m_pitch for u in base]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("vertical", [False, True])
def test_every_style_matches_the_formulas(server, style, vertical):
    checked = 0
    for n in (1, 2, 3, 50):
        for wrap in (None, not (style in CIRCULAR)):
            c = Config(style=style, vertical=vertical, wrap=wrap, item=(160, 120) if not vertical else (120, 160))
            name = f"{style}-{vertical}-{n}-{wrap}"
            open_carousel(server, name, c, n)
            pitch = Model(c, n, B).pitch
            for o in offsets_for(pitch, n, Model(c, n, B).wrap):
                bounds = (0.0, o, 600.0, 400.0) if vertical else (o, 0.0, 600.0, 400.0)
                m = Model(c, n, bounds)
                server.call("layout/setBounds", {"session": name, "bounds": rect(bounds)})
                got = server.call("layout/attributesInRect", {"session": name, "rect": rect(bounds)})["attributes"]
                want = m.visible_elements(bounds)
                assert [(a["item"], a.get("lap")) for a in got] == [(e.item, e.lap) for e in want], (name, o)
                for a, e in zip(got, want):
                    check(a, e, f"{name} at {o}: item {e.item}", m)
                    checked += 1
                # Every item (n = 50: a sample) through attributesForItem.
                for i in (range(n) if n <= 3 else range(0, n, 7)):
                    a = server.call("layout/attributesForItem", {"session": name, "section": 0, "item": i})["attributes"]
                    check(a, m.element(i), f"{name} at {o}: attributesForItem {i}", m)
                    checked += 1
            server.call("layout/close", {"session": name})
    assert checked > 150


def test_options_change_the_geometry_as_iCarousel_does(server):
    """Every option away from its default, per style."""
    variants = [
        dict(spacing=0.6), dict(tilt=0.5), dict(arc=math.pi), dict(radius=350), dict(count=7),
        dict(perspective=900), dict(viewpoint=(30, -20)), dict(fade_min=-1.5, fade_max=1.2, fade_range=2,
                                                               fade_min_alpha=0.2),
        dict(show_backfaces=False), dict(visible_items=5), dict(offset_multiplier=1.5),
    ]
    for style in STYLES:
        for k, v in enumerate(variants):
            c = Config(style=style, **v)
            name = f"{style}-{k}"
            open_carousel(server, name, c, 20)
            for u in (0.0, 1.3, 4.5, 11.0):
                m = Model(c, 20, B)
                bounds = (u * m.pitch, 0.0, 600.0, 400.0)
                m = Model(c, 20, bounds)
                server.call("layout/setBounds", {"session": name, "bounds": rect(bounds)})
                got = server.call("layout/attributesInRect", {"session": name, "rect": rect(bounds)})["attributes"]
                want = m.visible_elements(bounds)
                assert [(a["item"], a.get("lap")) for a in got] == [(e.item, e.lap) for e in want], (name, u)
                for a, e in zip(got, want):
                    check(a, e, f"{name} at {u}", m)
            server.call("layout/close", {"session": name})


def test_varied_sizes_keep_each_items_size_and_space_by_the_largest(server):
    """w is the largest width (240): the pitch, and each frame is the
    item's own size transformed."""
    sizes = [(100, 150), (240, 100), (180, 180), (60, 90), (200, 120)]
    c = Config(style="rotary", sizes=sizes)
    open_carousel(server, "varied", c, 5, sizes=sizes)
    m = Model(c, 5, B)
    assert m.w == 240 and m.pitch == 240
    bounds = (0.6 * 240, 0.0, 600.0, 400.0)
    server.call("layout/setBounds", {"session": "varied", "bounds": rect(bounds)})
    m = Model(c, 5, bounds)
    for i in range(5):
        a = server.call("layout/attributesForItem", {"session": "varied", "section": 0, "item": i})["attributes"]
        assert a["size"] == {"width": sizes[i][0], "height": sizes[i][1]}
        assert a["center"] == {"x": 144 + 300, "y": 200}
        check(a, m.element(i), f"varied {i}", m)


def test_hand_computed_rotary():
    """A rotary of 10 items of 200 in 600 points: count = min(30, ⌊max(12,
    ⌈600/200⌉·π)⌋, 10) = 10, r = 100 / tan(π/10) = 307.768…; item 1 at
    θ = 2π/10 is translated by (r sin θ, 0, r cos θ − r) =
    (180.9017, 0, −58.7785), so w = 1 + 58.7785/500 and its frame runs
    from 300 + (180.9017 − 100)/w to 300 + (180.9017 + 100)/w."""
    m = Model(Config(style="rotary"), 10, B)
    assert m.count == 10 and m.visible == 10
    r = 100 / math.tan(math.pi / 10)
    assert math.isclose(m.r, r) and math.isclose(r, 307.7683537175253)
    e = m.element(1)
    w = 1 + (r - r * math.cos(math.pi / 5)) / 500
    assert math.isclose(e.frame[0], 300 + (r * math.sin(math.pi / 5) - 100) / w)
    assert math.isclose(e.frame[0], 372.39, abs_tol=0.01)
    assert math.isclose(e.frame[2], 200 / w)


def test_hand_computed_answers_of_the_daemon(server):
    open_carousel(server, "rot", Config(style="rotary"), 10)
    a = server.call("layout/attributesForItem", {"session": "rot", "section": 0, "item": 1})["attributes"]
    r = 100 / math.tan(math.pi / 10)
    w = 1 + (r - r * math.cos(math.pi / 5)) / 500
    assert a["lap"] == 0 and a["center"] == {"x": 300, "y": 200}
    assert math.isclose(a["frame"]["x"], 300 + (r * math.sin(math.pi / 5) - 100) / w, rel_tol=1e-12)
    assert math.isclose(a["frame"]["width"], 200 / w, rel_tol=1e-12)
    # Item 0 at the centre: the perspective alone, z = m33 = 1, in front of
    # the window's 9 other candidates (zIndex 9), and the frame is the item's.
    a0 = server.call("layout/attributesForItem", {"session": "rot", "section": 0, "item": 0})["attributes"]
    assert a0["frame"] == {"x": 200, "y": 100, "width": 200, "height": 200}
    assert a0["zIndex"] == 9
    # A linear carousel at u = 0.5 (offset 100, its centre at 400): items
    # at off −0.5, 0.5 and 1.5, 200 points apart.
    open_carousel(server, "lin", Config(style="linear"), 4)
    server.call("layout/setBounds", {"session": "lin", "bounds": rect((100, 0, 600, 400))})
    got = server.call("layout/attributesInRect", {"session": "lin", "rect": rect((100, 0, 600, 400))})["attributes"]
    assert [(a["item"], a["frame"]["x"]) for a in got] == [(0, 200), (1, 400), (2, 600)]
    # The window of ⌈600/200⌉ + 2 = 5 around round(0.5) = 1 (halves away
    # from zero): −1…3, shifted into 0…3 (capped at n = 4); item 3 (off
    # 2.5, at 800…1000) is outside the rect (100…700).


def test_count_and_visible_items_defaults():
    """iCarousel's circularCarouselItemCount and numberOfVisibleItems."""
    assert Model(Config(style="rotary"), 50, B).count == 12  # ⌊max(12, 3π)⌋
    wide = (0, 0, 2000, 400)
    assert Model(Config(style="rotary"), 50, wide).count == 30  # ⌈10⌉·π capped
    assert Model(Config(style="rotary"), 5, B).count == 5
    assert Model(Config(style="invertedRotary"), 50, B).visible == 6
    assert Model(Config(style="linear"), 50, B).visible == 5
    assert Model(Config(style="coverFlow"), 50, B).visible == 14  # ⌈600/50⌉ + 2
    assert Model(Config(style="timeMachine"), 50, B).visible == 30
    # The wheel: r = 200·12/2π = 381.97; r − 100 ≥ 200, so ⌈12/2⌉ + 1.
    assert Model(Config(style="wheel"), 50, B).visible == 7


def test_wrap_with_one_and_two_items(server):
    """Wrap works at every n ≥ 1: one item is always at offset 0 of the lap
    the scroll is in; two alternate sides."""
    open_carousel(server, "one", Config(style="rotary"), 1)
    for x in (0, 150, 200, 1234.5, -450):
        got = server.call("layout/setBounds", {"session": "one", "bounds": rect((x, 0, 600, 400))})
        shown = server.call("layout/attributesInRect", {"session": "one", "rect": rect((x, 0, 600, 400))})["attributes"]
        m = Model(Config(style="rotary"), 1, (x, 0, 600, 400))
        assert [a.get("lap") for a in shown] == [e.lap for e in m.visible_elements((x, 0, 600, 400))]
        assert got["centeredItem"]["item"] == 0
    open_carousel(server, "two", Config(style="cylinder"), 2)
    server.call("layout/setBounds", {"session": "two", "bounds": rect((300, 0, 600, 400))})
    shown = server.call("layout/attributesInRect", {"session": "two", "rect": rect((300, 0, 600, 400))})["attributes"]
    m = Model(Config(style="cylinder"), 2, (300, 0, 600, 400))
    assert [(a["item"], a["lap"]) for a in shown] == [(e.item, e.lap) for e in m.visible_elements((300, 0, 600, 400))]
    assert len(shown) == 2


def test_backfaces_and_the_eye(server):
    """invertedCylinder hides the items turned away (m33 ≤ 0); with
    showBackfaces they are drawn. A card reaching the eye is hidden."""
    open_carousel(server, "ic", Config(style="invertedCylinder"), 12)
    hidden = []
    for i in range(12):
        a = server.call("layout/attributesForItem", {"session": "ic", "section": 0, "item": i})["attributes"]
        m33 = (a.get("transform") or [1] * 11)[10]
        assert a.get("hidden", False) == (m33 <= 0), i
        if a.get("hidden"):
            hidden.append(i)
    assert hidden  # some face away
    shown = server.call("layout/attributesInRect", {"session": "ic", "rect": rect(B)})["attributes"]
    assert not any(a["item"] in hidden for a in shown)
    # A perspective shorter than the time machine's approach: the nearest
    # cards reach the eye and are left out, never drawn huge.
    c = Config(style="invertedTimeMachine", perspective=150, fade_min=-5)
    open_carousel(server, "eye", c, 10)
    server.call("layout/setBounds", {"session": "eye", "bounds": rect((900, 0, 600, 400))})
    m = Model(c, 10, (900, 0, 600, 400))
    behind = [i for i in m.window() if m.element(i).hidden]
    assert behind
    for i in behind:
        a = server.call("layout/attributesForItem", {"session": "eye", "section": 0, "item": i})["attributes"]
        assert a["hidden"] is True
    shown = server.call("layout/attributesInRect", {"session": "eye", "rect": rect((900, 0, 600, 400))})["attributes"]
    assert [a["item"] for a in shown] == [e.item for e in m.visible_elements((900, 0, 600, 400))]
    assert not set(a["item"] for a in shown) & set(behind)


def test_hit_testing_picks_the_front_card_of_overlapping_quads(server):
    """In a rotary the centre card overlaps its neighbours' quads; a point
    on both is the front one (larger z). A culled backface is never hit:
    at the centre of an invertedCylinder, the card behind (hidden) is not."""
    open_carousel(server, "hit", Config(style="rotary"), 10)
    # 399 is inside card 0 (200…400) and card 1's quad (372.4…551.4).
    assert server.call("layout/itemAtPoint", {"session": "hit", "point": {"x": 390, "y": 200}}) == {
        "section": 0, "item": 0, "lap": 0}
    assert server.call("layout/itemAtPoint", {"session": "hit", "point": {"x": 500, "y": 200}}) == {
        "section": 0, "item": 1, "lap": 0}
    # Above card 1's top edge, which is shorter than card 0's: nothing.
    m = Model(Config(style="rotary"), 10, B)
    top = m.element(1).frame[1]
    assert server.call("layout/itemAtPoint", {"session": "hit", "point": {"x": 540, "y": top - 1}}) is None
    # Tilted quads (cylinder, coverFlow): a grid of points over the
    # viewport hits what the model's point-in-quad test says, front first.
    for style in ("cylinder", "coverFlow", "wheel", "invertedTimeMachine"):
        c = Config(style=style)
        open_carousel(server, f"grid-{style}", c, 10)
        bounds = (0.4 * Model(c, 10, B).pitch, 0.0, 600.0, 400.0)
        server.call("layout/setBounds", {"session": f"grid-{style}", "bounds": rect(bounds)})
        m = Model(c, 10, bounds)
        hits = 0
        for gx in range(7, 600, 23):
            for gy in range(5, 400, 29):
                p = (bounds[0] + gx, float(gy))
                want = m.hit(p)
                got = server.call("layout/itemAtPoint", {"session": f"grid-{style}", "point": {"x": p[0], "y": p[1]}})
                assert (got["item"] if got else None) == (want.item if want else None), (style, p)
                hits += want is not None
        assert hits > 20, style
    open_carousel(server, "back", Config(style="invertedCylinder"), 12)
    assert server.call("layout/itemAtPoint", {"session": "back", "point": {"x": 300, "y": 200}}) == {
        "section": 0, "item": 0, "lap": 0}
    with_backs = Config(style="invertedCylinder", show_backfaces=True)
    open_carousel(server, "backs", with_backs, 12)
    m = Model(with_backs, 12, B)
    got = server.call("layout/itemAtPoint", {"session": "backs", "point": {"x": 300, "y": 200}})
    assert got["item"] == m.hit((300.0, 200.0)).item


def test_snapping_rests_on_whole_items(server):
    """scrollEnded works in item units: every policy rests u on an integer
    (pitch 200: multiples of 200), and with wrap the shortest way round."""
    open_carousel(server, "snap", Config(style="rotary"), 10)
    for x, v in ((130, 0), (130, 1.5), (1990, 0), (-310, -2)):
        plan = server.call("layout/scrollEnded", {"session": "snap", "contentOffset": {"x": x, "y": 0},
                                                  "velocity": {"x": v, "y": 0}})
        t = plan["targetContentOffset"]["x"]
        assert t / 200 == round(t / 200), (x, v, t)
        item = plan["targetItem"]
        assert (item["item"] + 10 * item["lap"]) * 200 == t
    lin = Config(style="linear", wrap=False)
    open_carousel(server, "ends", lin, 5)
    plan = server.call("layout/scrollEnded", {"session": "ends", "contentOffset": {"x": 700, "y": 0},
                                              "velocity": {"x": 3, "y": 0}})
    assert plan["targetContentOffset"]["x"] == 800  # the last item: (n − 1)·pitch
    assert plan["targetItem"] == {"section": 0, "item": 4}
    assert server.call("layout/contentSize", {"session": "ends"})["contentSize"] == {"width": 4 * 200 + 600, "height": 400}
    # scrollToItem takes the shortest way round: from item 1, item 9 is
    # two back.
    server.call("layout/setBounds", {"session": "snap", "bounds": rect((200, 0, 600, 400))})
    got = server.call("layout/scrollToItem", {"session": "snap", "section": 0, "item": 9})
    assert got == {"contentOffset": {"x": -200, "y": 0}, "lap": -1}


def test_live_sessions_anchor_the_centred_item(server):
    """Inserts and deletes before the centred item keep it centred (the
    offset moves by a pitch per item), and the deltas patch the picture."""
    from flowlayout import Picture

    picture = Picture()
    picture.apply(open_carousel(server, "live", Config(style="coverFlow"), 20))
    r = server.call("layout/setBounds", {"session": "live", "bounds": rect((500, 0, 600, 400))})
    picture.apply(r)
    assert r["centeredItem"] == {"section": 0, "item": 5}
    r = server.call("layout/performBatchUpdates", {"session": "live", "updates": {
        "insertItems": [{"section": 0, "item": 0}, {"section": 0, "item": 1}]}})
    picture.apply(r)
    assert r["bounds"]["x"] == 700 and r["centeredItem"] == {"section": 0, "item": 7}
    r = server.call("layout/performBatchUpdates", {"session": "live", "updates": {
        "deleteItems": [{"section": 0, "item": 0}]}})
    picture.apply(r)
    assert r["bounds"]["x"] == 600 and r["centeredItem"] == {"section": 0, "item": 6}
    fresh = server.call("layout/attributesInRect", {"session": "live", "rect": rect((600, 0, 600, 400))})["attributes"]
    assert sorted((a.item, a.lap) for a in picture) == sorted((a["item"], 0) for a in fresh)
    # A rotation keeps the centred item centred.
    r = server.call("layout/setBounds", {"session": "live", "bounds": rect((600, 0, 400, 600))})
    assert r["centeredItem"] == {"section": 0, "item": 6}
    assert r["bounds"]["x"] == 600
    # Wrap: the lap is kept through a delete.
    open_carousel(server, "wl", Config(style="rotary"), 10)
    server.call("layout/setBounds", {"session": "wl", "bounds": rect((2600, 0, 600, 400))})
    r = server.call("layout/performBatchUpdates", {"session": "wl", "updates": {"deleteItems": [{"section": 0, "item": 0}]}})
    assert r["centeredItem"] == {"section": 0, "item": 2, "lap": 1}
    assert r["bounds"]["x"] == (2 + 9) * 200
