// The waterfall placement (masonry): each section's items fill columns,
// each item going to the column the render direction picks, as tall as its
// aspect ratio makes it at the column's width. Positions are worked out in
// the axis-neutral frame of Axes ("main" is the scroll axis), each
// section's relative to its own start, so that a section whose items did
// not change is reused whole when an earlier one changes: the same item
// always gets the same double, whatever path computed it.

/// One section of a waterfall, in its own coordinates (main positions are
/// relative to `start`).
struct ColumnSection: Sendable {
  /// What the section's geometry depends on besides its items.
  struct Parameters: Equatable, Sendable {
    var columnCount: Int
    var columnWidth: Double
    var columnSpacing: Double
    var interitem: Double
    var avail: Double
    var crossLead: Double
    var itemsStart: Double
    var itemSize: Size
    var renderDirection: ItemRenderDirection
  }

  var p: Parameters
  var start: Double = 0
  /// Header and footer: local main position, thickness, cross lead and extent.
  var header: (main: Double, thickness: Double, cross: Double, extent: Double)? = nil
  var footer: (main: Double, thickness: Double, cross: Double, extent: Double)? = nil
  /// After the header and its trailing inset: where a pinned footer stops.
  var headerEnd = 0.0
  /// After the items and the trailing section inset: where a pinned header
  /// stops.
  var itemsEnd = 0.0
  var end = 0.0
  /// One placed item: its local main position, main extent, and column
  /// (−1: full span).
  struct Placed: Sendable {
    var main: Double
    var extent: Double
    var column: Int32
    @inline(__always) var end: Double { main + extent }
  }

  /// The items in index order.
  var items = Chunked<Placed>()
  /// The items of each column, then the full-span items, in order (both
  /// positions and ends ascend along each list).
  var lanes: [Chunked<Int32>] = []

  var count: Int { items.count }

  /// Every item's column, for tests. O(n).
  var columns: [Int32] { items.array.map(\.column) }

  /// The cross position of column `c` (−1: the full span's). O(1).
  @inline(__always) func cross(_ c: Int32) -> Double {
    c < 0 ? p.crossLead : p.crossLead + Double(c) * (p.columnWidth + p.columnSpacing)
  }

  /// The tops of every column just before item `lo` (rule 3's `top`), from
  /// the items before it: the last item of each column, or the last
  /// full-span item. O(items walked back), a few per column.
  func tops(before lo: Int) -> [Double] {
    var tops = [Double](repeating: .nan, count: p.columnCount)
    var open = p.columnCount
    var j = lo - 1
    while j >= 0 && open > 0 {
      let item = items[j]
      let next = item.end + p.interitem
      let c = Int(item.column)
      if c < 0 {
        for k in 0..<tops.count where tops[k].isNaN { tops[k] = next }
        open = 0
      } else if tops[c].isNaN {
        tops[c] = next
        open -= 1
      }
      j -= 1
    }
    for k in 0..<tops.count where tops[k].isNaN { tops[k] = p.itemsStart }
    return tops
  }
}

/// The computed geometry of a waterfall layout for one viewport size.
public struct WaterfallGeometry: Placement {
  let axes: Axes
  /// The cross extent W of the content.
  public let crossExtent: Double
  var sections: [ColumnSection]
  public private(set) var elementSpan: (lo: Double, hi: Double) = (0, 0)
  public private(set) var contentSize: Size = .zero

  /// Lays out every section (rules 1 to 8 of protocol.md's waterfall).
  /// With `previous` and `continuity`, a section continuing an old one
  /// with the same parameters keeps the old items before its first edit
  /// (all of them without one) and places only the rest; a `stable`
  /// layout keeps each surviving item's column. O(sections + items
  /// placed).
  public init(
    configuration c: WaterfallConfiguration, sections specs: [Section], crossExtent W: Double,
    previous: WaterfallGeometry? = nil, continuity: Continuity? = nil
  ) {
    let axes = Axes(direction: c.scrollDirection)
    self.axes = axes
    self.crossExtent = W
    var sections: [ColumnSection] = []
    sections.reserveCapacity(specs.count)
    var m = 0.0
    var span = (lo: 0.0, hi: 0.0)
    for (index, spec) in specs.enumerated() {
      var old: (ColumnSection, ItemEdit?)? = nil
      var survivor: SurvivorWalk? = nil
      if let previous, let continuity, index < continuity.sections.count,
        let r = continuity.sections[index], r.old < previous.sections.count
      {
        old = (previous.sections[r.old], r.edit)
        if c.placement == .stable { survivor = continuity.survivors(index) }
      }
      var g = Self.section(spec, c, axes: axes, W: W, old: old, survivor: survivor)
      g.start = m
      m += g.end
      // Negative insets can put elements outside [start, end].
      span.lo = min(span.lo, g.start + min(0, g.header?.main ?? 0, g.p.itemsStart))
      span.hi = max(span.hi, m, g.start + max(g.itemsEnd, g.count > 0 ? g.bottom : 0))
      sections.append(g)
    }
    self.sections = sections
    let main = max(m, c.minimumContentHeight, 0)
    span.hi = max(span.hi, main)
    elementSpan = span
    contentSize =
      axes.direction == .vertical
      ? Size(width: W, height: main) : Size(width: main, height: W)
  }

  /// One section in its own coordinates. O(items placed).
  static func section(
    _ spec: Section, _ c: WaterfallConfiguration, axes: Axes, W: Double,
    old: (ColumnSection, ItemEdit?)?, survivor: SurvivorWalk?
  ) -> ColumnSection {
    let o = spec.columns ?? ColumnOverrides()
    let n = max(1, o.columnCount ?? c.columnCount)
    let (lead, trail, crossLead, crossTrail) = axes.split(spec.inset ?? c.sectionInset)
    let columnSpacing = o.minimumColumnSpacing ?? c.minimumColumnSpacing
    let avail = max(0, W - crossLead - crossTrail)
    let colW = max(0, c.floored((avail - Double(n - 1) * columnSpacing) / Double(n)))
    var y = 0.0
    var header: (main: Double, thickness: Double, cross: Double, extent: Double)? = nil
    let headerThickness = o.headerHeight ?? c.headerHeight
    if headerThickness > 0 {
      let hi = axes.split(o.headerInset ?? c.headerInset)
      header = (
        y + hi.mainLead, headerThickness, hi.crossLead, max(0, W - hi.crossLead - hi.crossTrail)
      )
      y += hi.mainLead + headerThickness + hi.mainTrail
    }
    let headerEnd = y
    y += lead
    let p = ColumnSection.Parameters(
      columnCount: n, columnWidth: colW, columnSpacing: columnSpacing,
      interitem: spec.minimumInteritemSpacing ?? c.minimumInteritemSpacing, avail: avail,
      crossLead: crossLead, itemsStart: y, itemSize: c.uniformItemSize,
      renderDirection: c.itemRenderDirection)
    var g = ColumnSection(p: p)
    g.header = header
    g.headerEnd = headerEnd
    g.place(spec.items, c, axes: axes, old: old, survivor: survivor)
    y = g.count > 0 ? g.bottom : y
    g.itemsEnd = y + trail
    y = g.itemsEnd
    let footerThickness = o.footerHeight ?? c.footerHeight
    if footerThickness > 0 {
      let fi = axes.split(o.footerInset ?? c.footerInset)
      g.footer = (
        y + fi.mainLead, footerThickness, fi.crossLead, max(0, W - fi.crossLead - fi.crossTrail)
      )
      y += fi.mainLead + footerThickness + fi.mainTrail
    }
    g.end = y
    return g
  }

  public var sectionCount: Int { sections.count }
  public func itemCount(inSection s: Int) -> Int { sections[s].count }

  /// The untransformed frame of an item. O(1).
  public func frameForItem(_ path: IndexPath) -> Rect {
    frame(sections[path.section], path.item)
  }

  @inline(__always) func frame(_ g: ColumnSection, _ i: Int) -> Rect {
    let item = g.items[i]
    let c = item.column
    return axes.rect(
      main: g.start + item.main, cross: g.cross(c), mainExtent: item.extent,
      crossExtent: c < 0 ? g.p.avail : g.p.columnWidth)
  }

  /// A section's header or footer, pinned by flow's rule 9 with the
  /// element's placed frame as its own position. O(1).
  public func frameForSupplementary(_ kind: ElementKind, section s: Int, pin: Pinning?) -> Rect? {
    let g = sections[s]
    switch kind {
    case .header:
      guard let h = g.header else { return nil }
      var main = g.start + h.main
      if let pin, pin.headers {
        main = pin.header(own: main, thickness: h.thickness, limit: g.start + g.itemsEnd)
      }
      return axes.rect(main: main, cross: h.cross, mainExtent: h.thickness, crossExtent: h.extent)
    case .footer:
      guard let f = g.footer else { return nil }
      var main = g.start + f.main
      if let pin, pin.footers {
        main = pin.footer(own: main, thickness: f.thickness, limit: g.start + g.headerEnd)
      }
      return axes.rect(main: main, cross: f.cross, mainExtent: f.thickness, crossExtent: f.extent)
    case .cell:
      return nil
    }
  }

  /// The first section whose span ends after `lo`. O(log sections).
  func firstSection(endingAfter lo: Double) -> Int {
    upperBound(sections.count) { sections[$0].start + sections[$0].end > lo }
  }

  /// Every element meeting `rect`, in document order. Each lane (column,
  /// then the full-span items) is searched for its first item ending after
  /// the rect's start and walked while items start before its end.
  /// O(sections met + columns · log n + k log k) for k elements.
  public func forEachElement(
    in rect: Rect, pin: Pinning?, _ body: (ElementKind, Int, Int, Rect) -> Void
  ) {
    let (lo, hi, _, _) = axes.spans(rect)
    var found: [Int32] = []
    // A pinned element can sit anywhere in its section: start the search
    // at the first section that could hold one.
    var s = firstSection(endingAfter: lo)
    while s < sections.count && sections[s].start < hi {
      let g = sections[s]
      if let h = frameForSupplementary(.header, section: s, pin: pin), h.intersects(rect) {
        body(.header, s, 0, h)
      }
      found.removeAll(keepingCapacity: true)
      let localLo = lo - g.start
      let localHi = hi - g.start
      for lane in g.lanes {
        var k = lane.partition { g.items[Int($0)].end > localLo }
        while k < lane.count {
          let i = lane[k]
          guard g.items[Int(i)].main < localHi else { break }
          found.append(i)
          k += 1
        }
      }
      found.sort()
      for i in found {
        let r = frame(g, Int(i))
        if r.intersects(rect) { body(.cell, s, Int(i), r) }
      }
      if let f = frameForSupplementary(.footer, section: s, pin: pin), f.intersects(rect) {
        body(.footer, s, 0, f)
      }
      s += 1
    }
  }

  /// The item whose centre is nearest `point`; ties to the earlier item.
  /// Each lane is entered at the point's main position and walked both ways
  /// while its items could still be nearer. O(sections + columns · log n)
  /// plus the candidates examined.
  public func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath? {
    let pm = axes.main(point)
    let pc = axes.cross(point)
    var best: (dist: Double, path: IndexPath)? = nil
    func consider(_ s: Int, _ i: Int) {
      let c = frame(sections[s], i).center
      let dm = axes.main(c) - pm
      let dc = axes.cross(c) - pc
      let d = mainAxisOnly ? abs(dm) : (dm * dm + dc * dc).squareRoot()
      let path = IndexPath(section: s, item: i)
      if let b = best, b.dist < d || (b.dist == d && b.path < path) { return }
      best = (d, path)
    }
    // Sections are visited outward from the one holding the point.
    guard !sections.isEmpty else { return nil }
    let first = min(firstSection(endingAfter: pm), sections.count - 1)
    func visit(_ s: Int) -> Bool {
      let g = sections[s]
      guard g.count > 0 else { return true }
      // A lower bound on the distance to any centre in the section.
      let lo = g.start + g.p.itemsStart
      let hi = g.start + g.bottom
      let bound = pm < lo ? lo - pm : (pm > hi ? pm - hi : 0)
      if let b = best, bound > b.dist { return false }
      let local = pm - g.start
      func centre(_ i: Int) -> Double {
        let item = g.items[i]
        return item.main + item.extent / 2
      }
      for lane in g.lanes {
        let k = lane.partition { centre(Int($0)) >= local }
        var j = k
        while j < lane.count {
          let i = Int(lane[j])
          if let b = best, centre(i) - local > b.dist { break }
          consider(s, i)
          j += 1
        }
        j = k - 1
        while j >= 0 {
          let i = Int(lane[j])
          if let b = best, local - centre(i) > b.dist { break }
          consider(s, i)
          j -= 1
        }
      }
      return true
    }
    _ = visit(first)
    var s = first + 1
    while s < sections.count && visit(s) { s += 1 }
    s = first - 1
    while s >= 0 && visit(s) { s -= 1 }
    return best?.path
  }
}

extension ColumnSection {
  /// The end of the lowest column: the largest item end. O(columns).
  var bottom: Double {
    var b = -Double.infinity
    for lane in lanes {
      if let i = lane.last { b = max(b, items[Int(i)].end) }
    }
    return b
  }

  /// Places the items (rules 3 to 5), keeping `old`'s items before its
  /// edit when its parameters are these, and with `survivor` each
  /// surviving item's column (`stable`). O(items placed), plus
  /// O(n / 4096) to share the kept chunks.
  mutating func place(
    _ items: Section.Items, _ c: WaterfallConfiguration, axes: Axes,
    old: (ColumnSection, ItemEdit?)?, survivor: SurvivorWalk?
  ) {
    let total: Int
    switch items {
    case .uniform(let n): total = n
    case .sizes(let s): total = s.count
    }
    var from = 0
    if let (o, edit) = old, o.p == p {
      // Items before the first change are placed as they were: the rule
      // for an item reads only the items before it. Their chunks are shared.
      from = min(edit?.lo ?? total, o.count, total)
      self.items = o.items
      self.items.truncate(to: from)
      lanes = o.lanes
      for k in lanes.indices { lanes[k].truncate(to: lanes[k].partition { Int($0) >= from }) }
    } else {
      lanes = Array(repeating: Chunked(), count: p.columnCount + 1)
    }
    guard from < total else { return }
    var placer = Placer(
      p: p, c: c, axes: axes, tops: tops(before: from),
      old: survivor != nil && old?.0.p.columnCount == p.columnCount ? old?.0 : nil,
      survivor: survivor)
    swap(&placer.items, &self.items)
    swap(&placer.lanes, &self.lanes)
    switch items {
    case .uniform:
      for i in from..<total { placer.place(i, Section.unsetSize) }
    case .sizes(let sizes):
      sizes.forEachLeaf(from: from) { _, elements, first in
        for k in max(from - first, 0)..<elements.count { placer.place(first + k, elements[k]) }
        return true
      }
    }
    swap(&placer.items, &self.items)
    swap(&placer.lanes, &self.lanes)
  }
}

/// The state of one placing pass: each column's top (rule 3's `top`), and
/// the storage being appended to.
private struct Placer {
  let p: ColumnSection.Parameters
  let c: WaterfallConfiguration
  let axes: Axes
  var tops: [Double]
  /// The section the survivors' columns come from (stable), if any.
  let old: ColumnSection?
  var survivor: SurvivorWalk?
  var items = Chunked<ColumnSection.Placed>()
  var lanes: [Chunked<Int32>] = []

  init(
    p: ColumnSection.Parameters, c: WaterfallConfiguration, axes: Axes, tops: [Double],
    old: ColumnSection?, survivor: SurvivorWalk?
  ) {
    self.p = p
    self.c = c
    self.axes = axes
    self.tops = tops
    self.old = old
    self.survivor = survivor
  }

  /// Places item `i` of stored size `raw`. O(columns).
  @inline(__always) mutating func place(_ i: Int, _ raw: Size) {
    let n = p.columnCount
    let unset = raw == Section.unsetSize
    let size = unset ? p.itemSize : raw.unmarked
    let full = !unset && raw.isFullSpan
    let crossSize = axes.cross(size)
    let width = full ? p.avail : p.columnWidth
    var extent = crossSize > 0 ? c.floored(axes.main(size) * width / crossSize) : 0
    if !(extent <= 1e15) { extent = 1e15 }
    if full {
      var top = tops[0]
      for t in tops { top = max(top, t) }
      items.append(.init(main: top, extent: extent, column: -1))
      lanes[n].append(Int32(truncatingIfNeeded: i))
      let next = top + extent + p.interitem
      for k in 0..<n { tops[k] = next }
      return
    }
    var col = -1
    if let old, let oi = survivor?.oldIndex(ofNew: i), oi >= 0, oi < old.count {
      col = Int(old.items[oi].column)
    }
    if col < 0 {
      switch p.renderDirection {
      case .shortestFirst:
        var low = tops[0]
        for t in tops { low = min(low, t) }
        let tied = low + 1e-9 * max(1, abs(low))
        // The lowest tied column, without a branch per column (the column
        // an item takes is unpredictable).
        col = 0
        for k in stride(from: n - 1, through: 0, by: -1) { col = tops[k] <= tied ? k : col }
      case .leftToRight: col = i % n
      case .rightToLeft: col = n - 1 - i % n
      }
    }
    let top = tops[col]
    items.append(.init(main: top, extent: extent, column: Int32(col)))
    lanes[col].append(Int32(truncatingIfNeeded: i))
    tops[col] = top + extent + p.interitem
  }
}
