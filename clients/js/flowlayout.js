// @ts-check
/**
 * The JavaScript client for flowlayoutd: JSON-RPC 2.0 with LSP base-protocol
 * framing (protocol.md), one zero-dependency ES module for Node >= 18 and
 * the browser.
 *
 * - Node: `FlowLayoutClient.spawn()` starts the daemon and talks to it over
 *   its stdin and stdout (Content-Length frames).
 * - Browser: `FlowLayoutClient.connect()` talks to the `flowlayout web`
 *   bridge: `GET /info` for the daemon's serverInfo and capabilities, one
 *   `POST /rpc` per message. The bridge owns the daemon's lifecycle
 *   (initialize, shutdown, exit), so this path never sends those.
 *
 * Both give the same client: `request`, `notify`, `close`, and one typed
 * wrapper per daemon method (`client.setBounds({session, bounds})`),
 * generated from the daemon's own method table into methods.js. The
 * `Picture` class keeps the client's copy of what is on screen, as the
 * Python client's `flowlayout.Picture` does.
 *
 * Nothing here needs Node at load time: node:child_process is imported only
 * by `spawn`, so the same file loads in a browser.
 */

import { LayoutMethods, METHODS, RESULT_SHAPES, WRAPPERS } from './methods.js';

export { LayoutMethods, METHODS, RESULT_SHAPES, WRAPPERS };

// The answers' shapes are generated into methods.js from the daemon's
// table (capabilities.resultShapes), so that no client drifts from it.
/** @typedef {import('./methods.js').OpenResult} OpenResult */
/** @typedef {import('./methods.js').MutationResult} MutationResult */
/** @typedef {import('./methods.js').BatchUpdatesResult} BatchUpdatesResult */
/** @typedef {import('./methods.js').SnapshotResult} SnapshotResult */
/** @typedef {import('./methods.js').RowScrollResult} RowScrollResult */
/** @typedef {import('./methods.js').MovementBegan} MovementBegan */
/** @typedef {import('./methods.js').MovementUpdateResult} MovementUpdateResult */
/** @typedef {import('./methods.js').MovementEndResult} MovementEndResult */
/** @typedef {import('./methods.js').ScrollPlan} ScrollPlan */
/** @typedef {import('./methods.js').ScrollTarget} ScrollTarget */
/** @typedef {import('./methods.js').AttributesPage} AttributesPage */
/** @typedef {import('./methods.js').ElementAttributes} ElementAttributes */
/** @typedef {import('./methods.js').OptionalElementAttributes} OptionalElementAttributes */
/** @typedef {import('./methods.js').ContentSizeResult} ContentSizeResult */
/** @typedef {import('./methods.js').Attributes} Attributes */
/** @typedef {import('./methods.js').ElementKey} ElementKey */
/** @typedef {import('./methods.js').ItemRef} ItemRef */
/** @typedef {import('./methods.js').MovedElement} MovedElement */
/** @typedef {import('./methods.js').SwipeBegan} SwipeBegan */
/** @typedef {import('./methods.js').SwipeUpdate} SwipeUpdate */
/** @typedef {import('./methods.js').SwipeEnd} SwipeEnd */
/** @typedef {import('./methods.js').SwipeClosed} SwipeClosed */

// MARK: the protocol's shapes (protocol.md "Values" and the method sections)

/**
 * A number the daemon wants whole (an index, a count, a lap): JSON has one
 * number type, and a fraction here is -32602.
 * @typedef {number} integer
 */
/** @typedef {{x: number, y: number}} Point */
/**
 * `{width, height}`, each >= 0. As an item's size in a waterfall it may
 * carry `fullSpan: true` (the item spans every column).
 * @typedef {{width: number, height: number, fullSpan?: boolean}} Size
 */
/** @typedef {{x: number, y: number, width: number, height: number}} Rect */
/** UIEdgeInsets; may be negative. @typedef {{top: number, left: number, bottom: number, right: number}} Insets */
/** Another name for Insets. @typedef {Insets} EdgeInsets */
/** @typedef {{section: number, item: number}} IndexPath */
/** A stable item or section id; `1` and `"1"` are different ids. @typedef {string | number} ItemID */
/** @typedef {"center" | "leading" | "trailing"} ItemPosition */
/** A section's background is a "decoration" (its `elementKind` is "background"); a list row's separators are "separator" (with `edge`). @typedef {"cell" | "header" | "footer" | "decoration" | "separator"} ElementKind */
/** A list item's separator override, named by path or id (layout/setItemSeparators). @typedef {{section?: number, item?: number, id?: ItemID, topSeparatorVisibility?: "automatic" | "visible" | "hidden", bottomSeparatorVisibility?: "automatic" | "visible" | "hidden", topSeparatorInsets?: {leading?: number, trailing?: number}, bottomSeparatorInsets?: {leading?: number, trailing?: number}}} ItemSeparators */
/** One swipe action's button: its preferred width and style. @typedef {{width: number, style?: "normal" | "destructive"}} SwipeAction */



/**
 * A section of the data source: `itemCount` items of the layout's
 * itemSize, or one size per item in `itemSizes`; optionally ids and the
 * per-section overrides (flow: inset, minimumLineSpacing,
 * minimumInteritemSpacing, headerSize, footerSize; waterfall: inset,
 * minimumInteritemSpacing, columnCount, minimumColumnSpacing, headerHeight,
 * footerHeight, headerInset, footerInset).
 * @typedef {object} Section
 * @property {ItemID} [id] the section's id (diffable snapshots)
 * @property {number} [itemCount]
 * @property {Array<Size | null>} [itemSizes] null: no size of its own yet
 * @property {ItemID[]} [ids]
 * @property {Insets} [inset]
 * @property {number} [minimumLineSpacing]
 * @property {number} [minimumInteritemSpacing]
 * @property {Size} [headerSize]
 * @property {Size} [footerSize]
 * @property {number} [columnCount]
 * @property {number} [minimumColumnSpacing]
 * @property {number} [headerHeight]
 * @property {number} [footerHeight]
 * @property {Insets} [headerInset]
 * @property {Insets} [footerInset]
 * @property {SectionLayout} [layout] a compositional section's own layout
 * @property {boolean} [allowsReordering] false: its items are not dragged
 *   to reorder and it takes none (default true)
 */

/**
 * A scale or alpha curve of the distance d: linear clamp(peak − factor·d)
 * or reciprocal clamp(peak / (1 + factor·d)).
 * @typedef {{curve?: "linear" | "reciprocal", peak?: number, factor?: number, minimum?: number, maximum?: number}} Curve
 */

/**
 * Where `layout/scrollEnded` comes to rest.
 * @typedef {object} SnapConfiguration
 * @property {"nearest" | "directional" | "paging" | "free"} [policy]
 * @property {"normal" | "fast" | number} [decelerationRate]
 * @property {number} [bias]
 * @property {number} [velocityThreshold]
 * @property {number} [maxItems]
 * @property {"snap" | "free"} [edges]
 */

/**
 * The fields `flow` and `coverFlow` share (UICollectionViewFlowLayout's).
 * @typedef {object} FlowFields
 * @property {"vertical" | "horizontal"} [scrollDirection]
 * @property {Size} [itemSize]
 * @property {number} [minimumLineSpacing]
 * @property {number} [minimumInteritemSpacing]
 * @property {Insets} [sectionInset]
 * @property {Size} [headerReferenceSize]
 * @property {Size} [footerReferenceSize]
 * @property {boolean} [sectionHeadersPinToVisibleBounds]
 * @property {boolean} [sectionFootersPinToVisibleBounds]
 * @property {"ltr" | "rtl"} [layoutDirection]
 * @property {Size} [estimatedItemSize]
 */

/** @typedef {FlowFields & {type: "flow"}} FlowLayoutConfiguration */

/**
 * @typedef {FlowFields & {
 *   type: "coverFlow",
 *   scale?: Curve,
 *   alpha?: Curve,
 *   distanceUnit?: "viewport" | "points" | "pitch",
 *   rotation?: {maxAngle?: number, perspective?: number},
 *   sideShift?: {factor?: number, maximum?: number},
 *   spacingMode?: "flow" | "fixed" | "overlap",
 *   overlap?: {visibleOffset?: number},
 *   ends?: "center" | "contain" | "centerIfFits",
 *   snap?: SnapConfiguration,
 *   loop?: boolean,
 * }} CoverFlowLayoutConfiguration
 */

/**
 * @typedef {object} WaterfallLayoutConfiguration
 * @property {"waterfall"} type
 * @property {"vertical" | "horizontal"} [scrollDirection]
 * @property {number} [columnCount]
 * @property {number} [minimumColumnSpacing]
 * @property {number} [minimumInteritemSpacing]
 * @property {Insets} [sectionInset]
 * @property {number} [headerHeight]
 * @property {number} [footerHeight]
 * @property {Insets} [headerInset]
 * @property {Insets} [footerInset]
 * @property {"shortestFirst" | "leftToRight" | "rightToLeft"} [itemRenderDirection]
 * @property {"packed" | "stable"} [placement]
 * @property {number} [pixelScale]
 * @property {number} [minimumContentHeight]
 * @property {Size} [itemSize]
 * @property {Size} [estimatedItemSize]
 * @property {boolean} [sectionHeadersPinToVisibleBounds]
 * @property {boolean} [sectionFootersPinToVisibleBounds]
 * @property {"ltr" | "rtl"} [layoutDirection]
 * @property {SnapConfiguration} [snap]
 */

/**
 * @typedef {"linear" | "rotary" | "invertedRotary" | "cylinder" | "invertedCylinder" | "wheel" |
 *   "invertedWheel" | "coverFlow" | "timeMachine" | "invertedTimeMachine"} CarouselStyle
 */

/**
 * @typedef {object} CarouselLayoutConfiguration
 * @property {"carousel"} type
 * @property {CarouselStyle} [style]
 * @property {Size} [itemSize]
 * @property {"vertical" | "horizontal"} [scrollDirection]
 * @property {number} [perspective]
 * @property {Size} [viewpointOffset]
 * @property {number} [spacing]
 * @property {number} [tilt]
 * @property {number} [arc]
 * @property {number} [radius]
 * @property {number} [count]
 * @property {{min?: number, max?: number, range?: number, minAlpha?: number}} [fade]
 * @property {boolean} [showBackfaces]
 * @property {boolean} [wrap]
 * @property {number} [visibleItems]
 * @property {number} [offsetMultiplier]
 * @property {SnapConfiguration} [snap]
 */

/**
 * NSCollectionLayoutDimension: exactly one member.
 * @typedef {{fractionalWidth: number} | {fractionalHeight: number} | {absolute: number} | {estimated: number}} LayoutDimension
 */
/** @typedef {{width: LayoutDimension, height: LayoutDimension}} LayoutSize */
/** NSDirectionalEdgeInsets (each 0 when absent). @typedef {{top?: number, leading?: number, bottom?: number, trailing?: number}} DirectionalInsets */
/** NSCollectionLayoutItem. @typedef {{size: LayoutSize, contentInsets?: DirectionalInsets}} LayoutItem */
/**
 * NSCollectionLayoutGroup (an object with `subitems` is a group).
 * @typedef {object} LayoutGroup
 * @property {"horizontal" | "vertical"} direction
 * @property {LayoutSize} size
 * @property {(LayoutItem | LayoutGroup)[]} subitems
 * @property {number} [count]
 * @property {{fixed: number} | {flexible: number}} [interItemSpacing]
 * @property {DirectionalInsets} [contentInsets]
 */
/**
 * NSCollectionLayoutSection.
 * @typedef {object} SectionLayout
 * @property {LayoutGroup} group
 * @property {number} [interGroupSpacing]
 * @property {DirectionalInsets} [contentInsets]
 * @property {"none" | "continuous" | "continuousGroupLeadingBoundary" | "paging" | "groupPaging" | "groupPagingCentered"} [orthogonalScrollingBehavior]
 * @property {{kind: "header" | "footer", size: LayoutSize, pinToVisibleBounds?: boolean}[]} [boundarySupplementaryItems]
 * @property {{kind: "background", contentInsets?: DirectionalInsets}[]} [decorationItems]
 * @property {{scale?: Curve, alpha?: Curve}} [effect]
 */
/**
 * UICollectionViewCompositionalLayout.
 * @typedef {object} CompositionalLayoutConfiguration
 * @property {"compositional"} type
 * @property {"vertical" | "horizontal"} [scrollDirection]
 * @property {number} [interSectionSpacing]
 * @property {SectionLayout} [section]
 * @property {"ltr" | "rtl"} [layoutDirection]
 */

/**
 * FSPagerView: pages one pitch apart, drawn by a transformer.
 * @typedef {object} PagerLayoutConfiguration
 * @property {"pager"} type
 * @property {Size | null} [itemSize] null or {width: 0, height: 0}: the bounds' size
 * @property {number} [interitemSpacing]
 * @property {"crossFading" | "zoomOut" | "depth" | "overlap" | "linear" | "coverFlow" |
 *   "ferrisWheel" | "invertedFerrisWheel" | "cubic" | null} [transformer]
 * @property {number} [minimumScale] in [0, 1)
 * @property {number} [minimumAlpha] in [0, 1]
 * @property {boolean} [wrap] FSPagerView's isInfinite
 * @property {"vertical" | "horizontal"} [scrollDirection]
 * @property {number | "automatic"} [decelerationDistance] pages a fling passes (≥ 1)
 * @property {boolean} [removesInfiniteLoopForSingleItem]
 */

/**
 * The drag-to-reorder fields every type's `layout` takes.
 * @typedef {object} ReorderFields
 * @property {"uikit" | "nearest"} [reorderTargeting]
 * @property {number} [reorderHysteresis] nearest targeting's margin, points
 * @property {boolean} [allowsCrossSectionReordering]
 * @property {number} [autoscrollEdge] points
 * @property {number} [autoscrollMaxSpeed] points per ms
 */

/**
 * The `layout` of `layout/open`, chosen by `type`.
 * @typedef {(FlowLayoutConfiguration | CoverFlowLayoutConfiguration | WaterfallLayoutConfiguration |
 *   CarouselLayoutConfiguration | CompositionalLayoutConfiguration |
 *   PagerLayoutConfiguration) & ReorderFields} LayoutConfiguration
 */

/**
 * UICollectionView's performBatchUpdates: index paths of deletes, reloads
 * and move sources are before the update, of inserts and move
 * destinations after it.
 * @typedef {object} BatchUpdates
 * @property {number[]} [deleteSections]
 * @property {Array<Section & {index: number}>} [insertSections]
 * @property {Array<{from: number, to: number}>} [moveSections]
 * @property {IndexPath[]} [deleteItems]
 * @property {Array<IndexPath & {size?: Size, id?: ItemID}>} [insertItems]
 * @property {Array<{from: IndexPath, to: IndexPath, size?: Size}>} [moveItems]
 * @property {Array<IndexPath & {size?: Size}>} [reloadItems]
 * @property {Array<IndexPath & {size?: Size}>} [reconfigureItems] the item keeps its cell
 * @property {Array<Section & {index: number}>} [updateSections] a surviving section's own fields
 * @property {number[]} [itemCounts]
 */

/** A snapshot's item: its id, or its id and a size. @typedef {ItemID | {id: ItemID, size?: Size}} SnapshotItem */

/**
 * A snapshot's section (`layout/applySnapshot`): its id, its items in
 * order, and any of its own fields (as a Section has them).
 * @typedef {{id: ItemID, items: SnapshotItem[]} & Omit<Section, "itemCount" | "itemSizes" | "ids" | "id">} SnapshotSection
 */

/** A measured size (`layout/setItemSizes`), by path or by id. @typedef {{section: number, item: number, size: Size} | {id: ItemID, size: Size}} ItemSizeUpdate */











/** @typedef {{attributes: Attributes[]}} AttributesList */

/**
 * One entry of the daemon's `capabilities.methodTable` (and of METHODS).
 * `type` and `result` are TypeScript type expressions over the names above;
 * `picture` says what the answer does to the client's picture: "open"
 * starts it over, "delta" patches it (removed, then invalidated), "none"
 * leaves it.
 * @typedef {object} MethodInfo
 * @property {string} name
 * @property {string} summary
 * @property {ReadonlyArray<{name: string, type: string, required: boolean}>} params
 * @property {string} result
 * @property {"open" | "delta" | "none"} picture
 */

/** @typedef {{name?: string, version?: string}} ServerInfo */

/**
 * `initialize`'s capabilities (the fields this module reads; the daemon
 * reports more: layoutTypes, snapPolicies, …).
 * @typedef {{methods?: string[], methodTable?: MethodInfo[], limits?: Record<string, number | null>} & Record<string, any>} Capabilities
 */

// MARK: errors

/**
 * A JSON-RPC error response. `data` is the daemon's `error.data`; `field`
 * its `data.field`, the path of the offending field
 * (`params.bounds.width`), when the daemon named one. `method` is the
 * method of the request that failed.
 */
export class RPCError extends Error {
  static PARSE_ERROR = -32700;
  static INVALID_REQUEST = -32600;
  static METHOD_NOT_FOUND = -32601;
  static INVALID_PARAMS = -32602;
  static INTERNAL_ERROR = -32603;
  static SERVER_NOT_INITIALIZED = -32002;
  static REQUEST_CANCELLED = -32800;
  static UNKNOWN_SESSION = 1001;
  static SESSION_EXISTS = 1002;
  static INVALID_BATCH_UPDATE = 1003;
  static LIMIT_EXCEEDED = 1004;

  /**
   * @param {number} code
   * @param {string} message
   * @param {any} [data]
   * @param {string} [method]
   */
  constructor(code, message, data, method) {
    super(message);
    this.name = 'RPCError';
    /** @type {number} */
    this.code = code;
    /** @type {any} */
    this.data = data === undefined ? null : data;
    /** @type {string | undefined} */
    this.method = method;
  }

  /** The offending field's path, when the daemon named one. @returns {string | null} */
  get field() {
    const d = this.data;
    return d && typeof d === 'object' && typeof d.field === 'string' ? d.field : null;
  }

  toString() {
    return `${this.message} (code ${this.code})`;
  }

  /**
   * @param {any} error a JSON-RPC error object
   * @param {string} [method]
   */
  static fromJSON(error, method) {
    if (!error || typeof error !== 'object') {
      return new RPCError(RPCError.INTERNAL_ERROR, `malformed error object ${JSON.stringify(error)}`, null, method);
    }
    return new RPCError(Number(error.code), String(error.message ?? ''), error.data, method);
  }
}

/**
 * The daemon (or the bridge) went away or broke the protocol. For a spawned
 * daemon the message ends with the last lines it wrote to stderr.
 */
export class DaemonError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'DaemonError';
  }
}

/** The daemon's output is not a well-formed LSP frame. */
export class ProtocolError extends DaemonError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ProtocolError';
  }
}

// MARK: framing (protocol.md "Transport")

const encoder = new TextEncoder();
/** Header blocks longer than this are not LSP headers (the daemon's own bound). */
const MAX_HEADER_BYTES = 65536;
const CR = 13;
const LF = 10;

/**
 * One frame: `Content-Length: N\r\n\r\n` and the N bytes of `body` in UTF-8
 * (N counts bytes, not characters).
 * @param {string | Uint8Array} body
 * @returns {Uint8Array}
 */
export function encodeFrame(body) {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const header = encoder.encode(`Content-Length: ${bytes.byteLength}\r\n\r\n`);
  const out = new Uint8Array(header.byteLength + bytes.byteLength);
  out.set(header, 0);
  out.set(bytes, header.byteLength);
  return out;
}

/**
 * An incremental LSP frame reader. `push` takes the bytes as they arrive,
 * in chunks of any size (a header may be split anywhere, a chunk may hold
 * several frames, a multi-byte UTF-8 character may straddle two chunks),
 * and returns the bodies of the frames it completed, as bytes. Header names
 * are case-insensitive and unknown headers (Content-Type) are ignored;
 * a header block without a valid Content-Length throws a ProtocolError.
 */
export class FrameParser {
  /** @type {Uint8Array[]} */
  #chunks = [];
  #size = 0;
  /** The body length of the frame being read; -1 while reading a header. */
  #need = -1;
  /** Where to resume looking for the blank line in the header block. */
  #scan = 0;

  /** Bytes held: an incomplete header or body. */
  get buffered() {
    return this.#size;
  }

  /**
   * @param {Uint8Array} chunk
   * @returns {Uint8Array[]} the bodies completed by this chunk, in order
   */
  push(chunk) {
    if (chunk.byteLength) {
      this.#chunks.push(chunk);
      this.#size += chunk.byteLength;
    }
    /** @type {Uint8Array[]} */
    const bodies = [];
    for (;;) {
      if (this.#need < 0) {
        const buf = this.#flatten();
        const end = headerEnd(buf, this.#scan);
        if (end < 0) {
          if (buf.byteLength > MAX_HEADER_BYTES) {
            throw new ProtocolError(`frame header longer than ${MAX_HEADER_BYTES} bytes`);
          }
          this.#scan = Math.max(0, buf.byteLength - 3);
          return bodies;
        }
        this.#need = parseHeader(buf.subarray(0, end));
        this.#take(buf, end + 4);
        this.#scan = 0;
      }
      if (this.#size < this.#need) return bodies;
      const buf = this.#flatten();
      bodies.push(buf.slice(0, this.#need));
      this.#take(buf, this.#need);
      this.#need = -1;
    }
  }

  /** All held bytes as one array (copied only when there are several chunks). */
  #flatten() {
    if (this.#chunks.length === 0) return new Uint8Array(0);
    if (this.#chunks.length === 1) return this.#chunks[0];
    const out = new Uint8Array(this.#size);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    this.#chunks = [out];
    return out;
  }

  /**
   * Drops the first n bytes of `buf`, which holds everything buffered.
   * @param {Uint8Array} buf
   * @param {number} n
   */
  #take(buf, n) {
    const rest = buf.subarray(n);
    this.#chunks = rest.byteLength ? [rest] : [];
    this.#size = rest.byteLength;
  }
}

/**
 * The index of the `\r\n\r\n` that ends a header block, or -1.
 * @param {Uint8Array} buf
 * @param {number} from
 */
function headerEnd(buf, from) {
  for (let i = from; i + 3 < buf.byteLength; i++) {
    if (buf[i] === CR && buf[i + 1] === LF && buf[i + 2] === CR && buf[i + 3] === LF) return i;
  }
  return -1;
}

/**
 * The Content-Length of a header block (without its blank line).
 * @param {Uint8Array} block
 */
function parseHeader(block) {
  let length = -1;
  // Header lines are ASCII; latin1 keeps every byte as one character.
  let text = '';
  for (let i = 0; i < block.byteLength; i++) text += String.fromCharCode(block[i]);
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) throw new ProtocolError(`malformed header line ${JSON.stringify(line)}`);
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d+$/.test(value)) throw new ProtocolError(`bad Content-Length ${JSON.stringify(value)}`);
    length = Number(value);
  }
  if (length < 0) throw new ProtocolError('frame without a Content-Length header');
  return length;
}

// MARK: packed sizes

/**
 * `[w0, h0, w1, h1, …]` as `widthsAndHeightsBase64` takes them (protocol.md,
 * "Packed sizes"): base64 of little-endian float64 pairs. Every double
 * arrives exactly, and the daemon reads the string several times faster
 * than an array of numbers.
 * @param {ArrayLike<number>} widthsAndHeights
 * @returns {string}
 */
export function packSizes(widthsAndHeights) {
  const bytes = new Uint8Array(widthsAndHeights.length * 8);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < widthsAndHeights.length; i++) view.setFloat64(8 * i, widthsAndHeights[i], true);
  let binary = '';
  // btoa takes a binary string; built in slices to stay within argument limits.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

// MARK: the picture

const KIND_ORDER = /** @type {Record<string, number>} */ ({
  decoration: -1,
  header: 0,
  cell: 1,
  separator: 1,
  footer: 2,
});
/** Within a list row: its top separator, its cell, its bottom separator. */
const EDGE_ORDER = /** @type {Record<string, number>} */ ({ top: 0, bottom: 2 });

/**
 * An element's key as a string: `kind/section/item`, plus `/lap` for a lap
 * other than 0 (absent and 0 are one key, as in the Python client), and a
 * separator's `:edge` after its kind. Takes attributes, a `removed` entry,
 * or `[kind, section, item, lap?, edge?]`.
 * @param {ElementKey | readonly [string, number, number, (number | null)?, (string | null)?]} key
 * @returns {string}
 */
export function elementKey(key) {
  if (Array.isArray(key)) {
    const [kind, section, item, lap, edge] = key;
    const k = edge ? `${kind}:${edge}` : kind;
    return lap ? `${k}/${section}/${item}/${lap}` : `${k}/${section}/${item}`;
  }
  const e = /** @type {ElementKey} */ (key);
  const k = e.edge ? `${e.kind}:${e.edge}` : e.kind;
  return e.lap ? `${k}/${e.section}/${e.item}/${e.lap}` : `${k}/${e.section}/${e.item}`;
}

/**
 * The daemon's document order, as a comparator: by lap (0 when absent),
 * section, then background, header, rows, footer (any other kind after
 * them), then item, then within a list row its top separator, its cell,
 * its bottom separator. The Python client's ElementKey.document_order.
 * @param {ElementKey} a
 * @param {ElementKey} b
 */
export function documentOrder(a, b) {
  return (
    (a.lap || 0) - (b.lap || 0) ||
    a.section - b.section ||
    (KIND_ORDER[a.kind] ?? 3) - (KIND_ORDER[b.kind] ?? 3) ||
    a.item - b.item ||
    (a.edge ? EDGE_ORDER[a.edge] ?? 1 : 1) - (b.edge ? EDGE_ORDER[b.edge] ?? 1 : 1)
  );
}

/**
 * Back to front: by zIndex, then document order (a later item is drawn
 * over an earlier one, as UIKit adds it to the view hierarchy later).
 * @param {Attributes} a
 * @param {Attributes} b
 */
export function paintingOrder(a, b) {
  return a.zIndex - b.zIndex || documentOrder(a, b);
}

/**
 * The client's copy of what is on screen, kept up to date incrementally:
 * what a UICollectionView does with a layout's answers. Elements are the
 * daemon's attribute objects as received, keyed by (kind, section, item)
 * and, in a loop, lap.
 */
export class Picture {
  /** @type {Map<string, Attributes>} */
  #elements = new Map();
  /** Items that have ids, by id (a JSON text: 1 and "1" differ). @type {Map<string, Attributes>} */
  #byId = new Map();
  /** The content size of the last answer applied. @type {Size | null} */
  contentSize = null;
  /** The bounds of the last answer applied (what the client adopts). @type {Rect | null} */
  bounds = null;
  /** The centred item of the last answer applied, with its lap in a loop. @type {ItemRef | null} */
  centeredItem = null;

  /**
   * Starts over from a `layout/open` result.
   * @param {OpenResult} result
   */
  applyOpen(result) {
    if (!result || !Array.isArray(result.attributes)) {
      throw new TypeError('Picture.applyOpen wants a layout/open result ({contentSize, bounds, attributes, …})');
    }
    this.#elements = new Map(result.attributes.map((a) => [elementKey(a), a]));
    this.#byId = new Map(result.attributes.filter((a) => a.id !== undefined).map((a) => [idKey(a.id), a]));
    this.#adopt(result);
  }

  /**
   * Applies the answer of any method that changes the session
   * (setBounds, performBatchUpdates, reloadData, configure, setItemSizes,
   * appendItems): drops `removed`, then replaces or adds every
   * `invalidated` element. A `layout/open` result (attributes and no
   * invalidated) starts over, as applyOpen. `appearing` and `disappearing`
   * are only for animating: the final attributes of an inserted element
   * are in `invalidated`, a deleted one is in `removed`.
   * @param {MutationResult | OpenResult} result
   */
  apply(result) {
    if (result && 'attributes' in result && !('invalidated' in result)) {
      this.applyOpen(result);
      return;
    }
    const r = /** @type {MutationResult} */ (result);
    if (!r || !Array.isArray(r.invalidated) || !Array.isArray(r.removed)) {
      throw new TypeError('Picture.apply wants a layout/open result or a delta ({invalidated, removed, …})');
    }
    for (const key of r.removed) {
      this.#forget(this.#elements.get(elementKey(key)));
      this.#elements.delete(elementKey(key));
    }
    for (const a of r.invalidated) {
      this.#forget(this.#elements.get(elementKey(a)));
      this.#elements.set(elementKey(a), a);
      if (a.id !== undefined) this.#byId.set(idKey(a.id), a);
    }
    this.#adopt(r);
  }

  /** @param {Attributes | undefined} a */
  #forget(a) {
    if (a && a.id !== undefined && this.#byId.get(idKey(a.id)) === a) this.#byId.delete(idKey(a.id));
  }

  /**
   * The visible item with this id (in a loop, one of its copies): a view
   * keyed by id survives moves and snapshots.
   * @param {ItemID} id
   * @returns {Attributes | undefined}
   */
  byId(id) {
    return this.#byId.get(idKey(id));
  }

  /** @param {{contentSize: Size, bounds: Rect, centeredItem?: ItemRef | null}} r */
  #adopt(r) {
    this.contentSize = r.contentSize;
    this.bounds = r.bounds;
    this.centeredItem = r.centeredItem ?? null;
  }

  /** The visible elements in the daemon's document order. @returns {Attributes[]} */
  elements() {
    return [...this.#elements.values()].sort(documentOrder);
  }

  /** The elements back to front: by zIndex, then document order. @returns {Attributes[]} */
  paintingOrder() {
    return [...this.#elements.values()].sort(paintingOrder);
  }

  /**
   * @param {ElementKey | readonly [string, number, number, (number | null)?]} key
   * @returns {Attributes | undefined}
   */
  get(key) {
    return this.#elements.get(elementKey(key));
  }

  /** @param {ElementKey | readonly [string, number, number, (number | null)?]} key */
  has(key) {
    return this.#elements.has(elementKey(key));
  }

  /** How many elements are visible. */
  get size() {
    return this.#elements.size;
  }

  /** The elements' keys ({kind, section, item, lap?}) in document order. @returns {ElementKey[]} */
  keys() {
    return this.elements().map((a) =>
      a.lap ? { kind: a.kind, section: a.section, item: a.item, lap: a.lap } : { kind: a.kind, section: a.section, item: a.item },
    );
  }

  [Symbol.iterator]() {
    return this.elements()[Symbol.iterator]();
  }
}

/** An id as a map key: its JSON text, so that 1 and "1" stay apart. @param {ItemID} id */
function idKey(id) {
  return JSON.stringify(id);
}

// MARK: what an answer does to the picture, from the method table

/**
 * What a method's answer does to the picture, by the method table
 * (capabilities.methodTable, or the generated METHODS): "open" (starts it
 * over), "delta" (patches it), "none", or undefined for a method the table
 * does not list.
 * @param {string} method
 * @param {ReadonlyArray<MethodInfo>} [table]
 * @returns {"open" | "delta" | "none" | undefined}
 */
export function pictureEffect(method, table = METHODS) {
  const entry = table.find((m) => m.name === method);
  return entry ? entry.picture : undefined;
}

/**
 * Whether a method's answer changes the picture ("open" or "delta" in the
 * method table): the answers to hand to `Picture.apply`.
 * @param {string} method
 * @param {ReadonlyArray<MethodInfo>} [table]
 */
export function changesPicture(method, table = METHODS) {
  const effect = pictureEffect(method, table);
  return effect === 'open' || effect === 'delta';
}

// MARK: transports

/**
 * @typedef {object} Transport
 * @property {(message: object, options?: RequestOptions) => Promise<any>} send
 *   sends a request; resolves with its response object
 * @property {(message: object, options?: RequestOptions) => Promise<void>} post
 *   sends a notification
 * @property {(client: FlowLayoutClient, timeoutMs: number) => Promise<number | null>} close
 * @property {() => string[]} [stderrTail]
 */

/**
 * Per-request options. `keepalive` (browser only) lets the request outlive
 * the page, as fetch's keepalive does (for a `layout/close` on pagehide).
 * @typedef {{keepalive?: boolean}} RequestOptions
 */

const STDERR_LINES = 50;
/**
 * After the first sign of a dead daemon (its output ended, the process
 * exited, a write failed), how long to wait for the rest (the last answers
 * still in the pipe, the exit status) before failing what is waiting.
 */
const GONE_GRACE_MS = 1000;

/**
 * The DaemonErrors that say the connection to the daemon is lost: its
 * output ended, it exited, a write to it failed, or it sent a bad frame
 * (after which nothing it says can be read), as opposed to a client that
 * is closed. The errors a `{restart: true}` client restarts on.
 * @type {WeakSet<Error>}
 */
const LOST = new WeakSet();

/** The daemon's stdio: Content-Length frames, answers matched by id. */
class StdioTransport {
  /** @type {import('node:child_process').ChildProcessWithoutNullStreams} */
  #child;
  #parser = new FrameParser();
  #decoder = new TextDecoder('utf-8', { fatal: true });
  /** Requests awaiting an answer, in the order sent. @type {Map<number | string, {resolve: (v: any) => void, reject: (e: Error) => void, method: string}>} */
  #pending = new Map();
  /** @type {string[]} */
  #stderr = [];
  #stderrPartial = '';
  /** @type {Error | null} */
  #broken = null;
  /** Whether the daemon's stdout has ended. */
  #eof = false;
  /** @type {Promise<void>} */
  #ended;
  /** The first failed write to the daemon's stdin (EPIPE). @type {Error | null} */
  #writeError = null;
  /** Set at the first sign of death. */
  #dying = false;
  /** @type {number | null} */
  exitCode = null;
  /** @type {Promise<number | null>} */
  exited;

  /**
   * @param {import('node:child_process').ChildProcessWithoutNullStreams} child
   * @param {Record<string, number>} signals signal numbers by name (os.constants.signals)
   */
  constructor(child, signals) {
    this.#child = child;
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        // As Python's Popen.returncode: the negated signal number when a signal ended it.
        this.exitCode = code ?? (signal ? -(signals[signal] ?? 0) : null);
        resolve(this.exitCode);
        this.#gone();
      });
    });
    this.#ended = new Promise((resolve) => {
      const ended = () => {
        this.#eof = true;
        resolve(undefined);
      };
      child.stdout.on('end', ended);
      child.stdout.on('close', ended);
    });
    child.on('error', (e) => this.#fail(this.#error(`flowlayoutd: ${e.message}`)));
    child.stdin.on('error', (e) => {
      // EPIPE: the daemon closed its input, or died.
      if (!this.#writeError) this.#writeError = e;
      this.#gone();
    });
    child.stdout.on('data', (chunk) => this.#onData(chunk));
    child.stdout.on('end', () => this.#gone());
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => this.#onStderr(text));
  }

  /** Kills the daemon (SIGKILL) if it still runs, and closes its input. */
  kill() {
    if (this.exitCode === null) this.#child.kill('SIGKILL');
    this.#child.stdin.destroy();
  }

  /** The daemon's last stderr lines. */
  stderrTail() {
    return this.#stderrPartial ? [...this.#stderr, this.#stderrPartial] : [...this.#stderr];
  }

  /** @param {string} text */
  #onStderr(text) {
    const lines = (this.#stderrPartial + text).split('\n');
    this.#stderrPartial = lines.pop() ?? '';
    this.#stderr.push(...lines);
    if (this.#stderr.length > STDERR_LINES) this.#stderr.splice(0, this.#stderr.length - STDERR_LINES);
  }

  /** @param {Uint8Array} chunk */
  #onData(chunk) {
    if (this.#broken) return;
    let bodies;
    try {
      bodies = this.#parser.push(chunk);
    } catch (e) {
      this.#fail(this.#error(`bad frame from flowlayoutd: ${/** @type {Error} */ (e).message}`));
      return;
    }
    for (const body of bodies) {
      let message;
      try {
        message = JSON.parse(this.#decoder.decode(body));
      } catch (e) {
        this.#fail(this.#error(`flowlayoutd sent invalid JSON: ${/** @type {Error} */ (e).message}`));
        return;
      }
      this.#dispatch(message);
    }
  }

  /** @param {any} message */
  #dispatch(message) {
    if (!message || typeof message !== 'object' || Array.isArray(message) || 'method' in message) {
      return; // the daemon sends no requests or notifications, and we send no batches
    }
    let id = message.id;
    if (id === null || id === undefined) {
      // The daemon could not read a message at all. It answers in order,
      // so this is about the oldest request still waiting.
      if (!('error' in message)) return;
      const first = this.#pending.keys().next();
      if (first.done) return;
      id = first.value;
    }
    const waiter = this.#pending.get(id);
    if (!waiter) return; // not ours
    this.#pending.delete(id);
    waiter.resolve(message);
  }

  /**
   * The daemon is going: its output ended, it exited or a write to it
   * failed. Waits for both the end of its output (the answers still in the
   * pipe are read) and its exit (for the status), at most GONE_GRACE_MS,
   * then fails every request still waiting with a DaemonError that says
   * the daemon is gone.
   */
  #gone() {
    if (this.#dying) return;
    this.#dying = true;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const grace = new Promise((resolve) => {
      timer = setTimeout(resolve, GONE_GRACE_MS);
      if (typeof timer === 'object' && timer && 'unref' in timer) timer.unref();
    });
    Promise.race([Promise.all([this.#ended, this.exited]), grace]).then(() => {
      clearTimeout(timer);
      let what;
      if (this.#eof) {
        what = `flowlayoutd closed its output${this.#parser.buffered ? ' in the middle of a frame' : ''}`;
      } else if (this.exitCode !== null) {
        what = 'flowlayoutd exited';
      } else {
        const code = /** @type {any} */ (this.#writeError)?.code;
        what = `cannot write to flowlayoutd${code ? ` (${code})` : ''}`;
      }
      this.#fail(this.#error(what));
    });
  }

  /**
   * A DaemonError for a lost connection, ending with the exit status and
   * the last stderr lines.
   * @param {string} what
   */
  #error(what) {
    if (this.exitCode !== null) what += ` (exit status ${this.exitCode})`;
    const tail = this.stderrTail();
    if (tail.length) what += `\nflowlayoutd stderr:\n  ${tail.slice(-20).join('\n  ')}`;
    const error = new DaemonError(what);
    LOST.add(error);
    return error;
  }

  /** @param {Error} error */
  #fail(error) {
    if (!this.#broken) this.#broken = error;
    for (const [, waiter] of this.#pending) waiter.reject(this.#broken);
    this.#pending.clear();
  }

  /** @param {any} message */
  #write(message) {
    if (this.#broken) throw this.#broken;
    if (!this.#child.stdin.writable) throw this.#error('flowlayoutd is gone');
    this.#child.stdin.write(encodeFrame(JSON.stringify(message)));
  }

  /** @param {any} message */
  send(message) {
    return new Promise((resolve, reject) => {
      try {
        this.#write(message);
      } catch (e) {
        reject(e);
        return;
      }
      this.#pending.set(message.id, { resolve, reject, method: message.method });
    });
  }

  /** @param {any} message */
  async post(message) {
    this.#write(message);
  }

  /**
   * `shutdown`, `exit`, EOF; then waits for the process (killing it after
   * `timeoutMs`). Resolves with its exit code (minus the signal number
   * when a signal ended it).
   * @param {FlowLayoutClient} client
   * @param {number} timeoutMs
   */
  async close(client, timeoutMs) {
    if (this.exitCode === null && !this.#broken) {
      try {
        await client.request('shutdown');
        await client.notify('exit');
      } catch {
        /* the daemon is gone already: reap it */
      }
    }
    this.#child.stdin.end(); // EOF also ends a daemon that missed `exit`
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const killed = new Promise((resolve) => {
      timer = setTimeout(() => {
        this.#child.kill('SIGKILL');
        resolve(undefined);
      }, timeoutMs);
    });
    await Promise.race([this.exited, killed]);
    clearTimeout(timer);
    const code = await this.exited;
    this.#fail(new DaemonError('the client is closed'));
    return code;
  }
}

/** The `flowlayout web` bridge: POST /rpc per message. */
class HttpTransport {
  #base;
  /** @type {typeof fetch | undefined} */
  #fetch;

  /**
   * @param {string} base the bridge's URL without a trailing slash ('' for the page's own origin)
   * @param {typeof fetch | undefined} fetchImpl
   */
  constructor(base, fetchImpl) {
    this.#base = base;
    this.#fetch = fetchImpl;
  }

  /**
   * POSTs one message. No await comes before the fetch, so a request made
   * in a pagehide handler goes out before the page does.
   * @param {any} message
   * @param {RequestOptions} [options]
   */
  async #post(message, options) {
    const f = this.#fetch ?? globalThis.fetch;
    /** @type {RequestInit} */
    const init = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(message),
    };
    if (options && options.keepalive) init.keepalive = true;
    let response;
    try {
      response = await f(`${this.#base}/rpc`, init);
    } catch (e) {
      throw new DaemonError(`cannot reach the bridge at ${this.#base || 'this origin'}: ${/** @type {Error} */ (e).message}`);
    }
    const text = await response.text();
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: reported below */
    }
    return { status: response.status, text, answer };
  }

  /**
   * @param {any} message
   * @param {RequestOptions} [options]
   */
  async send(message, options) {
    const { status, text, answer } = await this.#post(message, options);
    if (answer && typeof answer === 'object' && !Array.isArray(answer) && ('result' in answer || 'error' in answer)) {
      return answer;
    }
    throw new DaemonError(`${message.method}: HTTP ${status} ${text.trim()}`.trim());
  }

  /**
   * @param {any} message
   * @param {RequestOptions} [options]
   */
  async post(message, options) {
    const { status, text, answer } = await this.#post(message, options);
    if (status === 204) return;
    if (answer && typeof answer === 'object' && answer.error) throw RPCError.fromJSON(answer.error, message.method);
    throw new DaemonError(`${message.method}: HTTP ${status} ${text.trim()}`.trim());
  }

  /** The bridge owns the daemon: nothing to send. */
  async close() {
    return null;
  }
}

// MARK: the client

/**
 * @typedef {object} SpawnOptions
 * @property {string} [daemon] the daemon's path (default: `findDaemon()`'s: $FLOWLAYOUTD, a checkout's
 *   .build/{release,debug}, then PATH)
 * @property {string[]} [args] extra command-line arguments (`--max-sessions 10`, …)
 * @property {{name: string, version?: string}} [clientInfo] sent with initialize
 * @property {Record<string, string | undefined>} [env] the daemon's environment (default: this process's)
 * @property {boolean} [restart] restart a daemon that dies and bring its sessions back (default false;
 *   see FlowLayoutClient's "Restarting")
 */

/**
 * How many daemons a `{restart: true}` client starts in a row, with no
 * request answered in between, before it gives up.
 */
const MAX_RESTARTS_IN_A_ROW = 3;

/**
 * One request of a session's log: the method and a deep copy of the
 * params as sent. `scroll`: which scroll the entry is, `"bounds"` for a
 * setBounds that kept the session's size, `"row:<section>"` for a row's
 * scrollSection.
 * @typedef {{method: string, params: any, scroll?: string}} LogEntry
 */

/**
 * What a `{restart: true}` client keeps of one open session: the requests
 * that made it what it is, and its size (of the bounds last answered).
 * @typedef {{entries: LogEntry[], width: number, height: number}} SessionLog
 */

/**
 * Starts one daemon process and waits until it runs.
 * @typedef {() => Promise<{child: import('node:child_process').ChildProcessWithoutNullStreams, transport: StdioTransport}>} Launcher
 */

/** The checkout's builds, release first, as every client looks for them. */
const DAEMON_CANDIDATES = ['.build/release/flowlayoutd', '.build/debug/flowlayoutd'];

/**
 * Locates flowlayoutd, in the order every client (Python, JavaScript,
 * Swift) shares and the README's "Finding the daemon" documents: the
 * `daemon` argument; `$FLOWLAYOUTD`; `.build/release` then `.build/debug`
 * in the working directory or any parent, then beside this module or any
 * of its parents (a checkout's client finds the checkout's daemon);
 * finally `flowlayoutd` on `PATH`. Node only.
 * @param {{daemon?: string, env?: Record<string, string | undefined>, cwd?: string}} [options]
 * @returns {Promise<string>} the path (or the bare name found on PATH, as a path)
 * @throws {DaemonError} when none is found, naming where it looked
 */
export async function findDaemon(options = {}) {
  if (options.daemon) return options.daemon;
  const env = options.env ?? globalThis.process?.env ?? {};
  if (env.FLOWLAYOUTD) return env.FLOWLAYOUTD;
  const [fs, path, url] = await Promise.all([import('node:fs'), import('node:path'), import('node:url')]);
  /** @param {string} p */
  const executable = (p) => {
    try {
      return fs.statSync(p).isFile() && (fs.accessSync(p, fs.constants.X_OK), true);
    } catch {
      return false;
    }
  };
  const starts = [path.resolve(options.cwd ?? globalThis.process.cwd())];
  if (import.meta.url.startsWith('file:')) starts.push(path.dirname(url.fileURLToPath(import.meta.url)));
  for (const start of starts) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      for (const candidate of DAEMON_CANDIDATES) {
        const p = path.join(dir, candidate);
        if (executable(p)) return p;
      }
      if (path.dirname(dir) === dir) break;
    }
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, 'flowlayoutd');
    if (executable(p)) return p;
  }
  throw new DaemonError(
    'flowlayoutd not found: pass {daemon}, set FLOWLAYOUTD, build it with `swift build` ' +
      '(searched for .build/{release,debug}/flowlayoutd upward from the working directory ' +
      'and from this module), or put it on PATH',
  );
}

/**
 * A launcher for the daemon of `options` (the same path, args and env each
 * time).
 * @param {SpawnOptions} options
 * @returns {Promise<Launcher>}
 */
async function daemonLauncher(options) {
  const [{ spawn }, { constants }] = await Promise.all([import('node:child_process'), import('node:os')]);
  const env = options.env ?? globalThis.process?.env;
  const daemon = await findDaemon({ daemon: options.daemon, env });
  const args = [...(options.args ?? [])];
  return async () => {
    const child = spawn(daemon, args, { env }); // stdin, stdout and stderr piped
    await new Promise((resolve, reject) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', (e) =>
        reject(new DaemonError(`cannot start flowlayoutd (${daemon}): ${e.message}; pass {daemon}, set FLOWLAYOUTD or put flowlayoutd on PATH`)),
      );
    });
    return { child, transport: new StdioTransport(child, /** @type {Record<string, number>} */ (constants.signals)) };
  };
}

/**
 * @typedef {object} ConnectOptions
 * @property {string} [url] the bridge's URL ('' (default): the page's own origin)
 * @property {typeof fetch} [fetch] a fetch to use instead of globalThis.fetch
 */

/**
 * A connection to one flowlayoutd. Make one with `FlowLayoutClient.spawn()`
 * (Node) or `FlowLayoutClient.connect()` (the browser, through the bridge).
 * Requests may be pipelined: the daemon answers in order, and each promise
 * settles with its own answer.
 *
 * Every daemon method has a typed wrapper (generated into methods.js from
 * the daemon's method table): `client.setBounds({session, bounds})` is
 * `client.request('layout/setBounds', {session, bounds})`. The wrapper's
 * name is the method's name after `layout/`, as the Python client's
 * (`close({session})` closes a layout session; `shutdown()` ends the
 * connection).
 *
 * Large requests are sent whole: the daemon reads them all unless
 * `capabilities.limits.maxItemValuesPerRequest` is a number (it is null,
 * unlimited, by default), in which case a request carrying more item sizes
 * and ids than that is refused with error 1004 (RPCError.LIMIT_EXCEEDED,
 * naming the field) and changes nothing; send the rest with `appendItems`.
 *
 * Numbers are sent as JSON.stringify writes them: NaN and ±Infinity become
 * null, which the daemon refuses with -32602 naming the field.
 *
 * Restarting (`spawn({restart: true})`, Node only): the client keeps, per
 * open session, the requests that made it (a `picture: "open"` method of
 * the method table starts the log, `"delta"` methods append to it, after
 * they succeeded; `layout/close` drops it; a scroll frame replaces a scroll
 * frame at the log's end). When the connection is lost (the daemon's
 * output ends, it exits, a write to it fails, it sends a bad frame) while
 * the client is not shutting down, the client starts a new daemon with
 * the same path, args and env, sends initialize and initialized, replays
 * every session's log in the order the sessions were opened, and then
 * sends again, in their order, every request that had no answer; each
 * resolves with its new answer, so the caller's picture goes on as if
 * nothing happened. A replayed request that fails (the daemon is killed),
 * or MAX_RESTARTS_IN_A_ROW restarts without an answer in between, reject
 * the waiting requests with a DaemonError; the next request tries again.
 * `restarts` counts the daemons started in place of a dead one.
 */
export class FlowLayoutClient extends LayoutMethods {
  /** @type {Transport} */
  #transport;
  #nextId = 1;
  #closed = false;
  /** @type {Promise<number | null> | null} */
  #closing = null;
  /** The daemon's serverInfo. @type {ServerInfo} */
  serverInfo = {};
  /** The daemon's capabilities (methods, methodTable, limits, …). @type {Capabilities} */
  capabilities = {};
  /** The spawned process (Node only), else null; after a restart, the new one. @type {import('node:child_process').ChildProcess | null} */
  process = null;
  /** How many daemons were started in place of a dead one (`{restart: true}` only). */
  restarts = 0;
  /** Starts a new daemon; set when restarting is on. @type {Launcher | null} */
  #launch = null;
  /** initialize's params, sent again to a restarted daemon. @type {object | undefined} */
  #initializeParams;
  /** The log of every open session, in the order they were opened. @type {Map<string, SessionLog>} */
  #logs = new Map();
  /** The transport whose death the current (or last) restart is for. @type {Transport | null} */
  #restartFor = null;
  /**
   * The restart under way (or the last one, done): requests wait for it;
   * one that fails rejects them and is cleared. @type {Promise<void> | null}
   */
  #restarting = null;
  /** Daemons started since a request was last answered. */
  #restartsInARow = 0;

  /**
   * Use `spawn` or `connect`.
   * @param {Transport} transport
   */
  constructor(transport) {
    super();
    this.#transport = transport;
  }

  /**
   * Spawns the daemon (Node >= 18), does the LSP handshake (initialize,
   * initialized) and resolves with the connected client.
   * @param {SpawnOptions} [options]
   * @returns {Promise<FlowLayoutClient>}
   */
  static async spawn(options = {}) {
    const launch = await daemonLauncher(options);
    const { child, transport } = await launch();
    const client = new FlowLayoutClient(transport);
    client.process = child;
    client.#initializeParams = {
      processId: globalThis.process?.pid ?? null,
      clientInfo: options.clientInfo ?? { name: 'flowlayout-js' },
    };
    try {
      await client.#handshake(transport);
    } catch (e) {
      await transport.close(client, 1000).catch(() => {});
      throw e;
    }
    if (options.restart) client.#launch = launch;
    return client;
  }

  /**
   * initialize and initialized on `transport`; adopts the serverInfo and
   * capabilities.
   * @param {Transport} transport
   */
  async #handshake(transport) {
    const result = await this.#call(transport, 'initialize', this.#initializeParams);
    await transport.post({ jsonrpc: '2.0', method: 'initialized', params: {} });
    this.serverInfo = result?.serverInfo ?? {};
    this.capabilities = result?.capabilities ?? {};
  }

  /**
   * One request on `transport`, outside the log and restarting.
   * @param {Transport} transport
   * @param {string} method
   * @param {object} [params]
   */
  async #call(transport, method, params) {
    /** @type {{jsonrpc: string, id: number, method: string, params?: object}} */
    const message = { jsonrpc: '2.0', id: this.#nextId++, method };
    if (params !== undefined) message.params = params;
    const answer = await transport.send(message);
    if (answer.error !== undefined) throw RPCError.fromJSON(answer.error, method);
    return answer.result;
  }

  /**
   * Connects to the `flowlayout web` bridge: `GET <url>/info` for the
   * daemon's serverInfo and capabilities, then `POST <url>/rpc` per
   * message. The bridge has initialized the daemon and shuts it down
   * itself, so this client never sends initialize, shutdown or exit.
   * @param {ConnectOptions} [options]
   * @returns {Promise<FlowLayoutClient>}
   */
  static async connect(options = {}) {
    const base = (options.url ?? '').replace(/\/+$/, '');
    const f = options.fetch ?? globalThis.fetch;
    let info;
    try {
      const response = await f(`${base}/info`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      info = await response.json();
    } catch (e) {
      throw new DaemonError(`no flowlayout web bridge at ${base || 'this origin'}: ${/** @type {Error} */ (e).message}`);
    }
    const client = new FlowLayoutClient(new HttpTransport(base, options.fetch));
    client.serverInfo = info?.serverInfo ?? {};
    client.capabilities = info?.capabilities ?? {};
    return client;
  }

  /** True once `close` was called. */
  get closed() {
    return this.#closed;
  }

  /**
   * The method table: the daemon's capabilities.methodTable, or the
   * generated METHODS for a daemon that does not report one.
   * @returns {ReadonlyArray<MethodInfo>}
   */
  get methodTable() {
    const t = this.capabilities.methodTable;
    return Array.isArray(t) ? t : METHODS;
  }

  /**
   * What `method`'s answer does to the picture, by this daemon's method
   * table: "open", "delta", "none", or undefined for an unknown method.
   * @param {string} method
   */
  pictureEffect(method) {
    return pictureEffect(method, this.methodTable);
  }

  /**
   * Whether `method`'s answer changes the picture (hand it to
   * `Picture.apply`), by this daemon's method table.
   * @param {string} method
   */
  changesPicture(method) {
    return changesPicture(method, this.methodTable);
  }

  /**
   * Every element meeting `rect`, in document order, a page of `limit` at
   * a time (layout/attributesInRect with `limit` and `after`): a snapshot
   * of any size in requests of bounded size. Each page costs the daemon
   * O(log n + limit).
   * @param {{session: string, rect: Rect, limit?: number}} params
   * @returns {AsyncGenerator<Attributes, void, void>}
   */
  async *attributesInRectPages({ session, rect, limit = 10000 }) {
    /** @type {ElementKey | undefined} */
    let after;
    for (;;) {
      /** @type {{session: string, rect: Rect, limit: number, after?: ElementKey}} */
      const params = { session, rect, limit };
      if (after) params.after = after;
      const page = await this.attributesInRect(params);
      yield* page.attributes;
      if (!page.next) return;
      after = page.next;
    }
  }

  /**
   * capabilities.limits.maxItemValuesPerRequest: the item sizes and ids one
   * request may carry, or null when unlimited (the default). Over it the
   * daemon answers 1004.
   * @returns {number | null}
   */
  get maxItemValuesPerRequest() {
    const v = this.capabilities.limits?.maxItemValuesPerRequest;
    return typeof v === 'number' ? v : null;
  }

  /** The daemon's last stderr lines (spawned daemons only). @returns {string[]} */
  stderrTail() {
    return this.#transport.stderrTail ? this.#transport.stderrTail() : [];
  }

  /**
   * Sends a request; resolves with its `result`, rejects with an RPCError
   * for an error answer, or a DaemonError when the daemon (or the bridge)
   * is gone. `params` undefined is sent as absent.
   * @param {string} method
   * @param {object} [params]
   * @param {RequestOptions} [options]
   * @returns {Promise<any>}
   */
  async request(method, params, options) {
    if (this.#closed && method !== 'shutdown') throw new DaemonError('the client is closed');
    const id = this.#nextId++;
    // A restarting client sends (and logs, and may send again) its own
    // copy: what the caller changes later changes neither.
    if (this.#launch && params !== undefined) params = JSON.parse(JSON.stringify(params));
    /** @type {{jsonrpc: string, id: number, method: string, params?: object}} */
    const message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    const answer = this.#launch ? await this.#exchange(message, options) : await this.#transport.send(message, options);
    if (answer.error !== undefined) throw RPCError.fromJSON(answer.error, method);
    if (this.#launch) this.#record(method, params, answer.result);
    return answer.result;
  }

  /**
   * Sends a request of a restarting client and resolves with its answer:
   * when the daemon turns out to be gone, restarts it (once for all the
   * requests it left unanswered) and sends the request again.
   * @param {{jsonrpc: string, id: number, method: string, params?: object}} message
   * @param {RequestOptions} [options]
   */
  async #exchange(message, options) {
    for (;;) {
      // During a restart, wait for it (requests queue up in the order they
      // came); after one that failed, reject with its error. (A closing
      // client's own shutdown goes to whatever daemon is left: shutdown()
      // waited for the restart to end.)
      if (this.#restarting && !this.#closed) await this.#restarting;
      const transport = this.#transport;
      try {
        const answer = await transport.send(message, options);
        this.#restartsInARow = 0;
        return answer;
      } catch (e) {
        const lifecycle = message.method === 'initialize' || message.method === 'shutdown';
        if (this.#closed || lifecycle || !LOST.has(/** @type {Error} */ (e))) throw e;
        await this.#restartAfter(transport);
      }
    }
  }

  /**
   * The restart that replaces `dead`: started by the first request to find
   * it gone, and shared by the others (they wait for the very same
   * promise, so they are sent again in their order).
   * @param {Transport} dead
   * @returns {Promise<void>}
   */
  #restartAfter(dead) {
    if (this.#transport === dead && this.#restartFor !== dead) {
      this.#restartFor = dead;
      const restarting = this.#restart(dead);
      this.#restarting = restarting;
      // Registered before any request waits: a restart that failed rejects
      // the requests waiting for it, and the next request starts afresh.
      restarting.catch(() => {
        if (this.#restarting !== restarting) return;
        this.#restarting = null;
        this.#restartFor = null;
        this.#restartsInARow = 0;
      });
    }
    return this.#restarting ?? Promise.resolve();
  }

  /**
   * Starts a daemon in place of `dead`, handshakes and replays every open
   * session's log. A daemon that dies during that (or cannot be started)
   * is replaced again, MAX_RESTARTS_IN_A_ROW times in all since a request
   * was last answered; one that refuses the replay is killed.
   * @param {Transport} dead
   */
  async #restart(dead) {
    const launch = /** @type {Launcher} */ (this.#launch);
    /** @type {Transport | null} */
    let transport = dead;
    /** @type {Error | null} */
    let lastDeath = null;
    for (;;) {
      if (transport instanceof StdioTransport) transport.kill(); // it may linger after closing its output
      if (this.#closed) throw new DaemonError('the client is closed');
      if (this.#restartsInARow >= MAX_RESTARTS_IN_A_ROW) {
        throw new DaemonError(
          `giving up on flowlayoutd after ${this.#restartsInARow} restarts in a row without an answer` +
            (lastDeath ? `; the last: ${lastDeath.message}` : ''),
        );
      }
      this.#restartsInARow++;
      this.restarts++;
      transport = null;
      let started;
      try {
        started = await launch();
      } catch (e) {
        lastDeath = /** @type {Error} */ (e);
        continue;
      }
      transport = started.transport;
      this.#transport = transport;
      this.#restartFor = null;
      this.process = started.child;
      try {
        await this.#handshake(transport);
        await this.#replay(transport);
      } catch (e) {
        // A parse error to a frame this client wrote whole means its bytes
        // did not arrive (the daemon lost its input mid-frame): a death.
        if (LOST.has(/** @type {Error} */ (e)) || (e instanceof RPCError && e.code === -32700)) {
          lastDeath = /** @type {Error} */ (e);
          continue;
        }
        // Never leave a daemon with only some of the sessions: the next
        // request starts another.
        transport.kill();
        const what = e instanceof RPCError ? `${e.method}: ${e.message} (code ${e.code})` : /** @type {Error} */ (e).message;
        throw new DaemonError(`the restarted flowlayoutd refused the replay: ${what}`);
      }
      if (this.#closed) throw new DaemonError('the client is closed');
      return;
    }
  }

  /**
   * Sends every session's log, pipelined, in the order the sessions were
   * opened, and waits for all the answers (their results are not needed:
   * the caller has them already).
   * @param {Transport} transport
   */
  async #replay(transport) {
    /** @type {Promise<any>[]} */
    const calls = [];
    for (const log of this.#logs.values()) {
      for (const entry of log.entries) calls.push(this.#call(transport, entry.method, entry.params));
    }
    for (const call of calls) call.catch(() => {}); // all are awaited below; the first failure wins
    for (const call of calls) await call;
  }

  /**
   * Logs a request that succeeded, if it changed a session.
   * @param {string} method
   * @param {any} params our copy, as sent
   * @param {any} result
   */
  #record(method, params, result) {
    const session = params?.session;
    if (typeof session !== 'string') return;
    if (method === 'layout/close') {
      this.#logs.delete(session);
      return;
    }
    const effect = this.pictureEffect(method);
    if (effect !== 'open' && effect !== 'delta') return;
    const size = result && typeof result === 'object' && result.bounds ? result.bounds : params.bounds;
    if (effect === 'open') {
      this.#logs.delete(session); // a reopened session goes last
      this.#logs.set(session, { entries: [{ method, params }], width: size?.width, height: size?.height });
      return;
    }
    const log = this.#logs.get(session);
    if (!log) return;
    const b = params.bounds;
    let scroll;
    if (method === 'layout/setBounds' && b && b.width === log.width && b.height === log.height) {
      scroll = 'bounds';
    } else if (method === 'layout/scrollSection') {
      scroll = `row:${params.section}`;
    }
    if (scroll) {
      // A scroll: the viewport (or a row) moved and nothing else changed,
      // so of a run of scroll frames only where each scroll went last
      // matters: the same scroll earlier in the run is dropped.
      for (let i = log.entries.length - 1; i >= 0 && log.entries[i].scroll; i--) {
        if (log.entries[i].scroll === scroll) {
          log.entries.splice(i, 1);
          break;
        }
      }
      log.entries.push({ method, params, scroll });
    } else {
      log.entries.push({ method, params });
    }
    if (size) {
      log.width = size.width;
      log.height = size.height;
    }
  }

  /**
   * Sends a notification (never answered).
   * @param {string} method
   * @param {object} [params]
   * @param {RequestOptions} [options]
   * @returns {Promise<void>}
   */
  async notify(method, params, options) {
    if (this.#closed && method !== 'exit') throw new DaemonError('the client is closed');
    // Not into the middle of a replay: after it (or with its failure).
    if (this.#restarting && !this.#closed) await this.#restarting;
    /** @type {{jsonrpc: string, method: string, params?: object}} */
    const message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    await this.#transport.post(message, options);
  }

  /**
   * Ends the connection. A spawned daemon gets `shutdown` and `exit` and
   * is waited for (killed after `timeoutMs`); resolves with its exit code
   * (0 after a clean shutdown). Over the bridge nothing is sent (the bridge
   * owns the daemon) and it resolves with null. Idempotent. To close a
   * layout session, use `close({session})`.
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<number | null>}
   */
  shutdown(options = {}) {
    if (!this.#closing) {
      // A restart under way ends first (it sees the client closing and
      // stops); then the daemon of the moment is closed.
      const settled = this.#restarting ? this.#restarting.catch(() => {}) : Promise.resolve();
      this.#closing = settled
        .then(() => this.#transport.close(this, options.timeoutMs ?? 5000))
        .finally(() => {
          this.#closed = true;
        });
      // Requests from here on are refused, but our own shutdown goes out.
      this.#closed = true;
    }
    return this.#closing;
  }
}
