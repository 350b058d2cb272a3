// UICollectionViewFlowLayout's geometry, computed once per (data, viewport
// size) and queried by binary search. All positions are worked out in an
// axis-neutral frame: "main" is the scroll axis, "cross" the axis a line
// fills along. `Axes` maps them back to x and y.

/// How items sit across a line.
public enum CrossAlignment: Sendable {
  /// UIKit's rules: justify full lines, centre a lone item, and align the
  /// last line with the columns above (uniform sizes) or to the leading
  /// edge (varied sizes).
  case flow
  /// Every line's items are centred in the line. Cover flow uses this with
  /// one item per line, as the seed's layoutAttributesForItemAtIndexPath:
  /// override did, so a card taller than the viewport is centred too.
  case centered
}

/// Options a layout policy (such as cover flow) imposes on flow geometry.
public struct FlowPolicy: Sendable {
  /// Forces one item per line: the single row (or column) of a carousel.
  public var singleItemLines = false
  public var crossAlignment = CrossAlignment.flow
  public init() {}
}

/// One line of a section of varied sizes: how many items it holds and
/// its thickness along the main axis.
struct LineRecord: Sendable {
  var items: Int
  var thickness: Double
}

struct LineSummary: RopeSummary {
  var count = 0
  var items = 0
  /// Exact: the same whatever the tree's shape (see ExactSum).
  var thickness = ExactSum.zero
  static var zero: LineSummary { LineSummary() }
  init() {}
  init(_ lines: ArraySlice<LineRecord>) {
    count = lines.count
    for l in lines {
      items += l.items
      thickness += l.thickness
    }
  }
  /// Adds a leaf's lines before `offset` to a thickness and an item
  /// count, as a walk adds them one by one: a run's in O(1).
  @inline(__always)
  static func add(
    _ records: RopeLeaf<LineRecord>, upTo offset: Int, to t: inout ExactSum, _ items: inout Int
  ) {
    if let r = records.run {
      t += ExactSum(r.thickness).times(offset)
      items += r.items * offset
      return
    }
    for k in 0..<offset {
      t += records.stored[k].thickness
      items += records.stored[k].items
    }
  }

  /// `count` copies of one line, summed exactly as one by one. O(1).
  static func repeating(_ line: LineRecord, count: Int) -> LineSummary? {
    var r = LineSummary()
    r.count = count
    r.items = line.items * count
    r.thickness = ExactSum(line.thickness).times(count)
    return r
  }
  static func isSame(_ a: LineRecord, _ b: LineRecord) -> Bool {
    a.items == b.items && a.thickness.bitPattern == b.thickness.bitPattern
  }
  static func + (a: LineSummary, b: LineSummary) -> LineSummary {
    var r = LineSummary()
    r.count = a.count + b.count
    r.items = a.items + b.items
    r.thickness = a.thickness + b.thickness
    return r
  }
}

typealias LineList = Rope<LineSummary>

/// The lines of one section.
enum Lines: Sendable {
  /// Every item has `size`: lines hold `perLine` items and are computed
  /// arithmetically, in O(1) memory whatever the item count.
  case uniform(size: Size, perLine: Int, gap: Double, lineCount: Int)
  /// One item per line (a carousel's row): line j is item j and is as
  /// thick as the item's main extent, so the sizes' own summaries give
  /// every position and no line is stored.
  case single(sizes: SizeList)
  /// Greedy line breaks for varied sizes (the section's own sizes, shared
  /// with it, not copied), one record per line.
  case variable(sizes: SizeList, lines: LineList)
}

struct SectionGeometry: Sendable {
  var axes: Axes
  /// The size of items without one of their own, as given (not neutral).
  var itemSize: Size
  var start: Double
  var headerThickness: Double
  var footerThickness: Double
  /// Main-axis position of the first line.
  var itemsStart: Double
  /// Main-axis position just after the last line.
  var itemsEnd: Double
  var end: Double
  var lineSpacing: Double
  var interitem: Double
  var crossLead: Double
  var avail: Double
  var count: Int
  var lines: Lines

  var footerStart: Double { end - footerThickness }

  var lineCount: Int {
    switch lines {
    case .uniform(_, _, _, let n): return n
    case .single(let sizes): return sizes.count
    case .variable(_, let lines): return lines.count
    }
  }

  /// The (cross, main) size of an item given as stored. O(1).
  @inline(__always) func neutral(_ raw: Size) -> Size { walk.neutral(raw) }

  /// The main extent of an item given as stored. O(1).
  @inline(__always) func mainExtent(_ raw: Size) -> Double { walk.mainExtent(raw) }

  /// The section's numbers, for a walk along its lines. O(1).
  @inline(__always) var walk: RowWalk {
    RowWalk(
      axes: axes, itemSize: itemSize, itemsStart: itemsStart, lineSpacing: lineSpacing,
      crossLead: crossLead, avail: avail, count: count)
  }

  /// The thickness of a single row's lines before one: its sized items'
  /// main extents summed in order, plus its unsized items counted, combined
  /// the same way by every walk (and by the summaries) so that two walks to
  /// one line agree bit for bit.
  struct RowPrefix {
    var sized = ExactSum.zero
    var unsized = 0
    @inline(__always) init() {}
    @inline(__always) init(_ s: SizeSummary, _ axes: Axes) {
      sized = axes.direction == .vertical ? s.sumHeight : s.sumWidth
      unsized = s.unset
    }
    /// With a rope summary's items added: a descent's step, two sums
    /// rather than SizeSummary's eight fields.
    @inline(__always) func adding(_ s: SizeSummary, _ axes: Axes) -> RowPrefix {
      var p = self
      p.sized += axes.direction == .vertical ? s.sumHeight : s.sumWidth
      p.unsized += s.unset
      return p
    }
    @inline(__always) mutating func add(_ raw: Size, _ axes: Axes) {
      if raw == Section.unsetSize { unsized += 1 } else { sized += axes.main(raw) }
    }
    /// With `k` copies of `raw` added: the same sums as one by one. O(1).
    @inline(__always) mutating func add(_ raw: Size, _ axes: Axes, count k: Int) {
      if raw == Section.unsetSize {
        unsized += k
      } else {
        sized += ExactSum(axes.main(raw)).times(k)
      }
    }
    /// With a leaf's items before `offset` added: a run's in O(1).
    @inline(__always) mutating func add(_ leaf: RopeLeaf<Size>, upTo offset: Int, _ axes: Axes) {
      if let v = leaf.run {
        add(v, axes, count: offset)
      } else {
        for k in 0..<offset { add(leaf.stored[k], axes) }
      }
    }
  }

  @inline(__always) func thickness(_ p: RowPrefix) -> Double { walk.thickness(p) }

  /// The cross extents of items `0..<i`, summed exactly (items without a
  /// size of their own count the uniform one): a line's items are placed
  /// across from these sums, so one item of a line of any length is found
  /// by a descent, and a walk summing item by item gets the same doubles.
  /// O(log n).
  func crossSum(_ sizes: SizeList, upTo i: Int) -> ExactSum {
    let axes = axes
    let vertical = axes.direction == .vertical
    if i >= sizes.count {
      let s = sizes.summary
      return (vertical ? s.sumWidth : s.sumHeight) + ExactSum(axes.cross(itemSize)).times(s.unset)
    }
    var (p, leaf, offset) = sizes.leaf(
      containing: i, prefix: (sized: ExactSum.zero, unset: 0),
      adding: { ($0.sized + (vertical ? $1.sumWidth : $1.sumHeight), $0.unset + $1.unset) })
    if let v = leaf.run {
      if v == Section.unsetSize {
        p.unset += offset
      } else {
        p.sized += ExactSum(axes.cross(v)).times(offset)
      }
    } else {
      for k in 0..<offset {
        let v = leaf.stored[k]
        if v == Section.unsetSize { p.unset += 1 } else { p.sized += axes.cross(v) }
      }
    }
    return p.sized + ExactSum(axes.cross(itemSize)).times(p.unset)
  }

  /// The main-axis length of the lines before one, summed as every walk
  /// sums them, turned into a position.
  @inline(__always) func position(thicknessBefore t: Double, line j: Int) -> Double {
    walk.position(thicknessBefore: t, line: j)
  }

  /// Main-axis start and thickness of line `j`. O(1) for uniform sections,
  /// O(log lines) otherwise.
  func line(_ j: Int) -> (start: Double, thickness: Double) {
    let l = lineInfo(j)
    return (l.start, l.thickness)
  }

  /// Line `j`'s start, thickness and items in one lookup. O(1) for
  /// uniform sections, O(log lines) otherwise.
  func lineInfo(_ j: Int) -> (start: Double, thickness: Double, items: Range<Int>) {
    switch lines {
    case .uniform(let size, let perLine, _, _):
      return (
        itemsStart + Double(j) * (size.height + lineSpacing), size.height,
        (j * perLine)..<min(count, (j + 1) * perLine)
      )
    case .single(let sizes):
      let axes = axes
      var (p, elements, offset) = sizes.leaf(
        containing: j, prefix: RowPrefix(), adding: { $0.adding($1, axes) })
      p.add(elements, upTo: offset, axes)
      return (
        position(thicknessBefore: thickness(p), line: j), mainExtent(elements[offset]), j..<(j + 1)
      )
    case .variable(_, let lines):
      let (before, records, offset) = lines.leaf(containing: j)
      var (t, first) = (before.thickness, before.items)
      LineSummary.add(records, upTo: offset, to: &t, &first)
      return (
        position(thicknessBefore: t.value, line: j), records[offset].thickness,
        first..<(first + records[offset].items)
      )
    }
  }

  /// The items of line `j`. O(1) for uniform sections, O(log lines)
  /// otherwise.
  func itemRange(ofLine j: Int) -> Range<Int> {
    // A single row's lines are its items: no lookup.
    if case .single = lines { return j..<(j + 1) }
    return lineInfo(j).items
  }

  /// Calls `body` with line `j` and each following line (index, start,
  /// thickness, items) until it returns false. O(log lines + lines
  /// visited).
  func forEachLine(from j: Int, _ body: LineVisitor) {
    switch lines {
    case .uniform(_, _, _, let n):
      for j in j..<max(j, n) {
        let l = lineInfo(j)
        if !body(j, l.start, l.thickness, l.items, nil) { return }
      }
    case .single(let sizes):
      guard j < count else { return }
      let axes = axes
      var (p, elements, offset) = sizes.leaf(
        containing: j, prefix: RowPrefix(), adding: { $0.adding($1, axes) })
      p.add(elements, upTo: offset, axes)
      walk.forEachCard(sizes, p, elements, first: j - offset, at: offset, body)
    case .variable(_, let lines):
      lines.forEachLeaf(from: j) { visitLines($0, $1, $2, from: j, body) }
    }
  }

  /// A line's index, start, thickness and items, and for a single row the
  /// size its one item has stored (nil otherwise), so that a walk that
  /// draws the card needs no second read; false stops a walk.
  typealias LineVisitor = (Int, Double, Double, Range<Int>, Size?) -> Bool

  /// Calls `body` with the lines of a leaf of line records from line `j`
  /// on; false when `body` stopped. O(leaf).
  private func visitLines(
    _ before: LineSummary, _ records: RopeLeaf<LineRecord>, _ first: Int, from j: Int,
    _ body: LineVisitor
  ) -> Bool {
    var (t, item) = (before.thickness, before.items)
    let k0 = max(j - first, 0)
    LineSummary.add(records, upTo: k0, to: &t, &item)
    for k in k0..<records.count {
      let r = records[k]
      if !body(
        first + k, position(thicknessBefore: t.value, line: first + k), r.thickness,
        item..<(item + r.items), nil)
      {
        return false
      }
      t += r.thickness
      item += r.items
    }
    return true
  }

  /// Calls `body` with the first line ending after `lo` and each line
  /// after it, until it returns false: `forEachLine(from:
  /// firstLine(endingAfter:))` in one descent. O(log lines + lines
  /// visited).
  func forEachLine(endingAfter lo: Double, _ body: LineVisitor) {
    switch lines {
    case .uniform: forEachLine(from: firstLine(endingAfter: lo), body)
    case .single(let sizes): walk.forEachCard(sizes, endingAfter: lo, body)
    case .variable(_, let records): forEachRecord(records, endingAfter: lo, body)
    }
  }

  /// `forEachLine(endingAfter:)` over line records: one descent, then the
  /// records leaf by leaf. O(log lines + lines visited).
  private func forEachRecord(_ records: LineList, endingAfter lo: Double, _ body: LineVisitor) {
    func endsAfter(_ j: Int) -> Bool {
      let l = line(j)
      return l.start + l.thickness > lo
    }
    guard let found = records.descend(linesEnd(after: lo)) else { return }
    // The leaf found and the first line given to `body` (−1: none yet).
    let leaf = (first: found.first, end: found.first + found.elements.count)
    var firstShown = -1
    var stepBackFrom = -1
    func visit(_ j: Int, _ start: Double, _ thick: Double, _ items: Range<Int>, _ raw: Size?)
      -> Bool
    {
      if firstShown < 0 {
        guard start + thick > lo else { return true }
        // A descent's summed prefix may round differently from the walk's:
        // a leaf's first line can need lines before it (rare: then walk
        // back and start over from there).
        if j == leaf.first && j > 0 && endsAfter(j - 1) {
          stepBackFrom = j - 1
          return false
        }
        firstShown = j
      }
      return body(j, start, thick, items, raw)
    }
    // In a run of equal lines, the first ending after `lo` is found by
    // bisection rather than walked to.
    var from = found.first
    if let r = found.elements.run {
      var (a, b) = (0, found.elements.count - 1)
      while a < b {
        let k = (a + b) / 2
        let t = found.before.thickness + ExactSum(r.thickness).times(k)
        if position(thicknessBefore: t.value, line: found.first + k) + r.thickness > lo {
          b = k
        } else {
          a = k + 1
        }
      }
      from += a
    }
    let more = visitLines(found.before, found.elements, found.first, from: from, visit)
    if stepBackFrom >= 0 {
      var j = stepBackFrom
      while j > 0 && endsAfter(j - 1) { j -= 1 }
      return forEachLine(from: j, body)
    }
    if more { forEachLine(from: leaf.end, visit) }
  }

  /// A single row's thinnest and thickest card along the axis, from the
  /// rope's summary (items without a size count as `itemSize`); nil for
  /// other lines or an empty row. O(1).
  private var singleRowExtents: (thinnest: Double, thickest: Double)? {
    guard case .single(let sizes) = lines, count > 0 else { return nil }
    let summary = sizes.summary
    let vertical = axes.direction == .vertical
    var lo = vertical ? summary.minHeight : summary.minWidth
    var hi = vertical ? summary.maxHeight : summary.maxWidth
    if summary.unset > 0 {
      lo = min(lo, axes.main(itemSize))
      hi = max(hi, axes.main(itemSize))
    }
    return (lo, hi)
  }

  /// At least as many items as a main-axis span of `span` points can
  /// meet in a single row, from its thinnest card (the rope's summary):
  /// nil for other lines, or when a card may be 0 thick. O(1).
  func quickLineBound(span: Double) -> Int? {
    guard let thinnest = singleRowExtents?.thinnest else { return nil }
    let pitch = thinnest + lineSpacing
    guard lineSpacing >= 0, pitch > 0, span.isFinite, span >= 0 else { return nil }
    // Cards met: those starting in the span (one per pitch), the one
    // reaching into it, and one more for positions rounded at the edges.
    let k = (span / pitch).rounded(.down) + 3
    return k > Double(count) ? count : Int(k)
  }

  /// A single row's thickest card plus its gap: no card centre is farther
  /// than half of it from the middle of the card or gap a point lies in.
  /// Nil for other lines, or when it is not positive and finite. O(1).
  var singleRowReach: Double? {
    guard let thickest = singleRowExtents?.thickest else { return nil }
    let reach = thickest + max(0, lineSpacing)
    return reach.isFinite && reach > 0 ? reach : nil
  }

  /// The items of the lines from the first ending after `lo` through the
  /// first ending after `hi` (or the last line). A single row's are two
  /// descents; other lines are counted on the walk from one descent, and
  /// beyond 64 lines a second descent finds the last. O(log lines +
  /// min(lines between, 64)).
  func itemsOfLines(endingAfter lo: Double, through hi: Double) -> Int {
    if case .single = lines {
      // Lines are items: two descents, whatever the span.
      let a = firstLine(endingAfter: lo)
      guard a < lineCount else { return 0 }
      return min(firstLine(endingAfter: hi), lineCount - 1) + 1 - a
    }
    var first = -1
    var end = 0
    var walked = 0
    var reachedHi = false
    forEachLine(endingAfter: lo) { _, start, thick, items, _ in
      if first < 0 { first = items.lowerBound }
      end = items.upperBound
      walked += 1
      if start + thick > hi {
        reachedHi = true
        return false
      }
      return walked < 64
    }
    guard first >= 0 else { return 0 }
    if reachedHi || walked < 64 { return end - first }
    let b = min(firstLine(endingAfter: hi), lineCount - 1)
    return itemRange(ofLine: b).upperBound - first
  }

  /// Descent predicates: the lines of a prefix end after `lo`.
  private func linesEnd(after lo: Double) -> (LineSummary) -> Bool {
    { position(thicknessBefore: $0.thickness.value, line: $0.count - 1) > lo }
  }

  /// The line holding item `i`. O(1) for uniform sections, O(log lines) otherwise.
  func lineIndex(ofItem i: Int) -> Int {
    switch lines {
    case .uniform(_, let perLine, _, _):
      return i / perLine
    case .single:
      return i
    case .variable(_, let lines):
      guard let (before, records, first) = lines.descend({ $0.items > i }) else {
        return lines.count - 1
      }
      if let r = records.run {
        return first + min((i - before.items) / max(r.items, 1), records.count - 1)
      }
      var item = before.items
      for k in 0..<records.count {
        item += records[k].items
        if i < item { return first + k }
      }
      return first + records.count - 1
    }
  }

  /// The first line whose main-axis span ends after `lo`. O(1) or O(log lines).
  func firstLine(endingAfter lo: Double) -> Int {
    switch lines {
    case .uniform(let size, _, _, let n):
      let pitch = size.height + lineSpacing
      guard pitch > 0 else { return 0 }
      // Clamp in floating point first: a far-away rect must not overflow Int.
      let estimate = ((lo - itemsStart) / pitch).rounded(.down)
      var j = estimate.isNaN ? 0 : Int(min(max(estimate, 0), Double(n)))
      // Correct the floating-point estimate by at most a step either way.
      while j > 0 && line(j - 1).start + size.height > lo { j -= 1 }
      while j < n && line(j).start + size.height <= lo { j += 1 }
      return j
    case .single, .variable:
      var first = lineCount
      forEachLine(endingAfter: lo) { j, _, _, _, _ in
        first = j
        return false
      }
      return first
    }
  }

}

/// What a walk along a section's lines reads of it, copied out as plain
/// numbers: the single place its positions are computed, and trivially
/// copyable, so that closures along a walk capture no ropes (capturing the
/// section copies it, retaining them, once per card).
struct RowWalk {
  let axes: Axes
  let itemSize: Size
  let itemsStart: Double
  let lineSpacing: Double
  let crossLead: Double
  let avail: Double
  let count: Int

  /// The (cross, main) size of an item given as stored. O(1).
  @inline(__always) func neutral(_ raw: Size) -> Size {
    let s = raw == Section.unsetSize ? itemSize : raw
    return Size(width: axes.cross(s), height: axes.main(s))
  }

  /// The main extent of an item given as stored. O(1).
  @inline(__always) func mainExtent(_ raw: Size) -> Double {
    raw == Section.unsetSize ? axes.main(itemSize) : axes.main(raw)
  }

  @inline(__always) func thickness(_ p: SectionGeometry.RowPrefix) -> Double {
    p.sized.value + Double(p.unsized) * axes.main(itemSize)
  }

  @inline(__always) func position(thicknessBefore t: Double, line j: Int) -> Double {
    itemsStart + (t + Double(j) * lineSpacing)
  }

  /// The frame of a single row's card `j` (its line), of (cross, main)
  /// size `size`: rule 4's lone item, the same arithmetic as a line of
  /// several items with n = 1 (`centered`: every line is centred). O(1).
  @inline(__always)
  func frame(
    ofCard j: Int, start lineStart: Double, thickness thick: Double, size: Size, centered: Bool
  )
    -> Rect
  {
    let total = size.width
    let x: Double
    if centered {
      x = crossLead + (avail - total) / 2
    } else if j == count - 1 {
      x = crossLead
    } else {
      x = total > avail ? crossLead : crossLead + (avail - total) / 2
    }
    let main = lineStart + (thick - size.height) / 2
    return axes.rect(main: main, cross: x, mainExtent: size.height, crossExtent: size.width)
  }

  /// Card `j` of a single row of `sizes`: its start along the axis and its
  /// size as stored. O(log n).
  func card(_ j: Int, _ sizes: SizeList) -> (start: Double, raw: Size) {
    let axes = axes
    var (p, elements, offset) = sizes.leaf(
      containing: j, prefix: SectionGeometry.RowPrefix(), adding: { $0.adding($1, axes) })
    p.add(elements, upTo: offset, axes)
    return (position(thicknessBefore: thickness(p), line: j), elements[offset])
  }

  /// Where card `j` of a single row of `sizes` ends. O(log n).
  func end(ofCard j: Int, _ sizes: SizeList) -> Double {
    let c = card(j, sizes)
    return c.start + mainExtent(c.raw)
  }

  /// The untransformed frame of card `j` of a single row of `sizes`: the
  /// walk's arithmetic, from one descent. O(log n).
  func frame(ofCard j: Int, _ sizes: SizeList, centered: Bool) -> Rect {
    let c = card(j, sizes)
    return frame(
      ofCard: j, start: c.start, thickness: mainExtent(c.raw), size: neutral(c.raw),
      centered: centered)
  }

  /// A single row's cards from the first ending after `lo`, in order, to
  /// `body` until it returns false: one descent summing only the main axis,
  /// then a loop along the row. O(log n + cards visited).
  func forEachCard(_ sizes: SizeList, endingAfter lo: Double, _ body: SectionGeometry.LineVisitor) {
    let axes = axes
    guard
      let found = sizes.descend(
        prefix: (p: SectionGeometry.RowPrefix(), count: 0),
        adding: { ($0.p.adding($1, axes), $0.count + $1.count) },
        where: { position(thicknessBefore: thickness($0.p), line: $0.count - 1) > lo })
    else { return }
    // A leaf's summed end may round to either side of its last card's
    // walked end: when the first card shown starts a leaf, a card before
    // it may end after `lo` too (rare: walk back and start from there).
    // Only when the leaf before ends within rounding of `lo`: otherwise
    // the walk needs no check per card (one that holds the rope).
    let summedEnd = position(
      thicknessBefore: thickness(found.before.p), line: found.first - 1)
    guard found.first > 0, !(lo - summedEnd > 1e-9 * Swift.max(1, abs(lo))) else {
      forEachCard(
        sizes, found.before.p, found.elements, first: found.first, at: 0, endingAfter: lo, body)
      return
    }
    var stepBack = false
    forEachCard(sizes, found.before.p, found.elements, first: found.first, at: 0, endingAfter: lo) {
      j, start, thick, items, raw in
      if j == found.first && j > 0 && !stepBack && end(ofCard: j - 1, sizes) > lo {
        stepBack = true
        return false
      }
      return body(j, start, thick, items, raw)
    }
    guard stepBack else { return }
    var j = found.first - 1
    while j > 0 && end(ofCard: j - 1, sizes) > lo { j -= 1 }
    var (p, elements, offset) = sizes.leaf(
      containing: j, prefix: SectionGeometry.RowPrefix(), adding: { $0.adding($1, axes) })
    p.add(elements, upTo: offset, axes)
    forEachCard(sizes, p, elements, first: j - offset, at: offset, body)
  }

  /// Calls `body` with a single row's cards (its lines) from card `k` of
  /// the leaf `elements`, whose first card is `first` and before which the
  /// row's prefix is `p`, then every card after, until it returns false;
  /// with `lo`, cards ending by it only add to the prefix. A loop over
  /// leaves, a count-only descent for each after the first: no recursion
  /// and no captured state, which would cost an exclusivity check per card.
  /// Returns the first card given to `body` (nil: none). O(log n · leaves
  /// + cards visited).
  @discardableResult
  func forEachCard(
    _ sizes: SizeList, _ p: SectionGeometry.RowPrefix, _ elements: RopeLeaf<Size>, first: Int,
    at k: Int,
    endingAfter lo: Double = -.infinity, _ body: SectionGeometry.LineVisitor
  ) -> Int? {
    let axes = axes
    var p = p
    var elements = elements
    var first = first
    var k = k
    var shown: Int? = nil
    while true {
      // In a run, the first card ending after `lo` is found by bisection.
      if shown == nil, lo > -.infinity, let raw = elements.run, k < elements.count {
        let thick = mainExtent(raw)
        var (a, b) = (k, elements.count - 1)
        while a < b {
          let m = (a + b) / 2
          var q = p
          q.add(raw, axes, count: m - k)
          if position(thicknessBefore: thickness(q), line: first + m) + thick > lo {
            b = m
          } else {
            a = m + 1
          }
        }
        p.add(raw, axes, count: a - k)
        k = a
      }
      let stored = elements.stored
      let run = elements.repeats > 0
      let end = elements.count
      while k < end {
        let raw = stored[run ? 0 : k]
        let i = first + k
        let start = position(thicknessBefore: thickness(p), line: i)
        let thick = mainExtent(raw)
        if shown != nil || start + thick > lo {
          if shown == nil { shown = i }
          if !body(i, start, thick, i..<(i + 1), raw) { return shown }
        }
        p.add(raw, axes)
        k += 1
      }
      first += end
      guard first < count else { return shown }
      elements = sizes.leafElements(containing: first).elements
      k = 0
    }
  }

}
