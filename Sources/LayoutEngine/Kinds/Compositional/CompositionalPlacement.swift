// The compositional placement (UICollectionViewCompositionalLayout):
// sections stack along the scroll axis; each repeats its group until its
// items run out, the groups following each other along the scroll axis or,
// in an orthogonal section, along the cross axis as a row that scrolls on
// its own. Positions are axis-neutral (Axes: "main" is the scroll axis);
// groups and their frames are literal widths and heights
// (CompositionalGroups.swift). A section of unmeasured items costs O(1):
// every group has the template's shape, group k at k · (extent + spacing)
// taken exactly. A section with measured items along estimated axes keeps
// a record of each group holding one, and every other group is still the
// template's.

/// What every section of one layout, container and axis has in common:
/// the layout's fields queries read per element and the positions that do
/// not depend on the item count, worked out once per template.
struct SectionShape: Sendable {
  var direction: ScrollDirection
  /// The content's cross extent.
  var crossExtent: Double
  var behavior: OrthogonalScrollingBehavior
  var effect: RowEffect?
  var pins: (header: Bool, footer: Bool)
  var spacing: Double
  /// Whether groups stack along x: a row of a vertical layout, or a plain
  /// section of a horizontal one.
  var stacksAlongWidth: Bool
  /// Header (main position, cross position, size) and footer (cross
  /// position, size; it follows the groups).
  var header: (main: Double, cross: Double, size: Size)?
  var footer: (cross: Double, size: Size)?
  /// The header's end (a pinned footer's limit) and where the groups' area
  /// starts, along main and across.
  var headerEnd: Double
  var itemsMain: Double
  var itemsCross: Double
  var mainTrail: Double
  var crossTrail: Double
  /// The background's insets: main leading and trailing, cross leading and
  /// trailing.
  var background: (mainLead: Double, mainTrail: Double, crossLead: Double, crossTrail: Double)?
  /// For unmeasured groups: how far cells reach before a group's start and
  /// past its end along the stacking axis, and their span along the scroll
  /// axis from the group's origin.
  var reach: (lo: Double, hi: Double)
  var cellsMain: (lo: Double, hi: Double)

  init(_ layout: SectionLayout, container: Size, size: Size, box: Rect, axes: Axes, W: Double) {
    direction = axes.direction
    crossExtent = W
    behavior = layout.orthogonalScrollingBehavior
    let orthogonal = behavior != .none
    effect = orthogonal ? layout.effect : nil
    let h = layout.boundary(.header)
    let f = layout.boundary(.footer)
    pins = (h?.pinToVisibleBounds ?? false, f?.pinToVisibleBounds ?? false)
    spacing = layout.interGroupSpacing
    stacksAlongWidth = orthogonal == (axes.direction == .vertical)
    let (mainLead, mainTrail, crossLead, crossTrail) = axes.split(layout.contentInsets.insets)
    self.mainTrail = mainTrail
    self.crossTrail = crossTrail
    var y = 0.0
    header = nil
    if let h {
      let size = h.size.resolved(in: container)
      header = (0, crossLead, size)
      y += axes.main(size)
    }
    footer = f.map { (crossLead, $0.size.resolved(in: container)) }
    headerEnd = y
    itemsMain = y + mainLead
    itemsCross = crossLead
    background = layout.background.map { axes.split($0.insets) }
    let along = orthogonal ? axes.cross(size) : axes.main(size)
    let (a, b) =
      orthogonal
      ? (axes.cross(box.origin), axes.cross(box.size))
      : (axes.main(box.origin), axes.main(box.size))
    reach = (min(0, a), max(0, a + b - along))
    cellsMain = (min(0, axes.main(box.origin)), max(0, axes.main(box.origin) + axes.main(box.size)))
  }
}

/// One section of a compositional layout, in its own coordinates (main
/// from the section's start, cross from the content's leading edge): what
/// depends on its items; the rest is its template's shape.
struct CompositionalSection: Sendable {
  var start = 0.0
  /// The section's main extent: header, insets, groups, footer.
  var end = 0.0
  var count: Int
  /// The section's layout resolved for its container and axis.
  var template: GroupTemplate
  var groupCount: Int
  /// The end of the groups' area plus the bottom inset (a pinned header's
  /// limit).
  var itemsEnd = 0.0
  /// Measured groups (nil: every group is the template's).
  var measured: MeasuredGroups? = nil
  /// How far a group's cells reach before its start and past its end along
  /// the stacking axis (negative insets, items overflowing their group).
  var reach = (lo: 0.0, hi: 0.0)
  /// Where the section's elements lie along the scroll axis, from its
  /// start: [0, end] unless cells overflow their groups or a background
  /// has negative insets.
  var span = (lo: 0.0, hi: 0.0)
  /// An orthogonal row's extent (leading inset, groups, trailing inset)
  /// and its range of offsets.
  var rowExtent = 0.0
  var rowRange = (lo: 0.0, hi: 0.0)
  /// A list section's band, in content coordinates (its rows, header,
  /// footer, separators and background), and its list's metrics. Rebuilt
  /// with every relayout: O(1) from its sizes' summary.
  var list: (metrics: ListMetrics, band: ListBand)? = nil

  var layout: SectionLayout { template.layout }
  var container: Size { template.container }
  var behavior: OrthogonalScrollingBehavior { template.shape.behavior }
  var orthogonal: Bool { template.shape.behavior != .none }
  var effect: RowEffect? { template.shape.effect }
  var pins: (header: Bool, footer: Bool) { template.shape.pins }
  var spacing: Double { template.shape.spacing }
  var stacksAlongWidth: Bool { template.shape.stacksAlongWidth }
  var itemsMain: Double { template.shape.itemsMain }
  var itemsCross: Double { template.shape.itemsCross }
  var headerEnd: Double { template.shape.headerEnd }
  var header: (main: Double, cross: Double, size: Size)? { template.shape.header }
  var footer: (main: Double, cross: Double, size: Size)? {
    template.shape.footer.map { (itemsEnd, $0.cross, $0.size) }
  }
  /// The background decoration: main, cross and their extents.
  var background: (main: Double, cross: Double, mainExtent: Double, crossExtent: Double)? {
    template.shape.background.map {
      (
        $0.mainLead, $0.crossLead, max(0, end - $0.mainLead - $0.mainTrail),
        max(0, template.shape.crossExtent - $0.crossLead - $0.crossTrail)
      )
    }
  }

  /// The groups holding a measured item; every other group is the
  /// template's, so a section of a hundred million items with a few
  /// measured ones stores only those few (its sizes are runs). Per
  /// measured group: its index (ascending), its size and its cells'
  /// frames relative to it (`leafCount` each); and the exact sum of the
  /// measured groups' extents before each, from which every group's start
  /// is taken as exactly as a walk over all groups would.
  struct MeasuredGroups: Sendable {
    var groups: [Int] = []
    var sizes: [Size] = []
    var frames: [Rect] = []
    /// prefix[j]: Σ extents of measured groups 0..<j (count + 1 entries).
    var prefix: [ExactSum] = [.zero]
    /// Every group is measured (none listed): group k is entry k.
    var dense: Bool { groups.isEmpty }
    /// The largest frame width or height (a row effect's reach).
    var largestExtent = 0.0

    /// How many measured groups come before group `k`, and whether `k` is
    /// one. O(1) when dense, else O(log measured groups).
    @inline(__always) func slot(_ k: Int) -> (before: Int, measured: Bool) {
      if dense { return (k, true) }
      let j = upperBound(groups.count) { groups[$0] >= k }
      return (j, j < groups.count && groups[j] == k)
    }
  }
}

/// How far a section's groups reach, their cells folded in a group at a
/// time: along the stacking axis before and past each group, along the
/// scroll axis, the thickest group across, and the largest cell extent.
struct CellExtremes {
  var thickest = 0.0
  var lo = 0.0
  var hi = 0.0
  var mainLo = 0.0
  var mainHi = 0.0
  var largest = 0.0

  /// With the cells `frames[range]` of one group of `size` folded in
  /// (`orthogonal`: the groups stack across the scroll axis). O(cells).
  @inline(__always)
  mutating func fold(
    _ frames: [Rect], _ range: Range<Int>, _ size: Size, _ axes: Axes, orthogonal: Bool
  ) {
    let along = orthogonal ? axes.cross(size) : axes.main(size)
    thickest = max(thickest, orthogonal ? axes.main(size) : axes.cross(size))
    for fi in range {
      let f = frames[fi]
      let (a, b) =
        orthogonal
        ? (axes.cross(f.origin), axes.cross(f.size)) : (axes.main(f.origin), axes.main(f.size))
      lo = min(lo, a)
      hi = max(hi, a + b - along)
      mainLo = min(mainLo, axes.main(f.origin))
      mainHi = max(mainHi, axes.main(f.origin) + axes.main(f.size))
      largest = max(largest, f.width, f.height)
    }
  }
}

/// The computed geometry of a compositional layout for one viewport size.
public struct CompositionalGeometry: Placement {
  let axes: Axes
  /// The cross extent of the content (W).
  public let crossExtent: Double
  var sections: [CompositionalSection]
  /// Per section: the farthest any element of it or an earlier section
  /// reaches along the scroll axis, and the nearest any element of it or a
  /// later one starts. Both are monotone whatever cells overflow their
  /// sections, so searches over them are exact.
  var reachedBy: [Double] = []
  var startsFrom: [Double] = []
  /// The templates in use, for the next relayout to carry over.
  var defaultTemplate: GroupTemplate? = nil
  var boxedTemplates: [(box: SectionFieldsBox, layout: SectionLayout, template: GroupTemplate)] = []
  /// Each orthogonal row's offset once set (or a centred row's first),
  /// clamped to its range; absent: 0.
  public private(set) var rowOffsets: RowOffsets
  public private(set) var elementSpan: (lo: Double, hi: Double) = (0, 0)
  public private(set) var contentSize: Size = .zero
  /// How far a row effect's scale can grow a cell beyond its frame, in
  /// either axis: queries widen their rect by it.
  public private(set) var effectReach = 0.0
  /// The first list section of a horizontal layout (lists scroll
  /// vertically): the layout's problem.
  public private(set) var horizontalList: Int? = nil

  /// Lays out every section (rules 1 to 8 of protocol.md's compositional
  /// geometry) in a viewport whose extents less the content insets are
  /// `visible`. A section continuing an old one (per `continuity`) whose
  /// items did not change, with the same layout and container, is reused
  /// whole. O(sections + runs of sizes + measured items · (log n + items
  /// per group · depth)).
  public init(
    configuration c: CompositionalConfiguration, sections specs: [Section], visible: Size,
    rowOffsets: RowOffsets = [:], previous: CompositionalGeometry? = nil,
    continuity: Continuity? = nil
  ) {
    let axes = Axes(direction: c.scrollDirection)
    self.axes = axes
    let W = max(0, axes.cross(visible))
    crossExtent = W
    var sections: [CompositionalSection] = []
    sections.reserveCapacity(specs.count)
    var m = 0.0
    var span = (lo: 0.0, hi: 0.0)
    var reach = 0.0
    var firstHorizontalList: Int? = nil
    // One template per distinct layout: every section of the default
    // layout shares one, and sections whose layouts share a box share one.
    // Templates that still fit carry over from the previous geometry, so
    // that a section can be reused when its template is the same object.
    func container(_ layout: SectionLayout) -> Size {
      let ci = layout.contentInsets
      return Size(
        width: max(0, visible.width - ci.leading - ci.trailing),
        height: max(0, visible.height - ci.top - ci.bottom))
    }
    func fits(_ t: GroupTemplate, _ layout: SectionLayout) -> Bool {
      t.shape.direction == axes.direction && t.shape.crossExtent == W
        && t.container == container(layout) && t.layout == layout
    }
    var defaultTemplate = previous?.defaultTemplate.flatMap { fits($0, c.section) ? $0 : nil }
    var boxed = previous?.boxedTemplates.filter { fits($0.template, $0.layout) } ?? []
    func template(_ box: SectionFieldsBox?) -> GroupTemplate {
      // A section without a layout of its own (or with another kind's
      // fields, kept from before a configure) takes the default.
      guard let box, let layout = box.value as? SectionLayout else {
        if let t = defaultTemplate { return t }
        let t = GroupTemplate(
          c.section, container: container(c.section), axes: axes, crossExtent: W)
        defaultTemplate = t
        return t
      }
      if let k = boxed.lastIndex(where: { $0.box === box }) { return boxed[k].template }
      let t =
        boxed.last(where: { $0.layout == layout })?.template
        ?? GroupTemplate(layout, container: container(layout), axes: axes, crossExtent: W)
      // A few boxes are remembered: a client that sends each section its
      // own copy of one layout finds it by value.
      if boxed.count == 16 { boxed.removeFirst() }
      boxed.append((box, layout, t))
      return t
    }
    for index in specs.indices {
      let t = template(specs[index].fieldsBox)
      var g: CompositionalSection
      if t.layout.list != nil, axes.direction == .horizontal {
        if firstHorizontalList == nil { firstHorizontalList = index }
        g = CompositionalSection(count: specs[index].count, template: t, groupCount: 0)
      } else if let l = t.layout.list {
        g = Self.listSection(specs[index], l, t, at: m, W: W, direction: c.layoutDirection)
      } else if let previous, let continuity, index < continuity.sections.count,
        let r = continuity.sections[index], r.edit == nil, r.old < previous.sections.count,
        previous.sections[r.old].template === t,
        previous.sections[r.old].count == specs[index].count
      {
        g = previous.sections[r.old]
      } else {
        g = Self.section(specs[index], t, axes: axes, W: W)
      }
      g.start = m
      m += g.end
      if index + 1 < specs.count { m += c.interSectionSpacing }
      span.lo = min(span.lo, g.start + g.span.lo)
      span.hi = max(span.hi, g.start + g.span.hi)
      if let e = g.effect {
        // d never exceeds (row extent + W) / W within the row's range.
        let dmax = W > 0 ? (g.rowExtent + W) / W : 0
        let s = e.scale.magnitudeBound(upTo: dmax)
        let largest = g.template.largestExtent
        reach = max(reach, max(0, s - 1) * max(largest, g.measured?.largestExtent ?? 0) / 2)
      }
      sections.append(g)
    }
    self.sections = sections
    self.horizontalList = firstHorizontalList
    self.defaultTemplate = defaultTemplate
    self.boxedTemplates = boxed
    var far = -Double.infinity
    reachedBy = sections.map {
      far = max(far, $0.start + $0.span.hi)
      return far
    }
    var near = Double.infinity
    startsFrom = sections.reversed().map {
      near = min(near, $0.start + $0.span.lo)
      return near
    }.reversed()
    effectReach = reach.isFinite ? reach : 1e300
    let main = max(m, 0)
    span.hi = max(span.hi, main)
    elementSpan = span
    contentSize =
      axes.direction == .vertical
      ? Size(width: W, height: main) : Size(width: main, height: W)
    var clamped: RowOffsets = [:]
    for (s, o) in rowOffsets where s >= 0 && s < sections.count && sections[s].orthogonal {
      clamped[s] = min(max(o, sections[s].rowRange.lo), sections[s].rowRange.hi)
    }
    // A centred row starts with its first group centred, as UIKit shows it
    // (an offset once set, 0 included, stays).
    for (s, g) in sections.enumerated()
    where g.behavior == .groupPagingCentered && g.groupCount > 0 && rowOffsets[s] == nil {
      clamped[s] = min(max(g.groupCenter(0) - W / 2, g.rowRange.lo), g.rowRange.hi)
    }
    self.rowOffsets = clamped
  }

  /// A list section starting at `m`: its band inside the section's content
  /// insets, with `sectionSpacing` above and below it in a spaced
  /// appearance; its last row is the list's last. O(1).
  static func listSection(
    _ spec: Section, _ l: ListSectionLayout, _ t: GroupTemplate, at m: Double, W: Double,
    direction: LayoutDirection
  ) -> CompositionalSection {
    var c = l.configuration
    c.layoutDirection = direction
    let shape = t.shape
    let metrics = ListMetrics(
      c, width: t.container.width, origin: shape.itemsCross, viewportWidth: W)
    var fields = ListSectionFields()
    fields.itemSeparators = l.itemSeparators
    let band = metrics.band(
      spec, fields, at: m + shape.itemsMain,
      trailing: c.appearance.spacesSections ? c.sectionSpacing : 0, holdsLastRow: true)
    var g = CompositionalSection(count: spec.count, template: t, groupCount: 0)
    g.itemsEnd = band.end - m + shape.mainTrail
    g.end = g.itemsEnd
    g.span = (0, g.end)
    g.list = (metrics, band)
    return g
  }

  /// One section in its own coordinates. O(1) without measured items; with
  /// them O(runs of sizes + measured groups · (log n + items per group ·
  /// depth)).
  static func section(_ spec: Section, _ t: GroupTemplate, axes: Axes, W: Double)
    -> CompositionalSection
  {
    let n = spec.count
    let P = t.leafCount
    let shape = t.shape
    var g = CompositionalSection(
      count: n, template: t, groupCount: n == 0 ? 0 : (n - 1) / P + 1)
    let orthogonal = shape.behavior != .none
    // The stacking axis: main for plain sections, cross for rows.
    func along(_ s: Size) -> Double { orthogonal ? axes.cross(s) : axes.main(s) }
    func across(_ s: Size) -> Double { orthogonal ? axes.main(s) : axes.cross(s) }

    // The groups' extent along the stacking axis and the largest across,
    // and how far cells reach outside their group along the stacking axis
    // and along the scroll axis from the group's start (rows only: a plain
    // section's is its reach). Unmeasured groups are the template's.
    var stacked = 0.0
    var thickest = 0.0
    var (lo, hi) = shape.reach
    var (mainLo, mainHi) = shape.cellsMain
    if t.measurable, case .sizes(let list) = spec.items, list.summary.count > list.summary.unset {
      var m = CompositionalSection.MeasuredGroups()
      var sum = ExactSum.zero
      // A struct, not captured locals: the loop below runs once per group,
      // and captured variables would be checked for exclusivity each time.
      var e = CellExtremes()
      // The groups holding a measured item, read from the sizes' leaves:
      // a run of items without sizes is skipped whole. When every item is
      // measured, every group is, and none is listed.
      var holding: [Int] = []
      let dense = list.summary.unset == 0
      if !dense {
        list.forEachLeaf(from: 0) { _, leaf, first in
          if let v = leaf.run {
            if v != Section.unsetSize {
              let a = first / P
              let b = (first + leaf.count - 1) / P
              for k in max(a, (holding.last ?? -1) + 1)...b { holding.append(k) }
            }
            return true
          }
          for (o, v) in leaf.stored.enumerated() where v != Section.unsetSize {
            let k = (first + o) / P
            if holding.last != k { holding.append(k) }
          }
          return true
        }
      }
      let measuredCount = dense ? g.groupCount : holding.count
      if measuredCount < g.groupCount { m.groups = holding }
      m.sizes.reserveCapacity(measuredCount)
      m.frames.reserveCapacity(measuredCount * P)
      m.prefix.reserveCapacity(measuredCount + 1)
      // The groups ask for their items' sizes in order: one cursor, moved
      // by a descent only past groups that hold no measured item. One loop
      // with no local function: it runs once per group.
      var cursor = RopeCursor(list, at: 0)
      for j in 0..<measuredCount {
        let k = dense ? j : holding[j]
        if cursor.index != k * P { cursor = RopeCursor(list, at: k * P) }
        let from = m.frames.count
        let size = t.place(into: &m.frames) { _ in
          guard let s = cursor.next(), s != Section.unsetSize else { return nil }
          return s
        }
        sum += along(size)
        m.sizes.append(size)
        m.prefix.append(sum)
        e.fold(m.frames, from..<m.frames.count, size, axes, orthogonal: orthogonal)
      }
      let unmeasured = g.groupCount - measuredCount
      if unmeasured > 0 {
        // Every group of the template's adds the same: folded in once.
        e.fold(t.frames, t.frames.indices, t.size, axes, orthogonal: orthogonal)
        sum += ExactSum(along(t.size)).times(unmeasured)
      }
      // Σ extents + (k − 1) · spacing, exactly as a fresh sum.
      stacked = (sum + ExactSum(shape.spacing).times(g.groupCount - 1)).value
      (thickest, lo, hi, mainLo, mainHi) = (e.thickest, e.lo, e.hi, e.mainLo, e.mainHi)
      m.largestExtent = e.largest
      g.measured = m
    } else if g.groupCount > 0 {
      let k = g.groupCount
      stacked = (ExactSum(along(t.size)).times(k) + ExactSum(shape.spacing).times(k - 1)).value
      thickest = across(t.size)
    }
    g.reach = (lo, hi)

    // Along the scroll axis: header, top inset, groups (or the row), bottom
    // inset, footer.
    var y = shape.itemsMain
    y += orthogonal ? thickest : stacked
    y += shape.mainTrail
    g.itemsEnd = y
    if let f = shape.footer { y += axes.main(f.size) }
    g.end = y
    var span = (lo: 0.0, hi: y)
    if g.count > 0 {
      if orthogonal {
        span.lo = min(span.lo, g.itemsMain + mainLo)
        span.hi = max(span.hi, g.itemsMain + mainHi)
      } else {
        span.lo = min(span.lo, g.itemsMain + g.reach.lo)
        span.hi = max(span.hi, g.itemsMain + stacked + g.reach.hi)
      }
    }
    if let b = shape.background { span.lo = min(span.lo, b.mainLead) }
    g.span = span
    if orthogonal {
      g.rowExtent = shape.itemsCross + stacked + shape.crossTrail
      var range = (lo: 0.0, hi: max(0, g.rowExtent - W))
      if shape.behavior == .groupPagingCentered, g.groupCount > 0 {
        // The first and last groups can be centred.
        range.lo = min(0, g.groupCenter(0) - W / 2)
        range.hi = max(range.hi, g.groupCenter(g.groupCount - 1) - W / 2)
      }
      g.rowRange = range
    }
    return g
  }

  public var sectionCount: Int { sections.count }
  public func itemCount(inSection s: Int) -> Int { sections[s].count }

  /// A row's offset (0 for a section that does not scroll). O(1).
  public func rowOffset(section s: Int) -> Double { rowOffsets[s] ?? 0 }

  /// Sets a row's offset, clamped to its range. O(1).
  public mutating func setRowOffset(_ o: Double, section s: Int) {
    guard s >= 0, s < sections.count, sections[s].orthogonal else { return }
    rowOffsets[s] = min(max(o, sections[s].rowRange.lo), sections[s].rowRange.hi)
  }

  /// The frame of a valid item. O(1) (a measured section's: O(1) too).
  public func frameForItem(_ path: IndexPath) -> Rect {
    let g = sections[path.section]
    if let l = g.list { return l.metrics.frame(row: path.item, of: l.band) }
    return frame(
      g, path.item, group: path.item / g.template.leafCount,
      offset: rowOffset(section: path.section))
  }

  /// Item `i` of group `k` of section `g` drawn with the row at `o`.
  @inline(__always) func frame(_ g: CompositionalSection, _ i: Int, group k: Int, offset o: Double)
    -> Rect
  {
    let f = g.cellFrame(i, group: k)
    let p = g.groupStart(k)
    var main = g.start + g.itemsMain + axes.main(f.origin)
    var cross = g.itemsCross + axes.cross(f.origin)
    if g.orthogonal { cross += p - o } else { main += p }
    return axes.rect(
      main: main, cross: cross, mainExtent: axes.main(f.size), crossExtent: axes.cross(f.size))
  }

  /// A header or footer (pinned by flow's rule 9 when its boundary item
  /// pins and `pin` is given), or the background decoration. O(1).
  public func frameForSupplementary(_ kind: ElementKind, section s: Int, pin: Pinning?) -> Rect? {
    let g = sections[s]
    if let l = g.list { return l.metrics.supplementary(kind, of: l.band, pin: pin) }
    // A boundary item of no size is no element; its main position pinned.
    func boundary(
      _ b: (main: Double, cross: Double, size: Size)?, _ pinned: (Double, Double) -> Double
    )
      -> Rect?
    {
      guard let b, axes.main(b.size) > 0 || axes.cross(b.size) > 0 else { return nil }
      return axes.rect(
        main: pinned(g.start + b.main, axes.main(b.size)), cross: b.cross,
        mainExtent: axes.main(b.size), crossExtent: axes.cross(b.size))
    }
    switch kind {
    case .header:
      return boundary(g.header) { own, thickness in
        guard let pin, g.pins.header else { return own }
        return pin.header(own: own, thickness: thickness, limit: g.start + g.itemsEnd)
      }
    case .footer:
      return boundary(g.footer) { own, thickness in
        guard let pin, g.pins.footer else { return own }
        return pin.footer(own: own, thickness: thickness, limit: g.start + g.headerEnd)
      }
    case .decoration:
      guard let b = g.background else { return nil }
      return axes.rect(
        main: g.start + b.main, cross: b.cross, mainExtent: b.mainExtent, crossExtent: b.crossExtent
      )
    case .cell, .topSeparator, .bottomSeparator:
      return nil
    }
  }

  /// Whether a section has a background decoration (its other elements
  /// then stand above it, at zIndex 1). O(1).
  public func hasBackground(section s: Int) -> Bool {
    if let l = sections[s].list {
      return l.metrics.configuration.appearance.hasBackgrounds && l.band.count > 0
    }
    return sections[s].background != nil
  }

  /// The row effect of an orthogonal section, if it has one. O(1).
  public func rowEffect(section s: Int) -> RowEffect? {
    sections[s].effect
  }

  /// Whether a section scrolls on its own, and its behaviour. O(1).
  public func orthogonalBehavior(section s: Int) -> OrthogonalScrollingBehavior {
    sections[s].behavior
  }

  /// A row's range of offsets ((0, 0) for a section that does not
  /// scroll). O(1).
  public func rowRange(section s: Int) -> (lo: Double, hi: Double) { sections[s].rowRange }

  /// The first section whose span ends after `lo`. O(log sections).
  func firstSection(endingAfter lo: Double) -> Int {
    upperBound(sections.count) { reachedBy[$0] > lo }
  }

  /// The groups of `g` whose cells can meet [lo, hi] along the stacking
  /// axis (row coordinates for a row). O(log groups).
  func groups(_ g: CompositionalSection, meeting lo: Double, _ hi: Double) -> Range<Int> {
    let first = upperBound(g.groupCount) {
      g.groupStart($0) + g.groupExtent($0) + g.reach.hi > lo
    }
    var last = first
    let to = upperBound(g.groupCount) { g.groupStart($0) + g.reach.lo >= hi }
    last = max(first, to)
    return first..<last
  }

  /// The stacking-axis span of `rect` within section `g`'s groups' area.
  func stackingSpan(_ g: CompositionalSection, _ rect: Rect, offset o: Double) -> (Double, Double) {
    let (lo, hi, clo, chi) = axes.spans(rect)
    if g.orthogonal {
      return (clo - g.itemsCross + o, chi - g.itemsCross + o)
    }
    return (lo - g.start - g.itemsMain, hi - g.start - g.itemsMain)
  }

  /// Calls `body` with each cell of groups `range` of section `s` whose
  /// frame meets `rect`, from item `from` on, until it returns false.
  /// O(cells of those groups).
  @discardableResult
  func forEachCell(
    _ s: Int, groups range: Range<Int>, from: Int = 0, meeting rect: Rect,
    _ body: (Int, Rect) -> Bool
  ) -> Bool {
    let g = sections[s]
    let P = g.template.leafCount
    let o = rowOffset(section: s)
    // From the group holding `from` (a page's cursor deep in the section),
    // not from the rect's first group.
    let first = max(range.lowerBound, min(range.upperBound, P > 0 ? from / P : 0))
    for k in first..<range.upperBound {
      let lo = max(k * P, from)
      let hi = min((k + 1) * P, g.count)
      if lo >= hi { continue }
      for i in lo..<hi {
        let r = frame(g, i, group: k, offset: o)
        if r.intersects(rect), !body(i, r) { return false }
      }
    }
    return true
  }

  /// Every element meeting `rect`, in document order: per section the
  /// background, the header, the cells, the footer. O(sections met · log
  /// groups + cells of the groups met).
  public func forEachElement(
    in rect: Rect, pin: Pinning?, _ body: (ElementKind, Int, Int, Rect) -> Void
  ) {
    forEachElement(in: rect, pin: pin, after: nil) { kind, s, i, r in
      body(kind, s, i, r)
      return true
    }
  }

  /// `forEachElement(in: rect)` from just after `after`, until `body`
  /// returns false. O(sections met · log groups + cells of the groups
  /// met).
  public func forEachElement(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    let (lo, hi, _, _) = axes.spans(rect)
    func inRange(_ s: Int) -> Bool { s < sections.count && startsFrom[s] < hi }
    let key = after.map { ($0.section, $0.kind.documentRank, $0.item, $0.kind.rowRank) }
    var s = firstSection(endingAfter: lo)
    while inRange(s) {
      // The sections of groups up to the next list section, as one walk.
      var e = s
      while inRange(e) && sections[e].list == nil { e += 1 }
      if e > s {
        var stopped = false
        walkSections(
          from: s, while: { $0 < e }, rect: rect, pin: pin, after: after,
          cells: { s, from, take in
            let g = sections[s]
            let (a, b) = stackingSpan(g, rect, offset: rowOffset(section: s))
            return forEachCell(s, groups: groups(g, meeting: a, b), from: from, meeting: rect, take)
          }
        ) { k, s, i, r in
          stopped = !body(k, s, i, r)
          return !stopped
        }
        if stopped { return }
      }
      if inRange(e), let l = sections[e].list, e >= after?.section ?? 0,
        !l.metrics.walkElements(of: l.band, section: e, in: rect, pin: pin, after: key, body)
      {
        return
      }
      s = e + 1
    }
  }

  /// At least as many elements as `forEachElement(in: rect)` visits: per
  /// section met, its supplementary elements and the cells of the groups
  /// the rect meets. O(sections met · log groups).
  public func elementCountBound(in rect: Rect, pin: Pinning?) -> Int {
    let (lo, hi, _, _) = axes.spans(rect)
    var n = 0
    var s = firstSection(endingAfter: lo)
    while s < sections.count && startsFrom[s] < hi {
      let g = sections[s]
      if let l = g.list {
        n = n.addingReportingOverflow(l.metrics.elementCountBound(of: l.band, lo: lo, hi: hi)).0
        s += 1
        continue
      }
      let (a, b) = stackingSpan(g, rect, offset: rowOffset(section: s))
      let range = groups(g, meeting: a, b)
      let (cells, overflow) = range.count.multipliedReportingOverflow(by: g.template.leafCount)
      let (sum, o2) = n.addingReportingOverflow(3 + (overflow ? Int.max / 2 : cells))
      if o2 { return Int.max }
      n = sum
      s += 1
    }
    return n
  }

  /// The item whose centre is nearest `point` (in the plane, or along the
  /// scroll axis alone), ties to the earlier item. Searches the sections a
  /// square window around the point meets, widening it until the best
  /// centre found is within it: every nearer centre then lies in a section
  /// the window meets. In a section of unmeasured items each of the
  /// template's items finds its nearest group by binary search, so items
  /// packed densely (or of no extent at all) cost nothing more; a measured
  /// section's cells meeting the window are examined. O(sections met ·
  /// items per group · log groups) per window, a window or two in
  /// practice.
  /// Each section's groups hold its items, and every row's offset lies in
  /// its range. O(sections + rows).
  public func invariantViolation() -> String? {
    for (s, g) in sections.enumerated() {
      if let l = g.list {
        if let v = l.metrics.invariantViolation(of: l.band) {
          return "compositional list section \(s): \(v)"
        }
        if l.band.count != g.count || g.groupCount != 0 {
          return "compositional list section \(s) holds \(l.band.count) rows for \(g.count) items"
        }
        continue
      }
      // A list section of a horizontal layout is not placed: the layout's
      // problem (horizontalList) refuses it before any query.
      if g.template.layout.list != nil {
        if horizontalList == nil || g.groupCount != 0 {
          return "compositional list section \(s) is placed as groups"
        }
        continue
      }
      let P = g.template.leafCount
      let want = g.count == 0 || P == 0 ? 0 : (g.count - 1) / P + 1
      if g.groupCount != want {
        return "compositional section \(s) has \(g.groupCount) groups for \(g.count) items"
      }
    }
    for (s, o) in rowOffsets {
      guard s >= 0, s < sections.count, sections[s].orthogonal else {
        return "compositional row offset for section \(s), which is not a row"
      }
      let r = sections[s].rowRange
      if !(o >= r.lo && o <= r.hi) { return "compositional row \(s)'s offset \(o) is outside \(r)" }
    }
    return nil
  }

  public func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath? {
    guard sections.contains(where: { $0.count > 0 }) else { return nil }
    let pm = axes.main(point)
    let pc = axes.cross(point)
    let extent = max(1, axes.main(contentSize), crossExtent, abs(pm), abs(pc))
    var radius = 64.0
    while true {
      let crossLo = mainAxisOnly ? -1e300 : pc - radius
      let crossHi = mainAxisOnly ? 1e300 : pc + radius
      let window = axes.rect(
        main: pm - radius, cross: crossLo, mainExtent: 2 * radius, crossExtent: crossHi - crossLo)
      var best: (dist: Double, path: IndexPath)? = nil
      func consider(_ s: Int, _ i: Int, _ r: Rect) {
        let dm = axes.main(r.center) - pm
        let dc = axes.cross(r.center) - pc
        let d = mainAxisOnly ? abs(dm) : (dm * dm + dc * dc).squareRoot()
        let path = IndexPath(section: s, item: i)
        if let b = best, b.dist < d || (b.dist == d && b.path < path) { return }
        best = (d, path)
      }
      let (lo, hi, _, _) = axes.spans(window)
      var s = firstSection(endingAfter: lo)
      while s < sections.count && startsFrom[s] < hi {
        let g = sections[s]
        if let l = g.list {
          // Rows share x: the nearest are the two around the point's y.
          if g.count > 0 {
            let (j, before) = l.metrics.rowsAround(pm, of: l.band)
            if let before { consider(s, before, l.metrics.frame(row: before, of: l.band)) }
            consider(s, j, l.metrics.frame(row: j, of: l.band))
          }
        } else if g.count > 0 && g.measured == nil {
          nearestCells(s, main: pm, cross: pc, mainAxisOnly: mainAxisOnly, consider)
        } else if g.count > 0 {
          let (a, b) = stackingSpan(g, window, offset: rowOffset(section: s))
          forEachCell(s, groups: groups(g, meeting: a, b), meeting: window) { i, r in
            consider(s, i, r)
            return true
          }
        }
        s += 1
      }
      if let best, best.dist <= radius { return best.path }
      if radius > 4 * extent { return best?.path }
      radius *= 4
    }
  }

  /// For each item of an unmeasured section's template, the group whose
  /// copy of it is nearest the point: the other coordinate is the same in
  /// every group, so the nearest is the one nearest along the stacking
  /// axis (the first of equals: the earlier item). Hands each to
  /// `consider`. O(items per group · log groups).
  func nearestCells(
    _ s: Int, main pm: Double, cross pc: Double, mainAxisOnly: Bool,
    _ consider: (Int, Int, Rect) -> Void
  ) {
    let g = sections[s]
    let P = g.template.leafCount
    let o = rowOffset(section: s)
    // Along the main axis alone, a row's groups are all as near.
    let alongMatters = !(g.orthogonal && mainAxisOnly)
    let target = g.orthogonal ? pc - g.itemsCross + o : pm - g.start - g.itemsMain
    let lastFull = g.count % P == 0 ? g.groupCount : g.groupCount - 1
    for j in 0..<P {
      // Groups holding leaf j: all but a partial last group without it.
      let groupsWith = j < g.count - (g.groupCount - 1) * P ? g.groupCount : lastFull
      guard groupsWith > 0 else { continue }
      guard alongMatters else {
        consider(s, j, frame(g, j, group: 0, offset: o))
        continue
      }
      let f = g.template.frames[j]
      let c =
        (g.orthogonal
          ? axes.cross(f.origin) + axes.cross(f.size) / 2
          : axes.main(f.origin) + axes.main(f.size) / 2)
      // The first group whose copy lies at or past the target, and the one
      // before; each as the first group at its position.
      let at = upperBound(groupsWith) { g.groupStart($0) + c >= target }
      // A range, not an array: this runs on every frame's centred item.
      for k in max(0, at - 1)...at where k < groupsWith {
        let v = g.groupStart(k)
        let first = upperBound(k + 1) { g.groupStart($0) >= v }
        consider(s, first * P + j, frame(g, first * P + j, group: first, offset: o))
      }
    }
  }

  /// A row's rest offsets around [lo, hi] (from the last rest at or before
  /// lo to the first at or after hi), ascending, each with the group that
  /// leads there, for its behaviour: group k's leading edge at the leading
  /// inset, group k centred in the visible width, or multiples of `page`;
  /// none for a continuous row. O(log groups + rests).
  public func rowRests(section s: Int, from lo: Double, to hi: Double, page: Double)
    -> [(offset: Double, group: Int)]
  {
    let g = sections[s]
    guard g.groupCount > 0 else { return [] }
    switch g.behavior {
    case .none, .continuous:
      return []
    case .paging:
      guard page > 0 else { return [(0, 0)] }
      let last = (g.rowRange.hi / page).rounded(.up)
      let a = min(max(0, (lo / page).rounded(.down)), last)
      let b = min(max(a, (hi / page).rounded(.up)), last)
      return stride(from: a, through: b, by: 1).map { q in
        let o = q * page
        return (o, leadingGroup(g, at: o))
      }
    case .continuousGroupLeadingBoundary, .groupPaging, .groupPagingCentered:
      let centered = g.behavior == .groupPagingCentered
      func rest(_ k: Int) -> Double {
        centered ? g.groupCenter(k) - crossExtent / 2 : g.groupStart(k)
      }
      let first = max(0, upperBound(g.groupCount) { rest($0) > lo } - 1)
      let last = min(g.groupCount - 1, upperBound(g.groupCount) { rest($0) >= hi })
      return (first...max(first, last)).map { (rest($0), $0) }
    }
  }

  /// The first group of a row that is still visible at offset `o`: the
  /// first whose end lies past the visible leading edge. O(log groups).
  func leadingGroup(_ g: CompositionalSection, at o: Double) -> Int {
    min(
      max(0, g.groupCount - 1),
      upperBound(g.groupCount) { g.itemsCross + g.groupStart($0) + g.groupExtent($0) > o })
  }

  /// The first item of the group leading a row at its offset, and how far
  /// the offset lies past that group's start; nil for an empty row.
  /// O(log groups).
  public func rowAnchor(section s: Int) -> (item: Int, delta: Double)? {
    let g = sections[s]
    guard g.orthogonal, g.groupCount > 0 else { return nil }
    let o = rowOffset(section: s)
    let k = leadingGroup(g, at: o)
    return (k * g.template.leafCount, o - g.groupStart(k))
  }

  /// Where an item's group starts along its row, less the leading inset:
  /// the offset that puts the group's leading edge at the inset. O(1).
  public func groupOffset(of path: IndexPath) -> Double {
    let g = sections[path.section]
    return g.groupStart(path.item / g.template.leafCount)
  }

  /// An item's span along its row (row coordinates: before the offset),
  /// and the row's insets across. O(1).
  public func rowSpan(of path: IndexPath) -> (lo: Double, hi: Double, lead: Double, trail: Double) {
    let g = sections[path.section]
    let f = frame(g, path.item, group: path.item / g.template.leafCount, offset: 0)
    let (_, _, lo, hi) = axes.spans(f)
    let (_, _, lead, trail) = axes.split(g.layout.contentInsets.insets)
    return (lo, hi, lead, trail)
  }

  /// Whether a header or footer of section `s` pins. O(1).
  public func pins(_ kind: ElementKind, section s: Int) -> Bool {
    if let l = sections[s].list {
      return (kind == .header || kind == .footer)
        && l.metrics.configuration.appearance.pinsSupplementaries
    }
    return kind == .header ? sections[s].pins.header : kind == .footer && sections[s].pins.footer
  }
}

extension CompositionalSection {
  /// Group k's start along the stacking axis, from the groups' area:
  /// Σ earlier extents + k · spacing, taken exactly whichever path built
  /// the section. O(1).
  @inline(__always) func groupStart(_ k: Int) -> Double {
    guard let m = measured else { return groupStartUniform(k) }
    let j = m.slot(k).before
    let sum = m.prefix[j] + ExactSum(stackExtent(template.size)).times(k - j)
    return (sum + ExactSum(spacing).times(k)).value
  }

  /// Item `i`'s cell frame relative to its group `k`: the template's
  /// unless the group is measured. O(1), or O(log measured groups).
  @inline(__always) func cellFrame(_ i: Int, group k: Int) -> Rect {
    let leaf = i - k * template.leafCount
    if let m = measured {
      let (j, found) = m.slot(k)
      if found { return m.frames[j * template.leafCount + leaf] }
    }
    return template.frames[leaf]
  }

  @inline(__always) func groupStartUniform(_ k: Int) -> Double {
    (ExactSum(stackExtent(template.size)).times(k) + ExactSum(spacing).times(k)).value
  }

  /// A group size's extent along the stacking axis.
  @inline(__always) func stackExtent(_ s: Size) -> Double {
    stacksAlongWidth ? s.width : s.height
  }

  @inline(__always) func groupExtent(_ k: Int) -> Double {
    if let m = measured {
      let (j, found) = m.slot(k)
      if found { return stackExtent(m.sizes[j]) }
    }
    return stackExtent(template.size)
  }

  /// Group k's centre along the row (row coordinates). O(1).
  func groupCenter(_ k: Int) -> Double {
    itemsCross + groupStart(k) + groupExtent(k) / 2
  }
}
