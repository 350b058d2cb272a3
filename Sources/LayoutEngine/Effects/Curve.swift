// The effects layer's shared vocabulary: a value that falls off with the
// distance from the viewport's centre, used by the cover flow's scale and
// alpha and by a compositional row's effect.

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

  /// The largest magnitude |value(d)| for 0 ≤ d ≤ `dmax`: both shapes are
  /// monotone in d, so the ends bound it, unless a reciprocal curve with a
  /// negative factor has its pole inside the range (then only the clamps
  /// bound it). O(1).
  public func magnitudeBound(upTo dmax: Double) -> Double {
    // A constant curve (also for dmax = ∞, where 0·∞ would be NaN).
    if factor == 0 { return abs(value(at: 0)) }
    if let lo = minimum, let hi = maximum { return max(abs(lo), abs(hi)) }
    if shape == .reciprocal && factor < 0 && 1 + factor * dmax <= 0 { return .infinity }
    let m = max(abs(value(at: 0)), abs(value(at: dmax)))
    return m.isNaN ? .infinity : m
  }

  /// The largest value the curve can take for d ≥ 0. O(1).
  public var upperBound: Double {
    // Both shapes peak at d = 0 for factor >= 0; a negative factor grows
    // without bound unless a maximum caps it.
    if factor < 0 { return maximum ?? .infinity }
    return value(at: 0)
  }
}
