// The rows of a compositional layout: orthogonal sections that scroll on
// their own. Their offsets are the placement's own state beside the main
// scroll (the placement draws each row at its offset), reached by generic
// code through `OrthogonalRows`; they follow batch updates on their
// leading group, take the row effect, and snap by their behaviour with
// the snapping layer's policies and physics.

extension Layout {
  /// Each orthogonal row's offset, by section (absent: 0), in the
  /// left-to-right space along the cross axis. O(1).
  public var rowOffsets: RowOffsets { placement.orthogonalRows?.rowOffsets ?? [:] }

  /// Whether the placement has rows that scroll on their own (a
  /// compositional layout's sections may be). O(1).
  public var hasOrthogonalRows: Bool { placement.orthogonalRows != nil }

  /// Whether section `s` is a row that scrolls on its own. O(1).
  public func scrollsOrthogonally(section s: Int) -> Bool {
    placement.orthogonalRows?.scrollsOrthogonally(section: s) ?? false
  }

  /// A row's range of offsets, or nil for a section that does not scroll
  /// on its own. O(1).
  public func rowRange(section s: Int) -> (lo: Double, hi: Double)? {
    guard let rows = placement.orthogonalRows, rows.scrollsOrthogonally(section: s) else {
      return nil
    }
    return rows.rowRange(section: s)
  }

  /// Scrolls row `s` to `offset`, clamped to its range. O(1).
  public mutating func setRowOffset(_ offset: Double, section s: Int) {
    placement.setRowOffset(offset, section: s)
    invariantCheck()
  }

  /// The row offset that shows item `path` of an orthogonal row at
  /// `position` (its centre at the visible centre, or its leading or
  /// trailing edge at the row's inset), clamped to the row's range; nil
  /// when its section does not scroll on its own. O(1).
  public func rowTarget(for path: IndexPath, position: ItemPosition) -> Double? {
    guard let rows = placement.orthogonalRows, rows.scrollsOrthogonally(section: path.section)
    else { return nil }
    return rows.rowTarget(for: path, position: position)
  }

  /// The plan of a row released at `contentOffset` with `velocity` (the
  /// row's own, along the cross axis; the other component passes
  /// through): the projection (UIKit's deceleration; `.fast` for the
  /// paging behaviours, as UIKit's orthogonal scroll views use), the
  /// behaviour's rest and policy, and the trajectory to it. Continuous:
  /// free; continuousGroupLeadingBoundary: the nearest group boundary;
  /// paging (pages of the bounds' width), groupPaging and
  /// groupPagingCentered: one page or group per fling. nil when the
  /// section does not scroll on its own. O(log groups + samples).
  public func rowScrollPlan(
    section s: Int, contentOffset: Point, velocity: Point, proposed: Point? = nil,
    frameInterval: Double = 1000.0 / 60
  ) -> ScrollPlan? {
    guard let rows = placement.orthogonalRows, rows.scrollsOrthogonally(section: s) else {
      return nil
    }
    return rows.rowScrollPlan(
      section: s, contentOffset: contentOffset, velocity: velocity, proposed: proposed,
      frameInterval: frameInterval, viewport: viewportSize)
  }

  /// The rect of untransformed frames to examine for `rect`: widened by
  /// how far a row effect's scale can grow a cell beyond its frame. O(1).
  func rowSearch(_ rect: Rect, _ g: CompositionalGeometry) -> Rect {
    let r = g.effectReach
    guard r > 0 else { return rect }
    return Rect(
      x: rect.x - r, y: rect.y - r, width: rect.width + 2 * r, height: rect.height + 2 * r)
  }

  /// A compositional element's zIndex (a background at 0 lifts the rest of
  /// its section to 1; pinned boundary items float above everything), and
  /// for a cell of a row with an effect, the effect. O(1).
  func decorateRowElement(_ a: inout LayoutAttributes, _ g: CompositionalGeometry) {
    let s = a.section
    let lifted = g.hasBackground(section: s) ? 1 : 0
    if let l = g.sections[s].list { l.metrics.decorate(&a, rowCount: l.band.count) }
    switch a.kind {
    case .decoration:
      a.zIndex = 0
    case .header, .footer:
      a.zIndex = g.pins(a.kind, section: s) ? Self.pinnedZIndex : lifted
    case .topSeparator, .bottomSeparator:
      a.zIndex = lifted
    case .cell:
      a.zIndex = lifted
      if let e = g.rowEffect(section: s) {
        // The row's visible area spans the cross extent.
        e.apply(
          to: &a, center: g.crossExtent / 2, extent: g.crossExtent,
          horizontal: scrollDirection == .vertical)
      }
    }
  }
}

extension CompositionalGeometry: OrthogonalRows {
  public func scrollsOrthogonally(section s: Int) -> Bool {
    s >= 0 && s < sectionCount && orthogonalBehavior(section: s) != .none
  }

  public var orthogonalRows: (any OrthogonalRows)? { self }

  /// After a batch update: each scrolled row keeps its leading group's
  /// first item where it was (rows follow their sections; a row whose
  /// leading item went keeps its offset). O(rows scrolled · (log n + ops)).
  mutating func anchorRows(from before: CompositionalGeometry, _ result: BatchResult) {
    for s in before.rowOffsets.keys.sorted() {
      guard let ns = result.newSection(of: s), ns < sectionCount else { continue }
      var value = before.rowOffset(section: s)
      if let anchor = before.rowAnchor(section: s),
        let p = result.newPath(
          of: IndexPath(section: s, item: anchor.item), deleted: result.deletedItems),
        p.section == ns
      {
        value = groupOffset(of: p) + anchor.delta
      }
      setRowOffset(value, section: ns)
    }
  }

  public func rowTarget(for path: IndexPath, position: ItemPosition) -> Double {
    let (lo, hi, lead, trail) = rowSpan(of: path)
    let W = crossExtent
    let o: Double
    switch position {
    case .center: o = (lo + hi) / 2 - W / 2
    case .leading: o = lo - lead
    case .trailing: o = hi + trail - W
    }
    let range = rowRange(section: path.section)
    return min(max(o, range.lo), range.hi)
  }

  /// See `Layout.rowScrollPlan`.
  public func rowScrollPlan(
    section s: Int, contentOffset: Point, velocity: Point, proposed: Point?,
    frameInterval: Double, viewport viewportSize: Size
  ) -> ScrollPlan {
    let g = self
    let rowIsHorizontal = axes.direction == .vertical
    func along(_ p: Point) -> Double { rowIsHorizontal ? p.x : p.y }
    func point(_ v: Double) -> Point {
      rowIsHorizontal ? Point(x: v, y: contentOffset.y) : Point(x: contentOffset.x, y: v)
    }
    let behavior = g.orthogonalBehavior(section: s)
    var snap = SnapConfiguration()
    switch behavior {
    case .none, .continuous:
      snap.policy = .free
    case .continuousGroupLeadingBoundary:
      snap.policy = .nearest
    case .paging, .groupPaging, .groupPagingCentered:
      snap.policy = .paging
      snap.maxItems = 1
      snap.decelerationRate = SnapConfiguration.fast
    }
    let r = snap.decelerationRate
    let range = g.rowRange(section: s)
    let o = along(contentOffset)
    let v = along(velocity)
    let projected = min(max(proposed.map(along) ?? o + v * r / (1 - r), range.lo), range.hi)
    var target = projected
    var group = g.leadingGroup(g.sections[s], at: projected)
    if snap.policy != .free {
      let W = g.crossExtent
      let page = rowIsHorizontal ? viewportSize.width : viewportSize.height
      var rests: [(offset: Double, group: Int)] = []
      // Distinct rests: groups of no extent share one.
      for rest in g.rowRests(
        section: s, from: min(o, projected) - W, to: max(o, projected) + W, page: page)
      where rests.last.map({ $0.offset < rest.offset }) ?? true {
        rests.append(rest)
      }
      if !rests.isEmpty {
        let (k, t) = Layout.snap(
          snap, over: rests.map(\.offset), offset: o, projected: projected, velocity: v,
          range: range)
        target = t
        // A page's target may be clamped short of its rest: its item is
        // the first group visible where it ends.
        group = behavior == .paging ? g.leadingGroup(g.sections[s], at: t) : rests[k].group
      }
    }
    let item: IndexPath? =
      g.itemCount(inSection: s) > 0
      ? IndexPath(section: s, item: group * g.sections[s].template.leafCount) : nil
    let (duration, samples) = Layout.decelerate(
      from: contentOffset, to: point(target), rate: r, frameInterval: frameInterval)
    return ScrollPlan(
      targetContentOffset: point(target), targetItem: item,
      projectedContentOffset: point(projected),
      policy: snap.policy, durationMs: duration, trajectory: samples)
  }
}
