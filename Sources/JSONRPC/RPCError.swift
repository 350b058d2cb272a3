/// A JSON-RPC error object. Handlers throw it; the server writes it.
public struct RPCError: Error, Equatable, Sendable {
  public var code: Int
  public var message: String
  /// The path of the offending field (`params.bounds.width`), sent as
  /// `data.field` so clients need not parse the message.
  public var field: String?
  /// The known name nearest to an unknown method or field, sent as
  /// `data.suggestion` (and named in the message: "did you mean …?").
  public var suggestion: String?

  public init(code: Int, message: String, field: String? = nil, suggestion: String? = nil) {
    self.code = code
    self.message = message
    self.field = field
    self.suggestion = suggestion
  }

  public static let parseErrorCode = -32700
  public static let invalidRequestCode = -32600
  public static let methodNotFoundCode = -32601
  public static let invalidParamsCode = -32602
  public static let internalErrorCode = -32603
  public static let serverNotInitializedCode = -32002
  public static let requestCancelledCode = -32800

  public static func parseError(_ message: String) -> RPCError {
    RPCError(code: parseErrorCode, message: "Parse error: \(message)")
  }
  public static func invalidRequest(_ message: String) -> RPCError {
    RPCError(code: invalidRequestCode, message: "Invalid request: \(message)")
  }
  public static func methodNotFound(_ method: String) -> RPCError {
    RPCError(code: methodNotFoundCode, message: "Method not found: \(bounded(method))")
  }
  /// -32601 with the known method nearest to `method`, if one is near.
  public static func methodNotFound(_ method: String, among known: [String]) -> RPCError {
    var e = methodNotFound(method)
    if let s = nearestName(to: method, among: known) {
      e.message += "; did you mean \(s)?"
      e.suggestion = s
    }
    return e
  }
  /// -32602 naming the field: `params.bounds.width must be a finite number >= 0`.
  public static func invalidParams(_ field: String, _ problem: String) -> RPCError {
    RPCError(code: invalidParamsCode, message: "\(field) \(problem)", field: field)
  }
  public static func internalError(_ message: String) -> RPCError {
    RPCError(code: internalErrorCode, message: "Internal error: \(message)")
  }
  public static let serverNotInitialized = RPCError(
    code: serverNotInitializedCode, message: "Server not initialized: send initialize first")
  public static let requestCancelled = RPCError(
    code: requestCancelledCode, message: "Request cancelled")

  /// Writes the error object. O(message length).
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("code")
    w.int(code)
    w.key("message")
    w.string(message)
    if field != nil || suggestion != nil {
      w.key("data")
      w.beginObject()
      if let field {
        w.key("field")
        w.string(field)
      }
      if let suggestion {
        w.key("suggestion")
        w.string(suggestion)
      }
      w.endObject()
    }
    w.endObject()
  }
}

/// The name in `known` nearest to `name` by edit distance (Damerau's
/// adjacent transposition counted as one edit), compared without case
/// first and then with it; nil unless it is near: at most 1 edit for a
/// name of up to 7 characters (after any `namespace/`), 2 up to 11, 3
/// beyond. A bare method name
/// whose `layout/` form is known is that form. The first in `known`'s
/// order wins a tie. O(known · length²); only errors call it.
public func nearestName(to name: String, among known: [String]) -> String? {
  let chars = Array(name.prefix(256))
  guard !chars.isEmpty else { return nil }
  if !name.contains("/"), known.contains("layout/" + name) { return "layout/" + name }
  // A method's namespace (`layout/`) is not part of its length.
  let own = chars.count - (chars.lastIndex(of: "/").map { $0 + 1 } ?? 0)
  let limit = own <= 7 ? 1 : own <= 11 ? 2 : 3
  let lower = chars.map { Character($0.lowercased()) }
  var best: (String, Int, Int)? = nil
  for k in known where k != name {
    let kc = Array(k)
    guard abs(kc.count - chars.count) <= limit else { continue }
    let d = editDistance(lower, kc.map { Character($0.lowercased()) })
    guard d <= limit else { continue }
    let exact = editDistance(chars, kc)
    if best == nil || (d, exact) < (best!.1, best!.2) { best = (k, d, exact) }
  }
  return best?.0
}

/// The optimal string alignment distance: insertions, deletions,
/// substitutions and adjacent transpositions. O(a · b).
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var before = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        d = min(d, before[j - 2] + 1)
      }
      current[j] = d
    }
    (before, previous, current) = (previous, current, before)
  }
  return previous[b.count]
}
