import XCTest

@testable import LayoutEngine

/// Expected frames are worked out by hand from protocol.md's waterfall
/// rules.
final class WaterfallTests: XCTestCase {
  func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
    Rect(x: x, y: y, width: w, height: h)
  }

  func layout(
    width: Double = 320, height: Double = 480, _ sections: [Section],
    _ configure: (inout WaterfallConfiguration) -> Void = { _ in }
  ) -> Layout {
    var c = WaterfallConfiguration()
    configure(&c)
    return Layout(
      type: .waterfall(c), sections: sections, viewportSize: Size(width: width, height: height))
  }

  func frames(_ l: Layout, section s: Int = 0) -> [Rect] {
    (0..<l.sections[s].count).map { l.placement.frameForItem(IndexPath(section: s, item: $0)) }
  }

  func columns(_ l: Layout, section s: Int = 0) -> [Int32] {
    guard let g = l.placement(as: WaterfallGeometry.self) else { return [] }
    return g.sections[s].columns
  }

  func sizes(_ wh: [(Double, Double)]) -> Section {
    .sizes(wh.map { Size(width: $0.0, height: $0.1) })
  }

  func testShortestFirstFillsTheLowestColumnAndFullSpanItemsSpanEveryColumn() {
    // W = 320, 3 columns, spacing 10: colW = (320 − 20) / 3 = 100.
    var full = sizes([(100, 100), (100, 50), (100, 150), (100, 50)])
    guard case .sizes(var list) = full.items else { return XCTFail() }
    list.insert(Size(width: 100, height: 40).fullSpan, at: 4)
    list.insert(Size(width: 50, height: 50), at: 5)
    full.items = .sizes(list)
    let l = layout([full]) { $0.columnCount = 3 }
    XCTAssertEqual(
      frames(l),
      [
        r(0, 0, 100, 100), r(110, 0, 100, 50), r(220, 0, 100, 150),
        // Tops 110, 60, 160: column 1.
        r(110, 60, 100, 50),
        // Full span at max(top) = 160, 40 · 320 / 100 = 128 tall.
        r(0, 160, 320, 128),
        // Every column restarts at 160 + 128 + 10 = 298: column 0.
        r(0, 298, 100, 100),
      ])
    XCTAssertEqual(l.contentSize, Size(width: 320, height: 398))
  }

  func testTiesGoToTheLowestColumnWithinTheTolerance() {
    // Columns of 0.1 + 0.2 and 0.3: equal within 1e-9, so column 0 wins.
    let l = layout(width: 210, [sizes([(100, 0.1), (100, 0.3), (100, 0.2), (100, 5)])]) {
      $0.minimumInteritemSpacing = 0
    }
    // colW = (210 − 10) / 2 = 100; heights as given.
    XCTAssertEqual(columns(l), [0, 1, 0, 0])
  }

  func testManyColumnsGiveTiesWithinTheToleranceToTheEarlierColumn() {
    // 20 columns of width 10 (W = 20 · 10 + 19 · 10 = 390): the placer keeps
    // a tournament tree. The first 20 items take a column each; then column
    // 3 holds 0.1 + 0.2 (a hair above 0.3) and column 7 holds 0.3, the
    // lowest: within the tolerance of it, column 3 comes first and wins,
    // as the two-column case does (and then column 7, once 3 has grown).
    var heights = [Double](repeating: 5, count: 20)
    heights[3] = 0.1
    heights[7] = 0.3
    let raw = (heights + [0.2, 1, 1]).map { Size(width: 10, height: $0) }
    let l = layout(width: 390, [.sizes(raw)]) {
      $0.columnCount = 20
      $0.minimumInteritemSpacing = 0
    }
    XCTAssertEqual(columns(l), (0..<20).map { Int32($0) } + [3, 3, 7])
  }

  func testManyColumnsPickTheFirstLowestColumnAsAScanDoes() {
    // 40 columns of width 10 (W = 40 · 10 + 39 · 10 = 790): with 16 or
    // more the placer keeps a tournament tree. Integer heights keep the
    // model's doubles exact; full-span items level every column now and
    // then. The model scans: the first column whose top is the lowest.
    var g = SplitMix(state: 3)
    var raw: [Size] = []
    for i in 0..<3000 {
      let h = Double(1 + Int(g.next() % 40))
      raw.append(i % 500 == 499 ? Size(width: 10, height: h).fullSpan : Size(width: 10, height: h))
    }
    let l = layout(width: 790, [.sizes(raw)]) {
      $0.columnCount = 40
      $0.minimumInteritemSpacing = 3
    }
    var tops = [Double](repeating: 0, count: 40)
    var want: [Int32] = []
    for size in raw {
      if size.isFullSpan {
        // Scaled to the whole width: 790 / 10 = 79 times as tall.
        let top = tops.max()!
        tops = [Double](repeating: top + size.height * 79 + 3, count: 40)
        want.append(-1)
        continue
      }
      let low = tops.min()!
      let col = tops.firstIndex(of: low)!
      want.append(Int32(col))
      tops[col] += size.height + 3
    }
    XCTAssertEqual(columns(l), want)
    // The same with the scan's tie rule across many equal columns: every
    // item 1 tall goes round the columns in order.
    let ones = layout(
      width: 790, [.sizes(Array(repeating: Size(width: 10, height: 1), count: 100))]
    ) {
      $0.columnCount = 40
      $0.minimumInteritemSpacing = 0
    }
    XCTAssertEqual(columns(ones), (0..<100).map { Int32($0 % 40) })
  }

  func testRenderDirectionsPickColumnsByIndex() {
    let items = sizes([(100, 10), (100, 200), (100, 10), (100, 10), (100, 10)])
    let ltr = layout(width: 320, [items]) {
      $0.columnCount = 3
      $0.itemRenderDirection = .leftToRight
    }
    XCTAssertEqual(columns(ltr), [0, 1, 2, 0, 1])
    // Item 4 goes to column 1 even though it is the tallest.
    XCTAssertEqual(frames(ltr)[4], r(110, 210, 100, 10))
    let rtl = layout(width: 320, [items]) {
      $0.columnCount = 3
      $0.itemRenderDirection = .rightToLeft
    }
    XCTAssertEqual(columns(rtl), [2, 1, 0, 2, 1])
    XCTAssertEqual(frames(rtl)[0], r(220, 0, 100, 10))
  }

  func testPixelScaleFloorsColumnWidthsAndHeights() {
    // W = 101, 2 columns, spacing 10: colW = 45.5 exactly at scale 2; an
    // item 3 × 2 is 45.5 · 2 / 3 = 30.33… tall, floored to 30.
    let two = layout(width: 101, [sizes([(3, 2), (1, 1)])]) { $0.pixelScale = 2 }
    XCTAssertEqual(frames(two), [r(0, 0, 45.5, 30), r(55.5, 0, 45.5, 45.5)])
    // At scale 3: colW = ⌊136.5⌋ / 3 = 45.333…; 3 × 2 is 30.22… → 90 / 3 = 30,
    // and a square item is exactly colW tall (the 1e-9 absorbs the rounding).
    let three = layout(width: 101, [sizes([(3, 2), (1, 1)])]) { $0.pixelScale = 3 }
    let colW = 136.0 / 3
    XCTAssertEqual(frames(three), [r(0, 0, colW, 30), r(colW + 10, 0, colW, colW)])
    // Exact at scale 0.
    let exact = layout(width: 101, [sizes([(3, 2)])])
    XCTAssertEqual(frames(exact)[0].height, 45.5 * 2 / 3)
  }

  func testHeadersFootersInsetsAndPerSectionOverrides() {
    var second = sizes([(10, 10), (10, 20), (10, 10)])
    var o = ColumnOverrides()
    o.columnCount = 3
    o.minimumColumnSpacing = 5
    o.headerHeight = 30
    o.footerHeight = 0
    second.kindFields = o
    second.inset = Insets(top: 1, left: 2, bottom: 3, right: 4)
    second.minimumInteritemSpacing = 0
    let l = layout(width: 300, [sizes([(1, 1), (1, 2)]), second]) {
      $0.headerHeight = 20
      $0.footerHeight = 15
      $0.headerInset = Insets(top: 5, left: 10, bottom: 6, right: 20)
      $0.footerInset = Insets(top: 7, left: 1, bottom: 8, right: 2)
      $0.sectionInset = Insets(top: 10, left: 20, bottom: 30, right: 40)
    }
    // Section 0: header at (10, 5, 300 − 30, 20); y = 5 + 20 + 6 = 31, items
    // at 41; avail = 300 − 60 = 240, colW = (240 − 10) / 2 = 115.
    XCTAssertEqual(
      l.attributesForSupplementary(.header, section: 0, bounds: r(0, 0, 300, 480))?.frame,
      r(10, 5, 270, 20))
    XCTAssertEqual(frames(l, section: 0), [r(20, 41, 115, 115), r(145, 41, 115, 230)])
    // Items end at 271, + 30 inset = 301; footer at (1, 308, 297, 15);
    // section ends at 308 + 15 + 8 = 331.
    XCTAssertEqual(
      l.attributesForSupplementary(.footer, section: 0, bounds: r(0, 0, 300, 480))?.frame,
      r(1, 308, 297, 15))
    // Section 1 from 331: its own header height 30 at 331 + 5; y = 331 + 41
    // = 372, + 1 = 373. avail = 300 − 6 = 294, colW = (294 − 10) / 3.
    XCTAssertEqual(
      l.attributesForSupplementary(.header, section: 1, bounds: r(0, 0, 300, 480))?.frame,
      r(10, 336, 270, 30))
    let colW = (294.0 - 10) / 3
    XCTAssertEqual(
      frames(l, section: 1),
      [
        r(2, 373, colW, colW), r(2 + colW + 5, 373, colW, 2 * colW),
        r(2 + 2 * (colW + 5), 373, colW, colW),
      ])
    // No footer in section 1 (its override is 0): content ends at the
    // tallest column + 3.
    XCTAssertNil(l.attributesForSupplementary(.footer, section: 1, bounds: r(0, 0, 300, 480)))
    XCTAssertEqual(l.contentSize.height, 373 + 2 * colW + 3)
  }

  func testEmptySectionAndMinimumContentHeight() {
    let l = layout([.uniform(0)]) {
      $0.sectionInset = Insets(top: 5, left: 0, bottom: 7, right: 0)
      $0.minimumContentHeight = 600
    }
    XCTAssertEqual(l.contentSize, Size(width: 320, height: 600))
    let tall = layout([.uniform(3)]) {
      $0.minimumContentHeight = 10
      $0.itemSize = Size(width: 10, height: 20)
    }
    // colW = 155, items 310 tall: columns 0, 1, 0.
    XCTAssertEqual(
      frames(tall), [r(0, 0, 155, 310), r(165, 0, 155, 310), r(0, 320, 155, 310)])
    XCTAssertEqual(tall.contentSize, Size(width: 320, height: 630))
  }

  func testHorizontalSwapsTheAxes() {
    // Rows across a height of 210: rowH = 100; an item 50 wide and 100 tall
    // is 50 long along x.
    let l = layout(width: 480, height: 210, [sizes([(50, 100), (100, 50), (100, 100)])]) {
      $0.scrollDirection = .horizontal
      $0.headerHeight = 20
    }
    XCTAssertEqual(frames(l), [r(20, 0, 50, 100), r(20, 110, 200, 100), r(80, 0, 100, 100)])
    XCTAssertEqual(
      l.attributesForSupplementary(.header, section: 0, bounds: r(0, 0, 480, 210))?.frame,
      r(0, 0, 20, 210))
    XCTAssertEqual(l.contentSize, Size(width: 220, height: 210))
  }

  func testRightToLeftMirrorsColumns() {
    let l = layout([sizes([(1, 1), (1, 2)])]) { $0.layoutDirection = .rtl }
    let a = l.attributes(in: r(0, 0, 320, 480), bounds: r(0, 0, 320, 480))
    // Column 0 is on the right: x' = 320 − 0 − 155.
    XCTAssertEqual(a.map(\.frame), [r(165, 0, 155, 155), r(0, 0, 155, 310)])
  }

  func testPinnedHeadersStickWithinTheirSection() {
    let l = layout([.uniform(4), .uniform(4)]) {
      $0.itemSize = Size(width: 10, height: 10)
      $0.headerHeight = 20
      $0.headerInset = Insets(top: 4, left: 0, bottom: 0, right: 0)
      $0.sectionHeadersPinToVisibleBounds = true
    }
    // colW 155: section 0 = header 4…24, items 24…344 (two rows of 155 + 10),
    // section 1 from 344.
    func header(_ s: Int, at y: Double) -> Rect? {
      l.attributesForSupplementary(.header, section: s, bounds: r(0, y, 320, 100))?.frame
    }
    XCTAssertEqual(header(0, at: 0), r(0, 4, 320, 20))
    XCTAssertEqual(header(0, at: 100), r(0, 100, 320, 20))
    // Pushed out by the end of its section: 344 − 20.
    XCTAssertEqual(header(0, at: 330), r(0, 324, 320, 20))
    XCTAssertEqual(header(1, at: 330), r(0, 348, 320, 20))
    let pinned = l.attributes(in: r(0, 100, 320, 100), bounds: r(0, 100, 320, 100))
    XCTAssertEqual(pinned.first?.kind, .header)
    XCTAssertEqual(pinned.first?.zIndex, Layout.pinnedZIndex)
  }

  func testStableKeepsColumnsWherePackedReshuffles() throws {
    let items = sizes([(100, 100), (100, 50), (100, 50), (100, 50)])
    var insert = BatchUpdate()
    insert.insertItems = [
      (IndexPath(section: 0, item: 0), Item(size: Size(width: 100, height: 10)))
    ]
    var packed = layout(width: 210, [items])
    var stable = layout(width: 210, [items]) { $0.placement = .stable }
    XCTAssertEqual(columns(packed), [0, 1, 1, 0])
    XCTAssertEqual(columns(stable), [0, 1, 1, 0])
    packed.apply(try insert.apply(to: packed.sections, uniformSize: packed.type.uniformItemSize))
    stable.apply(try insert.apply(to: stable.sections, uniformSize: stable.type.uniformItemSize))
    // Packed: 10 → c0, 100 → c1, 50 → c0, 50 → c0 (top 80 vs 110), 50 → c1.
    XCTAssertEqual(columns(packed), [0, 1, 0, 0, 1])
    // Stable: the new item takes column 0 at index 0; the others stay.
    XCTAssertEqual(columns(stable), [0, 0, 1, 1, 0])
    XCTAssertEqual(frames(stable)[1], r(0, 20, 100, 100))
    XCTAssertEqual(frames(stable)[4], r(0, 130, 100, 50))
    // A rotation keeps stable columns; reloadData places afresh.
    stable.setViewportSize(Size(width: 410, height: 480))
    XCTAssertEqual(columns(stable), [0, 0, 1, 1, 0])
    stable.setSections(stable.sections)
    XCTAssertEqual(columns(stable), [0, 1, 0, 0, 1])
  }

  func testSwitchingAwayFromWaterfallDropsFullSpanMarks() {
    var l = layout([.sizes([Size(width: 10, height: 20).fullSpan, Size(width: 5, height: 5)])])
    l.setType(.flow(FlowConfiguration()))
    XCTAssertEqual(
      sizesOf(l.sections[0]), [Size(width: 10, height: 20), Size(width: 5, height: 5)])
  }

  func testLargeSectionsRelayoutAsAFullRecompute() throws {
    var g = SplitMix(state: 11)
    func size() -> Size {
      let s = Size(
        width: Double(Int.random(in: 1...300, using: &g)) / 3,
        height: Double(Int.random(in: 1...300, using: &g)) / 7)
      return Int.random(in: 0..<200, using: &g) == 0 ? s.fullSpan : s
    }
    for placement in ColumnPlacement.allCases {
      var l = layout([.sizes((0..<12_000).map { _ in size() }), .uniform(9000)]) {
        $0.columnCount = 3
        $0.placement = placement
      }
      l.appendItems(section: 0, count: 5000, sizes: (0..<5000).map { _ in size() }, ids: nil)
      for at in [16_998, 8191, 4096, 0] {
        var u = BatchUpdate()
        u.insertItems = [(IndexPath(section: 0, item: at), Item(size: size()))]
        u.deleteItems = [IndexPath(section: 0, item: at + 1)]
        l.apply(try u.apply(to: l.sections, uniformSize: l.type.uniformItemSize))
      }
      l.setItemSizes([(IndexPath(section: 1, item: 4500), Size(width: 1, height: 3))])
      let full = Layout(type: l.type, sections: l.sections, viewportSize: l.viewportSize)
      if placement == .packed {
        let all = Rect(x: -1, y: -1, width: 1e4, height: 1e9)
        let b = Rect(origin: .zero, size: l.viewportSize)
        XCTAssertEqual(l.attributes(in: all, bounds: b), full.attributes(in: all, bounds: b))
      }
      // Rect queries against every frame.
      let frames = (0..<2).flatMap { s in
        (0..<l.sections[s].count).map {
          (
            IndexPath(section: s, item: $0),
            l.placement.frameForItem(IndexPath(section: s, item: $0))
          )
        }
      }
      for _ in 0..<20 {
        let r = Rect(
          x: 0, y: Double.random(in: 0...l.contentSize.height, using: &g), width: 320,
          height: 480)
        XCTAssertEqual(
          l.attributes(in: r, bounds: r).filter { $0.kind == .cell }.map(\.indexPath),
          frames.filter { $0.1.intersects(r) }.map(\.0))
      }
    }
  }

  func testSnappingRestsAnItemTopAtTheVisibleTop() {
    // colW 100: items 0 (c0, 0…100), 1 (c1, 0…50), 2 (c1, 60…110), 3 (c0,
    // 110…160), 4 (c1, 120…220), 5 (c0, 170…200); distinct tops 0, 60,
    // 110, 120, 170; content 220 tall in a 100-point viewport: offsets 0…120.
    let items = sizes([(100, 100), (100, 50), (100, 50), (100, 50), (100, 100), (100, 30)])
    var snap = SnapConfiguration()
    let nearest = layout(width: 210, height: 100, [items]) { $0.snap = snap }
    func target(_ l: Layout, _ y: Double) -> (Double, IndexPath?) {
      let t = l.targetContentOffset(proposed: Point(x: 0, y: y))
      return (t.offset.y, t.item)
    }
    XCTAssertTrue(target(nearest, 70) == (60, IndexPath(section: 0, item: 2)))
    XCTAssertTrue(target(nearest, 116) == (120, IndexPath(section: 0, item: 4)))
    // Beyond the end: clamped to 120, where item 4 rests exactly.
    XCTAssertTrue(target(nearest, 150) == (120, IndexPath(section: 0, item: 4)))
    // Paging one top per fling from 0: 60, whatever the projection.
    snap.policy = .paging
    let paging = layout(width: 210, height: 100, [items]) { $0.snap = snap }
    let plan = paging.scrollPlan(contentOffset: .zero, velocity: Point(x: 0, y: 2))
    XCTAssertEqual(plan.targetContentOffset, Point(x: 0, y: 60))
    XCTAssertEqual(plan.targetItem, IndexPath(section: 0, item: 2))
    XCTAssertEqual(plan.trajectory.last, Point(x: 0, y: 60))
    // Without snap a waterfall scrolls freely.
    let free = layout(width: 210, height: 100, [items])
    XCTAssertEqual(free.targetContentOffset(proposed: Point(x: 0, y: 70)).offset.y, 70)
  }

  func testPinnedFootersStickToTheVisibleEnd() {
    let l = layout([.uniform(4)]) {
      $0.itemSize = Size(width: 10, height: 10)
      $0.headerHeight = 20
      $0.footerHeight = 30
      $0.footerInset = Insets(top: 5, left: 0, bottom: 0, right: 0)
      $0.sectionFootersPinToVisibleBounds = true
    }
    // Header 0…20, items 20…340 (155 + 10 + 155), footer at 345.
    func footer(at y: Double) -> Rect? {
      l.attributesForSupplementary(.footer, section: 0, bounds: r(0, y, 320, 100))?.frame
    }
    XCTAssertEqual(footer(at: 300), r(0, 345, 320, 30))
    // Bounds 0…100: the footer sits at the visible end, 100 − 30.
    XCTAssertEqual(footer(at: 0), r(0, 70, 320, 30))
    // Never above its section's header end (20): at −80, 20 − … stays 20.
    XCTAssertEqual(footer(at: -80), r(0, 20, 320, 30))
  }

  func testConfiguringAnyPlacementFieldRelayoutsAsAFullRecompute() {
    // A square viewport keeps the column width whatever the direction;
    // an integral column width keeps it whatever the pixel grid: each
    // change must still re-place, not reuse the old columns.
    let items = sizes([(3, 7), (100, 50), (7, 3), (100, 100), (1, 3)])
    var l = layout(width: 210, height: 210, [items]) { $0.placement = .stable }
    var insert = BatchUpdate()
    insert.insertItems = [
      (IndexPath(section: 0, item: 0), Item(size: Size(width: 100, height: 300)))
    ]
    l.apply(try! insert.apply(to: l.sections, uniformSize: l.type.uniformItemSize))
    for change in [
      { (c: inout WaterfallConfiguration) in c.placement = .packed },
      { (c: inout WaterfallConfiguration) in c.pixelScale = 3 },
      { (c: inout WaterfallConfiguration) in c.scrollDirection = .horizontal },
    ] {
      guard case .waterfall(var c) = l.type else { return XCTFail() }
      change(&c)
      l.setType(.waterfall(c))
      let full = Layout(type: l.type, sections: l.sections, viewportSize: l.viewportSize)
      XCTAssertEqual(frames(l), frames(full))
    }
  }

  func sizesOf(_ s: Section) -> [Size] {
    guard case .sizes(let list) = s.items else { return [] }
    return list.array
  }
}

/// Random batches, self-sizing and appends against a full recompute (packed)
/// and against the columns items had (stable), with the rope's small nodes.
extension IncrementalTests {
  func randomWaterfall(_ g: inout SplitMix, placement: ColumnPlacement) -> WaterfallConfiguration {
    var c = WaterfallConfiguration()
    c.placement = placement
    c.columnCount = Int.random(in: 1...4, using: &g)
    c.scrollDirection = Bool.random(using: &g) ? .vertical : .horizontal
    c.minimumInteritemSpacing = Double(Int.random(in: 0...12, using: &g))
    c.minimumColumnSpacing = Double(Int.random(in: 0...12, using: &g))
    c.headerHeight = Double(Int.random(in: 0...2, using: &g) * 15)
    c.itemRenderDirection = ItemRenderDirection.allCases.randomElement(using: &g)!
    c.pixelScale = [0, 0, 2, 3].randomElement(using: &g)!
    c.itemSize = Size(width: 40, height: 30)
    return c
  }

  func randomWaterfallSize(_ g: inout SplitMix) -> Size {
    let s = randomSize(&g)
    return s != Section.unsetSize && Int.random(in: 0..<10, using: &g) == 0 ? s.fullSpan : s
  }

  /// 1 to 3 sections of up to `items` items, one in `uniformOdds` uniform,
  /// the others of random waterfall sizes.
  func randomWaterfallSections(_ g: inout SplitMix, items: Int, uniformOdds: Int) -> [Section] {
    (0..<Int.random(in: 1...3, using: &g)).map { _ -> Section in
      let n = Int.random(in: 0...items, using: &g)
      return Int.random(in: 0..<uniformOdds, using: &g) == 0
        ? .uniform(n) : .sizes((0..<n).map { _ in randomWaterfallSize(&g) })
    }
  }

  /// Runs random edits on a waterfall layout, calling `check` after each
  /// with the layout before and after and the batch result when there was one.
  /// Returns how many edits were applied, and how many of them were batches.
  func runWaterfallEdits(
    placement: ColumnPlacement, rounds: Int, seed: UInt64,
    _ check: (Layout, Layout, BatchResult?) -> Void
  ) throws -> (edits: Int, batches: Int) {
    var g = SplitMix(state: seed)
    var applied = 0
    var batches = 0
    for _ in 0..<rounds {
      let c = randomWaterfall(&g, placement: placement)
      let sections = randomWaterfallSections(&g, items: 60, uniformOdds: 4)
      var layout = Layout(
        type: .waterfall(c), sections: sections, viewportSize: Size(width: 320, height: 480))
      for _ in 0..<30 {
        let before = layout
        var result: BatchResult? = nil
        switch Int.random(in: 0..<6, using: &g) {
        case 0:
          let s = Int.random(in: 0..<layout.sections.count, using: &g)
          let n = layout.sections[s].count
          guard n > 0 else { continue }
          layout.setItemSizes(
            (0..<Int.random(in: 1...3, using: &g)).map { _ in
              (IndexPath(section: s, item: Int.random(in: 0..<n, using: &g)), randomSize(&g))
            }.filter { $0.1 != Section.unsetSize })
        case 1:
          let s = Int.random(in: 0..<layout.sections.count, using: &g)
          let k = Int.random(in: 0...20, using: &g)
          layout.appendItems(
            section: s, count: k, sizes: (0..<k).map { _ in randomWaterfallSize(&g) }, ids: nil)
        case 2:
          layout.setViewportSize(
            Size(width: Double(Int.random(in: 200...500, using: &g)), height: 480))
        default:
          let u = randomBatch(layout, &g)
          do {
            let r = try u.apply(to: layout.sections, uniformSize: layout.type.uniformItemSize)
            layout.apply(r)
            result = r
            batches += 1
          } catch { continue }
        }
        applied += 1
        check(before, layout, result)
      }
    }
    return (applied, batches)
  }

  func testWaterfallPackedRelayoutIsBitIdenticalToAFullRecompute() throws {
    let applied = try runWaterfallEdits(placement: .packed, rounds: 48, seed: 99) { _, l, _ in
      let full = Layout(
        type: l.type, sections: l.sections, contentInset: l.contentInset,
        viewportSize: l.viewportSize)
      XCTAssertEqual(l.contentSize, full.contentSize)
      let everything = Rect(x: -10, y: -10, width: 1e7, height: 1e7)
      let b = Rect(origin: .zero, size: l.viewportSize)
      XCTAssertEqual(
        l.attributes(in: everything, bounds: b), full.attributes(in: everything, bounds: b))
    }
    XCTAssertGreaterThanOrEqual(applied.batches, 600)
  }

  func testWaterfallStableNeverMovesASurvivingItemToAnotherColumn() throws {
    func cols(_ l: Layout) -> [[Int32]] {
      guard let g = l.placement(as: WaterfallGeometry.self) else { return [] }
      return g.sections.map(\.columns)
    }
    var checked = 0
    let applied = try runWaterfallEdits(placement: .stable, rounds: 48, seed: 7) { old, new, r in
      let a = cols(old)
      let b = cols(new)
      for s in 0..<new.sections.count {
        for i in 0..<new.sections[s].count where b[s][i] >= 0 {
          let o: Int?
          let os: Int?
          if let r {
            os = r.oldSection(of: s)
            o = r.survivor(section: s, item: i)
          } else {
            (os, o) = (s, i < old.sections[s].count ? i : nil)
          }
          guard let os, let o, a[os][o] >= 0 else { continue }
          XCTAssertEqual(b[s][i], a[os][o], "item \(i) of section \(s) changed column")
          checked += 1
        }
      }
    }
    XCTAssertGreaterThanOrEqual(applied.batches, 600)
    XCTAssertGreaterThan(checked, 10_000)
  }

  func testWaterfallRectAndPointQueriesMatchBruteForce() throws {
    var g = SplitMix(state: 5)
    _ = try runWaterfallEdits(placement: .packed, rounds: 6, seed: 3) { _, l, _ in
      var all: [(IndexPath, Rect)] = []
      for s in 0..<l.sections.count {
        for i in 0..<l.sections[s].count {
          let p = IndexPath(section: s, item: i)
          all.append((p, l.placement.frameForItem(p)))
        }
      }
      let size = l.contentSize
      let rect = Rect(
        x: Double.random(in: -20...max(size.width, 1), using: &g),
        y: Double.random(in: -20...max(size.height, 1), using: &g),
        width: Double.random(in: 0...300, using: &g), height: Double.random(in: 0...300, using: &g))
      let got = l.attributes(in: rect, bounds: Rect(origin: .zero, size: l.viewportSize))
        .filter { $0.kind == .cell }.map(\.indexPath)
      XCTAssertEqual(got, all.filter { $0.1.intersects(rect) }.map(\.0))
      // The count from the columns never undercounts; across the whole
      // extent it is exact but for the headers and footers allowed.
      let origin = Rect(origin: .zero, size: l.viewportSize)
      XCTAssertGreaterThanOrEqual(l.elementCountBound(in: rect, bounds: origin), got.count)
      let band =
        l.scrollDirection == .vertical
        ? Rect(x: -1e6, y: rect.y, width: 2e6, height: rect.height)
        : Rect(x: rect.x, y: -1e6, width: rect.width, height: 2e6)
      let inBand = all.filter { $0.1.intersects(band) }.count
      let bound = l.elementCountBound(in: band, bounds: origin)
      XCTAssertGreaterThanOrEqual(bound, inBand)
      XCTAssertLessThanOrEqual(bound, inBand + 2 * l.sections.count + 8, "\(band)")
      // Pages of the band and of the rect concatenate to the whole.
      for r in [rect, band] {
        var all: [LayoutAttributes] = []
        var after: PageStart? = nil
        while true {
          let page = l.attributes(in: r, bounds: origin, after: after, limit: 5)
          all += page.attributes
          guard page.more, let last = page.attributes.last else { break }
          after = PageStart(
            position: ElementPosition(kind: last.kind, section: last.section, item: last.item))
        }
        XCTAssertEqual(all, l.attributes(in: r, bounds: origin))
      }
      let point = Point(x: rect.x, y: rect.y)
      let hit = l.itemAtPoint(point, bounds: Rect(origin: .zero, size: l.viewportSize))
      XCTAssertEqual(hit, all.filter { $0.1.contains(point) }.map(\.0).last)
      let nearest = l.centeredItem(
        in: Rect(x: point.x - 160, y: point.y - 240, width: 320, height: 480))
      let brute = all.min {
        func d(_ r: Rect) -> Double {
          let dx = r.center.x - point.x
          let dy = r.center.y - point.y
          return (dx * dx + dy * dy).squareRoot()
        }
        return (d($0.1), $0.0) < (d($1.1), $1.0)
      }
      XCTAssertEqual(nearest, brute?.0)
      // Far beyond the content (a viewport at ±1e12, or a few contents
      // away): the nearest is searched from the content's edge, with the
      // same answer as the scan.
      let extent = l.scrollDirection == .vertical ? size.height : size.width
      for far in [-1e12, -3 * extent - 50, 2 * extent + 50, 1e12] {
        let p =
          l.scrollDirection == .vertical ? Point(x: rect.x, y: far) : Point(x: far, y: rect.y)
        let got = l.centeredItem(in: Rect(x: p.x - 160, y: p.y - 240, width: 320, height: 480))
        let scan = all.min {
          func d(_ r: Rect) -> Double {
            let dx = r.center.x - p.x
            let dy = r.center.y - p.y
            return (dx * dx + dy * dy).squareRoot()
          }
          return (d($0.1), $0.0) < (d($1.1), $1.0)
        }
        XCTAssertEqual(got, scan?.0, "\(far)")
      }
    }
  }

  /// A rect that meets only a full-span item closing the last segment,
  /// whose columns it misses: the item is found by the streaming path
  /// and by pages as by `attributes(in:)` (a bug once left it out).
  func testARectMeetingOnlyAClosingFullSpanItem() {
    var c = WaterfallConfiguration()
    c.columnCount = 3
    var sizes = [100.0, 50, 150, 50].map { Size(width: 100, height: $0) }
    sizes.append(Size(width: 100, height: 40).fullSpan)
    let l = Layout(
      type: .waterfall(c), sections: [.sizes(sizes)], viewportSize: Size(width: 320, height: 300))
    let r = Rect(x: 0, y: 150, width: 320, height: 300)
    let whole = l.attributes(in: r, bounds: r)
    XCTAssertEqual(whole.map(\.item), [4])
    var streamed: [LayoutAttributes] = []
    l.forEachAttribute(in: r, bounds: r) { a in
      streamed.append(a)
      return true
    }
    XCTAssertEqual(streamed, whole)
    XCTAssertEqual(l.attributes(in: r, bounds: r, after: nil, limit: 1).attributes, whole)
  }
}

/// Bounded relayout (`Layout.apply(_:covering:bounds:)`): a packed
/// waterfall places only as far as a rect needs, and what it leaves
/// provisional is placed later exactly as a full recompute places it.
extension IncrementalTests {
  func testABoundedMovePlacesOnlyUpToTheRectAndCompletesAsAFullRecompute() throws {
    var c = WaterfallConfiguration()
    c.columnCount = 3
    // 3,000 items of heights 40, 55, 70, 85, …: no two columns resync.
    let sizes = (0..<3000).map { Size(width: 100, height: Double(40 + 15 * ($0 % 7))) }
    let data = Layout(
      type: .waterfall(c), sections: [.sizes(sizes)], viewportSize: Size(width: 320, height: 480))
    var u = BatchUpdate()
    u.moveItems = [(IndexPath(section: 0, item: 3), IndexPath(section: 0, item: 4), nil)]
    let r = try u.apply(to: data.sections, uniformSize: data.type.uniformItemSize)
    var full = data
    full.apply(r)
    let screen = Rect(x: 0, y: 0, width: 320, height: 480)
    var bounded = data
    bounded.apply(r, covering: screen, bounds: screen)
    guard let g = bounded.placement(as: WaterfallGeometry.self),
      let rest = g.sections[0].provisional
    else { return XCTFail("the move re-placed the whole section") }
    // Placing stops at the first item past the move before which every
    // column's top is past the rect's end: columns 100 wide, so items 40
    // to 130 high, and 10 apart. Before item 16 the tops are 490, 450 and
    // 505; item 16 (70 high) goes to the second: 490, 530, 505.
    XCTAssertEqual(rest.item, 17)
    XCTAssertEqual(rest.main, 490)
    XCTAssertEqual(bounded.placement.placedThrough, rest.main)
    XCTAssertFalse(bounded.isFullyPlaced)
    XCTAssertTrue(bounded.covers(screen, bounds: screen))
    XCTAssertFalse(bounded.covers(Rect(x: 0, y: 400, width: 320, height: 480), bounds: screen))
    XCTAssertEqual(
      bounded.attributes(in: screen, bounds: screen), full.attributes(in: screen, bounds: screen))
    // The move changed the columns of items past the rect: they differ
    // until placed.
    let everything = Rect(x: -1, y: -1, width: 400, height: 1e6)
    XCTAssertNotEqual(
      bounded.attributes(in: everything, bounds: screen),
      full.attributes(in: everything, bounds: screen))
    // A rect further down places as far as it needs; then all of it.
    let lower = Rect(x: 0, y: 5000, width: 320, height: 480)
    bounded.place(covering: lower, bounds: lower)
    XCTAssertTrue(bounded.covers(lower, bounds: lower))
    XCTAssertFalse(bounded.isFullyPlaced)
    XCTAssertEqual(
      bounded.attributes(in: lower, bounds: lower), full.attributes(in: lower, bounds: lower))
    bounded.place(covering: nil)
    XCTAssertTrue(bounded.isFullyPlaced)
    XCTAssertEqual(bounded.contentSize, full.contentSize)
    XCTAssertEqual(
      bounded.attributes(in: everything, bounds: screen),
      full.attributes(in: everything, bounds: screen))
  }

  func testBoundedBatchesOverProvisionalRestsMatchAFullRecompute() throws {
    var g = SplitMix(state: 41)
    var checked = 0
    var provisional = 0
    for _ in 0..<40 {
      let c = randomWaterfall(&g, placement: .packed)
      let sections = randomWaterfallSections(&g, items: 120, uniformOdds: 5)
      var full = Layout(
        type: .waterfall(c), sections: sections, viewportSize: Size(width: 320, height: 480))
      var bounded = full
      for _ in 0..<30 {
        // A window somewhere along the content, as a viewport would be.
        let extent = max(full.mainExtent, 1)
        let at = Double.random(in: -100...extent, using: &g)
        let window =
          full.scrollDirection == .vertical
          ? Rect(x: 0, y: at, width: 320, height: Double.random(in: 0...400, using: &g))
          : Rect(x: at, y: 0, width: Double.random(in: 0...400, using: &g), height: 480)
        let op = Int.random(in: 0..<8, using: &g)
        switch op {
        case 0:
          // An edit that places everything: whatever was provisional too.
          let s = Int.random(in: 0..<full.sections.count, using: &g)
          let k = Int.random(in: 1...5, using: &g)
          let sizes = (0..<k).map { _ in randomWaterfallSize(&g) }
          full.appendItems(section: s, count: k, sizes: sizes, ids: nil)
          bounded.appendItems(section: s, count: k, sizes: sizes, ids: nil)
        case 1:
          bounded.place(covering: window, bounds: window)
        default:
          let u = randomBatch(full, &g)
          guard let r = try? u.apply(to: full.sections, uniformSize: full.type.uniformItemSize)
          else { continue }
          full.apply(r)
          bounded.apply(r, covering: window, bounds: window)
        }
        XCTAssertEqual(bounded.sections.map(\.count), full.sections.map(\.count))
        XCTAssertTrue(bounded.isFullyPlaced || bounded.covers(window, bounds: window), "\(op)")
        if !bounded.isFullyPlaced { provisional += 1 }
        if bounded.covers(window, bounds: window) {
          XCTAssertEqual(
            bounded.attributes(in: window, bounds: window),
            full.attributes(in: window, bounds: window))
          // Every item starting before the horizon is final.
          for s in 0..<full.sections.count {
            for i in 0..<full.sections[s].count {
              let p = IndexPath(section: s, item: i)
              if bounded.isPlaced(p) {
                XCTAssertEqual(bounded.placement.frameForItem(p), full.placement.frameForItem(p))
              }
            }
          }
          checked += 1
        }
        // Completed, it is the full recompute, bit for bit.
        var done = bounded
        done.place(covering: nil)
        XCTAssertTrue(done.isFullyPlaced)
        XCTAssertEqual(done.contentSize, full.contentSize)
        let everything = Rect(x: -10, y: -10, width: 1e7, height: 1e7)
        let b = Rect(origin: .zero, size: full.viewportSize)
        XCTAssertEqual(
          done.attributes(in: everything, bounds: b), full.attributes(in: everything, bounds: b))
      }
    }
    XCTAssertGreaterThan(checked, 900)
    XCTAssertGreaterThan(provisional, 300)
  }
}

extension IncrementalTests {
  /// A waterfall's frame settles its centred item on the walk, in the
  /// plane, as `centeredItem` finds it (equal sizes tie).
  func testAWaterfallsWalkSettlesTheCentredItem() {
    var g = SplitMix(state: 31)
    var settled = 0
    for trial in 0..<150 {
      let c = randomWaterfall(&g, placement: trial % 2 == 0 ? .packed : .stable)
      let sections =
        trial % 3 == 0
        ? [Section.uniform(Int.random(in: 0...200, using: &g))]
        : randomWaterfallSections(&g, items: 80, uniformOdds: 4)
      let layout = Layout(
        type: .waterfall(c), sections: sections, viewportSize: Size(width: 320, height: 480))
      settled += checkCentredWalk(layout, &g)
    }
    // 477 of 1,500: many viewports lie past small contents.
    XCTAssertGreaterThan(settled, 400)
  }
}

/// A stable layout keeps a uniform stretch's columns across a change of
/// placement or a rotation, a cycle of columns at a time (issue #46): the
/// same columns and frames as placing each survivor in its old column.
final class StableCycleTests: XCTestCase {
  func columns(_ l: Layout) -> [[Int32]] {
    guard let g = l.placement(as: WaterfallGeometry.self) else { return [] }
    return g.sections.map(\.columns)
  }

  func testARotationKeepsEveryColumnAndStacksEachColumnByItsNewPitch() {
    for (n, count) in [(3, 10_000), (5, 997), (16, 4_099), (1, 50)] {
      var c = WaterfallConfiguration()
      c.columnCount = n
      c.itemSize = Size(width: 50, height: 30)
      c.minimumInteritemSpacing = 4
      var layout = Layout(
        type: .waterfall(c), sections: [.uniform(count), .uniform(7)],
        viewportSize: Size(width: 320, height: 480))
      let before = columns(layout)
      c.placement = .stable
      layout.setType(.waterfall(c))
      XCTAssertEqual(columns(layout), before, "stable at \(n) columns")
      _ = layout.setViewportSize(Size(width: 480, height: 320))
      XCTAssertEqual(columns(layout), before, "rotated at \(n) columns")
      // Each item's top: the section's start, plus its rank in its column
      // times the new pitch (width 480, 10-point section insets absent:
      // the column width is (480 - (n - 1) * spacing) / n, floored).
      for s in 0..<2 {
        var rank = [Int](repeating: 0, count: n)
        var tops: [Double] = []
        for i in 0..<layout.sections[s].count {
          let col = Int(before[s][i])
          let f = layout.placement.frameForItem(IndexPath(section: s, item: i))
          let first = layout.placement.frameForItem(IndexPath(section: s, item: 0))
          tops.append(f.y)
          XCTAssertEqual(f.y, first.y + Double(rank[col]) * (f.height + 4), "item \(i)")
          rank[col] += 1
        }
        XCTAssertEqual(tops.count, layout.sections[s].count)
      }
    }
  }
}
