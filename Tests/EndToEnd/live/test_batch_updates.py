"""layout/performBatchUpdates: UIKit's batch examples through the daemon.

Every expected frame is worked out by hand in the comments (protocol.md,
"flow: Geometry"). Every answer is also applied to the client's picture and
checked against attributesInRect of the visible rect (live_support.Live).

The base grid ("live", protocol.md's own example session): flow, itemSize
100x50, spacings 10, a 320-wide viewport. Three items per line
(3*100 + 2*10 = 320, no leftover), so item i sits at
x = (i % 3) * 110, y = (i // 3) * 60.
"""

from __future__ import annotations

import pytest

from daemon_support import assert_close
from live_support import Live, cell, el, keys_of, rect


def grid(i: int, section: int = 0) -> dict:
    return cell(section, i, (i % 3) * 110, (i // 3) * 60, 100, 50)


def faded(a: dict) -> dict:
    return {**a, "alpha": 0}


def mv(kind, section, item, frm, from_frame, frame) -> dict:
    return {
        "kind": kind,
        "section": section,
        "item": item,
        "from": {"section": frm[0], "item": frm[1]},
        "fromFrame": rect(*from_frame),
        "frame": rect(*frame),
    }


ORDER = {"header": 0, "cell": 1, "footer": 2}


def doc_order(entries: list) -> list:
    """protocol.md does not fix the order of appearing/disappearing/moved:
    compare them in document order."""
    return sorted(entries, key=lambda a: (a["section"], ORDER[a["kind"]], a["item"]))


def open_live(d, y: float = 0, name: str = "live", count: int = 7) -> Live:
    return Live(
        d,
        {
            "session": name,
            "layout": {"type": "flow", "itemSize": {"width": 100, "height": 50}},
            "bounds": {"x": 0, "y": y, "width": 320, "height": 110},
            "sections": [{"itemCount": count}],
        },
    )


# -- delete + insert at the same index: nothing visible changes ----------------


def test_delete_and_insert_item_zero_scrolled_away(server):
    # protocol.md's example: scrolled to y = 60, rows 1 and 2 visible; item 0
    # is replaced by a new item of the same size, so every path keeps its frame.
    live = open_live(server, y=60)
    r = live.batch({"deleteItems": [{"section": 0, "item": 0}], "insertItems": [{"section": 0, "item": 0}]})
    assert r == {
        "contentSize": {"width": 320, "height": 170},
        "bounds": {"x": 0, "y": 60, "width": 320, "height": 110},
        "invalidated": [],
        "removed": [],
        # Viewport centre (160, 115): item 4's centre (160, 85) is 30 away.
        "centeredItem": {"section": 0, "item": 4},
        "appearing": [],
        "disappearing": [],
        "moved": [],
    }


def test_delete_and_insert_item_zero_in_view(server):
    # At y = 0 item 0 is visible: the picture does not change (same key, same
    # attributes), but the old item fades out and the new one fades in.
    live = open_live(server, y=0)
    r = live.batch({"deleteItems": [{"section": 0, "item": 0}], "insertItems": [{"section": 0, "item": 0}]})
    assert r["invalidated"] == [] and r["removed"] == []
    assert r["bounds"] == {"x": 0, "y": 0, "width": 320, "height": 110}
    assert r["appearing"] == [faded(grid(0))]
    assert r["disappearing"] == [faded(grid(0))]
    assert r["moved"] == []
    # Centre (160, 55): items 1 (160, 25) and 4 (160, 85) are both 30 away;
    # the tie goes to the earlier item.
    assert r["centeredItem"] == {"section": 0, "item": 1}


# -- moves across sections ----------------------------------------------------

# Section 0 holds A 100x50, B 100x80, C 100x50; section 1 two uniform items
# D, E (100x50). Viewport 320x400, everything visible.
#
# Before: section 0 is one line (100+10+100+10+100 = 320 fits), its last
# line, sizes vary -> leading-aligned x = 0, 110, 220; thickness 80, items
# centred along y: A y 15..65, B 0..80, C 15..65. Section 1 starts at
# y = 80: uniform sizes, so its last line stands where a full line would put
# it: D x 0, E x 110, y 80..130. contentSize 320x130.
MOVES = {
    "session": "m",
    "layout": {"type": "flow", "itemSize": {"width": 100, "height": 50}},
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 400},
    "sections": [
        {"itemSizes": [{"width": 100, "height": 50}, {"width": 100, "height": 80}, {"width": 100, "height": 50}]},
        {"itemCount": 2},
    ],
}


def test_open_moves_session_by_hand(server):
    live = Live(server, MOVES)
    assert_close(
        live.opened["attributes"],
        [
            cell(0, 0, 0, 15, 100, 50),
            cell(0, 1, 110, 0, 100, 80),
            cell(0, 2, 220, 15, 100, 50),
            cell(1, 0, 0, 80, 100, 50),
            cell(1, 1, 110, 80, 100, 50),
        ],
    )
    assert live.opened["contentSize"] == {"width": 320, "height": 130}


def test_move_item_to_another_section(server):
    live = Live(server, MOVES)
    r = live.batch({"moveItems": [{"from": {"section": 0, "item": 1}, "to": {"section": 1, "item": 0}}]})
    # After: section 0 = [A, C], both 100x50 -> placed as in a full line:
    #   A x 0, C x 110, y 0..50.
    # Section 1 = [B, D, E] starts at y = 50, sizes vary -> leading-aligned
    #   x 0, 110, 220; thickness 80: B y 50..130, D and E y 65..115.
    expected = [
        cell(0, 0, 0, 0, 100, 50),
        cell(0, 1, 110, 0, 100, 50),
        cell(1, 0, 0, 50, 100, 80),
        cell(1, 1, 110, 65, 100, 50),
        cell(1, 2, 220, 65, 100, 50),
    ]
    assert_close(live.whole(), expected)
    assert r["contentSize"] == {"width": 320, "height": 130}
    # Every surviving path changed; (0, 2) no longer exists.
    assert_close(doc_order(r["invalidated"]), expected)
    assert r["removed"] == [{"kind": "cell", "section": 0, "item": 2}]
    assert r["appearing"] == [] and r["disappearing"] == []
    assert_close(
        doc_order(r["moved"]),
        [
            mv("cell", 0, 0, (0, 0), (0, 15, 100, 50), (0, 0, 100, 50)),  # A
            mv("cell", 0, 1, (0, 2), (220, 15, 100, 50), (110, 0, 100, 50)),  # C
            mv("cell", 1, 0, (0, 1), (110, 0, 100, 80), (0, 50, 100, 80)),  # B
            mv("cell", 1, 1, (1, 0), (0, 80, 100, 50), (110, 65, 100, 50)),  # D
            mv("cell", 1, 2, (1, 1), (110, 80, 100, 50), (220, 65, 100, 50)),  # E
        ],
    )
    # The moved item keeps its own size at its new path.
    assert live.item(1, 0)["size"] == {"width": 100, "height": 80}
    assert live.item(0, 1)["size"] == {"width": 100, "height": 50}
    # Centre (160, 200): D (160, 90) is 110 away, nearer than anything else.
    assert r["centeredItem"] == {"section": 1, "item": 1}


def test_swap_items_between_sections(server):
    live = Live(server, MOVES)
    r = live.batch(
        {
            "moveItems": [
                {"from": {"section": 0, "item": 1}, "to": {"section": 1, "item": 0}},
                {"from": {"section": 1, "item": 1}, "to": {"section": 0, "item": 0}},
            ],
            "itemCounts": [3, 2],
        }
    )
    # Section 0 = [E, A, C], all 100x50 -> x 0, 110, 220, y 0..50.
    # Section 1 = [B, D] from y 50, sizes vary: B x 0 y 50..130, D x 110
    # y 65..115 (centred in the 80-thick line).
    expected = [
        cell(0, 0, 0, 0, 100, 50),
        cell(0, 1, 110, 0, 100, 50),
        cell(0, 2, 220, 0, 100, 50),
        cell(1, 0, 0, 50, 100, 80),
        cell(1, 1, 110, 65, 100, 50),
    ]
    assert_close(live.whole(), expected)
    assert r["removed"] == []
    assert_close(
        doc_order(r["moved"]),
        [
            mv("cell", 0, 0, (1, 1), (110, 80, 100, 50), (0, 0, 100, 50)),  # E
            mv("cell", 0, 1, (0, 0), (0, 15, 100, 50), (110, 0, 100, 50)),  # A
            mv("cell", 0, 2, (0, 2), (220, 15, 100, 50), (220, 0, 100, 50)),  # C
            mv("cell", 1, 0, (0, 1), (110, 0, 100, 80), (0, 50, 100, 80)),  # B
            mv("cell", 1, 1, (1, 0), (0, 80, 100, 50), (110, 65, 100, 50)),  # D
        ],
    )
    assert live.item(1, 0)["size"] == {"width": 100, "height": 80}
    assert live.item(0, 0)["size"] == {"width": 100, "height": 50}


# -- sections and items in one batch ----------------------------------------

# Four sections of uniform 100x50 items with 20-high headers, 320x400:
#   S0: 2 items (a0 a1)  header y 0..20,    line 20..70
#   S1: 3 items (b0..b2) header y 70..90,   line 90..140
#   S2: 1 item  (c0)     header y 140..160, line 160..210
#   S3: 4 items (d0..d3) header y 210..230, lines 230..280 and 290..340
# contentSize 320x340, all visible.
MIXED = {
    "session": "x",
    "layout": {
        "type": "flow",
        "itemSize": {"width": 100, "height": 50},
        "headerReferenceSize": {"width": 0, "height": 20},
    },
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 400},
    "sections": [{"itemCount": 2}, {"itemCount": 3}, {"itemCount": 1}, {"itemCount": 4}],
}


def header(section: int, y: float) -> dict:
    return el("header", section, 0, 0, y, 320, 20)


def test_sections_and_items_in_one_batch(server):
    live = Live(server, MIXED)
    assert live.opened["contentSize"] == {"width": 320, "height": 340}
    r = live.batch(
        {
            "deleteSections": [0],
            "insertSections": [{"index": 1, "itemCount": 2}],
            "moveSections": [{"from": 3, "to": 0}],
            # Old paths: b0, and d0 of the section that moves.
            "deleteItems": [{"section": 1, "item": 0}, {"section": 3, "item": 0}],
            # New paths: X into old S1 (now section 2) at 1, Y into old S2
            # (now section 3) at 0, 100x30.
            "insertItems": [
                {"section": 2, "item": 1},
                {"section": 3, "item": 0, "size": {"width": 100, "height": 30}},
            ],
            # d3 (old 3-3) to the end of old S2 (new 3-2).
            "moveItems": [{"from": {"section": 3, "item": 3}, "to": {"section": 3, "item": 2}}],
            "itemCounts": [2, 2, 3, 3],
        }
    )
    # New sections: slot 0 <- old S3 (moved), slot 1 <- inserted N; the free
    # slots 2 and 3 take the remaining old sections in order: S1, S2.
    #   section 0 = old S3 less d0 (deleted) and d3 (moved out) = [d1, d2]
    #   section 1 = N, 2 uniform items
    #   section 2 = old S1 less b0, X inserted at 1 = [b1, X, b2]
    #   section 3 = old S2 with Y at 0 and d3 at 2 = [Y, c0, d3]
    # Layout (each section: header 20, then one line):
    #   section 0: header 0..20, d1 x 0 and d2 x 110 at y 20..70
    #   section 1: header 70..90, items x 0, 110 at y 90..140
    #   section 2: header 140..160, items x 0, 110, 220 at y 160..210
    #   section 3: header 210..230; sizes vary -> leading-aligned x 0, 110,
    #     220; the line is 50 thick: Y (30 high) at y 240..270, c0 and d3
    #     at 230..280.
    expected = [
        header(0, 0),
        cell(0, 0, 0, 20, 100, 50),
        cell(0, 1, 110, 20, 100, 50),
        header(1, 70),
        cell(1, 0, 0, 90, 100, 50),
        cell(1, 1, 110, 90, 100, 50),
        header(2, 140),
        cell(2, 0, 0, 160, 100, 50),
        cell(2, 1, 110, 160, 100, 50),
        cell(2, 2, 220, 160, 100, 50),
        header(3, 210),
        cell(3, 0, 0, 240, 100, 30),
        cell(3, 1, 110, 230, 100, 50),
        cell(3, 2, 220, 230, 100, 50),
    ]
    assert_close(live.whole(), expected)
    assert r["contentSize"] == {"width": 320, "height": 280}
    assert r["bounds"] == {"x": 0, "y": 0, "width": 320, "height": 400}
    # Centre (160, 200): X's centre (160, 185) is 15 away.
    assert r["centeredItem"] == {"section": 2, "item": 1}
    # Inserted and visible: N's header and items, X, Y, at their final
    # frames with alpha 0.
    assert_close(
        doc_order(r["appearing"]),
        [faded(a) for a in [header(1, 70), expected[4], expected[5], expected[8], expected[11]]],
    )
    # Deleted and in the old picture: S0's header and items, b0, d0, at
    # their old frames with alpha 0.
    assert_close(
        doc_order(r["disappearing"]),
        [
            faded(header(0, 0)),
            faded(cell(0, 0, 0, 20, 100, 50)),
            faded(cell(0, 1, 110, 20, 100, 50)),
            faded(cell(1, 0, 0, 90, 100, 50)),
            faded(cell(3, 0, 0, 230, 100, 50)),
        ],
    )
    # Every survivor moved, each with its old path.
    assert_close(
        doc_order(r["moved"]),
        [
            mv("header", 0, 0, (3, 0), (0, 210, 320, 20), (0, 0, 320, 20)),
            mv("cell", 0, 0, (3, 1), (110, 230, 100, 50), (0, 20, 100, 50)),  # d1
            mv("cell", 0, 1, (3, 2), (220, 230, 100, 50), (110, 20, 100, 50)),  # d2
            mv("header", 2, 0, (1, 0), (0, 70, 320, 20), (0, 140, 320, 20)),
            mv("cell", 2, 0, (1, 1), (110, 90, 100, 50), (0, 160, 100, 50)),  # b1
            mv("cell", 2, 2, (1, 2), (220, 90, 100, 50), (220, 160, 100, 50)),  # b2
            mv("header", 3, 0, (2, 0), (0, 140, 320, 20), (0, 210, 320, 20)),
            mv("cell", 3, 1, (2, 0), (0, 160, 100, 50), (110, 230, 100, 50)),  # c0
            mv("cell", 3, 2, (3, 3), (0, 290, 100, 50), (220, 230, 100, 50)),  # d3
        ],
    )


def test_move_section_only(server):
    live = Live(server, MIXED)
    # Old S0 to the end: new order S1, S2, S3, S0.
    #   section 0 (3 items): header 0..20, line 20..70
    #   section 1 (1 item): header 70..90, line 90..140
    #   section 2 (4 items): header 140..160, lines 160..210, 220..270
    #   section 3 (2 items): header 270..290, line 290..340
    r = live.batch({"moveSections": [{"from": 0, "to": 3}]})
    expected = (
        [header(0, 0)] + [cell(0, i, i * 110, 20, 100, 50) for i in range(3)]
        + [header(1, 70), cell(1, 0, 0, 90, 100, 50)]
        + [header(2, 140)] + [cell(2, i, (i % 3) * 110, 160 + (i // 3) * 60, 100, 50) for i in range(4)]
        + [header(3, 270)] + [cell(3, i, i * 110, 290, 100, 50) for i in range(2)]
    )
    assert_close(live.whole(), expected)
    assert r["contentSize"] == {"width": 320, "height": 340}
    assert r["appearing"] == [] and r["disappearing"] == []
    froms = {(m["kind"], m["section"], m["item"]): (m["from"]["section"], m["from"]["item"]) for m in r["moved"]}
    assert froms[("cell", 3, 1)] == (0, 1)
    assert froms[("header", 3, 0)] == (0, 0)
    assert froms[("cell", 0, 2)] == (1, 2)
    assert froms[("cell", 2, 3)] == (3, 3)


# -- appearing and disappearing ---------------------------------------------


def test_visible_insert_appears(server):
    live = open_live(server, y=0)
    r = live.batch({"insertItems": [{"section": 0, "item": 1}]})
    # 8 items: still 3 rows, 170 high. The new item 1 takes the old item 1's
    # frame (110, 0); old items 1..5 shift one slot on. Every visible path
    # (0..5) holds the same attributes as before, so nothing is resent.
    assert r["contentSize"] == {"width": 320, "height": 170}
    assert r["invalidated"] == [] and r["removed"] == []
    assert r["appearing"] == [faded(grid(1))]
    assert r["disappearing"] == []
    assert_close(
        doc_order(r["moved"]),
        [
            mv("cell", 0, 2, (0, 1), (110, 0, 100, 50), (220, 0, 100, 50)),
            mv("cell", 0, 3, (0, 2), (220, 0, 100, 50), (0, 60, 100, 50)),
            mv("cell", 0, 4, (0, 3), (0, 60, 100, 50), (110, 60, 100, 50)),
            mv("cell", 0, 5, (0, 4), (110, 60, 100, 50), (220, 60, 100, 50)),
            # Visible before, out of view after: still reported.
            mv("cell", 0, 6, (0, 5), (220, 60, 100, 50), (0, 120, 100, 50)),
        ],
    )


def test_visible_delete_disappears(server):
    live = open_live(server, y=0)
    r = live.batch({"deleteItems": [{"section": 0, "item": 4}]})
    # 6 items: two rows, 110 high. Old 5 and 6 become 4 and 5.
    assert r["contentSize"] == {"width": 320, "height": 110}
    assert r["invalidated"] == [] and r["removed"] == []
    assert r["disappearing"] == [faded(grid(4))]
    assert r["appearing"] == []
    assert_close(
        doc_order(r["moved"]),
        [
            mv("cell", 0, 4, (0, 5), (220, 60, 100, 50), (110, 60, 100, 50)),
            # Not visible before, visible after.
            mv("cell", 0, 5, (0, 6), (0, 120, 100, 50), (220, 60, 100, 50)),
        ],
    )


def test_delete_out_of_view_does_not_disappear(server):
    live = open_live(server, y=0)
    r = live.batch({"deleteItems": [{"section": 0, "item": 6}]})
    assert r["disappearing"] == [] and r["appearing"] == [] and r["moved"] == []
    assert r["invalidated"] == [] and r["removed"] == []
    assert r["contentSize"] == {"width": 320, "height": 110}


# -- reloadItems ----------------------------------------------------------------


def test_reload_item_with_a_new_size(server):
    live = open_live(server, y=0)
    r = live.batch({"reloadItems": [{"section": 0, "item": 0, "size": {"width": 320, "height": 50}}]})
    # Item 0 is now as wide as the line (320 = avail): alone on line 0,
    # centred (x 0). Items 1..3 fill line 1 (x 0, 110, 220, y 60); items
    # 4..6, the last line with varied sizes in the section, are
    # leading-aligned with 10 between them: x 0, 110, 220, y 120.
    expected = [
        cell(0, 0, 0, 0, 320, 50),
        cell(0, 1, 0, 60, 100, 50),
        cell(0, 2, 110, 60, 100, 50),
        cell(0, 3, 220, 60, 100, 50),
        cell(0, 4, 0, 120, 100, 50),
        cell(0, 5, 110, 120, 100, 50),
        cell(0, 6, 220, 120, 100, 50),
    ]
    assert_close(live.whole(), expected)
    assert r["contentSize"] == {"width": 320, "height": 170}
    assert_close(r["invalidated"], expected[:4])
    assert r["removed"] == [{"kind": "cell", "section": 0, "item": 4}, {"kind": "cell", "section": 0, "item": 5}]
    assert r["appearing"] == [] and r["disappearing"] == []
    assert_close(
        doc_order(r["moved"]),
        [
            mv("cell", 0, 0, (0, 0), (0, 0, 100, 50), (0, 0, 320, 50)),
            mv("cell", 0, 1, (0, 1), (110, 0, 100, 50), (0, 60, 100, 50)),
            mv("cell", 0, 2, (0, 2), (220, 0, 100, 50), (110, 60, 100, 50)),
            mv("cell", 0, 3, (0, 3), (0, 60, 100, 50), (220, 60, 100, 50)),
            mv("cell", 0, 4, (0, 4), (110, 60, 100, 50), (0, 120, 100, 50)),
            mv("cell", 0, 5, (0, 5), (220, 60, 100, 50), (110, 120, 100, 50)),
        ],
    )
    # Centre (160, 55): item 0 (160, 25) and item 2 (160, 85) tie at 30.
    assert r["centeredItem"] == {"section": 0, "item": 0}
    assert live.item(0, 0)["size"] == {"width": 320, "height": 50}


def test_reload_without_size_changes_nothing(server):
    live = open_live(server, y=0)
    r = live.batch({"reloadItems": [{"section": 0, "item": 2}]})
    assert r["invalidated"] == [] and r["removed"] == []
    assert r["appearing"] == [] and r["disappearing"] == [] and r["moved"] == []


def test_explicit_sizes_survive_a_batch(server):
    # Explicit sizes (itemSizes, or an insert's `size`) belong to their
    # items: protocol.md says itemSize is "the size of items in itemCount
    # sections". Here a batch leaves a sized section whose sizes all equal
    # the current itemSize; a later itemSize change must not resize them.
    live = Live(
        server,
        {
            "session": "sz",
            "layout": {"type": "flow", "itemSize": {"width": 50, "height": 50}},
            "bounds": {"x": 0, "y": 0, "width": 320, "height": 400},
            "sections": [
                {"itemSizes": [{"width": 50, "height": 50}, {"width": 50, "height": 50}, {"width": 80, "height": 80}]},
                {"itemCount": 1},
            ],
        },
    )
    live.batch(
        {
            "deleteItems": [{"section": 0, "item": 2}],
            # An explicit 50x50 insert into the itemCount section.
            "insertItems": [{"section": 1, "item": 1, "size": {"width": 50, "height": 50}}],
        }
    )
    live.configure(layout={"itemSize": {"width": 20, "height": 20}})
    # Section 0 = two explicit 50x50 items, same size -> full-line
    # positions: 5 per line (5*50 + 4*10 = 290 <= 320), the 70 left over
    # shared by 4 gaps -> x 0 and 67.5, y 0..50.
    # Section 1 (from y 50): item 0 follows itemSize (20x20), item 1 keeps
    # its explicit 50x50: sizes vary -> leading-aligned x 0 and 30; the line
    # is 50 thick, item 0 centred at y 65..85, item 1 at 50..100.
    assert_close(
        live.whole(),
        [
            cell(0, 0, 0, 0, 50, 50),
            cell(0, 1, 67.5, 0, 50, 50),
            cell(1, 0, 0, 65, 20, 20),
            cell(1, 1, 30, 50, 50, 50),
        ],
    )


# -- itemCounts -----------------------------------------------------------------


def test_item_counts_consistent(server):
    live = Live(server, {**MIXED, "session": "c"})
    r = live.batch(
        {
            "deleteItems": [{"section": 3, "item": 0}],
            "insertItems": [{"section": 0, "item": 2}],
            "moveItems": [{"from": {"section": 1, "item": 2}, "to": {"section": 2, "item": 0}}],
            "itemCounts": [3, 2, 2, 3],
        }
    )
    # S0: 3 items (header 0..20, line 20..70); S1: 2 (70..90, 90..140);
    # S2: [b2, c0] (140..160, 160..210); S3: 3 (210..230, 230..280).
    assert r["contentSize"] == {"width": 320, "height": 280}
    assert r["appearing"] == [faded(cell(0, 2, 220, 20, 100, 50))]
    assert r["disappearing"] == [faded(cell(3, 0, 0, 230, 100, 50))]
    moved = {(m["section"], m["item"]): m for m in r["moved"] if m["kind"] == "cell"}
    assert moved[(2, 0)]["from"] == {"section": 1, "item": 2}
    assert moved[(2, 0)]["fromFrame"] == rect(220, 90, 100, 50)
    assert moved[(2, 0)]["frame"] == rect(0, 160, 100, 50)


def test_item_counts_inconsistent(server):
    live = open_live(server, y=60)
    err = live.expect_unchanged_after(
        "layout/performBatchUpdates",
        {"updates": {"insertItems": [{"section": 0, "item": 0}], "itemCounts": [9]}},
        1003,
    )
    assert err == {
        "code": 1003,
        "message": "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (9) must be equal to the number of items contained in that section before the update (7), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).",
        "data": {"field": "params.updates"},
    }


# -- every 1003 message, and nothing changes --------------------------------

# Session "e": sections of 7, 3 and 2 uniform items, scrolled to y = 60.
E = {
    "session": "e",
    "layout": {"type": "flow", "itemSize": {"width": 100, "height": 50}},
    "bounds": {"x": 0, "y": 60, "width": 320, "height": 110},
    "sections": [{"itemCount": 7}, {"itemCount": 3}, {"itemCount": 2}],
}

P = "{length = 2, path = %d - %d}"

REJECTED = [
    pytest.param(
        {"insertSections": [{"index": 3, "itemCount": 1}], "itemCounts": [7, 3]},
        "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (2) must be equal to the number of sections contained in the collection view before the update (3), plus or minus the number of sections inserted or deleted (1 inserted, 0 deleted).",
        id="sections-count",
    ),
    pytest.param(
        {"deleteSections": [2], "itemCounts": [7, 3, 2]},
        "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (3) must be equal to the number of sections contained in the collection view before the update (3), plus or minus the number of sections inserted or deleted (0 inserted, 1 deleted).",
        id="sections-count-delete",
    ),
    pytest.param(
        # Section 0: 7 - 1 deleted + 1 moved in + 1 inserted = 8, not 9.
        {
            "deleteItems": [{"section": 0, "item": 1}],
            "moveItems": [{"from": {"section": 1, "item": 0}, "to": {"section": 0, "item": 0}}],
            "insertItems": [{"section": 0, "item": 3}],
            "itemCounts": [9, 2, 2],
        },
        "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (9) must be equal to the number of items contained in that section before the update (7), plus or minus the number of items inserted or deleted from that section (1 inserted, 1 deleted) and plus or minus the number of items moved into or out of that section (1 moved in, 0 moved out).",
        id="items-count",
    ),
    pytest.param(
        # Section 0 is right (8); section 1 has 3 - 1 moved out = 2, not 3.
        {
            "moveItems": [{"from": {"section": 1, "item": 0}, "to": {"section": 0, "item": 0}}],
            "itemCounts": [8, 3, 2],
        },
        "Invalid update: invalid number of items in section 1. The number of items contained in an existing section after the update (3) must be equal to the number of items contained in that section before the update (3), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 1 moved out).",
        id="items-count-moved-out",
    ),
    pytest.param(
        {"deleteItems": [{"section": 0, "item": 7}]},
        "attempt to delete item 7 from section 0 which only contains 7 items before the update",
        id="delete-item-range",
    ),
    pytest.param(
        {"reloadItems": [{"section": 1, "item": 3}]},
        "attempt to reload item 3 from section 1 which only contains 3 items before the update",
        id="reload-item-range",
    ),
    pytest.param(
        {"moveItems": [{"from": {"section": 2, "item": 5}, "to": {"section": 0, "item": 0}}]},
        "attempt to move item 5 from section 2 which only contains 2 items before the update",
        id="move-item-range",
    ),
    pytest.param(
        {"deleteItems": [{"section": 3, "item": 0}]},
        "attempt to delete item 0 from section 3, but there are only 3 sections before the update",
        id="delete-item-section-range",
    ),
    pytest.param(
        {"reloadItems": [{"section": 4, "item": 1}]},
        "attempt to reload item 1 from section 4, but there are only 3 sections before the update",
        id="reload-item-section-range",
    ),
    pytest.param(
        # Section 1 has 3 + 1 = 4 items after the update.
        {"insertItems": [{"section": 1, "item": 5}]},
        "attempt to insert item 5 into section 1, but there are only 4 items in section 1 after the update",
        id="insert-item-range",
    ),
    pytest.param(
        # Section 0: 7 - 1 + 1 = 7 items: index 7 is one past the end.
        {"deleteItems": [{"section": 0, "item": 0}], "insertItems": [{"section": 0, "item": 7}]},
        "attempt to insert item 7 into section 0, but there are only 7 items in section 0 after the update",
        id="insert-item-range-after-delete",
    ),
    pytest.param(
        {"deleteSections": [3]},
        "attempt to delete section 3, but there are only 3 sections before the update",
        id="delete-section-range",
    ),
    pytest.param(
        {"insertSections": [{"index": 5, "itemCount": 1}]},
        "attempt to insert section 5 but there are only 4 sections after the update",
        id="insert-section-range",
    ),
    pytest.param(
        {"moveSections": [{"from": 4, "to": 0}]},
        "attempt to move section 4, but there are only 3 sections before the update",
        id="move-section-range",
    ),
    pytest.param(
        {"deleteItems": [{"section": 0, "item": 2}], "reloadItems": [{"section": 0, "item": 2}]},
        "attempt to delete and reload the same index path " + P % (0, 2),
        id="delete-reload",
    ),
    pytest.param(
        {
            "deleteItems": [{"section": 0, "item": 2}],
            "moveItems": [{"from": {"section": 0, "item": 2}, "to": {"section": 1, "item": 0}}],
        },
        "attempt to perform a delete and a move from the same index path " + P % (0, 2),
        id="delete-move",
    ),
    pytest.param(
        {
            "reloadItems": [{"section": 1, "item": 1}],
            "moveItems": [{"from": {"section": 1, "item": 1}, "to": {"section": 0, "item": 0}}],
        },
        "attempt to perform a reload and a move from the same index path " + P % (1, 1),
        id="reload-move",
    ),
    pytest.param(
        {"deleteSections": [1], "deleteItems": [{"section": 1, "item": 0}]},
        "attempt to delete item 0 from section 1, which is also being deleted",
        id="delete-item-in-deleted-section",
    ),
    pytest.param(
        {"insertSections": [{"index": 1, "itemCount": 0}], "insertItems": [{"section": 1, "item": 0}]},
        "attempt to insert item 0 into section 1, which is itself being inserted",
        id="insert-item-in-inserted-section",
    ),
    pytest.param(
        {"deleteSections": [2], "moveSections": [{"from": 2, "to": 0}]},
        "attempt to delete and move the same section (2)",
        id="delete-move-section",
    ),
]


@pytest.mark.parametrize("updates,message", REJECTED)
def test_rejected_batch_message_and_no_change(server, updates, message):
    live = Live(server, E)
    err = live.expect_unchanged_after("layout/performBatchUpdates", {"updates": updates}, 1003)
    assert err == {"code": 1003, "message": message, "data": {"field": "params.updates"}}


# protocol.md lists "the messages for an operation given twice" without
# their words: each must be a 1003 that changes nothing.
DUPLICATES = [
    pytest.param({"deleteSections": [1, 1]}, id="delete-section-twice"),
    pytest.param({"insertSections": [{"index": 1, "itemCount": 1}, {"index": 1, "itemCount": 2}]}, id="insert-section-twice"),
    pytest.param({"moveSections": [{"from": 0, "to": 2}, {"from": 0, "to": 1}]}, id="move-section-twice"),
    pytest.param({"moveSections": [{"from": 0, "to": 2}, {"from": 1, "to": 2}]}, id="move-sections-to-same-slot"),
    pytest.param({"deleteItems": [{"section": 0, "item": 1}, {"section": 0, "item": 1}]}, id="delete-item-twice"),
    pytest.param({"insertItems": [{"section": 0, "item": 1}, {"section": 0, "item": 1}]}, id="insert-item-twice"),
    pytest.param(
        {
            "moveItems": [
                {"from": {"section": 0, "item": 1}, "to": {"section": 1, "item": 0}},
                {"from": {"section": 0, "item": 1}, "to": {"section": 2, "item": 0}},
            ]
        },
        id="move-item-twice",
    ),
    pytest.param(
        {
            "moveItems": [
                {"from": {"section": 0, "item": 1}, "to": {"section": 1, "item": 0}},
                {"from": {"section": 0, "item": 2}, "to": {"section": 1, "item": 0}},
            ]
        },
        id="move-items-to-same-path",
    ),
    pytest.param(
        {
            "insertItems": [{"section": 1, "item": 0}],
            "moveItems": [{"from": {"section": 0, "item": 2}, "to": {"section": 1, "item": 0}}],
        },
        id="insert-where-an-item-moves",
    ),
    pytest.param(
        {"insertSections": [{"index": 0, "itemCount": 1}], "moveSections": [{"from": 2, "to": 0}]},
        id="insert-section-where-a-section-moves",
    ),
]


@pytest.mark.parametrize("updates", DUPLICATES)
def test_duplicated_operation_rejected_and_no_change(server, updates):
    live = Live(server, E)
    err = live.expect_unchanged_after("layout/performBatchUpdates", {"updates": updates}, 1003)
    assert err["data"] == {"field": "params.updates"}
    assert err["message"].startswith("attempt to "), err
    assert "twice" in err["message"] or "already taken" in err["message"] or "moves to" in err["message"], err


def test_rejection_after_a_scroll_keeps_the_picture(server):
    # A rejected batch must not touch the picture either: scroll, fail,
    # then scroll on and check the delta against the old picture.
    live = Live(server, E)
    live.set_bounds({"x": 0, "y": 130, "width": 320, "height": 110})
    live.expect_unchanged_after(
        "layout/performBatchUpdates",
        {"updates": {"deleteItems": [{"section": 0, "item": 3}], "insertItems": [{"section": 0, "item": 9}]}},
        1003,
    )
    # Back to the top: rows 0 and 1 of section 0 come in, the rest leaves.
    r = live.set_bounds({"x": 0, "y": 0, "width": 320, "height": 110})
    assert keys_of(r["invalidated"]) == [("cell", 0, i) for i in range(6)]
    assert sorted(keys_of(r["removed"])) == [("cell", 0, 6)] + [("cell", 1, i) for i in range(3)] + [
        ("cell", 2, i) for i in range(2)
    ]


# -- shape errors: -32602 naming the field ------------------------------------

SHAPES = [
    ({"deleteItems": [{"section": 0, "item": "x"}]}, "params.updates.deleteItems[0].item", "must be an integer"),
    ({"deleteItems": [{"section": 0, "item": -1}]}, "params.updates.deleteItems[0].item", "must be an integer from 0 to 9223372036854775807"),
    ({"deleteItems": [{"section": 0, "item": 1.5}]}, "params.updates.deleteItems[0].item", "must be an integer"),
    ({"deleteItems": [{"section": 0}]}, "params.updates.deleteItems[0].item", "is required"),
    ({"deleteItems": {}}, "params.updates.deleteItems", "must be an array"),
    ({"deleteSections": ["a"]}, "params.updates.deleteSections[0]", "must be an integer"),
    ({"insertSections": [{"itemCount": 1}]}, "params.updates.insertSections[0].index", "is required"),
    (
        {"insertItems": [{"section": 0, "item": 0, "size": {"width": -1, "height": 3}}]},
        "params.updates.insertItems[0].size.width",
        "must be a finite number >= 0",
    ),
    ({"insertItems": [{"section": 0, "item": 0, "id": 1.5}]}, "params.updates.insertItems[0].id", "must be a string or an integer"),
    ({"moveItems": [{"from": {"section": 0, "item": 0}}]}, "params.updates.moveItems[0].to", "is required"),
    (
        {"moveItems": [{"from": {"section": 0, "item": 0}, "to": {"section": 0, "item": "q"}}]},
        "params.updates.moveItems[0].to.item",
        "must be an integer",
    ),
    ({"itemCounts": [1, "x"]}, "params.updates.itemCounts[1]", "must be an integer"),
    ({"bogus": 1}, "params.updates.bogus", "is not a known field"),
    ({"reloadItems": [{"section": 0, "item": 0, "sz": 1}]}, "params.updates.reloadItems[0].sz", "is not a known field"),
]


@pytest.mark.parametrize("updates,field,tail", SHAPES, ids=[s[1] + ":" + s[2] for s in SHAPES])
def test_shape_errors_name_the_field(server, updates, field, tail):
    live = Live(server, E)
    err = live.expect_unchanged_after("layout/performBatchUpdates", {"updates": updates}, -32602)
    assert err == {"code": -32602, "message": f"{field} {tail}", "data": {"field": field}}


def test_updates_required(server):
    live = Live(server, E)
    err = live.expect_unchanged_after("layout/performBatchUpdates", {}, -32602)
    assert err["data"] == {"field": "params.updates"}
    assert err["message"].startswith("params.updates ")


# -- the item limit ---------------------------------------------------------------


def test_inserts_beyond_max_items_are_1004(spawn):
    d = spawn("--max-items", "10")
    d.initialize()
    live = Live(
        d,
        {
            "session": "l",
            "layout": {"type": "flow"},
            "bounds": {"x": 0, "y": 0, "width": 320, "height": 110},
            "sections": [{"itemCount": 8}],
        },
    )
    limit = {"code": 1004, "message": "params.updates holds more than 10 items, the per-session limit", "data": {"field": "params.updates"}}
    three = [{"section": 0, "item": i} for i in range(3)]
    assert live.expect_unchanged_after("layout/performBatchUpdates", {"updates": {"insertItems": three}}, 1004) == limit
    assert (
        live.expect_unchanged_after(
            "layout/performBatchUpdates", {"updates": {"insertSections": [{"index": 1, "itemCount": 3}]}}, 1004
        )
        == limit
    )
    # Up to the limit is fine.
    live.batch({"insertItems": three[:2]})
    assert d.call("layout/contentSize", {"session": "l"})["contentSize"]["height"] > 0
    assert live.expect_unchanged_after(
        "layout/performBatchUpdates", {"updates": {"insertItems": [{"section": 0, "item": 0}]}}, 1004
    ) == limit


def test_delete_and_insert_at_the_item_limit(spawn):
    # A session at its limit replaces an item (protocol.md's own example
    # batch): afterwards it holds exactly as many items as before, so no
    # limit is exceeded ("maxItemsPerSession: items across a session's
    # sections").
    d = spawn("--max-items", "10")
    d.initialize()
    live = Live(
        d,
        {
            "session": "l",
            "layout": {"type": "flow"},
            "bounds": {"x": 0, "y": 0, "width": 320, "height": 110},
            "sections": [{"itemCount": 10}],
        },
    )
    r = live.batch({"deleteItems": [{"section": 0, "item": 0}], "insertItems": [{"section": 0, "item": 0}]})
    assert r["invalidated"] == [] and r["removed"] == []
    # One out, two in: 11 items would exceed the limit.
    err = live.expect_unchanged_after(
        "layout/performBatchUpdates",
        {
            "updates": {
                "deleteItems": [{"section": 0, "item": 0}],
                "insertItems": [{"section": 0, "item": 0}, {"section": 0, "item": 1}],
            }
        },
        1004,
    )
    assert err["data"] == {"field": "params.updates"}


# -- bulk entries: read on a fast path, checked the same ------------------------


PLAIN = {"section": 0, "item": 0, "size": {"width": 40, "height": 40}}


@pytest.mark.parametrize(
    "entries,field,tail",
    [
        (
            [PLAIN, {**PLAIN, "item": 1}, {"section": 0, "item": 2, "size": {"width": 1, "height": -3}}],
            "params.updates.insertItems[2].size.height",
            "must be a finite number >= 0",
        ),
        ([PLAIN, {**PLAIN, "item": 1, "extra": 1}], "params.updates.insertItems[1].extra", "is not a known field"),
        ([PLAIN, {**PLAIN, "item": 1.5}], "params.updates.insertItems[1].item", "must be an integer"),
    ],
)
def test_a_bad_entry_after_plain_ones_is_named(server, entries, field, tail):
    live = Live(server, E)
    err = live.expect_unchanged_after("layout/performBatchUpdates", {"updates": {"insertItems": entries}}, -32602)
    assert err == {"code": -32602, "message": f"{field} {tail}", "data": {"field": field}}


def test_inserts_in_any_order_match_a_fresh_open(server):
    # Inserts listed in descending order (not the usual ascending one) land
    # where their paths say; the result equals a session opened with the
    # final items, each keeping its own size (null: the uniform one).
    base = {
        "layout": {"type": "flow", "itemSize": {"width": 100, "height": 50}},
        "bounds": {"x": 0, "y": 0, "width": 320, "height": 400},
    }
    live = Live(server, {**base, "session": "desc", "sections": [{"itemCount": 3}]})
    r = live.batch(
        {
            "insertItems": [
                {"section": 0, "item": 4},
                {"section": 0, "item": 3, "size": {"width": 60, "height": 20}},
                {"section": 0, "item": 0, "size": {"width": 40, "height": 40}},
            ]
        }
    )
    assert sorted((a["section"], a["item"]) for a in r["appearing"]) == [(0, 0), (0, 3), (0, 4)]
    sizes = [{"width": 40, "height": 40}, None, None, {"width": 60, "height": 20}, None, None]
    twin = Live(server, {**base, "session": "twin", "sections": [{"itemSizes": sizes}]})
    cells = live.whole()
    assert len(cells) == 6
    assert (cells[0]["frame"]["width"], cells[0]["frame"]["height"]) == (40, 40)
    assert (cells[3]["frame"]["width"], cells[3]["frame"]["height"]) == (60, 20)
    assert cells == twin.whole()
    err = live.expect_unchanged_after(
        "layout/performBatchUpdates",
        {"updates": {"insertItems": [{"section": 0, "item": 4}, {"section": 0, "item": 1}, {"section": 0, "item": 4}]}},
        1003,
    )
    assert err["message"] == "attempt to insert an item at index path {length = 2, path = 0 - 4}, which is already taken"


def test_set_item_sizes_names_a_bad_entry_after_plain_ones(server):
    live = Live(server, E)
    good = [{"section": 0, "item": i, "size": {"width": 10 + i, "height": 20}} for i in range(3)]
    for bad, field in [
        ({"section": 0, "item": 3, "size": {"width": 1, "height": -1}}, "params.sizes[3].size.height"),
        ({"section": 0, "item": 7, "size": {"width": 1, "height": 1}}, "params.sizes[3].item"),
        ({"section": 5, "item": 0, "size": {"width": 1, "height": 1}}, "params.sizes[3].section"),
        ({"section": 0, "item": 3, "size": {"width": 1, "height": 1}, "x": 0}, "params.sizes[3].x"),
    ]:
        err = live.expect_unchanged_after("layout/setItemSizes", {"sizes": good + [bad]}, -32602)
        assert err["data"] == {"field": field}, (bad, err)


@pytest.mark.parametrize("layout", ["flow", "waterfall", "compositional"])
@pytest.mark.parametrize("method, params, field", [
    ("layout/performBatchUpdates",
     {"updates": {"insertItems": [{"section": 0, "item": 1, "size": {"width": 40, "height": 40, "depth": 3}}]}},
     "params.updates.insertItems[0].size.depth"),
    ("layout/performBatchUpdates",
     {"updates": {"reloadItems": [{"section": 0, "item": 1, "size": {"width": 40, "height": 40, "depth": 3}}]}},
     "params.updates.reloadItems[0].size.depth"),
    ("layout/performBatchUpdates",
     {"updates": {"moveItems": [{"from": {"section": 0, "item": 0}, "to": {"section": 0, "item": 2},
                                 "size": {"width": 40, "height": 40, "depth": 3}}]}},
     "params.updates.moveItems[0].size.depth"),
    ("layout/setItemSizes",
     {"sizes": [{"section": 0, "item": 1, "size": {"width": 40, "height": 40, "depth": 3}}]},
     "params.sizes[0].size.depth"),
])
def test_an_item_size_with_an_unknown_field_is_refused_on_every_path(server, layout, method, params, field):
    """An item's size takes `width` and `height` (and, in a waterfall,
    `fullSpan`) wherever it arrives: anything else is -32602 naming it, and
    nothing changes."""
    server.call("layout/open", {"session": "u", "layout": {"type": layout},
                                "bounds": {"x": 0, "y": 0, "width": 320, "height": 400},
                                "sections": [{"itemSizes": [{"width": 50, "height": 50}] * 4}]})
    whole = {"session": "u", "rect": {"x": 0, "y": 0, "width": 320, "height": 1000}}
    before = server.call("layout/attributesInRect", whole)
    e = server.error(method, {"session": "u", **params}, code=-32602)
    assert e["data"] == {"field": field}
    assert e["message"].endswith("is not a known field"), e["message"]
    assert server.call("layout/attributesInRect", whole) == before
