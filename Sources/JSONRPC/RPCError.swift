/// A JSON-RPC error object. Handlers throw it; the server writes it.
public struct RPCError: Error, Equatable, Sendable {
  public var code: Int
  public var message: String
  /// The path of the offending field (`params.bounds.width`), sent as
  /// `data.field` so clients need not parse the message.
  public var field: String?

  public init(code: Int, message: String, field: String? = nil) {
    self.code = code
    self.message = message
    self.field = field
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
    if let field {
      w.key("data")
      w.beginObject()
      w.key("field")
      w.string(field)
      w.endObject()
    }
    w.endObject()
  }
}
