"""Value types for the daemon's results, and conversions of inputs to JSON.

Results are small frozen dataclasses so they can be compared, hashed and
kept in sets. Inputs may be these dataclasses, plain dicts in the wire
shape, or (x, y[, width, height]) tuples: a dict is sent as it is, so the
daemon, which names the offending field, stays the one validator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

__all__ = [
    "Point",
    "Size",
    "Rect",
    "Insets",
    "IndexPath",
    "ElementKey",
    "Attributes",
    "OpenResult",
    "BoundsResult",
    "SnapResult",
    "JSONDict",
    "PointLike",
    "RectLike",
    "InsetsLike",
    "point_json",
    "rect_json",
    "insets_json",
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
    section: int
    item: int

    @classmethod
    def from_json(cls, d: Optional[JSON]) -> Optional["IndexPath"]:
        """``{section, item}`` or null (no item)."""
        if d is None:
            return None
        return cls(int(d["section"]), int(d["item"]))


_KIND_ORDER = {"header": 0, "cell": 1, "footer": 2}


class ElementKey(NamedTuple):
    """An element's identity: a plain (kind, section, item) tuple, so that
    ``("cell", 0, 3)`` works as a key too. ``item`` is 0 for headers and
    footers."""

    kind: str
    section: int
    item: int

    @classmethod
    def from_json(cls, d: JSON) -> "ElementKey":
        return cls(str(d["kind"]), int(d["section"]), int(d["item"]))

    def document_order(self) -> Tuple[int, int, int]:
        """The daemon's order: by section, then header, cells, footer."""
        return (self.section, _KIND_ORDER.get(self.kind, 3), self.item)


@dataclass(frozen=True)
class Attributes:
    """UICollectionViewLayoutAttributes. ``size`` is the untransformed size
    and ``frame`` the bounding box after ``transform`` (16 CATransform3D
    fields m11…m44, or None for the identity, which the daemon omits)."""

    kind: str
    section: int
    item: int
    center: Point
    size: Size
    frame: Rect
    transform: Optional[Tuple[float, ...]]
    alpha: float
    z_index: int

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
        )

    @property
    def key(self) -> ElementKey:
        return ElementKey(self.kind, self.section, self.item)

    @property
    def index_path(self) -> IndexPath:
        return IndexPath(self.section, self.item)

    @property
    def scale(self) -> float:
        """The x scale (m11); 1 for the identity. Cover flow scales
        uniformly, so this is the card's scale."""
        return 1.0 if self.transform is None else self.transform[0]


def _attributes_list(items: Sequence[JSON]) -> Tuple[Attributes, ...]:
    return tuple(Attributes.from_json(a) for a in items)


@dataclass(frozen=True)
class OpenResult:
    """``layout/open``: the content size and the elements visible in the
    opening bounds."""

    content_size: Size
    bounds: Rect
    attributes: Tuple[Attributes, ...]

    @classmethod
    def from_json(cls, d: JSON) -> "OpenResult":
        return cls(
            Size.from_json(d["contentSize"]),
            Rect.from_json(d["bounds"]),
            _attributes_list(d["attributes"]),
        )


@dataclass(frozen=True)
class BoundsResult:
    """``layout/setBounds``: ``invalidated`` holds every element now visible
    (with fresh attributes), ``removed`` those no longer visible."""

    content_size: Size
    bounds: Rect
    invalidated: Tuple[Attributes, ...]
    removed: Tuple[ElementKey, ...]
    centered_item: Optional[IndexPath]

    @classmethod
    def from_json(cls, d: JSON) -> "BoundsResult":
        return cls(
            Size.from_json(d["contentSize"]),
            Rect.from_json(d["bounds"]),
            _attributes_list(d["invalidated"]),
            tuple(ElementKey.from_json(k) for k in d["removed"]),
            IndexPath.from_json(d.get("centeredItem")),
        )


@dataclass(frozen=True)
class SnapResult:
    """``layout/scrollEnded``: where the scroll view should come to rest."""

    target_content_offset: Point
    target_item: Optional[IndexPath]

    @classmethod
    def from_json(cls, d: JSON) -> "SnapResult":
        return cls(
            Point.from_json(d["targetContentOffset"]), IndexPath.from_json(d.get("targetItem"))
        )


PointLike = Union[Point, Mapping[str, Any], Sequence[float]]
RectLike = Union[Rect, Mapping[str, Any], Sequence[float]]
InsetsLike = Union[Insets, Mapping[str, Any], Sequence[float]]


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
