/// A lean JSON byte encoder. Responses are written straight into a byte
/// buffer: no intermediate tree, and numbers in their shortest round-trip
/// form. Commas are placed automatically.
public struct JSONWriter {
  public private(set) var bytes: [UInt8] = []
  /// For each open container: whether the next element is its first.
  private var first: [Bool] = []
  private var afterKey = false

  public init() { bytes.reserveCapacity(1024) }

  /// A position to roll back to, so that a handler that fails half way
  /// through writing its result leaves no trace. O(1).
  public struct Mark {
    fileprivate let count: Int
    fileprivate let depth: Int
    /// Whether the enclosing container was still empty: the rolled-back
    /// value may have been its first element, and the next one must then
    /// be written without a comma.
    fileprivate let enclosingEmpty: Bool?
    fileprivate let afterKey: Bool
  }

  public var mark: Mark {
    Mark(count: bytes.count, depth: first.count, enclosingEmpty: first.last, afterKey: afterKey)
  }

  /// Drops everything written since `m`. O(1).
  public mutating func reset(to m: Mark) {
    bytes.removeSubrange(m.count...)
    first.removeSubrange(m.depth...)
    if let e = m.enclosingEmpty { first[first.count - 1] = e }
    afterKey = m.afterKey
  }

  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    first.removeAll(keepingCapacity: true)
    afterKey = false
  }

  @inline(__always)
  private mutating func prefix() {
    if afterKey {
      afterKey = false
      return
    }
    if let f = first.last {
      if f { first[first.count - 1] = false } else { bytes.append(UInt8(ascii: ",")) }
    }
  }

  public mutating func beginObject() {
    prefix()
    bytes.append(UInt8(ascii: "{"))
    first.append(true)
  }

  public mutating func endObject() {
    first.removeLast()
    bytes.append(UInt8(ascii: "}"))
  }

  public mutating func beginArray() {
    prefix()
    bytes.append(UInt8(ascii: "["))
    first.append(true)
  }

  public mutating func endArray() {
    first.removeLast()
    bytes.append(UInt8(ascii: "]"))
  }

  /// Writes an object key; the next value written is its value. A
  /// literal key resolves to this StaticString overload: its bytes are
  /// copied as they are, never escaped (the protocol's keys need none).
  public mutating func key(_ k: StaticString) {
    prefix()
    bytes.append(UInt8(ascii: "\""))
    k.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    afterKey = true
  }

  /// A key known only at run time, escaped as any string. (Named, so that
  /// literals never take this slower path: a String overload would win.)
  public mutating func key(escaping k: String) {
    prefix()
    appendString(k)
    bytes.append(UInt8(ascii: ":"))
    afterKey = true
  }

  public mutating func string(_ s: String) {
    prefix()
    appendString(s)
  }

  public mutating func null() {
    prefix()
    bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
  }

  public mutating func bool(_ b: Bool) {
    prefix()
    if b {
      bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
    } else {
      bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
    }
  }

  public mutating func int(_ i: Int) {
    prefix()
    appendInt(i)
  }

  public mutating func int64(_ i: Int64) {
    prefix()
    appendInt(Int(i))
  }

  /// Writes a finite number: integral values below 2^53 as integers, others
  /// in Swift's shortest round-trip form. Non-finite values (which JSON
  /// cannot carry) are written as null.
  public mutating func number(_ d: Double) {
    prefix()
    guard d.isFinite else {
      bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
      return
    }
    if d == d.rounded(.towardZero) && abs(d) < 9_007_199_254_740_992 {
      appendInt(Int(d))
    } else {
      bytes.append(contentsOf: d.description.utf8)
    }
  }

  /// Appends an already-encoded JSON value verbatim.
  public mutating func raw(_ json: [UInt8]) {
    prefix()
    bytes.append(contentsOf: json)
  }

  private mutating func appendInt(_ value: Int) {
    if value == 0 {
      bytes.append(UInt8(ascii: "0"))
      return
    }
    var v = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var n = 0
    withUnsafeMutableBytes(of: &digits) { buf in
      while v > 0 {
        buf[n] = UInt8(v % 10) + UInt8(ascii: "0")
        v /= 10
        n += 1
      }
      for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(buf[i]) }
    }
  }

  private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

  private mutating func appendString(_ s: String) {
    bytes.append(UInt8(ascii: "\""))
    for c in s.utf8 {
      switch c {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0..<0x20:
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
        bytes.append(Self.hex[Int(c >> 4)])
        bytes.append(Self.hex[Int(c & 0xF)])
      default: bytes.append(c)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
