// How far a cover flow's effect can draw a card from its frame: the
// pipeline's widen stage for `coverFlow`, and its validation (a tilted
// card must never reach the eye).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Layout {
  /// The largest |scale| and the smallest perspective divisor w any card
  /// can have when the viewport's centre is at `center` (left-to-right
  /// main axis); w ≤ 0 means a corner can reach the eye. O(1).
  func effectBounds(
    _ cf: CoverFlowConfiguration, _ g: FlowGeometry, center: Double, extent: Double
  ) -> (scale: Double, w: Double) {
    let contentMain = axes.main(contentSize)
    // A loop has cards at every distance.
    let far = loops ? .infinity : max(abs(center), abs(center - contentMain))
    let unit: Double
    switch cf.distanceUnit {
    case .viewport: unit = extent
    case .points: unit = 1
    case .pitch: unit = g.pitchRange.min
    }
    let dmax = unit > 0 ? far / unit : .infinity
    let s = cf.scale.magnitudeBound(upTo: dmax)
    guard let tilt = cf.tilt else { return (s, 1) }
    let angle = min(tilt.maxAngle, 90) * Double.pi / 180
    return (s, 1 - g.maxItemExtent / 2 * s * sin(angle) / tilt.perspective)
  }

  /// True when no card within the offset range can have a corner at or
  /// behind the eye under the cover flow's tilt. O(1).
  func tiltIsDrawable(_ cf: CoverFlowConfiguration, _ g: FlowGeometry) -> Bool {
    guard cf.tilt != nil else { return true }
    let W = axes.main(viewportSize)
    let (lo, hi) = ltrMainRange
    let a = effectBounds(cf, g, center: lo + W / 2, extent: W)
    let b = effectBounds(cf, g, center: hi + W / 2, extent: W)
    return min(a.w, b.w) > 0
  }

  /// The rect of untransformed frames to examine for a carousel query:
  /// `rect` widened along the scroll axis by how far a card's drawn box can
  /// lie from its own (scale, tilt, spacing mode), and unbounded across
  /// (side shift; one card per line, so this costs nothing). O(1).
  func coverSearch(_ cf: CoverFlowConfiguration, _ g: FlowGeometry, rect: Rect, bounds: Rect)
    -> Rect
  {
    let huge = 1e300
    let C = axes.main(bounds.center)
    let (bound, w) = effectBounds(cf, g, center: C, extent: axes.main(bounds.size))
    let E = g.maxItemExtent
    // The drawn box's half-extent, and how far spacing modes move a centre.
    let h = w > 0 ? bound / w * E / 2 : .infinity
    let s0 = abs(cf.scale.value(at: 0))
    let shrink = (s0 + bound) * E / 2
    var (lo, hi, _, _) = axes.spans(rect)
    switch cf.spacing {
    case .flow:
      lo -= h
      hi += h
    case .fixed:
      let move = shrink + abs(1 - s0) * E
      lo -= h + move
      hi += h + move
    case .overlap(let visible):
      // A card `off` from the centre is drawn within v·|off|/pitch ± shrink
      // of it, so only |off| ≤ (R + shrink + h)·maxPitch / v can reach.
      let R = max(abs(lo - C), abs(hi - C))
      let span = (R + shrink + h) * g.pitchRange.max / visible + h
      lo = min(lo - h, C - span)
      hi = max(hi + h, C + span)
    }
    if !(lo >= -huge) { lo = -huge }
    if !(hi <= huge) { hi = huge }
    if hi < lo { (lo, hi) = (-huge, huge) }
    return scrollDirection == .horizontal
      ? Rect(x: lo, y: -huge, width: hi - lo, height: 2 * huge)
      : Rect(x: -huge, y: lo, width: 2 * huge, height: hi - lo)
  }
}
