import XCTest

@testable import LayoutEngine

/// Queries during an interactive movement answer the picture the deltas
/// build (issue #40), worked out by hand for the example: a flow
/// of 30 items 80×60, spacing 10, in 375×500. Four to a line (4·80 + 3·10
/// ≤ 375), spread to x 0, 98.33, 196.67 and 295; lines at y 0, 70, 140,
/// 210 and 280. Item 2 dragged to (200, 200): under it is item 10's frame
/// (x 196.67…276.67, y 140…200, edges included), the target, so items 3…10
/// slide back one slot and item 2 floats at frame (160, 170, 80, 60).
final class ReorderingQueryTests: XCTestCase {
  let bounds = Rect(x: 0, y: 0, width: 375, height: 500)
  let gap = (375.0 - 320) / 3

  func movement() -> (Layout, InteractiveMovement) {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 80, height: 60)
    let layout = Layout(
      type: .flow(c), sections: [.uniform(30)], viewportSize: bounds.size)
    var m = InteractiveMovement(
      layout, origin: IndexPath(section: 0, item: 2), lap: nil, bounds: bounds)!
    m.update(
      position: Point(x: 200, y: 200), bounds: bounds, data: layout, options: ReorderOptions())
    return (layout, m)
  }

  func x(_ slot: Int) -> Double { Double(slot % 4) * (80 + gap) }
  func y(_ slot: Int) -> Double { Double(slot / 4) * 70 }

  func testThePictureTheQueriesAnswer() {
    var (_, m) = movement()
    XCTAssertEqual(m.target, IndexPath(section: 0, item: 10))
    var all: [LayoutAttributes] = []
    m.forEachAttribute(in: bounds, visible: bounds, bounds: bounds, after: nil) {
      all.append($0)
      return true
    }
    // 29 items in their slots (lines 0…7 meet the viewport: 30 slots less
    // the target's) and the lifted one: every data item once, in order.
    XCTAssertEqual(all.map(\.item), Array(0..<30))
    for a in all {
      if a.item == 2 {
        XCTAssertEqual(a.frame, Rect(x: 160, y: 170, width: 80, height: 60))
        XCTAssertTrue(a.moving)
        XCTAssertEqual(a.zIndex, 1)
        continue
      }
      // Data item i shows in slot i, less one between the origin and the
      // target.
      let slot = a.item > 2 && a.item <= 10 ? a.item - 1 : a.item
      XCTAssertEqual(a.frame.x, x(slot), accuracy: 1e-9, "item \(a.item)")
      XCTAssertEqual(a.frame.y, y(slot), "item \(a.item)")
      XCTAssertFalse(a.moving)
    }
    XCTAssertEqual(
      m.attributesForItem(
        IndexPath(section: 0, item: 3), lap: nil, visible: bounds, bounds: bounds)?
        .frame.origin, Point(x: x(2), y: 0))
    XCTAssertEqual(
      m.attributesForItem(
        IndexPath(section: 0, item: 2), lap: nil, visible: bounds, bounds: bounds)?
        .frame, Rect(x: 160, y: 170, width: 80, height: 60))
    // The finger's point finds the lifted item; a point in item 3's new
    // slot finds item 3; the target's slot away from the finger is empty.
    XCTAssertEqual(
      m.cardAtPoint(Point(x: 200, y: 200), visible: bounds, bounds: bounds)?.path.item, 2)
    XCTAssertEqual(
      m.cardAtPoint(Point(x: 250, y: 10), visible: bounds, bounds: bounds)?.path.item, 3)
    XCTAssertNil(m.cardAtPoint(Point(x: 270, y: 145), visible: bounds, bounds: bounds))
    // Pages of one element from every cursor concatenate to the whole.
    var paged: [LayoutAttributes] = []
    var after: PageStart? = nil
    while true {
      var page: LayoutAttributes? = nil
      m.forEachAttribute(in: bounds, visible: bounds, bounds: bounds, after: after) {
        page = $0
        return false
      }
      guard let a = page else { break }
      paged.append(a)
      after = PageStart(position: ElementPosition(kind: a.kind, section: a.section, item: a.item))
    }
    XCTAssertEqual(paged, all)
  }

  func testTheLiftedItemIsReportedWhereItMeetsTheRect() {
    var (_, m) = movement()
    var top: [Int] = []
    m.forEachAttribute(
      in: Rect(x: 0, y: 0, width: 375, height: 100), visible: bounds, bounds: bounds, after: nil
    ) {
      top.append($0.item)
      return true
    }
    // Lines 0 and 1 (slots 0…7): data items 0, 1 and 3…8 (item i of 3…10
    // in slot i − 1); item 2 floats below, at y 170.
    XCTAssertEqual(top, [0, 1, 3, 4, 5, 6, 7, 8])
  }

  /// protocol.md: "The picture does not change until the first update." A
  /// movement just begun answers the data: item 2 in its own slot, not
  /// marked moving, at zIndex 0; the first update lifts it.
  func testNothingIsLiftedBeforeTheFirstUpdate() {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 80, height: 60)
    let layout = Layout(type: .flow(c), sections: [.uniform(30)], viewportSize: bounds.size)
    var m = InteractiveMovement(
      layout, origin: IndexPath(section: 0, item: 2), lap: nil, bounds: bounds)!
    XCTAssertFalse(m.isLifted)
    var all: [LayoutAttributes] = []
    m.forEachAttribute(in: bounds, visible: bounds, bounds: bounds, after: nil) {
      all.append($0)
      return true
    }
    XCTAssertEqual(all, layout.attributes(in: bounds, bounds: bounds))
    let two = m.attributesForItem(
      IndexPath(section: 0, item: 2), lap: nil, visible: bounds, bounds: bounds)
    XCTAssertEqual(two?.frame, Rect(x: x(2), y: 0, width: 80, height: 60))
    XCTAssertEqual(two?.moving, false)
    XCTAssertEqual(two?.zIndex, 0)
    XCTAssertEqual(
      m.attributesAndCenteredCard(in: bounds, bounds: bounds).attributes,
      layout.attributes(in: bounds, bounds: bounds))
    // Over item 2's own slot: item 2, as the data has it.
    XCTAssertEqual(
      m.cardAtPoint(Point(x: x(2) + 1, y: 1), visible: bounds, bounds: bounds),
      Card(path: IndexPath(section: 0, item: 2)))
    m.update(
      position: Point(x: 200, y: 200), bounds: bounds, data: layout, options: ReorderOptions())
    XCTAssertTrue(m.isLifted)
    XCTAssertEqual(
      m.attributesForItem(
        IndexPath(section: 0, item: 2), lap: nil, visible: bounds, bounds: bounds)?
        .moving, true)
  }
}
