"""The compositional layout type through the wire: every live-session
method on it, with frames worked out by hand from protocol.md's
compositional rules, the client's picture checked against
attributesInRect after every answer (live_support.Live), row scrolling
and snapping, and a client that survives a crash in the middle of row
scrolls."""

from __future__ import annotations

import json
import os
import signal

from daemon_support import DAEMON
from live_support import MUTATION_FIELDS, Live, rect

from flowlayout import Client, Picture

ROW_FIELDS = MUTATION_FIELDS | {"offset"}


def dim(**d):
    return d


def item(w, h, **extra):
    return dict({"size": {"width": w, "height": h}}, **extra)


FULL = dim(fractionalWidth=1)
#: A list of 50-point rows under a pinned header on a background.
LIST = {
    "group": {"direction": "horizontal", "size": {"width": FULL, "height": dim(absolute=50)},
              "subitems": [item(FULL, dim(fractionalHeight=1))]},
    "contentInsets": {"top": 10, "leading": 16, "bottom": 10, "trailing": 16},
    "boundarySupplementaryItems": [{"kind": "header", "size": {"width": FULL, "height": dim(absolute=30)},
                                    "pinToVisibleBounds": True}],
    "decorationItems": [{"kind": "background"}],
}


def row(behavior="groupPaging", **extra):
    """120 × 80 cards 8 apart, 16-point leading and trailing insets: n cards
    make a row 32 + 120n + 8(n − 1) wide."""
    return dict({
        "group": {"direction": "horizontal", "size": {"width": dim(absolute=120), "height": dim(absolute=80)},
                  "subitems": [item(dim(fractionalWidth=1), dim(fractionalHeight=1))]},
        "interGroupSpacing": 8,
        "contentInsets": {"leading": 16, "trailing": 16},
        "orthogonalScrollingBehavior": behavior,
    }, **extra)


def app_store(session="apps", rows=6, **extra) -> dict:
    return dict({
        "session": session,
        "layout": {"type": "compositional", "section": LIST},
        "bounds": rect(0, 0, 320, 300),
        "sections": [{"itemCount": 2, "ids": ["a", "b"]}, {"itemCount": rows, "layout": row()},
                     {"itemCount": 6}],
    }, **extra)


def frames(attrs, kind="cell"):
    return {(a["section"], a["item"]): a["frame"] for a in attrs if a["kind"] == kind}


def scroll_row(live: Live, section: int, offset: float) -> dict:
    """A row's scroll frame, applied to the picture (its answer also has
    `offset`)."""
    params = {"session": live.session, "section": section, "offset": offset}
    return live.apply(live.d.call("layout/scrollSection", params), ROW_FIELDS)


def test_open_stacks_sections_and_draws_backgrounds_headers_and_rows(server):
    live = Live(server, app_store())
    whole = live.whole()
    # Section 0: header 30, inset 10, two rows of 50, inset 10: 150 tall.
    assert frames(whole, "decoration")[(0, 0)] == rect(0, 0, 320, 150)
    assert frames(whole, "header")[(0, 0)] == rect(16, 0, 288, 30)
    assert frames(whole)[(0, 0)] == rect(16, 40, 288, 50)
    assert frames(whole)[(0, 1)] == rect(16, 90, 288, 50)
    # The row from 150, cards at 16 + 128k; section 2 after it at 230.
    assert [frames(whole)[(1, k)]["x"] for k in range(3)] == [16, 144, 272]
    assert frames(whole, "header")[(2, 0)] == rect(16, 230, 288, 30)
    # Section 2: header 30, inset 10, six rows of 50, inset 10.
    assert live.content_size == {"width": 320, "height": 230 + 30 + 10 + 6 * 50 + 10}
    # zIndex: the background 0, its section 1, the pinned header 1024, a
    # section without a background 0; the background first in its section.
    z = {(a["kind"], a["section"], a["item"]): a["zIndex"] for a in whole}
    assert z[("decoration", 0, 0)] == 0 and z[("cell", 0, 0)] == 1 and z[("header", 0, 0)] == 1024
    assert z[("cell", 1, 0)] == 0
    assert [(a["kind"], a["section"]) for a in whole][:2] == [("decoration", 0), ("header", 0)]
    assert whole[0]["elementKind"] == "background"


def test_a_row_scrolls_on_its_own_and_keeps_its_offset(server):
    live = Live(server, app_store())
    r = scroll_row(live, 1, 100)
    assert r["offset"] == 100
    # Only the row's cards changed; card 0 moved to 16 − 100.
    assert {a["section"] for a in r["invalidated"]} == {1}
    assert frames(live.whole())[(1, 0)]["x"] == -84
    # Clamped: 6 cards make 32 + 720 + 40 = 792, offsets up to 472.
    assert scroll_row(live, 1, 9999)["offset"] == 472
    assert scroll_row(live, 1, -50)["offset"] == 0
    scroll_row(live, 1, 200)
    # The main scroll and a rotation keep it.
    live.set_bounds(rect(0, 60, 320, 300))
    assert frames(live.whole())[(1, 1)]["x"] == 144 - 200
    live.set_bounds(rect(0, 60, 300, 320))
    # W is 300 now: the range is 492, and 200 stands.
    assert frames(live.whole())[(1, 1)]["x"] == 144 - 200
    # A plain section, a section out of range and another type are -32602.
    for section, message in [
        (0, 'params.section does not scroll on its own (its orthogonalScrollingBehavior is "none")'),
        (3, "params.section is out of range: the session has 3 sections"),
    ]:
        e = server.error("layout/scrollSection", {"session": "apps", "section": section, "offset": 5}, code=-32602)
        assert e["message"] == message and e["data"] == {"field": "params.section"}
    live.check_picture()


def test_row_plans_follow_each_behaviour(server):
    server.call("layout/open", app_store())
    plan = server.call("layout/scrollEnded", {"session": "apps", "section": 1, "contentOffset": {"x": 100, "y": 5},
                                              "velocity": {"x": 1, "y": 0}})
    # groupPaging: one group on from the release's, 128.
    assert plan["targetContentOffset"] == {"x": 128, "y": 5}
    assert plan["targetItem"] == {"section": 1, "item": 1}
    assert plan["policy"] == "paging"
    assert plan["trajectory"][0] == {"x": 100, "y": 5} and plan["trajectory"][-1] == {"x": 128, "y": 5}
    # The main scroll's plan is unchanged by rows: compositional is free.
    main = server.call("layout/scrollEnded", {"session": "apps", "contentOffset": {"x": 0, "y": 10},
                                              "velocity": {"x": 0, "y": 0}})
    assert main["policy"] == "free" and main["targetContentOffset"] == {"x": 0, "y": 10}
    e = server.error("layout/scrollEnded", {"session": "apps", "section": 0, "contentOffset": {"x": 0, "y": 0},
                                            "velocity": {"x": 0, "y": 0}}, code=-32602)
    assert e["data"] == {"field": "params.section"}


def test_batch_updates_keep_the_rows_leading_group_and_animate(server):
    live = Live(server, app_store(rows=8))
    scroll_row(live, 1, 100)
    # Two cards inserted before the leading card: the row follows it.
    r = live.batch({"insertItems": [{"section": 1, "item": 0}, {"section": 1, "item": 1}]})
    assert frames(live.whole())[(1, 2)]["x"] == 16 - 100
    assert [a["item"] for a in r["appearing"] if a["section"] == 1] == []  # the new cards are off screen
    # Moved: the visible cards changed index, not place.
    assert all(m["fromFrame"] == m["frame"] for m in r["moved"] if m["section"] == 1)
    # An insert in the list above moves the row down, its offset kept.
    r = live.batch({"insertItems": [{"section": 0, "item": 0}]})
    assert frames(live.whole())[(1, 2)] == rect(16 - 100, 200, 120, 80)
    assert [(a["section"], a["item"]) for a in r["appearing"]] == [(0, 0)]
    # UIKit's validation; the session is left as it was.
    before = live.snapshot()
    e = server.error("layout/performBatchUpdates", {"session": "apps", "updates": {
        "deleteItems": [{"section": 1, "item": 10}]}}, code=1003)
    assert "attempt to delete item 10 from section 1" in e["message"]
    assert live.snapshot() == before
    # A section inserted before the row: the row's offset moves with it.
    live.batch({"insertSections": [{"index": 0, "itemCount": 1}]})
    assert frames(live.whole())[(2, 2)]["x"] == 16 - 100


def test_the_main_scroll_anchors_on_the_first_visible_item(server):
    live = Live(server, app_store())
    live.set_bounds(rect(0, 100, 320, 300))
    # Item 1 of the list (y 90) is the first visible; an insert above it
    # moves it 50 down, and the bounds with it.
    live.batch({"insertItems": [{"section": 0, "item": 0}]})
    assert live.bounds["y"] == 150
    live.check_picture()


def test_self_sizing_appends_and_reconfiguration(server):
    feed = {"session": "feed", "layout": {"type": "compositional", "section": {
        "group": {"direction": "horizontal", "size": {"width": FULL, "height": dim(estimated=44)},
                  "subitems": [item(FULL, dim(estimated=44), contentInsets={"top": 4, "leading": 4,
                                                                            "bottom": 4, "trailing": 4})]}}},
            "bounds": rect(0, 0, 320, 300), "sections": [{"itemCount": 3}]}
    live = Live(server, feed)
    live.mutate("layout/setItemSizes", {"sizes": [{"section": 0, "item": 1, "size": {"width": 1, "height": 80}}]})
    assert list(frames(live.whole()).values()) == [rect(4, 0, 312, 44), rect(4, 44, 312, 80), rect(4, 124, 312, 44)]
    # Appended items take the estimate; measured ones keep their size.
    live.mutate("layout/appendItems", {"section": 0, "itemCount": 2})
    assert frames(live.whole())[(0, 4)] == rect(4, 212, 312, 44)
    # configure replaces the section layout: two columns of halves.
    halves = {"group": {"direction": "horizontal", "size": {"width": FULL, "height": dim(absolute=100)},
                        "subitems": [item(dim(fractionalWidth=0.5), dim(fractionalHeight=1))]}}
    live.configure(layout={"section": halves})
    assert list(frames(live.whole()).values())[:3] == [rect(0, 0, 160, 100), rect(160, 0, 160, 100),
                                                       rect(0, 100, 160, 100)]
    # A bad section layout names its field and changes nothing.
    before = live.snapshot()
    bad = {"group": {"direction": "diagonal", "size": halves["group"]["size"], "subitems": halves["group"]["subitems"]}}
    e = server.error("layout/configure", {"session": "feed", "layout": {"section": bad}}, code=-32602)
    assert e["data"] == {"field": "params.layout.section.group.direction"}
    assert live.snapshot() == before
    # A row grows with appendItems: its range extends.
    server.call("layout/open", app_store("apps"))
    server.call("layout/appendItems", {"session": "apps", "section": 1, "itemCount": 4})
    assert server.call("layout/scrollSection", {"session": "apps", "section": 1, "offset": 1e6})["offset"] == 472 + 4 * 128


def test_queries_see_rows_where_they_are(server):
    server.call("layout/open", app_store())
    server.call("layout/scrollSection", {"session": "apps", "section": 1, "offset": 100})
    # Card 1 spans 44 … 164 at offset 100.
    assert server.call("layout/itemAtPoint", {"session": "apps", "point": {"x": 50, "y": 190}}) == {"section": 1, "item": 1}
    assert server.call("layout/attributesForItem", {"session": "apps", "section": 1, "item": 1})["attributes"]["frame"] == rect(44, 150, 120, 80)
    # scrollToItem answers the row's offset: card 4 centred at 16 + 512 + 60 − 160.
    t = server.call("layout/scrollToItem", {"session": "apps", "section": 1, "item": 4})
    assert t == {"contentOffset": {"x": 0, "y": 40}, "rowOffset": 428}
    assert "rowOffset" not in server.call("layout/scrollToItem", {"session": "apps", "section": 0, "item": 0})
    # The pinned header sticks to the visible top within its section.
    server.call("layout/setBounds", {"session": "apps", "bounds": rect(0, 60, 320, 300)})
    h = server.call("layout/attributesForSupplementary", {"session": "apps", "kind": "header", "section": 0})
    assert h["attributes"]["frame"] == rect(16, 60, 288, 30)
    # Pages walk every element once, the background included.
    whole = server.call("layout/attributesInRect", {"session": "apps", "rect": rect(-1e4, -1e4, 2e4, 2e4)})["attributes"]
    pages, after = [], None
    while True:
        p = server.call("layout/attributesInRect", {"session": "apps", "rect": rect(-1e4, -1e4, 2e4, 2e4), "limit": 3,
                                                    **({"after": after} if after else {})})
        pages += p["attributes"]
        if "next" not in p:
            break
        after = p["next"]
    assert pages == whole


def rows_script():
    calls = [("layout/open", app_store(rows=10))]
    calls += [("layout/scrollSection", {"session": "apps", "section": 1, "offset": 30 * k}) for k in range(1, 6)]
    calls += [
        ("layout/setBounds", {"session": "apps", "bounds": rect(0, 40, 320, 300)}),
        ("layout/scrollEnded", {"session": "apps", "section": 1, "contentOffset": {"x": 150, "y": 0},
                                "velocity": {"x": 1.5, "y": 0}}),
        ("layout/performBatchUpdates", {"session": "apps", "updates": {"insertItems": [{"section": 1, "item": 0}]}}),
        ("layout/scrollSection", {"session": "apps", "section": 1, "offset": 400}),
        ("layout/setBounds", {"session": "apps", "bounds": rect(0, 80, 320, 300)}),
        ("layout/scrollSection", {"session": "apps", "section": 1, "offset": 430}),
        ("layout/attributesInRect", {"session": "apps", "rect": rect(0, 0, 320, 600)}),
    ]
    return calls


def run_rows(client, before=lambda k: None):
    picture = Picture()
    effects = {m["name"]: m["picture"] for m in client.capabilities["methodTable"]}
    answers, snapshots = [], []
    for k, (method, params) in enumerate(rows_script()):
        before(k)
        result = client.request(method, params)
        answers.append(result)
        if effects[method] != "none":
            picture.apply(result)
        snapshots.append([(a.key, a.frame, a.transform, a.alpha, a.z_index) for a in picture])
    return answers, snapshots


def test_a_crash_between_row_scrolls_changes_no_answer():
    """SIGKILL after the row scrolls: the restarted daemon gets the open,
    the last row offset and the main scroll, and answers as before."""
    with Client(daemon=DAEMON) as c:
        want = run_rows(c)
    for kill_at in (3, 6, 8, 10):
        with Client(daemon=DAEMON, restart=True) as c:
            def before(k, c=c):
                if k == kill_at:
                    os.kill(c.process.pid, signal.SIGKILL)
                    c.process.wait()
            got = run_rows(c, before)
            assert c.restarts == 1
            # The log keeps the last offset of the row, not every frame.
            assert [m for m, _ in c._logs["apps"]].count("layout/scrollSection") <= 2
        assert json.dumps(got[0], sort_keys=True) == json.dumps(want[0], sort_keys=True)
        assert got[1] == want[1]
