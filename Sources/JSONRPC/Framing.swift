/// An incremental reader of LSP base-protocol frames:
/// `Content-Length: N\r\n` (other headers optional) `\r\n` then N bytes.
///
/// Bytes arrive in arbitrary pieces; `next()` yields whole bodies. Damaged
/// input never stops the stream: a header block that is not strictly
/// valid (a `Content-Length` that is not a decimal of at most 19 digits
/// within the limit, two of them, a line not ended by CRLF, a header name
/// outside the token characters) is a parse error, and reading resumes at
/// the next valid header: the damaged frame's body, should it follow, is
/// skipped as junk while it streams past, never buffered beyond one header
/// block. A JSON body cannot hold a header line (CR and LF never stand
/// inside its strings, and `Content-Length:` never outside them), so the
/// next frame is found whatever the damaged one held.
public struct FrameReader {
  public enum Event: Equatable {
    /// A complete body: a slice of the reader's buffer, not a copy (valid
    /// as such until the next `append`, which copies it if it is held).
    case message(ArraySlice<UInt8>)
    /// Input that was dropped, with the error to report (id null).
    case error(RPCError)
  }

  /// The largest body accepted.
  public let maxBodyBytes: Int
  /// The largest header block accepted (the blank line must come by then).
  public let maxHeaderBytes: Int

  private var buffer: [UInt8] = []
  private var start = 0
  /// Set after dropping bytes, so that the rest of a damaged frame (its
  /// body, read as junk before the next header) is not reported again.
  private var recovering = false

  public init(maxBodyBytes: Int = 64 << 20, maxHeaderBytes: Int = 64 << 10) {
    self.maxBodyBytes = maxBodyBytes
    self.maxHeaderBytes = maxHeaderBytes
  }

  /// Bytes held but not yet consumed. The buffer never holds more than one
  /// header block plus one body within the limit.
  public var bufferedCount: Int { buffer.count - start }

  /// Bytes the buffer can hold without growing.
  var capacity: Int { buffer.capacity }

  /// Adds input. O(bytes), amortised.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if start > 0 && start == buffer.count {
      // Everything read: the memory stays for the next frame (a bulk
      // load's next chunk); `releaseSpareCapacity` gives a bulk one back.
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start > 65536 && start * 2 > buffer.count {
      buffer.removeSubrange(0..<start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Gives back a buffer grown beyond 1 MiB by a bulk message once it is
  /// consumed (tens of MB a loaded session must not keep). O(1).
  public mutating func releaseSpareCapacity() {
    guard start == buffer.count, buffer.capacity > 1 << 20 else { return }
    buffer = []
    start = 0
  }

  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  private static let crlfcrlf: [UInt8] = [13, 10, 13, 10]
  private static let contentLength: [UInt8] = Array("content-length:".utf8)

  /// The next event, or nil when more input is needed.
  public mutating func next() -> Event? {
    while true {
      guard let end = find(Self.crlfcrlf, from: start) else {
        if !recovering, let lineEnd = unframedLineEnd() {
          // A JSON text on a line of its own, with no header before it:
          // the most common first mistake. Answered now, not at EOF.
          start = lineEnd
          recovering = true
          return .error(.parseError(Self.unframed))
        }
        if bufferedCount > maxHeaderBytes {
          // A flood without a blank line: drop it, keeping a tail in case
          // a real header starts inside it.
          let keep = 16
          start = buffer.count - keep
          if let e = drop("header block longer than \(maxHeaderBytes) bytes") { return e }
        }
        return nil
      }
      let blockEnd = end + 4
      // Junk before the headers (such as the body of a frame whose header
      // was damaged) is skipped up to the first Content-Length. Junk is
      // what precedes a Content-Length that does not start a line, or
      // anything before it that cannot be a header line.
      if let cl = findCaseInsensitive(Self.contentLength, from: start, to: end), cl > start,
        !looksLikeHeaderLine(at: start)
          || !(cl - start >= 2 && buffer[cl - 1] == 10 && buffer[cl - 2] == 13)
      {
        start = cl
        if let e = drop("bytes before a header were skipped") { return e }
        continue
      }
      // A header block over the limit is refused the same whether it came
      // in many reads (caught above, before its blank line) or in one.
      if end - start > maxHeaderBytes {
        start = blockEnd
        if let e = drop("header block longer than \(maxHeaderBytes) bytes") { return e }
        continue
      }
      switch parseHeaders(from: start, to: end) {
      case .failure(let problem, let brokenAt):
        // A header cut short by a bare CR or LF ended there: the next frame
        // may start inside this block, at a Content-Length after the break.
        // Any other damaged block is one frame's header, skipped whole.
        // A block that opens with a Content-Length is a frame of its own,
        // not the rest of a damaged one: its error is reported even while
        // recovering (junk glued to its header damaged it), never lost.
        if findCaseInsensitive(
          Self.contentLength, from: start, to: min(end, start + Self.contentLength.count)) == start
        {
          recovering = false
        }
        start =
          brokenAt.flatMap { findCaseInsensitive(Self.contentLength, from: $0, to: end) }
          ?? blockEnd
        if let e = drop(problem) { return e }
        continue
      case .success(let length, let sent):
        if length > maxBodyBytes {
          // A new frame's error, reported even while recovering; its body,
          // if it comes, is junk skipped on the way to the next header.
          start = blockEnd
          recovering = true
          return .error(
            .parseError(
              "invalid frame header: Content-Length \(sent ?? String(length)) exceeds the maximum of \(maxBodyBytes) bytes"
            ))
        }
        guard buffer.count - blockEnd >= length else {
          // Room for the whole body at once: a bulk request's megabytes are
          // not copied again at every doubling as they stream in.
          if buffer.capacity < blockEnd + length { buffer.reserveCapacity(blockEnd + length) }
          return nil
        }
        let body = buffer[blockEnd..<(blockEnd + length)]
        start = blockEnd + length
        recovering = false
        return .message(body)
      }
    }
  }

  /// The framing every message needs, as the errors about its absence
  /// name it.
  public static let expectedFraming =
    "expected \"Content-Length: N\\r\\n\\r\\n\" before each message's N-byte body"

  static let unframed = "input is not framed: \(expectedFraming)"

  /// Ends the input (EOF): an error for what is held that is not a whole
  /// frame (unframed text, a header without its blank line, a body
  /// shorter than declared), unless it is only whitespace or the rest of
  /// damage already reported. Leaves the reader empty. O(bytes held).
  public mutating func finish() -> Event? {
    defer {
      buffer = []
      start = 0
      recovering = false
    }
    guard !recovering else { return nil }
    let held = buffer[start...]
    guard held.contains(where: { !isSpace($0) }) else { return nil }
    if let end = find(Self.crlfcrlf, from: start),
      case .success(let length, let sent) = parseHeaders(
        from: start, to: end)
    {
      let got = buffer.count - (end + 4)
      return .error(
        .parseError(
          "incomplete frame at EOF: Content-Length \(sent ?? String(length)) declared, \(got) bytes of body arrived; \(Self.expectedFraming)"
        ))
    }
    let first = held.first(where: { !isSpace($0) })
    if first != UInt8(ascii: "{") && first != UInt8(ascii: "[") {
      return .error(
        .parseError(
          "incomplete frame at EOF: the header block has no blank line; \(Self.expectedFraming)"
        ))
    }
    return .error(.parseError(Self.unframed))
  }

  private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

  /// Where a line that starts (after whitespace) with `{` or `[` and holds
  /// no `Content-Length` ends, after its LF; nil for anything else.
  private func unframedLineEnd() -> Int? {
    var i = start
    while i < buffer.count && isSpace(buffer[i]) { i += 1 }
    guard i < buffer.count, buffer[i] == UInt8(ascii: "{") || buffer[i] == UInt8(ascii: "[")
    else { return nil }
    guard let lf = buffer[i...].firstIndex(of: 10) else { return nil }
    guard findCaseInsensitive(Self.contentLength, from: i, to: lf) == nil else { return nil }
    return lf + 1
  }

  /// Records dropped input; returns an error unless one was already
  /// reported for the same damaged frame.
  private mutating func drop(_ problem: String) -> Event? {
    defer { recovering = true }
    return recovering ? nil : .error(.parseError("invalid frame header: \(problem)"))
  }

  private enum HeaderResult {
    /// The length, and as sent when it passes Int.max (then saturated).
    case success(Int, sent: String? = nil)
    /// Why the block is refused and, for a bare CR or LF, where it is.
    case failure(String, brokenAt: Int? = nil)
  }

  private func parseHeaders(from: Int, to: Int) -> HeaderResult {
    var length: Int? = nil
    var sent: String? = nil
    var lineStart = from
    while lineStart < to {
      var lineEnd = lineStart
      while lineEnd < to
        && !(buffer[lineEnd] == 13 && lineEnd + 1 < to && buffer[lineEnd + 1] == 10)
      {
        // A CR or LF on its own ends no line: the block is not a header.
        if buffer[lineEnd] == 10 || buffer[lineEnd] == 13 {
          return .failure("a header line must end with CRLF", brokenAt: lineEnd)
        }
        lineEnd += 1
      }
      // Nearly every header is a plain Content-Length: read from the bytes,
      // with no String per frame. Anything else takes the general path.
      if let n = plainContentLength(lineStart, lineEnd) {
        guard length == nil else { return .failure("duplicate Content-Length headers") }
        length = n
        lineStart = lineEnd + 2
        continue
      }
      guard let colon = buffer[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: ":")) else {
        return .failure("header line without a colon")
      }
      guard colon > lineStart, buffer[lineStart..<colon].allSatisfy(isTokenCharacter) else {
        let name = String(decoding: buffer[lineStart..<colon], as: UTF8.self)
        return .failure(
          "header name \"\(printable(name))\" is empty or has a character outside the token characters"
        )
      }
      let name = String(decoding: buffer[lineStart..<colon], as: UTF8.self).lowercased()
      let value = String(decoding: buffer[(colon + 1)..<lineEnd], as: UTF8.self)
        .trimmingSpaces()
      switch name {
      case "content-length":
        guard length == nil else { return .failure("duplicate Content-Length headers") }
        guard !value.isEmpty, value.utf8.count <= 19,
          value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
        else {
          return .failure(
            "Content-Length must be a decimal of at most 19 digits, got \"\(printable(value))\"")
        }
        // 19 digits may pass Int.max: that is over any limit, and its
        // error quotes what was sent.
        length = Int(value) ?? Int.max
        if length == Int.max { sent = value }
      case "content-type":
        if let charset = charset(of: value), charset != "utf-8", charset != "utf8" {
          return .failure(
            "unsupported charset \"\(printable(charset))\"; only utf-8 is accepted")
        }
      default:
        break  // Unknown headers are ignored, as LSP requires.
      }
      lineStart = lineEnd + 2
    }
    guard let length else { return .failure("no Content-Length header") }
    return .success(length, sent: sent)
  }

  /// The value of a `Content-Length` line (any case) of 1 to 18 digits
  /// between optional spaces and tabs, or nil for any other line. O(line).
  private func plainContentLength(_ start: Int, _ end: Int) -> Int? {
    let name = "content-length:".utf8
    guard end - start > name.count else { return nil }
    var i = start
    for c in name {
      // ASCII letters compare case-insensitively through bit 5.
      let b = buffer[i]
      guard b == c || (c >= 0x61 && c <= 0x7A && b | 0x20 == c) else { return nil }
      i += 1
    }
    while i < end && (buffer[i] == 0x20 || buffer[i] == 0x09) { i += 1 }
    var j = end
    while j > i && (buffer[j - 1] == 0x20 || buffer[j - 1] == 0x09) { j -= 1 }
    guard j > i, j - i <= 18 else { return nil }
    var n = 0
    for k in i..<j {
      let d = buffer[k] &- 0x30
      guard d <= 9 else { return nil }
      n = n * 10 + Int(d)
    }
    return n
  }

  private func charset(of contentType: String) -> String? {
    for part in contentType.split(separator: ";").dropFirst() {
      let kv = part.split(separator: "=", maxSplits: 1)
      if kv.count == 2, String(kv[0]).trimmingSpaces().lowercased() == "charset" {
        return String(kv[1]).trimmingSpaces().lowercased().trimmingCharacters("\"")
      }
    }
    return nil
  }

  /// RFC 9110's tchar: the characters a header name may hold.
  private func isTokenCharacter(_ c: UInt8) -> Bool {
    if (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) { return true }
    switch c {
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      return true
    default: return false
    }
  }

  /// A header line starts with a token character and has a colon.
  private func looksLikeHeaderLine(at i: Int) -> Bool {
    var j = i
    while j < buffer.count {
      let c = buffer[j]
      if c == UInt8(ascii: ":") { return j > i }
      let isToken =
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45
      if !isToken { return false }
      j += 1
    }
    return false
  }

  private func find(_ needle: [UInt8], from: Int) -> Int? {
    guard buffer.count - from >= needle.count else { return nil }
    var i = from
    let last = buffer.count - needle.count
    while i <= last {
      if buffer[i] == needle[0] && buffer[i + 1] == needle[1] && buffer[i + 2] == needle[2]
        && buffer[i + 3] == needle[3]
      {
        return i
      }
      i += 1
    }
    return nil
  }

  private func findCaseInsensitive(_ needle: [UInt8], from: Int, to: Int) -> Int? {
    guard to - from >= needle.count else { return nil }
    outer: for i in from...(to - needle.count) {
      for (k, n) in needle.enumerated() {
        var c = buffer[i + k]
        if c >= 65 && c <= 90 { c += 32 }
        if c != n { continue outer }
      }
      return i
    }
    return nil
  }
}

/// `s` cut to at most `limit` UTF-8 bytes (at a character's boundary)
/// with `…` after it when it was longer: what an error quotes of a name
/// or value a client sent, so that an answer never grows with it. O(limit).
public func bounded(_ s: String, _ limit: Int = 256) -> String {
  guard s.utf8.count > limit else { return s }
  var end = s.startIndex
  var bytes = 0
  for c in s {
    let n = c.utf8.count
    if bytes + n > limit { break }
    bytes += n
    end = s.index(after: end)
  }
  return String(s[..<end]) + "…"
}

/// At most 40 characters of raw header bytes, for an error message, with
/// anything but printable ASCII shown as `?`.
func printable(_ s: String) -> String {
  String(
    s.unicodeScalars.prefix(40).map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
}

/// Encodes one frame: `Content-Length: N\r\n\r\n` and the body. O(body).
public func encodeFrame(_ body: [UInt8], into out: inout [UInt8]) {
  body.withUnsafeBytes { encodeFrame($0, into: &out) }
}

public func encodeFrame(_ body: UnsafeRawBufferPointer, into out: inout [UInt8]) {
  withUnsafeTemporaryAllocation(of: UInt8.self, capacity: frameHeaderCapacity) { header in
    let n = writeFrameHeader(length: body.count, to: header.baseAddress!)
    out.append(contentsOf: UnsafeBufferPointer(start: header.baseAddress, count: n))
  }
  // As typed bytes: one memcpy (a raw buffer is appended byte by byte).
  out.append(contentsOf: body.assumingMemoryBound(to: UInt8.self))
}

/// The most bytes `writeFrameHeader` writes.
public let frameHeaderCapacity = 40

/// Writes `Content-Length: N\r\n\r\n` at `p` and returns its length: the
/// header's bytes directly, no String per frame. O(digits).
public func writeFrameHeader(length n: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
  let head: StaticString = "Content-Length: "
  let k = head.utf8CodeUnitCount
  p.update(from: head.utf8Start, count: k)
  // The digits back to front into a scratch word, then moved into place.
  var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
  let count = withUnsafeMutableBytes(of: &digits) { raw -> Int in
    var v = max(n, 0)
    var i = raw.count
    repeat {
      i -= 1
      raw[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
      v /= 10
    } while v > 0
    (p + k).update(
      from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + i, count: raw.count - i)
    return raw.count - i
  }
  let tail = p + k + count
  tail[0] = 13
  tail[1] = 10
  tail[2] = 13
  tail[3] = 10
  return k + count + 4
}

extension String {
  func trimmingSpaces() -> String {
    trimmingCharacters(" \t")
  }

  func trimmingCharacters(_ set: String) -> String {
    let chars = Set(set)
    var s = Substring(self)
    while let f = s.first, chars.contains(f) { s = s.dropFirst() }
    while let l = s.last, chars.contains(l) { s = s.dropLast() }
    return String(s)
  }
}
