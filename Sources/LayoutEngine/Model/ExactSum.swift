/// A sum of doubles taken exactly, in fixed point with 63 fractional bits:
/// every size a layout adds (any double from 2^-10 to 2^62 with its 53
/// bits) is held without rounding, so a sum is the same whatever order or
/// grouping it was taken in. A rope's summaries group their sums by the
/// tree's shape, which edits change: with float sums, the same line could
/// start at 305 after a fresh layout and at 304.99999999999994 after a batch
/// update. Rounding happens once, when a position is read.
///
/// Bits below 2^-63 are dropped (the same way for every summand, so sums
/// stay order-independent); sums beyond 2^63 points wrap, far past where a
/// double resolves a point anyway. 63 bits rather than 64 keep every
/// conversion a single signed instruction.
public struct ExactSum: Comparable, Sendable {
  /// The integer part (floor), and the fraction in units of 2^-63 (below
  /// 2^63).
  var hi: Int64
  var lo: UInt64

  public static let zero = ExactSum(hi: 0, lo: 0)

  private static var mask: UInt64 { (1 << 63) - 1 }

  @inline(__always) init(hi: Int64, lo: UInt64) {
    self.hi = hi
    self.lo = lo
  }

  /// `v` exactly (to 2^-63). O(1).
  @inline(__always) public init(_ v: Double) {
    // The common case, a size or spacing: its integer part and its
    // fraction (exact, being less than 1 and taken from v), the fraction
    // scaled to 63 bits, exact for every bit at or above 2^-63; the
    // conversion drops those below, as the general path does.
    if v >= 0 && v < 0x1p62 {
      // The conversion truncates; no call to trunc.
      let whole = Int64(v)
      self.init(hi: whole, lo: UInt64(Int64((v - Double(whole)) * 0x1p63)))
      return
    }
    self.init(bits: v)
  }

  /// `v` from its bits: any sign and magnitude. O(1).
  private init(bits v: Double) {
    let bits = v.bitPattern
    let e = Int((bits &>> 52) & 0x7FF)
    // Zero, subnormals and values below 2^-63 contribute nothing; NaN and
    // infinity never reach a layout.
    guard e >= 1023 - 63, e < 0x7FF else {
      self.init(hi: 0, lo: 0)
      return
    }
    let m = (bits & 0x000F_FFFF_FFFF_FFFF) | (1 &<< 52)
    // |v| = m · 2^(e − 1075); in units of 2^-63: m · 2^(e − 1012).
    let shift = e - 1012
    var hi: UInt64
    var lo: UInt64
    if shift >= 63 {
      hi = shift - 63 < 11 ? m &<< UInt64(shift - 63) : 0
      lo = 0
    } else if shift >= 0 {
      hi = shift == 0 ? 0 : m &>> UInt64(63 - shift)
      lo = (m &<< UInt64(shift)) & Self.mask
    } else {
      hi = 0
      lo = m &>> UInt64(-shift)
    }
    var r = ExactSum(hi: Int64(bitPattern: hi), lo: lo)
    if bits &>> 63 == 1 { r = -r }
    self = r
  }

  @inline(__always) public static func + (a: ExactSum, b: ExactSum) -> ExactSum {
    let lo = a.lo &+ b.lo
    return ExactSum(hi: a.hi &+ b.hi &+ Int64(bitPattern: lo &>> 63), lo: lo & mask)
  }

  @inline(__always) public static prefix func - (a: ExactSum) -> ExactSum {
    // −(h + f) = (−h − 1) + (1 − f) for a fraction f > 0.
    a.lo == 0
      ? ExactSum(hi: 0 &- a.hi, lo: 0) : ExactSum(hi: ~a.hi, lo: (1 << 63) &- a.lo)
  }

  @inline(__always) public static func - (a: ExactSum, b: ExactSum) -> ExactSum { a + -b }

  /// k copies summed, exactly (k ≥ 0): the same sum as adding them one by
  /// one, in O(1). Wraps as addition does.
  @inline(__always) public func times(_ k: Int) -> ExactSum {
    let (high, low) = lo.multipliedFullWidth(by: UInt64(k))
    // The fraction's product in units of 2^-63: its integer part is
    // (high · 2^64 + low) >> 63.
    let carry = Int64(bitPattern: (high &<< 1) | (low &>> 63))
    return ExactSum(hi: hi &* Int64(k) &+ carry, lo: low & Self.mask)
  }

  @inline(__always) public static func += (a: inout ExactSum, b: ExactSum) { a = a + b }

  @inline(__always) public static func += (a: inout ExactSum, v: Double) { a = a + ExactSum(v) }

  /// The sum as a double, the same double for the same sum. O(1).
  @inline(__always) public var value: Double {
    Double(hi) + Double(Int64(bitPattern: lo)) * 0x1p-63
  }

  /// Without a branch: which of two tops is lower is a coin toss.
  @inline(__always) public static func < (a: ExactSum, b: ExactSum) -> Bool {
    let borrow: Int64 = a.lo < b.lo ? 1 : 0
    return a.hi &- b.hi &- borrow < 0
  }

  @inline(__always) public static func <= (a: ExactSum, b: ExactSum) -> Bool { !(b < a) }

  @inline(__always) static func min(_ a: ExactSum, _ b: ExactSum) -> ExactSum { b < a ? b : a }

  @inline(__always) static func max(_ a: ExactSum, _ b: ExactSum) -> ExactSum { a < b ? b : a }
}
