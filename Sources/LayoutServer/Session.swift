import JSONRPC
import LayoutEngine

/// An element's identity in a session's picture: its kind, index path and,
/// in a looping carousel, its lap (each copy is a distinct element).
struct ElementKey: Hashable, Comparable {
  var kind: ElementKind
  var section: Int
  var item: Int
  var lap: Int?

  /// Document order: by lap, then section, then header, cells, footer.
  static func < (a: ElementKey, b: ElementKey) -> Bool {
    (a.lap ?? 0, a.section, a.kind.order, a.item) < (b.lap ?? 0, b.section, b.kind.order, b.item)
  }
}

extension LayoutAttributes {
  var key: ElementKey { ElementKey(kind: kind, section: section, item: item, lap: lap) }
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

extension ElementKind {
  /// Document order within a section: a background, the header, cells,
  /// footer.
  var order: Int {
    switch self {
    case .decoration: return -1
    case .header: return 0
    case .cell: return 1
    case .footer: return 2
    }
  }
}

/// What a mutating answer reports: the difference between the client's
/// picture and the elements now visible.
struct Delta {
  /// Positions in the session's picture (which holds the elements now
  /// visible): an attribute is 240 bytes, not copied to be listed.
  var invalidated: [Int]
  var removed: [ElementKey]
  /// The removed elements' ids, when the old picture had ids.
  var removedIDs: [ItemID?]
  /// The card at the centre of the bounds (`centeredItem`).
  var centered: Card?
}

/// Where an element the user was looking at sat in the viewport, so that
/// after a change the viewport can be moved to keep it there.
struct Anchor {
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
struct Session {
  var layout: Layout
  var bounds: Rect
  /// Points added on each side of the bounds along the scroll axis to make
  /// the visible rect, so that cells are reported before they scroll in.
  var overscan: Double
  /// In document order (ElementKey's <), keys distinct.
  var picture: [LayoutAttributes] = []
  /// The ids of the picture's elements (nil for those without one), when
  /// the layout has ids; empty otherwise. An item whose id changes is
  /// sent again, even where its frame did not.
  var pictureIDs: [ItemID?] = []
  /// `followsEnd`: a change that grows the content while the viewport
  /// touches its end keeps the viewport at the end (a chat list).
  var followsEnd = false
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
  var reordering = ReorderOptions()
  /// The interactive movement in progress: the picture shows its preview.
  /// Boxed (a box is never changed, only replaced): a movement holds two
  /// layouts, and every scroll frame reads the session without one.
  var movement: InteractiveMovement? {
    get { movementBox?.value }
    set { movementBox = newValue.map(MovementBox.init) }
  }
  private var movementBox: MovementBox? = nil

  init(layout: Layout, bounds: Rect, overscan: Double) {
    self.layout = layout
    self.bounds = bounds
    self.overscan = overscan
  }

  /// Anchoring follows the centred card of a layout that rests cards at
  /// the viewport's centre, the first visible item otherwise.
  var centresCards: Bool { layout.restModel.measuresFromCentres }

  /// The bounds grown by the overscan along the scroll axis. O(1).
  var visibleRect: Rect { visibleRect(for: bounds) }

  /// The visible rect the session would have with `bounds`. O(1).
  func visibleRect(for bounds: Rect) -> Rect {
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
  mutating func refresh() -> Delta {
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
    let ids = layout.hasItemIDs ? visible.map { layout.itemID(of: $0) } : []
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
    return Delta(
      invalidated: invalidated, removed: removed, removedIDs: removedIDs, centered: centered)
  }

  // MARK: Queries: the picture the deltas built
  //
  // During an interactive movement every query answers what the client was
  // shown (the preview, with the moving item lifted), as UIKit's layout
  // answers in-flight positions; otherwise the layout's own answers.

  /// Elements meeting `rect` in document order, from just after `after`,
  /// until `take` returns false. O(log n + elements visited).
  func forEachAttribute(
    in rect: Rect, after: PageStart?, _ take: (LayoutAttributes) -> Bool
  ) {
    guard var m = movement else {
      return layout.forEachAttribute(in: rect, bounds: bounds, after: after, take)
    }
    m.forEachAttribute(in: rect, visible: visibleRect, bounds: bounds, after: after, take)
  }

  /// At least as many elements as `forEachAttribute` visits. O(log n) per
  /// section met.
  func elementCountBound(in rect: Rect) -> Int {
    movement?.elementCountBound(in: rect, bounds: bounds)
      ?? layout.elementCountBound(in: rect, bounds: bounds)
  }

  /// The item's attributes as the picture shows them. O(log n + k).
  func attributesForItem(_ path: IndexPath, lap: Int?) -> LayoutAttributes? {
    guard var m = movement else { return layout.attributesForItem(path, lap: lap, bounds: bounds) }
    return m.attributesForItem(path, lap: lap, visible: visibleRect, bounds: bounds)
  }

  /// The front-most cell at `point` in the picture. O(log n + k).
  func cardAtPoint(_ point: Point) -> Card? {
    guard var m = movement else { return layout.cardAtPoint(point, bounds: bounds) }
    return m.cardAtPoint(point, visible: visibleRect, bounds: bounds)
  }

  /// The attributes the client holds for `key`, if it is in the picture.
  /// O(log k).
  func pictured(_ key: ElementKey) -> LayoutAttributes? {
    var lo = 0
    var hi = picture.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if picture[mid].key < key { lo = mid + 1 } else { hi = mid }
    }
    return lo < picture.count && picture[lo].key == key ? picture[lo] : nil
  }

  private func main(_ p: Point) -> Double {
    layout.scrollDirection == .vertical ? p.y : p.x
  }

  private func reference(_ b: Rect) -> Double {
    centresCards ? main(b.center) : main(b.origin)
  }

  /// The element the user is looking at: the centred card of a carousel,
  /// the first visible item of a flow layout. O(log n + k).
  func anchor() -> Anchor? {
    let card: Card?
    if centresCards {
      card = layout.centeredCard(in: bounds)
    } else {
      card = layout.attributes(in: bounds, bounds: bounds).lazy.filter { $0.kind == .cell }
        .map(\.indexPath).min().map { Card(path: $0) }
    }
    guard let card, let p = layout.anchorPoint(card.path, lap: card.lap, bounds: bounds)
    else { return nil }
    return Anchor(path: card.path, lap: card.lap, offset: main(p) - reference(bounds))
  }

  /// Bounds of `size` whose origin keeps the element now at `path` where
  /// the anchor was, clamped to the valid offsets. The cross-axis origin is
  /// `proposed`'s. O(items in the element's line).
  func anchoredBounds(_ anchor: Anchor, at path: IndexPath, proposed: Rect) -> Rect {
    var b = proposed
    // In a loop the anchor keeps its lap: the same copy stays in place.
    guard let p = layout.anchorPoint(path, lap: anchor.lap, bounds: b) else {
      return clamped(b)
    }
    let extent = layout.scrollDirection == .vertical ? b.height : b.width
    let origin = main(p) - anchor.offset - (centresCards ? extent / 2 : 0)
    if layout.scrollDirection == .vertical { b.y = origin } else { b.x = origin }
    return clamped(b)
  }

  /// The content's end along the scroll axis: the largest offset, or in
  /// a horizontal rtl layout (whose offsets run negative) the smallest.
  /// O(1).
  private var end: (offset: Double, forward: Bool) {
    let range = layout.offsetRange
    if layout.scrollDirection == .vertical { return (range.max.y, true) }
    return layout.type.layoutDirection == .rtl ? (range.min.x, false) : (range.max.x, true)
  }

  /// Whether the viewport touches the end of the content (within 1 pt),
  /// the inset included. Never in a loop, which has no end. O(1).
  var touchesEnd: Bool {
    guard !layout.loops else { return false }
    let (offset, forward) = end
    let o = main(bounds.origin)
    return forward ? o >= offset - 1 : o <= offset + 1
  }

  /// `b` moved to the end of the content along the scroll axis. O(1).
  func atEnd(_ b: Rect) -> Rect {
    var b = b
    if layout.scrollDirection == .vertical { b.y = end.offset } else { b.x = end.offset }
    return clamped(b)
  }

  /// Where the item `id` lies, or nil when the session has no such item.
  /// O(1) expected, after O(n) once per change of the ids.
  func path(of id: ItemID) -> IndexPath? {
    idIndex.path(of: id, in: layout.sections)
  }

  func clamped(_ b: Rect) -> Rect {
    Rect(origin: layout.clampOffset(b.origin), size: b.size)
  }
}

extension JSONWriter {
  mutating func elementKey(_ k: ElementKey, id: ItemID? = nil) {
    beginObject()
    identity(k.kind, k.section, k.item, k.lap)
    if let id {
      key("id")
      itemID(id)
    }
    endObject()
  }

  /// `contentSize, bounds, invalidated, removed, centeredItem` of a
  /// mutating answer, inside an object the caller opened.
  mutating func mutation(_ session: Session, _ delta: Delta) {
    key("contentSize")
    size(session.layout.contentSize)
    key("bounds")
    rect(session.bounds)
    key("invalidated")
    attributesArray(session.picture, at: delta.invalidated, ids: session.pictureIDs)
    key("removed")
    beginArray()
    if delta.removedIDs.isEmpty {
      for k in delta.removed { elementKey(k) }
    } else {
      for (k, id) in zip(delta.removed, delta.removedIDs) { elementKey(k, id: id) }
    }
    endArray()
    key("centeredItem")
    card(delta.centered, id: session.layout.itemID(of: delta.centered))
  }
}

final class MovementBox {
  let value: InteractiveMovement
  init(_ value: InteractiveMovement) { self.value = value }
}
