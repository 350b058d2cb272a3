// Anchoring: after a change, the element the user was looking at stays
// where it was on screen. A layout that rests cards at the viewport's
// centre anchors its centred card, any other its first visible item; a
// measurement anchors by the measurement rule; a session that follows the
// end stays at the end.

extension LiveLayout {
  fileprivate func main(_ p: Point) -> Double {
    layout.scrollDirection == .vertical ? p.y : p.x
  }

  fileprivate func reference(_ b: Rect) -> Double {
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
  fileprivate var end: (offset: Double, forward: Bool) {
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
  func measuredBounds(_ old: LiveLayout, _ new: LiveLayout) -> Rect? {
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
  mutating func reanchorInPlace(_ old: LiveLayout) {
    bounds = reanchor(old, into: self) { $0 }
  }

  /// The bounds after a change that keep the anchor (found in `old`) where
  /// it was; `follow` maps its index path into the new data (nil: gone).
  func reanchor(_ old: LiveLayout, into new: LiveLayout, follow: (IndexPath) -> IndexPath?)
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
func nearestSurvivor(
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
func clampPath(_ path: IndexPath, in sections: [Section]) -> IndexPath? {
  var s = min(path.section, sections.count - 1)
  while s >= 0 && sections[s].count == 0 { s -= 1 }
  guard s >= 0 else { return nil }
  return IndexPath(section: s, item: min(path.item, sections[s].count - 1))
}
