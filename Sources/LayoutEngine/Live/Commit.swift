// Every change of a live session goes through `commit`: the change made on
// a copy, the kind's problems checked, the bounds placed (anchoring), the
// embedder's limits asked, the picture refreshed, and only then the
// session replaced. A refused change leaves the session exactly as it was.
// A scroll is a change that needs no relayout, made in place.

/// A change of a live session: each of the protocol's mutating requests.
public enum LiveChange {
  /// The viewport: a scroll when the size is unchanged (O(log n + k) for k
  /// visible elements, the bounds as given), else a resize that relayouts
  /// and keeps the anchor where it was.
  case setBounds(Rect)
  /// UIKit's performBatchUpdates, validated as UIKit does. `itemIndex`, when
  /// known, indexes the new data's ids.
  indirect case performBatchUpdates(BatchUpdate, itemIndex: ItemIndex? = nil)
  /// A diffable data source's snapshot: diffed by id into a batch, or
  /// taken as a reload where the data has no ids to diff (UIKit's first
  /// apply).
  indirect case applySnapshot(Snapshot)
  /// New data, nothing diffed. Items with ids keep the anchor; otherwise it
  /// keeps its index path.
  indirect case reloadData([Section])
  /// New configuration fields; those left nil keep their values.
  indirect case configure(LiveConfiguration)
  /// Self-sizing: measured sizes replace the estimates.
  indirect case setItemSizes([(IndexPath, Size)])
  /// Items appended to a section: the bulk path.
  indirect case appendItems(section: Int, count: Int, sizes: [Size]?, ids: [ItemID?]?)
  /// An orthogonally scrolling section's row offset.
  case scrollSection(Int, offset: Double)
  /// The finger of an interactive movement moved.
  case updateInteractiveMovement(Point)
  /// The drop: the one move from the origin to the target, the bounds
  /// kept (the picture showed the new order already).
  case endInteractiveMovement
  /// The movement cancelled: the picture goes back.
  case cancelInteractiveMovement
  /// Outline nodes expanded, `children` first giving the one node named
  /// its subtree (lazy loading): their rows appear after theirs.
  indirect case expand([ItemID], children: [OutlineNode]?)
  /// Outline nodes collapsed: their descendants' rows go.
  indirect case collapse([ItemID])
  /// Outline nodes appended, inserted, deleted or replaced by id: the
  /// rows that change, diffed with the fewest moves.
  indirect case editOutline(OutlineEdit)
}

/// `layout/configure`'s fields; nil keeps the session's value.
public struct LiveConfiguration {
  public var type: LayoutType?
  public var reordering: ReorderOptions?
  public var contentInset: Insets?
  public var overscan: Double?
  public var followsEnd: Bool?

  public init(
    type: LayoutType? = nil, reordering: ReorderOptions? = nil, contentInset: Insets? = nil,
    overscan: Double? = nil, followsEnd: Bool? = nil
  ) {
    self.type = type
    self.reordering = reordering
    self.contentInset = contentInset
    self.overscan = overscan
    self.followsEnd = followsEnd
  }
}

/// Why a change was refused. The session is as it was.
public enum LiveError<Refusal: Error>: Error {
  /// A batch UIKit would reject, with UIKit's reason.
  case invalidUpdate(String)
  /// A snapshot that cannot be applied.
  case invalidSnapshot(SnapshotError)
  /// The layout the change makes cannot be drawn or scrolled (`type` is
  /// its type, whose fields are to blame).
  case problem(LayoutProblem, type: LayoutType)
  /// A movement's update, end or cancel without a movement in progress.
  case noMovement
  /// The embedder's own check refused what the viewport would meet.
  case refused(Refusal)
  /// An outline change that names what is not there.
  case outline(OutlineRefusal)
}

/// What a batch's animations need, as UICollectionView animates one.
public struct BatchAnimations {
  /// Elements now pictured that were not before, at alpha 0.
  public var appearing: [LayoutAttributes] = []
  /// Elements pictured before that are gone, at alpha 0, with their ids.
  public var disappearing: [LayoutAttributes] = []
  public var disappearingIDs: [ItemID?] = []
  /// Elements whose frame changed (or that were lifted), before and after.
  public var moved: [(from: LayoutAttributes, to: LayoutAttributes)] = []
}

/// The embedder's check of what a viewport meets: `(layout, visibleRect,
/// bounds)`; the daemon refuses too many looping copies or too large an
/// answer.
public typealias ViewportCheck<E: Error> = (Layout, Rect, Rect) throws(E) -> Void

extension LiveLayout {
  /// A new session over `layout` with the viewport `bounds`, and its first
  /// picture (every element the visible rect meets). O(log n + k) beyond
  /// the layout's own cost.
  public static func open<E: Error>(
    _ layout: Layout, bounds: Rect, overscan: Double = 0, followsEnd: Bool = false,
    reordering: ReorderOptions = ReorderOptions(), itemIndex: ItemIndex? = nil,
    checking check: ViewportCheck<E>
  ) throws(LiveError<E>) -> (LiveLayout, LiveDelta) {
    var live = LiveLayout(layout: layout, bounds: bounds, overscan: overscan)
    live.followsEnd = followsEnd
    live.reordering = reordering
    let index = itemIndex.map { LiveItemIndex($0, of: layout.sections) }
    let delta = try live.finish(from: nil, idIndex: index, check)
    return (live, delta)
  }

  /// `open` with no check of its own beyond the layout's problems.
  public static func open(
    _ layout: Layout, bounds: Rect, overscan: Double = 0, followsEnd: Bool = false,
    reordering: ReorderOptions = ReorderOptions(), itemIndex: ItemIndex? = nil
  ) throws(LiveError<Never>) -> (LiveLayout, LiveDelta) {
    try open(
      layout, bounds: bounds, overscan: overscan, followsEnd: followsEnd,
      reordering: reordering, itemIndex: itemIndex, checking: { _, _, _ in })
  }

  /// Makes `change`, or refuses it and leaves the session as it was; the
  /// delta lists what the client's picture must change. A scroll costs
  /// O(log n + k) for k visible elements; other changes cost their
  /// relayout (see `Layout`), O(log n + k) for the picture, and a batch
  /// O(k · ops) for its animations.
  public mutating func commit<E: Error>(_ change: LiveChange, checking check: ViewportCheck<E>)
    throws(LiveError<E>) -> LiveDelta
  {
    if case .setBounds(let requested) = change, requested.size == bounds.size,
      requested.size == layout.viewportSize
    {
      // A scroll, every frame: only the bounds change, in place. The layout
      // is unchanged, so it has no problem a scroll could cause: only what
      // the new viewport meets is checked.
      do { try check(layout, visibleRect(for: requested), requested) } catch {
        throw .refused(error)
      }
      pendingAnchor = nil  // the user moved on: a chunked reload's anchor is stale
      bounds = requested  // the client's bounds are the law
      return refresh()
    }
    var next = self
    let delta = try next.make(change, from: self, check)
    self = next
    return delta
  }

  /// `commit` with no check of its own beyond the layout's problems.
  public mutating func commit(_ change: LiveChange) throws(LiveError<Never>) -> LiveDelta {
    try commit(change, checking: { _, _, _ in })
  }

  /// Starts an interactive movement of the item at `path` (of copy `lap`
  /// in a loop). A change with no delta: the picture does not change until
  /// the first update. An outline row moves with its visible descendants,
  /// hidden from the first update to the drop. False when a movement is
  /// in progress, the item's section does not allow reordering or the item
  /// is not placed. O(log n), plus O(rows before it) in an outline.
  public mutating func beginInteractiveMovement(at path: IndexPath, lap: Int? = nil) -> Bool {
    guard movement == nil, layout.sections[path.section].allowsReordering != false,
      let m = InteractiveMovement(
        layout, origin: path, lap: lap, bounds: bounds, subtree: subtreeRows(at: path))
    else { return false }
    movement = m
    return true
  }

  // MARK: The changes, each on a copy (`old` is the session before it)

  private mutating func make<E: Error>(
    _ change: LiveChange, from old: LiveLayout, _ check: ViewportCheck<E>
  ) throws(LiveError<E>) -> LiveDelta {
    switch change {
    case .setBounds(let requested):
      // A size change (a rotation), which keeps a movement going over the
      // new geometry.
      pendingAnchor = nil
      layout.setViewportSize(requested.size)
      movement?.follow { $0.setViewportSize(requested.size) }
      return try finish(from: old, idsKept: true, keepsMovement: true, check) { session in
        if var anchor = old.anchor() {  // found in the old layout
          anchor.offset = session.layout.anchorOffsetAfterResize(anchor.offset)
          session.bounds = session.anchoredBounds(anchor, at: anchor.path, proposed: requested)
        } else {
          session.bounds = session.clamped(requested)  // nothing to anchor
        }
      }

    case .performBatchUpdates(let update, let itemIndex):
      return try batch(update, from: old, itemIndex: itemIndex, check)

    case .applySnapshot(let snapshot):
      let index: SnapshotIndex
      do { index = try snapshot.validate() } catch { throw .invalidSnapshot(error) }
      guard
        let update = snapshot.batch(
          from: layout.sections, index: index, uniformSize: layout.type.uniformItemSize)
      else {
        // UIKit's first apply: everything replaced, nothing diffed.
        return try reload(snapshot.makeSections(), from: old, check)
      }
      // The validation's table indexes the new sections' ids already. Each
      // section's tree is the snapshot's (none for a flat one).
      var outlines: [Int: Outline?] = [:]
      let wereOutlines = Set(layout.sections.compactMap { $0.outline == nil ? nil : $0.id })
      for (k, s) in snapshot.sections.enumerated()
      where s.outline != nil || wereOutlines.contains(s.id) {
        outlines[k] = .some(s.outline)
      }
      var delta = try batch(
        update, from: old, itemIndex: index.itemIndex, outlines: outlines, wholeSections: true,
        check)
      delta.batch = update
      return delta

    case .reloadData(let sections):
      return try reload(sections, from: old, check)

    case .configure(let c):
      pendingAnchor = nil
      if let type = c.type { layout.setType(type) }
      if let r = c.reordering { reordering = r }
      if let inset = c.contentInset { layout.setContentInset(inset) }
      if let v = c.overscan { overscan = v }
      if let v = c.followsEnd { followsEnd = v }
      return try finish(from: old, idsKept: true, check) { $0.reanchorInPlace(old) }

    case .setItemSizes(let sizes):
      pendingAnchor = nil
      layout.setItemSizes(sizes)
      return try finish(from: old, idsKept: true, check) { session in
        if let bounds = session.measuredBounds(old, session) {
          session.bounds = bounds
        } else {
          session.reanchorInPlace(old)
        }
      }

    case .appendItems(let s, let count, let sizes, let ids):
      if s >= 0, s < layout.sections.count, layout.sections[s].outline != nil {
        throw Self.flatOutlineEdit(s)
      }
      layout.appendItems(section: s, count: count, sizes: sizes, ids: ids)
      return try finish(from: old, check) { session in
        if let pending = old.pendingAnchor, let i = ids?.firstIndex(of: pending.id) {
          // The anchor of the reload this chunk continues has arrived.
          session.pendingAnchor = nil
          session.bounds = session.anchoredBounds(
            pending.anchor, at: IndexPath(section: s, item: old.layout.sections[s].count + i),
            proposed: old.bounds)
        } else {
          session.reanchorInPlace(old)
        }
      }

    case .scrollSection(let s, let offset):
      pendingAnchor = nil
      layout.setRowOffset(offset, section: s)
      // A movement goes on: the row scrolls under the finger. The main
      // scroll stays where it is: a row moves inside it.
      movement?.follow { $0.setRowOffset(offset, section: s) }
      return try finish(from: old, idsKept: true, keepsMovement: true, check)

    case .updateInteractiveMovement(let position):
      guard var m = movement else { throw .noMovement }
      m.update(position: position, bounds: bounds, data: layout, options: reordering)
      movement = m
      var delta = try finish(from: old, idsKept: true, keepsMovement: true, check)
      delta.movementTarget = m.target
      delta.autoscroll = m.autoscroll(bounds: bounds, data: layout, options: reordering)
      return delta

    case .endInteractiveMovement:
      guard let m = movement else { throw .noMovement }
      // The batch starts from the picture the movement left, without it.
      movement = nil
      let base = self
      var update = BatchUpdate()
      // The item and the rows that go with it, in order.
      if m.target != m.origin {
        update.moveItems = (0...m.subtree).map {
          (
            IndexPath(section: m.origin.section, item: m.origin.item + $0),
            IndexPath(section: m.target.section, item: m.target.item + $0), nil
          )
        }
      }
      var outlines: [Int: Outline?] = [:]
      if let tree = droppedOutline(m) { outlines[m.origin.section] = tree }
      var delta = try batch(update, from: base, keepsBounds: true, outlines: outlines, check)
      delta.batch = update
      return delta

    case .cancelInteractiveMovement:
      guard movement != nil else { throw .noMovement }
      movement = nil
      return try finish(from: old, idsKept: true, check)

    case .expand(let ids, let children):
      return try outlineChange(from: old, check) { live throws(OutlineRefusal) in
        try live.outlineBatch(ids, expanding: true, children: children)
      }

    case .collapse(let ids):
      return try outlineChange(from: old, check) { live throws(OutlineRefusal) in
        try live.outlineBatch(ids, expanding: false, children: nil)
      }

    case .editOutline(let edit):
      return try outlineChange(from: old, check) { live throws(OutlineRefusal) in
        try live.outlineEditBatch(edit)
      }
    }
  }

  /// An outline change: the batch of its rows with the trees that say so.
  /// Nothing to change is an empty batch, answered as one (the flags still
  /// change).
  private mutating func outlineChange<E: Error>(
    from old: LiveLayout, _ check: ViewportCheck<E>,
    _ make: (LiveLayout) throws(OutlineRefusal) -> (BatchUpdate, [Int: Outline])
  ) throws(LiveError<E>) -> LiveDelta {
    let (update, outlines): (BatchUpdate, [Int: Outline])
    do { (update, outlines) = try make(self) } catch { throw .outline(error) }
    var delta = try batch(update, from: old, outlines: outlines.mapValues { $0 }, check)
    delta.batch = update
    return delta
  }

  /// Applies `update` to `old`'s data (this session is a copy of `old`):
  /// UIKit's validation, the anchor followed to its new path (or the
  /// bounds kept, at a drop), and the animations. O(sections + ops · log n
  /// + lines re-broken) (see `Layout.apply`), plus O(k · ops).
  private mutating func batch<E: Error>(
    _ update: BatchUpdate, from old: LiveLayout, itemIndex: ItemIndex? = nil,
    keepsBounds: Bool = false, outlines: [Int: Outline?] = [:], wholeSections: Bool = false,
    _ check: ViewportCheck<E>
  ) throws(LiveError<E>) -> LiveDelta {
    var result: BatchResult
    do {
      result = try update.apply(
        to: old.layout.sections, uniformSize: old.layout.type.uniformItemSize)
    } catch {
      throw .invalidUpdate(error.message)
    }
    // An outline's rows change with its tree, never alone.
    for (s, o) in outlines { result.sections[s].outline = o }
    if !wholeSections,
      let s = Self.outlineSectionChanged(
        update, old: old.layout.sections, new: result.sections), outlines[s] == nil
    {
      throw Self.flatOutlineEdit(s)
    }
    pendingAnchor = nil
    layout.apply(result)
    let deleted = result.deletedItems
    // The id index: the snapshot's, the old one where every path stays,
    // else the old one carried over the batch.
    let ids =
      itemIndex.map { LiveItemIndex($0, of: result.sections) }
      ?? (update.keepsItemPaths ? old.idIndex : old.idIndex.after(update, result))
    var delta = try finish(from: old, idIndex: ids, check) { session in
      if keepsBounds {
        session.bounds = session.clamped(old.bounds)
      } else {
        session.bounds = session.reanchor(old, into: session) { path in
          result.newPath(of: path, deleted: deleted)
            ?? nearestSurvivor(of: path, in: old.layout) {
              result.newPath(of: $0, deleted: deleted)
            }
        }
      }
    }
    delta.animations = animations(from: old, result, deleted: deleted)
    if let closed = followSwipe(update, result, deleted: deleted) { delta.closedSwipe = closed }
    return delta
  }

  /// Replaces `old`'s data with `sections`. Items with ids keep the anchor;
  /// otherwise it keeps its index path. An anchor id not among the
  /// sections is kept pending: the rest of a chunked reload may bring it.
  /// O(n).
  private mutating func reload<E: Error>(
    _ sections: [Section], from old: LiveLayout, _ check: ViewportCheck<E>
  ) throws(LiveError<E>) -> LiveDelta {
    layout.setSections(sections)
    // New data: the swiped row is gone with the old.
    let closed = swipe?.path
    swipe = nil
    var delta = try finish(from: old, check) { session in
      var pending: (id: ItemID, anchor: Anchor)? = nil
      session.bounds = session.reanchor(old, into: session) { path in
        if let itemID = old.layout.sections[path.section].ids?[path.item] ?? nil {
          for (s, section) in sections.enumerated() {
            if let i = section.ids?.firstIndex(of: itemID) {
              return IndexPath(section: s, item: i)
            }
          }
          if let anchor = old.anchor() { pending = (itemID, anchor) }
        }
        return clampPath(path, in: sections)
      }
      session.pendingAnchor = pending
    }
    if let closed { delta.closedSwipe = closed }
    return delta
  }

  /// The one path every change takes once made on this copy: the kind's
  /// problems, the bounds placed (`place`: anchoring), the followsEnd
  /// rule, the id index, what the viewport meets checked, and the picture
  /// refreshed. O(log n + k) beyond what `place` costs.
  ///
  /// A session that follows the end and touched it stays at the end when
  /// the content grows, whatever `place` did; the id index starts over
  /// (built on first use) unless the ids are as they were (`idsKept`).
  private mutating func finish<E: Error>(
    from old: LiveLayout?, idsKept: Bool = false, keepsMovement: Bool = false,
    idIndex: LiveItemIndex? = nil, _ check: ViewportCheck<E>,
    place: (inout LiveLayout) -> Void = { _ in }
  ) throws(LiveError<E>) -> LiveDelta {
    if let problem = layout.problem { throw .problem(problem, type: layout.type) }
    // A change of the data or the configuration cancels a movement first.
    let cancelled = !keepsMovement && movement != nil
    if cancelled { movement = nil }
    place(&self)
    if let old, followsEnd, old.touchesEnd, layout.mainExtent > old.layout.mainExtent {
      bounds = atEnd(bounds)
    }
    if !idsKept { self.idIndex = idIndex ?? LiveItemIndex() }
    do { try check(layout, visibleRect, bounds) } catch { throw .refused(error) }
    var delta = refresh()
    delta.movementCancelled = cancelled
    if InternalChecks.enabled { invariantCheck() }
    return delta
  }
}
