// A waterfall section's columns. Positions are not stored: each column is
// a lane of its items' pitches (extent + spacing), and full-span items
// split the section into segments, each starting where the one before
// reached plus the full-span item between them. An item's position is its
// segment's start plus the pitches before it in its lane, all exact sums
// (ExactSum), so:
// - an insert or delete in one column moves the rest of that column, and
//   only it, in O(log n): nothing after it is rewritten;
// - an edit re-places items only from the first changed one until the
//   column profile resynchronises (every column's top moved by one common
//   amount), and the rest keeps its columns and pitches;
// - whatever path computed a position, it is the same double.
//
// Item indices in a lane are stored as gaps from the previous entry (the
// first: its index + 1), so that an insert shifts every later index by
// changing one gap per lane.
//
// A uniform stretch settles into a cycle: once `columnCount` items in a
// row took one column each, every top moved by one pitch and the rule
// (which reads only the tops' differences) repeats itself. From there each
// lane's entries are one run (gap columnCount, one pitch) and the order
// one cycling run, so an `itemCount` section of ten million items costs
// O(columns) (ColumnPlacer.placeRun).

/// One item of a column lane: 24 bytes, the extent kept only inside the
/// pitch (an exact sum gives back every double from 2^-12 up unchanged).
struct ColumnEntry: Sendable {
  var gap: Int32
  /// extent + spacing, exactly.
  var pitch: ExactSum
}

struct ColumnSummary: RopeSummary {
  /// Leaves of 64: every lookup (a frame's walk, an edit's splice) sums
  /// entries one by one up to its place in a leaf, so larger leaves cost
  /// each query more than their fewer allocations save a relayout.
  static var leafScale: Int { 1 }
  var count = 0
  /// The sum of the gaps: the last entry's item index + 1.
  var index = 0
  var pitch = ExactSum.zero
  static var zero: ColumnSummary { ColumnSummary() }
  init() {}
  init(_ elements: ArraySlice<ColumnEntry>) {
    count = elements.count
    for e in elements {
      index += Int(e.gap)
      pitch += e.pitch
    }
  }
  /// `count` copies of one entry: a column's items in a uniform stretch
  /// (each `columnCount` after the last, one pitch apart). O(1).
  static func repeating(_ e: ColumnEntry, count: Int) -> ColumnSummary? {
    var r = ColumnSummary()
    r.count = count
    r.index = Int(e.gap) * count
    r.pitch = e.pitch.times(count)
    return r
  }
  static func isSame(_ a: ColumnEntry, _ b: ColumnEntry) -> Bool {
    a.gap == b.gap && a.pitch == b.pitch
  }
  static func + (a: ColumnSummary, b: ColumnSummary) -> ColumnSummary {
    var r = ColumnSummary()
    r.count = a.count + b.count
    r.index = a.index + b.index
    r.pitch = a.pitch + b.pitch
    return r
  }
}

/// The column of every item in index order (−1: full span), read by index
/// only: leaves of 1,024.
struct OrderSummary: RopeSummary {
  typealias Element = Int32
  static var leafScale: Int { 16 }
  var count = 0
  static var zero: OrderSummary { OrderSummary() }
  init() {}
  init(_ elements: ArraySlice<Int32>) { count = elements.count }
  /// A uniform stretch's columns: one cycle over and over. O(1).
  static func repeating(cycle: ArraySlice<Int32>, count: Int) -> OrderSummary? {
    var r = OrderSummary()
    r.count = count
    return r
  }
  static func + (a: OrderSummary, b: OrderSummary) -> OrderSummary {
    var r = OrderSummary()
    r.count = a.count + b.count
    return r
  }
}

/// A full-span item, which closes the segment before it.
struct SpanEntry: Sendable {
  var gap: Int32
  var extent: Double
  var pitch: ExactSum
  /// How far the segment before it reached: its largest column advance.
  /// The item sits at the segment's start + reach.
  var reach: ExactSum
}

struct SpanSummary: RopeSummary {
  var count = 0
  var index = 0
  /// Σ (reach + pitch): from the first segment's start to the next one's.
  var step = ExactSum.zero
  static var zero: SpanSummary { SpanSummary() }
  init() {}
  init(_ elements: ArraySlice<SpanEntry>) {
    count = elements.count
    for e in elements {
      index += Int(e.gap)
      step += e.reach
      step += e.pitch
    }
  }
  static func + (a: SpanSummary, b: SpanSummary) -> SpanSummary {
    var r = SpanSummary()
    r.count = a.count + b.count
    r.index = a.index + b.index
    r.step = a.step + b.step
    return r
  }
}

extension Rope {
  /// The first position whose running summary (through it) satisfies
  /// `pred`, monotone along the rope, and the summary of everything before
  /// it; (count, summary) when none does. O(log n + leaf).
  func split(_ pred: (S) -> Bool) -> (position: Int, before: S) {
    guard let (before, elements, first) = descend(pred) else { return (count, summary) }
    if let v = elements.run {
      // A run: the first k whose prefix through it satisfies pred.
      var lo = 0
      var hi = elements.count - 1
      while lo < hi {
        let mid = (lo + hi) / 2
        if pred(before + S.repeating(v, count: mid + 1)!) { hi = mid } else { lo = mid + 1 }
      }
      return (first + lo, before + S.repeating(v, count: lo)!)
    }
    var acc = before
    for k in 0..<elements.count {
      let through = acc + S(elements.stored[k...k])
      if pred(through) { return (first + k, acc) }
      acc = through
    }
    return (first + elements.count, acc)
  }

  /// The summary of the first `j` elements. O(log n + leaf).
  func prefix(_ j: Int) -> S {
    if j <= 0 { return .zero }
    if j >= count { return summary }
    let (before, elements, offset) = leaf(containing: j)
    if let v = elements.run { return before + S.repeating(v, count: offset)! }
    return before + S(elements.stored[0..<offset])
  }
}

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
    /// Items are measured along these axes and floored to this grid; and
    /// a packed layout must not keep a stable one's columns.
    var direction: ScrollDirection
    var pixelScale: Double
    var placement: ColumnPlacement
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

  /// Each item's column in index order (−1: full span).
  var order = Rope<OrderSummary>()
  var lanes: [Rope<ColumnSummary>] = []
  var spans = Rope<SpanSummary>()
  /// The reach of the last segment (the one no full-span item closes).
  var tailReach = ExactSum.zero
  /// Where a bounded relayout stopped (`Continuity.horizon`): the first
  /// item not placed by the rule, and the columns' lowest top (local)
  /// there. The items from it on sit in their old columns, stacked on
  /// the new tops: every one starts at or past `main`, where the rule
  /// would put it too, so everything before `main` is final. nil when
  /// every item is placed.
  var provisional: (item: Int, main: Double)? = nil

  init(p: Parameters) {
    self.p = p
    lanes = Array(repeating: Rope(), count: p.columnCount)
  }

  var count: Int { order.count }
  var spacing: ExactSum { ExactSum(p.interitem) }
  var origin: ExactSum { ExactSum(p.itemsStart) }

  /// Every item's column, for tests. O(n).
  var columns: [Int32] { order.array }

  /// The cross position of column `c` (−1: the full span's). O(1).
  @inline(__always) func cross(_ c: Int32) -> Double {
    c < 0 ? p.crossLead : p.crossLead + Double(c) * (p.columnWidth + p.columnSpacing)
  }

  // MARK: Segments

  /// The segment item `i` is in (or, for a full-span item, the one it
  /// closes): the number of full-span items before it. O(log n).
  func segment(of i: Int) -> Int { spans.split { $0.index > i }.position }

  /// Where segment `k` starts. O(log n).
  func segmentStart(_ k: Int) -> ExactSum { origin + spans.prefix(k).step }

  /// The first item index of segment `k`. O(log n).
  func segmentFirst(_ k: Int) -> Int { spans.prefix(k).index }

  /// The items of segment `k` are those before this index. O(log n).
  func segmentEnd(_ k: Int) -> Int { k < spans.count ? spans.prefix(k + 1).index - 1 : Int.max }

  /// Lane `c`'s entries for items before `i`: how many, and their summary.
  /// O(log n).
  @inline(__always) func below(_ c: Int, _ i: Int) -> (position: Int, before: ColumnSummary) {
    // Before item 0 there is nothing (a segment's first item is 0 unless
    // a full-span item comes before): no descent.
    if i <= 0 { return (0, .zero) }
    return lanes[c].split { $0.index > i }
  }

  /// The largest column advance within segment `k`. O(columns · log n).
  func reach(of k: Int) -> ExactSum {
    let f = segmentFirst(k)
    let e = segmentEnd(k)
    var best = ExactSum.zero
    for c in 0..<p.columnCount {
      let from = below(c, f).before.pitch
      let to = e == Int.max ? lanes[c].summary.pitch : below(c, e).before.pitch
      best = max(best, to - from)
    }
    return best
  }

  /// Every column's top just before item `i` (rule 3's `top`), and the
  /// segment and its start there. O(columns · log n).
  func tops(at i: Int) -> (tops: [ExactSum], segment: Int, start: ExactSum) {
    let k = segment(of: i)
    let s0 = segmentStart(k)
    let f = segmentFirst(k)
    var tops: [ExactSum] = []
    tops.reserveCapacity(p.columnCount)
    for c in 0..<p.columnCount {
      tops.append(s0 + below(c, i).before.pitch - below(c, f).before.pitch)
    }
    return (tops, k, s0)
  }

  /// The end of the lowest column (rule 6), when the section has items.
  /// O(log n).
  var bottom: Double? {
    guard count > 0 else { return nil }
    return (segmentStart(spans.count) + tailReach - spacing).value
  }

  // MARK: Frames

  /// Item `i`'s local main position, extent and column. O(log n).
  func item(_ i: Int) -> (main: Double, extent: Double, column: Int32) {
    let c = order[i]
    let k = segment(of: i)
    if c < 0 {
      let s = spans[k]
      return ((segmentStart(k) + s.reach).value, s.extent, c)
    }
    let lane = Int(c)
    let (j, before) = below(lane, i)
    let first = below(lane, segmentFirst(k)).before
    let main = segmentStart(k) + before.pitch - first.pitch
    return (main.value, (lanes[lane][j].pitch - spacing).value, c)
  }

  /// Calls `body` with every item (index, local main, extent, column)
  /// whose main span meets [lo, hi), column by column within each segment,
  /// not in index order. O(segments met · columns · log n + k).
  func forEachItem(meeting lo: Double, _ hi: Double, _ body: (Int, Double, Double, Int32) -> Void) {
    let o = origin
    let spacing = self.spacing
    // The first segment whose next one starts after lo.
    var k = spans.split { (o + $0.step).value > lo }.position
    while k <= spans.count {
      let s0 = segmentStart(k)
      if s0.value >= hi { return }
      let f = segmentFirst(k)
      let e = segmentEnd(k)
      for c in 0..<p.columnCount {
        let (bf, first) = below(c, f)
        let base = s0 - first.pitch
        // The first entry ending after lo; entries before the segment are skipped.
        var (j, acc) = lanes[c].split { (base + $0.pitch - spacing).value > lo }
        if j < bf { (j, acc) = (bf, first) }
        var cursor = RopeCursor(lanes[c], at: j)
        while let entry = cursor.next() {
          let index = acc.index + Int(entry.gap) - 1
          let main = (base + acc.pitch).value
          guard index < e, main < hi else { break }
          body(index, main, (entry.pitch - spacing).value, Int32(c))
          acc.index += Int(entry.gap)
          acc.pitch += entry.pitch
        }
      }
      if k < spans.count {
        let s = spans[k]
        let main = (s0 + s.reach).value
        if main < hi && main + s.extent > lo { body(e, main, s.extent, -1) }
      }
      k += 1
    }
  }
}

extension ColumnSection {
  /// The indices every item meeting [lo, hi) lies within: from the
  /// smallest index of each column's first entry ending after lo in the
  /// first segment met to the largest of each column's last entry starting
  /// before hi in the last (lanes hold their items in index order), and
  /// the full-span item closing the last segment when it meets.
  /// O(columns · log n).
  func indexRange(meeting lo: Double, _ hi: Double) -> Range<Int> {
    guard count > 0, lo < hi else { return 0..<0 }
    let o = origin
    let first = spans.split { (o + $0.step).value > lo }.position
    let last = spans.split { (o + $0.step).value >= hi }.position
    guard first <= spans.count, segmentStart(first).value < hi else { return 0..<0 }
    // The closing span of the first segment, if it meets, bounds from
    // below with every column.
    var lower = first < spans.count ? segmentEnd(first) : Int.max
    var upper = -1
    let end = max(first, last)
    for k in last > first ? [first, end] : [first] {
      let s0 = segmentStart(k)
      let f = segmentFirst(k)
      let e = segmentEnd(k)
      for c in 0..<p.columnCount {
        let (bf, firstEntry) = below(c, f)
        let base = s0 - firstEntry.pitch
        let stop = e == Int.max ? lanes[c].count : below(c, e).position
        if k == first {
          let j = max(bf, lanes[c].split { (base + $0.pitch - spacing).value > lo }.position)
          if j < stop { lower = min(lower, lanes[c].prefix(j + 1).index - 1) }
        }
        if k == end {
          let j = min(stop, lanes[c].split { (base + $0.pitch).value >= hi }.position + 1) - 1
          if j >= bf { upper = max(upper, lanes[c].prefix(j + 1).index - 1) }
        }
      }
    }
    // The full-span items closing the segments met: the last one's, and
    // the one before the last segment (which may hold no column entry).
    if end < spans.count { upper = max(upper, segmentEnd(end)) }
    if end > first { upper = max(upper, segmentFirst(end) - 1) }
    if first < spans.count { upper = max(upper, segmentEnd(first)) }
    if last > first { lower = min(lower, segmentFirst(first + 1)) }
    guard lower <= upper, lower < count else { return 0..<0 }
    return lower..<min(upper + 1, count)
  }

  /// At least as many items as `forEachItem(meeting: lo, hi)` visits,
  /// without visiting them: each column of the first and last segments met
  /// is counted by two descents, the segments between by their index
  /// ranges. O(columns · log n).
  func countItems(meeting lo: Double, _ hi: Double) -> Int {
    guard count > 0, lo < hi else { return 0 }
    let o = origin
    let first = spans.split { (o + $0.step).value > lo }.position
    let last = spans.split { (o + $0.step).value >= hi }.position
    guard first <= spans.count, segmentStart(first).value < hi else { return 0 }
    func inColumns(_ k: Int) -> Int {
      let s0 = segmentStart(k)
      let f = segmentFirst(k)
      let e = segmentEnd(k)
      var n = 0
      for c in 0..<p.columnCount {
        let (bf, firstEntry) = below(c, f)
        let base = s0 - firstEntry.pitch
        let end = e == Int.max ? lanes[c].count : below(c, e).position
        let a = max(bf, lanes[c].split { (base + $0.pitch - spacing).value > lo }.position)
        let b = min(end, lanes[c].split { (base + $0.pitch).value >= hi }.position + 1)
        n += max(0, b - a)
      }
      // The full-span item closing the segment.
      return n + (k < spans.count ? 1 : 0)
    }
    if last <= first { return inColumns(first) }
    // Every item of the segments strictly between, spans included.
    let between = segmentFirst(last) - segmentFirst(first + 1)
    return inColumns(first) + between + inColumns(last)
  }
}

// MARK: Placing

/// One placing pass from item `from`: each column's top, the segment, and
/// the entries placed, their gaps already counted from each lane's last
/// entry, ready to splice into the lanes. A class over raw buffers: the
/// placing loop, which runs once per item, then reads and writes them with
/// no uniqueness, exclusivity or bounds check.
final class ColumnPlacer {
  let p: ColumnSection.Parameters
  let c: WaterfallConfiguration
  let axes: Axes
  let spacing: ExactSum
  let tolerance: ExactSum
  let n: Int
  @exclusivity(unchecked) var segmentStart: ExactSum
  /// Per column: its top, the index of the lane's last item, and the
  /// entries placed, built into leaves as they come (no array of them all).
  let tops: UnsafeMutablePointer<ExactSum>
  let last: UnsafeMutablePointer<Int>
  /// Per lane, the position of its first entry at or after item `at`.
  let start: UnsafeMutablePointer<Int>
  let placed: LeafBuilder<ColumnSummary>
  /// A tournament over the columns for shortest-first with many columns:
  /// node k holds the column of the lowest top in its range (the first of
  /// equals), leaves from `leaves`, n (a top no column reaches) past the
  /// last column. Finding the
  /// column and updating it are O(log columns), so columns do not
  /// multiply the cost of a placement; nil with few columns, where a scan
  /// is quicker.
  let tree: UnsafeMutablePointer<Int32>?
  /// Each node's column's top, kept beside it: a descent or a climb then
  /// reads one node per level rather than a node and then a top.
  let treeTop: UnsafeMutablePointer<ExactSum>?
  let leaves: Int
  let spansPlaced = LeafBuilder<SpanSummary>()
  @exclusivity(unchecked) var lastSpan: Int
  /// The position of the first full-span entry at or after item `at`.
  let spanStart: Int
  let columns = LeafBuilder<OrderSummary>()
  @exclusivity(unchecked) var count = 0

  init(_ g: ColumnSection, _ c: WaterfallConfiguration, axes: Axes, at i: Int) {
    p = g.p
    self.c = c
    self.axes = axes
    spacing = g.spacing
    n = g.p.columnCount
    // Shift-invariant: the same ties whatever the columns' common offset,
    // so that a resynchronised profile places the rest as before.
    tolerance = ExactSum(1e-9 * max(1, g.p.columnWidth))
    // Each lane's entries before item `i`, looked up once: they give the
    // column's top (as `tops(at:)` does), its last item, and where the
    // splice starts.
    let segment = g.segment(of: i)
    let s0 = g.segmentStart(segment)
    let f = g.segmentFirst(segment)
    segmentStart = s0
    // One more: the tree's padding leaves name column n, a top no column
    // reaches, so that comparing never branches on a missing column.
    tops = .allocate(capacity: n + 1)
    (tops + n).initialize(to: ExactSum(hi: Int64.max, lo: 0))
    last = .allocate(capacity: n)
    start = .allocate(capacity: n)
    for c in 0..<n {
      let b = g.below(c, i)
      (tops + c).initialize(to: s0 + b.before.pitch - g.below(c, f).before.pitch)
      (last + c).initialize(to: b.before.index - 1)
      (start + c).initialize(to: b.position)
    }
    placed = LeafBuilder(lanes: n)
    let spans = g.spans.split { $0.index > i }
    lastSpan = spans.before.index - 1
    spanStart = spans.position
    if p.renderDirection == .shortestFirst && n >= Self.treeColumns {
      var size = 1
      while size < n { size <<= 1 }
      leaves = size
      tree = .allocate(capacity: 2 * size)
      tree!.initialize(repeating: Int32(n), count: 2 * size)
      treeTop = .allocate(capacity: 2 * size)
      treeTop!.initialize(repeating: tops[n], count: 2 * size)
      rebuildTree()
    } else {
      leaves = 0
      tree = nil
      treeTop = nil
    }
  }

  /// From this many columns on, shortest-first keeps a tournament tree.
  static let treeColumns = 16

  /// Every node from the tops. O(columns).
  private func rebuildTree() {
    guard let tree, let treeTop else { return }
    for k in 0..<n {
      tree[leaves + k] = Int32(k)
      treeTop[leaves + k] = tops[k]
    }
    var k = leaves - 1
    while k >= 1 {
      pick(k, tree, treeTop)
      k -= 1
    }
  }

  /// Node `k` from its children: the lower top, the first (the lower
  /// column) on a tie.
  @inline(__always) private func pick(
    _ k: Int, _ tree: UnsafeMutablePointer<Int32>, _ treeTop: UnsafeMutablePointer<ExactSum>
  ) {
    let (l, r) = (2 * k, 2 * k + 1)
    let right = treeTop[r] < treeTop[l]
    tree[k] = right ? tree[r] : tree[l]
    treeTop[k] = right ? treeTop[r] : treeTop[l]
  }

  /// The nodes above column `col`, after its top changed. O(log columns).
  /// The nodes above column `col`, after its top changed. O(log columns).
  @inline(__always) private func updateTree(_ col: Int) {
    guard let tree, let treeTop else { return }
    treeTop[leaves + col] = tops[col]
    var k = (leaves + col) >> 1
    while k >= 1 {
      pick(k, tree, treeTop)
      k >>= 1
    }
  }

  deinit {
    if let tree, let treeTop {
      tree.deinitialize(count: 2 * leaves)
      tree.deallocate()
      treeTop.deinitialize(count: 2 * leaves)
      treeTop.deallocate()
    }
    tops.deinitialize(count: n + 1)
    tops.deallocate()
    last.deinitialize(count: n)
    last.deallocate()
    start.deinitialize(count: n)
    start.deallocate()
  }

  /// The lowest column top. O(1) with a tournament, else O(columns).
  var lowestTop: ExactSum {
    if let treeTop { return treeTop[1] }
    var low = tops[0]
    for k in 1..<n where tops[k] < low { low = tops[k] }
    return low
  }

  /// The columns' tops, as an array. O(columns).
  var topsArray: [ExactSum] { Array(UnsafeBufferPointer(start: tops, count: n)) }

  /// The column the rule gives item `i` (rule 4): for `shortestFirst` the
  /// first lowest column, or an earlier one within the tolerance of it.
  /// O(columns).
  @inline(__always) func rule(_ i: Int) -> Int {
    switch p.renderDirection {
    case .shortestFirst:
      // The first column whose top is within the tolerance of the lowest:
      // the first lowest, or an earlier one tied with it.
      if let tree, let treeTop {
        // The root's column is the first lowest. An earlier column within
        // the tolerance lies in a left sibling of its path: those are read
        // at once (no chain of dependent loads, as a descent from the root
        // would be), and the highest that qualifies holds the first such
        // column, found by a descent (rare: ties within 1e-9 of a width).
        let w = Int(tree[1])
        let tied = treeTop[1] + tolerance
        var found = 0
        var k = leaves + w
        while k > 1 {
          // The top test first: it is almost always false (a branch that
          // is learnt), where the side test alternates at random.
          if treeTop[k - 1] <= tied && k & 1 == 1 { found = k - 1 }
          k >>= 1
        }
        guard found > 0 else { return w }
        k = found
        while k < leaves {
          k = treeTop[2 * k] <= tied ? 2 * k : 2 * k + 1
        }
        return k - leaves
      }
      var low = 0
      for k in 1..<n where tops[k] < tops[low] { low = k }
      let tied = tops[low] + tolerance
      var col = low
      var k = low - 1
      while k >= 0 {
        col = tops[k] <= tied ? k : col
        k -= 1
      }
      return col
    case .leftToRight: return i % n
    case .rightToLeft: return n - 1 - i % n
    }
  }

  /// What an item of stored size `raw` takes: its extent along the
  /// columns, its pitch (extent + spacing) and whether it spans them all.
  @inline(__always) func measure(_ raw: Size) -> (extent: Double, pitch: ExactSum, full: Bool) {
    let unset = raw == Section.unsetSize
    let size = unset ? p.itemSize : raw.unmarked
    let full = !unset && raw.isFullSpan
    let crossSize = axes.cross(size)
    var e =
      crossSize > 0 ? c.floored(axes.main(size) * (full ? p.avail : p.columnWidth) / crossSize) : 0
    if !(e <= 1e15) { e = 1e15 }
    return (e, ExactSum(e) + spacing, full)
  }

  /// Places item `i` of stored size `raw` in `column` (nil: by the rule;
  /// ignored for a full-span item); returns the column (−1: full span).
  /// O(columns).
  @discardableResult
  @inline(__always) func place(_ i: Int, _ raw: Size, column: Int?) -> Int32 {
    let (e, pitch, full) = measure(raw)
    count &+= 1
    if full {
      var top = tops[0]
      for k in 1..<n { top = ExactSum.max(top, tops[k]) }
      spansPlaced.append(
        SpanEntry(
          gap: Int32(truncatingIfNeeded: i - lastSpan), extent: e, pitch: pitch,
          reach: top - segmentStart))
      lastSpan = i
      columns.append(-1)
      segmentStart = top + pitch
      for k in 0..<n { tops[k] = segmentStart }
      rebuildTree()
      return -1
    }
    let col = column ?? rule(i)
    placed.append(
      ColumnEntry(gap: Int32(truncatingIfNeeded: i - last[col]), pitch: pitch), lane: col)
    last[col] = i
    columns.append(Int32(truncatingIfNeeded: col))
    tops[col] = tops[col] + pitch
    updateTree(col)
    return Int32(truncatingIfNeeded: col)
  }

  /// Places `k` items of one stored size `raw` from item `i` on, by the
  /// rule, exactly as `place` would one by one. When `columnCount` of them
  /// in a row took one column each, every top moved by one pitch; the rule
  /// reads only the tops' differences (and the index mod the column
  /// count), so the next `columnCount` take the same columns in the same
  /// order, and so on to the run's end. Such a cycle is placed item by
  /// item and the whole cycles after it at once, each column's entries one
  /// run and the columns' order one cycling run: a uniform stretch costs
  /// O(columns) memory. O(columns · log columns + items placed before the
  /// columns' tops settle into a cycle).
  func placeRun(from i: Int, count k: Int, _ raw: Size) {
    let end = i + k
    var i = i
    let (_, pitch, full) = measure(raw)
    var cycle: [Int32] = []
    var seen: [Bool] = []
    while !full && end - i >= 2 * n {
      cycle.removeAll(keepingCapacity: true)
      seen = [Bool](repeating: false, count: n)
      for _ in 0..<n {
        let col = place(i, raw, column: nil)
        cycle.append(col)
        seen[Int(col)] = true
        i += 1
      }
      // Until the tops settle, a column may take two of n items.
      guard !seen.contains(false) else { continue }
      let q = (end - i) / n
      appendCycles(q, pitch: pitch, cycle: cycle)
      i += q * n
      break
    }
    while i < end {
      place(i, raw, column: nil)
      i += 1
    }
  }

  /// Appends `q` whole cycles of `cycle` (every column once, each item of
  /// `pitch`) after a cycle placed item by item: each lane one run of
  /// entries n apart, the columns' order one cycling run. O(columns).
  private func appendCycles(_ q: Int, pitch: ExactSum, cycle: [Int32]) {
    let entry = ColumnEntry(gap: Int32(truncatingIfNeeded: n), pitch: pitch)
    for col in 0..<n {
      placed.append(cycling: [entry], count: q, lane: col)
      last[col] += q * n
      tops[col] = tops[col] + pitch.times(q)
    }
    // Every top moved by one amount: the tree keeps its columns, and its
    // tops are taken again.
    rebuildTree()
    columns.append(cycling: cycle, count: q * n)
    count &+= q * n
  }

  /// Places `k` items of one stored size `raw` from item `i` on, item
  /// `i + t` in column `cycle[t % n]`, where `cycle` holds every column
  /// once (a stable layout's survivors in the columns a uniform stretch
  /// gave them), exactly as `place` would one by one: after one cycle each
  /// column's next item is n further and its top a pitch higher, so the
  /// whole cycles after it are one run per lane. O(columns · log columns).
  func placeCycle(from i: Int, count k: Int, _ raw: Size, cycle: [Int32]) {
    let (_, pitch, full) = measure(raw)
    guard !full, cycle.count == n, k >= 2 * n else {
      for t in 0..<k { place(i + t, raw, column: full ? nil : Int(cycle[t % cycle.count])) }
      return
    }
    for t in 0..<n { place(i + t, raw, column: Int(cycle[t])) }
    let q = (k - n) / n
    appendCycles(q, pitch: pitch, cycle: cycle)
    let done = n + q * n
    for t in done..<k { place(i + t, raw, column: Int(cycle[t % n])) }
  }

  /// The reach of the segment being placed, so far.
  var reach: ExactSum {
    var top = tops[0]
    for k in 1..<n { top = ExactSum.max(top, tops[k]) }
    return top - segmentStart
  }
}

extension ColumnSection {
  /// Places every item afresh (rules 3 to 5); with `keep` and `survivors`,
  /// each survivor in the column it had there (stable). O(n).
  mutating func build(
    _ items: Section.Items, _ c: WaterfallConfiguration, axes: Axes, keep: ColumnSection?,
    survivors: SurvivorWalk?
  ) {
    let placer = ColumnPlacer(self, c, axes: axes, at: 0)
    var walk = survivors
    var cursor: RopeCursor<OrderSummary>? = keep.map { RopeCursor($0.order, at: 0) }
    // From new item j (before `end`): how many items, at least two cycles,
    // are survivors of consecutive old items lying in one run leaf of the
    // old columns that cycles through every column, and the cycle from j.
    // Advances the survivor walk past them only when it answers. O(log n
    // + ops).
    func cycleAhead(from j: Int, upTo end: Int) -> (Int, [Int32])? {
      let n = p.columnCount
      guard let keep, end - j >= 2 * n, var probe = walk, let o = probe.oldIndex(ofNew: j),
        o < keep.count
      else { return nil }
      let (leaf, offset) = keep.order.leafElements(containing: o)
      guard leaf.repeats > 0, leaf.stored.count == n,
        Set(leaf.stored).count == n, leaf.stored.allSatisfy({ $0 >= 0 && Int($0) < n })
      else { return nil }
      var m = min(end - j, leaf.repeats - offset)
      // The survivors must be consecutive old items: the walk is monotone,
      // so the last one's old index tells. Fewer when it is not.
      while m >= 2 * n {
        var last = probe
        if last.oldIndex(ofNew: j + m - 1) == o + m - 1 {
          walk = last
          let cycle = (0..<n).map { leaf.stored[(offset + $0) % n] }
          return (m, cycle)
        }
        m /= 2
      }
      return nil
    }
    func oldColumn(_ i: Int) -> Int? {
      guard let keep, let o = walk?.oldIndex(ofNew: i), o < keep.count else { return nil }
      if cursor!.index != o { cursor = RopeCursor(keep.order, at: o) }
      let col = Int(cursor!.next()!)
      return col >= 0 && col < p.columnCount ? col : nil
    }
    if keep == nil || survivors == nil {
      // No old columns to keep: uniform stretches are placed as runs.
      var runs = SizeRuns(items, from: 0)
      while let (i, raw, k) = runs.next() {
        if k > 1 {
          placer.placeRun(from: i, count: k, raw)
        } else {
          placer.place(i, raw, column: nil)
        }
      }
    } else {
      var runs = SizeRuns(items, from: 0)
      while let (i, raw, k) = runs.next() {
        var j = i
        while j < i + k {
          // Survivors that were a uniform stretch's cycle keep it: placed
          // a cycle of columns at a time (a rotation of ten million items
          // costs its columns, not its items).
          if let (m, cycle) = cycleAhead(from: j, upTo: i + k) {
            placer.placeCycle(from: j, count: m, raw, cycle: cycle)
            j += m
            continue
          }
          placer.place(j, raw, column: oldColumn(j))
          j += 1
        }
      }
    }
    tailReach = placer.reach
    splice(placer, from: 0, oldEnd: 0)
  }

  /// How far past the change a packed relayout next compares its profile
  /// with the old one, after comparing `k` items past it: at once, then at
  /// doubling distances (a comparison costs O(columns · log n), as much as
  /// placing a few hundred items), so a resynchronisation k items past the
  /// change is seen by 2k, and a relayout to the end compares O(log n)
  /// times.
  @inline(__always) static func nextResyncCheck(after k: Int) -> Int { max(16, 2 * k) }

  /// The items that changed (`edit`) placed again over `old` (same
  /// parameters): from the first changed item until the columns'
  /// profile resynchronises (see `nextResyncCheck`), or for `stable` (with
  /// `survivors`) only the changed span, survivors in their columns. With
  /// `horizon` (local), placing may also stop once every column's top lies
  /// past it, the rest left provisional. A provisional rest of `old` is
  /// placed from its first item, to the end or the horizon.
  /// O(columns · log n + items re-placed).
  mutating func relayout(
    from old: consuming ColumnSection, edit: ItemEdit, _ items: Section.Items,
    _ c: WaterfallConfiguration, axes: Axes, survivors: SurvivorWalk?, horizon: Double? = nil
  ) {
    // Taken over, not copied: until the splice below `self` is the old
    // section, and its ropes, unshared, are then edited in place.
    self = consume old
    let total = count(of: items)
    // Old items from `rest` on were provisional: placing starts no later.
    let rest = provisional?.item ?? Int.max
    let lo = min(edit.lo, count, total, rest)
    let newHi = min(max(edit.newHi, lo), total)
    let delta = edit.newHi - edit.oldHi
    let placer = ColumnPlacer(self, c, axes: axes, at: lo)
    var walk = survivors
    // The index rules give later items other columns unless the count
    // changed by whole rows.
    let canResync = p.renderDirection == .shortestFirst || delta % p.columnCount == 0
    // Survivors keep their columns: only the changed span is placed.
    let bound = survivors == nil ? horizon.map { ExactSum($0) } : nil
    var end = total
    var stopped = false
    var check = newHi
    // A local function rather than a closure, so that the loops below
    // inline it.
    func step(_ i: Int, _ raw: Size) -> Bool {
      if i == check {
        if survivors != nil { return false }
        // Past the change every item is an old one, placed by the same
        // rule: once every column has moved by one amount, the rest
        // would land exactly where it is, moved by that amount. (Not a
        // provisional rest: it would land where the rule puts it only
        // once placed.)
        if canResync && rest == Int.max
          && resynchronised(placer.topsArray, tops(at: i - delta).tops)
        {
          end = i
          return false
        }
        check = newHi + Self.nextResyncCheck(after: i - newHi)
      }
      // Past the horizon (every top beyond it: nothing after starts
      // before it), item by item, as a lowest top costs little.
      if let bound, i >= newHi, placer.lowestTop > bound {
        end = i
        stopped = true
        return false
      }
      var column: Int? = nil
      if let s = walk?.oldIndex(ofNew: i), i < newHi, s < count {
        let col = Int(order[s])
        if col >= 0 { column = col }
      }
      placer.place(i, raw, column: column)
      return true
    }
    // k items of one size from i: between the checks, runs are placed
    // as runs (without survivors, whose old columns go item by item).
    func stepRun(_ i: Int, _ raw: Size, _ k: Int) -> Bool {
      var i = i
      let end = i + k
      while i < end {
        if i == check || walk != nil {
          guard step(i, raw) else { return false }
          i += 1
          continue
        }
        let stop = check > i ? min(end, check) : end
        placer.placeRun(from: i, count: stop - i, raw)
        i = stop
      }
      return true
    }
    // A loop, not a closure: `step`'s state then needs no dynamic
    // exclusivity checks (four an item).
    var runs = SizeRuns(items, from: lo)
    while let (i, raw, k) = runs.next() {
      guard k == 1 ? step(i, raw) : stepRun(i, raw, k) else { break }
    }
    if survivors != nil { end = newHi }
    if end == total { tailReach = placer.reach }
    let lowest = placer.lowestTop.value
    splice(placer, from: lo, oldEnd: end - delta)
    // The segment the placing ended in keeps old items after `end`, or
    // was placed to the end.
    if end != total {
      let k = segment(of: end)
      let r = reach(of: k)
      if k < spans.count { spans.set(k, with: r) } else { tailReach = r }
    }
    provisional = stopped ? (end, lowest) : nil
  }

  /// True when every column moved by the same amount.
  private func resynchronised(_ new: [ExactSum], _ old: [ExactSum]) -> Bool {
    let d = new[0] - old[0]
    for k in 1..<new.count where new[k] - old[k] != d { return false }
    return true
  }

  private func count(of items: Section.Items) -> Int {
    switch items {
    case .uniform(let n): return n
    case .sizes(let s): return s.count
    }
  }

  /// Replaces the items from `lo` (old indices up to `oldEnd`) by the
  /// placer's (new indices up to `lo` + placed); later items keep their
  /// entries, shifted by the count's change. O(columns · log n + items
  /// spliced).
  /// Everything from the first item on replaced (a build, or a packed
  /// insert at the front) takes the placer's ropes as they are.
  private mutating func splice(_ placer: ColumnPlacer, from lo: Int, oldEnd: Int) {
    let oldEnd = max(oldEnd, lo)
    let delta = lo + placer.count - oldEnd
    if lo == 0 && oldEnd >= order.count {
      order = placer.columns.rope
      for c in 0..<p.columnCount { lanes[c] = placer.placed.rope(lane: c) }
      spans = placer.spansPlaced.rope
      return
    }
    // In place: a rope held by nothing else is edited without copying.
    Self.replace(&order, lo, min(oldEnd, order.count), with: placer.columns.rope)
    for c in 0..<p.columnCount {
      Self.splice(
        &lanes[c], from: placer.start[c], oldEnd, delta, placer.placed.rope(lane: c),
        last: placer.last[c]
      ) { $0.gap = $1 }
    }
    Self.splice(
      &spans, from: placer.spanStart, oldEnd, delta, placer.spansPlaced.rope,
      last: placer.lastSpan
    ) { $0.gap = $1 }
  }

  /// Replaces a lane's entries for old items from its entry `a` (the first
  /// at or after the placing's first item) to `oldEnd` by `new` (whose
  /// last item is `last`), and counts the first later entry's gap from it.
  private static func splice<S: IndexedSummary>(
    _ lane: inout Rope<S>, from a: Int, _ oldEnd: Int, _ delta: Int, _ new: Rope<S>, last: Int,
    setGap: (inout S.Element, Int32) -> Void
  ) {
    let (b, through) = lane.split { $0.index > oldEnd }
    var entries = new
    var removeEnd = b
    if b < lane.count {
      // The first later entry: its new index, from its old one.
      var e = lane[b]
      setGap(&e, Int32(through.index + e.gapValue - 1 + delta - last))
      entries.append(contentsOf: [e])
      removeEnd = b + 1
    }
    replace(&lane, a, removeEnd, with: entries)
  }

  /// Replaces `lo..<hi` of `rope` by `new`: `new` itself when it
  /// replaces everything (an insert at the front of a packed layout
  /// re-places it all), else edited in place, runs spliced as runs.
  /// O(log n · leaves edited).
  private static func replace<S: RopeSummary>(
    _ rope: inout Rope<S>, _ lo: Int, _ hi: Int, with new: Rope<S>
  ) {
    if lo == 0 && hi >= rope.count {
      rope = new
    } else if lo < hi {
      rope.replaceSubrange(lo..<hi, with: new)
    } else if !new.isEmpty {
      rope.insert(contentsOf: new, at: lo)
    }
  }
}

/// A lane's summary: how many entries and their gaps' sum (the last
/// entry's index + 1).
protocol IndexedSummary: RopeSummary where Element: GapCoded {
  var index: Int { get }
}

protocol GapCoded {
  var gapValue: Int { get }
}

extension ColumnSummary: IndexedSummary {}
extension SpanSummary: IndexedSummary {}
extension ColumnEntry: GapCoded { var gapValue: Int { Int(gap) } }
extension SpanEntry: GapCoded { var gapValue: Int { Int(gap) } }

extension Rope where S == SpanSummary {
  /// Sets the reach of full-span item `k`.
  mutating func set(_ k: Int, with reach: ExactSum) {
    var e = self[k]
    e.reach = reach
    set(k, e)
  }
}

/// A section's items from `from` on as (first index, stored size, count)
/// runs of one size: a uniform section's or a run leaf's whole, other
/// items one by one. O(1) per run, O(log n) per leaf entered.
struct SizeRuns {
  private var uniform: Range<Int>?
  private var cursor: RopeCursor<SizeSummary>?

  init(_ items: Section.Items, from: Int) {
    switch items {
    case .uniform(let n): uniform = from < n ? from..<n : nil
    case .sizes(let sizes): cursor = from < sizes.count ? RopeCursor(sizes, at: from) : nil
    }
  }

  mutating func next() -> (first: Int, size: Size, count: Int)? {
    if let r = uniform {
      uniform = nil
      return (r.lowerBound, Section.unsetSize, r.count)
    }
    guard cursor != nil, let size = cursor!.peek else { return nil }
    let first = cursor!.index
    let k = cursor!.runRemaining
    cursor!.skip(k)
    return (first, size, k)
  }
}
