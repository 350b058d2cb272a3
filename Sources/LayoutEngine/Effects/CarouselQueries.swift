// The queries of a `carousel`: which items iCarousel would show, at which
// offsets, drawn by the style. The scroll offset in items is
// u = contentOffset / pitch; item i sits at off = i − u, and with wrap u is
// first reduced into one period and off brought within n/2 of it, once, as
// iCarousel's offsetForItemAtIndex does. The offset that shows an item
// names its lap (the copy of the endless content it belongs to).

extension Layout {
  /// The scroll position of `bounds` in items: u, reduced by K periods
  /// when the carousel wraps (so u ∈ [0, n)). O(1).
  func carouselPosition(_ g: CarouselGeometry, bounds: Rect) -> (u: Double, K: Int) {
    let offset = axes.main(bounds.origin)
    guard g.pitch > 0 else { return (0, 0) }
    // A pitch tiny beside the offset makes u astronomically large: beyond
    // 2^31 items past either end every candidate is as far off as makes
    // no difference, and bounding u keeps every transform finite.
    let bound = 2_147_483_648.0
    func clamp(_ u: Double) -> Double { min(max(u, -bound), Double(g.itemCount) + bound) }
    guard g.wraps, period > 0 else { return (clamp(offset / g.pitch), 0) }
    let (K, shift) = loopBase(offset)
    return (clamp((offset - shift) / g.pitch), K)
  }

  /// The offset of item `i` (global) as shown, and its lap (nil without
  /// wrap). O(1).
  func carouselOffset(_ i: Int, u: Double, K: Int, _ g: CarouselGeometry) -> (Double, Int?) {
    var off = Double(i) - u
    guard g.wraps else { return (off, nil) }
    let n = Double(g.itemCount)
    var lap = K
    if off > n / 2 {
      off -= n
      lap -= 1
    } else if off < -n / 2 {
      off += n
      lap += 1
    }
    return (off, lap)
  }

  /// iCarousel's visible items: the window of `visibleItems` indices
  /// around round(u) (halves away from zero), shifted into [0, n − 1]
  /// without wrap and taken mod n with it, that are not hidden, have alpha
  /// above 0 and a frame meeting `rect` with positive area; by lap, then
  /// index. O(visibleItems · log n).
  func carouselAttributes(
    in rect: Rect, bounds: Rect, _ c: CarouselConfiguration, _ g: CarouselGeometry
  ) -> [LayoutAttributes] {
    let n = g.itemCount
    guard n > 0 else { return [] }
    let frame = CarouselFrame(c, itemCount: n, itemExtent: g.itemExtent, bounds: bounds.size)
    let N = frame.visibleItems
    guard N > 0 else { return [] }
    let (u, K) = carouselPosition(g, bounds: bounds)
    let centre = u.rounded(.toNearestOrAwayFromZero)
    // The window's first index, as a Double: u may be far outside [0, n).
    var start = min(max(centre, -4e18), 4e18) - Double(N / 2)
    if !g.wraps { start = min(max(start, 0), Double(n - N)) }
    var result: [(key: (Int, Int), a: LayoutAttributes)] = []
    result.reserveCapacity(N)
    for j in 0..<N {
      var i = Int(start) + j
      if g.wraps {
        i %= n
        if i < 0 { i += n }
      }
      let (off, lap) = carouselOffset(i, u: u, K: K, g)
      let path = g.indexPath(global: i)
      let a = frame.attributes(
        section: path.section, item: path.item, lap: lap, size: g.size(of: path), offset: off,
        bounds: bounds)
      guard !a.hidden, a.alpha > 0, a.frame.intersects(rect) else { continue }
      result.append(((lap ?? 0, i), a))
    }
    result.sort { $0.key < $1.key }
    return result.map(\.a)
  }

  /// One item's attributes: copy `lap` when the carousel wraps, else (and
  /// without `lap`) the offset iCarousel shows it at. Hidden items are
  /// answered, with `hidden` set. O(log n).
  func carouselItem(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ c: CarouselConfiguration,
    _ g: CarouselGeometry
  ) -> LayoutAttributes {
    let frame = CarouselFrame(
      c, itemCount: g.itemCount, itemExtent: g.itemExtent, bounds: bounds.size)
    let (u, K) = carouselPosition(g, bounds: bounds)
    let i = g.globalIndex(path)
    var (off, shown) = carouselOffset(i, u: u, K: K, g)
    if let lap, g.wraps, lap != shown {
      off = (Double(i) - u) + Double(lap &- K) * Double(g.itemCount)
      shown = lap
    }
    return frame.attributes(
      section: path.section, item: path.item, lap: shown, size: g.size(of: path), offset: off,
      bounds: bounds)
  }

  /// Where anchoring measures a card from, in content coordinates: a
  /// carousel's slot centre (every carousel item is drawn at the viewport's
  /// centre, so its drawn centre says nothing of where it is), else the
  /// element's drawn centre. O(log n).
  public func anchorPoint(_ path: IndexPath, lap: Int?, bounds: Rect) -> Point? {
    guard case .carousel(let g) = placement else {
      return attributesForItem(path, lap: lap, bounds: bounds)?.center
    }
    guard path.section >= 0, path.section < sections.count, path.item >= 0,
      path.item < g.itemCount(inSection: path.section)
    else { return nil }
    var slot = g.frameForItem(path).center
    if let lap, g.wraps {
      let shift = Double(lap) * period
      if scrollDirection == .horizontal { slot.x += shift } else { slot.y += shift }
    }
    return slot
  }
}
