// What a client needs to animate a batch as UICollectionView does: the
// elements appearing and disappearing, and those that moved, each from what
// the client was shown to what it is shown now.

extension LiveLayout {
  /// The animations of the batch `r` that made this session from `old`.
  /// O(k · ops) for k pictured elements.
  func animations(from old: LiveLayout, _ r: BatchResult, deleted: IndexPathSet)
    -> BatchAnimations
  {
    var a = BatchAnimations()
    for now in picture {
      guard let before = old.attributes(before: now, r) else {
        var initial = now
        initial.alpha = 0
        a.appearing.append(initial)
        continue
      }
      // A dragged item always settles (it leaves the finger).
      if before.frame != now.frame || before.moving { a.moved.append((before, now)) }
    }
    for was in old.picture {
      guard let after = attributes(after: was, r, deleted: deleted) else {
        var final = was
        final.alpha = 0
        a.disappearing.append(final)
        a.disappearingIDs.append(old.layout.itemID(of: was))
        continue
      }
      // Elements that moved out of sight: visible before, not after.
      if pictured(after.key) == nil && after.frame != was.frame { a.moved.append((was, after)) }
    }
    return a
  }

  /// The attributes in this (old) session of the element `a` describes
  /// after the batch, or nil when it was inserted: what the client showed,
  /// the layout's or a movement's preview.
  private func attributes(before a: LayoutAttributes, _ r: BatchResult) -> LayoutAttributes? {
    if a.kind.belongsToItem {
      guard let from = r.oldPath(of: a.indexPath) else { return nil }
      let key = ElementKey(kind: a.kind, section: from.section, item: from.item, lap: a.lap)
      return pictured(key) ?? layout.attributes(of: a.kind, item: from, lap: a.lap, bounds: bounds)
    }
    guard let s = r.oldSection(of: a.section) else { return nil }
    return layout.attributesForSupplementary(a.kind, section: s, lap: a.lap, bounds: bounds)
  }

  /// The attributes in this (new) session of the element `a` described
  /// before the batch, or nil when it was deleted. The picture's, where it
  /// holds the element (the same doubles): a carousel's item query costs
  /// its visible copies, once per element.
  private func attributes(after a: LayoutAttributes, _ r: BatchResult, deleted: IndexPathSet)
    -> LayoutAttributes?
  {
    if a.kind.belongsToItem {
      guard let to = r.newPath(of: a.indexPath, deleted: deleted) else { return nil }
      let key = ElementKey(kind: a.kind, section: to.section, item: to.item, lap: a.lap)
      return pictured(key) ?? layout.attributes(of: a.kind, item: to, lap: a.lap, bounds: bounds)
    }
    guard let s = r.newSection(of: a.section) else { return nil }
    return layout.attributesForSupplementary(a.kind, section: s, lap: a.lap, bounds: bounds)
  }
}
