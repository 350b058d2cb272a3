"""Python client for flowlayoutd, a headless UICollectionViewFlowLayout-style
layout engine that speaks JSON-RPC 2.0 over stdio.

    from flowlayout import Client, Rect

    with Client() as c:
        opened = c.open("s", {"type": "flow"}, Rect(0, 0, 375, 667), [{"itemCount": 100}])
        moved = c.set_bounds("s", Rect(0, 200, 375, 667))
        plan = c.scroll_ended("s", (0, 200), (0, 1.5))
"""

from ._version import __version__
from .client import Client, DaemonError, RPCError, pack_sizes
from .model import (
    Attributes,
    BatchResult,
    BoundsResult,
    ElementKey,
    IndexPath,
    Insets,
    MovedElement,
    MutationResult,
    OpenResult,
    Point,
    Rect,
    RowScrollResult,
    SnapshotResult,
    MovementBegan,
    MovementUpdate,
    MovementEnd,
    Size,
    SnapPlan,
    SnapResult,
)
from .picture import Picture
from .wire import DaemonNotFound, find_daemon

__all__ = [
    "__version__",
    "Client",
    "RPCError",
    "DaemonError",
    "DaemonNotFound",
    "pack_sizes",
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
    "RowScrollResult",
    "SnapshotResult",
    "MovementBegan",
    "MovementUpdate",
    "MovementEnd",
    "SnapPlan",
    "SnapResult",
    "Picture",
    "find_daemon",
]
