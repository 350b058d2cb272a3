"""Value types for the daemon's results, and conversions of inputs to JSON.

Results are small frozen dataclasses so they can be compared, hashed and
kept in sets. Inputs may be these dataclasses, plain dicts in the wire
shape, or (x, y[, width, height]) tuples: a dict is sent as it is, so the
daemon, which names the offending field, stays the one validator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

__all__ = [
    "Point",
    "Size",
    "Rect",
    "Insets",
    "IndexPath",
    "ElementKey",
    "Attributes",
    "MovedElement",
    "OpenResult",
    "MutationResult",
    "BoundsResult",
    "BatchResult",
    "SnapPlan",
    "SnapResult",
    "MovementBegan",
    "SHAPE_CLASSES",
    "SwipeBegan",
    "SwipeUpdate",
    "SwipeEnd",
    "SwipeClosed",
    "OutlineNode",
    "OutlineChangeResult",
    "OutlineResult",
    "JSONDict",
    "PointLike",
    "SizeLike",
    "RectLike",
    "InsetsLike",
    "IndexPathLike",
    "point_json",
    "size_json",
    "rect_json",
    "insets_json",
    "index_path_json",
    "updates_json",
    "item_sizes_json",
]

JSON = Mapping[str, Any]
#: A JSON object as sent on the wire.
JSONDict = Dict[str, Any]


@dataclass(frozen=True)
class Point:
    x: float
    y: float

    @classmethod
    def from_json(cls, d: JSON) -> "Point":
        return cls(float(d["x"]), float(d["y"]))

    def to_json(self) -> JSONDict:
        return {"x": self.x, "y": self.y}


@dataclass(frozen=True)
class Size:
    width: float
    height: float

    @classmethod
    def from_json(cls, d: JSON) -> "Size":
        return cls(float(d["width"]), float(d["height"]))

    def to_json(self) -> JSONDict:
        return {"width": self.width, "height": self.height}


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @classmethod
    def from_json(cls, d: JSON) -> "Rect":
        return cls(float(d["x"]), float(d["y"]), float(d["width"]), float(d["height"]))

    def to_json(self) -> JSONDict:
        return {"x": self.x, "y": self.y, "width": self.width, "height": self.height}

    @property
    def origin(self) -> Point:
        return Point(self.x, self.y)

    @property
    def size(self) -> Size:
        return Size(self.width, self.height)

    @property
    def max_x(self) -> float:
        return self.x + self.width

    @property
    def max_y(self) -> float:
        return self.y + self.height

    @property
    def center(self) -> Point:
        return Point(self.x + self.width / 2, self.y + self.height / 2)

    def with_origin(self, x: float, y: float) -> "Rect":
        """The same size moved to (x, y): a scroll step."""
        return Rect(x, y, self.width, self.height)


@dataclass(frozen=True)
class Insets:
    top: float
    left: float
    bottom: float
    right: float

    def to_json(self) -> JSONDict:
        return {"top": self.top, "left": self.left, "bottom": self.bottom, "right": self.right}


@dataclass(frozen=True, order=True)
class IndexPath:
    """An item's index path, and in a looping layout (a cover flow's loop,
    a wrapping carousel or pager) the lap of the copy the daemon named
    (``centeredItem``, ``targetItem``, ``itemAtPoint``). The lap is
    carried, not compared: ``IndexPath(0, 3, lap=2) == IndexPath(0, 3)``,
    and ``p.lap`` says which copy: 0 when the daemon names none, as
    ``Attributes.lap`` and ``ElementKey.lap`` are (the protocol's ItemRef,
    whose ``lap`` is absent outside a loop). Likewise ``id``: the item's
    id, when the daemon named one (items given ids)."""

    section: int
    item: int
    lap: int = field(default=0, compare=False)
    id: Optional[Union[int, str]] = field(default=None, compare=False)

    @classmethod
    def from_json(cls, d: Optional[JSON]) -> Optional["IndexPath"]:
        """``{section, item, lap?, id?}`` or null (no item)."""
        if d is None:
            return None
        return cls(int(d["section"]), int(d["item"]), _lap(d), d.get("id"))

    def to_json(self) -> JSONDict:
        out: JSONDict = {"section": self.section, "item": self.item}
        if self.lap:
            out["lap"] = self.lap
        return out


_KIND_ORDER = {"decoration": -1, "header": 0, "cell": 1, "separator": 1, "footer": 2}
#: Within a list row: its top separator, its cell, its bottom separator.
_EDGE_ORDER = {"top": 0, None: 1, "bottom": 2}


def _lap(d: JSON) -> int:
    """A key's ``lap`` (loop mode: which copy of the data the element
    belongs to), 0 when absent or null."""
    lap = d.get("lap")
    return 0 if lap is None else int(lap)


class ElementKey(Tuple[Any, ...]):
    """An element's identity: ``(kind, section, item)``, with ``item`` 0
    for headers and footers, a ``lap`` for looping carousels, where the
    same item is drawn once per lap, and a list separator's ``edge``
    (``"top"`` or ``"bottom"``).

    It is a plain tuple, so ``("cell", 0, 3)`` works as a key too: without
    a lap (None or 0, the only lap outside loop mode) it is exactly the
    3-tuple ``(kind, section, item)`` and equals and hashes like it; with
    another lap it is the 4-tuple ``(kind, section, item, lap)``; a
    separator's is the 5-tuple ``("separator", section, item, lap, edge)``.
    """

    __slots__ = ()
    _fields = ("kind", "section", "item", "lap", "edge")

    def __new__(
        cls, kind: str, section: int, item: int, lap: Optional[int] = None, edge: Optional[str] = None
    ) -> "ElementKey":
        if edge:
            return tuple.__new__(cls, (kind, section, item, lap or 0, edge))
        if lap:
            return tuple.__new__(cls, (kind, section, item, lap))
        return tuple.__new__(cls, (kind, section, item))

    def __getnewargs__(self) -> Tuple[Any, ...]:  # copy and pickle
        return tuple(self)

    @property
    def kind(self) -> str:
        return str(self[0])

    @property
    def section(self) -> int:
        return int(self[1])

    @property
    def item(self) -> int:
        return int(self[2])

    @property
    def lap(self) -> int:
        """0 outside loop mode."""
        return int(self[3]) if len(self) > 3 else 0

    @property
    def edge(self) -> Optional[str]:
        """A separator's edge; None for other elements."""
        return str(self[4]) if len(self) > 4 else None

    def __repr__(self) -> str:
        lap = f", lap={self.lap}" if self.lap else ""
        edge = f", edge={self.edge!r}" if self.edge else ""
        return f"ElementKey(kind={self.kind!r}, section={self.section}, item={self.item}{lap}{edge})"

    @classmethod
    def from_json(cls, d: JSON) -> "ElementKey":
        """``{kind, edge?, section, item, lap?}``, as in ``removed``."""
        return cls(str(d["kind"]), int(d["section"]), int(d["item"]), _lap(d), d.get("edge"))

    def to_json(self) -> JSONDict:
        out: JSONDict = {"kind": self.kind, "section": self.section, "item": self.item}
        if self.edge:
            out["edge"] = self.edge
        if self.lap:
            out["lap"] = self.lap
        return out

    def document_order(self) -> Tuple[int, int, int, int, int]:
        """The daemon's order: by lap, section, then background, header,
        rows, footer, then item, then within a list row its top separator,
        its cell, its bottom separator."""
        return (self.lap, self.section, _KIND_ORDER.get(self.kind, 3), self.item, _EDGE_ORDER.get(self.edge, 1))


@dataclass(frozen=True)
class Attributes:
    """UICollectionViewLayoutAttributes. ``size`` is the untransformed size
    and ``frame`` the bounding box after ``transform`` (16 CATransform3D
    fields m11…m44, or None for the identity, which the daemon omits).
    ``lap`` is 0 except in looping carousels."""

    kind: str
    section: int
    item: int
    center: Point
    size: Size
    frame: Rect
    transform: Optional[Tuple[float, ...]]
    alpha: float
    z_index: int
    lap: int = 0
    #: A carousel card facing away or reaching the eye; only
    #: ``attributes_for_item`` answers hidden cards.
    hidden: bool = False
    #: A decoration's kind (``"background"``); None for other elements.
    element_kind: Optional[str] = None
    #: The item's id, when it has one (``ids``, snapshots); None otherwise.
    id: Optional[Union[int, str]] = None
    #: The item an interactive movement drags (it follows the finger).
    moving: bool = False
    #: A list separator's edge (``"top"`` or ``"bottom"``); None otherwise.
    edge: Optional[str] = None
    #: A list background's corner radius; None otherwise.
    corner_radius: Optional[float] = None
    #: The rounded corners of a grouped list's cell (``topLeading``, …);
    #: None where the layout rounds none.
    corner_mask: Optional[Tuple[str, ...]] = None
    #: An outline row's depth (0 for roots); None outside outlines.
    level: Optional[int] = None
    #: An outline row's parent's id; None for roots and flat items.
    parent: Optional[Union[int, str]] = None
    #: Whether an outline row with children is expanded; None otherwise.
    expanded: Optional[bool] = None
    #: A list outline row's content indentation (level × indentationWidth).
    indentation: Optional[float] = None

    @classmethod
    def from_json(cls, d: JSON) -> "Attributes":
        t = d.get("transform")
        return cls(
            kind=str(d["kind"]),
            section=int(d["section"]),
            item=int(d["item"]),
            center=Point.from_json(d["center"]),
            size=Size.from_json(d["size"]),
            frame=Rect.from_json(d["frame"]),
            transform=None if t is None else tuple(float(v) for v in t),
            alpha=float(d["alpha"]),
            z_index=int(d["zIndex"]),
            lap=_lap(d),
            hidden=bool(d.get("hidden", False)),
            element_kind=d.get("elementKind"),
            id=d.get("id"),
            moving=bool(d.get("moving", False)),
            edge=d.get("edge"),
            corner_radius=None if d.get("cornerRadius") is None else float(d["cornerRadius"]),
            corner_mask=None if d.get("cornerMask") is None else tuple(d["cornerMask"]),
            level=d.get("level"),
            parent=d.get("parent"),
            expanded=d.get("expanded"),
            indentation=None if d.get("indentation") is None else float(d["indentation"]),
        )

    @property
    def key(self) -> ElementKey:
        return ElementKey(self.kind, self.section, self.item, self.lap, self.edge)

    @property
    def index_path(self) -> IndexPath:
        return IndexPath(self.section, self.item)

    @property
    def scale(self) -> float:
        """m11 as it stands: the horizontal scale as drawn, so under a
        tilt (a rotation about the vertical axis) it includes the tilt's
        foreshortening (cos of the angle). The card's own scale is
        ``scale_x`` and ``scale_y``; 1 for the identity."""
        return 1.0 if self.transform is None else self.transform[0]

    @property
    def scale_x(self) -> float:
        """The scale of the element's own x axis, whatever rotates it:
        the length of the transform's first row (m11, m12, m13); 1 for the
        identity."""
        t = self.transform
        return 1.0 if t is None else math.hypot(t[0], t[1], t[2])

    @property
    def scale_y(self) -> float:
        """The scale of the element's own y axis: the length of the second
        row (m21, m22, m23); 1 for the identity."""
        t = self.transform
        return 1.0 if t is None else math.hypot(t[4], t[5], t[6])

    @property
    def is_affine(self) -> bool:
        """True when the transform maps the element's plane without a
        perspective divide (m14 = m24 = 0, m44 = 1): a 2D affine map,
        ``matrix(m11 m12 m21 m22 m41 m42)`` about the centre."""
        t = self.transform
        return t is None or (t[3] == 0 and t[7] == 0 and t[15] == 1)

    def project(self, dx: float, dy: float) -> Point:
        """Where the point (dx, dy) from the element's centre, in its
        untransformed plane, is drawn in content coordinates: the
        transform in CATransform3D's row-vector order, then the
        perspective divide (x/w, y/w with w = dx·m14 + dy·m24 + m44)."""
        t = self.transform
        if t is None:
            return Point(self.center.x + dx, self.center.y + dy)
        x = dx * t[0] + dy * t[4] + t[12]
        y = dx * t[1] + dy * t[5] + t[13]
        w = dx * t[3] + dy * t[7] + t[15]
        return Point(self.center.x + x / w, self.center.y + y / w)

    def corners(self) -> Tuple[Point, Point, Point, Point]:
        """The four corners as drawn (top-left, top-right, bottom-right,
        bottom-left of the untransformed element), in content coordinates.
        Their bounding box is ``frame``."""
        hw, hh = self.size.width / 2, self.size.height / 2
        return (
            self.project(-hw, -hh),
            self.project(hw, -hh),
            self.project(hw, hh),
            self.project(-hw, hh),
        )


def _attributes_list(items: Iterable[JSON]) -> Tuple[Attributes, ...]:
    return tuple(Attributes.from_json(a) for a in items)


@dataclass(frozen=True)
class OpenResult:
    """``layout/open``: the content size, the bounds and the elements
    visible in them (the session's first picture), and the centred item."""

    content_size: Size
    bounds: Rect
    attributes: Tuple[Attributes, ...]
    centered_item: Optional[IndexPath] = None

    @classmethod
    def from_json(cls, d: JSON) -> "OpenResult":
        return cls(
            Size.from_json(d["contentSize"]),
            Rect.from_json(d["bounds"]),
            _attributes_list(d["attributes"]),
            IndexPath.from_json(d.get("centeredItem")),
        )


@dataclass(frozen=True)
class MutationResult:
    """The answer of every method that changes a session (``setBounds``,
    ``performBatchUpdates``, ``reloadData``, ``configure``,
    ``setItemSizes``, ``appendItems``): a delta of the picture. ``invalidated`` holds every
    element that became visible or changed (fresh attributes), ``removed``
    the keys of those no longer visible or gone. ``bounds`` is what the
    client adopts (a relayout may have anchored it)."""

    content_size: Size
    bounds: Rect
    invalidated: Tuple[Attributes, ...]
    removed: Tuple[ElementKey, ...]
    centered_item: Optional[IndexPath]
    #: True when the change cancelled an interactive movement first.
    movement_cancelled: bool = False
    #: The row whose open swipe the change closed (it deleted, moved or
    #: reloaded it), by its path before the change; None otherwise.
    closed_swipe: Optional[IndexPath] = None

    @classmethod
    def from_json(cls, d: JSON) -> "MutationResult":
        return cls(*_mutation_fields(d))


#: ``layout/setBounds``'s answer (the name this package first used).
BoundsResult = MutationResult


@dataclass(frozen=True)
class RowScrollResult(MutationResult):
    """``layout/scrollSection``'s answer: the delta, and the row's offset
    as the daemon clamped it to the row's range."""

    offset: float = 0.0

    @classmethod
    def from_json(cls, d: JSON) -> "RowScrollResult":
        return cls(*_mutation_fields(d), offset=float(d["offset"]))


def _mutation_fields(d: JSON) -> Tuple[Any, ...]:
    return (
        Size.from_json(d["contentSize"]),
        Rect.from_json(d["bounds"]),
        _attributes_list(d["invalidated"]),
        tuple(ElementKey.from_json(k) for k in d["removed"]),
        IndexPath.from_json(d.get("centeredItem")),
        bool(d.get("movementCancelled", False)),
        IndexPath.from_json(d.get("closedSwipe")),
    )


@dataclass(frozen=True)
class MovedElement:
    """One entry of ``performBatchUpdates``' ``moved``: a surviving element
    whose frame changed, now at ``(section, item)``, before at ``from_path``
    (``from`` on the wire) and ``from_frame``."""

    kind: str
    section: int
    item: int
    from_path: IndexPath
    from_frame: Rect
    frame: Rect
    lap: int = 0
    #: The item's id, when it has one.
    id: Optional[Union[int, str]] = None
    #: A list separator's edge; None for other elements.
    edge: Optional[str] = None

    @classmethod
    def from_json(cls, d: JSON) -> "MovedElement":
        source = IndexPath.from_json(d["from"])
        assert source is not None, "moved[].from is never null"
        return cls(
            kind=str(d["kind"]),
            section=int(d["section"]),
            item=int(d["item"]),
            from_path=source,
            from_frame=Rect.from_json(d["fromFrame"]),
            frame=Rect.from_json(d["frame"]),
            lap=_lap(d),
            id=d.get("id"),
            edge=d.get("edge"),
        )

    @property
    def key(self) -> ElementKey:
        return ElementKey(self.kind, self.section, self.item, self.lap, self.edge)

    @property
    def index_path(self) -> IndexPath:
        return IndexPath(self.section, self.item)


@dataclass(frozen=True)
class BatchResult(MutationResult):
    """``layout/performBatchUpdates``: the mutation fields, plus what to
    animate as UICollectionView does. ``appearing``: each inserted element
    visible after the update, at its final frame with alpha 0 (fade it in
    to its ``invalidated`` attributes); ``disappearing``: each deleted
    element that was in the picture, at its old frame with alpha 0 (fade it
    out); ``moved``: each surviving element whose frame changed."""

    appearing: Tuple[Attributes, ...] = ()
    disappearing: Tuple[Attributes, ...] = ()
    moved: Tuple[MovedElement, ...] = ()

    @classmethod
    def from_json(cls, d: JSON) -> "BatchResult":
        return cls(
            *_mutation_fields(d),
            appearing=_attributes_list(d["appearing"]),
            disappearing=_attributes_list(d["disappearing"]),
            moved=tuple(MovedElement.from_json(m) for m in d["moved"]),
        )


@dataclass(frozen=True)
class SnapshotResult(BatchResult):
    """``layout/applySnapshot``: what ``performBatchUpdates`` answers, plus
    ``updates``, the batch the daemon computed (wire JSON, replayable with
    :meth:`Client.perform_batch_updates`), or None for a first apply to a
    session without ids (a reload)."""

    updates: Optional[JSONDict] = None

    @classmethod
    def from_json(cls, d: JSON) -> "SnapshotResult":
        # A first apply answers as reloadData does: no animation lists.
        return cls(
            *_mutation_fields(d),
            appearing=_attributes_list(d.get("appearing", [])),
            disappearing=_attributes_list(d.get("disappearing", [])),
            moved=tuple(MovedElement.from_json(m) for m in d.get("moved", [])),
            updates=d.get("updates"),
        )


@dataclass(frozen=True)
class OutlineChangeResult(BatchResult):
    """``layout/expand`` and ``layout/collapse``: what
    ``performBatchUpdates`` answers, plus ``updates``, the rows inserted or
    deleted (wire JSON, replayable on a flat twin with
    :meth:`Client.perform_batch_updates`)."""

    updates: JSONDict = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: JSON) -> "OutlineChangeResult":
        return cls(
            *_mutation_fields(d),
            appearing=_attributes_list(d["appearing"]),
            disappearing=_attributes_list(d["disappearing"]),
            moved=tuple(MovedElement.from_json(m) for m in d["moved"]),
            updates=dict(d["updates"]),
        )


@dataclass(frozen=True)
class OutlineNode:
    """One node of an outline section: its id, its own size (None when it
    has none), whether it is expanded, and its children."""

    id: Union[int, str]
    expanded: bool = False
    children: Tuple["OutlineNode", ...] = ()
    size: Optional[Size] = None

    @classmethod
    def from_json(cls, d: JSON) -> "OutlineNode":
        return cls(
            id=d["id"],
            expanded=bool(d["expanded"]),
            children=tuple(OutlineNode.from_json(c) for c in d["children"]),
            size=None if d.get("size") is None else Size.from_json(d["size"]),
        )


@dataclass(frozen=True)
class OutlineResult:
    """``layout/outline``: the section's whole tree, every node with its
    flag (empty for a flat section)."""

    outline: Tuple[OutlineNode, ...]

    @classmethod
    def from_json(cls, d: JSON) -> "OutlineResult":
        return cls(tuple(OutlineNode.from_json(n) for n in d["outline"]))


@dataclass(frozen=True)
class MovementUpdate(MutationResult):
    """``layout/updateInteractiveMovement``: the delta of the picture
    (others laid out as if the item sat at ``target``; the moving item at
    the position, ``moving``), the target (an index path of the data after
    the move) and ``autoscroll``, the velocity in points per ms at which to
    scroll while the finger rests near an edge."""

    target: Optional[IndexPath] = None
    autoscroll: Point = Point(0, 0)

    @classmethod
    def from_json(cls, d: JSON) -> "MovementUpdate":
        return cls(
            *_mutation_fields(d),
            target=IndexPath.from_json(d["target"]),
            autoscroll=Point.from_json(d["autoscroll"]),
        )


@dataclass(frozen=True)
class MovementEnd(BatchResult):
    """``layout/endInteractiveMovement``: what ``performBatchUpdates`` with
    the one move answers, plus ``updates``, that batch (``{}`` for a drop
    where it started)."""

    updates: JSONDict = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: JSON) -> "MovementEnd":
        return cls(
            *_mutation_fields(d),
            appearing=_attributes_list(d["appearing"]),
            disappearing=_attributes_list(d["disappearing"]),
            moved=tuple(MovedElement.from_json(m) for m in d["moved"]),
            updates=dict(d["updates"]),
        )


@dataclass(frozen=True)
class MovementBegan:
    """``layout/beginInteractiveMovement``'s answer, ``{began}``: whether the
    drag began (False when another movement is in progress or the item's
    section has ``allowsReordering: false``). True as a bool when it began."""

    began: bool

    def __bool__(self) -> bool:
        return self.began

    @classmethod
    def from_json(cls, d: JSON) -> "MovementBegan":
        return cls(bool(d["began"]))


@dataclass(frozen=True)
class SwipeBegan:
    """``layout/beginSwipe``'s answer: ``began`` (always True) and the row
    whose open swipe it closed, if another was open."""

    began: bool
    closed_swipe: Optional[IndexPath] = None

    @classmethod
    def from_json(cls, d: JSON) -> "SwipeBegan":
        return cls(bool(d["began"]), IndexPath.from_json(d.get("closedSwipe")))


@dataclass(frozen=True)
class SwipeUpdate:
    """``layout/updateSwipe``'s answer: the translation kept (clamped to
    the row's width, signed like a pan's x) and the action buttons'
    frames in content coordinates, in the order of ``actions``, the first
    at the row's edge."""

    translation: float
    actions: Tuple[Rect, ...]

    @classmethod
    def from_json(cls, d: JSON) -> "SwipeUpdate":
        return cls(float(d["translation"]), tuple(Rect.from_json(r) for r in d["actions"]))


@dataclass(frozen=True)
class SwipeEnd:
    """``layout/endSwipe``'s answer: ``state`` (``"performed"``, ``"open"``
    or ``"closed"``) and the translation the row rests at."""

    state: str
    translation: float

    @classmethod
    def from_json(cls, d: JSON) -> "SwipeEnd":
        return cls(str(d["state"]), float(d["translation"]))


@dataclass(frozen=True)
class SwipeClosed:
    """``layout/closeSwipe``'s answer: ``state`` is ``"closed"``."""

    state: str

    @classmethod
    def from_json(cls, d: JSON) -> "SwipeClosed":
        return cls(str(d["state"]))


@dataclass(frozen=True)
class SnapPlan:
    """``layout/scrollEnded``: where the scroll view comes to rest and how
    it gets there. ``projected_content_offset`` is where deceleration alone
    would stop (or the proposed offset sent), ``policy`` the snap policy
    that chose ``target_item`` (``"free"`` for flow), and ``trajectory``
    the offsets every frame interval from the release (the first is the
    release offset, the last the target, at ``duration_ms``)."""

    target_content_offset: Point
    target_item: Optional[IndexPath]
    projected_content_offset: Point
    policy: str
    duration_ms: float
    trajectory: Tuple[Point, ...]

    @classmethod
    def from_json(cls, d: JSON) -> "SnapPlan":
        return cls(
            target_content_offset=Point.from_json(d["targetContentOffset"]),
            target_item=IndexPath.from_json(d.get("targetItem")),
            projected_content_offset=Point.from_json(d["projectedContentOffset"]),
            policy=str(d["policy"]),
            duration_ms=float(d["durationMs"]),
            trajectory=tuple(Point.from_json(p) for p in d["trajectory"]),
        )

    @property
    def frame_interval_ms(self) -> float:
        """The time between samples (0 when the plan is one sample)."""
        n = len(self.trajectory) - 1
        return self.duration_ms / n if n > 0 else 0.0

    def sample_times_ms(self) -> List[float]:
        """When each trajectory sample is reached, from the release."""
        f = self.frame_interval_ms
        return [i * f for i in range(len(self.trajectory))]


#: ``layout/scrollEnded``'s answer (the name this package first used).
SnapResult = SnapPlan


PointLike = Union[Point, Mapping[str, Any], Sequence[float]]
SizeLike = Union[Size, Mapping[str, Any], Sequence[float]]
RectLike = Union[Rect, Mapping[str, Any], Sequence[float]]
InsetsLike = Union[Insets, Mapping[str, Any], Sequence[float]]
IndexPathLike = Union[IndexPath, Mapping[str, Any], Sequence[int]]


def _convert(value: Any, cls: type, names: Tuple[str, ...]) -> JSONDict:
    if isinstance(value, cls):
        return {n: getattr(value, n) for n in names}
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        if len(value) != len(names):
            wanted = ", ".join(names)
            raise ValueError(f"expected {len(names)} numbers ({wanted}), got {len(value)}")
        return dict(zip(names, value))
    raise TypeError(f"expected {cls.__name__}, a dict or a sequence, got {type(value).__name__}")


def point_json(value: PointLike) -> JSONDict:
    """A Point, ``{"x", "y"}`` dict or ``(x, y)`` as wire JSON."""
    return _convert(value, Point, ("x", "y"))


def rect_json(value: RectLike) -> JSONDict:
    """A Rect, ``{"x", "y", "width", "height"}`` dict or 4-tuple as wire JSON."""
    return _convert(value, Rect, ("x", "y", "width", "height"))


def insets_json(value: InsetsLike) -> JSONDict:
    """Insets, a dict or ``(top, left, bottom, right)`` as wire JSON."""
    return _convert(value, Insets, ("top", "left", "bottom", "right"))


def size_json(value: SizeLike) -> JSONDict:
    """A Size, ``{"width", "height"}`` dict or ``(width, height)`` as wire JSON."""
    return _convert(value, Size, ("width", "height"))


def index_path_json(value: IndexPathLike) -> JSONDict:
    """An IndexPath, ``{"section", "item"}`` dict or ``(section, item)``."""
    return _convert(value, IndexPath, ("section", "item"))


def _is_pair(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes)) and len(value) == 2


def _path_entry(entry: Any, extra: Tuple[str, ...] = ()) -> Any:
    """An item entry of a batch update: an IndexPath, ``(section, item)``,
    or a dict whose ``size`` may be a Size or a tuple. Anything else is sent
    as it is, for the daemon to name what is wrong with it."""
    if isinstance(entry, IndexPath) or _is_pair(entry):
        return index_path_json(entry)
    if isinstance(entry, Mapping):
        out = dict(entry)
        if "size" in extra and isinstance(out.get("size"), (Size, tuple, list)):
            out["size"] = size_json(out["size"])
        return out
    return entry


def _move_entry(entry: Any) -> Any:
    """``(from, to)`` (IndexPaths or pairs) or ``{from, to}``."""
    if _is_pair(entry) and not isinstance(entry, IndexPath):
        source, dest = entry
        if isinstance(source, (IndexPath, Mapping)) or _is_pair(source):
            return {"from": _path_entry(source), "to": _path_entry(dest)}
    if isinstance(entry, Mapping):
        out = dict(entry)
        for end in ("from", "to"):
            if end in out:
                out[end] = _path_entry(out[end])
        return out
    return entry


def updates_json(updates: Mapping[str, Any]) -> JSONDict:
    """``performBatchUpdates``' ``updates`` as wire JSON. It is the wire
    shape (``deleteItems``, ``insertItems``, ``moveItems``, …); item
    entries may also be IndexPaths or ``(section, item)`` pairs, moves
    ``(from, to)`` pairs, and sizes Size or ``(width, height)``."""
    out = dict(updates)
    for name in ("deleteItems", "insertItems", "reloadItems"):
        entries = out.get(name)
        if isinstance(entries, (list, tuple)):
            out[name] = [_path_entry(e, ("size",)) for e in entries]
    moves = out.get("moveItems")
    if isinstance(moves, (list, tuple)):
        out["moveItems"] = [_move_entry(e) for e in moves]
    for name in ("deleteSections", "insertSections", "moveSections", "itemCounts"):
        entries = out.get(name)
        if isinstance(entries, tuple):
            out[name] = list(entries)
    return out


def item_sizes_json(sizes: Iterable[Any]) -> List[Any]:
    """``setItemSizes``' ``sizes``: ``(section, item, size)`` or
    ``(IndexPath, size)`` tuples, with the size a Size, dict or
    ``(width, height)``, or wire dicts ``{section, item, size}``."""
    out: List[Any] = []
    for entry in sizes:
        if isinstance(entry, Mapping):
            out.append(_path_entry(entry, ("size",)))
        elif isinstance(entry, Sequence) and not isinstance(entry, (str, bytes)) and len(entry) == 3:
            section, item, size = entry
            out.append({"section": section, "item": item, "size": _size_or_raw(size)})
        elif _is_pair(entry) and isinstance(entry[0], IndexPath):
            path, size = entry
            out.append({"section": path.section, "item": path.item, "size": _size_or_raw(size)})
        else:
            out.append(entry)
    return out


def _size_or_raw(size: Any) -> Any:
    if isinstance(size, (Size, Mapping)) or _is_pair(size):
        return size_json(size)
    return size


#: The typed result of each of the daemon's result shapes
#: (flowlayout.shapes, generated from ``capabilities.resultShapes``):
#: test_result_shapes.py checks that each has every field of its shape.
SHAPE_CLASSES: Dict[str, type] = {
    "OpenResult": OpenResult,
    "MutationResult": MutationResult,
    "BatchUpdatesResult": BatchResult,
    "SnapshotResult": SnapshotResult,
    "RowScrollResult": RowScrollResult,
    "MovementBegan": MovementBegan,
    "MovementUpdateResult": MovementUpdate,
    "MovementEndResult": MovementEnd,
    "ScrollPlan": SnapPlan,
    "Attributes": Attributes,
    "ItemRef": IndexPath,
    "MovedElement": MovedElement,
    "SwipeBegan": SwipeBegan,
    "SwipeUpdate": SwipeUpdate,
    "SwipeEnd": SwipeEnd,
    "SwipeClosed": SwipeClosed,
    "OutlineChangeResult": OutlineChangeResult,
    "OutlineResult": OutlineResult,
    "OutlineNode": OutlineNode,
}
