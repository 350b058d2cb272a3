import XCTest

@testable import LayoutEngine

typealias IndexPath = LayoutEngine.IndexPath

/// Expected frames below are worked out by hand from the rules in
/// protocol.md ("Flow geometry").
final class FlowGeometryTests: XCTestCase {
  func frames(_ layout: Layout) -> [IndexPath: Rect] {
    var out: [IndexPath: Rect] = [:]
    for (s, section) in layout.sections.enumerated() {
      for i in 0..<section.count {
        out[IndexPath(section: s, item: i)] = layout.geometry.frameForItem(
          IndexPath(section: s, item: i))
      }
    }
    return out
  }

  func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
    Rect(x: x, y: y, width: w, height: h)
  }

  func testVerticalUniformGridWithPartialLastRow() {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 100, height: 50)
    // 3 × 100 + 2 × 10 = 320 fits exactly: 3 per row, gap (320 − 300) / 2 = 10.
    let layout = Layout(
      type: .flow(c), sections: [.uniform(7)], viewportSize: Size(width: 320, height: 480))
    let f = frames(layout)
    XCTAssertEqual(f[IndexPath(section: 0, item: 0)], r(0, 0, 100, 50))
    XCTAssertEqual(f[IndexPath(section: 0, item: 2)], r(220, 0, 100, 50))
    XCTAssertEqual(f[IndexPath(section: 0, item: 4)], r(110, 60, 100, 50))
    // The last row lines up with the columns above.
    XCTAssertEqual(f[IndexPath(section: 0, item: 6)], r(0, 120, 100, 50))
    XCTAssertEqual(layout.contentSize, Size(width: 320, height: 170))
  }

  func testSectionInsetNarrowsTheLineAndJustifies() {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 100, height: 50)
    c.sectionInset = Insets(top: 5, left: 10, bottom: 15, right: 10)
    // avail = 300: three need 320, so two per row; gap = 300 − 200 = 100.
    let layout = Layout(
      type: .flow(c), sections: [.uniform(5)], viewportSize: Size(width: 320, height: 480))
    let f = frames(layout)
    XCTAssertEqual(f[IndexPath(section: 0, item: 0)], r(10, 5, 100, 50))
    XCTAssertEqual(f[IndexPath(section: 0, item: 1)], r(210, 5, 100, 50))
    XCTAssertEqual(f[IndexPath(section: 0, item: 3)], r(210, 65, 100, 50))
    XCTAssertEqual(f[IndexPath(section: 0, item: 4)], r(10, 125, 100, 50))
    XCTAssertEqual(layout.contentSize, Size(width: 320, height: 5 + 170 + 15))
  }

  func testHorizontalUniformGridFillsColumnsTopToBottom() {
    var c = FlowConfiguration()
    c.scrollDirection = .horizontal
    c.itemSize = Size(width: 50, height: 60)
    c.minimumLineSpacing = 20
    // D = 200 − 10 − 10 (contentInset) = 180: 60 + 10 + 60 = 130, + 70 = 200 > 180,
    // so two per column, gap = 180 − 120 = 60.
    let layout = Layout(
      type: .flow(c), sections: [.uniform(5)],
      contentInset: Insets(top: 10, left: 0, bottom: 10, right: 0),
      viewportSize: Size(width: 300, height: 200))
    let f = frames(layout)
    XCTAssertEqual(f[IndexPath(section: 0, item: 0)], r(0, 0, 50, 60))
    XCTAssertEqual(f[IndexPath(section: 0, item: 1)], r(0, 120, 50, 60))
    XCTAssertEqual(f[IndexPath(section: 0, item: 2)], r(70, 0, 50, 60))
    XCTAssertEqual(f[IndexPath(section: 0, item: 4)], r(140, 0, 50, 60))
    XCTAssertEqual(layout.contentSize, Size(width: 190, height: 180))
  }

  func testVariedWidthsJustifyCentreAndLeadingAlignLastLine() {
    var c = FlowConfiguration()
    let sizes = [
      Size(width: 100, height: 40), Size(width: 100, height: 60), Size(width: 50, height: 40),
      Size(width: 200, height: 30), Size(width: 120, height: 40), Size(width: 80, height: 20),
    ]
    c.minimumInteritemSpacing = 10
    c.minimumLineSpacing = 5
    let layout = Layout(
      type: .flow(c), sections: [.sizes(sizes)], viewportSize: Size(width: 300, height: 500))
    let f = frames(layout)
    // Line 1: 100 + 10 + 100 + 10 + 50 = 270 ≤ 300; adding 200 would not fit.
    // Justified: gap = (300 − 250) / 2 = 25. Thickness 60; 40-tall items at y = 10.
    XCTAssertEqual(f[IndexPath(section: 0, item: 0)], r(0, 10, 100, 40))
    XCTAssertEqual(f[IndexPath(section: 0, item: 1)], r(125, 0, 100, 60))
    XCTAssertEqual(f[IndexPath(section: 0, item: 2)], r(250, 10, 50, 40))
    // Line 2 starts at 65: 200 alone (200 + 10 + 120 > 300), centred at x = 50.
    XCTAssertEqual(f[IndexPath(section: 0, item: 3)], r(50, 65, 200, 30))
    // Line 3 at 100, thickness 40: the last line is leading-aligned, spacing 10.
    XCTAssertEqual(f[IndexPath(section: 0, item: 4)], r(0, 100, 120, 40))
    XCTAssertEqual(f[IndexPath(section: 0, item: 5)], r(130, 110, 80, 20))
    XCTAssertEqual(layout.contentSize, Size(width: 300, height: 140))
  }

  func testLoneLastItemOfVariedSectionIsLeadingAligned() {
    let sizes = [Size(width: 100, height: 40), Size(width: 60, height: 40)]
    var c = FlowConfiguration()
    c.minimumInteritemSpacing = 50
    // 100 + 50 + 60 = 210 > 200: two lines; the last holds one item at x = 0.
    let layout = Layout(
      type: .flow(c), sections: [.sizes(sizes)], viewportSize: Size(width: 200, height: 500))
    let f = frames(layout)
    XCTAssertEqual(f[IndexPath(section: 0, item: 0)], r(50, 0, 100, 40))
    XCTAssertEqual(f[IndexPath(section: 0, item: 1)], r(0, 50, 60, 40))
  }

  func testOversizeItemSitsAloneAtLeadingInset() {
    var c = FlowConfiguration()
    c.sectionInset = Insets(top: 0, left: 8, bottom: 0, right: 8)
    let sizes = [
      Size(width: 50, height: 50), Size(width: 400, height: 100), Size(width: 50, height: 50),
    ]
    let layout = Layout(
      type: .flow(c), sections: [.sizes(sizes)], viewportSize: Size(width: 300, height: 500))
    let f = frames(layout)
    // avail = 284. Item 0 alone (50 + 10 + 400 > 284), centred: 8 + 117.
    XCTAssertEqual(f[IndexPath(section: 0, item: 0)], r(125, 0, 50, 50))
    XCTAssertEqual(f[IndexPath(section: 0, item: 1)], r(8, 60, 400, 100))
    XCTAssertEqual(f[IndexPath(section: 0, item: 2)], r(8, 170, 50, 50))
  }

  func testSectionsHeadersFootersOverridesAndEmptySection() {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 90, height: 40)
    c.headerReferenceSize = Size(width: 999, height: 30)  // width ignored when vertical
    c.footerReferenceSize = Size(width: 0, height: 20)
    c.sectionInset = Insets(top: 10, left: 0, bottom: 10, right: 0)
    var s1 = Section.uniform(0)
    s1.headerSize = Size(width: 0, height: 15)
    var s2 = Section.uniform(3)
    s2.inset = Insets(top: 4, left: 20, bottom: 6, right: 20)
    s2.minimumInteritemSpacing = 0
    s2.footerSize = .zero
    let layout = Layout(
      type: .flow(c), sections: [.uniform(4), s1, s2], viewportSize: Size(width: 300, height: 600))
    // Section 0: header 0–30, inset 10, rows at 40 and 90 (3 per row, gap 15), inset 10,
    // footer 140–160.
    XCTAssertEqual(
      layout.attributesForSupplementary(.header, section: 0, bounds: .zero)?.frame, r(0, 0, 300, 30)
    )
    let f = frames(layout)
    XCTAssertEqual(f[IndexPath(section: 0, item: 1)], r(105, 40, 90, 40))
    XCTAssertEqual(f[IndexPath(section: 0, item: 3)], r(0, 90, 90, 40))
    XCTAssertEqual(
      layout.attributesForSupplementary(.footer, section: 0, bounds: .zero)?.frame,
      r(0, 140, 300, 20))
    // Section 1 (empty): header 160–175, insets 10 + 10, footer 195–215.
    XCTAssertEqual(
      layout.attributesForSupplementary(.header, section: 1, bounds: .zero)?.frame,
      r(0, 160, 300, 15))
    XCTAssertEqual(
      layout.attributesForSupplementary(.footer, section: 1, bounds: .zero)?.frame,
      r(0, 195, 300, 20))
    // Section 2: header 215–245, inset 4, avail 260 holds 2 (180 ≤ 260 < 270), gap 80.
    XCTAssertEqual(f[IndexPath(section: 2, item: 0)], r(20, 249, 90, 40))
    XCTAssertEqual(f[IndexPath(section: 2, item: 1)], r(190, 249, 90, 40))
    XCTAssertEqual(f[IndexPath(section: 2, item: 2)], r(20, 299, 90, 40))
    XCTAssertNil(layout.attributesForSupplementary(.footer, section: 2, bounds: .zero))
    XCTAssertEqual(layout.contentSize, Size(width: 300, height: 339 + 6))
  }

  func testHorizontalHeadersAndFootersUseTheirWidth() {
    var c = FlowConfiguration()
    c.scrollDirection = .horizontal
    c.itemSize = Size(width: 40, height: 40)
    c.headerReferenceSize = Size(width: 25, height: 999)  // height ignored when horizontal
    c.footerReferenceSize = Size(width: 15, height: 999)
    let layout = Layout(
      type: .flow(c), sections: [.uniform(2), .uniform(1)],
      viewportSize: Size(width: 300, height: 100))
    // D = 100: two per column (40 + 10 + 40 = 90 ≤ 100), gap 20.
    // Section 0: header 0–25, column 25–65, footer 65–80.
    let zero = Rect.zero
    XCTAssertEqual(
      layout.attributesForSupplementary(.header, section: 0, bounds: zero)?.frame, r(0, 0, 25, 100))
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: 1)), r(25, 60, 40, 40))
    XCTAssertEqual(
      layout.attributesForSupplementary(.footer, section: 0, bounds: zero)?.frame, r(65, 0, 15, 100)
    )
    // Section 1: header 80–105, a lone item in the phantom-filled column, footer 145–160.
    XCTAssertEqual(
      layout.attributesForSupplementary(.header, section: 1, bounds: zero)?.frame, r(80, 0, 25, 100)
    )
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 1, item: 0)), r(105, 0, 40, 40))
    XCTAssertEqual(
      layout.attributesForSupplementary(.footer, section: 1, bounds: zero)?.frame,
      r(145, 0, 15, 100))
    XCTAssertEqual(layout.contentSize, Size(width: 160, height: 100))
  }

  func testAttributesInRectReturnsDocumentOrder() {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 100, height: 100)
    c.headerReferenceSize = Size(width: 0, height: 10)
    let layout = Layout(
      type: .flow(c), sections: [.uniform(30)], viewportSize: Size(width: 320, height: 200))
    let rect = r(0, 120, 320, 100)  // rows at 10, 120, 230: rows 1 and 2 (230 < 220? no)
    let got = layout.attributes(in: rect, bounds: rect).map { "\($0.kind.rawValue)\($0.item)" }
    XCTAssertEqual(got, ["cell3", "cell4", "cell5"])
  }
}

/// A line of varied sizes is indexed: its items sit at exact sums of the
/// extents before them, so one item of a line of any length is found by
/// descents and a narrow rect by bisection, giving the walk's doubles.
final class IndexedLineTests: XCTestCase {
  /// 80,000 items 0.005, 0.01 or 0.015 wide with no spacing: about 32,000
  /// fill a 320-point line, so two long lines (the first justified) and a
  /// short third.
  func longLines(_ direction: ScrollDirection = .vertical) -> Layout {
    var c = FlowConfiguration()
    c.scrollDirection = direction
    c.minimumInteritemSpacing = 0
    let sizes = (0..<80_000).map { i -> Size in
      let w = Double(1 + i % 3) * 0.005
      return direction == .vertical
        ? Size(width: w, height: Double(10 + i % 5)) : Size(width: Double(10 + i % 5), height: w)
    }
    return Layout(
      type: .flow(c), sections: [.sizes(sizes)],
      viewportSize: direction == .vertical
        ? Size(width: 320, height: 480) : Size(width: 480, height: 320))
  }

  func testOneItemOfALongLineIsTheWalksFrame() {
    for direction in ScrollDirection.allCases {
      let layout = longLines(direction)
      let g = layout.geometry.sections[0]
      XCTAssertEqual(g.lineCount, 3)
      XCTAssertGreaterThan(g.itemRange(ofLine: 0).count, 20_000)
      let everything = layout.attributes(
        in: Rect(x: -10, y: -10, width: 1000, height: 1000),
        bounds: Rect(x: 0, y: 0, width: 320, height: 480))
      XCTAssertEqual(everything.count, 80_000)
      for a in everything where a.item % 997 == 0 || a.item == 79_999 {
        XCTAssertEqual(
          layout.geometry.frameForItem(IndexPath(section: 0, item: a.item)), a.frame,
          "item \(a.item)")
      }
      // The first line is justified: its last item ends at the far edge,
      // within rounding.
      let end = g.itemRange(ofLine: 0).upperBound - 1
      let last = layout.geometry.frameForItem(IndexPath(section: 0, item: end))
      XCTAssertEqual(direction == .vertical ? last.maxX : last.maxY, 320, accuracy: 1e-9)
    }
  }

  func testANarrowRectAndAPointFindTheirItemsByBisection() {
    let layout = longLines()
    let bounds = Rect(x: 0, y: 0, width: 320, height: 480)
    let all = layout.attributes(in: Rect(x: -10, y: -10, width: 1000, height: 1000), bounds: bounds)
    for x in [0.0, 0.004, 57.3, 160, 319.99] {
      let rect = Rect(x: x, y: 0, width: 0.02, height: 1000)
      XCTAssertEqual(
        layout.attributes(in: rect, bounds: bounds), all.filter { $0.frame.intersects(rect) },
        "x = \(x)")
      let point = Point(x: x + 0.001, y: 5)
      // The distance as the query takes it: main (y) first, then across.
      func d(_ a: LayoutAttributes) -> Double {
        let (dm, dc) = (a.center.y - point.y, a.center.x - point.x)
        return (dm * dm + dc * dc).squareRoot()
      }
      let nearest = all.min { d($0) < d($1) || (d($0) == d($1) && $0.item < $1.item) }!
      XCTAssertEqual(
        layout.geometry.nearestItem(to: point, mainAxisOnly: false),
        IndexPath(section: 0, item: nearest.item), "x = \(x)")
    }
  }
}
