/// The shortest decimal that reads back as the same double, by Raffaello
/// Giulietti's Schubfach ("The Schubfach way to render doubles", 2020):
/// three 128 × 64-bit products against a table of powers of ten
/// (Pow10Table.swift), no allocation, no loop over digits but the final
/// trimming. Among the shortest decimals in the rounding interval it picks
/// the closest to the double, as `Double.description` does, so both give
/// the same digits.
@usableFromInline enum ShortestDouble {
  /// The table's words, high then low, as a global pointer: no array
  /// retained and released per number.
  @usableFromInline nonisolated(unsafe) static let pow10Words: UnsafePointer<UInt64> = {
    let p = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * pow10.count)
    for (i, (hi, lo)) in pow10.enumerated() {
      p[2 * i] = hi
      p[2 * i + 1] = lo
    }
    return UnsafePointer(p)
  }()

  /// `digits · 10^exponent` for a finite double > 0, given its IEEE fields.
  /// The digits may end in zeros; `trimmed` removes them. O(1).
  @inlinable @inline(__always)
  static func decimal(
    significand bits: UInt64, exponent e: Int, table: UnsafePointer<UInt64> = pow10Words
  ) -> (digits: UInt64, exponent: Int) {
    let c: UInt64
    let q: Int
    if e != 0 {
      c = (1 << 52) | bits
      q = e - 1075
    } else {
      c = bits
      q = -1074
    }
    let even = c & 1 == 0
    // At a power of two the interval below is half as wide as above.
    let lowerCloser = bits == 0 && e > 1
    let cbl = 4 &* c &- 2 &+ (lowerCloser ? 1 : 0)
    let cb = 4 &* c
    let cbr = 4 &* c &+ 2
    // k = ⌊log10 2^q⌋ (⌊log10 ¾·2^q⌋ when the lower side is closer), by
    // the usual fixed-point constants, exact over every q of a double.
    let k = lowerCloser ? (q &* 1_262_611 &- 524_031) >> 22 : (q &* 1_262_611) >> 22
    let h = q &+ (((-k) &* 1_741_647) >> 19) &+ 1
    let (g1, g0) = (table[2 * (-k - minK)], table[2 * (-k - minK) + 1])
    let vbl = roundToOdd(g1, g0, cbl << UInt64(h))
    let vb = roundToOdd(g1, g0, cb << UInt64(h))
    let vbr = roundToOdd(g1, g0, cbr << UInt64(h))
    // The interval's ends are in it only when the significand is even.
    let lower = vbl &+ (even ? 0 : 1)
    let upper = vbr &- (even ? 0 : 1)
    let s = vb >> 2
    if s >= 10 {
      // One digit fewer: a multiple of ten in the interval, if exactly one
      // of the two around vb is in it.
      let sp = s / 10
      let upInside = lower <= 40 &* sp
      let wpInside = 40 &* sp &+ 40 <= upper
      if upInside != wpInside { return (sp &+ (wpInside ? 1 : 0), k + 1) }
    }
    let uInside = lower <= 4 &* s
    let wInside = 4 &* s &+ 4 <= upper
    if uInside != wInside { return (s &+ (wInside ? 1 : 0), k) }
    // Both in: the closer, ties to even.
    let mid = 4 &* s &+ 2
    let up = vb > mid || (vb == mid && s & 1 != 0)
    return (s &+ (up ? 1 : 0), k)
  }

  /// ⌊g · cp / 2^128⌋, its lowest bit set when the discarded part is not
  /// zero ("round to odd"), for g = g1 · 2^64 + g0. O(1).
  @inlinable @inline(__always)
  static func roundToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
    let x = g0.multipliedFullWidth(by: cp)
    let y = g1.multipliedFullWidth(by: cp)
    let (y0, carry) = y.low.addingReportingOverflow(x.high)
    let y1 = y.high &+ (carry ? 1 : 0)
    return y1 | (y0 > 1 ? 1 : 0)
  }

  /// The digits without trailing zeros, the exponent raised to match. O(1):
  /// at most 17 digits, and one test when there is none (most doubles).
  @inlinable @inline(__always)
  static func trimmed(_ d: (digits: UInt64, exponent: Int)) -> (digits: UInt64, exponent: Int) {
    var (s, k) = d
    guard s % 10 == 0 else { return (s, k) }
    if s % 100_000_000 == 0 {
      s /= 100_000_000
      k += 8
    }
    if s % 10_000 == 0 {
      s /= 10_000
      k += 4
    }
    if s % 100 == 0 {
      s /= 100
      k += 2
    }
    if s % 10 == 0 {
      s /= 10
      k += 1
    }
    return (s, k)
  }

  /// The number of decimal digits of `s` (1 for 0): from the bit length,
  /// then one comparison. O(1).
  @inlinable @inline(__always)
  static func digitCount(_ s: UInt64, powers: UnsafePointer<UInt64> = powersOfTen) -> Int {
    // t = ⌊b · log10 2⌋ for b bits: the count is t + 1, or t when s <
    // 10^t.
    let bits = 64 - (s | 1).leadingZeroBitCount
    let t = (bits &* 1233) >> 12
    return Swift.max(1, t + 1 - (s < powers[t] ? 1 : 0))
  }

  /// 10^0 … 10^19, as a global pointer: no array retained per call.
  @usableFromInline nonisolated(unsafe) static let powersOfTen: UnsafePointer<UInt64> = {
    let p = UnsafeMutablePointer<UInt64>.allocate(capacity: 20)
    var v: UInt64 = 1
    for i in 0..<20 {
      p[i] = v
      v = v &* 10
    }
    return UnsafePointer(p)
  }()

  /// "00" … "99", read through a pointer that needs no lazy global.
  @usableFromInline static let pairs: StaticString =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

  /// Writes the `n` digits of `s` ending just before `end`: eight at a
  /// time in 32-bit arithmetic, two per table lookup. O(n).
  @inlinable @inline(__always)
  static func writeDigits(_ s: UInt64, _ n: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
    var v = s
    var p = end
    var left = n
    while left > 8 {
      var chunk = UInt32(truncatingIfNeeded: v % 100_000_000)
      v /= 100_000_000
      for _ in 0..<4 {
        let r = Int(chunk % 100)
        chunk /= 100
        p -= 2
        pair(r, at: p)
      }
      left -= 8
    }
    var w = UInt32(truncatingIfNeeded: v)
    while left >= 2 {
      let r = Int(w % 100)
      w /= 100
      p -= 2
      pair(r, at: p)
      left -= 2
    }
    if left == 1 {
      p -= 1
      p[0] = UInt8(truncatingIfNeeded: w) &+ 0x30
    }
  }

  /// Writes the two digits of `r` < 100 at `p`, as one 16-bit copy.
  @inlinable @inline(__always)
  static func pair(_ r: Int, at p: UnsafeMutablePointer<UInt8>) {
    let two = UnsafeRawPointer(Self.pairs.utf8Start).loadUnaligned(
      fromByteOffset: 2 &* r, as: UInt16.self)
    UnsafeMutableRawPointer(p).storeBytes(of: two, as: UInt16.self)
  }

  /// Writes the 8 digits of `n` < 10^8, leading zeros included, at `p`:
  /// n / 10^6 in fixed point with 56 fractional bits, then two digits per
  /// multiplication by 100 (no division). The constant is ⌈2^56 / 10^6⌉;
  /// rounding it up keeps every step at or just above the true value,
  /// never across a digit (checked for every n < 10^8 when it was
  /// written, and by the property test).
  @inlinable @inline(__always)
  static func write8(_ n: UInt32, at p: UnsafeMutablePointer<UInt8>) {
    let mask: UInt64 = (1 << 56) - 1
    var f = UInt64(n) &* 72_057_594_038
    pair(Int(truncatingIfNeeded: f >> 56), at: p)
    f = (f & mask) &* 100
    pair(Int(truncatingIfNeeded: f >> 56), at: p + 2)
    f = (f & mask) &* 100
    pair(Int(truncatingIfNeeded: f >> 56), at: p + 4)
    f = (f & mask) &* 100
    pair(Int(truncatingIfNeeded: f >> 56), at: p + 6)
  }

  /// Writes the 17 digits of `s` < 10^17, leading zeros included, at `p`.
  @inlinable @inline(__always)
  static func write17(_ s: UInt64, at p: UnsafeMutablePointer<UInt8>) {
    let a = s / 100_000_000
    let b = a / 100_000_000
    p[0] = UInt8(truncatingIfNeeded: b) &+ 0x30
    write8(UInt32(truncatingIfNeeded: a &- b &* 100_000_000), at: p + 1)
    write8(UInt32(truncatingIfNeeded: s &- a &* 100_000_000), at: p + 9)
  }
}

extension ByteBuffer {
  /// `writeShortest` as a call: for shapes with many call sites (a card's
  /// two dozen numbers), where the inlined body would multiply the code.
  @usableFromInline @inline(never)
  static func writeShortestCall(
    _ d: Double, at start: UnsafeMutablePointer<UInt8>, pow10: UnsafePointer<UInt64>,
    powers: UnsafePointer<UInt64>
  ) -> Int {
    writeShortest(d, at: start, pow10: pow10, powers: powers)
  }

  /// Writes the shortest round-trip decimal of a finite, non-zero double at
  /// `start`, in the notation `Double.description` chooses: fixed for 1e-4
  /// ≤ |d| ≤ 2^53, scientific otherwise, but with no "+" and no padding in
  /// the exponent ("1e-5", "1.5e300"), so never longer. Writes at most 25
  /// bytes, and scratch digits past them: `start` needs 96 bytes of room
  /// (the 17 scratch digits sit at +48, and 24-byte copies may read and
  /// write past both). Returns the number's length; no allocation. O(1).
  /// Inlinable and inlined: a loop over many numbers (a trajectory) takes
  /// the body in, with its tables and checks hoisted.
  @inlinable @inline(__always)
  static func writeShortest(
    _ d: Double, at start: UnsafeMutablePointer<UInt8>, pow10: UnsafePointer<UInt64>,
    powers: UnsafePointer<UInt64>
  ) -> Int {
    var out = start
    if d.sign == .minus {
      out[0] = UInt8(ascii: "-")
      out += 1
    }
    // The tables through the buffer's own pointers: a lazy global costs a
    // `swift_once` per read.
    let (s, k) = ShortestDouble.trimmed(
      ShortestDouble.decimal(
        significand: d.significandBitPattern, exponent: Int(d.exponentBitPattern),
        table: pow10))
    let n = ShortestDouble.digitCount(s, powers: powers)
    // All 17 digits past where the number ends, then its n copied into
    // place around the point by fixed 24-byte copies: no loop over bytes.
    // Whatever such a copy writes past the number's end is scratch.
    let scratch = start + 48
    ShortestDouble.write17(s, at: scratch)
    let digits = UnsafePointer(scratch + 17 - n)
    // The value is 0.d1d2…dn · 10^p.
    let p = n + k
    if p >= -3 && d.magnitude <= 9_007_199_254_740_992 {
      if p <= 0 {
        // 0.000ddd: "0." and up to three zeros in one 8-byte store.
        Self.copy24(Self.zeroPoint, to: out)
        out[1] = UInt8(ascii: ".")
        out += 2 - p
        Self.copy24(digits, to: out)
        out += n
      } else if p < n {
        // ddd.ddd
        Self.copy24(digits, to: out)
        out[p] = UInt8(ascii: ".")
        Self.copy24(digits + p, to: out + p + 1)
        out += n + 1
      } else {
        // An integer: the digits and their zeros (p ≤ 16 below 2^53).
        Self.copy24(digits, to: out)
        for i in n..<p { out[i] = UInt8(ascii: "0") }
        out += p
      }
    } else {
      // d[.ddd]e[-]x
      out[0] = digits[0]
      if n > 1 {
        out[1] = UInt8(ascii: ".")
        Self.copy24(digits + 1, to: out + 2)
        out += n + 1
      } else {
        out += 1
      }
      out[0] = UInt8(ascii: "e")
      out += 1
      var x = p - 1
      if x < 0 {
        out[0] = UInt8(ascii: "-")
        out += 1
        x = -x
      }
      let xn = x >= 100 ? 3 : x >= 10 ? 2 : 1
      ShortestDouble.writeDigits(UInt64(x), xn, endingAt: out + xn)
      out += xn
    }
    return out - start
  }

  /// "0000…", the first bytes of a number below 1 (the point written over
  /// the second).
  @inlinable @inline(__always) static var zeroPoint: UnsafePointer<UInt8> {
    StaticString("000000000000000000000000").utf8Start
  }

  /// Copies 24 bytes as three words: callers need the first ≤ 17 and have
  /// room for all of them at both ends.
  @inlinable @inline(__always)
  static func copy24(_ from: UnsafePointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) {
    let src = UnsafeRawPointer(from)
    let dst = UnsafeMutableRawPointer(out)
    dst.storeBytes(of: src.loadUnaligned(as: UInt64.self), as: UInt64.self)
    dst.storeBytes(
      of: src.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
    dst.storeBytes(
      of: src.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16,
      as: UInt64.self)
  }
}
