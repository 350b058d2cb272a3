import JSONRPC
import LayoutEngine

// layout/applySnapshot: the client sends the whole data as ids; the engine
// diffs it against the session (Diffing/Snapshot.swift) into a batch, and
// the batch takes performBatchUpdates' path. The answer carries that batch
// in performBatchUpdates' format, so that a client can replay it.
extension LayoutServer {
  /// layout/applySnapshot {session, sections, reloadItems?,
  /// reconfigureItems?} → the mutation fields, {appearing, disappearing,
  /// moved} and `updates`. A session with an item or section without an
  /// id (or with an id twice) takes the snapshot as a reload, answered
  /// with `updates: null`. O(n log n) for the diff, plus the batch's cost
  /// (see `commitBatch`).
  func applySnapshot(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    let format = SectionFormat(old.layout.type)
    let (snapshot, objects) = try readSnapshot(
      p, format: format, holding: old.layout.itemCount,
      type: old.layout.type, old: old)
    try commit(slot, .applySnapshot(snapshot), source: .change(p.path("sections")), p, &w) {
      w, session, delta in
      guard let update = delta.batch else {
        // Taken as a reload: nothing to replay but the snapshot itself.
        w.key("updates")
        w.null()
        return
      }
      w.animations(delta.animations, in: session)
      // The batch, which a twin replays with layout/performBatchUpdates,
      // when that request would be within maxMessageBytes; else (a
      // million items reversed: 70 MB of moves) `{reloadData: true}`,
      // which a twin replays by applying the same snapshot.
      let mark = w.mark
      w.key("updates")
      let start = w.byteCount
      w.batchUpdate(update, sections: objects, fieldKeys: format.fieldKeys)
      if w.byteCount - start > limits.maxMessageBytes - Self.replayEnvelopeBytes {
        w.reset(to: mark)
        w.key("updates")
        w.beginObject()
        w.key("reloadData")
        w.bool(true)
        w.endObject()
      }
    }
  }

  /// Reads the snapshot, enforcing the item and value limits before
  /// anything per item is allocated. Also answers each section's object,
  /// whose own fields `updates` echoes.
  private func readSnapshot(
    _ p: Fields, format: SectionFormat, holding own: Int, type: LayoutType, old: LiveLayout
  ) throws(RPCError) -> (Snapshot, [JSONValue]) {
    let (array, path) = try p.array("sections")
    guard array.count <= limits.maxSections else {
      throw RPCError(
        code: ErrorCode.limitExceeded,
        message: "\(path) has \(array.count) sections; the limit is \(limits.maxSections)",
        field: path)
    }
    let cap = itemCap(for: type, holding: own)
    var total = 0
    var objects: [JSONValue] = []
    objects.reserveCapacity(array.count)
    for i in 0..<array.count {
      let s = try Fields(array[i], element: i, of: path)
      if let outline = s.optional("outline"), outline.isArray, s.optional("items") == nil {
        total += outlineNodeCount(outline)
        if total > cap.max { throw limitError(path, cap, count: total) }
        objects.append(array[i])
        continue
      }
      let (items, _) = try s.array("items")
      total += items.count
      if total > cap.max { throw limitError(path, cap, count: total) }
      objects.append(array[i])
    }
    let listed =
      (p.optional("reloadItems")?.count ?? 0) + (p.optional("reconfigureItems")?.count ?? 0)
    if total + listed > limits.maxItemValuesPerRequest {
      throw valuesLimitError(path, total + listed, limits)
    }
    var sections: [SnapshotSection] = []
    sections.reserveCapacity(array.count)
    // An outline section keeps each existing node's flag and size where
    // it gives none, wherever in the session the node was.
    let previous = old.layout.sections.compactMap(\.outline)
    for i in 0..<array.count {
      let s = try Fields(array[i], element: i, of: path)
      let fields = try readSectionFields(s, extra: ["id", "items", "outline"], format: format)
      guard let idValue = s.optional("id") else {
        throw .invalidParams(s.path("id"), "is required: a snapshot's sections have ids")
      }
      let sectionID = try readItemID(idValue, path: s.path("id"))
      if s.optional("outline") != nil {
        if s.optional("items") != nil {
          throw .invalidParams(
            s.path("items"), "cannot be given with outline: its nodes are the items")
        }
        let nodes = try readOutline(s, "outline", format: format)
        let outline = try makeOutline(nodes, path: s.path("outline"), keeping: previous)
        sections.append(
          SnapshotSection(id: sectionID, fields: fields, outline: outline, given: nodes))
        continue
      }
      sections.append(
        SnapshotSection(
          id: sectionID, fields: fields, items: try readSnapshotItems(s, "items", format)))
    }
    try uniqueSnapshotNodeIDs(sections, path)
    var snapshot = Snapshot(sections: sections)
    if p.optional("reloadItems") != nil {
      snapshot.reloadItems = try readSnapshotItems(p, "reloadItems", format)
    }
    if p.optional("reconfigureItems") != nil {
      snapshot.reconfigureItems = try readSnapshotItems(p, "reconfigureItems", format)
    }
    return (snapshot, objects)
  }

  /// Room for a replay's envelope around `updates`: `{"jsonrpc":"2.0",
  /// "id":…,"method":"layout/performBatchUpdates","params":{"session":…,
  /// "updates":…}}` with a session id of maxSessionIdBytes.
  static let replayEnvelopeBytes = 1024

  /// The error for a refused snapshot, with UIKit's wording.
  func snapshotError(_ error: SnapshotError, _ p: Fields) -> RPCError {
    // UIKit's braces around the ids, each written as JSON: the first few,
    // each cut to 256 bytes, so that the message stays small whatever
    // the snapshot holds.
    func list(_ ids: [ItemID]) -> String {
      let shown = 16
      var each = ids.prefix(shown).map { id -> String in
        var w = JSONWriter()
        w.itemID(id)
        return bounded(w.withBytes { String(decoding: $0, as: UTF8.self) })
      }
      if ids.count > shown { each.append("… (\(ids.count) in all)") }
      return "{" + each.joined(separator: ", ") + "}"
    }
    switch error {
    case .duplicateItems(let ids):
      return .invalidParams(
        p.path("sections"),
        "Fatal: supplied item identifiers are not unique. Duplicate identifiers: \(list(ids))")
    case .duplicateSections(let ids):
      return .invalidParams(
        p.path("sections"),
        "Fatal: supplied section identifiers are not unique. Duplicate identifiers: \(list(ids))")
    case .unknownReload(let i):
      return .invalidParams(
        "\(p.path("reloadItems"))[\(i)]", "Invalid item identifier specified for reload")
    case .unknownReconfigure(let i):
      return .invalidParams(
        "\(p.path("reconfigureItems"))[\(i)]", "Invalid item identifier specified for reconfigure")
    }
  }
}

/// Reads an array of snapshot items at `key`: ids, or `{id, size?}`.
/// O(count).
private func readSnapshotItems(_ f: Fields, _ key: String, _ format: SectionFormat)
  throws(RPCError) -> [SnapshotItem]
{
  let (array, path) = try f.array(key)
  var items: [SnapshotItem] = []
  items.reserveCapacity(array.count)
  for k in 0..<array.count {
    let v = array[k]
    // The hot path: a bare integer id, read without building its path
    // (which only an error names).
    if let i = v.integer {
      items.append(SnapshotItem(id: .int(i)))
      continue
    }
    if let text = v.string, text.utf8.count <= Limits.maxIdBytes {
      items.append(SnapshotItem(id: .string(text)))
      continue
    }
    guard v.isObject else {
      items.append(SnapshotItem(id: try readItemID(v, path: "\(path)[\(k)]")))
      continue
    }
    let o = try Fields(v, element: k, of: path)
    try o.rejectUnknown(["id", "size"])
    guard let id = o.optional("id") else { throw .invalidParams(o.path("id"), "is required") }
    items.append(
      SnapshotItem(
        id: try readItemID(id, path: o.path("id")),
        size: try optionalItemSize(o, "size", format: format)))
  }
  return items
}

extension JSONWriter {
  /// A size as an update carries it: `{width, height}`, with
  /// `fullSpan: true` for a waterfall item marked so.
  mutating func itemSize(_ s: Size) {
    beginObject()
    key("width")
    number(s.isFullSpan ? -s.width : s.width)
    key("height")
    number(s.height)
    if s.isFullSpan {
      key("fullSpan")
      bool(true)
    }
    endObject()
  }

  /// A batch in performBatchUpdates' format. Sections' own fields (inserted or updated ones) are echoed
  /// from `sections`, the snapshot's section objects, by new index.
  mutating func batchUpdate(_ u: BatchUpdate, sections: [JSONValue], fieldKeys: Set<String>) {
    func fields(_ s: Int) {
      sections[s].forEachMember { name, member in
        let k = String(decoding: name, as: UTF8.self)
        if fieldKeys.contains(k) {
          key(escaping: k)
          value(member)
        }
        return true
      }
    }
    func path(_ p: IndexPath, size: Size?) {
      beginObject()
      key("section")
      int(p.section)
      key("item")
      int(p.item)
      if let size {
        key("size")
        itemSize(size)
      }
      endObject()
    }
    // Each list only when it has entries.
    func list<T>(_ name: StaticString, _ entries: [T], _ each: (T) -> Void) {
      guard !entries.isEmpty else { return }
      key(name)
      beginArray()
      for e in entries { each(e) }
      endArray()
    }
    beginObject()
    list("deleteSections", u.deleteSections) { int($0) }
    list("insertSections", u.insertSections) { index, section in
      beginObject()
      key("index")
      int(index)
      if let id = section.id {
        key("id")
        itemID(id)
      }
      fields(index)
      switch section.items {
      case .uniform(let n):
        key("itemCount")
        int(n)
      case .sizes(let sizes):
        key("itemSizes")
        beginArray()
        sizes.forEach { size in
          if size == Section.unsetSize { null() } else { itemSize(size) }
          return true
        }
        endArray()
      }
      if let ids = section.ids {
        key("ids")
        beginArray()
        ids.forEach { id in
          if let id { itemID(id) } else { null() }
          return true
        }
        endArray()
      }
      endObject()
    }
    list("moveSections", u.moveSections) { from, to in
      beginObject()
      key("from")
      int(from)
      key("to")
      int(to)
      endObject()
    }
    list("deleteItems", u.deleteItems) { path($0, size: nil) }
    list("insertItems", u.insertItems) { p, item in
      beginObject()
      key("section")
      int(p.section)
      key("item")
      int(p.item)
      if let id = item.id {
        key("id")
        itemID(id)
      }
      if let size = item.size {
        key("size")
        itemSize(size)
      }
      endObject()
    }
    list("moveItems", u.moveItems) { from, to, size in
      beginObject()
      key("from")
      indexPath(from)
      key("to")
      indexPath(to)
      if let size {
        key("size")
        itemSize(size)
      }
      endObject()
    }
    list("reloadItems", u.reloadItems) { path($0.path, size: $0.size) }
    list("reconfigureItems", u.reconfigureItems) { path($0.path, size: $0.size) }
    list("updateSections", u.updateSections) { index, _ in
      beginObject()
      key("index")
      int(index)
      fields(index)
      endObject()
    }
    endObject()
  }
}
