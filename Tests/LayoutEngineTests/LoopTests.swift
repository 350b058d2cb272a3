import XCTest

@testable import LayoutEngine

/// Looping carousels, by hand. Cards of 200×300, spacing 30 (pitch 230), a
/// 375×300 viewport. In a loop the section has no inset before its cards
/// and the line spacing after them, so card k of lap L spans
/// 230k + P·L … + 200 with P = 230n; its centre is 100 + 230k + P·L and its
/// rest offset (centre at the viewport's centre 187.5) 230k − 87.5 + P·L.
final class LoopTests: XCTestCase {
  let viewport = Size(width: 375, height: 300)

  func loop(
    _ n: Int, scale: Curve = .constant(1), rtl: Bool = false, policy: SnapPolicy = .nearest,
    rate: Double = SnapConfiguration.normal, viewport: Size? = nil
  ) -> Layout {
    var c = CoverFlowConfiguration()
    c.flow.minimumLineSpacing = 30
    c.scale = scale
    c.loop = true
    c.snap.policy = policy
    c.snap.decelerationRate = rate
    if rtl { c.flow.layoutDirection = .rtl }
    return Layout(
      type: .coverFlow(c), sections: [.uniform(n)], viewportSize: viewport ?? self.viewport)
  }

  func at(_ x: Double, _ size: Size? = nil) -> Rect {
    Rect(origin: Point(x: x, y: 0), size: size ?? viewport)
  }

  /// (item, lap, frame.x) of every cell visible in the bounds at `x`.
  func cells(_ layout: Layout, _ x: Double) -> [[Double]] {
    let b = at(x, layout.viewportSize)
    return layout.attributes(in: b, bounds: b).map {
      [Double($0.item), Double($0.lap ?? -999), $0.frame.x]
    }
  }

  func card(_ item: Int, _ lap: Int) -> Card {
    Card(path: IndexPath(section: 0, item: item), lap: lap)
  }

  func testPeriodIsOneCopyWithTheSpacingThatJoinsCopies() {
    // P = n·200 + n·30: the last card is followed by the spacing to the
    // next copy's first card. contentSize reports one period.
    XCTAssertEqual(loop(10).period, 2300)
    XCTAssertEqual(loop(10).contentSize, Size(width: 2300, height: 300))
    XCTAssertEqual(loop(1).period, 230)
    XCTAssertEqual(loop(2).period, 460)
    // Card 9 of lap −1: 2070 − 2300 = −230, centre −130; across, (300 − 300) / 2 = 0.
    let a = loop(10).attributesForItem(IndexPath(section: 0, item: 9), lap: -1, bounds: at(0))!
    XCTAssertEqual(a.frame, Rect(x: -230, y: 0, width: 200, height: 300))
    XCTAssertEqual(a.lap, -1)
    // Without a lap: the copy nearest the viewport's centre (187.5): lap 0's
    // centre 2170 is 1982.5 away, lap −1's −130 only 317.5.
    XCTAssertEqual(
      loop(10).attributesForItem(IndexPath(section: 0, item: 9), bounds: at(0))!.lap, -1)
    // Offsets are not clamped along the scroll axis.
    XCTAssertEqual(loop(10).clampOffset(Point(x: -5000, y: 40)), Point(x: -5000, y: 0))
  }

  func testAttributesAroundZeroShowTheLastCardsOfTheLapBefore() {
    // 50 cards, P = 11500. Bounds −200…175: lap −1's card 49 at
    // 230·49 − 11500 = −230 (to −30) and lap 0's card 0 at 0; card 48 of
    // lap −1 (−460…−260) and card 1 (230…) are outside.
    let layout = loop(50)
    XCTAssertEqual(cells(layout, -200), [[49, -1, -230], [0, 0, 0]])
    // zIndex: centre −12.5; card 49 lap −1 (centre −130) is 117.5 before it:
    // −2·117 = −234; card 0 (centre 100) 112.5 after: −(2·112 + 1) = −225.
    let b = at(-200)
    XCTAssertEqual(layout.attributes(in: b, bounds: b).map(\.zIndex), [-234, -225])
    XCTAssertEqual(layout.centeredCard(in: b), card(0, 0))
    // Bounds −300…75: card 48 of lap −1 (−460…−260) enters; the centre
    // −112.5 is 17.5 from card 49 of lap −1 (−130).
    XCTAssertEqual(cells(layout, -300), [[48, -1, -460], [49, -1, -230], [0, 0, 0]])
    XCTAssertEqual(layout.centeredCard(in: at(-300)), card(49, -1))
    XCTAssertEqual(layout.centeredItem(in: at(-300)), IndexPath(section: 0, item: 49))
  }

  func testOneAndTwoItemsShowSeveralCopiesOfTheSameItem() {
    // n = 1, P = 230: copies at 230·L. Bounds 0…375: laps 0 and 1 (230…430).
    let one = loop(1)
    XCTAssertEqual(cells(one, 0), [[0, 0, 0], [0, 1, 230]])
    // Bounds −100…275: lap −1 (−230…−30), lap 0 and lap 1 (230 < 275).
    XCTAssertEqual(cells(one, -100), [[0, -1, -230], [0, 0, 0], [0, 1, 230]])
    // The centre 87.5 is 12.5 from lap 0's centre 100.
    XCTAssertEqual(one.centeredCard(in: at(-100)), card(0, 0))
    // A 1000-wide viewport shows five copies: 0, 230, 460, 690, 920.
    let wide = loop(1, viewport: Size(width: 1000, height: 300))
    XCTAssertEqual(
      cells(wide, 0), [[0, 0, 0], [0, 1, 230], [0, 2, 460], [0, 3, 690], [0, 4, 920]])
    // n = 2, P = 460: bounds 300…675 show card 1 (230…430) and the next
    // copy's card 0 (460…660); its card 1 (690) is outside.
    XCTAssertEqual(cells(loop(2), 300), [[1, 0, 230], [0, 1, 460]])
    // Each copy is a distinct element: hit-testing names the lap.
    XCTAssertEqual(one.cardAtPoint(Point(x: 300, y: 10), bounds: at(0)), card(0, 1))
  }

  func check(
    _ p: ScrollPlan, target: Double, _ expected: Card, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertEqual(p.targetContentOffset, Point(x: target, y: 0), file: file, line: line)
    XCTAssertEqual(p.targetItem, expected.path, file: file, line: line)
    XCTAssertEqual(p.targetLap, expected.lap, file: file, line: line)
    XCTAssertEqual(p.trajectory.last, p.targetContentOffset, file: file, line: line)
  }

  func plan(_ layout: Layout, _ x: Double, _ v: Double) -> ScrollPlan {
    layout.scrollPlan(contentOffset: Point(x: x, y: 0), velocity: Point(x: v, y: 0))
  }

  func testSnapCrossesTheSeam() {
    // n = 10: card 9 rests at 1982.5, the next lap's card 0 at 2212.5.
    // At rest at 2150: 62.5 from (0, lap 1), 167.5 from (9, lap 0).
    check(plan(loop(10), 2150, 0), target: 2212.5, card(0, 1))
    // From card 9 at 0.5 pt/ms: p = 1982.5 + 249.5 = 2232, 19.5 from (0, 1).
    let p = plan(loop(10), 1982.5, 0.5)
    check(p, target: 2212.5, card(0, 1))
    XCTAssertEqual(p.projectedContentOffset.x, 2232, accuracy: 1e-9)
    // The trajectory moves monotonically forward across the seam.
    let xs = p.trajectory.map(\.x)
    for i in 1..<xs.count { XCTAssertGreaterThanOrEqual(xs[i], xs[i - 1]) }
    // Paging back from card 0 (−87.5) at −4: index 0, base ⌈0⌉ = 0, so
    // card −1: lap −1's card 9, resting at 1982.5 − 2300 = −317.5.
    check(plan(loop(10, policy: .paging), -87.5, -4), target: -317.5, card(9, -1))
    // Directional, fast rate, from card 9 at 0.4: p = 2022.1, index
    // 9 + 39.6 / 230 = 9.172 + 0.35 → 10: lap 1's card 0.
    check(
      plan(loop(10, policy: .directional, rate: SnapConfiguration.fast), 1982.5, 0.4),
      target: 2212.5, card(0, 1))
    // n = 1 at 40: lap 0 rests at −87.5 (127.5 away), lap 1 at 142.5 (102.5).
    check(plan(loop(1), 40, 0), target: 142.5, card(0, 1))
    // n = 2 at 300: card 1 rests at 142.5 (157.5 away), lap 1's card 0 at 372.5 (72.5).
    check(plan(loop(2), 300, 0), target: 372.5, card(0, 1))
    // rtl mirrors: client offset −v is v left to right, so −2150 → −2212.5.
    check(plan(loop(10, rtl: true), -2150, 0), target: -2212.5, card(0, 1))
  }

  func testScrollToItemTakesTheShortestWayRound() {
    func go(_ layout: Layout, _ item: Int, from x: Double, _ position: ItemPosition = .center)
      -> [Double]
    {
      let t = layout.scrollTarget(
        for: IndexPath(section: 0, item: item), position: position, from: Point(x: x, y: 0))!
      return [t.offset.x, t.offset.y, Double(t.lap!)]
    }
    let ten = loop(10)
    // From card 0 (−87.5): card 9 rests at 1982.5 (2070 away) in lap 0 and
    // at −317.5 (230 away) in lap −1.
    XCTAssertEqual(go(ten, 9, from: -87.5), [-317.5, 0, -1])
    // Card 4: 832.5 (920 away) rather than −1467.5 (1380).
    XCTAssertEqual(go(ten, 4, from: -87.5), [832.5, 0, 0])
    // Card 5 is half a period away either way (1062.5 or −1237.5): forward.
    XCTAssertEqual(go(ten, 5, from: -87.5), [1062.5, 0, 0])
    // Leading edge of card 9: 2070 in lap 0, −230 in lap −1 (142.5 away).
    XCTAssertEqual(go(ten, 9, from: -87.5, .leading), [-230, 0, -1])
    // From lap 1's card 0 (2212.5) back to card 9 of lap 0 (1982.5).
    XCTAssertEqual(go(ten, 9, from: 2212.5), [1982.5, 0, 0])
    // n = 2 from card 0: card 1 is 230 away both ways: forward, 142.5.
    XCTAssertEqual(go(loop(2), 1, from: -87.5), [142.5, 0, 0])
    // n = 1 from 40: lap 1 (142.5) is nearer than lap 0 (−87.5).
    XCTAssertEqual(go(loop(1), 0, from: 40), [142.5, 0, 1])
  }

  func testFarOffsetsReduceIntoOnePeriod() {
    // Default scale, n = 10, P = 2300. At X the reduction is K = ⌊X / P⌋
    // and r = X − K·P:
    //   1e9:  K = 434782,       K·P = 999998600,       r = 1400
    //   −1e9: K = −434783,      K·P = −1000000900,     r = 900
    //   1e14: K = 43478260869,  K·P = 99999999998700,  r = 1300
    //   −1e14: K = −43478260870, K·P = −100000000001000, r = 1000
    // Frames at X are the frames at r moved by K·P, laps moved by K.
    var c = CoverFlowConfiguration()
    c.flow.minimumLineSpacing = 30
    c.loop = true
    let layout = Layout(type: .coverFlow(c), sections: [.uniform(10)], viewportSize: viewport)
    let cases: [(Double, Int, Double)] = [
      (1e9, 434782, 1400), (-1e9, -434783, 900), (1e14, 43_478_260_869, 1300),
      (-1e14, -43_478_260_870, 1000),
    ]
    for (X, K, r) in cases {
      let KP = Double(K) * 2300
      XCTAssertEqual(X - KP, r)
      let far = layout.attributes(in: at(X), bounds: at(X))
      let near = layout.attributes(in: at(r), bounds: at(r))
      XCTAssertEqual(far.count, near.count)
      XCTAssertFalse(near.isEmpty)
      for (a, b) in zip(far, near) {
        XCTAssertEqual(a.item, b.item)
        XCTAssertEqual(a.lap, b.lap.map { $0 + K })
        XCTAssertEqual(a.frame.x, b.frame.x + KP)
        XCTAssertEqual(a.center.x, b.center.x + KP)
        // Up to the rounding of K·P + local: X's ulp (1.2e-7 at 1e9, 1/64 at 1e14).
        XCTAssertEqual(a.frame.x - X, b.frame.x - r, accuracy: abs(X).ulp)
        XCTAssertEqual(a.frame.y, b.frame.y)
        XCTAssertEqual(a.frame.width, b.frame.width)
        XCTAssertEqual(a.transform, b.transform)
        XCTAssertEqual(a.zIndex, b.zIndex)
      }
      let centred = layout.centeredCard(in: at(r))!
      XCTAssertEqual(
        layout.centeredCard(in: at(X)), Card(path: centred.path, lap: centred.lap! + K))
      let p = plan(layout, X, 0)
      let q = plan(layout, r, 0)
      XCTAssertEqual(p.targetContentOffset.x, q.targetContentOffset.x + KP)
      XCTAssertEqual(p.targetLap, q.targetLap.map { $0 + K })
    }
    // At 1e9 (r = 1400) the centre 1587.5 is nearest card 6 (1480; card 7's
    // 1710 is 122.5 away), resting at 1292.5 + 999998600.
    check(plan(layout, 1e9, 0), target: 999_999_892.5, card(6, 434782))
    // scrollToItem 0 from r = 1400: lap 1's card 0 (2212.5, 812.5 away)
    // rather than lap 0's (−87.5, 1487.5): 999998600 + 2212.5.
    let t = layout.scrollTarget(
      for: IndexPath(section: 0, item: 0), position: .center, from: Point(x: 1e9, y: 0))!
    XCTAssertEqual(t.offset, Point(x: 1_000_000_812.5, y: 0))
    XCTAssertEqual(t.lap, 434783)
  }

  func testRTLMirrorsTheLaps() {
    // Mirrored about W = 375: card k of lap L at 375 − (230k + 2300L) − 200
    // = 175 − 230k − 2300L, so lap −1 lies to the right. Bounds 200…575:
    // card 0 (175…375) and lap −1's card 9 (405…605); card 8 of lap −1 is at 635.
    XCTAssertEqual(cells(loop(10, rtl: true), 200), [[9, -1, 405], [0, 0, 175]])
    // Bounds −300…75: card 1 (−55…145) and card 2 (−285…−85); card 0
    // (175…) and card 3 (−515…−315) are outside.
    XCTAssertEqual(cells(loop(10, rtl: true), -300), [[1, 0, -55], [2, 0, -285]])
  }

  func testLoopProblems() {
    XCTAssertNil(loop(10).problem)
    // A linear curve with a negative factor and no maximum grows forever.
    XCTAssertEqual(
      loop(3, scale: Curve(peak: 1, factor: -0.4, minimum: 0.6)).problem, .loop(.unboundedScale))
    XCTAssertNil(loop(3, scale: Curve(shape: .reciprocal, peak: 1, factor: 0.001)).problem)
    // Cards with no extent and no spacing: nothing to repeat over.
    var c = CoverFlowConfiguration()
    c.loop = true
    c.flow.itemSize = Size(width: 0, height: 300)
    c.flow.minimumLineSpacing = 0
    XCTAssertEqual(
      Layout(type: .coverFlow(c), sections: [.uniform(3)], viewportSize: viewport).problem,
      .loop(.period(0)))
    // No items, no period: fine, and empty.
    let empty = Layout(type: .coverFlow(c), sections: [.uniform(0)], viewportSize: viewport)
    XCTAssertNil(empty.problem)
    XCTAssertEqual(empty.attributes(in: at(0), bounds: at(0)), [])
    XCTAssertNil(empty.centeredCard(in: at(0)))
    // Insets of −150 and −100: P = −250 + 3·200 + 2·30 = 410, but card 2's
    // centre is 460 after card 0's: copies would overlap.
    c.flow.itemSize = Size(width: 200, height: 300)
    c.flow.minimumLineSpacing = 30
    c.sectionInset = Insets(top: 0, left: -150, bottom: 0, right: -100)
    XCTAssertEqual(
      Layout(type: .coverFlow(c), sections: [.uniform(3)], viewportSize: viewport).problem,
      .loop(.overlappingCopies))
  }
}
