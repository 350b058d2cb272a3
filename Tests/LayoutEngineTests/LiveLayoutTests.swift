import XCTest

@testable import LayoutEngine

/// The live rules at the engine level, without a daemon: deltas, anchoring,
/// followsEnd, movements and refused changes. Expected values are worked
/// out by hand for a flow of items 80×60 with UIKit's spacing of 10 in a
/// 375×500 viewport: four to a line (4·80 + 3·10 ≤ 375), spread to x 0,
/// 98.33, 196.67 and 295; line k at y 70k.
final class LiveLayoutTests: XCTestCase {
  let bounds = Rect(x: 0, y: 0, width: 375, height: 500)
  let gap = (375.0 - 320) / 3

  override func setUp() { InternalChecks.enabled = true }

  func flow(_ n: Int, bounds b: Rect? = nil, followsEnd: Bool = false) throws -> (
    LiveLayout, LiveDelta
  ) {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 80, height: 60)
    let layout = Layout(type: .flow(c), sections: [.uniform(n)], viewportSize: bounds.size)
    return try LiveLayout.open(layout, bounds: b ?? bounds, followsEnd: followsEnd)
  }

  func x(_ slot: Int) -> Double { Double(slot % 4) * (80 + gap) }
  func y(_ slot: Int) -> Double { Double(slot / 4) * 70 }

  func bounds(y: Double) -> Rect { Rect(x: 0, y: y, width: 375, height: 500) }

  /// What the visible rect meets, as the queries answer it.
  func queried(_ live: LiveLayout) -> [LayoutAttributes] {
    var all: [LayoutAttributes] = []
    live.forEachAttribute(in: live.visibleRect, after: nil) {
      all.append($0)
      return true
    }
    return all
  }

  func testOpenAndScrollAnswerOnlyWhatChanged() throws {
    var (live, open) = try flow(100)
    // Lines 0…7 meet 0…500 (line 7 spans 490…550): items 0…31.
    XCTAssertEqual(open.invalidated.map { live.picture[$0].item }, Array(0..<32))
    XCTAssertEqual(live.layout.contentSize, Size(width: 375, height: 24 * 70 + 60))
    // Down 100: line 0 (0…60) leaves, line 8 (560…620) comes in.
    let delta = try live.commit(.setBounds(bounds(y: 100)))
    XCTAssertEqual(delta.invalidated.map { live.picture[$0].item }, [32, 33, 34, 35])
    XCTAssertEqual(delta.removed.map(\.item), [0, 1, 2, 3])
    XCTAssertEqual(live.bounds, bounds(y: 100))
    XCTAssertEqual(live.picture[0].frame.origin, Point(x: 0, y: 70))
    // The same bounds again: nothing to send.
    let none = try live.commit(.setBounds(bounds(y: 100)))
    XCTAssertTrue(none.invalidated.isEmpty && none.removed.isEmpty)
  }

  func testAnInsertAboveKeepsTheFirstVisibleItemInPlace() throws {
    var (live, _) = try flow(100, bounds: bounds(y: 700))
    // Item 40 (line 10, y 700) is first on screen; four items inserted at
    // the top push it a line down, and the viewport follows it.
    var u = BatchUpdate()
    u.insertItems = (0..<4).map { (IndexPath(section: 0, item: $0), Item()) }
    let delta = try live.commit(.performBatchUpdates(u))
    XCTAssertEqual(live.bounds, bounds(y: 770))
    XCTAssertEqual(live.picture.first?.item, 44)
    XCTAssertEqual(live.picture.first?.frame.origin, Point(x: 0, y: 770))
    // Every element keeps its place on screen: the picture shows new index
    // paths at the old screen positions, and nothing appears or disappears.
    XCTAssertEqual(delta.animations?.appearing.count, 0)
    XCTAssertEqual(delta.animations?.disappearing.count, 0)
    XCTAssertEqual(queried(live), live.picture)
  }

  func testFollowsEndKeepsTheViewportAtTheEnd() throws {
    // 30 items: 8 lines, content 550 high, the end at offset 50.
    var (live, _) = try flow(30, bounds: bounds(y: 50), followsEnd: true)
    _ = try live.commit(.appendItems(section: 0, count: 4, sizes: nil, ids: nil))
    // A ninth line: content 620, the end at 120.
    XCTAssertEqual(live.bounds, bounds(y: 120))
    // Without followsEnd the first visible item (item 0, cut at the top)
    // stays where it was.
    var (plain, _) = try flow(30, bounds: bounds(y: 50))
    _ = try plain.commit(.appendItems(section: 0, count: 4, sizes: nil, ids: nil))
    XCTAssertEqual(plain.bounds, bounds(y: 50))
  }

  func testAMovementLiftsOnTheFirstUpdateAndDropsInPlace() throws {
    var (live, _) = try flow(30)
    let before = live.picture
    XCTAssertTrue(live.beginInteractiveMovement(at: IndexPath(section: 0, item: 2)))
    XCTAssertFalse(live.beginInteractiveMovement(at: IndexPath(section: 0, item: 3)))
    XCTAssertEqual(queried(live), before, "nothing is lifted before the first update")
    let update = try live.commit(.updateInteractiveMovement(Point(x: 200, y: 200)))
    XCTAssertEqual(update.movementTarget, IndexPath(section: 0, item: 10))
    let lifted = live.picture.first { $0.moving }
    XCTAssertEqual(lifted?.item, 2)
    XCTAssertEqual(lifted?.frame, Rect(x: 160, y: 170, width: 80, height: 60))
    XCTAssertEqual(queried(live), live.picture, "queries answer the preview")
    // Items 3…10 slid back a slot; item 11 did not move.
    XCTAssertEqual(
      Set(update.invalidated.map { live.picture[$0].item }), Set([2, 3, 4, 5, 6, 7, 8, 9, 10]))
    let drop = try live.commit(.endInteractiveMovement)
    XCTAssertEqual(drop.batch?.moveItems.map(\.from), [IndexPath(section: 0, item: 2)])
    XCTAssertEqual(drop.batch?.moveItems.map(\.to), [IndexPath(section: 0, item: 10)])
    XCTAssertEqual(live.bounds, bounds)
    // Only the dropped item settles: from under the finger into slot 10.
    XCTAssertEqual(drop.animations?.moved.count, 1)
    XCTAssertEqual(drop.animations?.moved.first?.from.frame.origin, Point(x: 160, y: 170))
    XCTAssertEqual(drop.animations?.moved.first?.to.frame.origin.y, y(10))
    XCTAssertEqual(drop.animations?.moved.first?.to.frame.origin.x ?? 0, x(10), accuracy: 1e-9)
    // The picture was keyed by the data's paths: items 2…10 are re-keyed.
    XCTAssertEqual(drop.invalidated.map { live.picture[$0].item }, Array(2...10))
    // The session is what a fresh one over the same data shows.
    XCTAssertEqual(live.picture, try flow(30).0.picture)
    XCTAssertNil(live.movement)
  }

  func testAChangeOfTheDataCancelsAMovement() throws {
    var (live, _) = try flow(30)
    XCTAssertTrue(live.beginInteractiveMovement(at: IndexPath(section: 0, item: 2)))
    _ = try live.commit(.updateInteractiveMovement(Point(x: 200, y: 200)))
    let delta = try live.commit(.reloadData([.uniform(30)]))
    XCTAssertTrue(delta.movementCancelled)
    XCTAssertNil(live.movement)
    XCTAssertEqual(live.picture, try flow(30).0.picture)
    XCTAssertThrowsError(try live.commit(.endInteractiveMovement)) { error in
      guard case LiveError<Never>.noMovement = error else {
        return XCTFail("\(error)")
      }
    }
  }

  func testAMeasuredItemAboveMovesTheViewportByItsChange() throws {
    // Item 40 (line 10 at y 700) is the first item starting in the
    // viewport. Item 5 measured 100 tall makes line 1 100 tall: every line
    // below starts 40 lower, and so does the viewport.
    var (live, _) = try flow(100, bounds: bounds(y: 700))
    _ = try live.commit(
      .setItemSizes([(IndexPath(section: 0, item: 5), Size(width: 80, height: 100))]))
    XCTAssertEqual(live.bounds, bounds(y: 740))
    XCTAssertEqual(live.attributesForItem(IndexPath(section: 0, item: 40), lap: nil)?.frame.y, 740)
    // One measured below it moves nothing above it.
    _ = try live.commit(
      .setItemSizes([(IndexPath(section: 0, item: 45), Size(width: 80, height: 100))]))
    XCTAssertEqual(live.bounds, bounds(y: 740))
  }

  func testAChunkedReloadAnchorsOnTheIdWhenItsChunkArrives() throws {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 80, height: 60)
    func ids(_ r: Range<Int>) -> [ItemID?] { r.map { .string("i\($0)") } }
    var section = Section.uniform(100)
    section.ids = IDList(ids(0..<100))
    let layout = Layout(type: .flow(c), sections: [section], viewportSize: bounds.size)
    var (live, _) = try LiveLayout.open(layout, bounds: bounds(y: 700))
    // The reload's first chunk lacks item 40's id: 20 items, 5 lines, less
    // than a screen, so the viewport goes to the top.
    var first = Section.uniform(20)
    first.ids = IDList(ids(0..<20))
    _ = try live.commit(.reloadData([first]))
    XCTAssertEqual(live.bounds, bounds(y: 0))
    // The chunk that brings it puts it back where the user saw it.
    _ = try live.commit(.appendItems(section: 0, count: 80, sizes: nil, ids: ids(20..<100)))
    XCTAssertEqual(live.bounds, bounds(y: 700))
    XCTAssertEqual(live.picture.first { $0.kind == .cell }?.item, 40)
  }

  func testAPagerResizePutsThePageCentredBeforeAtRest() throws {
    // Pages of the viewport's size, 300 apart: at x 420 the viewport's
    // centre (570) is nearest page 1's (450). At 400 wide page 1 rests at
    // x 400.
    let b = Rect(x: 420, y: 0, width: 300, height: 200)
    let layout = Layout(
      type: .pager(PagerConfiguration()), sections: [.uniform(10)], viewportSize: b.size)
    var (live, _) = try LiveLayout.open(layout, bounds: b)
    _ = try live.commit(.setBounds(Rect(x: 420, y: 0, width: 400, height: 200)))
    XCTAssertEqual(live.bounds, Rect(x: 400, y: 0, width: 400, height: 200))
  }

  struct Refusal: Error, Equatable { var rect: Rect }

  func testARefusedChangeLeavesTheSessionAsItWas() throws {
    var (live, _) = try flow(30)
    _ = try live.commit(.setBounds(bounds(y: 40)))
    let before = (live.bounds, live.picture, live.layout.contentSize)
    var u = BatchUpdate()
    u.deleteItems = [IndexPath(section: 0, item: 30)]
    XCTAssertThrowsError(try live.commit(.performBatchUpdates(u))) { error in
      guard case LiveError<Never>.invalidUpdate = error else { return XCTFail("\(error)") }
    }
    // The embedder's check refuses a scroll and a resize alike.
    let refuse: ViewportCheck<Refusal> = { _, rect, _ throws(Refusal) in
      throw Refusal(rect: rect)
    }
    XCTAssertThrowsError(try live.commit(.setBounds(bounds(y: 10)), checking: refuse)) {
      XCTAssertEqual(($0 as? LiveError<Refusal>).flatMap(\.refusal)?.rect, bounds(y: 10))
    }
    XCTAssertThrowsError(
      try live.commit(
        .setBounds(Rect(x: 0, y: 0, width: 500, height: 375)), checking: refuse))
    XCTAssertEqual(live.bounds, before.0)
    XCTAssertEqual(live.picture, before.1)
    XCTAssertEqual(live.layout.contentSize, before.2)
  }

  /// The core promise on a walk through every change: the picture built
  /// from the deltas alone equals what the queries answer for the visible
  /// rect, after every step.
  func testTheDeltasBuildWhatTheQueriesAnswer() throws {
    var (live, open) = try flow(60, bounds: bounds(y: 300))
    var client: [ElementKey: LayoutAttributes] = [:]
    func replay(_ d: LiveDelta) {
      for k in d.removed { client[k] = nil }
      for i in d.invalidated { client[live.picture[i].key] = live.picture[i] }
    }
    replay(open)
    var insert = BatchUpdate()
    insert.insertItems = [
      (IndexPath(section: 0, item: 5), Item(size: Size(width: 80, height: 200)))
    ]
    var delete = BatchUpdate()
    delete.deleteItems = (10..<20).map { IndexPath(section: 0, item: $0) }
    var move = BatchUpdate()
    move.moveItems = [(IndexPath(section: 0, item: 40), IndexPath(section: 0, item: 1), nil)]
    let steps: [LiveChange] = [
      .setBounds(bounds(y: 420)), .performBatchUpdates(insert), .setBounds(bounds(y: 150)),
      .performBatchUpdates(delete),
      .setItemSizes([(IndexPath(section: 0, item: 7), Size(width: 120, height: 90))]),
      .setBounds(Rect(x: 0, y: 150, width: 500, height: 375)), .performBatchUpdates(move),
      .configure(LiveConfiguration(contentInset: Insets(top: 20, left: 5, bottom: 0, right: 5))),
      .appendItems(section: 0, count: 7, sizes: nil, ids: nil),
      .reloadData([.uniform(9), .uniform(40)]),
      .setBounds(Rect(x: 0, y: 600, width: 500, height: 375)),
    ]
    for (i, step) in steps.enumerated() {
      replay(try live.commit(step))
      let picture = queried(live)
      XCTAssertEqual(live.picture, picture, "step \(i)")
      XCTAssertEqual(client.values.sorted { $0.key < $1.key }, picture, "step \(i)")
    }
    XCTAssertEqual(live.layout.sections.map(\.count), [9, 40])
  }
}

extension LiveError {
  var refusal: Refusal? {
    if case .refused(let r) = self { return r }
    return nil
  }
}
