// The pager as a kind: its facts, its slots (rules G1 to G7), its
// transformers as the pipeline's effect (PagerTransformers.swift), and
// FSPagerView's snapping (rule set 5 of protocol.md's pager section).

extension PagerConfiguration: LayoutKind {
  struct Placed: KindPlacement {
    let kind: PagerConfiguration
    var stored: SlotGeometry?
  }

  var name: String { "pager" }
  /// FSPagerView decelerates at the scroll view's `.fast` rate.
  var snapping: SnapConfiguration? {
    var s = SnapConfiguration()
    s.decelerationRate = SnapConfiguration.fast
    s.policy = decelerationDistance == .automatic ? .directional : .paging
    return s
  }
  var uniformItemSize: Size { fixedItemSize ?? .zero }
  /// Pages are centred in the viewport, and an automatic size is the
  /// viewport's.
  var dependsOnMainExtent: Bool { true }
  func repetition(itemCount n: Int) -> Repetition { wraps(itemCount: n) ? .copies : .none }
  var restModel: RestModel { .centredCards }

  /// One section at most, no content inset, no pages of their own sizes,
  /// and with pages a pitch above 0 (repetition's problems follow).
  /// O(sections).
  func problem(_ g: SlotGeometry, in layout: Layout) -> LayoutProblem? {
    if layout.sections.count > 1 { return .sectionCount(layout.sections.count, max: 1) }
    if layout.contentInset != .zero { return .contentInset }
    for section in layout.sections {
      // Ids alone store a size slot per page, each without a size.
      if case .sizes(let sizes) = section.items, sizes.summary.unset != sizes.count {
        return .ownItemSizes
      }
    }
    if layout.itemCount > 0, !(g.pitch > 0) { return .pitch(g.pitch) }
    return nil
  }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming SlotGeometry?,
    continuity: Continuity?
  ) -> SlotGeometry {
    var starts = [0]
    for s in sections { starts.append(starts[starts.count - 1] + s.count) }
    let size = pageSize(in: viewport)
    let s = pitch(in: viewport)
    let E = horizontal ? viewport.width : viewport.height
    // Every page has the page size: per-item sizes are not read.
    return SlotGeometry(
      pitch: s, itemExtent: horizontal ? size.width : size.height, itemSize: size,
      sizes: sections.map { _ in nil }, starts: starts,
      wraps: wraps(itemCount: starts[starts.count - 1]), horizontal: horizontal,
      viewport: viewport, emptyExtent: max(0, E - s))
  }

  // MARK: The pipeline's stages

  typealias EffectContext = PagerFrame

  var hasEffect: Bool { true }

  func effectContext(bounds: Rect, _ g: SlotGeometry, in layout: Layout) -> PagerFrame {
    PagerFrame(
      transformer: transformer, horizontal: horizontal,
      center: horizontal ? bounds.midX : bounds.midY, offset: horizontal ? bounds.x : bounds.y,
      pitch: pitch(in: layout.viewportSize),
      size: pageSize(in: layout.viewportSize), minimumScale: resolvedMinimumScale,
      minimumAlpha: resolvedMinimumAlpha, count: layout.itemCount)
  }

  /// Rule G8 on the endless sequence: p from the client's own offset and
  /// the copy's slot, never from a reduced offset.
  func effectContext(lapBounds: Rect, viewport: Rect, _ g: SlotGeometry, in layout: Layout)
    -> PagerFrame
  {
    effectContext(bounds: viewport, g, in: layout)
  }

  /// The page in slot lap · n + item (rule G4).
  func applyEffect(to a: inout LayoutAttributes, _ frame: PagerFrame, in layout: Layout) {
    guard a.kind == .cell else { return }
    let j = layout.globalIndex(a.indexPath) &+ (a.lap ?? 0) &* frame.count
    frame.apply(to: &a, slot: j)
  }

  /// Rule R3: a page is shown when it is not transparent and no corner is
  /// at or behind the eye.
  func keeps(_ a: LayoutAttributes) -> Bool { a.alpha > 0 && !a.hidden }

  /// The slots whose pages can be drawn in `rect`: the rect widened by how
  /// far a transformer draws a page beyond its slot, and when the rect
  /// meets the region about the centre where pages near it are drawn, the
  /// band of those pages' slots. Unbounded across: a pager has one row.
  func searchRect(_ rect: Rect, bounds: Rect, _ g: SlotGeometry, in layout: Layout) -> Rect {
    let frame = effectContext(bounds: bounds, g, in: layout)
    let reach = frame.reach
    let C = frame.center
    let (lo0, hi0) = horizontal ? (rect.minX, rect.maxX) : (rect.minY, rect.maxY)
    var lo = lo0 - reach.side
    var hi = hi0 + reach.side
    let huge = 1e300
    if let band = reach.band, hi0 >= C - band.drawn, lo0 <= C + band.drawn {
      lo = min(lo, C - band.slots)
      hi = max(hi, C + band.slots)
    }
    if let q = frame.opaqueReach {
      // Only the slots of pages that are not transparent (|p| < q, their
      // frames up to half a page beyond): a point of margin each way.
      let r = q * abs(frame.pitch) + frame.e / 2 + 1
      lo = max(lo, C - r)
      hi = min(hi, C + r)
      // Nothing drawn there: a search that meets no slot.
      if !(lo <= hi) { (lo, hi) = (-huge, -huge) }
    }
    if !(lo >= -huge) { lo = -huge }
    if !(hi <= huge) { hi = huge }
    return horizontal
      ? Rect(x: lo, y: -huge, width: hi - lo, height: 2 * huge)
      : Rect(x: -huge, y: lo, width: 2 * huge, height: hi - lo)
  }

  /// The slot's centre, in the copy `lap`: a cubic page's drawn centre is
  /// shifted off it, and anchoring keeps the page, not its drawing.
  func anchorPoint(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ g: SlotGeometry, of layout: Layout
  ) -> Point? {
    g.slotCenter(path, lap: lap)
  }

  /// FSPagerView's rule after a size change: the page centred before is
  /// at rest, its origin j*·s′ along the axis.
  func anchorOffsetAfterResize(_ offset: Double) -> Double { 0 }

  // MARK: Snapping

  /// FSPagerView's targetContentOffset: slot j of the projection, biased
  /// a third of a page by a fling (automatic), or at most N − 1 pages past
  /// the current one's boundary (a deceleration distance N); clamped to
  /// the pages without wrap. O(1).
  func restTarget(
    contentOffset o: Point, projected: Point, velocity v: Point, _ g: SlotGeometry,
    of layout: Layout
  ) -> (main: Double, item: IndexPath?, lap: Int?)? {
    let n = layout.itemCount
    guard n > 0 else { return (0, nil, nil) }
    let s = pitch(in: layout.viewportSize)
    guard s > 0 else { return (0, IndexPath(section: 0, item: 0), nil) }
    let x = (horizontal ? o.x : o.y) / s
    let q = (horizontal ? projected.x : projected.y) / s
    let speed = horizontal ? v.x : v.y
    func round(_ t: Double) -> Double { (t + 0.5).rounded(.down) }
    var j: Double
    switch decelerationDistance {
    case .automatic:
      j = abs(speed) >= 0.3 ? round(q + 0.35 * (speed >= 0 ? 1 : -1)) : round(q)
    case .pages(let N):
      if speed >= 0.3 {
        j = (x + Double(N - 1)).rounded(.up)
      } else if speed <= -0.3 {
        j = (x - Double(N - 1)).rounded(.down)
      } else {
        j = round(q)
      }
    }
    let wraps = layout.loops
    if !wraps { j = min(max(j, 0), Double(n - 1)) }
    // Offsets stay within the protocol's 1e15: so do the slots (and within
    // what an Int holds, however small the pitch).
    let bound = min((1e15 / s).rounded(.down), 4e18)
    j = min(max(j, -bound), bound)
    let slot = Int(j)
    guard wraps else { return (j * s, layout.indexPath(global: slot), nil) }
    let card = layout.loopCard(lap: 0, index: slot)
    return (j * s, layout.indexPath(global: card.index), card.lap)
  }
}
