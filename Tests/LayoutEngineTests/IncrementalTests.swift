import XCTest

@testable import LayoutEngine

/// The rope and the incremental relayout must give exactly what building
/// from scratch gives. Nodes are shrunk so that a few hundred items make
/// trees several levels deep, and sizes are multiples of 0.5 so that every
/// sum is exact whatever order it is taken in.
final class IncrementalTests: SmallRopeTestCase {
  /// Sizes in thirds and sevenths instead of halves: their sums are not
  /// exact in binary, so two summation orders round differently.
  var inexact = false

  func randomSize(_ g: inout SplitMix) -> Size {
    if Int.random(in: 0..<8, using: &g) == 0 { return Section.unsetSize }
    return Size(
      width: Double(Int.random(in: 2...240, using: &g)) / (inexact ? 3 : 2),
      height: Double(Int.random(in: 2...160, using: &g)) / (inexact ? 7 : 2))
  }

  /// The same random batches on sizes whose sums round: positions must still
  /// be the same doubles whatever tree of summaries reached them (a rope
  /// edited in place and one built at once group their sums differently).
  func testBatchesOnInexactSizesRelayoutBitForBitAsAFullRecompute() throws {
    inexact = true
    defer { inexact = false }
    try testBatchesRelayoutIncrementallyExactlyAsAFullRecompute()
  }

  func testRopeMatchesAnArrayAndCopiesStayUnchanged() {
    var g = SplitMix(state: 7)
    var runsSeen = 0
    defer { XCTAssertGreaterThan(runsSeen, 500, "runs went untested") }
    for _ in 0..<20 {
      var model = (0..<Int.random(in: 0...60, using: &g)).map { _ in randomSize(&g) }
      var rope = SizeList(model)
      if Bool.random(using: &g) {
        // A uniform stretch: one run leaf (leaves hold 4 here).
        model = Array(repeating: Section.unsetSize, count: model.count)
        rope = SizeList(repeating: Section.unsetSize, count: model.count)
      }
      for _ in 0..<150 {
        let before = rope
        let beforeModel = model
        switch Int.random(in: 0..<6, using: &g) {
        case 5 where !model.isEmpty:
          // A stretch replaced: in one leaf by one edit, else by a removal
          // and an insert (a run or a long rope coming in).
          let a = Int.random(in: 0..<model.count, using: &g)
          let b = min(model.count, a + Int.random(in: 1...6, using: &g))
          let k = Int.random(in: 0...8, using: &g)
          let new =
            Bool.random(using: &g)
            ? (0..<k).map { _ in randomSize(&g) }
            : Array(repeating: randomSize(&g), count: k * 3)
          let other = new.count > 12 ? SizeList(repeating: new[0], count: new.count) : SizeList(new)
          rope.replaceSubrange(a..<b, with: other)
          model.replaceSubrange(a..<b, with: new)
        case 4:
          // Runs spliced in: some long enough to stay runs, some joining
          // a neighbour of the same size.
          let i = Int.random(in: 0...model.count, using: &g)
          let k = Int.random(in: 0...20, using: &g)
          let s = Bool.random(using: &g) && !model.isEmpty ? model[max(i - 1, 0)] : randomSize(&g)
          rope.insert(repeating: s, count: k, at: i)
          model.insert(contentsOf: repeatElement(s, count: k), at: i)
        case 0:
          let i = Int.random(in: 0...model.count, using: &g)
          // Up to 40: from 12 on (4 leaves' fill) they go in as whole
          // leaves between the halves of the leaf at i.
          let new = (0..<Int.random(in: 1...40, using: &g)).map { _ in randomSize(&g) }
          rope.insert(contentsOf: new, at: i)
          model.insert(contentsOf: new, at: i)
        case 1 where !model.isEmpty:
          let a = Int.random(in: 0..<model.count, using: &g)
          // Over 8 (two leaves), whole leaves and subtrees go at once.
          let b = min(model.count, a + Int.random(in: 1...40, using: &g))
          rope.removeSubrange(a..<b)
          model.removeSubrange(a..<b)
        case 2 where !model.isEmpty:
          let i = Int.random(in: 0..<model.count, using: &g)
          let s = randomSize(&g)
          rope.set(i, s)
          model[i] = s
        default:
          let i = Int.random(in: 0...model.count, using: &g)
          let s = randomSize(&g)
          rope.insert(s, at: i)
          model.insert(s, at: i)
        }
        XCTAssertEqual(rope.array, model)
        XCTAssertEqual(rope.count, model.count)
        XCTAssertNil(rope.invariantViolation())
        XCTAssertEqual(rope, SizeList(model))
        rope.forEachLeaf(from: 0) { _, leaf, _ in
          runsSeen += leaf.repeats > 0 ? 1 : 0
          return true
        }
        XCTAssertEqual(before.array, beforeModel, "an edit changed a copy")
        let expected = SizeSummary(model[...])
        let got = rope.summary
        XCTAssertEqual(got.count, expected.count)
        XCTAssertEqual(got.unset, expected.unset)
        XCTAssertEqual(got.sumWidth, expected.sumWidth)
        XCTAssertEqual(got.sumHeight, expected.sumHeight)
        XCTAssertEqual(got.minWidth, expected.minWidth)
        XCTAssertEqual(got.maxHeight, expected.maxHeight)
        if !model.isEmpty {
          let i = Int.random(in: 0..<model.count, using: &g)
          XCTAssertEqual(rope[i], model[i])
          var tail: [Size] = []
          rope.forEach(from: i) {
            tail.append($0)
            return true
          }
          XCTAssertEqual(tail, Array(model[i...]))
        }
      }
    }
  }

  func testBulkAppendsKeepTheTreeValidAndEqualOneEdit() {
    // Appends of 0 to 40 elements (a leaf's fill is 3 here: many leaves a
    // call) mixed with inserts and removes anywhere, against an array; the
    // B-tree invariants and every node's summary checked after each step.
    var g = SplitMix(state: 23)
    for _ in 0..<30 {
      var model = (0..<Int.random(in: 0...20, using: &g)).map { _ in randomSize(&g) }
      var rope = SizeList(model)
      for _ in 0..<60 {
        let before = rope
        let beforeModel = model
        switch Int.random(in: 0..<5, using: &g) {
        case 0, 1, 2:
          let new = (0..<Int.random(in: 0...40, using: &g)).map { _ in randomSize(&g) }
          rope.append(contentsOf: new)
          model.append(contentsOf: new)
        case 3:
          let i = Int.random(in: 0...model.count, using: &g)
          let new = (0..<Int.random(in: 1...6, using: &g)).map { _ in randomSize(&g) }
          rope.insert(contentsOf: new, at: i)
          model.insert(contentsOf: new, at: i)
        default:
          guard !model.isEmpty else { continue }
          let a = Int.random(in: 0..<model.count, using: &g)
          let b = min(model.count, a + Int.random(in: 1...8, using: &g))
          rope.removeSubrange(a..<b)
          model.removeSubrange(a..<b)
        }
        XCTAssertEqual(rope.array, model)
        XCTAssertNil(rope.invariantViolation())
        XCTAssertEqual(before.array, beforeModel, "an append changed a copy")
        XCTAssertNil(before.invariantViolation())
      }
    }
  }

  func testDeepRopeHasLevelsAndStaysBalancedUnderAppends() {
    var rope = SizeList()
    for i in 0..<500 { rope.insert(Size(width: Double(i), height: 1), at: rope.count) }
    var depth = 0
    var node = rope.root
    while !node.isLeaf {
      depth += 1
      node = node.children[0]
    }
    // 500 items in leaves of at most 4, nodes of at most 3 children: at
    // least log3(125) ≈ 4.4 levels above the leaves, and every leaf at one
    // depth.
    XCTAssertGreaterThanOrEqual(depth, 5)
    XCTAssertEqual(rope[321], Size(width: 321, height: 1))
  }

  /// A random batch on one section: deletes, inserts (some with sizes of
  /// their own, some without), reloads with new sizes, and sometimes a move.
  func randomBatch(_ layout: Layout, _ g: inout SplitMix) -> BatchUpdate {
    var u = BatchUpdate()
    let s = Int.random(in: 0..<layout.sections.count, using: &g)
    let n = layout.sections[s].count
    var deletes = Set<Int>()
    if n > 0 {
      for _ in 0..<Int.random(in: 0...3, using: &g) {
        deletes.insert(Int.random(in: 0..<n, using: &g))
      }
    }
    // Sometimes a run at the start, the end or the middle.
    if n > 6 && Bool.random(using: &g) {
      let a = [0, n - 5, n / 2].randomElement(using: &g)!
      for i in a..<min(n, a + 4) { deletes.insert(i) }
    }
    u.deleteItems = deletes.map { IndexPath(section: s, item: $0) }
    let inserts = Int.random(in: 0...4, using: &g)
    let after = n - deletes.count + inserts
    var slots = Set<Int>()
    while slots.count < inserts { slots.insert(Int.random(in: 0..<after, using: &g)) }
    u.insertItems = slots.map { i in
      let size = randomSize(&g)
      return (IndexPath(section: s, item: i), Item(size: size == Section.unsetSize ? nil : size))
    }
    let survivors = (0..<n).filter { !deletes.contains($0) }
    if let r = survivors.randomElement(using: &g), Bool.random(using: &g) {
      u.reloadItems = [(IndexPath(section: s, item: r), randomSize(&g))]
    }
    if layout.sections.count > 1, let from = survivors.randomElement(using: &g),
      Int.random(in: 0..<3, using: &g) == 0, u.reloadItems.first?.path.item != from
    {
      let t = Int.random(in: 0..<layout.sections.count, using: &g)
      let count = t == s ? after + 1 - 1 : layout.sections[t].count + 1
      u.moveItems = [
        (
          IndexPath(section: s, item: from),
          IndexPath(section: t, item: Int.random(in: 0..<count, using: &g)), nil
        )
      ]
      if t == s { u.insertItems.removeAll { $0.path == u.moveItems[0].to } }
    }
    return u
  }

  func sizeArray(_ s: Section) -> [Size] {
    switch s.items {
    case .uniform(let n): return Array(repeating: Section.unsetSize, count: n)
    case .sizes(let list): return list.array
    }
  }

  func assertSameLayout(
    _ incremental: Layout, _ g: inout SplitMix, file: StaticString = #filePath, line: UInt = #line
  ) {
    let full = Layout(
      type: incremental.type, sections: incremental.sections,
      contentInset: incremental.contentInset, viewportSize: incremental.viewportSize)
    XCTAssertEqual(incremental.contentSize, full.contentSize, file: file, line: line)
    for (a, b) in zip(incremental.geometry.sections, full.geometry.sections) {
      XCTAssertEqual(a.lineCount, b.lineCount, file: file, line: line)
      switch (a.lines, b.lines) {
      case (.variable(_, let x), .variable(_, let y)):
        XCTAssertEqual(x.array.map(\.items), y.array.map(\.items), file: file, line: line)
        XCTAssertEqual(x.array.map(\.thickness), y.array.map(\.thickness), file: file, line: line)
      case (.uniform, .uniform), (.single, .single): break
      default: XCTFail("line storage differs", file: file, line: line)
      }
    }
    let flat = Layout(
      type: incremental.type, sections: flat(incremental.sections),
      contentInset: incremental.contentInset, viewportSize: incremental.viewportSize)
    XCTAssertEqual(flat.contentSize, full.contentSize, file: file, line: line)
    for (a, b) in zip(flat.geometry.sections, full.geometry.sections) {
      if case (.variable(_, let x), .variable(_, let y)) = (a.lines, b.lines) {
        XCTAssertEqual(x.array.map(\.items), y.array.map(\.items), file: file, line: line)
        XCTAssertEqual(x.array.map(\.thickness), y.array.map(\.thickness), file: file, line: line)
      }
    }
    let size = full.contentSize
    let everything = Rect(x: -1000, y: -1000, width: size.width + 2000, height: size.height + 2000)
    let bounds = Rect(
      x: Double(Int.random(in: 0...Int(max(size.width, 1)), using: &g)),
      y: Double(Int.random(in: 0...Int(max(size.height, 1)), using: &g)),
      width: incremental.viewportSize.width, height: incremental.viewportSize.height)
    XCTAssertEqual(
      incremental.attributes(in: everything, bounds: bounds),
      full.attributes(in: everything, bounds: bounds), file: file, line: line)
    XCTAssertEqual(
      flat.attributes(in: everything, bounds: bounds),
      full.attributes(in: everything, bounds: bounds), file: file, line: line)
    XCTAssertEqual(
      incremental.targetContentOffset(proposed: bounds.origin).offset,
      full.targetContentOffset(proposed: bounds.origin).offset, file: file, line: line)
  }

  func testBatchesRelayoutIncrementallyExactlyAsAFullRecompute() throws {
    var g = SplitMix(state: 42)
    var applied = 0
    for round in 0..<24 {
      var c = FlowConfiguration()
      c.scrollDirection = round % 2 == 0 ? .vertical : .horizontal
      c.itemSize = Size(width: 40, height: 30)
      c.minimumLineSpacing = Double(Int.random(in: 0...12, using: &g))
      c.minimumInteritemSpacing = Double(Int.random(in: 0...12, using: &g))
      let type: LayoutType
      if round % 3 == 2 {
        var cf = CoverFlowConfiguration()
        cf.flow.scrollDirection = c.scrollDirection
        cf.flow.minimumLineSpacing = c.minimumLineSpacing
        type = .coverFlow(cf)
      } else {
        type = .flow(c)
      }
      let sections = (0..<Int.random(in: 1...3, using: &g)).map { _ -> Section in
        let n = Int.random(in: 0...80, using: &g)
        return Bool.random(using: &g) && round % 4 != 0
          ? .uniform(n) : .sizes((0..<n).map { _ in randomSize(&g) })
      }
      var layout = Layout(
        type: type, sections: sections, viewportSize: Size(width: 320, height: 480))
      for _ in 0..<40 {
        let pick = Int.random(in: 0..<6, using: &g)
        if pick == 5 {
          // The bulk path: items appended at a section's end, with sizes
          // (some without one of their own), or uniform ones.
          let s = Int.random(in: 0..<layout.sections.count, using: &g)
          let k = Int.random(in: 0...90, using: &g)
          let sizes =
            Bool.random(using: &g)
            ? nil
            : (0..<k).map { _ in
              Int.random(in: 0..<4, using: &g) == 0 ? Section.unsetSize : randomSize(&g)
            }
          let before = layout
          let snapshot = before.sections.map(sizeArray)
          let count = layout.sections[s].count
          layout.appendItems(section: s, count: k, sizes: sizes, ids: nil)
          XCTAssertEqual(layout.sections[s].count, count + k)
          XCTAssertEqual(before.sections.map(sizeArray), snapshot)
          if let sizes {
            XCTAssertEqual(Array(sizeArray(layout.sections[s]).suffix(k)), sizes)
          }
        } else if pick == 0 {
          // Self-sizing reports go through the same re-breaking.
          let s = Int.random(in: 0..<layout.sections.count, using: &g)
          let n = layout.sections[s].count
          guard n > 0 else { continue }
          let updates = (0..<Int.random(in: 1...3, using: &g)).map { _ in
            (IndexPath(section: s, item: Int.random(in: 0..<n, using: &g)), randomSize(&g))
          }.filter { $0.1 != Section.unsetSize }
          layout.setItemSizes(updates)
        } else {
          let u = randomBatch(layout, &g)
          guard
            let result = try? u.apply(to: layout.sections, uniformSize: c.uniformItemSize)
          else { continue }
          let before = layout
          let snapshot = before.sections.map(sizeArray)
          layout.apply(result)
          applied += 1
          // The layout before the batch (which a session keeps for its
          // animation lists) is untouched by the in-place edit.
          XCTAssertEqual(before.sections.map(sizeArray), snapshot)
        }
        assertSameLayout(layout, &g)
      }
    }
    XCTAssertGreaterThan(applied, 600)
  }

  func testPositionsAreExactAtTenMillionCards() {
    // Doubles throughout: the last of 10 million cards of varied widths
    // (halves included) sits exactly at the sum of everything before it,
    // where 32-bit floats are tens of thousands of points off.
    RopeLimits.leafCapacity = 64
    RopeLimits.fanout = 32
    let n = 10_000_000
    // Twice every width is an integer, so the expected sum is exact.
    func twice(_ k: Int) -> Int { 80 + 2 * (k % 97) + (k % 2 == 0 ? 1 : 0) }
    let widths = (0..<n).map { Double(twice($0)) / 2 }
    var cf = CoverFlowConfiguration()
    cf.flow.itemSize = Size(width: 100, height: 100)
    let layout = Layout(
      type: .coverFlow(cf), sections: [.sizes(widths.map { Size(width: $0, height: 100) })],
      viewportSize: Size(width: 375, height: 300))
    var sum = 0
    for k in 0..<(n - 1) { sum += twice(k) }
    let lead = (375 - widths[0]) / 2
    let x = lead + Double(sum) / 2 + Double(n - 1) * 20
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: n - 1)).x, x)
    // Centred in the viewport, it is the centred card, unscaled, its
    // centre exactly where the sum puts it.
    let center = x + widths[n - 1] / 2
    let bounds = Rect(x: center - 187.5, y: 0, width: 375, height: 300)
    XCTAssertEqual(layout.centeredItem(in: bounds), IndexPath(section: 0, item: n - 1))
    let card = layout.attributes(in: bounds, bounds: bounds).first { $0.item == n - 1 }
    XCTAssertEqual(card?.center.x, center)
    XCTAssertEqual(card?.frame.width, widths[n - 1])
    XCTAssertNotEqual(Double(Float(x)), x)  // a 32-bit float cannot hold it
  }

  func testAppendedIdsLineUpWithTheirItems() {
    var layout = Layout(
      type: .flow(FlowConfiguration()), sections: [.uniform(3)],
      viewportSize: Size(width: 320, height: 480))
    // Ids for new items only: the old ones get none.
    layout.appendItems(section: 0, count: 2, sizes: nil, ids: [.int(7), .string("x")])
    XCTAssertEqual(layout.sections[0].ids?.array, [nil, nil, nil, .int(7), .string("x")])
    XCTAssertEqual(layout.sections[0].count, 5)
    // A section with ids gives items appended without them none.
    layout.appendItems(
      section: 0, count: 2, sizes: [Size(width: 10, height: 20), Size(width: 30, height: 40)],
      ids: nil)
    XCTAssertEqual(layout.sections[0].ids?.array.count, 7)
    XCTAssertEqual(layout.sections[0].ids?[6], .some(nil))
    XCTAssertEqual(sizeArray(layout.sections[0]).last, Size(width: 30, height: 40))
    // A uniform section appended without sizes stays uniform: O(1).
    var plain = Layout(
      type: .flow(FlowConfiguration()), sections: [.uniform(3)],
      viewportSize: Size(width: 320, height: 480))
    plain.appendItems(section: 0, count: 1_000_000, sizes: nil, ids: nil)
    XCTAssertEqual(plain.sections[0].items, .uniform(count: 1_000_003))
  }

  func testAnInsertAtTheFrontOfARowStoresNoLinesAndSharesTheOtherLeaves() throws {
    // A single row of 10,000 cards keeps no per-line records (line j is
    // card j); the insert copies only the path to the first leaf.
    RopeLimits.leafCapacity = 64
    RopeLimits.fanout = 32
    var cf = CoverFlowConfiguration()
    cf.flow.itemSize = Size(width: 100, height: 100)
    let sizes = (0..<10_000).map { Size(width: Double(50 + $0 % 100), height: 100) }
    var layout = Layout(
      type: .coverFlow(cf), sections: [.sizes(sizes)], viewportSize: Size(width: 375, height: 300))
    var u = BatchUpdate()
    u.insertItems = [(IndexPath(section: 0, item: 0), Item(size: Size(width: 77, height: 100)))]
    let before = layout
    layout.apply(try u.apply(to: layout.sections, uniformSize: cf.flow.itemSize))
    guard case .single(let old) = before.geometry.sections[0].lines,
      case .single(let new) = layout.geometry.sections[0].lines
    else { return XCTFail("expected a single row") }
    XCTAssertEqual(old.count, 10_000)
    XCTAssertEqual(new.count, 10_001)
    XCTAssertEqual(new[0], Size(width: 77, height: 100))
    XCTAssertEqual(new[1], Size(width: 50, height: 100))
    XCTAssertTrue(old.root.children.last === new.root.children.last)
    XCTAssertEqual(layout.geometry.sections[0].lineInfo(5000).items, 5000..<5001)
    // The new first card is centred at rest ((375 − 77) / 2), and the old
    // first card follows it after the line spacing (20).
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: 0)).x, 149)
    XCTAssertEqual(layout.geometry.frameForItem(IndexPath(section: 0, item: 1)).x, 149 + 77 + 20)
    // Card 10,000 (the old 9,999) ends the row: the sum of every width
    // before it and 10,000 gaps of 20 after the first card's inset.
    let widths = (0..<9_999).reduce(77.0) { $0 + Double(50 + $1 % 100) }
    XCTAssertEqual(
      layout.geometry.frameForItem(IndexPath(section: 0, item: 10_000)).x,
      149 + widths + 10_000 * 20)
  }

  func testAnInsertAtTheFrontOfWrappingLinesReBreaksOneLine() throws {
    // Items 200 wide in a 375-wide column: one per line, as flow breaks
    // them (not a carousel row), so the section keeps line records.
    RopeLimits.leafCapacity = 64
    RopeLimits.fanout = 32
    let sizes = (0..<10_000).map { Size(width: 200, height: Double(20 + $0 % 50)) }
    var layout = Layout(
      type: .flow(FlowConfiguration()), sections: [.sizes(sizes)],
      viewportSize: Size(width: 375, height: 600))
    var u = BatchUpdate()
    u.insertItems = [(IndexPath(section: 0, item: 0), Item(size: Size(width: 200, height: 33)))]
    let before = layout
    layout.apply(try u.apply(to: layout.sections, uniformSize: FlowConfiguration().itemSize))
    guard case .variable(_, let old) = before.geometry.sections[0].lines,
      case .variable(_, let new) = layout.geometry.sections[0].lines
    else { return XCTFail("expected line records") }
    XCTAssertEqual(old.count, 10_000)
    XCTAssertEqual(new.count, 10_001)
    XCTAssertEqual(new[0].thickness, 33)
    XCTAssertEqual(new[1].thickness, 20)
    XCTAssertTrue(old.root.children.last === new.root.children.last)
  }
}
