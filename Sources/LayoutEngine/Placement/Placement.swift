// The placement layer: where every element sits before any effect. A
// layout type is a placement plus, optionally, an effect (Effects/) and a
// snapping (Snapping/). `Layout` and the sessions above it work through
// `Placement` alone: deltas, batch updates, anchoring, self-sizing and
// pinning never ask which placement they have.

/// The untransformed frames of one layout for one viewport size, in the
/// left-to-right space (`Layout` mirrors rtl around them).
public protocol Placement: Sendable {
  /// collectionViewContentSize. O(1).
  var contentSize: Size { get }
  /// O(1).
  var sectionCount: Int { get }
  /// O(1).
  func itemCount(inSection s: Int) -> Int
  /// The main-axis span every element lies within, pinned ones included.
  /// O(1).
  var elementSpan: (lo: Double, hi: Double) { get }
  /// The frame of a valid item. O(log n) plus the placement's local cost
  /// (a flow line's items).
  func frameForItem(_ path: IndexPath) -> Rect
  /// A header's or footer's frame, pinned into `pin` when it pins that
  /// kind; nil when the element has zero thickness. O(1).
  func frameForSupplementary(_ kind: ElementKind, section s: Int, pin: Pinning?) -> Rect?
  /// Calls `body` with every element whose frame meets `rect`, in document
  /// order: section by section, the header, the cells in item order, the
  /// footer. O(log n + k) for k elements (flow: plus the items of the lines
  /// the rect crosses; waterfall: O(columns · log n + k log k)).
  func forEachElement(
    in rect: Rect, pin: Pinning?, _ body: (ElementKind, Int, Int, Rect) -> Void)
  /// `forEachElement(in: rect)` from just after `after` (an element of
  /// this placement: kind, section and item, in document order), until
  /// `body` returns false: a page of a snapshot. O(log n + elements
  /// visited) (waterfall: plus the items whose indices lie between the
  /// rect's columns' first and last).
  func forEachElement(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool)
  /// At least as many elements as `forEachElement(in: rect)` would visit,
  /// counted from the placement's index without visiting them, so that an
  /// answer too large to send is refused before it is built. O(log n) per
  /// section met (waterfall: O(columns · log n)).
  func elementCountBound(in rect: Rect, pin: Pinning?) -> Int
  /// The item whose centre is nearest `point` (along the scroll axis alone
  /// with `mainAxisOnly`), ties to the earlier item; nil without items.
  /// O(log n) plus the few candidates examined.
  func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath?
  /// The content offset along the scroll axis that centres item `g` (its
  /// global index), when the placement defines it exactly (a carousel's
  /// g · pitch); nil: the item's centre less half the viewport. O(1).
  func restOffset(global g: Int) -> Double?
  /// Along the scroll axis, where the placement stops being final: every
  /// element starting before it sits where a full recompute puts it; what
  /// starts at or past it a bounded relayout (`Continuity.horizon`) left
  /// provisional. Infinity when everything is placed. O(1).
  var placedThrough: Double { get }
  /// The rows that scroll on their own (UIKit's orthogonal sections), when
  /// the placement has them: a capability generic code asks for. O(1).
  var orthogonalRows: (any OrthogonalRows)? { get }
  /// Scrolls row `s` of `orthogonalRows` to `offset`, clamped to its range;
  /// a placement without rows has none to scroll. O(1).
  mutating func setRowOffset(_ offset: Double, section s: Int)
  /// The first broken invariant of the placement's own structure (its
  /// ropes, the order of its sections, its counts), or nil: what debug
  /// builds check after every commit with internal checks on
  /// (`Layout.invariantCheck`). O(n).
  func invariantViolation() -> String?
}

extension Placement {
  public func restOffset(global g: Int) -> Double? { nil }
  public var placedThrough: Double { .infinity }
  public var orthogonalRows: (any OrthogonalRows)? { nil }
  public mutating func setRowOffset(_ offset: Double, section s: Int) {}
}

/// The row offsets of a session's orthogonal sections, by section (absent:
/// 0), in the left-to-right space along the cross axis.
public typealias RowOffsets = [Int: Double]

/// Rows that scroll on their own beside the main scroll, each at an offset
/// along the cross axis that is the placement's own state: it survives
/// every relayout but a batch update, after which a row keeps its leading
/// item where it was.
public protocol OrthogonalRows {
  /// Each row's offset, by section (absent: 0), in the left-to-right
  /// space along the cross axis. O(1).
  var rowOffsets: RowOffsets { get }
  /// Whether section `s` is a row that scrolls on its own. O(1).
  func scrollsOrthogonally(section s: Int) -> Bool
  /// A valid row's range of offsets. O(1).
  func rowRange(section s: Int) -> (lo: Double, hi: Double)
  /// The offset that shows item `path` of a valid row at `position`,
  /// clamped to the row's range. O(1).
  func rowTarget(for path: IndexPath, position: ItemPosition) -> Double
  /// The plan of a valid row released at `contentOffset` with `velocity`
  /// (see `Layout.rowScrollPlan`), for a viewport of `viewport` size.
  /// O(log groups + samples).
  func rowScrollPlan(
    section s: Int, contentOffset: Point, velocity: Point, proposed: Point?,
    frameInterval: Double, viewport: Size
  ) -> ScrollPlan
}

/// What a relayout may keep of the previous placement. Placements read
/// what they need of it: flow reuses the line breaks of a section around
/// its edit; a `stable` waterfall keeps each surviving item's column.
public struct Continuity {
  /// Per new section: the old section it continues, and the span of its
  /// items that changed (nil: none did); nil for an inserted section.
  public var sections: [(old: Int, edit: ItemEdit?)?]
  /// A walk over the survivors of new section `section` (which item each
  /// item was, when it stayed in its section in order), or nil when the
  /// section is new.
  public var survivors: (_ section: Int) -> SurvivorWalk?
  /// Along the scroll axis (the left-to-right space): what must be final
  /// after the relayout. A placement whose edit moves everything after it
  /// (a packed waterfall's columns) may stop placing once the rest starts
  /// past it, leaving that rest provisional (`placedThrough`); a later
  /// relayout places it. nil: everything, provisional rests included.
  public var horizon: Double? = nil
  /// The batch update this relayout follows, when it follows one: a kind
  /// with state of its own beside the layout (a row's offset) carries it
  /// across.
  public var batch: BatchResult? = nil

  /// Every section and item continues itself (a rotation, a new spacing,
  /// measured sizes): `edits` per section, nil where none changed.
  static func identity(sections n: Int, edits: [Int: ItemEdit] = [:]) -> Continuity {
    Continuity(sections: (0..<n).map { ($0, edits[$0]) }, survivors: { _ in .identity })
  }
}

extension Placement {
  /// The page walk every placement with sections shares: from section
  /// `first` while `inRange(s)`, each section's background (a
  /// compositional one's), header, cells and footer in document order,
  /// each that meets `rect`, from just after `after`, until `body` returns
  /// false. `cells(s, fromItem, take)` walks section `s`'s cells meeting
  /// the rect from item `fromItem` on, handing each (item, frame) to
  /// `take` until it returns false, and returns false when stopped.
  /// O(sections walked + what `cells` costs).
  @inline(__always)
  func walkSections(
    from first: Int, while inRange: (Int) -> Bool, rect: Rect, pin: Pinning?,
    after: ElementPosition?, cells: (Int, Int, (Int, Rect) -> Bool) -> Bool,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    func one(_ kind: ElementKind, _ s: Int) -> Bool {
      guard let f = frameForSupplementary(kind, section: s, pin: pin), f.intersects(rect) else {
        return true
      }
      return body(kind, s, 0, f)
    }
    var s = max(first, after?.section ?? 0)
    while inRange(s) {
      let rest = after?.rest(of: s) ?? (header: true, fromItem: 0, footer: true)
      // A background leads its section: it comes after `after` only in a
      // later section.
      if after.map({ $0.section < s }) ?? true, !one(.decoration, s) { return }
      if rest.header, !one(.header, s) { return }
      // `body` is called from `cells`' own callback, never stored.
      let section = s
      let stopped = withoutActuallyEscaping(body) { body in
        rest.fromItem < itemCount(inSection: section)
          && !cells(section, rest.fromItem) { i, r in body(.cell, section, i, r) }
      }
      if stopped { return }
      if rest.footer, !one(.footer, s) { return }
      s += 1
    }
  }
}

/// Rule 9 of flow (protocol.md), shared by every placement with headers
/// and footers.
extension Pinning {
  /// A pinned header's main position: its own, or the visible start, but
  /// never past `limit` less its thickness (the next section pushes it out).
  @inline(__always) func header(own: Double, thickness: Double, limit: Double) -> Double {
    max(own, min(lo, limit - thickness))
  }
  /// A pinned footer's main position: its own, or the visible end less its
  /// thickness, but never before `limit` (its section's header's end).
  @inline(__always) func footer(own: Double, thickness: Double, limit: Double) -> Double {
    min(own, max(hi - thickness, limit))
  }
}

/// Which supplementary views are pinned, and the visible span along the
/// main axis they are pinned into (the bounds less the content insets).
public struct Pinning: Sendable {
  public var headers: Bool
  public var footers: Bool
  public var lo: Double
  public var hi: Double
  public init(headers: Bool, footers: Bool, lo: Double, hi: Double) {
    self.headers = headers
    self.footers = footers
    self.lo = lo
    self.hi = hi
  }
}

/// Maps the axis-neutral frame to x and y.
@usableFromInline
struct Axes: Sendable {
  let direction: ScrollDirection

  @inline(__always) func main(_ s: Size) -> Double {
    direction == .vertical ? s.height : s.width
  }
  @inline(__always) func cross(_ s: Size) -> Double {
    direction == .vertical ? s.width : s.height
  }
  @inline(__always) func main(_ p: Point) -> Double { direction == .vertical ? p.y : p.x }
  @inline(__always) func cross(_ p: Point) -> Double { direction == .vertical ? p.x : p.y }
  /// Leading and trailing insets along the main axis, then along the cross axis.
  @inline(__always) func split(_ i: Insets) -> (
    mainLead: Double, mainTrail: Double, crossLead: Double, crossTrail: Double
  ) {
    direction == .vertical
      ? (i.top, i.bottom, i.left, i.right) : (i.left, i.right, i.top, i.bottom)
  }
  @inline(__always) func rect(main: Double, cross: Double, mainExtent: Double, crossExtent: Double)
    -> Rect
  {
    direction == .vertical
      ? Rect(x: cross, y: main, width: crossExtent, height: mainExtent)
      : Rect(x: main, y: cross, width: mainExtent, height: crossExtent)
  }
  /// The main-axis then cross-axis span of a rect.
  @inline(__always) func spans(_ r: Rect) -> (
    mainLo: Double, mainHi: Double, crossLo: Double, crossHi: Double
  ) {
    direction == .vertical ? (r.minY, r.maxY, r.minX, r.maxX) : (r.minX, r.maxX, r.minY, r.maxY)
  }
}

/// The first index in 0..<count for which `pred` holds, given that `pred`
/// is false and then true across the range. O(log count).
@inline(__always)
func upperBound(_ count: Int, _ pred: (Int) -> Bool) -> Int {
  var lo = 0
  var hi = count
  while lo < hi {
    let mid = (lo + hi) / 2
    if pred(mid) { hi = mid } else { lo = mid + 1 }
  }
  return lo
}

/// How a section's items changed: items before `lo` are unchanged, and the
/// items from `newHi` on are the old ones from `oldHi` on.
public struct ItemEdit: Equatable, Sendable {
  public var lo: Int
  public var oldHi: Int
  public var newHi: Int
  public init(lo: Int, oldHi: Int, newHi: Int) {
    self.lo = lo
    self.oldHi = oldHi
    self.newHi = newHi
  }
}

/// A place in document order within one copy of the content: section by
/// section, the header, the cells by item, the footer.
public struct ElementPosition: Equatable, Sendable {
  public var kind: ElementKind
  public var section: Int
  public var item: Int
  public init(kind: ElementKind, section: Int, item: Int) {
    self.kind = kind
    self.section = section
    self.item = item
  }

  /// What of section `s` comes after this position: everything (a later
  /// section), the cells from `fromItem` and the footer, or nothing.
  /// O(1).
  func rest(of s: Int) -> (header: Bool, fromItem: Int, footer: Bool) {
    if s > section { return (true, 0, true) }
    if s < section { return (false, Int.max, false) }
    switch kind {
    case .decoration: return (true, 0, true)
    case .header: return (false, 0, true)
    // A cursor at the largest item leaves no cells (a wrapped + 1 would
    // start from Int.min).
    case .cell, .bottomSeparator: return (false, item < Int.max ? item + 1 : Int.max, true)
    // A row's top separator precedes its cell.
    case .topSeparator: return (false, item, true)
    case .footer: return (false, Int.max, false)
    }
  }
}
