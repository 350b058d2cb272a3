"""The client's copy of what is on screen, kept up to date incrementally.

This is what a UICollectionView does with a layout's answers: it keeps the
visible elements' attributes and patches them from each bounds change
rather than asking for the whole viewport again.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple, Union

from .model import Attributes, BoundsResult, ElementKey, IndexPath, OpenResult, Rect, Size

__all__ = ["Picture"]

KeyLike = Union[ElementKey, Tuple[str, int, int]]


class Picture:
    """Visible elements keyed by ``(kind, section, item)``."""

    def __init__(self) -> None:
        self._elements: Dict[ElementKey, Attributes] = {}
        self.content_size: Optional[Size] = None
        self.bounds: Optional[Rect] = None
        self.centered_item: Optional[IndexPath] = None

    def apply_open(self, result: Union[OpenResult, Mapping[str, Any]]) -> None:
        """Starts over from a ``layout/open`` result (typed or raw JSON)."""
        if not isinstance(result, OpenResult):
            result = OpenResult.from_json(result)
        self._elements = {a.key: a for a in result.attributes}
        self.content_size = result.content_size
        self.bounds = result.bounds
        self.centered_item = None  # open does not report it

    def apply(self, result: Union[BoundsResult, Mapping[str, Any]]) -> None:
        """Applies a ``layout/setBounds`` result: drops ``removed``, then
        replaces or adds every ``invalidated`` element."""
        if not isinstance(result, BoundsResult):
            result = BoundsResult.from_json(result)
        for key in result.removed:
            self._elements.pop(key, None)
        for a in result.invalidated:
            self._elements[a.key] = a
        self.content_size = result.content_size
        self.bounds = result.bounds
        self.centered_item = result.centered_item

    def elements(self) -> List[Attributes]:
        """The visible elements in the daemon's document order: by section,
        then header, cells by item, footer."""
        return sorted(self._elements.values(), key=lambda a: a.key.document_order())

    def get(self, key: KeyLike) -> Optional[Attributes]:
        return self._elements.get(ElementKey(*key))

    def __getitem__(self, key: KeyLike) -> Attributes:
        return self._elements[ElementKey(*key)]

    def __contains__(self, key: object) -> bool:
        return key in self._elements

    def __len__(self) -> int:
        return len(self._elements)

    def __iter__(self) -> Iterator[Attributes]:
        return iter(self.elements())

    def keys(self) -> List[ElementKey]:
        return [a.key for a in self.elements()]
