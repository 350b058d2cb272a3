#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// The 3D tilt of side cards (iCarousel's and FSPagerView's coverFlow): a
/// rotation about the cross axis through the card's centre, seen in
/// perspective.
public struct Tilt: Equatable, Sendable {
  /// The angle, in degrees, reached at normalised distance 1 and beyond.
  public var maxAngle: Double = 45
  /// The eye's distance from the screen in points: m34 = −1 / perspective.
  public var perspective: Double = 500
  public init(maxAngle: Double = 45, perspective: Double = 500) {
    self.maxAngle = maxAngle
    self.perspective = perspective
  }
}

/// A perpendicular offset that grows with distance (UPCarouselFlowLayout's
/// sideItemShift): clamp(factor·d, −maximum, maximum) points across.
public struct SideShift: Equatable, Sendable {
  public var factor: Double
  public var maximum: Double?
  public init(factor: Double, maximum: Double? = nil) {
    self.factor = factor
    self.maximum = maximum
  }

  /// The shift at normalised distance d. O(1).
  public func value(at d: Double) -> Double {
    let v = factor * d
    guard let m = maximum else { return v }
    return min(max(v, -m), m)
  }
}

/// How scaled side cards are spaced along the scroll axis.
public enum SpacingMode: Equatable, Sendable {
  /// Flow positions, each card scaled about its own centre.
  case flow
  /// Side cards move toward the centre so that the gap between the centre
  /// card and its scaled neighbours stays the line spacing.
  case fixed
  /// Side cards overlap; `visibleOffset` points of each stay visible.
  case overlap(visibleOffset: Double)

  public static let names = ["flow", "fixed", "overlap"]
}

/// Where the first and last card of a section can come to rest.
public enum Ends: String, Sendable, CaseIterable {
  /// Insets let the first and last card reach the viewport's centre.
  case center
  /// No inset along the scroll axis: no empty space at either end.
  case contain
  /// `center`, unless the section's cards fit in the viewport: then the
  /// group is centred and does not scroll.
  case centerIfFits
}

/// The seed's HWCoverFlowLayout: flow lines of one card each (the
/// placement), the cover-flow curves (the effect) and card snapping
/// (Snapping/). Cards are centred across the line, insets that let the first and last
/// card reach the centre, and a transform that shrinks cards with distance.
public struct CoverFlowConfiguration: Equatable, Sendable {
  /// The flow properties. Defaults differ from `flow`'s: horizontal,
  /// 200×300 cards, line spacing 20, interitem spacing 0.
  public var flow: FlowConfiguration
  /// nil computes the inset from `ends`; across it, (D − itemSize) / 2.
  /// A value the client sets always wins.
  public var sectionInset: Insets?
  public var scale = Curve(peak: 1, factor: 0.4, minimum: 0.6)
  public var alpha = Curve.constant(1)
  public var distanceUnit = DistanceUnit.viewport
  public var tilt: Tilt?
  public var sideShift: SideShift?
  public var spacing = SpacingMode.flow
  public var ends = Ends.center
  public var snap = SnapConfiguration()
  /// The content repeats without end along the scroll axis (see
  /// `Layout.period`); `ends` no longer applies.
  public var loop = false

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
  /// cross extent D. O(log n): the total comes from the sizes' summary.
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
    // An empty section has no card to centre: it adds no space of its own.
    var lead = n > 0 ? (W - mainExtent(0)) / 2 : 0
    var trail = n > 0 ? (W - mainExtent(n - 1)) / 2 : 0
    if loop {
      // No ends: each section's last card is followed by its line spacing,
      // which joins it to what comes next (the next section, or the next
      // copy's first card).
      lead = 0
      trail = n > 0 ? section.minimumLineSpacing ?? flow.minimumLineSpacing : 0
    } else {
      switch ends {
      case .center: break
      case .contain:
        lead = 0
        trail = 0
      case .centerIfFits:
        let gap = section.minimumLineSpacing ?? flow.minimumLineSpacing
        var total = Double(max(n - 1, 0)) * gap
        switch section.items {
        case .uniform: total += Double(n) * axes.main(flow.itemSize)
        case .sizes(let s):
          let sum = s.summary
          let main = (flow.scrollDirection == .vertical ? sum.sumHeight : sum.sumWidth).value
          total += main + Double(sum.unset) * axes.main(flow.itemSize)
        }
        if total <= W {
          lead = (W - total) / 2
          trail = lead
        }
      }
    }
    let across = (D - axes.cross(flow.itemSize)) / 2
    return flow.scrollDirection == .horizontal
      ? Insets(top: across, left: lead, bottom: across, right: trail)
      : Insets(top: lead, left: across, bottom: trail, right: across)
  }

  /// The normaliser of the distance for a card of main extent `e`.
  @inline(__always)
  func unit(extent: Double, cardExtent e: Double, lineSpacing g: Double) -> Double {
    switch distanceUnit {
    case .viewport: return extent
    case .points: return 1
    case .pitch: return e + g
    }
  }

  /// The scale, rotation and perspective of a card at signed distance
  /// `offset` (normalised: `d`) from the centre. O(1).
  func transform(scale s: Double, d: Double, offset: Double) -> Transform3D {
    guard let tilt else { return s == 1 ? .identity : .scale(s, s) }
    // Side cards turn their outer edge toward the viewer (a corridor).
    let sign: Double = offset > 0 ? 1 : (offset < 0 ? -1 : 0)
    let degrees = tilt.maxAngle * min(1, d)
    let q = 1 / tilt.perspective
    if flow.scrollDirection == .horizontal {
      let a = -sign * degrees * Double.pi / 180
      let c = cos(a)
      let n = sin(a)
      // Scale · rotation about y · perspective (row vectors: scale first).
      return Transform3D((s * c, 0, -s * n, s * n * q, 0, s, 0, 0, n, 0, c, -c * q, 0, 0, 0, 1))
    }
    let a = sign * degrees * Double.pi / 180
    let c = cos(a)
    let n = sin(a)
    // Scale · rotation about x · perspective.
    return Transform3D((s, 0, 0, 0, 0, s * c, s * n, -s * n * q, 0, -n, c, -c * q, 0, 0, 0, 1))
  }

  /// Applies the effects to a cell's attributes for a viewport whose centre
  /// is at `centerMain` along the scroll axis and whose extent there is
  /// `extent`; `lineSpacing` is the card's section's. O(1).
  /// The spacing between a section's cards, which pitch-relative effects
  /// measure distance in: the section's own (`own`), or the layout's. O(1).
  @inline(__always) func lineSpacing(_ own: Double?) -> Double {
    own ?? flow.minimumLineSpacing
  }

  public func apply(
    to a: inout LayoutAttributes, centerMain: Double, extent: Double, lineSpacing g: Double
  ) {
    let axes = Axes(direction: flow.scrollDirection)
    let offset = axes.main(a.center) - centerMain
    let d = abs(offset)
    let e = axes.main(a.size)
    let unit = unit(extent: extent, cardExtent: e, lineSpacing: g)
    let normalised = unit > 0 ? d / unit : 0
    let s = scale.value(at: normalised)
    // Spacing modes move side cards along the axis, toward the centre.
    let sign: Double = offset > 0 ? 1 : -1
    let pitches = e + g > 0 ? d / (e + g) : 0
    let s0 = scale.value(at: 0)
    var along = 0.0
    switch spacing {
    case .flow: break
    case .fixed:
      along = -sign * ((s0 - s) * e / 2 + (1 - s0) * e * min(1, pitches))
    case .overlap(let visible):
      along = sign * ((s0 - s) * e / 2 + visible * pitches) - offset
    }
    let across = sideShift?.value(at: normalised) ?? 0
    if along != 0 || across != 0 {
      if flow.scrollDirection == .horizontal {
        a.center = Point(x: a.center.x + along, y: a.center.y + across)
      } else {
        a.center = Point(x: a.center.x + across, y: a.center.y + along)
      }
      a.frame = Rect(
        x: a.center.x - a.size.width / 2, y: a.center.y - a.size.height / 2,
        width: a.size.width, height: a.size.height)
    }
    let t = transform(scale: s, d: normalised, offset: offset)
    if !t.isIdentity { a.setTransform(t) }
    a.alpha = alpha.value(at: normalised)
    // Nearer cards on top: the zIndex falls by 2 per point of distance, and
    // of two cards at the same distance the earlier (leading) one wins.
    let steps = Int(min(d, 1e15).rounded(.down))
    a.zIndex = -(steps * 2 + (offset > 0 ? 1 : 0))
  }
}
