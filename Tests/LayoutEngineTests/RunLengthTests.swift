import XCTest

@testable import LayoutEngine

/// Sizes stored as runs (a uniform stretch is one rope leaf) must lay out
/// exactly as the same sizes stored one by one, on every layout type,
/// whatever edits split and join the runs. Leaves are shrunk so that runs
/// of a few items already outgrow them.
final class RunLengthTests: SmallRopeTestCase {
  /// One configuration per kind; whether its items carry sizes.
  func kinds() -> [(name: String, type: LayoutType, sized: Bool)] {
    var flow = FlowConfiguration()
    flow.itemSize = Size(width: 40, height: 30)
    flow.minimumInteritemSpacing = 7
    flow.minimumLineSpacing = 5
    flow.headerReferenceSize = Size(width: 20, height: 20)
    var rtl = flow
    rtl.scrollDirection = .horizontal
    rtl.layoutDirection = .rtl
    var zero = flow
    // Zero-width items without spacing: one line takes every item.
    zero.itemSize = Size(width: 0, height: 12)
    zero.minimumInteritemSpacing = 0
    var cover = CoverFlowConfiguration()
    cover.flow.itemSize = Size(width: 60, height: 80)
    var waterfall = WaterfallConfiguration()
    waterfall.columnCount = 3
    var carousel = CarouselConfiguration()
    carousel.style = .rotary
    var pager = PagerConfiguration()
    pager.itemSize = Size(width: 200, height: 150)
    pager.transformer = .cubic
    // Self-sizing rows two to a group: measured sizes move what follows.
    var pair = LayoutGroup(
      direction: .horizontal,
      size: LayoutSize(width: .fractionalWidth(1), height: .estimated(44)),
      subitems: [
        .item(
          size: LayoutSize(width: .fractionalWidth(0.5), height: .estimated(44)),
          contentInsets: .zero)
      ])
    pair.count = 2
    var section = SectionLayout(group: pair)
    section.interGroupSpacing = 3
    var row = SectionLayout(
      group: LayoutGroup(
        direction: .horizontal,
        size: LayoutSize(width: .estimated(90), height: .absolute(80)),
        subitems: [
          .item(
            size: LayoutSize(width: .estimated(90), height: .fractionalHeight(1)),
            contentInsets: .zero)
        ]))
    row.orthogonalScrollingBehavior = .continuous
    row.interGroupSpacing = 6
    return [
      ("flow", .flow(flow), true), ("flow horizontal rtl", .flow(rtl), true),
      ("flow of zero-width items", .flow(zero), true), ("coverFlow", .coverFlow(cover), true),
      ("waterfall", .waterfall(waterfall), true), ("carousel", .carousel(carousel), true),
      ("pager", .pager(pager), false),
      ("compositional", .compositional(CompositionalConfiguration(section: section)), true),
      ("compositional row", .compositional(CompositionalConfiguration(section: row)), true),
    ]
  }

  func randomSize(_ g: inout SplitMix) -> Size {
    // A third of the sizes repeat one value, so that measured runs form
    // and join too.
    if Int.random(in: 0..<3, using: &g) == 0 { return Size(width: 33, height: 21) }
    return Size(
      width: Double(Int.random(in: 1...150, using: &g)) / 3,
      height: Double(Int.random(in: 1...90, using: &g)) / 7)
  }

  func runs(_ sections: [Section]) -> Int {
    var n = 0
    for case .sizes(let list) in sections.map(\.items) {
      list.forEachLeaf(from: 0) { _, leaf, _ in
        n += leaf.repeats > 0 ? 1 : 0
        return true
      }
    }
    return n
  }

  func assertSame(_ layout: Layout, _ name: String, _ step: Int, _ g: inout SplitMix) {
    let flat = Layout(
      type: layout.type, sections: flat(layout.sections), contentInset: layout.contentInset,
      viewportSize: layout.viewportSize)
    let size = layout.contentSize
    XCTAssertEqual(size, flat.contentSize, "\(name), step \(step)")
    XCTAssertNil(layout.invariantViolation(), "\(name), step \(step)")
    XCTAssertNil(flat.invariantViolation(), "\(name), step \(step)")
    let everything = Rect(x: -2000, y: -2000, width: size.width + 4000, height: size.height + 4000)
    let bounds = Rect(
      x: Double(Int.random(in: 0...Int(max(size.width, 1)), using: &g)),
      y: Double(Int.random(in: 0...Int(max(size.height, 1)), using: &g)),
      width: layout.viewportSize.width, height: layout.viewportSize.height)
    XCTAssertEqual(
      layout.attributes(in: everything, bounds: bounds),
      flat.attributes(in: everything, bounds: bounds), "\(name), step \(step)")
    XCTAssertEqual(
      layout.targetContentOffset(proposed: bounds.origin).offset,
      flat.targetContentOffset(proposed: bounds.origin).offset, "\(name), step \(step)")
    let point = Point(x: bounds.midX, y: bounds.midY)
    XCTAssertEqual(
      layout.itemAtPoint(point, bounds: bounds), flat.itemAtPoint(point, bounds: bounds),
      "\(name), step \(step)")
  }

  func testRunsLayOutAsSizesStoredOneByOneOnEveryType() {
    var g = SplitMix(state: 2812)
    for (name, type, sized) in kinds() {
      var runsSeen = 0
      var layout = Layout(
        type: type,
        sections: (0..<2).map { _ in .uniform(Int.random(in: 10...120, using: &g)) },
        viewportSize: Size(width: 320, height: 480))
      for step in 0..<60 {
        let s = Int.random(in: 0..<layout.sections.count, using: &g)
        let n = layout.sections[s].count
        switch Int.random(in: 0..<5, using: &g) {
        case 0 where sized && n > 0:
          // Measurements split runs.
          layout.setItemSizes(
            (0..<Int.random(in: 1...4, using: &g)).map { _ in
              (IndexPath(section: s, item: Int.random(in: 0..<n, using: &g)), randomSize(&g))
            })
        case 1:
          // A batch: a stretch deleted, unsized items inserted (they join
          // a run), and sometimes a sized one.
          var u = BatchUpdate()
          let a = n > 0 ? Int.random(in: 0..<n, using: &g) : 0
          let b = min(n, a + Int.random(in: 0...8, using: &g))
          u.deleteItems = (a..<b).map { IndexPath(section: s, item: $0) }
          let after = n - (b - a)
          let at = Int.random(in: 0...after, using: &g)
          let k = Int.random(in: 0...12, using: &g)
          u.insertItems = (at..<(at + k)).map { (IndexPath(section: s, item: $0), Item()) }
          if sized && Bool.random(using: &g) {
            u.insertItems.append((IndexPath(section: s, item: at + k), Item(size: randomSize(&g))))
          }
          guard
            let result = try? u.apply(
              to: layout.sections, uniformSize: layout.type.uniformItemSize)
          else {
            XCTFail("\(name): a valid batch was refused")
            continue
          }
          layout.apply(result)
        case 2:
          let k = Int.random(in: 0...30, using: &g)
          let sizes = sized && Bool.random(using: &g) ? (0..<k).map { _ in randomSize(&g) } : nil
          layout.appendItems(section: s, count: k, sizes: sizes, ids: nil)
        case 3:
          // A rotation re-breaks everything from the runs.
          let v = layout.viewportSize
          _ = layout.setViewportSize(Size(width: v.height, height: v.width))
        default:
          guard sized, n > 0 else { continue }
          var u = BatchUpdate()
          let i = Int.random(in: 0..<n, using: &g)
          u.reloadItems = [(IndexPath(section: s, item: i), randomSize(&g))]
          guard
            let result = try? u.apply(
              to: layout.sections, uniformSize: layout.type.uniformItemSize)
          else { continue }
          layout.apply(result)
        }
        runsSeen += runs(layout.sections)
        assertSame(layout, name, step, &g)
      }
      if sized { XCTAssertGreaterThan(runsSeen, 30, "\(name): runs went untested") }
    }
  }

  /// A waterfall places a uniform stretch one cycle of columns at a time
  /// once the columns' tops settle: the lanes hold runs and the column
  /// order one cycling run, and every item lands where placing one by one
  /// puts it (shortest-first with a scan and with the tournament tree, and
  /// by index), through measurements, batches and rotations. (A stable
  /// waterfall's columns depend on its history, not only its items, so
  /// only its first placement is compared.)
  func testWaterfallUniformStretchesArePlacedAsCyclesOfColumns() {
    var g = SplitMix(state: 77)
    let cases: [(Int, ItemRenderDirection, ColumnPlacement)] = [
      (3, .shortestFirst, .packed), (20, .shortestFirst, .packed), (4, .leftToRight, .packed),
    ]
    var g0 = g
    var stable = WaterfallConfiguration()
    stable.placement = .stable
    assertSame(
      Layout(
        type: .waterfall(stable), sections: [.uniform(3000)],
        viewportSize: Size(width: 1200, height: 800)), "stable waterfall", 0, &g0)
    for (columns, direction, placement) in cases {
      var c = WaterfallConfiguration()
      c.columnCount = columns
      c.itemRenderDirection = direction
      c.placement = placement
      var layout = Layout(
        type: .waterfall(c), sections: [.uniform(3000), .uniform(500)],
        viewportSize: Size(width: 1200, height: 800))
      var cycles = 0
      for step in 0..<25 {
        if let w = layout.placement(as: WaterfallGeometry.self) {
          for section in w.sections {
            section.order.forEachLeaf(from: 0) { _, leaf, _ in
              cycles += leaf.repeats > 0 && leaf.stored.count == columns ? 1 : 0
              return true
            }
          }
        }
        let s = Int.random(in: 0..<2, using: &g)
        let n = layout.sections[s].count
        switch step % 4 {
        case 0:
          layout.setItemSizes(
            (0..<2).map { _ in
              (IndexPath(section: s, item: Int.random(in: 0..<n, using: &g)), randomSize(&g))
            })
        case 1:
          var u = BatchUpdate()
          let a = Int.random(in: 0..<(n - 10), using: &g)
          u.deleteItems = (a..<(a + 5)).map { IndexPath(section: s, item: $0) }
          u.insertItems = (0..<Int.random(in: 0...40, using: &g)).map {
            (IndexPath(section: s, item: $0), Item())
          }
          guard let result = try? u.apply(to: layout.sections, uniformSize: c.itemSize) else {
            XCTFail("a valid batch was refused")
            continue
          }
          layout.apply(result)
        case 2:
          let v = layout.viewportSize
          _ = layout.setViewportSize(Size(width: v.height, height: v.width))
        default:
          layout.appendItems(section: s, count: 700, sizes: nil, ids: nil)
        }
        assertSame(layout, "waterfall \(columns) \(direction) \(placement)", step, &g)
        if let a = layout.placement(as: WaterfallGeometry.self),
          let b = Layout(
            type: layout.type, sections: flat(layout.sections),
            viewportSize: layout.viewportSize
          ).placement(as: WaterfallGeometry.self)
        {
          XCTAssertEqual(a.sections.map(\.columns), b.sections.map(\.columns))
        }
      }
      XCTAssertGreaterThan(cycles, 10, "\(columns) \(direction): no cycles stored")
    }
  }

  /// Measuring a uniform stretch item by item, from either end, fills
  /// leaves: each new size joins the plain leaf beside the run (which
  /// shrinks), rather than splitting the run into a leaf per item.
  func testMeasuringARunItemByItemFillsLeaves() {
    for fromEnd in [false, true] {
      var list = SizeList(repeating: Section.unsetSize, count: 1000)
      var model = [Size](repeating: Section.unsetSize, count: 1000)
      for k in 0..<100 {
        let i = fromEnd ? 999 - k : k
        let size = Size(width: Double(k), height: 1)
        list.set(i, size)
        model[i] = size
      }
      XCTAssertEqual(list.array, model)
      XCTAssertNil(list.invariantViolation())
      var leaves = 0
      var runs = 0
      list.forEachLeaf(from: 0) { _, leaf, _ in
        leaves += 1
        runs += leaf.repeats > 0 ? 1 : 0
        return true
      }
      XCTAssertEqual(runs, 1, "from the end: \(fromEnd)")
      // Leaves of 4: 100 sizes in 25 to 50 leaves (splits leave halves),
      // not 100.
      XCTAssertLessThanOrEqual(leaves, 51, "from the end: \(fromEnd)")
    }
  }

  /// Two thousand sizes in one report take the one-pass path; the layout
  /// is the one that reports of three at a time (each a rope edit) give,
  /// and the thousand unmeasured items between them stay one run.
  func testManySizesInOneReportLayOutAsInSmallOnes() {
    var g = SplitMix(state: 5)
    var flow = FlowConfiguration()
    flow.itemSize = Size(width: 40, height: 30)
    let items = Array(0..<1500) + Array(2500..<3000)
    let updates = items.map { (IndexPath(section: 0, item: $0), randomSize(&g)) }
    var bulk = Layout(
      type: .flow(flow), sections: [.uniform(3000)], viewportSize: Size(width: 320, height: 480))
    var small = bulk
    bulk.setItemSizes(updates)
    for a in stride(from: 0, to: updates.count, by: 3) {
      small.setItemSizes(Array(updates[a..<min(a + 3, updates.count)]))
    }
    XCTAssertEqual(bulk.sections.map(\.sizeList.array), small.sections.map(\.sizeList.array))
    guard case .sizes(let list) = bulk.sections[0].items else {
      return XCTFail("the measured section stores no sizes")
    }
    XCTAssertEqual(list.leafElements(containing: 2000).elements.run, Section.unsetSize)
    assertSame(bulk, "bulk", 0, &g)
    let everything = Rect(x: -10, y: -10, width: 400, height: bulk.contentSize.height + 20)
    let bounds = Rect(x: 0, y: 0, width: 320, height: 480)
    XCTAssertEqual(
      bulk.attributes(in: everything, bounds: bounds),
      small.attributes(in: everything, bounds: bounds))
  }

  /// The headline case at full size: a hundred million uniform items with
  /// a thousand measured ones hold a few thousand leaves, not 1e8 sizes,
  /// and a rotation re-breaks the runs, not the items.
  func testAHundredMillionItemsWithAThousandMeasuredStoreTheirRuns() {
    RopeLimits.leafCapacity = 64
    RopeLimits.fanout = 32
    var flow = FlowConfiguration()
    flow.itemSize = Size(width: 50, height: 50)
    var layout = Layout(
      type: .flow(flow), sections: [.uniform(100_000_000)],
      viewportSize: Size(width: 375, height: 600))
    layout.setItemSizes(
      (0..<1000).map { (IndexPath(section: 0, item: $0 * 99_991), Size(width: 80, height: 40)) })
    guard case .sizes(let list) = layout.sections[0].items else {
      return XCTFail("the measured section stores no sizes")
    }
    var leaves = 0
    list.forEachLeaf(from: 0) { _, _, _ in
      leaves += 1
      return true
    }
    // Each measured item splits a run: at most a run and a leaf apiece.
    XCTAssertLessThanOrEqual(leaves, 2001)
    XCTAssertEqual(list.count, 100_000_000)
    XCTAssertEqual(list.summary.unset, 100_000_000 - 1000)
    XCTAssertTrue(layout.setViewportSize(Size(width: 600, height: 375)))
    // 600 wide, 10 between items and lines. Line 0: item 0 (80) and 8
    // unmeasured (80 + 8 · 60 = 560). Then lines of 10 (50 + 9 · 60 =
    // 590): items 9…99,988 make 9,998 of them; 99,989 and 99,990 open the
    // next, which takes measured 99,991 (200) and six more (560). Line
    // 10,000 starts at item 99,998, so item 100,001 is its fourth, as item
    // 12 is line 1's; every line is 50 thick, so line j starts at 60 · j.
    let far = layout.attributesForItem(
      IndexPath(section: 0, item: 100_001), bounds: Rect(x: 0, y: 0, width: 600, height: 375))!
    let near = layout.attributesForItem(
      IndexPath(section: 0, item: 12), bounds: Rect(x: 0, y: 0, width: 600, height: 375))!
    XCTAssertEqual(near.frame.minY, 60)
    XCTAssertEqual(far.frame, Rect(x: near.frame.minX, y: 600_000, width: 50, height: 50))
    XCTAssertGreaterThan(near.frame.minX, 150)
  }
}
