"""Outline sections (issue #43, UIKit's NSDiffableDataSourceSectionSnapshot):
`outline` in place of a section's items, `layout/expand`, `layout/collapse`
and `layout/outline`.

Every expected value was worked out by hand from the issue's worked example
before running the daemon: tree A{A1, A2{A2a}}, B{B1}, C, all collapsed, in
a plain list of 44-point rows 390 wide (indentationWidth 10, cell margin 16,
displayScale 2: separators 0.5 thick at the row's bottom, x = 16 + 10·level).
Each answer is applied to a client picture that must equal attributesInRect
(Live.apply), and each `updates` is replayed on a flat twin whose frames must
equal the outline session's.
"""

from __future__ import annotations

import random
import zlib
from typing import Dict, List, Optional

import pytest
from kind_configs import KINDS
from live_support import BATCH_FIELDS, MUTATION_FIELDS, Live, rect

OUTLINE_FIELDS = BATCH_FIELDS | {"updates"}
W = 390


def tree() -> List[dict]:
    return [
        {"id": "A", "children": [{"id": "A1"}, {"id": "A2", "children": [{"id": "A2a"}]}]},
        {"id": "B", "children": [{"id": "B1"}]},
        {"id": "C"},
    ]


def open_outline(server, name: str, layout: Optional[dict] = None, outline=None, height: float = 600) -> Live:
    return Live(server, {"session": name, "layout": layout or {"type": "list"},
                         "bounds": rect(0, 0, W, height),
                         "sections": [{"outline": outline if outline is not None else tree()}]})


def rows(live: Live) -> List[str]:
    """The cells' ids in row order."""
    cells = sorted((a for a in live.whole() if a["kind"] == "cell"), key=lambda a: a["item"])
    return [a["id"] for a in cells]


def cell_by_id(live: Live, ident: str) -> dict:
    return next(a for a in live.whole() if a["kind"] == "cell" and a["id"] == ident)


def bottom_separator(live: Live, item: int) -> Optional[dict]:
    return next((a for a in live.whole() if a["kind"] == "separator" and a["item"] == item
                 and a.get("edge") == "bottom"), None)


class Twin:
    """A flat session of the same rows (ids only) that replays `updates`."""

    def __init__(self, server, name: str, ids: List[str], layout: dict) -> None:
        self.server = server
        self.name = name
        server.call("layout/open", {"session": name, "layout": layout, "bounds": rect(0, 0, W, 600),
                                    "sections": [{"itemCount": len(ids), "ids": ids}]})

    def replay(self, updates: dict) -> None:
        self.server.call("layout/performBatchUpdates", {"session": self.name, "updates": updates})

    def frames(self) -> Dict[tuple, tuple]:
        size = self.server.call("layout/contentSize", {"session": self.name})["contentSize"]
        whole = rect(-1000, -1000, size["width"] + 2000, size["height"] + 2000)
        attrs = self.server.call("layout/attributesInRect", {"session": self.name, "rect": whole})["attributes"]
        return by_id(attrs)


def by_id(attrs: List[dict]) -> Dict[tuple, tuple]:
    """Each cell's frame by its id (and lap, in a loop)."""
    return {(a["id"], a.get("lap")): tuple(a["frame"].values()) for a in attrs if a["kind"] == "cell"}


def frames_by_id(live: Live) -> Dict[tuple, tuple]:
    size = live.d.call("layout/contentSize", {"session": live.session})["contentSize"]
    return by_id(live.in_rect(rect(-1000, -1000, size["width"] + 2000, size["height"] + 2000)))


def expand(live: Live, *ids: str, children=None) -> dict:
    params = {"session": live.session, "ids": list(ids)}
    if children is not None:
        params["children"] = children
    return live.apply(live.d.call("layout/expand", params), OUTLINE_FIELDS)


def collapse(live: Live, *ids: str) -> dict:
    return live.apply(live.d.call("layout/collapse", {"session": live.session, "ids": list(ids)}), OUTLINE_FIELDS)


def inserted(updates: dict) -> List[tuple]:
    return [(p["section"], p["item"], p.get("id")) for p in updates.get("insertItems", [])]


def deleted(updates: dict) -> List[tuple]:
    return [(p["section"], p["item"]) for p in updates.get("deleteItems", [])]


def test_the_worked_example(server):
    live = open_outline(server, "tree")
    twin = Twin(server, "tree-twin", ["A", "B", "C"], {"type": "list"})
    # open: rows A, B, C; A and B collapsed parents, C a leaf.
    assert rows(live) == ["A", "B", "C"]
    a, b, c = (cell_by_id(live, x) for x in "ABC")
    assert a["frame"] == rect(0, 0, W, 44) and b["frame"] == rect(0, 44, W, 44)
    assert (a["level"], a["expanded"], "parent" in a) == (0, False, False)
    assert "expanded" not in c and c["level"] == 0
    # The whole tree, pre-order A, A1, A2, A2a, B, B1, C, for a reconnect.
    out = server.call("layout/outline", {"session": "tree", "section": 0})["outline"]
    assert [n["id"] for n in out] == ["A", "B", "C"]
    assert [n["id"] for n in out[0]["children"]] == ["A1", "A2"]
    assert out[0]["children"][1]["children"][0] == {"id": "A2a", "expanded": False, "children": []}

    # expand A: rows 1 and 2 inserted; B from row 1 to row 3 (y 132).
    r = expand(live, "A")
    assert inserted(r["updates"]) == [(0, 1, "A1"), (0, 2, "A2")] and deleted(r["updates"]) == []
    assert rows(live) == ["A", "A1", "A2", "B", "C"]
    assert cell_by_id(live, "B")["frame"] == rect(0, 132, W, 44)
    assert cell_by_id(live, "A")["expanded"] is True
    a2 = cell_by_id(live, "A2")
    assert (a2["level"], a2["parent"], a2["expanded"]) == (1, "A", False)
    # A1's separator starts at 16 + 10.
    assert bottom_separator(live, 1)["frame"] == rect(26, 87.5, W - 26, 0.5)
    twin.replay(r["updates"])
    assert twin.frames() == frames_by_id(live)

    # expand A2: row 3 inserted, A2a at level 2, y 132, separator from 36.
    r = expand(live, "A2")
    assert inserted(r["updates"]) == [(0, 3, "A2a")]
    a2a = cell_by_id(live, "A2a")
    assert a2a["frame"] == rect(0, 132, W, 44)
    assert (a2a["level"], a2a["parent"], "expanded" in a2a, a2a["indentation"]) == (2, "A2", False, 20)
    assert bottom_separator(live, 3)["frame"] == rect(36, 175.5, W - 36, 0.5)
    twin.replay(r["updates"])

    # collapse A: rows 1, 2 and 3 deleted; A2 stays expanded.
    r = collapse(live, "A")
    assert deleted(r["updates"]) == [(0, 1), (0, 2), (0, 3)] and inserted(r["updates"]) == []
    assert rows(live) == ["A", "B", "C"]
    out = server.call("layout/outline", {"session": "tree", "section": 0})["outline"]
    assert out[0]["expanded"] is False and out[0]["children"][1]["expanded"] is True
    twin.replay(r["updates"])
    assert twin.frames() == frames_by_id(live)

    # expand A again: rows 1, 2 and 3 come back, A2a with them.
    r = expand(live, "A")
    assert inserted(r["updates"]) == [(0, 1, "A1"), (0, 2, "A2"), (0, 3, "A2a")]
    twin.replay(r["updates"])
    assert twin.frames() == frames_by_id(live)
    assert rows(live) == ["A", "A1", "A2", "A2a", "B", "C"]


def test_expanding_a_hidden_node_changes_no_rows_until_its_parent_opens(server):
    live = open_outline(server, "hidden")
    r = expand(live, "A2")
    assert r["updates"] == {} and r["invalidated"] == [] and r["removed"] == []
    assert rows(live) == ["A", "B", "C"]
    r = expand(live, "A")
    assert inserted(r["updates"]) == [(0, 1, "A1"), (0, 2, "A2"), (0, 3, "A2a")]
    # Expanding an expanded node, or collapsing a collapsed one: nothing.
    r = expand(live, "A")
    assert r["updates"] == {} and r["invalidated"] == []
    r = collapse(live, "C")
    assert r["updates"] == {} and r["invalidated"] == []


def test_expanding_above_the_viewport_keeps_what_is_on_screen(server):
    # 20 roots R0..R19 of 2 children each, all collapsed, 44-point rows:
    # at y 440 R10 is at the top. Expanding R2 inserts two rows above it:
    # R10 moves to y 528 and the bounds follow it there.
    outline = [{"id": f"R{i}", "children": [{"id": f"R{i}.{j}"} for j in range(2)]} for i in range(20)]
    live = Live(server, {"session": "anchored", "layout": {"type": "list"}, "bounds": rect(0, 440, W, 400),
                         "sections": [{"outline": outline}]})
    r = expand(live, "R2")
    assert inserted(r["updates"]) == [(0, 3, "R2.0"), (0, 4, "R2.1")]
    assert cell_by_id(live, "R10")["frame"]["y"] == 528
    assert r["bounds"]["y"] == 528


def test_lazy_children_and_several_ids(server):
    live = open_outline(server, "lazy", outline=[{"id": "docs", "expanded": True}, {"id": "src"}])
    assert rows(live) == ["docs", "src"]
    # A childless node takes its subtree when first expanded.
    r = expand(live, "src", children=[{"id": "main.swift"}, {"id": "lib", "children": [{"id": "a.swift"}]}])
    assert inserted(r["updates"]) == [(0, 2, "main.swift"), (0, 3, "lib")]
    # An expanded childless node given children shows them at once.
    r = expand(live, "docs", children=[{"id": "readme"}])
    assert inserted(r["updates"]) == [(0, 1, "readme")]
    assert rows(live) == ["docs", "readme", "src", "main.swift", "lib"]
    # Several ids at once: their rows merged in one batch.
    r = collapse(live, "docs", "src")
    assert deleted(r["updates"]) == [(0, 1), (0, 3), (0, 4)]
    r = expand(live, "lib", "src")
    assert inserted(r["updates"]) == [(0, 2, "main.swift"), (0, 3, "lib"), (0, 4, "a.swift")]
    assert rows(live) == ["docs", "src", "main.swift", "lib", "a.swift"]


@pytest.mark.parametrize("layout", [
    {"type": "flow", "itemSize": {"width": 100, "height": 50}},
    {"type": "waterfall", "columnCount": 2},
    {"type": "coverFlow"},
    {"type": "carousel"},
    {"type": "pager", "itemSize": {"width": 300, "height": 400}},
    {"type": "compositional"},
])
def test_every_type_lays_out_the_visible_nodes(server, layout):
    name = "every-" + layout["type"]
    live = open_outline(server, name, layout=layout)
    twin = Twin(server, name + "-twin", ["A", "B", "C"], layout)
    assert twin.frames() == frames_by_id(live)
    for step in (lambda: expand(live, "A"), lambda: expand(live, "A2"), lambda: collapse(live, "A"),
                 lambda: expand(live, "B", "A")):
        r = step()
        twin.replay(r["updates"])
        assert twin.frames() == frames_by_id(live), layout
    assert rows(live)[:4] == ["A", "A1", "A2", "A2a"]


def test_bad_outline_requests_name_the_field_and_change_nothing(server):
    live = open_outline(server, "bad")
    before = live.snapshot()
    for method, params, field in [
        ("layout/expand", {"ids": ["A", "nope"]}, "params.ids[1]"),
        ("layout/collapse", {"ids": [7]}, "params.ids[0]"),
        ("layout/expand", {"ids": ["A", "B"], "children": []}, "params.children"),
        ("layout/expand", {"ids": ["A"], "children": [{"id": "x"}]}, "params.children"),
        ("layout/expand", {"ids": ["C"], "children": [{"id": "x"}, {"id": "B1"}]}, "params.children[1].id"),
        ("layout/expand", {"ids": ["C"], "children": [{"id": "x", "children": [{"id": "x"}]}]},
         "params.children[0].children[0].id"),
        ("layout/outline", {"section": 1}, "params.section"),
        ("layout/performBatchUpdates", {"updates": {"deleteItems": [{"section": 0, "item": 1}]}}, None),
        ("layout/appendItems", {"section": 0, "itemSizes": [{"width": 10, "height": 10}]}, None),
    ]:
        e = server.error(method, {"session": "bad", **params})
        if field is not None:
            assert e["data"]["field"] == field, (method, params, e)
        else:
            assert "outline" in e["message"], e
        assert live.snapshot() == before, (method, params)
    # An open whose outline repeats an id, or gives items beside it.
    e = server.error("layout/open", {"session": "dup", "layout": {"type": "list"}, "bounds": rect(0, 0, W, 600),
                                     "sections": [{"outline": [{"id": "a", "children": [{"id": "a"}]}]}]}, -32602)
    assert e["data"]["field"] == "params.sections[0].outline[0].children[0].id", e
    e = server.error("layout/open", {"session": "dup", "layout": {"type": "list"}, "bounds": rect(0, 0, W, 600),
                                     "sections": [{"itemCount": 1, "ids": ["q"]},
                                                  {"outline": [{"id": "p", "children": [{"id": "q"}]}]}]}, -32602)
    assert e["data"]["field"] == "params.sections[1].outline[0].children[0].id", e
    e = server.error("layout/open", {"session": "dup", "layout": {"type": "list"}, "bounds": rect(0, 0, W, 600),
                                     "sections": [{"outline": [], "itemCount": 2}]}, -32602)
    assert e["data"]["field"] == "params.sections[0].itemCount", e
    # The drag of an outline row does not begin (as UIKit's answers false):
    # subtree moves come later.
    assert server.call("layout/beginInteractiveMovement", {"session": "bad", "section": 0, "item": 0}) == {
        "began": False}


# -- the property: random trees and expand/collapse sequences, every kind ------

def random_forest(rng, fresh, depth: int = 0) -> List[dict]:
    nodes = []
    for _ in range(rng.randint(1 if depth == 0 else 0, 4 if depth == 0 else 3)):
        n: dict = {"id": next(fresh)}
        if rng.random() < 0.3:
            n["expanded"] = rng.random() < 0.5
        if rng.random() < 0.4:
            n["size"] = {"width": rng.randint(20, 140), "height": rng.randint(20, 120)}
        if depth < 3 and rng.random() < 0.6:
            n["children"] = random_forest(rng, fresh, depth + 1)
        nodes.append(n)
    return nodes


def all_ids(nodes: List[dict]) -> List[str]:
    out = []
    for n in nodes:
        out.append(n["id"])
        out += all_ids(n.get("children", []))
    return out


def visible_ids(nodes: List[dict], flags: Dict[str, bool]) -> List[str]:
    """The model: pre-order of the nodes whose ancestors are all expanded."""
    out = []
    for n in nodes:
        out.append(n["id"])
        if flags[n["id"]]:
            out += visible_ids(n.get("children", []), flags)
    return out


@pytest.mark.parametrize("kind", KINDS, ids=[k[0] for k in KINDS])
def test_random_trees_replay_on_a_flat_twin(server, kind):
    """Random forests in every section and random expand and collapse
    sequences (several ids at once now and then): each answer keeps the
    client's picture equal to attributesInRect (Live.apply), the rows are the
    model's visible pre-order, and `updates` replayed on a flat twin gives
    the same frames. Sizes are left out for the pager (its pages have none of
    their own)."""
    name, layout, n_sections, _ = kind
    rng = random.Random(zlib.crc32(name.encode()) + 43)
    counter = iter(f"{name[:2]}{k}" for k in range(100000))
    forests = [random_forest(rng, counter) for _ in range(n_sections if layout["type"] != "pager" else 1)]
    if layout["type"] == "pager":
        def strip(nodes):
            for n in nodes:
                n.pop("size", None)
                strip(n.get("children", []))
        strip(forests[0])
    flags = {}

    def remember(nodes):
        for n in nodes:
            flags[n["id"]] = n.get("expanded", False)
            remember(n.get("children", []))
    for f in forests:
        remember(f)
    axis_h = layout.get("scrollDirection") == "horizontal" or layout["type"] in ("coverFlow", "pager") and \
        layout.get("scrollDirection") != "vertical"
    session = "o-" + name
    live = Live(server, {"session": session, "layout": layout, "bounds": rect(0, 0, 390, 500),
                         "sections": [{"outline": f} for f in forests]})
    twin_name = session + "-twin"
    server.call("layout/open", {"session": twin_name, "layout": layout, "bounds": rect(0, 0, 390, 500),
                                "sections": [{"ids": visible_ids(f, flags),
                                              **({"itemSizes": [sized(f, i) for i in visible_ids(f, flags)]}
                                                 if layout["type"] != "pager"
                                                 else {"itemCount": len(visible_ids(f, flags))})}
                                             for f in forests]})
    twin = Twin.__new__(Twin)
    twin.server, twin.name = server, twin_name
    ids = [i for f in forests for i in all_ids(f)]
    for step in range(25):
        chosen = rng.sample(ids, k=1 if rng.random() < 0.7 else min(len(ids), rng.randint(2, 3)))
        method = "layout/expand" if rng.random() < 0.55 else "layout/collapse"
        r = live.apply(server.call(method, {"session": session, "ids": chosen}), OUTLINE_FIELDS)
        for i in chosen:
            flags[i] = method == "layout/expand"
        for s, f in enumerate(forests):
            got = [a["id"] for a in sorted((a for a in live.whole() if a["kind"] == "cell" and a["section"] == s),
                                           key=lambda a: a["item"])]
            if layout["type"] not in ("carousel", "pager", "coverFlow"):
                assert got == visible_ids(f, flags), (step, s)
        twin.replay(r["updates"])
        assert twin.frames() == frames_by_id(live), (name, step)
        if rng.random() < 0.3:
            extent = live.content_size["width" if axis_h else "height"]
            offset = rng.uniform(0, max(0.0, extent - 300))
            b = dict(live.bounds, **({"x": offset} if axis_h else {"y": offset}))
            live.set_bounds(b)
            server.call("layout/setBounds", {"session": twin_name, "bounds": b})


def sized(forest: List[dict], ident: str) -> Optional[dict]:
    """A node's own size, or None (null: the layout's uniform size)."""
    stack = list(forest)
    while stack:
        n = stack.pop()
        if n["id"] == ident:
            return n.get("size")
        stack += n.get("children", [])
    return None


# -- snapshots of outline sections ---------------------------------------------

def test_a_snapshot_of_outlines_diffs_the_visible_rows_and_keeps_flags(server):
    # Open flat, then apply a snapshot whose section "s" is the example tree
    # with A expanded: rows A, A1, A2, B, C (the first apply to sections
    # without ids is a reload: `updates` null).
    live = Live(server, {"session": "snap", "layout": {"type": "list"}, "bounds": rect(0, 0, W, 600),
                         "sections": [{"itemCount": 1, "ids": ["old"]}]})
    t = tree()
    t[0]["expanded"] = True
    r = live.apply(server.call("layout/applySnapshot", {"session": "snap", "sections": [{"id": "s", "outline": t}]}),
                   MUTATION_FIELDS | {"updates"})
    assert r["updates"] is None
    assert rows(live) == ["A", "A1", "A2", "B", "C"]
    assert cell_by_id(live, "A2")["parent"] == "A" and cell_by_id(live, "A")["expanded"] is True
    # The same tree without flags keeps them (A stays expanded); C moves to
    # the front and B1 becomes A1's sibling: the rows A, A1, A2 keep their
    # cells, C moves, and the answer replays on a flat twin.
    server.call("layout/open", {"session": "snap-twin", "layout": {"type": "list"}, "bounds": rect(0, 0, W, 600),
                                "sections": [{"itemCount": 5, "ids": ["A", "A1", "A2", "B", "C"]}]})
    t2 = [{"id": "C"}, {"id": "A", "children": [{"id": "A1"}, {"id": "B1"}, {"id": "A2", "children": [{"id": "A2a"}]}]},
          {"id": "B"}]
    r = live.apply(server.call("layout/applySnapshot", {"session": "snap", "sections": [{"id": "s", "outline": t2}]}),
                   OUTLINE_FIELDS)
    assert rows(live) == ["C", "A", "A1", "B1", "A2", "B"]
    assert "expanded" not in cell_by_id(live, "B")  # no children now
    u = r["updates"]
    assert [m["to"]["item"] for m in u.get("moveItems", [])] == [0], u
    server.call("layout/performBatchUpdates", {"session": "snap-twin", "updates": u})
    twin = Twin.__new__(Twin)
    twin.server, twin.name = server, "snap-twin"
    assert twin.frames() == frames_by_id(live)
    out = server.call("layout/outline", {"session": "snap", "section": 0})["outline"]
    assert [n["id"] for n in out] == ["C", "A", "B"] and out[1]["expanded"] is True
    # A hidden node's id taken by another section is refused, naming it.
    e = server.error("layout/applySnapshot", {"session": "snap", "sections": [
        {"id": "s", "outline": t2}, {"id": "t", "outline": [{"id": "x", "children": [{"id": "A2a"}]}]}]}, -32602)
    assert e["data"]["field"] in ("params.sections[1].outline[0].children[0].id",
                                  "params.sections[0].outline[1].children[2].children[0].id"), e
    # A flat snapshot section replaces the outline: its rows are flat again.
    live.apply(server.call("layout/applySnapshot", {"session": "snap", "sections": [{"id": "s", "items": ["C", "A"]}]}),
               OUTLINE_FIELDS)
    assert rows(live) == ["C", "A"] and "level" not in cell_by_id(live, "A")
    assert server.call("layout/outline", {"session": "snap", "section": 0})["outline"] == []
