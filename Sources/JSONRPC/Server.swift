import CJansson

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A request id: an integer or a string, echoed back with its type.
public enum RequestID: Hashable, Sendable {
  case int(Int64)
  case string(String)

  init?(_ v: JSONValue) {
    if let i = v.integer {
      self = .int(i)
    } else if v.kind == .string, let s = v.string {
      self = .string(s)
    } else {
      return nil
    }
  }

  func write(to w: inout JSONWriter) {
    switch self {
    case .int(let i): w.int64(i)
    case .string(let s): w.string(s)
    }
  }
}

/// What a server built on `Server` provides: the answers to `initialize`
/// and to every method other than the LSP lifecycle.
public protocol RPCHandler: AnyObject {
  /// Writes the `initialize` result.
  func initialize(params: JSONValue?, result: inout JSONWriter) throws(RPCError)
  /// Writes the result of a request. Throws `RPCError.methodNotFound` for
  /// an unknown method. A handler that throws leaves nothing written.
  func handleRequest(method: String, params: JSONValue?, result: inout JSONWriter) throws(RPCError)
  /// Handles a notification; errors cannot be reported.
  func handleNotification(method: String, params: JSONValue?)
  /// Called on `shutdown`: release what the handler holds.
  func shutdown()
  /// The method names the handler serves, so that the server can hand
  /// the same String to every request instead of building one from each
  /// message (a name over 15 bytes would be an allocation per request).
  var methodNames: [String] { get }
}

extension RPCHandler {
  public var methodNames: [String] { [] }
}

/// Where diagnostics go: stderr or the `--log` file, never stdout.
public protocol Logger: AnyObject {
  func log(_ message: @autoclosure () -> String)
}

/// A JSON-RPC 2.0 server over LSP framing, with LSP 3.17's lifecycle.
///
/// It is single-threaded: messages are handled in arrival order. Before a
/// request is handled, input that has already arrived is read ahead (a
/// bounded amount), so that a `$/cancelRequest` behind it in the pipe can
/// cancel it. Responses are buffered and flushed whenever the input runs
/// dry, so a pipelining client gets them in few writes.
public final class Server {
  public enum State: Equatable {
    case uninitialized, running, shuttingDown
  }

  public private(set) var state = State.uninitialized
  private let handler: RPCHandler
  /// The lifecycle's and the handler's method names, interned.
  private let methodNames: [String]
  private let logger: Logger?
  private let input: Int32
  private let output: Int32
  private var reader: FrameReader
  private var queue: [Queued] = []
  private var queueHead = 0
  private var queuedBytes = 0
  private var cancelled = Set<RequestID>()
  private var out: [UInt8] = []
  private var eof = false
  private var exitCode: Int32? = nil
  private var outputBroken = false
  private var readBuffer = [UInt8](repeating: 0, count: 1 << 20)

  /// Read-ahead stops at these, so that a client that never reads its
  /// responses cannot make the daemon buffer without bound.
  private let readAheadMessages = 256
  private let readAheadBytes = 4 << 20

  private enum Queued {
    case frameError(RPCError)
    case parseError(String)
    case document(JSONDocument, bytes: Int)
  }

  public init(
    handler: RPCHandler, input: Int32, output: Int32, maxMessageBytes: Int, logger: Logger? = nil
  ) {
    self.handler = handler
    self.methodNames = ["initialize", "initialized", "shutdown", "exit"] + handler.methodNames
    self.input = input
    self.output = output
    self.logger = logger
    self.reader = FrameReader(maxBodyBytes: maxMessageBytes)
  }

  /// Serves until `exit` or EOF and returns the exit code: 0 if `shutdown`
  /// came first, 1 otherwise (LSP). Every response owed to a request read
  /// before EOF is written first.
  public func run() -> Int32 {
    widenPipes()
    Self.keepFreedMemory()
    while true {
      processQueued()
      flush()
      if let code = exitCode { return code }
      if outputBroken { return 1 }
      // Frames read but not parsed yet come before any new input.
      if parseBuffered() { continue }
      if eof {
        // What is held is not a whole frame: answered, not dropped.
        if case .error(let e) = reader.finish() {
          queueFrameError(e)
          continue
        }
        return state == .shuttingDown ? 0 : 1
      }
      releaseBulkMemoryWhenIdle()
      readInput(blocking: true)
    }
  }

  /// Handles every queued message, in order, until the queue is empty or
  /// `exit` arrives.
  private func processQueued() {
    while queueHead < queue.count && exitCode == nil && !outputBroken {
      let item = queue[queueHead]
      queue[queueHead] = .parseError("")  // release the document early
      queueHead += 1
      var bytes = 0
      if case .document(_, let n) = item {
        queuedBytes -= n
        bytes = n
      }
      if queueHead == queue.count {
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
      }
      process(item)
      if out.count > 1 << 16 && output >= 0 { flush() }
      if bytes >= 1 << 20 {
        bulkMemoryHeld = true
      } else if bulkMemoryHeld {
        // A small message after bulk ones: the burst is over. The answer
        // goes out first: the release must not delay it.
        if output >= 0 { flush() }
        releaseBulkMemory()
      }
    }
  }

  /// Whether memory that bulk messages (1 MiB or more) grew and freed is
  /// still held: the reader's buffer and the C heap's free pages. The
  /// next message of a burst (a load in chunks) reuses them instead of
  /// faulting in tens of MB of fresh pages; the burst's end gives them
  /// back.
  private var bulkMemoryHeld = false

  /// How long input may pause after a bulk message before its memory is
  /// given back: none. Memory is what a user sees (RSS), so a load's
  /// memory is held only while its next message is already waiting (a
  /// client that pipelines its chunks); one that waits for each answer
  /// gets it back as soon as the answer is written, at the cost of
  /// faulting in the next chunk's pages.
  private let bulkPauseMilliseconds: Int32 = 0

  /// Tunes the C allocator for serving: freed blocks of up to 32 MiB stay
  /// in the heap for the next request, and at most 64 MiB of it is kept
  /// free. Without it a large request's temporaries come as fresh pages,
  /// faulted in and zeroed each time (a third of a 1e5-item snapshot's
  /// handling). `run` calls it; an in-process host may too. O(1).
  public static func keepFreedMemory() { cj_keep_freed_memory() }

  /// Gives back what bulk messages grew: the reader's buffer and the free
  /// heap (glibc keeps freed blocks of a few MB otherwise, and a loaded
  /// session would look tens of MB larger than it is). O(heap).
  private func releaseBulkMemory() {
    bulkMemoryHeld = false
    reader.releaseSpareCapacity()
    cj_release_free_memory()
  }

  /// Waits for input until the bulk pause ends, then releases bulk memory
  /// if none came.
  private func releaseBulkMemoryWhenIdle() {
    guard bulkMemoryHeld, input >= 0 else { return }
    var p = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
    if poll(&p, 1, bulkPauseMilliseconds) == 0 { releaseBulkMemory() }
  }

  /// Handles `bytes` as if read from the input, without touching any file
  /// descriptor: for tests and the fuzzer. Responses accumulate until
  /// `takeOutput()`. Returns the exit code once `exit` has arrived.
  public func feed(_ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard exitCode == nil else { return exitCode }
    ingest(bytes)
    processQueued()
    while exitCode == nil && parseBuffered() { processQueued() }
    return exitCode
  }

  /// The framed responses written since the last call.
  public func takeOutput() -> [UInt8] {
    defer { out.removeAll(keepingCapacity: true) }
    return out
  }

  /// Asks for 1 MiB pipe buffers (Linux's default is 64 KiB) on stdin and
  /// stdout when they are pipes: a bulk message or answer then crosses in
  /// a few reads and writes instead of one per 64 KiB, each waking the
  /// other side. Nothing changes when it is refused or not a pipe.
  private func widenPipes() {
    #if os(Linux)
      let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ
      for fd in [input, output] where fd >= 0 {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFIFO else { continue }
        _ = fcntl(fd, setPipeSize, Int32(1 << 20))
      }
    #endif
  }

  // MARK: Input

  /// Reads what is available (or waits for input when `blocking`) and
  /// queues every complete message. O(bytes read).
  private func readInput(blocking: Bool) {
    if !blocking {
      var p = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 0) > 0 else { return }
    }
    let n = readBuffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
    if n < 0 {
      if errno == EINTR || errno == EAGAIN { return }
      logger?.log("read failed: errno \(errno); treating as EOF")
      eof = true
      return
    }
    if n == 0 {
      eof = true
      return
    }
    readBuffer.withUnsafeBytes { ingest(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
  }

  /// Frames and parses input, queueing every complete message. O(bytes).
  private func ingest(_ bytes: UnsafeRawBufferPointer) {
    reader.append(bytes)
    parseBuffered()
  }

  /// Parses the frames the reader holds while the queue has room (the
  /// read-ahead bound): a read of a thousand small frames leaves the rest
  /// in the reader until the queue drains, so that the documents alive at
  /// once stay within the parse region's chunks. Returns whether it queued
  /// anything. O(bytes parsed).
  @discardableResult
  private func parseBuffered() -> Bool {
    // Nothing held (every scroll frame's case): no header search.
    guard reader.bufferedCount > 0 else { return false }
    let before = queue.count
    while queue.count - queueHead < readAheadMessages, let event = reader.next() {
      switch event {
      case .error(let e):
        queueFrameError(e)
      case .message(let body):
        do {
          let doc = try JSONDocument.parse(body)
          noteCancellation(doc.root)
          queue.append(.document(doc, bytes: body.count))
          queuedBytes += body.count
        } catch {
          queue.append(.parseError(error.message))
        }
      }
    }
    return queue.count > before
  }

  /// Queues a framing error's answer and logs it on one line, pointing
  /// to the framing's description.
  private func queueFrameError(_ e: RPCError) {
    logger?.log("framing: \(e.message) (see protocol.md#transport)")
    queue.append(.frameError(e))
  }

  /// A `$/cancelRequest` marks its id now, so the request (queued ahead of
  /// it) is answered with -32800 when its turn comes. Ids that are not
  /// pending are ignored when the request is long answered.
  private func noteCancellation(_ root: JSONValue) {
    guard root.isObject, root["method"]?.isString("$/cancelRequest") == true,
      root["id"] == nil, let idValue = root["params"]?["id"], let id = RequestID(idValue)
    else { return }
    if isPending(id) { cancelled.insert(id) }
  }

  private func isPending(_ id: RequestID) -> Bool {
    for i in queueHead..<queue.count {
      if case .document(let doc, _) = queue[i], doc.root.isObject,
        let v = doc.root["id"], RequestID(v) == id, doc.root["method"] != nil
      {
        return true
      }
    }
    return false
  }

  /// Reads ahead without blocking, within bounds, to see cancellations.
  private func readAhead() {
    // Frames already read come first: while the reader holds a complete
    // one, nothing more is read (the queue's room says so once they are
    // parsed), so the reader holds at most one read beyond the bounds.
    parseBuffered()
    guard input >= 0, !eof, queue.count - queueHead < readAheadMessages,
      queuedBytes < readAheadBytes
    else {
      return
    }
    readInput(blocking: false)
  }

  // MARK: Output

  private func flush() {
    guard output >= 0 else { return }  // fed in-process: output is taken
    out.withUnsafeBytes { writeAll($0) }
    out.removeAll(keepingCapacity: true)
  }

  /// `head` then `body`, in one `writev` when the pipe takes both at once.
  private func writeAll(_ head: UnsafeRawBufferPointer, then body: UnsafeRawBufferPointer) {
    var parts = (
      iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count),
      iovec(iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress), iov_len: body.count)
    )
    let n = withUnsafeMutablePointer(to: &parts) {
      $0.withMemoryRebound(to: iovec.self, capacity: 2) { writev(output, $0, 2) }
    }
    // A short write (or EINTR, EAGAIN or an error, for writeAll to report)
    // goes on from where it stopped.
    let sent = max(n, 0)
    if sent < head.count {
      writeAll(UnsafeRawBufferPointer(rebasing: head[sent...]))
      writeAll(body)
    } else if sent - head.count < body.count {
      writeAll(UnsafeRawBufferPointer(rebasing: body[(sent - head.count)...]))
    }
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer) {
    var sent = 0
    while sent < bytes.count && !outputBroken {
      let n = write(output, bytes.baseAddress! + sent, bytes.count - sent)
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        // The client closed its end (EPIPE, SIGPIPE being ignored): quit quietly.
        logger?.log("write failed: errno \(errno); exiting")
        outputBroken = true
      } else {
        sent += n
      }
    }
  }

  private var scratch = JSONWriter()

  /// Queues an answer's frame; a large one is written straight from the
  /// writer, after what is queued, so that it is never copied whole. So is
  /// the answer to the last message queued when nothing else waits (a
  /// scroll frame's): its header and body in one `writev`, no copy.
  private func send(_ w: JSONWriter) {
    if output >= 0 && w.byteCount > 1 << 20 {
      out.append(contentsOf: "Content-Length: \(w.byteCount)\r\n\r\n".utf8)
      flush()
      w.withBytes { writeAll($0) }
      return
    }
    if output >= 0 && out.isEmpty && queueHead == queue.count {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: frameHeaderCapacity) { header in
        let n = writeFrameHeader(length: w.byteCount, to: header.baseAddress!)
        let head = UnsafeRawBufferPointer(start: header.baseAddress, count: n)
        w.withBytes { writeAll(head, then: $0) }
      }
      return
    }
    w.withBytes { encodeFrame($0, into: &out) }
  }

  // MARK: Messages

  private func process(_ item: Queued) {
    scratch.removeAll()
    switch item {
    case .frameError(let e):
      writeError(e, id: nil, into: &scratch)
      send(scratch)
    case .parseError(let message):
      writeError(.parseError(message), id: nil, into: &scratch)
      send(scratch)
    case .document(let doc, _):
      let root = doc.root
      if root.isArray {
        processBatch(root)
      } else {
        if handleMessage(root, into: &scratch) { send(scratch) }
      }
    }
  }

  private func processBatch(_ root: JSONValue) {
    guard root.count > 0 else {
      writeError(.invalidRequest("empty batch"), id: nil, into: &scratch)
      send(scratch)
      return
    }
    scratch.beginArray()
    var any = false
    for i in 0..<root.count {
      if handleMessage(root[i], into: &scratch) { any = true }
      if exitCode != nil { break }
    }
    scratch.endArray()
    // A batch of notifications only gets no reply at all.
    if any { send(scratch) }
  }

  /// Handles one message; returns whether a response was written.
  private func handleMessage(_ m: JSONValue, into w: inout JSONWriter) -> Bool {
    guard m.isObject else {
      writeError(.invalidRequest("a message must be an object"), id: nil, into: &w)
      return true
    }
    // The envelope's members in one pass; the checks below take them in
    // the order they always did.
    let (idMember, jsonrpc, methodMember, paramsMember) = m.members(
      ("id", "jsonrpc", "method", "params"))
    // An id that is present but neither an integer nor a string makes the
    // message invalid; it cannot be echoed, so the error carries id null.
    let idValue = idMember
    let id = idValue.flatMap(RequestID.init)
    if idValue != nil && id == nil {
      writeError(.invalidRequest("id must be an integer or a string"), id: nil, into: &w)
      return true
    }
    guard jsonrpc?.isString("2.0") == true else {
      writeError(.invalidRequest("jsonrpc must be \"2.0\""), id: id, into: &w)
      return true
    }
    guard let methodValue = methodMember else {
      // A response from the client: this server sends no requests.
      if id != nil && (m["result"] != nil || m["error"] != nil) {
        logger?.log("ignoring an unexpected response")
        return false
      }
      writeError(.invalidRequest("method is required"), id: id, into: &w)
      return true
    }
    guard let method = methodValue.string(interningIn: methodNames), methodValue.kind == .string
    else {
      writeError(.invalidRequest("method must be a string"), id: id, into: &w)
      return true
    }
    let params = paramsMember
    if let params, !params.isNull, !params.isObject {
      if id != nil {
        writeError(.invalidParams("params", "must be an object"), id: id, into: &w)
        return true
      }
      return false
    }
    guard let id else {
      handleNotification(method, params)
      return false
    }
    readAhead()
    if cancelled.remove(id) != nil {
      writeError(.requestCancelled, id: id, into: &w)
      return true
    }
    let mark = w.mark
    w.beginObject()
    // The envelope's constant head as one literal, the bytes key and
    // string would write; the key before it leaves the writer expecting a
    // value, which the id is.
    w.key("jsonrpc")
    w.rawLiteral("\"2.0\",\"id\":")
    id.write(to: &w)
    w.key("result")
    do {
      try handleRequest(method, params, into: &w)
      w.endObject()
    } catch {
      w.reset(to: mark)
      writeError(error, id: id, into: &w)
    }
    return true
  }

  private func handleRequest(_ method: String, _ params: JSONValue?, into w: inout JSONWriter)
    throws(RPCError)
  {
    switch (state, method) {
    case (.uninitialized, "initialize"):
      try handler.initialize(params: params, result: &w)
      state = .running
    case (.uninitialized, _):
      throw .serverNotInitialized
    case (.shuttingDown, _):
      throw .invalidRequest("the server is shutting down; only exit is accepted")
    case (.running, "initialize"):
      throw .invalidRequest("initialize may only be sent once")
    case (.running, "shutdown"):
      handler.shutdown()
      state = .shuttingDown
      w.null()
    case (.running, _) where method.hasPrefix("$/"):
      throw .methodNotFound(method)
    case (.running, _):
      try handler.handleRequest(method: method, params: params, result: &w)
    }
  }

  private func handleNotification(_ method: String, _ params: JSONValue?) {
    if method == "exit" {
      exitCode = state == .shuttingDown ? 0 : 1
      return
    }
    // Before initialize and after shutdown, notifications are dropped.
    guard state == .running else { return }
    switch method {
    case "initialized", "$/cancelRequest": return  // cancellation is noted on arrival
    default:
      if method.hasPrefix("$/") { return }  // optional protocol notifications
      handler.handleNotification(method: method, params: params)
    }
  }

  private func writeError(_ e: RPCError, id: RequestID?, into w: inout JSONWriter) {
    w.beginObject()
    w.key("jsonrpc")
    w.string("2.0")
    w.key("id")
    if let id { id.write(to: &w) } else { w.null() }
    w.key("error")
    e.write(to: &w)
    w.endObject()
  }
}
