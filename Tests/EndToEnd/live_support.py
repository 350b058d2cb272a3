"""Client-side bookkeeping for live sessions (test_batch_updates.py,
test_live_sessions.py, test_delta_property.py).

`Live` keeps the client's picture of one session the way protocol.md's
"Live sessions" describes it: a dict keyed by (kind, section, item) holding
the attributes the client was last told. Every mutating answer is applied to
it (removed first, then invalidated) and checked:

  (a) the picture then equals layout/attributesInRect of the visible rect
      (the answer's bounds grown by the overscan along the scroll axis),
      exactly, as JSON values;
  (b) no element of `invalidated` equals what the picture already held for
      its key (an unchanged element is never sent twice);
  (c) every removed key was in the picture, no key is both removed and
      invalidated, and no key appears twice in either list.
"""

from __future__ import annotations

import copy
from typing import Any, Optional

Key = tuple  # (kind, section, item)


def key(a: dict) -> Key:
    """(kind, section, item), and a list separator's edge after them, or a
    looping layout's lap."""
    if a.get("edge"):
        return (a["kind"], a["section"], a["item"], a["edge"])  # type: ignore[return-value]
    if "lap" in a:
        return (a["kind"], a["section"], a["item"], a["lap"])  # type: ignore[return-value]
    return (a["kind"], a["section"], a["item"])


def el(kind: str, section: int, item: int, x: float, y: float, w: float, h: float, alpha: float = 1, z: int = 0) -> dict:
    """Untransformed attributes with frame (x, y, w, h)."""
    return {
        "kind": kind,
        "section": section,
        "item": item,
        "center": {"x": x + w / 2, "y": y + h / 2},
        "size": {"width": w, "height": h},
        "frame": {"x": x, "y": y, "width": w, "height": h},
        "alpha": alpha,
        "zIndex": z,
    }


def cell(section: int, item: int, x: float, y: float, w: float, h: float) -> dict:
    return el("cell", section, item, x, y, w, h)


def rect(x: float, y: float, w: float, h: float) -> dict:
    return {"x": x, "y": y, "width": w, "height": h}


def keys_of(attrs: list) -> list:
    return [key(a) for a in attrs]


def visible_rect(bounds: dict, overscan: float, direction: str) -> dict:
    r = dict(bounds)
    if direction == "vertical":
        r["y"] = bounds["y"] - overscan
        r["height"] = bounds["height"] + 2 * overscan
    else:
        r["x"] = bounds["x"] - overscan
        r["width"] = bounds["width"] + 2 * overscan
    return r


def overlaps(f: dict, r: dict) -> bool:
    """Positive-area overlap, as protocol.md defines "reported for a rect"."""
    return (
        f["x"] < r["x"] + r["width"]
        and r["x"] < f["x"] + f["width"]
        and f["y"] < r["y"] + r["height"]
        and r["y"] < f["y"] + f["height"]
    )


MUTATION_FIELDS = {"contentSize", "bounds", "invalidated", "removed", "centeredItem"}
BATCH_FIELDS = MUTATION_FIELDS | {"appearing", "disappearing", "moved"}


class Live:
    """One open session and the client's picture of it."""

    def __init__(self, d: Any, params: dict) -> None:
        self.d = d
        self.session = params["session"]
        layout = params["layout"]
        self.type = layout["type"]
        default_dir = "horizontal" if layout["type"] == "coverFlow" else "vertical"
        self.direction = layout.get("scrollDirection", default_dir)
        self.overscan = params.get("overscan", 0)
        self.opened = d.call("layout/open", params)
        self.bounds = self.opened["bounds"]
        self.content_size = self.opened["contentSize"]
        self.centered = self.opened["centeredItem"]
        self.picture: dict = {}
        for a in self.opened["attributes"]:
            assert key(a) not in self.picture, f"open reported {key(a)} twice"
            self.picture[key(a)] = a
        self.check_picture()

    # -- queries -------------------------------------------------------------

    def in_rect(self, r: dict) -> list:
        return self.d.call("layout/attributesInRect", {"session": self.session, "rect": r})["attributes"]

    def whole(self) -> list:
        """Every element of the content, decorated for the current bounds."""
        cs = self.d.call("layout/contentSize", {"session": self.session})["contentSize"]
        b = self.bounds
        x0 = min(0.0, b["x"]) - 1000
        y0 = min(0.0, b["y"]) - 1000
        x1 = max(cs["width"], b["x"] + b["width"]) + 1000
        y1 = max(cs["height"], b["y"] + b["height"]) + 1000
        return self.in_rect(rect(x0, y0, x1 - x0, y1 - y0))

    def item(self, section: int, item: int) -> dict:
        return self.d.call(
            "layout/attributesForItem", {"session": self.session, "section": section, "item": item}
        )["attributes"]

    def snapshot(self) -> tuple:
        """Everything observable without mutating: contentSize and all
        attributes of the content."""
        return (self.d.call("layout/contentSize", {"session": self.session}), self.whole())

    def visible(self) -> dict:
        return visible_rect(self.bounds, self.overscan, self.direction)

    def check_picture(self) -> None:
        """(a): the picture equals attributesInRect of the visible rect."""
        got = self.in_rect(self.visible())
        expected = {}
        for a in got:
            assert key(a) not in expected, f"attributesInRect reported {key(a)} twice"
            expected[key(a)] = a
        if expected != self.picture:
            missing = sorted(set(expected) - set(self.picture))
            extra = sorted(set(self.picture) - set(expected))
            differ = sorted(k for k in set(expected) & set(self.picture) if expected[k] != self.picture[k])
            raise AssertionError(
                f"picture != attributesInRect(visible rect {self.visible()}):\n"
                f"  missing from picture: {missing}\n  stale in picture: {extra}\n  different: "
                + "; ".join(f"{k}: picture {self.picture[k]} vs now {expected[k]}" for k in differ[:5])
            )

    # -- mutations -------------------------------------------------------------

    def apply(self, result: dict, fields: set = MUTATION_FIELDS) -> dict:
        """Applies a mutating answer to the picture with checks (b), (c), then (a)."""
        assert set(result) == fields, f"answer fields {sorted(result)} != {sorted(fields)}"
        removed = result["removed"]
        invalidated = result["invalidated"]
        rkeys = [key(r) for r in removed]
        ikeys = [key(a) for a in invalidated]
        for r in removed:
            # `id` exactly when the element is an item that has one.
            assert set(r) - {"id", "edge", "lap"} == {"kind", "section", "item"}, f"removed entry {r}"
            if "id" in r:
                assert r["kind"] == "cell" and self.picture.get(key(r), {}).get("id") == r["id"], r
        assert len(set(rkeys)) == len(rkeys), f"a key removed twice: {rkeys}"
        assert len(set(ikeys)) == len(ikeys), f"a key invalidated twice: {ikeys}"
        assert not set(rkeys) & set(ikeys), f"keys both removed and invalidated: {set(rkeys) & set(ikeys)}"
        for k in rkeys:
            assert k in self.picture, f"removed {k}, which was not in the picture {sorted(self.picture)}"
        for a in invalidated:
            assert self.picture.get(key(a)) != a, f"sent again unchanged: {a}"
        for k in rkeys:
            del self.picture[k]
        for a in invalidated:
            self.picture[key(a)] = a
        self.bounds = result["bounds"]
        self.content_size = result["contentSize"]
        self.centered = result["centeredItem"]
        self.check_picture()
        return result

    def mutate(self, method: str, params: dict) -> dict:
        fields = BATCH_FIELDS if method == "layout/performBatchUpdates" else MUTATION_FIELDS
        p = {"session": self.session, **params}
        result = self.d.call(method, p)
        return self.apply(result, fields)

    def set_bounds(self, bounds: dict) -> dict:
        return self.mutate("layout/setBounds", {"bounds": bounds})

    def batch(self, updates: dict) -> dict:
        return self.mutate("layout/performBatchUpdates", {"updates": updates})

    def configure(self, **params: Any) -> dict:
        # The visible rect after the answer uses the new overscan and
        # scroll direction.
        if "overscan" in params:
            self.overscan = params["overscan"]
        if "layout" in params:
            lay = params["layout"]
            if lay.get("type", self.type) != self.type:
                # A different type starts from that type's defaults.
                self.type = lay["type"]
                self.direction = "horizontal" if self.type == "coverFlow" else "vertical"
            if "scrollDirection" in lay:
                self.direction = lay["scrollDirection"]
        return self.mutate("layout/configure", params)

    def reload(self, sections: list) -> dict:
        return self.mutate("layout/reloadData", {"sections": sections})

    def set_item_sizes(self, sizes: list) -> dict:
        return self.mutate("layout/setItemSizes", {"sizes": sizes})

    def expect_unchanged_after(self, method: str, params: dict, code: int) -> dict:
        """Sends a request that must fail with `code`, and checks that the
        session is exactly as before: same content size, same attributes
        everywhere, and a setBounds to the same bounds changes nothing."""
        before = self.snapshot()
        bounds = copy.deepcopy(self.bounds)
        err = self.d.error(method, {"session": self.session, **params}, code=code)
        assert self.snapshot() == before, f"{method} failed with {err} but changed the session"
        r = self.set_bounds(bounds)
        assert r["bounds"] == bounds, r
        assert r["invalidated"] == [] and r["removed"] == [], f"the picture changed: {r}"
        return err


def main_axis(direction: str) -> str:
    return "y" if direction == "vertical" else "x"


def extent_key(direction: str) -> str:
    return "height" if direction == "vertical" else "width"


def offset_range(content_size: dict, bounds: dict, direction: str) -> tuple:
    """The valid scroll-axis offsets with no contentInset (ltr)."""
    hi = content_size[extent_key(direction)] - bounds[extent_key(direction)]
    return (0.0, max(0.0, hi))


def clamp(v: float, lo: float, hi: float) -> float:
    return min(max(v, lo), hi)


def first_visible_cell(picture: dict, bounds: dict) -> Optional[tuple]:
    """The flow anchor: the first cell (in index-path order) whose frame
    overlaps the bounds with positive area."""
    cells = [(k[1], k[2]) for k, a in picture.items() if k[0] == "cell" and overlaps(a["frame"], bounds)]
    return min(cells) if cells else None
