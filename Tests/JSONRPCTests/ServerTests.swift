import Glibc
import XCTest

@testable import JSONRPC

/// A handler that echoes params, so the server's own rules can be tested
/// without any layout.
final class EchoHandler: RPCHandler {
  var notifications: [String] = []
  var shutDown = false
  func initialize(params: JSONValue?, result: inout JSONWriter) throws(RPCError) {
    result.beginObject()
    result.key("ok")
    result.bool(true)
    result.endObject()
  }
  func handleRequest(method: String, params: JSONValue?, result: inout JSONWriter) throws(RPCError)
  {
    switch method {
    case "echo":
      result.number(params?["v"]?.number ?? 0)
    case "fail":
      result.beginObject()  // written, then rolled back
      throw .invalidParams("params.v", "is bad")
    default:
      throw .methodNotFound(method)
    }
  }
  func handleNotification(method: String, params: JSONValue?) { notifications.append(method) }
  func shutdown() { shutDown = true }
}

final class ServerTests: XCTestCase {
  /// Runs a server over pipes on `input` until EOF; returns the bodies it
  /// wrote and its exit code.
  func serve(_ messages: [String], handler: EchoHandler = EchoHandler()) -> ([String], Int32) {
    var inPipe: [Int32] = [0, 0]
    var outPipe: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&inPipe), 0)
    XCTAssertEqual(pipe(&outPipe), 0)
    var bytes: [UInt8] = []
    for m in messages { encodeFrame(Array(m.utf8), into: &bytes) }
    _ = bytes.withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) }
    close(inPipe[1])
    let server = Server(
      handler: handler, input: inPipe[0], output: outPipe[1], maxMessageBytes: 1 << 20)
    let code = server.run()
    close(outPipe[1])
    close(inPipe[0])
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = buf.withUnsafeMutableBytes { read(outPipe[0], $0.baseAddress, $0.count) }
      if n <= 0 { break }
      out += buf[0..<n]
    }
    close(outPipe[0])
    var reader = FrameReader()
    reader.append(out)
    var bodies: [String] = []
    while case .message(let b)? = reader.next() {
      bodies.append(String(decoding: b, as: UTF8.self))
    }
    return (bodies, code)
  }

  let initialize = #"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#

  func testLifecycle() {
    let h = EchoHandler()
    let (out, code) = serve(
      [
        #"{"jsonrpc":"2.0","id":"a","method":"echo"}"#,
        #"{"jsonrpc":"2.0","method":"early"}"#,
        initialize,
        #"{"jsonrpc":"2.0","method":"initialized"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
        #"{"jsonrpc":"2.0","method":"note","params":null}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"echo"}"#,
        #"{"jsonrpc":"2.0","method":"exit"}"#,
      ], handler: h)
    XCTAssertEqual(
      out,
      [
        #"{"jsonrpc":"2.0","id":"a","error":{"code":-32002,"message":"Server not initialized: send initialize first"}}"#,
        #"{"jsonrpc":"2.0","id":0,"result":{"ok":true}}"#,
        #"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request: initialize may only be sent once"}}"#,
        #"{"jsonrpc":"2.0","id":2,"result":null}"#,
        #"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid request: the server is shutting down; only exit is accepted"}}"#,
      ])
    XCTAssertEqual(code, 0)
    XCTAssertEqual(h.notifications, ["note"])
    XCTAssertTrue(h.shutDown)
  }

  func testExitWithoutShutdownAndEOF() {
    XCTAssertEqual(serve([initialize, #"{"jsonrpc":"2.0","method":"exit"}"#]).1, 1)
    let (out, code) = serve([
      initialize, #"{"jsonrpc":"2.0","id":5,"method":"echo","params":{"v":2}}"#,
    ])
    XCTAssertEqual(out.last, #"{"jsonrpc":"2.0","id":5,"result":2}"#)
    XCTAssertEqual(code, 1)
  }

  func testErrorsRollBackPartialResults() {
    let (out, _) = serve([initialize, #"{"jsonrpc":"2.0","id":1,"method":"fail"}"#])
    XCTAssertEqual(
      out.last,
      #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"params.v is bad","data":{"field":"params.v"}}}"#
    )
  }

  func testBatchesAndInvalidMessages() {
    let (out, _) = serve([
      initialize,
      #"[{"jsonrpc":"2.0","id":1,"method":"echo","params":{"v":1}},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"x","method":"nope"}]"#,
      "[]",
      #"[{"jsonrpc":"2.0","method":"n"}]"#,
      #"{"jsonrpc":"1.0","id":4,"method":"echo"}"#,
      #"{"jsonrpc":"2.0","id":1.5,"method":"echo"}"#,
      #"{"jsonrpc":"2.0","id":6,"method":"echo","params":[1]}"#,
      "{bad json",
      #"{"jsonrpc":"2.0","id":7,"method":"echo","params":{"v":7}}"#,
    ])
    XCTAssertEqual(
      Array(out.dropFirst()),
      [
        #"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found: nope"}}]"#,
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: empty batch"}}"#,
        #"{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid request: jsonrpc must be \"2.0\""}}"#,
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: id must be an integer or a string"}}"#,
        #"{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"params must be an object","data":{"field":"params"}}}"#,
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: string or '}' expected near 'bad' at byte 4"}}"#,
        #"{"jsonrpc":"2.0","id":7,"result":7}"#,
      ])
  }

  func testCancellationOfAQueuedRequest() {
    let (out, _) = serve([
      initialize,
      #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"v":1}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"v":2}}"#,
      #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#,
      #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"echo","params":{"v":3}}"#,
    ])
    XCTAssertEqual(
      Array(out.dropFirst()),
      [
        #"{"jsonrpc":"2.0","id":1,"result":1}"#,
        #"{"jsonrpc":"2.0","id":2,"error":{"code":-32800,"message":"Request cancelled"}}"#,
        #"{"jsonrpc":"2.0","id":3,"result":3}"#,
      ])
  }
}
