import XCTest

@testable import LayoutEngine

/// Expected frames are worked out by hand from protocol.md's compositional
/// rules (the viewport is 320 × 480 unless a test says otherwise).
final class CompositionalTests: XCTestCase {
  func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
    Rect(x: x, y: y, width: w, height: h)
  }

  func size(_ w: LayoutDimension, _ h: LayoutDimension) -> LayoutSize {
    LayoutSize(width: w, height: h)
  }

  func item(_ w: LayoutDimension, _ h: LayoutDimension, insets: DirectionalInsets = .zero)
    -> LayoutItem
  {
    .item(size: size(w, h), contentInsets: insets)
  }

  func grp(
    _ w: LayoutDimension, _ h: LayoutDimension, _ subitems: [LayoutItem], count: Int? = nil,
    spacing: LayoutSpacing = .fixed(0), insets: DirectionalInsets = .zero
  ) -> LayoutGroup {
    grp(.horizontal, w, h, subitems, count: count, spacing: spacing, insets: insets)
  }

  func grp(
    _ direction: LayoutGroup.Direction, _ w: LayoutDimension, _ h: LayoutDimension,
    _ subitems: [LayoutItem], count: Int? = nil, spacing: LayoutSpacing = .fixed(0),
    insets: DirectionalInsets = .zero
  ) -> LayoutGroup {
    var g = LayoutGroup(direction: direction, size: size(w, h), subitems: subitems)
    g.count = count
    g.interItemSpacing = spacing
    g.contentInsets = insets
    return g
  }

  func insets(_ t: Double, _ l: Double, _ b: Double, _ tr: Double) -> DirectionalInsets {
    DirectionalInsets(top: t, leading: l, bottom: b, trailing: tr)
  }

  func layout(
    width: Double = 320, height: Double = 480, inset: Insets = .zero, _ section: SectionLayout,
    _ sections: [Section], _ configure: (inout CompositionalConfiguration) -> Void = { _ in }
  ) -> Layout {
    var c = CompositionalConfiguration(section: section)
    configure(&c)
    return Layout(
      type: .compositional(c), sections: sections, contentInset: inset,
      viewportSize: Size(width: width, height: height))
  }

  func frames(_ l: Layout, section s: Int = 0) -> [Rect] {
    (0..<l.sections[s].count).map { l.placement.frameForItem(IndexPath(section: s, item: $0)) }
  }

  func everything(_ l: Layout, bounds: Rect? = nil) -> [LayoutAttributes] {
    let b = bounds ?? Rect(x: 0, y: 0, width: l.viewportSize.width, height: l.viewportSize.height)
    return l.attributes(in: r(-1e6, -1e6, 2e6, 2e6), bounds: b)
  }

  /// A plain grid: groups of one 100-point row, items half the width.
  var halves: SectionLayout {
    SectionLayout(
      group: grp(
        .fractionalWidth(1), .absolute(100), [item(.fractionalWidth(0.5), .fractionalHeight(1))]))
  }

  /// A row of 150 × 80 groups, 10 apart, with 16-point leading and
  /// trailing insets: 10 items make a row 16 + 10 · 150 + 9 · 10 + 16 =
  /// 1622 wide, so offsets run over [0, 1302] in a 320-wide viewport.
  func row(_ behavior: OrthogonalScrollingBehavior = .continuous) -> SectionLayout {
    var s = SectionLayout(
      group: grp(.absolute(150), .absolute(80), [item(.fractionalWidth(1), .fractionalHeight(1))]))
    s.interGroupSpacing = 10
    s.contentInsets = insets(0, 16, 0, 16)
    s.orthogonalScrollingBehavior = behavior
    return s
  }

  // MARK: Rule 2: groups consume items

  /// protocol.md's example 1315 (the libFuzzer seed that found it): a list
  /// section in a horizontal layout is the layout's problem, and the
  /// placement that names it keeps its invariants under internal checks.
  func testAListSectionOfAHorizontalLayoutIsItsProblem() {
    let was = InternalChecks.enabled
    InternalChecks.enabled = true
    defer { InternalChecks.enabled = was }
    let l = layout(SectionLayout(list: ListSectionLayout(ListConfiguration())), [.uniform(2)]) {
      $0.scrollDirection = .horizontal
    }
    XCTAssertEqual(l.problem, .horizontalList(section: 0))
    XCTAssertNil(l.invariantViolation())
  }

  func testHalfWidthItemsPairUpAndFixedSpacingLeavesOne() {
    let l = layout(halves, [.uniform(5)])
    XCTAssertEqual(
      frames(l),
      [
        r(0, 0, 160, 100), r(160, 0, 160, 100), r(0, 100, 160, 100), r(160, 100, 160, 100),
        r(0, 200, 160, 100),
      ])
    XCTAssertEqual(l.contentSize, Size(width: 320, height: 300))
    var spaced = halves
    spaced.group.interItemSpacing = .fixed(10)
    // 160 + 10 + 160 = 330 > 320: one item per group.
    let m = layout(spaced, [.uniform(3)])
    XCTAssertEqual(frames(m), [r(0, 0, 160, 100), r(0, 100, 160, 100), r(0, 200, 160, 100)])
  }

  func testCountSharesTheGroupsExtentWhateverTheSubitemSays() {
    let s = SectionLayout(
      group: grp(
        .fractionalWidth(1), .absolute(50), [item(.absolute(999), .fractionalHeight(1))], count: 3,
        spacing: .fixed(10)))
    // (320 − 2 · 10) / 3 = 100 each.
    XCTAssertEqual(
      frames(layout(s, [.uniform(4)])),
      [r(0, 0, 100, 50), r(110, 0, 100, 50), r(220, 0, 100, 50), r(0, 50, 100, 50)])
  }

  func testFlexibleSpacingSharesWhatIsLeftBetweenTheGaps() {
    let s = SectionLayout(
      group: grp(
        .fractionalWidth(1), .absolute(50), [item(.absolute(80), .fractionalHeight(1))],
        spacing: .flexible(10)))
    // Three fit at the least spacing (270 + 80 > 320); 320 − 240 − 20 = 60
    // more is shared by the two gaps: 40 each.
    XCTAssertEqual(
      frames(layout(s, [.uniform(3)])), [r(0, 0, 80, 50), r(120, 0, 80, 50), r(240, 0, 80, 50)])
  }

  func testNestedGroupsConsumeItemsInOrderAndTheLastGroupKeepsItsPositions() {
    let column = grp(
      .vertical, .fractionalWidth(0.5), .fractionalHeight(1),
      [item(.fractionalWidth(1), .fractionalHeight(0.5))])
    let s = SectionLayout(
      group: grp(
        .fractionalWidth(1), .absolute(200),
        [item(.fractionalWidth(0.5), .fractionalHeight(1)), .group(column)]))
    // A big item, then a column of two: three items per group.
    let l = layout(s, [.uniform(7)])
    XCTAssertEqual(
      frames(l),
      [
        r(0, 0, 160, 200), r(160, 0, 160, 100), r(160, 100, 160, 100),
        r(0, 200, 160, 200), r(160, 200, 160, 100), r(160, 300, 160, 100),
        r(0, 400, 160, 200),
      ])
    // The last group is a full group's size.
    XCTAssertEqual(l.contentSize.height, 600)
  }

  // MARK: Rules 1, 3, 4: sizes, insets, stacking

  func testContentInsetsAtEveryLevel() {
    var s = SectionLayout(
      group: grp(
        .fractionalWidth(1), .absolute(100),
        [item(.fractionalWidth(0.5), .fractionalHeight(1), insets: insets(4, 4, 4, 4))],
        insets: insets(5, 5, 5, 5)))
    s.contentInsets = insets(10, 20, 30, 40)
    s.interGroupSpacing = 5
    // Container 260 wide; the group is 260 × 100 and leaves its subitems
    // 250 × 90, so items are 125 × 90, two a group, each cell inset by 4.
    let l = layout(s, [.uniform(3)])
    XCTAssertEqual(frames(l), [r(29, 19, 117, 82), r(154, 19, 117, 82), r(29, 124, 117, 82)])
    // 10 + 100 + 5 + 100 + 30.
    XCTAssertEqual(l.contentSize.height, 245)
  }

  func testFractionalHeightResolvesAgainstTheContainerLessEveryInset() {
    var s = SectionLayout(
      group: grp(
        .fractionalWidth(1), .fractionalHeight(0.5),
        [item(.fractionalWidth(1), .fractionalHeight(1))]
      ))
    s.contentInsets = insets(10, 0, 10, 0)
    // H = 480 − 40 = 440; the container 440 − 20 = 420; the group 210.
    let l = layout(inset: Insets(top: 20, left: 0, bottom: 20, right: 0), s, [.uniform(2)])
    XCTAssertEqual(frames(l), [r(0, 10, 320, 210), r(0, 220, 320, 210)])
    XCTAssertEqual(l.contentSize.height, 440)
  }

  // MARK: Rules 6, 7: boundary items and backgrounds

  func decorated(pin: Bool = false, pinFooter: Bool = false) -> SectionLayout {
    var s = SectionLayout(
      group: grp(
        .fractionalWidth(1), .absolute(50), [item(.fractionalWidth(1), .fractionalHeight(1))]))
    s.contentInsets = insets(10, 8, 10, 8)
    s.boundarySupplementaryItems = [
      BoundaryItem(
        kind: .header, size: size(.fractionalWidth(1), .absolute(30)), pinToVisibleBounds: pin),
      BoundaryItem(
        kind: .footer, size: size(.fractionalWidth(1), .absolute(20)), pinToVisibleBounds: pinFooter
      ),
    ]
    s.background = insets(2, 3, 4, 5)
    return s
  }

  func testHeadersFootersAndBackgroundsStackWithTheirSections() {
    let l = layout(decorated(), [.uniform(2), .uniform(2)]) { $0.interSectionSpacing = 12 }
    let all = everything(l)
    XCTAssertEqual(
      all.map { "\($0.kind.rawValue) \($0.section).\($0.item) z\($0.zIndex)" },
      [
        "decoration 0.0 z0", "header 0.0 z1", "cell 0.0 z1", "cell 0.1 z1", "footer 0.0 z1",
        "decoration 1.0 z0", "header 1.0 z1", "cell 1.0 z1", "cell 1.1 z1", "footer 1.0 z1",
      ])
    XCTAssertEqual(
      all.map(\.frame),
      [
        // Header, 10, two groups of 50, 10, footer: 170 tall; the
        // background from 2 to 170 − 4, from 3 to 320 − 5.
        r(3, 2, 312, 164), r(8, 0, 304, 30), r(8, 40, 304, 50), r(8, 90, 304, 50),
        r(8, 150, 304, 20),
        // The second section starts at 170 + 12.
        r(3, 184, 312, 164), r(8, 182, 304, 30), r(8, 222, 304, 50), r(8, 272, 304, 50),
        r(8, 332, 304, 20),
      ])
    XCTAssertEqual(l.contentSize.height, 352)
  }

  func testAPinnedHeaderStaysWithinItsSection() {
    let l = layout(decorated(pin: true), [.uniform(2), .uniform(2)])
    func header(at y: Double) -> LayoutAttributes? {
      l.attributesForSupplementary(.header, section: 0, bounds: r(0, y, 320, 100))
    }
    XCTAssertEqual(header(at: 0)?.frame, r(8, 0, 304, 30))
    XCTAssertEqual(header(at: 0)?.zIndex, Layout.pinnedZIndex)
    XCTAssertEqual(header(at: 100)?.frame, r(8, 100, 304, 30))
    // Never past its section's content: 150 − 30.
    XCTAssertEqual(header(at: 140)?.frame, r(8, 120, 304, 30))
    // The footer does not pin.
    XCTAssertEqual(
      l.attributesForSupplementary(.footer, section: 0, bounds: r(0, 0, 320, 100))?.frame,
      r(8, 150, 304, 20))
  }

  func testAPinnedFooterStaysWithinItsSection() {
    let l = layout(decorated(pinFooter: true), [.uniform(2), .uniform(2)])
    func footer(at y: Double) -> LayoutAttributes? {
      l.attributesForSupplementary(.footer, section: 0, bounds: r(0, y, 320, 100))
    }
    // Its own place is 150; the visible end less its thickness is 80.
    XCTAssertEqual(footer(at: 0)?.frame, r(8, 80, 304, 20))
    XCTAssertEqual(footer(at: 0)?.zIndex, Layout.pinnedZIndex)
    // Never before its header's end (30): at −60 the visible end is 40.
    XCTAssertEqual(footer(at: -60)?.frame, r(8, 30, 304, 20))
    // Past its own place it stays there.
    XCTAssertEqual(footer(at: 200)?.frame, r(8, 150, 304, 20))
    // The header does not pin here.
    XCTAssertEqual(
      l.attributesForSupplementary(.header, section: 0, bounds: r(0, 100, 320, 100))?.frame,
      r(8, 0, 304, 30))
  }

  // MARK: Rule 5: orthogonal rows

  func testARowLaysItsGroupsAcrossAndScrollsOnItsOwn() {
    var l = layout(halves, [.uniform(2), Section.uniform(10).with(row())])
    XCTAssertEqual(l.contentSize, Size(width: 320, height: 180))
    XCTAssertEqual(
      frames(l, section: 1)[0...2],
      [r(16, 100, 150, 80), r(176, 100, 150, 80), r(336, 100, 150, 80)])
    XCTAssertEqual(l.rowRange(section: 1)?.hi, 1302)
    XCTAssertNil(l.rowRange(section: 0))
    l.setRowOffset(200, section: 1)
    XCTAssertEqual(l.rowOffsets, [1: 200])
    XCTAssertEqual(frames(l, section: 1)[1], r(-24, 100, 150, 80))
    // The visible cells of the row, at its offset.
    let visible = l.attributes(in: r(0, 0, 320, 480), bounds: r(0, 0, 320, 480))
      .filter { $0.section == 1 }.map(\.item)
    XCTAssertEqual(visible, [1, 2, 3])
    l.setRowOffset(5000, section: 1)
    XCTAssertEqual(l.rowOffsets[1], 1302)
    // A plain section does not scroll.
    l.setRowOffset(50, section: 0)
    XCTAssertEqual(l.rowOffsets, [1: 1302])
    // itemAtPoint sees the row where it is drawn: item 9 ends at 1622 − 16 − 1302.
    XCTAssertEqual(
      l.itemAtPoint(Point(x: 300, y: 150), bounds: r(0, 0, 320, 480)),
      IndexPath(section: 1, item: 9))
    XCTAssertEqual(l.itemAtPoint(Point(x: 310, y: 150), bounds: r(0, 0, 320, 480)), nil)
  }

  func testGroupPagingCenteredExtendsTheRangeToCentreTheEnds() {
    let l = layout(row(.groupPagingCentered), [.uniform(10)])
    // Group 0's centre is 16 + 75 = 91, the last's 16 + 9 · 160 + 75 = 1531.
    XCTAssertEqual(l.rowRange(section: 0)?.lo, 91 - 160)
    XCTAssertEqual(l.rowRange(section: 0)?.hi, 1531 - 160)
    // It starts with group 0 centred.
    XCTAssertEqual(l.rowOffsets, [0: 91 - 160])
    XCTAssertEqual(l.placement.frameForItem(IndexPath(section: 0, item: 0)).midX, 160)
  }

  // MARK: Orthogonal snapping

  func plan(_ b: OrthogonalScrollingBehavior, from o: Double, velocity v: Double) -> ScrollPlan {
    let l = layout(row(b), [.uniform(10)])
    return l.rowScrollPlan(
      section: 0, contentOffset: Point(x: o, y: 7), velocity: Point(x: v, y: 0))!
  }

  func testEachBehaviourSnapsTheRowItsWay() {
    // Normal deceleration projects v · 0.998 / 0.002 = 499 v.
    var p = plan(.continuous, from: 100, velocity: 1)
    XCTAssertEqual(p.targetContentOffset.x, 599, accuracy: 1e-9)
    XCTAssertEqual(p.targetContentOffset.y, 7)
    XCTAssertEqual(p.policy, .free)
    XCTAssertEqual(p.targetItem, IndexPath(section: 0, item: 3))
    p = plan(.continuous, from: 1000, velocity: 5)
    XCTAssertEqual(p.targetContentOffset.x, 1302)
    // Group boundaries 160 k: 640 is nearest 599.
    p = plan(.continuousGroupLeadingBoundary, from: 100, velocity: 1)
    XCTAssertEqual(p.targetContentOffset.x, 640)
    XCTAssertEqual(p.targetItem, IndexPath(section: 0, item: 4))
    XCTAssertEqual(p.policy, .nearest)
    // Pages of the bounds' width, one per fling (fast deceleration).
    p = plan(.paging, from: 100, velocity: 1)
    XCTAssertEqual(p.targetContentOffset.x, 320)
    XCTAssertEqual(p.projectedContentOffset.x, 199, accuracy: 1e-9)
    XCTAssertEqual(p.policy, .paging)
    // One group per fling, either way; a slow release rounds.
    XCTAssertEqual(plan(.groupPaging, from: 100, velocity: 3).targetContentOffset.x, 160)
    XCTAssertEqual(plan(.groupPaging, from: 100, velocity: -1).targetContentOffset.x, 0)
    XCTAssertEqual(plan(.groupPaging, from: 100, velocity: 0.1).targetContentOffset.x, 160)
    XCTAssertEqual(plan(.groupPaging, from: 60, velocity: 0.1).targetContentOffset.x, 0)
    // Centred groups rest at 160 k − 69: from 100 (just past group 1's
    // rest, 91) a fling goes to group 2.
    p = plan(.groupPagingCentered, from: 100, velocity: 1)
    XCTAssertEqual(p.targetContentOffset.x, 251)
    XCTAssertEqual(p.targetItem, IndexPath(section: 0, item: 2))
    XCTAssertEqual(plan(.groupPagingCentered, from: 0, velocity: -1).targetContentOffset.x, -69)
    // The trajectory ends exactly at the target.
    XCTAssertEqual(p.trajectory.last, p.targetContentOffset)
    XCTAssertEqual(p.trajectory.first, Point(x: 100, y: 7))
  }

  func testScrollToItemAnswersTheRowOffset() {
    let l = layout(halves, [.uniform(2), Section.uniform(10).with(row())])
    let seven = IndexPath(section: 1, item: 7)
    // Item 7 spans 16 + 1120 … + 150: centred, 1211 − 160.
    XCTAssertEqual(l.rowTarget(for: seven, position: .center), 1051)
    XCTAssertEqual(l.rowTarget(for: seven, position: .leading), 1120)
    XCTAssertEqual(l.rowTarget(for: seven, position: .trailing), 1136 + 150 + 16 - 320)
    XCTAssertEqual(l.rowTarget(for: IndexPath(section: 1, item: 9), position: .leading), 1302)
    XCTAssertNil(l.rowTarget(for: IndexPath(section: 0, item: 1), position: .center))
  }

  // MARK: Row effects

  func testARowEffectScalesAndFadesByTheDistanceFromTheRowsCentre() {
    var s = row()
    s.contentInsets = .zero
    s.effect = RowEffect(
      scale: Curve(peak: 1, factor: 0.5, minimum: 0.5), alpha: Curve(peak: 1, factor: 1))
    var l = layout(s, [.uniform(10)])
    let cells = everything(l).filter { $0.kind == .cell }
    // Item 0's centre is 85 from the visible centre, d = 85 / 320.
    let d = 85.0 / 320
    XCTAssertEqual(cells[0].transform, .scale(1 - d / 2, 1 - d / 2))
    XCTAssertEqual(cells[0].alpha, 1 - d)
    XCTAssertEqual(cells[0].frame.width, 150 * (1 - d / 2))
    XCTAssertEqual(cells[0].center, Point(x: 75, y: 40))
    // Scrolled so that item 1 (centre 235) is at the centre: unscaled.
    l.setRowOffset(75, section: 0)
    let one = l.attributesForItem(IndexPath(section: 0, item: 1), bounds: r(0, 0, 320, 480))!
    XCTAssertEqual(one.transform, .identity)
    XCTAssertEqual(one.alpha, 1)
    XCTAssertEqual(one.frame, r(85, 0, 150, 80))
  }

  // MARK: Rule 8: estimated dimensions

  func testMeasuredItemsGrowTheirGroupAndMoveWhatFollows() {
    let s = SectionLayout(
      group: grp(
        .fractionalWidth(1), .estimated(44),
        [item(.fractionalWidth(1), .estimated(44), insets: insets(4, 4, 4, 4))]))
    var l = layout(s, [.uniform(3)])
    // Insets apply across (width) but not along the estimated height.
    XCTAssertEqual(frames(l), [r(4, 0, 312, 44), r(4, 44, 312, 44), r(4, 88, 312, 44)])
    l.setItemSizes([(IndexPath(section: 0, item: 1), Size(width: 500, height: 80))])
    XCTAssertEqual(frames(l), [r(4, 0, 312, 44), r(4, 44, 312, 80), r(4, 124, 312, 44)])
    XCTAssertEqual(l.contentSize.height, 168)
    // The same as a layout that started with the size.
    let fresh = layout(s, l.sections)
    XCTAssertEqual(frames(fresh), frames(l))
  }

  // MARK: Rule 9: rtl and horizontal scrolling

  func testRTLMirrorsAndHorizontalScrollingSwapsTheAxes() {
    var l = layout(halves, [.uniform(3), Section.uniform(10).with(row())]) {
      $0.layoutDirection = .rtl
    }
    l.setRowOffset(200, section: 1)
    let all = everything(l).filter { $0.kind == .cell }
    XCTAssertEqual(
      all.prefix(4).map(\.frame),
      [
        r(160, 0, 160, 100), r(0, 0, 160, 100), r(160, 100, 160, 100),
        // The row's item 0 at 16 − 200, mirrored.
        r(320 - (16 - 200) - 150, 200, 150, 80),
      ])
    // Horizontal: groups stack along x, and a row scrolls along y.
    var h = SectionLayout(
      group: grp(
        .fractionalWidth(0.5), .fractionalHeight(0.25),
        [item(.fractionalWidth(1), .fractionalHeight(1))]))
    h.interGroupSpacing = 0
    var column = SectionLayout(
      group: grp(.absolute(100), .absolute(150), [item(.fractionalWidth(1), .fractionalHeight(1))]))
    column.interGroupSpacing = 10
    column.orthogonalScrollingBehavior = .continuous
    var m = layout(h, [.uniform(2), Section.uniform(4).with(column)]) {
      $0.scrollDirection = .horizontal
    }
    XCTAssertEqual(frames(m), [r(0, 0, 160, 120), r(160, 0, 160, 120)])
    XCTAssertEqual(
      frames(m, section: 1),
      [r(320, 0, 100, 150), r(320, 160, 100, 150), r(320, 320, 100, 150), r(320, 480, 100, 150)])
    XCTAssertEqual(m.contentSize, Size(width: 420, height: 480))
    // 4 · 150 + 3 · 10 = 630 tall: offsets up to 150.
    m.setRowOffset(1000, section: 1)
    XCTAssertEqual(m.rowOffsets[1], 150)
    XCTAssertEqual(frames(m, section: 1)[1], r(320, 10, 100, 150))
  }

  // MARK: Live sessions

  func testABatchUpdateKeepsEachRowOnItsLeadingGroup() throws {
    var l = layout(halves, [.uniform(2), Section.uniform(10).with(row())])
    l.setRowOffset(200, section: 1)
    // Group 1 leads at 200 (its start 160, 40 in).
    var insert = BatchUpdate()
    insert.insertItems = [
      (IndexPath(section: 1, item: 0), Item()), (IndexPath(section: 1, item: 1), Item()),
    ]
    l.apply(try insert.apply(to: l.sections, uniformSize: .zero))
    XCTAssertEqual(l.rowOffsets, [1: 3 * 160 + 40])
    // The row follows its section when one is inserted before it.
    var section = BatchUpdate()
    section.insertSections = [(0, .uniform(1))]
    l.apply(try section.apply(to: l.sections, uniformSize: .zero))
    XCTAssertEqual(l.rowOffsets, [2: 520])
    // Deleting the leading item's group keeps the offset (clamped).
    var delete = BatchUpdate()
    delete.deleteItems = [IndexPath(section: 2, item: 3)]
    l.apply(try delete.apply(to: l.sections, uniformSize: .zero))
    XCTAssertEqual(l.rowOffsets, [2: 520])
    // Every frame equals a fresh layout's at the same offsets, to the bit.
    var fresh = layout(halves, l.sections)
    fresh.setRowOffset(520, section: 2)
    for s in 0..<3 { XCTAssertEqual(frames(fresh, section: s), frames(l, section: s)) }
  }

  func testIncrementalResultsAreBitIdenticalToAFullRecompute() throws {
    var g = SplitMix(state: 17)
    var s = SectionLayout(
      group: grp(
        .fractionalWidth(1), .estimated(33.3),
        [item(.fractionalWidth(1.0 / 3), .estimated(33.3))], spacing: .fixed(0.1)))
    s.interGroupSpacing = 0.7
    var l = layout(s, [.uniform(50), .uniform(30)])
    for step in 0..<40 {
      if step % 3 == 0 {
        let n = l.sections[0].count
        let sizes = (0..<3).map { _ in
          (
            IndexPath(section: 0, item: Int.random(in: 0..<n, using: &g)),
            Size(width: 10, height: Double(Int.random(in: 1...900, using: &g)) / 7)
          )
        }
        l.setItemSizes(sizes)
      } else {
        var b = BatchUpdate()
        let n = l.sections[0].count
        if step % 3 == 1 {
          b.insertItems = [(IndexPath(section: 0, item: Int.random(in: 0...n, using: &g)), Item())]
        } else {
          b.deleteItems = [IndexPath(section: 0, item: Int.random(in: 0..<n, using: &g))]
        }
        l.apply(try b.apply(to: l.sections, uniformSize: .zero))
      }
      let fresh = layout(s, l.sections)
      for sec in 0..<2 {
        XCTAssertEqual(
          frames(fresh, section: sec).map {
            [$0.x.bitPattern, $0.y.bitPattern, $0.height.bitPattern]
          },
          frames(l, section: sec).map { [$0.x.bitPattern, $0.y.bitPattern, $0.height.bitPattern] },
          "step \(step)")
      }
    }
  }

  func testExactSumTimesIsRepeatedAddition() {
    var g = SplitMix(state: 3)
    for _ in 0..<200 {
      let v = Double(Int.random(in: 0...1_000_000, using: &g)) / 997
      let k = Int.random(in: 0...300, using: &g)
      var sum = ExactSum.zero
      for _ in 0..<k { sum += ExactSum(v) }
      XCTAssertEqual(ExactSum(v).times(k), sum)
    }
    XCTAssertEqual(ExactSum(0.1).times(1 << 40).value, ExactSum(0.1 * 1024).times(1 << 30).value)
  }

  // MARK: Queries against brute force

  func randomLayout(_ g: inout SplitMix) -> Layout {
    func v(_ r: ClosedRange<Int>) -> Double { Double(Int.random(in: r, using: &g)) }
    func dim(_ axisIsWidth: Bool) -> LayoutDimension {
      switch Int.random(in: 0...3, using: &g) {
      case 0: return .fractionalWidth(v(1...10) / 10)
      case 1: return .fractionalHeight(v(1...10) / 20)
      case 2: return .absolute(v(5...150))
      default: return .estimated(v(5...120))
      }
    }
    func randomItem() -> LayoutItem {
      item(dim(true), dim(false), insets: insets(v(0...4), v(0...4), v(0...4), v(0...4)))
    }
    func randomSection() -> SectionLayout {
      var sub: [LayoutItem] = (0..<Int.random(in: 1...2, using: &g)).map { _ in randomItem() }
      if Bool.random(using: &g) {
        sub.append(
          .group(
            grp(
              Bool.random(using: &g) ? .vertical : .horizontal, .fractionalWidth(0.5),
              .fractionalHeight(1), [randomItem()], spacing: .fixed(v(0...6)))))
      }
      var s = SectionLayout(
        group: grp(
          Bool.random(using: &g) ? .vertical : .horizontal, dim(true), dim(false), sub,
          spacing: Bool.random(using: &g) ? .fixed(v(0...8)) : .flexible(v(0...8)),
          insets: insets(v(0...5), v(0...5), v(0...5), v(0...5))))
      s.interGroupSpacing = v(0...12)
      s.contentInsets = insets(v(0...10), v(0...10), v(0...10), v(0...10))
      s.orthogonalScrollingBehavior =
        OrthogonalScrollingBehavior.allCases.randomElement(using: &g)!
      for kind in [ElementKind.header, .footer] where Bool.random(using: &g) {
        s.boundarySupplementaryItems.append(
          BoundaryItem(
            kind: kind, size: size(.fractionalWidth(1), .absolute(v(10...40))),
            pinToVisibleBounds: Bool.random(using: &g)))
      }
      if Bool.random(using: &g) { s.background = insets(v(0...3), v(0...3), v(0...3), v(0...3)) }
      if s.scrollsOrthogonally && Bool.random(using: &g) {
        s.effect = RowEffect(scale: Curve(peak: v(8...13) / 10, factor: 0.6, minimum: 0.4))
      }
      return s
    }
    let main = randomSection()
    var sections: [Section] = []
    for _ in 0..<Int.random(in: 1...5, using: &g) {
      var sec = Section.uniform(Int.random(in: 0...30, using: &g))
      if Bool.random(using: &g) { sec.kindFields = randomSection() }
      sections.append(sec)
    }
    var l = layout(width: v(200...400), height: v(300...600), main, sections) {
      $0.scrollDirection = Bool.random(using: &g) ? .vertical : .horizontal
      $0.layoutDirection = Bool.random(using: &g) ? .ltr : .rtl
      $0.interSectionSpacing = v(0...20)
    }
    for s in 0..<sections.count where l.scrollsOrthogonally(section: s) {
      l.setRowOffset(v(0...600), section: s)
    }
    // Some measured sizes.
    var measured: [(IndexPath, Size)] = []
    for s in 0..<sections.count where sections[s].count > 0 && Bool.random(using: &g) {
      measured.append(
        (
          IndexPath(section: s, item: Int.random(in: 0..<sections[s].count, using: &g)),
          Size(width: v(5...200), height: v(5...200))
        ))
    }
    l.setItemSizes(measured)
    return l
  }

  /// A frame settles its centred item on the walk, in the plane, as
  /// `centeredItem` finds it, rows scrolled and row effects included.
  func testTheWalkSettlesTheCentredItem() {
    var g = SplitMix(state: 5)
    var settled = 0
    for _ in 0..<150 { settled += checkCentredWalk(randomLayout(&g), &g) }
    XCTAssertGreaterThan(settled, 500)
  }

  func testAttributesInRectAndItemAtPointMatchBruteForce() {
    var g = SplitMix(state: 42)
    for _ in 0..<150 {
      let l = randomLayout(&g)
      let size = l.contentSize
      let bounds = r(
        Double.random(in: -50...max(0, size.width), using: &g),
        Double.random(in: -50...max(0, size.height), using: &g), l.viewportSize.width,
        l.viewportSize.height)
      // Every element, each drawn as attributesForItem draws it.
      var all: [LayoutAttributes] = []
      for s in 0..<l.sections.count {
        for kind in [ElementKind.decoration, .header, .footer] {
          if let a = l.attributesForSupplementary(kind, section: s, bounds: bounds) {
            all.append(a)
          }
        }
        for i in 0..<l.sections[s].count {
          all.append(l.attributesForItem(IndexPath(section: s, item: i), bounds: bounds)!)
        }
      }
      for _ in 0..<5 {
        let rect = r(
          Double.random(in: -100...size.width + 50, using: &g),
          Double.random(in: -100...size.height + 50, using: &g),
          Double.random(in: 0...400, using: &g), Double.random(in: 0...400, using: &g))
        let got = l.attributes(in: rect, bounds: bounds)
        let want = all.filter { $0.frame.intersects(rect) }
        XCTAssertEqual(
          Set(got.map { "\($0.kind) \($0.section) \($0.item)" }),
          Set(want.map { "\($0.kind) \($0.section) \($0.item)" }))
        for a in got {
          XCTAssertEqual(
            a, all.first { $0.kind == a.kind && $0.section == a.section && $0.item == a.item })
        }
        XCTAssertGreaterThanOrEqual(l.elementCountBound(in: rect, bounds: bounds), got.count)
        // The written answer (attributesInRect's path) is the same.
        var written: [LayoutAttributes] = []
        l.forEachAttribute(in: rect, bounds: bounds) {
          written.append($0)
          return true
        }
        XCTAssertEqual(written, got)
        let p = Point(
          x: Double.random(in: -20...size.width + 20, using: &g),
          y: Double.random(in: -20...size.height + 20, using: &g))
        let top = all.filter { $0.kind == .cell && $0.outlineContains(p) }
          .max { ($0.zIndex, $0.indexPath) < ($1.zIndex, $1.indexPath) }
        XCTAssertEqual(l.itemAtPoint(p, bounds: bounds), top?.indexPath)
      }
    }
  }

  func testTheCentredItemOfItemsPackedIntoOnePlaceIsFoundByGroupNotByItem() {
    // A million items of no height, 0 apart: every group at y 0, two items
    // a group (centres at x 80 and 240). From a viewport far below, all
    // are as near along y; item 0 is nearest across and the earliest.
    let s = SectionLayout(
      group: grp(.fractionalWidth(1), .absolute(0), [item(.fractionalWidth(0.5), .absolute(0))]))
    let l = layout(s, [.uniform(1_000_000)])
    XCTAssertEqual(l.contentSize.height, 0)
    XCTAssertEqual(l.centeredItem(in: r(0, 1000, 320, 480)), IndexPath(section: 0, item: 0))
    XCTAssertEqual(l.centeredItem(in: r(100, 1000, 320, 480)), IndexPath(section: 0, item: 1))
    // A row of such groups: along the row the first is nearest x = 160.
    var flat = row()
    flat.group.size = size(.absolute(0), .absolute(80))
    flat.interGroupSpacing = 0
    let m = layout(flat, [.uniform(1_000_000)])
    XCTAssertEqual(m.centeredItem(in: r(0, 0, 320, 480)), IndexPath(section: 0, item: 0))
  }

  func testCenteredItemIsTheNearestCentre() {
    var g = SplitMix(state: 7)
    for _ in 0..<100 {
      let l = randomLayout(&g)
      let b = r(
        Double.random(in: 0...max(0, l.contentSize.width), using: &g),
        Double.random(in: 0...max(0, l.contentSize.height), using: &g), l.viewportSize.width,
        l.viewportSize.height)
      let c = l.toLTR(b).center
      var best: (Double, IndexPath)? = nil
      for s in 0..<l.sections.count {
        for i in 0..<l.sections[s].count {
          let f = l.placement.frameForItem(IndexPath(section: s, item: i)).center
          let d = ((f.x - c.x) * (f.x - c.x) + (f.y - c.y) * (f.y - c.y)).squareRoot()
          if best == nil || d < best!.0 { best = (d, IndexPath(section: s, item: i)) }
        }
      }
      XCTAssertEqual(l.centeredItem(in: b), best?.1)
    }
  }
}

extension Section {
  func with(_ layout: SectionLayout) -> Section {
    var s = self
    s.kindFields = layout
    return s
  }
}
