import XCTest

@testable import LayoutEngine

/// Pinned headers and footers (rule 10) and right-to-left (rule 11), with
/// expected frames worked out by hand.
final class PinningAndRTLTests: XCTestCase {
  func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
    Rect(x: x, y: y, width: w, height: h)
  }

  /// Two sections of six 100×50 items (two rows of three) under 30-point
  /// headers: section 0 spans 0–140 (header 0–30), section 1 140–280.
  func pinnedLayout(inset: Insets = .zero, footers: Bool = false) -> Layout {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 100, height: 50)
    c.headerReferenceSize = Size(width: 0, height: 30)
    c.sectionHeadersPinToVisibleBounds = true
    if footers {
      c.footerReferenceSize = Size(width: 0, height: 20)
      c.sectionFootersPinToVisibleBounds = true
    }
    return Layout(
      type: .flow(c), sections: [.uniform(6), .uniform(6)], contentInset: inset,
      viewportSize: Size(width: 320, height: 200))
  }

  func headers(_ layout: Layout, at y: Double) -> [Int: Rect] {
    let b = r(0, y, 320, 200)
    var out: [Int: Rect] = [:]
    for a in layout.attributes(in: b, bounds: b) where a.kind == .header {
      out[a.section] = a.frame
      XCTAssertEqual(a.zIndex, 1024)
    }
    return out
  }

  func testPinnedHeadersAtSeveralOffsets() {
    let layout = pinnedLayout()
    XCTAssertEqual(headers(layout, at: 0), [0: r(0, 0, 320, 30), 1: r(0, 140, 320, 30)])
    // Stuck to the top of the viewport.
    XCTAssertEqual(headers(layout, at: 50), [0: r(0, 50, 320, 30), 1: r(0, 140, 320, 30)])
    // Pushed out by the next section: it may not pass 140 − 30 = 110.
    XCTAssertEqual(headers(layout, at: 125), [0: r(0, 110, 320, 30), 1: r(0, 140, 320, 30)])
    // Section 0's header is out of sight; section 1's is stuck at the top.
    XCTAssertEqual(headers(layout, at: 200), [1: r(0, 200, 320, 30)])
    // Past the end it stays in its section: at most 280 − 30 = 250.
    XCTAssertEqual(headers(layout, at: 260), [1: r(0, 250, 320, 30)])
    // attributesForSupplementary agrees.
    XCTAssertEqual(
      layout.attributesForSupplementary(.header, section: 1, bounds: r(0, 200, 320, 200))?.frame,
      r(0, 200, 320, 30))
  }

  func testPinnedHeadersRespectTheTopContentInset() {
    let layout = pinnedLayout(inset: Insets(top: 20, left: 0, bottom: 0, right: 0))
    XCTAssertEqual(headers(layout, at: 50)[0], r(0, 70, 320, 30))
  }

  func testPinnedFootersStickToTheBottom() {
    // Section 0: header 0–30, rows 30–80 and 90–140, footer 140–160.
    let layout = pinnedLayout(footers: true)
    let b = r(0, 0, 320, 100)
    let f = layout.attributesForSupplementary(.footer, section: 0, bounds: b)
    XCTAssertEqual(f?.frame, r(0, 80, 320, 20))
    XCTAssertEqual(f?.zIndex, 1024)
    XCTAssertTrue(layout.attributes(in: b, bounds: b).contains { $0.kind == .footer })
    // Scrolled so the real footer is on screen, it stays where it is.
    XCTAssertEqual(
      layout.attributesForSupplementary(.footer, section: 0, bounds: r(0, 100, 320, 100))?.frame,
      r(0, 140, 320, 20))
  }

  func testUnpinnedHeadersKeepZIndexZero() {
    var c = FlowConfiguration()
    c.headerReferenceSize = Size(width: 0, height: 30)
    let layout = Layout(
      type: .flow(c), sections: [.uniform(1)], viewportSize: Size(width: 100, height: 100))
    let h = layout.attributesForSupplementary(.header, section: 0, bounds: r(0, 50, 100, 100))
    XCTAssertEqual(h?.frame, r(0, 0, 100, 30))
    XCTAssertEqual(h?.zIndex, 0)
  }

  func testRTLVerticalMirrorsWithinTheContentWidth() {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 100, height: 50)
    c.layoutDirection = .rtl
    let layout = Layout(
      type: .flow(c), sections: [.uniform(7)], viewportSize: Size(width: 320, height: 480))
    let b = r(0, 0, 320, 480)
    let frames = layout.attributes(in: b, bounds: b).map(\.frame)
    // Left to right the columns are at 0, 110, 220; mirrored x' = 320 − x − 100.
    XCTAssertEqual(
      frames,
      [
        r(220, 0, 100, 50), r(110, 0, 100, 50), r(0, 0, 100, 50),
        r(220, 60, 100, 50), r(110, 60, 100, 50), r(0, 60, 100, 50),
        r(220, 120, 100, 50),
      ])
    XCTAssertEqual(layout.offsetRange.min, Point(x: 0, y: 0))
    XCTAssertEqual(
      layout.itemAtPoint(Point(x: 300, y: 10), bounds: b), IndexPath(section: 0, item: 0))
  }

  func testRTLHorizontalRunsToNegativeX() {
    var c = FlowConfiguration()
    c.scrollDirection = .horizontal
    c.itemSize = Size(width: 40, height: 40)
    c.layoutDirection = .rtl
    // D = 100: two per column, gap 20; ten columns 50 apart: content 490 wide.
    let layout = Layout(
      type: .flow(c), sections: [.uniform(20)], viewportSize: Size(width: 300, height: 100))
    XCTAssertEqual(layout.contentSize, Size(width: 490, height: 100))
    XCTAssertEqual(layout.offsetRange.min, Point(x: -190, y: 0))
    XCTAssertEqual(layout.offsetRange.max, Point(x: 0, y: 0))
    let start = r(0, 0, 300, 100)
    XCTAssertEqual(
      layout.attributesForItem(IndexPath(section: 0, item: 0), bounds: start)?.frame,
      r(260, 0, 40, 40))
    XCTAssertEqual(
      layout.attributesForItem(IndexPath(section: 0, item: 1), bounds: start)?.frame,
      r(260, 60, 40, 40))
    XCTAssertEqual(
      layout.attributesForItem(IndexPath(section: 0, item: 19), bounds: start)?.frame,
      r(-190, 60, 40, 40))
    // At offset −190 the viewport shows the last columns.
    let end = r(-190, 0, 300, 100)
    let items = layout.attributes(in: end, bounds: end).map(\.item)
    XCTAssertEqual(items.first, 8)
    XCTAssertEqual(items.last, 19)
  }

  func testRTLHorizontalContentNarrowerThanTheViewportStaysAtOffsetZero() {
    var c = FlowConfiguration()
    c.scrollDirection = .horizontal
    c.itemSize = Size(width: 40, height: 40)
    c.layoutDirection = .rtl
    let layout = Layout(
      type: .flow(c), sections: [.uniform(5)], viewportSize: Size(width: 300, height: 100))
    XCTAssertEqual(layout.offsetRange.min.x, 0)
    XCTAssertEqual(layout.offsetRange.max.x, 0)
    XCTAssertEqual(
      layout.attributesForItem(IndexPath(section: 0, item: 4), bounds: r(0, 0, 300, 100))?.frame,
      r(160, 0, 40, 40))
  }

  func testRTLCoverFlowSnapsToNegativeOffsets() {
    var cf = CoverFlowConfiguration()
    cf.flow.minimumLineSpacing = 30
    cf.scale.factor = 0.5
    cf.flow.layoutDirection = .rtl
    let layout = Layout(
      type: .coverFlow(cf), sections: [.uniform(10)], viewportSize: Size(width: 375, height: 300))
    XCTAssertEqual(layout.offsetRange.min.x, -2070)
    XCTAssertEqual(layout.offsetRange.max.x, 0)
    let b = r(0, 0, 375, 300)
    XCTAssertEqual(
      layout.attributesForItem(IndexPath(section: 0, item: 0), bounds: b)?.center.x, 187.5)
    let one = layout.attributesForItem(IndexPath(section: 0, item: 1), bounds: b)!
    XCTAssertEqual(one.center.x, -42.5)
    let s: Double = 1 - 0.5 * 230 / 375
    XCTAssertEqual(one.transform, .scale(s, s))
    let (offset, item) = layout.targetContentOffset(proposed: Point(x: -120, y: 0))
    XCTAssertEqual(offset, Point(x: -230, y: 0))
    XCTAssertEqual(item, IndexPath(section: 0, item: 1))
    XCTAssertEqual(layout.targetContentOffset(proposed: Point(x: -5000, y: 0)).offset.x, -2070)
    XCTAssertEqual(layout.centeredItem(in: r(-460, 0, 375, 300)), IndexPath(section: 0, item: 2))
  }

  func testMirroredTransformNegatesTheXCouplings() {
    var t = Transform3D.identity
    t.m.1 = 0.5  // m12
    t.m.12 = 7  // m41: x translation
    t.m.13 = 3  // m42: y translation
    let m = t.mirroredX
    XCTAssertEqual(m.m.1, -0.5)
    XCTAssertEqual(m.m.12, -7)
    XCTAssertEqual(m.m.13, 3)
    XCTAssertEqual(m.mirroredX, t)
  }
}
