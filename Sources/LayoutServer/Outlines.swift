import JSONRPC
import LayoutEngine

// Outline sections (UIKit's section snapshots): `outline` in place of a
// section's items, `layout/expand` and `layout/collapse` as changes like
// any batch, and `layout/outline` for the whole tree.

/// How deep an outline may nest: its trees are walked recursively.
let maxOutlineDepth = 100

/// The nodes of `outline: [{id, size?, expanded?, children?}]` at `key`,
/// the sizes read as the kind's items are. O(nodes).
func readOutline(_ f: Fields, _ key: String, format: SectionFormat) throws(RPCError)
  -> [OutlineNode]
{
  func nodes(_ array: JSONValue, _ path: String, depth: Int) throws(RPCError) -> [OutlineNode] {
    var out: [OutlineNode] = []
    out.reserveCapacity(array.count)
    for i in 0..<array.count {
      let n = try Fields(array[i], element: i, of: path)
      try n.rejectUnknown(["id", "size", "expanded", "children"])
      var node = OutlineNode(id: try readItemID(try n.required("id"), path: n.path("id")))
      node.size = try optionalItemSize(n, "size", format: format)
      node.expanded = try n.optionalBool("expanded")
      if n.optional("children") != nil {
        guard depth < maxOutlineDepth else {
          throw .invalidParams(
            n.path("children"), "nests deeper than \(maxOutlineDepth) levels, the limit")
        }
        let (children, childPath) = try n.array("children")
        node.children = try nodes(children, childPath, depth: depth + 1)
      }
      out.append(node)
    }
    return out
  }
  let (array, path) = try f.array(key)
  return try nodes(array, path, depth: 1)
}

/// The nodes an `outline` array holds at any depth, counted without
/// reading them (the item limits' first pass); deeper than the limit
/// counts what is there, and reading refuses it. O(nodes).
func outlineNodeCount(_ array: JSONValue, depth: Int = 1) -> Int {
  var n = array.count
  guard depth <= maxOutlineDepth else { return n }
  for i in 0..<array.count {
    if let children = array[i]["children"], children.isArray {
      n += outlineNodeCount(children, depth: depth + 1)
    }
  }
  return n
}

/// The outline `nodes` at `path`, or -32602 naming a repeated id.
func makeOutline(_ nodes: [OutlineNode], path: String, keeping previous: [Outline] = [])
  throws(RPCError) -> Outline
{
  do { return try Outline(nodes, keeping: previous) } catch {
    guard case .duplicateID(let at) = error else { throw .invalidParams(path, "is not an outline") }
    throw .invalidParams(nodePath(path, at) + ".id", "repeats an id: item ids must be unique")
  }
}

/// `outline[2].children[0]` from the indices from the roots down.
func nodePath(_ base: String, _ at: [Int]) -> String {
  var p = base
  for (d, k) in at.enumerated() { p += (d == 0 ? "" : ".children") + "[\(k)]" }
  return p
}

/// Refuses a node id that a flat section's item or another node has (ids
/// are unique across a session, hidden nodes included; a snapshot's
/// validation sees only the visible rows). `outlines[s]` is section s's
/// tree, nil for a flat one, whose ids `flat` adds. O(items + nodes) when
/// any section is an outline, O(sections) otherwise.
func uniqueNodeIDs(
  _ outlines: [Outline?], sections path: String, flat: (inout Set<ItemID>) -> Void
) throws(RPCError) {
  guard outlines.contains(where: { $0 != nil }) else { return }
  var seen = Set<ItemID>()
  flat(&seen)
  for (s, outline) in outlines.enumerated() {
    guard let o = outline else { continue }
    for i in 0..<o.count where !seen.insert(o.ids[i]).inserted {
      throw .invalidParams(
        nodePath("\(path)[\(s)].outline", o.childPath(i)) + ".id",
        "repeats an id another section has: item ids must be unique")
    }
  }
}

extension LayoutServer {
  /// `uniqueNodeIDs` of a snapshot's sections.
  func uniqueSnapshotNodeIDs(_ sections: [SnapshotSection], _ path: String) throws(RPCError) {
    try uniqueNodeIDs(sections.map(\.outline), sections: path) { seen in
      for section in sections where section.outline == nil {
        for item in section.items { seen.insert(item.id) }
      }
    }
  }

  /// `uniqueNodeIDs` of an open's or a reload's sections.
  func uniqueOutlineIDs(_ sections: [Section], _ p: Fields) throws(RPCError) {
    try uniqueNodeIDs(sections.map(\.outline), sections: p.path("sections")) { seen in
      for section in sections where section.outline == nil {
        section.ids?.forEach { id in
          if let id { seen.insert(id) }
          return true
        }
      }
    }
  }

  /// layout/expand {session, ids, children?} → the batch answer and its
  /// `updates`: each node's rows appear after its own (a node hidden by a
  /// collapsed ancestor only takes the flag). O(k + log n) for k rows.
  func expand(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    let ids = try readNodeIDs(p)
    var children: [OutlineNode]? = nil
    if p.optional("children") != nil {
      guard ids.count == 1 else {
        throw .invalidParams(
          p.path("children"),
          "supplies one node's subtree: give it with exactly one id (ids has \(ids.count))")
      }
      children = try readNodes(p, "children", old)
    }
    try outlineChange(slot, .expand(ids, children: children), p, &w)
  }

  /// layout/collapse {session, ids} → the batch answer and its `updates`:
  /// each node's descendants' rows go. O(k + log n) for k rows.
  func collapse(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    try outlineChange(slot, .collapse(try readNodeIDs(p)), p, &w)
  }

  /// layout/outline {session, section} → {outline}: the section's whole
  /// tree with every node's flag (and size, where it has one), for a
  /// client that reconnects; `[]` for a flat section. O(nodes).
  func outline(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (_, session) = try existing(p)
    let s = try sectionIndex(p, session)
    func write(_ nodes: [OutlineNode], _ w: inout JSONWriter) {
      w.beginArray()
      for n in nodes {
        w.beginObject()
        w.key("id")
        w.itemID(n.id)
        if let size = n.size {
          w.key("size")
          w.itemSize(size)
        }
        w.key("expanded")
        w.bool(n.expanded ?? false)
        w.key("children")
        write(n.children, &w)
        w.endObject()
      }
      w.endArray()
    }
    w.beginObject()
    w.key("outline")
    write(session.layout.sections[s].outline?.tree() ?? [], &w)
    w.endObject()
  }

  /// layout/outlineAppend {session, section?, parent?, items} → the batch
  /// answer: the nodes as `parent`'s last children, or as the section's
  /// last roots. O(nodes of the section).
  func outlineAppend(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let session = sessions.values[slot]
    let section = p.optional("section") != nil ? try sectionIndex(p, session) : nil
    var parent: ItemID? = nil
    if let v = p.optional("parent") { parent = try readItemID(v, path: p.path("parent")) }
    guard section != nil || parent != nil else {
      throw .invalidParams(
        p.path("section"), "is required without parent: the section whose roots the items join")
    }
    let items = try readNodes(p, "items", session)
    try outlineChange(
      slot, .editOutline(.append(section: section, parent: parent, nodes: items)), p, &w)
  }

  /// layout/outlineInsert {session, before | after, items} → the batch
  /// answer: the nodes as siblings of an existing one. O(nodes of the
  /// section).
  func outlineInsert(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let before = p.optional("before")
    let after = p.optional("after")
    guard (before == nil) != (after == nil) else {
      throw .invalidParams(
        p.path(before == nil ? "before" : "after"),
        "give exactly one of before and after: the sibling the items go next to")
    }
    let key = before == nil ? "after" : "before"
    let sibling = try readItemID((before ?? after)!, path: p.path(key))
    let items = try readNodes(p, "items", sessions.values[slot])
    try outlineChange(
      slot, .editOutline(.insert(nodes: items, sibling: sibling, after: after != nil)), p, &w)
  }

  /// layout/outlineDelete {session, ids} → the batch answer: each node
  /// goes with its descendants. O(nodes of the sections touched).
  func outlineDelete(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    try outlineChange(slot, .editOutline(.delete(try readNodeIDs(p))), p, &w)
  }

  /// layout/outlineReplaceChildren {session, parent, children} → the batch
  /// answer: the parent's subtree replaced, reused ids moving as rows do.
  /// O(nodes of the section).
  func outlineReplaceChildren(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let parent = try readItemID(try p.required("parent"), path: p.path("parent"))
    let children = try readNodes(p, "children", sessions.values[slot])
    try outlineChange(
      slot, .editOutline(.replaceChildren(parent: parent, nodes: children)), p, &w)
  }

  /// The outline nodes at `key`, no more than one request may carry, their
  /// sizes read as the session's kind reads items'. O(nodes).
  private func readNodes(_ p: Fields, _ key: String, _ session: LiveLayout) throws(RPCError)
    -> [OutlineNode]
  {
    let (array, path) = try p.array(key)
    let count = outlineNodeCount(array)
    guard count <= limits.maxItemValuesPerRequest else {
      throw valuesLimitError(path, count, limits)
    }
    return try readOutline(p, key, format: SectionFormat(session.layout.type))
  }

  /// `section`, an index of the session's sections.
  private func sectionIndex(_ p: Fields, _ session: LiveLayout) throws(RPCError) -> Int {
    let s = try p.integer("section", in: 0...Int.max)
    guard s < session.layout.sections.count else {
      throw .invalidParams(
        p.path("section"), "is \(s), but the session has \(session.layout.sections.count) sections")
    }
    return s
  }

  private func readNodeIDs(_ p: Fields) throws(RPCError) -> [ItemID] {
    let (array, path) = try p.array("ids")
    guard array.count <= limits.maxItemValuesPerRequest else {
      throw .invalidParams(path, "holds \(array.count) ids, more than maxItemValuesPerRequest")
    }
    var ids: [ItemID] = []
    for i in 0..<array.count { ids.append(try readItemID(array[i], path: "\(path)[\(i)]")) }
    return ids
  }

  /// Commits an expand or a collapse and answers it as a batch, with the
  /// `updates` a flat twin replays.
  private func outlineChange(
    _ slot: [String: LiveLayout].Index, _ change: LiveChange, _ p: Fields, _ w: inout JSONWriter
  ) throws(RPCError) {
    try commit(slot, change, source: .change(p.path("ids")), p, &w) { w, session, delta in
      w.animations(delta.animations, in: session)
      w.key("updates")
      w.batchUpdate(delta.batch ?? BatchUpdate(), sections: [], fieldKeys: [])
    }
  }

  /// The error of a refused outline change, naming the field: the
  /// request's nodes are its `children` or its `items`, the node it names
  /// its `parent`, `before` or `after`.
  func outlineError(_ e: OutlineRefusal, _ p: Fields) -> RPCError {
    let nodes = p.path(p.optional("children") != nil ? "children" : "items")
    let named = ["parent", "before", "after"].first { p.optional($0) != nil } ?? "parent"
    switch e {
    case .unknownID(let k):
      return .invalidParams("\(p.path("ids"))[\(k)]", "names no outline node of the session")
    case .childrenNeedOneNode:
      return .invalidParams(p.path("children"), "supplies one node's subtree: give exactly one id")
    case .hasChildren:
      return .invalidParams(
        p.path("children"),
        "is for a node without children (lazy loading); this node has children already")
    case .takenID(let at):
      return .invalidParams(
        nodePath(nodes, at) + ".id",
        "repeats an id the session or these nodes have: item ids must be unique")
    case .unknownNode:
      return .invalidParams(p.path(named), "names no outline node of the session")
    case .noSection:
      return .invalidParams(p.path("section"), "is not a section of the session")
    case .flatSection:
      return .invalidParams(
        p.path("section"),
        "is a flat section: give it an outline first (layout/applySnapshot or layout/reloadData)")
    case .otherSection(let s):
      return .invalidParams(
        p.path("parent"), "lies in section \(s), not in the section given")
    }
  }
}
