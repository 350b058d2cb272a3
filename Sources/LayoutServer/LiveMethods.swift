import JSONRPC
import LayoutEngine

/// Error code for a batch UIKit would reject (performBatchUpdates).
extension ErrorCode {
  public static let invalidUpdate = 1003
}

// The data-source and configuration changes of a live session. Each works
// on a copy of the session and stores it only when everything succeeded,
// so a rejected request leaves the session exactly as it was. Each answer
// carries the delta against the client's picture, with the bounds moved so
// that the element the user was looking at stays where it was.
extension LayoutServer {
  /// layout/performBatchUpdates {session, updates} → the mutation fields
  /// plus {appearing, disappearing, moved}. O(sections + ops · log n +
  /// lines re-broken) for the relayout (see `Layout.apply`), plus
  /// O(k · ops) for the animation lists.
  func performBatchUpdates(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
    let updates = try p.object("updates")
    let values = declaredValues(ofBatch: updates)
    if values > limits.maxItemValuesPerRequest {
      throw valuesLimitError(updates.path, values, limits)
    }
    let update = try readBatchUpdate(updates, format: SectionFormat(old.layout.type))
    try commitBatch(id, old, update, field: p.path("updates"), &w)
  }

  /// Applies a batch read from a request (or computed from a snapshot)
  /// to `old` and commits it: the item limit checked before anything is
  /// allocated, UIKit's validation (error 1003 naming `field`), the
  /// anchor followed to its new path, and the animation lists answered,
  /// then `answer`'s fields. O(sections + ops · log n + lines re-broken)
  /// (see `Layout.apply`), plus O(k · ops) for the animation lists.
  func commitBatch(
    _ id: String, _ old: Session, _ update: BatchUpdate, field: String, _ w: inout JSONWriter,
    keepsBounds: Bool = false, itemIndex: ItemIndex? = nil,
    answer: (inout JSONWriter, Session) -> Void = { _, _ in }
  ) throws(RPCError) {
    // The item count after the batch, before anything is allocated: deletes
    // and inserts net out, so a session at its limit can replace an item.
    // Counts come from JSON and may be as large as Int.max: an overflow is
    // over the limit, never a trap.
    var after = old.layout.itemCount + update.insertItems.count - update.deleteItems.count
    var overflow = false
    for (_, section) in update.insertSections {
      let (sum, o) = after.addingReportingOverflow(section.count)
      after = sum
      overflow = overflow || o
    }
    for s in Set(update.deleteSections) where s >= 0 && s < old.layout.sections.count {
      after -= old.layout.sections[s].count
    }
    let cap = itemCap(for: old.layout.type, holding: old.layout.itemCount)
    if overflow || after > cap.max {
      throw limitError(field, cap, count: overflow ? -1 : after)
    }
    let result: BatchResult
    do {
      result = try update.apply(
        to: old.layout.sections, uniformSize: old.layout.type.uniformItemSize)
    } catch {
      throw RPCError(code: ErrorCode.invalidUpdate, message: error.message, field: field)
    }
    var session = old
    session.pendingAnchor = nil
    session.layout.apply(result)
    let deleted = result.deletedItems
    // The id index: the snapshot's, the old one where every path stays,
    // else the old one carried over the batch.
    let ids =
      itemIndex.map { LiveItemIndex($0, of: result.sections) }
      ?? (update.keepsItemPaths ? old.idIndex : old.idIndex.after(update, result))
    try commit(id, &session, source: .change(field), &w, idIndex: ids) { session in
      if keepsBounds {
        // The end of a movement: the picture showed the new order already.
        session.bounds = session.clamped(old.bounds)
      } else {
        session.bounds = reanchor(old, into: session) { path in
          result.newPath(of: path, deleted: deleted)
            ?? nearestSurvivor(of: path, in: old.layout) {
              result.newPath(of: $0, deleted: deleted)
            }
        }
      }
    } answer: { w, session in
      writeAnimations(from: old, to: session, result, deleted: deleted, &w)
      answer(&w, session)
    }
  }

  /// What a client needs to animate a batch as UICollectionView does: the
  /// elements appearing and disappearing, and those that moved.
  /// O(k · ops) for k pictured elements.
  private func writeAnimations(
    from old: Session, to session: Session, _ result: BatchResult, deleted: Set<IndexPath>,
    _ w: inout JSONWriter
  ) {
    var appearing: [LayoutAttributes] = []
    var moved: [(LayoutAttributes, LayoutAttributes)] = []
    for a in session.picture {
      guard let before = oldAttributes(of: a, in: old, result) else {
        var initial = a
        initial.alpha = 0
        appearing.append(initial)
        continue
      }
      // A dragged item always settles (it leaves the finger).
      if before.frame != a.frame || before.moving { moved.append((before, a)) }
    }
    var disappearing: [LayoutAttributes] = []
    for a in old.picture {
      guard let after = newAttributes(of: a, in: session, result, deleted: deleted) else {
        var final = a
        final.alpha = 0
        disappearing.append(final)
        continue
      }
      // Elements that moved out of sight: visible before, not after.
      if session.pictured(after.key) == nil && after.frame != a.frame { moved.append((a, after)) }
    }
    w.key("appearing")
    w.attributesArray(appearing, in: session.layout)
    w.key("disappearing")
    w.attributesArray(disappearing, in: old.layout)
    w.key("moved")
    w.beginArray()
    for (before, after) in moved {
      w.beginObject()
      w.identity(after.kind, after.section, after.item, after.lap)
      if let id = session.layout.itemID(of: after) {
        w.key("id")
        w.itemID(id)
      }
      w.key("from")
      w.indexPath(before.indexPath)
      w.key("fromFrame")
      w.rect(before.frame)
      w.key("frame")
      w.rect(after.frame)
      w.endObject()
    }
    w.endArray()
  }

  /// The attributes before the batch of the element now described by `a`,
  /// or nil when it was inserted.
  private func oldAttributes(of a: LayoutAttributes, in old: Session, _ r: BatchResult)
    -> LayoutAttributes?
  {
    if a.kind == .cell {
      guard let from = r.oldPath(of: a.indexPath) else { return nil }
      // What the client showed: the layout's, or a movement's preview.
      let key = ElementKey(kind: .cell, section: from.section, item: from.item, lap: a.lap)
      return old.pictured(key)
        ?? old.layout.attributesForItem(from, lap: a.lap, bounds: old.bounds)
    }
    guard let s = r.oldSection(of: a.section) else { return nil }
    return old.layout.attributesForSupplementary(a.kind, section: s, lap: a.lap, bounds: old.bounds)
  }

  /// The attributes after the batch of the element `a` described before
  /// it, or nil when it was deleted.
  private func newAttributes(
    of a: LayoutAttributes, in new: Session, _ r: BatchResult, deleted: Set<IndexPath>
  ) -> LayoutAttributes? {
    if a.kind == .cell {
      guard let to = r.newPath(of: a.indexPath, deleted: deleted) else { return nil }
      // The new picture's, where it holds the element (the same doubles):
      // a carousel's item query costs its visible copies, once per element.
      let key = ElementKey(kind: .cell, section: to.section, item: to.item, lap: a.lap)
      return new.pictured(key) ?? new.layout.attributesForItem(to, lap: a.lap, bounds: new.bounds)
    }
    guard let s = r.newSection(of: a.section) else { return nil }
    return new.layout.attributesForSupplementary(a.kind, section: s, lap: a.lap, bounds: new.bounds)
  }

  /// layout/reloadData {session, sections} → the mutation fields. Items
  /// with ids keep the anchor across the reload; otherwise the anchor keeps
  /// its index path. O(n).
  func reloadData(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
    let sections = try readSections(
      p, limits: limits, cap: itemCap(for: old.layout.type, holding: old.layout.itemCount),
      format: SectionFormat(old.layout.type))
    try commitReload(id, old, sections, field: p.path("sections"), &w)
  }

  /// Replaces `old`'s data with `sections` and commits it. Items with ids
  /// keep the anchor across the reload; otherwise the anchor keeps its
  /// index path. O(n).
  func commitReload(
    _ id: String, _ old: Session, _ sections: [Section], field: String, _ w: inout JSONWriter,
    answer: (inout JSONWriter, Session) -> Void = { _, _ in }
  ) throws(RPCError) {
    var session = old
    session.layout.setSections(sections)
    try commit(
      id, &session, source: .change(field), &w,
      place: { session in
        var pending: (id: ItemID, anchor: Anchor)? = nil
        session.bounds = reanchor(old, into: session) { path in
          if let itemID = old.layout.sections[path.section].ids?[path.item] ?? nil {
            for (s, section) in sections.enumerated() {
              if let i = section.ids?.firstIndex(of: itemID) {
                return IndexPath(section: s, item: i)
              }
            }
            // Not here (yet): the rest of a chunked reload may bring it.
            if let anchor = old.anchor() { pending = (itemID, anchor) }
          }
          return clampPath(path, in: sections)
        }
        session.pendingAnchor = pending
      }, answer: answer)
  }

  /// layout/configure {session, layout?, contentInset?, overscan?} → the
  /// mutation fields. Fields absent from `layout` keep their values, like
  /// changing properties and calling invalidateLayout. O(n).
  func configure(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
    var session = old
    session.pendingAnchor = nil
    if let f = try p.optionalObject("layout") {
      let type = try LayoutKinds.read(f, base: old.layout.type)
      // A session too large for the new type stays as it is.
      let cap = itemCap(for: type, holding: old.layout.itemCount)
      if old.layout.itemCount > cap.max {
        throw limitError(f.path("type"), cap, count: old.layout.itemCount)
      }
      session.layout.setType(type)
      session.reordering = try readReorderOptions(f, base: old.reordering)
    }
    if let inset = try p.optionalInsets("contentInset") { session.layout.setContentInset(inset) }
    if let v = try p.optionalNumber("overscan", min: 0, maxMagnitude: maxCoordinate) {
      session.overscan = v
    }
    if let v = try p.optionalBool("followsEnd") { session.followsEnd = v }
    try commit(id, &session, source: .configure, &w, idsKept: true) { reanchorInPlace(old, &$0) }
  }

  /// layout/setItemSizes {session, sizes: [{section, item, size}]} → the
  /// mutation fields. Self-sizing: measured sizes replace the estimate.
  /// O(items of the sections touched).
  func setItemSizes(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
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
    var session = old
    session.pendingAnchor = nil
    session.layout.setItemSizes(sizes)
    try commit(id, &session, source: .change(p.path("sizes")), &w, idsKept: true) { session in
      if let bounds = measuredBounds(old, session) {
        session.bounds = bounds
      } else {
        reanchorInPlace(old, &session)
      }
    }
  }

  /// layout/appendItems {session, section, itemCount | itemSizes |
  /// widthsAndHeights | widthsAndHeightsBase64, ids?} → the mutation fields. The bulk path: a
  /// session of many items is opened with its first chunk and grown a
  /// chunk at a time, each request small enough to leave the frames queued
  /// behind it on time. O(sections + k + log n) for k items.
  func appendItems(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
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
    var session = old
    session.layout.appendItems(section: s, count: k, sizes: sizes, ids: ids)
    try commit(id, &session, source: .change(p.path(key)), &w) { session in
      if let pending = old.pendingAnchor, let i = ids?.firstIndex(of: pending.id) {
        // The anchor of the reload this chunk continues has arrived.
        session.pendingAnchor = nil
        session.bounds = session.anchoredBounds(
          pending.anchor, at: IndexPath(section: s, item: old.layout.sections[s].count + i),
          proposed: old.bounds)
      } else {
        reanchorInPlace(old, &session)
      }
    }
  }

  /// layout/scrollSection {session, section, offset} → the mutation fields
  /// plus `offset`, the row's offset clamped to its range. A row's scroll
  /// frame: O(log n + k) for k visible elements.
  func scrollSection(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
    let s = try rowSection(p, old.layout)
    let offset = try p.coordinate("offset")
    var session = old
    session.pendingAnchor = nil
    session.layout.setRowOffset(offset, section: s)
    // A movement goes on: the row scrolls under the finger.
    session.movement?.follow { $0.setRowOffset(offset, section: s) }
    // The main scroll stays where it is: a row moves inside it.
    try commit(
      id, &session, source: .change(p.path("offset")), &w, idsKept: true, keepsMovement: true
    ) { _ in
    } answer: { w, session in
      w.key("offset")
      w.number(session.layout.rowOffsets[s] ?? 0)
    }
  }

  /// The one path every change takes once the request is read and the
  /// change made on a copy of the session (`session`): the kind's own
  /// validation, the bounds placed (`place`: anchoring), what the viewport
  /// meets checked, the picture refreshed, the session stored, and the
  /// answer written: the open fields or the mutation fields, then
  /// `answer`'s. An error on the way leaves the stored session as it was.
  /// O(log n + k) beyond what `place` and `answer` cost.
  ///
  /// Two rules of every change live here: a session that `followsEnd`
  /// and touched the content's end stays at the end when the content
  /// grows, whatever `place` did; and the id index starts over unless the
  /// caller says the ids are as they were (`idsKept`).
  func commit(
    _ id: String, _ session: inout Session, source: ChangeSource, _ w: inout JSONWriter,
    idsKept: Bool = false, keepsMovement: Bool = false, idIndex: LiveItemIndex? = nil,
    place: (inout Session) -> Void = { _ in },
    answer: (inout JSONWriter, Session) -> Void = { _, _ in }
  ) throws(RPCError) {
    try LayoutKinds.check(session.layout, source: source)
    // A change of the data or the configuration cancels a movement first.
    let cancelled = !keepsMovement && session.movement != nil
    if cancelled { session.movement = nil }
    place(&session)
    if let old = sessions[id], session.followsEnd, old.touchesEnd,
      session.layout.mainExtent > old.layout.mainExtent
    {
      session.bounds = session.atEnd(session.bounds)
    }
    if !idsKept { session.idIndex = idIndex ?? LiveItemIndex() }
    try checkViewport(
      session.layout, session.visibleRect, session.bounds, field: source.viewportField)
    let delta = session.refresh()
    store(id, session)
    w.beginObject()
    if case .open = source {
      w.key("contentSize")
      w.size(session.layout.contentSize)
      w.key("bounds")
      w.rect(session.bounds)
      w.key("attributes")
      w.attributesArray(session.picture, at: delta.invalidated, ids: session.pictureIDs)
      w.key("centeredItem")
      w.card(delta.centered, id: session.layout.itemID(of: delta.centered))
    } else {
      w.mutation(session, delta)
    }
    if cancelled {
      w.key("movementCancelled")
      w.bool(true)
    }
    answer(&w, session)
    w.endObject()
  }

  /// The bounds after measured sizes arrive, by the measurement rule (the
  /// rule of web virtualizers such as TanStack Virtual): the first item
  /// that starts inside the viewport (its leading edge at or past the
  /// viewport's, along the scroll axis) keeps its leading edge where it
  /// was on screen. So an item measured above it (including one cut by
  /// the viewport's leading edge) moves the viewport by its change, and
  /// what is on screen stays put; one measured at or below it moves
  /// nothing above it. A viewport at the content's start stays there.
  /// nil where the rule does not apply: a layout that
  /// centres cards, or no item starting in the viewport.
  /// O(log n + k) for k elements in the picture.
  private func measuredBounds(_ old: Session, _ new: Session) -> Rect? {
    guard !old.centresCards else { return nil }
    let vertical = old.layout.scrollDirection == .vertical
    let rtl = !vertical && old.layout.type.layoutDirection == .rtl
    // Leading edges along the scroll axis, growing in reading order.
    func lead(_ r: Rect) -> Double { vertical ? r.y : rtl ? -(r.x + r.width) : r.x }
    let start = lead(old.bounds)
    // At the content's start the viewport stays there: nothing lies above
    // it to keep still (and an item's place in its line may shift).
    let range = old.layout.offsetRange
    let origin = vertical ? range.min.y : rtl ? -range.max.x : range.min.x
    if start <= origin { return new.clamped(old.bounds) }
    let first = old.picture.lazy.filter {
      $0.kind == .cell && lead($0.frame) >= start && $0.frame.intersects(old.bounds)
    }.min { $0.indexPath < $1.indexPath }
    guard let first,
      let now = new.layout.attributesForItem(first.indexPath, lap: first.lap, bounds: old.bounds)
    else { return nil }
    let shift = lead(now.frame) - lead(first.frame)
    var b = old.bounds
    if vertical { b.y += shift } else { b.x += rtl ? -shift : shift }
    return new.clamped(b)
  }

  /// Keeps the element the user was looking at in `old` where it was,
  /// following its index path unchanged.
  private func reanchorInPlace(_ old: Session, _ session: inout Session) {
    session.bounds = reanchor(old, into: session) { $0 }
  }

  /// The bounds after a change that keep the anchor (found in `old`) where
  /// it was; `follow` maps its index path into the new data (nil: gone).
  private func reanchor(_ old: Session, into new: Session, follow: (IndexPath) -> IndexPath?)
    -> Rect
  {
    guard let anchor = old.anchor(), let path = follow(anchor.path) else {
      return new.clamped(old.bounds)
    }
    return new.anchoredBounds(anchor, at: path, proposed: old.bounds)
  }
}

/// The nearest item to `path` in its old section that survives the change
/// (`survives` maps an old path to its new one), searching outward, after
/// before before. O(distance · ops).
private func nearestSurvivor(
  of path: IndexPath, in old: Layout, _ survives: (IndexPath) -> IndexPath?
) -> IndexPath? {
  let count = old.sections[path.section].count
  for d in 1..<max(count, 1) {
    for i in [path.item + d, path.item - d] where i >= 0 && i < count {
      if let p = survives(IndexPath(section: path.section, item: i)) { return p }
    }
  }
  return nil
}

/// `path` clamped into `sections`, or nil when there are no items.
private func clampPath(_ path: IndexPath, in sections: [Section]) -> IndexPath? {
  var s = min(path.section, sections.count - 1)
  while s >= 0 && sections[s].count == 0 { s -= 1 }
  guard s >= 0 else { return nil }
  return IndexPath(section: s, item: min(path.item, sections[s].count - 1))
}
