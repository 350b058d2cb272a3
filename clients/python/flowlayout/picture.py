"""The client's copy of what is on screen, kept up to date incrementally.

This is what a UICollectionView does with a layout's answers: it keeps the
visible elements' attributes and patches them from each answer that
changes the session rather than asking for the whole viewport again.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Union

from .model import (
    Attributes,
    ElementKey,
    IndexPath,
    MutationResult,
    OpenResult,
    Rect,
    Size,
)

__all__ = ["Picture"]

#: ``ElementKey``, or a plain ``(kind, section, item[, lap])`` tuple.
KeyLike = Sequence[Any]


class Picture:
    """Visible elements keyed by ``(kind, section, item)`` (plus ``lap`` in
    looping carousels), with the content size, bounds and centred item of
    the last answer applied. Items that have ids are also found by id
    (:meth:`by_id`): a view keyed by id survives moves and snapshots."""

    def __init__(self) -> None:
        self._elements: Dict[ElementKey, Attributes] = {}
        self._by_id: Dict[Any, Attributes] = {}
        self.content_size: Optional[Size] = None
        self.bounds: Optional[Rect] = None
        self.centered_item: Optional[IndexPath] = None

    def apply_open(self, result: Union[OpenResult, Mapping[str, Any]]) -> None:
        """Starts over from a ``layout/open`` result (typed or raw JSON)."""
        if not isinstance(result, OpenResult):
            result = OpenResult.from_json(result)
        self._elements = {a.key: a for a in result.attributes}
        self._by_id = {_id_key(a.id): a for a in result.attributes if a.id is not None}
        self.content_size = result.content_size
        self.bounds = result.bounds
        self.centered_item = result.centered_item

    def apply(self, result: Union[MutationResult, OpenResult, Mapping[str, Any]]) -> None:
        """Applies the answer of any method that changes the session
        (``setBounds``, ``performBatchUpdates``, ``reloadData``,
        ``configure``, ``setItemSizes``, ``appendItems``; typed or raw JSON): drops
        ``removed``, then replaces or adds every ``invalidated`` element.
        A ``layout/open`` result starts over, as :meth:`apply_open`.

        ``appearing`` and ``disappearing`` are only for animating: the
        final attributes of an inserted element are in ``invalidated``,
        and a deleted one is in ``removed``."""
        if isinstance(result, OpenResult) or (
            isinstance(result, Mapping) and "attributes" in result and "invalidated" not in result
        ):
            self.apply_open(result)
            return
        if not isinstance(result, MutationResult):
            result = MutationResult.from_json(result)
        for key in result.removed:
            self._forget(self._elements.pop(key, None))
        for a in result.invalidated:
            self._forget(self._elements.get(a.key))
            self._elements[a.key] = a
            if a.id is not None:
                self._by_id[_id_key(a.id)] = a
        self.content_size = result.content_size
        self.bounds = result.bounds
        self.centered_item = result.centered_item

    def _forget(self, a: Optional[Attributes]) -> None:
        if a is not None and a.id is not None and self._by_id.get(_id_key(a.id)) is a:
            del self._by_id[_id_key(a.id)]

    def by_id(self, id: Any) -> Optional[Attributes]:
        """The visible item with this id (in a loop, one of its copies), or
        None. ``1`` and ``"1"`` are different ids."""
        return self._by_id.get(_id_key(id))

    def ids(self) -> List[Any]:
        """The ids of the visible items that have one, in document order."""
        return [a.id for a in self.elements() if a.kind == "cell" and a.id is not None]

    def elements(self) -> List[Attributes]:
        """The visible elements in the daemon's document order: by section,
        then header, cells by item, footer."""
        return sorted(self._elements.values(), key=lambda a: a.key.document_order())

    def painting_order(self) -> List[Attributes]:
        """The elements back to front: by ``zIndex``, and for equal
        ``zIndex`` in document order (a later item is drawn over an
        earlier one, as UIKit adds it to the view hierarchy later)."""
        return sorted(self._elements.values(), key=lambda a: (a.z_index, a.key.document_order()))

    def get(self, key: KeyLike) -> Optional[Attributes]:
        return self._elements.get(ElementKey(*key))

    def __getitem__(self, key: KeyLike) -> Attributes:
        return self._elements[ElementKey(*key)]

    def __contains__(self, key: object) -> bool:
        if isinstance(key, tuple) and not isinstance(key, ElementKey) and len(key) in (3, 4):
            key = ElementKey(*key)  # ("cell", 0, 3, 0) is ("cell", 0, 3)
        return key in self._elements

    def __len__(self) -> int:
        return len(self._elements)

    def __iter__(self) -> Iterator[Attributes]:
        return iter(self.elements())

    def keys(self) -> List[ElementKey]:
        return [a.key for a in self.elements()]


def _id_key(id: Any) -> Any:
    """Ids compare as JSON values: the integer 1 and the string "1" differ
    (and so do True and 1, which Python's dict would merge)."""
    return (type(id).__name__, id)
