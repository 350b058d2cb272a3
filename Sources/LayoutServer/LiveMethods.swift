import JSONRPC
import LayoutEngine

/// Error code for a batch UIKit would reject (performBatchUpdates).
extension ErrorCode {
  public static let invalidUpdate = 1003
}

// The data-source and configuration changes of a live session: each reads
// its request, checks the daemon's limits, and commits the change through
// the engine (LiveLayout.commit), which makes it or leaves the session
// exactly as it was. Each answer carries the delta against the client's
// picture; the rules (anchoring, followsEnd, movements) are the engine's.
extension LayoutServer {
  /// layout/performBatchUpdates {session, updates} → the mutation fields
  /// plus {appearing, disappearing, moved}. O(sections + ops · log n +
  /// lines re-broken) for the relayout (see `Layout.apply`), plus
  /// O(k · ops) for the animation lists.
  func performBatchUpdates(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    let updates = try p.object("updates")
    let values = declaredValues(ofBatch: updates)
    if values > limits.maxItemValuesPerRequest {
      throw valuesLimitError(updates.path, values, limits)
    }
    let update = try readBatchUpdate(updates, format: SectionFormat(old.layout.type))
    let field = p.path("updates")
    try checkItemCap(after: update, old.layout, field: field)
    try commit(slot, .performBatchUpdates(update), source: .change(field), p, &w) {
      w, session, delta in
      w.animations(delta.animations, in: session)
    }
  }

  /// The item count after `update`, checked before anything is allocated:
  /// deletes and inserts net out, so a session at its limit can replace an
  /// item. Counts come from JSON and may be as large as Int.max: an
  /// overflow is over the limit, never a trap. O(sections + ops).
  private func checkItemCap(after update: BatchUpdate, _ layout: Layout, field: String)
    throws(RPCError)
  {
    var after = layout.itemCount + update.insertItems.count - update.deleteItems.count
    var overflow = false
    for (_, section) in update.insertSections {
      let (sum, o) = after.addingReportingOverflow(section.count)
      after = sum
      overflow = overflow || o
    }
    for s in Set(update.deleteSections) where s >= 0 && s < layout.sections.count {
      after -= layout.sections[s].count
    }
    let cap = itemCap(for: layout.type, holding: layout.itemCount)
    if overflow || after > cap.max {
      throw limitError(field, cap, count: overflow ? -1 : after)
    }
  }

  /// layout/reloadData {session, sections} → the mutation fields. Items
  /// with ids keep the anchor across the reload; otherwise the anchor keeps
  /// its index path. O(n).
  func reloadData(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    let sections = try readSections(
      p, limits: limits, cap: itemCap(for: old.layout.type, holding: old.layout.itemCount),
      format: SectionFormat(old.layout.type))
    try uniqueOutlineIDs(sections, p)
    try commit(slot, .reloadData(sections), source: .change(p.path("sections")), p, &w)
  }

  /// layout/configure {session, layout?, contentInset?, overscan?} → the
  /// mutation fields. Fields absent from `layout` keep their values, like
  /// changing properties and calling invalidateLayout. O(n).
  func configure(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    var c = LiveConfiguration()
    if let f = try p.optionalObject("layout") {
      let type = try LayoutKinds.read(f, base: old.layout.type)
      // A session too large for the new type stays as it is.
      let cap = itemCap(for: type, holding: old.layout.itemCount)
      if old.layout.itemCount > cap.max {
        throw limitError(f.path("type"), cap, count: old.layout.itemCount)
      }
      c.type = type
      c.reordering = try readReorderOptions(f, base: old.reordering)
    }
    c.contentInset = try p.optionalInsets("contentInset")
    c.overscan = try p.optionalNumber("overscan", min: 0, maxMagnitude: maxCoordinate)
    c.followsEnd = try p.optionalBool("followsEnd")
    try commit(slot, .configure(c), source: .configure, p, &w)
  }

  /// layout/setItemSizes {session, sizes: [{section, item, size}]} → the
  /// mutation fields. Self-sizing: measured sizes replace the estimate.
  /// O(items of the sections touched).
  func setItemSizes(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    let (array, path) = try p.array("sizes")
    if array.count > limits.maxItemValuesPerRequest {
      throw valuesLimitError(path, array.count, limits)
    }
    var sizes: [(IndexPath, Size)] = []
    sizes.reserveCapacity(array.count)
    let sections = old.layout.sections
    for i in 0..<array.count {
      if let (at, size) = plainSizedPath(array[i]), at.section < sections.count,
        at.item < sections[at.section].count
      {
        sizes.append((at, size))
        continue
      }
      let f = try Fields(array[i], element: i, of: path)
      try f.rejectUnknown(["section", "item", "id", "size"])
      let at = try indexPath(f, old)
      let size = try readItemSize(try f.object("size"), format: SectionFormat(old.layout.type))
      sizes.append((at, size))
    }
    try commit(slot, .setItemSizes(sizes), source: .change(p.path("sizes")), p, &w)
  }

  /// layout/appendItems {session, section, itemCount | itemSizes |
  /// widthsAndHeights | widthsAndHeightsBase64, ids?} → the mutation fields. The bulk path: a
  /// session of many items is opened with its first chunk and grown a
  /// chunk at a time, each request small enough to leave the frames queued
  /// behind it on time. O(sections + k + log n) for k items.
  func appendItems(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    let s = try p.integer("section", in: 0...Int.max)
    guard s < old.layout.sections.count else {
      throw .invalidParams(
        p.path("section"), "is out of range: the session has \(old.layout.sections.count) sections")
    }
    let given = ["itemCount", "itemSizes", "widthsAndHeights", packedSizesKey].filter {
      p.optional($0) != nil
    }
    guard let key = given.first else {
      throw .invalidParams(
        p.path("itemCount"),
        "is required (or itemSizes, widthsAndHeights or \(packedSizesKey))")
    }
    guard given.count == 1 else {
      throw .invalidParams(p.path(given[1]), "cannot be given with \(key)")
    }
    // Counts first: a request over a limit costs nothing.
    let k: Int
    switch key {
    case "itemCount": k = try p.integer("itemCount", in: 0...Int.max)
    case "itemSizes": k = try p.array(key).0.count
    case packedSizesKey: k = packedCount(p, key)
    default: k = try p.array(key).0.count / 2
    }
    let section = old.layout.sections[s]
    let storesSizes: Bool
    if case .sizes = section.items { storesSizes = true } else { storesSizes = key != "itemCount" }
    let idsValue = p.optional("ids")
    // k may be as large as Int.max: a product that overflows is over the limit.
    let perItem = (storesSizes ? 1 : 0) + (idsValue != nil || section.ids != nil ? 1 : 0)
    let (product, overflow) = k.multipliedReportingOverflow(by: perItem)
    let values = overflow ? Int.max : product
    if values > limits.maxItemValuesPerRequest {
      throw valuesLimitError(p.path(key), values, limits)
    }
    let cap = itemCap(for: old.layout.type, holding: old.layout.itemCount)
    if k > cap.max - old.layout.itemCount {
      let (count, overflow) = old.layout.itemCount.addingReportingOverflow(k)
      throw limitError(p.path(key), cap, count: overflow ? -1 : count)
    }
    let sizes =
      key == "itemCount"
      ? nil : try readAppendedSizes(p, key: key, format: SectionFormat(old.layout.type))
    let ids = idsValue == nil ? nil : try readIDs(p, count: k)
    try commit(
      slot, .appendItems(section: s, count: k, sizes: sizes, ids: ids),
      source: .change(p.path(key)), p, &w)
  }

  /// layout/scrollSection {session, section, offset} → the mutation fields
  /// plus `offset`, the row's offset clamped to its range. A row's scroll
  /// frame: O(log n + k) for k visible elements.
  func scrollSection(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let s = try rowSection(p, sessions.values[slot].layout)
    let offset = try p.coordinate("offset")
    try commit(slot, .scrollSection(s, offset: offset), source: .change(p.path("offset")), p, &w) {
      w, session, _ in
      w.key("offset")
      w.number(session.layout.rowOffsets[s] ?? 0)
    }
  }

  /// Commits `change` to the session at `slot` in place (the engine leaves
  /// it exactly as it was when it refuses the change) and writes the
  /// answer: the mutation fields, `movementCancelled`, then `answer`'s.
  /// The daemon's own check is what the new viewport meets (too many
  /// looping copies, too large an answer); a refusal names the field
  /// `source` blames. O(log n + k) beyond the change's own cost.
  func commit(
    _ slot: [String: LiveLayout].Index, _ change: LiveChange, source: ChangeSource, _ p: Fields,
    _ w: inout JSONWriter,
    answer: (inout JSONWriter, LiveLayout, LiveDelta) -> Void = { _, _, _ in }
  ) throws(RPCError) {
    let field = source.viewportField
    let change = try modify(slot) { (session) throws(RPCError) -> Int in
      let before = session.layout.itemCount
      let delta: LiveDelta
      do throws(LiveError<RPCError>) {
        delta = try session.commit(change) { (layout, rect, bounds) throws(RPCError) in
          try checkViewport(layout, rect, bounds, field: field)
        }
      } catch {
        throw rpcError(error, source: source, p)
      }
      w.beginObject()
      w.mutation(session, delta)
      if delta.movementCancelled {
        w.key("movementCancelled")
        w.bool(true)
      }
      if let closed = delta.closedSwipe {
        w.key("closedSwipe")
        w.indexPath(closed)
      }
      answer(&w, session, delta)
      w.endObject()
      return session.layout.itemCount - before
    }
    if change != 0 { recount(change) }
  }

  /// The JSON-RPC error of a refused change, naming the field to blame.
  func rpcError(_ error: LiveError<RPCError>, source: ChangeSource, _ p: Fields) -> RPCError {
    switch error {
    case .refused(let e): return e
    case .problem(let problem, let type):
      return LayoutKinds.decoder(for: type).error(for: problem, source: source)
    case .invalidUpdate(let message):
      return RPCError(code: ErrorCode.invalidUpdate, message: message, field: source.viewportField)
    case .invalidSnapshot(let e): return snapshotError(e, p)
    case .outline(let e): return outlineError(e, p)
    case .noMovement:
      return .invalidParams(
        p.path("session"),
        "has no interactive movement in progress (layout/beginInteractiveMovement starts one)")
    }
  }
}

extension JSONWriter {
  /// `appearing, disappearing, moved` of a batch's answer, inside an
  /// object the caller opened. O(k log n) in a layout with ids.
  mutating func animations(_ a: BatchAnimations?, in session: LiveLayout) {
    guard let a else { return }
    key("appearing")
    attributesArray(a.appearing, in: session.layout)
    key("disappearing")
    beginArray()
    for (x, id) in zip(a.disappearing, a.disappearingIDs) {
      attributes(x, id: id, parent: Self.parent(of: x, id, in: session.layout))
    }
    endArray()
    key("moved")
    beginArray()
    for (before, after) in a.moved {
      beginObject()
      identity(after.kind, after.section, after.item, after.lap)
      if let id = session.layout.itemID(of: after) {
        key("id")
        itemID(id)
      }
      key("from")
      indexPath(before.indexPath)
      key("fromFrame")
      rect(before.frame)
      key("frame")
      rect(after.frame)
      endObject()
    }
    endArray()
  }
}
