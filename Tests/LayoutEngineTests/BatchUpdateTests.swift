import XCTest

@testable import LayoutEngine

/// performBatchUpdates semantics: old paths for deletes, reloads and move
/// sources; new paths for inserts and move destinations.
final class BatchUpdateTests: XCTestCase {
  let unit = Size(width: 10, height: 10)

  func sized(_ widths: [Double]) -> Section {
    .sizes(widths.map { Size(width: $0, height: 10) })
  }

  func widths(_ s: Section) -> [Double] {
    switch s.items {
    case .uniform(let n): return Array(repeating: 10, count: n)
    case .sizes(let list): return list.map { $0 == Section.unsetSize ? 10 : $0.width }
    }
  }

  func path(_ s: Int, _ i: Int) -> IndexPath { IndexPath(section: s, item: i) }

  func testDeleteZeroAndInsertZeroKeepsAUniformSectionUniform() throws {
    var u = BatchUpdate()
    u.deleteItems = [path(0, 0)]
    u.insertItems = [(path(0, 0), Item())]
    let r = try u.apply(to: [.uniform(5)], uniformSize: unit)
    XCTAssertEqual(r.sections, [.uniform(5)])
    XCTAssertNil(r.oldPath(of: path(0, 0)))  // the new item
    XCTAssertEqual(r.oldPath(of: path(0, 1)), path(0, 1))
    XCTAssertNil(r.newPath(of: path(0, 0), deleted: [path(0, 0)]))
  }

  func testDeletesThenMovesThenInsertsWhateverTheRequestOrder() throws {
    // Old: a b c d e (widths 1…5). Delete b (old 1), move d (old 3) to new 0,
    // insert x (width 9) at new 2. Survivors a c e fill the free new slots
    // 1, 3, 4: d a x c e.
    var u = BatchUpdate()
    u.insertItems = [(path(0, 2), Item(size: Size(width: 9, height: 10)))]
    u.moveItems = [(path(0, 3), path(0, 0), nil)]
    u.deleteItems = [path(0, 1)]
    let r = try u.apply(to: [sized([1, 2, 3, 4, 5])], uniformSize: unit)
    XCTAssertEqual(widths(r.sections[0]), [4, 1, 9, 3, 5])
    XCTAssertEqual(r.oldPath(of: path(0, 0)), path(0, 3))
    XCTAssertEqual(r.oldPath(of: path(0, 1)), path(0, 0))
    XCTAssertNil(r.oldPath(of: path(0, 2)))
    XCTAssertEqual(r.oldPath(of: path(0, 3)), path(0, 2))
    XCTAssertEqual(r.oldPath(of: path(0, 4)), path(0, 4))
    let deleted: IndexPathSet = [path(0, 1)]
    XCTAssertEqual(r.newPath(of: path(0, 0), deleted: deleted), path(0, 1))
    XCTAssertEqual(r.newPath(of: path(0, 2), deleted: deleted), path(0, 3))
    XCTAssertEqual(r.newPath(of: path(0, 3), deleted: deleted), path(0, 0))
    XCTAssertEqual(r.newPath(of: path(0, 4), deleted: deleted), path(0, 4))
  }

  func testMovesAcrossSectionsCarrySizesAndIds() throws {
    var s0 = sized([1, 2, 3])
    s0.ids = [.string("a"), .string("b"), .string("c")]
    var u = BatchUpdate()
    u.moveItems = [(path(0, 1), path(1, 0), nil)]
    let r = try u.apply(to: [s0, .uniform(2)], uniformSize: unit)
    XCTAssertEqual(widths(r.sections[0]), [1, 3])
    XCTAssertEqual(r.sections[0].ids, [.string("a"), .string("c")])
    XCTAssertEqual(widths(r.sections[1]), [2, 10, 10])
    XCTAssertEqual(r.sections[1].ids, [.string("b"), nil, nil])
    XCTAssertEqual(r.oldPath(of: path(1, 0)), path(0, 1))
    XCTAssertEqual(r.oldPath(of: path(1, 2)), path(1, 1))
  }

  func testSectionOperationsMixedWithItemOperations() throws {
    // Old sections A(1) B(2) C(3) D(4) (uniform counts). Delete A, move D to
    // new 0, insert N(5) at new 2. Free slots 1, 3 take B, C: D B N C.
    // Item ops: delete B's item 0 (old path 1-0), insert into C (new 3) at 0.
    var u = BatchUpdate()
    u.deleteSections = [0]
    u.moveSections = [(3, 0)]
    u.insertSections = [(2, .uniform(5))]
    u.deleteItems = [path(1, 0)]
    u.insertItems = [(path(3, 0), Item())]
    let r = try u.apply(
      to: [.uniform(1), .uniform(2), .uniform(3), .uniform(4)], uniformSize: unit)
    XCTAssertEqual(r.sections.map(\.count), [4, 1, 5, 4])
    XCTAssertEqual(r.oldSection(of: 0), 3)
    XCTAssertEqual(r.oldSection(of: 1), 1)
    XCTAssertNil(r.oldSection(of: 2))
    XCTAssertEqual(r.oldSection(of: 3), 2)
    XCTAssertNil(r.newSection(of: 0))
    XCTAssertEqual(r.newPath(of: path(1, 1), deleted: [path(1, 0)]), path(1, 0))
    XCTAssertEqual(r.newPath(of: path(2, 0), deleted: []), path(3, 1))
    XCTAssertNil(r.oldPath(of: path(2, 3)))
  }

  func testReloadWithASizeMaterialisesTheSection() throws {
    var u = BatchUpdate()
    u.reloadItems = [(path(0, 1), Size(width: 30, height: 10))]
    let r = try u.apply(to: [.uniform(3)], uniformSize: unit)
    XCTAssertEqual(widths(r.sections[0]), [10, 30, 10])
  }

  func expectError(_ u: BatchUpdate, _ old: [Section], _ message: String, line: UInt = #line) {
    XCTAssertThrowsError(try u.apply(to: old, uniformSize: unit), line: line) { e in
      XCTAssertEqual((e as? BatchUpdateError)?.message, message, line: line)
    }
  }

  func testUIKitMessages() {
    var u = BatchUpdate()
    u.insertItems = [(path(0, 0), Item())]
    u.itemCounts = [4]
    expectError(
      u, [.uniform(2)],
      "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (4) must be equal to the number of items contained in that section before the update (2), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out)."
    )
    u = BatchUpdate()
    u.itemCounts = [1, 1, 1]
    expectError(
      u, [.uniform(1), .uniform(1)],
      "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (3) must be equal to the number of sections contained in the collection view before the update (2), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."
    )
    u = BatchUpdate()
    u.deleteItems = [path(0, 5)]
    expectError(
      u, [.uniform(3)],
      "attempt to delete item 5 from section 0 which only contains 3 items before the update")
    u = BatchUpdate()
    u.insertItems = [(path(0, 4), Item())]
    expectError(
      u, [.uniform(3)],
      "attempt to insert item 4 into section 0, but there are only 4 items in section 0 after the update"
    )
    u = BatchUpdate()
    u.deleteItems = [path(0, 1)]
    u.reloadItems = [(path(0, 1), nil)]
    expectError(
      u, [.uniform(3)],
      "attempt to delete and reload the same index path {length = 2, path = 0 - 1}")
    u = BatchUpdate()
    u.deleteItems = [path(0, 0)]
    u.moveItems = [(path(0, 0), path(0, 1), nil)]
    expectError(
      u, [.uniform(3)],
      "attempt to perform a delete and a move from the same index path {length = 2, path = 0 - 0}")
    u = BatchUpdate()
    u.deleteSections = [2]
    expectError(
      u, [.uniform(3)],
      "attempt to delete section 2, but there are only 1 sections before the update")
  }
}

extension BatchUpdateTests {
  /// One move within a section of sizes, made in place, gives what the
  /// general batch gives: the same sections, the same old path for every
  /// new one, the same edit, and a waterfall laid out from it the same.
  func testAMoveInPlaceIsTheGeneralBatchsMove() throws {
    var g = SplitMix(state: 11)
    var checked = 0
    for _ in 0..<300 {
      let sectionCount = Int.random(in: 1...3, using: &g)
      let sections: [Section] = (0..<sectionCount).map { _ in
        let n = Int.random(in: 0...40, using: &g)
        if Int.random(in: 0..<5, using: &g) == 0 { return .uniform(n) }
        var s = Section.sizes(
          (0..<n).map { _ in
            Size(
              width: Double(Int.random(in: 10...90, using: &g)),
              height: Double(Int.random(in: 10...90, using: &g)))
          })
        if Bool.random(using: &g) { s.ids = IDList((0..<n).map { .int(Int64($0)) }) }
        return s
      }
      var c = WaterfallConfiguration()
      c.columnCount = Int.random(in: 1...4, using: &g)
      let layout = Layout(
        type: .waterfall(c), sections: sections, viewportSize: Size(width: 320, height: 480))
      let s = Int.random(in: 0..<sectionCount, using: &g)
      let n = sections[s].count
      guard n > 0 else { continue }
      let a = IndexPath(section: s, item: Int.random(in: 0..<n, using: &g))
      let b = IndexPath(section: s, item: Int.random(in: 0..<n, using: &g))
      var u = BatchUpdate()
      u.moveItems = [(a, b, nil)]
      let general = try u.apply(to: sections, uniformSize: layout.type.uniformItemSize)
      var edited = layout
      guard let fast = edited.movingItem(from: a, to: b) else {
        // Only a uniform section or a move onto itself goes the general way.
        XCTAssertTrue(a == b || { if case .uniform = sections[s].items { true } else { false } }())
        continue
      }
      checked += 1
      XCTAssertEqual(fast.sections, general.sections)
      XCTAssertEqual(fast.edits, general.edits)
      for t in 0..<sectionCount {
        for i in 0..<fast.sections[t].count {
          let p = IndexPath(section: t, item: i)
          XCTAssertEqual(fast.oldPath(of: p), general.oldPath(of: p))
        }
      }
      var viaGeneral = layout
      viaGeneral.apply(general)
      edited.apply(fast)
      let all = Rect(x: -1, y: -1, width: 400, height: 1e5)
      XCTAssertEqual(
        edited.attributes(in: all, bounds: all), viaGeneral.attributes(in: all, bounds: all))
    }
    XCTAssertGreaterThan(checked, 150)
  }

  /// The shuffle's O(log ops) mappings against a walk of the survivors:
  /// random removed old indices and added new ones.
  func testShuffleMapsSurvivorsAsAWalkDoes() {
    var g = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let old = Int.random(in: 0...40, using: &g)
      let removed = (0..<old).filter { _ in Int.random(in: 0..<3, using: &g) == 0 }
      let survivors = (0..<old).filter { !removed.contains($0) }
      let new = survivors.count + Int.random(in: 0...10, using: &g)
      let added = Array((0..<new).shuffled(using: &g).prefix(new - survivors.count)).sorted()
      let shuffle = ItemShuffle(removedOld: removed, addedNew: added)
      // Survivors fill the new slots not added, in order.
      var k = 0
      for i in 0..<new where !added.contains(i) {
        XCTAssertEqual(shuffle.oldIndex(ofNew: i), survivors[k])
        XCTAssertEqual(shuffle.newIndex(ofOld: survivors[k]), i)
        k += 1
      }
      XCTAssertEqual(k, survivors.count)
    }
  }
}
