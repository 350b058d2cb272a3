// iCarousel's styles as an effect: every item is drawn at the viewport's
// centre with a CATransform3D that depends only on its offset from the
// scroll position, in items, as iCarousel's `transformForItemViewWithOffset`
// computes it; alpha fades by offset and depth orders the items. The slots
// these offsets come from are SlotGeometry's.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// iCarouselType, without the custom type (`iCarouselTypeCustom`) and
/// CoverFlow2 (a variant iCarousel itself draws like coverFlow).
public enum CarouselStyle: String, Sendable, CaseIterable {
  case linear
  case rotary
  case invertedRotary
  case cylinder
  case invertedCylinder
  case wheel
  case invertedWheel
  case coverFlow
  case timeMachine
  case invertedTimeMachine

  /// The rotary, cylinder and wheel families: items on a circle of
  /// `count` places.
  public var isCircular: Bool {
    switch self {
    case .rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel, .invertedWheel:
      return true
    default: return false
    }
  }

  var isInverted: Bool {
    switch self {
    case .invertedRotary, .invertedCylinder, .invertedWheel, .invertedTimeMachine: return true
    default: return false
    }
  }
}

/// iCarouselOptionFadeMin, FadeMax, FadeRange and FadeMinAlpha. nil bounds
/// take the style's default.
public struct CarouselFade: Equatable, Sendable {
  public var min: Double? = nil
  public var max: Double? = nil
  public var range: Double = 1
  public var minAlpha: Double = 0
  public init() {}
}

/// The `carousel` layout type: an iCarousel. Options left nil take the
/// style's default, as iCarousel's `valueForOption:withDefault:` does.
public struct CarouselConfiguration: Equatable, Sendable {
  public var style: CarouselStyle = .linear
  public var itemSize = Size(width: 200, height: 200)
  public var scrollDirection: ScrollDirection = .horizontal
  /// m34 = −1 / perspective.
  public var perspective: Double = 500
  public var viewpointOffset = Size.zero
  public var spacing: Double? = nil
  public var tilt: Double? = nil
  public var arc: Double = 2 * Double.pi
  public var radius: Double? = nil
  /// The places on the circle of the circular styles.
  public var count: Int? = nil
  public var fade = CarouselFade()
  public var showBackfaces: Bool? = nil
  public var wrap: Bool? = nil
  public var visibleItems: Int? = nil
  public var offsetMultiplier: Double? = nil
  public var snap = SnapConfiguration()
  public init() {}

  public var resolvedSpacing: Double { spacing ?? (style == .coverFlow ? 0.25 : 1) }
  public var resolvedTilt: Double {
    tilt
      ?? (style == .coverFlow
        ? 0.9 : (style == .timeMachine || style == .invertedTimeMachine ? 0.3 : 0))
  }
  public var resolvedWrap: Bool { wrap ?? style.isCircular }
  public var resolvedShowBackfaces: Bool { showBackfaces ?? (style != .invertedCylinder) }
  public var resolvedOffsetMultiplier: Double { offsetMultiplier ?? (style == .coverFlow ? 2 : 1) }
  public var resolvedFadeMin: Double {
    fade.min ?? (style == .invertedTimeMachine ? 0 : -Double.infinity)
  }
  public var resolvedFadeMax: Double {
    fade.max ?? (style == .timeMachine ? 0 : Double.infinity)
  }
}

/// What a carousel draws for one scroll position and viewport: the style's
/// parameters resolved (count, radius, visible items), computed once per
/// query and then applied to each item in O(1).
struct CarouselFrame {
  let c: CarouselConfiguration
  let n: Int
  /// w: the largest item extent along the scroll axis.
  let w: Double
  let horizontal: Bool
  /// The places on the circle (circular styles), else n.
  let count: Double
  /// The circular styles' radius, before inversion.
  let radius: Double
  let visibleItems: Int

  /// O(1).
  init(_ c: CarouselConfiguration, itemCount n: Int, itemExtent w: Double, bounds: Size) {
    self.c = c
    self.n = n
    self.w = w
    horizontal = c.scrollDirection == .horizontal
    let W = horizontal ? bounds.width : bounds.height
    let spacing = c.resolvedSpacing
    let ws = w * spacing
    // iCarousel's circularCarouselItemCount: slightly arbitrary, for
    // aesthetics, and never more places than items.
    var places = n
    if c.style.isCircular {
      let fit = ws > 0 ? (W / ws).rounded(.up) * Double.pi : Double.infinity
      let natural = Swift.min(30, Swift.max(12, fit).rounded(.down))
      places = Swift.min(Int(natural), n)
    }
    if let k = c.count { places = k }
    count = Double(places)
    let arc = c.arc
    switch c.style {
    case .rotary, .invertedRotary:
      radius = c.radius ?? Swift.max(ws / 2, ws / 2 / tan(arc / 2 / count))
    case .cylinder, .invertedCylinder:
      radius = c.radius ?? Swift.max(0.01, ws / 2 / tan(arc / 2 / count))
    case .wheel, .invertedWheel:
      radius = c.radius ?? ws * count / arc
    default:
      radius = 0
    }
    var visible: Int
    switch c.style {
    case .linear, .coverFlow:
      let fit = ws > 0 ? (W / ws).rounded(.up) + 2 : 30
      visible = Int(Swift.min(fit, 30))
    case .rotary, .cylinder:
      visible = places
    case .invertedRotary, .invertedCylinder:
      visible = Int((Double(places) / 2).rounded(.up))
    case .wheel, .invertedWheel:
      visible =
        radius - w / 2 < Swift.min(bounds.width, bounds.height) / 2
        ? places : Int((Double(places) / 2).rounded(.up)) + 1
    case .timeMachine, .invertedTimeMachine:
      visible = 30
    }
    visible = Swift.min(visible, 30)
    if let v = c.visibleItems { visible = v }
    visibleItems = Swift.max(0, Swift.min(visible, n))
  }

  /// iCarousel's transformForItemViewWithOffset: the perspective, the
  /// viewpoint offset, then the style's steps, each a CATransform3DTranslate
  /// or CATransform3DRotate of the transform so far. O(1).
  func transform(offset off: Double) -> Transform3D {
    var t = Transform3D.perspective(c.perspective).translated(
      -c.viewpointOffset.width, -c.viewpointOffset.height, 0)
    let spacing = c.resolvedSpacing
    let h = horizontal
    // Along the scroll axis: x, or y when vertical.
    func along(_ v: Double, z: Double = 0) -> Transform3D {
      h ? t.translated(v, 0, z) : t.translated(0, v, z)
    }
    switch c.style {
    case .linear:
      return along(off * w * spacing)
    case .rotary, .invertedRotary:
      let sign: Double = c.style == .invertedRotary ? -1 : 1
      let r = sign * radius
      let angle = sign * off / count * c.arc
      return along(r * sin(angle), z: r * cos(angle) - r)
    case .cylinder, .invertedCylinder:
      let sign: Double = c.style == .invertedCylinder ? -1 : 1
      let r = sign * radius
      let angle = sign * off / count * c.arc
      t = t.translated(0, 0, -r)
      t = h ? t.rotated(angle, 0, 1, 0) : t.rotated(angle, -1, 0, 0)
      return t.translated(0, 0, r + 0.01)
    case .wheel, .invertedWheel:
      let sign: Double = c.style == .invertedWheel ? -1 : 1
      let r = sign * radius
      let angle = sign * c.arc / count
      if h {
        t = t.translated(0, r, 0).rotated(angle * off, 0, 0, 1)
        return t.translated(0, -r, off * 0.01)
      }
      t = t.translated(-r, 0, 0).rotated(angle * off, 0, 0, 1)
      return t.translated(r, 0, off * 0.01)
    case .coverFlow:
      let tilt = c.resolvedTilt
      let clamped = Swift.min(Swift.max(off, -1), 1)
      t = along((clamped * 0.5 * tilt + off * spacing) * w, z: -abs(clamped) * w / 2)
      let angle = -clamped * Double.pi / 2 * tilt
      return h ? t.rotated(angle, 0, 1, 0) : t.rotated(angle, -1, 0, 0)
    case .timeMachine, .invertedTimeMachine:
      let inverted = c.style == .invertedTimeMachine
      let tilt = inverted ? -c.resolvedTilt : c.resolvedTilt
      let o = inverted ? -off : off
      return along(o * w * tilt, z: o * w * spacing)
    }
  }

  /// iCarousel's alphaForItemWithOffset. O(1).
  func alpha(offset off: Double) -> Double {
    let lo = c.resolvedFadeMin
    let hi = c.resolvedFadeMax
    var f = 0.0
    if off > hi {
      f = off - hi
    } else if off < lo {
      f = lo - off
    }
    guard f > 0 else { return 1 }
    let range = c.fade.range  // > 0: the decoder refuses others
    return 1 - Swift.min(f, range) / range * (1 - c.fade.minAlpha)
  }

  /// The item's attributes at offset `off`: centred in `bounds` with its
  /// own `size`, the transform, the frame of its projected corners, alpha,
  /// and `hidden` when it faces away (unless backfaces show) or a corner is
  /// at or behind the eye; zIndex is left to the window's depth order
  /// (`CarouselDepth`). O(1).
  func attributes(
    section: Int, item: Int, lap: Int?, size: Size, offset off: Double, bounds: Rect
  ) -> LayoutAttributes {
    let center = bounds.center
    var a = LayoutAttributes(
      kind: .cell, section: section, item: item,
      frame: Rect(
        x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width,
        height: size.height))
    a.lap = lap
    let t = transform(offset: off)
    let hw = size.width / 2
    let hh = size.height / 2
    var behindEye = false
    for (dx, dy) in [(-hw, -hh), (hw, -hh), (-hw, hh), (hw, hh)]
    where t.divisor(dx: dx, dy: dy) <= 0 {
      behindEye = true
    }
    a.setTransform(t)
    a.alpha = alpha(offset: off)
    let m = t.m
    a.hidden = behindEye || (!c.resolvedShowBackfaces && m.10 <= 0)
    return a
  }
}

/// iCarousel's depth order (its `compareViewDepth`): the larger z = m13 +
/// m23 + m33 + m43 in front, and for exactly equal z the item nearer the
/// scroll position along the scroll axis. A carousel's zIndex is an item's
/// rank in this order among the window of candidates (`Layout.carouselWindow`),
/// so that for every two items the sign of their zIndex difference is
/// iCarousel's order: a fixed-point code of z could not keep depths that
/// differ by less than its step apart (a wheel's differ by 0.01 per item).
struct CarouselDepth: Comparable {
  let z: Double
  /// |offset| in items: larger is farther, so behind at equal z.
  let distance: Double

  /// O(1).
  init(_ a: LayoutAttributes, offset: Double) {
    let m = a.transform.m
    let z = m.2 + m.6 + m.10 + m.14
    // A NaN depth (never from finite transforms) sorts behind everything.
    self.z = z.isNaN ? -.infinity : z
    distance = offset.isNaN ? .infinity : abs(offset)
  }

  static func < (a: Self, b: Self) -> Bool {
    a.z != b.z ? a.z < b.z : a.distance > b.distance
  }
}
