"""layout/appendItems and the maxItemValuesPerRequest limit (protocol.md
"layout/appendItems", "Limits"), and the Python client's append_items and
its chunked open, reload_data and set_item_sizes.

The protocol tests drive raw frames (conftest's `server` and `spawn`) and
keep the client's picture of each session with live_support.Live, which
checks every answer against layout/attributesInRect of the visible rect.
"Exactly the same layout" means Live.snapshot(): layout/contentSize and
layout/attributesInRect over the whole content, as JSON values. Expected
numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import base64
import random
import sys
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

from daemon_support import DAEMON, REPO, req
from live_support import Live, cell

_PACKAGE = REPO / "clients" / "python"
for _name in [n for n in sys.modules if n == "flowlayout" or n.startswith("flowlayout.")]:
    if not str(getattr(sys.modules[_name], "__file__", "")).startswith(str(_PACKAGE)):
        del sys.modules[_name]  # an installed copy: test this checkout's package
sys.path.insert(0, str(_PACKAGE))

from flowlayout import Client, IndexPath, MutationResult, OpenResult, Picture, Rect, RPCError, Size  # noqa: E402
from flowlayout.client import DEFAULT_MAX_ITEM_VALUES_PER_REQUEST, _values_limit  # noqa: E402


def sz(w: float, h: float) -> dict:
    return {"width": w, "height": h}


def flat(sizes: List[dict]) -> List[float]:
    return [v for s in sizes for v in (s["width"], s["height"])]


def limit_message(path: str, n: int, limit: int) -> str:
    return (
        f"{path} carries {n} item sizes and ids; one request may carry at most {limit}, so that "
        "it never holds up the frames queued behind it: send the rest with layout/appendItems"
    )


# -- a cover flow row --------------------------------------------------------

# coverFlow with its defaults (20 between cards, scale effect) and cards of
# these widths, all 100 high, in 375x300. The leading inset centres card 0:
# (375 - 120) / 2 = 127.5, so its centre is 187.5; each next centre is half
# the previous width + 20 + half its own width further; the trailing inset
# centres the last card: (375 - 100) / 2 = 137.5.
ROW_WIDTHS = [120, 80, 150, 60, 90, 70, 110, 100]
ROW_CENTRES = [187.5, 307.5, 442.5, 567.5, 662.5, 762.5, 872.5, 997.5]
ROW = [sz(w, 100) for w in ROW_WIDTHS]


def row_params(session: str, sizes: List[dict], x: float = 300) -> dict:
    return {
        "session": session,
        "layout": {"type": "coverFlow", "itemSize": sz(100, 100)},
        "bounds": {"x": x, "y": 0, "width": 375, "height": 300},
        "sections": [{"itemSizes": sizes}],
    }


def test_cover_flow_row_appended_equals_opened_at_once(server):
    whole = Live(server, row_params("all", ROW))
    # 997.5 + 50 + 137.5 = 1185.
    assert whole.opened["contentSize"] == {"width": 1185, "height": 300}
    cells = [a for a in whole.whole() if a["kind"] == "cell"]
    assert [a["center"] for a in cells] == [{"x": x, "y": 150} for x in ROW_CENTRES]
    assert [a["size"] for a in cells] == ROW

    grown = Live(server, row_params("grown", ROW[:3]))
    # Three cards: 442.5 + 75 + (375 - 150) / 2 = 630.
    assert grown.opened["contentSize"] == {"width": 630, "height": 300}
    r = grown.mutate("layout/appendItems", {"section": 0, "widthsAndHeights": flat(ROW[3:6])})
    # Through card 5: 762.5 + 35 + (375 - 70) / 2 = 950. The viewport
    # (300..675, centre 487.5) keeps its place: cards never move in a row.
    assert r["contentSize"] == {"width": 950, "height": 300}
    assert r["bounds"] == {"x": 300, "y": 0, "width": 375, "height": 300}
    # Cards 3 and 4 reach into the viewport (scaled down about its centre);
    # cards 1 and 2 did not change.
    assert [a["item"] for a in r["invalidated"]] == [3, 4] and r["removed"] == []
    r = grown.mutate("layout/appendItems", {"section": 0, "itemSizes": ROW[6:]})
    # Cards 6 and 7 lie beyond the viewport: nothing to send.
    assert r["contentSize"] == {"width": 1185, "height": 300}
    assert r["bounds"] == {"x": 300, "y": 0, "width": 375, "height": 300}
    assert r["invalidated"] == [] and r["removed"] == []
    assert grown.snapshot() == whole.snapshot()
    assert grown.picture == whole.picture


# -- a wrapping flow section ---------------------------------------------------

# flow, spacing 10 both ways, 320 wide. Greedy lines: [0, 1] (100 + 10 +
# 150 = 260; + 10 + 60 > 320), [2, 3] (60 + 10 + 200 = 270), [4, 5],
# [6] (300 + 10 + 50 > 320), [7]. Thicknesses 50, 60, 70, 40, 20: lines at
# y 0, 60, 130, 210, 260; content 280 high. Every line but the last is
# justified (the leftover shared between the gaps), a lone item centred; the
# last line (sizes vary) is leading-aligned; items are centred in their line.
FLOW_SIZES = [sz(100, 50), sz(150, 40), sz(60, 60), sz(200, 30), sz(100, 50), sz(100, 70), sz(300, 40), sz(50, 20)]
FLOW_FRAMES = [
    (0, 0, 100, 50),
    (170, 5, 150, 40),
    (0, 60, 60, 60),
    (120, 75, 200, 30),
    (0, 140, 100, 50),
    (220, 130, 100, 70),
    (10, 210, 300, 40),
    (0, 260, 50, 20),
]


def flow_params(session: str, sizes: List[dict], y: float = 0, height: float = 300) -> dict:
    return {
        "session": session,
        "layout": {"type": "flow"},
        "bounds": {"x": 0, "y": y, "width": 320, "height": height},
        "sections": [{"itemSizes": sizes}],
    }


def test_flow_section_appended_equals_opened_at_once(server):
    whole = Live(server, flow_params("all", FLOW_SIZES))
    assert whole.opened["contentSize"] == {"width": 320, "height": 280}
    assert whole.whole() == [cell(0, i, *f) for i, f in enumerate(FLOW_FRAMES)]

    grown = Live(server, flow_params("grown", FLOW_SIZES[:3]))
    # [0, 1] then [2] alone on the last line, leading: 50 + 10 + 60 = 120.
    assert grown.opened["contentSize"] == {"width": 320, "height": 120}
    r = grown.mutate("layout/appendItems", {"section": 0, "widthsAndHeights": flat(FLOW_SIZES[3:5])})
    # Item 3 joins line 1 (now justified: 3 at x 120, centred 15 lower);
    # item 4 starts the last line at y 130: 130 + 50 = 180. Item 2 stays.
    assert r["contentSize"] == {"width": 320, "height": 180}
    assert r["invalidated"] == [cell(0, 3, 120, 75, 200, 30), cell(0, 4, 0, 130, 100, 50)]
    r = grown.mutate("layout/appendItems", {"section": 0, "itemSizes": FLOW_SIZES[5:]})
    # Item 5 (70 high) joins item 4's line, which is no longer the last:
    # item 4 moves down to the middle of the 70-point line (y 140) and is
    # sent again with the new items.
    assert r["contentSize"] == {"width": 320, "height": 280}
    assert r["invalidated"] == [cell(0, i, *FLOW_FRAMES[i]) for i in range(4, 8)]
    assert r["removed"] == [] and r["bounds"]["y"] == 0
    assert grown.snapshot() == whole.snapshot()


def test_append_to_the_visible_last_line_anchors_the_view(server):
    # 100x50 items, three to a line (320 wide): item 6 alone on line 2 at
    # y 120, the first visible item of the viewport 120..220.
    live = Live(server, flow_params("f", [sz(100, 50)] * 7, y=120, height=100))
    assert live.opened["attributes"] == [cell(0, 6, 0, 120, 100, 50)]
    # A 90-high item joins line 2 and item 6 is centred in the thicker line
    # (y 140). The anchor keeps item 6 where the viewport showed it: the
    # bounds move down 20 as well (the content is 270 high: lines at 0, 60,
    # 120 (90 high) and 220). So an append does move an item that shares
    # the old last line; the layout still equals one open of everything.
    r = live.mutate("layout/appendItems", {"section": 0, "widthsAndHeights": flat([sz(100, 90)] + [sz(100, 50)] * 3)})
    assert r["bounds"] == {"x": 0, "y": 140, "width": 320, "height": 100}
    assert r["contentSize"] == {"width": 320, "height": 270}
    assert live.item(0, 6)["frame"] == {"x": 0, "y": 140, "width": 100, "height": 50}
    whole = Live(server, flow_params("all", [sz(100, 50)] * 7 + [sz(100, 90)] + [sz(100, 50)] * 3, y=140, height=100))
    assert live.snapshot() == whole.snapshot()


# -- uniform sections ------------------------------------------------------------

GRID = {
    "session": "g",
    "layout": {"type": "flow", "itemSize": sz(100, 50)},
    "bounds": {"x": 0, "y": 0, "width": 320, "height": 110},
    "sections": [{"itemCount": 30}],
}


def test_item_count_append_to_uniform_section(spawn):
    d = spawn("--max-item-values-per-request", "10")
    d.initialize()
    live = Live(d, GRID)
    # Uniform items carry no values: a million at once is within a limit of 10.
    r = live.mutate("layout/appendItems", {"section": 0, "itemCount": 1_000_000})
    # 1,000,030 items three to a line: 333,344 lines of 50, 10 apart:
    # 333344 * 50 + 333343 * 10 = 20,000,630. Nothing visible changed.
    assert r["contentSize"] == {"width": 320, "height": 20_000_630}
    assert r["invalidated"] == [] and r["removed"] == []
    # The last item, 1,000,029 = 3 * 333,343, starts the last line (y
    # 333343 * 60), in the first column: uniform items line up with the
    # columns above.
    assert live.item(0, 1_000_029)["frame"] == {"x": 0, "y": 20_000_580, "width": 100, "height": 50}
    whole = Live(d, {**GRID, "session": "all", "sections": [{"itemCount": 1_000_030}]})
    # (Not the whole content: a million attributes.) The top, the middle
    # and the end are the same as one open of every item.
    for y in (0, 10_000_000, 19_999_900):
        r = {"x": 0, "y": y, "width": 320, "height": 1000}
        assert live.in_rect(r) == whole.in_rect(r) != []
    r = live.mutate("layout/appendItems", {"section": 0, "itemCount": 0})
    assert r["invalidated"] == [] and r["contentSize"]["height"] == 20_000_630


def test_item_count_counts_slots_in_sections_with_sizes_or_ids(spawn):
    d = spawn("--max-item-values-per-request", "10")
    d.initialize()
    sized = Live(d, flow_params("sized", [sz(100, 50)] * 3))
    # A section that stores sizes gives each appended item a slot: a value.
    err = sized.expect_unchanged_after("layout/appendItems", {"section": 0, "itemCount": 11}, 1004)
    assert err["message"] == limit_message("params.itemCount", 11, 10)
    assert err["data"] == {"field": "params.itemCount"}
    r = sized.mutate("layout/appendItems", {"section": 0, "itemCount": 10})
    # Ten items of the layout's 50x50, five to a line (5 * 50 + 4 * 10 =
    # 290): three lines, 170 high; the last (sizes vary) leading-aligned.
    assert r["contentSize"] == {"width": 320, "height": 170}
    assert sized.item(0, 12)["frame"] == {"x": 240, "y": 120, "width": 50, "height": 50}
    # Uniform items with ids: one value (the id slot) per item.
    tagged = Live(d, {**GRID, "session": "tagged", "sections": [{"itemCount": 2, "ids": ["a", "b"]}]})
    err = tagged.expect_unchanged_after("layout/appendItems", {"section": 0, "itemCount": 11}, 1004)
    assert err["message"] == limit_message("params.itemCount", 11, 10)
    tagged.mutate("layout/appendItems", {"section": 0, "itemCount": 5, "ids": ["c", "d", "e", "f", "g"]})
    tagged.mutate("layout/appendItems", {"section": 0, "itemCount": 10})


# -- ids --------------------------------------------------------------------------

# coverFlow with its defaults: 200x300 cards 20 apart, in 375x300: card i is
# centred at 187.5 + 220 i, and centred in the viewport at x = 220 i.
COVER = {"session": "c", "layout": {"type": "coverFlow"}, "bounds": {"x": 0, "y": 0, "width": 375, "height": 300}}


def view(x: float) -> dict:
    return {"x": x, "y": 0, "width": 375, "height": 300}


def test_appended_ids_anchor_reload_data(server):
    live = Live(server, {**COVER, "sections": [{"itemCount": 2, "ids": ["a", "b"]}]})
    live.mutate("layout/appendItems", {"section": 0, "itemCount": 3, "ids": ["c", "d", "e"]})
    # 5 cards: 87.5 * 2 + 5 * 200 + 4 * 20 = 1255.
    assert live.content_size == {"width": 1255, "height": 300}
    r = live.set_bounds(view(660))
    assert r["centeredItem"] == {"section": 0, "item": 3, "id": "d"}
    # "d", appended, is centred; two cards in front move it to item 5,
    # centred at x 1100 (7 cards: 1695 wide, offsets up to 1320).
    r = live.reload([{"itemCount": 7, "ids": ["x", "y", "a", "b", "c", "d", "e"]}])
    assert r["bounds"] == view(1100)
    assert r["centeredItem"] == {"section": 0, "item": 5, "id": "d"}


def test_items_appended_without_ids_have_none(server):
    live = Live(server, {**COVER, "sections": [{"itemCount": 2, "ids": ["a", "b"]}]})
    live.mutate("layout/appendItems", {"section": 0, "widthsAndHeights": flat([sz(200, 300)] * 3)})
    live.set_bounds(view(660))
    # Card 3 has no id: the reload keeps its index path (x 660).
    r = live.reload([{"itemCount": 7, "ids": ["x", "y", "a", "b", "c", "d", "e"]}])
    assert r["bounds"] == view(660) and r["centeredItem"] == {"section": 0, "item": 3, "id": "b"}


def test_ids_appended_to_a_section_without_ids(server):
    live = Live(server, {**COVER, "sections": [{"itemCount": 3}]})
    live.mutate("layout/appendItems", {"section": 0, "itemCount": 2, "ids": ["p", 7]})
    live.set_bounds(view(880))  # card 4 (id 7) centred
    r = live.reload([{"itemCount": 5, "ids": [7, "p", "q", "r", "s"]}])
    assert r["bounds"] == view(0) and r["centeredItem"] == {"section": 0, "item": 0, "id": 7}


# -- errors: each names its field and changes nothing ------------------------------

BAD_APPENDS = [
    ({"widthsAndHeights": [150, 100, 60]}, "params.widthsAndHeights",
     "params.widthsAndHeights must hold a width and a height per item (an even count)"),
    ({"widthsAndHeights": [150, 100, 60, -1]}, "params.widthsAndHeights[3]",
     "params.widthsAndHeights[3] must be a finite number >= 0"),
    ({"widthsAndHeights": [150, "NaN"]}, "params.widthsAndHeights[1]",
     "params.widthsAndHeights[1] must be a finite number >= 0"),
    ({"widthsAndHeights": [None, 100]}, "params.widthsAndHeights[0]",
     "params.widthsAndHeights[0] must be a finite number >= 0"),
    ({"widthsAndHeights": [150, True]}, "params.widthsAndHeights[1]",
     "params.widthsAndHeights[1] must be a finite number >= 0"),
    ({"widthsAndHeights": [10, 10, 1e300, 10]}, "params.widthsAndHeights[2]",
     "params.widthsAndHeights[2] must not exceed 1e15 in magnitude"),
    ({"widthsAndHeights": [10, 1.0000000000000002e15]}, "params.widthsAndHeights[1]",
     "params.widthsAndHeights[1] must not exceed 1e15 in magnitude"),
    ({"widthsAndHeights": {"0": 1}}, "params.widthsAndHeights", "params.widthsAndHeights must be an array"),
    ({"itemSizes": [sz(1, 1), sz(-1, 1)]}, "params.itemSizes[1].width",
     "params.itemSizes[1].width must be a finite number >= 0"),
    ({"itemSizes": [sz(1, 1), {"width": 1}]}, "params.itemSizes[1].height", "params.itemSizes[1].height is required"),
    ({"itemCount": 1, "itemSizes": [sz(1, 1)]}, "params.itemSizes", "params.itemSizes cannot be given with itemCount"),
    ({"itemCount": 1, "widthsAndHeights": [1, 1]}, "params.widthsAndHeights",
     "params.widthsAndHeights cannot be given with itemCount"),
    ({"itemSizes": [sz(1, 1)], "widthsAndHeights": [1, 1]}, "params.widthsAndHeights",
     "params.widthsAndHeights cannot be given with itemSizes"),
    ({}, "params.itemCount", "params.itemCount is required (or itemSizes, widthsAndHeights or widthsAndHeightsBase64)"),
    ({"ids": ["d"]}, "params.itemCount", "params.itemCount is required (or itemSizes, widthsAndHeights or widthsAndHeightsBase64)"),
    ({"itemCount": -1}, "params.itemCount", "params.itemCount must be an integer from 0 to 9223372036854775807"),
    ({"itemCount": 2.5}, "params.itemCount", "params.itemCount must be an integer"),
    ({"section": 1, "itemCount": 1}, "params.section", "params.section is out of range: the session has 1 sections"),
    ({"section": -1, "itemCount": 1}, "params.section", "params.section must be an integer from 0 to 9223372036854775807"),
    ({"section": "0", "itemCount": 1}, "params.section", "params.section must be an integer"),
    ({"itemCount": 2, "ids": ["d"]}, "params.ids", "params.ids must have one id per item (2)"),
    ({"widthsAndHeights": [1, 1], "ids": ["d", "e"]}, "params.ids", "params.ids must have one id per item (1)"),
    ({"itemCount": 2, "ids": ["d", True]}, "params.ids[1]", "params.ids[1] must be a string or an integer"),
    ({"itemCount": 1, "ids": "d"}, "params.ids", "params.ids must be an array"),
    ({"itemCount": 1, "size": sz(1, 1)}, "params.size", "params.size is not a known field"),
]


@pytest.mark.parametrize("params,field,message", BAD_APPENDS, ids=[m for _, _, m in BAD_APPENDS])
def test_bad_append_names_its_field(server, params, field, message):
    live = Live(server, {**row_params("s", ROW[:3]), "sections": [{"itemSizes": ROW[:3], "ids": ["a", "b", "c"]}]})
    err = live.expect_unchanged_after("layout/appendItems", {"section": 0, **params}, -32602)
    assert err["message"] == message
    assert err["data"] == {"field": field}


def test_append_to_unknown_session(server):
    err = server.error("layout/appendItems", {"session": "nope", "section": 0, "itemCount": 1}, code=1001)
    assert err == {"code": 1001, "message": 'unknown session "nope"', "data": {"field": "params.session"}}
    err = server.error("layout/appendItems", {"section": 0, "itemCount": 1}, code=-32602)
    assert err["data"] == {"field": "params.session"}


def test_nan_in_widths_and_heights_is_a_parse_error(server):
    live = Live(server, row_params("s", ROW[:3]))
    before = live.snapshot()
    # json.dumps writes the non-JSON token NaN: jansson refuses the text.
    server.send(req(7, "layout/appendItems", {"session": "s", "section": 0, "widthsAndHeights": [10, float("nan")]}))
    r = server.read()
    assert r["id"] is None and r["error"]["code"] == -32700
    assert r["error"]["message"].startswith("Parse error: invalid token near 'NaN'")
    assert live.snapshot() == before
    server.ping()


# -- maxItemValuesPerRequest ---------------------------------------------------------


@pytest.fixture
def limited(spawn):
    d = spawn("--max-item-values-per-request", "10")
    assert d.initialize()["capabilities"]["limits"]["maxItemValuesPerRequest"] == 10
    return d


def test_default_values_limit_is_none(daemon):
    # By default no request is refused for the values it carries.
    assert daemon.initialize()["capabilities"]["limits"]["maxItemValuesPerRequest"] is None


def test_open_over_the_values_limit(limited):
    # 4 sizes + 4 ids + 3 sizes = 11 values; uniform sections carry none.
    eleven = [{"itemSizes": [sz(10, 10)] * 4, "ids": [1, 2, 3, 4]}, {"itemCount": 1000}, {"itemSizes": [sz(10, 10)] * 3}]
    err = limited.error("layout/open", {**flow_params("o", []), "sections": eleven}, code=1004)
    assert err["message"] == limit_message("params.sections", 11, 10)
    assert err["data"] == {"field": "params.sections"}
    limited.error("layout/contentSize", {"session": "o"}, code=1001)  # nothing was opened
    ten = [eleven[0], eleven[1], {"itemSizes": [sz(10, 10)] * 2}]
    live = Live(limited, {**flow_params("o", []), "sections": ten})
    err = live.expect_unchanged_after("layout/reloadData", {"sections": eleven}, 1004)
    assert err["message"] == limit_message("params.sections", 11, 10)
    assert err["data"] == {"field": "params.sections"}
    live.reload(ten)


def test_set_item_sizes_over_the_values_limit(limited):
    live = Live(limited, GRID)
    entries = [{"section": 0, "item": i, "size": sz(100, 40)} for i in range(11)]
    err = live.expect_unchanged_after("layout/setItemSizes", {"sizes": entries}, 1004)
    assert err["message"] == limit_message("params.sizes", 11, 10)
    assert err["data"] == {"field": "params.sizes"}
    live.set_item_sizes(entries[:10])


@pytest.mark.parametrize(
    "updates",
    [
        {"insertItems": [{"section": 0, "item": i} for i in range(6)], "reloadItems": [{"section": 0, "item": i} for i in range(5)]},
        {"insertItems": [{"section": 0, "item": i, "size": sz(10, 10)} for i in range(11)]},
        {"insertSections": [{"index": 1, "itemSizes": [sz(10, 10)] * 5, "ids": list(range(5))}], "insertItems": [{"section": 0, "item": 0}]},
        {"insertSections": [{"index": 1, "itemCount": 11, "ids": list(range(11))}]},
        # A size and an id: two values per inserted item.
        {"insertItems": [{"section": 0, "item": i, "size": sz(10, 10), "id": i} for i in range(5)], "reloadItems": [{"section": 0, "item": 0}]},
    ],
    ids=["inserted+reloaded", "inserted", "section sizes+ids", "section ids", "inserted with ids"],
)
def test_batch_over_the_values_limit(limited, updates):
    live = Live(limited, GRID)
    err = live.expect_unchanged_after("layout/performBatchUpdates", {"updates": updates}, 1004)
    assert err["message"] == limit_message("params.updates", 11, 10)
    assert err["data"] == {"field": "params.updates"}


def test_batch_at_the_values_limit(limited):
    live = Live(limited, GRID)
    live.batch({"insertItems": [{"section": 0, "item": i} for i in range(5)], "reloadItems": [{"section": 0, "item": i} for i in range(5)]})
    live.batch({"insertSections": [{"index": 1, "itemCount": 1000}]})  # uniform: no values


@pytest.mark.parametrize(
    "params,field,count",
    [
        ({"widthsAndHeights": [10, 10] * 11}, "params.widthsAndHeights", 11),
        ({"itemSizes": [sz(10, 10)] * 11}, "params.itemSizes", 11),
        ({"widthsAndHeights": [10, 10] * 6, "ids": list(range(6))}, "params.widthsAndHeights", 12),
        ({"itemCount": 6, "ids": list(range(6))}, "params.itemCount", 12),
        ({"itemCount": 11}, "params.itemCount", 11),
    ],
    ids=["widthsAndHeights", "itemSizes", "sizes+ids", "count+ids", "count"],
)
def test_append_over_the_values_limit(limited, params, field, count):
    live = Live(limited, flow_params("s", [sz(10, 10)] * 2))
    err = live.expect_unchanged_after("layout/appendItems", {"section": 0, **params}, 1004)
    assert err["message"] == limit_message(field, count, 10)
    assert err["data"] == {"field": field}


def test_append_at_the_values_limit(limited):
    live = Live(limited, flow_params("s", [sz(10, 10)] * 2))
    live.mutate("layout/appendItems", {"section": 0, "widthsAndHeights": [20, 10] * 10})
    live.mutate("layout/appendItems", {"section": 0, "itemSizes": [sz(30, 10)] * 5, "ids": list(range(5))})
    whole = Live(limited, flow_params("w", [sz(10, 10)] * 2))
    whole.mutate("layout/appendItems", {"section": 0, "itemSizes": [sz(20, 10)] * 10})
    whole.mutate("layout/appendItems", {"section": 0, "itemSizes": [sz(30, 10)] * 5, "ids": list(range(5))})
    assert live.snapshot() == whole.snapshot()


def test_append_over_max_items(spawn):
    d = spawn("--max-items", "20")
    d.initialize()
    live = Live(d, flow_params("s", [sz(10, 10)] * 15))
    for params, field in [
        ({"itemCount": 6}, "params.itemCount"),
        ({"widthsAndHeights": [10, 10] * 6}, "params.widthsAndHeights"),
        ({"itemSizes": [sz(10, 10)] * 6}, "params.itemSizes"),
    ]:
        err = live.expect_unchanged_after("layout/appendItems", {"section": 0, **params}, 1004)
        assert err["message"] == f"{field} holds more than 20 items, the per-session limit"
        assert err["data"] == {"field": field}
    live.mutate("layout/appendItems", {"section": 0, "itemCount": 5})  # exactly 20
    err = live.expect_unchanged_after("layout/appendItems", {"section": 0, "itemCount": 1}, 1004)
    assert err["data"] == {"field": "params.itemCount"}


@pytest.mark.parametrize("ids", [None, []], ids=["sizes only", "with ids"])
def test_huge_counts_are_refused_not_overflowed(server, ids):
    # itemCount up to Int.max: counted twice (a size slot and an id slot)
    # it would overflow; the daemon must answer 1004 and keep serving.
    live = Live(server, flow_params("s", [sz(10, 10)]))
    params = {"section": 0, "itemCount": 4611686018427387904}
    if ids is not None:
        params["ids"] = ids
    err = live.expect_unchanged_after("layout/appendItems", params, 1004)
    assert err["data"] == {"field": "params.itemCount"}
    # Two inserted sections whose counts sum past Int.max.
    huge = {"index": 1, "itemCount": 4611686018427387904}
    err = live.expect_unchanged_after(
        "layout/performBatchUpdates", {"updates": {"insertSections": [huge, {**huge, "index": 2}]}}, 1004)
    assert err["message"] == "params.updates holds more than 100000000 items, the per-session limit"


def test_an_empty_append_changes_nothing(server):
    live = Live(server, flow_params("s", []))
    live.reload([{"itemCount": 7}])
    before = live.snapshot()
    for params in ({"itemCount": 0}, {"itemSizes": [], "ids": []}, {"widthsAndHeights": []}):
        r = live.mutate("layout/appendItems", {"section": 0, **params})
        assert r["invalidated"] == [] and r["removed"] == []
    assert live.snapshot() == before


# -- the Python client ------------------------------------------------------------------


@pytest.fixture
def clients() -> Iterator[Callable[..., Client]]:
    """client(*args): a Client of a daemon started with args, shut down
    (and checked to exit 0) after the test."""
    started: List[Client] = []

    def make(*args: str) -> Client:
        c = Client(DAEMON, args=list(args))
        started.append(c)
        return c

    yield make
    codes = [(c.shutdown(), c.stderr_tail()) for c in started]
    assert all(code == 0 for code, _ in codes), codes


class Recorder:
    """Records the requests a client sends (method and params)."""

    def __init__(self, client: Client) -> None:
        self.sent: List[Tuple[str, Any]] = []
        inner = client.request

        def request(method: str, params: Optional[Any] = None) -> Any:
            self.sent.append((method, params))
            return inner(method, params)

        client.request = request  # type: ignore[method-assign]

    def methods(self) -> List[str]:
        return [m for m, _ in self.sent]


def packed_count(params: Dict[str, Any]) -> int:
    """The items a widthsAndHeightsBase64 carries (16 bytes each)."""
    return len(base64.b64decode(params.get("widthsAndHeightsBase64", ""))) // 16


def values_of(method: str, params: Dict[str, Any]) -> int:
    """The sizes and ids a request carries, as the daemon counts them for a
    section without ids (what these tests append to)."""
    if method in ("layout/open", "layout/reloadData"):
        return sum(len(s.get("itemSizes", ())) + len(s.get("ids", ())) for s in params["sections"])
    if method == "layout/appendItems":
        n = len(params.get("itemSizes", ())) + len(params.get("widthsAndHeights", ())) // 2
        return n + packed_count(params) + len(params.get("ids", ()))
    if method == "layout/setItemSizes":
        return len(params["sizes"])
    return 0


def whole_content(c: Client, session: str) -> Tuple[Size, tuple]:
    size = c.content_size(session)
    return size, c.attributes_in_rect(session, Rect(-1000, -1000, size.width + 2000, size.height + 2000))


def picture_of(c: Client, session: str, opened: OpenResult) -> Picture:
    p = Picture()
    p.apply(opened)
    assert tuple(p.elements()) == c.attributes_in_rect(session, opened.bounds)
    return p


def random_sizes(n: int, seed: int) -> List[dict]:
    rng = random.Random(seed)
    return [sz(rng.randint(20, 150), rng.randint(20, 90)) for _ in range(n)]


def big_sections() -> List[dict]:
    """10,000 sized items with ids in a headed, inset section, a uniform
    section, then 2,000 more sizes: 22,000 values."""
    sizes = random_sizes(12_000, 7)
    return [
        {"itemSizes": sizes[:10_000], "ids": [f"i{k}" for k in range(10_000)], "headerSize": sz(0, 30),
         "inset": {"top": 5, "left": 10, "bottom": 5, "right": 10}},
        {"itemCount": 50, "footerSize": sz(0, 20)},
        {"itemSizes": sizes[10_000:], "minimumInteritemSpacing": 4},
    ]


FLOW = {"type": "flow", "itemSize": {"width": 60, "height": 60}}


def test_limit_is_read_from_initialize(clients):
    assert clients().max_item_values_per_request == 2048
    assert clients("--max-item-values-per-request", "10").max_item_values_per_request == 10
    assert _values_limit({}) == DEFAULT_MAX_ITEM_VALUES_PER_REQUEST == 2048
    assert _values_limit({"methods": ["layout/open"]}) is None  # no appendItems: never chunk
    assert _values_limit({"limits": {"maxItemValuesPerRequest": 7}}) == 7


@pytest.mark.parametrize("y", [0, 160_000, 10_000_000], ids=["top", "beyond the first chunk", "past the end"])
def test_client_open_of_10000_sizes_equals_one_request(clients, y):
    chunked, whole = clients(), clients("--max-item-values-per-request", "30000")
    assert chunked.max_item_values_per_request == 2048
    sent = Recorder(chunked)
    bounds = Rect(0, y, 375, 667)
    a = chunked.open("s", FLOW, bounds, big_sections(), overscan=40)
    opening = list(sent.sent)
    b = whole.open("s", FLOW, bounds, big_sections(), overscan=40)
    assert isinstance(a, OpenResult)
    assert a == b
    assert a.bounds == bounds
    assert whole_content(chunked, "s") == whole_content(whole, "s")
    # The first request holds every section, each later one at most 2048
    # values, and they come in order: open, then the appends section by
    # section (ids with the sized items: 1024 items a request).
    methods = [m for m, _ in opening]
    assert methods[0] == "layout/open" and len(opening[0][1]["sections"]) == 3
    assert all(values_of(m, p) <= 2048 for m, p in opening)
    appends = [p for m, p in opening if m == "layout/appendItems"]
    # Section 0: 1024 items (2048 values) in the open, 8976 = 8 * 1024 +
    # 784 appended; section 2 (sizes only): 2000 in one append.
    assert [p["section"] for p in appends] == [0] * 9 + [2]
    # The client packs the sizes of its chunks (protocol.md, "Packed sizes").
    assert all("widthsAndHeightsBase64" in p for p in appends)
    assert [len(p.get("ids", ())) for p in appends] == [1024] * 8 + [784, 0]
    assert [packed_count(p) for p in appends] == [1024] * 8 + [784, 2000]
    assert [len(s.get("itemSizes", ())) for s in opening[0][1]["sections"]] == [1024, 0, 0]
    # Bounds beyond the first chunk's content are clamped by an append (and
    # then follow section 1's items down as section 0 grows, keeping the
    # anchor): one setBounds scrolls them back. At the top nothing moves.
    assert methods[1:11] == ["layout/appendItems"] * 10
    assert methods[11:] == ([] if y == 0 else ["layout/setBounds"])


def test_client_open_puts_back_bounds_an_append_moved(clients):
    # The flow case of test_append_to_the_visible_last_line_anchors_the_view,
    # with a limit of 7: the first chunk ends on the visible last line, the
    # append anchors the view 20 lower, and the client scrolls it back.
    c = clients("--max-item-values-per-request", "7")
    whole = clients()
    sent = Recorder(c)
    sections = [{"itemSizes": [sz(100, 50)] * 7 + [sz(100, 90)] + [sz(100, 50)] * 3}]
    a = c.open("f", {"type": "flow"}, Rect(0, 120, 320, 100), sections)
    assert sent.methods() == ["layout/open", "layout/appendItems", "layout/setBounds"]
    assert a == whole.open("f", {"type": "flow"}, Rect(0, 120, 320, 100), sections)
    assert a.bounds == Rect(0, 120, 320, 100)
    assert [x.item for x in a.attributes] == [6, 7, 8]
    assert whole_content(c, "f") == whole_content(whole, "f")


def test_client_open_error_in_a_later_chunk(clients):
    c = clients("--max-item-values-per-request", "10")
    whole = clients()
    sizes = [sz(10, 10)] * 25
    sizes[17] = sz(10, -1)
    sections = [{"itemCount": 3}, {"itemSizes": sizes}]
    with pytest.raises(RPCError) as chunked_error:
        c.open("s", FLOW, Rect(0, 0, 320, 100), sections)
    with pytest.raises(RPCError) as one_request:
        whole.open("s", FLOW, Rect(0, 0, 320, 100), sections)
    for e in (chunked_error.value, one_request.value):
        assert e.code == RPCError.INVALID_PARAMS
        assert e.field == "params.sections[1].itemSizes[17].height"
        assert e.message == "params.sections[1].itemSizes[17].height must be a finite number >= 0"
    with pytest.raises(RPCError) as gone:
        c.content_size("s")  # closed again: a failed open leaves no session
    assert gone.value.code == RPCError.UNKNOWN_SESSION
    # Ids are named in the section too.
    ids: List[Any] = list(range(25))
    ids[15] = None
    with pytest.raises(RPCError) as e:
        c.open("s", FLOW, Rect(0, 0, 320, 100), [{"itemCount": 25, "ids": ids}])
    assert (e.value.field, e.value.message) == ("params.sections[0].ids[15]", "params.sections[0].ids[15] must be a string or an integer")
    # The open then works.
    assert c.open("s", FLOW, Rect(0, 0, 320, 100), [{"itemSizes": [sz(10, 10)] * 25}]).content_size == Size(320, 30)


def test_client_open_over_max_items(clients):
    c = clients("--max-item-values-per-request", "10", "--max-items", "20")
    with pytest.raises(RPCError) as e:
        c.open("s", FLOW, Rect(0, 0, 320, 100), [{"itemSizes": [sz(10, 10)] * 21}])
    assert (e.value.code, e.value.field) == (RPCError.LIMIT_EXCEEDED, "params.sections")
    assert e.value.message == "params.sections holds more than 20 items, the per-session limit"
    with pytest.raises(RPCError):
        c.content_size("s")
    assert c.open("s", FLOW, Rect(0, 0, 320, 100), [{"itemSizes": [sz(10, 10)] * 20}]).content_size == Size(320, 30)


def test_client_reload_data_chunked(clients):
    chunked, whole = clients(), clients("--max-item-values-per-request", "30000")
    results = []
    for c in (chunked, whole):
        picture = picture_of(c, "s", c.open("s", FLOW, Rect(0, 300, 375, 667), [{"itemCount": 100}]))
        # 60x60 items five to a line, 70 apart: the anchor, the first
        # visible item, is 20 (line 4), well within the first chunk.
        r = c.reload_data("s", big_sections())
        assert isinstance(r, MutationResult)
        picture.apply(r)
        assert tuple(picture.elements()) == c.attributes_in_rect("s", r.bounds)
        results.append((r.bounds, r.content_size, r.centered_item, tuple(picture.elements()), whole_content(c, "s")))
    assert results[0] == results[1]


def test_client_reload_data_chunked_keeps_an_anchor_found_by_id_in_a_later_chunk(clients):
    # 10,000 uniform 200x300 cards with ids, centred on card 9000; the
    # reload puts one new card in front, so card "c9000" becomes card 9001.
    # One request finds the id at once; chunked, the id arrives with the
    # third appendItems and the daemon re-anchors then.
    ids = [f"c{k}" for k in range(10_000)]
    cover = {"type": "coverFlow"}
    pitch, x9000 = 220, 9000 * 220
    results = []
    for c in (clients(), clients("--max-item-values-per-request", "30000")):
        c.open("s", cover, Rect(x9000, 0, 375, 300), [{"itemCount": 10_000, "ids": ids}])
        assert c.set_bounds("s", Rect(x9000, 0, 375, 300)).centered_item == IndexPath(0, 9000)
        r = c.reload_data("s", [{"itemCount": 10_001, "ids": ["new"] + ids}])
        results.append((r.bounds, r.centered_item, whole_content(c, "s")[0]))
    assert results[0] == results[1]
    assert results[0][0] == Rect(x9000 + pitch, 0, 375, 300)
    assert results[0][1] == IndexPath(0, 9001)


def test_a_reload_anchor_waits_for_its_id_until_the_user_scrolls(server):
    # Card "c" (item 2) is centred at x 440. A reload without "c" clamps
    # the view (2 cards: offsets 0 to 220); the append that brings "c" as
    # item 4 centres it again: x 4 * 220 = 880.
    live = Live(server, {**COVER, "bounds": view(440), "sections": [{"itemCount": 4, "ids": ["a", "b", "c", "d"]}]})
    assert live.reload([{"itemCount": 2, "ids": ["x", "y"]}])["bounds"] == view(220)
    r = live.mutate("layout/appendItems", {"section": 0, "itemCount": 4, "ids": ["a", "b", "c", "d"]})
    assert r["bounds"] == view(880)
    assert r["centeredItem"] == {"section": 0, "item": 4, "id": "c"}
    # With a scroll in between, the wait is over: the view stays put.
    live.reload([{"itemCount": 2, "ids": ["x", "y"]}])
    live.set_bounds(view(0))
    r = live.mutate("layout/appendItems", {"section": 0, "itemCount": 4, "ids": ["a", "b", "c", "d"]})
    assert r["bounds"] == view(0)


def test_client_set_item_sizes_chunked(clients):
    chunked, whole = clients("--max-item-values-per-request", "10"), clients()
    entries = [(0, i, (40 + i, 30 + i % 7)) for i in range(25)]
    chunks = []
    for c in (chunked, whole):
        picture = picture_of(c, "g", c.open("g", FLOW, Rect(0, 0, 320, 200), [{"itemCount": 40}]))
        sent = Recorder(c)
        r = c.set_item_sizes("g", entries)
        picture.apply(r)
        assert tuple(picture.elements()) == c.attributes_in_rect("g", r.bounds)
        assert r.bounds == Rect(0, 0, 320, 200)
        chunks.append([len(p["sizes"]) for m, p in sent.sent if m == "layout/setItemSizes"])
    assert chunks == [[10, 10, 5], [25]]
    assert whole_content(chunked, "g") == whole_content(whole, "g")
    bad: List[Any] = list(entries)
    bad[23] = (0, 23, (-5, 10))
    with pytest.raises(RPCError) as e:
        chunked.set_item_sizes("g", bad)
    assert (e.value.field, e.value.message) == ("params.sizes[23].size.width", "params.sizes[23].size.width must be a finite number >= 0")


def test_client_append_items(clients):
    c = clients()
    picture = picture_of(c, "r", c.open("r", {"type": "coverFlow", "itemSize": sz(100, 100)}, Rect(0, 0, 375, 300), [{"itemSizes": ROW[:1]}]))
    r = c.append_items("r", 0, item_sizes=[Size(80, 100), (150, 100)])
    assert isinstance(r, MutationResult)
    picture.apply(r)
    r = c.append_items("r", 0, widths_and_heights=(60, 100, 90, 100))
    picture.apply(r)
    r = c.append_items("r", 0, item_sizes=[{"width": 70, "height": 100}, sz(110, 100)], ids=None)
    picture.apply(r)
    r = c.append_items("r", 0, item_count=1)  # the uniform size: 100x100
    picture.apply(r)
    assert r.content_size == Size(1185, 300)
    assert tuple(picture.elements()) == c.attributes_in_rect("r", r.bounds)
    assert [a.center.x for a in c.attributes_in_rect("r", Rect(0, 0, 1185, 300))] == ROW_CENTRES
    with pytest.raises(RPCError) as e:
        c.append_items("r", 0)
    assert e.value.field == "params.itemCount"
    with pytest.raises(RPCError) as e:
        c.append_items("r", 0, item_count=1, widths_and_heights=[1, 1])
    assert e.value.field == "params.widthsAndHeights"
    with pytest.raises(RPCError) as e:
        c.append_items("r", 3, item_count=1)
    assert e.value.message == "params.section is out of range: the session has 1 sections"


def test_client_append_items_chunked(clients):
    c, whole = clients("--max-item-values-per-request", "10"), clients()
    sizes = random_sizes(23, 3)
    for x in (c, whole):
        x.open("s", FLOW, Rect(0, 0, 320, 200), [{"itemCount": 0, "ids": []}])
    sent = Recorder(c)
    picture = Picture()
    picture.apply(c.open("t", FLOW, Rect(0, 0, 320, 200), [{"itemSizes": []}]))
    picture.apply(c.append_items("t", 0, widths_and_heights=flat(sizes)))
    assert tuple(picture.elements()) == c.attributes_in_rect("t", Rect(0, 0, 320, 200))
    # Sizes and ids: 2 values an item, 5 items a request.
    r = c.append_items("s", 0, item_sizes=sizes, ids=[f"k{i}" for i in range(23)])
    chunks = [p for m, p in sent.sent if m == "layout/appendItems" and p["session"] == "s"]
    assert [len(p["itemSizes"]) for p in chunks] == [5, 5, 5, 5, 3]
    assert [p["ids"][0] for p in chunks] == ["k0", "k5", "k10", "k15", "k20"]
    whole.append_items("s", 0, item_sizes=sizes, ids=[f"k{i}" for i in range(23)])
    assert r.content_size == whole.content_size("s")
    assert whole_content(c, "s") == whole_content(whole, "s")
    bad = flat(sizes)
    bad[27] = -3
    with pytest.raises(RPCError) as e:
        c.append_items("t", 0, widths_and_heights=bad)
    assert (e.value.field, e.value.message) == ("params.widthsAndHeights[27]", "params.widthsAndHeights[27] must be a finite number >= 0")
