import JSONRPC
import XCTest

@testable import LayoutServer

/// Drives the method handlers directly, without a transport.
final class LayoutServerTests: XCTestCase {
  var server = LayoutServer()

  func call(_ method: String, _ params: String) throws -> String {
    let doc = try JSONDocument.parse(params)
    var w = JSONWriter()
    try server.handleRequest(method: method, params: doc.root, result: &w)
    return String(decoding: w.bytes, as: UTF8.self)
  }

  func error(_ method: String, _ params: String) -> RPCError? {
    do {
      _ = try call(method, params)
      return nil
    } catch {
      return error as? RPCError
    }
  }

  let seed = #"""
    {"session":"s","layout":{"type":"coverFlow","minimumLineSpacing":30,"scale":{"factor":0.5}},
     "bounds":{"x":0,"y":0,"width":375,"height":300},"sections":[{"itemCount":10}]}
    """#

  func testOpenReturnsTheVisibleCards() throws {
    let out = try call("layout/open", seed)
    XCTAssertTrue(
      out.hasPrefix(
        #"{"contentSize":{"width":2445,"height":300},"bounds":{"x":0,"y":0,"width":375,"height":300},"attributes":[{"kind":"cell","section":0,"item":0,"center":{"x":187.5,"y":150},"size":{"width":200,"height":300},"frame":{"x":87.5,"y":0,"width":200,"height":300},"alpha":1,"zIndex":0},{"kind":"cell","section":0,"item":1,"#
      ), out)
    XCTAssertEqual(server.sessionCount, 1)
  }

  func testSetBoundsReportsRemovedAndCentredItem() throws {
    _ = try call("layout/open", seed)
    let out = try call(
      "layout/setBounds", #"{"session":"s","bounds":{"x":460,"y":0,"width":375,"height":300}}"#)
    // Centre 647.5 is card 2's centre; cards 1–3 are visible; 0 left the viewport.
    XCTAssertTrue(
      out.contains(
        #""removed":[{"kind":"cell","section":0,"item":0}],"centeredItem":{"section":0,"item":2}}"#),
      out)
  }

  func testErrorsLeaveSessionsUnchanged() throws {
    _ = try call("layout/open", seed)
    let before = try call(
      "layout/attributesInRect", #"{"session":"s","rect":{"x":0,"y":0,"width":3000,"height":300}}"#)
    XCTAssertEqual(error("layout/open", seed)?.code, ErrorCode.sessionExists)
    XCTAssertEqual(
      error("layout/setBounds", #"{"session":"s","bounds":{"x":0,"y":0,"width":-1,"height":300}}"#),
      RPCError(
        code: -32602, message: "params.bounds.width must be a finite number >= 0",
        field: "params.bounds.width"))
    XCTAssertEqual(
      error("layout/setBounds", #"{"session":"t","bounds":{"x":0,"y":0,"width":1,"height":1}}"#)?
        .code, ErrorCode.unknownSession)
    XCTAssertEqual(
      error("layout/attributesForItem", #"{"session":"s","section":0,"item":10}"#)?.message,
      "params.item is out of range: section 0 has 10 items")
    let after = try call(
      "layout/attributesInRect", #"{"session":"s","rect":{"x":0,"y":0,"width":3000,"height":300}}"#)
    XCTAssertEqual(before, after)
  }

  func testLimitsAreCheckedBeforeAllocating() {
    var limits = Limits()
    limits.maxSessions = 1
    server = LayoutServer(limits: limits)
    let huge =
      #"{"session":"h","layout":{"type":"flow"},"bounds":{"x":0,"y":0,"width":1,"height":1},"sections":[{"itemCount":1e12}]}"#
    let e = error("layout/open", huge)
    XCTAssertEqual(e?.code, ErrorCode.limitExceeded)
    XCTAssertEqual(
      e?.message, "params.sections holds more than 100000000 items, the per-session limit")
    XCTAssertNotNil(try? call("layout/open", seed))
    XCTAssertEqual(
      error("layout/open", seed.replacingOccurrences(of: #""s""#, with: #""u""#))?.code,
      ErrorCode.limitExceeded)
  }

  func testUnknownLayoutFieldsAreRejected() {
    let bad = seed.replacingOccurrences(
      of: #""minimumLineSpacing":30"#, with: #""minimumLineSpaceing":30"#)
    XCTAssertEqual(error("layout/open", bad)?.field, "params.layout.minimumLineSpaceing")
    XCTAssertEqual(error("layout/nope", "{}")?.code, -32601)
  }

  func testScrollEndedUsesProposedOffset() throws {
    _ = try call("layout/open", seed)
    // The proposal overrides the projection; card 7 (centre 1797.5) is
    // nearest the centre 1687.5. Δ = 1600: T = ln(0.5 / 1600) / ln 0.998
    // = 4031.4 ms, so five 1000 ms frames: durationMs 5000, six samples
    // from 10 to exactly 1610.
    let out = try call(
      "layout/scrollEnded",
      #"{"session":"s","contentOffset":{"x":10,"y":0},"velocity":{"x":2,"y":0},"proposedContentOffset":{"x":1500,"y":0},"frameInterval":1000}"#
    )
    XCTAssertTrue(
      out.hasPrefix(
        #"{"targetContentOffset":{"x":1610,"y":0},"targetItem":{"section":0,"item":7},"projectedContentOffset":{"x":1500,"y":0},"policy":"nearest","durationMs":5000,"trajectory":[{"x":10,"y":0},"#
      ), out)
    XCTAssertTrue(out.hasSuffix(#"{"x":1610,"y":0}]}"#), out)
    XCTAssertEqual(out.components(separatedBy: #""x":"#).count - 1, 2 + 6)
    XCTAssertEqual(try call("layout/close", #"{"session":"s"}"#), "null")
    XCTAssertEqual(server.sessionCount, 0)
  }
}
