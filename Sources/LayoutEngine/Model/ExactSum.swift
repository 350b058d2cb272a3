/// A sum of doubles taken exactly, in 64.64 fixed point: every size a
/// layout adds (any double from 2^-12 to 2^63 with its 53 bits) is held
/// without rounding, so a sum is the same whatever order or grouping it was
/// taken in. A rope's summaries group their sums by the tree's shape, which
/// edits change: with float sums, the same line could start at 305 after a
/// fresh layout and at 304.99999999999994 after a batch update. Rounding
/// happens once, when a position is read.
///
/// Bits below 2^-64 are dropped (the same way for every summand, so sums stay
/// order-independent); sums beyond 2^63 points wrap, far past where a double
/// resolves a point anyway.
public struct ExactSum: Comparable, Sendable {
  /// The integer part (floor) and the fraction, in units of 2^-64.
  var hi: Int64
  var lo: UInt64

  public static let zero = ExactSum(hi: 0, lo: 0)

  @inline(__always) init(hi: Int64, lo: UInt64) {
    self.hi = hi
    self.lo = lo
  }

  /// `v` exactly (to 2^-64). O(1).
  @inline(__always) public init(_ v: Double) {
    // The common case, a size or spacing: its integer part and its
    // fraction (exact, being less than 1 and taken from v), the fraction
    // scaled to 64 bits, which is exact for every bit at or above 2^-64
    // and drops those below, as the general path does.
    if v >= 0 && v < 0x1p62 {
      let whole = v.rounded(.towardZero)
      self.init(hi: Int64(whole), lo: UInt64((v - whole) * 0x1p64))
      return
    }
    self.init(bits: v)
  }

  /// `v` from its bits: any sign and magnitude. O(1).
  private init(bits v: Double) {
    let bits = v.bitPattern
    let e = Int((bits &>> 52) & 0x7FF)
    // Zero, subnormals and values below 2^-64 contribute nothing; NaN and
    // infinity never reach a layout.
    guard e >= 1023 - 64, e < 0x7FF else {
      self.init(hi: 0, lo: 0)
      return
    }
    let m = (bits & 0x000F_FFFF_FFFF_FFFF) | (1 &<< 52)
    // v = m · 2^(e − 1075); in units of 2^-64: m · 2^(e − 1011).
    let shift = e - 1011
    var hi: UInt64
    var lo: UInt64
    if shift >= 64 {
      hi = shift - 64 < 11 ? m &<< UInt64(shift - 64) : 0
      lo = 0
    } else if shift >= 0 {
      hi = shift == 0 ? 0 : m &>> UInt64(64 - shift)
      lo = m &<< UInt64(shift)
    } else {
      hi = 0
      lo = m &>> UInt64(-shift)
    }
    if bits &>> 63 == 1 {
      // Two's complement of the 128-bit value.
      lo = ~lo &+ 1
      hi = ~hi &+ (lo == 0 ? 1 : 0)
    }
    self.init(hi: Int64(bitPattern: hi), lo: lo)
  }

  @inline(__always) public static func + (a: ExactSum, b: ExactSum) -> ExactSum {
    let (lo, carry) = a.lo.addingReportingOverflow(b.lo)
    return ExactSum(hi: a.hi &+ b.hi &+ (carry ? 1 : 0), lo: lo)
  }

  @inline(__always) public static prefix func - (a: ExactSum) -> ExactSum {
    let lo = ~a.lo &+ 1
    return ExactSum(hi: ~a.hi &+ (lo == 0 ? 1 : 0), lo: lo)
  }

  @inline(__always) public static func - (a: ExactSum, b: ExactSum) -> ExactSum { a + -b }

  @inline(__always) public static func += (a: inout ExactSum, b: ExactSum) { a = a + b }

  @inline(__always) public static func += (a: inout ExactSum, v: Double) { a = a + ExactSum(v) }

  /// The sum as a double: rounded once from the exact value, the same
  /// double for the same sum. O(1).
  @inline(__always) public var value: Double {
    Double(hi) + Double(lo) * 0x1p-64
  }

  /// Without a branch: the sign of the 128-bit difference (sums stay far
  /// from overflowing it), since which of two tops is lower is a coin toss.
  @inline(__always) public static func < (a: ExactSum, b: ExactSum) -> Bool {
    let borrow: Int64 = a.lo < b.lo ? 1 : 0
    return a.hi &- b.hi &- borrow < 0
  }

  @inline(__always) public static func <= (a: ExactSum, b: ExactSum) -> Bool { !(b < a) }

  @inline(__always) static func min(_ a: ExactSum, _ b: ExactSum) -> ExactSum { b < a ? b : a }

  @inline(__always) static func max(_ a: ExactSum, _ b: ExactSum) -> ExactSum { a < b ? b : a }
}
