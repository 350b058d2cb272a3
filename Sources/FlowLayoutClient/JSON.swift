/// A JSON value, as sent to and answered by flowlayoutd.
///
/// The client's own small codec: the daemon writes compact UTF-8 JSON with
/// finite numbers only, so a few hundred lines cover it without
/// Foundation's bridging (which cannot tell `true` from `1` on Linux).
public enum JSON: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSON])
  case object([String: JSON])

  // MARK: Reading values

  /// `self[key]` of an object; `.null` for anything else or a missing key.
  /// O(1).
  public subscript(key: String) -> JSON {
    if case .object(let o) = self { return o[key] ?? .null }
    return .null
  }

  /// `self[i]` of an array; `.null` out of range. O(1).
  public subscript(index: Int) -> JSON {
    if case .array(let a) = self, a.indices.contains(index) { return a[index] }
    return .null
  }

  public var double: Double? {
    if case .number(let d) = self { return d }
    return nil
  }

  /// The number as an Int when it is one exactly.
  public var int: Int? {
    guard case .number(let d) = self, d == d.rounded(), abs(d) < 9.2e18 else { return nil }
    return Int(d)
  }

  public var string: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  public var bool: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  public var array: [JSON]? {
    if case .array(let a) = self { return a }
    return nil
  }

  public var object: [String: JSON]? {
    if case .object(let o) = self { return o }
    return nil
  }

  public var isNull: Bool { self == .null }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

// MARK: Writing

extension JSON {
  /// Compact JSON text, object keys sorted (so equal values encode
  /// equally). O(size).
  public var text: String {
    var out = ""
    write(into: &out)
    return out
  }

  func write(into out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let d): out += JSON.format(d)
    case .string(let s): JSON.quote(s, into: &out)
    case .array(let a):
      out += "["
      for (i, v) in a.enumerated() {
        if i > 0 { out += "," }
        v.write(into: &out)
      }
      out += "]"
    case .object(let o):
      out += "{"
      for (i, k) in o.keys.sorted().enumerated() {
        if i > 0 { out += "," }
        JSON.quote(k, into: &out)
        out += ":"
        o[k]!.write(into: &out)
      }
      out += "}"
    }
  }

  /// Integers without a fraction (`3`, not `3.0`); others in Swift's
  /// shortest round-trip form. Non-finite numbers are not JSON: null.
  static func format(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

  static func quote(_ s: String, into out: inout String) {
    out += "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where u.value < 0x20:
        let hex = String(u.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(u)
      }
    }
    out += "\""
  }
}

// MARK: Parsing

/// Malformed JSON text, with the byte offset where reading stopped.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
  public let offset: Int
  public let reason: String
  public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSON {
  /// Parses UTF-8 JSON text. O(size).
  public init(parsing bytes: [UInt8]) throws(JSONParseError) {
    var p = Parser(bytes: bytes)
    p.skipSpace()
    self = try p.value(depth: 0)
    p.skipSpace()
    guard p.i == bytes.count else { throw p.fail("trailing characters") }
  }

  public init(parsing text: String) throws(JSONParseError) {
    try self.init(parsing: Array(text.utf8))
  }
}

private struct Parser {
  let bytes: [UInt8]
  var i = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

  mutating func skipSpace() {
    while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
  }

  mutating func expect(_ word: String) throws(JSONParseError) {
    for b in word.utf8 {
      guard i < bytes.count, bytes[i] == b else { throw fail("expected \(word)") }
      i += 1
    }
  }

  mutating func value(depth: Int) throws(JSONParseError) -> JSON {
    guard depth < 512 else { throw fail("nesting too deep") }
    guard i < bytes.count else { throw fail("unexpected end") }
    switch bytes[i] {
    case UInt8(ascii: "n"):
      try expect("null")
      return .null
    case UInt8(ascii: "t"):
      try expect("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expect("false")
      return .bool(false)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "["):
      i += 1
      var items: [JSON] = []
      skipSpace()
      if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
        i += 1
        return .array(items)
      }
      while true {
        skipSpace()
        items.append(try value(depth: depth + 1))
        skipSpace()
        guard i < bytes.count else { throw fail("unexpected end") }
        if bytes[i] == UInt8(ascii: ",") {
          i += 1
        } else if bytes[i] == UInt8(ascii: "]") {
          i += 1
          return .array(items)
        } else {
          throw fail("expected , or ]")
        }
      }
    case UInt8(ascii: "{"):
      i += 1
      var members: [String: JSON] = [:]
      skipSpace()
      if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
        i += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
        let key = try string()
        skipSpace()
        try expect(":")
        skipSpace()
        members[key] = try value(depth: depth + 1)
        skipSpace()
        guard i < bytes.count else { throw fail("unexpected end") }
        if bytes[i] == UInt8(ascii: ",") {
          i += 1
        } else if bytes[i] == UInt8(ascii: "}") {
          i += 1
          return .object(members)
        } else {
          throw fail("expected , or }")
        }
      }
    default: return .number(try number())
    }
  }

  mutating func number() throws(JSONParseError) -> Double {
    let start = i
    while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
    guard i > start, let text = String(validating: bytes[start..<i], as: UTF8.self),
      let d = Double(text), d.isFinite
    else {
      i = start
      throw fail("expected a value")
    }
    return d
  }

  mutating func hex4() throws(JSONParseError) -> UInt32 {
    guard i + 4 <= bytes.count,
      let text = String(validating: bytes[i..<i + 4], as: UTF8.self),
      let v = UInt32(text, radix: 16)
    else { throw fail("bad \\u escape") }
    i += 4
    return v
  }

  mutating func string() throws(JSONParseError) -> String {
    i += 1  // the opening quote
    var scalars = String.UnicodeScalarView()
    var run = i  // start of the unescaped bytes not yet copied
    func flush(_ p: inout Parser, upTo end: Int) throws(JSONParseError) {
      guard run < end else { return }
      guard let s = String(validating: p.bytes[run..<end], as: UTF8.self) else {
        throw p.fail("invalid UTF-8")
      }
      scalars.append(contentsOf: s.unicodeScalars)
    }
    while true {
      guard i < bytes.count else { throw fail("unterminated string") }
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        try flush(&self, upTo: i)
        i += 1
        return String(scalars)
      }
      if b == UInt8(ascii: "\\") {
        try flush(&self, upTo: i)
        i += 1
        guard i < bytes.count else { throw fail("unterminated string") }
        let e = bytes[i]
        i += 1
        switch e {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{c}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var v = try hex4()
          if (0xD800..<0xDC00).contains(v), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
          {
            i += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("bad surrogate pair") }
            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let u = Unicode.Scalar(v) else { throw fail("bad \\u escape") }
          scalars.append(u)
        default: throw fail("bad escape")
        }
        run = i
        continue
      }
      guard b >= 0x20 else { throw fail("control character in string") }
      i += 1
    }
  }
}
