/// How the distance d from the viewport centre to a card's centre is
/// normalised before a curve sees it.
public enum DistanceUnit: String, Sendable, CaseIterable {
  /// d / the viewport's extent along the scroll axis (HWCoverFlowLayout).
  case viewport
  /// d in points (the seed's Swift CoverFlowLayout).
  case points
  /// d / (card extent + line spacing) (UPCarouselFlowLayout, FSPagerView).
  case pitch
}

/// A value that falls off with distance, such as a card's scale or alpha.
public struct Curve: Equatable, Sendable {
  public enum Shape: String, Sendable, CaseIterable {
    /// clamp(peak − factor·d, minimum, maximum)
    case linear
    /// clamp(peak / (1 + factor·d), minimum, maximum)
    case reciprocal
  }
  public var shape: Shape
  public var peak: Double
  public var factor: Double
  public var minimum: Double?
  public var maximum: Double?

  public init(
    shape: Shape = .linear, peak: Double, factor: Double, minimum: Double? = nil,
    maximum: Double? = nil
  ) {
    self.shape = shape
    self.peak = peak
    self.factor = factor
    self.minimum = minimum
    self.maximum = maximum
  }

  /// A curve that is `value` everywhere.
  public static func constant(_ value: Double) -> Curve {
    Curve(peak: value, factor: 0)
  }

  /// The curve's value at normalised distance d ≥ 0. O(1).
  @inlinable
  public func value(at d: Double) -> Double {
    var v: Double
    switch shape {
    case .linear: v = peak - factor * d
    case .reciprocal: v = peak / (1 + factor * d)
    }
    if let lo = minimum { v = max(v, lo) }
    if let hi = maximum { v = min(v, hi) }
    return v
  }

  /// The largest value the curve can take for d ≥ 0. O(1).
  public var upperBound: Double {
    // Both shapes peak at d = 0 for factor >= 0; a negative factor grows
    // without bound unless a maximum caps it.
    if factor < 0 { return maximum ?? .infinity }
    return value(at: 0)
  }
}

/// The seed's HWCoverFlowLayout as a policy on flow geometry: one line per
/// card, cards centred across the line, insets that let the first and last
/// card reach the centre, and a transform that shrinks cards with distance.
public struct CoverFlowConfiguration: Equatable, Sendable {
  /// The flow properties. Defaults differ from `flow`'s: horizontal,
  /// 200×300 cards, line spacing 20, interitem spacing 0.
  public var flow: FlowConfiguration
  /// nil computes the inset: along the scroll axis, (viewport extent − the
  /// first or last card's extent) / 2; across it, (D − itemSize) / 2.
  /// A value the client sets always wins.
  public var sectionInset: Insets?
  public var scale = Curve(peak: 1, factor: 0.4, minimum: 0.6)
  public var alpha = Curve.constant(1)
  public var distanceUnit = DistanceUnit.viewport

  public init() {
    flow = FlowConfiguration()
    flow.scrollDirection = .horizontal
    flow.itemSize = Size(width: 200, height: 300)
    flow.minimumLineSpacing = 20
    flow.minimumInteritemSpacing = 0
  }

  var policy: FlowPolicy {
    var p = FlowPolicy()
    p.singleItemLines = true
    p.crossAlignment = .centered
    return p
  }

  /// The section inset for `section` in a viewport of `viewport` size and
  /// cross extent D. O(1).
  func inset(for section: Section, viewport: Size, crossExtent D: Double) -> Insets {
    if let explicit = section.inset ?? sectionInset { return explicit }
    let axes = Axes(direction: flow.scrollDirection)
    let W = axes.main(viewport)
    func mainExtent(_ i: Int) -> Double {
      switch section.items {
      case .uniform: return axes.main(flow.itemSize)
      case .sizes(let s): return axes.main(s[i] == Section.unsetSize ? flow.itemSize : s[i])
      }
    }
    let n = section.count
    let lead = (W - (n > 0 ? mainExtent(0) : axes.main(flow.itemSize))) / 2
    let trail = (W - (n > 0 ? mainExtent(n - 1) : axes.main(flow.itemSize))) / 2
    let across = (D - axes.cross(flow.itemSize)) / 2
    return flow.scrollDirection == .horizontal
      ? Insets(top: across, left: lead, bottom: across, right: trail)
      : Insets(top: lead, left: across, bottom: trail, right: across)
  }

  /// Applies scale, alpha and zIndex to a cell's attributes for a viewport
  /// whose centre is at `centerMain` along the scroll axis and whose extent
  /// there is `extent`. O(1).
  func decorate(_ a: inout LayoutAttributes, centerMain: Double, extent: Double) {
    let axes = Axes(direction: flow.scrollDirection)
    let offset = axes.main(a.center) - centerMain
    let d = abs(offset)
    let unit: Double
    switch distanceUnit {
    case .viewport: unit = extent
    case .points: unit = 1
    case .pitch: unit = axes.main(a.size) + flow.minimumLineSpacing
    }
    let normalised = unit > 0 ? d / unit : 0
    let s = scale.value(at: normalised)
    if s != 1 { a.setTransform(.scale(s, s)) }
    a.alpha = alpha.value(at: normalised)
    // Nearer cards on top: the zIndex falls by 2 per point of distance, and
    // of two cards at the same distance the earlier (leading) one wins.
    let steps = Int(min(d, 1e15).rounded(.down))
    a.zIndex = -(steps * 2 + (offset > 0 ? 1 : 0))
  }
}
