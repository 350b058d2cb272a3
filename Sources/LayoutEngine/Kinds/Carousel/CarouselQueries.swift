// The queries of a `carousel`: which items iCarousel would show, at which
// offsets, drawn by the style. The scroll offset in items is
// u = contentOffset / pitch; item i sits at off = i − u, and with wrap u is
// first reduced into one period and off brought within n/2 of it, once, as
// iCarousel's offsetForItemAtIndex does. The offset that shows an item
// names its lap (the copy of the endless content it belongs to).

extension Layout {
  /// The scroll position of `bounds` in items: u, reduced by K periods
  /// when the carousel wraps (so u ∈ [0, n)). O(1).
  func carouselPosition(_ g: SlotGeometry, bounds: Rect) -> (u: Double, K: Int) {
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
  func carouselOffset(_ i: Int, u: Double, K: Int, _ g: SlotGeometry) -> (Double, Int?) {
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

  /// iCarousel's window of candidates: the `visibleItems` indices around
  /// round(u) (halves away from zero), shifted into [0, n − 1] without wrap
  /// and taken mod n with it, each with its offset and lap. O(visibleItems).
  func carouselWindow(_ frame: CarouselFrame, bounds: Rect, _ g: SlotGeometry)
    -> [(global: Int, offset: Double, lap: Int?)]
  {
    let n = g.itemCount
    let N = frame.visibleItems
    guard n > 0, N > 0 else { return [] }
    let (u, K) = carouselPosition(g, bounds: bounds)
    let centre = u.rounded(.toNearestOrAwayFromZero)
    // The window's first index, as a Double: u may be far outside [0, n).
    var start = min(max(centre, -4e18), 4e18) - Double(N / 2)
    if !g.wraps { start = min(max(start, 0), Double(n - N)) }
    return (0..<N).map { j in
      var i = Int(start) + j
      if g.wraps {
        i %= n
        if i < 0 { i += n }
      }
      let (off, lap) = carouselOffset(i, u: u, K: K, g)
      return (i, off, lap)
    }
  }

  /// iCarousel's visible items: the window's candidates that are not
  /// hidden, have alpha above 0 and a frame meeting `rect` with positive
  /// area; by lap, then index. Each one's zIndex is its rank in depth order
  /// among the whole window (`CarouselDepth`). O(visibleItems · log n).
  func carouselAttributes(
    in rect: Rect, bounds: Rect, _ c: CarouselConfiguration, _ g: SlotGeometry
  ) -> [LayoutAttributes] {
    let frame = CarouselFrame(
      c, itemCount: g.itemCount, itemExtent: g.itemExtent, bounds: bounds.size)
    let window = carouselWindow(frame, bounds: bounds, g)
    guard !window.isEmpty else { return [] }
    var marker = outlineRowMarker
    var all = window.map { w -> (depth: CarouselDepth, a: LayoutAttributes) in
      let path = g.indexPath(global: w.global)
      var a = frame.attributes(
        section: path.section, item: path.item, lap: w.lap, size: g.size(of: path),
        offset: w.offset, bounds: bounds)
      marker?.mark(&a, in: self)
      return (CarouselDepth(a, offset: w.offset), a)
    }
    // Rank: how many candidates lie strictly behind (equal depths share one).
    let order = all.indices.sorted { all[$0].depth < all[$1].depth }
    var rank = 0
    for (k, i) in order.enumerated() {
      if k > 0, all[order[k - 1]].depth < all[i].depth { rank = k }
      all[i].a.zIndex = rank
    }
    var result: [(key: (Int, Int), a: LayoutAttributes)] = []
    result.reserveCapacity(all.count)
    for (w, e) in zip(window, all) {
      guard !e.a.hidden, e.a.alpha > 0, e.a.frame.intersects(rect) else { continue }
      result.append(((w.lap ?? 0, w.global), e.a))
    }
    result.sort { $0.key < $1.key }
    return result.map(\.a)
  }

  /// One item's attributes: copy `lap` when the carousel wraps, else (and
  /// without `lap`) the offset iCarousel shows it at. Hidden items are
  /// answered, with `hidden` set. Its zIndex is its rank in depth order
  /// among the window's other candidates, as `carouselAttributes` gives
  /// it. O(visibleItems · log n).
  func carouselItem(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ c: CarouselConfiguration,
    _ g: SlotGeometry
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
    var a = frame.attributes(
      section: path.section, item: path.item, lap: shown, size: g.size(of: path), offset: off,
      bounds: bounds)
    var marker = outlineRowMarker
    marker?.mark(&a, in: self)
    let depth = CarouselDepth(a, offset: off)
    var behind = 0
    for w in carouselWindow(frame, bounds: bounds, g) where w.global != i || w.lap != shown {
      let p = g.indexPath(global: w.global)
      let other = frame.attributes(
        section: p.section, item: p.item, lap: w.lap, size: g.size(of: p), offset: w.offset,
        bounds: bounds)
      if CarouselDepth(other, offset: w.offset) < depth { behind += 1 }
    }
    a.zIndex = behind
    return a
  }
}
