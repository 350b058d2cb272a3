"""One flowlayoutd session that every third-party JSON-RPC client drives
(test_lsp_clients.py, test_editor_clients.py, test_third_party_client.py),
and the answers it must get, worked out by hand from protocol.md.

The layout: a coverFlow of five 100x100 cards, 20 apart, in a 300x200
viewport, scaled by clamp(1 - 0.5*d, 0.5, ...) with d the distance from the
viewport's centre in viewport widths (so one pitch, 120 points, is d = 0.4,
scale 0.8; two pitches d = 0.8, scale 0.6).

- Insets (`ends: "center"`): (300 - 100) / 2 = 100 before and after along
  the scroll axis, (200 - 100) / 2 = 50 across. Card k spans
  100 + 120k ... 200 + 120k, centre (150 + 120k, 100); its rest offset is
  120k. contentSize = 100 + 5*100 + 4*20 + 100 = 780 by 200; offsets run
  0 ... 480.
- open at x = 0 (centre 150): card 0 at scale 1, frame (100, 50, 100, 100);
  card 1 120 away: scale 0.8, frame (230, 60, 80, 80), zIndex
  -(2*120 + 1) = -241 (past the centre). Card 2 (scale 0.6, 360 ... 420) is
  off screen.
- setBounds x = 240 (centre 390, card 2's rest offset): card 0 is now
  120 ... 180 (scale 0.6), off screen: removed. Card 1 keeps its frame but
  is now before the centre: zIndex -240, so it is sent again; cards 2
  (scale 1, frame (340, 50, 100, 100)) and 3 (frame (470, 60, 80, 80),
  zIndex -241) are new. Card 4 (600 ... 660) is off screen.
- scrollEnded from 240 at 1 pt/ms: 240 + 499 = 739, clamped to 480, the
  last card's rest offset: target 480, card 4, policy "nearest". The
  trajectory (frameInterval 1000) is 240 + 240*(1 - 0.998^t), settled at
  T = ln(0.5/240) / ln 0.998 = 3083.8 ms: samples at 0, 1000, 2000, 3000
  and the target at 4000 = durationMs.
- performBatchUpdates deleting item 0: four cards, content 660 wide; the
  anchor (the centred card, old item 2, now item 1, centre 270) stays at the
  viewport's centre: bounds x = 270 - 150 = 120. Visible 120 ... 420: item 0
  (old 1, centre 150, scale 0.8, frame (110, 60, 80, 80), zIndex -240),
  item 1 (centre 270, frame (220, 50, 100, 100)), item 2 (centre 390,
  frame (350, 60, 80, 80), zIndex -241); all three differ from what the
  picture held under their index paths, so all are invalidated; (0, 3) (old
  item 4, now 480 ... 540) left the picture: removed. Old items 1, 2, 3
  moved by -120 (fromFrame -> frame); the deleted item 0 was not in the
  picture, so nothing disappears.
- Errors: a negative bounds width is -32602 naming params.bounds.width; an
  unknown session is 1001 naming params.session.
"""

from __future__ import annotations

import math
from typing import Any

from daemon_support import assert_close

SESSION = "deck"
VIEW = {"width": 300, "height": 200}

OPEN = {
    "session": SESSION,
    "layout": {
        "type": "coverFlow",
        "itemSize": {"width": 100, "height": 100},
        "minimumLineSpacing": 20,
        "scale": {"curve": "linear", "peak": 1, "factor": 0.5, "minimum": 0.5},
    },
    "bounds": {"x": 0, "y": 0, **VIEW},
    "sections": [{"itemCount": 5}],
}

#: The session after initialize, in order: (method, params). Every client
#: sends exactly these; the answers are checked by check_outcomes.
STEPS: list[tuple[str, dict]] = [
    ("layout/open", OPEN),
    ("layout/setBounds", {"session": SESSION, "bounds": {"x": 240, "y": 0, **VIEW}}),
    ("layout/scrollEnded", {"session": SESSION, "contentOffset": {"x": 240, "y": 0},
                            "velocity": {"x": 1, "y": 0}, "frameInterval": 1000}),
    ("layout/performBatchUpdates", {"session": SESSION, "updates": {"deleteItems": [{"section": 0, "item": 0}]}}),
    ("layout/setBounds", {"session": SESSION, "bounds": {"x": 0, "y": 0, "width": -1, "height": 200}}),
    ("layout/contentSize", {"session": "nope"}),
    ("layout/contentSize", {"session": SESSION}),
    ("layout/close", {"session": SESSION}),
]

IDENTITY = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]


def card(item: int, cx: float, scale: float, z: int) -> dict:
    """A card's attributes: centre (cx, 100), 100x100, scaled about its centre."""
    half = 50.0 * scale
    a: dict[str, Any] = {
        "kind": "cell", "section": 0, "item": item,
        "center": {"x": cx, "y": 100.0},
        "size": {"width": 100.0, "height": 100.0},
        "frame": {"x": cx - half, "y": 100.0 - half, "width": 2 * half, "height": 2 * half},
        "alpha": 1.0, "zIndex": z,
    }
    if scale != 1:
        a["transform"] = [scale, 0.0, 0.0, 0.0, 0.0, scale, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    return a


def rect(x: float, y: float, w: float, h: float) -> dict:
    return {"x": x, "y": y, "width": w, "height": h}


def trajectory(start: float, target: float, interval: float, rate: float = 0.998) -> tuple[float, list[dict]]:
    """protocol.md's deceleration: offset(t) = start + D*(1 - r^t), samples
    at 0, F, ... (N = ceil(T/F) of them, r^(kF) taken as (r^F)^k by repeated
    multiplication) and the target at N*F."""
    delta = target - start
    settle = math.log(0.5 / abs(delta)) / math.log(rate)
    n = max(1, math.ceil(settle / interval))
    # r^(kF) as q^k, q = r^F multiplied in k times, as the daemon takes it.
    q, rest, xs = rate**interval, 1.0, []
    for _ in range(n):
        xs.append(start + delta * (1 - rest))
        rest *= q
    xs.append(target)
    return n * interval, [{"x": x, "y": 0.0} for x in xs]


DURATION, TRAJECTORY = trajectory(240.0, 480.0, 1000.0)

EXPECTED_RESULTS: list[Any] = [
    # layout/open
    {
        "contentSize": {"width": 780.0, "height": 200.0},
        "bounds": rect(0.0, 0.0, 300.0, 200.0),
        "attributes": [card(0, 150.0, 1.0, 0), card(1, 270.0, 0.8, -241)],
        "centeredItem": {"section": 0, "item": 0},
    },
    # layout/setBounds to card 2
    {
        "contentSize": {"width": 780.0, "height": 200.0},
        "bounds": rect(240.0, 0.0, 300.0, 200.0),
        "invalidated": [card(1, 270.0, 0.8, -240), card(2, 390.0, 1.0, 0), card(3, 510.0, 0.8, -241)],
        "removed": [{"kind": "cell", "section": 0, "item": 0}],
        "centeredItem": {"section": 0, "item": 2},
    },
    # layout/scrollEnded
    {
        "targetContentOffset": {"x": 480.0, "y": 0.0},
        "targetItem": {"section": 0, "item": 4},
        "projectedContentOffset": {"x": 480.0, "y": 0.0},
        "policy": "nearest",
        "durationMs": DURATION,
        "trajectory": TRAJECTORY,
    },
    # layout/performBatchUpdates: delete item 0
    {
        "contentSize": {"width": 660.0, "height": 200.0},
        "bounds": rect(120.0, 0.0, 300.0, 200.0),
        "invalidated": [card(0, 150.0, 0.8, -240), card(1, 270.0, 1.0, 0), card(2, 390.0, 0.8, -241)],
        "removed": [{"kind": "cell", "section": 0, "item": 3}],
        "centeredItem": {"section": 0, "item": 1},
        "appearing": [],
        "disappearing": [],
        "moved": [
            {"kind": "cell", "section": 0, "item": 0, "from": {"section": 0, "item": 1},
             "fromFrame": rect(230.0, 60.0, 80.0, 80.0), "frame": rect(110.0, 60.0, 80.0, 80.0)},
            {"kind": "cell", "section": 0, "item": 1, "from": {"section": 0, "item": 2},
             "fromFrame": rect(340.0, 50.0, 100.0, 100.0), "frame": rect(220.0, 50.0, 100.0, 100.0)},
            {"kind": "cell", "section": 0, "item": 2, "from": {"section": 0, "item": 3},
             "fromFrame": rect(470.0, 60.0, 80.0, 80.0), "frame": rect(350.0, 60.0, 80.0, 80.0)},
        ],
    },
    None,  # the bad bounds: an error
    None,  # the unknown session: an error
    # layout/contentSize: the failed request changed nothing
    {"contentSize": {"width": 660.0, "height": 200.0}},
    # layout/close
    None,
]

EXPECTED_ERRORS = {
    4: {"code": -32602, "message": "params.bounds.width must be a finite number >= 0",
        "data": {"field": "params.bounds.width"}},
    5: {"code": 1001, "message": 'unknown session "nope"', "data": {"field": "params.session"}},
}


def check_outcomes(outcomes: list[dict]) -> None:
    """`outcomes[i]` is {"result": …} or {"error": {code, message, data}}
    for STEPS[i], however the client reported it."""
    assert len(outcomes) == len(STEPS), outcomes
    for i, ((method, _), got) in enumerate(zip(STEPS, outcomes)):
        where = f"step {i} ({method})"
        if i in EXPECTED_ERRORS:
            assert "error" in got, f"{where}: expected an error, got {got!r}"
            err = got["error"]
            want = EXPECTED_ERRORS[i]
            assert err["code"] == want["code"], f"{where}: {err!r}"
            assert err["message"] == want["message"], f"{where}: {err!r}"
            if want["code"] == -32602:
                # protocol.md: the message starts with the field's path.
                assert err["message"].startswith(want["data"]["field"] + " "), f"{where}: {err!r}"
            assert err.get("data") == want["data"], f"{where}: {err!r}"
        else:
            assert "error" not in got, f"{where}: failed: {got['error']!r}"
            assert_close(got.get("result"), EXPECTED_RESULTS[i], where)


def check_initialize(result: dict) -> None:
    assert result["serverInfo"]["name"] == "flowlayoutd", result
    caps = result["capabilities"]
    assert "coverFlow" in caps["layoutTypes"], caps
    for method, _ in STEPS:
        assert method in caps["methods"], (method, caps["methods"])
