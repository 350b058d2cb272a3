import XCTest

@testable import LayoutEngine

/// The snapshot diff (Diffing/): minimal moves, its tie rule, sections
/// deleted and inserted around their items, sizes and fields, validation,
/// and the batch applied giving exactly the snapshot.
final class SnapshotTests: XCTestCase {
  let unit = Size(width: 10, height: 10)

  func s(_ v: String) -> ItemID { .string(v) }

  /// A section with ids (and optional sizes by id).
  func section(_ id: String, _ items: [String], sizes: [String: Size] = [:]) -> Section {
    var section: Section =
      sizes.isEmpty
      ? .uniform(items.count) : .sizes(items.map { sizes[$0] ?? Section.unsetSize })
    section.id = s(id)
    section.ids = IDList(items.map { s($0) })
    return section
  }

  func snapshot(_ sections: [(String, [String])]) -> Snapshot {
    Snapshot(
      sections: sections.map { id, items in
        SnapshotSection(id: s(id), items: items.map { SnapshotItem(id: s($0)) })
      })
  }

  /// The ids of `sections`, section by section.
  func ids(_ sections: [Section]) -> [[String]] {
    sections.map { section in
      (section.ids?.array ?? []).map {
        guard case .string(let v) = $0 else { return "?" }
        return v
      }
    }
  }

  func path(_ s: Int, _ i: Int) -> IndexPath { IndexPath(section: s, item: i) }

  func testTheLongestIncreasingRunStaysAndTiesKeepTheSmallestOldIndices() {
    XCTAssertEqual(longestIncreasingMask([1, 0]), [false, true])
    XCTAssertEqual(longestIncreasingMask([1, 0, 2]), [false, true, true])
    XCTAssertEqual(longestIncreasingMask([3, 4, 0, 1, 2]), [false, false, true, true, true])
    // Two runs of 2 end at 5: (1, 5) and (0, 5); 0 is the smaller.
    XCTAssertEqual(longestIncreasingMask([1, 0, 5]), [false, true, true])
    XCTAssertEqual(longestIncreasingMask([]), [])
  }

  /// The mask against the tie rule as documented, computed by quadratic
  /// dynamic programming, on random permutations that mostly increase
  /// (as sections with a few moves do) and on shuffled ones.
  func testTheMaskFollowsTheDocumentedTieRule() {
    var rng = SystemRandomNumberGenerator()
    for round in 0..<300 {
      let n = Int.random(in: 1...60, using: &rng)
      var values = Array(0..<n)
      if round % 2 == 0 {
        values.shuffle(using: &rng)
      } else {
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          let v = values.remove(at: Int.random(in: 0..<n, using: &rng))
          values.insert(v, at: Int.random(in: 0..<n, using: &rng))
        }
      }
      // length[i]: the longest increasing run ending at i.
      var length = [Int](repeating: 1, count: n)
      for i in 0..<n {
        for j in 0..<i where values[j] < values[i] { length[i] = max(length[i], length[j] + 1) }
      }
      var expected = [Bool](repeating: false, count: n)
      let best = length.max()!
      // The last kept: of those ending a longest run, the smallest value;
      // each earlier: of those before it ending a run one shorter, the
      // smallest value.
      var next = (0..<n).filter { length[$0] == best }.min { values[$0] < values[$1] }!
      expected[next] = true
      while length[next] > 1 {
        next = (0..<next).filter { length[$0] == length[next] - 1 }.min {
          values[$0] < values[$1]
        }!
        expected[next] = true
      }
      XCTAssertEqual(longestIncreasingMask(values), expected, "\(values)")
    }
  }

  func testOneItemMovedToTheFrontIsOneMove() throws {
    let old = [section("A", ["a", "b", "c", "d"])]
    let u = try XCTUnwrap(snapshot([("A", ["d", "a", "b", "c"])]).batch(from: old))
    XCTAssertEqual(u.moveItems.map(\.from), [path(0, 3)])
    XCTAssertEqual(u.moveItems.map(\.to), [path(0, 0)])
    XCTAssertTrue(u.deleteItems.isEmpty && u.insertItems.isEmpty && u.moveSections.isEmpty)
    let r = try u.apply(to: old, uniformSize: unit)
    XCTAssertEqual(ids(r.sections), [["d", "a", "b", "c"]])
  }

  func testASwapOfTwoKeepsTheFirstAndMovesTheOther() throws {
    // Old [a, b] as [b, a]: a (old 0) stays, b moves to the front.
    let old = [section("A", ["a", "b"])]
    let u = try XCTUnwrap(snapshot([("A", ["b", "a"])]).batch(from: old))
    XCTAssertEqual(u.moveItems.map(\.from), [path(0, 1)])
    XCTAssertEqual(u.moveItems.map(\.to), [path(0, 0)])
  }

  func testItemsLeavingADeletedSectionAreDeletedAndInsertedWithTheirSizes() throws {
    let tall = Size(width: 10, height: 99)
    let old = [section("A", ["a", "b"], sizes: ["b": tall]), section("B", ["c"])]
    let u = try XCTUnwrap(snapshot([("B", ["c", "b"]), ("N", ["a", "n"])]).batch(from: old))
    XCTAssertEqual(u.deleteSections, [0])
    XCTAssertTrue(u.moveItems.isEmpty && u.deleteItems.isEmpty)
    // b joins B (inserted with its size); a and n come with section N.
    XCTAssertEqual(u.insertItems.map(\.path), [path(0, 1)])
    XCTAssertEqual(u.insertItems.first?.item.size, tall)
    XCTAssertEqual(u.insertSections.map(\.index), [1])
    XCTAssertEqual(u.insertSections.first?.section.id, s("N"))
    let r = try u.apply(to: old, uniformSize: unit)
    XCTAssertEqual(ids(r.sections), [["c", "b"], ["a", "n"]])
    XCTAssertEqual(r.sections[0].item(1).size, tall)
  }

  func testSectionsMoveMinimallyAndCarryTheirItems() throws {
    let old = [section("A", ["a"]), section("B", ["b"]), section("C", ["c"])]
    let u = try XCTUnwrap(snapshot([("C", ["c"]), ("A", ["a"]), ("B", ["b"])]).batch(from: old))
    XCTAssertEqual(u.moveSections.map(\.from), [2])
    XCTAssertEqual(u.moveSections.map(\.to), [0])
    XCTAssertTrue(u.moveItems.isEmpty)
    let r = try u.apply(to: old, uniformSize: unit)
    XCTAssertEqual(ids(r.sections), [["c"], ["a"], ["b"]])
  }

  func testASizeRidesOnAMoveOrIsAReconfigure() throws {
    let old = [section("A", ["a", "b", "c"])]
    var snap = snapshot([("A", ["c", "a", "b"])])
    let big = Size(width: 40, height: 40)
    snap.sections[0].items[0].size = big  // c moves and grows
    snap.sections[0].items[1].size = big  // a stays and grows
    let u = try XCTUnwrap(snap.batch(from: old))
    XCTAssertEqual(u.moveItems.count, 1)
    XCTAssertEqual(u.moveItems.first?.size, big)
    XCTAssertEqual(u.reconfigureItems.map(\.path), [path(0, 0)])
    XCTAssertEqual(u.reconfigureItems.first?.size, big)
    let r = try u.apply(to: old, uniformSize: unit)
    XCTAssertEqual(r.sections[0].item(0).size, big)
    XCTAssertEqual(r.sections[0].item(1).size, big)
    XCTAssertNil(r.sections[0].item(2).size)
  }

  func testAReloadedItemThatWouldMoveIsDeletedAndInserted() throws {
    let old = [section("A", ["a", "b", "c"])]
    var snap = snapshot([("A", ["c", "a", "b"])])
    snap.reloadItems = [SnapshotItem(id: s("c")), SnapshotItem(id: s("a"))]
    let u = try XCTUnwrap(snap.batch(from: old))
    XCTAssertTrue(u.moveItems.isEmpty)
    XCTAssertEqual(u.deleteItems, [path(0, 2)])
    XCTAssertEqual(u.insertItems.map(\.path), [path(0, 0)])
    XCTAssertEqual(u.reloadItems.map(\.path), [path(0, 0)])  // a stays: a reload
  }

  func testAnIdenticalSnapshotIsAnEmptyBatch() throws {
    let old = [section("A", ["a", "b"]), section("B", [])]
    let u = try XCTUnwrap(snapshot([("A", ["a", "b"]), ("B", [])]).batch(from: old))
    XCTAssertTrue(
      u.deleteSections.isEmpty && u.insertSections.isEmpty && u.moveSections.isEmpty
        && u.deleteItems.isEmpty && u.insertItems.isEmpty && u.moveItems.isEmpty
        && u.reloadItems.isEmpty && u.reconfigureItems.isEmpty && u.updateSections.isEmpty)
  }

  func testDataWithoutIdsOrWithAnIdTwiceIsNotDiffed() {
    XCTAssertNil(snapshot([("A", ["a"])]).batch(from: [.uniform(1)]))
    XCTAssertNil(snapshot([("A", ["a"])]).batch(from: [section("A", ["a", "a"])]))
    XCTAssertNil(snapshot([("A", ["a"])]).batch(from: [section("A", ["a"]), section("A", [])]))
  }

  func testDuplicatesAreNamedOnceInTheOrderTheyRepeat() {
    let snap = snapshot([("A", ["x", "y", "y", "x", "y"]), ("B", ["z", "z"])])
    XCTAssertThrowsError(try snap.validate()) { error in
      XCTAssertEqual(error as? SnapshotError, .duplicateItems([s("y"), s("x"), s("z")]))
    }
    XCTAssertThrowsError(try snapshot([("A", []), ("A", [])]).validate()) { error in
      XCTAssertEqual(error as? SnapshotError, .duplicateSections([s("A")]))
    }
    // 1 and "1" are different ids.
    let mixed = Snapshot(sections: [
      SnapshotSection(id: .int(1), items: [SnapshotItem(id: .int(1)), SnapshotItem(id: s("1"))])
    ])
    XCTAssertNoThrow(try mixed.validate())
    var unknown = snapshot([("A", ["a"])])
    unknown.reconfigureItems = [SnapshotItem(id: s("a")), SnapshotItem(id: s("q"))]
    XCTAssertThrowsError(try unknown.validate()) { error in
      XCTAssertEqual(error as? SnapshotError, .unknownReconfigure(index: 1))
    }
  }

  /// At scale the id table is filled in the order of the ids' hashes, not
  /// the snapshot's: the duplicates are still named in the order they
  /// repeat, and every id is found again.
  func testALargeSnapshotNamesDuplicatesInOrderAndFindsEveryId() throws {
    let n = 20_000
    func snap(_ ids: [Int64]) -> Snapshot {
      Snapshot(sections: [
        SnapshotSection(id: .int(0), items: ids.map { SnapshotItem(id: .int($0)) })
      ])
    }
    let repeated = (0..<12).map { Int64(n - 1 - $0 * 997) }
    XCTAssertThrowsError(try snap((0..<Int64(n)) + repeated).validate()) { error in
      XCTAssertEqual(error as? SnapshotError, .duplicateItems(repeated.prefix(10).map { .int($0) }))
    }
    var old = Section.uniform(n)
    old.id = .int(0)
    old.ids = IDList((0..<n).map { .int(Int64($0)) })
    let same = try XCTUnwrap(snap(Array(0..<Int64(n))).batch(from: [old]))
    XCTAssertTrue(same.moveItems.isEmpty && same.insertItems.isEmpty && same.deleteItems.isEmpty)
    // Reversed: one item stays (the smallest old index, by the tie rule),
    // every other moves.
    let reversed = try XCTUnwrap(snap((0..<Int64(n)).reversed()).batch(from: [old]))
    XCTAssertEqual(reversed.moveItems.count, n - 1)
    XCTAssertFalse(reversed.moveItems.contains { $0.from.item == 0 })
    XCTAssertEqual(reversed.moveItems.first?.from, path(0, n - 1))
    XCTAssertEqual(reversed.moveItems.first?.to, path(0, 0))
  }

  func testGivenFieldsUpdateASurvivingSectionAndTheRestStay() throws {
    var a = section("A", ["a"])
    a.minimumLineSpacing = 7
    a.inset = Insets(top: 1, left: 2, bottom: 3, right: 4)
    var snap = snapshot([("A", ["a"])])
    snap.sections[0].fields.minimumLineSpacing = 20
    let u = try XCTUnwrap(snap.batch(from: [a]))
    XCTAssertEqual(u.updateSections.map(\.index), [0])
    let r = try u.apply(to: [a], uniformSize: unit)
    XCTAssertEqual(r.sections[0].minimumLineSpacing, 20)
    XCTAssertEqual(r.sections[0].inset, a.inset)
    // The same value again changes nothing.
    XCTAssertTrue(try XCTUnwrap(snap.batch(from: r.sections)).updateSections.isEmpty)
  }

  func testASnapshotAppliedByBatchRelaysOutAsAFreshLayoutDoes() throws {
    // The incremental path (Layout.apply) gives the doubles of a layout
    // computed from scratch, sizes and fields changed included.
    var flow = FlowConfiguration()
    flow.itemSize = Size(width: 30, height: 20)
    let sizes: [String: Size] = [
      "b": Size(width: 70, height: 35), "e": Size(width: 45, height: 50),
    ]
    let old = [section("A", ["a", "b", "c", "d"], sizes: sizes), section("B", ["e", "f"])]
    var layout = Layout(
      type: .flow(flow), sections: old, viewportSize: Size(width: 200, height: 300))
    var snap = snapshot([("B", ["f", "c", "e"]), ("A", ["d", "a", "g", "b"])])
    snap.sections[1].fields.minimumInteritemSpacing = 3
    snap.sections[0].items[2].size = Size(width: 90, height: 10)
    let u = try XCTUnwrap(snap.batch(from: old))
    let r = try u.apply(to: old, uniformSize: flow.itemSize)
    layout.apply(r)
    let fresh = Layout(
      type: .flow(flow), sections: r.sections, viewportSize: Size(width: 200, height: 300))
    let everything = Rect(x: -10, y: -10, width: 400, height: 1000)
    XCTAssertEqual(
      layout.attributes(in: everything, bounds: everything),
      fresh.attributes(in: everything, bounds: everything))
    XCTAssertEqual(ids(r.sections), [["f", "c", "e"], ["d", "a", "g", "b"]])
  }
}
