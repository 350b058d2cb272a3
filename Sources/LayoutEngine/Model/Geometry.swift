// Value types shared by every layout. They mirror CoreGraphics / UIKit names
// so that UIKit users recognise them, but are plain Double structs so the
// engine runs anywhere.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A point in content coordinates (CGPoint).
public struct Point: Equatable, Hashable, Sendable {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  public static let zero = Point(x: 0, y: 0)
}

/// A size (CGSize).
public struct Size: Equatable, Hashable, Sendable {
  public var width: Double
  public var height: Double
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle (CGRect) with a non-negative size.
public struct Rect: Equatable, Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
  public init(origin: Point, size: Size) {
    self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
  }
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  public var minX: Double { x }
  public var minY: Double { y }
  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
  public var midX: Double { x + width / 2 }
  public var midY: Double { y + height / 2 }
  public var origin: Point { Point(x: x, y: y) }
  public var size: Size { Size(width: width, height: height) }
  public var center: Point { Point(x: midX, y: midY) }

  /// True when the two rectangles share an area of positive size.
  /// Rectangles that only touch along an edge do not intersect, so a
  /// viewport that ends exactly where a card starts does not report it.
  /// O(1).
  @inlinable
  public func intersects(_ other: Rect) -> Bool {
    x < other.x + other.width && other.x < x + width && y < other.y + other.height
      && other.y < y + height
  }

  /// True when `p` lies inside or on the edge of the rectangle. O(1).
  @inlinable
  public func contains(_ p: Point) -> Bool {
    p.x >= x && p.x <= x + width && p.y >= y && p.y <= y + height
  }
  /// The smallest rectangle holding both (CGRectUnion, for rectangles of
  /// any size, empty ones included). O(1).
  public func union(_ other: Rect) -> Rect {
    let lx = min(x, other.x)
    let ly = min(y, other.y)
    return Rect(
      x: lx, y: ly, width: max(maxX, other.maxX) - lx, height: max(maxY, other.maxY) - ly)
  }
}

/// Edge insets (UIEdgeInsets).
public struct Insets: Equatable, Hashable, Sendable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
  public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)
}

/// A section-relative element address (NSIndexPath with section and item).
public struct IndexPath: Equatable, Hashable, Comparable, Sendable {
  public var section: Int
  public var item: Int
  public init(section: Int, item: Int) {
    self.section = section
    self.item = item
  }
  public static func < (a: IndexPath, b: IndexPath) -> Bool {
    (a.section, a.item) < (b.section, b.item)
  }
}

/// A 4×4 homogeneous transform in CATransform3D field order (row-vector
/// convention: a point p maps to p·M). The same sixteen numbers in the same
/// order are CSS `matrix3d()`'s argument list.
public struct Transform3D: Equatable, Sendable {
  public var m:
    (
      Double, Double, Double, Double, Double, Double, Double, Double,
      Double, Double, Double, Double, Double, Double, Double, Double
    )

  public init(
    _ m: (
      Double, Double, Double, Double, Double, Double, Double, Double,
      Double, Double, Double, Double, Double, Double, Double, Double
    )
  ) {
    self.m = m
  }

  // Computed: a stored static is a lazy global, a `swift_once` per read,
  // and every element starts from it.
  @inline(__always) public static var identity: Transform3D {
    Transform3D((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
  }

  /// CATransform3DMakeScale(sx, sy, 1).
  public static func scale(_ sx: Double, _ sy: Double) -> Transform3D {
    Transform3D((sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
  }

  /// Field by field, the diagonal first: a cover-flow card's scale
  /// answers at the first comparison. O(1).
  @inlinable public var isIdentity: Bool {
    // A branch first, so that the common answer costs one comparison (the
    // whole conjunction compiles to sixteen, branch-free).
    guard m.0 == 1 else { return false }
    return m.5 == 1 && m.10 == 1 && m.15 == 1 && m.1 == 0 && m.2 == 0 && m.3 == 0 && m.4 == 0
      && m.6 == 0 && m.7 == 0 && m.8 == 0 && m.9 == 0 && m.11 == 0 && m.12 == 0 && m.13 == 0
      && m.14 == 0
  }

  /// CATransform3DMakePerspective's matrix: the identity with
  /// m34 = −1 / `distance`.
  public static func perspective(_ distance: Double) -> Transform3D {
    Transform3D((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / distance, 0, 0, 0, 1))
  }

  /// CATransform3DTranslate(self, tx, ty, tz): the translation, then
  /// `self` (row vectors: MakeTranslation · self). O(1).
  public func translated(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
    var t = m
    // Rows 1–3 stay; row 4 gains tx·row1 + ty·row2 + tz·row3.
    t.12 += tx * m.0 + ty * m.4 + tz * m.8
    t.13 += tx * m.1 + ty * m.5 + tz * m.9
    t.14 += tx * m.2 + ty * m.6 + tz * m.10
    t.15 += tx * m.3 + ty * m.7 + tz * m.11
    return Transform3D(t)
  }

  /// CATransform3DRotate(self, angle, x, y, z): the rotation by `angle`
  /// radians about the axis (x, y, z), then `self` (MakeRotation · self).
  /// O(1).
  public func rotated(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0 else { return self }
    let (x, y, z) = (x / length, y / length, z / length)
    let c = cos(angle)
    let s = sin(angle)
    let k = 1 - c
    // Core Animation's rotation matrix, for row vectors.
    let r = (
      (x * x * k + c, x * y * k + z * s, x * z * k - y * s),
      (x * y * k - z * s, y * y * k + c, y * z * k + x * s),
      (x * z * k + y * s, y * z * k - x * s, z * z * k + c)
    )
    func row(_ a: (Double, Double, Double)) -> (Double, Double, Double, Double) {
      (
        a.0 * m.0 + a.1 * m.4 + a.2 * m.8, a.0 * m.1 + a.1 * m.5 + a.2 * m.9,
        a.0 * m.2 + a.1 * m.6 + a.2 * m.10, a.0 * m.3 + a.1 * m.7 + a.2 * m.11
      )
    }
    let r1 = row(r.0)
    let r2 = row(r.1)
    let r3 = row(r.2)
    return Transform3D(
      (
        r1.0, r1.1, r1.2, r1.3, r2.0, r2.1, r2.2, r2.3, r3.0, r3.1, r3.2, r3.3,
        m.12, m.13, m.14, m.15
      ))
  }

  /// The perspective divisor w of the point (dx, dy) from the anchor:
  /// dx·m14 + dy·m24 + m44. At or below 0 the point is at or behind the
  /// eye. O(1).
  public func divisor(dx: Double, dy: Double) -> Double { dx * m.3 + dy * m.7 + m.15 }

  /// The same transform seen in a mirror x → −x: S·M·S with
  /// S = diag(−1, 1, 1, 1), which negates every entry in exactly one of
  /// row 1 and column 1. O(1).
  public var mirroredX: Transform3D {
    var t = m
    t.1 = -t.1
    t.2 = -t.2
    t.3 = -t.3
    t.4 = -t.4
    t.8 = -t.8
    t.12 = -t.12
    return Transform3D(t)
  }

  /// The sixteen fields m11, m12, …, m44.
  public var values: [Double] {
    let t = m
    return [
      t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7, t.8, t.9, t.10, t.11, t.12, t.13, t.14, t.15,
    ]
  }

  /// Field by field, without allocating: deltas compare every visible
  /// element's transform on every frame. O(1).
  public static func == (a: Transform3D, b: Transform3D) -> Bool {
    let x = a.m
    let y = b.m
    return x.0 == y.0 && x.1 == y.1 && x.2 == y.2 && x.3 == y.3 && x.4 == y.4 && x.5 == y.5
      && x.6 == y.6 && x.7 == y.7 && x.8 == y.8 && x.9 == y.9 && x.10 == y.10 && x.11 == y.11
      && x.12 == y.12 && x.13 == y.13 && x.14 == y.14 && x.15 == y.15
  }

  /// Maps a point given relative to the anchor (the element's centre, as
  /// UIKit's default anchorPoint) and returns it relative to the anchor,
  /// after the perspective divide. O(1).
  public func apply(dx: Double, dy: Double) -> Point {
    let t = m
    let x = dx * t.0 + dy * t.4 + t.12
    let y = dx * t.1 + dy * t.5 + t.13
    // A corner at or behind the eye (w ≤ 0) cannot be drawn; keeping w just
    // above 0 keeps the frame finite (Layout.tiltIsDrawable guards it).
    let w = max(dx * t.3 + dy * t.7 + t.15, 1e-9)
    guard w != 1 else { return Point(x: x, y: y) }
    return Point(x: x / w, y: y / w)
  }
}
