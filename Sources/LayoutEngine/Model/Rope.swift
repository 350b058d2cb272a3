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
  /// The summary of `count` copies of `element` in O(1), or nil when the
  /// summary cannot be taken that way: then the rope never stores runs.
  static func repeating(_ element: Element, count: Int) -> Self?
  /// The summary of `count` elements cycling through `cycle` (a waterfall's
  /// columns in a uniform stretch), or nil when not taken in O(cycle).
  /// Runs of one element need only `repeating(_:count:)`.
  static func repeating(cycle: ArraySlice<Element>, count: Int) -> Self?
  /// Whether two elements are the same, bit for bit (false when unknown):
  /// an edit that puts an element into a run of the same one keeps the run.
  static func isSame(_ a: Element, _ b: Element) -> Bool
}

extension RopeSummary {
  public static var leafScale: Int { 1 }
  public static func repeating(_ element: Element, count: Int) -> Self? { nil }
  public static func repeating(cycle: ArraySlice<Element>, count: Int) -> Self? {
    cycle.count == 1 ? repeating(cycle[cycle.startIndex], count: count) : nil
  }
  public static func isSame(_ a: Element, _ b: Element) -> Bool { false }
}

/// The elements of one leaf: an array, or a run leaf: one element repeated
/// (a stretch of equal sizes or lines in O(1) memory), or a cycle of them
/// (a waterfall's columns in a uniform stretch). Walks that must not visit
/// a run element by element test `run`; only ropes whose summary takes a
/// cycle's hold cycles.
public struct RopeLeaf<Element>: RandomAccessCollection {
  /// A plain leaf's elements, or a run's element (or cycle).
  let stored: [Element]
  /// A run's length in elements; 0 for a plain leaf.
  let repeats: Int

  @inline(__always) init(_ stored: [Element], repeats: Int) {
    self.stored = stored
    self.repeats = repeats
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { repeats > 0 ? repeats : stored.count }
  @inline(__always) public subscript(k: Int) -> Element {
    repeats > 0 ? stored[stored.count == 1 ? 0 : k % stored.count] : stored[k]
  }
  /// The repeated element of a run leaf of one element; nil otherwise.
  @inline(__always) var run: Element? { repeats > 0 && stored.count == 1 ? stored[0] : nil }
}

final class RopeNode<S: RopeSummary>: @unchecked Sendable {
  // Unchecked: a node is only mutated through `Rope.edit` after
  // isKnownUniquelyReferenced, so no access can overlap, and dynamic
  // checks (a thread-local access set) cost more than the reads they guard.
  @exclusivity(unchecked) var summary: S
  /// Leaves hold elements; inner nodes hold children. Never both.
  @exclusivity(unchecked) var elements: [S.Element]
  @exclusivity(unchecked) var children: [RopeNode<S>]
  /// A run leaf's length (its element or cycle repeated); 0 otherwise.
  @exclusivity(unchecked) var repeats = 0

  init(elements: [S.Element]) {
    self.elements = elements
    self.children = []
    self.summary = S(elements[...])
  }

  /// A run leaf: `count` elements cycling through `cycle` (S must take
  /// their summary).
  init(cycle: [S.Element], count: Int) {
    elements = cycle
    children = []
    repeats = count
    summary = S.repeating(cycle: cycle[...], count: count)!
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
    repeats = other.repeats
  }

  var isLeaf: Bool { children.isEmpty }

  /// A leaf's elements as a collection.
  @inline(__always) var leaf: RopeLeaf<S.Element> { RopeLeaf(elements, repeats: repeats) }

  func resummarize() {
    if repeats > 0 {
      summary = S.repeating(cycle: elements[...], count: repeats)!
      return
    }
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

  /// `count` copies of `element`: one run leaf, O(1) memory, when the
  /// summary can be taken in O(1) and the run outgrows a leaf. O(1) then,
  /// else O(count).
  public init(repeating element: Element, count: Int) {
    if count > Self.leafCapacity, S.repeating(element, count: 1) != nil {
      self.init(leaves: [RopeNode(cycle: [element], count: count)])
    } else {
      self.init(Array(repeating: element, count: count))
    }
  }

  /// A rope of `elements` in which every stretch of one element (by
  /// `S.isSame`) longer than a leaf is one run leaf, when the summary
  /// takes a run's. O(n).
  public init(compacting elements: [Element]) {
    guard let first = elements.first, S.repeating(first, count: 1) != nil else {
      self.init(elements)
      return
    }
    var builder = RopeBuilder<S>()
    var i = 0
    while i < elements.count {
      var j = i + 1
      while j < elements.count && S.isSame(elements[j], elements[i]) { j += 1 }
      if j - i > Self.leafCapacity {
        builder.append(repeating: elements[i], count: j - i)
      } else {
        for k in i..<j { builder.append(elements[k]) }
      }
      i = j
    }
    self = builder.rope
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
      // By index: a `for child in` binds (retains) every child it passes.
      var k = 0
      let last = node.children.count - 1
      while k < last {
        let c = node.children[k].summary.count
        if i < c { break }
        i -= c
        k += 1
      }
      node = node.children[k]
    }
    return node.repeats > 0 ? node.elements[i % node.elements.count] : node.elements[i]
  }

  /// The summary of the elements before the leaf holding element `i` (the
  /// last leaf when `i == count`), that leaf's elements, and `i`'s offset
  /// in it. O(log n).
  func leaf(containing i: Int) -> (before: S, elements: RopeLeaf<Element>, offset: Int) {
    leaf(containing: i, prefix: S.zero, adding: +)
  }

  /// The leaf holding element `i` and `i`'s offset in it, found by counts
  /// alone, for readers that never look at the summary before it. O(log n).
  @inline(__always)
  func leafElements(containing i: Int) -> (elements: RopeLeaf<Element>, offset: Int) {
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
    -> (before: A, elements: RopeLeaf<Element>, offset: Int)
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
    return (acc, node.leaf, i)
  }

  /// Descends to the first leaf whose running summary (everything up to
  /// and including it) satisfies `pred`, which must be monotone along the
  /// rope. Returns the summary before that leaf, the leaf and the index of
  /// its first element; nil when no prefix satisfies `pred`. O(log n).
  func descend(_ pred: (S) -> Bool) -> (before: S, elements: RopeLeaf<Element>, first: Int)? {
    descend(prefix: S.zero, adding: +, where: pred)
  }

  /// `descend` with the prefix accumulated from `zero` by `add` (see
  /// `leaf(containing:prefix:adding:)`), which `pred` tests. O(log n).
  @inline(__always)
  func descend<A>(prefix zero: A, adding add: (A, S) -> A, where pred: (A) -> Bool)
    -> (before: A, elements: RopeLeaf<Element>, first: Int)?
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
    return (acc, node.leaf, first)
  }

  /// Calls `body` with each leaf from the one holding element `i` on, with
  /// the summary before it and the index of its first element, until
  /// `body` returns false. Prefixes match `leaf(containing:)` bit for bit.
  /// O(log n + leaves visited).
  func forEachLeaf(from i: Int, _ body: (S, RopeLeaf<Element>, Int) -> Bool) {
    var acc = S.zero
    func visit(_ node: RopeNode<S>, skip: Int) -> Bool {
      if node.isLeaf {
        if node.elements.isEmpty { return true }
        guard body(acc, node.leaf, acc.count) else { return false }
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
    graft(Self.edit(&root, at: i, removing: 1, inserting: [value][...]))
  }

  /// Inserts `count` copies of `element` at `i`: one run leaf when the
  /// summary allows and the run outgrows a leaf, spliced in with the leaf
  /// at `i` split around it. O(log n + leafCapacity) then, else as
  /// `insert(contentsOf:at:)`.
  public mutating func insert(repeating element: Element, count: Int, at i: Int) {
    insert(cycling: [element], count: count, at: i)
  }

  /// Inserts `count` elements cycling through `cycle` at `i`, as
  /// `insert(repeating:count:at:)` does one element. O(log n + leafCapacity
  /// + cycle) when the summary takes the cycle's, else O(count).
  public mutating func insert(cycling cycle: [Element], count: Int, at i: Int) {
    precondition(i >= 0 && i <= self.count, "Rope index out of range")
    guard count > Self.leafCapacity, !cycle.isEmpty,
      S.repeating(cycle: cycle[...], count: 1) != nil
    else {
      insert(contentsOf: (0..<count).map { cycle[$0 % cycle.count] }, at: i)
      return
    }
    if self.count == 0 {
      root = RopeNode(cycle: cycle, count: count)
      return
    }
    graft(Self.edit(&root, at: i, removing: 0, inserting: [], run: (cycle, count)))
  }

  /// Inserts every element of `other` at `i`, its runs as runs.
  /// O(other's leaves · (log n + leafCapacity)).
  public mutating func insert(contentsOf other: Rope, at i: Int) {
    var at = i
    other.forEachLeaf(from: 0) { _, leaf, _ in
      if leaf.repeats > 0 {
        insert(cycling: leaf.stored, count: leaf.repeats, at: at)
      } else {
        insert(contentsOf: leaf.stored, at: at)
      }
      at += leaf.count
      return true
    }
  }

  /// Inserts `elements` at `i`. O(log n + leafCapacity) per leaf's worth.
  public mutating func insert(contentsOf elements: [Element], at i: Int) {
    precondition(i >= 0 && i <= count, "Rope index out of range")
    if i == count {
      append(contentsOf: elements)
      return
    }
    if insertAsLeaves(elements, at: i) { return }
    insertPieces(elements, at: i)
  }

  /// `elements` at `i` (not the end) a bulk-built leaf's fill at a time.
  private mutating func insertPieces(_ elements: [Element], at i: Int) {
    var at = i
    var start = 0
    // Pieces of a bulk-built leaf's fill: appending one to a leaf that
    // holds as much splits it into two such leaves, so a rope grown at its
    // end stays as dense as one built at once.
    let piece = Self.leafFill
    while start < elements.count {
      let end = Swift.min(start + piece, elements.count)
      graft(Self.edit(&root, at: at, removing: 0, inserting: elements[start..<end]))
      at += end - start
      start = end
    }
  }

  /// `insert(contentsOf:at:)` of any collection (a lazy map of another
  /// list: its elements are copied once, into the leaves). O(log n + k).
  public mutating func insert<C: Collection>(contentsOf elements: C, at i: Int)
  where C.Element == Element {
    precondition(i >= 0 && i <= count, "Rope index out of range")
    if i == count {
      append(contentsOf: Array(elements))
    } else if !insertAsLeaves(elements, at: i) {
      insertPieces(Array(elements), at: i)
    }
  }

  /// Many elements go in as whole new leaves between the two halves of the
  /// leaf at `i` (an expanded outline's hundred thousand rows), not leaf by
  /// leaf through it; false, with nothing changed, for a few, a rope of one
  /// leaf, or `i` inside a run leaf. O(log n + k).
  private mutating func insertAsLeaves<C: Collection>(_ elements: C, at i: Int) -> Bool
  where C.Element == Element {
    guard elements.count >= 4 * Self.leafFill, !root.isLeaf else { return false }
    var leaves: [RopeNode<S>] = []
    leaves.reserveCapacity(elements.count / Self.leafFill + 1)
    var start = elements.startIndex
    while start != elements.endIndex {
      let end =
        elements.index(start, offsetBy: Self.leafFill, limitedBy: elements.endIndex)
        ?? elements.endIndex
      leaves.append(RopeNode<S>(elements: Array(elements[start..<end])))
      start = end
    }
    guard let extra = Self.insertLeaves(&root, at: i, leaves) else { return false }
    graft(extra)
    return true
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
    // A run leaf takes no more elements.
    let room = last.repeats > 0 ? 0 : fill - last.elements.count
    var start = Swift.min(elements.count, Swift.max(0, room))
    if start > 0 {
      graft(Self.edit(&root, at: count, removing: 0, inserting: elements[0..<start]))
    }
    while start < elements.count {
      let end = Swift.min(start + fill, elements.count)
      let leaf = RopeNode<S>(elements: Array(elements[start..<end]))
      if root.isLeaf {
        root = root.elements.isEmpty ? leaf : RopeNode(children: [root, leaf])
      } else {
        Self.appendLeaf(&root, leaf)
        if let sibling = Self.splitIfNeeded(root) { graft([sibling]) }
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
        if node.repeats > 0 {
          if node.elements.isEmpty { return "a run leaf of nothing" }
          if node.repeats <= Self.leafCapacity { return "a run leaf of a leaf's size" }
        } else if node.elements.count > Self.leafCapacity {
          return "a leaf over capacity"
        }
        if node.elements.isEmpty && node !== root { return "an empty leaf" }
        if let d = leafDepth, d != depth { return "leaves at depths \(d) and \(depth)" }
        leafDepth = depth
        let fresh =
          node.repeats > 0
          ? S.repeating(cycle: node.elements[...], count: node.repeats)! : S(node.elements[...])
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
    // Whole leaves and subtrees inside the range go at once (a collapsed
    // outline's hundred thousand rows); what is left of it, the partly
    // covered leaves at its ends, is contiguous at its start.
    if remaining > 2 * Self.leafCapacity, !root.isLeaf {
      remaining -= Self.dropCovered(&root, range.lowerBound, range.upperBound)
      if !root.isLeaf && root.children.isEmpty { root = RopeNode(elements: []) }
    }
    while remaining > 0 {
      // Remove from the end of the range backwards, a leaf at a time.
      let end = range.lowerBound + remaining
      let offset = leaf(containing: end - 1).offset
      let take = Swift.min(remaining, offset + 1)
      graft(Self.edit(&root, at: end - take, removing: take, inserting: []))
      remaining -= take
    }
    // A root with one inner child adds a level for nothing.
    while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
  }

  public mutating func remove(at i: Int) { removeSubrange(i..<(i + 1)) }

  /// Drops the children of `node` (an inner node) wholly inside `lo ..<
  /// hi`, at any depth, and the inner nodes left empty; answers how many
  /// elements went. O(log n · fanout + nodes dropped).
  private static func dropCovered(_ node: inout RopeNode<S>, _ lo: Int, _ hi: Int) -> Int {
    if !isKnownUniquelyReferenced(&node) { node = RopeNode(copying: node) }
    var dropped = 0
    var start = 0
    var kept: [RopeNode<S>] = []
    kept.reserveCapacity(node.children.count)
    for var child in node.children {
      let c = child.summary.count
      let end = start + c
      if lo <= start && end <= hi {
        dropped += c
      } else if !child.isLeaf && start < hi && lo < end {
        dropped += dropCovered(&child, lo - start, hi - start)
        if !child.children.isEmpty { kept.append(child) }
      } else {
        kept.append(child)
      }
      start = end
    }
    node.children = kept
    node.resummarize()
    return dropped
  }

  /// Replaces the elements of `range` with `other`'s. When the range lies
  /// in one plain leaf and `other` is one plain leaf of at most a bulk
  /// leaf's fill (an edit's usual case: a few items re-placed), that is
  /// one edit down one path; otherwise a removal and an insert.
  /// - Complexity: O(log n + leafCapacity) in the first case; otherwise
  ///   those of `removeSubrange` and `insert(contentsOf:at:)`.
  public mutating func replaceSubrange(_ range: Range<Int>, with other: Rope) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "Rope range out of range")
    if !range.isEmpty, other.root.isLeaf, other.root.repeats == 0,
      other.count <= Self.leafFill
    {
      let (leaf, offset) = leafElements(containing: range.lowerBound)
      if leaf.repeats == 0 && offset + range.count <= leaf.count {
        graft(
          Self.edit(
            &root, at: range.lowerBound, removing: range.count,
            inserting: other.root.elements[...]))
        while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
        return
      }
    }
    removeSubrange(range)
    insert(contentsOf: other, at: range.lowerBound)
  }

  /// Nodes an edit returned to go after the root: a new root above them.
  /// Puts the nodes an edit left beside the root under a new root, with
  /// new levels until one root holds them all.
  private mutating func graft(_ siblings: [RopeNode<S>]) {
    guard !siblings.isEmpty else { return }
    var level = [root] + siblings
    while level.count > Self.fanout {
      level = Self.groups(of: level, size: Self.fanout) { RopeNode(children: Array($0)) }
    }
    root = RopeNode(children: level)
  }

  /// Puts `leaves` at element `i` under `node` (an inner node), between the
  /// two halves of the plain leaf holding `i`, or at a leaf boundary;
  /// splits overfull nodes on the way up, answering the nodes to put after
  /// `node`. Nil, its elements unchanged, when `i` falls inside a run leaf.
  /// O(log n + leaves).
  private static func insertLeaves(
    _ node: inout RopeNode<S>, at i: Int, _ leaves: [RopeNode<S>]
  ) -> [RopeNode<S>]? {
    var k = 0
    var offset = i
    while k < node.children.count - 1 {
      let c = node.children[k].summary.count
      if offset <= c { break }
      offset -= c
      k += 1
    }
    let n = node.children[k].summary.count
    let inside = offset > 0 && offset < n
    if node.children[k].isLeaf && inside && node.children[k].repeats > 0 { return nil }
    if !isKnownUniquelyReferenced(&node) { node = RopeNode(copying: node) }
    if !node.children[k].isLeaf {
      guard let added = insertLeaves(&node.children[k], at: offset, leaves) else { return nil }
      node.children.insert(contentsOf: added, at: k + 1)
    } else if !inside {
      node.children.insert(contentsOf: leaves, at: offset == 0 ? k : k + 1)
    } else {
      let elements = node.children[k].elements
      let left = RopeNode<S>(elements: Array(elements[..<offset]))
      let right = RopeNode<S>(elements: Array(elements[offset...]))
      node.children.replaceSubrange(k...k, with: [left] + leaves + [right])
    }
    guard node.children.count > fanout else {
      node.resummarize()
      return []
    }
    // Overfull: full nodes from the left, this one the first.
    let parts = groups(of: node.children, size: fanout) { RopeNode(children: Array($0)) }
    node = parts[0]
    return Array(parts.dropFirst())
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
  /// `inserting` and then `run`, copying shared nodes on the way down.
  /// Returns the nodes to put after `node`: an overfull node's right half,
  /// or the leaves a run leaf's edit leaves; an emptied child is dropped.
  private static func edit(
    _ node: inout RopeNode<S>, at i: Int, removing: Int, inserting: ArraySlice<Element>,
    run: (cycle: [Element], count: Int)? = nil
  ) -> [RopeNode<S>] {
    if !isKnownUniquelyReferenced(&node) { node = RopeNode(copying: node) }
    if node.isLeaf {
      if node.repeats > 0 || run != nil {
        return editPieces(node, at: i, removing: removing, inserting: inserting, run: run)
      }
      node.elements.replaceSubrange(i..<(i + removing), with: inserting)
      node.resummarize()
      return splitIfNeeded(node).map { [$0] } ?? []
    }
    // The child holding i; an insert at a child boundary goes to the
    // earlier child, so appends land in the last leaf.
    var k = 0
    var offset = i
    let inserts = removing == 0
    while k < node.children.count - 1 {
      let c = node.children[k].summary.count
      if offset < c || (inserts && offset == c) { break }
      offset -= c
      k += 1
    }
    // Replacing elements at a run's start (or end) beside a plain leaf
    // with room: the new elements join that leaf and the run shrinks, so
    // measuring a uniform stretch item by item fills leaves instead of
    // splitting the run into a leaf per item.
    let added: [RopeNode<S>]
    if run == nil,
      let side = roomBeside(node, k, offset: offset, removing: removing, adding: inserting.count)
    {
      if !isKnownUniquelyReferenced(&node.children[side]) {
        node.children[side] = RopeNode(copying: node.children[side])
      }
      node.children[side].elements.insert(
        contentsOf: inserting, at: side < k ? node.children[side].elements.count : 0)
      node.children[side].resummarize()
      added =
        removing > 0 ? edit(&node.children[k], at: offset, removing: removing, inserting: []) : []
    } else {
      added = edit(
        &node.children[k], at: offset, removing: removing, inserting: inserting, run: run)
    }
    if !added.isEmpty {
      node.children.insert(contentsOf: added, at: k + 1)
    } else if node.children[k].summary.count == 0 && node.children.count > 1 {
      node.children.remove(at: k)
    }
    node.resummarize()
    return splitIfNeeded(node).map { [$0] } ?? []
  }

  /// The plain leaf beside run child `k` that can take `adding` elements
  /// replacing `removing` at `offset`: the leaf before it when they are
  /// the run's first, the leaf after when they are its last, the run left
  /// non-empty either way; nil otherwise.
  private static func roomBeside(
    _ node: RopeNode<S>, _ k: Int, offset: Int, removing: Int, adding: Int
  ) -> Int? {
    let child = node.children[k]
    guard child.repeats > 0 else { return nil }
    let n = child.summary.count
    let side: Int
    if offset == 0 && removing < n {
      side = k - 1
    } else if offset > 0 && offset + removing == n {
      side = k + 1
    } else {
      return nil
    }
    guard side >= 0 && side < node.children.count else { return nil }
    let leaf = node.children[side]
    return leaf.isLeaf && leaf.repeats == 0 && leaf.elements.count + adding <= leafCapacity
      ? side : nil
  }

  /// A stretch of a leaf being rebuilt: elements, or `count` elements of
  /// a cycle from its element `phase` on.
  private enum Piece {
    case elements(ArraySlice<Element>)
    case run([Element], phase: Int, count: Int)
  }

  /// `edit` on a run leaf, or inserting a run into a leaf: the leaf's
  /// elements before `i`, `inserting`, `run` and the elements after the
  /// removed ones, rebuilt into leaves: runs that outgrow a leaf stay runs
  /// (equal neighbours of one element joined), the rest go into plain
  /// leaves. `node` becomes the first leaf; the others are returned.
  /// O(leafCapacity + cycle).
  private static func editPieces(
    _ node: RopeNode<S>, at i: Int, removing: Int, inserting: ArraySlice<Element>,
    run: (cycle: [Element], count: Int)?
  ) -> [RopeNode<S>] {
    // A run of one element trimmed at either end stays one run leaf.
    if node.repeats > 0, node.elements.count == 1, inserting.isEmpty, run == nil,
      i == 0 || i + removing == node.repeats, node.repeats - removing > leafCapacity
    {
      node.repeats -= removing
      node.resummarize()
      return []
    }
    var pieces: [Piece] = []
    if node.repeats > 0 {
      let cycle = node.elements
      pieces.append(.run(cycle, phase: 0, count: i))
      pieces.append(.elements(inserting))
      if let run { pieces.append(.run(run.cycle, phase: 0, count: run.count)) }
      pieces.append(
        .run(cycle, phase: (i + removing) % cycle.count, count: node.repeats - i - removing))
    } else {
      pieces.append(.elements(node.elements[..<i]))
      pieces.append(.elements(inserting))
      if let run { pieces.append(.run(run.cycle, phase: 0, count: run.count)) }
      pieces.append(.elements(node.elements[(i + removing)...]))
    }
    // Join runs of one element, and elements equal to a neighbouring run.
    var joined: [Piece] = []
    for piece in pieces {
      switch piece {
      case .run(_, _, 0): continue
      case .elements(let e) where e.isEmpty: continue
      case .run(let c, _, let n) where c.count == 1:
        let v = c[0]
        if case .run(let u, _, let m)? = joined.last, u.count == 1, S.isSame(u[0], v) {
          joined[joined.count - 1] = .run(u, phase: 0, count: m + n)
        } else if case .elements(let e)? = joined.last, e.allSatisfy({ S.isSame($0, v) }) {
          joined[joined.count - 1] = .run(c, phase: 0, count: n + e.count)
        } else {
          joined.append(piece)
        }
      case .elements(let e):
        if case .run(let u, _, let m)? = joined.last, u.count == 1,
          e.allSatisfy({ S.isSame($0, u[0]) })
        {
          joined[joined.count - 1] = .run(u, phase: 0, count: m + e.count)
        } else {
          joined.append(piece)
        }
      default: joined.append(piece)
      }
    }
    var leaves: [RopeNode<S>] = []
    var pending: [Element] = []
    func flush() {
      guard !pending.isEmpty else { return }
      // Even leaves of at most leafCapacity.
      let parts = (pending.count + leafCapacity - 1) / leafCapacity
      for p in 0..<parts {
        let a = pending.count * p / parts
        let b = pending.count * (p + 1) / parts
        leaves.append(RopeNode(elements: Array(pending[a..<b])))
      }
      pending.removeAll()
    }
    for piece in joined {
      switch piece {
      case .run(let c, let phase, let n) where n > leafCapacity:
        flush()
        // The cycle turned to start at the run's first element.
        leaves.append(RopeNode(cycle: Array(c[phase...] + c[..<phase]), count: n))
      case .run(let c, let phase, let n):
        for k in 0..<n { pending.append(c[(phase + k) % c.count]) }
      case .elements(let e): pending.append(contentsOf: e)
      }
    }
    flush()
    guard let first = leaves.first else {
      node.elements = []
      node.repeats = 0
      node.resummarize()
      return []
    }
    node.elements = first.elements
    node.repeats = first.repeats
    node.summary = first.summary
    return Array(leaves.dropFirst())
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
  /// O(1) for copies of one rope, else O(plain elements + runs): two
  /// runs side by side are compared once.
  public static func == (a: Rope, b: Rope) -> Bool {
    if a.root === b.root { return true }
    guard a.count == b.count else { return false }
    var x = RopeCursor(a, at: 0)
    var y = RopeCursor(b, at: 0)
    while let u = x.peek, let v = y.peek {
      guard u == v else { return false }
      let step = Swift.max(1, Swift.min(x.runRemaining, y.runRemaining))
      x.skip(step)
      y.skip(step)
    }
    return true
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

  /// `count` copies of `size`, summed exactly as one by one. O(1).
  public static func repeating(_ size: Size, count: Int) -> SizeSummary? {
    var r = SizeSummary()
    r.count = count
    guard count > 0 else { return r }
    if size == Section.unsetSize {
      r.unset = count
      return r
    }
    r.sumWidth = ExactSum(size.width).times(count)
    r.sumHeight = ExactSum(size.height).times(count)
    r.minWidth = size.width
    r.maxWidth = size.width
    r.minHeight = size.height
    r.maxHeight = size.height
    return r
  }

  public static func isSame(_ a: Size, _ b: Size) -> Bool {
    a.width.bitPattern == b.width.bitPattern && a.height.bitPattern == b.height.bitPattern
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

  /// Appends `count` copies of `element`: one run leaf when it outgrows a
  /// leaf and S allows, else one by one. O(1) then, else O(count).
  mutating func append(repeating element: S.Element, count: Int) {
    guard count > Rope<S>.leafCapacity, S.repeating(element, count: 1) != nil else {
      for _ in 0..<count { append(element) }
      return
    }
    if !pending.isEmpty {
      leaves.append(RopeNode(elements: pending))
      pending.removeAll(keepingCapacity: true)
    }
    leaves.append(RopeNode(cycle: [element], count: count))
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
/// the leaf is full. It builds one rope per lane (a waterfall's columns):
/// the lanes' leaves being filled lie in one buffer and their counts in
/// another, so that appending to one of a thousand lanes reads no object
/// of its own (a builder per lane cost a cache miss per item). O(1)
/// amortised per element.
final class LeafBuilder<S: RopeSummary> {
  @exclusivity(unchecked) private var leaves: [[RopeNode<S>]]
  /// Lane k's leaf being filled starts at pending + k · fill.
  private let pending: UnsafeMutablePointer<S.Element>
  private let counts: UnsafeMutablePointer<Int>
  private let fill = Rope<S>.leafFill
  let lanes: Int

  init(lanes: Int = 1) {
    self.lanes = lanes
    leaves = Array(repeating: [], count: lanes)
    pending = .allocate(capacity: lanes * Rope<S>.leafFill)
    counts = .allocate(capacity: lanes)
    counts.initialize(repeating: 0, count: lanes)
  }

  deinit {
    for k in 0..<lanes { (pending + k * fill).deinitialize(count: counts[k]) }
    pending.deallocate()
    counts.deallocate()
  }

  @inline(__always) func append(_ element: S.Element, lane k: Int = 0) {
    let c = counts[k]
    (pending + (k &* fill &+ c)).initialize(to: element)
    counts[k] = c &+ 1
    if c &+ 1 == fill { flush(k) }
  }

  private func flush(_ k: Int) {
    let start = pending + k * fill
    leaves[k].append(RopeNode(elements: Array(UnsafeBufferPointer(start: start, count: counts[k]))))
    start.deinitialize(count: counts[k])
    counts[k] = 0
  }

  /// Appends `count` elements cycling through `cycle` to lane `k`: one run
  /// leaf when they outgrow a leaf and S takes the cycle's summary, else
  /// one by one. O(cycle) then, else O(count).
  func append(cycling cycle: [S.Element], count: Int, lane k: Int = 0) {
    guard count > Rope<S>.leafCapacity, S.repeating(cycle: cycle[...], count: 1) != nil else {
      for j in 0..<count { append(cycle[j % cycle.count], lane: k) }
      return
    }
    if counts[k] > 0 { flush(k) }
    leaves[k].append(RopeNode(cycle: cycle, count: count))
  }

  /// The rope of everything appended to lane `k`. O(leaves).
  func rope(lane k: Int = 0) -> Rope<S> {
    var all = leaves[k]
    if counts[k] > 0 {
      all.append(
        RopeNode(elements: Array(UnsafeBufferPointer(start: pending + k * fill, count: counts[k]))))
    }
    return Rope(leaves: all)
  }

  /// The rope of everything appended (one lane). O(leaves).
  var rope: Rope<S> { rope(lane: 0) }
}

/// Reads a rope forward from an index, a leaf at a time: O(log n) per
/// leaf, O(1) per element; a run is crossed in O(1) by `skip`.
struct RopeCursor<S: RopeSummary> {
  let rope: Rope<S>
  /// The current leaf's stored elements (a run's one), whether it is a
  /// run, and its length: read apart so that a step tests no more than
  /// a plain array's would.
  private var stored: [S.Element] = []
  private var isRun = false
  /// A run's cycle length (1 for a run of one element), and the next
  /// element's place in the cycle: counted, not divided for, per step.
  private var period = 1
  private var phase = 0
  private var end = 0
  private var offset = 0
  /// The index of the next element.
  private(set) var index: Int

  init(_ rope: Rope<S>, at i: Int) {
    self.rope = rope
    index = i
    if i < rope.count { load() }
  }

  private mutating func load() {
    let (leaf, o) = rope.leafElements(containing: index)
    (stored, isRun, end, offset) = (leaf.stored, leaf.repeats > 0, leaf.count, o)
    period = max(stored.count, 1)
    phase = isRun ? o % period : 0
  }

  /// The next element without consuming it, or nil at the end. O(1).
  var peek: S.Element? { offset < end ? stored[isRun ? phase : offset] : nil }

  /// How many elements from the next one on are copies of it in one run
  /// leaf (1 in a plain leaf, 0 at the end). O(1).
  var runRemaining: Int {
    guard offset < end else { return 0 }
    return isRun && period == 1 ? end - offset : 1
  }

  /// The next element, or nil at the end. O(1) amortised.
  @inline(__always) mutating func next() -> S.Element? {
    guard offset < end else { return nil }
    let e = stored[isRun ? phase : offset]
    offset += 1
    index += 1
    if isRun {
      phase += 1
      if phase == period { phase = 0 }
    }
    if offset == end && index < rope.count { load() }
    return e
  }

  /// Consumes `n` elements, at most to the end of the current leaf. O(1),
  /// or O(log n) when it enters the next leaf.
  mutating func skip(_ n: Int) {
    let n = Swift.min(n, end - offset)
    offset += n
    index += n
    if isRun { phase = (phase + n) % period }
    if offset == end && index < rope.count { load() }
  }
}
