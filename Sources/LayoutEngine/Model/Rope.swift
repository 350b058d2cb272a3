// A persistent B-tree of elements with summaries in every node (a rope).
//
// Item sizes, ids and a section's lines live in ropes so that an insert or
// a delete anywhere costs O(log n): a flat array would memmove the tail
// (O(n)), and copying a session before a batch (for atomicity and for the
// animation lists) would copy every item. Nodes are shared between copies
// and copied on write along the edited path only, so a copy is O(1) and an
// edit of a shared rope is O(log n) node copies.

/// What a rope keeps about a run of elements. `+` must be associative up
/// to floating-point rounding; every walk combines summaries left to right
/// in the same order, so two walks to the same place see bit-identical
/// prefixes.
public protocol RopeSummary: Sendable {
  associatedtype Element: Sendable
  static var zero: Self { get }
  init(_ elements: ArraySlice<Element>)
  static func + (a: Self, b: Self) -> Self
  var count: Int { get }
  /// Leaves hold `leafScale` times `RopeLimits.leafCapacity` elements:
  /// more for small elements read by index, whose leaves are never summed
  /// element by element.
  static var leafScale: Int { get }
}

extension RopeSummary {
  public static var leafScale: Int { 1 }
}

final class RopeNode<S: RopeSummary>: @unchecked Sendable {
  // Unchecked: a node is only mutated through `Rope.edit` after
  // isKnownUniquelyReferenced, so no access can overlap, and dynamic
  // checks (a thread-local access set) cost more than the reads they guard.
  @exclusivity(unchecked) var summary: S
  /// Leaves hold elements; inner nodes hold children. Never both.
  @exclusivity(unchecked) var elements: [S.Element]
  @exclusivity(unchecked) var children: [RopeNode<S>]

  init(elements: [S.Element]) {
    self.elements = elements
    self.children = []
    self.summary = S(elements[...])
  }

  init(children: [RopeNode<S>]) {
    self.elements = []
    self.children = children
    self.summary = children.reduce(S.zero) { $0 + $1.summary }
  }

  init(copying other: RopeNode<S>) {
    elements = other.elements
    children = other.children
    summary = other.summary
  }

  var isLeaf: Bool { children.isEmpty }

  func resummarize() {
    summary = isLeaf ? S(elements[...]) : children.reduce(S.zero) { $0 + $1.summary }
  }
}

/// Node sizes. Every lookup walks a leaf from its start to sum the
/// positions before an element, so leaves stay small: 64 sizes are 1 KiB,
/// a lookup sums 24 on average, and a tree of 10 million items is still
/// five levels deep. Tests shrink them to exercise deep trees with few
/// elements.
enum RopeLimits {
  @exclusivity(unchecked) nonisolated(unsafe) static var leafCapacity = 64
  @exclusivity(unchecked) nonisolated(unsafe) static var fanout = 32
}

/// A sequence of elements in a B-tree of leaves of at most
/// `leafCapacity` elements and inner nodes of at most `fanout` children.
/// Reads are O(log n); edits are O(log n + leafCapacity).
public struct Rope<S: RopeSummary>: Sendable {
  public typealias Element = S.Element
  static var leafCapacity: Int { RopeLimits.leafCapacity * S.leafScale }
  static var fanout: Int { RopeLimits.fanout }
  var root: RopeNode<S>

  /// An empty rope. O(1).
  public init() { root = RopeNode(elements: []) }

  /// A rope of `elements`, built bottom-up with leaves three quarters full
  /// so that inserts rarely split. O(n).
  public init(_ elements: [Element]) {
    let fill = Self.leafFill
    self.init(
      leaves: elements.count <= fill
        ? [RopeNode(elements: elements)]
        : Self.groups(of: elements, size: fill) { RopeNode(elements: Array($0)) })
  }

  /// The elements a bulk-built leaf holds.
  static var leafFill: Int { Swift.max(leafCapacity * 3 / 4, 1) }

  /// A rope over `leaves`, in order, none of them empty. O(leaves).
  init(leaves: [RopeNode<S>]) {
    var level = leaves.isEmpty ? [RopeNode(elements: [])] : leaves
    while level.count > 1 {
      level = Self.groups(of: level, size: Self.fanout * 3 / 4) { RopeNode(children: Array($0)) }
    }
    root = level[0]
  }

  /// One node per run of `size` consecutive values. O(values).
  private static func groups<T>(
    of values: [T], size: Int, _ make: (ArraySlice<T>) -> RopeNode<S>
  ) -> [RopeNode<S>] {
    stride(from: 0, to: values.count, by: size).map {
      make(values[$0..<Swift.min($0 + size, values.count)])
    }
  }

  /// The number of elements. O(1).
  public var count: Int { root.summary.count }
  public var isEmpty: Bool { count == 0 }
  /// The summary of every element. O(1).
  public var summary: S { root.summary }

  /// Element `i`. O(log n).
  public subscript(i: Int) -> Element {
    precondition(i >= 0 && i < count, "Rope index out of range")
    var node = root
    var i = i
    while !node.isLeaf {
      for child in node.children {
        if i < child.summary.count {
          node = child
          break
        }
        i -= child.summary.count
      }
    }
    return node.elements[i]
  }

  /// The summary of the elements before the leaf holding element `i` (the
  /// last leaf when `i == count`), that leaf's elements, and `i`'s offset
  /// in it. O(log n).
  func leaf(containing i: Int) -> (before: S, elements: [Element], offset: Int) {
    leaf(containing: i, prefix: S.zero, adding: +)
  }

  /// The leaf holding element `i` and `i`'s offset in it, found by counts
  /// alone, for readers that never look at the summary before it. O(log n).
  @inline(__always)
  func leafElements(containing i: Int) -> (elements: [Element], offset: Int) {
    let (_, elements, offset) = leaf(containing: i, prefix: (), adding: { _, _ in () })
    return (elements, offset)
  }

  /// `leaf(containing:)` with the summary before the leaf accumulated from
  /// `zero` by `add`, which reads only the fields a walk needs: a hot
  /// descent then adds a sum or two per child, not every field of S. The
  /// same prefix for the same leaf whatever the tree's shape, when `add`
  /// sums exactly (counts, ExactSum). O(log n).
  @inline(__always)
  func leaf<A>(containing i: Int, prefix zero: A, adding add: (A, S) -> A)
    -> (before: A, elements: [Element], offset: Int)
  {
    var node = root
    var acc = zero
    var i = i
    while !node.isLeaf {
      // By index: an iterator would retain and release every child.
      let children = node.children
      var k = 0
      while k < children.count - 1 {
        let n = children[k].summary.count
        if i < n { break }
        i -= n
        acc = add(acc, children[k].summary)
        k += 1
      }
      node = children[k]
    }
    return (acc, node.elements, i)
  }

  /// Descends to the first leaf whose running summary (everything up to
  /// and including it) satisfies `pred`, which must be monotone along the
  /// rope. Returns the summary before that leaf, the leaf and the index of
  /// its first element; nil when no prefix satisfies `pred`. O(log n).
  func descend(_ pred: (S) -> Bool) -> (before: S, elements: [Element], first: Int)? {
    descend(prefix: S.zero, adding: +, where: pred)
  }

  /// `descend` with the prefix accumulated from `zero` by `add` (see
  /// `leaf(containing:prefix:adding:)`), which `pred` tests. O(log n).
  @inline(__always)
  func descend<A>(prefix zero: A, adding add: (A, S) -> A, where pred: (A) -> Bool)
    -> (before: A, elements: [Element], first: Int)?
  {
    guard pred(add(zero, root.summary)) else { return nil }
    var node = root
    var acc = zero
    var first = 0
    while !node.isLeaf {
      let children = node.children
      var k = 0
      while k < children.count - 1 {
        let through = add(acc, children[k].summary)
        if pred(through) { break }
        acc = through
        first += children[k].summary.count
        k += 1
      }
      node = children[k]
    }
    return (acc, node.elements, first)
  }

  /// Calls `body` with each leaf from the one holding element `i` on, with
  /// the summary before it and the index of its first element, until
  /// `body` returns false. Prefixes match `leaf(containing:)` bit for bit.
  /// O(log n + leaves visited).
  func forEachLeaf(from i: Int, _ body: (S, [Element], Int) -> Bool) {
    var acc = S.zero
    func visit(_ node: RopeNode<S>, skip: Int) -> Bool {
      if node.isLeaf {
        if node.elements.isEmpty { return true }
        guard body(acc, node.elements, acc.count) else { return false }
        acc = acc + node.summary
        return true
      }
      // By index: an iterator would retain and release every child.
      let children = node.children
      var skip = skip
      for k in children.indices {
        let n = children[k].summary.count
        if skip >= n {
          skip -= n
          acc = acc + children[k].summary
          continue
        }
        guard visit(children[k], skip: skip) else { return false }
        skip = 0
      }
      return true
    }
    _ = visit(root, skip: i)
  }

  /// Calls `body` with every element from index `i` on, in order, until it
  /// returns false. O(log n + elements visited).
  public func forEach(from i: Int = 0, _ body: (Element) -> Bool) {
    forEachLeaf(from: i) { _, elements, first in
      for k in Swift.max(i - first, 0)..<elements.count where !body(elements[k]) { return false }
      return true
    }
  }

  /// Every element, in order. O(n).
  public var array: [Element] {
    var out: [Element] = []
    out.reserveCapacity(count)
    forEachLeaf(from: 0) { _, elements, _ in
      out.append(contentsOf: elements)
      return true
    }
    return out
  }

  // MARK: Editing

  /// Replaces element `i`. O(log n + leafCapacity).
  public mutating func set(_ i: Int, _ value: Element) {
    precondition(i >= 0 && i < count, "Rope index out of range")
    Self.edit(&root, at: i, removing: 1, inserting: [value][...])
  }

  /// Inserts `elements` at `i`. O(log n + leafCapacity) per leaf's worth.
  public mutating func insert(contentsOf elements: [Element], at i: Int) {
    precondition(i >= 0 && i <= count, "Rope index out of range")
    if i == count {
      append(contentsOf: elements)
      return
    }
    var at = i
    var start = 0
    // Pieces of a bulk-built leaf's fill: appending one to a leaf that
    // holds as much splits it into two such leaves, so a rope grown at its
    // end stays as dense as one built at once.
    let piece = Self.leafFill
    while start < elements.count {
      let end = Swift.min(start + piece, elements.count)
      Self.edit(&root, at: at, removing: 0, inserting: elements[start..<end])
      growIfSplit()
      at += end - start
      start = end
    }
  }

  /// Appends `elements` at the end: the last leaf topped up to a
  /// bulk-built leaf's fill, then leaves of that fill added along the right
  /// edge, each node's summary extended by the leaf's instead of summed
  /// again from its children (summaries are exact, so the result is the
  /// same). A rope grown this way is as dense as one built at once.
  /// - Complexity: O(k + log n) for k elements.
  public mutating func append(contentsOf elements: [Element]) {
    guard !elements.isEmpty else { return }
    let fill = Self.leafFill
    var last = root
    while !last.isLeaf { last = last.children[last.children.count - 1] }
    var start = Swift.min(elements.count, Swift.max(0, fill - last.elements.count))
    if start > 0 {
      Self.edit(&root, at: count, removing: 0, inserting: elements[0..<start])
      growIfSplit()
    }
    while start < elements.count {
      let end = Swift.min(start + fill, elements.count)
      let leaf = RopeNode<S>(elements: Array(elements[start..<end]))
      if root.isLeaf {
        root = root.elements.isEmpty ? leaf : RopeNode(children: [root, leaf])
      } else {
        Self.appendLeaf(&root, leaf)
        growIfSplit()
      }
      start = end
    }
  }

  /// The B-tree's invariants, for tests: every leaf at one depth, no node
  /// over its capacity, no empty node but an empty root, and every
  /// summary equal to the one summed afresh from what the node holds.
  /// Returns the first violation found, or nil.
  /// - Complexity: O(n).
  func invariantViolation() -> String? {
    func check(_ node: RopeNode<S>, depth: Int, leafDepth: inout Int?) -> String? {
      if node.isLeaf {
        if node.elements.count > Self.leafCapacity { return "a leaf over capacity" }
        if node.elements.isEmpty && node !== root { return "an empty leaf" }
        if let d = leafDepth, d != depth { return "leaves at depths \(d) and \(depth)" }
        leafDepth = depth
        let fresh = S(node.elements[...])
        return withUnsafeBytes(of: fresh) { a in
          withUnsafeBytes(of: node.summary) { b in a.elementsEqual(b) }
        } ? nil : "a leaf summary differs from its elements'"
      }
      if node.children.count > Self.fanout { return "a node over its fanout" }
      for c in node.children {
        if let v = check(c, depth: depth + 1, leafDepth: &leafDepth) { return v }
      }
      let fresh = node.children.reduce(S.zero) { $0 + $1.summary }
      return withUnsafeBytes(of: fresh) { a in
        withUnsafeBytes(of: node.summary) { b in a.elementsEqual(b) }
      } ? nil : "a node summary differs from its children's"
    }
    var leafDepth: Int? = nil
    return check(root, depth: 0, leafDepth: &leafDepth)
  }

  /// Adds `leaf` after the last leaf under `node` (an inner node), copying
  /// shared nodes on the way down and splitting overfull ones on the way up.
  private static func appendLeaf(_ node: inout RopeNode<S>, _ leaf: RopeNode<S>) {
    if !isKnownUniquelyReferenced(&node) { node = RopeNode(copying: node) }
    let k = node.children.count - 1
    if node.children[k].isLeaf {
      node.children.append(leaf)
    } else {
      appendLeaf(&node.children[k], leaf)
      if let sibling = splitIfNeeded(node.children[k]) { node.children.append(sibling) }
    }
    node.summary = node.summary + leaf.summary
  }

  public mutating func insert(_ element: Element, at i: Int) {
    insert(contentsOf: [element], at: i)
  }

  /// Removes the elements of `range`. O((log n + leafCapacity) · leaves
  /// touched).
  public mutating func removeSubrange(_ range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "Rope range out of range")
    var remaining = range.count
    while remaining > 0 {
      // Remove from the end of the range backwards, a leaf at a time.
      let end = range.lowerBound + remaining
      let offset = leaf(containing: end - 1).offset
      let take = Swift.min(remaining, offset + 1)
      Self.edit(&root, at: end - take, removing: take, inserting: [])
      remaining -= take
    }
    // A root with one inner child adds a level for nothing.
    while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
  }

  public mutating func remove(at i: Int) { removeSubrange(i..<(i + 1)) }

  /// After an edit the root may hold more than `fanout` children: split it.
  private mutating func growIfSplit() {
    if let sibling = Self.splitIfNeeded(root) {
      root = RopeNode(children: [root, sibling])
    }
  }

  /// Splits an overfull node in two, returning the right half.
  private static func splitIfNeeded(_ node: RopeNode<S>) -> RopeNode<S>? {
    if node.isLeaf {
      guard node.elements.count > leafCapacity else { return nil }
      let half = node.elements.count / 2
      let right = RopeNode<S>(elements: Array(node.elements[half...]))
      // A fresh array: removing the tail would keep the grown capacity.
      node.elements = Array(node.elements[..<half])
      node.resummarize()
      return right
    }
    guard node.children.count > fanout else { return nil }
    let half = node.children.count / 2
    let right = RopeNode<S>(children: Array(node.children[half...]))
    node.children.removeSubrange(half...)
    node.resummarize()
    return right
  }

  /// Replaces `removing` elements at `i` (all within one leaf) with
  /// `inserting`, copying shared nodes on the way down and splitting
  /// overfull or dropping empty children on the way up.
  private static func edit(
    _ node: inout RopeNode<S>, at i: Int, removing: Int, inserting: ArraySlice<Element>
  ) {
    if !isKnownUniquelyReferenced(&node) { node = RopeNode(copying: node) }
    if node.isLeaf {
      node.elements.replaceSubrange(i..<(i + removing), with: inserting)
      node.resummarize()
      return
    }
    // The child holding i; an insert at a child boundary goes to the
    // earlier child, so appends land in the last leaf.
    var k = 0
    var offset = i
    while k < node.children.count - 1 {
      let c = node.children[k].summary.count
      if offset < c || (removing == 0 && offset == c) { break }
      offset -= c
      k += 1
    }
    edit(&node.children[k], at: offset, removing: removing, inserting: inserting)
    if let sibling = splitIfNeeded(node.children[k]) {
      node.children.insert(sibling, at: k + 1)
    } else if node.children[k].summary.count == 0 && node.children.count > 1 {
      node.children.remove(at: k)
    }
    node.resummarize()
  }
}

extension Rope: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { count }
  public func index(after i: Int) -> Int { i + 1 }
  public func index(before i: Int) -> Int { i - 1 }
}

extension Rope: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension Rope: Equatable where Element: Equatable {
  /// O(1) for copies of one rope, else O(n).
  public static func == (a: Rope, b: Rope) -> Bool {
    if a.root === b.root { return true }
    return a.count == b.count && a.array == b.array
  }
}

/// Counts elements; the summary of ropes that need nothing else.
public struct CountSummary<Element: Sendable>: RopeSummary {
  public var count: Int
  public static var zero: CountSummary { CountSummary(count: 0) }
  init(count: Int) { self.count = count }
  public init(_ elements: ArraySlice<Element>) { count = elements.count }
  public static func + (a: CountSummary, b: CountSummary) -> CountSummary {
    CountSummary(count: a.count + b.count)
  }
}

/// What item sizes add up to: sums for positions, extremes for search
/// bounds and for noticing a section whose sizes are all equal. Items
/// without a size of their own (`Section.unsetSize`) are only counted, so
/// that the summary does not depend on the layout's item size.
public struct SizeSummary: RopeSummary {
  public var count = 0
  /// Items without a size of their own.
  public var unset = 0
  /// Exact sums: the same whatever the tree's shape (see ExactSum).
  public var sumWidth = ExactSum.zero
  public var sumHeight = ExactSum.zero
  public var minWidth = Double.infinity
  public var maxWidth = -Double.infinity
  public var minHeight = Double.infinity
  public var maxHeight = -Double.infinity

  public static var zero: SizeSummary { SizeSummary() }
  init() {}

  public init(_ elements: ArraySlice<Size>) {
    count = elements.count
    for s in elements {
      if s == Section.unsetSize {
        unset += 1
        continue
      }
      sumWidth += s.width
      sumHeight += s.height
      minWidth = Swift.min(minWidth, s.width)
      maxWidth = Swift.max(maxWidth, s.width)
      minHeight = Swift.min(minHeight, s.height)
      maxHeight = Swift.max(maxHeight, s.height)
    }
  }

  public static func + (a: SizeSummary, b: SizeSummary) -> SizeSummary {
    var r = SizeSummary()
    r.count = a.count + b.count
    r.unset = a.unset + b.unset
    r.sumWidth = a.sumWidth + b.sumWidth
    r.sumHeight = a.sumHeight + b.sumHeight
    r.minWidth = Swift.min(a.minWidth, b.minWidth)
    r.maxWidth = Swift.max(a.maxWidth, b.maxWidth)
    r.minHeight = Swift.min(a.minHeight, b.minHeight)
    r.maxHeight = Swift.max(a.maxHeight, b.maxHeight)
    return r
  }

  /// True when every item has the same size, items without one having
  /// `uniform`. O(1).
  func allEqual(uniform: Size) -> Bool {
    if unset == count { return true }
    guard minWidth == maxWidth && minHeight == maxHeight else { return false }
    return unset == 0 || (minWidth == uniform.width && minHeight == uniform.height)
  }
}

/// Item sizes, in order; `Section.unsetSize` marks an item without one.
public typealias SizeList = Rope<SizeSummary>
/// Item ids, in order.
public typealias IDList = Rope<CountSummary<ItemID?>>

/// Builds a rope from elements appended in order, a leaf at a time, so
/// that no array of every element is ever held. O(1) amortised per element.
struct RopeBuilder<S: RopeSummary> {
  private var leaves: [RopeNode<S>] = []
  private var pending: [S.Element] = []
  private let fill = Rope<S>.leafFill

  init() { pending.reserveCapacity(fill) }

  @inline(__always) mutating func append(_ element: S.Element) {
    pending.append(element)
    if pending.count == fill {
      leaves.append(RopeNode(elements: pending))
      pending.removeAll(keepingCapacity: true)
    }
  }

  /// The rope of everything appended. O(leaves).
  var rope: Rope<S> {
    var all = leaves
    if !pending.isEmpty { all.append(RopeNode(elements: pending)) }
    return Rope(leaves: all)
  }
}

/// `RopeBuilder` for the hottest loops (a waterfall's placing): the leaf
/// being filled is a raw buffer, so an append checks nothing but whether
/// the leaf is full. O(1) amortised per element.
final class LeafBuilder<S: RopeSummary> {
  @exclusivity(unchecked) private var leaves: [RopeNode<S>] = []
  private let pending: UnsafeMutablePointer<S.Element>
  @exclusivity(unchecked) private var pendingCount = 0
  private let fill = Rope<S>.leafFill

  init() { pending = .allocate(capacity: Rope<S>.leafFill) }

  deinit {
    pending.deinitialize(count: pendingCount)
    pending.deallocate()
  }

  @inline(__always) func append(_ element: S.Element) {
    (pending + pendingCount).initialize(to: element)
    pendingCount &+= 1
    if pendingCount == fill { flush() }
  }

  private func flush() {
    leaves.append(
      RopeNode(elements: Array(UnsafeBufferPointer(start: pending, count: pendingCount))))
    pending.deinitialize(count: pendingCount)
    pendingCount = 0
  }

  /// The rope of everything appended. O(leaves).
  var rope: Rope<S> {
    var all = leaves
    if pendingCount > 0 {
      all.append(
        RopeNode(elements: Array(UnsafeBufferPointer(start: pending, count: pendingCount))))
    }
    return Rope(leaves: all)
  }
}

/// Reads a rope forward from an index, a leaf at a time: O(log n) per
/// leaf, O(1) per element.
struct RopeCursor<S: RopeSummary> {
  let rope: Rope<S>
  private var elements: [S.Element] = []
  private var offset = 0
  /// The index of the next element.
  private(set) var index: Int

  init(_ rope: Rope<S>, at i: Int) {
    self.rope = rope
    index = i
    if i < rope.count { (elements, offset) = rope.leafElements(containing: i) }
  }

  /// The next element without consuming it, or nil at the end. O(1).
  var peek: S.Element? { offset < elements.count ? elements[offset] : nil }

  /// The next element, or nil at the end. O(1) amortised.
  mutating func next() -> S.Element? {
    guard offset < elements.count else { return nil }
    let e = elements[offset]
    offset += 1
    index += 1
    if offset == elements.count && index < rope.count {
      (elements, offset) = rope.leafElements(containing: index)
    }
    return e
  }
}
