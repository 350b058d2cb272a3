// Expanding and collapsing outline nodes: each is a flag of the section's
// tree and a batch of the rows that appear or go (UIKit's section
// snapshot expand and collapse), committed as any batch, so that the
// delta, the anchoring, the animations and a twin's `updates` follow.

/// Why an outline change is refused. The session is as it was.
public enum OutlineRefusal: Error, Equatable, Sendable {
  /// `ids[index]` names no node of the session's outlines.
  case unknownID(index: Int)
  /// `children` came with other than exactly one id.
  case childrenNeedOneNode
  /// `children` for a node that has children already.
  case hasChildren
  /// The node at `path` of the nodes given (indices from their roots
  /// down) repeats an id, or takes one the session has.
  case takenID(path: [Int])
  /// The parent or sibling named is no outline node of the session.
  case unknownNode
  /// The section index is not one of the session's.
  case noSection
  /// The section is flat: it has no tree to edit.
  case flatSection
  /// The parent named lies in this other section.
  case otherSection(Int)
}

/// An edit of outline nodes by id (UIKit's section snapshot append,
/// insert and delete, and replacing a parent's children): a change like
/// any batch, its rows diffed with the fewest moves.
public enum OutlineEdit: Sendable {
  /// `nodes` as the last children of `parent`, or as the last roots of
  /// `section` without one.
  case append(section: Int?, parent: ItemID?, nodes: [OutlineNode])
  /// `nodes` as siblings right before (or after) `sibling`.
  case insert(nodes: [OutlineNode], sibling: ItemID, after: Bool)
  /// Each node with its descendants.
  case delete([ItemID])
  /// `parent`'s subtree below it replaced by `nodes`, which may reuse its
  /// ids (a reused node keeps its flag and size unless given).
  case replaceChildren(parent: ItemID, nodes: [OutlineNode])
}

extension LiveLayout {
  /// The outline node with `id`: its section and its place in that
  /// section's tree, visible or not. O(sections) expected.
  public func outlineNode(_ id: ItemID) -> (section: Int, position: Int)? {
    for (s, section) in layout.sections.enumerated() {
      if let o = section.outline, let i = o.position(of: id) { return (s, i) }
    }
    return nil
  }

  /// The batch that expands (`flag`) or collapses the nodes `ids`, with
  /// each touched section's new tree; `children` first gives the one node
  /// its subtree. O(k + log n) for k rows with one node per section,
  /// O(rows of the section) with several.
  func outlineBatch(_ ids: [ItemID], expanding flag: Bool, children: [OutlineNode]?)
    throws(OutlineRefusal) -> (BatchUpdate, [Int: Outline])
  {
    var nodes: [(section: Int, position: Int)] = []
    for (k, id) in ids.enumerated() {
      guard let n = outlineNode(id) else { throw .unknownID(index: k) }
      nodes.append(n)
    }
    var outlines: [Int: Outline] = [:]
    if let children {
      guard nodes.count == 1 else { throw .childrenNeedOneNode }
      let (s, i) = nodes[0]
      outlines[s] = try grafting(children, onto: i, of: layout.sections[s].outline!)
    }
    var update = BatchUpdate()
    for s in Set(nodes.map(\.section)).sorted() {
      var o = outlines[s] ?? layout.sections[s].outline!
      let mine = nodes.filter { $0.section == s }.map(\.position)
      // The rows that appear (new indices) or go (old ones), with their
      // nodes.
      var changed: [(row: Int, node: Int)] = []
      if mine.count == 1 {
        // One node: its rows follow its own, which the id index finds.
        let i = mine[0]
        let rows = o.setExpanded(i, flag)
        if !rows.isEmpty, let r = path(of: o.ids[i])?.item {
          if flag {
            // Straight into the batch: a hundred thousand rows are not
            // listed twice.
            Self.inserting(rows, at: r + 1, of: o, section: s, into: &update)
          } else {
            changed = rows.enumerated().map { (r + 1 + $0.offset, $0.element) }
          }
        }
      } else {
        // Several: the visible rows before and after, merged.
        let before = o.visibleNodes()
        for i in mine { _ = o.setExpanded(i, flag) }
        let after = o.visibleNodes()
        let (long, short) = flag ? (after, before) : (before, after)
        var k = 0
        for (row, j) in long.enumerated() {
          if k < short.count && short[k] == j {
            k += 1
          } else {
            changed.append((row, j))
          }
        }
      }
      if flag {
        // Several nodes' rows: runs of consecutive rows.
        var k = 0
        while k < changed.count {
          var end = k + 1
          while end < changed.count && changed[end].row == changed[end - 1].row + 1 { end += 1 }
          Self.inserting(
            changed[k..<end].map(\.node), at: changed[k].row, of: o, section: s, into: &update)
          k = end
        }
      } else if let first = changed.first {
        // A row measured before it hides keeps its size: the rows' sizes
        // read in one walk from the first (ascending rows).
        update.deleteItems.reserveCapacity(update.deleteItems.count + changed.count)
        var k = 0
        var row = first.row
        if case .sizes(let sizes) = layout.sections[s].items {
          sizes.forEach(from: first.row) { size in
            if row == changed[k].row {
              o.setSize(changed[k].node, size)
              k += 1
            }
            row += 1
            return k < changed.count
          }
        }
        for (row, _) in changed { update.deleteItems.append(IndexPath(section: s, item: row)) }
      }
      outlines[s] = o
    }
    return (update, outlines)
  }

  /// Appends the inserts of nodes `nodes` of `o` as rows `at`, `at + 1`,
  /// … of section `s`, each with its id and own size. O(k).
  private static func inserting(
    _ nodes: [Int], at row: Int, of o: Outline, section s: Int, into u: inout BatchUpdate
  ) {
    u.insertItems.reserveCapacity(u.insertItems.count + nodes.count)
    for (k, j) in nodes.enumerated() {
      u.insertItems.append((IndexPath(section: s, item: row + k), o.item(j)))
    }
  }

  /// `o` with `children` as node `i`'s first subtree, the node collapsed
  /// in it so that expanding it reveals them. O(nodes of the section +
  /// nodes given).
  private func grafting(_ children: [OutlineNode], onto i: Int, of o: Outline)
    throws(OutlineRefusal) -> Outline
  {
    guard !o.hasChildren(i) else { throw .hasChildren }
    try checkTaken(children)
    var grown: Outline
    do { grown = try o.givingChildren(children, to: i) } catch { throw Self.taken(error) }
    _ = grown.setExpanded(i, false)
    return grown
  }

  /// Refuses a node given whose id the session has, but for nodes
  /// `reusable` of section `s`'s tree (the subtree being replaced).
  /// O(nodes given) expected.
  private func checkTaken(_ nodes: [OutlineNode], reusable: (s: Int, Range<Int>)? = nil)
    throws(OutlineRefusal)
  {
    var path: [Int] = []
    func check(_ nodes: [OutlineNode]) throws(OutlineRefusal) {
      for (c, n) in nodes.enumerated() {
        path.append(c)
        if let at = outlineNode(n.id) {
          guard let r = reusable, r.s == at.section, r.1.contains(at.position) else {
            throw .takenID(path: path)
          }
        } else if self.path(of: n.id) != nil {
          throw .takenID(path: path)
        }
        try check(n.children)
        path.removeLast()
      }
    }
    try check(nodes)
  }

  private static func taken(_ e: OutlineError) -> OutlineRefusal {
    guard case .duplicateID(let p) = e else { return .takenID(path: []) }
    return .takenID(path: p)
  }

  /// The batch of an outline edit, with each touched section's new tree:
  /// the tree spliced, then its visible rows diffed. O(nodes of the
  /// sections touched + rows changed · log rows).
  func outlineEditBatch(_ edit: OutlineEdit) throws(OutlineRefusal) -> (BatchUpdate, [Int: Outline])
  {
    // Each touched section with its new tree and the sizes given to nodes
    // that may already be rows (replaced children reusing ids).
    var changed: [(s: Int, tree: Outline, sized: [ItemID: Size])] = []
    func splice(_ s: Int, _ pieces: [Outline.Piece], sized: [ItemID: Size] = [:])
      throws(OutlineRefusal)
    {
      do { changed.append((s, try layout.sections[s].outline!.splicing(pieces), sized)) } catch {
        throw Self.taken(error)
      }
    }
    func node(_ id: ItemID) throws(OutlineRefusal) -> (Int, Int, Outline) {
      guard let n = outlineNode(id) else { throw .unknownNode }
      return (n.section, n.position, layout.sections[n.section].outline!)
    }
    switch edit {
    case .append(let section, let parent, let nodes):
      var (s, at, level) = (0, 0, 0)
      if let parent {
        let (ps, i, o) = try node(parent)
        if let section, section != ps { throw .otherSection(ps) }
        (s, at, level) = (ps, o.subtreeEnd(i), o.level(i) + 1)
      } else {
        guard let section, section >= 0, section < layout.sections.count else { throw .noSection }
        guard let o = layout.sections[section].outline else { throw .flatSection }
        (s, at) = (section, o.count)
      }
      try checkTaken(nodes)
      let count = layout.sections[s].outline!.count
      try splice(s, [.kept(0..<at), .given(nodes, level: level), .kept(at..<count)])

    case .insert(let nodes, let sibling, let after):
      let (s, i, o) = try node(sibling)
      try checkTaken(nodes)
      let at = after ? o.subtreeEnd(i) : i
      try splice(s, [.kept(0..<at), .given(nodes, level: o.level(i)), .kept(at..<o.count)])

    case .delete(let ids):
      var bySection: [Int: [Int]] = [:]
      for (k, id) in ids.enumerated() {
        guard let n = outlineNode(id) else { throw .unknownID(index: k) }
        bySection[n.section, default: []].append(n.position)
      }
      for (s, positions) in bySection.sorted(by: { $0.key < $1.key }) {
        let o = layout.sections[s].outline!
        // The kept runs between the deleted subtrees (a node inside one
        // deleted already goes with it).
        var pieces: [Outline.Piece] = []
        var next = 0
        for i in positions.sorted() where i >= next {
          pieces.append(.kept(next..<i))
          next = o.subtreeEnd(i)
        }
        pieces.append(.kept(next..<o.count))
        try splice(s, pieces)
      }

    case .replaceChildren(let parent, let nodes):
      let (s, i, o) = try node(parent)
      let end = o.subtreeEnd(i)
      try checkTaken(nodes, reusable: (s, i + 1..<end))
      var sized: [ItemID: Size] = [:]
      func collect(_ nodes: [OutlineNode]) {
        for n in nodes {
          if let size = n.size, let j = o.position(of: n.id), j > i, j < end { sized[n.id] = size }
          collect(n.children)
        }
      }
      collect(nodes)
      try splice(
        s, [.kept(0..<i + 1), .given(nodes, level: o.level(i) + 1), .kept(end..<o.count)],
        sized: sized)
    }
    var update = BatchUpdate()
    var outlines: [Int: Outline] = [:]
    for (s, tree, sized) in changed {
      var n = tree
      rowChanges(s, to: &n, sized: sized, into: &update)
      outlines[s] = n
    }
    update.deleteItems.sort()
    update.insertItems.sort { $0.path < $1.path }
    update.moveItems.sort { $0.to < $1.to }
    update.reconfigureItems.sort { $0.path < $1.path }
    return (update, outlines)
  }

  /// The batch that turns section `s`'s rows into the visible nodes of
  /// `n`: the rows outside the common head and tail, deleted, inserted,
  /// or (ids kept) moved where the longest increasing run of them does not
  /// keep them. A row that a node hidden now had keeps its size in `n`;
  /// `sized` are sizes given to nodes that may be rows already. O(rows).
  private func rowChanges(
    _ s: Int, to n: inout Outline, sized: [ItemID: Size], into u: inout BatchUpdate
  ) {
    let o = layout.sections[s].outline!
    let before = o.visibleNodes()
    let after = n.visibleNodes()
    func same(_ r: Int, _ q: Int) -> Bool {
      let id = o.ids[before[r]]
      return id == n.ids[after[q]] && (sized.isEmpty || sized[id] == nil)
    }
    var head = 0
    while head < before.count && head < after.count && same(head, head) { head += 1 }
    var tail = 0
    while tail < before.count - head && tail < after.count - head
      && same(before.count - 1 - tail, after.count - 1 - tail)
    {
      tail += 1
    }
    let oldRows = head..<before.count - tail
    let newRows = head..<after.count - tail
    var oldRow: [ItemID: Int] = [:]
    for r in oldRows { oldRow[o.ids[before[r]]] = r }
    var newRow: [ItemID: Int] = [:]
    for r in newRows { newRow[n.ids[after[r]]] = r }
    let sizes = layout.sections[s].sizeList
    let uniform = layout.type.uniformItemSize
    for r in oldRows where newRow[o.ids[before[r]]] == nil {
      u.deleteItems.append(IndexPath(section: s, item: r))
      // Hidden now (a reused node under a collapsed one): its size stays.
      let id = o.ids[before[r]]
      if let j = n.position(of: id) { n.setSize(j, sized[id] ?? sizes[r]) }
    }
    var stayers: [(new: Int, old: Int)] = []
    for r in newRows {
      if let q = oldRow[n.ids[after[r]]] { stayers.append((r, q)) }
    }
    let keep = longestIncreasingMask(stayers.map(\.old))
    for (k, (r, q)) in stayers.enumerated() {
      let current = sizes[q] == Section.unsetSize ? uniform : sizes[q]
      let size = sized[n.ids[after[r]]].flatMap { $0 == current ? nil : $0 }
      if !keep[k] {
        u.moveItems.append(
          (IndexPath(section: s, item: q), IndexPath(section: s, item: r), size))
      } else if let size {
        u.reconfigureItems.append((IndexPath(section: s, item: q), size))
      }
    }
    for r in newRows where oldRow[n.ids[after[r]]] == nil {
      u.insertItems.append((IndexPath(section: s, item: r), n.item(after[r])))
    }
  }

  /// How many rows go with the outline row at `path` when it is dragged:
  /// its visible descendants (none for a flat row). O(rows before it + k).
  func subtreeRows(at path: IndexPath) -> Int {
    guard let o = layout.sections[path.section].outline, let i = o.node(atRow: path.item),
      o.isExpanded(i)
    else { return 0 }
    return o.visibleDescendantCount(of: i)
  }

  /// The tree after the drop of movement `m` in an outline section, or
  /// nil for a flat one: the dragged node, with its subtree, becomes the
  /// sibling of the row before it at the target (taking its parent and
  /// level), or that row's first child when it is an expanded parent, or
  /// the first root at row 0 (UIKit's reordering of section snapshots).
  /// O(nodes of the section).
  func droppedOutline(_ m: InteractiveMovement) -> Outline? {
    let s = m.origin.section
    guard let o = layout.sections[s].outline, m.target.section == s, m.target != m.origin else {
      return nil
    }
    var rows = o.visibleNodes()
    let i = rows[m.origin.item]
    let end = o.subtreeEnd(i)
    rows.removeSubrange(m.origin.item...m.origin.item + m.subtree)
    var (at, level) = (0, 0)
    if m.target.item > 0 {
      let before = rows[m.target.item - 1]
      (at, level) =
        o.isExpanded(before) && o.hasChildren(before)
        ? (before + 1, o.level(before) + 1) : (o.subtreeEnd(before), o.level(before))
    }
    let moved = Outline.Piece.shifted(i..<end, by: level - o.level(i))
    // `at` lies outside the dragged subtree: before it or after it.
    let pieces: [Outline.Piece] =
      at <= i
      ? [.kept(0..<at), moved, .kept(at..<i), .kept(end..<o.count)]
      : [.kept(0..<i), .kept(end..<at), moved, .kept(at..<o.count)]
    return try? o.splicing(pieces)
  }

  /// The refusal of a flat change to outline section `s`'s rows.
  static func flatOutlineEdit<E: Error>(_ s: Int) -> LiveError<E> {
    .invalidUpdate(
      "section \(s) is an outline: its rows change with layout/expand, layout/collapse and the outline edits"
    )
  }

  /// The section of a flat change to an outline section's rows, which only
  /// its tree may change, or nil: deletes and moves by their old paths,
  /// inserts and the counts on the result. O(ops + sections).
  static func outlineSectionChanged(_ u: BatchUpdate, old: [Section], new: [Section]) -> Int? {
    func outline(_ s: Int, _ sections: [Section]) -> Bool {
      s >= 0 && s < sections.count && sections[s].outline != nil
    }
    for p in u.deleteItems where outline(p.section, old) { return p.section }
    for m in u.moveItems where outline(m.from.section, old) || outline(m.to.section, new) {
      return m.from.section
    }
    for (p, _) in u.insertItems where outline(p.section, new) { return p.section }
    for (s, section) in new.enumerated() {
      if let o = section.outline, o.visibleCount != section.count { return s }
    }
    return nil
  }
}
