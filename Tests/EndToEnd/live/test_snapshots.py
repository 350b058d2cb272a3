"""layout/applySnapshot and ids, by hand: each error with its wording and
the session unchanged, the first apply of a session without ids, reloads
against reconfigures, ids in every answer, keyed measurement and queries,
the measurement anchoring rule and followsEnd. Every expected value is
worked out from protocol.md: a list of 300×40 rows with no spacing in a
300×120 viewport, row k at y = 40k."""

from __future__ import annotations

import pytest

LIST = {"type": "flow", "itemSize": {"width": 300, "height": 40}, "minimumLineSpacing": 0}
VIEW = {"x": 0, "y": 0, "width": 300, "height": 120}


def view(y: float) -> dict:
    return {**VIEW, "y": y}


def row(k: int, height: float = 40) -> dict:
    return {"x": 0, "y": 40 * k, "width": 300, "height": height}


def open_list(d, name: str, ids: list, **extra) -> dict:
    params = {"session": name, "layout": LIST, "bounds": extra.pop("bounds", VIEW),
              "sections": [{"id": "s", "itemCount": len(ids), "ids": ids}], **extra}
    return d.call("layout/open", params)


def whole(d, name: str) -> list:
    return d.call("layout/attributesInRect", {"session": name, "rect": {"x": -1, "y": -1, "width": 400, "height": 10000}})[
        "attributes"]


# -- errors --------------------------------------------------------------------


@pytest.mark.parametrize("params, field, message", [
    ({"sections": [{"id": "s", "items": [1, "a", 1, "b", "a", 1]}]}, "params.sections",
     'Fatal: supplied item identifiers are not unique. Duplicate identifiers: {1, "a"}'),
    ({"sections": [{"id": "s", "items": [1]}, {"id": "t", "items": [2, 1]}]}, "params.sections",
     "Fatal: supplied item identifiers are not unique. Duplicate identifiers: {1}"),
    ({"sections": [{"id": 0, "items": []}, {"id": "0", "items": []}, {"id": 0, "items": []}]}, "params.sections",
     "Fatal: supplied section identifiers are not unique. Duplicate identifiers: {0}"),
    ({"sections": [{"id": "s", "items": ["a"]}], "reloadItems": ["a", "z"]}, "params.reloadItems[1]",
     "Invalid item identifier specified for reload"),
    ({"sections": [{"id": "s", "items": ["a"]}], "reconfigureItems": [{"id": "x", "size": {"width": 1, "height": 1}}]},
     "params.reconfigureItems[0]", "Invalid item identifier specified for reconfigure"),
    ({"sections": [{"items": ["a"]}]}, "params.sections[0].id", "is required: a snapshot's sections have ids"),
    ({"sections": [{"id": "s", "items": [True]}]}, "params.sections[0].items[0]", "must be a string or an integer"),
    ({"sections": [{"id": "s", "items": [{"size": {"width": 1, "height": 1}}]}]}, "params.sections[0].items[0].id",
     "is required"),
    ({"sections": [{"id": "s", "items": [], "itemCount": 3}]}, "params.sections[0].itemCount", "is not a known field"),
    ({"sections": [{"id": "s", "items": [{"id": "a", "size": {"width": -1, "height": 1}}]}]},
     "params.sections[0].items[0].size.width", "must be a finite number >= 0"),
])
def test_each_error_names_its_field_and_changes_nothing(server, params, field, message):
    open_list(server, "e", ["a", "b", "c"])
    before = whole(server, "e")
    e = server.error("layout/applySnapshot", {"session": "e", **params}, code=-32602)
    assert e["data"]["field"] == field
    assert e["message"] == f"{field} {message}"
    assert whole(server, "e") == before


def test_at_most_ten_duplicates_are_named(server):
    open_list(server, "e", ["a"])
    items = [k for k in range(12) for _ in range(2)]
    e = server.error("layout/applySnapshot", {"session": "e", "sections": [{"id": "s", "items": items}]}, code=-32602)
    assert e["message"].endswith("Duplicate identifiers: {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}")


def test_one_and_the_string_one_are_two_ids(server):
    open_list(server, "e", [1, "1"])
    r = server.call("layout/applySnapshot", {"session": "e", "sections": [{"id": "s", "items": ["1", 1]}]})
    assert r["updates"] == {"moveItems": [{"from": {"section": 0, "item": 1}, "to": {"section": 0, "item": 0}}]}
    assert [a["id"] for a in whole(server, "e")] == ["1", 1]


def test_a_pager_refuses_sizes_in_a_snapshot(server):
    server.call("layout/open", {"session": "p", "layout": {"type": "pager", "itemSize": {"width": 200, "height": 100}},
                                "bounds": VIEW, "sections": [{"id": "p", "itemCount": 2, "ids": ["a", "b"]}]})
    e = server.error("layout/applySnapshot", {"session": "p", "sections": [
        {"id": "p", "items": [{"id": "a", "size": {"width": 10, "height": 10}}, "b"]}]}, code=-32602)
    assert e["data"]["field"] == "params.sections"
    assert "every page has the pager's itemSize" in e["message"]
    # Without sizes the pages reorder.
    r = server.call("layout/applySnapshot", {"session": "p", "sections": [{"id": "p", "items": ["b", "a"]}]})
    assert len(r["updates"]["moveItems"]) == 1


# -- the first apply, reloads and reconfigures --------------------------------------


def test_a_session_without_ids_takes_its_first_snapshot_as_a_reload(server):
    server.call("layout/open", {"session": "n", "layout": LIST, "bounds": VIEW, "sections": [{"itemCount": 5}]})
    r = server.call("layout/applySnapshot", {"session": "n", "sections": [{"id": "s", "items": ["x", "y"]}]})
    assert r["updates"] is None
    assert set(r) == {"contentSize", "bounds", "invalidated", "removed", "centeredItem", "updates"}
    assert r["contentSize"] == {"width": 300, "height": 80}
    assert [(a["item"], a["id"]) for a in r["invalidated"]] == [(0, "x"), (1, "y")]
    assert [(k["item"], k.get("id")) for k in r["removed"]] == [(2, None)]
    # From then on it diffs.
    r = server.call("layout/applySnapshot", {"session": "n", "sections": [{"id": "s", "items": ["y", "x"]}]})
    assert r["updates"] == {"moveItems": [{"from": {"section": 0, "item": 1}, "to": {"section": 0, "item": 0}}]}


def test_reload_replaces_the_cell_and_reconfigure_keeps_it(server):
    open_list(server, "r", ["a", "b", "c", "d"])
    big = {"width": 300, "height": 60}
    r = server.call("layout/applySnapshot", {
        "session": "r", "sections": [{"id": "s", "items": ["d", "a", "b", "c"]}],
        "reloadItems": ["d", "b"], "reconfigureItems": [{"id": "a", "size": big}]})
    # d would move: reloaded, it is deleted and inserted instead. b stays:
    # a reload. a stays and grows: a reconfigure with its size.
    assert r["updates"] == {
        "deleteItems": [{"section": 0, "item": 3}],
        "insertItems": [{"section": 0, "item": 0, "id": "d"}],
        "reloadItems": [{"section": 0, "item": 1}],
        "reconfigureItems": [{"section": 0, "item": 0, "size": big}],
    }
    # A reconfigured item that moves keeps moving, with its size on the move.
    r = server.call("layout/applySnapshot", {
        "session": "r", "sections": [{"id": "s", "items": ["a", "b", "c", "d"]}],
        "reconfigureItems": [{"id": "d", "size": big}]})
    assert r["updates"] == {
        "moveItems": [{"from": {"section": 0, "item": 0}, "to": {"section": 0, "item": 3}, "size": big}],
        "reconfigureItems": [{"section": 0, "item": 0}],
    }
    assert [(a["id"], a["size"]["height"]) for a in whole(server, "r")] == [("a", 60), ("b", 40), ("c", 40), ("d", 60)]


def test_an_item_into_an_inserted_section_is_deleted_and_inserted_with_its_size(server):
    server.call("layout/open", {"session": "m", "layout": LIST, "bounds": VIEW, "sections": [
        {"id": "s", "itemSizes": [{"width": 300, "height": 40}, {"width": 300, "height": 70}], "ids": ["a", "b"]}]})
    r = server.call("layout/applySnapshot", {"session": "m", "sections": [
        {"id": "s", "items": ["a"]}, {"id": "new", "items": ["b", "c"], "minimumLineSpacing": 5}]})
    assert r["updates"] == {
        "insertSections": [{"index": 1, "id": "new", "minimumLineSpacing": 5,
                            "itemSizes": [{"width": 300, "height": 70}, None], "ids": ["b", "c"]}],
        "deleteItems": [{"section": 0, "item": 1}],
    }


# -- ids everywhere ------------------------------------------------------------


def test_every_answer_names_the_ids(server):
    opened = open_list(server, "i", ["a", "b", "c", "d", "e"])
    assert [a["id"] for a in opened["attributes"]] == ["a", "b", "c"]
    assert opened["centeredItem"] == {"section": 0, "item": 1, "id": "b"}
    r = server.call("layout/setBounds", {"session": "i", "bounds": view(80)})
    assert [a["id"] for a in r["invalidated"]] == ["d", "e"]
    assert r["removed"] == [{"kind": "cell", "section": 0, "item": 0, "id": "a"},
                            {"kind": "cell", "section": 0, "item": 1, "id": "b"}]
    assert server.call("layout/itemAtPoint", {"session": "i", "point": {"x": 5, "y": 125}}) == {
        "section": 0, "item": 3, "id": "d"}
    page = server.call("layout/attributesInRect", {"session": "i", "rect": row(4)})
    assert [a["id"] for a in page["attributes"]] == ["e"]
    # A batch: appearing, disappearing and moved carry ids too.
    r = server.call("layout/performBatchUpdates", {"session": "i", "updates": {
        "deleteItems": [{"section": 0, "item": 2}], "insertItems": [{"section": 0, "item": 4, "id": "f"}]}})
    assert [a["id"] for a in r["disappearing"]] == ["c"]
    assert [a["id"] for a in r["appearing"]] == ["f"]
    assert {m["id"] for m in r["moved"]} == {"d", "e"}
    # An item whose id changes where nothing else does is sent again.
    r = server.call("layout/reloadData", {"session": "i", "sections": [
        {"id": "s", "itemCount": 5, "ids": ["a", "b", "d", "x", "f"]}]})
    assert [(a["item"], a["id"]) for a in r["invalidated"] if a["kind"] == "cell"][-1] == (3, "x")


def test_keyed_measurement_scrolling_and_queries(server):
    open_list(server, "k", ["a", "b", "c", "d", "e", "f"])
    assert server.call("layout/attributesForItem", {"session": "k", "id": "e"})["attributes"]["frame"] == row(4)
    assert server.call("layout/scrollToItem", {"session": "k", "id": "f", "position": "trailing"}) == {
        "contentOffset": {"x": 0, "y": 120}}
    r = server.call("layout/setItemSizes", {"session": "k", "sizes": [{"id": "b", "size": {"width": 300, "height": 90}}]})
    assert r["contentSize"] == {"width": 300, "height": 290}
    assert server.call("layout/attributesForItem", {"session": "k", "section": 0, "item": 1})["attributes"]["frame"] == row(1, 90)
    for method, params, field in [
        ("layout/attributesForItem", {"id": "zz"}, "params.id"),
        ("layout/scrollToItem", {"id": 4}, "params.id"),
        ("layout/setItemSizes", {"sizes": [{"id": "a", "size": {"width": 1, "height": 1}},
                                           {"id": "q", "size": {"width": 1, "height": 1}}]}, "params.sizes[1].id"),
    ]:
        e = server.error(method, {"session": "k", **params}, code=-32602)
        assert e == {"code": -32602, "message": f"{field} names no item of the session", "data": {"field": field}}
    e = server.error("layout/attributesForItem", {"session": "k", "id": "a", "item": 0}, code=-32602)
    assert e["message"] == "params.item cannot be given with id"
    # The failed measurement changed nothing.
    assert server.call("layout/attributesForItem", {"session": "k", "id": "a"})["attributes"]["frame"] == row(0)


# -- the measurement rule and followsEnd -----------------------------------------


@pytest.mark.parametrize("measured, height, y", [
    ("a", 70, 130),   # above the viewport: the view moves by the change (+30)
    ("c", 10, 70),    # cut by the viewport's leading edge (80..120 vs 100): moves too (-30)
    ("d", 100, 100),  # the first row starting in the viewport: nothing above it moves
    ("f", 5, 100),    # below it: nothing moves
])
def test_measured_sizes_keep_what_is_on_screen(server, measured, height, y):
    open_list(server, "m", list("abcdefghij"), bounds=view(100))
    r = server.call("layout/setItemSizes", {"session": "m", "sizes": [
        {"id": measured, "size": {"width": 300, "height": height}}]})
    assert r["bounds"] == view(y)
    # The first row starting in the view (d, at 120 before) is 20 points
    # into it still.
    d = server.call("layout/attributesForItem", {"session": "m", "id": "d"})["attributes"]["frame"]
    assert d["y"] - r["bounds"]["y"] == 20


def test_at_the_content_start_measuring_stays_at_the_start(server):
    open_list(server, "m", list("abcdef"))
    r = server.call("layout/setItemSizes", {"session": "m", "sizes": [{"id": "a", "size": {"width": 300, "height": 90}}]})
    assert r["bounds"] == view(0)


def test_follows_end_while_at_the_end(server):
    open_list(server, "c", ["m1", "m2", "m3", "m4"], bounds=view(40), followsEnd=True)  # 160 tall: the end is 40
    r = server.call("layout/appendItems", {"session": "c", "section": 0, "itemCount": 2, "ids": ["m5", "m6"]})
    assert r["bounds"] == view(120)
    r = server.call("layout/applySnapshot", {"session": "c", "sections": [
        {"id": "s", "items": ["m1", "m2", "m3", "m4", "m5", "m6", "m7"]}]})
    assert r["bounds"] == view(160)
    r = server.call("layout/setItemSizes", {"session": "c", "sizes": [{"id": "m7", "size": {"width": 300, "height": 100}}]})
    assert r["bounds"] == view(220)  # 340 tall now
    # Not at the end: history prepended keeps the visible messages still.
    server.call("layout/setBounds", {"session": "c", "bounds": view(100)})
    r = server.call("layout/applySnapshot", {"session": "c", "sections": [
        {"id": "s", "items": ["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7"]}]})
    assert r["bounds"] == view(140)
    # Switched off, growth at the end leaves the view where it is.
    server.call("layout/configure", {"session": "c", "followsEnd": False})
    server.call("layout/setBounds", {"session": "c", "bounds": view(260)})  # the end (380 - 120)
    r = server.call("layout/appendItems", {"session": "c", "section": 0, "itemCount": 1, "ids": ["m8"]})
    assert r["bounds"] == view(260)


def test_follows_end_without_the_option_keeps_the_anchor(server):
    open_list(server, "c", ["m1", "m2", "m3", "m4"], bounds=view(40))
    r = server.call("layout/appendItems", {"session": "c", "section": 0, "itemCount": 2, "ids": ["m5", "m6"]})
    assert r["bounds"] == view(40)


# -- kinds with laps and rows ------------------------------------------------------


def test_a_wrapping_carousel_keeps_the_centred_lap_across_a_snapshot(server):
    layout = {"type": "carousel", "style": "linear", "wrap": True, "itemSize": {"width": 100, "height": 100}}
    server.call("layout/open", {"session": "w", "layout": layout, "bounds": {"x": 1150, "y": 0, "width": 300, "height": 200},
                                "sections": [{"id": "s", "itemCount": 5, "ids": ["a", "b", "c", "d", "e"]}]})
    before = server.call("layout/setBounds", {"session": "w", "bounds": {"x": 1150, "y": 0, "width": 300, "height": 200}})
    centred = before["centeredItem"]
    r = server.call("layout/applySnapshot", {"session": "w", "sections": [{"id": "s", "items": ["e", "a", "b", "c", "d"]}]})
    assert r["centeredItem"]["id"] == centred["id"]
    assert r["centeredItem"]["lap"] == centred["lap"]


def test_a_compositional_row_keeps_its_offset_when_its_section_survives(server):
    row_layout = {"group": {"direction": "horizontal", "size": {"width": {"absolute": 100}, "height": {"absolute": 80}},
                            "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]},
                  "orthogonalScrollingBehavior": "continuous"}
    server.call("layout/open", {"session": "a", "layout": {"type": "compositional", "section": row_layout},
                                "bounds": {"x": 0, "y": 0, "width": 300, "height": 400},
                                "sections": [{"id": "top", "itemCount": 8, "ids": list(range(8))},
                                             {"id": "other", "itemCount": 2, "ids": ["p", "q"]}]})
    assert server.call("layout/scrollSection", {"session": "a", "section": 0, "offset": 150})["offset"] == 150
    r = server.call("layout/applySnapshot", {"session": "a", "sections": [
        {"id": "other", "items": ["q", "p"]}, {"id": "top", "items": list(range(8))}]})
    # Of [1, 0] the tie rule keeps the smaller old index: "top" stays.
    assert r["updates"] == {"moveSections": [{"from": 1, "to": 0}],
                            "moveItems": [{"from": {"section": 1, "item": 1}, "to": {"section": 0, "item": 0}}]}
    first = server.call("layout/attributesForItem", {"session": "a", "id": 2})["attributes"]["frame"]
    assert first["x"] == 2 * 100 - 150  # the row is still 150 along
