import XCTest

@testable import LayoutEngine

/// The id index of keyed requests: built once, then carried over batches
/// (LiveItemIndex), it must find every id where a scan of the sections
/// finds it first, and nothing for an id no section holds.
final class ItemIndexTests: XCTestCase {
  /// The first path holding `id`, by a scan: the model.
  func scan(_ id: ItemID, _ sections: [Section]) -> IndexPath? {
    for (s, section) in sections.enumerated() {
      guard let ids = section.ids else { continue }
      for i in 0..<section.count where ids[i] == id { return IndexPath(section: s, item: i) }
    }
    return nil
  }

  func testUniqueNamesTheSecondPlaceOfARepeatedID() {
    var a = Section.uniform(3)
    a.ids = [.string("a"), .string("b"), .string("c")]
    var b = Section.uniform(2)
    b.ids = [.string("d"), .string("b")]
    guard case .failure(let d) = ItemIndex.unique([a, b]) else { return XCTFail("accepted") }
    XCTAssertEqual(d.id, .string("b"))
    XCTAssertEqual(d.path, IndexPath(section: 1, item: 1))
    XCTAssertEqual(d.earlier, IndexPath(section: 0, item: 1))
  }

  func testLargeIndexesSortTheirEntriesAndStillFindEveryID() {
    // Past Snapshot.sortedRecordingFrom the table is filled by top byte.
    let n = Snapshot.sortedRecordingFrom + 1000
    var s = Section.uniform(n)
    s.ids = IDList((0..<n).map { .int(Int64($0) * 7919) })
    let index = ItemIndex([s])
    XCTAssertFalse(index.hasDuplicates)
    for k in stride(from: 0, to: n, by: 997) {
      XCTAssertEqual(index.path(of: .int(Int64(k) * 7919), in: [s]), IndexPath(section: 0, item: k))
    }
    XCTAssertNil(index.path(of: .int(3), in: [s]))
    s.ids = IDList((0..<n).map { .int(Int64($0 % (n - 1))) })  // the last repeats item 0
    let twice = ItemIndex([s])
    XCTAssertTrue(twice.hasDuplicates)
    XCTAssertEqual(twice.path(of: .int(0), in: [s]), IndexPath(section: 0, item: 0))
  }

  /// 200 sessions of random batches (deletes, inserts with new and reused
  /// ids, moves across sections, section inserts and deletes, reloads),
  /// each followed by lookups of ids that exist, were deleted or never
  /// existed, against the scan.
  func testACarriedIndexFindsWhatAScanFinds() throws {
    var g = SplitMix(state: 46)
    var next: Int64 = 0
    func fresh() -> ItemID {
      next += 1
      return Int.random(in: 0..<3, using: &g) == 0 ? .string("s\(next)") : .int(next)
    }
    var carried = 0
    for _ in 0..<200 {
      var sections: [Section] = (0..<Int.random(in: 1...3, using: &g)).map { _ in
        let n = Int.random(in: 0...30, using: &g)
        var s = Section.uniform(n)
        s.ids = IDList((0..<n).map { _ in fresh() })
        return s
      }
      guard case .success(let built) = ItemIndex.unique(sections) else { return XCTFail() }
      var index = LiveItemIndex(built, of: sections)
      var seen: [ItemID] = sections.flatMap { s in (0..<s.count).compactMap { s.ids![$0] } }
      for _ in 0..<Int.random(in: 1...25, using: &g) {
        var u = BatchUpdate()
        let total = sections.reduce(0) { $0 + $1.count }
        switch Int.random(in: 0..<6, using: &g) {
        case 0 where total > 0:
          let s = sections.indices.filter { sections[$0].count > 0 }.randomElement(using: &g)!
          u.deleteItems = [
            IndexPath(section: s, item: Int.random(in: 0..<sections[s].count, using: &g))
          ]
        case 1:
          let s = Int.random(in: 0..<sections.count, using: &g)
          // Mostly a new id; sometimes one seen before (deleted or not).
          let id = Bool.random(using: &g) || seen.isEmpty ? fresh() : seen.randomElement(using: &g)!
          u.insertItems = [
            (
              IndexPath(section: s, item: Int.random(in: 0...sections[s].count, using: &g)),
              Item(id: id)
            )
          ]
        case 2 where total > 0:
          let s = sections.indices.filter { sections[$0].count > 0 }.randomElement(using: &g)!
          let from = IndexPath(section: s, item: Int.random(in: 0..<sections[s].count, using: &g))
          let t = Int.random(in: 0..<sections.count, using: &g)
          let room = sections[t].count - (t == s ? 1 : 0)
          u.moveItems = [
            (from, IndexPath(section: t, item: Int.random(in: 0...room, using: &g)), nil)
          ]
        case 3:
          var s = Section.uniform(Int.random(in: 0...3, using: &g))
          s.ids = IDList((0..<s.count).map { _ in fresh() })
          u.insertSections = [(Int.random(in: 0...sections.count, using: &g), s)]
        case 4 where sections.count > 1:
          u.deleteSections = [Int.random(in: 0..<sections.count, using: &g)]
        default:
          guard total > 0 else { continue }
          let s = sections.indices.filter { sections[$0].count > 0 }.randomElement(using: &g)!
          u.reloadItems = [(IndexPath(section: s, item: 0), nil)]
        }
        let r = try u.apply(to: sections, uniformSize: Size(width: 10, height: 10))
        index = u.keepsItemPaths ? index : index.after(u, r)
        sections = r.sections
        for (_, item) in u.insertItems { if let id = item.id { seen.append(id) } }
        for (_, s) in u.insertSections { seen += (0..<s.count).compactMap { s.ids![$0] } }
        for id in seen.shuffled(using: &g).prefix(12) + [.string("never"), .int(-1)] {
          XCTAssertEqual(index.path(of: id, in: sections), scan(id, sections), "\(id)")
        }
        carried += 1
      }
    }
    XCTAssertGreaterThan(carried, 1000)
  }
}
