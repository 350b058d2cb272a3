"""Swipe actions (issue #42), through the wire, with values worked out by
hand from the issue's rules:

- M = max(0, (w − 30)/n); B = max(min(74, M), maxᵢ min(aᵢ, M)); P = n·B;
  T = max(P + 20, w − 30) when the first action is destructive, else
  max(P + 20, w/2).
- The worked example: a 390-wide row with actions 60 and 90: M = 180,
  B = max(74, 90) = 90, P = 180; T = max(200, 360) = 360 (destructive
  first), max(200, 195) = 200 otherwise.
- Translation is signed like a pan's x (a trailing swipe is negative in
  ltr), its magnitude τ clamped to the row's width; below P the buttons
  are B wide from the edge, from P to T each τ/n, past T (full swipe) the
  first alone fills τ.
"""

import pytest

W = 390


def rect(x, y, w, h):
    return {"x": x, "y": y, "width": w, "height": h}


def open_rows(server, session="s", **layout):
    server.call("layout/open", {"session": session, "layout": {"type": "list", **layout},
                                "bounds": rect(0, 0, W, 600), "sections": [{"id": "main", "itemCount": 5, "ids": list("abcde")}]})


def begin(server, item=1, edge="trailing", first="destructive", full=True, session="s"):
    return server.call("layout/beginSwipe", {
        "session": session, "section": 0, "item": item, "edge": edge,
        "actions": [{"width": 60, "style": first}, {"width": 90}],
        "performsFirstActionWithFullSwipe": full})


def update(server, t, session="s"):
    return server.call("layout/updateSwipe", {"session": session, "translation": t})


def end(server, v, session="s"):
    return server.call("layout/endSwipe", {"session": session, "velocity": v})


def test_buttons_below_the_open_width_are_b_wide_from_the_trailing_edge(server):
    open_rows(server)
    assert begin(server) == {"began": True}
    # Row 1 is y 44…88. τ = 100 < P = 180: two 90-wide buttons, the first
    # at the row's trailing (right) edge.
    r = update(server, -100)
    assert r == {"translation": -100, "actions": [rect(300, 44, 90, 44), rect(210, 44, 90, 44)]}


def test_between_open_width_and_threshold_each_button_is_tau_over_n(server):
    open_rows(server)
    begin(server)
    r = update(server, -250)  # P 180 ≤ 250 ≤ T 360: 125 each
    assert r["actions"] == [rect(265, 44, 125, 44), rect(140, 44, 125, 44)]


def test_past_the_threshold_the_first_action_fills_the_swipe(server):
    open_rows(server)
    begin(server)
    r = update(server, -370)  # T = 360 (destructive first)
    assert r["actions"] == [rect(20, 44, 370, 44)]
    assert end(server, -0.5) == {"state": "performed", "translation": -390}
    # The swipe stays the session's: its rest frames (the first action
    # fills the row, w = 390 > T), until closed.
    assert update(server, -390)["actions"] == [rect(0, 44, 390, 44)]
    server.call("layout/closeSwipe", {"session": "s"})
    e = server.error("layout/updateSwipe", {"session": "s", "translation": -10}, -32602)
    assert e["data"]["field"] == "params.session", e


def test_a_normal_first_action_has_the_lower_threshold(server):
    open_rows(server)
    begin(server, first="normal")
    assert update(server, -210)["actions"] == [rect(180, 44, 210, 44)]  # T = 200
    assert update(server, -200)["actions"] == [rect(290, 44, 100, 44), rect(190, 44, 100, 44)]


def test_without_full_swipe_the_buttons_share_the_translation_up_to_the_width(server):
    open_rows(server)
    begin(server, full=False)
    r = update(server, -1000)  # clamped to the row's width
    assert r == {"translation": -390, "actions": [rect(195, 44, 195, 44), rect(0, 44, 195, 44)]}
    assert end(server, -1) == {"state": "open", "translation": -180}


def test_release_rests_open_past_half_the_open_width_and_closes_below(server):
    open_rows(server)
    begin(server)
    update(server, -90)  # P/2 = 90: open
    assert end(server, 0) == {"state": "open", "translation": -180}
    # Beginning on the open row starts from its translation.
    assert begin(server) == {"began": True}
    assert update(server, -180 + 100)["translation"] == -80
    assert end(server, 0) == {"state": "closed", "translation": 0}


def test_a_velocity_pointing_back_closes(server):
    open_rows(server)
    begin(server)
    update(server, -370)
    assert end(server, 0.2) == {"state": "closed", "translation": 0}


def test_a_translation_against_the_edge_is_zero(server):
    open_rows(server)
    begin(server)
    assert update(server, 40) == {"translation": 0, "actions": [rect(300, 44, 90, 44), rect(210, 44, 90, 44)]}


def test_leading_swipes_and_rtl_mirror(server):
    open_rows(server)
    begin(server, edge="leading")
    # Leading in ltr: positive translation, buttons from the left edge.
    assert update(server, 100)["actions"] == [rect(0, 44, 90, 44), rect(90, 44, 90, 44)]
    open_rows(server, session="r", layoutDirection="rtl")
    begin(server, session="r", edge="trailing")
    # Trailing in rtl is the left edge: positive translation.
    assert update(server, 100, session="r") == {"translation": 100,
                                                "actions": [rect(0, 44, 90, 44), rect(90, 44, 90, 44)]}
    assert update(server, -50, session="r")["translation"] == 0


def test_beginning_another_row_closes_the_open_one(server):
    open_rows(server)
    begin(server, item=1)
    update(server, -200)
    end(server, 0)
    assert begin(server, item=3) == {"began": True, "closedSwipe": {"section": 0, "item": 1}}
    assert update(server, -10)["actions"][0]["y"] == 132  # row 3


def test_close_swipe_and_updates_without_one(server):
    open_rows(server)
    assert server.call("layout/closeSwipe", {"session": "s"}) == {"state": "closed"}
    e = server.error("layout/updateSwipe", {"session": "s", "translation": -10}, -32602)
    assert e["data"]["field"] == "params.session"
    begin(server)
    assert server.call("layout/closeSwipe", {"session": "s"}) == {"state": "closed"}
    server.error("layout/updateSwipe", {"session": "s", "translation": -10}, -32602)


def test_deleting_the_swiped_row_closes_it_and_says_so(server):
    open_rows(server)
    begin(server, item=2)
    update(server, -200)
    end(server, 0)
    # Deleting row 0 moves row 2 to 1: still open, re-keyed.
    r = server.call("layout/performBatchUpdates", {"session": "s", "updates": {"deleteItems": [{"section": 0, "item": 0}]}})
    assert "closedSwipe" not in r
    assert update(server, -180)["actions"][0]["y"] == 44
    r = server.call("layout/performBatchUpdates", {"session": "s", "updates": {"deleteItems": [{"section": 0, "item": 1}]}})
    assert r["closedSwipe"] == {"section": 0, "item": 1}
    server.error("layout/updateSwipe", {"session": "s", "translation": -10}, -32602)


def test_a_snapshot_moving_the_row_closes_it(server):
    open_rows(server)
    server.call("layout/beginSwipe", {"session": "s", "id": "c", "edge": "trailing", "actions": [{"width": 80}]})
    r = server.call("layout/applySnapshot", {"session": "s", "sections": [{"id": "main", "items": list("cabde")}]})
    assert r["closedSwipe"] == {"section": 0, "item": 2}


@pytest.mark.parametrize("params,field", [
    ({"edge": "up"}, "params.edge"),
    ({"actions": []}, "params.actions"),
    ({"actions": [{"width": -1}]}, "params.actions[0].width"),
    ({"actions": [{"width": 10, "style": "loud"}]}, "params.actions[0].style"),
    ({"item": 9}, "params.item"),
])
def test_bad_swipes_name_the_field(server, params, field):
    open_rows(server)
    base = {"session": "s", "section": 0, "item": 1, "edge": "trailing", "actions": [{"width": 60}]}
    e = server.error("layout/beginSwipe", {**base, **params}, -32602)
    assert e["data"]["field"] == field, e
    # Nothing began.
    server.error("layout/updateSwipe", {"session": "s", "translation": -10}, -32602)


# -- layout/setItemSeparators (the same file: both are a list's later changes) --


def separators(server, session="s"):
    r = server.call("layout/attributesInRect", {"session": session, "rect": rect(0, 0, W, 600)})
    return {(a["item"], a["edge"]): a["frame"] for a in r["attributes"] if a["kind"] == "separator"}


def test_set_item_separators_overrides_by_path_and_id_as_a_delta(server):
    open_rows(server)
    # Plain, 5 rows of 44: bottom separators under rows 0-3, none under 4.
    assert separators(server) == {(i, "bottom"): rect(16, 44 * i + 43.5, 374, 0.5) for i in range(4)}
    r = server.call("layout/setItemSeparators", {"session": "s", "items": [
        {"section": 0, "item": 4, "bottomSeparatorVisibility": "visible", "bottomSeparatorInsets": {"trailing": 20}},
        {"id": "b", "bottomSeparatorVisibility": "hidden", "topSeparatorVisibility": "visible"},
    ]})
    got = {(a["kind"], a["item"], a.get("edge")): a["frame"] for a in r["invalidated"]}
    assert got == {("separator", 4, "bottom"): rect(16, 219.5, 354, 0.5),
                   ("separator", 1, "top"): rect(16, 44, 374, 0.5)}
    assert {(k["kind"], k["item"], k.get("edge")) for k in r["removed"]} == {("separator", 1, "bottom")}
    # A later entry replaces the item's override whole: row 1 is automatic again
    # but for its top.
    server.call("layout/setItemSeparators", {"session": "s", "items": [{"id": "b", "topSeparatorVisibility": "hidden"}]})
    assert separators(server) == {**{(i, "bottom"): rect(16, 44 * i + 43.5, 374, 0.5) for i in range(4)},
                                  (4, "bottom"): rect(16, 219.5, 354, 0.5)}


def test_set_item_separators_refuses_other_types_and_bad_items(server):
    server.call("layout/open", {"session": "f", "layout": {"type": "flow"}, "bounds": rect(0, 0, W, 600),
                                "sections": [{"itemCount": 3}]})
    e = server.error("layout/setItemSeparators", {"session": "f", "items": [{"section": 0, "item": 0}]}, -32602)
    assert e["data"]["field"] == "params.items[0]"
    assert "not list rows" in e["message"], e
    open_rows(server)
    before = separators(server)
    for items, field in [([{"section": 0, "item": 9}], "params.items[0].item"),
                         ([{"id": "zz"}], "params.items[0].id"),
                         ([{"section": 0, "item": 1, "bottomSeparatorVisibility": "sometimes"}],
                          "params.items[0].bottomSeparatorVisibility")]:
        e = server.error("layout/setItemSeparators", {"session": "s", "items": items}, -32602)
        assert e["data"]["field"] == field, e
    assert separators(server) == before
