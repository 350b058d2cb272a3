// Snapping to item tops: a waterfall's rest offsets put an item's top at
// the visible top. Unlike a carousel's cards, tops are not in index order
// (columns interleave), so the policies run over the distinct tops sorted
// by position, gathered around the offsets a release looks at.

extension Layout {
  /// The distinct rest offsets (left-to-right main axis) of the items whose
  /// tops lie in [lo, hi], ascending, each with the earliest item resting
  /// there. O(segments met · columns · log n + k log k).
  func topRests(from lo: Double, to hi: Double) -> [(offset: Double, item: IndexPath)] {
    var inset = contentInset
    if isRTL { swap(&inset.left, &inset.right) }
    let lead = axes.split(inset).mainLead
    let huge = 1e300
    let span = max(hi - lo, 0) + 1
    let rect =
      scrollDirection == .horizontal
      ? Rect(x: lo + lead, y: -huge, width: span, height: 2 * huge)
      : Rect(x: -huge, y: lo + lead, width: 2 * huge, height: span)
    var rests: [(offset: Double, item: IndexPath)] = []
    placement.forEachElement(in: rect, pin: nil) { kind, s, i, frame in
      guard kind == .cell else { return }
      let t = axes.spans(frame).mainLo - lead
      if t >= lo && t <= hi { rests.append((t, IndexPath(section: s, item: i))) }
    }
    rests.sort { ($0.offset, $0.item) < ($1.offset, $1.item) }
    var distinct: [(offset: Double, item: IndexPath)] = []
    distinct.reserveCapacity(rests.count)
    for r in rests where distinct.last?.offset != r.offset { distinct.append(r) }
    return distinct
  }

  /// The snap policy's item and offset along the scroll axis (left to
  /// right) over item tops: `snapTarget`'s rules, with the sorted tops
  /// around the release and its projection as the cards. O(segments met ·
  /// columns · log n + k log k) for the k items within a viewport or so of
  /// them.
  func topSnapTarget(
    _ snap: SnapConfiguration, offset o: Double, projected p: Double, velocity v: Double
  ) -> (item: IndexPath?, offset: Double) {
    let (lo, hi) = ltrMainRange
    let V = max(axes.main(viewportSize), 1)
    // Paging counts tops from the release; the others look near the
    // projection. A long fling is cut to 16 viewports: paging takes at
    // most maxItems tops from the release anyway.
    var from = p - V
    var to = p + V
    if snap.policy == .paging {
      from = min(from, o - V)
      to = min(max(to, o + V), o + 16 * V)
      from = max(from, o - 16 * V)
    }
    var rests = topRests(from: from, to: to)
    // Nothing near (items far apart): widen until something is.
    var widen = V
    while rests.isEmpty && widen < 4 * max(axes.main(contentSize), V) {
      widen *= 4
      rests = topRests(from: from - widen, to: to + widen)
    }
    guard !rests.isEmpty else { return (nil, min(max(p, lo), hi)) }
    let (k, offset) = Self.snap(
      snap, over: rests.map(\.offset), offset: o, projected: p, velocity: v, range: (lo, hi))
    return (rests[k].item, offset)
  }

  /// A snap policy over sorted, distinct rest offsets `rests` (not empty):
  /// the index of the rest chosen and the offset to end at, clamped to
  /// `range` (the projection itself for `free`, and for `edges: free`
  /// beyond the range). The rules of `snapTarget`, with the rests as the
  /// cards. O(rests).
  static func snap(
    _ snap: SnapConfiguration, over rests: [Double], offset o: Double, projected p: Double,
    velocity v: Double, range: (lo: Double, hi: Double)
  ) -> (index: Int, offset: Double) {
    let (lo, hi) = range
    let n = rests.count
    func fractional(_ u: Double) -> Double {
      let a = upperBound(n) { rests[$0] > u } - 1
      if a < 0 { return 0 }
      if a >= n - 1 { return Double(n - 1) }
      let t0 = rests[a]
      let t1 = rests[a + 1]
      return Double(a) + (u - t0) / (t1 - t0)
    }
    func round(_ x: Double) -> Int { Int(min(max((x - 0.5).rounded(.up), 0), Double(n - 1))) }
    func nearest(_ u: Double) -> Int {
      var best = 0
      var key = (Double.infinity, Double.infinity)
      for (k, r) in rests.enumerated() {
        let c = (abs(min(max(r, lo), hi) - u), abs(r - u))
        if c < key {
          key = c
          best = k
        }
      }
      return best
    }
    let fast = abs(v) >= snap.velocityThreshold && v != 0
    let k: Int
    switch snap.policy {
    case .nearest:
      k = nearest(p)
    case .free:
      return (nearest(p), p)
    case .directional:
      k = round(fractional(p) + (fast ? (v > 0 ? snap.bias : -snap.bias) : 0))
    case .paging:
      let f = fractional(o)
      let m = Double(snap.maxItems)
      if !fast {
        k = round(f)
      } else if v > 0 {
        let base = f.rounded(.down)
        k = round(min(max(fractional(p), base + 1), base + m))
      } else {
        let base = f.rounded(.up)
        k = round(min(max(fractional(p), base - m), base - 1))
      }
    }
    if snap.edges == .free && (p < lo || p > hi) { return (k, p) }
    return (k, min(max(rests[k], lo), hi))
  }
}
