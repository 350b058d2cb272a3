"""The packed encoding of item sizes, `widthsAndHeightsBase64` (protocol.md
"Packed sizes"): base64 (RFC 4648, padded) of little-endian float64
(width, height) pairs, in layout/appendItems and in the section objects of
layout/open, layout/reloadData and insertSections.

A session loaded through it must be exactly the session loaded through
`itemSizes`: the same content size and the same attributes everywhere, as
JSON values. Bad input is -32602 naming the field, the session unchanged.
"""

from __future__ import annotations

import base64
import math
import random
import struct

import pytest

from live_support import Live
from test_append_items import clients  # noqa: F401 (the fixture)


def packed(sizes) -> str:
    return base64.b64encode(b"".join(struct.pack("<dd", w, h) for w, h in sizes)).decode()


def objects(sizes) -> list:
    return [{"width": w, "height": h} for w, h in sizes]


# Widths and heights with fractions a decimal would round (0.1, 1/3) and
# integers, so that "the same double" is tested, not "a close one".
SIZES = [(120, 100), (80.1, 100), (150, 99.5), (60, 1 / 3), (90, 100), (70.25, 100), (110, 100), (100, 2 / 3)]

LAYOUTS = {
    "flow": {"type": "flow", "minimumLineSpacing": 10, "minimumInteritemSpacing": 10},
    "coverFlow": {"type": "coverFlow", "itemSize": {"width": 100, "height": 100}},
    "waterfall": {"type": "waterfall", "columnCount": 3},
    "carousel": {"type": "carousel", "style": "rotary", "wrap": False, "itemSize": {"width": 100, "height": 100}},
}


def params(session: str, kind: str, section: dict) -> dict:
    return {
        "session": session,
        "layout": LAYOUTS[kind],
        "bounds": {"x": 0, "y": 0, "width": 320, "height": 300},
        "sections": [section],
    }


@pytest.mark.parametrize("kind", list(LAYOUTS))
def test_open_with_packed_sizes_equals_item_sizes(server, kind):
    plain = Live(server, params(f"plain-{kind}", kind, {"itemSizes": objects(SIZES)}))
    fast = Live(server, params(f"packed-{kind}", kind, {"widthsAndHeightsBase64": packed(SIZES)}))
    assert fast.opened == plain.opened
    assert fast.snapshot() == plain.snapshot()


@pytest.mark.parametrize("kind", list(LAYOUTS))
def test_append_packed_equals_widths_and_heights(server, kind):
    plain = Live(server, params(f"plain-{kind}", kind, {"itemSizes": objects(SIZES[:3])}))
    fast = Live(server, params(f"packed-{kind}", kind, {"itemSizes": objects(SIZES[:3])}))
    flat = [v for s in SIZES[3:] for v in s]
    a = plain.mutate("layout/appendItems", {"section": 0, "widthsAndHeights": flat})
    b = fast.mutate("layout/appendItems", {"section": 0, "widthsAndHeightsBase64": packed(SIZES[3:])})
    assert a == b
    assert fast.snapshot() == plain.snapshot()


def test_every_double_arrives_bit_for_bit(server):
    # Random finite sizes, every one a different double: the attributes
    # of a one-card-per-line flow give each width back exactly.
    rng = random.Random(5)
    sizes = [(rng.uniform(0, 300), rng.uniform(1, 50)) for _ in range(200)]
    live = Live(server, {
        "session": "bits", "layout": {"type": "flow", "minimumLineSpacing": 0},
        "bounds": {"x": 0, "y": 0, "width": 400, "height": 1e6},
        "sections": [{"widthsAndHeightsBase64": packed(sizes)}],
    })
    cells = sorted((a for a in live.whole() if a["kind"] == "cell"), key=lambda a: a["item"])
    assert [(a["size"]["width"], a["size"]["height"]) for a in cells] == sizes


def test_reload_data_and_insert_sections_take_packed_sizes(server):
    plain = Live(server, params("plain", "flow", {"itemCount": 2}))
    fast = Live(server, params("packed", "flow", {"itemCount": 2}))
    a = plain.mutate("layout/reloadData", {"sections": [{"itemSizes": objects(SIZES)}]})
    b = fast.mutate("layout/reloadData", {"sections": [{"widthsAndHeightsBase64": packed(SIZES)}]})
    assert a == b
    a = plain.mutate("layout/performBatchUpdates", {"updates": {
        "insertSections": [{"index": 0, "itemSizes": objects(SIZES[:2])}]}})
    b = fast.mutate("layout/performBatchUpdates", {"updates": {
        "insertSections": [{"index": 0, "widthsAndHeightsBase64": packed(SIZES[:2])}]}})
    assert a == b
    assert fast.snapshot() == plain.snapshot()


def test_an_empty_string_appends_nothing(server):
    live = Live(server, params("s", "flow", {"itemSizes": objects(SIZES[:2])}))
    before = live.snapshot()
    r = live.mutate("layout/appendItems", {"section": 0, "widthsAndHeightsBase64": ""})
    assert r["invalidated"] == [] and r["removed"] == []
    assert live.snapshot() == before
    live = Live(server, params("e", "flow", {"widthsAndHeightsBase64": ""}))
    assert live.d.call("layout/contentSize", {"session": "e"})["contentSize"]["height"] == 0


GOOD = packed(SIZES[:2])  # 32 bytes: 44 characters, one "=".
FIELD = "params.widthsAndHeightsBase64"
FORMAT = "base64 (RFC 4648, padded) of little-endian float64 (width, height) pairs"

BAD = [
    (GOOD[:-1], f"{FIELD} must be {FORMAT}: its length 43 is not a multiple of 4"),
    (GOOD[:10] + "*" + GOOD[11:], f"{FIELD} must be {FORMAT}: byte 10 is not base64"),
    (GOOD[:4] + "=" + GOOD[5:], f"{FIELD} must be {FORMAT}: byte 4 is not base64"),
    (GOOD[:10] + "-" + GOOD[11:], f"{FIELD} must be {FORMAT}: byte 10 is not base64"),  # base64url
    (GOOD.replace("=", "A"), f"{FIELD} must decode to a whole number of items (16 bytes each), not 33 bytes"),
    # 16 bytes and one more: 17.
    (base64.b64encode(struct.pack("<dd", 1, 2) + b"\0").decode(),
     f"{FIELD} must decode to a whole number of items (16 bytes each), not 17 bytes"),
    # The last character's unused bits set: not the canonical ending.
    (GOOD[:-2] + chr(ord(GOOD[-2]) + 1) + "=", f"{FIELD} must be {FORMAT}: its last bits are not zero"),
    (packed([(1, 1), (math.nan, 1)]), f"{FIELD} item 1's width must be a finite number >= 0 and at most 1e15"),
    (packed([(1, math.inf)]), f"{FIELD} item 0's height must be a finite number >= 0 and at most 1e15"),
    (packed([(1, 1), (1, 1), (-1, 1)]), f"{FIELD} item 2's width must be a finite number >= 0 and at most 1e15"),
    (packed([(1, 1.5e15)]), f"{FIELD} item 0's height must be a finite number >= 0 and at most 1e15"),
    (12, f"{FIELD} must be a string: {FORMAT}"),
    ([1, 2], f"{FIELD} must be a string: {FORMAT}"),
]


@pytest.mark.parametrize("value,message", BAD, ids=[m for _, m in BAD])
def test_bad_packed_append_names_its_field(server, value, message):
    live = Live(server, params("s", "coverFlow", {"itemSizes": objects(SIZES[:3])}))
    err = live.expect_unchanged_after(
        "layout/appendItems", {"section": 0, "widthsAndHeightsBase64": value}, -32602)
    assert err["message"] == message
    assert err["data"] == {"field": FIELD}


def test_bad_packed_open_and_reload_name_their_field(server):
    err = server.error("layout/open", params("s", "flow", {"widthsAndHeightsBase64": "AAA"}), code=-32602)
    assert err["data"] == {"field": "params.sections[0].widthsAndHeightsBase64"}
    assert "its length 3 is not a multiple of 4" in err["message"]
    live = Live(server, params("r", "flow", {"itemSizes": objects(SIZES[:3])}))
    err = live.expect_unchanged_after(
        "layout/reloadData", {"sections": [{"itemCount": 1}, {"widthsAndHeightsBase64": packed([(1, -2)])}]}, -32602)
    assert err["data"] == {"field": "params.sections[1].widthsAndHeightsBase64"}
    assert err["message"].endswith("item 0's height must be a finite number >= 0 and at most 1e15")


def test_packed_sizes_cannot_be_given_with_another_encoding(server):
    live = Live(server, params("s", "flow", {"itemSizes": objects(SIZES[:3])}))
    err = live.expect_unchanged_after("layout/appendItems", {
        "section": 0, "widthsAndHeights": [1, 1], "widthsAndHeightsBase64": packed([(1, 1)])}, -32602)
    assert err["message"] == f"{FIELD} cannot be given with widthsAndHeights"
    err = server.error("layout/open", params("o", "flow", {
        "itemSizes": objects(SIZES[:1]), "widthsAndHeightsBase64": packed([(1, 1)])}), code=-32602)
    assert err["message"] == "params.sections[0].widthsAndHeightsBase64 cannot be given with itemSizes"


def test_packed_items_count_against_the_limits(spawn):
    d = spawn("--max-item-values-per-request", "10", "--max-items", "12")
    d.initialize()
    live = Live(d, params("s", "flow", {"widthsAndHeightsBase64": packed([(5, 5)] * 10)}))
    err = live.expect_unchanged_after(
        "layout/appendItems", {"section": 0, "widthsAndHeightsBase64": packed([(5, 5)] * 11)}, 1004)
    assert err["data"] == {"field": FIELD}
    assert err["message"].startswith(f"{FIELD} carries 11 item sizes and ids")
    err = live.expect_unchanged_after(
        "layout/appendItems", {"section": 0, "widthsAndHeightsBase64": packed([(5, 5)] * 3)}, 1004)
    assert err["message"].startswith(f"{FIELD} holds more than 12 items")
    live.mutate("layout/appendItems", {"section": 0, "widthsAndHeightsBase64": packed([(5, 5)] * 2)})
    err = d.error("layout/open", params("t", "flow", {"widthsAndHeightsBase64": packed([(5, 5)] * 11)}), code=1004)
    assert err["data"] == {"field": "params.sections"}


# -- the Python client ------------------------------------------------------


def test_client_chunks_go_packed_and_equal_one_request(clients):
    import flowlayout
    from flowlayout import Rect

    rng = random.Random(9)
    sizes = [{"width": rng.uniform(1, 90), "height": rng.uniform(1, 90)} for _ in range(5000)]
    chunked = clients("--max-item-values-per-request", "700")
    whole = clients()
    layout = {"type": "waterfall", "columnCount": 4}
    a = chunked.open("s", layout, Rect(0, 0, 320, 500), [{"itemSizes": sizes}])
    b = whole.open("s", layout, Rect(0, 0, 320, 500), [{"itemSizes": sizes}])
    assert a == b
    everything = Rect(-1, -1, 400, 1e7)
    assert chunked.attributes_in_rect("s", everything) == whole.attributes_in_rect("s", everything)
    # append_items takes a packed string too, split at the limit as well.
    flat = [v for s in sizes[:1500] for v in (s["width"], s["height"])]
    ra = chunked.append_items("s", 0, widths_and_heights_base64=flowlayout.pack_sizes(flat))
    rb = whole.append_items("s", 0, widths_and_heights=flat)
    assert ra.content_size == rb.content_size
    assert chunked.attributes_in_rect("s", everything) == whole.attributes_in_rect("s", everything)


def test_pack_sizes_is_the_documented_encoding():
    import flowlayout

    assert flowlayout.pack_sizes([150, 100, 60, 100, 90, 100]) == (
        "AAAAAADAYkAAAAAAAABZQAAAAAAAAE5AAAAAAAAAWUAAAAAAAIBWQAAAAAAAAFlA")
