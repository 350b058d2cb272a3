"""The `flowlayout` command of this checkout's client package, run as
`python3 -m flowlayout` with PYTHONPATH=clients/python against the real
daemon: `demo`, `replay` and `render` (SVG).

The seed carousel (10 cards of 200×300, spacing 30, scale factor 0.5, in
375×300) has card i centred at x = 187.5 + 230·i and scales a card d points
from the viewport's centre by 1 − 0.5·d/375 (at least 0.6).
"""

from __future__ import annotations

import json
import math
import os
import re
import struct
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import pytest

from daemon_support import DAEMON, REPO

PACKAGE = REPO / "clients" / "python"
SVG = "{http://www.w3.org/2000/svg}"

SEED_OPEN = {
    "session": "seed",
    "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}},
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}


def bounds(x: float, y: float = 0, w: float = 375, h: float = 300) -> Dict[str, float]:
    return {"x": x, "y": y, "width": w, "height": h}


def run(*args: str, stdin: Optional[str] = None, timeout: float = 30) -> subprocess.CompletedProcess:
    if not os.access(DAEMON, os.X_OK):
        pytest.fail(f"daemon not found or not executable: {DAEMON} (set FLOWLAYOUTD)")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PACKAGE) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["FLOWLAYOUTD"] = DAEMON
    return subprocess.run(
        [sys.executable, "-m", "flowlayout", *args],
        input=stdin, capture_output=True, text=True, env=env, timeout=timeout, cwd=str(REPO),
    )


def script(path: Path, messages: Sequence[Any]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in messages), encoding="utf-8")
    return path


# MARK: demo


@pytest.fixture(scope="module")
def demo_run() -> subprocess.CompletedProcess:
    start = time.monotonic()
    done = run("demo", "--daemon", DAEMON)
    done.elapsed = time.monotonic() - start  # type: ignore[attr-defined]
    return done


def test_demo_exits_0_quickly(demo_run: subprocess.CompletedProcess) -> None:
    assert demo_run.returncode == 0, demo_run.stderr
    assert demo_run.stderr == ""
    # "Well under 2 s" on an idle machine; the bound leaves room for a busy one.
    assert demo_run.elapsed < 10, demo_run.elapsed  # type: ignore[attr-defined]


def test_demo_is_deterministic(demo_run: subprocess.CompletedProcess) -> None:
    assert run("demo", "--daemon", DAEMON).stdout == demo_run.stdout


def steps(output: str) -> Dict[str, List[str]]:
    """The demo's steps by title: ``[n] title   bounds.x=…`` and the lines
    up to the next step."""
    found: Dict[str, List[str]] = {}
    current: Optional[List[str]] = None
    for line in output.splitlines():
        m = re.match(r"\[(\d+)\] (.+?)\s+bounds\.x=", line)
        if m:
            current = found.setdefault(m.group(2), [])
        if current is not None:
            current.append(line)
    return found


def test_demo_walks_through_the_seed_carousel(demo_run: subprocess.CompletedProcess) -> None:
    out = demo_run.stdout
    s = steps(out)
    assert list(s) == [
        "open", "drag to x=60", "drag to x=120", "drag to x=300", "release (v=0), snap",
        "fling v=1.5 pt/ms", "insert at item 4", "scrollToItem 4", "delete item 4",
    ]
    assert "contentSize=2445x300" in s["open"][0] and "centredItem=0" in s["open"][0]
    # The gentle release snaps back to card 1 (rest offset 230).
    release = "\n".join(s["release (v=0), snap"])
    assert "bounds.x=230 " in release
    assert "scrollEnded at x=300, velocity 0 -> targetContentOffset x=230 (item 1)" in release
    # Every step draws the centred card, marked, to scale.
    for title, lines in s.items():
        centred = re.search(r"centredItem=(\d+)", lines[0]).group(1)  # type: ignore[union-attr]
        assert any(re.match(rf"  \*\s*{centred} \|.*\|  scale ", line) for line in lines), title


def test_demo_prints_the_fling_plan(demo_run: subprocess.CompletedProcess) -> None:
    """From 230 at 1.5 pt/ms: projected 230 + 1.5·499 = 978.5, card 4
    (920); at 60 frames a second, 217 frames (T = ln(0.5/690)/ln 0.998 =
    3611 ms), 218 samples over 217·1000/60 = 3616.7 ms."""
    fling = "\n".join(steps(demo_run.stdout)["fling v=1.5 pt/ms"])
    assert "bounds.x=920 " in fling and "centredItem=4" in fling
    assert "policy nearest" in fling
    assert "projectedContentOffset x=230 + 1.5*r/(1-r) = 978.5" in fling
    assert "targetContentOffset x=920 (item 4), durationMs 3616.7" in fling
    assert "trajectory: 218 samples, one every 16.7 ms, over 3616.7 ms: x=230, " in fling
    assert re.search(r"x=230, [\d.]+, [\d.]+, \.\.\., 919\.5, 920$", fling, re.M)
    # The animation: setBounds every 30th sample (500 ms) and at the end.
    times = re.findall(r"^\s+t=\s*([\d.]+) ms\s+x=([\d.]+)", fling, re.M)
    assert [t for t, _ in times] == ["0", "500", "1000", "1500", "2000", "2500", "3000", "3500", "3616.7"]
    xs = [float(x) for _, x in times]
    assert xs[0] == 230 and xs[-1] == 920 and xs == sorted(xs)
    # x at 500 ms: 230 + 690·(1 − 0.998^500).
    assert xs[1] == pytest.approx(230 + 690 * (1 - 0.998**500), abs=0.05)


def test_demo_inserts_and_deletes_at_the_centre(demo_run: subprocess.CompletedProcess) -> None:
    s = steps(demo_run.stdout)
    insert = "\n".join(s["insert at item 4"])
    # The old card 4 is item 5 now and stays centred: 187.5 + 1150 = 1337.5.
    assert "bounds.x=1150 " in insert and "contentSize=2675x300" in insert and "centredItem=5" in insert
    # The new card appears where card 4 sits, one pitch left (1107.5,
    # scale 0.693333: 1038.2…1176.8), with alpha 0.
    assert "appearing: 4 at x=1038.2..1176.8, alpha 0" in insert
    assert re.search(r"^  \+ 4 \|.*\|  scale 0\.69  alpha 0\.00  z -460  appearing$", insert, re.M)
    assert "moved: " in insert and "4->5 (x=1007.5 -> 1237.5)" in insert
    assert "contentOffset x=920" in "\n".join(s["scrollToItem 4"])
    delete = "\n".join(s["delete item 4"])
    assert "bounds.x=920 " in delete and "contentSize=2445x300" in delete and "centredItem=4" in delete
    assert "disappearing: 4 at x=1007.5..1207.5, alpha 0" in delete
    assert re.search(r"^  - 4 \|.*\|  scale 1\.00  alpha 0\.00  z 0  disappearing$", delete, re.M)


# MARK: replay


def test_replay_prints_one_json_line_per_response(tmp_path: Path) -> None:
    path = script(tmp_path / "s.jsonl", [
        {"id": 1, "method": "layout/open", "params": SEED_OPEN},
        {"method": "initialized", "params": {}},
        {"id": "two", "method": "layout/scrollToItem", "params": {"session": "seed", "section": 0, "item": 4}},
        {"id": 3, "method": "layout/contentSize", "params": {"session": "nope"}},
        [{"id": 4, "method": "layout/contentSize", "params": {"session": "seed"}}],
        {"id": 5, "method": "shutdown"},
        {"method": "exit"},
    ])
    done = run("replay", str(path), "--daemon", DAEMON)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 5  # four requests and a batch of one; notifications unanswered
    answers = [json.loads(line) for line in lines]
    assert [line == json.dumps(a, sort_keys=True, separators=(",", ":")) for line, a in zip(lines, answers)] == [True] * 5
    assert answers[0]["id"] == 1 and answers[0]["result"]["contentSize"] == {"width": 2445, "height": 300}
    assert answers[1] == {"id": "two", "jsonrpc": "2.0", "result": {"contentOffset": {"x": 920, "y": 0}}}
    assert answers[2]["error"]["code"] == 1001
    assert answers[3] == [{"id": 4, "jsonrpc": "2.0", "result": {"contentSize": {"width": 2445, "height": 300}}}]
    assert answers[4] == {"id": 5, "jsonrpc": "2.0", "result": None}


def test_replay_from_stdin() -> None:
    done = run("replay", "-", "--daemon", DAEMON,
               stdin='{"id":1,"method":"layout/contentSize","params":{"session":"x"}}\n')
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["error"]["message"] == 'unknown session "x"'


# MARK: render


def render(tmp_path: Path, messages: Sequence[Any], *extra: str) -> ET.Element:
    out = tmp_path / "view.svg"
    done = run("render", "--session-script", str(script(tmp_path / "s.jsonl", messages)),
               "--out", str(out), "--daemon", DAEMON, *extra)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"flowlayout render: wrote {out}: session ")
    return ET.parse(out).getroot()


def shapes(root: ET.Element) -> List[ET.Element]:
    return [e for e in root.iter() if e.tag in (SVG + "rect", SVG + "polygon")]


def element_groups(root: ET.Element) -> List[ET.Element]:
    group = root.find(f"{SVG}g[@id='elements']")
    assert group is not None
    return list(group)


def labels(root: ET.Element) -> List[str]:
    return [g.find(SVG + "text").text for g in element_groups(root)]  # type: ignore[union-attr]


def visible_elements(messages: Sequence[Any], session: str, rect: Dict[str, float]) -> List[Any]:
    """layout/attributesInRect after the same script, from a daemon of our own."""
    tail = {"id": "probe", "method": "layout/attributesInRect", "params": {"session": session, "rect": rect}}
    done = run("replay", "-", "--daemon", DAEMON, stdin="".join(json.dumps(m) + "\n" for m in [*messages, tail]))
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    return next(a for a in answers if isinstance(a, dict) and a.get("id") == "probe")["result"]["attributes"]


SEED_SCRIPT = [
    {"id": 1, "method": "layout/open", "params": SEED_OPEN},
    {"id": 2, "method": "layout/setBounds", "params": {"session": "seed", "bounds": bounds(300)}},
    {"id": 3, "method": "layout/scrollEnded", "params": {"session": "seed", "contentOffset": {"x": 300, "y": 0}, "velocity": {"x": 0, "y": 0}}},
    {"id": 4, "method": "layout/setBounds", "params": {"session": "seed", "bounds": bounds(230)}},
]


def test_render_draws_the_final_viewport(tmp_path: Path) -> None:
    """At 230 card 1 is centred (417.5 − 230 = 187.5 across the viewport),
    cards 0 and 2 are one pitch away, scaled to 0.693333."""
    root = render(tmp_path, SEED_SCRIPT)
    assert root.tag == SVG + "svg"
    assert len(shapes(root)) == 3 == len(visible_elements(SEED_SCRIPT, "seed", bounds(230)))
    groups = element_groups(root)
    # Painter's order: zIndex −461 (card 2, past the centre), −460 (card 0), 0.
    assert [g.get("data-item") for g in groups] == ["2", "0", "1"]
    assert [g.get("data-z-index") for g in groups] == ["-461", "-460", "0"]
    assert labels(root) == ["2", "0", "1"]
    assert groups[2].get("class") == "element cell centered"
    assert [g.get("class") for g in groups[:2]] == ["element cell"] * 2
    assert all(g.get("opacity") == "1" for g in groups)
    rect1 = groups[2].find(SVG + "rect")
    assert rect1 is not None
    assert (rect1.get("x"), rect1.get("y"), rect1.get("width"), rect1.get("height")) == ("-100", "-150", "200", "300")
    assert rect1.get("transform") == "matrix(1 0 0 1 187.5 150)"
    # Card 0: centre 187.5 − 230 = −42.5, scale 1 − 0.5·230/375.
    assert groups[1].find(SVG + "rect").get("transform") == "matrix(0.6933 0 0 0.6933 -42.5 150)"  # type: ignore[union-attr]
    # The viewport and the content (2445 wide, starting 230 to the left).
    paths = {p.get("class"): p.get("d") for p in root.iter(SVG + "path")}
    assert paths["viewport"] == paths["viewport-edge"] == "M0 0H375V300H0Z"
    assert paths["content"] == "M-230 0H2215V300H-230Z"
    title = root.find(SVG + "title")
    assert title is not None and "bounds 230,0 375x300" in (title.text or "")


def test_render_keeps_the_picture_across_batch_updates(tmp_path: Path) -> None:
    """Inserted at the centred index 4 (at 920) and anchored at 1150: cards
    4 (new), 5 (centred) and 6 are visible; then card 5 is deleted and card
    6, now 5, takes its place."""
    messages = [
        {"id": 1, "method": "layout/open", "params": SEED_OPEN},
        {"id": 2, "method": "layout/setBounds", "params": {"session": "seed", "bounds": bounds(920)}},
        {"id": 3, "method": "layout/performBatchUpdates", "params": {"session": "seed", "updates": {"insertItems": [{"section": 0, "item": 4}]}}},
        {"id": 4, "method": "layout/performBatchUpdates", "params": {"session": "seed", "updates": {"deleteItems": [{"section": 0, "item": 5}]}}},
    ]
    root = render(tmp_path, messages)
    assert sorted(labels(root)) == ["4", "5", "6"]
    assert len(shapes(root)) == len(visible_elements(messages, "seed", bounds(1150))) == 3
    centred = [g for g in element_groups(root) if "centered" in (g.get("class") or "").split()]
    assert [g.get("data-item") for g in centred] == ["5"]


def _keys(groups: Sequence[ET.Element]) -> List[tuple]:
    return sorted((g.get("data-kind"), int(g.get("data-section") or 0), int(g.get("data-item") or 0))
                  for g in groups)


def test_render_follows_append_items(tmp_path: Path) -> None:
    """The issue's case: open 2 items, append 6, scroll. 50-point items 10
    apart, 6 a line across 375 ((375 + 10) // 60): two lines, all 8 items
    visible after the scroll to y = 10."""
    grid = {"session": "g", "layout": {"type": "flow", "itemSize": {"width": 50, "height": 50}},
            "bounds": bounds(0), "sections": [{"itemCount": 2}]}
    messages = [
        {"id": 1, "method": "layout/open", "params": grid},
        {"id": 2, "method": "layout/appendItems", "params": {"session": "g", "section": 0, "itemCount": 6}},
        {"id": 3, "method": "layout/setBounds", "params": {"session": "g", "bounds": bounds(0, 10)}},
    ]
    root = render(tmp_path, messages)
    assert sorted(int(x) for x in labels(root)) == list(range(8))
    assert len(shapes(root)) == 8 == len(visible_elements(messages, "g", bounds(0, 10)))


def test_render_covers_every_method_that_changes_the_picture(tmp_path: Path) -> None:
    """A script using every method whose answer patches the picture (the
    daemon's method table says which) draws exactly what attributesInRect
    of the final bounds answers."""
    init = run("replay", "-", "--daemon", DAEMON, "--no-initialize", stdin=json.dumps(
        {"id": 0, "method": "initialize", "params": {}}) + "\n")
    table = json.loads(init.stdout.splitlines()[0])["result"]["capabilities"]["methodTable"]
    changing = {m["name"] for m in table if m["picture"] != "none"}
    open_params = {"session": "w", "layout": {"type": "flow", "itemSize": {"width": 50, "height": 50}},
                   "bounds": bounds(0), "sections": [{"itemCount": 4}, {"itemSizes": [{"width": 80, "height": 40}] * 3}]}
    messages = [
        {"id": 1, "method": "layout/open", "params": open_params},
        {"id": 2, "method": "layout/appendItems", "params": {"session": "w", "section": 0, "widthsAndHeights": [60, 60, 70, 30]}},
        {"id": 3, "method": "layout/performBatchUpdates", "params": {"session": "w", "updates": {
            "insertItems": [{"section": 1, "item": 0, "size": {"width": 120, "height": 90}}],
            "deleteItems": [{"section": 0, "item": 1}]}}},
        {"id": 4, "method": "layout/setItemSizes", "params": {"session": "w", "sizes": [
            {"section": 1, "item": 1, "size": {"width": 300, "height": 120}}]}},
        {"id": 5, "method": "layout/configure", "params": {"session": "w", "layout": {"minimumLineSpacing": 25}}},
        {"id": 6, "method": "layout/setBounds", "params": {"session": "w", "bounds": bounds(0, 40)}},
        {"id": 7, "method": "layout/reloadData", "params": {"session": "w", "sections": [
            {"itemCount": 9}, {"itemSizes": [{"width": 100, "height": 100}] * 5}]}},
        # The first snapshot of a session without ids reloads; the next diffs.
        {"id": 11, "method": "layout/applySnapshot", "params": {"session": "w", "sections": [
            {"id": "a", "items": list(range(9))},
            {"id": "b", "items": [{"id": f"b{k}", "size": {"width": 100, "height": 100}} for k in range(5)]}]}},
        {"id": 12, "method": "layout/applySnapshot", "params": {"session": "w", "sections": [
            {"id": "b", "items": ["b4", "b0", "b1", 3]},
            {"id": "a", "items": [8, 0, 1, 2, "b2", 4, 5, 6, 7, 99]}]}},
        # A drag to reorder, dropped; another, cancelled.
        {"id": 13, "method": "layout/beginInteractiveMovement", "params": {"session": "w", "section": 0, "item": 0}},
        {"id": 14, "method": "layout/updateInteractiveMovement", "params": {"session": "w", "position": {"x": 150, "y": 60}}},
        {"id": 15, "method": "layout/endInteractiveMovement", "params": {"session": "w"}},
        {"id": 16, "method": "layout/beginInteractiveMovement", "params": {"session": "w", "section": 1, "item": 0}},
        {"id": 17, "method": "layout/updateInteractiveMovement", "params": {"session": "w", "position": {"x": 40, "y": 30}}},
        {"id": 18, "method": "layout/cancelInteractiveMovement", "params": {"session": "w"}},
        # A list's separators overridden per item.
        {"id": 19, "method": "layout/open", "params": {"session": "l", "layout": {"type": "list"},
                                                       "bounds": bounds(0), "sections": [{"itemCount": 3}]}},
        {"id": 20, "method": "layout/setItemSeparators", "params": {"session": "l", "items": [
            {"section": 0, "item": 2, "bottomSeparatorVisibility": "visible"}]}},
        # An outline's node expanded, then collapsed.
        {"id": 21, "method": "layout/open", "params": {"session": "o", "layout": {"type": "list"}, "bounds": bounds(0),
                                                       "sections": [{"outline": [{"id": "p", "children": [{"id": "c"}]}]}]}},
        {"id": 22, "method": "layout/expand", "params": {"session": "o", "ids": ["p"]}},
        {"id": 23, "method": "layout/collapse", "params": {"session": "o", "ids": ["p"]}},
        # And edited by id.
        {"id": 24, "method": "layout/outlineAppend", "params": {"session": "o", "parent": "p", "items": [{"id": "d"}]}},
        {"id": 25, "method": "layout/outlineInsert", "params": {"session": "o", "after": "p", "items": [{"id": "q"}]}},
        {"id": 26, "method": "layout/outlineReplaceChildren", "params": {"session": "o", "parent": "p",
                                                                        "children": [{"id": "d"}]}},
        {"id": 27, "method": "layout/outlineDelete", "params": {"session": "o", "ids": ["q"]}},
        # A row of a compositional session scrolls on its own.
        {"id": 8, "method": "layout/open", "params": APP_STORE_OPEN},
        {"id": 9, "method": "layout/scrollSection", "params": {"session": "apps", "section": 1, "offset": 120}},
        {"id": 10, "method": "layout/setBounds", "params": {"session": "w", "bounds": bounds(0, 120)}},
    ]
    # Every method that changes the picture, and the begin of a movement
    # (whose answer changes nothing yet).
    assert {m["method"] for m in messages} == changing | {"layout/beginInteractiveMovement"}
    root = render(tmp_path, messages)
    expected = visible_elements(messages, "w", bounds(0, 120))
    assert _keys(element_groups(root)) == sorted((a["kind"], a["section"], a["item"]) for a in expected)
    assert len(expected) >= 6


#: Two sections of a compositional layout: a list of 60-point rows with a
#: background, and a row of 150 × 100 cards 10 apart that scrolls on its own.
APP_STORE_OPEN = {
    "session": "apps",
    "layout": {"type": "compositional", "section": {
        "group": {"direction": "horizontal",
                  "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 60}},
                  "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]},
        "decorationItems": [{"kind": "background"}]}},
    "bounds": bounds(0),
    "sections": [{"itemCount": 2}, {"itemCount": 8, "layout": {
        "group": {"direction": "horizontal",
                  "size": {"width": {"absolute": 150}, "height": {"absolute": 100}},
                  "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]},
        "interGroupSpacing": 10, "orthogonalScrollingBehavior": "groupPaging"}}],
}


def test_render_draws_a_compositional_row_where_it_scrolled(tmp_path: Path) -> None:
    """The row at offset 120 shows cards 0 to 3 at x = 160k − 120 (card 0
    from −120 to 30, card 3 from 360 in a 375-wide viewport), the list's
    background behind its two rows."""
    messages = [
        {"id": 1, "method": "layout/open", "params": APP_STORE_OPEN},
        {"id": 2, "method": "layout/scrollSection", "params": {"session": "apps", "section": 1, "offset": 120}},
    ]
    root = render(tmp_path, messages)
    groups = element_groups(root)
    keys = [(g.get("data-kind"), g.get("data-section"), g.get("data-item")) for g in groups]
    # Back to front: the background (zIndex 0) first.
    assert keys[0] == ("decoration", "0", "0")
    assert sorted(k for k in keys if k[1] == "1") == [("cell", "1", str(i)) for i in range(4)]
    assert len(shapes(root)) == len(visible_elements(messages, "apps", bounds(0))) == 7
    # Each card is centred on its translation: 75 past its left edge, and
    # 120 + 50 down (below the two 60-point rows).
    centres = {g.get("data-item"): g.find(SVG + "rect").get("transform")  # type: ignore[union-attr]
               for g in groups if g.get("data-section") == "1"}
    assert centres == {str(k): f"matrix(1 0 0 1 {160 * k - 120 + 75} 170)" for k in range(4)}
    assert labels(root)[0] == "background"


def test_render_draws_an_icarousel_rotary(tmp_path: Path) -> None:
    """A rotary of 8 cards of 120×120 in a 375×300 viewport: count 8
    (⌊max(12, ⌈375/120⌉·π)⌋ = 12, capped at n), every card visible, each
    drawn as the daemon's projected quad (a rectangle here: a rotary only
    translates), back to front by zIndex."""
    messages = [{"id": 1, "method": "layout/open", "params": {
        "session": "rot", "layout": {"type": "carousel", "style": "rotary", "itemSize": {"width": 120, "height": 120}},
        "bounds": bounds(0), "sections": [{"itemCount": 8}]}}]
    root = render(tmp_path, messages)
    expected = visible_elements(messages, "rot", bounds(0))
    assert len(shapes(root)) == len(expected) == 8
    groups = element_groups(root)
    zs = [int(g.get("data-z-index") or 0) for g in groups]
    assert zs == sorted(zs)
    # The front card is item 0, at the centre, drawn last.
    assert groups[-1].get("data-item") == "0"
    assert groups[-1].find(SVG + "rect").get("transform") == "matrix(1 0 0 1 187.5 150)"  # type: ignore[union-attr]


def test_render_tilted_cards_as_projected_quads(tmp_path: Path) -> None:
    """protocol.md's tilt: card 1 turned by −45° with perspective 500. Its
    right edge has w = 1 − 100·cos45°/500, so it is drawn at x = 417.5 +
    70.71/w = 499.8578, from y = 150 − 150/w = −24.7074 to 324.7074; its
    left edge (w = 1 + 100·cos45°/500) at 355.5503, 18.5849…281.4151."""
    messages = [{"id": 1, "method": "layout/open", "params": {
        "session": "tilt",
        "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"peak": 1, "factor": 0},
                   "distanceUnit": "pitch", "rotation": {"maxAngle": 45, "perspective": 500}},
        "bounds": bounds(0), "sections": [{"itemCount": 3}]}}]
    root = render(tmp_path, messages)
    groups = element_groups(root)
    assert labels(root) == ["1", "0"]
    polygon = groups[0].find(SVG + "polygon")
    assert polygon is not None and groups[0].find(SVG + "rect") is None
    points = [tuple(float(v) for v in p.split(",")) for p in (polygon.get("points") or "").split()]
    c = math.sqrt(0.5)
    right, left = 1 - 100 * c / 500, 1 + 100 * c / 500
    expected = [
        (417.5 - 100 * c / left, 150 - 150 / left),
        (417.5 + 100 * c / right, 150 - 150 / right),
        (417.5 + 100 * c / right, 150 + 150 / right),
        (417.5 - 100 * c / left, 150 + 150 / left),
    ]
    assert points == [pytest.approx(p, abs=1e-4) for p in expected]
    assert points[1] == pytest.approx((499.8578, -24.7074), abs=1e-4)
    # Card 0 carries m34 only: an exact rectangle.
    assert groups[1].find(SVG + "rect").get("transform") == "matrix(1 0 0 1 187.5 150)"  # type: ignore[union-attr]
    assert len(shapes(root)) == 2


def test_render_flow_headers_and_sections(tmp_path: Path) -> None:
    """protocol.md's grid at y = 150: item 6 (140…190), section 1's header
    (190…210) and its two items (215…255)."""
    messages = [
        {"id": 1, "method": "layout/open", "params": {
            "session": "grid",
            "layout": {"type": "flow", "itemSize": {"width": 100, "height": 50}, "headerReferenceSize": {"width": 0, "height": 20}},
            "bounds": {"x": 0, "y": 0, "width": 320, "height": 100},
            "sections": [{"itemCount": 7}, {"itemSizes": [{"width": 150, "height": 40}, {"width": 60, "height": 40}],
                                            "inset": {"top": 5, "left": 10, "bottom": 5, "right": 10}}]}},
        {"id": 2, "method": "layout/setBounds", "params": {"session": "grid", "bounds": bounds(0, 150, 320, 100)}},
    ]
    root = render(tmp_path, messages)
    assert labels(root) == ["6", "header 1", "1-0", "1-1"]
    assert len(shapes(root)) == len(visible_elements(messages, "grid", bounds(0, 150, 320, 100))) == 4
    header = element_groups(root)[1]
    assert header.get("class") == "element header" and header.get("data-section") == "1"
    # Untransformed: centred at (160, 200 − 150).
    assert header.find(SVG + "rect").get("transform") == "matrix(1 0 0 1 160 50)"  # type: ignore[union-attr]
    # The centred item: nearest the viewport's centre (160, 200) in the plane.
    assert [g.get("data-item") for g in element_groups(root) if "centered" in (g.get("class") or "")] == ["1"]


def test_render_chooses_the_session_and_places_rtl_content(tmp_path: Path) -> None:
    """Right to left, horizontally, the content spans [375 − 835, 375]."""
    rtl = {"id": 1, "method": "layout/open", "params": {
        "session": "rtl",
        "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "layoutDirection": "rtl"},
        "bounds": bounds(0), "sections": [{"itemCount": 3}]}}
    seed = {"id": 2, "method": "layout/open", "params": SEED_OPEN}
    root = render(tmp_path, [rtl, seed], "--session", "rtl")
    paths = {p.get("class"): p.get("d") for p in root.iter(SVG + "path")}
    assert paths["content"] == "M-460 0H375V300H-460Z"
    assert labels(root) == ["1", "0"]
    root = render(tmp_path, [rtl, seed])  # the last session answered
    assert "session seed" in (root.find(SVG + "title").text or "")  # type: ignore[union-attr]


def test_render_to_stdout_and_failures(tmp_path: Path) -> None:
    path = script(tmp_path / "s.jsonl", SEED_SCRIPT)
    done = run("render", "--session-script", str(path), "--out", "-", "--daemon", DAEMON)
    assert done.returncode == 0, done.stderr
    assert len(shapes(ET.fromstring(done.stdout.split("\n", 1)[1]))) == 3
    # A failed request is reported; the picture is still drawn.
    bad = script(tmp_path / "bad.jsonl", [*SEED_SCRIPT, {"id": 9, "method": "layout/setBounds", "params": {"session": "nope", "bounds": bounds(0)}}])
    done = run("render", "--session-script", str(bad), "--out", str(tmp_path / "v.svg"), "--daemon", DAEMON)
    assert done.returncode == 0 and "1 request(s) failed" in done.stderr
    # No session opened: nothing to draw.
    empty = script(tmp_path / "empty.jsonl", [{"id": 1, "method": "layout/contentSize", "params": {"session": "x"}}])
    done = run("render", "--session-script", str(empty), "--out", str(tmp_path / "e.svg"), "--daemon", DAEMON)
    assert done.returncode == 1 and "no session was opened" in done.stderr
    assert not (tmp_path / "e.svg").exists()
    done = run("render", "--session-script", str(path), "--out", str(tmp_path / "e.svg"), "--session", "other")
    assert done.returncode == 1 and "session 'other' has no picture" in done.stderr


def test_help_lists_the_commands() -> None:
    done = run("--help")
    assert done.returncode == 0
    for command in ("demo", "replay", "render", "web"):
        assert command in done.stdout
    done = run("render", "--help")
    assert "--session-script" in done.stdout and "--out" in done.stdout
    # Plain text for a terminal: no reStructuredText markup, no parameter
    # names of the Python API.
    for command in ("demo", "replay", "render", "web"):
        text = run(command, "--help").stdout
        assert "``" not in text and "out_path" not in text, (command, text)


def test_render_draws_a_waterfall(tmp_path: Path) -> None:
    """Three columns of 100 across 320 and a full-span item: frames as
    protocol.md's waterfall example places them, scrolled to 150."""
    sizes = [{"width": 100, "height": h} for h in (100, 50, 150, 50)]
    sizes.append({"width": 100, "height": 40, "fullSpan": True})
    messages = [
        {"id": 1, "method": "layout/open", "params": {
            "session": "w", "layout": {"type": "waterfall", "columnCount": 3},
            "bounds": {"x": 0, "y": 0, "width": 320, "height": 300}, "sections": [{"itemSizes": sizes}]}},
        {"id": 2, "method": "layout/setBounds", "params": {
            "session": "w", "bounds": {"x": 0, "y": 150, "width": 320, "height": 300}}},
    ]
    root = render(tmp_path, messages)
    # Visible at 150…450: only the full-span item 4 (160…288); item 2
    # (column 2, 0…150) touches the bounds without overlapping them.
    assert labels(root) == ["4"]
    rects = {g.get("data-item"): g.find(SVG + "rect") for g in element_groups(root)}
    four = rects["4"]
    assert four is not None
    assert (four.get("width"), four.get("height")) == ("320", "128")
    # Centred at (160, 224) in content, 224 − 150 = 74 in the viewport.
    assert four.get("transform") == "matrix(1 0 0 1 160 74)"
    assert len(shapes(root)) == len(visible_elements(messages, "w", {"x": 0, "y": 150, "width": 320, "height": 300}))


def test_render_writes_a_png(tmp_path: Path) -> None:
    """A grid of four 100×100 cells in a 300×200 viewport, drawn as PNG:
    the view box is the viewport and a 20-point margin; the cells are
    filled, the centred one in the highlight, and the margin is veiled."""
    grid = {"session": "g", "layout": {"type": "flow", "itemSize": {"width": 100, "height": 100},
                                       "minimumInteritemSpacing": 0, "minimumLineSpacing": 0},
            "bounds": bounds(0, 0, 300, 200), "sections": [{"itemCount": 4}]}
    out = tmp_path / "grid.png"
    done = run("render", "--session-script", str(script(tmp_path / "s.jsonl", [
        {"id": 1, "method": "layout/open", "params": grid}])), "--out", str(out), "--daemon", DAEMON)
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (340, 240)
    from PIL import Image
    image = Image.open(out).convert("RGB")
    # Item 3 at (0, 100): its inside is the cell fill; the margin is veiled.
    assert image.getpixel((20 + 30, 20 + 130)) == (0xCF, 0xE1, 0xF9)
    assert image.getpixel((5, 5)) == (0xEE, 0xF0, 0xF3)
    # --format png writes PNG whatever the path says.
    out2 = tmp_path / "grid.out"
    done = run("render", "--session-script", str(tmp_path / "s.jsonl"), "--out", str(out2), "--format", "png",
               "--daemon", DAEMON)
    assert done.returncode == 0 and out2.read_bytes() == data


def test_render_says_what_a_png_needs_without_pillow(tmp_path: Path) -> None:
    """Without Pillow, a PNG is refused with the install line, exit 2."""
    grid = {"session": "g", "layout": {"type": "flow"}, "bounds": bounds(0, 0, 300, 200),
            "sections": [{"itemCount": 4}]}
    blocker = tmp_path / "nopil"
    (blocker / "PIL").mkdir(parents=True)
    (blocker / "PIL" / "__init__.py").write_text("raise ImportError('no Pillow here')\n")
    env = dict(os.environ, FLOWLAYOUTD=DAEMON,
               PYTHONPATH=os.pathsep.join([str(blocker), str(PACKAGE)]))
    done = subprocess.run(
        [sys.executable, "-m", "flowlayout", "render", "--session-script",
         str(script(tmp_path / "s.jsonl", [{"id": 1, "method": "layout/open", "params": grid}])),
         "--out", str(tmp_path / "x.png")], capture_output=True, text=True, env=env, timeout=30)
    assert done.returncode == 2
    # The exact command for this Python, whichever installed it (issue #45:
    # `make install`'s private virtualenv has a pip of its own).
    import shlex
    hint = f"{shlex.quote(sys.executable)} -m pip install 'pillow>=9.2'"
    assert done.stderr == (
        f"flowlayout render: PNG pictures need Pillow, which this Python ({sys.executable}) lacks: "
        f"{hint} (or draw SVG with --format svg)\n"
    ), done.stderr
    assert not (tmp_path / "x.png").exists()


def test_render_scale(tmp_path: Path) -> None:
    """`render --scale 2` (issue #45): the grid of test_render_writes_a_png
    (340×240 at 1) is 680×480 pixels, the same picture at twice the
    resolution; an SVG's width and height double while its viewBox stays;
    a scale that is not a positive number up to 8 is refused, exit 2."""
    grid = {"session": "g", "layout": {"type": "flow", "itemSize": {"width": 100, "height": 100},
                                       "minimumInteritemSpacing": 0, "minimumLineSpacing": 0},
            "bounds": bounds(0, 0, 300, 200), "sections": [{"itemCount": 4}]}
    s = script(tmp_path / "s.jsonl", [{"id": 1, "method": "layout/open", "params": grid}])
    out = tmp_path / "grid.png"
    done = run("render", "--session-script", str(s), "--out", str(out), "--scale", "2")
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert struct.unpack(">II", data[16:24]) == (680, 480)
    from PIL import Image
    image = Image.open(out).convert("RGB")
    # Item 3's inside at twice the coordinates; the margin still veiled.
    assert image.getpixel((2 * 50, 2 * 150)) == (0xCF, 0xE1, 0xF9)
    assert image.getpixel((10, 10)) == (0xEE, 0xF0, 0xF3)
    svg = tmp_path / "grid.svg"
    assert run("render", "--session-script", str(s), "--out", str(svg), "--scale", "2").returncode == 0
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("680", "480", "-20 -20 340 240")
    for bad in ("0", "-1", "9", "nan"):
        done = run("render", "--session-script", str(s), "--out", str(tmp_path / "bad.png"), "--scale", bad)
        assert done.returncode == 2, (bad, done.stderr)
        assert "--scale must be a number > 0 and <= 8" in done.stderr, done.stderr
    assert not (tmp_path / "bad.png").exists()
