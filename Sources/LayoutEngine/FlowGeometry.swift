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

/// Options a layout policy (such as cover flow) imposes on flow geometry.
public struct FlowPolicy: Sendable {
  /// Forces one item per line: the single row (or column) of a carousel.
  public var singleItemLines = false
  public var crossAlignment = CrossAlignment.flow
  public init() {}
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

/// One line of a section of varied sizes: how many items it holds and
/// its thickness along the main axis.
struct LineRecord: Sendable {
  var items: Int
  var thickness: Double
}

struct LineSummary: RopeSummary {
  var count = 0
  var items = 0
  var thickness = 0.0
  static var zero: LineSummary { LineSummary() }
  init() {}
  init(_ lines: ArraySlice<LineRecord>) {
    count = lines.count
    for l in lines {
      items += l.items
      thickness += l.thickness
    }
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
  @inline(__always) func neutral(_ raw: Size) -> Size {
    let s = raw == Section.unsetSize ? itemSize : raw
    return Size(width: axes.cross(s), height: axes.main(s))
  }

  /// The main extent of an item given as stored. O(1).
  @inline(__always) func mainExtent(_ raw: Size) -> Double {
    raw == Section.unsetSize ? axes.main(itemSize) : axes.main(raw)
  }

  /// The thickness of a single row's lines before one: its sized items'
  /// main extents summed in order, plus its unsized items counted, combined
  /// the same way by every walk (and by the summaries) so that two walks to
  /// one line agree bit for bit.
  struct RowPrefix {
    var sized = 0.0
    var unsized = 0
    @inline(__always) init(_ s: SizeSummary, _ axes: Axes) {
      sized = axes.direction == .vertical ? s.sumHeight : s.sumWidth
      unsized = s.unset
    }
    @inline(__always) mutating func add(_ raw: Size, _ axes: Axes) {
      if raw == Section.unsetSize { unsized += 1 } else { sized += axes.main(raw) }
    }
  }

  @inline(__always) func thickness(_ p: RowPrefix) -> Double {
    p.sized + Double(p.unsized) * axes.main(itemSize)
  }

  /// The main-axis length of the lines before one, summed as every walk
  /// sums them, turned into a position.
  @inline(__always) func position(thicknessBefore t: Double, line j: Int) -> Double {
    itemsStart + (t + Double(j) * lineSpacing)
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
      let (before, elements, offset) = sizes.leaf(containing: j)
      var p = RowPrefix(before, axes)
      for k in 0..<offset { p.add(elements[k], axes) }
      return (
        position(thicknessBefore: thickness(p), line: j), mainExtent(elements[offset]), j..<(j + 1)
      )
    case .variable(_, let lines):
      let (before, records, offset) = lines.leaf(containing: j)
      var t = before.thickness
      var first = before.items
      for k in 0..<offset {
        t += records[k].thickness
        first += records[k].items
      }
      return (
        position(thicknessBefore: t, line: j), records[offset].thickness,
        first..<(first + records[offset].items)
      )
    }
  }

  /// The items of line `j`. O(1) for uniform sections, O(log lines)
  /// otherwise.
  func itemRange(ofLine j: Int) -> Range<Int> { lineInfo(j).items }

  /// Calls `body` with line `j` and each following line (index, start,
  /// thickness, items) until it returns false. O(log lines + lines
  /// visited).
  func forEachLine(from j: Int, _ body: LineVisitor) {
    switch lines {
    case .uniform(_, _, _, let n):
      for j in j..<max(j, n) {
        let l = lineInfo(j)
        if !body(j, l.start, l.thickness, l.items) { return }
      }
    case .single(let sizes):
      sizes.forEachLeaf(from: j) { visitRow($0, $1, $2, from: j, body) }
    case .variable(_, let lines):
      lines.forEachLeaf(from: j) { visitLines($0, $1, $2, from: j, body) }
    }
  }

  /// A line's index, start, thickness and items; false stops a walk.
  typealias LineVisitor = (Int, Double, Double, Range<Int>) -> Bool

  /// Calls `body` with the lines of a leaf of a single row (its cards)
  /// from line `j` on; false when `body` stopped. O(leaf).
  private func visitRow(
    _ before: SizeSummary, _ elements: [Size], _ first: Int, from j: Int, _ body: LineVisitor
  ) -> Bool {
    var p = RowPrefix(before, axes)
    for k in 0..<elements.count {
      let raw = elements[k]
      let i = first + k
      if i >= j
        && !body(i, position(thicknessBefore: thickness(p), line: i), mainExtent(raw), i..<(i + 1))
      {
        return false
      }
      p.add(raw, axes)
    }
    return true
  }

  /// Calls `body` with the lines of a leaf of line records from line `j`
  /// on; false when `body` stopped. O(leaf).
  private func visitLines(
    _ before: LineSummary, _ records: [LineRecord], _ first: Int, from j: Int,
    _ body: LineVisitor
  ) -> Bool {
    var t = before.thickness
    var item = before.items
    for k in 0..<records.count {
      let r = records[k]
      if first + k >= j
        && !body(
          first + k, position(thicknessBefore: t, line: first + k), r.thickness,
          item..<(item + r.items))
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
    func endsAfter(_ j: Int) -> Bool {
      let l = line(j)
      return l.start + l.thickness > lo
    }
    // The leaf found and the first line given to `body` (−1: none yet).
    var leaf = (first: 0, end: 0)
    var firstShown = -1
    var stepBackFrom = -1
    func visit(_ j: Int, _ start: Double, _ thick: Double, _ items: Range<Int>) -> Bool {
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
      return body(j, start, thick, items)
    }
    var more: Bool
    switch lines {
    case .uniform:
      return forEachLine(from: firstLine(endingAfter: lo), body)
    case .single(let sizes):
      guard let found = sizes.descend(rowEnds(after: lo)) else { return }
      leaf = (found.first, found.first + found.elements.count)
      more = visitRow(found.before, found.elements, found.first, from: found.first, visit)
    case .variable(_, let lines):
      guard let found = lines.descend(linesEnd(after: lo)) else { return }
      leaf = (found.first, found.first + found.elements.count)
      more = visitLines(found.before, found.elements, found.first, from: found.first, visit)
    }
    if stepBackFrom >= 0 {
      var j = stepBackFrom
      while j > 0 && endsAfter(j - 1) { j -= 1 }
      return forEachLine(from: j, body)
    }
    if more { forEachLine(from: leaf.end, visit) }
  }

  /// Descent predicates: the lines of a prefix end after `lo`.
  private func rowEnds(after lo: Double) -> (SizeSummary) -> Bool {
    { position(thicknessBefore: thickness(RowPrefix($0, axes)), line: $0.count - 1) > lo }
  }
  private func linesEnd(after lo: Double) -> (LineSummary) -> Bool {
    { position(thicknessBefore: $0.thickness, line: $0.count - 1) > lo }
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
      forEachLine(endingAfter: lo) { j, _, _, _ in
        first = j
        return false
      }
      return first
    }
  }

  /// Breaks `sizes` into lines from item `first` on, greedily (rule 2),
  /// calling `emit` with each line until it returns false. A line takes
  /// its first item whatever its width, then each next item that fits.
  /// O(log n + items read): it walks the leaves, not a cursor per item.
  func breakLines(
    _ sizes: SizeList, from first: Int, _ emit: (_ firstItem: Int, LineRecord) -> Bool
  ) {
    guard first < sizes.count else { return }
    var lineFirst = first
    var i = first
    var used = 0.0
    var thick = 0.0
    var stopped = false
    sizes.forEachLeaf(from: first) { _, elements, leafFirst in
      for k in max(first - leafFirst, 0)..<elements.count {
        let n = neutral(elements[k])
        if i > lineFirst && used + interitem + n.width <= avail {
          used += interitem + n.width
          thick = max(thick, n.height)
        } else {
          if i > lineFirst && !emit(lineFirst, LineRecord(items: i - lineFirst, thickness: thick)) {
            stopped = true
            return false
          }
          lineFirst = i
          used = n.width
          thick = n.height
        }
        i += 1
      }
      return true
    }
    if !stopped { _ = emit(lineFirst, LineRecord(items: i - lineFirst, thickness: thick)) }
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

/// The computed geometry of a flow layout for one viewport size.
/// Item sizes are stored in main/cross order (width = cross, height = main)
/// internally, so that both scroll directions share one code path.
public struct FlowGeometry: Sendable {
  let axes: Axes
  let policy: FlowPolicy
  /// The cross-axis extent D of the content.
  public let crossExtent: Double
  var sections: [SectionGeometry]
  /// The main-axis span every element lies within (pinned ones included):
  /// [0, contentSize] unless negative insets reach beyond it.
  var elementSpan: (lo: Double, hi: Double) = (0, 0)

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

  /// Scratch space one query reuses across lines.
  struct Scratch {
    var sizes: [Size] = []
    /// Reads the sizes on from where the last line's ended, so that a walk
    /// along lines descends the rope once, not once per line.
    var cursor: RopeCursor<SizeSummary>? = nil
    var cursorSection = -1

    /// The (cross, main) sizes of `range` in section `s` of `g`, into `sizes`.
    mutating func read(_ range: Range<Int>, section s: Int, _ g: SectionGeometry, _ list: SizeList)
    {
      sizes.removeAll(keepingCapacity: true)
      if cursorSection != s || cursor?.index != range.lowerBound {
        cursor = RopeCursor(list, at: range.lowerBound)
        cursorSection = s
      }
      while sizes.count < range.count, let raw = cursor!.next() {
        sizes.append(g.neutral(raw))
      }
    }
  }

  /// Calls `body` with the untransformed frame of every item of line `j`,
  /// which starts at `lineStart`, is `thick` thick and holds `range`
  /// (rules 4, 5 and 6). O(items in the line), plus O(log n) to find the
  /// sizes of a section of varied sizes.
  /// `g` is section `s`, passed in (borrowed) rather than read from
  /// `sections`: a copy would retain its ropes once per line.
  func forEachItem(
    of g: SectionGeometry, section s: Int, line j: Int, start lineStart: Double,
    thickness thick: Double, items range: Range<Int>, scratch: inout Scratch,
    _ body: (Int, Rect) -> Void
  ) {
    switch g.lines {
    case .uniform(let size, let perLine, let gap, _):
      // Items are centred along the main axis within their line (rule 4).
      let main = lineStart + (thick - size.height) / 2
      for (k, i) in range.enumerated() {
        let cross: Double
        if policy.crossAlignment == .centered {
          let used = Double(range.count) * size.width + Double(range.count - 1) * g.interitem
          cross = g.crossLead + (g.avail - used) / 2 + Double(k) * (size.width + g.interitem)
        } else if perLine == 1 {
          // A lone item is centred, unless it is wider than the line.
          cross = size.width > g.avail ? g.crossLead : g.crossLead + (g.avail - size.width) / 2
        } else {
          // Full lines are justified; the last line keeps the same columns.
          cross = g.crossLead + Double(k) * (size.width + gap)
        }
        body(
          i, axes.rect(main: main, cross: cross, mainExtent: size.height, crossExtent: size.width))
      }
    case .single(let sizes), .variable(let sizes, _):
      scratch.read(range, section: s, g, sizes)
      let n = range.count
      var total = 0.0
      for size in scratch.sizes { total += size.width }
      let isLast = j == g.lineCount - 1
      var x: Double
      var gap = g.interitem
      if policy.crossAlignment == .centered {
        x = g.crossLead + (g.avail - total - Double(n - 1) * g.interitem) / 2
      } else if isLast {
        x = g.crossLead
      } else if n == 1 {
        x = total > g.avail ? g.crossLead : g.crossLead + (g.avail - total) / 2
      } else {
        x = g.crossLead
        gap = (g.avail - total) / Double(n - 1)
      }
      for k in 0..<n {
        let size = scratch.sizes[k]
        let main = lineStart + (thick - size.height) / 2
        body(
          range.lowerBound + k,
          axes.rect(main: main, cross: x, mainExtent: size.height, crossExtent: size.width))
        x += size.width + gap
      }
    }
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
    let j = sections[path.section].lineIndex(ofItem: path.item)
    var scratch = Scratch()
    var result = Rect.zero
    forEachItem(section: path.section, line: j, scratch: &scratch) { i, r in
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
        main = max(g.start, min(pin.lo, g.footerStart - g.headerThickness))
      }
      return axes.rect(
        main: main, cross: 0, mainExtent: g.headerThickness, crossExtent: crossExtent)
    case .footer:
      guard g.footerThickness > 0 else { return nil }
      var main = g.footerStart
      if let pin, pin.footers {
        main = min(g.footerStart, max(pin.hi - g.footerThickness, g.start + g.headerThickness))
      }
      return axes.rect(
        main: main, cross: 0, mainExtent: g.footerThickness, crossExtent: crossExtent)
    case .cell:
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
    let (lo, hi, _, _) = axes.spans(rect)
    var scratch = Scratch()
    var s = firstSection(endingAfter: lo)
    while s < sections.count && sections[s].start < hi {
      let g = sections[s]
      if let h = frameForSupplementary(.header, section: s, pin: pin), h.intersects(rect) {
        body(.header, s, 0, h)
      }
      g.forEachLine(endingAfter: lo) { j, start, thick, range in
        guard start < hi else { return false }
        forEachItem(
          of: g, section: s, line: j, start: start, thickness: thick, items: range,
          scratch: &scratch
        ) { i, r in
          if r.intersects(rect) { body(.cell, s, i, r) }
        }
        return true
      }
      if let f = frameForSupplementary(.footer, section: s, pin: pin), f.intersects(rect) {
        body(.footer, s, 0, f)
      }
      s += 1
    }
  }

  // MARK: Nearest item

  /// The item whose centre is nearest `point`. With `mainAxisOnly`, distance
  /// is measured along the scroll axis alone (carousels); otherwise it is
  /// Euclidean. Ties go to the earlier item. Returns nil when there are no
  /// items. O(log n) to find the nearest line, then outward line by line
  /// until no nearer centre is possible: O(log n + items of the lines
  /// examined), a handful of lines in practice.
  public func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath? {
    let pm = axes.main(point)
    let pc = axes.cross(point)
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
      forEachItem(
        of: sections[s], section: s, line: j, start: start, thickness: thick, items: items,
        scratch: &scratch
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
    sections[s].forEachLine(endingAfter: pm) { line, start, thick, items in
      if line < j { j = line }
      stopped = !visitIfNearer(s, line, start, thick, items)
      return !stopped
    }
    var fs = s + 1
    while fs < sections.count && !stopped {
      sections[fs].forEachLine(from: 0) { line, start, thick, items in
        stopped = !visitIfNearer(fs, line, start, thick, items)
        return !stopped
      }
      fs += 1
    }
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

extension SectionGeometry {
  /// The lines of `items` (rules 2 and 6), reusing `previous` lines where
  /// its items did not change. O(1) for uniform sizes; O(n) for a fresh
  /// break; O(log n + items re-broken) for a reflow.
  func makeLines(
    _ items: Section.Items, policy: FlowPolicy, previous: (SectionGeometry, ItemEdit?)?
  ) -> Lines {
    switch items {
    case .uniform(let n):
      return uniformLines(neutral(itemSize), count: n, policy: policy)
    case .sizes(let sizes):
      // A section whose items all share one size follows the uniform
      // rules (rule 6), and needs no per-line storage.
      let summary = sizes.summary
      if summary.allEqual(uniform: itemSize) {
        let size =
          summary.unset == summary.count
          ? itemSize : Size(width: summary.minWidth, height: summary.minHeight)
        return uniformLines(neutral(size), count: sizes.count, policy: policy)
      }
      if policy.singleItemLines { return .single(sizes: sizes) }
      if let (old, edit) = previous, case .variable(_, let oldLines) = old.lines,
        old.avail == avail, old.interitem == interitem, old.itemSize == itemSize,
        old.axes.direction == axes.direction
      {
        guard let edit else {
          // The items are the old ones: keep the lines.
          return .variable(sizes: sizes, lines: oldLines)
        }
        return .variable(
          sizes: sizes,
          lines: reflow(old, oldLines, sizes: sizes, edit: edit))
      }
      // Leaves are made as lines are broken: no array of every line.
      var lines = RopeBuilder<LineSummary>()
      breakLines(sizes, from: 0) { _, r in
        lines.append(r)
        return true
      }
      return .variable(sizes: sizes, lines: lines.rope)
    }
  }

  /// Re-breaks the lines of `old` after `edit`: from the line holding the
  /// item before the first change (it may now take more items) until a
  /// new line starts where an old line started, past the change. Greedy
  /// breaking depends only on the items from a line's first item on, so
  /// every later line is unchanged. O(log n + items re-broken).
  func reflow(
    _ old: SectionGeometry, _ oldLines: LineList, sizes: SizeList, edit: ItemEdit
  ) -> LineList {
    var lines = oldLines
    let oldCount = old.count
    var jStart = 0
    var firstItem = 0
    if edit.lo > 0 && oldLines.count > 0 {
      jStart = old.lineIndex(ofItem: min(edit.lo - 1, oldCount - 1))
      firstItem = old.itemRange(ofLine: jStart).lowerBound
    }
    let delta = edit.newHi - edit.oldHi
    var records: [LineRecord] = []
    var cursor = RopeCursor(oldLines, at: jStart)
    var oldStart = firstItem  // the first item of old line k
    var k = jStart
    var resync = oldLines.count
    breakLines(sizes, from: firstItem) { lineFirst, record in
      records.append(record)
      let next = lineFirst + record.items
      guard next >= edit.newHi else { return true }
      let target = next - delta
      while oldStart < target, let r = cursor.next() {
        oldStart += r.items
        k += 1
      }
      if oldStart == target && target < oldCount {
        resync = k
        return false
      }
      return true
    }
    lines.removeSubrange(jStart..<resync)
    lines.insert(contentsOf: records, at: jStart)
    return lines
  }

  /// Lines of `count` items of one (cross, main) size. O(1).
  func uniformLines(_ size: Size, count: Int, policy: FlowPolicy) -> Lines {
    var perLine = 1
    if !policy.singleItemLines && size.width + interitem > 0 {
      let estimate = ((avail + interitem) / (size.width + interitem)).rounded(.down)
      perLine = estimate.isFinite ? Int(min(max(estimate, 1), Double(Int32.max))) : 1
      // Settle the estimate against the exact greedy test.
      while perLine > 1 && Double(perLine) * size.width + Double(perLine - 1) * interitem > avail {
        perLine -= 1
      }
      while Double(perLine + 1) * size.width + Double(perLine) * interitem <= avail
        && perLine < Int(Int32.max)
      {
        perLine += 1
      }
    } else if !policy.singleItemLines {
      // Zero-extent items with no spacing: everything fits on one line.
      perLine = max(count, 1)
    }
    let gap = perLine > 1 ? (avail - Double(perLine) * size.width) / Double(perLine - 1) : 0
    let lineCount = count == 0 ? 0 : (count + perLine - 1) / perLine
    return .uniform(size: size, perLine: perLine, gap: gap, lineCount: lineCount)
  }
}
