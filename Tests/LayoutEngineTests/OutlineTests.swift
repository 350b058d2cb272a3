import XCTest

@testable import LayoutEngine

/// Outlines at the engine level, on issue #43's worked example: the tree
/// A{A1, A2{A2a}}, B{B1}, C, all collapsed. Pre-order A, A1, A2, A2a, B,
/// B1, C is positions 0 to 6; the rows are the visible nodes.
final class OutlineTests: XCTestCase {
  override func setUp() { InternalChecks.enabled = true }

  func node(_ id: String, _ children: [OutlineNode] = [], expanded: Bool? = nil) -> OutlineNode {
    OutlineNode(id: .string(id), expanded: expanded, children: children)
  }

  var example: [OutlineNode] {
    [node("A", [node("A1"), node("A2", [node("A2a")])]), node("B", [node("B1")]), node("C")]
  }

  func testPreOrderLevelsParentsAndRows() throws {
    let o = try Outline(example)
    XCTAssertEqual(
      o.ids, ["A", "A1", "A2", "A2a", "B", "B1", "C"].map { ItemID.string($0) })
    XCTAssertEqual((0..<7).map(o.level), [0, 1, 1, 2, 0, 1, 0])
    XCTAssertEqual((0..<7).map(o.parent), [nil, 0, 0, 2, nil, 4, nil])
    XCTAssertEqual(o.visibleNodes(), [0, 4, 6])
    XCTAssertEqual(o.visibleCount, 3)
    XCTAssertEqual(o.row(3), OutlineRow(level: 2, expanded: nil))
    XCTAssertEqual(o.row(2), OutlineRow(level: 1, expanded: false))
    XCTAssertEqual(o.parentID(of: .string("A2a")), .string("A2"))
    XCTAssertNil(o.parentID(of: .string("B")))
    XCTAssertNil(o.invariantViolation())
  }

  /// A walk's cursor answers each row's node as a lookup by its id would,
  /// whether rows follow the tree (stepped to the next visible node), jump
  /// back and forth, or are a preview's order (A1 dragged below B1).
  func testTheRowCursorAnswersWhatALookupByIdAnswers() throws {
    var o = try Outline(example)
    _ = o.setExpanded(0, true)
    _ = o.setExpanded(2, true)
    _ = o.setExpanded(4, true)
    let box = OutlineBox(o)
    let tree = ["A", "A1", "A2", "A2a", "B", "B1", "C"]
    let preview = ["A", "A2", "A2a", "B", "B1", "A1", "C", "gone"]
    for order in [tree, preview] {
      let ids = IDList(order.map { ItemID.string($0) as ItemID? })
      for walk in [Array(0..<order.count), [2, 3, 0, 1, 5, 6, 4], [6, 6, 5, 7, 1, 2]] {
        var cursor = try XCTUnwrap(OutlineRowCursor(box, ids: ids))
        for j in walk where j < order.count {
          let expected = o.position(of: .string(order[j])).map(o.row)
          XCTAssertEqual(cursor.row(j), expected, "row \(j) of \(order) walked \(walk)")
        }
      }
    }
    // A2a's level 2 stepped to from A2's row; "gone" has none.
    var cursor = try XCTUnwrap(OutlineRowCursor(box, ids: IDList(tree.map { .string($0) })))
    XCTAssertEqual((0..<7).map { cursor.level($0) }, [0, 1, 1, 2, 0, 1, 0])
    XCTAssertNil(OutlineRowCursor(nil, ids: IDList([])))
  }

  func testExpandAndCollapseAnswerTheRowsThatFollow() throws {
    var o = try Outline(example)
    XCTAssertEqual(o.setExpanded(0, true), [1, 2])  // A: A1, A2
    XCTAssertEqual(o.setExpanded(2, true), [3])  // A2: A2a
    XCTAssertEqual(o.visibleNodes(), [0, 1, 2, 3, 4, 6])
    XCTAssertEqual(o.setExpanded(0, false), [1, 2, 3])  // A hides all three
    XCTAssertTrue(o.isExpanded(2))  // A2 keeps its flag
    XCTAssertEqual(o.setExpanded(0, true), [1, 2, 3])
    XCTAssertEqual(o.setExpanded(0, true), [])  // already expanded
    XCTAssertNil(o.invariantViolation())
  }

  func testAHiddenNodeTakesOnlyItsFlag() throws {
    var o = try Outline(example)
    XCTAssertEqual(o.setExpanded(2, true), [])  // A2 under collapsed A
    XCTAssertEqual(o.visibleCount, 3)
    XCTAssertEqual(o.setExpanded(0, true), [1, 2, 3])
    XCTAssertEqual(o.visibleCount, 6)
  }

  func testAnAppliedTreeKeepsFlagsAndSizesOfItsIds() throws {
    var o = try Outline(example)
    _ = o.setExpanded(0, true)
    o.setSize(1, Size(width: 10, height: 60))
    let again = try Outline(
      [
        node("B", [node("B1")]), node("A", [node("A1"), node("A2", [node("A2a")])], expanded: nil),
      ],
      keeping: [o])
    XCTAssertEqual(
      again.visibleNodes().map { again.ids[$0] }, ["B", "A", "A1", "A2"].map { .string($0) })
    XCTAssertEqual(again.sizes[3], Size(width: 10, height: 60))  // A1, now after B, B1, A
  }

  func testDuplicatesAndLazyChildren() throws {
    XCTAssertThrowsError(try Outline([node("a", [node("b"), node("a")])])) {
      XCTAssertEqual($0 as? OutlineError, .duplicateID(path: [0, 1]))
    }
    let o = try Outline(example)
    let grown = try o.givingChildren([node("C1"), node("C2", [node("C2a")])], to: 6)
    XCTAssertEqual(grown.count, 10)
    XCTAssertEqual(grown.childPath(9), [2, 1, 0])
    XCTAssertEqual(grown.level(9), 2)
    XCTAssertThrowsError(try o.givingChildren([node("x"), node("x")], to: 6)) {
      XCTAssertEqual($0 as? OutlineError, .duplicateID(path: [1]))
    }
  }

  /// The live change: a batch of the rows, committed with the tree, whose
  /// picture and rows follow (a plain list of 44-point rows).
  func testLiveExpandIsABatchOfItsRows() throws {
    let layout = Layout(
      type: .list(ListConfiguration()), sections: [Section(outline: try Outline(example))],
      viewportSize: Size(width: 390, height: 600))
    var (live, _) = try LiveLayout.open(layout, bounds: Rect(x: 0, y: 0, width: 390, height: 600))
    let delta = try live.commit(.expand([.string("A")], children: nil))
    XCTAssertEqual(delta.batch?.insertItems.map(\.path.item), [1, 2])
    XCTAssertEqual(delta.batch?.insertItems.map(\.item.id), [.string("A1"), .string("A2")])
    XCTAssertEqual(live.path(of: .string("B")), IndexPath(section: 0, item: 3))
    let b = try XCTUnwrap(
      live.layout.attributesForItem(IndexPath(section: 0, item: 3), bounds: live.bounds))
    XCTAssertEqual(b.frame, Rect(x: 0, y: 132, width: 390, height: 44))
    let a2 = try XCTUnwrap(
      live.layout.attributesForItem(IndexPath(section: 0, item: 2), bounds: live.bounds))
    XCTAssertEqual(a2.outlineRow, OutlineRow(level: 1, expanded: false))
    XCTAssertEqual(live.layout.outlineParent(of: .string("A2")), .string("A"))
    XCTAssertEqual(a2.indentation, 10)
    // A flat change to its rows is refused, and leaves it as it was.
    var flat = BatchUpdate()
    flat.deleteItems = [IndexPath(section: 0, item: 1)]
    let before = live.layout.sections
    XCTAssertThrowsError(try live.commit(.performBatchUpdates(flat)))
    XCTAssertEqual(live.layout.sections, before)
    XCTAssertThrowsError(try live.commit(.collapse([.string("nope")])))
  }

  /// Splicing: whole subtrees kept, moved a level, or given, relinked.
  func testSplicingRelinksParentsEndsAndRows() throws {
    let o = try Outline(example)
    // B's subtree (4..<6) moved under A2a's place as A's last child.
    let moved = try o.splicing([.kept(0..<4), .shifted(4..<6, by: 1), .kept(6..<7)])
    XCTAssertEqual(
      moved.ids, ["A", "A1", "A2", "A2a", "B", "B1", "C"].map { ItemID.string($0) })
    XCTAssertEqual((0..<7).map(moved.level), [0, 1, 1, 2, 1, 2, 0])
    XCTAssertEqual((0..<7).map(moved.parent), [nil, 0, 0, 2, 0, 4, nil])
    XCTAssertEqual(moved.subtreeEnd(0), 6)
    XCTAssertEqual(moved.visibleNodes(), [0, 6])
    XCTAssertNil(moved.invariantViolation())
    // New roots between A's and B's subtrees.
    let grown = try o.splicing([
      .kept(0..<4), .given([node("N", [node("N1")], expanded: true)], level: 0), .kept(4..<7),
    ])
    XCTAssertEqual(grown.visibleNodes(), [0, 4, 5, 6, 8])
    XCTAssertEqual(grown.position(of: .string("B1")), 7)
    XCTAssertEqual(grown.parent(7), 6)
    XCTAssertEqual(grown.node(atRow: 3), 6)
    XCTAssertNil(grown.node(atRow: 5))
    // A duplicate among the given nodes is named from their roots.
    XCTAssertThrowsError(
      try o.splicing([.kept(0..<7), .given([node("x"), node("y", [node("x")])], level: 0)])
    ) { XCTAssertEqual($0 as? OutlineError, .duplicateID(path: [1, 0])) }
  }

  /// Edits and a subtree drop as live changes, on a plain list of 44-point
  /// rows: A expanded, so the rows are A, A1, A2, B, C.
  func testEditsAndTheDropOfASubtree() throws {
    var tree = example
    tree[0].expanded = true
    let layout = Layout(
      type: .list(ListConfiguration()), sections: [Section(outline: try Outline(tree))],
      viewportSize: Size(width: 390, height: 600))
    var (live, _) = try LiveLayout.open(layout, bounds: Rect(x: 0, y: 0, width: 390, height: 600))
    func rows() -> [String] {
      (0..<live.layout.sections[0].count).map {
        if case .string(let s) = live.layout.itemID(section: 0, item: $0)! { return s }
        return "?"
      }
    }
    var d = try live.commit(
      .editOutline(.insert(nodes: [node("P")], sibling: .string("B"), after: false)))
    XCTAssertEqual(d.batch?.insertItems.map(\.path.item), [3])
    d = try live.commit(.editOutline(.delete([.string("A1"), .string("C")])))
    XCTAssertEqual(d.batch?.deleteItems.map(\.item), [1, 5])
    XCTAssertEqual(rows(), ["A", "A2", "P", "B"])
    XCTAssertThrowsError(
      try live.commit(
        .editOutline(.append(section: nil, parent: .string("A"), nodes: [node("B1")]))))
    // Drag A (with A2, row 1) over P (row 1 of the preview A, P, B): the
    // row before the target is P, a leaf: A becomes its sibling, after it.
    XCTAssertTrue(live.beginInteractiveMovement(at: IndexPath(section: 0, item: 0)))
    XCTAssertEqual(live.movement?.subtree, 1)
    _ = try live.commit(.updateInteractiveMovement(Point(x: 195, y: 66)))
    XCTAssertEqual(live.movement?.target, IndexPath(section: 0, item: 1))
    XCTAssertNil(live.attributesForItem(IndexPath(section: 0, item: 1), lap: nil))
    d = try live.commit(.endInteractiveMovement)
    XCTAssertEqual(d.batch?.moveItems.map { [$0.from.item, $0.to.item] }, [[0, 1], [1, 2]])
    XCTAssertEqual(rows(), ["P", "A", "A2", "B"])
    XCTAssertEqual(live.layout.sections[0].outline?.level(of: .string("A")), 0)
  }
}
