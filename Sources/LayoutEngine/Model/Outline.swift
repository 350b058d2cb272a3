// Outlines (UIKit's NSDiffableDataSourceSectionSnapshot): a section as a
// forest. Every node is kept in pre-order with its level, its parent and
// the end of its subtree; the section's rows, which every kind lays out,
// are the visible nodes (all of whose ancestors are expanded) in that
// order. Expanding or collapsing a node changes one flag and answers the
// rows that appear or go: a walk of its subtree that jumps over each
// collapsed child's subtree, O(k) for k rows.

/// A node as a client gives it: its id, its size, whether it is expanded
/// (nil: as it was, or collapsed when new) and its children.
public struct OutlineNode: Equatable, Sendable {
  public var id: ItemID
  public var size: Size?
  public var expanded: Bool?
  public var children: [OutlineNode]
  public init(id: ItemID, size: Size? = nil, expanded: Bool? = nil, children: [OutlineNode] = []) {
    self.id = id
    self.size = size
    self.expanded = expanded
    self.children = children
  }
}

/// An outline row's place in its tree, as its attributes carry it. Plain
/// values only: attributes are copied by the frame, and an id (a string)
/// would make every copy retain; the answer looks its parent's id up.
public struct OutlineRow: Equatable, Sendable {
  /// Its depth: 0 for a root.
  public var level: Int
  /// Whether it is expanded; nil for a leaf.
  public var expanded: Bool?
}

/// Why an outline is refused: a node's place in the given forest (indices
/// from the roots down through `children`).
public enum OutlineError: Error, Equatable, Sendable {
  /// The node at `path` repeats an id given before it.
  case duplicateID(path: [Int])
}

/// One section's forest, in pre-order. Immutable once built but through
/// its flags; a section holds it boxed (`Section.outline`).
public struct Outline: Sendable {
  // The arrays live in one copy-on-write storage: an outline is copied
  // wherever a section is, and its rows' attributes read it every frame,
  // so a copy is one reference, not eight.
  private final class Storage: @unchecked Sendable {
    var ids: [ItemID] = []
    var sizes: [Size] = []
    var levels: [Int32] = []
    var parents: [Int32] = []
    var ends: [Int] = []
    var expandedFlags: [Bool] = []
    var positions: [ItemID: Int] = [:]
    var visibleCount = 0

    init() {}

    init(copying o: Storage) {
      (ids, sizes, levels, parents) = (o.ids, o.sizes, o.levels, o.parents)
      (ends, expandedFlags, positions, visibleCount) = (
        o.ends, o.expandedFlags, o.positions, o.visibleCount
      )
    }
  }
  private var storage = Storage()

  /// The storage, copied first when another outline shares it.
  private var unique: Storage {
    mutating get {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
      return storage
    }
  }

  public private(set) var ids: [ItemID] {
    _read { yield storage.ids }
    _modify { yield &unique.ids }
  }
  /// Each node's own size, `Section.unsetSize` when it has none.
  public private(set) var sizes: [Size] {
    _read { yield storage.sizes }
    _modify { yield &unique.sizes }
  }
  private var levels: [Int32] {
    _read { yield storage.levels }
    _modify { yield &unique.levels }
  }
  /// The parent's position, -1 for a root.
  private var parents: [Int32] {
    _read { yield storage.parents }
    _modify { yield &unique.parents }
  }
  /// Past the node's subtree: its descendants are `i + 1 ..< ends[i]`.
  private var ends: [Int] {
    _read { yield storage.ends }
    _modify { yield &unique.ends }
  }
  private var expandedFlags: [Bool] {
    _read { yield storage.expandedFlags }
    _modify { yield &unique.expandedFlags }
  }
  private var positions: [ItemID: Int] {
    _read { yield storage.positions }
    _modify { yield &unique.positions }
  }
  /// How many nodes are visible: the section's row count.
  public private(set) var visibleCount: Int {
    _read { yield storage.visibleCount }
    _modify { yield &unique.visibleCount }
  }

  public init() {}

  /// The forest `roots`, each node's flag and size as given, else as the
  /// first of `previous` that has the same id had it (an applied snapshot
  /// keeps them), else collapsed and unsized. O(nodes · previous).
  public init(_ roots: [OutlineNode], keeping previous: [Outline] = []) throws(OutlineError) {
    var path: [Int] = []
    try append(roots, level: 0, keeping: previous, path: &path)
    link()
  }

  /// Appends `nodes` and their subtrees in pre-order at `level`, taking
  /// missing flags and sizes from `previous`. `path` is the place of the
  /// nodes' parent in what the client gave, for a duplicate's error.
  private mutating func append(
    _ nodes: [OutlineNode], level: Int32, keeping previous: [Outline], path: inout [Int]
  ) throws(OutlineError) {
    for (c, node) in nodes.enumerated() {
      path.append(c)
      guard positions.updateValue(ids.count, forKey: node.id) == nil else {
        throw .duplicateID(path: path)
      }
      var old: (Outline, Int)? = nil
      if node.size == nil || node.expanded == nil {
        for o in previous {
          if let j = o.positions[node.id] {
            old = (o, j)
            break
          }
        }
      }
      ids.append(node.id)
      sizes.append(node.size ?? old.map { $0.0.sizes[$0.1] } ?? Section.unsetSize)
      levels.append(level)
      expandedFlags.append(node.expanded ?? old.map { $0.0.expandedFlags[$0.1] } ?? false)
      try append(node.children, level: level + 1, keeping: previous, path: &path)
      path.removeLast()
    }
  }

  /// Appends old nodes `range` of `o` as they are, `shift` levels deeper.
  private mutating func append(_ range: Range<Int>, of o: Outline, shift: Int32 = 0) {
    for j in range {
      positions[o.ids[j]] = ids.count
      ids.append(o.ids[j])
      sizes.append(o.sizes[j])
      levels.append(o.levels[j] + shift)
      expandedFlags.append(o.expandedFlags[j])
    }
  }

  /// Parents, subtree ends and the visible count from the levels in
  /// pre-order: a stack of the open ancestors. O(nodes).
  private mutating func link() {
    parents = []
    parents.reserveCapacity(ids.count)
    ends = [Int](repeating: ids.count, count: ids.count)
    var open: [Int] = []
    for i in ids.indices {
      while open.count > Int(levels[i]) { ends[open.removeLast()] = i }
      parents.append(open.last.map { Int32($0) } ?? -1)
      open.append(i)
    }
    visibleCount = 0
    forEachVisible(from: 0, to: ids.count) { _ in visibleCount += 1 }
  }

  /// A piece of a spliced forest: old nodes kept, or new ones at a level.
  public enum Piece {
    case kept(Range<Int>)
    /// Whole subtrees kept, moved `by` levels (a dragged node's).
    case shifted(Range<Int>, by: Int)
    case given([OutlineNode], level: Int)
  }

  /// The forest made of `pieces` in order: whole subtrees of this one,
  /// and given nodes whose missing flags and sizes come from this one
  /// (children that reuse ids of the subtree they replace). The pieces
  /// must make a pre-order: each level at most one deeper than the node
  /// before it. A duplicate among the given nodes is named from their
  /// roots. O(nodes).
  public func splicing(_ pieces: [Piece]) throws(OutlineError) -> Outline {
    var r = Outline()
    r.positions.reserveCapacity(count)
    for piece in pieces {
      switch piece {
      case .kept(let range): r.append(range, of: self)
      case .shifted(let range, let by): r.append(range, of: self, shift: Int32(by))
      case .given(let nodes, let level):
        var path: [Int] = []
        try r.append(nodes, level: Int32(level), keeping: [self], path: &path)
      }
    }
    r.link()
    return r
  }

  /// The nodes of `from ..< to` (whole subtrees) whose ancestors within it
  /// are expanded, in pre-order: a collapsed node's subtree is jumped over
  /// by its end. O(k) for k of them.
  @inline(__always)
  private func forEachVisible(from: Int, to end: Int, _ body: (Int) -> Void) {
    var j = from
    while j < end {
      body(j)
      j = expandedFlags[j] ? j + 1 : ends[j]
    }
  }

  public var count: Int { ids.count }

  /// The node with `id`, or nil. O(1) expected.
  public func position(of id: ItemID) -> Int? { positions[id] }

  /// The node's depth: 0 for a root. O(1).
  public func level(_ i: Int) -> Int { Int(levels[i]) }

  /// The parent's position, or nil for a root. O(1).
  public func parent(_ i: Int) -> Int? { parents[i] < 0 ? nil : Int(parents[i]) }

  public func isExpanded(_ i: Int) -> Bool { expandedFlags[i] }

  public func hasChildren(_ i: Int) -> Bool { ends[i] > i + 1 }

  /// Past node `i`'s subtree: its descendants are `i + 1 ..< subtreeEnd(i)`.
  /// O(1).
  public func subtreeEnd(_ i: Int) -> Int { ends[i] }

  /// Node `i` as its row's attributes carry it. O(1).
  public func row(_ i: Int) -> OutlineRow {
    OutlineRow(level: Int(levels[i]), expanded: hasChildren(i) ? expandedFlags[i] : nil)
  }

  /// The id of the parent of the node with `id`, or nil (a root, or no
  /// such node). O(1) expected.
  public func parentID(of id: ItemID) -> ItemID? {
    guard let i = positions[id], let p = parent(i) else { return nil }
    return ids[p]
  }

  /// The level of the node with `id`, 0 when there is none. O(1) expected.
  public func level(of id: ItemID?) -> Int {
    guard let id, let i = positions[id] else { return 0 }
    return Int(levels[i])
  }

  /// Replaces node `i`'s own size (a row measured before it was hidden
  /// keeps its size). O(1).
  public mutating func setSize(_ i: Int, _ size: Size) { sizes[i] = size }

  /// Whether every ancestor is expanded. O(level).
  public func isVisible(_ i: Int) -> Bool {
    var p = parents[i]
    while p >= 0 {
      if !expandedFlags[Int(p)] { return false }
      p = parents[Int(p)]
    }
    return true
  }

  /// The node of visible row `r`. O(rows before it).
  public func node(atRow r: Int) -> Int? {
    var k = 0
    var j = 0
    while j < ids.count {
      if k == r { return j }
      k += 1
      j = expandedFlags[j] ? j + 1 : ends[j]
    }
    return nil
  }

  /// The visible nodes of `i`'s subtree below it, were `i` expanded, in
  /// pre-order. O(k) for k of them.
  public func visibleDescendants(of i: Int) -> [Int] {
    var out: [Int] = []
    forEachVisible(from: i + 1, to: ends[i]) { out.append($0) }
    return out
  }

  /// How many of `i`'s descendants would be visible were `i` expanded.
  /// O(k).
  public func visibleDescendantCount(of i: Int) -> Int {
    var k = 0
    forEachVisible(from: i + 1, to: ends[i]) { _ in k += 1 }
    return k
  }

  /// Node `j` as a batch inserts its row: its id, and its own size if it
  /// has one. O(1).
  public func item(_ j: Int) -> Item {
    Item(size: sizes[j] == Section.unsetSize ? nil : sizes[j], id: ids[j])
  }

  /// The visible nodes, in pre-order: the section's rows. O(rows).
  public func visibleNodes() -> [Int] {
    var out: [Int] = []
    out.reserveCapacity(visibleCount)
    forEachVisible(from: 0, to: ids.count) { out.append($0) }
    return out
  }

  /// Sets node `i`'s flag; when it and its ancestors are visible, answers
  /// the rows that appear (expanding) or go (collapsing), which follow its
  /// own row. O(level + k).
  public mutating func setExpanded(_ i: Int, _ expanded: Bool) -> [Int] {
    guard expandedFlags[i] != expanded else { return [] }
    let rows = isVisible(i) ? visibleDescendants(of: i) : []
    expandedFlags[i] = expanded
    visibleCount += expanded ? rows.count : -rows.count
    return rows
  }

  /// The forest with `children` as node `i`'s first children (it has
  /// none): a lazily loaded subtree. O(nodes).
  public func givingChildren(_ children: [OutlineNode], to i: Int) throws(OutlineError) -> Outline {
    try splicing([.kept(0..<i + 1), .given(children, level: level(i) + 1), .kept(i + 1..<count)])
  }

  /// The child indices from the roots down to node `i`. O(nodes before
  /// it).
  public func childPath(_ i: Int) -> [Int] {
    var chain: [Int] = []
    var n = i
    while true {
      let p = parents[n]
      // n's index among its siblings: count the siblings before it.
      var k = 0
      var s = p < 0 ? 0 : Int(p) + 1
      while s < n {
        k += 1
        s = ends[s]
      }
      chain.append(k)
      if p < 0 { break }
      n = Int(p)
    }
    return chain.reversed()
  }

  /// The whole forest, with every node's flag and size. O(nodes).
  public func tree() -> [OutlineNode] {
    func nodes(_ from: Int, _ end: Int) -> [OutlineNode] {
      var out: [OutlineNode] = []
      var j = from
      while j < end {
        out.append(
          OutlineNode(
            id: ids[j], size: sizes[j] == Section.unsetSize ? nil : sizes[j],
            expanded: expandedFlags[j], children: nodes(j + 1, ends[j])))
        j = ends[j]
      }
      return out
    }
    return nodes(0, ids.count)
  }

  /// The first broken invariant, or nil: parents before their children,
  /// levels one deeper than the parent's, subtrees nested, the index
  /// matching, and the visible count. O(nodes).
  public func invariantViolation() -> String? {
    guard
      sizes.count == ids.count && levels.count == ids.count && parents.count == ids.count
        && ends.count == ids.count && expandedFlags.count == ids.count
        && positions.count == ids.count
    else { return "the outline's arrays differ in length" }
    for i in ids.indices {
      if positions[ids[i]] != i { return "node \(i)'s id is not indexed at it" }
      if !(ends[i] > i && ends[i] <= ids.count) { return "node \(i)'s subtree ends at \(ends[i])" }
      if let p = parent(i) {
        if !(p < i && ends[i] <= ends[p]) { return "node \(i) lies outside its parent \(p)" }
        if levels[i] != levels[p] + 1 { return "node \(i)'s level is not its parent's + 1" }
      } else if levels[i] != 0 {
        return "root \(i) has level \(levels[i])"
      }
    }
    return visibleNodes().count == visibleCount ? nil : "the visible count is stale"
  }
}

extension Outline: Equatable {
  public static func == (a: Outline, b: Outline) -> Bool {
    a.ids == b.ids && a.sizes == b.sizes && a.levels == b.levels && a.ends == b.ends
      && a.expandedFlags == b.expandedFlags
  }
}

extension Outline {
  /// The arrays a walk over rows reads, held apart from the storage so
  /// that each read is a plain array's (the storage's are checked for
  /// exclusive access). O(1): five references.
  struct Reader {
    let ids: [ItemID]
    let levels: [Int32]
    let ends: [Int]
    let expandedFlags: [Bool]
    let positions: [ItemID: Int]
  }

  var reader: Reader {
    Reader(
      ids: ids, levels: levels, ends: ends, expandedFlags: expandedFlags, positions: positions)
  }
}

/// The nodes of an outline section's rows, met in increasing row order as
/// a walk meets them. The next row's id comes from a cursor over the
/// section's ids (O(1) amortised; a jump O(log n)); its node is the
/// tree's next visible node after the previous row's when that node has
/// the id (O(1)), and is looked up by the id otherwise (O(1) expected):
/// rows need not be the tree's visible order (a drag's preview moves
/// them). A frame over an outline then costs what it costs over the same
/// rows without one.
struct OutlineRowCursor {
  private let box: OutlineBox
  private let rows: IDList
  private var ids: RopeCursor<CountSummary<ItemID?>>? = nil
  /// The last row asked for and its node, asked again for its separators
  /// and its cell.
  private var last: (row: Int, node: Int?) = (-1, nil)

  /// A cursor over a section's rows, nil for a flat section. O(1).
  init?(_ outline: OutlineBox?, ids: IDList?) {
    guard let outline, let ids else { return nil }
    box = outline
    rows = ids
  }

  /// Row `j`'s node, or nil when its id is not in the tree.
  @inline(__always) mutating func node(ofRow j: Int) -> Int? {
    if j == last.row { return last.node }
    let previous = j == last.row + 1 ? last.node : nil
    if j != ids?.index { ids = RopeCursor(rows, at: j) }
    var node: Int? = nil
    if let id = ids!.next() ?? nil {
      // Read through the box, not a copy: a copy of the arrays would
      // retain and release each of them, row by row.
      if let p = previous {
        let next = box.reader.expandedFlags[p] ? p + 1 : box.reader.ends[p]
        if next < box.reader.ids.count && box.reader.ids[next] == id { node = next }
      }
      if node == nil { node = box.reader.positions[id] }
    }
    last = (j, node)
    return node
  }

  /// Row `j`'s level: 0 when its id is not in the tree.
  @inline(__always) mutating func level(_ j: Int) -> Int {
    node(ofRow: j).map { Int(box.reader.levels[$0]) } ?? 0
  }

  /// Row `j`'s level and expanded flag, as its cell carries them.
  @inline(__always) mutating func row(_ j: Int) -> OutlineRow? {
    node(ofRow: j).map { i in
      OutlineRow(
        level: Int(box.reader.levels[i]),
        expanded: box.reader.ends[i] > i + 1 ? box.reader.expandedFlags[i] : nil)
    }
  }
}
