extension LayoutType {
  // What generic code asks of every type, answered by its kind.

  public var scrollDirection: ScrollDirection { kind.scrollDirection }
  public var layoutDirection: LayoutDirection { kind.layoutDirection }
  /// Whether section headers, then footers, pin to the visible bounds.
  public var pinsSupplementaries: (headers: Bool, footers: Bool) { kind.pinsSupplementaries }
  /// The snapping layer's options; nil scrolls freely.
  public var snap: SnapConfiguration? { kind.snapping }
  /// The size of items without one of their own, whatever the type.
  public var uniformItemSize: Size { kind.uniformItemSize }
}

extension Layout {
  /// The fields of a layout type that hot queries read. O(1) to take.
  struct Traits: Sendable {
    /// The type's kind, boxed once here: every request opens it.
    let kind: any LayoutKind
    let scrollDirection: ScrollDirection
    let isRTL: Bool
    let pins: (headers: Bool, footers: Bool)
    let restModel: RestModel

    init(_ type: LayoutType) {
      kind = type.kind
      scrollDirection = kind.scrollDirection
      isRTL = kind.layoutDirection == .rtl
      pins = kind.pinsSupplementaries
      restModel = kind.restModel
    }
  }
}

/// A live layout: the data source, the layout type and the viewport size,
/// with the geometry computed for them. A value type; copying is cheap
/// until one copy is mutated (the arrays inside are copy-on-write).
public struct Layout: Sendable {
  public private(set) var type: LayoutType {
    didSet { traits = Traits(type) }
  }
  /// What every frame's queries read of `type`, taken once when it is set:
  /// a switch over the type copies the case's whole configuration out.
  private(set) var traits: Traits
  public private(set) var sections: [Section]
  /// UIScrollView.contentInset: it narrows the cross extent and extends the
  /// range of valid content offsets.
  public private(set) var contentInset: Insets
  public private(set) var viewportSize: Size
  /// The placement layer (every element's untransformed frame), paired
  /// with the kind that computed it: the one dispatch point of every
  /// query.
  var placement: any PlacedKind
  /// The global index of each section's first item, then the item count:
  /// items in order across sections, as carousels snap through them.
  private(set) var sectionStarts: [Int]
  /// How the content repeats, for the kind and the items it has now.
  private(set) var repetition: Repetition
  /// Whether the content repeats without end along the scroll axis. O(1).
  public var loops: Bool { repetition != .none }
  /// Whether any section carries item ids: answers then name them.
  public private(set) var hasItemIDs: Bool
  /// Whether any section is an outline: its rows' attributes then carry
  /// their place in the tree.
  public private(set) var hasOutlines: Bool

  /// Computes the layout. O(sections + items in sections of varied sizes).
  public init(
    type: LayoutType, sections: [Section], contentInset: Insets = .zero, viewportSize: Size
  ) {
    self.type = type
    self.traits = Traits(type)
    self.sections = sections
    self.contentInset = contentInset
    self.viewportSize = viewportSize
    self.placement = traits.kind.placed(sections, inset: contentInset, viewport: viewportSize)
    sectionStarts = Self.sectionStarts(sections)
    repetition = traits.kind.repetition(itemCount: sectionStarts[sectionStarts.count - 1])
    hasItemIDs = sections.contains { $0.ids != nil }
    hasOutlines = sections.contains { $0.outlineBox != nil }
    invariantCheck()
  }

  /// The content's extent along the scroll axis. O(1).
  public var mainExtent: Double {
    scrollDirection == .vertical ? contentSize.height : contentSize.width
  }

  /// The id of the item at `section`, `item`, if it has one. O(log n).
  public func itemID(section: Int, item: Int) -> ItemID? {
    sections[section].ids?[item] ?? nil
  }

  /// The ids of `list`'s elements, as `itemID(of:)` gives each: read along
  /// each section's ids by a cursor, so that a picture's ids cost O(1)
  /// amortised per item in order, O(log n) per section or jump.
  func itemIDs(of list: [LayoutAttributes]) -> [ItemID?] {
    var out: [ItemID?] = []
    out.reserveCapacity(list.count)
    var section = -1
    var cursor: RopeCursor<CountSummary<ItemID?>>? = nil
    for k in list.indices {
      guard list[k].kind == .cell else {
        out.append(nil)
        continue
      }
      let (s, i) = (list[k].section, list[k].item)
      if s != section {
        section = s
        cursor = sections[s].ids.map { RopeCursor($0, at: i) }
      }
      guard cursor != nil else {
        out.append(nil)
        continue
      }
      if cursor!.index != i { cursor = RopeCursor(cursor!.rope, at: i) }
      out.append(cursor!.next() ?? nil)
    }
    return out
  }

  /// The id of the card's item, if it has one. O(log n) in a layout with
  /// ids, O(1) otherwise.
  @inline(__always)
  public func itemID(of card: Card?) -> ItemID? {
    guard hasItemIDs, let card else { return nil }
    return itemID(section: card.path.section, item: card.path.item)
  }

  /// The id of the element `a` when it is an item that has one. O(log n)
  /// in a layout with ids, O(1) otherwise.
  @inline(__always)
  public func itemID(of a: LayoutAttributes) -> ItemID? {
    guard hasItemIDs, a.kind == .cell else { return nil }
    return itemID(section: a.section, item: a.item)
  }

  /// Each section's first global item index, then the item count.
  /// O(sections).
  private static func sectionStarts(_ sections: [Section]) -> [Int] {
    var starts = [0]
    starts.reserveCapacity(sections.count + 1)
    for s in sections { starts.append(starts[starts.count - 1] + s.count) }
    return starts
  }

  /// Replaces the data (reloadData, or the outcome of a batch update).
  /// O(sections + items in sections of varied sizes).
  public mutating func setSections(_ sections: [Section]) {
    self.sections = sections
    relayout()
  }

  /// The section fields that give section `s`'s items `overrides` as their
  /// separators (a patch for a section update), or nil when its rows are
  /// not list rows. O(overrides).
  public func separatorFields(_ overrides: [Int: SeparatorConfiguration], section s: Int)
    -> (any SectionFields)?
  {
    traits.kind.separatorFields(overrides, of: sections[s])
  }

  /// Replaces the layout type and its fields (invalidateLayout).
  /// O(sections + items in sections of varied sizes).
  public mutating func setType(_ type: LayoutType) {
    let old = traits.kind
    self.type = type
    sections = old.sections(sections, leavingFor: type)
    // Columns survive a change that keeps their count (stable placement).
    placement = placement.replacingKind(
      traits.kind, sections, inset: contentInset, viewport: viewportSize,
      continuity: .identity(sections: sections.count))
    derive()
  }

  /// Changes UIScrollView.contentInset. O(sections + items of varied sizes)
  /// when the cross extent changes, else O(1).
  public mutating func setContentInset(_ inset: Insets) {
    guard inset != contentInset else { return }
    contentInset = inset
    relayout(continuity: .identity(sections: sections.count))
  }

  /// Applies the outcome of a batch update (see `BatchUpdate.apply`):
  /// sections that continue old ones keep their lines and re-break only
  /// around the edited items. O(sections + log n + items re-broken) (an
  /// insert or delete in a single row re-breaks one line); O(n) when a
  /// section changes between uniform and varied sizes, or is inserted.
  public mutating func apply(_ result: BatchResult) {
    apply(result, horizon: nil)
  }

  /// `apply(result)`, placing only what a query of `rect` seen through
  /// `bounds` needs final: a placement whose edits move everything after
  /// them (a packed waterfall's columns) leaves what starts past the
  /// rect provisional, for `place(covering:)` to finish. Every query
  /// meeting only covered rects (`covers`) answers as after `apply`,
  /// bit for bit. O(sections + log n + items re-placed up to the rect).
  public mutating func apply(_ result: BatchResult, covering rect: Rect, bounds: Rect) {
    apply(result, horizon: horizon(rect, bounds))
  }

  private mutating func apply(_ result: BatchResult, horizon: Double?) {
    let reuse = result.sectionSource.enumerated().map { s, o in
      o.map { (old: $0, edit: result.edits[s]) }
    }
    sections = result.sections
    relayout(
      continuity: Continuity(
        sections: reuse, survivors: result.survivors(section:), horizon: horizon, batch: result))
  }

  /// Moves one item within a section of sizes in `sections` itself (see
  /// `BatchUpdate.move`), for `apply` to lay out; nil, nothing changed,
  /// for any other move. O(log n).
  mutating func movingItem(from a: IndexPath, to b: IndexPath) -> BatchResult? {
    BatchUpdate.move(from: a, to: b, in: &sections)
  }

  /// Whether every element a query of `rect` seen through `bounds` meets
  /// is final (see `apply(_:covering:bounds:)`). O(1).
  public func covers(_ rect: Rect, bounds: Rect) -> Bool {
    horizon(rect, bounds) < placement.placedThrough
  }

  /// Whether every item is final. O(1).
  public var isFullyPlaced: Bool { placement.placedThrough == .infinity }

  /// Whether item `path`'s frame is final. O(log n).
  public func isPlaced(_ path: IndexPath) -> Bool {
    axes.main(placement.frameForItem(path).origin) < placement.placedThrough
  }

  /// Places what a bounded apply left provisional, as far as a query of
  /// `rect` seen through `bounds` needs (nil: everything). O(items placed).
  public mutating func place(covering rect: Rect?, bounds: Rect? = nil) {
    guard let rect else {
      if !isFullyPlaced { relayout(continuity: .identity(sections: sections.count)) }
      return
    }
    let h = horizon(rect, bounds ?? rect)
    guard h >= placement.placedThrough else { return }
    var c = Continuity.identity(sections: sections.count)
    c.horizon = h
    relayout(continuity: c)
  }

  /// Where along the scroll axis, in the left-to-right space, a query of
  /// `rect` through `bounds` stops looking: the end of the kind's widened
  /// search rect. O(1).
  private func horizon(_ rect: Rect, _ bounds: Rect) -> Double {
    let r = placement.searchRect(toLTR(rect), bounds: toLTR(bounds), in: self)
    return axes.spans(r).mainHi
  }

  /// Appends `count` items to the end of section `s`, the bulk path:
  /// with `sizes` (one per item; nil: the uniform size) and `ids` (one
  /// per item; nil: none, or nil ids in a section that has ids). The
  /// section keeps its lines up to its last one, and a single row re-breaks
  /// nothing. O(sections + k + log n) for k items (the geometry is rebuilt
  /// section by section, each reusing its lines); O(n) once when a uniform section
  /// first gets sizes or ids of its own.
  public mutating func appendItems(section s: Int, count k: Int, sizes: [Size]?, ids: [ItemID?]?) {
    precondition(sizes == nil || sizes!.count == k, "one size per item")
    precondition(ids == nil || ids!.count == k, "one id per item")
    // Nothing to append: even an empty `ids` must not convert a uniform
    // section to per-item storage (O(n)) for nothing.
    guard k > 0 else { return }
    // The geometry shares the section's ropes, so an edit copies the path
    // to the end (O(log n)) whatever else holds them.
    let n = sections[s].count
    if case .uniform = sections[s].items, sizes == nil {
      sections[s].items = .uniform(count: n + k)
    } else {
      var list = sections[s].sizeList
      list.insert(contentsOf: sizes ?? Array(repeating: Section.unsetSize, count: k), at: n)
      sections[s].items = .sizes(list)
    }
    if ids != nil || sections[s].ids != nil {
      var list = sections[s].ids ?? IDList(Array(repeating: nil, count: n))
      list.insert(contentsOf: ids ?? Array(repeating: nil, count: k), at: n)
      sections[s].ids = list
    }
    relayout(
      continuity: .identity(
        sections: sections.count, edits: [s: ItemEdit(lo: n, oldHi: n, newHi: n + k)]))
  }

  /// Reports measured sizes (self-sizing). Paths must be valid.
  /// O(sections + u · log n + items re-broken) for u sizes; O(n) for the
  /// first sizes of a section of uniform items, whose sizes are then
  /// stored one by one.
  public mutating func setItemSizes(_ sizes: [(IndexPath, Size)]) {
    var bySection = [Int: [(Int, Size)]]()
    for (p, size) in sizes { bySection[p.section, default: []].append((p.item, size)) }
    guard !bySection.isEmpty else { return }
    var edits: [Int: ItemEdit] = [:]
    for (s, updates) in bySection {
      // Take the sizes out of the section so the rope is uniquely owned and
      // every update is in place.
      // Measured sizes belong to their items even when they equal the
      // estimate; the others keep following it.
      var list = sections[s].sizeList
      sections[s].items = .uniform(count: 0)
      var lo = Int.max
      var hi = 0
      if updates.count >= 1024 && updates.count >= list.count / 8 {
        // Many sizes at once: one pass over the items rather than a rope
        // edit (and its leaf's summary) per size; stretches of one size
        // stay runs.
        var all = list.array
        for (i, size) in updates {
          all[i] = size
          lo = min(lo, i)
          hi = max(hi, i + 1)
        }
        list = SizeList(compacting: all)
      } else {
        for (i, size) in updates {
          list.set(i, size)
          lo = min(lo, i)
          hi = max(hi, i + 1)
        }
      }
      sections[s].items = .sizes(list)
      edits[s] = ItemEdit(lo: lo, oldHi: hi, newHi: hi)
    }
    relayout(continuity: .identity(sections: sections.count, edits: edits))
  }

  /// Recomputes the placement (keeping what `continuity` says continues
  /// of the current one; nothing without it) and what the data implies
  /// beyond it. The placement is handed to its kind, not shared: a kind
  /// that edits it (waterfall columns) finds its nodes unshared, edited in
  /// place.
  private mutating func relayout(continuity: Continuity? = nil) {
    placement.relayout(
      sections, inset: contentInset, viewport: viewportSize, continuity: continuity)
    derive()
  }

  /// What the data implies beyond the placement. O(sections).
  private mutating func derive() {
    sectionStarts = Self.sectionStarts(sections)
    repetition = traits.kind.repetition(itemCount: sectionStarts[sectionStarts.count - 1])
    hasItemIDs = sections.contains { $0.ids != nil }
    hasOutlines = sections.contains { $0.outlineBox != nil }
    invariantCheck()
  }

  /// The parent's id of the outline node `id`, or nil (a root, a flat
  /// item): looked up in section `hint` first (an answer's own element),
  /// then in every outline (an element that left its section). O(1)
  /// expected with the right hint, O(sections) otherwise.
  public func outlineParent(of id: ItemID, section hint: Int? = nil) -> ItemID? {
    guard hasOutlines else { return nil }
    if let s = hint, s >= 0, s < sections.count, let o = sections[s].outline,
      o.position(of: id) != nil
    {
      return o.parentID(of: id)
    }
    for section in sections {
      if let o = section.outline, o.position(of: id) != nil { return o.parentID(of: id) }
    }
    return nil
  }

  /// Marks outline rows' cells with their level and expanded flag as a
  /// query builds them, before the kind's effect sees them (a list indents
  /// by the level): every path that builds a cell marks it. O(1) amortised
  /// per cell of a walk in row order, O(log n) for a jump.
  struct OutlineRowMarker {
    private var section = -1
    private var rows: OutlineRowCursor? = nil

    /// The outline row of element `kind` of item `i` of section `s`: nil
    /// but for an outline row's cell.
    @inline(__always) mutating func row(_ kind: ElementKind, _ s: Int, _ i: Int, in layout: Layout)
      -> OutlineRow?
    {
      guard kind == .cell else { return nil }
      if s != section {
        section = s
        rows = OutlineRowCursor(layout.sections[s].outlineBox, ids: layout.sections[s].ids)
      }
      return rows == nil ? nil : rows!.row(i)
    }

    @inline(__always) mutating func mark(_ a: inout LayoutAttributes, in layout: Layout) {
      a.outlineRow = row(a.kind, a.section, a.item, in: layout)
    }
  }

  /// A query's marker; nil without outline sections, so that a flat
  /// layout's walk tests one optional. O(1).
  var outlineRowMarker: OutlineRowMarker? { hasOutlines ? OutlineRowMarker() : nil }

  /// The placement as `G`, for tests that look inside one kind's
  /// placement (a flow's lines, a waterfall's columns). O(1).
  func placement<G: Placement>(as type: G.Type) -> G? { placement.placement(as: type) }

  /// The flow lines of a type placed in them (flow, coverFlow), for tests.
  var geometry: FlowGeometry { placement(as: FlowGeometry.self)! }

  /// An item's untransformed frame, before any effect, in the
  /// left-to-right space. O(log n).
  public func frameForItem(_ path: IndexPath) -> Rect { placement.frameForItem(path) }

  public var scrollDirection: ScrollDirection { traits.scrollDirection }
  var axes: Axes { Axes(direction: scrollDirection) }

  /// Changes the viewport size. O(1) when the geometry does not depend on
  /// the change (a flow layout whose cross extent is unchanged); otherwise a
  /// full relayout, O(sections + items of varied sizes). Returns whether
  /// the geometry was recomputed.
  @discardableResult
  public mutating func setViewportSize(_ size: Size) -> Bool {
    guard size != viewportSize else { return false }
    let old = viewportSize
    viewportSize = size
    if !traits.kind.dependsOnMainExtent, axes.cross(old) == axes.cross(size) { return false }
    // A rotation keeps what it can: flow's line breaks where the cross
    // extent is unchanged, a stable waterfall's columns.
    relayout(continuity: .identity(sections: sections.count))
    return true
  }

  /// collectionViewContentSize. O(1).
  public var contentSize: Size { placement.contentSize }

  var isRTL: Bool { traits.isRTL }

  /// The width about which rtl mirrors: the bounds width less the
  /// horizontal content insets (x' = W − x − width).
  var mirrorWidth: Double { viewportSize.width - contentInset.left - contentInset.right }

  /// The range of content offsets a scroll view allows: from
  /// −contentInset.leading to contentSize + contentInset.trailing − viewport,
  /// per axis. In rtl the content spans [W − contentWidth, W] horizontally,
  /// so horizontal offsets run from 0 down to −(contentWidth − W). Content
  /// smaller than the viewport pins the offset to its leading edge. O(1).
  public var offsetRange: (min: Point, max: Point) {
    let size = contentSize
    let ci = contentInset
    let minX = isRTL ? mirrorWidth - size.width : 0
    var lo = Point(x: minX - ci.left, y: -ci.top)
    var hi = Point(
      x: minX + size.width + ci.right - viewportSize.width,
      y: size.height + ci.bottom - viewportSize.height)
    if hi.y < lo.y { hi.y = lo.y }
    if hi.x < lo.x {
      if isRTL { lo.x = hi.x } else { hi.x = lo.x }
    }
    return (lo, hi)
  }

  /// Clamps an offset into `offsetRange`; a looping carousel's offsets
  /// are not clamped along the scroll axis. O(1).
  public func clampOffset(_ p: Point) -> Point {
    let (lo, hi) = offsetRange
    var q = Point(x: min(max(p.x, lo.x), hi.x), y: min(max(p.y, lo.y), hi.y))
    if loops {
      if scrollDirection == .horizontal { q.x = p.x } else { q.y = p.y }
    }
    return q
  }

  // MARK: Right-to-left

  // The geometry is always computed left to right; rtl mirrors rects into
  // that space on the way in and attributes out of it on the way back.

  func toLTR(_ r: Rect) -> Rect {
    guard isRTL else { return r }
    return Rect(x: mirrorWidth - r.x - r.width, y: r.y, width: r.width, height: r.height)
  }

  func toLTR(_ p: Point) -> Point {
    isRTL ? Point(x: mirrorWidth - p.x, y: p.y) : p
  }

  func fromLTR(_ a: inout LayoutAttributes) {
    guard isRTL else { return }
    a.center.x = mirrorWidth - a.center.x
    a.frame.x = mirrorWidth - a.frame.x - a.frame.width
    if !a.transform.isIdentity { a.transform = a.transform.mirroredX }
  }

  /// The visible span that pinned headers and footers stick to, in the
  /// left-to-right space: the bounds less the content insets along the
  /// main axis (mirrored insets in rtl).
  func pinning(_ ltrBounds: Rect) -> Pinning? {
    let pins = traits.pins
    guard pins.headers || pins.footers else { return nil }
    var inset = contentInset
    if isRTL { swap(&inset.left, &inset.right) }
    let (lead, trail, _, _) = axes.split(inset)
    let (lo, hi, _, _) = axes.spans(ltrBounds)
    return Pinning(headers: pins.headers, footers: pins.footers, lo: lo + lead, hi: hi - trail)
  }

  // MARK: Queries

  /// layoutAttributesForElements(in:): every cell, header and footer whose
  /// frame (transformed, for carousels; pinned, for pinned headers) overlaps
  /// `rect`, as seen when the viewport is `bounds`. O(log n + k) for k
  /// results, plus the items of the lines the rect crosses.
  public func attributes(in rect: Rect, bounds: Rect) -> [LayoutAttributes] {
    var nearest: NearestCell? = nil
    return attributes(in: rect, bounds: bounds, nearest: &nearest)
  }

  /// `attributes(in: rect, bounds:)` and `centeredCard(in: bounds)`
  /// together, a frame's whole answer: the walk over `rect` settles the
  /// centred card as it goes (along the axis for kinds that centre cards,
  /// in the plane for the rest) when every cell outside the rect is
  /// farther from the centre than the nearest within (most frames: not
  /// when the nearest centre is farther than the rect's margin around
  /// the bounds' centre); otherwise a search of its own. O(log n + k).
  public func attributesAndCenteredCard(in rect: Rect, bounds: Rect)
    -> (attributes: [LayoutAttributes], centered: Card?)
  {
    var nearest: NearestCell? = nil
    if !loops {
      // Along the axis for kinds that centre cards, in the plane for the
      // rest, as `centeredItem` measures.
      let c = toLTR(bounds).center
      nearest = NearestCell(
        to: axes.main(c), cross: restModel.measuresFromCentres ? nil : axes.cross(c))
    }
    let list = attributes(in: rect, bounds: bounds, nearest: &nearest)
    if let path = nearest?.settled { return (list, Card(path: path)) }
    return (list, centeredCard(in: bounds))
  }

  /// The nearest cell to a point among those a walk visits (their
  /// untransformed centres, ties to the earlier, as `nearestItem` takes
  /// them): along the axis when `pc` is nil, in the plane otherwise; and
  /// the rect the walk searched.
  struct NearestCell {
    let pm: Double
    let pc: Double?
    var best: (dist: Double, path: IndexPath)? = nil
    var span = (lo: Double.infinity, hi: -Double.infinity)
    var crossSpan = (lo: -Double.infinity, hi: Double.infinity)
    init(to pm: Double, cross pc: Double? = nil) {
      self.pm = pm
      self.pc = pc
    }

    /// Along the axis: a walk of a kind that centres cards goes in item
    /// order, so the first of equals is the earlier.
    @inline(__always) mutating func visit(_ s: Int, _ i: Int, _ main: Double) {
      let d = abs(main - pm)
      if best == nil || d < best!.dist { best = (d, IndexPath(section: s, item: i)) }
    }

    /// In the plane, with the same operations as nearestItem's (so the
    /// same double); a walk need not go in item order (waterfall columns),
    /// so a tie goes to the earlier path.
    @inline(__always) mutating func visit(_ s: Int, _ i: Int, _ main: Double, _ cross: Double) {
      let dm = main - pm
      let dc = cross - pc!
      let d = (dm * dm + dc * dc).squareRoot()
      if let b = best {
        if b.dist < d { return }
        if b.dist == d && b.path < IndexPath(section: s, item: i) { return }
      }
      best = (d, IndexPath(section: s, item: i))
    }

    /// The nearest cell, when no cell the walk did not visit (frames
    /// wholly beyond the searched rect, so centres at least as far as its
    /// edges) can be as near.
    var settled: IndexPath? {
      guard let best, best.dist < pm - span.lo, best.dist < span.hi - pm else { return nil }
      if let pc {
        guard best.dist < pc - crossSpan.lo, best.dist < crossSpan.hi - pc else { return nil }
      }
      return best.path
    }
  }

  func attributes(in rect: Rect, bounds: Rect, nearest: inout NearestCell?) -> [LayoutAttributes] {
    placement.attributes(in: rect, bounds: bounds, nearest: &nearest, of: self)
  }

  /// At least as many elements as `attributes(in: rect, bounds:)` answers,
  /// counted from the placement's index without building any, so that an
  /// answer too large to send is refused before it is built. A carousel
  /// examines at most its visible items; a loop counts the copies at both
  /// ends of the rect and every copy between whole. O(log n) per section
  /// met (waterfall: O(columns · log n)).
  public func elementCountBound(in rect: Rect, bounds: Rect) -> Int {
    placement.elementCountBound(in: rect, bounds: bounds, of: self)
  }

  /// Where anchoring measures a card from, in content coordinates: the
  /// element's drawn centre, or where its kind says (a carousel's slot
  /// centre: every item is drawn at the viewport's centre). O(log n).
  public func anchorPoint(_ path: IndexPath, lap: Int?, bounds: Rect) -> Point? {
    guard path.section >= 0, path.section < sections.count, path.item >= 0,
      path.item < placement.itemCount(inSection: path.section)
    else { return nil }
    return placement.anchorPoint(path, lap: lap, bounds: bounds, of: self)
  }

  /// Where an anchor `offset` from the reference point goes across a
  /// resize: the kind's rule (kept, or a pager's page put at rest). O(1).
  public func anchorOffsetAfterResize(_ offset: Double) -> Double {
    traits.kind.anchorOffsetAfterResize(offset)
  }

  /// Pinned headers and footers float above the cells, as in UIKit.
  static let pinnedZIndex = 1024

  static func plain(
    _ kind: ElementKind, _ s: Int, _ i: Int, _ frame: Rect, pinned: Pinning?,
    row: OutlineRow? = nil
  )
    -> LayoutAttributes
  {
    var a = LayoutAttributes(kind: kind, section: s, item: i, frame: frame)
    a.outlineRow = row
    if let pinned, (kind == .header && pinned.headers) || (kind == .footer && pinned.footers) {
      a.zIndex = pinnedZIndex
    }
    return a
  }

  /// layoutAttributesForItem(at:), or nil when the path is out of range.
  /// In a looping carousel, the copy `lap`, or when nil the copy whose
  /// centre is nearest the viewport's centre (ties: the earlier lap);
  /// `lap` is ignored otherwise. O(items in its line), plus O(log lines)
  /// for sections of varied sizes.
  public func attributesForItem(_ path: IndexPath, lap: Int? = nil, bounds: Rect)
    -> LayoutAttributes?
  {
    guard path.section >= 0, path.section < sections.count, path.item >= 0,
      path.item < placement.itemCount(inSection: path.section)
    else { return nil }
    return placement.attributesForItem(path, lap: lap, bounds: bounds, of: self)
  }

  /// An element an item owns (`ElementKind.belongsToItem`): its cell, or
  /// one of its row's separators, found among the elements meeting the
  /// cell (a separator lies within its row); nil when the item or the
  /// element is not there. O(log n + k) for the k elements meeting the
  /// cell.
  public func attributes(of kind: ElementKind, item path: IndexPath, lap: Int?, bounds: Rect)
    -> LayoutAttributes?
  {
    guard let cell = attributesForItem(path, lap: lap, bounds: bounds) else { return nil }
    guard kind != .cell else { return cell }
    let key = ElementKey(kind: kind, section: path.section, item: path.item, lap: cell.lap)
    return attributes(in: cell.frame, bounds: bounds).first { $0.key == key }
  }

  /// layoutAttributesForSupplementaryView(ofKind:at:), or nil when the
  /// section is out of range or the element has zero thickness. Pinned
  /// elements are placed for `bounds`. In a looping carousel, the copy
  /// `lap`, or when nil the copy whose unpinned centre is nearest the
  /// viewport's centre. O(1).
  public func attributesForSupplementary(
    _ kind: ElementKind, section: Int, lap: Int? = nil, bounds: Rect
  )
    -> LayoutAttributes?
  {
    guard section >= 0, section < sections.count else { return nil }
    return placement.attributesForSupplementary(
      kind, section: section, lap: lap, bounds: bounds, of: self)
  }

  /// The item whose centre is nearest the centre of `bounds`: along the
  /// scroll axis for carousels, in the plane for flow. Ties go to the
  /// earlier item; nil without items. O(log n) plus the few lines examined.
  public func centeredItem(in bounds: Rect) -> IndexPath? {
    if loops { return centeredCard(in: bounds)?.path }
    let center = toLTR(bounds).center
    return placement.nearestItem(to: center, mainAxisOnly: restModel.measuresFromCentres)
  }

  /// indexPathForItem(at:): the topmost cell whose transformed outline (the
  /// quadrilateral its corners project to, edges included) contains
  /// `point`: highest zIndex, and for equal zIndex the later item, which
  /// UIKit adds later and so draws on top. O(log n + k).
  public func itemAtPoint(_ point: Point, bounds: Rect) -> IndexPath? {
    cardAtPoint(point, bounds: bounds)?.path
  }

  /// `itemAtPoint` with the card's lap in a looping carousel (where of two
  /// copies at the same zIndex the later lap is drawn on top). O(log n + k).
  public func cardAtPoint(_ point: Point, bounds: Rect) -> Card? {
    // The narrowest rect around the point: it meets exactly the frames
    // that hold the point, edges included (a frame ending at the point
    // ends past its next double down), and no more, however densely items
    // are packed around it.
    let probe = Rect(
      x: point.x.nextDown, y: point.y.nextDown, width: point.x.nextUp - point.x.nextDown,
      height: point.y.nextUp - point.y.nextDown)
    return attributes(in: probe, bounds: bounds)
      .filter { $0.kind == .cell && $0.outlineContains(point) }
      .max { ($0.zIndex, $0.lap ?? 0, $0.indexPath) < ($1.zIndex, $1.lap ?? 0, $1.indexPath) }
      .map { Card(path: $0.indexPath, lap: $0.lap) }
  }

  /// targetContentOffset(forProposedContentOffset:withScrollingVelocity:)
  /// for a release at rest at `proposed`: the snap policy's target and card
  /// (`scrollPlan` with zero velocity). O(log n).
  public func targetContentOffset(proposed raw: Point) -> (offset: Point, item: IndexPath?) {
    // No trajectory: a release at rest needs only where it settles.
    let rest = restingPlace(contentOffset: raw, velocity: .zero, proposed: raw)
    return (rest.target, rest.item)
  }
}
