// Drag to reorder: UICollectionView's interactive movement
// (beginInteractiveMovementForItem, updateInteractiveMovementTargetPosition,
// endInteractiveMovement, cancelInteractiveMovement), on any kind.
//
// Nothing here knows a layout type. During a movement the data has not
// changed; what the client sees is a preview: the layout of the data with
// the moving item at the target, reached from the last preview by one
// batch move (so a frame whose target did not change costs a walk, and
// one whose target moved by a slot re-breaks a line or two). Sizes and ids
// travel with the item, as a batch move carries them: sizes belong to
// items, not to index paths. Each preview is a layout of real data, so its
// frames are bit for bit those of a session holding that data.
//
// A preview is placed only as far as the movement looks (the viewport,
// the finger, the search for a slot): where a move re-places everything
// after it (a packed waterfall's columns), the rest is placed when a
// query first reaches it (`Layout.apply(_:covering:bounds:)`), so a frame
// costs the items between the target and what is seen, not the section.

/// How a movement picks its target, and how a client should autoscroll:
/// fields of the `layout` object on every type.
public struct ReorderOptions: Equatable, Sendable {
  public enum Targeting: String, CaseIterable, Sendable {
    /// UIKit's targetIndexPath(forInteractivelyMovingItem:withPosition:):
    /// the item under the position; over a gap, no change.
    case uikit
    /// The slot whose centre is nearest the position, with hysteresis.
    case nearest
  }

  public var targeting = Targeting.uikit
  /// In nearest targeting, how much nearer (points) a new slot's centre
  /// must be than the current target's before the target changes.
  public var hysteresis = 8.0
  /// Whether an item may move to another section.
  public var allowsCrossSection = true
  /// How close (points) to the viewport's edge autoscroll starts.
  public var autoscrollEdge = 60.0
  /// The autoscroll speed at the edge itself, in points per ms.
  public var autoscrollMaxSpeed = 1.5

  public init() {}
}

/// One interactive movement in progress: where the item came from, where
/// it would land, and the preview that shows it there.
public struct InteractiveMovement: Sendable {
  /// The moving item's path in the data (which does not change until the
  /// movement ends).
  public let origin: IndexPath
  /// Where the item would land: its path in the data after the move.
  public private(set) var target: IndexPath
  /// Where the client last put the item's centre, in content coordinates.
  public private(set) var position: Point
  /// The data with the item at `target`.
  public private(set) var preview: Layout
  /// How many rows after the origin go with it (an outline node's visible
  /// descendants): hidden from the first update to the drop, then moved
  /// with it. The preview and the slots are those of the data without
  /// them (`base`).
  public let subtree: Int
  /// `subtree` once lifted: the rows the preview leaves out.
  private var hidden = 0
  private var base: Layout?
  /// Whether the item has been lifted: the picture does not change until
  /// the first update, so until then the picture, and every query, is the
  /// data's (`preview`, with the item still at its origin, unmarked).
  public private(set) var isLifted = false
  /// The moving item's attributes when the movement began: it keeps its
  /// size, transform and alpha while it follows the finger.
  let grabbed: LayoutAttributes
  /// The lap of the slot the target was taken from (a looping layout's
  /// copy under the finger), for the current slot's centre.
  private var targetLap: Int?
  /// The data without the moving item (nearest targeting's slots), built
  /// on the first update that needs it; and the centre the item would
  /// have at the end of each section asked for, by section and lap.
  private var removed: Layout?
  private var endSlots: [SlotKey: Point] = [:]

  private struct SlotKey: Hashable {
    var section: Int
    var lap: Int?
  }

  /// A movement of the item at `origin` (its copy `lap` in a looping
  /// layout), as the layout shows it in `bounds`; nil when the path is
  /// not an item. O(log n).
  public init?(_ layout: Layout, origin: IndexPath, lap: Int?, bounds: Rect, subtree: Int = 0) {
    guard var a = layout.attributesForItem(origin, lap: lap, bounds: bounds) else { return nil }
    a.moving = true
    self.origin = origin
    self.subtree = subtree
    self.target = origin
    self.position = a.center
    self.preview = layout
    self.grabbed = a
    self.targetLap = a.lap
  }

  /// The moving item's attributes at the position: its own, moved so that
  /// its centre is there, above every other element (`top`).
  func moving(above top: Int) -> LayoutAttributes {
    var a = grabbed
    // Where the element is seen (a carousel's transform translates it
    // from its centre) lands on the position.
    let seen = a.seenCenter
    let dx = position.x - seen.x
    let dy = position.y - seen.y
    // Untranslated, the centre is the position itself, to the bit.
    a.center = a.center == seen ? position : Point(x: a.center.x + dx, y: a.center.y + dy)
    a.frame.x += dx
    a.frame.y += dy
    // Above the others (`top` is Int.min when there are none).
    a.zIndex = max(a.zIndex, top == Int.min || top == Int.max ? top : top + 1)
    return a
  }

  /// The data path of the item the preview shows at `p`. O(1).
  public func dataPath(ofPreview p: IndexPath) -> IndexPath {
    if p == target { return origin }
    // Out of the target's place, then back into the origin's.
    var q = p
    if q.section == target.section && q.item > target.item { q.item -= 1 }
    if q.section == origin.section && q.item >= origin.item { q.item += 1 + hidden }
    return q
  }

  /// The elements the client sees in `rect`: the preview's, named by their
  /// items' data paths, without the item at the target (every copy of it
  /// in a loop), with the moving item at the position on top; and the
  /// centred card, by its data path. Not sorted. O(log n + k), plus the
  /// placing of what the preview had left provisional in `rect`.
  public mutating func attributesAndCenteredCard(in rect: Rect, bounds: Rect)
    -> (attributes: [LayoutAttributes], centered: Card?)
  {
    guard isLifted else { return preview.attributesAndCenteredCard(in: rect, bounds: bounds) }
    if !preview.covers(rect, bounds: bounds) {
      preview.place(covering: ahead(rect), bounds: bounds)
    }
    let (list, centred) = preview.attributesAndCenteredCard(in: rect, bounds: bounds)
    var out: [LayoutAttributes] = []
    out.reserveCapacity(list.count + 1)
    var top = Int.min
    for var a in list {
      if a.kind.belongsToItem {
        if a.indexPath == target { continue }
        let d = dataPath(ofPreview: a.indexPath)
        a.section = d.section
        a.item = d.item
      }
      top = max(top, a.zIndex)
      out.append(a)
    }
    // The moving item where it meets the rect, as any element is reported.
    let lifted = moving(above: top)
    if lifted.frame.intersects(rect) { out.append(lifted) }
    let card = centred.map { Card(path: dataPath(ofPreview: $0.path), lap: $0.lap) }
    return (out, card)
  }

  // MARK: Queries during the movement
  //
  // While a movement lasts, queries answer the picture the deltas built
  // (UIKit's layout answers in-flight positions too): the preview named by
  // data paths, without the item at the target, with the moving item
  // lifted above what the viewport shows. `visible` is the session's
  // visible rect, where the lifted item's zIndex is decided, so that it is
  // the same in every answer.

  /// The path at which the preview shows the data's item `d`: the inverse
  /// of `dataPath(ofPreview:)` (the origin maps to the target), nil for a
  /// row hidden with the moving one. O(1).
  public func previewPath(ofData d: IndexPath) -> IndexPath? {
    if d == origin { return target }
    var q = d
    if q.section == origin.section && q.item > origin.item {
      guard q.item > origin.item + hidden else { return nil }
      q.item -= 1 + hidden
    }
    if q.section == target.section && q.item >= target.item { q.item += 1 }
    return q
  }

  /// The preview's elements in `rect`, placed first where the preview left
  /// them provisional, each named by its data path; the target's cell (every
  /// copy in a loop) left out. O(log n + k), plus the placing.
  private mutating func previewAttributes(in rect: Rect, bounds: Rect) -> [LayoutAttributes] {
    if !preview.covers(rect, bounds: bounds) {
      preview.place(covering: ahead(rect), bounds: bounds)
    }
    var out: [LayoutAttributes] = []
    for var a in preview.attributes(in: rect, bounds: bounds) {
      if a.kind.belongsToItem {
        if a.indexPath == target { continue }
        let d = dataPath(ofPreview: a.indexPath)
        a.section = d.section
        a.item = d.item
      }
      out.append(a)
    }
    return out
  }

  /// The moving item as the picture of `visible` shows it: above every
  /// other element there. O(log n + k) for k elements in `visible`.
  public mutating func lifted(visible: Rect, bounds: Rect) -> LayoutAttributes {
    let top = previewAttributes(in: visible, bounds: bounds).reduce(Int.min) { max($0, $1.zIndex) }
    return moving(above: top)
  }

  /// `Layout.forEachAttribute` over the picture: the elements meeting
  /// `rect` in document order, from just after `after` (a data key), until
  /// `take` returns false. The preview's order, named by data paths, is the
  /// data's (only the target is out of place, and it is left out), so the
  /// lifted item is merged in at its own key. O(log n + elements visited).
  public mutating func forEachAttribute(
    in rect: Rect, visible: Rect, bounds: Rect, after: PageStart?,
    _ take: (LayoutAttributes) -> Bool
  ) {
    guard isLifted else {
      return preview.forEachAttribute(in: rect, bounds: bounds, after: after, take)
    }
    if !preview.covers(rect, bounds: bounds) {
      preview.place(covering: ahead(rect), bounds: bounds)
    }
    let lifted = lifted(visible: visible, bounds: bounds)
    var pending: LayoutAttributes? =
      lifted.frame.intersects(rect) && (after.map { $0.precedes(lifted) } ?? true) ? lifted : nil
    // A data item lies at most one place (and the hidden rows) from its
    // preview item, so the preview's walk starts that much before the data
    // key (or at its section's cells) and skips what does not follow
    // `after`.
    var start = after
    if let a = after, a.position.kind.belongsToItem {
      let back = 2 + hidden
      start!.position =
        a.position.item >= back
        ? ElementPosition(kind: .cell, section: a.position.section, item: a.position.item - back)
        : ElementPosition(kind: .header, section: a.position.section, item: 0)
    }
    var stopped = false
    preview.forEachAttribute(in: rect, bounds: bounds, after: start) { element in
      var a = element
      if a.kind.belongsToItem {
        if a.indexPath == target { return true }
        let d = dataPath(ofPreview: a.indexPath)
        a.section = d.section
        a.item = d.item
      }
      if let after, !after.precedes(a) { return true }
      if let l = pending, Self.documentOrder(l) < Self.documentOrder(a) {
        pending = nil
        if !take(l) {
          stopped = true
          return false
        }
      }
      if !take(a) {
        stopped = true
        return false
      }
      return true
    }
    if !stopped, let l = pending { _ = take(l) }
  }

  private static func documentOrder(_ a: LayoutAttributes) -> (Int, Int, Int, Int, Int) {
    a.documentOrder
  }

  /// At least as many elements as `forEachAttribute` answers over `rect`.
  /// O(log n) per section met.
  public func elementCountBound(in rect: Rect, bounds: Rect) -> Int {
    let n = preview.elementCountBound(in: rect, bounds: bounds)
    return n == .max ? n : n + 1
  }

  /// `attributesForItem` over the picture: the lifted item for the origin,
  /// the preview's item otherwise (named by its data path). O(log n + k).
  public mutating func attributesForItem(
    _ d: IndexPath, lap: Int?, visible: Rect, bounds: Rect
  ) -> LayoutAttributes? {
    guard isLifted else { return preview.attributesForItem(d, lap: lap, bounds: bounds) }
    if d == origin { return lifted(visible: visible, bounds: bounds) }
    guard let q = previewPath(ofData: d) else { return nil }
    if !preview.isPlaced(q) { preview.place(covering: nil) }
    guard var a = preview.attributesForItem(q, lap: lap, bounds: bounds) else { return nil }
    a.section = d.section
    a.item = d.item
    return a
  }

  /// `cardAtPoint` over the picture: the front-most cell whose outline
  /// holds `point` (highest zIndex, then the later lap, then the later
  /// path). O(log n + k).
  public mutating func cardAtPoint(_ point: Point, visible: Rect, bounds: Rect) -> Card? {
    guard isLifted else { return preview.cardAtPoint(point, bounds: bounds) }
    let probe = Rect(
      x: point.x.nextDown, y: point.y.nextDown, width: point.x.nextUp - point.x.nextDown,
      height: point.y.nextUp - point.y.nextDown)
    var list = previewAttributes(in: probe, bounds: bounds)
    let l = lifted(visible: visible, bounds: bounds)
    if l.frame.intersects(probe) { list.append(l) }
    return
      list
      .filter { $0.kind == .cell && $0.outlineContains(point) }
      .max { ($0.zIndex, $0.lap ?? 0, $0.indexPath) < ($1.zIndex, $1.lap ?? 0, $1.indexPath) }
      .map { Card(path: $0.indexPath, lap: $0.lap) }
  }

  /// Moves the item's centre to `position` and retargets it by `options`.
  /// Returns whether the target changed. O(log n + k) for k elements near
  /// the position, plus, when the target changes, one move's relayout
  /// between the old and new targets (see `Layout.apply`).
  @discardableResult
  public mutating func update(
    position p: Point, bounds: Rect, data: Layout, options: ReorderOptions
  ) -> Bool {
    position = p
    if !isLifted && subtree > 0 {
      // Lifted: the rows that go with it leave the preview until the drop.
      var u = BatchUpdate()
      u.deleteItems = (1...subtree).map {
        IndexPath(section: origin.section, item: origin.item + $0)
      }
      Self.apply(u, to: &preview, covering: bounds)
      base = preview
      hidden = subtree
    }
    isLifted = true
    let data = base ?? data
    // What is looked at: the viewport, and the item under the finger for
    // UIKit's rule (nearest targeting takes the finger inside the
    // viewport).
    let focus =
      options.targeting == .uikit
      ? Rect(x: p.x, y: p.y, width: 0, height: 0).union(bounds) : bounds
    look(at: focus, bounds: bounds)
    let next: (path: IndexPath, lap: Int?)?
    switch options.targeting {
    case .uikit: next = uikitTarget(data, options, bounds)
    case .nearest: next = nearestTarget(data, options, bounds, focus: focus)
    }
    guard let next, next.path != target else { return false }
    // In place: once a move has copied the nodes it edits, the next
    // edits of the same neighbourhood find them unshared.
    Self.move(&preview, from: target, to: next.path, covering: ahead(focus))
    target = next.path
    targetLap = next.lap
    return true
  }

  /// Makes the preview (and the data without the item) final in `rect`.
  /// O(items placed).
  private mutating func look(at rect: Rect, bounds: Rect) {
    if !preview.covers(rect, bounds: bounds) {
      preview.place(covering: ahead(rect), bounds: bounds)
    }
    if removed != nil, !removed!.covers(rect, bounds: bounds) {
      removed!.place(covering: ahead(rect), bounds: bounds)
    }
  }

  /// `rect` grown by a viewport's extent each way along the scroll axis:
  /// what is placed when something must be, so that a finger and a
  /// viewport moving on find it placed for a while (a relayout per
  /// viewport travelled, not per frame). O(1).
  private func ahead(_ rect: Rect) -> Rect {
    var r = rect
    if preview.scrollDirection == .vertical {
      r.y -= preview.viewportSize.height
      r.height += 2 * preview.viewportSize.height
    } else {
      r.x -= preview.viewportSize.width
      r.width += 2 * preview.viewportSize.width
    }
    return r
  }

  /// Whether the item may land in section `s`. An outline's row stays in
  /// its tree, and a flat row stays out of trees: a drop into a tree takes
  /// a place there (a parent, a level) that only its own rows have.
  private func accepts(_ s: Int, _ data: Layout, _ options: ReorderOptions) -> Bool {
    let tree = data.sections[origin.section].outlineBox != nil
    return data.sections[s].allowsReordering != false
      && (options.allowsCrossSection || s == origin.section)
      && (tree ? s == origin.section : data.sections[s].outlineBox == nil)
  }

  /// UIKit's rule: the front-most item of the preview under the position.
  /// Over nothing, over the item's own slot, or over a section that does
  /// not take it: no change.
  private func uikitTarget(_ data: Layout, _ options: ReorderOptions, _ bounds: Rect)
    -> (path: IndexPath, lap: Int?)?
  {
    guard let card = preview.cardAtPoint(position, bounds: bounds),
      accepts(card.path.section, data, options)
    else { return nil }
    return (card.path, card.lap)
  }

  /// The nearest slot to the position, where it is nearer than the current
  /// target's by the hysteresis. A slot is the centre of an item of the
  /// data without the moving item (the slot's index is that item's), or the
  /// centre the moving item would have at a section's end. The search
  /// grows a square around the position until the nearest slot found lies
  /// within it. `focus` is what the update looks at (the data without the
  /// item is placed that far when first built).
  private mutating func nearestTarget(
    _ data: Layout, _ options: ReorderOptions, _ bounds: Rect, focus: Rect
  ) -> (path: IndexPath, lap: Int?)? {
    if removed == nil { removed = Self.removing(data, origin, covering: ahead(focus)) }
    // The finger counts where the viewport is: a position dragged past an
    // edge targets the slots at that edge (and the search stays near what
    // is on screen, whatever the position).
    let at = Point(
      x: min(max(position.x, bounds.minX), bounds.maxX),
      y: min(max(position.y, bounds.minY), bounds.maxY))
    let size = data.contentSize
    let limit = max(size.width, size.height) + max(bounds.width, bounds.height)
    var radius = max(grabbed.size.width, grabbed.size.height, 1)
    var best: (distance: Double, path: IndexPath, lap: Int?)? = nil
    func consider(_ d: Double, _ path: IndexPath, _ lap: Int?) {
      if let b = best, (b.distance, b.path) <= (d, path) { return }
      best = (d, path, lap)
    }
    while true {
      let square = Rect(x: at.x - radius, y: at.y - radius, width: 2 * radius, height: 2 * radius)
      look(at: square, bounds: bounds)
      let without = removed!
      // A section's end is a slot where its last item (or, when it has
      // none, one of its supplementaries) is near: the few nearest.
      var ends: [(distance: Double, key: SlotKey)] = []
      for a in without.attributes(in: square, bounds: bounds) {
        guard accepts(a.section, data, options) else { continue }
        let d = distance(a.seenCenter, at)
        let count = without.sections[a.section].count
        if a.kind == .cell {
          consider(d, a.indexPath, a.lap)
          if a.item == count - 1 { ends.append((d, SlotKey(section: a.section, lap: a.lap))) }
        } else if count == 0 {
          ends.append((d, SlotKey(section: a.section, lap: a.lap)))
        }
      }
      ends.sort {
        ($0.distance, $0.key.section, $0.key.lap ?? 0) < (
          $1.distance, $1.key.section, $1.key.lap ?? 0
        )
      }
      var seen = Set<SlotKey>()
      for (_, key) in ends where seen.insert(key).inserted && seen.count <= 4 {
        guard let c = endSlot(key, data, bounds, covering: square) else { continue }
        let end = IndexPath(section: key.section, item: without.sections[key.section].count)
        consider(distance(c, at), end, key.lap)
      }
      if let b = best, b.distance <= radius { break }
      if radius > limit { break }
      radius *= 2
    }
    guard let best, best.path != target else { return nil }
    // The current target's slot: an item's centre or a section's end.
    let current: Point?
    if target.item < removed!.sections[target.section].count {
      if !removed!.isPlaced(target) { removed!.place(covering: nil) }
      current = removed!.attributesForItem(target, lap: targetLap, bounds: bounds)?.seenCenter
    } else {
      current = endSlot(
        SlotKey(section: target.section, lap: targetLap), data, bounds, covering: focus)
    }
    if let current, distance(current, at) - best.distance < options.hysteresis {
      return nil
    }
    return (best.path, best.lap)
  }

  /// The centre the moving item would have at the end of section
  /// `key.section` (its copy `key.lap`), computed once per movement.
  private mutating func endSlot(
    _ key: SlotKey, _ data: Layout, _ bounds: Rect, covering rect: Rect
  ) -> Point? {
    if let c = endSlots[key] { return c }
    guard let without = removed else { return nil }
    let end = IndexPath(section: key.section, item: without.sections[key.section].count)
    var u = BatchUpdate()
    u.insertItems = [(end, data.sections[origin.section].item(origin.item))]
    guard let r = try? u.apply(to: without.sections, uniformSize: without.type.uniformItemSize)
    else { return nil }
    var with = without
    with.apply(r, covering: rect, bounds: bounds)
    guard let c = with.attributesForItem(end, lap: key.lap, bounds: bounds)?.seenCenter else {
      return nil
    }
    endSlots[key] = c
    return c
  }

  /// `layout` with the item at `from` moved to `to` (a path after the
  /// move), final in `rect`. One batch move: O(log n + the lines between
  /// re-broken, or the items re-placed up to the rect).
  static func move(_ layout: inout Layout, from: IndexPath, to: IndexPath, covering rect: Rect) {
    guard from != to else { return }
    if let r = layout.movingItem(from: from, to: to) {
      layout.apply(r, covering: rect, bounds: rect)
      return
    }
    var u = BatchUpdate()
    u.moveItems = [(from, to, nil)]
    apply(u, to: &layout, covering: rect)
  }

  /// `layout` without the item at `path`, final in `rect`. O(log n +
  /// lines re-broken, or the items re-placed up to the rect).
  static func removing(_ layout: Layout, _ path: IndexPath, covering rect: Rect) -> Layout {
    var u = BatchUpdate()
    u.deleteItems = [path]
    var l = layout
    apply(u, to: &l, covering: rect)
    return l
  }

  private static func apply(_ u: BatchUpdate, to layout: inout Layout, covering rect: Rect) {
    // Built from valid paths, so UIKit's checks pass; were one to fail,
    // the layout stays as it was rather than trap.
    guard let r = try? u.apply(to: layout.sections, uniformSize: layout.type.uniformItemSize)
    else { return }
    layout.apply(r, covering: rect, bounds: rect)
  }

  /// The velocity (points per ms) at which a client should scroll while
  /// the position rests near an edge of `bounds` along a scrollable axis:
  /// zero outside `autoscrollEdge`, growing linearly to
  /// `autoscrollMaxSpeed` at the edge, zero where the content cannot
  /// scroll further that way. Over an orthogonal row, the row's own axis
  /// counts too. The content is the data's (`data`): its size is the
  /// one the client scrolls over. O(log n + k) for k elements under the
  /// position.
  public func autoscroll(bounds: Rect, data: Layout, options: ReorderOptions) -> Point {
    let edge = options.autoscrollEdge
    guard edge > 0 else { return Point(x: 0, y: 0) }
    let range = data.offsetRange
    let vertical = preview.scrollDirection == .vertical
    func speed(
      _ at: Double, _ lo: Double, _ hi: Double, _ offset: Double, _ min: Double,
      _ max: Double
    ) -> Double {
      let back = at - lo
      let ahead = hi - at
      // The nearer edge decides in a viewport narrower than two edges.
      if back < edge && back <= ahead && offset > min {
        return -options.autoscrollMaxSpeed * (edge - Swift.max(back, 0)) / edge
      }
      if ahead < edge && offset < max {
        return options.autoscrollMaxSpeed * (edge - Swift.max(ahead, 0)) / edge
      }
      return 0
    }
    var v = Point(x: 0, y: 0)
    // A loop has no end along its axis: it scrolls on both sides.
    let (lo, hi) = data.loops ? (-Double.infinity, Double.infinity) : (0, 0)
    if vertical {
      v.y = speed(
        position.y, bounds.minY, bounds.maxY, bounds.y, data.loops ? lo : range.min.y,
        data.loops ? hi : range.max.y)
    } else {
      v.x = speed(
        position.x, bounds.minX, bounds.maxX, bounds.x, data.loops ? lo : range.min.x,
        data.loops ? hi : range.max.x)
    }
    // A row under the finger scrolls along the cross axis on its own.
    let probe = Rect(x: position.x, y: position.y, width: 0, height: 0)
    let under =
      preview.covers(probe, bounds: bounds)
      ? preview.cardAtPoint(position, bounds: bounds)?.path.section : nil
    let s = under ?? target.section
    if let row = preview.rowRange(section: s) {
      let offset = preview.rowOffsets[s] ?? 0
      if vertical {
        v.x = speed(position.x, bounds.minX, bounds.maxX, offset, row.lo, row.hi)
      } else {
        v.y = speed(position.y, bounds.minY, bounds.maxY, offset, row.lo, row.hi)
      }
    }
    return v
  }

  /// Follows a change of the viewport size or of a row's offset that the
  /// data layout took (a rotation, a row's autoscroll): the movement goes
  /// on over the changed geometry. O(the relayout `change` costs).
  public mutating func follow(_ change: (inout Layout) -> Void) {
    change(&preview)
    if base != nil { change(&base!) }
    if removed != nil { change(&removed!) }
    endSlots = [:]
  }
}

private func distance(_ a: Point, _ b: Point) -> Double {
  let dx = a.x - b.x
  let dy = a.y - b.y
  return (dx * dx + dy * dy).squareRoot()
}

extension LayoutAttributes {
  /// Where the element's centre is seen: its anchor carried by the
  /// transform (a carousel's translates it; a scale leaves it). O(1).
  var seenCenter: Point {
    let m = transform.m
    guard m.12 != 0 || m.13 != 0 else { return center }
    let w = m.15 == 0 ? 1 : m.15
    return Point(x: center.x + m.12 / w, y: center.y + m.13 / w)
  }
}
