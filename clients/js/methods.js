// GENERATED FILE: do not edit. Written by clients/js/generate.mjs from the
// method table flowlayoutd reports in its initialize result
// (capabilities.methodTable). After a change to the daemon's methods,
// regenerate it with
//
//   node clients/js/generate.mjs [path/to/flowlayoutd]
//
// (the daemon defaults to $FLOWLAYOUTD, else flowlayoutd on PATH).
// clients/js/test/generate.test.mjs fails while this file is stale.
// @ts-check

/** @typedef {import('./flowlayout.js').MethodInfo} MethodInfo */
/** @typedef {import('./flowlayout.js').BatchUpdates} BatchUpdates */
/** @typedef {import('./flowlayout.js').ElementKind} ElementKind */
/** @typedef {import('./flowlayout.js').IndexPath} IndexPath */
/** @typedef {import('./flowlayout.js').Insets} Insets */
/** @typedef {import('./flowlayout.js').ItemID} ItemID */
/** @typedef {import('./flowlayout.js').ItemPosition} ItemPosition */
/** @typedef {import('./flowlayout.js').ItemSeparators} ItemSeparators */
/** @typedef {import('./flowlayout.js').ItemSizeUpdate} ItemSizeUpdate */
/** @typedef {import('./flowlayout.js').LayoutConfiguration} LayoutConfiguration */
/** @typedef {import('./flowlayout.js').Point} Point */
/** @typedef {import('./flowlayout.js').Rect} Rect */
/** @typedef {import('./flowlayout.js').Section} Section */
/** @typedef {import('./flowlayout.js').Size} Size */
/** @typedef {import('./flowlayout.js').SnapshotItem} SnapshotItem */
/** @typedef {import('./flowlayout.js').SnapshotSection} SnapshotSection */
/** @typedef {import('./flowlayout.js').SwipeAction} SwipeAction */
/** @typedef {import('./flowlayout.js').integer} integer */

// The answers' shapes (capabilities.resultShapes).
/** `layout/open`: the session's first picture. @typedef {{contentSize: Size, bounds: Rect, attributes: Attributes[], centeredItem: ItemRef | null}} OpenResult */
/** Every change's answer: the delta of the picture (`removed`, then `invalidated`). @typedef {{contentSize: Size, bounds: Rect, invalidated: Attributes[], removed: ElementKey[], centeredItem: ItemRef | null, movementCancelled?: true, closedSwipe?: IndexPath}} MutationResult */
/** `layout/performBatchUpdates`: the delta, plus what to animate. @typedef {{contentSize: Size, bounds: Rect, invalidated: Attributes[], removed: ElementKey[], centeredItem: ItemRef | null, movementCancelled?: true, closedSwipe?: IndexPath, appearing: Attributes[], disappearing: Attributes[], moved: MovedElement[]}} BatchUpdatesResult */
/** `layout/applySnapshot`: a batch's answer and the batch (null for a first apply without ids). @typedef {{contentSize: Size, bounds: Rect, invalidated: Attributes[], removed: ElementKey[], centeredItem: ItemRef | null, movementCancelled?: true, closedSwipe?: IndexPath, appearing?: Attributes[], disappearing?: Attributes[], moved?: MovedElement[], updates: BatchUpdates | null}} SnapshotResult */
/** `layout/scrollSection`: the delta and the row's offset, clamped to its range. @typedef {{contentSize: Size, bounds: Rect, invalidated: Attributes[], removed: ElementKey[], centeredItem: ItemRef | null, movementCancelled?: true, closedSwipe?: IndexPath, offset: number}} RowScrollResult */
/** `layout/beginInteractiveMovement`: whether the drag began. @typedef {{began: boolean}} MovementBegan */
/** `layout/beginSwipe`: began, and the row whose open swipe it closed. @typedef {{began: true, closedSwipe?: IndexPath}} SwipeBegan */
/** `layout/expand`, `layout/collapse` and the outline edits: a batch's answer and the batch. @typedef {{contentSize: Size, bounds: Rect, invalidated: Attributes[], removed: ElementKey[], centeredItem: ItemRef | null, movementCancelled?: true, closedSwipe?: IndexPath, appearing: Attributes[], disappearing: Attributes[], moved: MovedElement[], updates: BatchUpdates}} OutlineChangeResult */
/** `layout/outline`: the section's whole tree. @typedef {{outline: OutlineNode[]}} OutlineResult */
/** One node of an outline, with its flag and subtree. @typedef {{id: ItemID, size?: Size, expanded: boolean, children: OutlineNode[]}} OutlineNode */
/** `layout/updateSwipe`: the translation kept and the buttons' frames, first at the edge. @typedef {{translation: number, actions: Rect[]}} SwipeUpdate */
/** `layout/endSwipe`: where the release leaves the row. @typedef {{state: string, translation: number}} SwipeEnd */
/** `layout/closeSwipe`: closed. @typedef {{state: string}} SwipeClosed */
/** `layout/updateInteractiveMovement`: the delta, the target and the autoscroll velocity (points per ms). @typedef {{contentSize: Size, bounds: Rect, invalidated: Attributes[], removed: ElementKey[], centeredItem: ItemRef | null, movementCancelled?: true, closedSwipe?: IndexPath, target: IndexPath, autoscroll: Point}} MovementUpdateResult */
/** `layout/endInteractiveMovement`: the one move's batch answer, and the batch. @typedef {{contentSize: Size, bounds: Rect, invalidated: Attributes[], removed: ElementKey[], centeredItem: ItemRef | null, movementCancelled?: true, closedSwipe?: IndexPath, appearing: Attributes[], disappearing: Attributes[], moved: MovedElement[], updates: BatchUpdates}} MovementEndResult */
/** `layout/scrollEnded`: where a release comes to rest, and the path. @typedef {{targetContentOffset: Point, targetItem: ItemRef | null, projectedContentOffset: Point, policy: string, durationMs: number, trajectory: Point[]}} ScrollPlan */
/** `layout/scrollToItem`: the offset; `rowOffset` when the item's row scrolls on its own. @typedef {{contentOffset: Point, lap?: integer, rowOffset?: number}} ScrollTarget */
/** `layout/attributesInRect`: the elements, and `next` while a page leaves more. @typedef {{attributes: Attributes[], next?: ElementKey}} AttributesPage */
/** `layout/attributesForItem`: one cell's attributes. @typedef {{attributes: Attributes}} ElementAttributes */
/** `layout/attributesForSupplementary`: a header, footer or background, or null. @typedef {{attributes: Attributes | null}} OptionalElementAttributes */
/** `layout/contentSize`: the session's content size. @typedef {{contentSize: Size}} ContentSizeResult */
/** UICollectionViewLayoutAttributes, as Values describes them. @typedef {{kind: ElementKind, elementKind?: string, edge?: string, section: integer, item: integer, lap?: integer, id?: ItemID, center: Point, size: Size, frame: Rect, transform?: number[], alpha: number, zIndex: integer, hidden?: true, moving?: true, cornerRadius?: number, cornerMask?: string[], level?: integer, parent?: ItemID, expanded?: boolean, indentation?: number}} Attributes */
/** An element's identity: `item` 0 for headers and footers, `edge` only for a separator, `lap` only in a loop. @typedef {{kind: ElementKind, edge?: string, section: integer, item: integer, lap?: integer, id?: ItemID}} ElementKey */
/** An item: its `lap` when the layout loops, its `id` when it has one. @typedef {{section: integer, item: integer, lap?: integer, id?: ItemID}} ItemRef */
/** A surviving element whose frame a batch changed. @typedef {{kind: ElementKind, edge?: string, section: integer, item: integer, lap?: integer, id?: ItemID, from: IndexPath, fromFrame: Rect, frame: Rect}} MovedElement */

/**
 * @template T
 * @param {T} value
 * @returns {T}
 */
function freeze(value) {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) freeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * The daemon's methods, as its initialize result describes them
 * (capabilities.methodTable): name, summary, params ({name, type,
 * required}), result and picture ("open", "delta" or "none").
 * @type {ReadonlyArray<MethodInfo>}
 */
export const METHODS = freeze([
  {
    "name": "layout/open",
    "summary": "Opens a session and answers its first viewport.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "layout",
        "type": "LayoutConfiguration",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "sections",
        "type": "Section[]",
        "required": true
      },
      {
        "name": "contentInset",
        "type": "Insets",
        "required": false
      },
      {
        "name": "overscan",
        "type": "number",
        "required": false
      },
      {
        "name": "followsEnd",
        "type": "boolean",
        "required": false
      }
    ],
    "result": "OpenResult",
    "picture": "open"
  },
  {
    "name": "layout/setBounds",
    "summary": "A scroll frame or a resize: the delta of the viewport.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      }
    ],
    "result": "MutationResult",
    "picture": "delta"
  },
  {
    "name": "layout/scrollEnded",
    "summary": "Where a scroll released with this velocity comes to rest.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "contentOffset",
        "type": "Point",
        "required": true
      },
      {
        "name": "velocity",
        "type": "Point",
        "required": true
      },
      {
        "name": "proposedContentOffset",
        "type": "Point",
        "required": false
      },
      {
        "name": "frameInterval",
        "type": "number",
        "required": false
      },
      {
        "name": "section",
        "type": "integer",
        "required": false
      }
    ],
    "result": "ScrollPlan",
    "picture": "none"
  },
  {
    "name": "layout/scrollToItem",
    "summary": "The content offset that shows an item at a position.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": false
      },
      {
        "name": "item",
        "type": "integer",
        "required": false
      },
      {
        "name": "id",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "position",
        "type": "ItemPosition",
        "required": false
      }
    ],
    "result": "ScrollTarget",
    "picture": "none"
  },
  {
    "name": "layout/attributesInRect",
    "summary": "Every element that meets a rect, or a page of them.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "rect",
        "type": "Rect",
        "required": true
      },
      {
        "name": "limit",
        "type": "integer",
        "required": false
      },
      {
        "name": "after",
        "type": "ElementKey",
        "required": false
      }
    ],
    "result": "AttributesPage",
    "picture": "none"
  },
  {
    "name": "layout/attributesForItem",
    "summary": "One cell's attributes.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": false
      },
      {
        "name": "item",
        "type": "integer",
        "required": false
      },
      {
        "name": "id",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "lap",
        "type": "integer",
        "required": false
      }
    ],
    "result": "ElementAttributes",
    "picture": "none"
  },
  {
    "name": "layout/attributesForSupplementary",
    "summary": "A section's header, footer or background, or null.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "kind",
        "type": "\"header\" | \"footer\" | \"decoration\"",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": true
      },
      {
        "name": "lap",
        "type": "integer",
        "required": false
      }
    ],
    "result": "OptionalElementAttributes",
    "picture": "none"
  },
  {
    "name": "layout/itemAtPoint",
    "summary": "The topmost cell at a point, or null.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "point",
        "type": "Point",
        "required": true
      }
    ],
    "result": "ItemRef | null",
    "picture": "none"
  },
  {
    "name": "layout/contentSize",
    "summary": "The session's content size.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      }
    ],
    "result": "ContentSizeResult",
    "picture": "none"
  },
  {
    "name": "layout/close",
    "summary": "Closes a session.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      }
    ],
    "result": "null",
    "picture": "none"
  },
  {
    "name": "layout/performBatchUpdates",
    "summary": "Deletes, inserts, moves and reloads, applied as UIKit applies them.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "updates",
        "type": "BatchUpdates",
        "required": true
      }
    ],
    "result": "BatchUpdatesResult",
    "picture": "delta"
  },
  {
    "name": "layout/reloadData",
    "summary": "Replaces every section.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "sections",
        "type": "Section[]",
        "required": true
      }
    ],
    "result": "MutationResult",
    "picture": "delta"
  },
  {
    "name": "layout/applySnapshot",
    "summary": "The whole data as section and item ids: diffed, applied as a batch, and the batch answered.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "sections",
        "type": "SnapshotSection[]",
        "required": true
      },
      {
        "name": "reloadItems",
        "type": "SnapshotItem[]",
        "required": false
      },
      {
        "name": "reconfigureItems",
        "type": "SnapshotItem[]",
        "required": false
      }
    ],
    "result": "SnapshotResult",
    "picture": "delta"
  },
  {
    "name": "layout/configure",
    "summary": "Changes the layout's properties, the content inset or the overscan.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "layout",
        "type": "Partial<LayoutConfiguration>",
        "required": false
      },
      {
        "name": "contentInset",
        "type": "Insets",
        "required": false
      },
      {
        "name": "overscan",
        "type": "number",
        "required": false
      },
      {
        "name": "followsEnd",
        "type": "boolean",
        "required": false
      }
    ],
    "result": "MutationResult",
    "picture": "delta"
  },
  {
    "name": "layout/setItemSizes",
    "summary": "Self-sizing: measured sizes replace the estimates.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "sizes",
        "type": "ItemSizeUpdate[]",
        "required": true
      }
    ],
    "result": "MutationResult",
    "picture": "delta"
  },
  {
    "name": "layout/appendItems",
    "summary": "Appends items to a section: the bulk path.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": true
      },
      {
        "name": "itemCount",
        "type": "integer",
        "required": false
      },
      {
        "name": "itemSizes",
        "type": "Size[]",
        "required": false
      },
      {
        "name": "widthsAndHeights",
        "type": "number[]",
        "required": false
      },
      {
        "name": "widthsAndHeightsBase64",
        "type": "string",
        "required": false
      },
      {
        "name": "ids",
        "type": "ItemID[]",
        "required": false
      }
    ],
    "result": "MutationResult",
    "picture": "delta"
  },
  {
    "name": "layout/scrollSection",
    "summary": "Scrolls an orthogonal row: the delta of the viewport.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": true
      },
      {
        "name": "offset",
        "type": "number",
        "required": true
      }
    ],
    "result": "RowScrollResult",
    "picture": "delta"
  },
  {
    "name": "layout/beginInteractiveMovement",
    "summary": "Starts dragging an item to reorder it.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": false
      },
      {
        "name": "item",
        "type": "integer",
        "required": false
      },
      {
        "name": "id",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "lap",
        "type": "integer",
        "required": false
      }
    ],
    "result": "MovementBegan",
    "picture": "none"
  },
  {
    "name": "layout/updateInteractiveMovement",
    "summary": "Moves the dragged item's centre: the delta, the target and the autoscroll velocity.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "position",
        "type": "Point",
        "required": true
      }
    ],
    "result": "MovementUpdateResult",
    "picture": "delta"
  },
  {
    "name": "layout/endInteractiveMovement",
    "summary": "Drops the dragged item at its target: one batch move.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      }
    ],
    "result": "MovementEndResult",
    "picture": "delta"
  },
  {
    "name": "layout/cancelInteractiveMovement",
    "summary": "Puts the dragged item back: the delta to the data.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      }
    ],
    "result": "MutationResult",
    "picture": "delta"
  },
  {
    "name": "layout/setItemSeparators",
    "summary": "A list's per-item separator overrides (itemSeparatorHandler): the batch's delta.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "items",
        "type": "ItemSeparators[]",
        "required": true
      }
    ],
    "result": "BatchUpdatesResult",
    "picture": "delta"
  },
  {
    "name": "layout/beginSwipe",
    "summary": "Starts swiping a row to reveal its actions.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": false
      },
      {
        "name": "item",
        "type": "integer",
        "required": false
      },
      {
        "name": "id",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "edge",
        "type": "\"leading\" | \"trailing\"",
        "required": true
      },
      {
        "name": "actions",
        "type": "SwipeAction[]",
        "required": true
      },
      {
        "name": "performsFirstActionWithFullSwipe",
        "type": "boolean",
        "required": false
      }
    ],
    "result": "SwipeBegan",
    "picture": "none"
  },
  {
    "name": "layout/updateSwipe",
    "summary": "Moves the swiped row's content: the action buttons' frames.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "translation",
        "type": "number",
        "required": true
      }
    ],
    "result": "SwipeUpdate",
    "picture": "none"
  },
  {
    "name": "layout/endSwipe",
    "summary": "Releases the swipe: whether it performs, rests open or closes.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "velocity",
        "type": "number",
        "required": true
      }
    ],
    "result": "SwipeEnd",
    "picture": "none"
  },
  {
    "name": "layout/closeSwipe",
    "summary": "Closes the open swipe, if any.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      }
    ],
    "result": "SwipeClosed",
    "picture": "none"
  },
  {
    "name": "layout/expand",
    "summary": "Expands outline nodes (children: one node's lazily loaded subtree): the batch's delta and updates.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "ids",
        "type": "ItemID[]",
        "required": true
      },
      {
        "name": "children",
        "type": "OutlineNode[]",
        "required": false
      }
    ],
    "result": "OutlineChangeResult",
    "picture": "delta"
  },
  {
    "name": "layout/collapse",
    "summary": "Collapses outline nodes: the batch's delta and updates.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "ids",
        "type": "ItemID[]",
        "required": true
      }
    ],
    "result": "OutlineChangeResult",
    "picture": "delta"
  },
  {
    "name": "layout/outlineAppend",
    "summary": "Appends outline nodes as a parent's last children or a section's last roots.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": false
      },
      {
        "name": "parent",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "items",
        "type": "OutlineNode[]",
        "required": true
      }
    ],
    "result": "OutlineChangeResult",
    "picture": "delta"
  },
  {
    "name": "layout/outlineInsert",
    "summary": "Inserts outline nodes as siblings before or after a node.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "before",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "after",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "items",
        "type": "OutlineNode[]",
        "required": true
      }
    ],
    "result": "OutlineChangeResult",
    "picture": "delta"
  },
  {
    "name": "layout/outlineDelete",
    "summary": "Deletes outline nodes, each with its descendants.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "ids",
        "type": "ItemID[]",
        "required": true
      }
    ],
    "result": "OutlineChangeResult",
    "picture": "delta"
  },
  {
    "name": "layout/outlineReplaceChildren",
    "summary": "Replaces a node's children; they may reuse ids of the subtree they replace.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "parent",
        "type": "ItemID",
        "required": true
      },
      {
        "name": "children",
        "type": "OutlineNode[]",
        "required": true
      }
    ],
    "result": "OutlineChangeResult",
    "picture": "delta"
  },
  {
    "name": "layout/outline",
    "summary": "A section's whole outline, every node with its flag.",
    "params": [
      {
        "name": "session",
        "type": "string",
        "required": true
      },
      {
        "name": "section",
        "type": "integer",
        "required": true
      }
    ],
    "result": "OutlineResult",
    "picture": "none"
  }
]);

/**
 * The answers' shapes, as the daemon's initialize result describes them
 * (capabilities.resultShapes): name, summary and fields ({name, type,
 * required}); the typedefs above are written from the same table.
 * @type {ReadonlyArray<{name: string, summary: string, fields: ReadonlyArray<{name: string, type: string, required: boolean}>}>}
 */
export const RESULT_SHAPES = freeze([
  {
    "name": "OpenResult",
    "summary": "`layout/open`: the session's first picture.",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "attributes",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "centeredItem",
        "type": "ItemRef | null",
        "required": true
      }
    ]
  },
  {
    "name": "MutationResult",
    "summary": "Every change's answer: the delta of the picture (`removed`, then `invalidated`).",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "invalidated",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "removed",
        "type": "ElementKey[]",
        "required": true
      },
      {
        "name": "centeredItem",
        "type": "ItemRef | null",
        "required": true
      },
      {
        "name": "movementCancelled",
        "type": "true",
        "required": false
      },
      {
        "name": "closedSwipe",
        "type": "IndexPath",
        "required": false
      }
    ]
  },
  {
    "name": "BatchUpdatesResult",
    "summary": "`layout/performBatchUpdates`: the delta, plus what to animate.",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "invalidated",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "removed",
        "type": "ElementKey[]",
        "required": true
      },
      {
        "name": "centeredItem",
        "type": "ItemRef | null",
        "required": true
      },
      {
        "name": "movementCancelled",
        "type": "true",
        "required": false
      },
      {
        "name": "closedSwipe",
        "type": "IndexPath",
        "required": false
      },
      {
        "name": "appearing",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "disappearing",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "moved",
        "type": "MovedElement[]",
        "required": true
      }
    ]
  },
  {
    "name": "SnapshotResult",
    "summary": "`layout/applySnapshot`: a batch's answer and the batch (null for a first apply without ids).",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "invalidated",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "removed",
        "type": "ElementKey[]",
        "required": true
      },
      {
        "name": "centeredItem",
        "type": "ItemRef | null",
        "required": true
      },
      {
        "name": "movementCancelled",
        "type": "true",
        "required": false
      },
      {
        "name": "closedSwipe",
        "type": "IndexPath",
        "required": false
      },
      {
        "name": "appearing",
        "type": "Attributes[]",
        "required": false
      },
      {
        "name": "disappearing",
        "type": "Attributes[]",
        "required": false
      },
      {
        "name": "moved",
        "type": "MovedElement[]",
        "required": false
      },
      {
        "name": "updates",
        "type": "BatchUpdates | null",
        "required": true
      }
    ]
  },
  {
    "name": "RowScrollResult",
    "summary": "`layout/scrollSection`: the delta and the row's offset, clamped to its range.",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "invalidated",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "removed",
        "type": "ElementKey[]",
        "required": true
      },
      {
        "name": "centeredItem",
        "type": "ItemRef | null",
        "required": true
      },
      {
        "name": "movementCancelled",
        "type": "true",
        "required": false
      },
      {
        "name": "closedSwipe",
        "type": "IndexPath",
        "required": false
      },
      {
        "name": "offset",
        "type": "number",
        "required": true
      }
    ]
  },
  {
    "name": "MovementBegan",
    "summary": "`layout/beginInteractiveMovement`: whether the drag began.",
    "fields": [
      {
        "name": "began",
        "type": "boolean",
        "required": true
      }
    ]
  },
  {
    "name": "SwipeBegan",
    "summary": "`layout/beginSwipe`: began, and the row whose open swipe it closed.",
    "fields": [
      {
        "name": "began",
        "type": "true",
        "required": true
      },
      {
        "name": "closedSwipe",
        "type": "IndexPath",
        "required": false
      }
    ]
  },
  {
    "name": "OutlineChangeResult",
    "summary": "`layout/expand`, `layout/collapse` and the outline edits: a batch's answer and the batch.",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "invalidated",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "removed",
        "type": "ElementKey[]",
        "required": true
      },
      {
        "name": "centeredItem",
        "type": "ItemRef | null",
        "required": true
      },
      {
        "name": "movementCancelled",
        "type": "true",
        "required": false
      },
      {
        "name": "closedSwipe",
        "type": "IndexPath",
        "required": false
      },
      {
        "name": "appearing",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "disappearing",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "moved",
        "type": "MovedElement[]",
        "required": true
      },
      {
        "name": "updates",
        "type": "BatchUpdates",
        "required": true
      }
    ]
  },
  {
    "name": "OutlineResult",
    "summary": "`layout/outline`: the section's whole tree.",
    "fields": [
      {
        "name": "outline",
        "type": "OutlineNode[]",
        "required": true
      }
    ]
  },
  {
    "name": "OutlineNode",
    "summary": "One node of an outline, with its flag and subtree.",
    "fields": [
      {
        "name": "id",
        "type": "ItemID",
        "required": true
      },
      {
        "name": "size",
        "type": "Size",
        "required": false
      },
      {
        "name": "expanded",
        "type": "boolean",
        "required": true
      },
      {
        "name": "children",
        "type": "OutlineNode[]",
        "required": true
      }
    ]
  },
  {
    "name": "SwipeUpdate",
    "summary": "`layout/updateSwipe`: the translation kept and the buttons' frames, first at the edge.",
    "fields": [
      {
        "name": "translation",
        "type": "number",
        "required": true
      },
      {
        "name": "actions",
        "type": "Rect[]",
        "required": true
      }
    ]
  },
  {
    "name": "SwipeEnd",
    "summary": "`layout/endSwipe`: where the release leaves the row.",
    "fields": [
      {
        "name": "state",
        "type": "string",
        "required": true
      },
      {
        "name": "translation",
        "type": "number",
        "required": true
      }
    ]
  },
  {
    "name": "SwipeClosed",
    "summary": "`layout/closeSwipe`: closed.",
    "fields": [
      {
        "name": "state",
        "type": "string",
        "required": true
      }
    ]
  },
  {
    "name": "MovementUpdateResult",
    "summary": "`layout/updateInteractiveMovement`: the delta, the target and the autoscroll velocity (points per ms).",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "invalidated",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "removed",
        "type": "ElementKey[]",
        "required": true
      },
      {
        "name": "centeredItem",
        "type": "ItemRef | null",
        "required": true
      },
      {
        "name": "movementCancelled",
        "type": "true",
        "required": false
      },
      {
        "name": "closedSwipe",
        "type": "IndexPath",
        "required": false
      },
      {
        "name": "target",
        "type": "IndexPath",
        "required": true
      },
      {
        "name": "autoscroll",
        "type": "Point",
        "required": true
      }
    ]
  },
  {
    "name": "MovementEndResult",
    "summary": "`layout/endInteractiveMovement`: the one move's batch answer, and the batch.",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      },
      {
        "name": "bounds",
        "type": "Rect",
        "required": true
      },
      {
        "name": "invalidated",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "removed",
        "type": "ElementKey[]",
        "required": true
      },
      {
        "name": "centeredItem",
        "type": "ItemRef | null",
        "required": true
      },
      {
        "name": "movementCancelled",
        "type": "true",
        "required": false
      },
      {
        "name": "closedSwipe",
        "type": "IndexPath",
        "required": false
      },
      {
        "name": "appearing",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "disappearing",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "moved",
        "type": "MovedElement[]",
        "required": true
      },
      {
        "name": "updates",
        "type": "BatchUpdates",
        "required": true
      }
    ]
  },
  {
    "name": "ScrollPlan",
    "summary": "`layout/scrollEnded`: where a release comes to rest, and the path.",
    "fields": [
      {
        "name": "targetContentOffset",
        "type": "Point",
        "required": true
      },
      {
        "name": "targetItem",
        "type": "ItemRef | null",
        "required": true
      },
      {
        "name": "projectedContentOffset",
        "type": "Point",
        "required": true
      },
      {
        "name": "policy",
        "type": "string",
        "required": true
      },
      {
        "name": "durationMs",
        "type": "number",
        "required": true
      },
      {
        "name": "trajectory",
        "type": "Point[]",
        "required": true
      }
    ]
  },
  {
    "name": "ScrollTarget",
    "summary": "`layout/scrollToItem`: the offset; `rowOffset` when the item's row scrolls on its own.",
    "fields": [
      {
        "name": "contentOffset",
        "type": "Point",
        "required": true
      },
      {
        "name": "lap",
        "type": "integer",
        "required": false
      },
      {
        "name": "rowOffset",
        "type": "number",
        "required": false
      }
    ]
  },
  {
    "name": "AttributesPage",
    "summary": "`layout/attributesInRect`: the elements, and `next` while a page leaves more.",
    "fields": [
      {
        "name": "attributes",
        "type": "Attributes[]",
        "required": true
      },
      {
        "name": "next",
        "type": "ElementKey",
        "required": false
      }
    ]
  },
  {
    "name": "ElementAttributes",
    "summary": "`layout/attributesForItem`: one cell's attributes.",
    "fields": [
      {
        "name": "attributes",
        "type": "Attributes",
        "required": true
      }
    ]
  },
  {
    "name": "OptionalElementAttributes",
    "summary": "`layout/attributesForSupplementary`: a header, footer or background, or null.",
    "fields": [
      {
        "name": "attributes",
        "type": "Attributes | null",
        "required": true
      }
    ]
  },
  {
    "name": "ContentSizeResult",
    "summary": "`layout/contentSize`: the session's content size.",
    "fields": [
      {
        "name": "contentSize",
        "type": "Size",
        "required": true
      }
    ]
  },
  {
    "name": "Attributes",
    "summary": "UICollectionViewLayoutAttributes, as Values describes them.",
    "fields": [
      {
        "name": "kind",
        "type": "ElementKind",
        "required": true
      },
      {
        "name": "elementKind",
        "type": "string",
        "required": false
      },
      {
        "name": "edge",
        "type": "string",
        "required": false
      },
      {
        "name": "section",
        "type": "integer",
        "required": true
      },
      {
        "name": "item",
        "type": "integer",
        "required": true
      },
      {
        "name": "lap",
        "type": "integer",
        "required": false
      },
      {
        "name": "id",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "center",
        "type": "Point",
        "required": true
      },
      {
        "name": "size",
        "type": "Size",
        "required": true
      },
      {
        "name": "frame",
        "type": "Rect",
        "required": true
      },
      {
        "name": "transform",
        "type": "number[]",
        "required": false
      },
      {
        "name": "alpha",
        "type": "number",
        "required": true
      },
      {
        "name": "zIndex",
        "type": "integer",
        "required": true
      },
      {
        "name": "hidden",
        "type": "true",
        "required": false
      },
      {
        "name": "moving",
        "type": "true",
        "required": false
      },
      {
        "name": "cornerRadius",
        "type": "number",
        "required": false
      },
      {
        "name": "cornerMask",
        "type": "string[]",
        "required": false
      },
      {
        "name": "level",
        "type": "integer",
        "required": false
      },
      {
        "name": "parent",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "expanded",
        "type": "boolean",
        "required": false
      },
      {
        "name": "indentation",
        "type": "number",
        "required": false
      }
    ]
  },
  {
    "name": "ElementKey",
    "summary": "An element's identity: `item` 0 for headers and footers, `edge` only for a separator, `lap` only in a loop.",
    "fields": [
      {
        "name": "kind",
        "type": "ElementKind",
        "required": true
      },
      {
        "name": "edge",
        "type": "string",
        "required": false
      },
      {
        "name": "section",
        "type": "integer",
        "required": true
      },
      {
        "name": "item",
        "type": "integer",
        "required": true
      },
      {
        "name": "lap",
        "type": "integer",
        "required": false
      },
      {
        "name": "id",
        "type": "ItemID",
        "required": false
      }
    ]
  },
  {
    "name": "ItemRef",
    "summary": "An item: its `lap` when the layout loops, its `id` when it has one.",
    "fields": [
      {
        "name": "section",
        "type": "integer",
        "required": true
      },
      {
        "name": "item",
        "type": "integer",
        "required": true
      },
      {
        "name": "lap",
        "type": "integer",
        "required": false
      },
      {
        "name": "id",
        "type": "ItemID",
        "required": false
      }
    ]
  },
  {
    "name": "MovedElement",
    "summary": "A surviving element whose frame a batch changed.",
    "fields": [
      {
        "name": "kind",
        "type": "ElementKind",
        "required": true
      },
      {
        "name": "edge",
        "type": "string",
        "required": false
      },
      {
        "name": "section",
        "type": "integer",
        "required": true
      },
      {
        "name": "item",
        "type": "integer",
        "required": true
      },
      {
        "name": "lap",
        "type": "integer",
        "required": false
      },
      {
        "name": "id",
        "type": "ItemID",
        "required": false
      },
      {
        "name": "from",
        "type": "IndexPath",
        "required": true
      },
      {
        "name": "fromFrame",
        "type": "Rect",
        "required": true
      },
      {
        "name": "frame",
        "type": "Rect",
        "required": true
      }
    ]
  }
]);

/**
 * Each method's wrapper on LayoutMethods (and so on FlowLayoutClient): the
 * camelCase of the name after `layout/`, or of the whole name where that
 * is a member of the client itself.
 * @type {Readonly<Record<string, string>>}
 */
export const WRAPPERS = freeze({
  "layout/open": "open",
  "layout/setBounds": "setBounds",
  "layout/scrollEnded": "scrollEnded",
  "layout/scrollToItem": "scrollToItem",
  "layout/attributesInRect": "attributesInRect",
  "layout/attributesForItem": "attributesForItem",
  "layout/attributesForSupplementary": "attributesForSupplementary",
  "layout/itemAtPoint": "itemAtPoint",
  "layout/contentSize": "contentSize",
  "layout/close": "close",
  "layout/performBatchUpdates": "performBatchUpdates",
  "layout/reloadData": "reloadData",
  "layout/applySnapshot": "applySnapshot",
  "layout/configure": "configure",
  "layout/setItemSizes": "setItemSizes",
  "layout/appendItems": "appendItems",
  "layout/scrollSection": "scrollSection",
  "layout/beginInteractiveMovement": "beginInteractiveMovement",
  "layout/updateInteractiveMovement": "updateInteractiveMovement",
  "layout/endInteractiveMovement": "endInteractiveMovement",
  "layout/cancelInteractiveMovement": "cancelInteractiveMovement",
  "layout/setItemSeparators": "setItemSeparators",
  "layout/beginSwipe": "beginSwipe",
  "layout/updateSwipe": "updateSwipe",
  "layout/endSwipe": "endSwipe",
  "layout/closeSwipe": "closeSwipe",
  "layout/expand": "expand",
  "layout/collapse": "collapse",
  "layout/outlineAppend": "outlineAppend",
  "layout/outlineInsert": "outlineInsert",
  "layout/outlineDelete": "outlineDelete",
  "layout/outlineReplaceChildren": "outlineReplaceChildren",
  "layout/outline": "outline"
});

/**
 * One typed wrapper per method, each `this.request(name, params)`.
 * FlowLayoutClient extends it and implements `request`.
 */
export class LayoutMethods {
  /**
   * Sends a request; implemented by FlowLayoutClient.
   * @param {string} method
   * @param {object} [params]
   * @returns {Promise<any>}
   */
  request(method, params) {
    return Promise.reject(new Error('LayoutMethods.request is implemented by FlowLayoutClient'));
  }

  /**
   * `layout/open`: Opens a session and answers its first viewport.
   * The answer starts the picture over (picture: "open"): `Picture.apply` it.
   * @param {{session: string, layout: LayoutConfiguration, bounds: Rect, sections: Section[], contentInset?: Insets, overscan?: number, followsEnd?: boolean}} params
   * @returns {Promise<OpenResult>}
   */
  open(params) {
    return this.request("layout/open", params);
  }

  /**
   * `layout/setBounds`: A scroll frame or a resize: the delta of the viewport.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, bounds: Rect}} params
   * @returns {Promise<MutationResult>}
   */
  setBounds(params) {
    return this.request("layout/setBounds", params);
  }

  /**
   * `layout/scrollEnded`: Where a scroll released with this velocity comes to rest.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, contentOffset: Point, velocity: Point, proposedContentOffset?: Point, frameInterval?: number, section?: integer}} params
   * @returns {Promise<ScrollPlan>}
   */
  scrollEnded(params) {
    return this.request("layout/scrollEnded", params);
  }

  /**
   * `layout/scrollToItem`: The content offset that shows an item at a position.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, section?: integer, item?: integer, id?: ItemID, position?: ItemPosition}} params
   * @returns {Promise<ScrollTarget>}
   */
  scrollToItem(params) {
    return this.request("layout/scrollToItem", params);
  }

  /**
   * `layout/attributesInRect`: Every element that meets a rect, or a page of them.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, rect: Rect, limit?: integer, after?: ElementKey}} params
   * @returns {Promise<AttributesPage>}
   */
  attributesInRect(params) {
    return this.request("layout/attributesInRect", params);
  }

  /**
   * `layout/attributesForItem`: One cell's attributes.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, section?: integer, item?: integer, id?: ItemID, lap?: integer}} params
   * @returns {Promise<ElementAttributes>}
   */
  attributesForItem(params) {
    return this.request("layout/attributesForItem", params);
  }

  /**
   * `layout/attributesForSupplementary`: A section's header, footer or background, or null.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, kind: "header" | "footer" | "decoration", section: integer, lap?: integer}} params
   * @returns {Promise<OptionalElementAttributes>}
   */
  attributesForSupplementary(params) {
    return this.request("layout/attributesForSupplementary", params);
  }

  /**
   * `layout/itemAtPoint`: The topmost cell at a point, or null.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, point: Point}} params
   * @returns {Promise<ItemRef | null>}
   */
  itemAtPoint(params) {
    return this.request("layout/itemAtPoint", params);
  }

  /**
   * `layout/contentSize`: The session's content size.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string}} params
   * @returns {Promise<ContentSizeResult>}
   */
  contentSize(params) {
    return this.request("layout/contentSize", params);
  }

  /**
   * `layout/close`: Closes a session.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string}} params
   * @returns {Promise<null>}
   */
  close(params) {
    return this.request("layout/close", params);
  }

  /**
   * `layout/performBatchUpdates`: Deletes, inserts, moves and reloads, applied as UIKit applies them.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, updates: BatchUpdates}} params
   * @returns {Promise<BatchUpdatesResult>}
   */
  performBatchUpdates(params) {
    return this.request("layout/performBatchUpdates", params);
  }

  /**
   * `layout/reloadData`: Replaces every section.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, sections: Section[]}} params
   * @returns {Promise<MutationResult>}
   */
  reloadData(params) {
    return this.request("layout/reloadData", params);
  }

  /**
   * `layout/applySnapshot`: The whole data as section and item ids: diffed, applied as a batch, and the batch answered.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, sections: SnapshotSection[], reloadItems?: SnapshotItem[], reconfigureItems?: SnapshotItem[]}} params
   * @returns {Promise<SnapshotResult>}
   */
  applySnapshot(params) {
    return this.request("layout/applySnapshot", params);
  }

  /**
   * `layout/configure`: Changes the layout's properties, the content inset or the overscan.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, layout?: Partial<LayoutConfiguration>, contentInset?: Insets, overscan?: number, followsEnd?: boolean}} params
   * @returns {Promise<MutationResult>}
   */
  configure(params) {
    return this.request("layout/configure", params);
  }

  /**
   * `layout/setItemSizes`: Self-sizing: measured sizes replace the estimates.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, sizes: ItemSizeUpdate[]}} params
   * @returns {Promise<MutationResult>}
   */
  setItemSizes(params) {
    return this.request("layout/setItemSizes", params);
  }

  /**
   * `layout/appendItems`: Appends items to a section: the bulk path.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, section: integer, itemCount?: integer, itemSizes?: Size[], widthsAndHeights?: number[], widthsAndHeightsBase64?: string, ids?: ItemID[]}} params
   * @returns {Promise<MutationResult>}
   */
  appendItems(params) {
    return this.request("layout/appendItems", params);
  }

  /**
   * `layout/scrollSection`: Scrolls an orthogonal row: the delta of the viewport.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, section: integer, offset: number}} params
   * @returns {Promise<RowScrollResult>}
   */
  scrollSection(params) {
    return this.request("layout/scrollSection", params);
  }

  /**
   * `layout/beginInteractiveMovement`: Starts dragging an item to reorder it.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, section?: integer, item?: integer, id?: ItemID, lap?: integer}} params
   * @returns {Promise<MovementBegan>}
   */
  beginInteractiveMovement(params) {
    return this.request("layout/beginInteractiveMovement", params);
  }

  /**
   * `layout/updateInteractiveMovement`: Moves the dragged item's centre: the delta, the target and the autoscroll velocity.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, position: Point}} params
   * @returns {Promise<MovementUpdateResult>}
   */
  updateInteractiveMovement(params) {
    return this.request("layout/updateInteractiveMovement", params);
  }

  /**
   * `layout/endInteractiveMovement`: Drops the dragged item at its target: one batch move.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string}} params
   * @returns {Promise<MovementEndResult>}
   */
  endInteractiveMovement(params) {
    return this.request("layout/endInteractiveMovement", params);
  }

  /**
   * `layout/cancelInteractiveMovement`: Puts the dragged item back: the delta to the data.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string}} params
   * @returns {Promise<MutationResult>}
   */
  cancelInteractiveMovement(params) {
    return this.request("layout/cancelInteractiveMovement", params);
  }

  /**
   * `layout/setItemSeparators`: A list's per-item separator overrides (itemSeparatorHandler): the batch's delta.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, items: ItemSeparators[]}} params
   * @returns {Promise<BatchUpdatesResult>}
   */
  setItemSeparators(params) {
    return this.request("layout/setItemSeparators", params);
  }

  /**
   * `layout/beginSwipe`: Starts swiping a row to reveal its actions.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, section?: integer, item?: integer, id?: ItemID, edge: "leading" | "trailing", actions: SwipeAction[], performsFirstActionWithFullSwipe?: boolean}} params
   * @returns {Promise<SwipeBegan>}
   */
  beginSwipe(params) {
    return this.request("layout/beginSwipe", params);
  }

  /**
   * `layout/updateSwipe`: Moves the swiped row's content: the action buttons' frames.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, translation: number}} params
   * @returns {Promise<SwipeUpdate>}
   */
  updateSwipe(params) {
    return this.request("layout/updateSwipe", params);
  }

  /**
   * `layout/endSwipe`: Releases the swipe: whether it performs, rests open or closes.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, velocity: number}} params
   * @returns {Promise<SwipeEnd>}
   */
  endSwipe(params) {
    return this.request("layout/endSwipe", params);
  }

  /**
   * `layout/closeSwipe`: Closes the open swipe, if any.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string}} params
   * @returns {Promise<SwipeClosed>}
   */
  closeSwipe(params) {
    return this.request("layout/closeSwipe", params);
  }

  /**
   * `layout/expand`: Expands outline nodes (children: one node's lazily loaded subtree): the batch's delta and updates.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, ids: ItemID[], children?: OutlineNode[]}} params
   * @returns {Promise<OutlineChangeResult>}
   */
  expand(params) {
    return this.request("layout/expand", params);
  }

  /**
   * `layout/collapse`: Collapses outline nodes: the batch's delta and updates.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, ids: ItemID[]}} params
   * @returns {Promise<OutlineChangeResult>}
   */
  collapse(params) {
    return this.request("layout/collapse", params);
  }

  /**
   * `layout/outlineAppend`: Appends outline nodes as a parent's last children or a section's last roots.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, section?: integer, parent?: ItemID, items: OutlineNode[]}} params
   * @returns {Promise<OutlineChangeResult>}
   */
  outlineAppend(params) {
    return this.request("layout/outlineAppend", params);
  }

  /**
   * `layout/outlineInsert`: Inserts outline nodes as siblings before or after a node.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, before?: ItemID, after?: ItemID, items: OutlineNode[]}} params
   * @returns {Promise<OutlineChangeResult>}
   */
  outlineInsert(params) {
    return this.request("layout/outlineInsert", params);
  }

  /**
   * `layout/outlineDelete`: Deletes outline nodes, each with its descendants.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, ids: ItemID[]}} params
   * @returns {Promise<OutlineChangeResult>}
   */
  outlineDelete(params) {
    return this.request("layout/outlineDelete", params);
  }

  /**
   * `layout/outlineReplaceChildren`: Replaces a node's children; they may reuse ids of the subtree they replace.
   * The answer patches the picture (picture: "delta": removed, then invalidated): `Picture.apply` it.
   * @param {{session: string, parent: ItemID, children: OutlineNode[]}} params
   * @returns {Promise<OutlineChangeResult>}
   */
  outlineReplaceChildren(params) {
    return this.request("layout/outlineReplaceChildren", params);
  }

  /**
   * `layout/outline`: A section's whole outline, every node with its flag.
   * The answer leaves the picture as it is (picture: "none").
   * @param {{session: string, section: integer}} params
   * @returns {Promise<OutlineResult>}
   */
  outline(params) {
    return this.request("layout/outline", params);
  }
}
