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
  /// The node at `path` of `children` (indices from its roots down)
  /// repeats an id, or takes one the session has.
  case takenID(path: [Int])
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
          changed = rows.enumerated().map { (r + 1 + $0.offset, $0.element) }
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
      let sizes = layout.sections[s].sizeList
      for (row, j) in changed {
        let at = IndexPath(section: s, item: row)
        if flag {
          let size = o.sizes[j]
          update.insertItems.append(
            (at, Item(size: size == Section.unsetSize ? nil : size, id: o.ids[j])))
        } else {
          // A row measured before it hides keeps its size.
          o.setSize(j, sizes[row])
          update.deleteItems.append(at)
        }
      }
      outlines[s] = o
    }
    return (update, outlines)
  }

  /// `o` with `children` as node `i`'s first subtree, the node collapsed
  /// in it so that expanding it reveals them. O(nodes of the section +
  /// nodes given).
  private func grafting(_ children: [OutlineNode], onto i: Int, of o: Outline)
    throws(OutlineRefusal) -> Outline
  {
    guard !o.hasChildren(i) else { throw .hasChildren }
    var path: [Int] = []
    func checkTaken(_ nodes: [OutlineNode]) throws(OutlineRefusal) {
      for (c, n) in nodes.enumerated() {
        path.append(c)
        if outlineNode(n.id) != nil || self.path(of: n.id) != nil { throw .takenID(path: path) }
        try checkTaken(n.children)
        path.removeLast()
      }
    }
    try checkTaken(children)
    var grown: Outline
    do { grown = try o.givingChildren(children, to: i) } catch {
      guard case .duplicateID(let p) = error else { throw .takenID(path: []) }
      throw .takenID(path: p)
    }
    _ = grown.setExpanded(i, false)
    return grown
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
