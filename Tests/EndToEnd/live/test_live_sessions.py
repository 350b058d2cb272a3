"""Live sessions: picture deltas, overscan, anchoring, configure and
setItemSizes (protocol.md "Live sessions", "Anchoring", "layout/configure",
"layout/setItemSizes"). Expected values are worked out by hand in the
comments; every answer is also applied to the client's picture and checked
against attributesInRect of the visible rect (live_support.Live)."""

from __future__ import annotations

import pytest

from daemon_support import assert_close
from live_support import Live, cell, el, keys_of


def cells(keys) -> list:
    return [("cell", 0, i) for i in keys]


# -- a pure scroll across a uniform grid ------------------------------------

# 30 items of 100x50 in a 320x110 viewport: three per line (no leftover),
# lines 60 apart: item i at x = (i % 3) * 110, y = (i // 3) * 60.
# 10 lines -> contentSize 320 x (10*50 + 9*10) = 590.
GRID = {
    "session": "g",
    "layout": {"type": "flow", "itemSize": {"width": 100, "height": 50}},
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 110},
    "sections": [{"itemCount": 30}],
}


def g(i: int) -> dict:
    return cell(0, i, (i % 3) * 110, (i // 3) * 60, 100, 50)


def b(y: float, w: float = 320, h: float = 110, x: float = 0) -> dict:
    return {"x": x, "y": y, "width": w, "height": h}


def test_scroll_sends_only_rows_that_entered(server):
    live = Live(server, GRID)
    assert live.opened["attributes"] == [g(i) for i in range(6)]
    assert live.opened["contentSize"] == {"width": 320, "height": 590}

    # y 35..145: line 2 (120..170) enters; lines 0 and 1 stay unchanged.
    r = live.set_bounds(b(35))
    assert r == {
        "contentSize": {"width": 320, "height": 590},
        "bounds": b(35),
        "invalidated": [g(6), g(7), g(8)],
        "removed": [],
        # Centre (160, 90): item 4 (160, 85) is 5 away.
        "centeredItem": {"section": 0, "item": 4},
    }

    # y 130..240: lines 0, 1 leave; line 3 (180..230) enters; line 4
    # (240..290) only touches the bottom edge, which does not count.
    r = live.set_bounds(b(130))
    assert r["invalidated"] == [g(9), g(10), g(11)]
    assert keys_of(r["removed"]) == cells(range(6))
    # Centre (160, 185): item 10 (160, 205) is 20 away, item 7 40.
    assert r["centeredItem"] == {"section": 0, "item": 10}

    # To the end, y 480..590: lines 8 and 9 only.
    r = live.set_bounds(b(480))
    assert r["invalidated"] == [g(i) for i in range(24, 30)]
    assert keys_of(r["removed"]) == cells(range(6, 12))
    # Centre (160, 535): items 25 (160, 505) and 28 (160, 565) tie at 30.
    assert r["centeredItem"] == {"section": 0, "item": 25}

    # A scroll that changes nothing visible sends nothing.
    r = live.set_bounds(b(479.5))
    assert r["invalidated"] == [] and r["removed"] == []


def test_horizontal_scroll_sends_only_columns_that_entered(server):
    # Horizontal: lines are columns. 100x50 items in a 110-high viewport:
    # two per column (50+10+50 = 110, no leftover): item i at
    # x = (i // 2) * 110, y = (i % 2) * 60.
    live = Live(
        server,
        {
            "session": "h",
            "layout": {"type": "flow", "scrollDirection": "horizontal", "itemSize": {"width": 100, "height": 50}},
            "bounds": b(0, w=320, h=110),
            "sections": [{"itemCount": 20}],
        },
    )
    col = lambda i: cell(0, i, (i // 2) * 110, (i % 2) * 60, 100, 50)  # noqa: E731
    # x 0..320: columns 0 (0..100), 1 (110..210), 2 (220..320).
    assert live.opened["attributes"] == [col(i) for i in range(6)]
    # x 100..420: column 0 only touches (100): removed; column 3 (330..430) enters.
    r = live.set_bounds({"x": 100, "y": 0, "width": 320, "height": 110})
    assert r["invalidated"] == [col(6), col(7)]
    assert keys_of(r["removed"]) == cells([0, 1])


# -- cover flow: only the cards that changed ------------------------------------

# 6 cards of 100x100, 10 apart, in a 400x200 viewport, scale
# max(0.6, 1 - 4 * dist / 400) = max(0.6, 1 - dist / 100).
# Insets along x: (400 - 100) / 2 = 150 -> card i's centre x = 200 + 110 i;
# across: (200 - 100) / 2 = 50 -> centre y 100. At offset b the viewport's
# centre is b + 200, so card i is |110 i - b| from it.
CF = {
    "session": "cf",
    "layout": {
        "type": "coverFlow",
        "itemSize": {"width": 100, "height": 100},
        "minimumLineSpacing": 10,
        "scale": {"factor": 4},
    },
    "bounds": {"x": 0.25, "y": 0, "width": 400, "height": 200},
    "sections": [{"itemCount": 6}],
}


def card(i: int, s: float, z: int) -> dict:
    cx = 200 + 110 * i
    a = {
        "kind": "cell",
        "section": 0,
        "item": i,
        "center": {"x": cx, "y": 100},
        "size": {"width": 100, "height": 100},
        "frame": {"x": cx - 50 * s, "y": 100 - 50 * s, "width": 100 * s, "height": 100 * s},
        "alpha": 1,
        "zIndex": z,
    }
    if s != 1:
        a["transform"] = [s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    return a


def test_cover_flow_scroll_resends_changed_cards_only(server):
    live = Live(server, CF)
    # b = 0.25: card 0 is 0.25 before the centre (scale 0.9975, zIndex 0);
    # card 1 is 109.75 past it (0.6, -(2*109 + 1) = -219); card 2 219.75
    # past (0.6, -439), its 60-wide frame 390..450 reaching into the view.
    assert_close(live.opened["attributes"], [card(0, 0.9975, 0), card(1, 0.6, -219), card(2, 0.6, -439)])
    # b = 0.5: card 0 scales to 0.995. Cards 1 and 2 are 109.5 and 219.5
    # away: still clamped at 0.6, same floor of the distance, same zIndex:
    # unchanged, so not sent again.
    r = live.set_bounds({"x": 0.5, "y": 0, "width": 400, "height": 200})
    assert_close(r["invalidated"], [card(0, 0.995, 0)])
    assert r["removed"] == []
    assert r["centeredItem"] == {"section": 0, "item": 0}
    # b = 110: card 1 centred (scale 1, no transform); card 0 110 before
    # (-220), card 2 110 past (-221), card 3 220 past (-441) enters with its
    # frame 500..560 in the view 110..510. All four changed or entered.
    r = live.set_bounds({"x": 110, "y": 0, "width": 400, "height": 200})
    assert_close(r["invalidated"], [card(0, 0.6, -220), card(1, 1, 0), card(2, 0.6, -221), card(3, 0.6, -441)])
    assert r["removed"] == []
    assert r["centeredItem"] == {"section": 0, "item": 1}


# -- overscan -----------------------------------------------------------------


def test_overscan_widens_the_reported_set(server):
    live = Live(server, {**GRID, "overscan": 30})
    # Visible rect y -30..140: lines 0, 1 and 2 (120..170).
    assert live.opened["attributes"] == [g(i) for i in range(9)]
    # Overscan 100: y -100..210 adds line 3 (180..230). Same layout, same
    # anchor (item 0): bounds unchanged.
    r = live.configure(overscan=100)
    assert r["invalidated"] == [g(9), g(10), g(11)] and r["removed"] == []
    assert r["bounds"] == b(0)
    # Scroll to y 200: rect 100..410 = lines 1 (60..110) to 6 (360..410).
    r = live.set_bounds(b(200))
    assert r["invalidated"] == [g(i) for i in range(12, 21)]
    assert keys_of(r["removed"]) == cells(range(3))
    # Overscan 0: just the bounds 200..310 = lines 3, 4, 5 (300..350).
    r = live.configure(overscan=0)
    assert r["invalidated"] == []
    assert keys_of(r["removed"]) == cells(list(range(3, 9)) + list(range(18, 21)))
    assert r["bounds"] == b(200)


def test_overscan_is_validated(server):
    live = Live(server, GRID)
    err = live.expect_unchanged_after("layout/configure", {"overscan": -1}, -32602)
    assert err["data"] == {"field": "params.overscan"}


# -- rotation anchoring ------------------------------------------------------

# 30 items of 100x100, spacing 10, 320x480: 3 per line, lines 110 apart,
# item i at y = (i // 3) * 110; 10 lines -> height 1090.
ROT = {
    "session": "r",
    "layout": {"type": "flow", "itemSize": {"width": 100, "height": 100}},
    "bounds": {"x": 0, "y": 300, "width": 320, "height": 480},
    "sections": [{"itemCount": 30}],
}


def centre_y(live: Live, i: int) -> float:
    return live.item(0, i)["center"]["y"]


def test_flow_rotation_keeps_first_visible_item(server):
    live = Live(server, ROT)
    # y 300..780: the first visible item is 6 (line 2, 220..320), centre
    # 270: 30 above the viewport's origin.
    # At 480x320: 4 per line (4*100 + 3*10 = 430 <= 480), so item 6 is on
    # line 1, centre 160; the origin moves to 160 + 30 = 190 (valid: 8 lines
    # -> height 870, offsets 0..550). The requested y is not kept.
    r = live.set_bounds({"x": 0, "y": 300, "width": 480, "height": 320})
    assert r["bounds"] == {"x": 0, "y": 190, "width": 480, "height": 320}
    assert r["contentSize"] == {"width": 480, "height": 870}
    assert centre_y(live, 6) - r["bounds"]["y"] == -30
    # Back to 320x480: now the first visible item is 4 (line 1, 110..210,
    # centre 160, 30 above the origin); with 3 per line it is on line 1
    # again: origin 190.
    r = live.set_bounds({"x": 0, "y": 190, "width": 320, "height": 480})
    assert r["bounds"] == {"x": 0, "y": 190, "width": 320, "height": 480}
    assert centre_y(live, 4) - 190 == -30


def test_flow_rotation_is_clamped(server):
    live = Live(server, {**ROT, "bounds": {"x": 0, "y": 610, "width": 320, "height": 480}})
    # y 610..1090 (the end): first visible item 15 (line 5, 550..650),
    # centre 600, 10 above the origin. At 1000x320: 9 per line (980 <= 1000),
    # 4 lines, height 430, offsets 0..110. Item 15 is on line 1 (centre 160):
    # 160 + 10 = 170, clamped to 110.
    r = live.set_bounds({"x": 0, "y": 610, "width": 1000, "height": 320})
    assert r["bounds"] == {"x": 0, "y": 110, "width": 1000, "height": 320}
    assert r["contentSize"] == {"width": 1000, "height": 430}


def test_rotation_clamps_the_cross_axis_origin(server):
    # protocol.md, layout/setBounds: after a size change the scroll-axis
    # origin is anchored (190, as in the test above) "and then the origin
    # (both axes) is clamped to the valid offsets". Vertical flow content is
    # exactly as wide as the viewport, so x can only be 0.
    live = Live(server, ROT)
    r = live.set_bounds({"x": 5, "y": 300, "width": 480, "height": 320})
    assert r["bounds"] == {"x": 0, "y": 190, "width": 480, "height": 320}


# Cover flow, the seed's defaults: 200x300 cards 20 apart, 10 cards. In a
# 375-wide viewport the inset is (375 - 200) / 2 = 87.5: card i's centre is
# at 187.5 + 220 i. At x = 500 the centre is 687.5: card 2 (627.5) is the
# nearest, 60 before it.
CFR = {
    "session": "c",
    "layout": {"type": "coverFlow"},
    "bounds": {"x": 500, "y": 0, "width": 375, "height": 300},
    "sections": [{"itemCount": 10}],
}


def test_cover_flow_rotation_keeps_centred_card(server):
    live = Live(server, CFR)
    assert live.opened["centeredItem"] == {"section": 0, "item": 2}
    # 667x375: the inset is (667 - 200) / 2 = 233.5, card 2's centre is at
    # 233.5 + 100 + 2 * 220 = 773.5. Keeping it 60 before the centre puts the
    # centre at 833.5, the origin at 833.5 - 333.5 = 500, whatever x the
    # client sent. Content 467 + 10*200 + 9*20 = 2647 wide.
    r = live.set_bounds({"x": 0, "y": 0, "width": 667, "height": 375})
    assert r["bounds"] == {"x": 500, "y": 0, "width": 667, "height": 375}
    assert r["contentSize"] == {"width": 2647, "height": 375}
    assert r["centeredItem"] == {"section": 0, "item": 2}
    c = live.item(0, 2)
    assert c["center"] == {"x": 773.5, "y": 187.5}
    assert c["center"]["x"] - (500 + 667 / 2) == -60


def test_vertical_cover_flow_rotation_keeps_centred_card(server):
    # Vertical, 200x300 cards 20 apart in 300x600: inset (600 - 300) / 2 =
    # 150, card i's centre y = 300 + 320 i. At y 640 the centre is 940:
    # card 2, exactly centred. In 600x300 the inset is 0, card 2's centre
    # y = 150 + 640 = 790, so the origin is 790 - 150 = 640.
    live = Live(
        server,
        {
            "session": "v",
            "layout": {"type": "coverFlow", "scrollDirection": "vertical"},
            "bounds": {"x": 0, "y": 640, "width": 300, "height": 600},
            "sections": [{"itemCount": 10}],
        },
    )
    assert live.opened["centeredItem"] == {"section": 0, "item": 2}
    r = live.set_bounds({"x": 0, "y": 5, "width": 600, "height": 300})
    assert r["bounds"] == {"x": 0, "y": 640, "width": 600, "height": 300}
    assert live.item(0, 2)["center"] == {"x": 300, "y": 790}


def test_cover_flow_empty_sections_never_give_negative_content(server):
    # 200-wide cards (the default) in a 150-wide viewport: a card's computed
    # insets are (150 - 200) / 2 = -25 on each side, so that it can still
    # reach the centre. A section without cards has nothing to centre; it
    # must not make the content negative (a Size is >= 0) or push the next
    # section's card out of reach.
    live = Live(
        server,
        {
            "session": "e0",
            "layout": {"type": "coverFlow"},
            "bounds": {"x": 0, "y": 0, "width": 150, "height": 150},
            "sections": [{"itemCount": 0}],
        },
    )
    assert live.opened["contentSize"]["width"] >= 0, live.opened["contentSize"]
    live = Live(
        server,
        {
            "session": "e1",
            "layout": {"type": "coverFlow"},
            "bounds": {"x": 0, "y": 0, "width": 150, "height": 150},
            "sections": [{"itemCount": 0}, {"itemCount": 0}, {"itemCount": 1}],
        },
    )
    width = live.opened["contentSize"]["width"]
    assert width >= 0
    # The only card can be centred at some valid offset 0...max(0, width - 150).
    offset = live.item(2, 0)["center"]["x"] - 75
    assert 0 <= offset <= max(0, width - 150), (offset, width)


# -- anchoring across data changes -------------------------------------------


def test_deleted_anchor_nearest_survivor_after(server):
    live = Live(server, ROT)
    # Anchor: item 6, 30 above the origin. Delete 0, 1, 2 and 6: the nearest
    # survivor after it is old 7, now 7 - 4 = 3: line 1, centre 160 ->
    # origin 190.
    r = live.batch({"deleteItems": [{"section": 0, "item": i} for i in (0, 1, 2, 6)]})
    assert r["bounds"] == {"x": 0, "y": 190, "width": 320, "height": 480}
    assert centre_y(live, 3) - 190 == -30


def test_deleted_anchor_nearest_survivor_before(server):
    live = Live(server, ROT)
    # Delete 0, 1, 2, 6 and 7: one step after (7) is gone, one step before
    # (5) survives and wins over 8: old 5 is now 2, line 0, centre 50 ->
    # origin 80 (25 items: 9 lines, offsets 0..500).
    r = live.batch({"deleteItems": [{"section": 0, "item": i} for i in (0, 1, 2, 6, 7)]})
    assert r["bounds"] == {"x": 0, "y": 80, "width": 320, "height": 480}
    assert centre_y(live, 2) - 80 == -30


def test_cover_flow_deleted_anchor(server):
    live = Live(server, {**CFR, "bounds": {"x": 440, "y": 0, "width": 375, "height": 300}})
    # Card 2 centred (627.5 = 440 + 187.5). Delete cards 0 and 2: old 3
    # takes over, now card 1 at 407.5: origin 407.5 - 187.5 = 220.
    r = live.batch({"deleteItems": [{"section": 0, "item": 0}, {"section": 0, "item": 2}]})
    assert r["bounds"] == {"x": 220, "y": 0, "width": 375, "height": 300}
    assert r["centeredItem"] == {"section": 0, "item": 1}


def test_insert_before_anchor_keeps_it_in_place(server):
    live = Live(server, ROT)
    # Insert 3 items at the front: item 6 becomes 9 (line 3, centre 380):
    # origin 410; nothing on screen moves.
    before = {k: a["frame"]["y"] - live.bounds["y"] for k, a in live.picture.items()}
    r = live.batch({"insertItems": [{"section": 0, "item": i} for i in range(3)]})
    assert r["bounds"] == {"x": 0, "y": 410, "width": 320, "height": 480}
    after = {(k[0], k[1], k[2] - 3): a["frame"]["y"] - 410 for k, a in live.picture.items()}
    assert after == before


def test_reload_data_follows_anchor_id(server):
    ids = [f"i{i}" for i in range(30)]
    live = Live(server, {**ROT, "sections": [{"itemCount": 30, "ids": ids}]})
    # Anchor: item 6 ("i6"). Three new items in front: "i6" is item 9, line
    # 3, centre 380 -> origin 410 (11 lines, offsets 0..720).
    r = live.reload([{"itemCount": 33, "ids": ["n0", "n1", "n2"] + ids}])
    assert r["bounds"] == {"x": 0, "y": 410, "width": 320, "height": 480}
    assert centre_y(live, 9) - 410 == -30


def test_reload_data_without_ids_keeps_index_path(server):
    live = Live(server, ROT)
    # No ids: the anchor stays at index path 0-6 (centre 270): origin 300.
    r = live.reload([{"itemCount": 33}])
    assert r["bounds"] == {"x": 0, "y": 300, "width": 320, "height": 480}
    # Sized items: 0-6 is now 100x200 (line 2, 220..420, centre 320) ->
    # origin 350 (keeping it 30 above the origin).
    sizes = [{"width": 100, "height": 100}] * 6 + [{"width": 100, "height": 200}] + [{"width": 100, "height": 100}] * 23
    r = live.reload([{"itemSizes": sizes}])
    assert r["bounds"] == {"x": 0, "y": 350, "width": 320, "height": 480}
    assert centre_y(live, 6) - 350 == -30


def test_reload_data_shrinking_clamps(server):
    live = Live(server, ROT)
    # 5 items: 0-6 is gone, the nearest path is 0-4, and 2 lines (210 high)
    # fit in the viewport: offset 0.
    r = live.reload([{"itemCount": 5}])
    assert r["bounds"] == {"x": 0, "y": 0, "width": 320, "height": 480}
    assert r["contentSize"] == {"width": 320, "height": 210}
    r = live.reload([])
    assert r["bounds"] == {"x": 0, "y": 0, "width": 320, "height": 480}
    assert r["centeredItem"] is None and live.picture == {}


# -- configure ------------------------------------------------------------------

# itemSize 100x50, interitem 5, section insets 10, a 20-high header, 7
# items, 320x200. avail = 320 - 20 = 300: 3 items need 310, so 2 per line,
# the 100 left over between them: x 10 and 210. Header y 0..20; lines start
# at 20 + 10 = 30.
CONF = {
    "session": "k",
    "layout": {
        "type": "flow",
        "itemSize": {"width": 100, "height": 50},
        "minimumInteritemSpacing": 5,
        "sectionInset": {"top": 10, "left": 10, "bottom": 10, "right": 10},
        "headerReferenceSize": {"width": 0, "height": 20},
    },
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 200},
    "sections": [{"itemCount": 7}],
}


def conf_layout(line_spacing: float) -> list:
    pitch = 50 + line_spacing
    return [el("header", 0, 0, 0, 0, 320, 20)] + [
        cell(0, i, 10 if i % 2 == 0 else 210, 30 + (i // 2) * pitch, 100, 50) for i in range(7)
    ]


def test_configure_partial_update_keeps_other_fields(server):
    live = Live(server, CONF)
    # Lines at 30, 90, 150, 210 (the last, item 6, where a full line would
    # put it: x 10); + 50 + 10 inset = 270.
    assert live.whole() == conf_layout(10)
    assert live.opened["contentSize"] == {"width": 320, "height": 270}
    # Only the line spacing changes: lines at 30, 110, 190, 270; height
    # 270 + 50 + 10 = 330. Insets, interitem spacing, header, itemSize stay.
    r = live.configure(layout={"minimumLineSpacing": 30})
    assert live.whole() == conf_layout(30)
    assert r["contentSize"] == {"width": 320, "height": 330}
    # First visible item 0 (centre 55) did not move: bounds unchanged.
    assert r["bounds"] == CONF["bounds"]
    # The same type named explicitly keeps the current values too.
    live.configure(layout={"type": "flow", "minimumInteritemSpacing": 5})
    assert live.whole() == conf_layout(30)


def test_configure_other_type_starts_from_its_defaults(server):
    live = Live(server, CONF)
    r = live.configure(layout={"type": "coverFlow"})
    # coverFlow defaults, nothing kept from the flow: horizontal, 200x300
    # cards 20 apart, no header, the computed insets. In 320x200: inset
    # (320 - 200) / 2 = 60 along x, (200 - 300) / 2 = -50 across; card i at
    # x = 60 + 220 i, y -50, centre (160 + 220 i, 100). Width 60 + 7*200 +
    # 6*20 + 60 = 1640. The flow anchor clamps to offset 0.
    assert r["contentSize"] == {"width": 1640, "height": 200}
    assert r["bounds"] == CONF["bounds"]
    # Card 0 centred (scale 1); card 1 is 220 away: scale 1 - 0.4 * 220 /
    # 320 = 0.725, frame 145 x 217.5 around (380, 100); zIndex -(440 + 1).
    # Card 2 (scale 0.6, 120 wide around 600) is out of view.
    s = 0.725
    assert_close(
        live.whole()[:2],
        [
            cell(0, 0, 60, -50, 200, 300),
            {
                "kind": "cell",
                "section": 0,
                "item": 1,
                "center": {"x": 380, "y": 100},
                "size": {"width": 200, "height": 300},
                "frame": {"x": 380 - 100 * s, "y": 100 - 150 * s, "width": 200 * s, "height": 300 * s},
                "transform": [s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
                "alpha": 1,
                "zIndex": -441,
            },
        ],
    )
    assert sorted(live.picture) == [("cell", 0, 0), ("cell", 0, 1)]
    # Type omitted: a coverFlow field changes, the rest stays coverFlow's.
    live.configure(layout={"minimumLineSpacing": 40})
    assert live.item(0, 1)["center"] == {"x": 400, "y": 100}
    assert live.item(0, 1)["size"] == {"width": 200, "height": 300}


def test_configure_cover_flow_keeps_its_curves(server):
    # The seed: 200x300, spacing 30, scale factor 0.5, 375x300. Changing the
    # spacing to 50 keeps the factor: card 1 at 250 from the centre scales
    # to 1 - 0.5 * 250 / 375 = 2/3 (the default factor would give 0.7333).
    live = Live(
        server,
        {
            "session": "seed",
            "layout": {"type": "coverFlow", "minimumLineSpacing": 30, "scale": {"factor": 0.5}},
            "bounds": {"x": 0, "y": 0, "width": 375, "height": 300},
            "sections": [{"itemCount": 10}],
        },
    )
    live.configure(layout={"type": "coverFlow", "minimumLineSpacing": 50})
    c = live.item(0, 1)
    assert c["center"]["x"] == 187.5 + 250
    assert_close(c["transform"][0], 2 / 3)


def test_configure_errors_change_nothing(server):
    live = Live(server, CONF)
    err = live.expect_unchanged_after("layout/configure", {"layout": {"minimumLineSpacing": -1}}, -32602)
    assert err["data"] == {"field": "params.layout.minimumLineSpacing"}
    err = live.expect_unchanged_after("layout/configure", {"layout": {"itemSise": {"width": 1, "height": 1}}}, -32602)
    assert err["data"] == {"field": "params.layout.itemSise", "suggestion": "itemSize"}
    err = live.expect_unchanged_after("layout/configure", {"layout": {"type": "grid"}}, -32602)
    assert err["data"] == {"field": "params.layout.type"}


# -- setItemSizes and estimatedItemSize ----------------------------------------

# itemSize 50x50 is ignored while estimatedItemSize 100x40 is set: 5
# unmeasured items of 100x40, 3 per line (no leftover), lines 50 apart.
EST = {
    "session": "est",
    "layout": {
        "type": "flow",
        "itemSize": {"width": 50, "height": 50},
        "estimatedItemSize": {"width": 100, "height": 40},
    },
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 400},
    "sections": [{"itemCount": 5}],
}


def test_estimated_sizes_until_measured(server):
    live = Live(server, EST)
    assert live.opened["attributes"] == [cell(0, i, (i % 3) * 110, (i // 3) * 50, 100, 40) for i in range(5)]
    # An insert without a size is estimated too: item 5 at x 220, y 50.
    r = live.batch({"insertItems": [{"section": 0, "item": 5}]})
    assert r["invalidated"] == [cell(0, 5, 220, 50, 100, 40)]
    # Item 0 measures 150x60. Line 0: 150 + 10 + 100 = 260 fits, a third
    # would need 370: items 0 and 1, the 70 left over between them (x 0,
    # 220); 60 thick, item 1 centred at y 10..50. Line 1: items 2, 3, 4 at
    # y 70 (full, x 0, 110, 220). Line 2: item 5 alone, the last line with
    # varied sizes: leading-aligned, x 0, y 120. Height 160.
    r = live.set_item_sizes([{"section": 0, "item": 0, "size": {"width": 150, "height": 60}}])
    expected = [
        cell(0, 0, 0, 0, 150, 60),
        cell(0, 1, 220, 10, 100, 40),
        cell(0, 2, 0, 70, 100, 40),
        cell(0, 3, 110, 70, 100, 40),
        cell(0, 4, 220, 70, 100, 40),
        cell(0, 5, 0, 120, 100, 40),
    ]
    assert live.whole() == expected
    assert r["contentSize"] == {"width": 320, "height": 160}
    assert r["invalidated"] == expected
    assert r["bounds"] == EST["bounds"]


def test_unmeasured_items_follow_a_new_estimate(server):
    # protocol.md: items without a size of their own "have this size
    # [estimatedItemSize] until layout/setItemSizes reports their measured
    # size". Measuring item 0 must not freeze the others at the old estimate.
    live = Live(server, EST)
    live.set_item_sizes([{"section": 0, "item": 0, "size": {"width": 150, "height": 60}}])
    live.configure(layout={"estimatedItemSize": {"width": 80, "height": 30}})
    # Sizes: 150x60 and four 80x30. Line 0: 150 + 10 + 80 = 240 fits, a
    # third would need 330: items 0, 1, the 90 left over between them (x 0,
    # 240), item 1 centred in the 60-thick line at y 15. Line 1: items 2, 3,
    # 4 (260 <= 320; a fourth needs 350) at y 70; 80 left over, 40 per gap:
    # x 0, 120, 240 -- and it is the last line, sizes vary: leading-aligned
    # x 0, 90, 180.
    assert live.whole() == [
        cell(0, 0, 0, 0, 150, 60),
        cell(0, 1, 240, 15, 80, 30),
        cell(0, 2, 0, 70, 80, 30),
        cell(0, 3, 90, 70, 80, 30),
        cell(0, 4, 180, 70, 80, 30),
    ]


def test_set_item_sizes_out_of_range(server):
    live = Live(server, EST)
    err = live.expect_unchanged_after(
        "layout/setItemSizes",
        {
            "sizes": [
                {"section": 0, "item": 0, "size": {"width": 150, "height": 60}},
                {"section": 0, "item": 5, "size": {"width": 10, "height": 10}},
            ]
        },
        -32602,
    )
    assert err["data"] == {"field": "params.sizes[1].item"}
    assert err["message"].startswith("params.sizes[1].item ")
    err = live.expect_unchanged_after(
        "layout/setItemSizes", {"sizes": [{"section": 1, "item": 0, "size": {"width": 1, "height": 1}}]}, -32602
    )
    assert err["data"] == {"field": "params.sizes[0].section"}
    assert err["message"].startswith("params.sizes[0].section ")
    err = live.expect_unchanged_after(
        "layout/setItemSizes", {"sizes": [{"section": 0, "item": 0, "size": {"width": -1, "height": 1}}]}, -32602
    )
    assert err["data"] == {"field": "params.sizes[0].size.width"}


@pytest.mark.parametrize(
    "params,field",
    [
        ({"sizes": [{"section": 0, "item": -1, "size": {"width": 1, "height": 1}}]}, "params.sizes[0].item"),
        ({"sizes": [{"section": "0", "item": 0, "size": {"width": 1, "height": 1}}]}, "params.sizes[0].section"),
        ({"sizes": [{"section": 0, "item": 0}]}, "params.sizes[0].size"),
        ({"sizes": {}}, "params.sizes"),
    ],
)
def test_set_item_sizes_shapes(server, params, field):
    live = Live(server, EST)
    err = live.expect_unchanged_after("layout/setItemSizes", params, -32602)
    assert err["data"] == {"field": field}
