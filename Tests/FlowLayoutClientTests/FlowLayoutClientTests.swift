import FlowLayoutClient
import Foundation
import XCTest

final class JSONTests: XCTestCase {
  func testRoundTripsTheDaemonsValues() throws {
    let text =
      #"{"a":[1,-2.5,1e-7,true,false,null],"b":"é\"\\\n\u0001","c":{},"d":[],"e":12345678901}"#
    let value = try JSON(parsing: text)
    XCTAssertEqual(value["a"][1].double, -2.5)
    XCTAssertEqual(value["a"][2].double, 1e-7)
    XCTAssertEqual(value["a"][3].bool, true)
    XCTAssertEqual(value["b"].string, "é\"\\\n\u{1}")
    XCTAssertEqual(value["e"].int, 12_345_678_901)
    XCTAssertEqual(
      value.text,
      #"{"a":[1,-2.5,1e-07,true,false,null],"b":"é\"\\\n\u0001","c":{},"d":[],"e":12345678901}"#)
    XCTAssertEqual(try JSON(parsing: value.text), value)
  }

  func testSurrogatePairsAndEscapes() throws {
    XCTAssertEqual(try JSON(parsing: #""\ud83d\ude00 \/ \t""#).string, "😀 / \t")
  }

  func testRefusesMalformedTextWithItsOffset() {
    for (text, offset) in [("[1,", 3), ("{\"a\" 1}", 5), ("tru", 3), ("1 2", 2), ("\"x", 2)] {
      XCTAssertThrowsError(try JSON(parsing: text), text) { error in
        XCTAssertEqual((error as? JSONParseError)?.offset, offset, text)
      }
    }
  }
}

final class LayoutClientTests: XCTestCase {
  /// The daemon built beside this test bundle (the same scratch path).
  static var daemon: String {
    if let path = ProcessInfo.processInfo.environment["FLOWLAYOUTD"] { return path }
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    return bundle.appendingPathComponent("flowlayoutd").path
  }

  /// README.md's "Finding the daemon", the order the Python and JS
  /// clients' test (test_daemon_discovery.py) checks too.
  func testFindDaemonOrder() throws {
    let fm = FileManager.default
    let root = fm.temporaryDirectory.appendingPathComponent("find-daemon-\(getpid())").path
    defer { try? fm.removeItem(atPath: root) }
    func stub(_ path: String) throws -> String {
      try fm.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      XCTAssertTrue(
        fm.createFile(
          atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
      return path
    }
    let cwd = "\(root)/project/sub"
    try fm.createDirectory(atPath: cwd, withIntermediateDirectories: true)
    let onPath = try stub("\(root)/bin/flowlayoutd")
    let env = ["PATH": "\(root)/bin"]
    // This library's own checkout (its source's ancestors) holds a build:
    // the tests run from it. It comes before PATH.
    let own = try LayoutClient.findDaemon(environment: env, directory: cwd)
    XCTAssertTrue(
      own.hasSuffix("/.build/release/flowlayoutd") || own.hasSuffix("/.build/debug/flowlayoutd"),
      own)
    XCTAssertNotEqual(own, onPath)
    let debug = try stub("\(root)/project/.build/debug/flowlayoutd")
    XCTAssertEqual(try LayoutClient.findDaemon(environment: env, directory: cwd), debug)
    let release = try stub("\(root)/project/.build/release/flowlayoutd")
    XCTAssertEqual(try LayoutClient.findDaemon(environment: env, directory: cwd), release)
    XCTAssertEqual(
      try LayoutClient.findDaemon(
        environment: env.merging(["FLOWLAYOUTD": "/opt/f"]) { $1 }, directory: cwd),
      "/opt/f")
    XCTAssertEqual(
      try LayoutClient.findDaemon("/given", environment: ["FLOWLAYOUTD": "/opt/f"], directory: cwd),
      "/given")
  }

  func testAFullSession() throws {
    let client = try LayoutClient.spawn(daemon: Self.daemon)
    XCTAssertEqual(client.serverInfo["name"].string, "flowlayoutd")
    // The generated methods are exactly the daemon's.
    XCTAssertEqual(
      client.capabilities["methods"].array?.compactMap(\.string), LayoutClient.methodNames)

    // Six 100×50 items across 320 points, 10 apart: three a line (3 · 100
    // + 2 · 10 = 320), two lines 10 apart: 110 tall.
    var picture = Picture()
    let opened = try client.open(
      session: "grid", layout: ["type": "flow", "itemSize": ["width": 100, "height": 50]],
      bounds: Rect(x: 0, y: 0, width: 320, height: 100), sections: [["itemCount": 6]])
    picture.apply(opened)
    XCTAssertEqual(picture.contentSize, Size(width: 320, height: 110))
    XCTAssertEqual(picture.count, 6)
    XCTAssertEqual(
      picture[ElementKey(kind: "cell", section: 0, item: 4)]?.frame,
      Rect(x: 110, y: 60, width: 100, height: 50))

    // Scrolled to y = 55 the first line (0…50) has left the viewport.
    let scrolled = try client.setBounds(
      session: "grid", bounds: Rect(x: 0, y: 55, width: 320, height: 100))
    XCTAssertEqual(LayoutClient.pictureEffects["layout/setBounds"], "delta")
    picture.apply(scrolled)
    XCTAssertEqual(picture.elements.map(\.key.item), [3, 4, 5])
    XCTAssertEqual(picture.bounds, Rect(x: 0, y: 55, width: 320, height: 100))

    // A batch inserts an item at 0: items 2…6 now fill the second line
    // and a third (120…170), all but item 2's line 0 showing in 55…155.
    picture.apply(
      try client.performBatchUpdates(
        session: "grid", updates: ["insertItems": [["section": 0, "item": 0]]]))
    let fresh = try client.attributesInRect(session: "grid", rect: picture.bounds!)
    XCTAssertEqual(picture.elements.map(\.json), fresh["attributes"].array)
    XCTAssertEqual(picture.contentSize, Size(width: 320, height: 170))

    // An error names its field and changes nothing.
    XCTAssertThrowsError(
      try client.setBounds(session: "grid", bounds: Rect(x: 0, y: 0, width: -1, height: 100))
    ) { error in
      let e = error as? RPCError
      XCTAssertEqual(e?.code, -32602)
      XCTAssertEqual(e?.field, "params.bounds.width")
    }
    XCTAssertEqual(
      try client.contentSize(session: "grid")["contentSize"], ["width": 320, "height": 170])
    XCTAssertNil(try client.close(session: "grid").object)
    XCTAssertEqual(try client.shutdown(), 0)
  }

  func testASnapshotMovesItemsThePictureFindsByID() throws {
    let client = try LayoutClient.spawn(daemon: Self.daemon)
    // A 100-wide list of 40-tall rows, no spacing; the view shows 3 rows.
    var picture = Picture()
    picture.apply(
      try client.open(
        session: "list",
        layout: [
          "type": "flow", "itemSize": ["width": 100, "height": 40], "minimumLineSpacing": 0,
        ],
        bounds: Rect(x: 0, y: 0, width: 100, height: 120),
        sections: [["id": "s", "itemCount": 3, "ids": ["a", "b", 7]]]))
    XCTAssertEqual(picture[id: .int(7)]?.frame, Rect(x: 0, y: 80, width: 100, height: 40))
    // 7 to the top and "a" gone: one move and one delete. The view stays at
    // the content's start, clamped (two rows of content fit).
    let r = try client.applySnapshot(session: "list", sections: [["id": "s", "items": [7, "b"]]])
    XCTAssertEqual(
      r["updates"],
      [
        "deleteItems": [["section": 0, "item": 0]],
        "moveItems": [["from": ["section": 0, "item": 2], "to": ["section": 0, "item": 0]]],
      ])
    picture.apply(r)
    XCTAssertEqual(picture[id: .int(7)]?.frame, Rect(x: 0, y: 0, width: 100, height: 40))
    XCTAssertEqual(picture[id: .string("b")]?.key.item, 1)
    XCTAssertNil(picture[id: .string("a")])
    XCTAssertNil(picture[id: .string("7")])  // 7 and "7" are different ids
    XCTAssertEqual(try client.shutdown(), 0)
  }

  func testADragToReorderFollowsTheFingerAndDropsAsOneMove() throws {
    let client = try LayoutClient.spawn(daemon: Self.daemon)
    // Three 100×100 cells in a 300-wide row: 0, 1, 2 at x 0, 100, 200.
    var picture = Picture()
    picture.apply(
      try client.open(
        session: "row",
        layout: [
          "type": "flow", "itemSize": ["width": 100, "height": 100], "minimumInteritemSpacing": 0,
        ],
        bounds: Rect(x: 0, y: 0, width: 300, height: 100),
        sections: [["itemCount": 3, "ids": ["a", "b", "c"]]]))
    XCTAssertEqual(try client.beginInteractiveMovement(session: "row", id: "a")["began"], true)
    let u = try client.updateInteractiveMovement(session: "row", position: Point(x: 260, y: 50))
    XCTAssertEqual(u["target"], ["section": 0, "item": 2])
    picture.apply(u)
    XCTAssertEqual(picture[id: .string("a")]?.moving, true)
    XCTAssertEqual(picture[id: .string("a")]?.frame, Rect(x: 210, y: 0, width: 100, height: 100))
    XCTAssertEqual(picture[id: .string("b")]?.frame, Rect(x: 0, y: 0, width: 100, height: 100))
    let end = try client.endInteractiveMovement(session: "row")
    XCTAssertEqual(
      end["updates"],
      ["moveItems": [["from": ["section": 0, "item": 0], "to": ["section": 0, "item": 2]]]])
    picture.apply(end)
    XCTAssertEqual(picture[id: .string("a")]?.moving, false)
    XCTAssertEqual(picture[id: .string("a")]?.key.item, 2)
    XCTAssertEqual(try client.shutdown(), 0)
  }

  func testAListSectionsSeparatorsAndASwipe() throws {
    let client = try LayoutClient.spawn(daemon: Self.daemon)
    // A compositional layout whose sections are plain lists: rows 390 wide
    // and 44 high (the estimate); a bottom separator 1/2 thick (displayScale
    // 2) from the cell margin 16 to the edge, none under the list's last row.
    var picture = Picture()
    picture.apply(
      try client.open(
        session: "mixed", layout: ["type": "compositional", "section": ["list": [:]]],
        bounds: Rect(x: 0, y: 0, width: 390, height: 300),
        sections: [["itemCount": 3, "ids": ["a", "b", "c"]]]))
    XCTAssertEqual(picture[id: .string("b")]?.frame, Rect(x: 0, y: 44, width: 390, height: 44))
    let bottom = { (item: Int) in
      picture[ElementKey(kind: "separator", section: 0, item: item, edge: "bottom")]?.frame
    }
    XCTAssertEqual(bottom(0), Rect(x: 16, y: 43.5, width: 374, height: 0.5))
    XCTAssertNil(bottom(2))
    // An override shows it: the answer is a delta like any change's.
    picture.apply(
      try client.setItemSeparators(
        session: "mixed", items: [["id": "c", "bottomSeparatorVisibility": "visible"]]))
    XCTAssertEqual(bottom(2), Rect(x: 16, y: 131.5, width: 374, height: 0.5))
    // protocol.md's swipe: actions 60 (destructive) and 90 on a 390 row give
    // buttons B = 90 wide; at τ = 100 they stand side by side from the right.
    let began = try client.beginSwipe(
      session: "mixed", id: "b", edge: "trailing",
      actions: [["width": 60, "style": "destructive"], ["width": 90]])
    XCTAssertEqual(began["began"], true)
    let u = try client.updateSwipe(session: "mixed", translation: -100)
    XCTAssertEqual(
      u["actions"],
      [
        ["x": 300, "y": 44, "width": 90, "height": 44],
        ["x": 210, "y": 44, "width": 90, "height": 44],
      ])
    XCTAssertEqual(try client.endSwipe(session: "mixed", velocity: -0.3)["state"], "open")
    XCTAssertEqual(try client.shutdown(), 0)
  }

  func testAMissingDaemonIsATransportError() {
    XCTAssertThrowsError(try LayoutClient.spawn(daemon: "/nonexistent/flowlayoutd"))
  }
}
