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
/** @typedef {import('./flowlayout.js').AttributesPage} AttributesPage */
/** @typedef {import('./flowlayout.js').BatchUpdates} BatchUpdates */
/** @typedef {import('./flowlayout.js').BatchUpdatesResult} BatchUpdatesResult */
/** @typedef {import('./flowlayout.js').ContentSizeResult} ContentSizeResult */
/** @typedef {import('./flowlayout.js').ElementAttributes} ElementAttributes */
/** @typedef {import('./flowlayout.js').ElementKey} ElementKey */
/** @typedef {import('./flowlayout.js').Insets} Insets */
/** @typedef {import('./flowlayout.js').ItemID} ItemID */
/** @typedef {import('./flowlayout.js').ItemPosition} ItemPosition */
/** @typedef {import('./flowlayout.js').ItemRef} ItemRef */
/** @typedef {import('./flowlayout.js').ItemSizeUpdate} ItemSizeUpdate */
/** @typedef {import('./flowlayout.js').LayoutConfiguration} LayoutConfiguration */
/** @typedef {import('./flowlayout.js').MovementBegan} MovementBegan */
/** @typedef {import('./flowlayout.js').MovementEndResult} MovementEndResult */
/** @typedef {import('./flowlayout.js').MovementUpdateResult} MovementUpdateResult */
/** @typedef {import('./flowlayout.js').MutationResult} MutationResult */
/** @typedef {import('./flowlayout.js').OpenResult} OpenResult */
/** @typedef {import('./flowlayout.js').OptionalElementAttributes} OptionalElementAttributes */
/** @typedef {import('./flowlayout.js').Point} Point */
/** @typedef {import('./flowlayout.js').Rect} Rect */
/** @typedef {import('./flowlayout.js').RowScrollResult} RowScrollResult */
/** @typedef {import('./flowlayout.js').ScrollPlan} ScrollPlan */
/** @typedef {import('./flowlayout.js').ScrollTarget} ScrollTarget */
/** @typedef {import('./flowlayout.js').Section} Section */
/** @typedef {import('./flowlayout.js').Size} Size */
/** @typedef {import('./flowlayout.js').SnapshotItem} SnapshotItem */
/** @typedef {import('./flowlayout.js').SnapshotResult} SnapshotResult */
/** @typedef {import('./flowlayout.js').SnapshotSection} SnapshotSection */
/** @typedef {import('./flowlayout.js').integer} integer */

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
  "layout/cancelInteractiveMovement": "cancelInteractiveMovement"
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
}
