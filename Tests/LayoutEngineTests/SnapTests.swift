import XCTest

@testable import LayoutEngine

/// Snap plans on the seed carousel: 10 cards of 200×300, spacing 30, in a
/// 375×300 viewport. By hand: card k's rest offset (its centre at the
/// viewport's centre) is 87.5 + 100 + 230k − 187.5 = 230k; offsets run from
/// 0 to 2070. The projection is offset + v·r / (1 − r): 499·v for `normal`
/// (0.998), 99·v for `fast` (0.99).
final class SnapTests: XCTestCase {
  let viewport = Size(width: 375, height: 300)

  func seed(
    _ policy: SnapPolicy = .nearest, rate: Double = SnapConfiguration.normal,
    maxItems: Int = 1, edges: SnapEdges = .snap, rtl: Bool = false, inset: Insets = .zero
  ) -> Layout {
    var c = CoverFlowConfiguration()
    c.flow.minimumLineSpacing = 30
    c.scale.factor = 0.5
    c.snap.policy = policy
    c.snap.decelerationRate = rate
    c.snap.maxItems = maxItems
    c.snap.edges = edges
    if rtl { c.flow.layoutDirection = .rtl }
    return Layout(
      type: .coverFlow(c), sections: [.uniform(10)], contentInset: inset, viewportSize: viewport)
  }

  func plan(_ layout: Layout, _ x: Double, _ v: Double) -> ScrollPlan {
    layout.scrollPlan(contentOffset: Point(x: x, y: 0), velocity: Point(x: v, y: 0))
  }

  func check(
    _ p: ScrollPlan, target: Double, item: Int, projected: Double? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(p.targetContentOffset, Point(x: target, y: 0), file: file, line: line)
    XCTAssertEqual(p.targetItem, IndexPath(section: 0, item: item), file: file, line: line)
    if let projected {
      XCTAssertEqual(p.projectedContentOffset.x, projected, accuracy: 1e-9, file: file, line: line)
    }
    XCTAssertEqual(p.trajectory.last, p.targetContentOffset, file: file, line: line)
  }

  func testProjectionFollowsTheDecelerationRate() {
    // normal: 0 + 1.5·499 = 748.5, centre 936: card 3 (877.5) is 58.5 away.
    check(plan(seed(), 0, 1.5), target: 690, item: 3, projected: 748.5)
    // fast: 1.5·99 = 148.5, centre 336: card 1 (417.5) 81.5 away, card 0 148.5.
    check(plan(seed(rate: SnapConfiguration.fast), 0, 1.5), target: 230, item: 1, projected: 148.5)
    // A custom rate of 0.9: 1.5·0.9 / 0.1 = 13.5: stays on card 0.
    check(plan(seed(rate: 0.9), 0, 1.5), target: 0, item: 0, projected: 13.5)
  }

  func testProposedOffsetOverridesTheProjection() {
    let p = seed().scrollPlan(
      contentOffset: Point(x: 0, y: 0), velocity: Point(x: 1.5, y: 0),
      proposed: Point(x: 120, y: 0))
    // Centre 307.5: card 1 (417.5) is 110 away, card 0 120.
    check(p, target: 230, item: 1, projected: 120)
  }

  func testNearestLandsBeyondTheVisibleCards() {
    // At offset 0 only cards 0 and 1 are visible. 4·499 = 1996, centre
    // 2183.5: card 9 (2257.5) is 74 away, card 8 (2027.5) 156.
    check(plan(seed(), 0, 4), target: 2070, item: 9, projected: 1996)
    // Reversed: from 2070 at −4: 2070 − 1996 = 74, centre 261.5: card 0.
    check(plan(seed(), 2070, -4), target: 0, item: 0, projected: 74)
    // Slow: v = 0.1 from 100: 149.9, fractional index 0.65: card 1.
    check(plan(seed(), 100, 0.1), target: 230, item: 1, projected: 149.9)
  }

  func testDirectionalBiasesFastFlicksTowardTheNextCard() {
    let fast = SnapConfiguration.fast
    // v = 0.4 ≥ 0.3: p = 39.6, index 39.6 / 230 = 0.172 + 0.35 = 0.522 → card 1.
    check(plan(seed(.directional, rate: fast), 0, 0.4), target: 230, item: 1, projected: 39.6)
    // The same release with `nearest` stays on card 0.
    check(plan(seed(.nearest, rate: fast), 0, 0.4), target: 0, item: 0)
    // Slow (0.29 < 0.3): p = 28.71, index 0.125, no bias → card 0.
    check(plan(seed(.directional, rate: fast), 0, 0.29), target: 0, item: 0)
    // Reversed: from 300 (index 1.304) at −0.4: p = 260.4, index 1.132 − 0.35
    // = 0.782 → card 1 (nearest alone would also pick 1); at −1: p = 201,
    // index 0.874 − 0.35 = 0.524 → card 1; at −1.2: p = 181.2, index 0.788
    // − 0.35 = 0.438 → card 0.
    check(plan(seed(.directional, rate: fast), 300, -0.4), target: 230, item: 1)
    check(plan(seed(.directional, rate: fast), 300, -1), target: 230, item: 1)
    check(plan(seed(.directional, rate: fast), 300, -1.2), target: 0, item: 0)
    // A fast normal-rate flick: 10 + 499 = 509, index 2.213 + 0.35 → card 3.
    check(plan(seed(.directional), 10, 1), target: 690, item: 3)
  }

  func testPagingMovesAtMostMaxItemsAndAtLeastOne() {
    // A long fling (p = 1996, index 8.68) from card 0 moves one card…
    check(plan(seed(.paging), 0, 4), target: 230, item: 1)
    // …or three with maxItems 3.
    check(plan(seed(.paging, maxItems: 3), 0, 4), target: 690, item: 3)
    // A short fast flick (fast rate: p = 29.7, index 0.13) still moves one.
    check(plan(seed(.paging, rate: SnapConfiguration.fast), 0, 0.3), target: 230, item: 1)
    // Reversed: dragged from card 1 to 300 (index 1.304), flung back at −2:
    // base ⌈1.304⌉ = 2, so card 1; with maxItems 3, p = 0 (index 0) → card 0.
    check(plan(seed(.paging), 300, -2), target: 230, item: 1)
    check(plan(seed(.paging, maxItems: 3), 300, -2), target: 0, item: 0)
    // Slow (0.1): the card nearest the current offset, 300 → card 1.
    check(plan(seed(.paging), 300, 0.1), target: 230, item: 1)
  }

  func testFreeAndFreeEdges() {
    // free: p = 100 + 0.5·499 = 349.5 stands; card 2 (460) is 110.5 away, card 1 119.5.
    let p = plan(seed(.free), 100, 0.5)
    XCTAssertEqual(p.targetContentOffset.x, 349.5, accuracy: 1e-9)
    XCTAssertEqual(p.targetItem?.item, 2)
    XCTAssertEqual(p.policy, .free)
    // A left contentInset of 100 opens offsets down to −100, before card 0's
    // rest offset 0. p = 0 − 0.1·499 = −49.9.
    let inset = Insets(top: 0, left: 100, bottom: 0, right: 0)
    check(plan(seed(inset: inset), 0, -0.1), target: 0, item: 0)
    let free = plan(seed(edges: .free, inset: inset), 0, -0.1)
    XCTAssertEqual(free.targetContentOffset.x, -49.9, accuracy: 1e-9)
    XCTAssertEqual(free.targetItem?.item, 0)
    // Far past the start the target is the end of the range itself.
    XCTAssertEqual(plan(seed(edges: .free, inset: inset), 0, -3).targetContentOffset.x, -100)
  }

  func testTrajectoryEndsExactlyAtTheTargetAndIsMonotone() {
    // Directional, fast rate, from 0 at 0.4 → 230 (Δ = 230). Settled at
    // T = ln(0.5 / 230) / ln 0.99 = 610.05 ms: 7 frames of 100 ms.
    // Samples 230·(1 − 0.99^(100 i)): 0, 145.8126, 199.1847, 218.7206,
    // 225.8714, 228.4888, 229.4468, then 230 exactly.
    let p = seed(.directional, rate: SnapConfiguration.fast).scrollPlan(
      contentOffset: .zero, velocity: Point(x: 0.4, y: 0), frameInterval: 100)
    XCTAssertEqual(p.durationMs, 700)
    let xs = p.trajectory.map(\.x)
    let expected = [
      0, 145.81256150715728, 199.18467478266882, 218.72059436360428,
      225.8713727467396, 228.48878890024466, 229.44684786299845, 230,
    ]
    XCTAssertEqual(xs.count, expected.count)
    for (a, b) in zip(xs, expected) { XCTAssertEqual(a, b, accuracy: 1e-9) }
    XCTAssertEqual(xs.last, 230)
    XCTAssertTrue(p.trajectory.allSatisfy { $0.y == 0 })
    // Monotone for every policy and direction, ending exactly on target.
    for policy in SnapPolicy.allCases {
      for (x, v) in [(0.0, 4.0), (2070, -4), (300, -0.4), (1000, 0.05), (460, 0)] {
        let q = plan(seed(policy), x, v)
        let t = q.trajectory.map(\.x)
        XCTAssertEqual(q.trajectory.last, q.targetContentOffset)
        XCTAssertEqual(t.first, x)
        let rising = q.targetContentOffset.x >= x
        for i in 1..<max(t.count, 1) {
          XCTAssertTrue(rising ? t[i] >= t[i - 1] : t[i] <= t[i - 1], "\(policy) \(x) \(v)")
        }
        XCTAssertEqual(q.durationMs, Double(t.count - 1) * 1000 / 60, accuracy: 1e-9)
      }
    }
    // Already at rest on a card: one sample, no time.
    let still = plan(seed(), 460, 0)
    XCTAssertEqual(still.trajectory, [Point(x: 460, y: 0)])
    XCTAssertEqual(still.durationMs, 0)
  }

  func testRTLPlansMirror() {
    // rtl offsets run from 0 down to −2070; card k rests at −230k, and a
    // negative velocity moves toward later cards.
    // nearest: −100 − 0.5·499 = −349.5 → mirrored 349.5 → card 2 (460 is 110.5 away).
    check(plan(seed(rtl: true), -100, -0.5), target: -460, item: 2, projected: -349.5)
    // paging: a fling at −4 from 0 moves exactly one card, to −230.
    check(plan(seed(.paging, rtl: true), 0, -4), target: -230, item: 1)
    // directional reversed: from −300 at +1 (fast): p = −201, index 0.874 − 0.35 → card 1.
    check(
      plan(seed(.directional, rate: SnapConfiguration.fast, rtl: true), -300, 1), target: -230,
      item: 1)
  }

  func testScrollToItem() {
    let layout = seed()
    func at(_ item: Int, _ position: ItemPosition, _ l: Layout? = nil) -> Point? {
      (l ?? layout).contentOffset(
        for: IndexPath(section: 0, item: item), position: position, crossOffset: 0)
    }
    // Card 4 spans 1007.5…1207.5 (centre 1107.5).
    XCTAssertEqual(at(4, .center), Point(x: 920, y: 0))
    XCTAssertEqual(at(4, .leading), Point(x: 1007.5, y: 0))
    XCTAssertEqual(at(4, .trailing), Point(x: 1207.5 - 375, y: 0))
    // Clamped: card 0's trailing edge 287.5 − 375 < 0; card 9's leading 2157.5 > 2070.
    XCTAssertEqual(at(0, .trailing), Point(x: 0, y: 0))
    XCTAssertEqual(at(9, .leading), Point(x: 2070, y: 0))
    XCTAssertNil(at(10, .center))
    // After scrolling there, the centred item is the one asked for.
    let b = Rect(origin: at(7, .center)!, size: viewport)
    XCTAssertEqual(layout.centeredItem(in: b), IndexPath(section: 0, item: 7))
    // rtl: card 4 rests at −920; its leading (right) edge at the right of the viewport.
    let rtl = seed(rtl: true)
    XCTAssertEqual(at(4, .center, rtl), Point(x: -920, y: 0))
    // Mirrored, card 4 spans 375 − 1207.5 = −832.5 … −632.5: leading (right)
    // edge −632.5 at the viewport's right edge: x = −632.5 − 375 = −1007.5.
    XCTAssertEqual(at(4, .leading, rtl), Point(x: -1007.5, y: 0))
    XCTAssertEqual(at(4, .trailing, rtl), Point(x: -832.5, y: 0))
  }

  func testVerticalVariableSizesSnapAndScrollToItem() {
    // Heights 100, 300, 200 in a 300×400 viewport, spacing 20: insets
    // (400 − 100) / 2 = 150 and (400 − 200) / 2 = 100; centres 200, 420,
    // 690; rest offsets 0, 220, 490 = the end of the range (890 − 400).
    var c = CoverFlowConfiguration()
    c.flow.scrollDirection = .vertical
    let sizes = [100.0, 300, 200].map { Size(width: 150, height: $0) }
    let layout = Layout(
      type: .coverFlow(c), sections: [.sizes(sizes)], viewportSize: Size(width: 300, height: 400))
    XCTAssertEqual(layout.contentSize, Size(width: 300, height: 890))
    XCTAssertEqual(
      layout.contentOffset(for: IndexPath(section: 0, item: 1), position: .center, crossOffset: 0),
      Point(x: 0, y: 220))
    // p = 0 + 0.7·499 = 349.3: 490 is 140.7 away, 220 is 129.3: card 1.
    let p = layout.scrollPlan(contentOffset: .zero, velocity: Point(x: 0, y: 0.7))
    XCTAssertEqual(p.targetContentOffset, Point(x: 0, y: 220))
    XCTAssertEqual(p.targetItem?.item, 1)
    // Each card centred across by its own width: x = 150 for all.
    let a = layout.attributesForItem(
      IndexPath(section: 0, item: 1), bounds: Rect(x: 0, y: 220, width: 300, height: 400))!
    XCTAssertEqual(a.center, Point(x: 150, y: 420))
    XCTAssertEqual(a.frame, Rect(x: 75, y: 270, width: 150, height: 300))
  }
}
