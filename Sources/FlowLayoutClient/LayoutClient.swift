#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// An error answer of the daemon (protocol.md, "Errors").
public struct RPCError: Error, Equatable, CustomStringConvertible {
  public let code: Int
  public let message: String
  public let data: JSON
  /// The path of the field at fault (`params.bounds.width`), when one is.
  public var field: String? { data["field"].string }
  public var description: String { "\(message) (\(code))" }
}

/// The daemon went away, or said something that is not the protocol.
public struct TransportError: Error, Equatable, CustomStringConvertible {
  public let reason: String
  public var description: String { reason }
}

/// A connection to one flowlayoutd process over its stdin and stdout,
/// framed as LSP's base protocol.
///
/// Calls are synchronous: each request is written and its answer read
/// before the call returns. The typed methods (`open`, `setBounds`, …) are
/// generated from the daemon's method table (`Methods.generated.swift`).
/// Not thread-safe: use one client per thread, or a lock.
public final class LayoutClient {
  public let process: Process
  /// `initialize`'s `serverInfo` and `capabilities`.
  public private(set) var serverInfo: JSON = .null
  public private(set) var capabilities: JSON = .null
  private let input: Int32
  private let output: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  private var nextID = 1
  private var closed = false

  /// Spawns `daemon` (default: `findDaemon()`'s) with `arguments` and
  /// initializes it. SIGPIPE is ignored from then on, so that a daemon
  /// that dies makes writes fail instead of killing this process.
  public static func spawn(daemon: String? = nil, arguments: [String] = []) throws -> LayoutClient {
    let path = try findDaemon(daemon)
    signal(SIGPIPE, SIG_IGN)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    let client = LayoutClient(
      process: process, input: stdin.fileHandleForWriting.fileDescriptor,
      output: stdout.fileHandleForReading.fileDescriptor)
    let result = try client.request(
      "initialize", ["clientInfo": ["name": "FlowLayoutClient"], "processId": .null])
    client.serverInfo = result["serverInfo"]
    client.capabilities = result["capabilities"]
    try client.notify("initialized", [:])
    return client
  }

  private init(process: Process, input: Int32, output: Int32) {
    self.process = process
    self.input = input
    self.output = output
  }

  deinit {
    if !closed, process.isRunning { process.terminate() }
  }

  private func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #elseif canImport(Musl)
      _ = Musl.close(fd)
    #elseif canImport(Darwin)
      _ = Darwin.close(fd)
    #endif
  }

  /// Locates flowlayoutd, in the order every client (Python, JavaScript,
  /// Swift) shares and the README's "Finding the daemon" documents:
  /// `daemon`; `$FLOWLAYOUTD`; `.build/release` then `.build/debug` in
  /// `directory` (default: the working directory) or any parent, then
  /// beside this library's source or any of its parents (a checkout's
  /// client finds the checkout's daemon); finally `flowlayoutd` on `PATH`.
  public static func findDaemon(
    _ daemon: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
    directory: String = FileManager.default.currentDirectoryPath
  ) throws -> String {
    if let daemon, !daemon.isEmpty { return daemon }
    if let env = environment["FLOWLAYOUTD"], !env.isEmpty { return env }
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    for start in [directory, source] {
      var dir = URL(fileURLWithPath: start).standardizedFileURL
      while true {
        for candidate in [".build/release/flowlayoutd", ".build/debug/flowlayoutd"] {
          let path = dir.appendingPathComponent(candidate).path
          if isExecutableFile(path) { return path }
        }
        let parent = dir.deletingLastPathComponent()
        if parent.path == dir.path { break }
        dir = parent
      }
    }
    for dir in (environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(dir)/flowlayoutd"
      if isExecutableFile(candidate) { return candidate }
    }
    throw TransportError(
      reason:
        "flowlayoutd not found: pass its path, set FLOWLAYOUTD, build it with `swift build` "
        + "(searched for .build/{release,debug}/flowlayoutd upward from the working directory "
        + "and from this library's source), or put it on PATH")
  }

  private static func isExecutableFile(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && !isDirectory.boolValue && access(path, X_OK) == 0
  }

  // MARK: Requests

  /// Sends a request and returns its result, or throws its error as
  /// `RPCError`. O(answer size).
  @discardableResult
  public func request(_ method: String, _ params: JSON = [:]) throws -> JSON {
    let id = nextID
    nextID += 1
    try send([
      "jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": params,
    ])
    while true {
      let message = try readMessage()
      // The daemon answers in order and sends no requests of its own;
      // anything else (an id-null parse error) is not ours.
      guard message["id"].int == id else { continue }
      if case .object(let e) = message["error"] {
        throw RPCError(
          code: e["code"]?.int ?? 0, message: e["message"]?.string ?? "", data: e["data"] ?? .null)
      }
      return message["result"]
    }
  }

  /// Sends a notification (no answer). A `layout/*` method sent this way is
  /// still carried out.
  public func notify(_ method: String, _ params: JSON = [:]) throws {
    try send(["jsonrpc": "2.0", "method": .string(method), "params": params])
  }

  /// `shutdown` then `exit`; waits for the process and returns its exit
  /// status (0 after a clean shutdown).
  @discardableResult
  public func shutdown() throws -> Int32 {
    guard !closed else { return process.terminationStatus }
    _ = try request("shutdown", .null)
    try notify("exit", .null)
    closed = true
    closeDescriptor(input)
    process.waitUntilExit()
    return process.terminationStatus
  }

  // MARK: Framing

  private func send(_ message: JSON) throws {
    guard !closed else { throw TransportError(reason: "the client is closed") }
    let body = Array(message.text.utf8)
    var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    frame += body
    var sent = 0
    while sent < frame.count {
      let n = frame.withUnsafeBytes { write(input, $0.baseAddress! + sent, frame.count - sent) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw TransportError(reason: "the daemon is gone (write failed)") }
      sent += n
    }
  }

  /// Reads one frame's body and parses it.
  private func readMessage() throws -> JSON {
    while true {
      if let body = try takeFrame() {
        do {
          return try JSON(parsing: body)
        } catch {
          throw TransportError(reason: "the daemon sent \(error)")
        }
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw TransportError(reason: "the daemon closed its output") }
      if start > 0 && start == buffer.count {
        buffer.removeAll(keepingCapacity: true)
        start = 0
      }
      buffer += chunk[0..<n]
    }
  }

  /// The next complete frame's body in the buffer, if there is one.
  private func takeFrame() throws -> [UInt8]? {
    let terminator: [UInt8] = [13, 10, 13, 10]
    guard buffer.count - start >= 4 else { return nil }
    var end = -1
    var i = start
    while i + 4 <= buffer.count {
      if buffer[i] == 13, Array(buffer[i..<i + 4]) == terminator {
        end = i
        break
      }
      i += 1
    }
    guard end >= 0 else { return nil }
    guard let header = String(validating: buffer[start..<end], as: UTF8.self) else {
      throw TransportError(reason: "the daemon sent a header that is not UTF-8")
    }
    var length: Int? = nil
    for line in header.split(separator: "\r\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "content-length" {
        length = Int(parts[1].trimmingCharacters(in: .whitespaces))
      }
    }
    guard let length else {
      throw TransportError(reason: "the daemon sent a frame without Content-Length")
    }
    let bodyStart = end + 4
    guard buffer.count - bodyStart >= length else { return nil }
    let body = Array(buffer[bodyStart..<bodyStart + length])
    start = bodyStart + length
    return body
  }
}
