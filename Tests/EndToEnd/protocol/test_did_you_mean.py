"""An unknown method or field gets the nearest known name (issue #45), in
the message and in data.suggestion, from the method table and from each
object's own fields, at any depth; a name with nothing near gets none."""

from __future__ import annotations

import pytest

B = {"x": 0, "y": 0, "width": 375, "height": 300}


def opened(server, **layout):
    return {"session": "s", "layout": dict({"type": "flow"}, **layout), "bounds": B, "sections": [{"itemCount": 3}]}


@pytest.mark.parametrize("method, suggestion", [
    ("layout/scrollEnd", "layout/scrollEnded"),          # the example: 2 insertions
    ("layout/setBound", "layout/setBounds"),
    ("layout/attributesInRcet", "layout/attributesInRect"),  # a transposition is one edit
    ("Layout/Open", "layout/open"),                       # case first
    ("layout/contentsize", "layout/contentSize"),
    ("setBounds", "layout/setBounds"),                   # without its namespace
    ("shutdwon", "shutdown"),
    ("layout/beginInteractiveMovment", "layout/beginInteractiveMovement"),
])
def test_an_unknown_method_names_the_nearest(server, method, suggestion):
    e = server.error(method, {"session": "s"}, code=-32601)
    assert e["message"] == f"Method not found: {method}; did you mean {suggestion}?"
    assert e["data"] == {"suggestion": suggestion}


@pytest.mark.parametrize("method", ["layout/nope", "layout/twist", "frobnicate", "layout/scrollEndedNowPlease"])
def test_a_method_with_nothing_near_gets_no_suggestion(server, method):
    e = server.error(method, {}, code=-32601)
    assert e["message"] == f"Method not found: {method}"
    assert "data" not in e


@pytest.mark.parametrize("params, field, suggestion", [
    # The example: the same letters, another case.
    (opened(None, itemsize={"width": 10, "height": 10}), "params.layout.itemsize", "itemSize"),
    ({**opened(None), "sesion": "t"}, "params.sesion", "session"),
    (opened(None, minimumLineSpaceing=3), "params.layout.minimumLineSpaceing", "minimumLineSpacing"),
    ({**opened(None), "sections": [{"itemCount": 3, "headerSise": {"width": 0, "height": 20}}]},
     "params.sections[0].headerSise", "headerSize"),
    ({**opened(None, type="coverFlow"), "layout": {"type": "coverFlow", "snap": {"polcy": "nearest"}}},
     "params.layout.snap.polcy", "policy"),
])
def test_an_unknown_field_names_the_nearest_of_its_objects_fields(server, params, field, suggestion):
    e = server.error("layout/open", params, code=-32602)
    assert e["message"] == f"{field} is not a known field; did you mean {suggestion}?"
    assert e["data"] == {"field": field, "suggestion": suggestion}


def test_a_field_with_nothing_near_gets_no_suggestion(server):
    e = server.error("layout/open", {**opened(None), "colour": "red"}, code=-32602)
    assert e == {"code": -32602, "message": "params.colour is not a known field", "data": {"field": "params.colour"}}


def test_the_suggestion_comes_from_the_objects_own_fields(server):
    # `itemCount` is a field of a section, not of the params: none there.
    e = server.error("layout/open", {**opened(None), "itemCont": 3}, code=-32602)
    assert e["data"] == {"field": "params.itemCont"}
