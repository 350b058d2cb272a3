import XCTest

@testable import LayoutEngine

/// A test case whose ropes have leaves of 4 elements and nodes of 3
/// children, so that a few hundred items make trees several levels deep
/// and a run of a few equal sizes already outgrows a leaf. A test may set
/// other limits; they are restored after it.
class SmallRopeTestCase: XCTestCase {
  private var saved = (leaf: 0, fanout: 0)

  override func setUp() {
    saved = (RopeLimits.leafCapacity, RopeLimits.fanout)
    RopeLimits.leafCapacity = 4
    RopeLimits.fanout = 3
  }

  override func tearDown() {
    RopeLimits.leafCapacity = saved.leaf
    RopeLimits.fanout = saved.fanout
  }

  /// `sections` with every size stored one by one: no runs, whatever the
  /// edits left.
  func flat(_ sections: [Section]) -> [Section] {
    sections.map { s in
      var s = s
      if case .sizes(let list) = s.items { s.items = .sizes(SizeList(list.array)) }
      return s
    }
  }
}
