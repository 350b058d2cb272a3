"""A stateful fuzz of the daemon (issue #8): hypothesis drives one daemon per
run through random sequences of valid and invalid requests on a few live
sessions: opens, setBounds, scrolls to items, batch updates, reloads,
configures, item sizes, appends and closes; unknown methods and garbage
params (random JSON, or a valid request with one field replaced by garbage);
JSON-RPC batches mixing requests, notifications and non-objects;
notifications; cancellations; unparseable bodies.

The layout methods are the daemon's own method table (the initialize
answer's `capabilities.methodTable`): every method in it is sent, valid
(VALID_PARAMS has a params builder for each) and invalid, and
test_every_method_in_the_table_has_a_fuzz_rule fails, naming it, when the
table gains a method the fuzz has no builder for.

After every step:
- every request got exactly one response, with its own id (ids are
  tracked; a batch's answer lists its requests' ids in order);
  notifications got none: a ping request's answer must be the next frame;
- a session that no successful request (and no layout/* notification, which
  is carried out unanswered) targeted is exactly as it was (contentSize and
  attributesInRect over its whole content); in particular an error leaves
  the targeted session unchanged;
- the daemon is alive.

FUZZ_EXAMPLES sets the number of runs (default 25), each of up to 30 steps;
the examples are derandomized, so a run is reproducible. A failure is
reported unshrunk; FUZZ_SHRINK=1 shrinks it (slowly).
"""

from __future__ import annotations

import base64
import functools
import itertools
import math
import os
import struct
from typing import Any, Callable, Optional

import hypothesis.strategies as st
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from daemon_support import Daemon, assert_same_id, frame, note, req
from hardening_util import session_state

NAMES = ["s0", "s1", "s2"]
# The layout methods the fuzz sends are the daemon's: its method table
# (`capabilities.methodTable` of the initialize answer; see method_table).
#: Requests the fuzz may send besides the layout methods (never shutdown or
#: exit, which end the run).
OTHER_METHODS = ["initialize", "initialized", "layout/twist", "layout/", "", "$/cancelRequest", "$/setTrace", "layout/open/x", "LAYOUT/OPEN"]
FIELD_NAMES = [
    "session", "layout", "type", "bounds", "rect", "point", "sections", "itemCount", "itemSizes", "width",
    "height", "x", "y", "updates", "insertItems", "deleteItems", "section", "item", "sizes", "size", "kind",
    "contentOffset", "velocity", "overscan", "contentInset", "scale", "ids", "itemCounts",
    "widthsAndHeights", "widthsAndHeightsBase64",
]
#: Those and the name of every parameter in the method table.
FIELD_NAME = st.deferred(lambda: st.sampled_from(
    FIELD_NAMES + sorted({p["name"] for e in method_table().values() for p in e["params"]} - set(FIELD_NAMES))))

# -- strategies ----------------------------------------------------------------------

INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
# No U+0000: jansson refuses it in any string, so the whole message would be
# a parse error (id null); protocol.md's `content.nul-in-string` row.
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)
SCALARS = (
    st.none()
    | st.booleans()
    | INT64
    | st.integers(-3, 400)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
    | st.sampled_from(NAMES + ["flow", "coverFlow", "header", "vertical", ""])
)
GARBAGE = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(FIELD_NAME | TEXT, children, max_size=5),
    max_leaves=12,
)

SIZES = st.builds(dict, width=st.integers(0, 300), height=st.integers(0, 300))


def bounds(width=st.integers(0, 500), height=st.integers(0, 400)):
    return st.builds(dict, x=st.integers(-200, 3000), y=st.integers(-200, 3000), width=width, height=height)


# Sizes may span every column: accepted by waterfall sessions, -32602 in others.
SIZES_OR_SPANS = SIZES | st.builds(dict, width=st.integers(0, 300), height=st.integers(0, 300), fullSpan=st.booleans())
FLOW_SECTION = st.one_of(
    st.builds(dict, itemCount=st.integers(0, 40)),
    st.builds(dict, itemSizes=st.lists(SIZES, max_size=12)),
)
SECTION = FLOW_SECTION
#: A list's sections may override its modes and separators, per item too.
LIST_SECTION = st.one_of(
    FLOW_SECTION,
    st.builds(dict, itemCount=st.integers(0, 20), headerMode=st.sampled_from(["none", "supplementary"]),
              itemSeparators=st.lists(st.fixed_dictionaries(
                  {"item": st.integers(0, 25)},
                  optional={"bottomSeparatorVisibility": st.sampled_from(["visible", "hidden"])}), max_size=3)),
)
#: A waterfall's sections may also span columns and override the column count.
WATERFALL_SECTION = st.one_of(
    FLOW_SECTION,
    st.builds(dict, itemSizes=st.lists(SIZES_OR_SPANS, max_size=12)),
    st.builds(dict, itemCount=st.integers(0, 20), columnCount=st.integers(1, 4)),
)
FLOW_LAYOUT = st.fixed_dictionaries(
    {"type": st.just("flow")},
    optional={
        "scrollDirection": st.sampled_from(["vertical", "horizontal"]),
        "itemSize": SIZES,
        "minimumLineSpacing": st.integers(0, 30),
        "headerReferenceSize": SIZES,
        "sectionHeadersPinToVisibleBounds": st.booleans(),
        "layoutDirection": st.sampled_from(["ltr", "rtl"]),
    },
)
COVER_LAYOUT = st.fixed_dictionaries(
    {"type": st.just("coverFlow")},
    optional={
        "itemSize": SIZES,
        "minimumLineSpacing": st.integers(0, 40),
        "scale": st.fixed_dictionaries({}, optional={"factor": st.floats(0, 2), "minimum": st.floats(0, 0.5)}),
        "distanceUnit": st.sampled_from(["viewport", "points", "pitch"]),
        "loop": st.booleans(),
    },
)
WATERFALL_LAYOUT = st.fixed_dictionaries(
    {"type": st.just("waterfall")},
    optional={
        "scrollDirection": st.sampled_from(["vertical", "horizontal"]),
        "columnCount": st.integers(1, 5),
        "itemSize": SIZES,
        "headerHeight": st.integers(0, 30),
        "footerHeight": st.integers(0, 30),
        "itemRenderDirection": st.sampled_from(["shortestFirst", "leftToRight", "rightToLeft"]),
        "placement": st.sampled_from(["packed", "stable"]),
        "pixelScale": st.sampled_from([0, 2, 3]),
        "sectionHeadersPinToVisibleBounds": st.booleans(),
        "layoutDirection": st.sampled_from(["ltr", "rtl"]),
        "snap": st.fixed_dictionaries(
            {}, optional={"policy": st.sampled_from(["nearest", "directional", "paging", "free"]),
                          "maxItems": st.integers(1, 3), "edges": st.sampled_from(["snap", "free"])}),
    },
)
CAROUSEL_LAYOUT = st.fixed_dictionaries(
    {"type": st.just("carousel")},
    optional={
        "style": st.sampled_from(["linear", "rotary", "invertedRotary", "cylinder", "invertedCylinder", "wheel",
                                  "invertedWheel", "coverFlow", "timeMachine", "invertedTimeMachine"]),
        "itemSize": SIZES,
        "scrollDirection": st.sampled_from(["vertical", "horizontal"]),
        "perspective": st.integers(1, 1000),
        "spacing": st.floats(-2, 3),
        "wrap": st.booleans(),
        "visibleItems": st.integers(1, 40),
        "count": st.integers(1, 40),
        "showBackfaces": st.booleans(),
        "fade": st.fixed_dictionaries({}, optional={"min": st.floats(-5, 0), "max": st.floats(0, 5),
                                                    "range": st.floats(0.1, 3), "minAlpha": st.floats(0, 1)}),
        "snap": st.fixed_dictionaries({}, optional={"policy": st.sampled_from(["nearest", "directional", "paging", "free"])}),
    },
)
DIMENSION = st.one_of(
    st.builds(dict, fractionalWidth=st.sampled_from([0.25, 1 / 3, 0.5, 1])),
    st.builds(dict, fractionalHeight=st.sampled_from([0.5, 1])),
    st.builds(dict, absolute=st.integers(0, 200)),
    st.builds(dict, estimated=st.integers(1, 120)),
)
LAYOUT_SIZE = st.builds(dict, width=DIMENSION, height=DIMENSION)
DIRECTIONAL_INSETS = st.fixed_dictionaries(
    {}, optional={k: st.integers(0, 12) for k in ("top", "leading", "bottom", "trailing")})
LAYOUT_ITEM = st.fixed_dictionaries({"size": LAYOUT_SIZE}, optional={"contentInsets": DIRECTIONAL_INSETS})


@st.composite
def layout_group(draw, subitem) -> dict:
    """A group of 1 to 3 subitems (with `count` when it has one)."""
    g = {"direction": draw(st.sampled_from(["horizontal", "vertical"])), "size": draw(LAYOUT_SIZE),
         "subitems": draw(st.lists(subitem, min_size=1, max_size=3))}
    if len(g["subitems"]) == 1 and draw(st.booleans()):
        g["count"] = draw(st.integers(1, 4))
    if draw(st.booleans()):
        g["interItemSpacing"] = {draw(st.sampled_from(["fixed", "flexible"])): draw(st.integers(0, 10))}
    if draw(st.booleans()):
        g["contentInsets"] = draw(DIRECTIONAL_INSETS)
    return g


@st.composite
def section_layout(draw) -> dict:
    """A compositional section layout: groups nested two deep, boundary
    items, a background, any behaviour and, on rows, an effect."""
    s = {"group": draw(layout_group(LAYOUT_ITEM | layout_group(LAYOUT_ITEM)))}
    behavior = draw(st.sampled_from(["none", "continuous", "continuousGroupLeadingBoundary", "paging",
                                     "groupPaging", "groupPagingCentered"]))
    s["orthogonalScrollingBehavior"] = behavior
    if draw(st.booleans()):
        s["interGroupSpacing"] = draw(st.integers(0, 12))
    if draw(st.booleans()):
        s["contentInsets"] = draw(DIRECTIONAL_INSETS)
    boundary = []
    for kind in ("header", "footer"):
        if draw(st.booleans()):
            boundary.append({"kind": kind, "size": {"width": {"fractionalWidth": 1},
                                                     "height": {"absolute": draw(st.integers(0, 40))}},
                             "pinToVisibleBounds": draw(st.booleans())})
    if boundary:
        s["boundarySupplementaryItems"] = boundary
    if draw(st.booleans()):
        s["decorationItems"] = [{"kind": "background", "contentInsets": draw(DIRECTIONAL_INSETS)}]
    if behavior != "none" and draw(st.booleans()):
        s["effect"] = {"scale": {"peak": draw(st.sampled_from([1, 1.2])), "factor": 0.5, "minimum": 0.7},
                       "alpha": {"peak": 1, "factor": 0.4}}
    return s


COMPOSITIONAL_LAYOUT = st.fixed_dictionaries(
    {"type": st.just("compositional")},
    optional={
        "scrollDirection": st.sampled_from(["vertical", "horizontal"]),
        "interSectionSpacing": st.integers(0, 20),
        "section": section_layout(),
        "layoutDirection": st.sampled_from(["ltr", "rtl"]),
    },
)
#: A compositional section may carry its own layout; its sizes are measured ones.
COMPOSITIONAL_SECTION = st.one_of(
    FLOW_SECTION,
    st.builds(dict, itemCount=st.integers(0, 30), layout=section_layout()),
)
#: A pager's pages have a size of their own (an automatic size would take a
#: bounds of no extent, and a pitch of 0 is refused) and spacing >= 0.
PAGER_SIZE = st.builds(lambda w, h: {"width": w, "height": h}, st.integers(1, 400), st.integers(1, 400))
PAGER_OWN = {
    "interitemSpacing": st.integers(0, 40),
    "transformer": st.sampled_from(["crossFading", "zoomOut", "depth", "overlap", "linear", "coverFlow",
                                    "ferrisWheel", "invertedFerrisWheel", "cubic"]),
    "wrap": st.booleans(),
    "decelerationDistance": st.integers(1, 4) | st.just("automatic"),
}
PAGER_LAYOUT = st.fixed_dictionaries(
    {"type": st.just("pager"), "itemSize": PAGER_SIZE},
    optional={
        **PAGER_OWN,
        "minimumScale": st.floats(0, 0.99),
        "minimumAlpha": st.floats(0, 1),
        "scrollDirection": st.sampled_from(["vertical", "horizontal"]),
        "removesInfiniteLoopForSingleItem": st.booleans(),
    },
)
#: A pager holds one section of pages.
PAGER_SECTIONS = st.builds(lambda n: [{"itemCount": n}], st.integers(0, 30))
VISIBILITY = st.sampled_from(["automatic", "visible", "hidden"])
SEPARATORS = st.fixed_dictionaries({}, optional={
    "topSeparatorVisibility": VISIBILITY, "bottomSeparatorVisibility": VISIBILITY,
    "bottomSeparatorInsets": st.fixed_dictionaries({}, optional={"leading": st.integers(-10, 80),
                                                                 "trailing": st.integers(0, 40)})})
LIST_LAYOUT = st.fixed_dictionaries(
    {"type": st.just("list")},
    optional={
        "appearance": st.sampled_from(["plain", "grouped", "insetGrouped", "sidebar", "sidebarPlain"]),
        "headerMode": st.sampled_from(["none", "supplementary", "firstItemInSection"]),
        "footerMode": st.sampled_from(["none", "supplementary"]),
        "footerHeight": st.integers(0, 40),
        "headerTopPadding": st.integers(0, 20),
        "estimatedRowHeight": st.integers(1, 90),
        "displayScale": st.sampled_from([1, 2, 3]),
        "layoutDirection": st.sampled_from(["ltr", "rtl"]),
        "separatorConfiguration": SEPARATORS,
        "safeAreaInsets": st.fixed_dictionaries({}, optional={"left": st.integers(0, 40), "right": st.integers(0, 40)}),
    },
)
#: A compositional list section (`{"list": …}` in place of a group): the
#: list's fields less its direction, per-item separators, content insets.
LIST_SECTION_LAYOUT = st.builds(
    lambda fields, seps, insets: {"list": {**{k: v for k, v in fields.items()
                                              if k not in ("type", "layoutDirection")},
                                           **({"itemSeparators": seps} if seps else {})},
                                  **({"contentInsets": insets} if insets else {})},
    LIST_LAYOUT,
    st.lists(st.builds(lambda i, c: {"item": i, **c}, st.integers(0, 20), SEPARATORS), max_size=3),
    st.none() | DIRECTIONAL_INSETS)
#: List sections scroll vertically: a vertical compositional layout whose
#: default section is a list, and whose sections mix lists and groups.
COMPOSITIONAL_LIST_LAYOUT = st.fixed_dictionaries(
    {"type": st.just("compositional"), "section": LIST_SECTION_LAYOUT},
    optional={"interSectionSpacing": st.integers(0, 20), "layoutDirection": st.sampled_from(["ltr", "rtl"])},
)
#: Any compositional section, list sections included (refused, -32602, in a
#: horizontal layout).
MIXED_SECTION = COMPOSITIONAL_SECTION | st.builds(dict, itemCount=st.integers(0, 30), layout=LIST_SECTION_LAYOUT)
LAYOUT = (FLOW_LAYOUT | COVER_LAYOUT | WATERFALL_LAYOUT | CAROUSEL_LAYOUT | COMPOSITIONAL_LAYOUT | PAGER_LAYOUT
          | LIST_LAYOUT | COMPOSITIONAL_LIST_LAYOUT)
ITEM_ID = st.integers(-5, 50) | st.sampled_from(["a", "b", "x", "\u00e9", ""])


#: Outline nodes (#43): ids from a small pool, so that a tree repeats one
#: now and then (-32602) and expand and collapse find them; three levels.
NODE_ID = st.sampled_from([f"n{k}" for k in range(12)]) | ITEM_ID
OUTLINE_NODES = st.recursive(
    st.fixed_dictionaries({"id": NODE_ID}, optional={"expanded": st.booleans(), "size": SIZES}),
    lambda children: st.fixed_dictionaries(
        {"id": NODE_ID, "children": st.lists(children, max_size=3)},
        optional={"expanded": st.booleans()}),
    max_leaves=8).map(lambda n: [n]) | st.lists(
        st.fixed_dictionaries({"id": NODE_ID}, optional={"expanded": st.booleans()}), max_size=3)
OUTLINE_SECTION = st.fixed_dictionaries({"outline": OUTLINE_NODES})


@st.composite
def append_params(draw, name: str, sections: Optional[int], sized: bool = True) -> dict:
    """layout/appendItems: a few items (k ≤ 6, far under
    maxItemValuesPerRequest) to section 0 or, when the section count is
    known, any section; as itemCount, itemSizes, widthsAndHeights or
    packed (widthsAndHeightsBase64), and now and then with ids (one per
    appended item). Not `sized`: a count only (a pager's pages have no
    sizes of their own)."""
    section = draw(st.integers(0, sections - 1) if sections else st.just(0), label="section")
    k = draw(st.integers(0, 6), label="k")
    params: dict[str, Any] = {"session": name, "section": section}
    kinds = ["itemCount", "itemSizes", "widthsAndHeights", "packed"] if sized else ["itemCount"]
    kind = draw(st.sampled_from(kinds), label="kind")
    if kind == "itemCount":
        params["itemCount"] = k
    elif kind == "itemSizes":
        params["itemSizes"] = draw(st.lists(SIZES, min_size=k, max_size=k), label="itemSizes")
    else:
        value = st.integers(0, 300) | st.floats(0, 300)
        flat = draw(st.lists(value, min_size=2 * k, max_size=2 * k), label="widthsAndHeights")
        if kind == "packed":
            params["widthsAndHeightsBase64"] = base64.b64encode(struct.pack(f"<{2 * k}d", *flat)).decode()
        else:
            params["widthsAndHeights"] = flat
    if draw(st.booleans(), label="with ids"):
        params["ids"] = draw(st.lists(ITEM_ID, min_size=k, max_size=k), label="ids")
    return params


@st.composite
def open_params(draw, name: str) -> dict:
    """layout/open of any type, with sections that type accepts."""
    layout = draw(LAYOUT, label="layout")
    section = {"waterfall": WATERFALL_SECTION, "compositional": COMPOSITIONAL_SECTION,
               "list": LIST_SECTION}.get(layout["type"], SECTION)
    if layout["type"] == "compositional" and layout.get("scrollDirection") != "horizontal":
        section = MIXED_SECTION
    if draw(st.integers(0, 3), label="outline") == 0:
        section = section | OUTLINE_SECTION
    sections = PAGER_SECTIONS if layout["type"] == "pager" else st.lists(section, min_size=1, max_size=3)
    return {"session": name, "layout": layout, "bounds": draw(bounds(), label="bounds"),
            "sections": draw(sections, label="sections")}


def appended(params: dict) -> int:
    """The number of items a valid layout/appendItems appends."""
    if "itemCount" in params:
        return params["itemCount"]
    if "itemSizes" in params:
        return len(params["itemSizes"])
    if "widthsAndHeightsBase64" in params:
        return len(base64.b64decode(params["widthsAndHeightsBase64"])) // 16
    return len(params["widthsAndHeights"]) // 2


# -- the daemon's method table --------------------------------------------------------


@functools.lru_cache(maxsize=None)
def capabilities() -> dict:
    """The daemon's `initialize` capabilities (asked once per run of pytest):
    `methodTable` is the list of layout methods the fuzz sends, and
    `itemPositions` the positions layout/scrollToItem takes."""
    d = Daemon()
    try:
        return d.initialize()["capabilities"]
    finally:
        d.finish()


@functools.lru_cache(maxsize=None)
def method_table() -> dict[str, dict]:
    """name -> entry ({name, params: [{name, type, required}], result,
    picture}) of every method in the daemon's table, in its order."""
    return {m["name"]: m for m in capabilities()["methodTable"]}


@functools.lru_cache(maxsize=None)
def layout_methods() -> list[str]:
    return list(method_table())


@functools.lru_cache(maxsize=None)
def mutating_methods() -> frozenset[str]:
    """The methods a successful request of which may change its session:
    every method that changes the picture (`picture` other than "none"),
    and layout/close."""
    return frozenset({m for m, e in method_table().items() if e["picture"] != "none"} | {"layout/close"})


#: Every method of the table (deferred: the table is the daemon's answer).
METHOD = st.deferred(lambda: st.sampled_from(layout_methods()))
#: Every method of the table but layout/open (a valid open of an open
#: session is 1002: the open_session rule opens).
NOT_OPEN = st.deferred(lambda: st.sampled_from([m for m in layout_methods() if m != "layout/open"]))
#: Those and the other requests (OTHER_METHODS).
ANY_METHOD = st.deferred(lambda: st.sampled_from(layout_methods() + OTHER_METHODS))

# -- strategies: valid params, one builder per method of the table --------------------

#: method -> builder(name, count, sections, kind) of the params of a request
#: of it that may well be accepted. The fuzz has a rule for exactly these
#: methods; test_every_method_in_the_table_has_a_fuzz_rule requires them to
#: be the daemon's method table.
VALID_PARAMS: dict[str, Callable[[str, Optional[int], Optional[int], Optional[str]], st.SearchStrategy]] = {}


def valid(method: str):
    def register(builder):
        VALID_PARAMS[method] = builder
        return builder

    return register


def item_index(count: Optional[int]) -> st.SearchStrategy:
    """An item of section 0 (or one past its end)."""
    return st.integers(0, max((count or 0) + 1, 1))


def valid_params(
    method: str, name: str, count: Optional[int], sections: Optional[int] = None, kind: Optional[str] = None
) -> st.SearchStrategy:
    """Params a request of `method` on session `name` may well accept (an
    index may be out of range; `count` is section 0's item count and
    `sections` the number of sections, if known, and `kind` the session's
    layout type). A method of the table with no builder here gets params
    made from its table entry (and the fast test fails, naming it)."""
    builder = VALID_PARAMS.get(method)
    if builder is None:
        return table_params(method, name)
    return builder(name, count, sections, kind)


POINT = st.builds(dict, x=st.integers(-500, 5000), y=st.integers(-500, 5000))
#: A value for each parameter type of the table, for a method with no builder.
TYPE_VALUES = {
    "string": TEXT, "integer": st.integers(0, 3), "number": st.integers(-100, 2000), "boolean": st.booleans(),
    "Rect": bounds(), "Point": POINT, "Size": SIZES,
}


def table_params(method: str, name: str) -> st.SearchStrategy:
    """Params from the method's table entry: `session` is the session, each
    other parameter a value of its type (garbage for a type not known here);
    the required ones always, the optional ones now and then."""
    required: dict[str, st.SearchStrategy] = {}
    optional: dict[str, st.SearchStrategy] = {}
    for p in method_table()[method]["params"]:
        value = st.just(name) if p["name"] == "session" else TYPE_VALUES.get(p["type"], GARBAGE)
        (required if p["required"] else optional)[p["name"]] = value
    return st.fixed_dictionaries(required, optional=optional)


@valid("layout/open")
def _open(name, count, sections, kind):
    return open_params(name)


@valid("layout/setBounds")
def _set_bounds(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), bounds=bounds())


@valid("layout/scrollEnded")
def _scroll_ended(name, count, sections, kind):
    # A row's release names its section (an error where it is no row).
    row = {"section": st.integers(0, 2)} if kind == "compositional" else {}
    return st.fixed_dictionaries(
        {"session": st.just(name), "contentOffset": POINT,
         "velocity": st.builds(dict, x=st.integers(-5, 5), y=st.just(0))}, optional=row)


@valid("layout/scrollToItem")
def _scroll_to_item(name, count, sections, kind):
    positions = st.deferred(lambda: st.sampled_from(capabilities()["itemPositions"]))
    return st.fixed_dictionaries(
        {"session": st.just(name), "section": st.just(0), "item": item_index(count)}, optional={"position": positions})


@valid("layout/scrollSection")
def _scroll_section(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), section=st.integers(0, 2), offset=st.integers(-100, 2000))


@valid("layout/attributesInRect")
def _attributes_in_rect(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), rect=bounds(st.integers(0, 3000), st.integers(0, 3000)))


@valid("layout/attributesForItem")
def _attributes_for_item(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), section=st.just(0), item=item_index(count))


@valid("layout/attributesForSupplementary")
def _attributes_for_supplementary(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), kind=st.sampled_from(["header", "footer"]), section=st.integers(0, 2))


@valid("layout/itemAtPoint")
def _item_at_point(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), point=st.builds(dict, x=st.integers(-10, 600), y=st.integers(-10, 600)))


@valid("layout/beginInteractiveMovement")
def _begin_interactive_movement(name, count, sections, kind):
    return st.fixed_dictionaries({"session": st.just(name), "section": st.integers(0, 1), "item": item_index(count)},
                                 optional={"lap": st.integers(-2, 2)})


@valid("layout/updateInteractiveMovement")
def _update_interactive_movement(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), position=POINT)


@valid("layout/setItemSeparators")
def _set_item_separators(name, count, sections, kind):
    entry = st.fixed_dictionaries(
        {"section": st.integers(0, 1), "item": item_index(count)},
        optional={"bottomSeparatorVisibility": st.sampled_from(["automatic", "visible", "hidden"]),
                  "topSeparatorInsets": st.fixed_dictionaries({}, optional={"leading": st.integers(-5, 60)})})
    return st.fixed_dictionaries({"session": st.just(name), "items": st.lists(entry, max_size=3)})


@valid("layout/expand")
def _expand(name, count, sections, kind):
    return st.fixed_dictionaries({"session": st.just(name), "ids": st.lists(NODE_ID, min_size=1, max_size=3)},
                                 optional={"children": OUTLINE_NODES})


@valid("layout/collapse")
def _collapse(name, count, sections, kind):
    return st.fixed_dictionaries({"session": st.just(name), "ids": st.lists(NODE_ID, min_size=1, max_size=3)})


OUTLINE_EDITS = {"layout/outlineAppend", "layout/outlineInsert", "layout/outlineDelete",
                 "layout/outlineReplaceChildren"}


@valid("layout/outlineAppend")
def _outline_append(name, count, sections, kind):
    return st.fixed_dictionaries({"session": st.just(name), "items": OUTLINE_NODES},
                                 optional={"section": st.integers(0, 2), "parent": NODE_ID})


@valid("layout/outlineInsert")
def _outline_insert(name, count, sections, kind):
    return st.one_of(
        st.builds(dict, session=st.just(name), before=NODE_ID, items=OUTLINE_NODES),
        st.builds(dict, session=st.just(name), after=NODE_ID, items=OUTLINE_NODES))


@valid("layout/outlineDelete")
def _outline_delete(name, count, sections, kind):
    return st.fixed_dictionaries({"session": st.just(name), "ids": st.lists(NODE_ID, min_size=1, max_size=3)})


@valid("layout/outlineReplaceChildren")
def _outline_replace_children(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), parent=NODE_ID, children=OUTLINE_NODES)


@valid("layout/outline")
def _outline(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), section=st.integers(0, max((sections or 1), 1)))


@valid("layout/beginSwipe")
def _begin_swipe(name, count, sections, kind):
    action = st.fixed_dictionaries({"width": st.integers(0, 200)},
                                   optional={"style": st.sampled_from(["normal", "destructive"])})
    return st.fixed_dictionaries(
        {"session": st.just(name), "section": st.integers(0, 1), "item": item_index(count),
         "edge": st.sampled_from(["leading", "trailing"]), "actions": st.lists(action, min_size=1, max_size=4)},
        optional={"performsFirstActionWithFullSwipe": st.booleans()})


@valid("layout/updateSwipe")
def _update_swipe(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), translation=st.integers(-1000, 1000))


@valid("layout/endSwipe")
def _end_swipe(name, count, sections, kind):
    return st.builds(dict, session=st.just(name), velocity=st.sampled_from([-2, -0.1, 0, 0.1, 2]))


@valid("layout/closeSwipe")
@valid("layout/contentSize")
@valid("layout/close")
@valid("layout/endInteractiveMovement")
@valid("layout/cancelInteractiveMovement")
def _session_only(name, count, sections, kind):
    return st.builds(dict, session=st.just(name))


@valid("layout/performBatchUpdates")
def _perform_batch_updates(name, count, sections, kind):
    path = st.builds(dict, section=st.just(0), item=item_index(count))
    updates = st.fixed_dictionaries(
        {},
        optional={
            "deleteItems": st.lists(path, max_size=3, unique_by=lambda p: p["item"]),
            "insertItems": st.lists(path, max_size=3, unique_by=lambda p: p["item"]),
            "reloadItems": st.lists(path, max_size=2, unique_by=lambda p: p["item"]),
        },
    )
    return st.builds(dict, session=st.just(name), updates=updates)


@valid("layout/reloadData")
def _reload_data(name, count, sections, kind):
    if kind == "pager":
        return st.builds(dict, session=st.just(name), sections=PAGER_SECTIONS)
    section = MIXED_SECTION if kind == "compositional" else SECTION
    return st.builds(dict, session=st.just(name), sections=st.lists(section, min_size=1, max_size=3))


#: Item and section ids: a small pool, so that snapshots share ids with
#: each other (moves) and now and then repeat one (refused).
ITEM_IDS = st.one_of(st.integers(0, 40), st.sampled_from(["a", "b", "c", "d", "\u00e9\u2028", "1"]))


@valid("layout/applySnapshot")
def _apply_snapshot(name, count, sections, kind):
    sized = kind != "pager"
    item = st.one_of(ITEM_IDS, st.builds(dict, id=ITEM_IDS, size=SIZES)) if sized else ITEM_IDS
    section_id = st.one_of(st.integers(0, 5), st.sampled_from(["x", "y"]))
    section = st.fixed_dictionaries({"id": section_id, "items": st.lists(item, max_size=12)})
    # Now and then an outline section (#43): its visible rows are diffed.
    section = section | st.fixed_dictionaries({"id": section_id, "outline": OUTLINE_NODES})
    return st.fixed_dictionaries(
        {"session": st.just(name), "sections": st.lists(section, min_size=1, max_size=1 if kind == "pager" else 3)},
        optional={"reloadItems": st.lists(ITEM_IDS, max_size=2), "reconfigureItems": st.lists(ITEM_IDS, max_size=2)})


#: Every type's drag-to-reorder fields.
REORDER_FIELDS = {"reorderTargeting": st.sampled_from(["uikit", "nearest"]), "reorderHysteresis": st.integers(0, 30),
                  "allowsCrossSectionReordering": st.booleans(), "autoscrollEdge": st.integers(0, 80)}


@valid("layout/configure")
def _configure(name, count, sections, kind):
    if kind == "compositional":
        cfg = st.fixed_dictionaries({}, optional={"interSectionSpacing": st.integers(0, 20),
                                                  "section": section_layout(),
                                                  "layoutDirection": st.sampled_from(["ltr", "rtl"]),
                                                  **REORDER_FIELDS})
        return st.fixed_dictionaries({"session": st.just(name)},
                                     optional={"layout": cfg, "overscan": st.integers(0, 50)})
    if kind == "pager":
        cfg = st.fixed_dictionaries({}, optional={"itemSize": PAGER_SIZE, **PAGER_OWN, **REORDER_FIELDS})
        return st.fixed_dictionaries({"session": st.just(name)}, optional={"layout": cfg})
    if kind == "carousel":
        own = {"style": st.sampled_from(["rotary", "cylinder", "wheel", "coverFlow", "invertedTimeMachine"]),
               "wrap": st.booleans(), "visibleItems": st.integers(1, 12), "perspective": st.integers(50, 900)}
    else:
        own = (
            {"columnCount": st.integers(1, 5), "placement": st.sampled_from(["packed", "stable"]),
             "minimumColumnSpacing": st.integers(0, 30)}
            if kind == "waterfall"
            else {"minimumLineSpacing": st.integers(0, 30)}
        )
        own |= {"estimatedItemSize": SIZES, "layoutDirection": st.sampled_from(["ltr", "rtl"])}
    cfg = st.fixed_dictionaries({}, optional={"itemSize": SIZES, **own, **REORDER_FIELDS})
    return st.fixed_dictionaries({"session": st.just(name)}, optional={"layout": cfg, "overscan": st.integers(0, 50)})


@valid("layout/setItemSizes")
def _set_item_sizes(name, count, sections, kind):
    entry = st.builds(dict, section=st.just(0), item=item_index(count), size=SIZES_OR_SPANS if kind == "waterfall" else SIZES)
    return st.builds(dict, session=st.just(name), sizes=st.lists(entry, min_size=1, max_size=3))


@valid("layout/appendItems")
def _append_items(name, count, sections, kind):
    return append_params(name, sections, sized=kind != "pager")


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


def with_garbage(params: Any, path: tuple, garbage: Any) -> Any:
    if not path:
        return garbage
    if isinstance(params, dict):
        out = dict(params)
    else:
        out = list(params)
    out[path[0]] = with_garbage(params[path[0]], path[1:], garbage)
    return out


# -- the machine ---------------------------------------------------------------------


def outline_refusal(r: dict) -> bool:
    """An answer that refuses what outline sections (#43) rule out: a flat
    change of an outline's rows (1003), or a tree repeating an id (-32602,
    the pool of node ids is small)."""
    e = r.get("error", {})
    return (e.get("code") == 1003 and "is an outline" in e.get("message", "")) or (
        e.get("code") == -32602 and "repeats an id" in e.get("message", ""))


class DaemonMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.d = Daemon()
        self.d.initialize()
        self.ids = itertools.count(1)
        #: session -> its state as last seen after a change we caused
        self.model: dict[str, Any] = {n: ("error", 1001) for n in NAMES}
        self.counts: dict[str, Optional[int]] = {n: None for n in NAMES}
        #: session -> its number of sections (None: closed)
        self.sections: dict[str, Optional[int]] = {n: None for n in NAMES}
        #: session -> the ids appended to it so far (an append may bring
        #: one back: the re-anchoring of a chunked reload)
        self.item_ids: dict[str, list[Any]] = {n: [] for n in NAMES}
        self.fresh_ids = itertools.count(1000)
        self.touched: set[str] = set()
        #: session -> its layout type while open
        self.kinds: dict[str, Optional[str]] = {n: None for n in NAMES}
        self.steps = 0

    @initialize(data=st.data())
    def open_two_sessions(self, data):
        """s0 (flow) and s1 (coverFlow, a loop in about half the runs) start
        open; s2 starts closed."""
        for name, kind in (("s0", "flow"), ("s1", "coverFlow")):
            params = data.draw(valid_params("layout/open", name, None), label="params")
            params["layout"] = data.draw(FLOW_LAYOUT if kind == "flow" else COVER_LAYOUT, label="layout")
            if kind == "coverFlow":
                params["layout"]["loop"] = data.draw(st.booleans(), label="loop")
            params["sections"] = data.draw(st.lists(FLOW_SECTION, min_size=1, max_size=3), label="sections")
            r = self.exchange("layout/open", params, self.new_id(data))
            assert "result" in r, r

    def teardown(self) -> None:
        event(f"steps: {self.steps // 10 * 10}+")
        alive = self.d.proc.poll() is None
        code = self.d.finish()
        assert alive and code in (0, 1), f"daemon ended with {code}; stderr {self.d.stderr_text()!r}"

    # -- helpers -------------------------------------------------------------

    def new_id(self, data) -> Any:
        n = next(self.ids)
        return data.draw(st.sampled_from([n, f"r{n}", f"r{n}\u00e9\u2028"]), label="id")

    def outcome(self, method: str, params: Any, response: dict) -> None:
        """Records which session a successful mutating request changed."""
        event(f"{method if method in method_table() else 'other'}: {'result' if 'result' in response else response['error']['code']}")
        if "result" in response and method in mutating_methods() and isinstance(params, dict):
            s = params.get("session")
            if isinstance(s, str):
                self.touched.add(s)
        if "result" in response and isinstance(params, dict) and isinstance(params.get("session"), str):
            s = params["session"]
            if method == "layout/open":
                self.kinds[s] = params["layout"]["type"]
            elif method == "layout/close":
                self.kinds[s] = None

    def exchange(self, method: str, params: Any, rid: Any) -> dict:
        msg = req(rid, method, None) if params is None else req(rid, method, params)
        self.d.send(msg)
        r = self.d.read()
        assert isinstance(r, dict), r
        assert_same_id(r["id"], rid)
        self.outcome(method, params, r)
        return r

    def item_count(self, name: str, section: int = 0) -> Optional[int]:
        """A section's item count, from the daemon's own error message."""
        r = self.d.request("layout/attributesForItem", {"session": name, "section": section, "item": 2**62})
        msg = r.get("error", {}).get("message", "")
        if msg.startswith(f"params.item is out of range: section {section} has "):
            return int(msg.split(" has ")[1].split(" ")[0])
        return None

    def section_count(self, name: str) -> Optional[int]:
        """The number of sections, from the daemon's own error message."""
        r = self.d.request("layout/attributesForSupplementary", {"session": name, "kind": "header", "section": 2**62})
        msg = r.get("error", {}).get("message", "")
        if msg.startswith("params.section is out of range: the session has "):
            return int(msg.split(" has ")[1].split(" ")[0])
        return None

    def params(self, method: str, name: str, data, label: str = "params") -> Any:
        return data.draw(
            valid_params(method, name, self.counts[name], self.sections[name], self.kinds.get(name)), label=label
        )

    # -- rules: valid traffic on a few sessions --------------------------------

    @rule(name=st.sampled_from(NAMES), data=st.data())
    def open_session(self, name, data):
        params = data.draw(valid_params("layout/open", name, None), label="params")
        r = self.exchange("layout/open", params, self.new_id(data))
        if self.model[name] != ("error", 1001):
            assert r.get("error", {}).get("code") == 1002, r
        else:
            assert "result" in r or outline_refusal(r), r

    @rule(name=st.sampled_from(NAMES), method=NOT_OPEN, data=st.data())
    def valid_request(self, name, method, data):
        params = self.params(method, name, data)
        if method in OUTLINE_EDITS and data.draw(st.booleans(), label="edit a real node"):
            self.aim_outline_edit(name, params, data)
        r = self.exchange(method, params, self.new_id(data))
        if self.model[name] == ("error", 1001):
            assert r.get("error", {}).get("code") == 1001, r
        elif "error" in r and method in VALID_PARAMS:
            # Only a batch UIKit would reject, or an index out of range.
            assert r["error"]["code"] in (1003, -32602), r
        elif method in OUTLINE_EDITS:
            event(f"{method}: applied")

    @rule(name=st.sampled_from(NAMES), data=st.data())
    def scroll(self, name, data):
        """A few scroll frames (and now and then a rotation)."""
        for _ in range(data.draw(st.integers(1, 4), label="frames")):
            r = self.exchange("layout/setBounds", data.draw(valid_params("layout/setBounds", name, None)), self.new_id(data))
            assert "result" in r or r["error"]["code"] == 1001, r

    @rule(name=st.sampled_from(NAMES), data=st.data())
    def drag(self, name, data):
        """A drag to reorder of an item in range: begin, updates, then end or
        cancel. While it lasts, at most one element is `moving`, named by
        the origin; every target lies within the data; the end answers the
        one move from the origin to the last target (or an empty batch). A
        movement left by an earlier request is cancelled first."""
        if not self.sections[name] or not self.item_count(name, 0):
            return
        self.exchange("layout/cancelInteractiveMovement", {"session": name}, self.new_id(data))
        origin = {"section": 0, "item": data.draw(st.integers(0, self.item_count(name, 0) - 1), label="item")}
        r = self.exchange("layout/beginInteractiveMovement", {"session": name, **origin}, self.new_id(data))
        assert "result" in r, r
        if not r["result"]["began"]:
            return  # a section closed to reordering
        # An outline row moves with its visible descendants (#43).
        subtree = self.subtree_rows(name, origin["item"], data)
        target = origin
        for k in range(data.draw(st.integers(1, 4), label="updates")):
            r = self.exchange("layout/updateInteractiveMovement", {"session": name, "position": data.draw(POINT)},
                              self.new_id(data))
            assert "result" in r, r
            moving = [a for a in r["result"]["invalidated"] if a.get("moving")]
            assert [(a["section"], a["item"]) for a in moving] in ([], [(0, origin["item"])]), r["result"]
            if k == 0 and not moving:
                # Reported only where its frame meets the visible rect; the
                # query for it answers the lifted item wherever it is.
                q = self.exchange("layout/attributesForItem", {"session": name, **origin}, self.new_id(data))
                assert q["result"]["attributes"].get("moving") is True, q
            target = r["result"]["target"]
            assert 0 <= target["section"] < self.sections[name] and target["item"] >= 0, target
        if data.draw(st.booleans(), label="drop"):
            r = self.exchange("layout/endInteractiveMovement", {"session": name}, self.new_id(data))
            assert "result" in r, r
            expected = {} if target == origin else {"moveItems": [
                {"from": {"section": 0, "item": origin["item"] + j},
                 "to": {"section": target["section"], "item": target["item"] + j}} for j in range(subtree + 1)]}
            assert r["result"]["updates"] == expected, (origin, target, r["result"]["updates"])
            event("drag: dropped")
        else:
            r = self.exchange("layout/cancelInteractiveMovement", {"session": name}, self.new_id(data))
            assert "result" in r and not any(a.get("moving") for a in r["result"]["invalidated"]), r
            event("drag: cancelled")

    def aim_outline_edit(self, name: str, params: dict, data) -> None:
        """Points an outline edit at nodes the session has (from
        layout/outline of a drawn section) and gives its new nodes fresh
        ids, so that most such edits apply."""
        s = data.draw(st.integers(0, max(0, (self.sections[name] or 1) - 1)), label="edit section")
        r = self.exchange("layout/outline", {"session": name, "section": s}, self.new_id(data))
        known: list = []

        def walk(nodes):
            for n in nodes:
                known.append(n["id"])
                walk(n["children"])
        walk(r.get("result", {}).get("outline", []))

        def fresh(nodes):
            for n in nodes:
                n["id"] = f"f{next(self.fresh_ids)}"
                fresh(n.get("children", []))
        for key in ("items", "children"):
            if isinstance(params.get(key), list) and data.draw(st.integers(0, 3), label="fresh"):
                fresh(params[key])
        if not known:
            return
        for key in ("parent", "before", "after"):
            if key in params:
                params[key] = data.draw(st.sampled_from(known), label=key)
        if "section" in params:
            params["section"] = s
        if "ids" in params:
            params["ids"] = data.draw(st.lists(st.sampled_from(known), min_size=1, max_size=2), label="ids")

    def subtree_rows(self, name: str, row: int, data) -> int:
        """The visible descendants of section 0's row `row` when section 0
        is an outline (from layout/outline), else 0."""
        r = self.exchange("layout/outline", {"session": name, "section": 0}, self.new_id(data))
        rows: list = []

        def walk(nodes, level):
            for n in nodes:
                rows.append((level, n["expanded"], bool(n["children"])))
                if n["expanded"]:
                    walk(n["children"], level + 1)
        walk(r.get("result", {}).get("outline", []), 0)
        if row >= len(rows):
            return 0
        level = rows[row][0]
        k = 0
        while row + 1 + k < len(rows) and rows[row + 1 + k][0] > level:
            k += 1
        return k

    @rule(name=st.sampled_from(NAMES), data=st.data())
    def scroll_to_item(self, name, data):
        """layout/scrollToItem of an item in range, at a position of
        capabilities.itemPositions or the default: a finite contentOffset
        (and a finite rowOffset, when given: the item is in a compositional
        row); a `lap` exactly when the layout loops, as the item's own
        attributes say (every attribute object of a loop carries one). Out
        of range (an empty section) is -32602 naming params.item; no
        section, -32602; a closed session, 1001."""
        params: dict[str, Any] = {"session": name, "section": 0, "item": 0}
        count = None
        if self.sections[name]:
            params["section"] = data.draw(st.integers(0, self.sections[name] - 1), label="section")
            count = self.item_count(name, params["section"])
            if count:
                params["item"] = data.draw(st.integers(0, count - 1), label="item")
        if data.draw(st.booleans(), label="with position"):
            params["position"] = data.draw(st.sampled_from(capabilities()["itemPositions"]), label="position")
        r = self.exchange("layout/scrollToItem", params, self.new_id(data))
        if self.model[name] == ("error", 1001):
            assert r.get("error", {}).get("code") == 1001, r
            return
        if not count:
            assert r.get("error", {}).get("code") == -32602, (params, r)
            if self.sections[name]:
                assert r["error"]["data"]["field"] == "params.item", (params, r)
            return
        assert "result" in r, (params, r)
        target = r["result"]

        def finite(v: Any) -> bool:
            return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)

        offset = target["contentOffset"]
        assert set(offset) == {"x", "y"} and all(map(finite, offset.values())), target
        assert "rowOffset" not in target or finite(target["rowOffset"]), target
        cell = self.d.call("layout/attributesForItem", {"session": name, "section": params["section"], "item": params["item"]})
        loops = "lap" in cell["attributes"]
        assert ("lap" in target) == loops, f"lap {'missing' if loops else 'given'} where the layout {'loops' if loops else 'does not loop'}: {params} -> {target}"
        if loops:
            assert type(target["lap"]) is int, target
        event(f"scrollToItem: {'lap' if loops else 'no lap'}{', row' if 'rowOffset' in target else ''}")

    @rule(name=st.sampled_from(NAMES), data=st.data())
    def snapshot_twice(self, name, data):
        """A snapshot, then the same again: the second answers an empty
        batch and an empty delta. Duplicates and unknown reloads are
        -32602 naming params.sections or the list's entry; nothing else
        may fail but the kind's own checks (-32602)."""
        params = self.params("layout/applySnapshot", name, data)
        r = self.exchange("layout/applySnapshot", params, self.new_id(data))
        if self.model[name] == ("error", 1001):
            assert r.get("error", {}).get("code") == 1001, r
            return
        if "error" in r:
            assert r["error"]["code"] == -32602, (params, r)
            event(f"applySnapshot refused: {r['error']['data']['field'].split('[')[0]}")
            return
        again = {"session": name, "sections": params["sections"]}
        r2 = self.exchange("layout/applySnapshot", again, self.new_id(data))
        assert "result" in r2, (again, r2)
        same = r2["result"]
        assert same["updates"] == {}, (params, same["updates"])
        assert same["invalidated"] == [] and same["removed"] == [], (params, same)
        event(f"applySnapshot: {'diffed' if r['result']['updates'] is not None else 'first apply'}")

    @rule(name=st.sampled_from(NAMES), data=st.data())
    def valid_batch_update(self, name, data):
        """Deletes and inserts in section 0 that UIKit accepts."""
        count = self.counts[name]
        if count is None:
            count = 0
        deletes = data.draw(st.lists(st.integers(0, max(count - 1, 0)), max_size=min(count, 3), unique=True), label="deletes")
        deletes = [i for i in deletes if i < count]
        inserts_n = data.draw(st.integers(0, 3), label="inserts")
        after = count - len(deletes) + inserts_n
        inserts = data.draw(st.lists(st.integers(0, max(after - 1, 0)), min_size=inserts_n, max_size=inserts_n, unique=True), label="at") if after else []
        updates = {
            "deleteItems": [{"section": 0, "item": i} for i in deletes],
            "insertItems": [{"section": 0, "item": i} for i in inserts],
        }
        r = self.exchange("layout/performBatchUpdates", {"session": name, "updates": updates}, self.new_id(data))
        if self.model[name] == ("error", 1001):
            assert r["error"]["code"] == 1001, r
        elif self.counts[name] is not None:
            assert "result" in r or outline_refusal(r), (updates, r)

    @rule(
        name=st.sampled_from(NAMES),
        method=st.sampled_from(["layout/reloadData", "layout/configure", "layout/setItemSizes", "layout/appendItems"]),
        data=st.data(),
    )
    def data_change(self, name, method, data):
        params = self.params(method, name, data)
        if method == "layout/setItemSizes" and self.counts[name]:
            for e in params["sizes"]:
                e["item"] %= self.counts[name]
        if method == "layout/appendItems":
            return self.append(name, params, data)
        r = self.exchange(method, params, self.new_id(data))
        if self.model[name] == ("error", 1001):
            assert r["error"]["code"] == 1001, r
        elif method == "layout/setItemSizes" and self.kinds.get(name) == "pager":
            # A pager's pages all have its itemSize: measured sizes are refused.
            assert r.get("error", {}).get("code") == -32602, (params, r)
        elif method != "layout/setItemSizes" or self.counts[name]:
            assert "result" in r or outline_refusal(r), (params, r)

    def append(self, name: str, params: dict, data) -> None:
        """layout/appendItems: on an open session with that section it
        succeeds and the section grows by k items; on a session with no
        sections it is -32602 naming params.section; unknown session: 1001."""
        k, s = appended(params), params["section"]
        if "ids" in params:
            # Fresh ids, or now and then one appended before (which may be
            # the anchor a reload without it remembered).
            known = self.item_ids[name]
            params["ids"] = [
                data.draw(st.sampled_from(known), label="old id") if known and data.draw(st.booleans(), label="reuse")
                else (next(self.fresh_ids) if isinstance(i, int) else f"id{next(self.fresh_ids)}")
                for i in params["ids"]
            ]
        before = self.item_count(name, s) if self.sections[name] else None
        r = self.exchange("layout/appendItems", params, self.new_id(data))
        if self.model[name] == ("error", 1001):
            assert r["error"]["code"] == 1001, r
        elif not self.sections[name]:
            assert r.get("error", {}).get("code") == -32602, (params, r)
            assert r["error"]["data"]["field"] == "params.section", (params, r)
        elif not outline_refusal(r):
            assert "result" in r, (params, r)
            assert self.item_count(name, s) == before + k, (params, before, k)
            if s == 0:
                self.counts[name] = before + k
            self.item_ids[name] += params.get("ids", [])

    # -- rules: invalid traffic --------------------------------------------------

    @rule(method=ANY_METHOD, params=GARBAGE, data=st.data())
    def garbage_request(self, method, params, data):
        self.exchange(method, params, self.new_id(data))

    @rule(name=st.sampled_from(NAMES), method=METHOD, data=st.data())
    def one_field_of_garbage(self, name, method, data):
        params = self.params(method, name, data)
        path = data.draw(st.sampled_from(paths(params)), label="path")
        params = with_garbage(params, path, data.draw(GARBAGE, label="garbage"))
        self.exchange(method, params, self.new_id(data))

    def notified(self, method: str, params: Any) -> None:
        """A layout/* notification is carried out, unanswered: the session
        it names may change (so it is not compared this step)."""
        if method in mutating_methods() and isinstance(params, dict) and isinstance(params.get("session"), str):
            self.touched.add(params["session"])

    @rule(method=ANY_METHOD, params=GARBAGE | st.none())
    def notification(self, method, params):
        # Never answered: the invariant's ping must be the next frame.
        self.d.send(note(method, params))
        self.notified(method, params)

    @rule(name=st.sampled_from(NAMES), method=METHOD, data=st.data())
    def valid_notification(self, name, method, data):
        params = self.params(method, name, data)
        closed = self.model[name] == ("error", 1001)
        self.d.send(note(method, params))
        self.notified(method, params)
        # A valid open of a closed session opens it, unanswered: later
        # valid requests must be of its type.
        if method == "layout/open" and closed:
            self.kinds[name] = params["layout"]["type"]
        elif method == "layout/close":
            self.kinds[name] = None

    @rule(name=st.sampled_from(NAMES), method=METHOD, data=st.data())
    def cancelled_request(self, name, method, data):
        params = data.draw(valid_params(method, name, self.counts[name], self.sections[name]) | GARBAGE, label="params")
        rid = self.new_id(data)
        other = self.new_id(data)  # an id nobody uses: ignored
        self.d.write(
            frame(req(rid, method, params))
            + frame(note("$/cancelRequest", {"id": rid}))
            + frame(note("$/cancelRequest", {"id": other}))
        )
        r = self.d.read()
        assert_same_id(r["id"], rid)
        if "error" in r and r["error"]["code"] == -32800:
            assert r["error"]["message"] == "Request cancelled", r
        self.outcome(method, params, r)

    @rule(data=st.data())
    def batch(self, data):
        members = []
        expected: list[Any] = []  # ids of the responses, in order (None: id null)
        calls: dict[Any, tuple[str, Any]] = {}
        for _ in range(data.draw(st.integers(0, 6), label="size")):
            kind = data.draw(st.sampled_from(["valid", "garbage", "notification", "non-object"]), label="kind")
            name = data.draw(st.sampled_from(NAMES), label="name")
            method = data.draw(NOT_OPEN, label="method")
            if kind == "valid":
                rid = self.new_id(data)
                params = self.params(method, name, data)
                members.append(req(rid, method, params))
                expected.append(rid)
                calls[rid] = (method, params)
            elif kind == "garbage":
                rid = self.new_id(data)
                params = data.draw(GARBAGE, label="params")
                members.append(req(rid, method, params))
                expected.append(rid)
                calls[rid] = (method, params)
            elif kind == "notification":
                params = data.draw(GARBAGE | valid_params(method, name, self.counts[name], self.sections[name]) | st.none(), label="params")
                members.append(note(method, params))
                self.notified(method, params)
            else:
                members.append(data.draw(st.sampled_from([1, "x", None, [], True]), label="member"))
                expected.append(None)
        self.d.write(frame(members))
        if not members:
            r = self.d.read()
            assert r["id"] is None and r["error"]["code"] == -32600, r
            return
        if not expected:
            return  # notifications only: no reply (the ping checks it)
        r = self.d.read()
        assert isinstance(r, list), f"a batch was answered with {r!r}"
        got = [x["id"] for x in r]
        assert len(got) == len(expected), f"{len(got)} responses for {len(expected)} requests: {got} vs {expected}"
        for g, e in zip(got, expected):
            if e is None:
                assert g is None
            else:
                assert_same_id(g, e)
        for x in r:
            if x["id"] is not None:
                self.outcome(*calls[x["id"]], x)

    @rule(junk=st.binary(max_size=40).filter(lambda b: b"}" not in b))
    def unparseable_body(self, junk):
        # `{` without a closing brace is never JSON: one -32700, id null.
        self.d.write(frame(b"{" + junk))
        r = self.d.read()
        assert r["id"] is None and r["error"]["code"] == -32700, r

    # -- after every step ------------------------------------------------------------

    @invariant()
    def answered_exactly_once_and_sessions_intact(self):
        self.steps += 1
        assert self.d.proc.poll() is None, f"daemon exited {self.d.proc.poll()}: {self.d.stderr_text()!r}"
        self.d.ping()
        for name in NAMES:
            state = session_state(self.d, name)
            if name in self.touched:
                self.model[name] = state
                is_open = state != ("error", 1001)
                self.counts[name] = self.item_count(name) if is_open else None
                self.sections[name] = self.section_count(name) if is_open else None
                if not is_open:
                    self.item_ids[name] = []
            else:
                assert state == self.model[name], f"session {name} changed without a successful request"
        self.touched.clear()


DaemonMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "25")),
    stateful_step_count=30,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    database=None,
    # Shrinking a failing run of a daemon takes minutes; the runs are
    # derandomized, so FUZZ_SHRINK=1 reproduces a failure and shrinks it.
    phases=[Phase.explicit, Phase.reuse, Phase.generate]
    + ([Phase.shrink] if os.environ.get("FUZZ_SHRINK") else []),
)

TestStatefulFuzz = DaemonMachine.TestCase


def test_every_method_in_the_table_has_a_fuzz_rule():
    """The fuzz sends every method of the daemon's table, each with params
    of its own (VALID_PARAMS): a method added to the daemon without one
    fails here, named."""
    table = set(method_table())
    missing = sorted(table - set(VALID_PARAMS))
    assert not missing, (
        f"the daemon's methodTable has {', '.join(missing)}, which the stateful fuzz has no rule for: "
        "add a @valid(...) params builder for it in test_stateful_fuzz.py (and a rule that checks its answer)"
    )
    stale = sorted(set(VALID_PARAMS) - table)
    assert not stale, f"the stateful fuzz has rules for {', '.join(stale)}, which the daemon's methodTable does not list"
