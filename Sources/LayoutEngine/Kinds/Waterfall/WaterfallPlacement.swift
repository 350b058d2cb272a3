// The waterfall placement (masonry): each section's items fill columns,
// each item going to the column the render direction picks, as tall as its
// aspect ratio makes it at the column's width. Positions are worked out in
// the axis-neutral frame of Axes ("main" is the scroll axis), each
// section's relative to its own start, so that a section whose items did
// not change is reused whole when an earlier one changes. The columns
// themselves are WaterfallColumns.swift.

/// The computed geometry of a waterfall layout for one viewport size.
public struct WaterfallGeometry: Placement {
  let axes: Axes
  /// The cross extent W of the content.
  public let crossExtent: Double
  var sections: [ColumnSection]
  public private(set) var elementSpan: (lo: Double, hi: Double) = (0, 0)
  public private(set) var contentSize: Size = .zero
  /// Where the placement stops being final (see `Placement`): the first
  /// section a bounded relayout left a provisional rest in, at its
  /// columns' lowest top there.
  public private(set) var placedThrough = Double.infinity

  /// Lays out every section (rules 1 to 8 of protocol.md's waterfall).
  /// With `previous` and `continuity`, a section continuing an old one
  /// with the same parameters keeps the old items before its first edit
  /// (all of them without one) and places only the rest; a `stable`
  /// layout keeps each surviving item's column. With the continuity's
  /// `horizon`, a packed section stops placing once every column's top
  /// lies past it, and its rest stays provisional until a relayout asks
  /// for more. O(sections + items placed).
  public init(
    configuration c: WaterfallConfiguration, sections specs: [Section], crossExtent W: Double,
    previous: consuming WaterfallGeometry? = nil, continuity: Continuity? = nil
  ) {
    let axes = Axes(direction: c.scrollDirection)
    self.axes = axes
    self.crossExtent = W
    var sections: [ColumnSection] = []
    sections.reserveCapacity(specs.count)
    var m = 0.0
    var span = (lo: 0.0, hi: 0.0)
    var through = Double.infinity
    // The previous sections, each taken out as it continues: held once,
    // a relayout edits their ropes in place.
    var previousSections: [ColumnSection?] = []
    if let previous = consume previous { previousSections = previous.sections.map { $0 } }
    for (index, spec) in specs.enumerated() {
      var old: ColumnSection? = nil
      var edit: ItemEdit? = nil
      var survivor: SurvivorWalk? = nil
      if let continuity, index < continuity.sections.count,
        let r = continuity.sections[index], r.old < previousSections.count
      {
        old = previousSections[r.old].take()
        edit = r.edit
        if c.placement == .stable { survivor = continuity.survivors(index) }
      }
      var g = Self.section(
        spec, c, axes: axes, W: W, old: consume old, edit: edit, survivor: survivor,
        horizon: continuity?.horizon.map { $0 - m })
      g.start = m
      if let p = g.provisional { through = min(through, m + p.main) }
      m += g.end
      // Negative insets can put elements outside [start, end].
      span.lo = min(span.lo, g.start + min(0, g.header?.main ?? 0, g.p.itemsStart))
      span.hi = max(span.hi, m, g.start + max(g.itemsEnd, g.bottom ?? 0))
      sections.append(g)
    }
    self.sections = sections
    placedThrough = through
    let main = max(m, c.minimumContentHeight, 0)
    span.hi = max(span.hi, main)
    elementSpan = span
    contentSize =
      axes.direction == .vertical
      ? Size(width: W, height: main) : Size(width: main, height: W)
  }

  /// One section in its own coordinates; `horizon` (local) bounds what a
  /// relayout must place. O(items placed).
  static func section(
    _ spec: Section, _ c: WaterfallConfiguration, axes: Axes, W: Double,
    old: consuming ColumnSection?, edit: ItemEdit?, survivor: SurvivorWalk?, horizon: Double?
  ) -> ColumnSection {
    let o = spec.fields(ColumnOverrides.self) ?? ColumnOverrides()
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
      renderDirection: c.itemRenderDirection, direction: c.scrollDirection,
      pixelScale: c.pixelScale, placement: c.placement)
    var g = ColumnSection(p: p)
    if let o = old, o.p == p {
      var change = edit
      if change == nil, let rest = o.provisional, horizon.map({ rest.main <= $0 }) ?? true {
        // A provisional rest reaching into what must be final: placed
        // from its first item, as an edit of nothing there.
        change = ItemEdit(lo: rest.item, oldHi: rest.item, newHi: rest.item)
      }
      _ = consume old
      if let change {
        g.relayout(
          from: consume o, edit: change, spec.items, c, axes: axes, survivors: survivor,
          horizon: horizon)
      } else {
        g = o
      }
    } else {
      // Afresh; a stable layout keeps each survivor's column when their
      // number is unchanged (a rotation).
      let keep = survivor != nil && old?.p.columnCount == n ? old : nil
      g.build(spec.items, c, axes: axes, keep: keep, survivors: keep == nil ? nil : survivor)
    }
    g.header = header
    g.headerEnd = headerEnd
    g.footer = nil
    y = g.bottom ?? y
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

  /// The untransformed frame of an item. O(log n).
  public func frameForItem(_ path: IndexPath) -> Rect {
    let g = sections[path.section]
    let item = g.item(path.item)
    return frame(g, main: item.main, extent: item.extent, column: item.column)
  }

  @inline(__always) func frame(_ g: ColumnSection, main: Double, extent: Double, column c: Int32)
    -> Rect
  {
    axes.rect(
      main: g.start + main, cross: g.cross(c), mainExtent: extent,
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
    case .cell, .decoration, .topSeparator, .bottomSeparator:
      return nil
    }
  }

  /// The first section whose span ends after `lo`. O(log sections).
  func firstSection(endingAfter lo: Double) -> Int {
    upperBound(sections.count) { sections[$0].start + sections[$0].end > lo }
  }

  /// Every element meeting `rect`, in document order. Each column of each
  /// segment the rect meets is searched for its first item ending after
  /// the rect's start and walked while items start before its end.
  /// O(sections met + segments met · columns · log n + k log k) for k
  /// elements.
  public func forEachElement(
    in rect: Rect, pin: Pinning?, _ body: (ElementKind, Int, Int, Rect) -> Void
  ) {
    let (lo, hi, _, _) = axes.spans(rect)
    var found: [(index: Int, rect: Rect)] = []
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
      g.forEachItem(meeting: localLo, localHi) { i, main, extent, column in
        let r = frame(g, main: main, extent: extent, column: column)
        if r.intersects(rect) { found.append((i, r)) }
      }
      found.sort { $0.index < $1.index }
      for (i, r) in found { body(.cell, s, i, r) }
      if let f = frameForSupplementary(.footer, section: s, pin: pin), f.intersects(rect) {
        body(.footer, s, 0, f)
      }
      s += 1
    }
  }

  /// `forEachElement(in: rect)` from just after `after`, until `body`
  /// returns false: each section's items are walked in index order over
  /// the range the rect's columns span. O(sections met · columns · log n +
  /// items in that range · log n).
  public func forEachElement(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    let (lo, hi, _, _) = axes.spans(rect)
    walkSections(
      from: firstSection(endingAfter: lo),
      while: { $0 < sections.count && sections[$0].start < hi },
      rect: rect, pin: pin, after: after,
      cells: { s, fromItem, take in
        let g = sections[s]
        let range = g.indexRange(meeting: lo - g.start, hi - g.start)
        var i = max(range.lowerBound, fromItem)
        while i < range.upperBound {
          let (main, extent, column) = g.item(i)
          let r = frame(g, main: main, extent: extent, column: column)
          if r.intersects(rect), !take(i, r) { return false }
          i += 1
        }
        return true
      }, body)
  }

  /// At least as many elements as `forEachElement(in: rect)` visits,
  /// counted from the column ropes without visiting them (the rect's
  /// extent across is not used). O(sections met · columns · log n).
  public func elementCountBound(in rect: Rect, pin: Pinning?) -> Int {
    let (lo, hi, _, _) = axes.spans(rect)
    var n = 0
    var s = firstSection(endingAfter: lo)
    while s < sections.count && sections[s].start < hi {
      let g = sections[s]
      n += 2 + g.countItems(meeting: lo - g.start, hi - g.start)
      s += 1
    }
    return n
  }

  /// The item whose centre is nearest `point`; ties to the earlier item.
  /// Searches a window around the point's main position, widening it
  /// until the nearest centre found is no farther than the window's edge.
  /// O((sections + segments met · columns) · log n + k) per window, a
  /// window or two in practice.
  /// Sections follow one another; each one's order, lanes and spans are
  /// sound, with one lane per column and no more items in its lanes than
  /// it has. O(n).
  public func invariantViolation() -> String? {
    var end = 0.0
    for (s, g) in sections.enumerated() {
      if g.start != end { return "waterfall section \(s) starts at \(g.start), not \(end)" }
      if g.lanes.count != g.p.columnCount {
        return "waterfall section \(s) has \(g.lanes.count) lanes"
      }
      if let v = g.order.invariantViolation() { return "waterfall section \(s)'s order: \(v)" }
      if let v = g.spans.invariantViolation() { return "waterfall section \(s)'s spans: \(v)" }
      var inLanes = 0
      for (c, lane) in g.lanes.enumerated() {
        if let v = lane.invariantViolation() { return "waterfall section \(s) lane \(c): \(v)" }
        inLanes += lane.count
      }
      if inLanes > g.count {
        return "waterfall section \(s)'s lanes hold \(inLanes) of \(g.count) items"
      }
      if let p = g.provisional, !(p.item >= 0 && p.item <= g.count) {
        return "waterfall section \(s) is provisional from item \(p.item) of \(g.count)"
      }
      end = g.start + g.end  // a section's end is local
    }
    return nil
  }

  public func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath? {
    let pm = axes.main(point)
    let pc = axes.cross(point)
    guard sections.contains(where: { $0.count > 0 }) else { return nil }
    // Windows about the point's nearest place in the content: a point far
    // beyond it (a viewport at 1e12) searches the content's end, not the
    // empty stretch between.
    let contentEnd = max(0, axes.main(contentSize))
    let q = min(max(pm, 0), contentEnd)
    // The first window wide enough, most often, to hold a centre within
    // half its width: twice the mean pitch of the columns of the section
    // at the point (from its lanes' summaries, O(columns)), so that a
    // frame's centred card takes one window, not two. Any start gives
    // the same answer.
    var radius = 64.0
    let at = sections[max(0, min(firstSection(endingAfter: q), sections.count - 1))]
    var pitch = 0.0
    var placed = 0
    for lane in at.lanes {
      pitch += lane.summary.pitch.value
      placed += lane.count
    }
    if placed > 0 { radius = max(radius, 2 * pitch / Double(placed)) }
    while true {
      var best: (dist: Double, path: IndexPath)? = nil
      let lo = q - radius
      let hi = q + radius
      var s = max(0, min(firstSection(endingAfter: lo), sections.count - 1))
      while s < sections.count && sections[s].start < hi {
        let g = sections[s]
        g.forEachItem(meeting: lo - g.start, hi - g.start) { i, main, ext, column in
          let c = frame(g, main: main, extent: ext, column: column).center
          let dm = axes.main(c) - pm
          let dc = axes.cross(c) - pc
          let d = mainAxisOnly ? abs(dm) : (dm * dm + dc * dc).squareRoot()
          let path = IndexPath(section: s, item: i)
          if let b = best, b.dist < d || (b.dist == d && b.path < path) { return }
          best = (d, path)
        }
        s += 1
      }
      // An item the window did not meet has its centre beyond the
      // window's edge, farther from the point than that edge: the best is
      // final when it is nearer than every edge with content beyond.
      var bound = Double.infinity
      if lo > 0 { bound = min(bound, pm - lo) }
      if hi < contentEnd { bound = min(bound, hi - pm) }
      if let best, best.dist < bound { return best.path }
      if bound == .infinity { return best?.path }  // the whole content met
      radius *= 4
    }
  }
}
