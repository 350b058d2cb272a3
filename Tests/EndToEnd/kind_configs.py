"""The configurations every kind-wide suite runs against (the conformance
suite, snapshots): one entry per kind and axis, rtl and repetition where
the kind has them. A new kind joins every such suite by adding its
configurations here."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

# name, layout, section count, items per section.
KINDS: List[Tuple[str, Dict[str, Any], int, int]] = [
    ("flow", {"type": "flow", "itemSize": {"width": 90, "height": 60}, "headerReferenceSize": {"width": 30, "height": 24},
              "sectionHeadersPinToVisibleBounds": True}, 3, 20),
    ("flow-horizontal-rtl", {"type": "flow", "itemSize": {"width": 90, "height": 60}, "scrollDirection": "horizontal",
                             "layoutDirection": "rtl"}, 2, 25),
    ("coverFlow", {"type": "coverFlow", "itemSize": {"width": 160, "height": 220},
                   "rotation": {"maxAngle": 40, "perspective": 600}}, 1, 30),
    ("coverFlow-vertical", {"type": "coverFlow", "itemSize": {"width": 220, "height": 120},
                            "scrollDirection": "vertical"}, 2, 10),
    ("coverFlow-loop", {"type": "coverFlow", "itemSize": {"width": 160, "height": 220}, "loop": True}, 1, 7),
    ("waterfall-rtl", {"type": "waterfall", "columnCount": 3, "itemSize": {"width": 50, "height": 70},
                       "headerHeight": 20, "layoutDirection": "rtl"}, 2, 30),
    ("carousel-rotary", {"type": "carousel", "style": "rotary", "itemSize": {"width": 120, "height": 120}}, 1, 12),
    ("carousel-vertical", {"type": "carousel", "style": "linear", "itemSize": {"width": 120, "height": 90},
                           "scrollDirection": "vertical"}, 2, 8),
    ("compositional", {"type": "compositional", "section": {
        "group": {"direction": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 80}},
                  "count": 2,
                  "subitems": [{"size": {"width": {"fractionalWidth": 0.5}, "height": {"fractionalHeight": 1}}}]},
        "interGroupSpacing": 8,
        "boundarySupplementaryItems": [{"kind": "header", "size": {"width": {"fractionalWidth": 1},
                                                                   "height": {"absolute": 30}},
                                        "pinToVisibleBounds": True}]}}, 3, 14),
    ("pager-cubic-wrap", {"type": "pager", "itemSize": {"width": 260, "height": 200}, "transformer": "cubic",
                          "wrap": True}, 1, 6),
    ("pager-ferrisWheel", {"type": "pager", "itemSize": {"width": 200, "height": 150},
                           "transformer": "ferrisWheel"}, 1, 12),
    ("list-insetGrouped", {"type": "list", "appearance": "insetGrouped", "headerMode": "supplementary",
                           "footerMode": "supplementary", "footerHeight": 20, "headerTopPadding": 6}, 3, 12),
    ("list-plain-rtl", {"type": "list", "headerMode": "supplementary", "footerMode": "supplementary",
                        "footerHeight": 16, "layoutDirection": "rtl", "estimatedRowHeight": 50,
                        "safeAreaInsets": {"left": 10, "right": 30}}, 3, 15),
    ("list-sidebar-firstItem", {"type": "list", "appearance": "sidebar", "headerMode": "firstItemInSection"}, 2, 9),
    ("compositional-list-insetGrouped", {"type": "compositional", "interSectionSpacing": 12, "section": {
        "list": {"appearance": "insetGrouped", "headerMode": "supplementary", "footerMode": "supplementary",
                 "footerHeight": 20, "itemSeparators": [{"item": 1, "topSeparatorVisibility": "visible"}]},
        "contentInsets": {"top": 4, "leading": 6, "bottom": 8, "trailing": 10}}}, 3, 12),
    ("compositional-list-plain-rtl", {"type": "compositional", "layoutDirection": "rtl", "section": {
        "list": {"headerMode": "supplementary", "estimatedRowHeight": 50}}}, 3, 15),
    ("pager-zoomOut-vertical", {"type": "pager", "itemSize": {"width": 300, "height": 180},
                                "transformer": "zoomOut", "scrollDirection": "vertical", "interitemSpacing": 10}, 1, 9),
]

