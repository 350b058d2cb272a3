import XCTest

@testable import LayoutEngine

/// The seed carousel (HWCoverFlowLayout): 10 cards of 200×300, spacing 30,
/// factor 0.5, minimum 0.6, in a 375×300 viewport. By hand: the insets are
/// (375 − 200) / 2 = 87.5, card i's centre is at 187.5 + 230·i, and
/// scale = max(0.6, 1 − 0.5·d / 375).
final class CoverFlowTests: XCTestCase {
  let viewport = Size(width: 375, height: 300)

  func seed(_ count: Int = 10) -> Layout {
    var c = CoverFlowConfiguration()
    c.flow.minimumLineSpacing = 30
    c.scale.factor = 0.5
    return Layout(type: .coverFlow(c), sections: [.uniform(count)], viewportSize: viewport)
  }

  func bounds(_ x: Double) -> Rect { Rect(x: x, y: 0, width: 375, height: 300) }

  func testContentSizeLetsFirstAndLastCardReachTheCentre() {
    let layout = seed()
    XCTAssertEqual(layout.contentSize, Size(width: 87.5 * 2 + 2000 + 270, height: 300))
    XCTAssertEqual(layout.offsetRange.max.x, 2445 - 375)
    // At the last offset, the last card's centre is the viewport's centre.
    let last = layout.attributesForItem(IndexPath(section: 0, item: 9), bounds: bounds(2070))!
    XCTAssertEqual(last.center.x, 2070 + 187.5)
    XCTAssertEqual(last.transform, .identity)
  }

  func testScalesFramesAndZIndexAtOffsetZero() {
    let a = seed().attributes(in: bounds(0), bounds: bounds(0))
    XCTAssertEqual(a.map(\.item), [0, 1])
    XCTAssertEqual(a[0].frame, Rect(x: 87.5, y: 0, width: 200, height: 300))
    XCTAssertEqual(a[0].zIndex, 0)
    // d = 230: s = 1 − 0.5 · 230 / 375 = 0.69333…; the frame shrinks about the centre.
    let s = 1 - 0.5 * 230 / 375
    XCTAssertEqual(a[1].center, Point(x: 417.5, y: 150))
    XCTAssertEqual(a[1].transform, .scale(s, s))
    XCTAssertEqual(a[1].frame.width, 200 * s, accuracy: 1e-9)
    XCTAssertEqual(a[1].frame.minX, 417.5 - 100 * s, accuracy: 1e-9)
    XCTAssertEqual(a[1].frame.minY, 150 - 150 * s, accuracy: 1e-9)
    XCTAssertEqual(a[1].zIndex, -(230 * 2 + 1))
  }

  func testMinimumScaleClampsFarCards() {
    // At x = 100, card 2 (centre 647.5) is 360 from the centre 287.5:
    // 1 − 0.5 · 360 / 375 = 0.52 → clamped to 0.6.
    let layout = seed()
    let a = layout.attributesForItem(IndexPath(section: 0, item: 2), bounds: bounds(100))!
    XCTAssertEqual(a.transform, .scale(0.6, 0.6))
    XCTAssertEqual(a.zIndex, -(360 * 2 + 1))
    // Card 0 at d = 100: left of centre, so its zIndex tie-break adds nothing.
    let b = layout.attributesForItem(IndexPath(section: 0, item: 0), bounds: bounds(100))!
    XCTAssertEqual(b.zIndex, -200)
  }

  func testCellsAreCentredAcrossEvenWhenTallerThanTheViewport() {
    var c = CoverFlowConfiguration()
    c.flow.itemSize = Size(width: 200, height: 500)
    let layout = Layout(type: .coverFlow(c), sections: [.uniform(3)], viewportSize: viewport)
    let a = layout.attributesForItem(IndexPath(section: 0, item: 1), bounds: bounds(0))!
    XCTAssertEqual(a.center.y, 150)
    XCTAssertEqual(a.size, Size(width: 200, height: 500))
    XCTAssertEqual(layout.contentSize.height, 300)
  }

  func testOneRowWhateverTheViewportHeight() {
    var c = CoverFlowConfiguration()
    c.flow.itemSize = Size(width: 100, height: 50)
    let layout = Layout(
      type: .coverFlow(c), sections: [.uniform(4)], viewportSize: Size(width: 375, height: 600))
    let xs = (0..<4).map { layout.geometry.frameForItem(IndexPath(section: 0, item: $0)).midX }
    // Inset (375 − 100) / 2 = 137.5, pitch 120.
    XCTAssertEqual(xs, [187.5, 307.5, 427.5, 547.5])
  }

  func testClientSpacingAndInsetWin() {
    var c = CoverFlowConfiguration()
    c.flow.minimumLineSpacing = 50
    c.sectionInset = Insets(top: 0, left: 10, bottom: 0, right: 10)
    let layout = Layout(type: .coverFlow(c), sections: [.uniform(2)], viewportSize: viewport)
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: 1)).minX, 260)
    XCTAssertEqual(layout.contentSize.width, 10 + 200 + 50 + 200 + 10)
  }

  func testVariedWidthsCentreFirstAndLastCardByTheirOwnSize() {
    let sizes = [Size(width: 100, height: 100), Size(width: 300, height: 200)]
    let layout = Layout(
      type: .coverFlow(CoverFlowConfiguration()), sections: [.sizes(sizes)],
      viewportSize: viewport)
    // Leading inset (375 − 100) / 2 = 137.5, trailing (375 − 300) / 2 = 37.5.
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: 0)).midX, 187.5)
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: 1)).minX, 257.5)
    XCTAssertEqual(layout.contentSize.width, 137.5 + 100 + 20 + 300 + 37.5)
    XCTAssertEqual(layout.offsetRange.max.x, 595 - 375)
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: 1)).midX, 220 + 187.5)
  }

  func testSnapPutsNearestCardAtTheCentre() {
    let layout = seed()
    // Proposed x = 100: centre 287.5; card 0 is 100 away, card 1 is 130: card 0.
    var (offset, item) = layout.targetContentOffset(proposed: Point(x: 100, y: 0))
    XCTAssertEqual(offset, Point(x: 0, y: 0))
    XCTAssertEqual(item, IndexPath(section: 0, item: 0))
    (offset, item) = layout.targetContentOffset(proposed: Point(x: 120, y: 0))
    XCTAssertEqual(offset, Point(x: 230, y: 0))
    XCTAssertEqual(item?.item, 1)
    // Far beyond the visible cards (the seeds only looked at visible ones).
    (offset, item) = layout.targetContentOffset(proposed: Point(x: 1500, y: 0))
    // Centre 1687.5; card 7 at 1797.5 (110 away), card 6 at 1567.5 (120 away).
    XCTAssertEqual(item?.item, 7)
    XCTAssertEqual(offset.x, 1610)
    // Beyond the end: clamped, and the last card is centred.
    (offset, item) = layout.targetContentOffset(proposed: Point(x: 5000, y: 0))
    XCTAssertEqual(item?.item, 9)
    XCTAssertEqual(offset.x, 2070)
  }

  func testCenteredItemTieGoesToTheEarlierCard() {
    // x = 115: centre 302.5 is 115 from both card 0 and card 1.
    XCTAssertEqual(seed().centeredItem(in: bounds(115)), IndexPath(section: 0, item: 0))
    XCTAssertNil(seed(0).centeredItem(in: bounds(0)))
  }

  func testCurves() {
    XCTAssertEqual(Curve(peak: 1, factor: 0.4, minimum: 0.6).value(at: 0.5), 0.8, accuracy: 1e-12)
    XCTAssertEqual(Curve(peak: 1, factor: 0.4, minimum: 0.6).value(at: 2), 0.6)
    XCTAssertEqual(Curve(shape: .reciprocal, peak: 1, factor: 0.0009).value(at: 1000), 1 / 1.9)
    XCTAssertEqual(Curve(peak: 1.1, factor: 1).value(at: 0.25), 0.85, accuracy: 1e-12)
    XCTAssertEqual(Curve(peak: 2, factor: 1, maximum: 1.5).value(at: 0), 1.5)
  }

  func testScaleAboveOneReachesIntoTheRect() {
    var c = CoverFlowConfiguration()
    c.scale = Curve(peak: 1.5, factor: 0)
    let layout = Layout(type: .coverFlow(c), sections: [.uniform(3)], viewportSize: viewport)
    // Card 0's frame grows to x 37.5…337.5, so a rect at x 20…40 sees it.
    let a = layout.attributes(in: Rect(x: 20, y: 0, width: 20, height: 10), bounds: bounds(0))
    XCTAssertEqual(a.map(\.item), [0])
    XCTAssertEqual(a[0].frame, Rect(x: 37.5, y: -75, width: 300, height: 450))
  }

  func testVerticalCarousel() {
    var c = CoverFlowConfiguration()
    c.flow.scrollDirection = .vertical
    c.flow.itemSize = Size(width: 200, height: 100)
    let v = Size(width: 300, height: 400)
    let layout = Layout(type: .coverFlow(c), sections: [.uniform(5)], viewportSize: v)
    // Leading inset (400 − 100) / 2 = 150, pitch 120; centred across at x = 150.
    let a = layout.attributesForItem(
      IndexPath(section: 0, item: 2), bounds: Rect(x: 0, y: 240, width: 300, height: 400))!
    XCTAssertEqual(a.center, Point(x: 150, y: 440))
    XCTAssertEqual(a.transform, .identity)
    let (offset, item) = layout.targetContentOffset(proposed: Point(x: 0, y: 300))
    XCTAssertEqual(item?.item, 2)
    XCTAssertEqual(offset, Point(x: 0, y: 240))
  }
}
