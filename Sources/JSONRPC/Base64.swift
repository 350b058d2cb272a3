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
    try shifted.withUnsafeBufferPointer { (table) throws(Failure) in
      try decode(text, into: out, table: table)
    }
  }

  private static func decode(
    _ text: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer,
    table: UnsafeBufferPointer<UInt32>
  ) throws(Failure) {
    let n = text.count
    let full = decodedCount(text) / 3  // quads without padding
    // Quads whose three bytes may be stored as one four-byte word: the
    // fourth byte lands where the next quad's first goes.
    let wide = Swift.max(0, Swift.min(full, (out.count - 1) / 3))
    var o = 0
    var i = 0
    while o < 3 * full {
      // One load for the quad, one lookup per character in a table that
      // already holds it shifted into place: the quad's 24 bits are an OR.
      let q = UInt32(littleEndian: text.loadUnaligned(fromByteOffset: i, as: UInt32.self))
      let v =
        table[Int(q & 0xFF)] | table[256 + Int(q >> 8 & 0xFF)]
        | table[512 + Int(q >> 16 & 0xFF)] | table[768 + Int(q >> 24)]
      // Any byte outside the alphabet sets bit 31: one test for all four.
      guard v & 0x8000_0000 == 0 else { throw .character(i + firstBad(text, at: i)) }
      if o < 3 * wide {
        // The bytes in order, as a little-endian word.
        out.storeBytes(of: (v.byteSwapped >> 8).littleEndian, toByteOffset: o, as: UInt32.self)
      } else {
        out[o] = UInt8(truncatingIfNeeded: v >> 16)
        out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
        out[o + 2] = UInt8(truncatingIfNeeded: v)
      }
      o += 3
      i += 4
    }
    guard i < n else { return }
    // The last quad: "xy==" (1 byte) or "xyz=" (2 bytes).
    let a = values[Int(text[i])]
    let b = values[Int(text[i + 1])]
    guard a & 0x80 == 0 else { throw .character(i) }
    guard b & 0x80 == 0 else { throw .character(i + 1) }
    if text[i + 2] == UInt8(ascii: "=") {
      guard text[i + 3] == UInt8(ascii: "=") else { throw .character(i + 3) }
      guard b & 0x0F == 0 else { throw .padding }
      out[o] = a << 2 | b >> 4
    } else {
      let c = values[Int(text[i + 2])]
      guard c & 0x80 == 0 else { throw .character(i + 2) }
      guard text[i + 3] == UInt8(ascii: "=") else { throw .character(i + 3) }
      guard c & 0x03 == 0 else { throw .padding }
      out[o] = a << 2 | b >> 4
      out[o + 1] = (b & 0x0F) << 4 | c >> 2
    }
  }

  /// The first byte of the quad at `i` outside the alphabet.
  private static func firstBad(_ text: UnsafeRawBufferPointer, at i: Int) -> Int {
    (0..<4).first { values[Int(text[i + $0])] & 0x80 != 0 } ?? 3
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

  /// `values` shifted to each character's place in a quad's 24 bits, four
  /// tables of 256 one after another; bytes outside the alphabet set bit
  /// 31.
  private static let shifted: [UInt32] = {
    var t = [UInt32](repeating: 0, count: 1024)
    for k in 0..<4 {
      for c in 0..<256 {
        let v = values[c]
        t[256 * k + c] = v & 0x80 != 0 ? 0x8000_0000 : UInt32(v) << (18 - 6 * k)
      }
    }
    return t
  }()
}
