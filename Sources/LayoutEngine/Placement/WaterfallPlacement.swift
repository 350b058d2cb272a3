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
  /// Per item: local main position, main extent, and column (−1: full span).
  var mains: [Double] = []
  var extents: [Double] = []
  var columns: [Int32] = []
  /// The items of each column, then the full-span items, in order (both
  /// positions and ends ascend along each list).
  var lanes: [[Int32]] = []

  var count: Int { mains.count }

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
      let next = mains[j] + extents[j] + p.interitem
      let c = Int(columns[j])
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
      var survivor: ((Int) -> Int?)? = nil
      if let previous, let continuity, index < continuity.sections.count,
        let r = continuity.sections[index], r.old < previous.sections.count
      {
        old = (previous.sections[r.old], r.edit)
        if c.placement == .stable { survivor = { continuity.survivor(index, $0) } }
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
    old: (ColumnSection, ItemEdit?)?, survivor: ((Int) -> Int?)?
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
    y = g.lanes.contains(where: { !$0.isEmpty }) ? g.bottom : y
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
    let c = g.columns[i]
    return axes.rect(
      main: g.start + g.mains[i], cross: g.cross(c), mainExtent: g.extents[i],
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
        var k = upperBound(lane.count) {
          let i = Int(lane[$0])
          return g.mains[i] + g.extents[i] > localLo
        }
        while k < lane.count, g.mains[Int(lane[k])] < localHi {
          found.append(lane[k])
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
      for lane in g.lanes {
        let k = upperBound(lane.count) {
          let i = Int(lane[$0])
          return g.mains[i] + g.extents[i] / 2 >= local
        }
        var j = k
        while j < lane.count {
          let i = Int(lane[j])
          if let b = best, g.mains[i] + g.extents[i] / 2 - local > b.dist { break }
          consider(s, i)
          j += 1
        }
        j = k - 1
        while j >= 0 {
          let i = Int(lane[j])
          if let b = best, local - (g.mains[i] + g.extents[i] / 2) > b.dist { break }
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
      if let i = lane.last { b = max(b, mains[Int(i)] + extents[Int(i)]) }
    }
    return b
  }

  /// Places the items (rules 3 to 5), keeping `old`'s items before its
  /// edit when its parameters are these, and with `survivor` each
  /// surviving item's column (`stable`). O(items placed).
  mutating func place(
    _ items: Section.Items, _ c: WaterfallConfiguration, axes: Axes,
    old: (ColumnSection, ItemEdit?)?, survivor: ((Int) -> Int?)?
  ) {
    let total: Int
    switch items {
    case .uniform(let n): total = n
    case .sizes(let s): total = s.count
    }
    var from = 0
    if let (o, edit) = old, o.p == p {
      // Items before the first change are placed as they were: the rule
      // for an item reads only the items before it.
      from = min(edit?.lo ?? total, o.count, total)
      mains = Array(o.mains[0..<from])
      extents = Array(o.extents[0..<from])
      columns = Array(o.columns[0..<from])
      lanes = o.lanes.map { lane in
        Array(lane[0..<upperBound(lane.count) { Int(lane[$0]) >= from }])
      }
    } else {
      lanes = Array(repeating: [], count: p.columnCount + 1)
    }
    let oldColumns: ColumnSection? = survivor == nil ? nil : old?.0
    let keep = oldColumns.map { $0.p.columnCount == p.columnCount } ?? false
    var tops = tops(before: from)
    let n = p.columnCount
    mains.reserveCapacity(total)
    extents.reserveCapacity(total)
    columns.reserveCapacity(total)
    func placeOne(_ i: Int, _ raw: Size) {
      let size = raw == Section.unsetSize ? p.itemSize : raw.unmarked
      let full = raw != Section.unsetSize && raw.isFullSpan
      let crossSize = axes.cross(size)
      let width = full ? p.avail : p.columnWidth
      var extent = crossSize > 0 ? c.floored(axes.main(size) * width / crossSize) : 0
      if !(extent <= 1e15) { extent = 1e15 }
      if full {
        var top = tops[0]
        for t in tops { top = max(top, t) }
        mains.append(top)
        extents.append(extent)
        columns.append(-1)
        lanes[n].append(Int32(i))
        let next = top + extent + p.interitem
        for k in 0..<n { tops[k] = next }
        return
      }
      var col = -1
      if keep, let o = oldColumns, let oi = survivor?(i), oi >= 0, oi < o.count, o.columns[oi] >= 0
      {
        col = Int(o.columns[oi])
      }
      if col < 0 {
        switch p.renderDirection {
        case .shortestFirst:
          var low = tops[0]
          for t in tops { low = min(low, t) }
          let tolerance = 1e-9 * max(1, abs(low))
          col = 0
          while tops[col] > low + tolerance { col += 1 }
        case .leftToRight: col = i % n
        case .rightToLeft: col = n - 1 - i % n
        }
      }
      mains.append(tops[col])
      extents.append(extent)
      columns.append(Int32(col))
      lanes[col].append(Int32(i))
      tops[col] = tops[col] + extent + p.interitem
    }
    switch items {
    case .uniform:
      for i in from..<max(from, total) { placeOne(i, Section.unsetSize) }
    case .sizes(let sizes):
      guard from < total else { break }
      sizes.forEachLeaf(from: from) { _, elements, first in
        for k in max(from - first, 0)..<elements.count { placeOne(first + k, elements[k]) }
        return true
      }
    }
  }
}
