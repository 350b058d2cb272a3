/// RFC 4648 base64 (the standard alphabet, padded), decoded straight into
/// memory the caller provides: a bulk request's packed numbers never pass
/// through an array of JSON values or a copied string.
public enum Base64 {
  /// Why a text is not base64.
  public enum Failure: Error, Equatable, Sendable {
    /// The length is not a multiple of 4.
    case length(Int)
    /// A byte outside the alphabet, or `=` before the end, at this offset.
    case character(Int)
    /// Bits after the last byte are not zero (a non-canonical ending).
    case padding
  }

  /// The number of bytes `text` decodes to, from its length and padding
  /// alone, without validating it. O(1).
  public static func decodedCount(_ text: UnsafeRawBufferPointer) -> Int {
    let n = text.count
    guard n >= 4, n % 4 == 0 else { return n / 4 * 3 }
    let pad =
      (text[n - 1] == UInt8(ascii: "=") ? 1 : 0) + (text[n - 2] == UInt8(ascii: "=") ? 1 : 0)
    return n / 4 * 3 - pad
  }

  /// Decodes `text` into `out`, which holds exactly `decodedCount(text)`
  /// bytes. O(n), four characters per step.
  public static func decode(_ text: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer)
    throws(Failure)
  {
    let n = text.count
    guard n % 4 == 0 else { throw .length(n) }
    guard n > 0 else { return }
    try values.withUnsafeBufferPointer { (table) throws(Failure) in
      try decode(text, into: out, table: table)
    }
  }

  private static func decode(
    _ text: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer,
    table: UnsafeBufferPointer<UInt8>
  ) throws(Failure) {
    let n = text.count
    let full = decodedCount(text) / 3  // quads without padding
    var o = 0
    var i = 0
    for _ in 0..<full {
      let a = table[Int(text[i])]
      let b = table[Int(text[i + 1])]
      let c = table[Int(text[i + 2])]
      let d = table[Int(text[i + 3])]
      // Any byte outside the alphabet maps to 0x80: one test for all four.
      guard (a | b | c | d) & 0x80 == 0 else { throw .character(i + firstBad(a, b, c, d)) }
      let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
      out[o] = UInt8(truncatingIfNeeded: v >> 16)
      out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
      out[o + 2] = UInt8(truncatingIfNeeded: v)
      o += 3
      i += 4
    }
    guard i < n else { return }
    // The last quad: "xy==" (1 byte) or "xyz=" (2 bytes).
    let a = table[Int(text[i])]
    let b = table[Int(text[i + 1])]
    guard a & 0x80 == 0 else { throw .character(i) }
    guard b & 0x80 == 0 else { throw .character(i + 1) }
    if text[i + 2] == UInt8(ascii: "=") {
      guard text[i + 3] == UInt8(ascii: "=") else { throw .character(i + 3) }
      guard b & 0x0F == 0 else { throw .padding }
      out[o] = a << 2 | b >> 4
    } else {
      let c = table[Int(text[i + 2])]
      guard c & 0x80 == 0 else { throw .character(i + 2) }
      guard text[i + 3] == UInt8(ascii: "=") else { throw .character(i + 3) }
      guard c & 0x03 == 0 else { throw .padding }
      out[o] = a << 2 | b >> 4
      out[o + 1] = (b & 0x0F) << 4 | c >> 2
    }
  }

  private static func firstBad(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int {
    a & 0x80 != 0 ? 0 : b & 0x80 != 0 ? 1 : c & 0x80 != 0 ? 2 : 3
  }

  /// Each byte's 6-bit value, 0x80 for bytes outside the alphabet (`=`
  /// included: only the last quad may hold it).
  private static let values: [UInt8] = {
    var t = [UInt8](repeating: 0x80, count: 256)
    for (k, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
      .enumerated()
    {
      t[Int(c)] = UInt8(k)
    }
    return t
  }()
}
