import XCTest
import Foundation

@testable import JSONRPC

final class FrameReaderTests: XCTestCase {
  func frame(_ body: String) -> [UInt8] {
    Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
  }

  func drain(_ r: inout FrameReader) -> [FrameReader.Event] {
    var out: [FrameReader.Event] = []
    while let e = r.next() { out.append(e) }
    return out
  }

  func testSplitAcrossReadsAndSeveralInOneRead() {
    var r = FrameReader()
    let bytes = frame("{\"a\":1}") + frame("[2]")
    // One byte at a time: nothing until each frame completes.
    var events: [FrameReader.Event] = []
    for b in bytes {
      r.append([b])
      events += drain(&r)
    }
    XCTAssertEqual(
      events, [.message(ArraySlice("{\"a\":1}".utf8)), .message(ArraySlice("[2]".utf8))])
    r.append(frame("1") + frame("22") + frame("333"))
    XCTAssertEqual(drain(&r).count, 3)
    XCTAssertEqual(r.bufferedCount, 0)
  }

  func testHeadersAreCaseInsensitiveAndUnknownOnesIgnored() {
    var r = FrameReader()
    r.append(
      Array(
        "X-Trace: 7\r\ncontent-TYPE: application/vscode-jsonrpc; charset=utf8\r\nCONTENT-LENGTH: 2\r\n\r\n{}"
          .utf8))
    XCTAssertEqual(drain(&r), [.message(ArraySlice("{}".utf8))])
  }

  func testMissingContentLengthIsReportedOnceAndTheReaderResynchronises() {
    var r = FrameReader()
    r.append(Array("Content-Type: x; charset=utf-8\r\n\r\n{\"lost\":true}".utf8) + frame("{}"))
    let events = drain(&r)
    XCTAssertEqual(events.count, 2)
    guard case .error(let e) = events[0] else { return XCTFail("\(events)") }
    XCTAssertEqual(e.code, -32700)
    XCTAssertTrue(e.message.contains("no Content-Length"), e.message)
    XCTAssertEqual(events[1], .message(ArraySlice("{}".utf8)))
  }

  /// A frame whose header is damaged by junk glued to it (a header name
  /// before its Content-Length, on the same line) right after another
  /// damaged frame: each is answered with its own error, none silently
  /// lost, and the frame after them is read.
  func testAFrameDamagedRightAfterAnotherIsReportedToo() {
    var r = FrameReader()
    r.append(
      Array("Content-Length: 3\n\r\n{}\r\ncontent-length:".utf8) + frame("{\"id\":1}")
        + frame("{\"id\":2}"))
    let events = drain(&r)
    XCTAssertEqual(events.count, 3, "\(events)")
    guard events.count == 3, case .error(let first) = events[0], case .error(let second) = events[1]
    else { return XCTFail("\(events)") }
    XCTAssertEqual(
      first.message, "Parse error: invalid frame header: a header line must end with CRLF")
    XCTAssertEqual(
      second.message,
      "Parse error: invalid frame header: Content-Length must be a decimal of at most 19 digits, got \"Content-Length: 8\""
    )
    XCTAssertEqual(events[2], .message(ArraySlice("{\"id\":2}".utf8)))
  }

  func testUnframedLineIsAnsweredAtOnceNamingTheFraming() {
    var r = FrameReader()
    r.append(Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}".utf8))
    XCTAssertNil(r.next())  // no line end yet: it may still be a header
    r.append(Array("\n".utf8))
    guard case .error(let e)? = r.next() else { return XCTFail() }
    XCTAssertEqual(e.code, -32700)
    XCTAssertEqual(
      e.message,
      "Parse error: input is not framed: expected \"Content-Length: N\\r\\n\\r\\n\" before each message's N-byte body"
    )
    // Reported once; the next frame is read as usual.
    r.append(Array("{\"again\":1}\n".utf8) + frame("{}"))
    XCTAssertEqual(drain(&r), [.message(ArraySlice("{}".utf8))])
    XCTAssertNil(r.finish())
  }

  func testFinishReportsWhatIsNotAWholeFrame() {
    func finished(_ s: String) -> String? {
      var r = FrameReader()
      r.append(Array(s.utf8))
      _ = drain(&r)
      guard case .error(let e)? = r.finish() else { return nil }
      XCTAssertEqual(e.code, -32700)
      return e.message
    }
    let hint = "expected \"Content-Length: N\\r\\n\\r\\n\" before each message's N-byte body"
    XCTAssertEqual(finished("{\"id\":1}"), "Parse error: input is not framed: \(hint)")
    XCTAssertEqual(
      finished("Content-Length: 500\r\n\r\n{\"id\":1}"),
      "Parse error: incomplete frame at EOF: Content-Length 500 declared, 8 bytes of body arrived; \(hint)"
    )
    XCTAssertEqual(
      finished("Content-Len"),
      "Parse error: incomplete frame at EOF: the header block has no blank line; \(hint)")
    XCTAssertNil(finished(""))
    XCTAssertNil(finished("\n\r\n "))
    XCTAssertNil(finished("Content-Length: 2\r\n\r\n{}\n"))
  }

  func testJunkGluedToTheNextHeaderIsSkipped() {
    // The body of a frame whose header was damaged runs straight into the
    // next header: the junk must not hide that frame.
    for junk in ["null", "42", "abc", String(repeating: "X", count: 70_000)] {
      var r = FrameReader()
      r.append(Array("X-Foo: bar\r\n\r\n\(junk)".utf8) + frame("{}"))
      let events = drain(&r)
      XCTAssertEqual(events.last, .message(ArraySlice("{}".utf8)), junk.prefix(10) + "")
      XCTAssertEqual(events.count, 2, junk.prefix(10) + "")
    }
  }

  func testBadContentLengthValues() {
    for bad in ["-5", "abc", "", "1.5"] {
      var r = FrameReader()
      r.append(Array("Content-Length: \(bad)\r\n\r\n".utf8) + frame("[]"))
      let events = drain(&r)
      XCTAssertEqual(events.count, 2, bad)
      XCTAssertEqual(events.last, .message(ArraySlice("[]".utf8)), bad)
    }
  }

  func testUnsupportedCharsetIsRejected() {
    var r = FrameReader()
    r.append(Array("Content-Length: 2\r\nContent-Type: text/plain; charset=latin1\r\n\r\n".utf8))
    guard case .error(let e)? = r.next() else { return XCTFail() }
    XCTAssertTrue(e.message.contains("latin1"))
  }

  func testOversizedBodyIsSkippedWithoutBuffering() {
    var r = FrameReader(maxBodyBytes: 10)
    r.append(Array("Content-Length: 1000\r\n\r\n".utf8) + Array(repeating: 65, count: 400))
    guard case .error(let e)? = r.next() else { return XCTFail() }
    XCTAssertEqual(e.code, -32700)
    XCTAssertEqual(
      e.message,
      "Parse error: invalid frame header: Content-Length 1000 exceeds the maximum of 10 bytes")
    XCTAssertNil(r.next())
    // The body is junk skipped on the way to the next header, with no
    // second error; the reader holds no more than it must.
    r.append(Array(repeating: 65, count: 600) + frame("[]"))
    XCTAssertEqual(drain(&r), [.message(ArraySlice("[]".utf8))])
    XCTAssertEqual(r.bufferedCount, 0)
  }

  func testEveryStrictnessCaseResynchronisesOnTheNextFrame() {
    let cases: [(String, String)] = [
      ("Content-Length: 123456789012345678901", "must be a decimal of at most 19 digits"),
      ("Content-Length: 2\r\nContent-Length: 2", "duplicate Content-Length headers"),
      ("Content-Length: 2\nX: y", "a header line must end with CRLF"),
      ("Content-Length: 2\r\nX(y): z", "outside the token characters"),
    ]
    for (header, problem) in cases {
      var r = FrameReader()
      r.append(Array((header + "\r\n\r\n{}").utf8) + frame("[1]"))
      let events = drain(&r)
      XCTAssertEqual(events.count, 2, header)
      guard case .error(let e)? = events.first else { return XCTFail(header) }
      XCTAssertEqual(e.code, -32700, header)
      XCTAssertTrue(e.message.contains(problem), e.message)
      XCTAssertEqual(events.last, .message(ArraySlice("[1]".utf8)), header)
    }
  }

  func testHeaderFloodIsDroppedAndBounded() {
    var r = FrameReader(maxHeaderBytes: 1024)
    var errors = 0
    for _ in 0..<100 {
      r.append(Array(repeating: UInt8(ascii: "x"), count: 1000))
      for e in drain(&r) { if case .error = e { errors += 1 } }
      XCTAssertLessThanOrEqual(r.bufferedCount, 2048)
    }
    XCTAssertEqual(errors, 1)
    r.append(Array("\r\n\r\n".utf8) + frame("{}"))
    XCTAssertEqual(drain(&r).last, .message(ArraySlice("{}".utf8)))
  }

  /// The same flood read at once, blank line included (a large read): the
  /// same one error, and the next frame is answered.
  func testAHeaderFloodInOneReadIsRefusedTheSame() {
    var r = FrameReader(maxHeaderBytes: 1024)
    r.append(
      Array(repeating: UInt8(ascii: "x"), count: 100_000) + Array("\r\n\r\n".utf8) + frame("{}"))
    let events = drain(&r)
    XCTAssertEqual(
      events.first, .error(.parseError("invalid frame header: header block longer than 1024 bytes"))
    )
    XCTAssertEqual(events.count, 2)
    XCTAssertEqual(events.last, .message(ArraySlice("{}".utf8)))
  }
}

final class JSONWriterTests: XCTestCase {
  func text(_ w: JSONWriter) -> String { String(decoding: w.bytes, as: UTF8.self) }

  func testNestingCommasAndNumbers() {
    var w = JSONWriter()
    w.beginObject()
    w.key("a")
    w.beginArray()
    for d in [0, -0.0, 1, -2.5, 0.1, 1e21, 123_456_789_012, 1e-7] { w.number(d) }
    w.endArray()
    w.key("b")
    w.null()
    w.key("c")
    w.bool(true)
    w.key("e")
    w.beginObject()
    w.endObject()
    w.endObject()
    XCTAssertEqual(
      text(w), #"{"a":[0,0,1,-2.5,0.1,1e21,123456789012,1e-7],"b":null,"c":true,"e":{}}"#)
  }

  func testStringEscaping() {
    var w = JSONWriter()
    w.string("q\"b\\n\n\t\u{1}é")
    XCTAssertEqual(text(w), #""q\"b\\n\n\t\u0001é""#)
  }

  func testResetToMarkDropsPartialOutput() {
    var w = JSONWriter()
    w.beginArray()
    w.int(1)
    let m = w.mark
    w.beginObject()
    w.key("half")
    w.reset(to: m)
    w.int(2)
    w.endArray()
    XCTAssertEqual(text(w), "[1,2]")
  }

  func testResetOfAFirstElementWritesNoLeadingComma() {
    // A batch whose first request fails: its half-written result is rolled
    // back, and the error that replaces it is still the array's first element.
    var w = JSONWriter()
    w.beginArray()
    let m = w.mark
    w.beginObject()
    w.reset(to: m)
    w.int(1)
    w.int(2)
    w.endArray()
    XCTAssertEqual(text(w), "[1,2]")
  }

  func testOutputRoundTripsThroughJansson() throws {
    var w = JSONWriter()
    w.beginObject()
    w.key("x")
    w.number(0.30000000000000004)
    w.key("s")
    w.string("\u{1}∆")
    w.endObject()
    let doc = try JSONDocument.parse(w.bytes)
    XCTAssertEqual(doc.root["x"]?.number, 0.30000000000000004)
    XCTAssertEqual(doc.root["s"]?.string, "\u{1}∆")
  }
}

final class JSONDocumentTests: XCTestCase {
  func testRejectsWhatJSONForbids() {
    for bad in [
      #"{"a":1,"a":2}"#, "[NaN]", "[Infinity]", "[1e400]", "[123456789012345678901234567890]",
      "{", "", "[\"\u{FFFF}", "[1] x",
    ] {
      XCTAssertThrowsError(try JSONDocument.parse(bad), bad)
    }
    XCTAssertThrowsError(try JSONDocument.parse([0x5B, 0x22, 0xFF, 0x22, 0x5D]))
  }

  func testAccessors() throws {
    let doc = try JSONDocument.parse(#"{"i":7,"r":2.5,"s":"hé","b":false,"n":null,"a":[1,2]}"#)
    let r = doc.root
    XCTAssertEqual(r["i"]?.integer, 7)
    XCTAssertNil(r["r"]?.integer)
    XCTAssertEqual(r["r"]?.number, 2.5)
    XCTAssertEqual(r["s"]?.string, "hé")
    XCTAssertEqual(r["b"]?.bool, false)
    XCTAssertEqual(r["n"]?.isNull, true)
    XCTAssertEqual(r["a"]?.count, 2)
    XCTAssertEqual(r["a"]?[1].integer, 2)
    XCTAssertEqual(Set(r.keys), ["i", "r", "s", "b", "n", "a"])
  }

  func testFieldErrorsNameThePath() throws {
    let doc = try JSONDocument.parse(
      #"{"bounds":{"x":0,"y":0,"width":-1,"height":2},"n":1.5,"s":3,"big":1e12}"#)
    let p = try Fields(doc.root, path: "params")
    let bounds = try p.object("bounds")
    XCTAssertThrowsError(try bounds.number("width", min: 0)) { e in
      XCTAssertEqual(
        e as? RPCError,
        RPCError(
          code: -32602, message: "params.bounds.width must be a finite number >= 0",
          field: "params.bounds.width"))
    }
    XCTAssertThrowsError(try p.integer("n", in: 0...10)) { e in
      XCTAssertEqual((e as? RPCError)?.message, "params.n must be an integer")
    }
    XCTAssertThrowsError(try p.string("s")) { e in
      XCTAssertEqual((e as? RPCError)?.message, "params.s must be a string")
    }
    XCTAssertThrowsError(try p.object("missing")) { e in
      XCTAssertEqual((e as? RPCError)?.message, "params.missing is required")
    }
    XCTAssertEqual(try p.integer("big", in: 0...Int.max), 1_000_000_000_000)
    XCTAssertThrowsError(try p.rejectUnknown(["bounds", "n", "s"])) { e in
      XCTAssertEqual((e as? RPCError)?.field, "params.big")
    }
  }

  func testAnElementsPathIsJoinedForItsErrorsOnly() throws {
    let doc = try JSONDocument.parse(#"{"sizes":[{},{"size":{"width":-1},"item":"x"}]}"#)
    let array = try XCTUnwrap(doc.root["sizes"])
    let entry = try Fields(array[1], element: 1, of: "params.sizes")
    XCTAssertEqual(entry.path, "params.sizes[1]")
    let size = try entry.object("size")
    XCTAssertEqual(size.path, "params.sizes[1].size")
    XCTAssertThrowsError(try size.number("width", min: 0)) { e in
      XCTAssertEqual((e as? RPCError)?.field, "params.sizes[1].size.width")
    }
    XCTAssertThrowsError(try entry.integer("item", in: 0...9)) { e in
      XCTAssertEqual((e as? RPCError)?.field, "params.sizes[1].item")
    }
    XCTAssertThrowsError(try Fields(array[1]["item"]!, element: 4, of: "params.ids")) { e in
      XCTAssertEqual((e as? RPCError)?.message, "params.ids[4] must be an object")
    }
  }

  /// A bulk document outgrows its 8 KiB chunk: its tree goes on in blocks
  /// of its own, and a string or table over 64 KiB comes from malloc.
  /// Every value reads back, the chunks all return, and a failed parse of
  /// the same size leaves nothing held.
  func testABulkDocumentLivesInBlocksAndLargeAllocations() throws {
    _ = try JSONDocument.parse("[]")  // the region is set up on first use
    let free = ParseRegion.freeChunks.count
    XCTAssertEqual(free, ParseRegion.chunkCount)
    let long = String(repeating: "ab", count: 100_000)
    var text = #"{"long":""# + long + #"","items":["#
    for i in 0..<50_000 {
      if i > 0 { text += "," }
      text += #"{"section":0,"item":\#(i),"size":{"width":\#(i % 97),"height":2.5}}"#
    }
    text += "]}"
    do {
      let doc = try JSONDocument.parse(text)
      let items = try XCTUnwrap(doc.root["items"])
      XCTAssertEqual(items.count, 50_000)
      XCTAssertEqual(doc.root["long"]?.stringLength, 200_000)
      XCTAssertEqual(doc.root["long"]?.string, long)
      for i in [0, 1, 4_095, 31_337, 49_999] {
        XCTAssertEqual(items[i]["item"]?.integer, Int64(i))
        XCTAssertEqual(items[i]["size"]?["width"]?.number, Double(i % 97))
        XCTAssertEqual(items[i]["size"]?["height"]?.number, 2.5)
      }
      XCTAssertEqual(ParseRegion.freeChunks.count, free - 1)
      // A small document parsed meanwhile has a chunk of its own.
      let small = try JSONDocument.parse(#"{"a":[1,2,3]}"#)
      XCTAssertEqual(small.root["a"]?[2].integer, 3)
      XCTAssertEqual(ParseRegion.freeChunks.count, free - 2)
    }
    XCTAssertEqual(ParseRegion.freeChunks.count, free)
    XCTAssertFalse(ParseRegion.parsing)
    XCTAssertThrowsError(try JSONDocument.parse(text + "x")) { e in
      XCTAssertTrue(
        (e as? JSONDocument.ParseFailure)?.message.hasPrefix("end of file expected") ?? false,
        "\(e)")
    }
    XCTAssertEqual(ParseRegion.freeChunks.count, free)
  }
}

final class Base64Tests: XCTestCase {
  func decode(_ text: String) -> Result<[UInt8], Base64.Failure> { decode(Array(text.utf8)) }

  func decode(_ bytes: [UInt8]) -> Result<[UInt8], Base64.Failure> {
    bytes.withUnsafeBytes { t in
      var failure: Base64.Failure? = nil
      let out = [UInt8](unsafeUninitializedCapacity: Base64.decodedCount(t)) { buffer, count in
        do throws(Base64.Failure) {
          try Base64.decode(t, into: UnsafeMutableRawBufferPointer(buffer))
          count = buffer.count
        } catch {
          failure = error
          count = 0
        }
      }
      return failure.map { .failure($0) } ?? .success(out)
    }
  }

  func testEveryLengthAndByteAgreesWithFoundation() {
    // Lengths 0...70 cover every ending (no padding, one, two) with the
    // word-at-a-time stores before it and the byte stores of the last quads.
    var rng = SystemRandomNumberGenerator()
    for length in 0...70 {
      for _ in 0..<20 {
        let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) })
        XCTAssertEqual(
          try decode(data.base64EncodedString()).get(), Array(data), "length \(length)")
      }
    }
    XCTAssertEqual(try decode("TWFu").get(), Array("Man".utf8))
    XCTAssertEqual(try decode("TWE=").get(), Array("Ma".utf8))
    XCTAssertEqual(try decode("TQ==").get(), Array("M".utf8))
    XCTAssertEqual(try decode("+/+/").get(), [0xFB, 0xFF, 0xBF])
  }

  func testTheFirstBadByteIsNamed() {
    XCTAssertEqual(decode("TWFuTW-u"), .failure(.character(6)))
    XCTAssertEqual(decode("TWFuTWF=TWFu"), .failure(.character(7)))  // `=` before the end
    XCTAssertEqual(decode(Array("TWFu".utf8) + [0xFF] + Array("WFu".utf8)), .failure(.character(4)))
    XCTAssertEqual(decode(Array("TWFuTWF".utf8) + [0xC3]), .failure(.character(7)))
    XCTAssertEqual(decode("TWFuTW\nu"), .failure(.character(6)))
    XCTAssertEqual(decode("TW=u"), .failure(.character(3)))
    XCTAssertEqual(decode("T=Fu"), .failure(.character(1)))
    XCTAssertEqual(decode("TWF"), .failure(.length(3)))
    XCTAssertEqual(decode("TR=="), .failure(.padding))  // "TQ==" with stray bits
    XCTAssertEqual(decode("TWF="), .failure(.padding))
  }
}

final class FrameReaderMemoryTests: XCTestCase {
  func testABulkFramesBufferIsKeptForTheNextUntilReleased() {
    var r = FrameReader()
    let body = "[" + String(repeating: "1,", count: 1 << 20) + "1]"
    let bytes = Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    r.append(bytes)
    guard case .message(let got) = r.next() else { return XCTFail("no message") }
    XCTAssertEqual(got.count, body.utf8.count)
    XCTAssertNil(r.next())
    // The next chunk of a load reuses the buffer ...
    r.append(Array("Content-Length: 1\r\n\r\n".utf8))
    XCTAssertGreaterThan(r.capacity, 2 << 20)
    // ... and releasing keeps what is still to be read.
    r.releaseSpareCapacity()
    XCTAssertGreaterThan(r.capacity, 2 << 20)
    r.append(Array("7".utf8))
    XCTAssertEqual(r.next(), .message(ArraySlice("7".utf8)))
    r.releaseSpareCapacity()
    XCTAssertEqual(r.capacity, 0)
    XCTAssertEqual(r.bufferedCount, 0)
    r.append(Array("Content-Length: 2\r\n\r\n[]".utf8))
    XCTAssertEqual(r.next(), .message(ArraySlice("[]".utf8)))
  }
}

final class NearestNameTests: XCTestCase {
  func testTheIssuesExamplesAndTheLimits() {
    let methods = [
      "initialize", "shutdown", "layout/open", "layout/scrollEnded", "layout/setBounds",
    ]
    XCTAssertEqual(nearestName(to: "layout/scrollEnd", among: methods), "layout/scrollEnded")
    XCTAssertEqual(nearestName(to: "setBounds", among: methods), "layout/setBounds")
    XCTAssertEqual(nearestName(to: "shutdwon", among: methods), "shutdown")
    // "nope" is 2 edits from "open": too far for a 4-letter name.
    XCTAssertNil(nearestName(to: "layout/nope", among: methods))
    XCTAssertNil(nearestName(to: "layout/open", among: methods))  // known: nothing to suggest
    let fields = ["itemSize", "itemCount", "estimatedItemSize"]
    XCTAssertEqual(nearestName(to: "itemsize", among: fields), "itemSize")
    XCTAssertEqual(nearestName(to: "itemSzie", among: fields), "itemSize")  // a transposition
    XCTAssertNil(nearestName(to: "depth", among: ["width", "height"]))
    XCTAssertNil(nearestName(to: "", among: fields))
  }

  func testTheEditDistance() {
    func d(_ a: String, _ b: String) -> Int { editDistance(Array(a), Array(b)) }
    XCTAssertEqual(d("kitten", "sitting"), 3)
    XCTAssertEqual(d("ab", "ba"), 1)
    XCTAssertEqual(d("", "abc"), 3)
    XCTAssertEqual(d("scrollEnd", "scrollEnded"), 2)
  }
}
