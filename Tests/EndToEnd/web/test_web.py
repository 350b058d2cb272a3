"""The web client (clients/web) in headless Chromium, through `flowlayout web`.

The page must draw the daemon's attributes and nothing else, so every check
compares what Chromium computed for the DOM against what the daemon says:

(a) the page opens on card 0, centred;
(b) a slow drag of 250 px snaps to card 1, a fling travels further;
(c) every card's computed transform, bounding box, opacity and z-index
    equal the daemon's `layout/attributesInRect` for the viewport, at rest,
    mid-drag and after the controls re-open the session;
(d) a card inserted at the centre (layout/performBatchUpdates) fades in
    while its neighbour glides aside; a deleted one fades out;
(e) the snap policy and deceleration rate are the layout's: with `paging`
    a fast fling moves exactly one card, and every release follows the
    daemon's `trajectory` (scrollEnded without proposedContentOffset);
(f) with the tilt on, every card's computed matrix3d is the daemon's, to
    the digits Chromium prints;
(g) with the loop on, elements are keyed by lap: dragging back from the
    start shows the last card of lap -1 and the centred index wraps;
(h) the layout picker's waterfall: cards of varied aspect ratios, a column
    wide, drawn as the daemon's attributesInRect says at the top, after the
    wheel, mid-drag, after a fling along the daemon's trajectory and after
    a rubber band past the top; inserts (with their own sizes) and deletes
    change the card count and the DOM matches again;
(i) the waterfall's column count goes out as layout/configure
    {layout: {columnCount: n}}: the DOM matches again and every card is the
    new column's width; a refused count is put back;
(j) the flow grid (100×100 cells, vertical) matches the daemon too, and
    cover flow comes back as it was;
(k) the package pip installed into a fresh virtualenv (conftest's
    `installed_flowlayout`, as test_install.py) serves a page that works,
    from its own copy of the web client (and of the JS client module),
    run from outside the checkout;
(l) the 3D carousel (type carousel): the style picker offers the daemon's
    capabilities.carouselStyles; in every style, horizontal and vertical,
    at rest, held mid-drag and after a release, and wrapped round into
    other laps, every card's bounding box is the daemon's projected
    `frame` within 1 px, its matrix3d, opacity and z-index the daemon's,
    and the cards are exactly layout/attributesInRect's (hidden ones, such
    as the inverted cylinder's backfaces, never drawn); a rotary release
    snaps to a whole item along the daemon's trajectory;
(o) the settings page (type list, issue #42): rows, headers, separators
    and rounded backgrounds are the daemon's attributesInRect in each
    appearance; while a row is swiped its buttons stand at the frames
    layout/updateSwipe answers (and the protocol's rule gives by hand) and
    its content moves by the translation; a tap on Delete, or a full
    swipe, sends the list without the row and the DOM matches again;
(p) the sidebar page (a list in the sidebar appearance whose sections are
    outlines): rows, their order, frames, indentation and disclosure
    triangles are the daemon's (and an independent daemon's) and the
    tree is its layout/outline; a click on a triangle or a folder's row
    expands or collapses it (layout/expand, layout/collapse), rows keeping
    their elements; the arrow keys move the focus, open and close folders
    as a macOS sidebar does, and a folder collapsed and expanded again
    brings back its open grandchild.

Needs Debian's chromium and chromium-driver and PyPI's selenium
(`make deps-web`); skips with the reason when any is missing. Saves
artifacts/web-client.png and copies it to docs/web-client.png, the
waterfall as artifacts/web-waterfall.png and a cylinder carousel as
artifacts/web-carousel.png.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from typing import Any, Callable, Optional

import pytest

from daemon_support import DAEMON, REPO, WebBridge

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip(
        "selenium is not installed (make deps-web, or pip install selenium)", allow_module_level=True
    )

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:  # pragma: no cover - depends on the machine
    missing = " and ".join(n for n, p in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER)) if not p)
    pytest.skip(f"{missing} not found (make deps-web: apt-get install chromium chromium-driver)",
                allow_module_level=True)

#: Tall enough for the whole control panel in the screenshot.
WINDOW = (1100, 900)
IDENTITY = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]
#: The seed carousel's pitch: a 200-point card and 30 points of spacing.
PITCH = 230
#: A config that shows cover flow's overlap (the centred card in front):
#: cards grow to 1.3 at the centre and shrink with distance.
SHOWCASE = {
    "viewportWidth": 700, "viewportHeight": 360, "itemWidth": 180, "itemHeight": 240,
    "spacing": 0, "curve": "linear", "factor": 1, "peak": 1.3,
}


# MARK: fixtures


@pytest.fixture(scope="module")
def bridge():
    b = WebBridge()
    yield b
    code, rest = b.stop()
    assert code == 0 and "flowlayoutd exited with status 0" in rest, rest


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        f"--window-size={WINDOW[0]},{WINDOW[1]}", "--force-device-scale-factor=1",
        "--hide-scrollbars", "--no-first-run", "--disable-extensions",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(15)
    yield driver
    driver.quit()


class Page:
    """The loaded page, with waits and the checks every test shares."""

    def __init__(self, driver: Any) -> None:
        self.d = driver

    def js(self, script: str, *args: Any) -> Any:
        return self.d.execute_script(script, *args)

    def js_async(self, script: str, *args: Any) -> Any:
        """Runs `script` with `done` bound to the completion callback."""
        wrapped = "const done = arguments[arguments.length - 1];\n" + script
        result = self.d.execute_async_script(wrapped, *args)
        if isinstance(result, dict) and "error" in result and len(result) == 1:
            raise AssertionError(f"page script failed: {result['error']}")
        return result

    def wait(self, what: str, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                errors = self.js("return document.getElementById('error').textContent")
                raise AssertionError(f"timed out waiting for {what}; page error: {errors!r}")
            time.sleep(0.02)

    def wait_idle(self, timeout: float = 5.0) -> None:
        """Until nothing moves or is pending, twice in a row."""
        def idle_twice() -> bool:
            if not self.js("return !!(window.flowlayout && window.flowlayout.idle())"):
                return False
            time.sleep(0.03)
            return bool(self.js("return window.flowlayout.idle()"))
        self.wait("the page to come to rest", idle_twice, timeout)

    def wait_synced(self) -> None:
        self.wait("the picture to catch up", lambda: self.js("return window.flowlayout.synced()"))

    def centred(self) -> Optional[int]:
        c = self.js("return window.flowlayout.centeredItem()")
        return None if c is None else c["item"]

    def offset(self) -> float:
        return self.js("return window.flowlayout.offset().x")

    @property
    def viewport(self) -> Any:
        return self.d.find_element(By.ID, "viewport")

    def drag(self, dx: int, pause: float = 0.3, start: int = 150, move_ms: int = 250) -> None:
        """Presses at `start` px right of the viewport's centre, moves by
        `dx` over `move_ms`, rests `pause` s, and lifts."""
        chain = ActionChains(self.d, duration=move_ms)
        chain.move_to_element_with_offset(self.viewport, start, 0).click_and_hold().move_by_offset(dx, 0)
        if pause:
            chain.pause(pause)
        chain.release().perform()

    def set_control(self, name: str, value: Any) -> None:
        """Sets a control (a checkbox with a bool) as a user would and lets
        the session re-open."""
        self.js(
            "const el = document.querySelector(`#controls [name='${arguments[0]}']`);"
            "if (el.type === 'checkbox') el.checked = arguments[1]; else el.value = String(arguments[1]);"
            "el.dispatchEvent(new Event('change', {bubbles: true}));",
            name, value,
        )
        self.wait_idle()
        assert self.js("return window.flowlayout.config()[arguments[0]]", name) == value

    def record_rpc(self) -> None:
        """From now on keeps every JSON-RPC request the page sends, with its
        answer, in order (see `sent`)."""
        self.js(
            """
            if (!window.__rpcLog) {
              const send = window.fetch.bind(window);
              window.__rpcLog = [];
              window.fetch = (url, init) => {
                if (url !== '/rpc') return send(url, init);
                const entry = {request: JSON.parse(init.body), answer: null};
                window.__rpcLog.push(entry);
                return send(url, init).then((r) => {
                  r.clone().json().then((j) => { entry.answer = j; }, () => {});
                  return r;
                });
              };
            }
            window.__rpcLog.length = 0;
            """
        )

    def sent(self) -> list[dict]:
        """What the page sent since `record_rpc`: [{request, answer}]."""
        return self.js("return window.__rpcLog")

    # MARK: (c) the DOM against the daemon

    def snapshot(self) -> dict:
        """The DOM's cards as Chromium computed them, the page's picture,
        and the daemon's attributesInRect over the drawn viewport."""
        return self.js_async(
            """
            const fl = window.flowlayout;
            const bounds = fl.bounds();
            const view = document.getElementById('viewport');
            fl.request('layout/attributesInRect', {session: fl.session, rect: bounds}).then((r) => {
              const v = view.getBoundingClientRect();
              const cards = [...view.querySelectorAll('.card:not(.ghost)')].map((el) => {
                const cs = getComputedStyle(el);
                const box = el.getBoundingClientRect();
                return {
                  kind: el.dataset.kind, section: Number(el.dataset.section), item: Number(el.dataset.item),
                  lap: el.dataset.lap === undefined ? null : Number(el.dataset.lap), id: el.dataset.id,
                  label: el.querySelector('.index').textContent,
                  transform: cs.transform, transformOrigin: cs.transformOrigin,
                  left: parseFloat(cs.left), top: parseFloat(cs.top),
                  width: parseFloat(cs.width), height: parseFloat(cs.height),
                  opacity: Number(cs.opacity), zIndex: cs.zIndex,
                  box: {x: box.left - v.left - view.clientLeft, y: box.top - v.top - view.clientTop,
                        width: box.width, height: box.height},
                };
              });
              done({bounds, attributes: r.attributes, picture: fl.picture(), cards});
            }, (e) => done({error: String(e)}));
            """
        )

    def assert_matches_daemon(self, box_tolerance: float = 0.5, relative_tolerance: float = 0.0) -> dict:
        """Every card is drawn as the daemon's attributesInRect for the
        drawn bounds says, its bounding box within `box_tolerance` px of
        the frame (minus the bounds' origin), or within
        `relative_tolerance` of the frame's larger side if that is more."""
        snap = self.snapshot()
        bounds, attributes, cards = snap["bounds"], snap["attributes"], snap["cards"]
        # An element is (kind, section, item, lap): each copy of a looping
        # carousel's card is an element (and a DOM element) of its own.
        key = lambda a: (a["kind"], a["section"], a["item"], a.get("lap"))  # noqa: E731
        # The picture, patched from setBounds answers, is exactly the daemon's
        # answer for the whole viewport.
        assert snap["picture"] == attributes
        by_key = {key(a): a for a in attributes}
        assert len(by_key) == len(attributes), attributes
        assert sorted(map(key, cards), key=repr) == sorted(by_key, key=repr), (cards, attributes)
        assert len({c["id"] for c in cards}) == len(cards), cards
        assert attributes, "nothing visible"
        chat = self.js("return window.flowlayout.config().layout") == "chat"
        for c in cards:
            a = by_key[key(c)]
            where = f"item {a['item']} at bounds.x={bounds['x']}"
            expected = a.get("transform", IDENTITY)
            assert_matrix(parse_matrix(c["transform"]), expected, where)
            frame = a["frame"]
            tolerance = max(box_tolerance, relative_tolerance * max(frame["width"], frame["height"]))
            for axis, origin in (("x", bounds["x"]), ("y", bounds["y"])):
                assert abs(c["box"][axis] - (frame[axis] - origin)) <= tolerance, (where, c["box"], frame)
            for side in ("width", "height"):
                assert abs(c["box"][side] - frame[side]) <= tolerance, (where, c["box"], frame)
            assert abs(c["opacity"] - a["alpha"]) <= 1e-6, where
            assert c["zIndex"] == str(a["zIndex"]), where
            if a["kind"] == "cell":
                # A card shows its index; a chat row its message's bubble.
                assert c["label"] == str(a["item"]) or (chat and c["label"]), where
        return snap


def parse_matrix(css: str) -> list[float]:
    """A CSS transform value as 16 column-major numbers (CATransform3D's
    m11…m44 order): matrix3d(16), matrix(a, b, c, d, e, f), or none."""
    if css == "none":
        return list(IDENTITY)
    m = re.fullmatch(r"(matrix3d|matrix)\((.*)\)", css.strip())
    assert m, f"not a matrix: {css!r}"
    v = [float(x) for x in m.group(2).split(",")]
    if m.group(1) == "matrix3d":
        assert len(v) == 16, css
        return v
    assert len(v) == 6, css
    a, b, c, d, e, f = v
    return [a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, e, f, 0, 1]


def assert_matrix(actual: list[float], expected: list[float], where: str) -> None:
    """Entry by entry, to the precision Chromium prints. Computed (and even
    inline) transforms come back rounded to 6 significant digits and cut
    (not rounded) at 7 decimal places: 0.6144344816 prints as 0.614434,
    -0.000642437 as -0.0006424, 0.00099999999 as 0.0009999; below 1e-6 in
    exponent form (1.23457e-07). So each entry must be within half a unit
    of the daemon's 6th significant digit plus 1e-7."""
    assert len(actual) == len(expected) == 16, (actual, expected)
    for i, (x, e) in enumerate(zip(actual, expected)):
        t = (0.5 * 10.0 ** (math.floor(math.log10(abs(e))) - 5) if e else 0.0) + 1e-7
        assert abs(x - e) <= t, f"{where}: transform[{i}] is {x}, the daemon says {e} (±{t})"


#: The URL state the tests below start from: the page's first tab with the
#: 375×300 viewport their numbers are worked out for (the page itself
#: opens at a phone's size; test_url_state and test_viewport_presets check
#: that).
TEST_STATE = "#coverFlow?viewport=375x300"


def load(browser, url: str) -> None:
    """A fresh load: from a blank page, since a URL that differs from the
    current one only after # would not reload it."""
    browser.get("about:blank")
    browser.get(url)


@pytest.fixture
def page(bridge, browser) -> Page:
    load(browser, bridge.url + TEST_STATE)
    p = Page(browser)
    p.wait("the page to open its session", lambda: p.js("return !!window.flowlayout"))
    p.wait_idle()
    return p


# MARK: tests


def test_opens_on_card_0_centred(page):
    assert page.centred() == 0
    assert page.offset() == 0
    assert page.js("return document.getElementById('centred').textContent") == "0"
    assert page.js("return window.flowlayout.cards().length") == 10
    snap = page.assert_matches_daemon()
    card0 = next(c for c in snap["cards"] if c["item"] == 0)
    # Unscaled, centred in the 375×300 viewport, in front.
    assert card0["box"] == {"x": 87.5, "y": 0, "width": 200, "height": 300}
    assert card0["transform"] in ("none", "matrix(1, 0, 0, 1, 0, 0)")
    assert page.js("return document.querySelector('.card.centred').dataset.item") == "0"


def test_each_page_load_has_its_own_session_and_closes_it(page):
    first = page.js("return window.flowlayout.session")
    page.d.refresh()
    page.wait("the reloaded page", lambda: page.js("return !!window.flowlayout"))
    page.wait_idle()
    assert page.js("return window.flowlayout.session") != first

    def closed() -> bool:
        out = page.js_async(
            "window.flowlayout.request('layout/contentSize', {session: arguments[0]})"
            ".then(() => done(0), (e) => done(e.code));",
            first,
        )
        return out == 1001  # unknown session

    page.wait("the old session to be closed", closed)


def test_drag_snaps_to_the_next_card_and_a_fling_goes_further(page):
    page.drag(-250)  # rests before lifting: no velocity
    page.wait_idle()
    release = page.js("return window.flowlayout.lastRelease()")
    assert release["input"] == "mouse"
    assert release["velocity"] == 0 and release["contentOffset"] == 250
    assert release["target"] == PITCH and release["targetItem"]["item"] == 1
    assert page.centred() == 1 and page.offset() == PITCH
    assert page.js("return document.getElementById('centred').textContent") == "1"
    page.assert_matches_daemon()

    page.drag(-150, pause=0, move_ms=50)  # a flick: lifted while moving
    page.wait_idle()
    fling = page.js("return window.flowlayout.lastRelease()")
    assert fling["velocity"] > 1, fling  # pt/ms
    # The daemon projected the release with the normal rate, clamped to
    # the last card's offset.
    r = 0.998
    projection = fling["contentOffset"] + fling["velocity"] * r / (1 - r)
    assert math.isclose(fling["projected"], min(9 * PITCH, projection)), fling
    assert page.centred() >= 3, fling  # further than the one card a drag reaches
    assert page.offset() == page.centred() * PITCH
    page.assert_matches_daemon()


def test_a_touch_drag_works_too(page):
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    touch = ActionBuilder(page.d, mouse=finger, duration=250)
    touch.pointer_action.move_to(page.viewport, 150, 0).pointer_down().move_by(-250, 0).pause(0.3).pointer_up()
    touch.perform()
    page.wait_idle()
    assert page.js("return window.flowlayout.lastRelease().input") == "touch"
    assert page.centred() == 1 and page.offset() == PITCH
    page.assert_matches_daemon()


def test_the_wheel_scrolls_then_snaps(page):
    ActionChains(page.d).scroll_from_origin(ScrollOrigin.from_element(page.viewport), 250, 0).perform()
    page.wait_idle()
    release = page.js("return window.flowlayout.lastRelease()")
    assert release["input"] == "wheel"
    assert release["contentOffset"] == 250 and release["velocity"] == 0
    assert page.centred() == 1 and page.offset() == PITCH
    page.assert_matches_daemon()


def test_every_card_is_drawn_as_the_daemon_says(page):
    page.assert_matches_daemon()  # at rest on card 0
    # The fast rate settles sooner (what is drawn does not depend on it).
    page.set_control("decelerationRate", "fast")
    # Held still mid-drag, half-way between cards 0 and 1: both scaled.
    chain = ActionChains(page.d, duration=200)
    chain.move_to_element_with_offset(page.viewport, 150, 0).click_and_hold().move_by_offset(-115, 0).perform()
    page.wait_synced()
    assert page.offset() == 115
    snap = page.assert_matches_daemon()
    assert all("transform" in a for a in snap["attributes"])
    ActionChains(page.d).pause(0.2).release().perform()
    page.wait_idle()
    page.assert_matches_daemon()
    # The controls re-open the session; the centred card stays centred.
    centred = page.centred()
    page.set_control("curve", "reciprocal")
    page.set_control("viewportWidth", 600)
    page.set_control("itemHeight", 260)
    assert page.centred() == centred
    assert page.js("return window.flowlayout.config().decelerationRate") == "fast"
    assert page.js("return document.getElementById('viewport').getBoundingClientRect().width") == 600
    page.assert_matches_daemon()
    page.drag(-300)
    page.wait_idle()
    assert page.centred() == centred + 1
    snap = page.assert_matches_daemon()
    assert len(snap["cards"]) >= 3


def test_an_insert_at_the_centre_animates_in(page):
    """layout/performBatchUpdates: the new card fades in at the centre while
    the centred card glides aside; a delete fades it out and the next card
    takes the centre."""
    page.set_control("decelerationRate", "fast")  # a short snap to card 1
    page.drag(-250)
    page.wait_idle()
    assert page.centred() == 1
    before = page.js("return window.flowlayout.cards()")
    offset = page.offset()
    # Click, then sample on every frame for 1 s: the new card's opacity, and
    # where the card that was centred stands.
    out = page.js_async(
        """
        const fl = window.flowlayout;
        const known = new Set(fl.cards().map((id) => `card-${id}`));
        const old = document.querySelector(`.card[data-id='card-${fl.cards()[1]}']`);
        document.getElementById('insert').click();
        const samples = [];
        let start = null;
        function tick(now) {
          if (start === null) start = now;
          const el = [...document.querySelectorAll('#viewport .card')].find((e) => !known.has(e.dataset.id));
          samples.push({t: now - start, opacity: el ? Number(getComputedStyle(el).opacity) : null,
                        item: el ? Number(el.dataset.item) : null, id: el ? el.dataset.id : null,
                        oldLeft: old.getBoundingClientRect().left});
          if (now - start < 1000) requestAnimationFrame(tick); else done({samples});
        }
        requestAnimationFrame(tick);
        """
    )
    page.wait_idle()
    seen = [s for s in out["samples"] if s["id"] is not None]
    assert seen, "no new card appeared"
    opacities = [s["opacity"] for s in seen]
    assert opacities[0] < 0.5, opacities
    assert opacities[-1] == 1, opacities
    assert any(0 < o < 1 for o in opacities), f"a jump, not an animation: {opacities}"
    assert all(b >= a - 1e-9 for a, b in zip(opacities, opacities[1:])), opacities
    first_full = next(s["t"] for s in seen if s["opacity"] == 1)
    assert first_full - seen[0]["t"] >= 200, seen
    # The card that was centred glides one pitch to the right, not jumps.
    lefts = [s["oldLeft"] for s in out["samples"]]
    assert lefts[-1] - lefts[0] > PITCH / 2, lefts
    assert any(lefts[0] + 5 < x < lefts[-1] - 5 for x in lefts), f"a jump, not a move: {lefts}"
    # Inserted at the centred index, and centred: the old card 1 is card 2 now.
    assert {s["item"] for s in seen} == {1}
    after = page.js("return window.flowlayout.cards()")
    assert len(after) == 11 and after[:1] == before[:1] and after[2:] == before[1:]
    assert page.centred() == 1 and page.offset() == offset
    assert page.js("return document.querySelector(`#controls [name='count']`).value") == "11"
    page.assert_matches_daemon()

    page.js("document.getElementById('delete').click()")
    page.wait_idle()
    assert page.js("return window.flowlayout.cards()") == before
    assert page.centred() == 1 and page.offset() == offset  # the next card took the centre
    assert page.js("return document.querySelector(`.card[data-id='${arguments[0]}']`)", seen[0]["id"]) is None
    page.assert_matches_daemon()



def assert_follows_trajectory(page: Page, release: dict, axis: str = "x") -> dict:
    """The release went out as layout/scrollEnded without a
    proposedContentOffset (the daemon projects it), asking for 16.67 ms
    samples, and every offset the page then showed, one setBounds a frame,
    was a sample of the answer's trajectory, in order, ending on the target.
    `axis` is the scroll axis ("y" for the vertical layouts). Returns the
    scrollEnded request's params."""
    across = "y" if axis == "x" else "x"
    log = page.sent()
    ends = [i for i, e in enumerate(log) if e["request"]["method"] == "layout/scrollEnded"]
    assert len(ends) == 1, [e["request"]["method"] for e in log]
    params, answer = log[ends[0]]["request"]["params"], log[ends[0]]["answer"]["result"]
    assert "proposedContentOffset" not in params, params
    assert params["frameInterval"] == 16.67
    assert params["contentOffset"][axis] == release["contentOffset"]
    assert params["velocity"] == {axis: release["velocity"], across: 0}
    samples = [p[axis] for p in answer["trajectory"]]
    assert samples == release["trajectory"] and samples[-1] == release["target"]
    assert answer["projectedContentOffset"][axis] == release["projected"]
    assert answer["policy"] == release["policy"]
    shown = [e["request"]["params"]["bounds"][axis] for e in log[ends[0] + 1:]
             if e["request"]["method"] == "layout/setBounds"]
    assert shown and shown[-1] == samples[-1], (shown, samples)
    positions = []
    for x in shown:
        assert x in samples, f"{x} is not a sample of the trajectory {samples}"
        positions.append(samples.index(x))
    assert positions == sorted(positions), positions
    # Frame by frame, not a jump to the end.
    assert len(set(positions)) >= min(len(samples), 6), (positions, len(samples))
    return params


def test_paging_moves_one_card_per_fling_along_the_daemons_trajectory(page):
    page.set_control("snapPolicy", "paging")
    page.record_rpc()
    page.drag(-150, pause=0, move_ms=50)  # a fast fling
    page.wait_idle()
    fling = page.js("return window.flowlayout.lastRelease()")
    assert fling["velocity"] > 1 and fling["policy"] == "paging", fling
    # Projected with the normal rate (499·v) far beyond the next card...
    r = 0.998
    projection = fling["contentOffset"] + fling["velocity"] * r / (1 - r)
    assert math.isclose(fling["projected"], min(9 * PITCH, projection)), fling
    assert fling["projected"] > 2.5 * PITCH, fling
    # ... and paged to the next card only.
    assert fling["targetItem"]["item"] == 1 and fling["target"] == PITCH, fling
    assert page.centred() == 1 and page.offset() == PITCH
    assert page.js("return document.getElementById('release').textContent").endswith("(item 1, paging)")
    assert_follows_trajectory(page, fling)
    page.assert_matches_daemon()

    # The fast rate: projected by 99·v, a shorter motion; still one card.
    page.set_control("decelerationRate", "fast")
    assert page.centred() == 1 and page.offset() == PITCH
    page.record_rpc()
    page.drag(-150, pause=0, move_ms=50)
    page.wait_idle()
    fast = page.js("return window.flowlayout.lastRelease()")
    assert fast["velocity"] > 1 and fast["policy"] == "paging", fast
    assert math.isclose(fast["projected"], fast["contentOffset"] + fast["velocity"] * 0.99 / 0.01), fast
    assert fast["targetItem"]["item"] == 2 and fast["target"] == 2 * PITCH, fast
    assert page.centred() == 2 and page.offset() == 2 * PITCH
    assert_follows_trajectory(page, fast)
    page.assert_matches_daemon()


def test_tilt_draws_the_daemons_matrix3d(page):
    page.set_control("decelerationRate", "fast")  # short settles
    page.set_control("tilt", True)
    assert page.js("return window.flowlayout.config().maxAngle") == 45
    snap = page.assert_matches_daemon()
    by_item = {c["item"]: c for c in snap["cards"]}
    attrs = {a["item"]: a for a in snap["attributes"]}
    # The centred card carries the perspective (m34 = -1/500), unturned; its
    # neighbour is turned about y (m13, m14) and drawn as a 3D matrix.
    assert attrs[0]["transform"] == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1]
    assert by_item[0]["transform"].startswith("matrix3d(")
    assert attrs[1]["transform"][2] > 0.1 and attrs[1]["transform"][3] < 0, attrs[1]
    assert by_item[1]["transform"].startswith("matrix3d("), by_item[1]
    # Held still between cards 0 and 1: both turned, toward each other.
    chain = ActionChains(page.d, duration=200)
    chain.move_to_element_with_offset(page.viewport, 150, 0).click_and_hold().move_by_offset(-115, 0).perform()
    page.wait_synced()
    snap = page.assert_matches_daemon()
    attrs = {a["item"]: a for a in snap["attributes"]}
    assert attrs[0]["transform"][2] < -0.1 and attrs[1]["transform"][2] > 0.1, attrs
    ActionChains(page.d).pause(0.1).release().perform()
    page.wait_idle()
    # A steeper tilt in a closer perspective.
    page.set_control("maxAngle", 70)
    page.set_control("perspective", 400)
    snap = page.assert_matches_daemon()
    attrs = {a["item"]: a for a in snap["attributes"]}
    assert attrs[0]["transform"][11] == -1 / 400, attrs[0]  # m34 = -1/perspective
    assert all(a["transform"][11] < 0 for a in snap["attributes"]), snap["attributes"]
    # Off again: no rotation, no perspective.
    page.set_control("tilt", False)
    snap = page.assert_matches_daemon()
    assert all(a.get("transform", IDENTITY)[11] == 0 for a in snap["attributes"])


def test_loop_wraps_round_with_an_element_per_lap(page):
    page.set_control("decelerationRate", "fast")  # short settles
    page.set_control("loop", True)
    assert page.centred() == 0
    assert page.js("return window.flowlayout.centeredItem()") == {"section": 0, "item": 0, "lap": 0}
    start = page.offset()  # card 0 of lap 0 at the centre
    snap = page.assert_matches_daemon()
    assert {c["lap"] for c in snap["cards"]} <= {-1, 0}
    # Drag back from the start (the finger moves right): no rubber band, the
    # offset goes where the finger takes it, and lap -1's last card, card 9,
    # comes in from the left.
    chain = ActionChains(page.d, duration=200)
    chain.move_to_element_with_offset(page.viewport, -150, 0).click_and_hold().move_by_offset(250, 0).perform()
    page.wait_synced()
    assert page.offset() == start - 250
    snap = page.assert_matches_daemon()
    last = [c for c in snap["cards"] if c["item"] == 9]
    assert [c["lap"] for c in last] == [-1], snap["cards"]
    assert last[0]["label"] == "9" and last[0]["id"].endswith("@lap-1"), last[0]
    found = page.js_async(
        "window.flowlayout.request('layout/attributesForItem',"
        " {session: window.flowlayout.session, section: 0, item: 9, lap: -1})"
        ".then((r) => done(r.attributes), (e) => done({error: String(e)}));"
    )
    assert found in snap["attributes"], found
    ActionChains(page.d).pause(0.1).release().perform()
    page.wait_idle()
    # The centred index wrapped: card 9 of lap -1, one pitch before card 0.
    assert page.js("return window.flowlayout.centeredItem()") == {"section": 0, "item": 9, "lap": -1}
    assert page.offset() == start - PITCH
    assert page.js("return document.getElementById('centred').textContent") == "9"
    assert page.js("return document.getElementById('lap').textContent") == "\u22121"
    centred = page.js("return document.querySelector('.card.centred').dataset")
    assert (centred["item"], centred["lap"]) == ("9", "-1"), centred
    page.assert_matches_daemon()
    # Forward across the seam with the wheel: card 0 of lap 0 again.
    ActionChains(page.d).scroll_from_origin(ScrollOrigin.from_element(page.viewport), PITCH + 20, 0).perform()
    page.wait_idle()
    assert page.js("return window.flowlayout.centeredItem()") == {"section": 0, "item": 0, "lap": 0}
    assert page.offset() == start
    page.assert_matches_daemon()
    # One card: three copies of it at once, each an element of its own.
    page.set_control("count", 1)
    snap = page.assert_matches_daemon()
    assert [(c["item"], c["label"]) for c in snap["cards"]] == [(0, "0")] * 3, snap["cards"]
    laps = sorted(c["lap"] for c in snap["cards"])
    assert laps == list(range(laps[0], laps[0] + 3)), laps

def test_screenshot_of_the_cover_flow(page):
    for name, value in SHOWCASE.items():
        page.set_control(name, value)
    page.set_control("count", 12)
    page.drag(-3 * SHOWCASE["itemWidth"], start=320)  # to card 3, at rest
    page.wait_idle()
    assert page.centred() == 3
    snap = page.assert_matches_daemon()
    cards = {c["item"]: c for c in snap["cards"]}
    # Cover flow: the centred card is the largest, in front, and overlaps
    # both neighbours, which are smaller and behind it.
    centre, left, right = cards[3], cards[2], cards[4]
    assert centre["box"]["width"] > left["box"]["width"] > cards[1]["box"]["width"]
    assert int(centre["zIndex"]) > int(left["zIndex"]) and int(centre["zIndex"]) > int(right["zIndex"])
    assert left["box"]["x"] + left["box"]["width"] > centre["box"]["x"]
    assert right["box"]["x"] < centre["box"]["x"] + centre["box"]["width"]
    artifacts = REPO / "artifacts"
    artifacts.mkdir(exist_ok=True)
    shot = artifacts / "web-client.png"
    assert page.d.save_screenshot(str(shot)), "no screenshot"
    docs = REPO / "docs"
    docs.mkdir(exist_ok=True)
    shutil.copyfile(shot, docs / "web-client.png")


# MARK: the vertical layouts: the flow grid and the waterfall

#: The seed viewport, and the waterfall's default gaps (the page's controls).
VIEWPORT = (375, 300)
GAP = 10


def pick_layout(page: Page, layout: str) -> None:
    """Clicks the picker's label for `layout`, as a user would, and lets
    the session re-open with it."""
    radio = page.d.find_element(By.CSS_SELECTOR, f"#picker input[value='{layout}']")
    radio.find_element(By.XPATH, "..").click()
    page.wait_idle()
    assert page.js("return window.flowlayout.config().layout") == layout
    assert radio.is_selected()


def column_width(columns: int, width: float = VIEWPORT[0], gap: float = GAP) -> float:
    """protocol.md's waterfall rule 2 without insets or a pixel grid."""
    return (width - (columns - 1) * gap) / columns


def assert_columns(snap: dict, columns: int, width: float = VIEWPORT[0]) -> None:
    """Every card is a column wide and stands in one of `columns` columns
    (the DOM's boxes, which assert_matches_daemon found to be the daemon's
    frames)."""
    w = column_width(columns, width)
    lefts = {i * (w + GAP) for i in range(columns)}
    for c in snap["cards"]:
        assert abs(c["box"]["width"] - w) <= 0.5, (columns, c)
        assert any(abs(c["box"]["x"] - x) <= 0.5 for x in lefts), (columns, lefts, c)


def vertical_drag(page: Page, dy: int, pause: float = 0.3, move_ms: int = 250) -> None:
    """Presses 100 px below the viewport's centre, moves by `dy` over
    `move_ms`, rests `pause` s, and lifts."""
    chain = ActionChains(page.d, duration=move_ms)
    chain.move_to_element_with_offset(page.viewport, 0, 100).click_and_hold().move_by_offset(0, dy)
    if pause:
        chain.pause(pause)
    chain.release().perform()


def opened_layout(page: Page) -> dict:
    """The params of the one layout/open the page sent since record_rpc."""
    opens = [e["request"]["params"] for e in page.sent() if e["request"]["method"] == "layout/open"]
    assert len(opens) == 1, [e["request"]["method"] for e in page.sent()]
    return opens[0]


def test_the_waterfall_is_drawn_as_the_daemon_says(page):
    page.set_control("count", 40)
    page.record_rpc()
    pick_layout(page, "waterfall")
    # A waterfall session, opened with one size per card: varied heights.
    params = opened_layout(page)
    assert params["layout"]["type"] == "waterfall" and params["layout"]["columnCount"] == 2
    sizes = params["sections"][0]["itemSizes"]
    assert len(sizes) == 40 and len({s["height"] for s in sizes}) > 10, sizes
    assert page.js("return document.getElementById('layout-name').textContent") == "waterfall"
    # Only the waterfall's controls (and the shared ones) are shown.
    shown = page.js(
        "return [...document.querySelectorAll('#controls fieldset')]"
        ".filter((f) => f.offsetParent !== null).map((f) => f.querySelector('legend').textContent)"
    )
    assert shown == ["Data", "Waterfall", "Viewport"], shown
    # At the top, as every card before it was centred (card 0).
    assert page.js("return window.flowlayout.offset()") == {"x": 0, "y": 0}
    snap = page.assert_matches_daemon()
    assert_columns(snap, 2)
    # Cards of the varied aspect ratios, each as tall as its ratio makes it
    # at the column's width.
    w = column_width(2)
    by_item = {c["item"]: c for c in snap["cards"]}
    for item, c in by_item.items():
        assert math.isclose(c["box"]["height"], sizes[item]["height"] * w / sizes[item]["width"],
                            abs_tol=0.5), (item, c)
    assert len({round(c["box"]["height"]) for c in snap["cards"]}) > 1, snap["cards"]

    # The wheel scrolls vertically; the release scrolls freely (no snap).
    ActionChains(page.d).scroll_from_origin(ScrollOrigin.from_element(page.viewport), 0, 400).perform()
    page.wait_idle()
    release = page.js("return window.flowlayout.lastRelease()")
    assert release["input"] == "wheel" and release["axis"] == "y", release
    assert release["contentOffset"] == 400 and release["target"] == 400 and release["policy"] == "free"
    assert page.js("return window.flowlayout.offset()") == {"x": 0, "y": 400}
    assert page.js("return document.getElementById('offset').textContent") == "y 400"
    snap = page.assert_matches_daemon()
    assert snap["bounds"]["y"] == 400
    assert_columns(snap, 2)

    # Held still mid-drag: the picture is the daemon's for that offset.
    chain = ActionChains(page.d, duration=200)
    chain.move_to_element_with_offset(page.viewport, 0, 100).click_and_hold().move_by_offset(0, -150).perform()
    page.wait_synced()
    assert page.offset() == 0 and page.js("return window.flowlayout.offset().y") == 550
    page.assert_matches_daemon()
    ActionChains(page.d).pause(0.2).release().perform()
    page.wait_idle()
    assert page.js("return window.flowlayout.offset().y") == 550  # rested: no velocity, no motion

    # A fling glides on along the daemon's trajectory, one setBounds a
    # frame, and stops within the content.
    page.record_rpc()
    vertical_drag(page, -150, pause=0, move_ms=50)
    page.wait_idle()
    fling = page.js("return window.flowlayout.lastRelease()")
    assert fling["velocity"] > 1 and fling["policy"] == "free", fling
    content = page.js("return document.getElementById('content').textContent")
    height = float(content.split("×")[1])
    assert fling["target"] == min(fling["projected"], height - VIEWPORT[1]), (fling, content)
    assert fling["target"] > 550 + 150, fling
    assert_follows_trajectory(page, fling, axis="y")
    assert page.js("return window.flowlayout.offset().y") == fling["target"]
    page.assert_matches_daemon()
    # Back up with the wheel, then dragged past the top: the offset
    # stretches (the rubber band) and the release brings it back to 0.
    ActionChains(page.d).scroll_from_origin(
        ScrollOrigin.from_element(page.viewport), 0, -round(fling["target"] - 100)).perform()
    page.wait_idle()
    assert abs(page.js("return window.flowlayout.offset().y") - 100) < 1
    vertical_drag(page, 250)
    page.wait_idle()
    stretched = page.js("return window.flowlayout.lastRelease()")
    assert -150 < stretched["contentOffset"] < 0 and stretched["target"] == 0, stretched
    assert page.js("return window.flowlayout.offset()") == {"x": 0, "y": 0}
    page.assert_matches_daemon()
    artifacts = REPO / "artifacts"
    artifacts.mkdir(exist_ok=True)
    assert page.d.save_screenshot(str(artifacts / "web-waterfall.png")), "no screenshot"


def test_waterfall_insert_and_delete(page):
    pick_layout(page, "waterfall")
    before = page.js("return window.flowlayout.cards()")
    assert len(before) == 10
    page.assert_matches_daemon()
    centred = page.centred()
    page.record_rpc()
    page.js("document.getElementById('insert').click()")
    page.wait_idle()
    # One performBatchUpdates inserting a card with its own size at the
    # centred index.
    batches = [e for e in page.sent() if e["request"]["method"] == "layout/performBatchUpdates"]
    assert len(batches) == 1, [e["request"]["method"] for e in page.sent()]
    updates = batches[0]["request"]["params"]["updates"]
    (insert,) = updates["insertItems"]
    assert insert["section"] == 0 and insert["item"] == centred and updates["itemCounts"] == [11]
    assert insert["size"]["width"] == 100 and 60 <= insert["size"]["height"] <= 180, insert
    assert not [e for e in page.sent() if e["request"]["method"] in ("layout/open", "layout/close")]
    after = page.js("return window.flowlayout.cards()")
    assert len(after) == 11 and after[:centred] == before[:centred] and after[centred + 1:] == before[centred:]
    assert page.js("return document.getElementById('cardcount').textContent") == "11"
    assert page.js("return document.querySelector(`#controls [name='count']`).value") == "11"
    snap = page.assert_matches_daemon()
    assert_columns(snap, 2)
    new_id = f"card-{after[centred]}"
    assert new_id in {c["id"] for c in snap["cards"]}, (new_id, snap["cards"])
    # Two more, then delete the centred card three times: the DOM follows.
    for _ in range(2):
        page.js("document.getElementById('insert').click()")
        page.wait_idle()
    assert len(page.js("return window.flowlayout.cards()")) == 13
    page.assert_matches_daemon()
    for n in (12, 11, 10):
        gone = f"card-{page.js('return window.flowlayout.cards()')[page.centred()]}"
        page.js("document.getElementById('delete').click()")
        page.wait_idle()
        assert len(page.js("return window.flowlayout.cards()")) == n
        assert page.js("return document.getElementById('cardcount').textContent") == str(n)
        assert page.js("return document.querySelector(`.card[data-id='${arguments[0]}']`)", gone) is None
        snap = page.assert_matches_daemon()
        assert_columns(snap, 2)
        assert len(snap["cards"]) >= 2


def test_the_column_count_reconfigures_the_waterfall(page):
    page.set_control("count", 30)
    pick_layout(page, "waterfall")
    assert_columns(page.assert_matches_daemon(), 2)
    for columns in (3, 5, 1, 4):
        page.record_rpc()
        page.set_control("columnCount", columns)
        # layout/configure with the column count alone; no re-open.
        methods = [e["request"]["method"] for e in page.sent()]
        assert "layout/open" not in methods and "layout/close" not in methods, methods
        configures = [e["request"]["params"] for e in page.sent()
                      if e["request"]["method"] == "layout/configure"]
        assert configures == [{"session": page.js("return window.flowlayout.session"),
                               "layout": {"columnCount": columns}}], configures
        snap = page.assert_matches_daemon()
        # The cards are as wide as the new columns.
        assert_columns(snap, columns)
        assert len({round(c["box"]["x"], 3) for c in snap["cards"]}) == columns, snap["cards"]
    # Scrolled down, the new column count still matches.
    ActionChains(page.d).scroll_from_origin(ScrollOrigin.from_element(page.viewport), 0, 300).perform()
    page.wait_idle()
    page.set_control("columnCount", 2)
    snap = page.assert_matches_daemon()
    assert_columns(snap, 2)
    # The daemon refuses 0 columns: its message is shown, the control and
    # the picture stay as they were.
    page.js(
        "const el = document.querySelector(`#controls [name='columnCount']`);"
        "el.value = '0'; el.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    page.wait_idle()
    assert page.js("return document.getElementById('error').hidden") is False
    assert "columnCount" in page.js("return document.getElementById('error').textContent")
    assert page.js("return document.querySelector(`#controls [name='columnCount']`).value") == "2"
    assert page.js("return window.flowlayout.config().columnCount") == 2
    assert_columns(page.assert_matches_daemon(), 2)
    # A wider viewport re-opens the session: wider columns.
    page.set_control("viewportWidth", 500)
    assert page.js("return document.getElementById('viewport').getBoundingClientRect().width") == 500
    assert_columns(page.assert_matches_daemon(), 2, width=500)


def test_the_flow_grid_is_drawn_as_the_daemon_says(page):
    page.set_control("count", 40)
    page.record_rpc()
    pick_layout(page, "flow")
    params = opened_layout(page)
    assert params["layout"]["type"] == "flow" and params["layout"]["scrollDirection"] == "vertical"
    assert params["layout"]["itemSize"] == {"width": 100, "height": 100}
    assert params["sections"] == [{"itemCount": 40}]
    assert page.js("return document.getElementById('layout-name').textContent") == "flow grid"
    snap = page.assert_matches_daemon()
    # 100×100 cells, three to a 375-point row, rows 110 apart.
    assert all(c["box"]["width"] == 100 and c["box"]["height"] == 100 for c in snap["cards"]), snap["cards"]
    assert {c["box"]["x"] for c in snap["cards"]} == {0, 137.5, 275}
    assert {c["box"]["y"] for c in snap["cards"]} == {0, 110, 220}
    # The wheel and a drag scroll it vertically.
    ActionChains(page.d).scroll_from_origin(ScrollOrigin.from_element(page.viewport), 0, 255).perform()
    page.wait_idle()
    assert page.js("return window.flowlayout.offset()") == {"x": 0, "y": 255}
    snap = page.assert_matches_daemon()
    assert {c["item"] for c in snap["cards"]} == set(range(6, 18)), snap["cards"]
    vertical_drag(page, -200)
    page.wait_idle()
    assert page.js("return window.flowlayout.offset().y") == 455
    page.assert_matches_daemon()
    # Insert and delete.
    page.js("document.getElementById('insert').click()")
    page.wait_idle()
    assert len(page.js("return window.flowlayout.cards()")) == 41
    page.assert_matches_daemon()
    page.js("document.getElementById('delete').click()")
    page.js("document.getElementById('delete').click()")
    page.wait_idle()
    assert len(page.js("return window.flowlayout.cards()")) == 39
    page.assert_matches_daemon()
    # The grid's item size is configured in place: four 80-point cards a row.
    page.record_rpc()
    page.set_control("gridItemWidth", 80)
    configures = [e["request"]["params"]["layout"] for e in page.sent()
                  if e["request"]["method"] == "layout/configure"]
    assert configures == [{"itemSize": {"width": 80, "height": 100}}], configures
    snap = page.assert_matches_daemon()
    assert {c["box"]["width"] for c in snap["cards"]} == {80}
    assert len({c["box"]["x"] for c in snap["cards"]}) == 4, snap["cards"]


def test_back_to_cover_flow_from_the_vertical_layouts(page):
    page.set_control("decelerationRate", "fast")
    page.drag(-250)
    page.wait_idle()
    assert page.centred() == 1
    pick_layout(page, "waterfall")
    page.assert_matches_daemon()
    pick_layout(page, "flow")
    page.assert_matches_daemon()
    pick_layout(page, "coverFlow")
    # The carousel again, as it was: fast rate kept, sideways, offset y 0.
    assert page.js("return window.flowlayout.config().decelerationRate") == "fast"
    assert page.js("return window.flowlayout.offset().y") == 0
    assert page.js("return document.getElementById('layout-name').textContent") == "cover flow"
    snap = page.assert_matches_daemon()
    assert any("transform" in a for a in snap["attributes"])  # scaled neighbours
    centred = page.centred()
    assert page.offset() == centred * PITCH
    page.drag(-250)
    page.wait_idle()
    assert page.centred() == centred + 1 and page.offset() == (centred + 1) * PITCH
    page.assert_matches_daemon()


# MARK: the App Store page (compositional)


def row_drag(page: Page, dx: int, y: int, pause: float = 0.0, move_ms: int = 200) -> None:
    """Presses `y` px below the viewport's centre, moves sideways by `dx`
    over `move_ms`, rests `pause` s, and lifts."""
    chain = ActionChains(page.d, duration=move_ms)
    chain.move_to_element_with_offset(page.viewport, 60, y).click_and_hold().move_by_offset(dx, 0)
    if pause:
        chain.pause(pause)
    chain.release().perform()


def test_the_app_store_page_draws_rows_headers_and_a_background_as_the_daemon_says(page):
    page.record_rpc()
    pick_layout(page, "compositional")
    params = opened_layout(page)
    assert params["layout"]["type"] == "compositional"
    behaviours = [s["layout"]["orthogonalScrollingBehavior"] for s in params["sections"]]
    assert behaviours == ["groupPagingCentered", "continuous", "continuousGroupLeadingBoundary", "paging",
                          "groupPaging", "none"]
    assert page.js("return document.getElementById('layout-name').textContent") == "App Store"
    snap = page.assert_matches_daemon()
    # The featured row starts with card 0 centred, drawn at full size; the
    # card beside it is scaled down (a scale in the plane) by its distance.
    featured = {a["item"]: a for a in snap["attributes"] if a["kind"] == "cell" and a["section"] == 0}
    assert featured[0]["center"]["x"] == VIEWPORT[0] / 2 and "transform" not in featured[0]
    t = featured[1]["transform"]
    assert 0.82 <= t[0] < 1 and t[0] == t[5] and t[1:5] == [0, 0, 0, 0]
    artifacts = REPO / ".build" / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    page.d.set_window_size(1100, 760)
    assert page.d.save_screenshot(str(artifacts / "web-app-store-top.png")), "no screenshot"
    # Down to the grid on its background: its pinned header at the top.
    for _ in range(4):
        vertical_drag(page, -260, pause=0.1)
        page.wait_idle()
    snap = page.assert_matches_daemon()
    kinds = {(a["kind"], a["section"]) for a in snap["attributes"]}
    assert ("decoration", 5) in kinds and ("header", 5) in kinds
    header = next(a for a in snap["attributes"] if a["kind"] == "header" and a["section"] == 5)
    assert header["zIndex"] == 1024
    background = next(c for c in snap["cards"] if c["kind"] == "decoration")
    cell = next(c for c in snap["cards"] if c["kind"] == "cell" and c["section"] == 5)
    assert int(background["zIndex"]) < int(cell["zIndex"])
    assert page.d.save_screenshot(str(artifacts / "web-app-store.png")), "no screenshot"


def test_a_row_is_dragged_and_flung_with_the_daemons_plan(page):
    pick_layout(page, "compositional")
    page.record_rpc()
    # A sideways fling on the featured row (34 … 184 from the top: 0 below
    # the centre is inside it) pages it one group along.
    row_drag(page, -90, 0, move_ms=120)
    page.wait_idle()
    log = page.sent()
    methods = [e["request"]["method"] for e in log]
    assert "layout/scrollSection" in methods and "layout/setBounds" not in methods, methods
    ends = [e for e in log if e["request"]["method"] == "layout/scrollEnded"]
    assert len(ends) == 1 and ends[0]["request"]["params"]["section"] == 0
    plan = ends[0]["answer"]["result"]
    assert plan["policy"] == "paging"
    samples = [p["x"] for p in plan["trajectory"]]
    # Every row frame after the release is a sample, in order, ending on
    # the target; the page shows the row there.
    after = log.index(ends[0])
    shown = [e["request"]["params"]["offset"] for e in log[after + 1:]
             if e["request"]["method"] == "layout/scrollSection"]
    assert shown and shown[-1] == samples[-1] == plan["targetContentOffset"]["x"], (shown, samples)
    assert [samples.index(x) for x in shown] == sorted(samples.index(x) for x in shown)
    rows = page.js("return window.flowlayout.rows()")
    assert rows["0"] == plan["targetContentOffset"]["x"] > 0
    # The target centres a group: its card is drawn unscaled at the centre.
    snap = page.assert_matches_daemon()
    target = plan["targetItem"]
    a = next(a for a in snap["attributes"] if a["kind"] == "cell" and a["section"] == 0 and a["item"] == target["item"])
    assert "transform" not in a and abs(a["center"]["x"] - VIEWPORT[0] / 2) <= 1e-9
    # A vertical drag over the row scrolls the page, not the row.
    page.record_rpc()
    vertical_drag(page, -120, pause=0.1)
    page.wait_idle()
    methods = [e["request"]["method"] for e in page.sent()]
    assert "layout/setBounds" in methods and "layout/scrollSection" not in methods
    assert page.js("return window.flowlayout.rows()")["0"] == rows["0"]
    page.assert_matches_daemon()


def test_an_insert_into_the_featured_row(page):
    pick_layout(page, "compositional")
    cards = page.js("return window.flowlayout.cards()")
    page.js("window.flowlayout.insertAtCentre()")
    page.wait_idle()
    assert len(page.js("return window.flowlayout.cards()")) == len(cards) + 1
    page.assert_matches_daemon()
    page.js("window.flowlayout.deleteAtCentre()")
    page.wait_idle()
    assert page.js("return window.flowlayout.cards()") == cards
    page.assert_matches_daemon()


# MARK: (l) the 3D carousel: iCarousel's styles


#: The page's carousel cards (its controls' defaults): 150 × 150.
CAROUSEL_ITEM = 150
#: How far Chromium's bounding box of a projected card may be from the
#: daemon's frame.
FRAME_TOLERANCE = 1.0


def carousel_styles(page: Page) -> list[str]:
    """capabilities.carouselStyles, as the bridge's /info reports it."""
    info = page.js_async("fetch('/info').then((r) => r.json()).then(done, (e) => done({error: String(e)}));")
    styles = info["capabilities"]["carouselStyles"]
    assert isinstance(styles, list) and len(styles) == 10, styles
    return styles


def carousel_pitch(layout: dict) -> float:
    """protocol.md: pitch = w / offsetMultiplier, w the item extent along
    the scroll axis (every card is the same size here); offsetMultiplier
    is 2 for the coverFlow style, else 1."""
    side = "height" if layout.get("scrollDirection") == "vertical" else "width"
    multiplier = layout.get("offsetMultiplier", 2 if layout["style"] == "coverFlow" else 1)
    return layout["itemSize"][side] / multiplier


def open_carousel(page: Page) -> dict:
    """Picks the 3D carousel in the layout picker; returns the layout
    object of the layout/open the page sent."""
    page.record_rpc()
    pick_layout(page, "carousel")
    layout = opened_layout(page)["layout"]
    assert layout["type"] == "carousel", layout
    return layout


def set_carousel_control(page: Page, name: str, value: Any) -> dict:
    """Sets a control of the open carousel; returns the layout object the
    page re-opened the session with."""
    page.record_rpc()
    page.set_control(name, value)
    layout = opened_layout(page)["layout"]
    assert layout["type"] == "carousel", layout
    return layout


def assert_carousel_drawn(page: Page, layout: dict, relative_tolerance: float = 0.0) -> dict:
    """The DOM is the daemon's (assert_matches_daemon, boxes within 1 px),
    and every card is laid out as a carousel's: its own untransformed size,
    its centre at the bounds' centre (`center` minus the bounds' origin),
    turned about its centre."""
    snap = page.assert_matches_daemon(box_tolerance=FRAME_TOLERANCE, relative_tolerance=relative_tolerance)
    bounds = snap["bounds"]
    by_key = {(a["item"], a.get("lap")): a for a in snap["attributes"]}
    for c in snap["cards"]:
        a = by_key[(c["item"], c["lap"])]
        where = f"{layout['style']}: item {a['item']} lap {a.get('lap')} at {bounds}"
        centre = {"x": bounds["x"] + bounds["width"] / 2, "y": bounds["y"] + bounds["height"] / 2}
        assert a["center"] == centre, where
        assert "hidden" not in a, where
        assert (c["width"], c["height"]) == (a["size"]["width"], a["size"]["height"]), where
        assert abs(c["left"] + c["width"] / 2 - (a["center"]["x"] - bounds["x"])) < 1e-3, where
        assert abs(c["top"] + c["height"] / 2 - (a["center"]["y"] - bounds["y"])) < 1e-3, where
        origin = [float(v.rstrip("px")) for v in c["transformOrigin"].split()]
        assert origin[:2] == [c["width"] / 2, c["height"] / 2] and not any(origin[2:]), (where, origin)
        assert c["transform"].startswith("matrix3d("), (where, c["transform"])
    return snap


def assert_rests_on_an_item(page: Page, layout: dict, released: bool = False) -> int:
    """At rest the scroll position in items is whole: the offset over the
    pitch is an integer; `released`: the offset is the last release's
    targetContentOffset. Returns it."""
    axis = "y" if layout.get("scrollDirection") == "vertical" else "x"
    offset = page.js("return window.flowlayout.offset()")
    assert offset["y" if axis == "x" else "x"] == 0, offset
    u = offset[axis] / carousel_pitch(layout)
    assert abs(u - round(u)) < 1e-9, (layout["style"], offset, u)
    if released:
        release = page.js("return window.flowlayout.lastRelease()")
        assert release["target"] == offset[axis], (release, offset)
    return round(u)


def hold_mid_drag(page: Page, d: int, axis: str = "x") -> None:
    """Presses in the viewport, moves by `d` along `axis` and holds still
    until the picture is the daemon's for that offset."""
    chain = ActionChains(page.d, duration=200)
    if axis == "x":
        chain.move_to_element_with_offset(page.viewport, 100 if d < 0 else -100, 0).click_and_hold()
        chain.move_by_offset(d, 0)
    else:
        chain.move_to_element_with_offset(page.viewport, 0, 100 if d < 0 else -100).click_and_hold()
        chain.move_by_offset(0, d)
    chain.perform()
    page.wait_synced()


def release(page: Page) -> None:
    ActionChains(page.d).pause(0.1).release().perform()
    page.wait_idle()


def test_the_carousel_style_picker_is_the_daemons(page):
    styles = carousel_styles(page)
    # The page's style picker is the daemon's list, in its order.
    assert page.js("return window.flowlayout.carouselStyles()") == styles
    labels = page.js("return [...document.querySelectorAll(`#controls [name='carouselStyle'] option`)]"
                     ".map((o) => o.textContent)")
    assert labels[styles.index("invertedRotary")] == "inverted rotary", labels
    radio = "#picker input[value='carousel']"
    assert page.js(f"return document.querySelector(`{radio}`).closest('label').hidden") is False
    layout = open_carousel(page)
    # Only what the controls set goes out (and the page's drag-to-reorder
    # fields); the style's defaults (spacing, wrap, radius, count, …) are
    # the daemon's.
    assert layout == {
        "type": "carousel", "style": "rotary", "scrollDirection": "horizontal",
        "itemSize": {"width": CAROUSEL_ITEM, "height": CAROUSEL_ITEM}, "perspective": 500,
        "snap": {"policy": "nearest", "decelerationRate": "normal"},
        "reorderTargeting": "nearest", "allowsCrossSectionReordering": False,
    }, layout
    assert page.js("return document.getElementById('layout-name').textContent") == "3D carousel \u00b7 rotary"
    shown = page.js(
        "return [...document.querySelectorAll('#controls fieldset')]"
        ".filter((f) => f.offsetParent !== null).map((f) => f.querySelector('legend').textContent)"
    )
    assert shown == ["Data", "Carousel", "Card", "Scrolling", "Viewport"], shown
    assert page.js("return document.querySelector(`#controls [name='loop']`).offsetParent") is None
    # The rotary wraps by default: laps, and the offset is unbounded.
    assert page.js("return window.flowlayout.wraps()") is True
    assert page.js("return window.flowlayout.centeredItem()") == {"section": 0, "item": 0, "lap": 0}
    snap = assert_carousel_drawn(page, layout)
    assert {c["lap"] for c in snap["cards"]} == {-1, 0}, snap["cards"]
    # The settings go out; an empty spacing is the style's again.
    layout = set_carousel_control(page, "carouselSpacing", 1.5)
    assert layout["spacing"] == 1.5
    assert_carousel_drawn(page, layout)
    layout = set_carousel_control(page, "carouselWrap", "off")
    assert layout["wrap"] is False and page.js("return window.flowlayout.wraps()") is False
    assert page.js("return window.flowlayout.centeredItem()") == {"section": 0, "item": 0}
    assert_carousel_drawn(page, layout)
    page.record_rpc()
    page.js(
        "const el = document.querySelector(`#controls [name='carouselSpacing']`);"
        "el.value = ''; el.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    page.wait_idle()
    layout = opened_layout(page)["layout"]
    assert "spacing" not in layout and "wrap" in layout, layout
    assert page.js("return document.querySelector(`#controls [name='carouselSpacing']`).value") == ""
    # A value the daemon refuses is shown and put back.
    page.js(
        "const el = document.querySelector(`#controls [name='carouselPerspective']`);"
        "el.value = '0'; el.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    page.wait_idle()
    assert "perspective" in page.js("return document.getElementById('error').textContent")
    assert page.js("return window.flowlayout.config().carouselPerspective") == 500
    assert_carousel_drawn(page, {**layout, "perspective": 500})


def test_every_carousel_style_is_drawn_as_the_daemon_says(page):
    page.set_control("decelerationRate", "fast")  # short settles
    layout = open_carousel(page)
    for style in carousel_styles(page):
        if layout["style"] != style:
            layout = set_carousel_control(page, "carouselStyle", style)
        assert layout["style"] == style
        label = re.sub(r"([a-z])([A-Z])", r"\1 \2", style).lower()  # "inverted rotary"
        name = page.js("return document.getElementById('layout-name').textContent")
        assert name == f"3D carousel \u00b7 {label}", name
        start = assert_rests_on_an_item(page, layout)
        assert_carousel_drawn(page, layout)
        # Held between two items: every card turned, faded and stacked as
        # the daemon says for a fractional scroll position.
        offset = page.offset()
        hold_mid_drag(page, -70)
        assert page.offset() == offset + 70
        assert_carousel_drawn(page, layout)
        release(page)
        # Rested (no velocity) on the nearest whole item.
        rested = assert_rests_on_an_item(page, layout, released=True)
        assert rested == start + round(70 / carousel_pitch(layout)), (style, rested)
        assert_carousel_drawn(page, layout)
        if style == "invertedCylinder":
            # It hides its backfaces: attributesForItem says which are
            # hidden, and none of them is drawn.
            hidden = page.js_async(
                """
                const fl = window.flowlayout;
                Promise.all(fl.cards().map((_, item) => fl.request('layout/attributesForItem',
                    {session: fl.session, section: 0, item, lap: 0})))
                  .then((rs) => done(rs.map((r) => r.attributes).filter((a) => a.hidden)),
                        (e) => done({error: String(e)}));
                """
            )
            assert hidden, "no hidden card"
            drawn = page.js("return [...document.querySelectorAll('#viewport .card')]"
                            ".map((el) => [Number(el.dataset.item), Number(el.dataset.lap)])")
            assert not {(a["item"], 0) for a in hidden} & set(map(tuple, drawn)), (hidden, drawn)
            assert all(a["transform"][10] <= 0 for a in hidden), hidden  # m33: facing away


def test_vertical_carousels_scroll_and_draw_as_the_daemon_says(page):
    page.set_control("decelerationRate", "fast")
    open_carousel(page)
    layout = set_carousel_control(page, "carouselDirection", "vertical")
    assert layout["scrollDirection"] == "vertical"
    assert page.js("return window.flowlayout.axis()") == "y"
    assert page.js("return document.getElementById('viewport').dataset.axis") == "y"
    for style in ("rotary", "cylinder", "wheel", "coverFlow", "invertedTimeMachine"):
        if layout["style"] != style:
            layout = set_carousel_control(page, "carouselStyle", style)
        assert layout["scrollDirection"] == "vertical"
        start = assert_rests_on_an_item(page, layout)
        assert_carousel_drawn(page, layout)
        # A vertical drag moves the offset along y only.
        offset = page.js("return window.flowlayout.offset()")
        hold_mid_drag(page, -60, axis="y")
        assert page.js("return window.flowlayout.offset()") == {"x": 0, "y": offset["y"] + 60}
        assert_carousel_drawn(page, layout)
        release(page)
        rested = assert_rests_on_an_item(page, layout, released=True)
        assert rested == start + round(60 / carousel_pitch(layout)), (style, rested)
        assert_carousel_drawn(page, layout)
    # The wheel scrolls it vertically too, then it snaps.
    before = assert_rests_on_an_item(page, layout)
    ActionChains(page.d).scroll_from_origin(ScrollOrigin.from_element(page.viewport), 0, 200).perform()
    page.wait_idle()
    wheel = page.js("return window.flowlayout.lastRelease()")
    assert wheel["input"] == "wheel" and wheel["axis"] == "y", wheel
    assert assert_rests_on_an_item(page, layout, released=True) != before
    assert_carousel_drawn(page, layout)


def test_a_wrapped_carousel_scrolls_round_through_its_laps(page):
    page.set_control("decelerationRate", "fast")
    layout = open_carousel(page)
    pitch = carousel_pitch(layout)
    assert layout["style"] == "rotary" and "wrap" not in layout  # the style's: wrap
    # Back from the start (the finger moves right): no rubber band, the
    # offset goes negative and lap -1's cards come round.
    hold_mid_drag(page, 250)
    assert page.offset() == -250
    snap = assert_carousel_drawn(page, layout)
    assert -1 in {c["lap"] for c in snap["cards"]}, snap["cards"]
    release(page)
    assert assert_rests_on_an_item(page, layout, released=True) == -2
    assert page.js("return window.flowlayout.centeredItem()") == {"section": 0, "item": 8, "lap": -1}
    assert page.js("return document.getElementById('centred').textContent") == "8"
    assert page.js("return document.getElementById('lap').textContent") == "\u22121"
    centred = page.js("return document.querySelector('.card.centred').dataset")
    assert (centred["item"], centred["lap"]) == ("8", "-1"), centred
    assert_carousel_drawn(page, layout)
    # Forward with the wheel by more than a whole period (10 items): past
    # lap 0 into lap 1.
    ActionChains(page.d).scroll_from_origin(
        ScrollOrigin.from_element(page.viewport), round(13 * pitch + 20), 0).perform()
    page.wait_idle()
    assert assert_rests_on_an_item(page, layout, released=True) == 11
    assert page.js("return window.flowlayout.centeredItem()") == {"section": 0, "item": 1, "lap": 1}
    snap = assert_carousel_drawn(page, layout)
    assert {c["lap"] for c in snap["cards"]} >= {0, 1}, snap["cards"]
    # Held between items there, a cylinder (which wraps too) and a wheel.
    for style in ("cylinder", "invertedWheel"):
        layout = set_carousel_control(page, "carouselStyle", style)
        assert page.js("return window.flowlayout.centeredItem()")["lap"] == 1
        hold_mid_drag(page, 40)
        snap = assert_carousel_drawn(page, layout)
        release(page)
        assert_carousel_drawn(page, layout)
    # Wrap turned off: the offset has a range again, a drag back from the
    # first item bands and comes back to it.
    layout = set_carousel_control(page, "carouselWrap", "off")
    assert page.js("return window.flowlayout.wraps()") is False
    ActionChains(page.d).scroll_from_origin(
        ScrollOrigin.from_element(page.viewport), -round(20 * pitch), 0).perform()
    page.wait_idle()
    assert page.offset() == 0
    hold_mid_drag(page, 200)
    assert -200 < page.offset() < 0  # the rubber band
    assert_carousel_drawn(page, layout)
    release(page)
    assert page.offset() == 0
    assert_carousel_drawn(page, layout)


def test_a_rotary_release_snaps_to_a_whole_item(page):
    page.set_control("decelerationRate", "fast")  # shorter settles; the snap is the same
    layout = open_carousel(page)
    assert layout["style"] == "rotary"
    pitch = carousel_pitch(layout)
    # A slow drag, rested before lifting: the nearest item.
    page.record_rpc()
    page.drag(-200, start=100)
    page.wait_idle()
    rest = page.js("return window.flowlayout.lastRelease()")
    assert rest["velocity"] == 0 and rest["contentOffset"] == 200, rest
    assert rest["target"] == pitch and rest["targetItem"] == {"section": 0, "item": 1, "lap": 0}, rest
    assert_follows_trajectory(page, rest)
    assert assert_rests_on_an_item(page, layout, released=True) == 1
    assert page.centred() == 1
    assert_carousel_drawn(page, layout)
    # A fling: further, still on a whole item, along the daemon's
    # trajectory, one setBounds a frame.
    page.record_rpc()
    page.drag(-150, pause=0, move_ms=50, start=100)
    page.wait_idle()
    fling = page.js("return window.flowlayout.lastRelease()")
    assert fling["velocity"] > 1, fling
    u = fling["target"] / pitch
    assert u == round(u) and u > 2, fling
    assert fling["targetItem"]["item"] == round(u) % 10, fling
    assert_follows_trajectory(page, fling)
    assert assert_rests_on_an_item(page, layout, released=True) == round(u)
    assert page.centred() == round(u) % 10
    assert_carousel_drawn(page, layout)
    # Paging: a fling less than an item long goes one item on, from where
    # it was released (protocol.md: ⌊f(o)⌋ + 1).
    layout = set_carousel_control(page, "snapPolicy", "paging")
    assert layout["snap"]["policy"] == "paging"
    before = assert_rests_on_an_item(page, layout)
    page.drag(-100, pause=0, move_ms=50, start=100)
    page.wait_idle()
    paged = page.js("return window.flowlayout.lastRelease()")
    assert paged["policy"] == "paging" and paged["velocity"] > 0.3, paged
    assert before * pitch < paged["contentOffset"] < (before + 1) * pitch, paged
    assert assert_rests_on_an_item(page, layout, released=True) == before + 1
    assert_carousel_drawn(page, layout)


def test_carousel_insert_and_delete_at_the_centre(page):
    page.set_control("decelerationRate", "fast")
    layout = open_carousel(page)
    page.drag(-300, start=100)
    page.wait_idle()
    assert page.centred() == 2
    before = page.js("return window.flowlayout.cards()")
    page.record_rpc()
    page.js("document.getElementById('insert').click()")
    page.wait_idle()
    methods = [e["request"]["method"] for e in page.sent()]
    assert "layout/performBatchUpdates" in methods and "layout/open" not in methods, methods
    after = page.js("return window.flowlayout.cards()")
    assert len(after) == 11 and after[:2] == before[:2] and after[3:] == before[2:]
    # The new card is centred, and every card drawn as the daemon says.
    assert page.centred() == 2 and assert_rests_on_an_item(page, layout) == 2
    snap = assert_carousel_drawn(page, layout)
    assert f"card-{after[2]}@lap0" in {c["id"] for c in snap["cards"]}, snap["cards"]
    page.js("document.getElementById('delete').click()")
    page.wait_idle()
    assert page.js("return window.flowlayout.cards()") == before
    assert page.centred() == 2
    assert_carousel_drawn(page, layout)


def move_held(page: Page, offset: int) -> None:
    """With the pointer still held (hold_mid_drag), drags on to `offset`
    along x and holds still until the picture is the daemon's for it."""
    ActionChains(page.d, duration=100).move_by_offset(round(page.offset() - offset), 0).perform()
    page.wait_synced()
    assert page.offset() == offset


def frame_of(snap: dict, item: int) -> dict:
    (a,) = [a for a in snap["attributes"] if a["item"] == item]
    return a["frame"]


def test_carousel_cards_near_the_eye(page):
    """In a close perspective, cards come at the eye: one with a corner at
    or behind it is hidden (never drawn); just short of it a card's frame
    is thousands of points wide and Chromium's bounding box still matches,
    to 1 px while the nearest corner's w is not tiny, and to 0.1% of its
    extent when it is (Chromium's float precision: 21 px on a card 37,806
    px wide)."""
    page.set_control("decelerationRate", "fast")
    open_carousel(page)
    layout = set_carousel_control(page, "carouselStyle", "invertedCylinder")
    layout = set_carousel_control(page, "carouselPerspective", 150)
    assert page.offset() == 0
    # At 80 points, card 2 faces the viewer but a corner is behind the eye:
    # the daemon hides it and the page draws no element for it.
    hold_mid_drag(page, -80)
    assert page.offset() == 80
    snap = assert_carousel_drawn(page, layout)
    assert {c["item"] for c in snap["cards"]} == {0, 1}, snap["cards"]
    hidden = page.js_async(
        "window.flowlayout.request('layout/attributesForItem', {session: window.flowlayout.session,"
        " section: 0, item: 2, lap: 0}).then((r) => done(r.attributes), (e) => done({error: String(e)}));"
    )
    assert hidden["hidden"] is True and hidden["transform"][10] > 0, hidden  # not a backface
    # A little further it is in front of the eye again, and huge.
    move_held(page, 90)
    snap = assert_carousel_drawn(page, layout)
    assert {c["item"] for c in snap["cards"]} == {0, 1, 2}, snap["cards"]
    assert frame_of(snap, 2)["width"] > 3000, frame_of(snap, 2)
    move_held(page, 82)
    snap = assert_carousel_drawn(page, layout, relative_tolerance=1e-3)
    assert frame_of(snap, 2)["width"] > 30000, frame_of(snap, 2)
    release(page)
    start = page.offset()
    assert start == carousel_pitch(layout)  # card 1
    # A time machine's card coming at the eye: 22,500 px wide, nearly
    # transparent, still within 1 px.
    layout = set_carousel_control(page, "carouselStyle", "timeMachine")
    assert page.offset() == start
    hold_mid_drag(page, -1)
    assert page.offset() == start + 1
    snap = assert_carousel_drawn(page, layout)
    near = next(a for a in snap["attributes"] if a["item"] == 2)
    assert near["frame"]["width"] > 20000 and 0 < near["alpha"] < 0.01, near
    release(page)
    assert page.offset() == start


def test_screenshot_of_the_carousel(page):
    page.set_control("viewportWidth", 700)
    page.set_control("viewportHeight", 360)
    page.set_control("count", 12)
    layout = open_carousel(page)
    layout = set_carousel_control(page, "carouselStyle", "cylinder")
    hold_mid_drag(page, -40)
    assert_carousel_drawn(page, layout)
    artifacts = REPO / "artifacts"
    artifacts.mkdir(exist_ok=True)
    assert page.d.save_screenshot(str(artifacts / "web-carousel.png")), "no screenshot"
    release(page)


# MARK: (k) the installed package's page


def test_the_installed_package_serves_a_working_page(browser, installed_flowlayout, tmp_path):
    from install_support import web_files

    installed = installed_flowlayout
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    b = WebBridge(command=[str(installed.flowlayout), "web", "--port", "0"],
                  env=installed.env("path", tmp_path / "bin"), cwd=str(elsewhere))
    try:
        assert f"page from {installed.package / 'web'}" in b.first_line, b.first_line
        load(browser, b.url + TEST_STATE)
        page = Page(browser)
        page.wait("the page to open its session", lambda: page.js("return !!window.flowlayout"))
        page.wait_idle()
        assert page.js("return document.getElementById('error').textContent") == ""
        assert page.centred() == 0
        assert page.js("return document.getElementById('centred').textContent") == "0"
        assert page.js("return window.flowlayout.cards().length") == 10
        snap = page.assert_matches_daemon()
        assert len(snap["cards"]) == 2  # card 0 and, scaled, card 1
        # A page that imports the JS client module got it from the bridge's /js/.
        if any(b"/js/" in p.read_bytes() for p in web_files()):
            assert f"/js/ from {installed.package / 'js'}" in b.first_line, b.first_line
            loaded = page.js(
                "return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
            )
            assert any(p.startswith("/js/") for p in loaded), loaded
        page.drag(-250)
        page.wait_idle()
        assert page.centred() == 1
        page.assert_matches_daemon()
    finally:
        code, rest = b.stop()
    assert code == 0 and "flowlayoutd exited with status 0" in rest, rest


# MARK: (m) the pager: FSPagerView's transformers


def pager_transformers(page: Page) -> list[str]:
    """capabilities.pagerTransformers, as the bridge's /info reports it."""
    info = page.js_async("fetch('/info').then((r) => r.json()).then(done, (e) => done({error: String(e)}));")
    names = info["capabilities"]["pagerTransformers"]
    assert isinstance(names, list) and len(names) == 9, names
    return names


def test_every_pager_transformer_is_drawn_as_the_daemon_says(page):
    """The picker offers the daemon's transformers; in each, at rest, held
    between two pages and after the release, every page is drawn as the
    daemon says, and a release rests on a whole page (an offset that is a
    multiple of the pitch, protocol.md's rule G3)."""
    from pager_model import Config as PagerConfig, Model as PagerModel

    names = pager_transformers(page)
    page.record_rpc()
    pick_layout(page, "pager")
    layout = opened_layout(page)["layout"]
    assert layout["type"] == "pager" and "transformer" not in layout, layout
    assert page.js("return window.flowlayout.pagerTransformers()") == ["none"] + names
    for name in names:
        page.record_rpc()
        page.set_control("pagerTransformer", name)
        layout = opened_layout(page)["layout"]
        assert layout["transformer"] == name, layout
        label = re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower()
        assert page.js("return document.getElementById('layout-name').textContent") == f"pager \u00b7 {label}"
        size = (layout["itemSize"]["width"], layout["itemSize"]["height"])
        pitch = PagerModel(PagerConfig(item=size, transformer=name, spacing=layout["interitemSpacing"]), 1,
                           (0, 0, VIEWPORT[0], VIEWPORT[1])).s
        page.assert_matches_daemon(box_tolerance=FRAME_TOLERANCE)
        start = page.offset()
        hold_mid_drag(page, -70)
        assert page.offset() == start + 70
        page.assert_matches_daemon(box_tolerance=FRAME_TOLERANCE)
        release(page)
        u = page.offset() / pitch
        assert abs(u - round(u)) < 1e-9, (name, page.offset(), pitch)
        page.assert_matches_daemon(box_tolerance=FRAME_TOLERANCE)


def test_a_wrapped_pager_scrolls_round_through_its_laps(page):
    page.record_rpc()
    pick_layout(page, "pager")
    page.set_control("pagerTransformer", "ferrisWheel")
    page.record_rpc()
    page.set_control("pagerWrap", "on")
    assert opened_layout(page)["layout"]["wrap"] is True
    assert page.js("return window.flowlayout.wraps()") is True
    # Dragged back from page 0: the previous lap's last pages come into view.
    hold_mid_drag(page, 150)
    laps = page.js("return window.flowlayout.picture().map((a) => a.lap)")
    assert -1 in laps and 0 in laps, laps
    page.assert_matches_daemon(box_tolerance=FRAME_TOLERANCE)
    release(page)
    page.assert_matches_daemon(box_tolerance=FRAME_TOLERANCE)


# -- the list and chat pages: snapshots keyed by id (issue 26) ----------------------

#: The list and chat rows: 44 tall, 6 apart, 8 of inset above: row k at 8 + 50k.
ROW = 50


def assert_keyed_by_id(page: Page) -> dict:
    """The page draws the daemon's picture, and every row's element is the
    one of its id (the daemon's `id`, not its index)."""
    snap = page.assert_matches_daemon()
    ids = {(a["section"], a["item"]): a["id"] for a in snap["attributes"] if a["kind"] == "cell"}
    for c in snap["cards"]:
        if c["kind"] == "cell":
            assert c["id"] == f"card-{ids[(c['section'], c['item'])]}", (c, ids)
    return snap


def test_the_list_page_changes_by_snapshots_and_keeps_each_rows_element(page):
    page.set_control("viewportWidth", 375)
    page.set_control("viewportHeight", 300)
    page.set_control("count", 12)
    page.record_rpc()
    pick_layout(page, "list")
    opened = opened_layout(page)
    cards = page.js("return window.flowlayout.cards()")
    assert opened["sections"] == [{"id": "rows", "itemCount": 12, "ids": cards}]
    assert opened["layout"]["itemSize"] == {"width": 351, "height": 44}
    snap = assert_keyed_by_id(page)
    assert [c["box"]["y"] for c in sorted(snap["cards"], key=lambda c: c["item"])][:3] == [8, 8 + ROW, 8 + 2 * ROW]

    # Move to top: the third row fully in view goes first, one move, and its
    # element is the one that was drawn for it (found by id, not rebuilt).
    moving = cards[2]
    page.js(f"document.querySelector(\"[data-id='card-{moving}']\").dataset.mark = 'kept'")
    page.record_rpc()
    page.js("document.getElementById('list-move').click()")
    page.wait_idle()
    sent = [e["request"] for e in page.sent() if e["request"]["method"] == "layout/applySnapshot"]
    assert sent[0]["params"]["sections"] == [{"id": "rows", "items": [moving] + cards[:2] + cards[3:]}]
    assert page.js("return window.flowlayout.lastSnapshot()") == {
        "moveItems": [{"from": {"section": 0, "item": 2}, "to": {"section": 0, "item": 0}}]}
    assert_keyed_by_id(page)
    marked = page.js("return [...document.querySelectorAll(\"[data-mark='kept']\")].map((e) => e.dataset.id)")
    assert marked == [f"card-{moving}"], marked

    # Shuffle, insert, delete: each one snapshot, drawn as the daemon says.
    for button, count in (("shuffle", 12), ("list-insert", 13), ("list-delete", 12)):
        page.js(f"document.getElementById('{button}').click()")
        page.wait_idle()
        now = page.js("return window.flowlayout.cards()")
        assert len(now) == count and len(set(now)) == count, (button, now)
        assert_keyed_by_id(page)
    updates = page.js("return window.flowlayout.lastSnapshot()")
    assert updates == {"deleteItems": [updates["deleteItems"][0]]}, updates


def chat_bubbles(page: Page) -> list[dict]:
    """Each drawn message: its id, side, text and bubble box, and its row's
    box, top to bottom."""
    return page.js("""
        return [...document.querySelectorAll('#viewport .card[data-kind=cell]')].map((el) => {
          const b = el.firstChild.getBoundingClientRect(), r = el.getBoundingClientRect();
          return {id: el.dataset.id, side: el.dataset.side, text: el.firstChild.textContent,
                  bubble: {x: b.x, y: b.y, width: b.width, height: b.height},
                  row: {x: r.x, y: r.y, width: r.width, height: r.height}};
        }).sort((a, b) => a.row.y - b.row.y);""")


def test_the_chat_page_looks_like_a_chat(page):
    """Issue #45: bubbles of varied widths and heights, their sizes measured
    from their text and reported by id (keyed self-sizing), alternating
    sides, a date header a day (six messages a day), at its end
    (followsEnd)."""
    page.set_control("viewportWidth", 375)
    page.set_control("viewportHeight", 600)
    page.set_control("count", 20)
    page.record_rpc()
    pick_layout(page, "chat")
    opened = opened_layout(page)
    assert opened["followsEnd"] is True
    cards = page.js("return window.flowlayout.cards()")
    # Messages 0-19 by day: 0-5, 6-11, 12-17, 18-19.
    assert [s["id"] for s in opened["sections"]] == ["day-0", "day-1", "day-2", "day-3"]
    assert [s["ids"] for s in opened["sections"]] == [cards[0:6], cards[6:12], cards[12:18], cards[18:20]]
    assert opened["layout"]["estimatedItemSize"] == {"width": 351, "height": 44}
    assert opened["layout"]["headerReferenceSize"] == {"width": 375, "height": 28}
    # Every message measured and reported by id, right after the open.
    measured = [e["request"]["params"]["sizes"] for e in page.sent() if e["request"]["method"] == "layout/setItemSizes"]
    assert len(measured) == 1 and [m["id"] for m in measured[0]] == cards
    heights = [m["size"]["height"] for m in measured[0]]
    assert all(m["size"]["width"] == 351 for m in measured[0]) and len(set(heights)) >= 3, heights
    # At the end: the last row's bottom and 8 of inset are the content's end.
    bounds = page.js("return window.flowlayout.bounds()")
    content = page.js("return window.flowlayout.request('layout/contentSize', {session: window.flowlayout.session})")
    assert bounds["y"] + 600 == content["contentSize"]["height"]
    snap = assert_keyed_by_id(page)
    # Drawn: each row is the daemon's frame; its bubble is as tall as the
    # height reported for it, alternate sides (even ids mine, on the right),
    # widths varied; the headers are dates.
    by_id = {f"card-{m['id']}": m["size"]["height"] for m in measured[0]}
    bubbles = chat_bubbles(page)
    assert len(bubbles) >= 4
    for b in bubbles:
        assert abs(b["bubble"]["height"] - by_id[b["id"]]) < 1, b
        mine = int(b["id"].split("-")[1]) % 2 == 0
        assert b["side"] == ("mine" if mine else "theirs"), b
        if mine:
            assert abs(b["bubble"]["x"] + b["bubble"]["width"] - (b["row"]["x"] + b["row"]["width"])) < 1, b
        else:
            assert abs(b["bubble"]["x"] - b["row"]["x"]) < 1, b
        assert b["bubble"]["width"] <= 0.72 * 351 + 1 and b["text"], b
    assert len({round(b["bubble"]["width"]) for b in bubbles}) >= 3, bubbles
    headers = page.js("return [...document.querySelectorAll('#viewport .card[data-kind=header]')].map((e) => e.firstChild.textContent)")
    assert headers and all(re.fullmatch(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} Dec 2026", h) for h in headers), headers
    assert "Fri, 4 Dec 2026" in headers  # day 3: 1 December 2026 is a Tuesday

    # A message while at the end: sent with its measured size, the view
    # follows it to the new end.
    page.record_rpc()
    page.js("document.getElementById('receive').click()")
    page.wait_idle()
    last = page.js("return window.flowlayout.cards().slice(-1)[0]")
    sent = [e["request"]["params"] for e in page.sent() if e["request"]["method"] == "layout/applySnapshot"]
    items = sent[0]["sections"][-1]["items"]
    assert items[-1]["id"] == last and items[-1]["size"]["width"] == 351, items
    assert all(isinstance(i, int) for i in items[:-1])  # the others keep their sizes
    bounds = page.js("return window.flowlayout.bounds()")
    content = page.js("return window.flowlayout.request('layout/contentSize', {session: window.flowlayout.session})")
    assert bounds["y"] + 600 == content["contentSize"]["height"]
    assert f"card-{last}" in {c["id"] for c in assert_keyed_by_id(page)["cards"]}

    # Scrolled up, history above keeps what is read still: a day of older
    # messages under its own date, and the row being read does not move.
    ActionChains(page.d).scroll_from_origin(ScrollOrigin.from_element(page.viewport), 0, -400).perform()
    page.wait_idle()
    reading = chat_bubbles(page)[1]
    page.js("document.getElementById('history').click()")
    page.wait_idle()
    cards = page.js("return window.flowlayout.cards()")
    assert cards[:5] == [-5, -4, -3, -2, -1]
    still = next(b for b in chat_bubbles(page) if b["id"] == reading["id"])
    assert abs(still["row"]["y"] - reading["row"]["y"]) < 0.5, (reading, still)
    assert_keyed_by_id(page)
    # Away from the end, a new message leaves the view where it is.
    before = page.js("return window.flowlayout.bounds().y")
    page.js("document.getElementById('receive').click()")
    page.wait_idle()
    assert page.js("return window.flowlayout.bounds().y") == before


# -- the settings page: a list session with swipe to delete (issue #42) -------------

#: The settings page's sections as it opens them: ids and row counts.
SETTINGS = [("general", 6), ("privacy", 4), ("apps", 8)]
#: A phone's width, and short enough to stay inside the window.
SETTINGS_VIEWPORT = (390, 600)
#: What the page's swipes ask for: delete at the edge, then flag.
SWIPE_ACTIONS = [{"width": 74, "style": "destructive"}, {"width": 74, "style": "normal"}]


def open_settings(page: Page) -> dict:
    """The settings page at SETTINGS_VIEWPORT; the params of its layout/open."""
    # The whole viewport in the window, whatever size an earlier test left.
    page.d.set_window_size(*WINDOW)
    page.set_control("viewportWidth", SETTINGS_VIEWPORT[0])
    page.set_control("viewportHeight", SETTINGS_VIEWPORT[1])
    page.record_rpc()
    pick_layout(page, "settings")
    return opened_layout(page)


def settings_snapshot(page: Page) -> dict:
    """The settings page's DOM as Chromium computed it (every element's box
    in the viewport, its kind, index path, edge, row, stacking, opacity and
    corner radii; a row's content box; the swipe's buttons), the page's
    data, picture and swipe, and the daemon's attributesInRect for the drawn
    bounds and content size."""
    return page.js_async(
        """
        const fl = window.flowlayout;
        const bounds = fl.bounds();
        const view = document.getElementById('viewport');
        const v = view.getBoundingClientRect();
        const boxOf = (el) => {
          const b = el.getBoundingClientRect();
          return {x: b.left - v.left - view.clientLeft, y: b.top - v.top - view.clientTop,
                  width: b.width, height: b.height};
        };
        const radii = (cs) => [cs.borderTopLeftRadius, cs.borderTopRightRadius,
                               cs.borderBottomRightRadius, cs.borderBottomLeftRadius];
        Promise.all([
          fl.request('layout/attributesInRect', {session: fl.session, rect: bounds}),
          fl.request('layout/contentSize', {session: fl.session}),
        ]).then(([r, size]) => {
          const elements = [...view.querySelectorAll('.card:not(.ghost)')].map((el) => {
            const cs = getComputedStyle(el);
            const content = el.querySelector('.row-content');
            return {
              kind: el.dataset.kind, section: Number(el.dataset.section), item: Number(el.dataset.item),
              edge: el.dataset.edge === undefined ? null : el.dataset.edge, id: el.dataset.id,
              row: el.dataset.row === undefined ? null : el.dataset.row,
              translation: el.dataset.translation === undefined ? null : Number(el.dataset.translation),
              text: el.textContent, box: boxOf(el), zIndex: cs.zIndex, opacity: Number(cs.opacity),
              radii: radii(cs), content: content ? boxOf(content) : null,
            };
          });
          const buttons = [...view.querySelectorAll('.swipe-action:not(.ghost):not([hidden])')].map((b) => ({
            style: b.dataset.style, index: Number(b.dataset.index), row: b.dataset.row, text: b.textContent,
            box: boxOf(b), zIndex: getComputedStyle(b).zIndex,
            under: !!(b.compareDocumentPosition(view.querySelector(`[data-id="row-${b.dataset.row}"]`))
                      & Node.DOCUMENT_POSITION_FOLLOWING),
          }));
          done({bounds, attributes: r.attributes, contentSize: size.contentSize, picture: fl.picture(),
                settings: fl.settings(), swipe: fl.swipe(), elements, buttons});
        }, (e) => done({error: String(e)}));
        """
    )


def settings_key(a: dict) -> tuple:
    """An element of a list: a separator is its row's, by edge."""
    return (a["kind"], a["section"], a["item"], a.get("edge"))


def near(box: dict, rect: dict, tolerance: float = 0.02) -> bool:
    return all(abs(box[k] - rect[k]) <= tolerance for k in ("x", "y", "width", "height"))


def in_view(frame: dict, bounds: dict) -> dict:
    return {**frame, "x": frame["x"] - bounds["x"], "y": frame["y"] - bounds["y"]}


def assert_settings_match_daemon(page: Page) -> dict:
    """Every element of the settings page is drawn where the daemon's
    attributesInRect for the drawn bounds puts it, and nothing else is:
    rows, headers, separators (by edge) and backgrounds, each at its frame,
    zIndex and alpha; a background rounded by its cornerRadius, a row by
    its section background's radius on the corners of its cornerMask; a
    row's content where its translation puts it."""
    page.wait_idle()
    snap = settings_snapshot(page)
    bounds, attributes, elements = snap["bounds"], snap["attributes"], snap["elements"]
    assert snap["picture"] == attributes
    by_key = {settings_key(a): a for a in attributes}
    assert len(by_key) == len(attributes), attributes
    assert sorted(map(settings_key, elements), key=repr) == sorted(by_key, key=repr), (elements, attributes)
    assert len({e["id"] for e in elements}) == len(elements), elements
    rows = {(k, i): row for k, s in enumerate(snap["settings"]) for i, row in enumerate(s["items"])}
    radius = {a["section"]: a["cornerRadius"] for a in attributes if a["kind"] == "decoration"}
    for e in elements:
        a = by_key[settings_key(e)]
        assert near(e["box"], in_view(a["frame"], bounds)), (e, a)
        assert e["zIndex"] == str(a["zIndex"]) and abs(e["opacity"] - a["alpha"]) <= 1e-6, (e, a)
        if a["kind"] == "decoration":
            assert a["elementKind"] == "background"
            assert e["radii"] == [f"{a['cornerRadius']:g}px"] * 4, (e, a)
        if a["kind"] == "cell":
            assert e["id"] == f"row-{a['id']}" and e["row"] == a["id"] == rows[(a["section"], a["item"])], (e, a)
            r = radius.get(a["section"], 0)
            corners = ["topLeading", "topTrailing", "bottomTrailing", "bottomLeading"]
            expected = [f"{r:g}px" if c in a.get("cornerMask", []) and r else "0px" for c in corners]
            assert e["radii"] == expected, (e, a)
            moved = dict(a["frame"], x=a["frame"]["x"] + e["translation"])
            assert near(e["content"], in_view(moved, bounds)), (e, a)
        if a["kind"] == "separator":
            assert e["row"] == rows[(a["section"], a["item"])], (e, a)
    return snap


def element_of(snap: dict, kind: str, row: Optional[str] = None, section: Optional[int] = None) -> dict:
    (e,) = [e for e in snap["elements"] if e["kind"] == kind
            and (row is None or e["row"] == row) and (section is None or e["section"] == section)]
    return e


def test_the_settings_page_is_the_daemons_list_in_each_appearance(page):
    info = page.js_async("fetch('/info').then((r) => r.json()).then(done, (e) => done({error: String(e)}));")
    appearances = info["capabilities"]["listAppearances"]
    assert appearances == ["plain", "grouped", "insetGrouped", "sidebar", "sidebarPlain"], appearances
    opened = open_settings(page)
    # A list session: insetGrouped with supplementary headers, rows by id.
    layout = opened["layout"]
    assert (layout["type"], layout["appearance"], layout["headerMode"]) == ("list", "insetGrouped", "supplementary")
    assert [(s["id"], s["itemCount"]) for s in opened["sections"]] == SETTINGS
    assert opened["sections"][0]["ids"] == [f"general-{k}" for k in range(6)]
    assert page.js("return window.flowlayout.listAppearances()") == appearances
    assert page.js("return document.getElementById('layout-name').textContent") == "settings \u00b7 inset grouped"
    # Its own controls: the rows are the page's, not the cards' count.
    shown = page.js(
        "return [...document.querySelectorAll('#controls fieldset')]"
        ".filter((f) => f.offsetParent !== null).map((f) => f.querySelector('legend').textContent)"
    )
    assert shown == ["List", "Viewport"], shown
    snap = assert_settings_match_daemon(page)

    # By hand (protocol.md, list): W = 390 < 768, so the layout margins m
    # are 16; insetGrouped rows stand at x = m = 16, W - 2m = 358 wide.
    # Section 0 is [spacing 20][header 38][rows]: the header at y 20, row k
    # at 58 + 44k, so general-1 is (16, 102, 358, 44). Its bottom separator
    # is t = 1/displayScale = 0.5 thick at its maxY - t = 145.5, from x + c
    # (cell margins 16) = 32 to the row's maxX: (32, 145.5, 342, 0.5). The
    # background spans the six rows, (16, 58, 358, 264), radius 10. Section
    # 1 starts after 20 more: its header at 342, its first row at 380. The
    # content is 3 × (20 + 38) + 18 × 44 + 20 = 986 tall.
    assert element_of(snap, "cell", "general-1")["box"] == {"x": 16, "y": 102, "width": 358, "height": 44}
    assert element_of(snap, "separator", "general-1")["box"] == {"x": 32, "y": 145.5, "width": 342, "height": 0.5}
    assert element_of(snap, "header", section=0)["box"] == {"x": 16, "y": 20, "width": 358, "height": 38}
    background = element_of(snap, "decoration", section=0)
    assert background["box"] == {"x": 16, "y": 58, "width": 358, "height": 264}
    assert background["radii"] == ["10px"] * 4 and int(background["zIndex"]) == -1
    assert element_of(snap, "header", section=1)["box"]["y"] == 342
    assert element_of(snap, "cell", "privacy-0")["box"]["y"] == 380
    assert snap["contentSize"] == {"width": 390, "height": 986}
    # Rounded where the section's panel is: the first row's top corners,
    # the last row's bottom ones; the last row has no separator.
    assert element_of(snap, "cell", "general-0")["radii"] == ["10px", "10px", "0px", "0px"]
    assert element_of(snap, "cell", "general-1")["radii"] == ["0px"] * 4
    assert element_of(snap, "cell", "general-5")["radii"] == ["0px", "0px", "10px", "10px"]
    assert not [e for e in snap["elements"] if e["kind"] == "separator" and e["row"] == "general-5"]
    assert [e["text"] for e in snap["elements"] if e["kind"] == "header"][:2] == ["General", "Privacy & Security"]

    # The sidebar: the same session reconfigured (no re-open); rows stay
    # inset (x = m) and spaced by section, with no separators and no
    # backgrounds, and square.
    page.record_rpc()
    page.set_control("settingsAppearance", "sidebar")
    methods = [e["request"]["method"] for e in page.sent()]
    assert "layout/open" not in methods, methods
    (configure,) = [e["request"]["params"] for e in page.sent() if e["request"]["method"] == "layout/configure"]
    assert configure["layout"] == {"appearance": "sidebar"}
    assert page.js("return location.hash") == "#settings?appearance=sidebar&viewport=390x600"
    snap = assert_settings_match_daemon(page)
    assert {e["kind"] for e in snap["elements"]} == {"header", "cell"}
    assert element_of(snap, "cell", "general-1")["box"] == {"x": 16, "y": 102, "width": 358, "height": 44}
    assert all(e["radii"] == ["0px"] * 4 for e in snap["elements"] if e["kind"] == "cell")

    # Grouped: full-width rows on square backgrounds.
    page.set_control("settingsAppearance", "grouped")
    snap = assert_settings_match_daemon(page)
    assert element_of(snap, "cell", "general-1")["box"] == {"x": 0, "y": 102, "width": 390, "height": 44}
    assert element_of(snap, "decoration", section=0)["radii"] == ["0px"] * 4
    assert element_of(snap, "separator", "general-1")["box"] == {"x": 16, "y": 145.5, "width": 374, "height": 0.5}

    # Plain: no spacing, and the headers pin. A vertical drag that starts
    # on a row scrolls the list (no swipe): at y 150 the General header,
    # its own y 0, pins at max(0, min(150, E - 38)) = 150 with E = 38 + 6 ×
    # 44 = 302 the end of its rows: the viewport's top, over the rows.
    page.set_control("settingsAppearance", "plain")
    page.record_rpc()
    vertical_drag(page, -150)
    page.wait_idle()
    methods = [e["request"]["method"] for e in page.sent()]
    assert "layout/setBounds" in methods and "layout/beginSwipe" not in methods, methods
    assert page.js("return window.flowlayout.bounds().y") == 150
    snap = assert_settings_match_daemon(page)
    header = element_of(snap, "header", section=0)
    assert header["box"] == {"x": 0, "y": 0, "width": 390, "height": 38} and header["zIndex"] == "1024"

    # Back to insetGrouped, from the same offset.
    page.set_control("settingsAppearance", "insetGrouped")
    assert_settings_match_daemon(page)


def twin_swipe(page: Page, row: str, translation: float) -> dict:
    """layout/updateSwipe's answer for `row` at `translation` in a twin of
    the page's session (the same appearance, viewport and rows)."""
    return page.js_async(
        """
        const fl = window.flowlayout, [row, translation, actions] = arguments;
        const c = fl.config();
        const twin = {session: 'swipe-twin', bounds: fl.bounds(),
                      layout: {type: 'list', appearance: c.settingsAppearance, headerMode: 'supplementary'},
                      sections: fl.settings().map((s) => ({id: s.id, itemCount: s.items.length, ids: s.items}))};
        const close = () => fl.request('layout/close', {session: twin.session});
        fl.request('layout/open', twin)
          .then(() => fl.request('layout/beginSwipe', {session: twin.session, id: row, edge: 'trailing', actions}))
          .then(() => fl.request('layout/updateSwipe', {session: twin.session, translation}))
          .then((r) => close().then(() => done(r)), (e) => close().then(() => done({error: String(e)})));
        """,
        row, translation, SWIPE_ACTIONS,
    )


def window_point(page: Page, x: float, y: float) -> tuple[int, int]:
    """The window point over the content point (x, y) as the page draws
    it (not an offset from the viewport's in-view centre, which moves when
    an earlier test left the window shorter)."""
    left, top, height = page.js(
        "const v = document.getElementById('viewport'), r = v.getBoundingClientRect(), b = window.flowlayout.bounds();"
        "return [r.left + v.clientLeft - b.x, r.top + v.clientTop - b.y, window.innerHeight];"
    )
    point = (round(left + x), round(top + y))
    assert 0 <= point[1] < height, (point, height)
    return point


def row_point(page: Page, row: str, x: float = 360) -> tuple[int, int]:
    """The window point over `row`'s middle, at content x `x`."""
    (a,) = [a for a in page.js("return window.flowlayout.picture()") if a["kind"] == "cell" and a["id"] == row]
    return window_point(page, x, a["frame"]["y"] + a["frame"]["height"] / 2)


def hold_swipe(page: Page, row: str, dx: int, x: float = 360, translation: Optional[float] = None) -> None:
    """Presses on `row` at content x `x` (its middle across), moves
    sideways by `dx` and holds still until the page draws the daemon's
    answer for that translation (`translation`, when the row was open)."""
    mouse = ActionBuilder(page.d, duration=200)
    mouse.pointer_action.move_to_location(*row_point(page, row, x)).pointer_down().move_by(dx, 0)
    mouse.perform()
    wait_swipe(page, dx if translation is None else translation)


def wait_swipe(page: Page, translation: float) -> None:
    page.wait(f"the swipe at {translation}", lambda: page.js(
        "const s = window.flowlayout.swipe();"
        "return window.flowlayout.synced() && s !== null && s.translation === arguments[0];", translation))


def assert_swipe_drawn(page: Page, row: str, translation: float, frames: list[dict]) -> dict:
    """The page draws the daemon's picture; `row`'s content is moved by
    `translation`; its buttons stand exactly at `frames` (content
    coordinates, as worked out by hand), which are also what the daemon
    answers for that translation (the page's last answer and a twin's),
    under the row's content at its zIndex."""
    snap = assert_settings_match_daemon(page) if translation == 0 else settings_snapshot(page)
    bounds = snap["bounds"]
    cell = element_of(snap, "cell", row)
    (a,) = [a for a in snap["attributes"] if a["kind"] == "cell" and a["id"] == row]
    assert cell["translation"] == translation
    assert near(cell["box"], in_view(a["frame"], bounds))  # the row itself stays
    assert near(cell["content"], in_view(dict(a["frame"], x=a["frame"]["x"] + translation), bounds)), cell
    if not frames:
        assert snap["buttons"] == [] and snap["swipe"] is None, snap["swipe"]
        return snap
    assert snap["swipe"]["id"] == row and snap["swipe"]["translation"] == translation
    assert snap["swipe"]["actions"] == frames, snap["swipe"]
    twin = twin_swipe(page, row, translation)
    assert twin == {"translation": translation, "actions": frames}, twin
    buttons = sorted(snap["buttons"], key=lambda b: b["index"])
    assert [b["style"] for b in buttons] == [s["style"] for s in SWIPE_ACTIONS][: len(frames)]
    for b, f in zip(buttons, frames):
        assert b["row"] == row and b["zIndex"] == cell["zIndex"] and b["under"], b
        assert near(b["box"], in_view(f, bounds)), (b, f)
    return snap


def test_swipe_to_delete_on_the_settings_page(page):
    open_settings(page)
    before = assert_settings_match_daemon(page)
    # By hand (protocol.md, Swipe actions): general-1 is (16, 102, 358, 44),
    # so w = 358; two actions of 74: M = max(0, (w - 30)/2) = 164, B =
    # max(min(74, M), max_i min(74, M)) = 74, the open width P = 2B = 148
    # and, the first being destructive, the full-swipe threshold T =
    # max(P + 20, w - 30) = 328. Below P the buttons are 74 wide from the
    # trailing edge (374): delete at 300, flag at 226.
    page.record_rpc()
    hold_swipe(page, "general-1", -100)
    assert_swipe_drawn(page, "general-1", -100, [
        {"x": 300, "y": 102, "width": 74, "height": 44}, {"x": 226, "y": 102, "width": 74, "height": 44}])
    (begin,) = [e["request"]["params"] for e in sent_by_page(page, "layout/beginSwipe")]
    assert {k: v for k, v in begin.items() if k != "session"} == {
        "id": "general-1", "edge": "trailing", "actions": SWIPE_ACTIONS}
    # From P each button is τ/n wide: at 200, 100 each.
    ActionChains(page.d, duration=100).move_by_offset(-100, 0).perform()
    wait_swipe(page, -200)
    assert_swipe_drawn(page, "general-1", -200, [
        {"x": 274, "y": 102, "width": 100, "height": 44}, {"x": 174, "y": 102, "width": 100, "height": 44}])
    # Released still (velocity 0) past P/2: it rests open at -P, the
    # buttons at what updateSwipe answers there.
    ActionChains(page.d).pause(0.15).release().perform()
    page.wait_idle()
    (end,) = sent_by_page(page, "layout/endSwipe")
    assert end["request"]["params"]["velocity"] == 0
    assert end["answer"]["result"] == {"state": "open", "translation": -148}
    rest = [{"x": 300, "y": 102, "width": 74, "height": 44}, {"x": 226, "y": 102, "width": 74, "height": 44}]
    assert_swipe_drawn(page, "general-1", -148, rest)
    assert page.js("return window.flowlayout.swipe().phase") == "open"

    # A tap elsewhere (the General header) closes it.
    page.record_rpc()
    mouse = ActionBuilder(page.d)
    mouse.pointer_action.move_to_location(*window_point(page, 195, 40)).pointer_down().pointer_up()
    mouse.perform()
    page.wait_idle()
    assert sent_by_page(page, "layout/closeSwipe")
    assert_swipe_drawn(page, "general-1", 0, [])

    # Open again, and tap Delete: a snapshot without the row.
    hold_swipe(page, "general-1", -120)
    ActionChains(page.d).pause(0.15).release().perform()
    page.wait_idle()
    assert_swipe_drawn(page, "general-1", -148, rest)
    page.record_rpc()
    page.d.find_element(By.CSS_SELECTOR, ".swipe-action[data-style='destructive']").click()
    page.wait_idle()
    (sent,) = sent_by_page(page, "layout/applySnapshot")
    general = [f"general-{k}" for k in range(6) if k != 1]
    assert sent["request"]["params"]["sections"][0] == {"id": "general", "items": general}
    assert sent["answer"]["result"]["updates"] == {"deleteItems": [{"section": 0, "item": 1}]}
    assert sent["answer"]["result"]["closedSwipe"] == {"section": 0, "item": 1}
    after = assert_settings_match_daemon(page)
    assert not page.d.find_elements(By.CSS_SELECTOR, "#viewport [data-id='row-general-1']")
    assert after["swipe"] is None and after["buttons"] == []
    # Every row below moved up by a row's height, and the daemon holds one
    # item fewer.
    old = {e["row"]: e["box"]["y"] for e in before["elements"] if e["kind"] == "cell"}
    new = {e["row"]: e["box"]["y"] for e in after["elements"] if e["kind"] == "cell"}
    assert new["general-0"] == old["general-0"] == 58
    below = [row for row in new if row in old and row != "general-0"]
    assert len(below) == 8, below  # general-2 … 5 and privacy-0 … 3
    for row in below:
        assert new[row] == old[row] - 44, (row, new[row], old[row])
    # apps-0, at 576 + 38 = 614 below the viewport, comes up into it.
    assert set(new) - set(old) == {"apps-0"} and new["apps-0"] == 614 - 44
    assert after["contentSize"]["height"] == before["contentSize"]["height"] - 44 == 942
    assert count_cells(page) == 17
    assert element_of(after, "decoration", section=0)["box"]["height"] == 5 * 44

    # A full swipe past T performs the delete: held at 340 the first
    # button alone fills τ, from 374 - 340 = 34; released, the row goes.
    page.record_rpc()
    hold_swipe(page, "general-2", -340)
    assert_swipe_drawn(page, "general-2", -340, [{"x": 34, "y": 102, "width": 340, "height": 44}])
    ActionChains(page.d).pause(0.15).release().perform()
    page.wait_idle()
    (end,) = sent_by_page(page, "layout/endSwipe")
    assert end["answer"]["result"] == {"state": "performed", "translation": -358}
    (sent,) = [e["request"]["params"] for e in sent_by_page(page, "layout/applySnapshot")]
    assert "general-2" not in sent["sections"][0]["items"]
    snap = assert_settings_match_daemon(page)
    assert element_of(snap, "cell", "general-3")["box"]["y"] == 102
    assert snap["contentSize"]["height"] == 898 and count_cells(page) == 16

    # Restore brings both back where they were.
    page.js("document.getElementById('settings-restore').click()")
    snap = assert_settings_match_daemon(page)
    assert count_cells(page) == 18 and snap["contentSize"]["height"] == 986
    assert element_of(snap, "cell", "general-1")["box"]["y"] == 102


def sent_by_page(page: Page, method: str) -> list[dict]:
    """The page's own `method` requests since record_rpc (not a twin's),
    with their answers."""
    session = page.js("return window.flowlayout.session")
    return [e for e in page.sent() if e["request"]["method"] == method and e["request"]["params"]["session"] == session]


def count_cells(page: Page) -> int:
    """The daemon's rows, over the whole content."""
    return page.js_async(
        """
        const fl = window.flowlayout;
        fl.request('layout/contentSize', {session: fl.session})
          .then(({contentSize}) => fl.request('layout/attributesInRect', {session: fl.session,
                rect: {x: 0, y: 0, width: contentSize.width, height: contentSize.height}}))
          .then((r) => done(r.attributes.filter((a) => a.kind === 'cell').length), (e) => done({error: String(e)}));
        """
    )


def test_the_settings_page_flags_a_row_and_scrolls_over_an_open_one(page):
    open_settings(page)
    # A finger swipes too: privacy-1 (16, 424, 358, 44) released still at
    # 150, past P/2, rests open at -148.
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    touch = ActionBuilder(page.d, mouse=finger, duration=200)
    touch.pointer_action.move_to_location(*row_point(page, "privacy-1")).pointer_down() \
        .move_by(-150, 0).pause(0.2).pointer_up()
    touch.perform()
    page.wait_idle()
    assert page.js("return window.flowlayout.swipe()") == {
        "id": "privacy-1", "phase": "open", "translation": -148,
        "actions": [{"x": 300, "y": 424, "width": 74, "height": 44}, {"x": 226, "y": 424, "width": 74, "height": 44}]}
    # The second action flags the row (the page's own data) and closes it.
    page.d.find_element(By.CSS_SELECTOR, ".swipe-action[data-style='normal']").click()
    page.wait_idle()
    assert page.js("return window.flowlayout.swipe()") is None
    assert page.js("return document.querySelector(\"[data-id='row-privacy-1']\").classList.contains('flagged')")
    assert_settings_match_daemon(page)
    # A drag on the open row goes on from where it rests (-148): 100 to
    # the right is -48, under P/2 = 74, so released still it closes.
    hold_swipe(page, "privacy-1", -150)
    ActionChains(page.d).pause(0.15).release().perform()
    page.wait_idle()
    page.record_rpc()
    hold_swipe(page, "privacy-1", 100, x=60, translation=-48)
    (begin,) = sent_by_page(page, "layout/beginSwipe")
    assert "closedSwipe" not in begin["answer"]["result"]
    assert_swipe_drawn(page, "privacy-1", -48, [
        {"x": 300, "y": 380 + 44, "width": 74, "height": 44}, {"x": 226, "y": 380 + 44, "width": 74, "height": 44}])
    ActionChains(page.d).pause(0.15).release().perform()
    page.wait_idle()
    (end,) = sent_by_page(page, "layout/endSwipe")
    assert end["answer"]["result"] == {"state": "closed", "translation": 0}
    assert_swipe_drawn(page, "privacy-1", 0, [])
    # A vertical drag over an open row closes it and scrolls.
    hold_swipe(page, "privacy-0", -100)
    ActionChains(page.d).pause(0.15).release().perform()
    page.wait_idle()
    assert page.js("return window.flowlayout.swipe().phase") == "open"
    page.record_rpc()
    vertical_drag(page, -120)
    page.wait_idle()
    methods = [e["request"]["method"] for e in page.sent()]
    assert "layout/closeSwipe" in methods and "layout/setBounds" in methods, methods
    assert page.js("return window.flowlayout.swipe()") is None
    assert page.js("return window.flowlayout.bounds().y") > 0
    snap = assert_settings_match_daemon(page)
    assert snap["buttons"] == []
    artifacts = REPO / ".build" / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    hold_swipe(page, "apps-1", -200)
    assert page.d.save_screenshot(str(artifacts / "web-settings.png")), "no screenshot"
    ActionChains(page.d).pause(0.15).release().perform()
    page.wait_idle()


# MARK: (p) the sidebar: outline sections (UIKit's section snapshots)

#: The sidebar page's tree as layout/open sends it: two outline sections, a
#: node's id its path, a folder's flag given, a file's left out.
SIDEBAR_OPEN = [
    {"id": "favorites", "outline": [
        {"id": "Desktop"},
        {"id": "Documents", "expanded": True, "children": [
            {"id": "Documents/Work", "expanded": True, "children": [
                {"id": "Documents/Work/Report.pages"}, {"id": "Documents/Work/Budget.numbers"}]},
            {"id": "Documents/Personal", "expanded": False, "children": [{"id": "Documents/Personal/Taxes.pdf"}]},
            {"id": "Documents/Notes.txt"}]},
        {"id": "Downloads", "expanded": False, "children": [{"id": "Downloads/Installer.dmg"}]}]},
    {"id": "projects", "outline": [
        {"id": "flowlayoutd", "expanded": False, "children": [
            {"id": "flowlayoutd/Sources", "expanded": True, "children": [
                {"id": "flowlayoutd/Sources/Outline", "expanded": True, "children": [
                    {"id": "flowlayoutd/Sources/Outline/Outline.swift"},
                    {"id": "flowlayoutd/Sources/Outline/Expand.swift"}]},
                {"id": "flowlayoutd/Sources/main.swift"}]},
            {"id": "flowlayoutd/Tests", "expanded": False, "children": [{"id": "flowlayoutd/Tests/test_web.py"}]},
            {"id": "flowlayoutd/README.md"}]}]},
]
#: By hand (protocol.md, list and Outlines): W = 390 < 768, so m = 16 and
#: sidebar rows stand at x 16, 358 wide, 44 tall; each section is [spacing
#: 20][header 38][rows] and 20 more close the list. Section 0's rows start
#: at 58; its 8 visible rows end at 58 + 8 × 44 = 410, so section 1's
#: header is at 430 and its first row at 468; the content is 468 + 44 + 20
#: = 532 tall. A row's indentation is its level × 10.
SIDEBAR_INITIAL = [
    ("Desktop", 58, 0), ("Documents", 102, 0), ("Documents/Work", 146, 1),
    ("Documents/Work/Report.pages", 190, 2), ("Documents/Work/Budget.numbers", 234, 2),
    ("Documents/Personal", 278, 1), ("Documents/Notes.txt", 322, 1), ("Downloads", 366, 0),
    ("flowlayoutd", 468, 0),
]
#: The page's padding before a row's content, indentation aside (style.css).
SIDEBAR_PADDING = 10
SIDEBAR_VIEWPORT = (390, 600)


def open_sidebar(page: Page) -> dict:
    """The sidebar page at SIDEBAR_VIEWPORT; the params of its layout/open."""
    page.d.set_window_size(*WINDOW)
    page.set_control("viewportWidth", SIDEBAR_VIEWPORT[0])
    page.set_control("viewportHeight", SIDEBAR_VIEWPORT[1])
    page.record_rpc()
    pick_layout(page, "sidebar")
    return opened_layout(page)


def sidebar_snapshot(page: Page) -> dict:
    """The sidebar's DOM as Chromium computed it (every element's box in the
    viewport, its kind, index path and row; a row's outline fields as the
    page wrote them, its triangle, title, content and triangle boxes, focus
    and ARIA), the page's tree, rows and focus, and the daemon's
    attributesInRect for the drawn bounds, content size and each section's
    layout/outline."""
    return page.js_async(
        """
        const fl = window.flowlayout;
        const bounds = fl.bounds();
        const view = document.getElementById('viewport');
        const v = view.getBoundingClientRect();
        const boxOf = (el) => {
          const b = el.getBoundingClientRect();
          return {x: b.left - v.left - view.clientLeft, y: b.top - v.top - view.clientTop,
                  width: b.width, height: b.height};
        };
        const opt = (x) => (x === undefined || x === null ? null : x);
        Promise.all([
          fl.request('layout/attributesInRect', {session: fl.session, rect: bounds}),
          fl.request('layout/contentSize', {session: fl.session}),
          ...fl.sidebar().map((_, section) => fl.request('layout/outline', {session: fl.session, section})),
        ]).then(([r, size, ...outlines]) => {
          const elements = [...view.querySelectorAll('.card:not(.ghost)')].map((el) => {
            const triangle = el.querySelector('.row-disclosure');
            const title = el.querySelector('.row-title');
            const content = el.querySelector('.row-content');
            return {
              kind: el.dataset.kind, section: Number(el.dataset.section), item: Number(el.dataset.item),
              edge: opt(el.dataset.edge), id: el.dataset.id, row: opt(el.dataset.row),
              level: opt(el.dataset.level), parent: opt(el.dataset.parent), expanded: opt(el.dataset.expanded),
              indentation: opt(el.dataset.indentation),
              triangle: triangle ? triangle.textContent : null, title: title ? title.textContent : null,
              text: el.textContent, box: boxOf(el), content: content ? boxOf(content) : null,
              triangleBox: triangle ? boxOf(triangle) : null,
              focused: el.classList.contains('focused'), role: el.getAttribute('role'),
              ariaLevel: el.getAttribute('aria-level'), ariaExpanded: el.getAttribute('aria-expanded'),
              zIndex: getComputedStyle(el).zIndex, opacity: Number(getComputedStyle(el).opacity),
            };
          });
          done({bounds, attributes: r.attributes, contentSize: size.contentSize, picture: fl.picture(),
                outlines: outlines.map((o) => o.outline), tree: fl.sidebar(), rows: fl.sidebarRows(),
                focus: fl.focus(), keyboard: document.activeElement === view, elements});
        }, (e) => done({error: String(e)}));
        """
    )


def visible_ids(outline: list[dict]) -> list[str]:
    """An outline's rows: its visible nodes (every ancestor expanded) in
    pre-order."""
    out: list[str] = []
    for n in outline:
        out.append(n["id"])
        if n["expanded"]:
            out += visible_ids(n["children"])
    return out


def assert_sidebar_matches_daemon(page: Page) -> dict:
    """The page's tree is the daemon's (layout/outline of each section),
    its rows are that tree's visible nodes, and every element is drawn
    where attributesInRect for the drawn bounds puts it, nothing else: a
    row keyed by its id, carrying the daemon's level, parent, expanded and
    indentation, its triangle ▾ or ▸ by `expanded` (none on a file), its
    content indented by `indentation`; a header titled by its section."""
    page.wait_idle()
    snap = sidebar_snapshot(page)
    bounds, attributes, elements = snap["bounds"], snap["attributes"], snap["elements"]
    assert snap["picture"] == attributes
    assert snap["tree"] == [{"id": s["id"], "outline": o} for s, o in zip(SIDEBAR_OPEN, snap["outlines"])], snap["tree"]
    rows = [(section, item, row_id) for section, o in enumerate(snap["outlines"])
            for item, row_id in enumerate(visible_ids(o))]
    assert [(r["section"], r["item"], r["id"]) for r in snap["rows"]] == rows
    by_path = {(s, i): row_id for s, i, row_id in rows}
    by_key = {settings_key(a): a for a in attributes}
    assert len(by_key) == len(attributes), attributes
    assert sorted(map(settings_key, elements), key=repr) == sorted(by_key, key=repr), (elements, attributes)
    assert len({e["id"] for e in elements}) == len(elements), elements
    for e in elements:
        a = by_key[settings_key(e)]
        assert near(e["box"], in_view(a["frame"], bounds)), (e, a)
        assert e["zIndex"] == str(a["zIndex"]) and abs(e["opacity"] - a["alpha"]) <= 1e-6, (e, a)
        if a["kind"] == "cell":
            assert a["id"] == by_path[(a["section"], a["item"])], (a, rows)
            assert e["id"] == f"row-{a['id']}" and e["row"] == a["id"], (e, a)
            level = a["id"].count("/")  # the tree's depth, by hand: ids are paths
            assert a["level"] == level and a["indentation"] == 10 * level, a
            assert a.get("parent") == (a["id"].rsplit("/", 1)[0] if level else None), a
            assert (e["level"], e["indentation"], e["parent"]) == (str(level), str(10 * level), a.get("parent")), e
            expanded = a.get("expanded")
            assert e["expanded"] == (None if expanded is None else str(expanded).lower()), (e, a)
            assert e["triangle"] == {None: "", True: "\u25be", False: "\u25b8"}[expanded], (e, a)
            assert e["ariaExpanded"] == e["expanded"] and e["ariaLevel"] == str(level + 1), e
            assert e["role"] == "treeitem" and e["title"] == a["id"].rsplit("/", 1)[-1], e
            assert near(e["content"], e["box"]), e
            assert abs(e["triangleBox"]["x"] - (e["box"]["x"] + SIDEBAR_PADDING + a["indentation"])) <= 0.02, e
            assert e["focused"] == (a["id"] == snap["focus"]), (e, snap["focus"])
        if a["kind"] == "header":
            assert e["text"] == ["Favorites", "Projects"][a["section"]], e
    return snap


def sidebar_cells(snap: dict) -> list[tuple]:
    """The drawn rows, top to bottom: (id, y in the content, level)."""
    cells = [e for e in snap["elements"] if e["kind"] == "cell"]
    return sorted(((e["row"], e["box"]["y"] + snap["bounds"]["y"], int(e["level"])) for e in cells),
                  key=lambda c: c[1])


def sidebar_twin(server, opened: dict, steps: list[tuple[str, list[str]]], bounds: dict) -> dict:
    """An independent daemon's answer for the same sidebar: a session opened
    with the page's layout/open params, then each (method, ids) of
    `steps`, then the page's bounds; its attributesInRect over them and its
    content size."""
    session = "sidebar-twin"
    server.call("layout/open", dict(opened, session=session))
    for method, ids in steps:
        server.call(method, {"session": session, "ids": ids})
    server.call("layout/setBounds", {"session": session, "bounds": bounds})
    attributes = server.call("layout/attributesInRect", {"session": session, "rect": bounds})["attributes"]
    size = server.call("layout/contentSize", {"session": session})["contentSize"]
    server.call("layout/close", {"session": session})
    return {"attributes": attributes, "contentSize": size}


def outline_sent(page: Page) -> list[tuple]:
    """The page's expand and collapse requests since record_rpc: (method,
    ids, the answer's updates)."""
    return [(e["request"]["method"], e["request"]["params"]["ids"], e["answer"]["result"]["updates"])
            for e in page.sent() if e["request"]["method"] in ("layout/expand", "layout/collapse")]


def click_point(page: Page, x: float, y: float) -> None:
    """A mouse click at the window point (x, y)."""
    mouse = ActionBuilder(page.d)
    mouse.pointer_action.move_to_location(round(x), round(y)).pointer_down().pointer_up()
    mouse.perform()
    page.wait_idle()


def click_triangle(page: Page, row: str) -> None:
    """A click on `row`'s disclosure triangle, where the page draws it."""
    x, y = page.js(
        "const t = document.querySelector(`#viewport [data-id=\"row-${arguments[0]}\"] .row-disclosure`)"
        ".getBoundingClientRect(); return [t.left + t.width / 2, t.top + t.height / 2];", row)
    click_point(page, x, y)


def press(page: Page, *keys: str) -> None:
    """Keys typed into the focused element (the sidebar, once clicked)."""
    ActionChains(page.d).send_keys(*keys).perform()
    page.wait_idle()


def mark_rows(page: Page) -> None:
    page.js("for (const el of document.querySelectorAll('#viewport .card[data-kind=cell]')) el.dataset.mark = 'kept'")


def marked_rows(page: Page) -> set:
    return set(page.js("return [...document.querySelectorAll(\"#viewport [data-mark='kept']:not(.ghost)\")]"
                       ".map((e) => e.dataset.row)"))


def test_the_sidebar_is_the_daemons_outline(page, server):
    opened = open_sidebar(page)
    # A list session in the sidebar appearance, section titles as headers;
    # the sections are outlines, ids as strings.
    layout = opened["layout"]
    assert (layout["type"], layout["appearance"], layout["headerMode"]) == ("list", "sidebar", "supplementary")
    assert opened["sections"] == SIDEBAR_OPEN
    assert opened["bounds"] == {"x": 0, "y": 0, "width": 390, "height": 600}
    assert page.js("return document.getElementById('layout-name').textContent") == "sidebar"
    assert page.js("return location.hash") == "#sidebar?viewport=390x600"
    shown = page.js(
        "return [...document.querySelectorAll('#controls fieldset')]"
        ".filter((f) => f.offsetParent !== null).map((f) => f.querySelector('legend').textContent)"
    )
    assert shown == ["Outline", "Viewport"], shown
    assert page.js("const v = document.getElementById('viewport'); return [v.getAttribute('role'), v.tabIndex]") == [
        "tree", 0]
    snap = assert_sidebar_matches_daemon(page)
    # By hand: nine rows in view, every one, at the ys above.
    assert sidebar_cells(snap) == SIDEBAR_INITIAL
    assert snap["contentSize"] == {"width": 390, "height": 532}
    assert snap["focus"] is None and not any(e["focused"] for e in snap["elements"])
    row = {e["row"]: e for e in snap["elements"] if e["kind"] == "cell"}
    assert row["Documents/Work"]["box"] == {"x": 16, "y": 146, "width": 358, "height": 44}
    triangles = {r: e["triangle"] for r, e in row.items() if e["triangle"]}
    assert triangles == {"Documents": "\u25be", "Documents/Work": "\u25be", "Documents/Personal": "\u25b8",
                         "Downloads": "\u25b8", "flowlayoutd": "\u25b8"}, triangles
    # The content starts at the row's x + 10 + level × 10: 26, 36, 46.
    assert [row[r]["triangleBox"]["x"] for r in ("Desktop", "Documents/Work", "Documents/Work/Report.pages")] == [
        26, 36, 46]
    assert row["Documents/Work/Report.pages"]["parent"] == "Documents/Work"
    assert row["flowlayoutd"]["expanded"] == "false" and row["Documents/Notes.txt"]["expanded"] is None
    headers = sorted((e["box"]["y"], e["text"]) for e in snap["elements"] if e["kind"] == "header")
    assert headers == [(20, "Favorites"), (430, "Projects")]
    # No separators and no backgrounds in a sidebar.
    assert {e["kind"] for e in snap["elements"]} == {"header", "cell"}
    # An independent daemon opened with the same data answers the same.
    twin = sidebar_twin(server, opened, [], snap["bounds"])
    assert twin == {"attributes": snap["attributes"], "contentSize": snap["contentSize"]}


def test_sidebar_clicks_expand_and_collapse_folders(page, server):
    opened = open_sidebar(page)
    mark_rows(page)
    before = {r for r, _, _ in SIDEBAR_INITIAL}
    # A click on flowlayoutd's triangle expands it: its seven visible
    # descendants come in as rows 1 to 7 of section 1 (Sources and Outline
    # open, as they were kept while hidden); two of them are in view.
    page.record_rpc()
    click_triangle(page, "flowlayoutd")
    projects = ["flowlayoutd/Sources", "flowlayoutd/Sources/Outline", "flowlayoutd/Sources/Outline/Outline.swift",
                "flowlayoutd/Sources/Outline/Expand.swift", "flowlayoutd/Sources/main.swift", "flowlayoutd/Tests",
                "flowlayoutd/README.md"]
    assert outline_sent(page) == [("layout/expand", ["flowlayoutd"], {
        "insertItems": [{"section": 1, "item": k + 1, "id": row} for k, row in enumerate(projects)]})]
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "flowlayoutd" and snap["keyboard"]
    assert sidebar_cells(snap) == SIDEBAR_INITIAL + [("flowlayoutd/Sources", 512, 1), ("flowlayoutd/Sources/Outline", 556, 2)]
    assert snap["contentSize"]["height"] == 468 + 8 * 44 + 20 == 840
    row = {e["row"]: e for e in snap["elements"] if e["kind"] == "cell"}
    assert [row[r]["triangle"] for r in ("flowlayoutd", "flowlayoutd/Sources", "flowlayoutd/Sources/Outline")] == [
        "\u25be"] * 3
    # Every row that stayed kept its element; the new ones are new.
    assert marked_rows(page) == before
    steps = [("layout/expand", ["flowlayoutd"])]
    twin = sidebar_twin(server, opened, steps, snap["bounds"])
    assert twin == {"attributes": snap["attributes"], "contentSize": snap["contentSize"]}

    # A click on the Documents row (not its triangle) collapses it: its
    # five visible descendants go, everything below moves up 5 × 44 = 220.
    page.record_rpc()
    click_point(page, *window_point(page, 250, 102 + 22))
    assert outline_sent(page) == [("layout/collapse", ["Documents"], {
        "deleteItems": [{"section": 0, "item": k} for k in range(2, 7)]})]
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "Documents"
    assert sidebar_cells(snap) == [
        ("Desktop", 58, 0), ("Documents", 102, 0), ("Downloads", 146, 0), ("flowlayoutd", 248, 0),
        ("flowlayoutd/Sources", 292, 1), ("flowlayoutd/Sources/Outline", 336, 2),
        ("flowlayoutd/Sources/Outline/Outline.swift", 380, 3), ("flowlayoutd/Sources/Outline/Expand.swift", 424, 3),
        ("flowlayoutd/Sources/main.swift", 468, 2), ("flowlayoutd/Tests", 512, 1), ("flowlayoutd/README.md", 556, 1),
    ]
    assert snap["contentSize"]["height"] == 840 - 220 == 620
    assert [e["triangle"] for e in snap["elements"] if e["row"] == "Documents"] == ["\u25b8"]
    assert marked_rows(page) == {"Desktop", "Documents", "Downloads", "flowlayoutd"}
    steps.append(("layout/collapse", ["Documents"]))
    twin = sidebar_twin(server, opened, steps, snap["bounds"])
    assert twin == {"attributes": snap["attributes"], "contentSize": snap["contentSize"]}

    # Its triangle opens it again: Work comes back open (its files shown),
    # Personal closed, where they were.
    page.record_rpc()
    click_triangle(page, "Documents")
    (sent,) = outline_sent(page)
    assert sent[:2] == ("layout/expand", ["Documents"])
    assert [i["id"] for i in sent[2]["insertItems"]] == [r for r, _, _ in SIDEBAR_INITIAL[2:7]]
    snap = assert_sidebar_matches_daemon(page)
    assert sidebar_cells(snap) == SIDEBAR_INITIAL + [("flowlayoutd/Sources", 512, 1), ("flowlayoutd/Sources/Outline", 556, 2)]

    # The focus stays on its id whatever moves: on Downloads (row 7),
    # collapse all leaves it row 2, at 146; the hidden folders close too.
    click_point(page, *window_point(page, 250, 366 + 22))  # Downloads: focused, and opened
    click_triangle(page, "Downloads")  # and closed again
    assert page.js("return window.flowlayout.focus()") == "Downloads"
    page.record_rpc()
    page.js("document.getElementById('sidebar-collapse').click()")
    page.wait_idle()
    (sent,) = outline_sent(page)
    assert sent[0] == "layout/collapse"
    assert sorted(sent[1]) == ["Documents", "Documents/Work", "flowlayoutd", "flowlayoutd/Sources",
                               "flowlayoutd/Sources/Outline"]
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "Downloads"
    # 20 + 38 + 3 × 44 = 190, then 20 + 38: flowlayoutd at 248; 312 tall.
    assert sidebar_cells(snap) == [("Desktop", 58, 0), ("Documents", 102, 0), ("Downloads", 146, 0), ("flowlayoutd", 248, 0)]
    assert snap["contentSize"]["height"] == 312
    assert [e["box"]["y"] for e in snap["elements"] if e["focused"]] == [146]
    # Expand all: 16 rows, 58 + 10 × 44 + 20 + 38 + 9 × 44 + 20 = 972 tall.
    page.js("document.getElementById('sidebar-expand').click()")
    snap = assert_sidebar_matches_daemon(page)
    assert len(snap["rows"]) == 19 and snap["contentSize"]["height"] == 58 + 10 * 44 + 20 + 38 + 9 * 44 + 20
    assert snap["focus"] == "Downloads"
    assert [r for r, y, _ in sidebar_cells(snap) if y == 58 + 8 * 44] == ["Downloads"]
    assert [e["row"] for e in snap["elements"] if e["focused"]] == ["Downloads"]

    # On a phone (the iPhone preset, 390 × 844) the session re-opens with
    # the tree as it is and keeps the focus; in landscape (844 wide, so
    # margins of 20) the rows are 804 wide at x 20.
    page.record_rpc()
    page.set_control("device", "iphone")
    reopened = opened_layout(page)
    assert reopened["sections"][1]["outline"][0]["expanded"] is True
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "Downloads" and snap["bounds"]["height"] == 844
    page.set_control("device", "iphoneLandscape")
    snap = assert_sidebar_matches_daemon(page)
    assert {(e["box"]["x"], e["box"]["width"]) for e in snap["elements"] if e["kind"] == "cell"} == {(20, 804)}
    page.set_control("device", "iphone")


def test_sidebar_keyboard(page):
    open_sidebar(page)
    # A click on a file focuses it (and gives the sidebar the keyboard);
    # nothing opens or closes.
    page.record_rpc()
    click_point(page, *window_point(page, 250, 58 + 22))
    assert outline_sent(page) == []
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "Desktop" and snap["keyboard"]
    assert [e["row"] for e in snap["elements"] if e["focused"]] == ["Desktop"]
    focus = lambda: page.js("return window.flowlayout.focus()")  # noqa: E731
    # Down, down: Work (open).
    press(page, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert focus() == "Documents/Work"
    # Left on an open folder closes it (its two files go); the focus stays.
    page.record_rpc()
    press(page, Keys.ARROW_LEFT)
    assert outline_sent(page) == [("layout/collapse", ["Documents/Work"], {
        "deleteItems": [{"section": 0, "item": 3}, {"section": 0, "item": 4}]})]
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "Documents/Work"
    assert [(r, y) for r, y, _ in sidebar_cells(snap)] == [
        ("Desktop", 58), ("Documents", 102), ("Documents/Work", 146), ("Documents/Personal", 190),
        ("Documents/Notes.txt", 234), ("Downloads", 278), ("flowlayoutd", 380)]
    # Left on a closed one goes to the parent; right on an open parent to
    # its first child; neither sends anything.
    page.record_rpc()
    press(page, Keys.ARROW_LEFT)
    assert focus() == "Documents"
    press(page, Keys.ARROW_RIGHT)
    assert focus() == "Documents/Work"
    assert outline_sent(page) == []
    # Right on a closed folder opens it, the focus staying.
    press(page, Keys.ARROW_RIGHT)
    assert outline_sent(page) == [("layout/expand", ["Documents/Work"], {"insertItems": [
        {"section": 0, "item": 3, "id": "Documents/Work/Report.pages"},
        {"section": 0, "item": 4, "id": "Documents/Work/Budget.numbers"}]})]
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "Documents/Work" and sidebar_cells(snap) == SIDEBAR_INITIAL
    # Six downs at once reach flowlayoutd, across the sections; right opens it.
    press(page, *[Keys.ARROW_DOWN] * 6)
    assert focus() == "flowlayoutd"
    press(page, Keys.ARROW_RIGHT)
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "flowlayoutd"
    assert [r for r, _, _ in sidebar_cells(snap)][-3:] == ["flowlayoutd", "flowlayoutd/Sources", "flowlayoutd/Sources/Outline"]
    # Down to Outline.swift, below the viewport (600 to 644): the page
    # scrolls it in at the bottom (scrollToItem, trailing): bounds.y 44.
    page.record_rpc()
    press(page, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert focus() == "flowlayoutd/Sources/Outline/Outline.swift"
    assert [e["request"]["params"] for e in sent_by_page(page, "layout/scrollToItem")][-1]["position"] == "trailing"
    snap = assert_sidebar_matches_daemon(page)
    assert snap["bounds"]["y"] == 44
    (focused,) = [e for e in snap["elements"] if e["focused"]]
    assert (focused["row"], focused["box"]["y"]) == ("flowlayoutd/Sources/Outline/Outline.swift", 556)
    # Left on a file goes to its folder; up twice to flowlayoutd.
    press(page, Keys.ARROW_LEFT)
    assert focus() == "flowlayoutd/Sources/Outline"
    press(page, Keys.ARROW_UP, Keys.ARROW_UP)
    assert focus() == "flowlayoutd"
    # Collapse it, then expand it: its grandchild Outline comes back open,
    # its files with it (the flags below a collapsed node are kept).
    page.record_rpc()
    press(page, Keys.ARROW_LEFT)
    snap = assert_sidebar_matches_daemon(page)
    assert [r for r, _, _ in sidebar_cells(snap)] == [r for r, _, _ in SIDEBAR_INITIAL]
    assert snap["bounds"]["y"] == 0 and snap["contentSize"]["height"] == 532
    outline = snap["outlines"][1][0]
    assert outline["expanded"] is False and outline["children"][0]["children"][0]["expanded"] is True
    press(page, Keys.ARROW_RIGHT)
    assert [(m, ids) for m, ids, _ in outline_sent(page)] == [
        ("layout/collapse", ["flowlayoutd"]), ("layout/expand", ["flowlayoutd"])]
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "flowlayoutd"
    assert snap["rows"][9:13] == [
        {"id": "flowlayoutd/Sources", "section": 1, "item": 1},
        {"id": "flowlayoutd/Sources/Outline", "section": 1, "item": 2},
        {"id": "flowlayoutd/Sources/Outline/Outline.swift", "section": 1, "item": 3},
        {"id": "flowlayoutd/Sources/Outline/Expand.swift", "section": 1, "item": 4}]
    assert [e["triangle"] for e in snap["elements"] if e["row"] == "flowlayoutd/Sources/Outline"] == ["\u25be"]
    # A focused row hidden by a collapse hands the focus to its nearest
    # visible ancestor.
    press(page, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert focus() == "flowlayoutd/Sources/Outline"
    page.js("window.flowlayout.toggleSidebarRow('flowlayoutd')")
    snap = assert_sidebar_matches_daemon(page)
    assert snap["focus"] == "flowlayoutd"
    artifacts = REPO / ".build" / "artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    press(page, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert page.d.save_screenshot(str(artifacts / "web-sidebar.png")), "no screenshot"


# MARK: drag to reorder


def reorder_twin(page: Page, params: dict, origin: int, target: int) -> dict:
    """The daemon's attributes for the page's bounds of a twin session
    holding the page's data with card `origin` at `target`, by the card's
    index in the page's data."""
    sections = json.loads(json.dumps(params["sections"]))
    n = sections[0].get("itemCount") or len(sections[0]["itemSizes"])
    order = list(range(n))
    order.insert(target, order.pop(origin))
    if "itemSizes" in sections[0]:
        sections[0]["itemSizes"] = [sections[0]["itemSizes"][k] for k in order]
    twin = {**params, "session": "reorder-twin", "sections": sections}
    attributes = page.js_async(
        """
        const fl = window.flowlayout;
        const twin = arguments[0];
        twin.bounds = fl.bounds();
        fl.request('layout/open', twin)
          .then(() => fl.request('layout/attributesInRect', {session: twin.session, rect: twin.bounds}))
          .then((r) => fl.request('layout/close', {session: twin.session}).then(() => done(r.attributes)),
                (e) => done({error: String(e)}));
        """,
        twin,
    )
    return {order[a["item"]]: a for a in attributes if a["kind"] == "cell"}


def assert_reorder_step(page: Page, params: dict, origin: int) -> None:
    """Mid-drag: the DOM draws the page's picture; the dragged card is
    centred where the page last sent the finger; every other card stands
    where a session holding the data with the card at the target puts it."""
    page.wait("the movement's answer", lambda: page.js(
        "return window.flowlayout.synced() && window.flowlayout.reorderTarget() !== null"))
    snap = page.js_async(
        """
        const fl = window.flowlayout;
        const view = document.getElementById('viewport');
        const v = view.getBoundingClientRect();
        const cards = [...view.querySelectorAll('.card:not(.ghost)')].map((el) => {
          const box = el.getBoundingClientRect();
          return {section: Number(el.dataset.section), item: Number(el.dataset.item), kind: el.dataset.kind,
                  moving: el.classList.contains('moving'),
                  box: {x: box.left - v.left - view.clientLeft, y: box.top - v.top - view.clientTop,
                        width: box.width, height: box.height}};
        });
        done({bounds: fl.bounds(), picture: fl.picture(), cards, target: fl.reorderTarget()});
        """
    )
    bounds, picture = snap["bounds"], snap["picture"]
    by_key = {(a["kind"], a["section"], a["item"]): a for a in picture}
    assert len(snap["cards"]) == len(picture)
    for c in snap["cards"]:
        a = by_key[(c["kind"], c["section"], c["item"])]
        for axis in ("x", "y"):
            assert abs(c["box"][axis] - (a["frame"][axis] - bounds[axis])) <= 0.5, (c, a)
        assert c["moving"] == bool(a.get("moving")), (c, a)
    moving = [a for a in picture if a.get("moving")]
    assert [(a["section"], a["item"]) for a in moving] == [(0, origin)], moving
    sent = [e for e in page.sent() if e["request"]["method"] == "layout/updateInteractiveMovement"]
    assert moving[0]["center"] == sent[-1]["request"]["params"]["position"]
    assert sent[-1]["answer"]["result"]["target"] == snap["target"]
    twin = reorder_twin(page, params, origin, snap["target"]["item"])
    for a in picture:
        if a["kind"] == "cell" and not a.get("moving"):
            assert a["frame"] == twin[a["item"]]["frame"], (a, twin[a["item"]])


def test_drag_to_reorder_in_the_grid_and_the_waterfall(page):
    page.set_control("count", 30)
    # Tall enough that a drag between cards stays clear of the edges,
    # where the page would autoscroll.
    height = 600
    page.set_control("viewportHeight", height)
    for layout in ("flow", "waterfall"):
        page.record_rpc()
        pick_layout(page, layout)
        params = opened_layout(page)
        assert params["layout"]["reorderTargeting"] == "nearest"
        page.js("document.getElementById('reorder').checked = true")
        cards = page.js("return window.flowlayout.cards()")
        picture = page.js("return window.flowlayout.picture()")
        b = page.js("return window.flowlayout.bounds()")
        # Card centres in the viewport; the drag stays away from its edges,
        # where the page would autoscroll.
        centre = {a["item"]: (a["frame"]["x"] + a["frame"]["width"] / 2 - b["x"],
                              a["frame"]["y"] + a["frame"]["height"] / 2 - b["y"])
                  for a in picture if a["kind"] == "cell"}
        band = sorted(k for k, (x, y) in centre.items() if 65 <= y <= height - 65)
        assert len(band) >= 2, centre
        origin, dest = band[0], band[-1]
        (x0, y0), (x1, y1) = centre[origin], centre[dest]
        to_viewport = lambda x, y: (round(x - VIEWPORT[0] / 2), round(y - height / 2))  # noqa: E731
        ActionChains(page.d, duration=50).move_to_element_with_offset(page.viewport, *to_viewport(x0, y0)) \
            .click_and_hold().perform()
        for k in range(1, 6):
            x, y = x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5
            ActionChains(page.d, duration=50).move_to_element_with_offset(page.viewport, *to_viewport(x, y)).perform()
            assert_reorder_step(page, params, origin)
        target = page.js("return window.flowlayout.reorderTarget()")["item"]
        assert target > origin
        ActionChains(page.d).release().perform()
        page.wait_idle()
        ends = [e for e in page.sent() if e["request"]["method"] == "layout/endInteractiveMovement"]
        assert len(ends) == 1 and ends[0]["answer"]["result"]["updates"] == {
            "moveItems": [{"from": {"section": 0, "item": origin}, "to": {"section": 0, "item": target}}]}
        moved = cards[:]
        moved.insert(target, moved.pop(origin))
        assert page.js("return window.flowlayout.cards()") == moved
        page.assert_matches_daemon()
        page.js("document.getElementById('reorder').checked = false")


# MARK: (n) phone-sized viewports, the URL state and the screenshot (issue #45)


def fresh(bridge, browser, state: str = "") -> Page:
    load(browser, bridge.url + state)
    p = Page(browser)
    p.wait("the page to open its session", lambda: p.js("return !!window.flowlayout"), timeout=15)
    p.wait_idle(timeout=15)
    return p


def viewport_size(page: Page) -> tuple[float, float]:
    r = page.js("const r = document.getElementById('viewport').getBoundingClientRect(); return [r.width, r.height];")
    return (r[0], r[1])


def test_viewport_presets(bridge, browser):
    """The page opens at a phone's size (iPhone, 390×844); the presets set
    the viewport, and a size of no preset is custom."""
    page = fresh(bridge, browser)
    assert page.js("return document.querySelector('[name=device]').value") == "iphone"
    assert viewport_size(page) == (390, 844)
    assert page.js("return window.flowlayout.bounds()") == {"x": 0, "y": 0, "width": 390, "height": 844}
    assert page.js("return location.hash") == "#coverFlow"
    for device, size in (("iphoneLandscape", (844, 390)), ("ipad", (820, 1180)), ("iphone", (390, 844))):
        page.set_control("device", device)
        assert viewport_size(page) == size
        assert page.js("return [window.flowlayout.config().viewportWidth, window.flowlayout.config().viewportHeight]") == list(size)
        page.assert_matches_daemon()
    page.set_control("viewportWidth", 500)
    assert page.js("return document.querySelector('[name=device]').value") == "custom"
    assert page.js("return location.hash") == "#coverFlow?viewport=500x844"
    page.set_control("viewportHeight", 844)
    page.set_control("viewportWidth", 390)
    assert page.js("return document.querySelector('[name=device]').value") == "iphone"


def test_url_state(bridge, browser):
    """A URL per tab and settings: the issue's `#pager?transformer=cubic`
    opens the pager with the cubic transformer; the URL follows every
    change; a URL loaded later (or edited) sets the page again; what the
    page does not have is said."""
    if "cubic" not in pager_transformers(fresh(bridge, browser)):
        pytest.fail("the daemon lists no cubic transformer")
    page = fresh(bridge, browser, "#pager?transformer=cubic")
    config = page.js("return window.flowlayout.config()")
    assert (config["layout"], config["pagerTransformer"]) == ("pager", "cubic")
    assert page.js("return location.hash") == "#pager?transformer=cubic"
    assert page.js("return document.getElementById('layout-name').textContent") == "pager \u00b7 cubic"
    page.assert_matches_daemon()
    page.set_control("pagerWrap", "on")
    assert page.js("return location.hash") == "#pager?transformer=cubic&wrap=on"
    # Settings of other tabs keep their full names; the viewport its size.
    page = fresh(bridge, browser, "#coverFlow?tilt=true&maxAngle=30&count=4&viewport=375x300")
    config = page.js("return window.flowlayout.config()")
    assert (config["tilt"], config["maxAngle"], config["count"]) == (True, 30, 4)
    assert viewport_size(page) == (375, 300)
    assert page.js("return window.flowlayout.cards().length") == 4
    page.assert_matches_daemon()
    # Editing the URL (a hashchange, no reload) sets the page too.
    session = page.js("return window.flowlayout.session")
    page.js("location.hash = '#flow?device=ipad'")
    page.wait("the grid", lambda: page.js("return window.flowlayout.config().layout") == "flow", timeout=15)
    page.wait_idle(timeout=15)
    assert page.js("return window.flowlayout.session") == session
    assert viewport_size(page) == (820, 1180)
    assert page.js("return window.flowlayout.config().count") == 10  # the rest back to the defaults
    page.assert_matches_daemon()
    # What the page does not have is said, and the rest applies.
    page = fresh(bridge, browser, "#pager?transformer=sideways&colour=red&wrap=on")
    assert page.js("return window.flowlayout.config().pagerWrap") == "on"
    error = page.js("return document.getElementById('error').textContent")
    assert error == 'the URL names what the page does not have: transformer=sideways, no setting "colour"', error


def test_the_status_column_keeps_its_width_and_a_tab_change_clears_the_release(page):
    def status_width() -> float:
        return page.js("return document.querySelector('.hud dl').getBoundingClientRect().width")

    before = status_width()
    assert page.js("return document.getElementById('release').textContent") == "\u2013"
    page.drag(-300, pause=0)
    page.wait_idle()
    assert page.js("return document.getElementById('release').textContent").startswith("v ")
    assert status_width() == before
    pick_layout(page, "flow")
    assert page.js("return window.flowlayout.lastRelease()") is None
    assert page.js("return document.getElementById('release').textContent") == "\u2013"
    assert status_width() == before


def test_flowlayout_web_screenshot(tmp_path):
    """`flowlayout web --screenshot PATH --url-state STATE` (docs/web-client.md):
    a PNG of the window, the pager with the cubic transformer drawn in it."""
    out = tmp_path / "pager.png"
    env = dict(os.environ, FLOWLAYOUTD=os.path.abspath(DAEMON), PYTHONPATH=str(REPO / "clients" / "python"))
    done = subprocess.run(
        [sys.executable, "-m", "flowlayout", "web", "--screenshot", str(out), "--url-state",
         "pager?transformer=cubic", "--window", "900x1000"],
        capture_output=True, text=True, env=env, timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert "#pager?transformer=cubic" in done.stderr
    from PIL import Image
    image = Image.open(out).convert("RGB")
    assert image.size == (900, 1000)
    # The centred page is drawn: the viewport (24 px in, below the header)
    # holds the page's card colours, not only the background.
    colours = {image.getpixel((x, y)) for x in range(40, 400, 8) for y in range(300, 700, 8)}
    assert len(colours) > 20, len(colours)
    bad = subprocess.run([sys.executable, "-m", "flowlayout", "web", "--screenshot", str(out), "--window", "9x9"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "--window must be 100 to 8000 pixels each way" in bad.stderr
