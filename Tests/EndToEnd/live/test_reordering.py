"""Drag to reorder by hand: UIKit's targeting and its three known problems
(gaps, oscillation, sizes by index path), nearest targeting with
hysteresis, autoscroll at both edges and the content's end, the errors,
`began: false`, cancellation by a change, and each type's own case. Every
expected value is worked out here from protocol.md's rules."""

from __future__ import annotations

import pytest

GRID = {"type": "flow", "itemSize": {"width": 100, "height": 100}, "minimumLineSpacing": 0,
        "minimumInteritemSpacing": 0}
VIEW = {"x": 0, "y": 0, "width": 300, "height": 300}


def frame(x, y, w=100, h=100) -> dict:
    return {"x": x, "y": y, "width": w, "height": h}


def open_grid(d, name="g", count=9, layout=None, **extra):
    return d.call("layout/open", {"session": name, "layout": {**GRID, **(layout or {})}, "bounds": VIEW,
                                  "sections": [{"itemCount": count, "ids": [f"i{k}" for k in range(count)]}],
                                  **extra})


def update(d, x, y, name="g"):
    return d.call("layout/updateInteractiveMovement", {"session": name, "position": {"x": x, "y": y}})


def frames(answer) -> dict:
    return {(a["section"], a["item"]): a["frame"] for a in answer["invalidated"]}


# -- uikit targeting -----------------------------------------------------------


def test_the_item_under_the_finger_is_the_target_and_the_others_make_room(server):
    open_grid(server)
    assert server.call("layout/beginInteractiveMovement", {"session": "g", "id": "i0"}) == {"began": True}
    r = update(server, 250, 50)
    assert r["target"] == {"section": 0, "item": 2}
    assert r["autoscroll"] == {"x": 0, "y": 0}
    # Items 1 and 2 slide left; item 0 follows the finger, on top, moving.
    assert frames(r) == {(0, 0): frame(200, 0), (0, 1): frame(0, 0), (0, 2): frame(100, 0)}
    moving = next(a for a in r["invalidated"] if a["item"] == 0)
    assert moving["moving"] is True and moving["zIndex"] == 1 and moving["id"] == "i0"
    assert moving["center"] == {"x": 250, "y": 50}
    assert all("moving" not in a for a in r["invalidated"] if a["item"] != 0)
    # Queries answer the picture the deltas built (issue #40): item 1 is
    # where the preview put it, and the finger's point finds the moving item.
    a = server.call("layout/attributesForItem", {"session": "g", "section": 0, "item": 1})["attributes"]
    assert a["frame"] == frame(0, 0) and a["id"] == "i1"
    a = server.call("layout/attributesForItem", {"session": "g", "id": "i0"})["attributes"]
    assert a["frame"] == frame(200, 0) and a["moving"] is True and a["zIndex"] == 1
    assert server.call("layout/itemAtPoint", {"session": "g", "point": {"x": 250, "y": 50}}) == {
        "section": 0, "item": 0, "id": "i0"}
    # The finger moves within the target's slot: only the item moves.
    r = update(server, 240, 60)
    assert r["target"] == {"section": 0, "item": 2} and frames(r) == {(0, 0): frame(190, 10)}
    end = server.call("layout/endInteractiveMovement", {"session": "g"})
    assert end["updates"] == {"moveItems": [{"from": {"section": 0, "item": 0}, "to": {"section": 0, "item": 2}}]}
    assert frames(end) == {(0, 0): frame(0, 0), (0, 1): frame(100, 0), (0, 2): frame(200, 0)}
    assert [a["id"] for a in end["invalidated"]] == ["i1", "i2", "i0"]
    assert end["moved"] == [{"kind": "cell", "section": 0, "item": 2, "id": "i0", "from": {"section": 0, "item": 0},
                             "fromFrame": frame(190, 10), "frame": frame(200, 0)}]
    assert end["appearing"] == [] and end["disappearing"] == []
    assert end["bounds"] == VIEW
    a = server.call("layout/attributesForItem", {"session": "g", "id": "i0"})["attributes"]
    assert (a["section"], a["item"], a["frame"]) == (0, 2, frame(200, 0))


def test_a_drop_on_its_own_slot_is_an_empty_batch(server):
    open_grid(server)
    server.call("layout/beginInteractiveMovement", {"session": "g", "section": 0, "item": 4})
    r = update(server, 160, 170)
    assert r["target"] == {"section": 0, "item": 4} and frames(r) == {(0, 4): frame(110, 120)}
    end = server.call("layout/endInteractiveMovement", {"session": "g"})
    assert end["updates"] == {} and frames(end) == {(0, 4): frame(100, 100)}
    assert [m["item"] for m in end["moved"]] == [4]


SPACED = {"itemSize": {"width": 80, "height": 80}, "minimumInteritemSpacing": 10, "minimumLineSpacing": 10}


def test_uikit_targeting_ignores_gaps_and_nearest_targeting_fills_them(server):
    # 80-point items, three to a line of 300: justified at x 0, 110, 220.
    open_grid(server, layout=SPACED)
    server.call("layout/beginInteractiveMovement", {"session": "g", "section": 0, "item": 0})
    assert update(server, 100, 40)["target"] == {"section": 0, "item": 0}  # the gap: nothing under it
    server.call("layout/cancelInteractiveMovement", {"session": "g"})
    server.call("layout/configure", {"session": "g", "layout": {"reorderTargeting": "nearest"}})
    server.call("layout/beginInteractiveMovement", {"session": "g", "section": 0, "item": 0})
    # Without item 0 the slots are item 1's centre (40, 40), item 2's
    # (150, 40), …; the current target 0 is the slot at (40, 40).
    assert update(server, 95, 40)["target"] == {"section": 0, "item": 0}  # 55 and 55: the lower index
    assert update(server, 98, 40)["target"] == {"section": 0, "item": 0}  # 58 - 52 = 6 < 8
    r = update(server, 100, 40)  # 60 - 50 = 10 >= 8
    assert r["target"] == {"section": 0, "item": 1}
    assert frames(r)[(0, 1)] == frame(0, 0, 80, 80)
    # Back towards the first slot: the target now holds until 8 points nearer.
    assert update(server, 93, 40)["target"] == {"section": 0, "item": 1}  # 53 - 57
    assert update(server, 92, 40)["target"] == {"section": 0, "item": 1}  # 58 - 52 = 6
    assert update(server, 91, 40)["target"] == {"section": 0, "item": 0}  # 59 - 51 = 8


def test_a_small_item_oscillates_with_uikit_targeting_and_not_with_nearest(server):
    # One line: 80, 20 and 70 points wide; the 20-point item is dragged
    # right, a point at a time, from x = 90 to 150. (Sizes vary, so the
    # last line is leading-aligned with and without the dragged item.)
    def drag(targeting: str) -> list:
        name = f"osc-{targeting}"
        server.call("layout/open", {"session": name, "layout": {
            "type": "flow", "minimumInteritemSpacing": 0, "minimumLineSpacing": 0, "reorderTargeting": targeting},
            "bounds": VIEW, "sections": [{"itemSizes": [{"width": 80, "height": 50}, {"width": 20, "height": 50},
                                                          {"width": 70, "height": 50}]}]})
        server.call("layout/beginInteractiveMovement", {"session": name, "section": 0, "item": 1})
        return [update(server, x, 25, name)["target"]["item"] for x in range(90, 151)]

    uikit = drag("uikit")
    # From x = 100 the 70-point item is under the finger, then (having
    # slid left by 20) under it again, and so on: the target flips each step.
    assert uikit[:10] == [1] * 10
    assert uikit[10:] == [2, 1] * 25 + [2]
    # Nearest: without the dragged item the right item's centre is 115
    # (index 1) and the end's 160 (index 2); the target moves once, where
    # 160 is 8 points nearer than 115: x = 141.5, so from x = 142.
    nearest = drag("nearest")
    assert nearest == [1] * 52 + [2] * 9


def test_sizes_follow_the_items_not_the_index_paths(server):
    # rdar 25235459: a flow layout asks sizes by the in-flight index path.
    server.call("layout/open", {"session": "s", "layout": {"type": "flow", "minimumInteritemSpacing": 0,
                                                           "minimumLineSpacing": 0},
                                "bounds": VIEW, "sections": [{"itemSizes": [
                                    {"width": 50, "height": 50}, {"width": 120, "height": 50},
                                    {"width": 30, "height": 50}]}]})
    server.call("layout/beginInteractiveMovement", {"session": "s", "section": 0, "item": 0})
    r = update(server, 185, 25, "s")  # over the 30-point item at x 170
    assert r["target"] == {"section": 0, "item": 2}
    # The 120 and 30-point items keep their widths, shifted left by 50.
    assert frames(r)[(0, 1)] == frame(0, 0, 120, 50) and frames(r)[(0, 2)] == frame(120, 0, 30, 50)
    end = server.call("layout/endInteractiveMovement", {"session": "s"})
    assert frames(end)[(0, 2)] == frame(150, 0, 50, 50)


# -- began, errors, cancellation ----------------------------------------------


def test_began_is_false_for_a_closed_section_or_a_second_movement(server):
    server.call("layout/open", {"session": "c", "layout": GRID, "bounds": VIEW, "sections": [
        {"itemCount": 3, "allowsReordering": False}, {"itemCount": 3}]})
    assert server.call("layout/beginInteractiveMovement", {"session": "c", "section": 0, "item": 1}) == {
        "began": False}
    assert server.call("layout/beginInteractiveMovement", {"session": "c", "section": 1, "item": 1}) == {
        "began": True}
    assert server.call("layout/beginInteractiveMovement", {"session": "c", "section": 1, "item": 0}) == {
        "began": False}
    # The closed section never takes the item: over its items, no change.
    assert update(server, 150, 50, "c")["target"] == {"section": 1, "item": 1}
    assert update(server, 50, 150, "c")["target"] == {"section": 1, "item": 0}


def test_cross_section_moves_unless_the_session_forbids_them(server):
    server.call("layout/open", {"session": "x", "layout": GRID, "bounds": VIEW, "sections": [
        {"itemCount": 3, "ids": ["a", "b", "c"]}, {"itemCount": 2, "ids": ["d", "e"]}]})
    server.call("layout/beginInteractiveMovement", {"session": "x", "id": "b"})
    r = update(server, 150, 150, "x")  # over "e", section 1's item 1
    assert r["target"] == {"section": 1, "item": 1}
    # Section 0 closes up; "e" moves right to make room.
    assert frames(r) == {(0, 1): frame(150 - 50, 100), (0, 2): frame(100, 0), (1, 1): frame(200, 100)}
    end = server.call("layout/endInteractiveMovement", {"session": "x"})
    assert end["updates"] == {"moveItems": [{"from": {"section": 0, "item": 1}, "to": {"section": 1, "item": 1}}]}
    ids = server.call("layout/attributesInRect", {"session": "x", "rect": VIEW})["attributes"]
    assert [(a["section"], a["id"]) for a in ids] == [(0, "a"), (0, "c"), (1, "d"), (1, "b"), (1, "e")]
    server.call("layout/configure", {"session": "x", "layout": {"allowsCrossSectionReordering": False}})
    server.call("layout/beginInteractiveMovement", {"session": "x", "id": "a"})
    assert update(server, 50, 150, "x")["target"] == {"section": 0, "item": 0}


@pytest.mark.parametrize("method, params, field, message", [
    ("layout/beginInteractiveMovement", {"section": 0, "item": 9}, "params.item", "is out of range"),
    ("layout/beginInteractiveMovement", {"section": 1, "item": 0}, "params.section", "is out of range"),
    ("layout/beginInteractiveMovement", {"id": "nope"}, "params.id", "names no item of the session"),
    ("layout/updateInteractiveMovement", {"position": {"x": 1, "y": 2}}, "params.session",
     "has no interactive movement in progress (layout/beginInteractiveMovement starts one)"),
    ("layout/endInteractiveMovement", {}, "params.session", "has no interactive movement in progress"),
    ("layout/cancelInteractiveMovement", {}, "params.session", "has no interactive movement in progress"),
    ("layout/configure", {"layout": {"reorderTargeting": "closest"}}, "params.layout.reorderTargeting",
     'must be one of "uikit", "nearest"'),
    ("layout/configure", {"layout": {"reorderHysteresis": -1}}, "params.layout.reorderHysteresis", ">= 0"),
    ("layout/configure", {"layout": {"autoscrollEdge": "wide"}}, "params.layout.autoscrollEdge", "number"),
    ("layout/performBatchUpdates", {"updates": {"updateSections": [{"index": 0, "allowsReordering": 1}]}},
     "params.updates.updateSections[0].allowsReordering", "boolean"),
])
def test_each_error_names_its_field_and_changes_nothing(server, method, params, field, message):
    open_grid(server)
    before = server.call("layout/attributesInRect", {"session": "g", "rect": VIEW})
    e = server.error(method, {"session": "g", **params}, code=-32602)
    assert e["data"]["field"] == field and message in e["message"], e
    assert server.call("layout/attributesInRect", {"session": "g", "rect": VIEW}) == before


def test_a_movement_survives_scrolls_and_is_cancelled_by_a_change(server):
    open_grid(server, count=30)
    server.call("layout/beginInteractiveMovement", {"session": "g", "section": 0, "item": 0})
    update(server, 250, 50)
    r = server.call("layout/setBounds", {"session": "g", "bounds": {**VIEW, "y": 50}})
    assert "movementCancelled" not in r
    assert update(server, 150, 150)["target"] == {"section": 0, "item": 4}
    # A batch cancels the movement first: the answer's delta leads from the
    # preview to the data after the batch, the insert included.
    r = server.call("layout/performBatchUpdates", {"session": "g", "updates": {
        "insertItems": [{"section": 0, "item": 0, "id": "new"}]}})
    assert r["movementCancelled"] is True
    shown = {(a["section"], a["item"]): (a["frame"], a["id"]) for a in r["invalidated"]}
    assert shown[(0, 0)] == (frame(0, 0), "new") and shown[(0, 1)] == (frame(100, 0), "i0")
    assert shown[(0, 4)] == (frame(100, 100), "i3")
    assert all("moving" not in a for a in r["invalidated"])
    server.error("layout/updateInteractiveMovement", {"session": "g", "position": {"x": 0, "y": 0}}, code=-32602)
    # So do configure and setItemSizes; a cancel answers the way back.
    for change, params in [("layout/configure", {"overscan": 0}),
                           ("layout/setItemSizes", {"sizes": [{"id": "i5", "size": {"width": 100, "height": 100}}]})]:
        server.call("layout/beginInteractiveMovement", {"session": "g", "section": 0, "item": 2})
        update(server, 50, 150)
        assert server.call(change, {"session": "g", **params})["movementCancelled"] is True
    server.call("layout/beginInteractiveMovement", {"session": "g", "section": 0, "item": 2})
    r = update(server, 50, 150)
    assert r["target"] == {"section": 0, "item": 3}
    back = server.call("layout/cancelInteractiveMovement", {"session": "g"})
    assert frames(back) == {(0, 2): frame(200, 0), (0, 3): frame(0, 100)}
    assert "movementCancelled" not in back


# -- autoscroll ----------------------------------------------------------------

LIST = {"type": "flow", "itemSize": {"width": 300, "height": 40}, "minimumLineSpacing": 0}


@pytest.mark.parametrize("top, y, expected", [
    (0, 10, 0),  # the top edge, but the content cannot scroll up
    (0, 270, 0.75),  # 30 points from the bottom edge: half speed
    (0, 300, 1.5),  # at the edge itself: full speed
    (0, 240, 0),  # exactly the edge's width away: nothing yet
    (1000, 1010, -1.25),  # 10 points from the top: 50/60 of full speed, upwards
    (1000, 1000 - 30, -1.5),  # beyond the edge: full speed
    (3700, 3990, 0),  # the content's end: nothing further down
    (3700, 3710, -1.25),
])
def test_autoscroll_grows_towards_each_edge_and_stops_at_the_ends(server, top, y, expected):
    server.call("layout/open", {"session": "l", "layout": LIST, "bounds": {**VIEW, "y": top},
                                "sections": [{"itemCount": 100}]})
    item = top // 40 + 1
    server.call("layout/beginInteractiveMovement", {"session": "l", "section": 0, "item": item})
    assert update(server, 150, y, "l")["autoscroll"] == {"x": 0, "y": expected}


def test_autoscroll_edge_and_speed_are_the_sessions(server):
    server.call("layout/open", {"session": "l", "layout": {**LIST, "autoscrollEdge": 100, "autoscrollMaxSpeed": 2},
                                "bounds": VIEW, "sections": [{"itemCount": 100}]})
    server.call("layout/beginInteractiveMovement", {"session": "l", "section": 0, "item": 0})
    assert update(server, 150, 250, "l")["autoscroll"] == {"x": 0, "y": 1}


# -- every type ----------------------------------------------------------------


def test_a_stable_waterfall_moves_only_the_dragged_item_to_another_column(server):
    # Two columns of 100 with 10 between; 100, 50, 50 and 50 tall items fill
    # columns 0, 1, 1, 0. Item 3 dragged onto item 0 takes index 0: the rule
    # gives it column 0 (both tops 0); item 0 stays in column 0 below it,
    # items 1 and 2 stay in column 1. (packed would put old 0 in column 1.)
    server.call("layout/open", {"session": "w", "layout": {"type": "waterfall", "placement": "stable"},
                                "bounds": {"x": 0, "y": 0, "width": 210, "height": 400},
                                "sections": [{"itemSizes": [{"width": 100, "height": h} for h in (100, 50, 50, 50)]}]})
    server.call("layout/beginInteractiveMovement", {"session": "w", "section": 0, "item": 3})
    r = update(server, 50, 20, "w")
    assert r["target"] == {"section": 0, "item": 0}
    assert frames(r) == {(0, 0): frame(0, 60, 100, 100), (0, 3): frame(0, -5, 100, 50)}
    end = server.call("layout/endInteractiveMovement", {"session": "w"})
    assert frames(end) == {(0, 0): frame(0, 0, 100, 50), (0, 1): frame(0, 60, 100, 100),
                           (0, 2): frame(110, 0, 100, 50), (0, 3): frame(110, 60, 100, 50)}


def test_a_packed_waterfall_reflows(server):
    server.call("layout/open", {"session": "w", "layout": {"type": "waterfall"},
                                "bounds": {"x": 0, "y": 0, "width": 210, "height": 400},
                                "sections": [{"itemSizes": [{"width": 100, "height": h} for h in (100, 50, 50, 50)]}]})
    server.call("layout/beginInteractiveMovement", {"session": "w", "section": 0, "item": 3})
    r = update(server, 50, 20, "w")
    # Shortest column first: 50 (col 0), 100 (col 1), 50 (col 0 at 60),
    # 50 (col 1 at 110, which is shorter than col 0's 120).
    assert frames(r) == {(0, 0): frame(110, 0, 100, 100), (0, 1): frame(0, 60, 100, 50),
                         (0, 2): frame(110, 110, 100, 50), (0, 3): frame(0, -5, 100, 50)}


ROW = {"type": "compositional", "section": {
    "group": {"direction": "horizontal", "size": {"width": {"absolute": 100}, "height": {"absolute": 100}},
              "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]},
    "orthogonalScrollingBehavior": "continuous"}}


def test_an_orthogonal_row_takes_the_position_in_its_own_scrolled_coordinates(server):
    # Ten 100-point items in a row 300 wide, scrolled by 250: item 3 lies at
    # x 50…150 on screen, item 5 at 250…350.
    server.call("layout/open", {"session": "r", "layout": ROW, "bounds": VIEW, "sections": [{"itemCount": 10}]})
    server.call("layout/scrollSection", {"session": "r", "section": 0, "offset": 250})
    server.call("layout/beginInteractiveMovement", {"session": "r", "section": 0, "item": 3})
    r = update(server, 280, 50, "r")
    assert r["target"] == {"section": 0, "item": 5}
    assert frames(r)[(0, 4)] == frame(50, 0) and frames(r)[(0, 5)] == frame(150, 0)
    # 20 points from the right edge: the row scrolls right at 40/60 speed;
    # the main axis has nowhere to go.
    assert r["autoscroll"] == {"x": 1, "y": 0}
    # The client scrolls the row (a scrollSection): the movement goes on.
    s = server.call("layout/scrollSection", {"session": "r", "section": 0, "offset": 300})
    assert "movementCancelled" not in s
    end = server.call("layout/endInteractiveMovement", {"session": "r"})
    assert end["updates"]["moveItems"] == [{"from": {"section": 0, "item": 3}, "to": {"section": 0, "item": 5}}]


def test_a_looping_cover_flow_lands_the_item_on_the_lap_under_the_finger(server):
    layout = {"type": "coverFlow", "itemSize": {"width": 100, "height": 100}, "loop": True,
              "scale": {"peak": 1, "minimum": 1}}
    server.call("layout/open", {"session": "lp", "layout": layout, "bounds": {"x": 0, "y": 0, "width": 500,
                                                                              "height": 100},
                                "sections": [{"itemCount": 5, "ids": ["a", "b", "c", "d", "e"]}]})
    # Item 0 is centred; to its left lies the previous lap's last item.
    left = server.call("layout/attributesForItem", {"session": "lp", "section": 0, "item": 4, "lap": -1})[
        "attributes"]
    server.call("layout/beginInteractiveMovement", {"session": "lp", "section": 0, "item": 1})
    r = update(server, left["center"]["x"], left["center"]["y"], "lp")
    assert r["target"] == {"section": 0, "item": 4}
    end = server.call("layout/endInteractiveMovement", {"session": "lp"})
    landed = server.call("layout/attributesForItem", {"session": "lp", "id": "b", "lap": -1})["attributes"]
    assert landed["item"] == 4 and landed["center"] == left["center"]


@pytest.mark.parametrize("layout", [
    {"type": "carousel", "style": "linear", "itemSize": {"width": 100, "height": 100}},
    {"type": "pager", "itemSize": {"width": 100, "height": 100}},
])
def test_a_carousel_and_a_pager_target_the_slot_under_the_finger(server, layout):
    server.call("layout/open", {"session": "k", "layout": layout, "bounds": {"x": 0, "y": 0, "width": 500,
                                                                            "height": 100},
                                "sections": [{"itemCount": 6}]})
    # Where item 2 is seen: a carousel's transform moves it from its centre.
    f = server.call("layout/attributesForItem", {"session": "k", "section": 0, "item": 2})["attributes"]["frame"]
    server.call("layout/beginInteractiveMovement", {"session": "k", "section": 0, "item": 0})
    r = update(server, f["x"] + f["width"] / 2, f["y"] + f["height"] / 2, "k")
    assert r["target"] == {"section": 0, "item": 2}
    end = server.call("layout/endInteractiveMovement", {"session": "k"})
    assert end["updates"]["moveItems"][0]["to"] == {"section": 0, "item": 2}


def test_a_position_far_past_the_viewport_targets_its_nearest_edge(server):
    """A million items; the finger reported a trillion points away: nearest
    targeting takes the viewport's nearest point, (300, 300), whose nearest
    slot (without item 0) is item 9's place at (250, 250): target 8, ties
    with (250, 350) going to the lower index."""
    server.call("layout/open", {"session": "far", "layout": {**GRID, "reorderTargeting": "nearest"},
                                "bounds": VIEW, "sections": [{"itemCount": 1_000_000}]})
    server.call("layout/beginInteractiveMovement", {"session": "far", "section": 0, "item": 0})
    r = update(server, 1e12, 1e12, "far")
    assert r["target"] == {"section": 0, "item": 8}
    assert r["autoscroll"] == {"x": 0, "y": 1.5}
    # The moving item is reported where it meets the visible rect, as any
    # element is: a trillion points away it is not in the picture, and the
    # query for it answers where it is.
    assert not any(a.get("moving") for a in r["invalidated"])
    assert {"kind": "cell", "section": 0, "item": 0} in r["removed"]
    moving = server.call("layout/attributesForItem", {"session": "far", "section": 0, "item": 0})["attributes"]
    assert moving["center"] == {"x": 1e12, "y": 1e12} and moving["moving"] is True
