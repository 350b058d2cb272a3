"""The seed scenario: a cover-flow carousel of 10 cards of 200x300 with line
spacing 30, scale factor 0.5 (minimum 0.6, the default), in a 375x300
viewport. Every expected value is worked out here from the formulas:

  section inset left/right = (375 - 200) / 2 = 87.5
  card i centre            = (87.5 + 100 + 230 i, 150)
  contentSize              = (2*87.5 + 10*200 + 9*30, 300) = (2445, 300)
  d                        = |card centre x - (bounds.x + 187.5)|
  scale s                  = max(0.6, 1 - 0.5 * d / 375)
  frame                    = the 200x300 box scaled by s about the centre
  transform                = [s,0,0,0, 0,s,0,0, 0,0,1,0, 0,0,0,1], omitted when s == 1
  zIndex                   = -(floor(d)*2 + (1 if the card is right of centre else 0))

scrollEnded snaps the card nearest the proposed viewport's centre to the
centre: target x = that card's centre - 187.5, clamped to [0, 2445 - 375].
"""

from __future__ import annotations

import json
import math

import pytest

from daemon_support import assert_close, snap_target

W, H = 375.0, 300.0
CARD_W, CARD_H = 200.0, 300.0
SPACING = 30.0
N = 10
INSET = (W - CARD_W) / 2  # 87.5
PITCH = CARD_W + SPACING  # 230
CONTENT_W = 2 * INSET + N * CARD_W + (N - 1) * SPACING
MAX_X = CONTENT_W - W

SEED = {
    "session": "seed",
    "layout": {
        "type": "coverFlow",
        "itemSize": {"width": 200, "height": 300},
        "minimumLineSpacing": 30,
        "scale": {"factor": 0.5},
    },
    "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}


def bounds(x: float) -> dict:
    return {"x": x, "y": 0, "width": W, "height": H}


def card_center_x(i: int) -> float:
    return INSET + CARD_W / 2 + i * PITCH


def expected_card(i: int, bx: float) -> dict:
    """Card i's attributes when the viewport's origin is at x = bx."""
    cx, cy = card_center_x(i), H / 2
    offset = cx - (bx + W / 2)
    d = abs(offset)
    s = max(0.6, 1 - 0.5 * d / W)
    w, h = CARD_W * s, CARD_H * s
    a = {
        "kind": "cell",
        "section": 0,
        "item": i,
        "center": {"x": cx, "y": cy},
        "size": {"width": CARD_W, "height": CARD_H},
        "frame": {"x": cx - w / 2, "y": cy - h / 2, "width": w, "height": h},
        "alpha": 1,
        "zIndex": -(math.floor(d) * 2 + (1 if offset > 0 else 0)),
    }
    if s != 1:
        a["transform"] = [s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    return a


def expected_visible(bx: float) -> list:
    """The cards whose scaled frame overlaps the viewport (touching edges do
    not count), in item order."""
    out = []
    for i in range(N):
        a = expected_card(i, bx)
        lo = a["frame"]["x"]
        hi = lo + a["frame"]["width"]
        # Keep the chosen offsets clear of edge ties, where rounding decides.
        assert abs(lo - (bx + W)) > 1e-6 and abs(hi - bx) > 1e-6, (i, bx)
        if lo < bx + W and hi > bx:
            out.append(a)
    return out


def nearest_card(center_x: float) -> int:
    """The card whose centre is nearest; a tie goes to the earlier card."""
    return min(range(N), key=lambda i: (abs(card_center_x(i) - center_x), i))


def removed_entry(i: int) -> dict:
    return {"kind": "cell", "section": 0, "item": i}


@pytest.fixture
def seed(server):
    server.opened = server.call("layout/open", SEED)
    return server


def test_hand_computed_constants():
    assert INSET == 87.5
    assert card_center_x(0) == 187.5 and card_center_x(9) == 2257.5
    assert CONTENT_W == 2445 and MAX_X == 2070


def test_open_at_zero(seed):
    r = seed.opened
    # Literal values for the two visible cards.
    s1 = 1 - 0.5 * 230 / 375  # card 1 is 230 points right of centre
    literal = [
        {
            "kind": "cell", "section": 0, "item": 0,
            "center": {"x": 187.5, "y": 150}, "size": {"width": 200, "height": 300},
            "frame": {"x": 87.5, "y": 0, "width": 200, "height": 300},
            "alpha": 1, "zIndex": 0,
        },
        {
            "kind": "cell", "section": 0, "item": 1,
            "center": {"x": 417.5, "y": 150}, "size": {"width": 200, "height": 300},
            "frame": {"x": 417.5 - 100 * s1, "y": 150 - 150 * s1, "width": 200 * s1, "height": 300 * s1},
            "transform": [s1, 0, 0, 0, 0, s1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
            "alpha": 1, "zIndex": -461,
        },
    ]
    assert_close(r, {"contentSize": {"width": 2445, "height": 300}, "bounds": bounds(0), "attributes": literal,
                     "centeredItem": {"section": 0, "item": 0}})
    assert_close(r["attributes"], expected_visible(0))
    assert "transform" not in r["attributes"][0]


def test_content_size(seed):
    assert seed.call("layout/contentSize", {"session": "seed"}) == {"contentSize": {"width": 2445, "height": 300}}


SCROLL_PATH = [115, 230, 1000, 1337.5 - 187.5, 2070, 500.25, 1955, 0, -40, 2100]


def test_set_bounds_along_a_path(seed):
    visible = {a["item"] for a in expected_visible(0)}
    assert visible == {0, 1}
    for bx in SCROLL_PATH:
        r = seed.call("layout/setBounds", {"session": "seed", "bounds": bounds(bx)})
        exp = expected_visible(bx)
        now = {a["item"] for a in exp}
        expected = {
            "contentSize": {"width": 2445, "height": 300},
            "bounds": bounds(bx),
            "invalidated": exp,
            "removed": [removed_entry(i) for i in sorted(visible - now)],
            "centeredItem": {"section": 0, "item": nearest_card(bx + W / 2)},
        }
        assert_close(r, expected, path=f"setBounds(x={bx})")
        visible = now


def test_set_bounds_literal_values(seed):
    # x = 115: the viewport centre 302.5 is 115 from cards 0 and 1; the tie
    # goes to card 0, which is left of centre (zIndex -230; card 1 -231).
    r = seed.call("layout/setBounds", {"session": "seed", "bounds": bounds(115)})
    assert [a["item"] for a in r["invalidated"]] == [0, 1]
    assert [a["zIndex"] for a in r["invalidated"]] == [-230, -231]
    assert r["removed"] == []
    assert r["centeredItem"] == {"section": 0, "item": 0}
    # x = 230: card 1 is centred, unscaled; cards 0 and 2 at 0.6933...
    r = seed.call("layout/setBounds", {"session": "seed", "bounds": bounds(230)})
    assert [a["item"] for a in r["invalidated"]] == [0, 1, 2]
    assert [a["zIndex"] for a in r["invalidated"]] == [-460, 0, -461]
    assert "transform" not in r["invalidated"][1]
    assert r["invalidated"][1]["frame"] == {"x": 317.5, "y": 0, "width": 200, "height": 300}
    assert r["centeredItem"] == {"section": 0, "item": 1}
    # x = 1000: centre 1187.5; cards 4 (d 80) and 5 (d 150) are visible.
    r = seed.call("layout/setBounds", {"session": "seed", "bounds": bounds(1000)})
    assert [a["item"] for a in r["invalidated"]] == [4, 5]
    assert r["removed"] == [removed_entry(0), removed_entry(1), removed_entry(2)]
    assert r["centeredItem"] == {"section": 0, "item": 4}
    s4 = 1 - 0.5 * 80 / 375
    assert_close(r["invalidated"][0]["transform"], [s4, 0, 0, 0, 0, s4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    assert r["invalidated"][0]["zIndex"] == -160
    assert r["invalidated"][1]["zIndex"] == -301
    # x = 2070, the end: cards 8 and 9; 4 and 5 removed.
    r = seed.call("layout/setBounds", {"session": "seed", "bounds": bounds(2070)})
    assert [a["item"] for a in r["invalidated"]] == [8, 9]
    assert r["removed"] == [removed_entry(4), removed_entry(5)]
    assert r["centeredItem"] == {"section": 0, "item": 9}
    assert r["invalidated"][1]["zIndex"] == 0 and "transform" not in r["invalidated"][1]


def test_minimum_scale_applies_far_from_centre(seed):
    # Card 5 at x = 0 is 1150 from the centre: 1 - 0.5*1150/375 < 0.6.
    a = seed.call("layout/attributesForItem", {"session": "seed", "section": 0, "item": 5})["attributes"]
    assert_close(
        a,
        {
            "kind": "cell", "section": 0, "item": 5,
            "center": {"x": 1337.5, "y": 150}, "size": {"width": 200, "height": 300},
            "frame": {"x": 1277.5, "y": 60, "width": 120, "height": 180},
            "transform": [0.6, 0, 0, 0, 0, 0.6, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
            "alpha": 1, "zIndex": -2301,
        },
    )


@pytest.mark.parametrize("bx", [0, 1000, 2070])
def test_attributes_for_every_item_and_whole_content(seed, bx):
    seed.call("layout/setBounds", {"session": "seed", "bounds": bounds(bx)})
    for i in range(N):
        r = seed.call("layout/attributesForItem", {"session": "seed", "section": 0, "item": i})
        assert_close(r, {"attributes": expected_card(i, bx)})
    r = seed.call("layout/attributesInRect", {"session": "seed", "rect": {"x": 0, "y": 0, "width": 2445, "height": 300}})
    assert_close(r, {"attributes": [expected_card(i, bx) for i in range(N)]})
    # A rect over cards 3..4 only (untouched by scale at their own edges).
    r = seed.call(
        "layout/attributesInRect",
        {"session": "seed", "rect": {"x": card_center_x(3) - 10, "y": 100, "width": 230, "height": 10}},
    )
    assert [a["item"] for a in r["attributes"]] == [3, 4]


@pytest.mark.parametrize(
    "offset, proposed, target_x, item",
    [
        (100, None, 0, 0),  # no proposal: contentOffset centre 287.5 -> card 0
        (0, 130, 230, 1),  # centre 317.5 is nearer card 1 (100) than card 0 (130)
        (0, 115, 0, 0),  # a tie (115 each): the earlier card
        (0, 1000, 920, 4),  # centre 1187.5 -> card 4 at 1107.5
        (1000, 1000, 920, 4),
        (2070, None, 1380, 6),  # projected 2070 - 1.5 * 499 = 1321.5: centre 1509 -> card 6
        (0, 1955, 1840, 8),  # tie between 8 and 9 -> 8
        (0, 2000, 2070, 9),
        (0, 99999, 2070, 9),  # far beyond the visible cards: the last card
        (500, -5000, 0, 0),  # far before: the first card, clamped at 0
        (300, 1e9, 2070, 9),
    ],
)
def test_scroll_ended_snaps(seed, offset, proposed, target_x, item):
    params = {"session": "seed", "contentOffset": {"x": offset, "y": 0}, "velocity": {"x": -1.5, "y": 0}}
    if proposed is not None:
        params["proposedContentOffset"] = {"x": proposed, "y": 0}
    # The formula agrees with the literal table. Without a proposal the
    # release is projected: offset + v * 0.998 / 0.002 = offset - 748.5.
    px = max(0, offset - 1.5 * 499) if proposed is None else proposed
    k = nearest_card(px + W / 2)
    assert (k, min(max(card_center_x(k) - W / 2, 0), MAX_X)) == (item, target_x)
    r = seed.call("layout/scrollEnded", params)
    assert_close(snap_target(r), {"targetContentOffset": {"x": target_x, "y": 0}, "targetItem": {"section": 0, "item": item}})


def test_scroll_ended_clamps_y_and_ignores_null_proposal(seed):
    r = seed.call(
        "layout/scrollEnded",
        {"session": "seed", "contentOffset": {"x": 0, "y": 0}, "velocity": {"x": 0, "y": 0},
         "proposedContentOffset": {"x": 1000, "y": 55}},
    )
    assert_close(snap_target(r), {"targetContentOffset": {"x": 920, "y": 0}, "targetItem": {"section": 0, "item": 4}})
    r = seed.call(
        "layout/scrollEnded",
        {"session": "seed", "contentOffset": {"x": 470, "y": -20}, "velocity": {"x": 0, "y": 0},
         "proposedContentOffset": None},
    )
    # contentOffset centre 657.5 -> card 2 (647.5): 460.
    assert_close(snap_target(r), {"targetContentOffset": {"x": 460, "y": 0}, "targetItem": {"section": 0, "item": 2}})


def test_scroll_ended_does_not_move_the_viewport(seed):
    before = seed.call("layout/attributesInRect", {"session": "seed", "rect": {"x": 0, "y": 0, "width": 2445, "height": 300}})
    seed.call(
        "layout/scrollEnded",
        {"session": "seed", "contentOffset": {"x": 0, "y": 0}, "velocity": {"x": 3, "y": 0},
         "proposedContentOffset": {"x": 1500, "y": 0}},
    )
    after = seed.call("layout/attributesInRect", {"session": "seed", "rect": {"x": 0, "y": 0, "width": 2445, "height": 300}})
    assert after == before
    assert_close(after["attributes"], [expected_card(i, 0) for i in range(N)])


def test_item_at_point(seed):
    def hit(x, y):
        return seed.call("layout/itemAtPoint", {"session": "seed", "point": {"x": x, "y": y}})

    assert hit(187.5, 150) == {"section": 0, "item": 0}
    assert hit(87.5, 0) == {"section": 0, "item": 0}  # the frame's corner counts
    assert hit(300, 150) is None  # between card 0 and the shrunken card 1
    assert hit(400, 150) == {"section": 0, "item": 1}
    s1 = 1 - 0.5 * 230 / 375
    assert hit(417.5, 150 - 150 * s1 - 1) is None  # above the scaled card 1
    assert hit(2257.5, 150) == {"section": 0, "item": 9}
    assert hit(5000, 150) is None


def test_resizing_the_viewport_recomputes_the_insets(seed):
    # 475x400: insets (475-200)/2 = 137.5 along, (400-300)/2 = 50 across.
    r = seed.call("layout/setBounds", {"session": "seed", "bounds": {"x": 0, "y": 0, "width": 475, "height": 400}})
    assert r["contentSize"] == {"width": 2 * 137.5 + 2000 + 270, "height": 400}
    first = r["invalidated"][0]
    assert first["item"] == 0 and "transform" not in first
    assert first["frame"] == {"x": 137.5, "y": 50, "width": 200, "height": 300}
    assert r["centeredItem"] == {"section": 0, "item": 0}
    s = seed.call(
        "layout/scrollEnded",
        {"session": "seed", "contentOffset": {"x": 0, "y": 0}, "velocity": {"x": 0, "y": 0},
         "proposedContentOffset": {"x": 99999, "y": 0}},
    )
    assert snap_target(s) == {"targetContentOffset": {"x": 2545 - 475, "y": 0}, "targetItem": {"section": 0, "item": 9}}


# -- variations on the seed's curves -----------------------------------------


def test_scaled_up_cards_overlap_and_the_nearest_is_on_top(server):
    # A constant scale of 1.5: cards are 300x450, so neighbours (230 apart)
    # overlap by 70 and reach outside their untransformed frames.
    p = json.loads(json.dumps(SEED))
    p["layout"]["scale"] = {"peak": 1.5, "factor": 0}
    server.call("layout/open", p)
    a0 = server.call("layout/attributesForItem", {"session": "seed", "section": 0, "item": 0})["attributes"]
    assert_close(a0["frame"], {"x": 37.5, "y": -75, "width": 300, "height": 450})
    assert_close(a0["transform"], [1.5, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    # x = 290 lies in neither untransformed frame (87.5..287.5, 317.5..517.5)
    # but in both scaled ones (37.5..337.5, 267.5..567.5).
    r = seed_rect(server, 290, 1)
    assert [a["item"] for a in r] == [0, 1]

    def hit(x):
        return server.call("layout/itemAtPoint", {"session": "seed", "point": {"x": x, "y": 150}})

    assert hit(300) == {"section": 0, "item": 0}  # zIndex 0 beats -461
    server.call("layout/setBounds", {"session": "seed", "bounds": bounds(230)})
    assert hit(300) == {"section": 0, "item": 1}  # now card 1 is centred
    assert hit(-70) is None


def seed_rect(server, x, w):
    return server.call(
        "layout/attributesInRect", {"session": "seed", "rect": {"x": x, "y": 0, "width": w, "height": 300}}
    )["attributes"]


def test_alpha_curve_pitch_unit_and_reciprocal_scale(server):
    p = json.loads(json.dumps(SEED))
    p["layout"]["distanceUnit"] = "pitch"  # d / (200 + 30)
    p["layout"]["scale"] = {"curve": "reciprocal", "peak": 1, "factor": 1, "minimum": 0.1}
    p["layout"]["alpha"] = {"peak": 1, "factor": 0.5, "minimum": 0.2}
    server.call("layout/open", p)
    for i in range(4):
        a = server.call("layout/attributesForItem", {"session": "seed", "section": 0, "item": i})["attributes"]
        n = i  # card i is exactly i pitches from the centre at x = 0
        s = max(0.1, 1 / (1 + n))
        alpha = max(0.2, 1 - 0.5 * n)
        assert_close(a["alpha"], alpha)
        if i == 0:
            assert "transform" not in a
        else:
            assert_close(a["transform"], [s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        assert a["zIndex"] == -(i * 230 * 2 + (1 if i else 0))


# -- extreme but finite coordinates ------------------------------------------


@pytest.mark.parametrize("px, item, target", [(1e15, 9, 2070), (1e12, 9, 2070), (-1e15, 0, 0), (-1e9, 0, 0)])
def test_scroll_ended_with_an_enormous_proposed_offset(seed, px, item, target):
    """Beyond the content the answer is the end card, whatever the magnitude
    (up to the documented 1e15): no crash, and no answer lost to rounding."""
    r = seed.request(
        "layout/scrollEnded",
        {"session": "seed", "contentOffset": {"x": 0, "y": 0}, "velocity": {"x": 0, "y": 0},
         "proposedContentOffset": {"x": px, "y": 0}},
    )
    assert snap_target(r["result"]) == {"targetContentOffset": {"x": target, "y": 0}, "targetItem": {"section": 0, "item": item}}


@pytest.mark.parametrize("px", [1e15 * 1.0000001, 1e19, 1e30, 1e300, -1e22, -1e300])
def test_coordinates_beyond_1e15_are_rejected_naming_the_field(seed, px):
    before = seed.request("layout/attributesInRect", {"session": "seed", "rect": {"x": 0, "y": 0, "width": 3000, "height": 300}})
    r = seed.request(
        "layout/scrollEnded",
        {"session": "seed", "contentOffset": {"x": 0, "y": 0}, "velocity": {"x": 0, "y": 0},
         "proposedContentOffset": {"x": px, "y": 0}},
    )
    assert r["error"]["code"] == -32602
    assert r["error"]["message"] == "params.proposedContentOffset.x must not exceed 1e15 in magnitude"
    assert r["error"]["data"] == {"field": "params.proposedContentOffset.x"}
    r = seed.request("layout/setBounds", {"session": "seed", "bounds": bounds(px)})
    assert r["error"]["data"] == {"field": "params.bounds.x"}
    after = seed.request("layout/attributesInRect", {"session": "seed", "rect": {"x": 0, "y": 0, "width": 3000, "height": 300}})
    assert before["result"] == after["result"]


@pytest.mark.parametrize("bx, item", [(1e15, 9), (-1e15, 0)])
def test_set_bounds_far_outside_the_content(seed, bx, item):
    r = seed.request("layout/setBounds", {"session": "seed", "bounds": bounds(bx)})
    assert r.get("result") == {
        "contentSize": {"width": 2445, "height": 300},
        "bounds": bounds(bx),
        "invalidated": [],
        "removed": [removed_entry(0), removed_entry(1)],
        "centeredItem": {"section": 0, "item": item},
    }


def test_attributes_in_an_enormous_rect(seed):
    r = seed.request("layout/attributesInRect", {"session": "seed", "rect": {"x": -1e15, "y": -1e15, "width": 1e15, "height": 1e15}})
    assert r["result"]["attributes"] == []
    r = seed.request("layout/attributesInRect", {"session": "seed", "rect": {"x": -1e14, "y": -1e14, "width": 1e15, "height": 1e15}})
    assert "result" in r, r
    assert_close(r["result"]["attributes"], [expected_card(i, 0) for i in range(N)])


def test_open_with_an_enormous_viewport_does_not_crash(server):
    p = dict(SEED, bounds={"x": 0, "y": 0, "width": 1e300, "height": 1e300})
    r = server.request("layout/open", p)
    # Either a layout or a -32602 naming the bounds is acceptable; a crash is not.
    if "error" in r:
        assert r["error"]["code"] == -32602 and r["error"]["data"]["field"].startswith("params.bounds"), r
    server.ping()
