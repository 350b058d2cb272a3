import XCTest

@testable import LayoutEngine

final class ExactSumTests: XCTestCase {
  func testSumsAreTheSameInAnyOrderAndGrouping() {
    var g = SplitMix(state: 3)
    for _ in 0..<200 {
      let values = (0..<50).map { _ in Double(Int.random(in: -3000...30000, using: &g)) / 7 }
      var forward = ExactSum.zero
      for v in values { forward += v }
      var backward = ExactSum.zero
      for v in values.reversed() { backward += v }
      // Pairwise, as a tree of summaries groups them.
      var level = values.map { ExactSum($0) }
      while level.count > 1 {
        level = stride(from: 0, to: level.count, by: 2).map {
          $0 + 1 < level.count ? level[$0] + level[$0 + 1] : level[$0]
        }
      }
      XCTAssertEqual(forward, backward)
      XCTAssertEqual(forward, level[0])
      XCTAssertEqual(forward.value, backward.value)
      // Within a rounding of the float sum.
      XCTAssertEqual(forward.value, values.reduce(0, +), accuracy: 1e-9)
    }
  }

  func testValuesRoundTripAndSumExactly() {
    for v in [0, 1, -1, 0.5, -0.25, 305, 1e15, -1e15, 0.1, 2.0 / 3, 1.0 / 4096] {
      XCTAssertEqual(ExactSum(v).value, v, "\(v)")
    }
    // 0.1 + 0.2 taken exactly rounds to the nearer of its neighbours.
    var s = ExactSum.zero
    s += 0.1
    s += 0.2
    s += -0.1
    XCTAssertEqual(s.value, 0.2)
    // Three thirds: the float sum order matters; the exact one does not.
    let third = 1.0 / 3
    XCTAssertEqual((ExactSum(third) + ExactSum(third) + ExactSum(third)).value, 1)
    XCTAssertEqual(ExactSum(1e-30).value, 0)  // below 2^-64: dropped
  }
}
