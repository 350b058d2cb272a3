import XCTest

@testable import LayoutEngine

/// Carousel effects with values worked out by hand. Unless stated, the
/// seed geometry: 200×300 cards, spacing 30 (pitch 230), a 375×300
/// viewport; at offset 0 card k's centre is at (187.5 + 230k, 150).
final class EffectsTests: XCTestCase {
  let viewport = Size(width: 375, height: 300)
  let b0 = Rect(x: 0, y: 0, width: 375, height: 300)

  func carousel(_ count: Int = 10, _ configure: (inout CoverFlowConfiguration) -> Void) -> Layout {
    var c = CoverFlowConfiguration()
    c.flow.minimumLineSpacing = 30
    configure(&c)
    return Layout(type: .coverFlow(c), sections: [.uniform(count)], viewportSize: viewport)
  }

  func item(_ layout: Layout, _ i: Int, _ bounds: Rect? = nil) -> LayoutAttributes {
    layout.attributesForItem(IndexPath(section: 0, item: i), bounds: bounds ?? b0)!
  }

  func assertValues(
    _ t: Transform3D, _ expected: [Double], file: StaticString = #filePath, line: UInt = #line
  ) {
    for (a, b) in zip(t.values, expected) {
      XCTAssertEqual(a, b, accuracy: 1e-12, file: file, line: line)
    }
  }

  // MARK: The seeds, reproduced exactly

  func testSeedHWCoverFlow() {
    // max(0.6, 1 − 0.4·d / W) is the default: card 1 at d = 230:
    // 1 − 0.4·230 / 375 = 0.754666…; card 2 at 460: 0.509… → 0.6.
    let layout = carousel { _ in }
    let s = 1 - 0.4 * 230 / 375
    XCTAssertEqual(item(layout, 1).transform, .scale(s, s))
    XCTAssertEqual(item(layout, 2).transform, .scale(0.6, 0.6))
  }

  func testSeedSwiftCoverFlowReciprocalInPoints() {
    // 003: 235×160 cards, spacing 5, sectionInset 20 left and right, a
    // 375×200 viewport, scale 1 / (1 + 0.0009·d) with d in points. Card 0's
    // centre is 20 + 117.5 = 137.5 (d = 50 from 187.5): 1 / 1.045; card 1's
    // 137.5 + 240 = 377.5 (d = 190): 1 / 1.171. Across: (200 − 160) / 2 = 20.
    var c = CoverFlowConfiguration()
    c.flow.itemSize = Size(width: 235, height: 160)
    c.flow.minimumLineSpacing = 5
    c.flow.minimumInteritemSpacing = 5
    c.sectionInset = Insets(top: 0, left: 20, bottom: 0, right: 20)
    c.scale = Curve(shape: .reciprocal, peak: 1, factor: 0.0009)
    c.distanceUnit = .points
    let layout = Layout(
      type: .coverFlow(c), sections: [.uniform(15)], viewportSize: Size(width: 375, height: 200))
    let b = Rect(x: 0, y: 0, width: 375, height: 200)
    XCTAssertEqual(item(layout, 0, b).transform, .scale(1 / 1.045, 1 / 1.045))
    XCTAssertEqual(item(layout, 1, b).transform, .scale(1 / 1.171, 1 / 1.171))
    XCTAssertEqual(item(layout, 1, b).center, Point(x: 377.5, y: 100))
    // contentSize: 20 + 15·235 + 14·5 + 20 = 3635, as the seed computed it.
    XCTAssertEqual(layout.contentSize.width, 3635)
  }

  func testSeedLineLayoutPeakAboveOne() {
    // 004: 160×160 cards, UIKit's default spacing 10, contentInset 107.5 on
    // both sides (no section inset), a 375×225 viewport, scale 1.1 − d / W.
    // At offset −107.5 card 0 (centre 80) is centred: 1.1; card 1 (centre
    // 250, d = 170): 1.1 − 170 / 375.
    var c = CoverFlowConfiguration()
    c.flow.itemSize = Size(width: 160, height: 160)
    c.flow.minimumLineSpacing = 10
    c.sectionInset = .zero
    c.scale = Curve(peak: 1.1, factor: 1)
    let layout = Layout(
      type: .coverFlow(c), sections: [.uniform(10)],
      contentInset: Insets(top: 0, left: 107.5, bottom: 0, right: 107.5),
      viewportSize: Size(width: 375, height: 225))
    let b = Rect(x: -107.5, y: 0, width: 375, height: 225)
    XCTAssertEqual(item(layout, 0, b).transform, .scale(1.1, 1.1))
    let s = 1.1 - 170.0 / 375
    XCTAssertEqual(item(layout, 1, b).transform, .scale(s, s))
    XCTAssertEqual(layout.offsetRange.min.x, -107.5)
    // The seed snapped to the nearest card among the visible ones; every
    // card is a candidate here: from −107.5 at 1 pt/ms, p = 391.5 → centre
    // 579: card 3 (centre 590) is 11 away → offset 590 − 187.5 = 402.5.
    let p = layout.scrollPlan(contentOffset: Point(x: -107.5, y: 0), velocity: Point(x: 1, y: 0))
    XCTAssertEqual(p.targetItem?.item, 3)
    XCTAssertEqual(p.targetContentOffset.x, 402.5, accuracy: 1e-9)
  }

  // MARK: Tilt

  /// Constant scale 1, tilt 45° at one pitch, perspective 500.
  func tilted(rtl: Bool = false, vertical: Bool = false) -> Layout {
    carousel { c in
      c.scale = .constant(1)
      c.distanceUnit = .pitch
      c.tilt = Tilt(maxAngle: 45, perspective: 500)
      if rtl { c.flow.layoutDirection = .rtl }
      if vertical {
        c.flow.scrollDirection = .vertical
        c.flow.itemSize = Size(width: 300, height: 200)
      }
    }
  }

  func testTiltMatrixAndProjectedFrame() {
    // Card 1 is one pitch right of centre: θ = −45°, c = √½, n = −√½,
    // q = 1/500. M = S·R·P = [c, 0, −n, n·q,  0, 1, 0, 0,  n, 0, c, −c·q,  0, 0, 0, 1].
    let r = 0.5.squareRoot()
    let a = item(tilted(), 1)
    assertValues(a.transform, [r, 0, r, -r / 500, 0, 1, 0, 0, -r, 0, r, -r / 500, 0, 0, 0, 1])
    // Corners: w = 1 − dx·√½ / 500; right edge (dx = 100) w = 0.858579,
    // x = 70.7107 / w = 82.3578, y = ±150 / w = ±174.7074; left edge
    // w = 1.141421, x = −61.9497, y = ±131.4151. The outer edge is nearer.
    XCTAssertEqual(a.frame.minX, 417.5 - 61.94967154964771, accuracy: 1e-9)
    XCTAssertEqual(a.frame.maxX, 417.5 + 82.35783481495383, accuracy: 1e-9)
    XCTAssertEqual(a.frame.minY, 150 - 174.70735044448614, accuracy: 1e-9)
    XCTAssertEqual(a.frame.height, 2 * 174.70735044448614, accuracy: 1e-9)
    // The centred card only carries the perspective (m34 = −1/500).
    assertValues(
      item(tilted(), 0).transform, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1])
    // Half a pitch: 22.5°.
    let half = item(tilted(), 1, Rect(x: 115, y: 0, width: 375, height: 300))
    XCTAssertEqual(half.transform.m.0, cos(22.5 * Double.pi / 180), accuracy: 1e-12)
  }

  func testTiltMirrorsInRTLAndTurnsAboutXWhenVertical() {
    let r = 0.5.squareRoot()
    // rtl: the mirror of the ltr matrix (row 1 and column 1 negated once).
    let a = item(tilted(rtl: true), 1)
    assertValues(a.transform, [r, 0, -r, r / 500, 0, 1, 0, 0, r, 0, r, -r / 500, 0, 0, 0, 1])
    XCTAssertEqual(a.frame.maxX, 375 - 355.5503284503523, accuracy: 1e-9)
    // Vertical, card 1 below the centre: θ = +45° about x, bottom edge nearer:
    // [1, 0, 0, 0,  0, c, n, −n·q,  0, −n, c, −c·q,  0, 0, 0, 1].
    let v = tilted(vertical: true)
    let bv = Rect(x: 0, y: 0, width: 375, height: 300)
    let t = v.attributesForItem(IndexPath(section: 0, item: 1), bounds: bv)!
    assertValues(t.transform, [1, 0, 0, 0, 0, r, r, -r / 500, 0, -r, r, -r / 500, 0, 0, 0, 1])
    // Pitch 230: centre y = 150 + 230; bottom corners w = 1 − 100·√½/500.
    XCTAssertEqual(t.frame.maxY, 380 + r * 100 / (1 - r * 100 / 500), accuracy: 1e-9)
  }

  func testHitTestingUsesTheTiltedOutline() {
    let layout = tilted()
    // Card 1's frame is x 355.55…499.86, y −24.71…324.71, but its top edge
    // runs from (355.55, 18.59) to (499.86, −24.71): at x = 360 it is at
    // y = 17.25. (360, −20) is in the frame but above the outline.
    XCTAssertTrue(item(layout, 1).frame.contains(Point(x: 360, y: -20)))
    XCTAssertNil(layout.itemAtPoint(Point(x: 360, y: -20), bounds: b0))
    XCTAssertEqual(layout.itemAtPoint(Point(x: 360, y: 20), bounds: b0)?.item, 1)
  }

  func testHitTestingOverlappingTiltedCards() {
    // Overlap with 40 visible points and the tilt above: card k is drawn
    // at 187.5 + 40k (X = 40·d in pitches); cards 1 and 2 have card 1's
    // outline shape around 227.5 and 267.5. Card 1's bottom edge runs from
    // (165.55, 281.42) to (309.86, 324.71): slope 0.3.
    let layout = carousel { c in
      c.scale = .constant(1)
      c.distanceUnit = .pitch
      c.tilt = Tilt(maxAngle: 45, perspective: 500)
      c.spacing = .overlap(visibleOffset: 40)
    }
    XCTAssertEqual(item(layout, 1).center, Point(x: 227.5, y: 150))
    XCTAssertEqual(item(layout, 2).center, Point(x: 267.5, y: 150))
    // (280, 150): cards 0 (87.5…287.5), 1 and 2 all contain it; card 0 is on top.
    XCTAssertEqual(layout.itemAtPoint(Point(x: 280, y: 150), bounds: b0)?.item, 0)
    // (300, 310): below card 0; card 1's bottom edge is at 321.75 there,
    // card 2's at 309.75: only card 1.
    XCTAssertEqual(layout.itemAtPoint(Point(x: 300, y: 310), bounds: b0)?.item, 1)
    // (320, 320): inside card 2's frame (y up to 324.71) but below its
    // bottom edge (315.75 at x = 320): nothing.
    XCTAssertTrue(item(layout, 2).frame.contains(Point(x: 320, y: 320)))
    XCTAssertNil(layout.itemAtPoint(Point(x: 320, y: 320), bounds: b0))
  }

  // MARK: Side shift, spacing modes

  func testSideShift() {
    // UPCarousel's sideItemShift 30 in pitches: clamp(40·d, −30, 30).
    let layout = carousel { c in
      c.distanceUnit = .pitch
      c.scale = .constant(1)
      c.sideShift = SideShift(factor: 40, maximum: 30)
    }
    XCTAssertEqual(item(layout, 0).center, Point(x: 187.5, y: 150))
    XCTAssertEqual(item(layout, 1).center, Point(x: 417.5, y: 180))
    // Half a pitch away: 20.
    let b = Rect(x: 115, y: 0, width: 375, height: 300)
    XCTAssertEqual(item(layout, 0, b).center, Point(x: 187.5, y: 170))
    XCTAssertEqual(item(layout, 1, b).frame, Rect(x: 317.5, y: 20, width: 200, height: 300))
  }

  func testFixedSpacingKeepsTheGapToTheCentreCard() {
    // Default scale: card 1 s = 0.754667; it moves in by (1 − s)·100 = 24.5333
    // to 392.9667, so its left edge is 392.9667 − 75.4667 = 317.5: 30 from
    // card 0's right edge at 287.5.
    let layout = carousel { c in c.spacing = .fixed }
    let a = item(layout, 1)
    XCTAssertEqual(a.frame.minX - 287.5, 30, accuracy: 1e-9)
    XCTAssertEqual(a.center.x, 417.5 - (1 - (1 - 0.4 * 230 / 375)) * 100, accuracy: 1e-9)
    // Peak 1.1 (seed 004's curve): s0 = 1.1, s1 = 1.1 − 230/375 = 0.486667;
    // τ = (1.1 − 0.486667)·100 + (1 − 1.1)·200·1 = 41.3333: centre 376.1667,
    // left edge 327.5, 30 from card 0's scaled right edge 187.5 + 110.
    let peak = carousel { c in
      c.spacing = .fixed
      c.scale = Curve(peak: 1.1, factor: 1)
    }
    XCTAssertEqual(item(peak, 1).frame.minX - 297.5, 30, accuracy: 1e-9)
    // Left of the centre the move mirrors: at offset 460 card 1 is as far left.
    let b = Rect(x: 460, y: 0, width: 375, height: 300)
    XCTAssertEqual(
      item(layout, 2, b).frame.minX - item(layout, 1, b).frame.maxX, 30, accuracy: 1e-9)
  }

  func testOverlapLeavesVisibleOffsetOfEachCard() {
    // Default scale (s1 = 0.754667, s2 = 0.6): X = (1 − s)·100 + 40·d_pitch.
    // Card 1: 24.5333 + 40 → right edge 187.5 + 64.5333 + 75.4667 = 327.5,
    // 40 beyond card 0's 287.5; card 2: 40 + 80 → right edge 367.5.
    let layout = carousel { c in c.spacing = .overlap(visibleOffset: 40) }
    XCTAssertEqual(item(layout, 1).frame.maxX, 327.5, accuracy: 1e-9)
    XCTAssertEqual(item(layout, 2).frame.maxX, 367.5, accuracy: 1e-9)
    // Far cards are drawn near: card 9 (s = 0.6) at 40 + 40·9 = 400 right of
    // the centre, x 527.5…647.5 (card 8 ends at 547.5 + 60 = 607.5), so a
    // query at x 640…645 finds it alone (its own frame is at 2157.5).
    let hits = layout.attributes(in: Rect(x: 640, y: 0, width: 5, height: 300), bounds: b0)
    XCTAssertEqual(hits.map(\.item), [9])
  }

  // MARK: Ends

  func testContainEnds() {
    let layout = carousel { c in c.ends = .contain }
    // No inset along the axis: 10·200 + 9·30 = 2270 wide, offsets 0…1895.
    XCTAssertEqual(layout.contentSize.width, 2270)
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: 0)).minX, 0)
    // Card k rests at −87.5 + 230k, clamped: card 0 at 0, card 1 at 142.5.
    var p = layout.scrollPlan(contentOffset: .zero, velocity: .zero)
    XCTAssertEqual(p.targetItem?.item, 0)
    XCTAssertEqual(p.targetContentOffset.x, 0)
    // p = 0.2·499 = 99.8: card 1 (142.5) is 42.7 away, card 0 (0) 99.8.
    p = layout.scrollPlan(contentOffset: .zero, velocity: Point(x: 0.2, y: 0))
    XCTAssertEqual(p.targetContentOffset.x, 142.5)
    // At the far end cards 9 (1982.5) and 8 (1752.5): 9 clamps to 1895.
    p = layout.scrollPlan(contentOffset: Point(x: 1800, y: 0), velocity: Point(x: 1, y: 0))
    XCTAssertEqual(p.targetItem?.item, 9)
    XCTAssertEqual(p.targetContentOffset.x, 1895)
  }

  func testCenterIfFits() {
    func small(_ n: Int) -> Layout {
      carousel(n) { c in
        c.ends = .centerIfFits
        c.flow.itemSize = Size(width: 100, height: 100)
        c.flow.minimumLineSpacing = 20
      }
    }
    // 3 cards: 3·100 + 2·20 = 340 ≤ 375: insets 17.5, no scrolling, card 1 centred.
    let three = small(3)
    XCTAssertEqual(three.contentSize.width, 375)
    XCTAssertEqual(item(three, 1).center.x, 187.5)
    let p = three.scrollPlan(contentOffset: .zero, velocity: Point(x: 3, y: 0))
    XCTAssertEqual(p.targetContentOffset.x, 0)
    XCTAssertEqual(p.targetItem?.item, 1)
    // 4 cards: 460 > 375: `center`, insets (375 − 100) / 2 = 137.5.
    XCTAssertEqual(small(4).contentSize.width, 137.5 * 2 + 460)
  }
}
