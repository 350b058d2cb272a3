// The flow placement's queries: frames, rects, supplementary views and the
// nearest item, over the lines of FlowLines.swift.

/// The computed geometry of a flow layout for one viewport size.
/// Item sizes are stored in main/cross order (width = cross, height = main)
/// internally, so that both scroll directions share one code path.
public struct FlowGeometry: Placement {
  let axes: Axes
  let policy: FlowPolicy
  /// The cross-axis extent D of the content.
  public let crossExtent: Double
  var sections: [SectionGeometry]
  /// The main-axis span every element lies within (pinned ones included):
  /// [0, contentSize] unless negative insets reach beyond it.
  public internal(set) var elementSpan: (lo: Double, hi: Double) = (0, 0)
  /// The largest card extent, which bounds how far a scaled-up card can
  /// grow beyond its untransformed frame.
  public private(set) var maxItemExtent = 0.0
  /// The smallest and largest card extent plus line spacing along the
  /// scroll axis, which bound how far apart neighbouring cards are ((0, 0)
  /// without items).
  public private(set) var pitchRange = (min: 0.0, max: 0.0)

  /// Lays out every section. O(number of sections + items in sections with
  /// varied sizes); sections of uniform items cost O(1) each. With
  /// `previous`, a section that continues one of its sections (`reuse`,
  /// per new section: the old index and how its items changed, nil when
  /// they did not) keeps that section's lines and re-breaks only from the
  /// line before the first changed item until the breaks meet the old ones
  /// again: O(sections + log n + items re-broken).
  public init(
    configuration c: FlowConfiguration, sections specs: [Section], crossExtent D: Double,
    policy: FlowPolicy = FlowPolicy(), sectionInsets: ((Int, Section) -> Insets)? = nil,
    previous: FlowGeometry? = nil, reuse: [(old: Int, edit: ItemEdit?)?] = []
  ) {
    let axes = Axes(direction: c.scrollDirection)
    self.axes = axes
    self.policy = policy
    self.crossExtent = D
    var sections: [SectionGeometry] = []
    sections.reserveCapacity(specs.count)
    var m = 0.0
    for (index, spec) in specs.enumerated() {
      let inset = sectionInsets?(index, spec) ?? spec.inset ?? c.sectionInset
      let (mainLead, mainTrail, crossLead, crossTrail) = axes.split(inset)
      let header = axes.main(spec.headerSize ?? c.headerReferenceSize)
      let footer = axes.main(spec.footerSize ?? c.footerReferenceSize)
      let start = m
      m += max(header, 0) + mainLead
      var g = SectionGeometry(
        axes: axes, itemSize: c.itemSize, start: start, headerThickness: max(header, 0),
        footerThickness: max(footer, 0), itemsStart: m, itemsEnd: m, end: 0,
        lineSpacing: spec.minimumLineSpacing ?? c.minimumLineSpacing,
        interitem: spec.minimumInteritemSpacing ?? c.minimumInteritemSpacing,
        crossLead: crossLead, avail: D - crossLead - crossTrail, count: spec.count,
        lines: .uniform(size: .zero, perLine: 1, gap: 0, lineCount: 0))
      var old: (SectionGeometry, ItemEdit?)? = nil
      if let previous, index < reuse.count, let r = reuse[index] {
        old = (previous.sections[r.old], r.edit)
      }
      g.lines = g.makeLines(spec.items, policy: policy, previous: old)
      let n = g.lineCount
      if n > 0 {
        let last = g.line(n - 1)
        g.itemsEnd = last.start + last.thickness
      }
      m = g.itemsEnd + mainTrail + max(footer, 0)
      g.end = m
      sections.append(g)
    }
    self.sections = sections
    var span = (lo: 0.0, hi: m)
    for g in sections {
      span.lo = min(span.lo, g.start, g.itemsStart, g.end)
      span.hi = max(span.hi, g.start + g.headerThickness, g.itemsEnd, g.end)
    }
    elementSpan = span
    (maxItemExtent, pitchRange) = Self.cardExtents(c, specs)
  }

  /// Sections follow one another; each one's lines hold its items, and
  /// its ropes are sound. O(n).
  public func invariantViolation() -> String? {
    var end = 0.0
    for (s, g) in sections.enumerated() {
      if g.start != end { return "flow section \(s) starts at \(g.start), not \(end)" }
      if g.count > 0, !(g.itemsStart <= g.itemsEnd) {
        return "flow section \(s)'s items end before they start"
      }
      switch g.lines {
      case .uniform(_, let perLine, _, let n):
        let want = g.count == 0 ? 0 : (g.count + perLine - 1) / max(perLine, 1)
        if n != want { return "flow section \(s) has \(n) uniform lines for \(g.count) items" }
      case .single(let sizes):
        if sizes.count != g.count { return "flow section \(s)'s sizes are not its items" }
        if let v = sizes.invariantViolation() { return "flow section \(s)'s sizes: \(v)" }
      case .variable(let sizes, let lines):
        if sizes.count != g.count || lines.summary.items != g.count {
          return "flow section \(s)'s lines hold \(lines.summary.items) of \(g.count) items"
        }
        if let v = lines.invariantViolation() { return "flow section \(s)'s lines: \(v)" }
      }
      end = g.end
    }
    return nil
  }

  /// The largest card extent and the range of pitches. O(sections): sizes
  /// come from the summaries of their ropes.
  private static func cardExtents(_ c: FlowConfiguration, _ sections: [Section]) -> (
    Double, (min: Double, max: Double)
  ) {
    let uniform = c.itemSize
    let axes = Axes(direction: c.scrollDirection)
    var extent = max(uniform.width, uniform.height)
    var mainLo = Double.infinity
    var mainHi = 0.0
    var gapLo = Double.infinity
    var gapHi = 0.0
    for s in sections {
      let gap = s.minimumLineSpacing ?? c.minimumLineSpacing
      gapLo = min(gapLo, gap)
      gapHi = max(gapHi, gap)
      switch s.items {
      case .uniform:
        mainLo = min(mainLo, axes.main(uniform))
        mainHi = max(mainHi, axes.main(uniform))
      case .sizes(let sizes):
        // The summary holds the extremes of the sizes items carry; the
        // others have the uniform size.
        let sum = sizes.summary
        if sum.unset > 0 {
          mainLo = min(mainLo, axes.main(uniform))
          mainHi = max(mainHi, axes.main(uniform))
        }
        if sum.count > sum.unset {
          extent = max(extent, sum.maxWidth, sum.maxHeight)
          let vertical = c.scrollDirection == .vertical
          mainLo = min(mainLo, vertical ? sum.minHeight : sum.minWidth)
          mainHi = max(mainHi, vertical ? sum.maxHeight : sum.maxWidth)
        }
      }
    }
    return (extent, mainLo.isFinite ? (mainLo + gapLo, mainHi + gapHi) : (0, 0))
  }

  /// The size of the content: the main extent of all sections, and D across.
  /// O(1).
  public var contentSize: Size {
    // Negative insets (a card wider than the viewport) must not make the
    // content negative.
    let main = max(0, sections.last?.end ?? 0)
    return axes.direction == .vertical
      ? Size(width: crossExtent, height: main) : Size(width: main, height: crossExtent)
  }

  public var sectionCount: Int { sections.count }
  public func itemCount(inSection s: Int) -> Int { sections[s].count }

  // MARK: Element frames

  /// What one query carries from line to line.
  struct Scratch {
    /// Reads sizes on from where the last line's ended, so that a walk
    /// along lines descends the rope once, not once per line.
    var cursor: RopeCursor<SizeSummary>? = nil
    var cursorSection = -1

    /// A cursor at item `i` of section `s`: the parked one when it is
    /// there, else a new descent. O(1) or O(log n).
    mutating func cursor(at i: Int, section s: Int, _ list: SizeList) -> RopeCursor<SizeSummary> {
      if cursorSection == s, let c = cursor, c.index == i { return c }
      return RopeCursor(list, at: i)
    }

    /// Keeps `c`, a cursor over section `s`, for the next line.
    mutating func park(_ c: RopeCursor<SizeSummary>, section s: Int) {
      cursor = c
      cursorSection = s
    }

    /// The (cross, main) size of item `i` of section `s` of `g`, read on
    /// from where the last read ended.
    mutating func readOne(_ i: Int, section s: Int, _ g: SectionGeometry, _ list: SizeList)
      -> Size
    {
      var c = cursor(at: i, section: s, list)
      let size = g.neutral(c.next()!)
      park(c, section: s)
      return size
    }
  }

  /// Calls `body` with the untransformed frame of every item of line `j`,
  /// which starts at `lineStart`, is `thick` thick and holds `range`
  /// (rules 4, 5 and 6). O(items in the line), plus O(log n) to find the
  /// sizes of a section of varied sizes.
  /// `g` is section `s`, passed in (borrowed) rather than read from
  /// `sections`: a copy would retain its ropes once per line.
  /// Where item `k` of a line of uniform items starts across the axis:
  /// the one formula of every path that places such an item, so that each
  /// gets the same double. O(1).
  @inline(__always)
  private func uniformCross(
    _ g: SectionGeometry, _ k: Int, in range: Range<Int>, size: Size, perLine: Int, gap: Double
  ) -> Double {
    if policy.crossAlignment == .centered {
      let used = Double(range.count) * size.width + Double(range.count - 1) * g.interitem
      return g.crossLead + (g.avail - used) / 2 + Double(k) * (size.width + g.interitem)
    } else if perLine == 1 {
      // A lone item is centred, unless it is wider than the line.
      return size.width > g.avail ? g.crossLead : g.crossLead + (g.avail - size.width) / 2
    }
    // Full lines are justified; the last line keeps the same columns.
    return g.crossLead + Double(k) * (size.width + gap)
  }

  /// The items of a line of uniform items (`range`) whose cross-axis
  /// extent can meet [lo, hi]: every item when the items do not advance
  /// across the axis, else those the arithmetic puts there, one more on
  /// each side for rounding (callers test each frame); with `nearest`, at
  /// least the end item nearest the span. Items are indexed
  /// within the line: a line of 1e8 items costs the items met, not the
  /// line. O(1).
  @inline(__always)
  private func uniformItems(
    _ g: SectionGeometry, in range: Range<Int>, size: Size, perLine: Int, gap: Double,
    crossLo lo: Double, crossHi hi: Double, nearest: Bool
  ) -> Range<Int> {
    let step = policy.crossAlignment == .centered ? size.width + g.interitem : size.width + gap
    guard perLine > 1, step > 0, step.isFinite, lo.isFinite, hi.isFinite else {
      return 0..<range.count
    }
    let origin = uniformCross(g, 0, in: range, size: size, perLine: perLine, gap: gap)
    let first = ((lo - origin - size.width) / step).rounded(.down) - 1
    let last = ((hi - origin) / step).rounded(.up) + 1
    var a = first.isNaN ? 0 : Int(min(max(first, 0), Double(range.count)))
    var b = last.isNaN ? range.count : Int(min(max(last + 1, 0), Double(range.count)))
    if nearest {
      // The nearest item to a point beyond either end is the end one.
      a = min(a, range.count - 1)
      b = max(b, a + 1)
    }
    return a..<max(a, b)
  }

  func forEachItem(
    of g: SectionGeometry, section s: Int, line j: Int, start lineStart: Double,
    thickness thick: Double, items range: Range<Int>, scratch: inout Scratch,
    crossSpan: (lo: Double, hi: Double)? = nil, nearest: Bool = false,
    skipping skipped: Int = 0, stop: () -> Bool = { false }, _ body: (Int, Rect) -> Void
  ) {
    switch g.lines {
    case .uniform(let size, let perLine, let gap, _):
      // Items are centred along the main axis within their line (rule 4).
      let main = lineStart + (thick - size.height) / 2
      let ks =
        crossSpan.map {
          uniformItems(
            g, in: range, size: size, perLine: perLine, gap: gap, crossLo: $0.lo, crossHi: $0.hi,
            nearest: nearest)
        } ?? 0..<range.count
      // A line of uniform items may hold 1e8: a page starts at its first
      // item by index and ends the walk when it is full.
      for k in max(ks.lowerBound, skipped)..<max(ks.upperBound, skipped) {
        if stop() { return }
        let cross = uniformCross(g, k, in: range, size: size, perLine: perLine, gap: gap)
        body(
          range.lowerBound + k,
          axes.rect(main: main, cross: cross, mainExtent: size.height, crossExtent: size.width))
      }
    case .single(let sizes) where range.count == 1:
      // A single row's line is one card: its size read straight from the
      // cursor, no array.
      let size = scratch.readOne(range.lowerBound, section: s, g, sizes)
      body(
        range.lowerBound,
        g.walk.frame(
          ofCard: j, start: lineStart, thickness: thick, size: size,
          centered: policy.crossAlignment == .centered))
    case .single(let sizes), .variable(let sizes, _):
      // One cursor for the line: a copy of it sums a short line's extents.
      var items = scratch.cursor(at: range.lowerBound, section: s, sizes)
      let line = crossLayout(of: g, sizes, line: j, items: range, from: items)
      let n = range.count
      // Items from the first whose extent can reach the span's start (one
      // more on each side for rounding): by bisection over the exact sums
      // in a long line, so a line of any length costs the items met.
      var k = 0
      if let span = crossSpan, n > 64, line.gap >= 0, span.lo.isFinite {
        var (lo, hi) = (0, n)
        while lo < hi {
          let m = (lo + hi) / 2
          let x = line.x(g.crossSum(sizes, upTo: range.lowerBound + m) - line.before, m)
          if x < span.lo { lo = m + 1 } else { hi = m }
        }
        k = max(0, lo - 2)
      }
      var sum = ExactSum.zero
      if k > 0 {
        sum = g.crossSum(sizes, upTo: range.lowerBound + k) - line.before
        items = RopeCursor(sizes, at: range.lowerBound + k)
      }
      var past = 0
      while k < n {
        let size = g.neutral(items.next()!)
        let x = line.x(sum, k)
        if let span = crossSpan, line.gap >= 0, x > span.hi {
          // Beyond the span: one more (the nearest may be it), then stop.
          past += 1
          if past > 1 { break }
        }
        let main = lineStart + (thick - size.height) / 2
        body(
          range.lowerBound + k,
          axes.rect(main: main, cross: x, mainExtent: size.height, crossExtent: size.width))
        sum += size.width
        k += 1
      }
      scratch.park(items, section: s)
    }
  }

  /// Where a line of varied sizes puts its items across (rules 4 to 6):
  /// item k at `x0 + (Σ cross extents before it + k · gap)`, the sum
  /// exact, so that a walk along the line and a lookup of one item get the
  /// same double. A short line's total is summed on the cursor; a long
  /// one's from two descents.
  struct LineCross {
    /// The exact sum of the cross extents of the section's items before
    /// the line (a long line's; zero for a short one, never bisected).
    var before: ExactSum
    var x0: Double
    var gap: Double
    @inline(__always) func x(_ sumBefore: ExactSum, _ k: Int) -> Double {
      x0 + (sumBefore.value + Double(k) * gap)
    }
  }

  /// Line `j`'s (holding `range`) cross arithmetic. O(log n), or O(items)
  /// for a line of at most 64 items, read on a copy of `cursor` (at the
  /// line's first item) when given.
  func crossLayout(
    of g: SectionGeometry, _ sizes: SizeList, line j: Int, items range: Range<Int>,
    from cursor: RopeCursor<SizeSummary>? = nil
  ) -> LineCross {
    let n = range.count
    var before = ExactSum.zero
    let total: Double
    if n <= 64 {
      var ahead = cursor ?? RopeCursor(sizes, at: range.lowerBound)
      var sum = ExactSum.zero
      for _ in 0..<n { sum += g.neutral(ahead.next()!).width }
      total = sum.value
    } else {
      before = g.crossSum(sizes, upTo: range.lowerBound)
      total = (g.crossSum(sizes, upTo: range.upperBound) - before).value
    }
    let isLast = j == g.lineCount - 1
    var x0 = g.crossLead
    var gap = g.interitem
    if policy.crossAlignment == .centered {
      x0 = g.crossLead + (g.avail - total - Double(n - 1) * g.interitem) / 2
    } else if isLast {
      x0 = g.crossLead
    } else if n == 1 {
      x0 = total > g.avail ? g.crossLead : g.crossLead + (g.avail - total) / 2
    } else {
      gap = (g.avail - total) / Double(n - 1)
    }
    return LineCross(before: before, x0: x0, gap: gap)
  }

  /// `forEachItem` for line `j`, found by index. O(items in the line), plus
  /// O(log lines) for sections of varied sizes.
  func forEachItem(
    section s: Int, line j: Int, scratch: inout Scratch, _ body: (Int, Rect) -> Void
  ) {
    let l = sections[s].lineInfo(j)
    forEachItem(
      of: sections[s], section: s, line: j, start: l.start, thickness: l.thickness, items: l.items,
      scratch: &scratch, body)
  }

  /// The untransformed frame of an item. O(items in its line), plus
  /// O(log lines) for sections of varied sizes.
  public func frameForItem(_ path: IndexPath) -> Rect {
    if case .single(let sizes) = sections[path.section].lines {
      // A single row's card from one descent: its leaf gives both its
      // position and its size (the same doubles as the walk's).
      let w = sections[path.section].walk
      return w.frame(ofCard: path.item, sizes, centered: policy.crossAlignment == .centered)
    }
    let j = sections[path.section].lineIndex(ofItem: path.item)
    let g = sections[path.section]
    if case .uniform(let size, let perLine, let gap, _) = g.lines {
      // Indexed within the line: the walk's formula for this one item.
      let l = g.lineInfo(j)
      let cross = uniformCross(
        g, path.item - l.items.lowerBound, in: l.items, size: size, perLine: perLine, gap: gap)
      return axes.rect(
        main: l.start + (l.thickness - size.height) / 2, cross: cross, mainExtent: size.height,
        crossExtent: size.width)
    }
    var scratch = Scratch()
    let l = g.lineInfo(j)
    if case .variable(let sizes, _) = g.lines, l.items.count > 64 {
      // Indexed within a long line: the walk's exact sum for this item.
      let line = crossLayout(of: g, sizes, line: j, items: l.items)
      let x = line.x(
        g.crossSum(sizes, upTo: path.item) - line.before, path.item - l.items.lowerBound)
      let size = g.neutral(sizes[path.item])
      return axes.rect(
        main: l.start + (l.thickness - size.height) / 2, cross: x, mainExtent: size.height,
        crossExtent: size.width)
    }
    var result = Rect.zero
    forEachItem(
      of: g, section: path.section, line: j, start: l.start, thickness: l.thickness,
      items: l.items, scratch: &scratch
    ) { i, r in
      if i == path.item { result = r }
    }
    return result
  }

  /// The frame of a section's header or footer, or nil when its thickness
  /// is 0. With `pin`, headers and footers it pins are clamped into the
  /// visible span within their own section (rule 10). O(1).
  public func frameForSupplementary(_ kind: ElementKind, section s: Int, pin: Pinning? = nil)
    -> Rect?
  {
    let g = sections[s]
    switch kind {
    case .header:
      guard g.headerThickness > 0 else { return nil }
      var main = g.start
      if let pin, pin.headers {
        // Stick to the top of the visible span, but never leave the section:
        // the next section's header pushes this one out.
        main = pin.header(own: g.start, thickness: g.headerThickness, limit: g.footerStart)
      }
      return axes.rect(
        main: main, cross: 0, mainExtent: g.headerThickness, crossExtent: crossExtent)
    case .footer:
      guard g.footerThickness > 0 else { return nil }
      var main = g.footerStart
      if let pin, pin.footers {
        main = pin.footer(
          own: g.footerStart, thickness: g.footerThickness, limit: g.start + g.headerThickness)
      }
      return axes.rect(
        main: main, cross: 0, mainExtent: g.footerThickness, crossExtent: crossExtent)
    case .cell, .decoration, .topSeparator, .bottomSeparator:
      return nil
    }
  }

  /// The first section whose main-axis span ends after `lo`. O(log sections).
  func firstSection(endingAfter lo: Double) -> Int {
    upperBound(sections.count) { sections[$0].end > lo }
  }

  /// Calls `body` with every element whose untransformed frame intersects
  /// `rect` (headers, then the cells line by line, then footers, section
  /// by section). O(log n + k) for k elements, plus the items of the lines
  /// the rect crosses.
  public func forEachElement(
    in rect: Rect, pin: Pinning? = nil, _ body: (ElementKind, Int, Int, Rect) -> Void
  ) {
    let (lo, hi, crossLo, crossHi) = axes.spans(rect)
    var scratch = Scratch()
    var s = firstSection(endingAfter: lo)
    while s < sections.count && sections[s].start < hi {
      let g = sections[s]
      if let h = frameForSupplementary(.header, section: s, pin: pin), h.intersects(rect) {
        body(.header, s, 0, h)
      }
      if case .single(let sizes) = g.lines {
        // A single row's cards, from the sizes the walk reads; the
        // closure holds the row's numbers, not the section.
        let w = g.walk
        let centered = policy.crossAlignment == .centered
        w.forEachCard(sizes, endingAfter: lo) { j, start, thick, _, raw in
          guard start < hi, let raw else { return false }
          let r = w.frame(
            ofCard: j, start: start, thickness: thick, size: w.neutral(raw), centered: centered)
          if r.intersects(rect) { body(.cell, s, j, r) }
          return true
        }
      } else {
        g.forEachLine(endingAfter: lo) { j, start, thick, range, _ in
          guard start < hi else { return false }
          forEachItem(
            of: g, section: s, line: j, start: start, thickness: thick, items: range,
            scratch: &scratch, crossSpan: (crossLo, crossHi)
          ) { i, r in
            if r.intersects(rect) { body(.cell, s, i, r) }
          }
          return true
        }
      }
      if let f = frameForSupplementary(.footer, section: s, pin: pin), f.intersects(rect) {
        body(.footer, s, 0, f)
      }
      s += 1
    }
  }

  /// `forEachElement(in: rect)` from just after `after`, until `body`
  /// returns false. O(log n + lines visited · items per line).
  public func forEachElement(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    let (lo, hi, crossLo, crossHi) = axes.spans(rect)
    var scratch = Scratch()
    walkSections(
      from: firstSection(endingAfter: lo),
      while: { $0 < sections.count && sections[$0].start < hi },
      rect: rect, pin: pin, after: after,
      cells: { s, fromItem, take in
        let g = sections[s]
        var stop = false
        let from = max(g.firstLine(endingAfter: lo), g.lineIndex(ofItem: fromItem))
        g.forEachLine(from: from) { j, start, thick, range, _ in
          guard start < hi else { return false }
          forEachItem(
            of: g, section: s, line: j, start: start, thickness: thick, items: range,
            scratch: &scratch, crossSpan: (crossLo, crossHi),
            skipping: max(fromItem - range.lowerBound, 0), stop: { stop }
          ) { i, r in
            if !stop, i >= fromItem, r.intersects(rect), !take(i, r) { stop = true }
          }
          return !stop
        }
        return !stop
      }, body)
  }

  /// At least as many elements as `forEachElement(in: rect)` visits,
  /// counted from the lines without visiting them: a section wholly inside
  /// the rect's main span by its item count; a single row the span crosses
  /// by how many of its thinnest cards fit in the span, when that is a
  /// viewport's worth (at most 1,024); otherwise by the items of the lines
  /// from the first ending after the span's start to the first ending
  /// after its end (the rect's extent across is not used).
  /// O(sections met · log n).
  public func elementCountBound(in rect: Rect, pin: Pinning?) -> Int {
    let (lo, hi, crossLo, crossHi) = axes.spans(rect)
    var n = 0
    var s = firstSection(endingAfter: lo)
    while s < sections.count && sections[s].start < hi {
      let g = sections[s]
      n += 2  // its header and footer
      let lines = g.lineCount
      if g.count > 0 && lines > 0 {
        var met: Int
        if g.start >= lo && g.end <= hi {
          met = g.count
        } else if let quick = g.quickLineBound(span: hi - lo), quick <= 1024 {
          // A viewport's worth, bounded from the section's thinnest line
          // with no descent: the exact count only matters near the
          // answer limit, hundreds of thousands of elements away.
          met = quick
        } else {
          met = g.itemsOfLines(endingAfter: lo, through: hi)
        }
        if case .uniform(let size, let perLine, let gap, _) = g.lines,
          policy.crossAlignment != .centered, perLine > 1
        {
          // Uniform lines: at most the lines the main span meets times the
          // items a line's cross span meets (the query's own index), when
          // that is fewer: a line of 1e8 items crossed by a narrow rect. A
          // centred last line shifts, so centred lines are not bounded so.
          let first = g.firstLine(endingAfter: lo)
          let last = min(g.firstLine(endingAfter: hi), lines - 1)
          let across = uniformItems(
            g, in: 0..<perLine, size: size, perLine: perLine, gap: gap, crossLo: crossLo,
            crossHi: crossHi, nearest: false
          ).count
          met = min(met, first > last ? 0 : (last - first + 1) * across)
        }
        n += met
      }
      s += 1
    }
    return n
  }

  // MARK: Nearest item

  /// `nearestItem(to:mainAxisOnly: true)` for a point `pm` along the axis
  /// in a single row, when one walk settles it: from a card's reach behind
  /// the point, forward until a card starts too far ahead, over the row's
  /// numbers alone (a walk holding the geometry copies it per card). Nil
  /// when the general search must decide (other sections may hold nearer
  /// cards). O(log n + cards walked).
  private func nearestCard(to pm: Double) -> IndexPath? {
    guard !sections.isEmpty else { return nil }
    let s = min(firstSection(endingAfter: pm), sections.count - 1)
    let g = sections[s]
    guard case .single(let sizes) = g.lines, let reach = g.singleRowReach else { return nil }
    let w = g.walk
    var best: (dist: Double, item: Int)? = nil
    var first = -1
    var stopped = false
    w.forEachCard(sizes, endingAfter: pm - reach) { j, start, thick, _, _ in
      if first < 0 { first = j }
      // As visitIfNearer: the bound first, then the card's centre (the
      // line's middle); ties keep the earlier card.
      let bound = pm < start ? start - pm : (pm > start + thick ? pm - start - thick : 0)
      if let b = best, bound > b.dist {
        stopped = true
        return false
      }
      let d = abs(start + thick / 2 - pm)
      if best == nil || d < best!.dist { best = (d, j) }
      return true
    }
    // Settled: a card ahead was too far, and nothing behind the walk's
    // start can be nearer (nearestItem's own shortcut), or nothing is
    // behind it.
    guard stopped, let b = best, (first > 0 && b.dist <= reach / 2) || (first == 0 && s == 0)
    else { return nil }
    return IndexPath(section: s, item: b.item)
  }

  /// The item whose centre is nearest `point`. With `mainAxisOnly`, distance
  /// is measured along the scroll axis alone (carousels); otherwise it is
  /// Euclidean. Ties go to the earlier item. Returns nil when there are no
  /// items. O(log n) to find the nearest line, then outward line by line
  /// until no nearer centre is possible: O(log n + items of the lines
  /// examined), a handful of lines in practice.
  public func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath? {
    let pm = axes.main(point)
    let pc = axes.cross(point)
    if mainAxisOnly, let path = nearestCard(to: pm) { return path }
    // Global line order: (section, line), skipping empty sections.
    var best: (dist: Double, path: IndexPath)? = nil
    var scratch = Scratch()
    // Each line is bounded first and visited only when it can hold a
    // nearer centre.
    func visitIfNearer(_ s: Int, _ j: Int, _ start: Double, _ thick: Double, _ items: Range<Int>)
      -> Bool
    {
      // A lower bound on the main-axis distance from the point to any
      // item centre in the line: centres lie within its main-axis span.
      let bound = pm < start ? start - pm : (pm > start + thick ? pm - start - thick : 0)
      if let b = best, bound > b.dist { return false }
      if mainAxisOnly, items.count == 1, case .single = sections[s].lines {
        // A single row's line is its one card, as thick as the card: the
        // card's centre is the line's middle (forEachItem's frame gives the
        // same double: start + (thick − thick) / 2 + thick / 2), with no
        // size to read.
        let d = abs(start + thick / 2 - pm)
        let path = IndexPath(section: s, item: items.lowerBound)
        if let b = best, b.dist < d || (b.dist == d && b.path < path) { return true }
        best = (d, path)
        return true
      }
      // Across the axis a line's centres only grow apart from the point's:
      // the nearest are those around it (along the axis alone every item
      // of the line is as near, and the first wins: all are visited).
      forEachItem(
        of: sections[s], section: s, line: j, start: start, thickness: thick, items: items,
        scratch: &scratch, crossSpan: mainAxisOnly ? nil : (pc, pc), nearest: true
      ) { i, r in
        let c = r.center
        let dm = axes.main(c) - pm
        let d =
          mainAxisOnly
          ? abs(dm) : (dm * dm + (axes.cross(c) - pc) * (axes.cross(c) - pc)).squareRoot()
        let path = IndexPath(section: s, item: i)
        if let b = best, b.dist < d || (b.dist == d && b.path < path) { return }
        best = (d, path)
      }
      return true
    }
    // Start at the first line ending after the point; walk forward (one
    // descent per section) and back (one lookup per line, a line or two).
    guard !sections.isEmpty else { return nil }
    var s = min(firstSection(endingAfter: pm), sections.count - 1)
    // The first line walked forward; the backward walk starts before it.
    var j = sections[s].lineCount
    var stopped = false
    // A single row along the axis: its thickest card and a gap behind the
    // point, every card that can be nearest is ahead of that, so one walk
    // forward finds it and the walk back (a lookup per line) is skipped.
    let reach = mainAxisOnly ? sections[s].singleRowReach : nil
    sections[s].forEachLine(endingAfter: pm - (reach ?? 0)) { line, start, thick, items, _ in
      if line < j { j = line }
      stopped = !visitIfNearer(s, line, start, thick, items)
      return !stopped
    }
    var fs = s + 1
    while fs < sections.count && !stopped {
      sections[fs].forEachLine(from: 0) { line, start, thick, items, _ in
        stopped = !visitIfNearer(fs, line, start, thick, items)
        return !stopped
      }
      fs += 1
    }
    // Lines before j end at or before pm − reach: their centres are more
    // than reach away, twice the best distance (the half absorbs rounding).
    if let reach, let b = best, j > 0, b.dist <= reach / 2 { return b.path }
    j -= 1
    while s >= 0 {
      if j < 0 {
        s -= 1
        if s >= 0 { j = sections[s].lineCount - 1 }
        continue
      }
      let l = sections[s].lineInfo(j)
      if !visitIfNearer(s, j, l.start, l.thickness, l.items) { break }
      j -= 1
    }
    return best?.path
  }
}
