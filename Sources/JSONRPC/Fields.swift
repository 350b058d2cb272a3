import CJansson

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the members of a JSON object while tracking the path to it, so
/// every error names the exact field: `params.sections[2].itemSizes[7].width
/// must be a finite number >= 0`.
public struct Fields {
  public let value: JSONValue
  /// The path, built when an error needs it: `base`, then `[index]` for an
  /// array's element, then `.member`, joined only then (a frame's
  /// `params.bounds`, or `sizes[7].size` of a bulk request's millionth
  /// entry, costs no String).
  private let base: String
  private let index: Int
  private let member: String?
  public var path: String {
    var p = base
    if index >= 0 { p += "[" + String(index) + "]" }
    if let member { p += "." + member }
    return p
  }

  /// Wraps `value`, which must be an object. O(1).
  public init(_ value: JSONValue, path: String) throws(RPCError) {
    guard value.isObject else { throw .invalidParams(path, "must be an object") }
    self.value = value
    self.base = path
    self.index = -1
    self.member = nil
  }

  /// Wraps element `index` of the array at `path`, which must be an
  /// object. O(1): the path is joined only for an error.
  public init(_ value: JSONValue, element index: Int, of path: String) throws(RPCError) {
    guard value.isObject else { throw .invalidParams("\(path)[\(index)]", "must be an object") }
    self.value = value
    self.base = path
    self.index = index
    self.member = nil
  }

  /// Wraps the member `key` of `parent`, which must be an object. O(1)
  /// below two levels; deeper, its parent's path is joined once.
  init(_ value: JSONValue, in parent: Fields, key: String) throws(RPCError) {
    guard value.isObject else { throw .invalidParams(parent.path(key), "must be an object") }
    self.value = value
    if parent.member == nil {
      self.base = parent.base
      self.index = parent.index
    } else {
      self.base = parent.path
      self.index = -1
    }
    self.member = key
  }

  /// `params`, which may be absent or null (read as `{}`) or an object.
  public static func params(_ value: JSONValue?) throws(RPCError) -> Fields {
    guard let value, !value.isNull else { return try Fields(emptyObject, path: "params") }
    return try Fields(value, path: "params")
  }

  /// A shared `{}` that absent params read as; never mutated.
  nonisolated(unsafe) private static let emptyObject = JSONValue(raw: json_object())

  /// Concatenation, not interpolation: a short path stays a small string,
  /// with nothing allocated.
  public func path(_ key: String) -> String { path + "." + key }

  /// The member, or nil when absent or null. O(1).
  public func optional(_ key: String) -> JSONValue? {
    guard let v = value[key], !v.isNull else { return nil }
    return v
  }

  public func required(_ key: String) throws(RPCError) -> JSONValue {
    guard let v = optional(key) else { throw .invalidParams(path(key), "is required") }
    return v
  }

  public func object(_ key: String) throws(RPCError) -> Fields {
    try Fields(required(key), in: self, key: key)
  }

  public func optionalObject(_ key: String) throws(RPCError) -> Fields? {
    guard let v = optional(key) else { return nil }
    return try Fields(v, in: self, key: key)
  }

  public func string(_ key: String, maxLength: Int = .max) throws(RPCError) -> String {
    try Self.string(required(key), path: path(key), maxLength: maxLength)
  }

  public func optionalString(_ key: String) throws(RPCError) -> String? {
    guard let v = optional(key) else { return nil }
    return try Self.string(v, path: path(key), maxLength: .max)
  }

  // The helpers take the path as an autoclosure: it is built only for an
  // error, so a valid `params.bounds.height` costs no string.
  static func string(_ v: JSONValue, path: @autoclosure () -> String, maxLength: Int)
    throws(RPCError) -> String
  {
    guard v.kind == .string else { throw .invalidParams(path(), "must be a string") }
    guard v.stringLength <= maxLength else {
      throw .invalidParams(path(), "must be at most \(maxLength) bytes long")
    }
    return v.string ?? ""
  }

  /// A finite number no less than `min` (when given).
  /// A finite number no less than `min` (when given) and no larger than
  /// `maxMagnitude` in absolute value.
  public func number(_ key: String, min: Double? = nil, maxMagnitude: Double = .infinity)
    throws(RPCError) -> Double
  {
    try Self.number(required(key), path: path(key), min: min, maxMagnitude: maxMagnitude)
  }

  public func optionalNumber(_ key: String, min: Double? = nil, maxMagnitude: Double = .infinity)
    throws(RPCError) -> Double?
  {
    guard let v = optional(key) else { return nil }
    return try Self.number(v, path: path(key), min: min, maxMagnitude: maxMagnitude)
  }

  public static func number(
    _ v: JSONValue, path: @autoclosure () -> String, min: Double?,
    maxMagnitude: Double = .infinity
  ) throws(RPCError) -> Double {
    guard let d = v.number, d.isFinite, min.map({ d >= $0 }) ?? true else {
      if let min { throw .invalidParams(path(), "must be a finite number >= \(format(min))") }
      throw .invalidParams(path(), "must be a finite number")
    }
    guard abs(d) <= maxMagnitude else {
      throw .invalidParams(path(), "must not exceed \(format(maxMagnitude)) in magnitude")
    }
    return d
  }

  /// An integer in `range`. Integral reals such as 1e12 are read as
  /// integers, so that a huge count reports the limit it breaks rather
  /// than a type error.
  public func integer(_ key: String, in range: ClosedRange<Int>) throws(RPCError) -> Int {
    try Self.integer(required(key), path: path(key), in: range)
  }

  public static func integer(
    _ v: JSONValue, path: @autoclosure () -> String, in range: ClosedRange<Int>
  )
    throws(RPCError) -> Int
  {
    let value: Int?
    if let i = v.integer {
      value = Int(i)
    } else if let d = v.number, d == d.rounded(), abs(d) < 9.2e18 {
      value = Int(d)
    } else {
      value = nil
    }
    guard let value else { throw .invalidParams(path(), "must be an integer") }
    guard range.contains(value) else {
      throw .invalidParams(
        path(), "must be an integer from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  public func optionalBool(_ key: String) throws(RPCError) -> Bool? {
    guard let v = optional(key) else { return nil }
    guard let b = v.bool else { throw .invalidParams(path(key), "must be a boolean") }
    return b
  }

  /// An array member, with each element's path. O(1).
  public func array(_ key: String) throws(RPCError) -> (JSONValue, String) {
    let v = try required(key)
    guard v.isArray else { throw .invalidParams(path(key), "must be an array") }
    return (v, path(key))
  }

  /// A string member that must be one of `choices`.
  public func optionalChoice(_ key: String, _ choices: [String]) throws(RPCError) -> String? {
    guard let s = try optionalString(key) else { return nil }
    guard choices.contains(s) else {
      throw .invalidParams(
        path(key), "must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))")
    }
    return s
  }

  /// Rejects members not in `known`, so that a misspelt field is an error
  /// instead of a silently ignored default; a method's few names compared
  /// as bytes in order. O(members · names).
  public func rejectUnknown(_ known: [String]) throws(RPCError) {
    try rejectUnknown(suggestingFrom: { known }) { bytes in
      known.contains { k in
        var k = k
        return k.utf8.count == bytes.count
          && k.withUTF8 {
            bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
          }
      }
    }
  }

  /// `rejectUnknown` for a set of names. O(members).
  public func rejectUnknown(_ known: Set<String>) throws(RPCError) {
    // Keys up to 15 bytes become small strings: no allocation per key.
    try rejectUnknown(suggestingFrom: { known.sorted() }) {
      known.contains(String(decoding: $0, as: UTF8.self))
    }
  }

  /// The first key, in the object's order, that `isKnown` refuses, as
  /// error -32602 naming it and the nearest of `names` (did you mean).
  /// O(keys).
  private func rejectUnknown(
    suggestingFrom names: () -> [String], where isKnown: (UnsafeRawBufferPointer) -> Bool
  ) throws(RPCError) {
    var unknown: String? = nil
    value.forEachKey { bytes in
      if isKnown(bytes) { return true }
      // Only what an error can quote is decoded (bounded cuts it further).
      unknown = String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes.prefix(1024)), as: UTF8.self)
      return false
    }
    if let unknown {
      var e = RPCError.invalidParams(path(bounded(unknown)), "is not a known field")
      if let s = nearestName(to: unknown, among: names()) {
        e.message += "; did you mean \(s)?"
        e.suggestion = s
      }
      throw e
    }
  }

}

/// Formats a bound for an error message: `0` rather than `0.0`, and
/// `1e15` rather than `1000000000000000.0`.
func format(_ d: Double) -> String {
  guard d == d.rounded(), abs(d) < 9e18 else { return "\(d)" }
  var mantissa = Int(d)
  guard abs(mantissa) >= 1_000_000 else { return String(mantissa) }
  var exponent = 0
  while mantissa % 10 == 0 {
    mantissa /= 10
    exponent += 1
  }
  return exponent == 0 ? String(mantissa) : "\(mantissa)e\(exponent)"
}
