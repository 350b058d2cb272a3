import XCTest

@testable import LayoutEngine

/// `Layout.invariantViolation()` finds what it says it finds: a sound
/// layout of every kind has none (RunLengthTests checks it after every
/// random edit), and a placement that does not hold the data's sections
/// or items is named.
final class InvariantTests: XCTestCase {
  func flow(_ sections: [Section]) -> Layout {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 50, height: 50)
    return Layout(type: .flow(c), sections: sections, viewportSize: Size(width: 320, height: 480))
  }

  func testASoundLayoutHasNoViolation() {
    var l = flow([
      .uniform(10), .sizes([Size(width: 10, height: 20), Size(width: 30, height: 40)]),
    ])
    XCTAssertNil(l.invariantViolation())
    l.setItemSizes([(IndexPath(section: 0, item: 3), Size(width: 70, height: 10))])
    XCTAssertNil(l.invariantViolation())
    l.setViewportSize(Size(width: 480, height: 320))
    XCTAssertNil(l.invariantViolation())
  }

  func testAPlacementOfOtherSectionsIsNamed() {
    var a = flow([.uniform(3), .uniform(4)])
    let b = flow([.uniform(3), .uniform(4), .uniform(5)])
    a.placement = b.placement
    XCTAssertEqual(a.invariantViolation(), "the placement has 3 sections for 2")
  }

  func testAPlacementOfOtherItemsIsNamed() {
    var a = flow([.uniform(3), .uniform(4)])
    let b = flow([.uniform(3), .uniform(6)])
    a.placement = b.placement
    XCTAssertEqual(a.invariantViolation(), "the placement has 6 items in section 1 of 4")
  }

  func testIdsThatAreNotTheItemsAreNamed() {
    var s = Section.uniform(3)
    s.ids = IDList([.string("a"), .string("b")])
    // Built with the checks off: with them on, the open itself stops.
    let was = InternalChecks.enabled
    InternalChecks.enabled = false
    defer { InternalChecks.enabled = was }
    let l = flow([s])
    XCTAssertEqual(l.invariantViolation(), "section 0 has 2 ids for 3 items")
  }

  func testTheChecksAreOnForTheUnitTests() {
    // make test-swift runs the unit tests with FLOWLAYOUT_INTERNAL_CHECKS=1,
    // so that every commit of every test is checked whole.
    if ProcessInfo.processInfo.environment["FLOWLAYOUT_INTERNAL_CHECKS"] == "1" {
      XCTAssertTrue(InternalChecks.enabled)
    }
  }
}
