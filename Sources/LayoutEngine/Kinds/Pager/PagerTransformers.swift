// FSPagerView's transformers as the pager's effect: each page's transform,
// alpha and zIndex from p, its distance in pages from the viewport's centre
// (rules G8, G9 and the transformer table of protocol.md), and how far from
// its slot a page can be drawn (the pipeline's widen stage).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the transformers read, taken once per query.
struct PagerFrame {
  let transformer: PagerTransformer?
  let horizontal: Bool
  /// The viewport's centre along the scroll axis (left to right).
  let center: Double
  /// o: the viewport's origin along the scroll axis (left to right).
  let offset: Double
  /// s: the pitch.
  let pitch: Double
  /// The page's size; e along the axis, e⊥ across.
  let size: Size
  let minimumScale: Double
  let minimumAlpha: Double
  /// n: pages per copy.
  let count: Int

  var e: Double { horizontal ? size.width : size.height }
  var eCross: Double { horizontal ? size.height : size.width }

  /// FSPagerView's zIndex values are Ints; the protocol's integers stop at
  /// 2^53 − 1 (crossFading's Int.min is written as its negation).
  static let maxZ = 9_007_199_254_740_991.0

  /// trunc(v) as a protocol integer. O(1).
  @inline(__always) static func int(_ v: Double) -> Int {
    guard !v.isNaN else { return 0 }
    return Int(min(max(v.rounded(.towardZero), -maxZ), maxZ))
  }

  /// A(t): a translation t along the scroll axis, with S(σ) in the plane.
  func along(_ t: Double, scale σ: Double = 1) -> Transform3D {
    Transform3D(
      (
        σ, 0, 0, 0, 0, σ, 0, 0, 0, 0, 1, 0, horizontal ? t : 0, horizontal ? 0 : t, 0, 1
      ))
  }

  /// The page's alpha, zIndex, transform and the shift of its centre
  /// along the axis, at p pages from the viewport's centre. O(1).
  func look(_ p: Double) -> (alpha: Double, zIndex: Int, transform: Transform3D, shift: Double) {
    let s = pitch
    let m = minimumScale
    let a = minimumAlpha
    let b = count - Self.int(p)
    let identity = Transform3D.identity
    guard let transformer else { return (1, 0, identity, 0) }
    switch transformer {
    case .crossFading:
      if abs(p) < 1 { return (1 - abs(p), 1, along(-s * p), 0) }
      return (0, -Int(Self.maxZ), along(-s * p), 0)
    case .zoomOut:
      guard p >= -1, p <= 1 else { return (0, b, identity, 0) }
      let σ = max(m, 1 - abs(p))
      let α = s * (1 - σ) / 2
      let β = eCross * (1 - σ) / 2
      let t = p < 0 ? α - 2 * β : 2 * β - α
      return (a + (σ - m) / (1 - m) * (1 - a), b, along(t, scale: σ), 0)
    case .depth:
      if p < -1 || p >= 1 { return (0, 0, identity, 0) }
      if p <= 0 { return (1, 1, identity, 0) }
      return (1 - p, 0, along(-s * p, scale: m + (1 - m) * (1 - p)), 0)
    case .overlap, .linear:
      guard horizontal else { return (1, b, identity, 0) }
      let σ = max(1 - (1 - m) * abs(p), m)
      return (
        max(0, a + (1 - abs(p)) * (1 - a)), Self.int(10 * (1 - abs(p))),
        Transform3D.scale(σ, σ), 0
      )
    case .coverFlow:
      guard horizontal else { return (1, b, identity, 0) }
      let c = min(max(-p, -1), 1)
      let θ = sin(c * Double.pi / 2) * 3 * Double.pi / 8
      let z = -s * abs(c) / 2
      let t = Transform3D.perspective(500).rotated(θ, 0, 1, 0).translated(0, 0, z)
      return (1, abs(p) < 1 ? 100 : 99, t, 0)
    case .ferrisWheel, .invertedFerrisWheel:
      guard horizontal else { return (1, b, identity, 0) }
      let alpha = abs(p) < 0.5 ? 1 : a
      guard abs(p) <= 5 else { return (alpha, 0, identity, 0) }
      let sign: Double = transformer == .invertedFerrisWheel ? -1 : 1
      let R = sign * 14 * s / (2 * Double.pi)
      let φ = sign * p * 2 * Double.pi / 14
      let t = Transform3D(
        (
          cos(φ), sin(φ), 0, 0, -sin(φ), cos(φ), 0, 0, 0, 0, 1, 0, R * sin(φ) - p * s,
          R * (1 - cos(φ)), 0, 1
        ))
      return (alpha, Self.int(4 - 10 * abs(p)), t, 0)
    case .cubic:
      guard p > -1, p < 1 else { return (0, b, identity, 0) }
      let d: Double = p < 0 ? 1 : -1
      let t: Transform3D
      if horizontal {
        t = Transform3D.perspective(500).rotated(p * Double.pi / 2, 0, 1, 0).translated(
          -d * size.width / 2, 0, 0)
      } else {
        t = Transform3D.perspective(500).rotated(-p * Double.pi / 2, 1, 0, 0).translated(
          0, -d * size.height / 2, 0)
      }
      return (1, Self.int(10 * (1 - p)), t, d * e / 2)
    }
  }

  /// Draws the page in slot `j` (its attributes hold the slot's frame):
  /// rule R1's centre, transform, alpha and zIndex, R2's frame, and
  /// `hidden` when a corner is at or behind the eye. p = j − o/s (rule G8),
  /// so a page at rest is exactly 0, 1, 2… pages away. O(1).
  func apply(to a: inout LayoutAttributes, slot j: Int) {
    let p = pitch > 0 ? Double(j) - offset / pitch : 0
    let look = look(p)
    if look.shift != 0 {
      if horizontal { a.center.x += look.shift } else { a.center.y += look.shift }
    }
    let t = look.transform
    if !t.isIdentity || look.shift != 0 { a.setTransform(t) }
    a.alpha = look.alpha
    a.zIndex = look.zIndex
    let hw = a.size.width / 2
    let hh = a.size.height / 2
    a.hidden =
      t.divisor(dx: -hw, dy: -hh) <= 0 || t.divisor(dx: hw, dy: -hh) <= 0
      || t.divisor(dx: -hw, dy: hh) <= 0 || t.divisor(dx: hw, dy: hh) <= 0
  }

  /// How far beyond its slot's edge along the axis a page that is not
  /// near the centre can be drawn, and for the pages near it, the half
  /// width of the band of their slots about the centre and how far from
  /// the centre they can be drawn (∞: anywhere). O(1).
  var reach: (side: Double, band: (slots: Double, drawn: Double)?) {
    guard let transformer else { return (0, nil) }
    return Self.reach(transformer, self)
  }

  /// How far from the viewport's centre (in pages, |p|) a page can be
  /// other than transparent, or nil when any page can: a query need not
  /// walk the pages beyond (a 1e8-page rect costs the few drawn). O(1).
  var opaqueReach: Double? {
    guard let transformer else { return nil }
    switch transformer {
    case .crossFading, .depth, .zoomOut, .cubic: return 1
    case .overlap, .linear:
      // alpha = max(0, a + (1 − |p|)(1 − a)): 0 from |p| = 1 / (1 − a).
      guard horizontal else { return nil }
      return minimumAlpha < 1 ? 1 / (1 - minimumAlpha) : nil
    case .ferrisWheel, .invertedFerrisWheel:
      guard horizontal else { return nil }
      return minimumAlpha > 0 ? nil : 0.5
    case .coverFlow: return nil
    }
  }

  private static func reach(_ transformer: PagerTransformer, _ f: PagerFrame) -> (
    side: Double, band: (slots: Double, drawn: Double)?
  ) {
    let (pitch, size, e, eCross, horizontal) = (f.pitch, f.size, f.e, f.eCross, f.horizontal)
    let s = abs(pitch)
    let (w, h) = (size.width, size.height)
    switch transformer {
    case .crossFading, .depth:
      // Visible only within a page of the centre, drawn at it or at its slot.
      return (0, (s + e / 2, s + e / 2 + 1))
    case .zoomOut:
      return (0, (s + e / 2, 1.5 * s + abs(eCross) + e / 2 + 1))
    case .overlap, .linear:
      // A scale of at most 1 about the slot's centre.
      return (0, nil)
    case .coverFlow:
      guard horizontal else { return (0, nil) }
      // Beyond a page of the centre the transform is fixed: its frame's
      // overflow each side; within it, the divisor is at least qMin.
      var side = 0.0
      for c in [-1.0, 1.0] {
        var probe = LayoutAttributes(
          kind: .cell, section: 0, item: 0, frame: Rect(x: -w / 2, y: -h / 2, width: w, height: h))
        probe.setTransform(f.look(-c).transform)
        side = max(side, -w / 2 - probe.frame.minX, probe.frame.maxX - w / 2)
      }
      let qMin = 1 - 0.001 * w * sin(3 * Double.pi / 8)
      let drawn = qMin > 0.05 ? s + (w / 2 + s / 2) / qMin + 1 : Double.infinity
      return (side, (s + w / 2, drawn))
    case .ferrisWheel, .invertedFerrisWheel:
      guard horizontal else { return (0, nil) }
      // Pages within five of the centre ride a wheel about it.
      return (0, (5 * s + w / 2, 14 * s / (2 * Double.pi) + (w + h) / 2 + 1))
    case .cubic:
      let qMin = 1 - 0.002 * (horizontal ? w : h)
      let drawn = qMin > 0.05 ? s + e / 2 + (w + h) / qMin + 1 : Double.infinity
      return (0, (s + e / 2, drawn))
    }
  }
}
