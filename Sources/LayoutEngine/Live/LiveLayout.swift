// A live layout session: the layout, the viewport the client last
// reported and the picture the client holds (the elements it was last told
// are visible, with the attributes it was told). Every change goes through
// `commit` (Commit.swift) and answers the delta against the picture; the
// queries answer the picture the deltas built.

/// An element's identity in a session's picture: its kind, index path and,
/// in a looping carousel, its lap (each copy is a distinct element).
public struct ElementKey: Hashable, Comparable, Sendable {
  public var kind: ElementKind
  public var section: Int
  public var item: Int
  public var lap: Int?

  public init(kind: ElementKind, section: Int, item: Int, lap: Int? = nil) {
    self.kind = kind
    self.section = section
    self.item = item
    self.lap = lap
  }

  /// Document order: by lap, then section, then background, header,
  /// rows (top separator, cell, bottom separator), footer.
  public static func < (a: ElementKey, b: ElementKey) -> Bool {
    (a.lap ?? 0, a.section, a.kind.documentRank, a.item, a.kind.rowRank)
      < (b.lap ?? 0, b.section, b.kind.documentRank, b.item, b.kind.rowRank)
  }
}

extension LayoutAttributes {
  public var key: ElementKey { ElementKey(kind: kind, section: section, item: item, lap: lap) }
}

extension Array where Element == LayoutAttributes {
  /// Whether the keys strictly increase. O(n).
  var isSorted: Bool {
    // Through a pointer: an element read by subscript is copied whole.
    withUnsafeBufferPointer { all in
      var k = 1
      while k < all.count {
        if !(all[k - 1].key < all[k].key) { return false }
        k += 1
      }
      return true
    }
  }
}

/// What a change answers: the difference between the client's picture
/// and the elements now visible, and what the change itself reports.
public struct LiveDelta {
  /// Positions in the session's picture (which holds the elements now
  /// visible): an attribute is 240 bytes, not copied to be listed.
  public var invalidated: [Int]
  public var removed: [ElementKey]
  /// The removed elements' ids, when the old picture had ids.
  public var removedIDs: [ItemID?]
  /// The card at the centre of the bounds (`centeredItem`).
  public var centered: Card?
  /// Whether the change cancelled an interactive movement in progress.
  public var movementCancelled = false
  /// What only some changes report, boxed: a scroll frame's delta stays
  /// small.
  fileprivate var report: Report? = nil

  /// A batch's animations (performBatchUpdates, a snapshot's diff, the end
  /// of a movement); nil for other changes.
  public var animations: BatchAnimations? {
    get { report?.animations }
    set { edit { $0.animations = newValue } }
  }
  /// The batch the change applied, for a twin session to replay: the
  /// client's own, a snapshot's diff or a movement's one move. nil for
  /// other changes and for a snapshot taken as a reload.
  public var batch: BatchUpdate? {
    get { report?.batch }
    set { edit { $0.batch = newValue } }
  }
  /// A movement's update: where the item would drop.
  public var movementTarget: IndexPath? {
    get { report?.movementTarget }
    set { edit { $0.movementTarget = newValue } }
  }
  /// A movement's update: the autoscroll velocity the finger asks for.
  public var autoscroll: Point? {
    get { report?.autoscroll }
    set { edit { $0.autoscroll = newValue } }
  }
  /// The row whose swipe the change closed (it deleted, moved or reloaded
  /// it), by its path before the change.
  public var closedSwipe: IndexPath? {
    get { report?.closedSwipe }
    set { edit { $0.closedSwipe = newValue } }
  }

  private mutating func edit(_ change: (Report) -> Void) {
    let r = report.map { $0.copy() } ?? Report()
    change(r)
    report = r
  }

  fileprivate final class Report {
    var animations: BatchAnimations?
    var batch: BatchUpdate?
    var movementTarget: IndexPath?
    var autoscroll: Point?
    var closedSwipe: IndexPath?

    func copy() -> Report {
      let r = Report()
      r.animations = animations
      r.batch = batch
      r.movementTarget = movementTarget
      r.autoscroll = autoscroll
      r.closedSwipe = closedSwipe
      return r
    }
  }
}

/// Where an element the user was looking at sat in the viewport, so that
/// after a change the viewport can be moved to keep it there.
struct Anchor: Sendable {
  var path: IndexPath
  /// The anchor's lap in a looping carousel: the copy that stays in place.
  var lap: Int?
  /// Main-axis distance from the reference point (the viewport's centre for
  /// carousels, its origin for flow) to the element's centre.
  var offset: Double
}

/// One live layout session: the engine state, the viewport the client last
/// reported, and the picture the client holds (the elements it was last told
/// are visible, with the attributes it was told).
public struct LiveLayout {
  public internal(set) var layout: Layout
  public internal(set) var bounds: Rect
  /// Points added on each side of the bounds along the scroll axis to make
  /// the visible rect, so that cells are reported before they scroll in.
  public internal(set) var overscan: Double
  /// In document order (ElementKey's <), keys distinct.
  public internal(set) var picture: [LayoutAttributes] = []
  /// The ids of the picture's elements (nil for those without one), when
  /// the layout has ids; empty otherwise. An item whose id changes is
  /// sent again, even where its frame did not.
  public internal(set) var pictureIDs: [ItemID?] = []
  /// `followsEnd`: a change that grows the content while the viewport
  /// touches its end keeps the viewport at the end (a chat list).
  public internal(set) var followsEnd = false
  /// Where each item id lies: built once (by the open, a snapshot's
  /// validation, or the first keyed request), carried over small batches;
  /// shared by copies of the session.
  var idIndex = LiveItemIndex()
  /// The anchor of a `reloadData` whose anchor id was not among the
  /// reload's items: a reload too large for one request arrives in chunks,
  /// and the `appendItems` that brings the id re-anchors on it. Any other
  /// change drops it.
  var pendingAnchor: (id: ItemID, anchor: Anchor)? = nil
  /// The `layout` object's reordering fields (every type has them).
  public internal(set) var reordering = ReorderOptions()
  /// The interactive movement in progress: the picture shows its preview.
  /// Boxed (a box is never changed, only replaced): a movement holds two
  /// layouts, and every scroll frame reads the session without one.
  public internal(set) var movement: InteractiveMovement? {
    get { movementBox?.value }
    set { movementBox = newValue.map(MovementBox.init) }
  }
  private var movementBox: MovementBox? = nil
  /// The row swiped open or being swiped (Swipe.swift), or nil.
  public internal(set) var swipe: Swipe? = nil

  init(layout: Layout, bounds: Rect, overscan: Double) {
    self.layout = layout
    self.bounds = bounds
    self.overscan = overscan
  }

  /// Anchoring follows the centred card of a layout that rests cards at
  /// the viewport's centre, the first visible item otherwise.
  var centresCards: Bool { layout.restModel.measuresFromCentres }

  /// The bounds grown by the overscan along the scroll axis. O(1).
  public var visibleRect: Rect { visibleRect(for: bounds) }

  /// The visible rect the session would have with `bounds`. O(1).
  public func visibleRect(for bounds: Rect) -> Rect {
    var r = bounds
    if layout.scrollDirection == .vertical {
      r.y -= overscan
      r.height += 2 * overscan
    } else {
      r.x -= overscan
      r.width += 2 * overscan
    }
    return r
  }

  /// Recomputes the visible elements, updates the picture and returns what
  /// changed: every element that became visible or changed in any field,
  /// and every element that is no longer visible. An unchanged element is
  /// never sent again. O(log n + k) for k visible elements.
  mutating func refresh() -> LiveDelta {
    // The centred card from the same walk where the layout can.
    // During a movement the picture shows its preview (placed, where a
    // move left it provisional, as far as the picture reaches).
    var visible: [LayoutAttributes]
    var centered: Card?
    if var m = movement {
      let placing = !m.preview.covers(visibleRect, bounds: bounds)
      (visible, centered) = m.attributesAndCenteredCard(in: visibleRect, bounds: bounds)
      // A new box only when the walk placed more of the preview.
      if placing { movement = m }
    } else {
      (visible, centered) = layout.attributesAndCenteredCard(in: visibleRect, bounds: bounds)
    }
    // Placements list a rect's elements in document order; a sort of the
    // few that are not keeps the merge below exact.
    if !visible.isSorted { visible.sort { $0.key < $1.key } }
    let ids = layout.hasItemIDs ? layout.itemIDs(of: visible) : []
    let oldIDs = pictureIDs
    var invalidated: [Int] = []
    invalidated.reserveCapacity(visible.count)
    var removed: [ElementKey] = []
    var removedIDs: [ItemID?] = []
    // Both lists in document order: one merge, no hashing; through
    // pointers, so that no attribute is copied to be compared.
    visible.withUnsafeBufferPointer { now in
      picture.withUnsafeBufferPointer { old in
        var i = 0
        for k in now.indices {
          let key = now[k].key
          while i < old.count && old[i].key < key {
            removed.append(old[i].key)
            if !oldIDs.isEmpty { removedIDs.append(oldIDs[i]) }
            i += 1
          }
          if i < old.count && old[i].key == key {
            if old[i] != now[k] {
              invalidated.append(k)
            } else if !ids.isEmpty || !oldIDs.isEmpty {
              let was = i < oldIDs.count ? oldIDs[i] : nil
              if was != (k < ids.count ? ids[k] : nil) { invalidated.append(k) }
            }
            i += 1
          } else {
            invalidated.append(k)
          }
        }
        while i < old.count {
          removed.append(old[i].key)
          if !oldIDs.isEmpty { removedIDs.append(oldIDs[i]) }
          i += 1
        }
      }
    }
    picture = visible
    pictureIDs = ids
    return LiveDelta(
      invalidated: invalidated, removed: removed, removedIDs: removedIDs, centered: centered)
  }

  // MARK: Queries: the picture the deltas built
  //
  // During an interactive movement every query answers what the client was
  // shown (the preview, with the moving item lifted), as UIKit's layout
  // answers in-flight positions; otherwise the layout's own answers.

  /// Elements meeting `rect` in document order, from just after `after`,
  /// until `take` returns false. O(log n + elements visited).
  public func forEachAttribute(
    in rect: Rect, after: PageStart?, _ take: (LayoutAttributes) -> Bool
  ) {
    guard var m = movement else {
      return layout.forEachAttribute(in: rect, bounds: bounds, after: after, take)
    }
    m.forEachAttribute(in: rect, visible: visibleRect, bounds: bounds, after: after, take)
  }

  /// At least as many elements as `forEachAttribute` visits. O(log n) per
  /// section met.
  public func elementCountBound(in rect: Rect) -> Int {
    movement?.elementCountBound(in: rect, bounds: bounds)
      ?? layout.elementCountBound(in: rect, bounds: bounds)
  }

  /// The item's attributes as the picture shows them. O(log n + k).
  public func attributesForItem(_ path: IndexPath, lap: Int?) -> LayoutAttributes? {
    guard var m = movement else { return layout.attributesForItem(path, lap: lap, bounds: bounds) }
    return m.attributesForItem(path, lap: lap, visible: visibleRect, bounds: bounds)
  }

  /// The front-most cell at `point` in the picture. O(log n + k).
  public func cardAtPoint(_ point: Point) -> Card? {
    guard var m = movement else { return layout.cardAtPoint(point, bounds: bounds) }
    return m.cardAtPoint(point, visible: visibleRect, bounds: bounds)
  }

  /// The attributes the client holds for `key`, if it is in the picture.
  /// O(log k).
  public func pictured(_ key: ElementKey) -> LayoutAttributes? {
    var lo = 0
    var hi = picture.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if picture[mid].key < key { lo = mid + 1 } else { hi = mid }
    }
    return lo < picture.count && picture[lo].key == key ? picture[lo] : nil
  }

  /// Where the item `id` lies, or nil when the session has no such item.
  /// O(1) expected, after O(n) once per change of the ids.
  public func path(of id: ItemID) -> IndexPath? {
    idIndex.path(of: id, in: layout.sections)
  }

  /// `b` with its origin clamped to the valid offsets. O(1).
  public func clamped(_ b: Rect) -> Rect {
    Rect(origin: layout.clampOffset(b.origin), size: b.size)
  }
}

/// A movement, boxed: a scroll frame copies the session without one.
final class MovementBox: Sendable {
  let value: InteractiveMovement
  init(_ value: InteractiveMovement) { self.value = value }
}
