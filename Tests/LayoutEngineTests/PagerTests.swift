import XCTest

@testable import LayoutEngine

/// FSPagerView's pager, worked out by hand: protocol.md's example, each
/// transformer at an integer and a fractional offset, both axes, wrap on
/// and off. The end-to-end suite compares every transformer with an
/// independent model (Tests/EndToEnd/pager_model.py).
final class PagerTests: XCTestCase {
  let viewport = Size(width: 400, height: 300)

  func pager(
    _ n: Int, _ transformer: PagerTransformer? = nil,
    configure: (inout PagerConfiguration) -> Void = { _ in }
  ) -> Layout {
    var c = PagerConfiguration()
    c.itemSize = Size(width: 260, height: 200)
    c.transformer = transformer
    configure(&c)
    return Layout(type: .pager(c), sections: [.uniform(n)], viewportSize: viewport)
  }

  func at(_ x: Double, _ y: Double = 0) -> Rect { Rect(x: x, y: y, width: 400, height: 300) }

  func item(_ layout: Layout, _ i: Int, lap: Int? = nil, _ bounds: Rect) -> LayoutAttributes {
    layout.attributesForItem(IndexPath(section: 0, item: i), lap: lap, bounds: bounds)!
  }

  func testProtocolsWorkedExample() {
    // overlap: g = −0.6 · 0.65 · 260 = −101.4, s = 158.6.
    let layout = pager(3, .overlap)
    XCTAssertEqual(layout.contentSize, Size(width: 717.2, height: 300))
    let shown = layout.attributes(in: at(0), bounds: at(0))
    XCTAssertEqual(shown.map(\.item), [0, 1])
    XCTAssertEqual(shown[0].frame, Rect(x: 70, y: 50, width: 260, height: 200))
    XCTAssertEqual(shown[0].alpha, 1)
    XCTAssertEqual(shown[0].zIndex, 10)
    XCTAssertEqual(shown[1].center, Point(x: 358.6, y: 150))
    XCTAssertEqual(shown[1].frame, Rect(x: 274.1, y: 85, width: 169, height: 130))
    XCTAssertEqual(shown[1].alpha, 0.6)
    XCTAssertEqual(shown[1].zIndex, 0)
    let third = item(layout, 2, at(0))
    XCTAssertEqual(third.zIndex, -10)
    XCTAssertEqual(third.alpha, 0.2, accuracy: 1e-15)
    XCTAssertEqual(third.frame.x, 432.7, accuracy: 1e-12)
    let forward = layout.scrollPlan(
      contentOffset: Point(x: 30, y: 0), velocity: Point(x: 0.5, y: 0))
    XCTAssertEqual(forward.targetContentOffset, Point(x: 158.6, y: 0))
    XCTAssertEqual(forward.targetItem, IndexPath(section: 0, item: 1))
    let back = layout.scrollPlan(
      contentOffset: Point(x: 30, y: 0), velocity: Point(x: -0.5, y: 0))
    XCTAssertEqual(back.targetContentOffset, .zero)
  }

  func testCrossFadingAndDepthAtHalfAPage() {
    // s = 260 (no spacing); at o = 130, page 0 is at p = −0.5, page 1 at 0.5.
    let fade = pager(3, .crossFading)
    let a = item(fade, 1, at(130))
    XCTAssertEqual(a.alpha, 0.5)
    XCTAssertEqual(a.zIndex, 1)
    // A(−s·p) = −130: its slot's centre 460 drawn at the viewport's, 330.
    XCTAssertEqual(a.transform.m.12, -130)
    XCTAssertEqual(a.frame.midX, 330)
    XCTAssertEqual(item(fade, 2, at(130)).alpha, 0)
    XCTAssertEqual(item(fade, 2, at(130)).zIndex, -9_007_199_254_740_991)
    let depth = pager(3, .depth)
    let before = item(depth, 0, at(130))
    XCTAssertEqual([before.alpha, Double(before.zIndex)], [1, 1])
    XCTAssertTrue(before.transform.isIdentity)
    let after = item(depth, 1, at(130))
    // scale m + (1 − m)(1 − p) = 0.5 + 0.5 · 0.5 = 0.75; alpha 1 − p.
    XCTAssertEqual(after.transform.m.0, 0.75)
    XCTAssertEqual(after.alpha, 0.5)
    XCTAssertEqual(after.zIndex, 0)
  }

  func testZoomOutShiftsTowardTheCentre() {
    // m = 0.85, a = 0.6; at p = −0.1: σ = 0.9, α = 260 · 0.1 / 2 = 13,
    // β = 200 · 0.1 / 2 = 10, t = α − 2β = −7; alpha 0.6 + 0.05/0.15 · 0.4.
    let layout = pager(3, .zoomOut)
    let a = item(layout, 0, at(26))
    XCTAssertEqual(a.transform.m.0, 0.9, accuracy: 1e-15)
    XCTAssertEqual(a.transform.m.12, -7, accuracy: 1e-12)
    XCTAssertEqual(a.alpha, 0.6 + 0.05 / 0.15 * 0.4, accuracy: 1e-12)
    XCTAssertEqual(a.zIndex, 3)
    // Beyond a page: transparent, untransformed, not shown.
    XCTAssertEqual(item(layout, 2, at(26)).alpha, 0)
    XCTAssertFalse(layout.attributes(in: at(26), bounds: at(26)).contains { $0.item == 2 })
  }

  func testCoverFlowAndFerrisWheelByHand() {
    // coverFlow: g = −sin(3π/16) · 260; page 1 at p = 1 is tilted fully:
    // θ = −3π/8 about y, pushed back by s/2, zIndex 99.
    let cover = pager(3, .coverFlow)
    let s = 260 - sin(3 * Double.pi / 16) * 260
    let a = item(cover, 1, at(0))
    let θ = -3 * Double.pi / 8
    XCTAssertEqual(a.transform.m.0, cos(θ), accuracy: 1e-15)
    XCTAssertEqual(a.transform.m.11, -0.002 * cos(θ), accuracy: 1e-15)
    XCTAssertEqual(a.transform.m.14, -s / 2 * cos(θ), accuracy: 1e-12)
    XCTAssertEqual(a.zIndex, 99)
    XCTAssertEqual(item(cover, 0, at(0)).zIndex, 100)
    // ferrisWheel: p = 1, φ = 2π/14, R = 14s/2π; the centre lands R·sin φ
    // right of the viewport's centre and R(1 − cos φ) below it.
    let wheel = pager(3, .ferrisWheel)
    let ws = 260 - 0.15 * 260
    let w1 = item(wheel, 1, at(0))
    let φ = 2 * Double.pi / 14
    let R = 14 * ws / (2 * Double.pi)
    XCTAssertEqual(w1.frame.midX, 200 + R * sin(φ), accuracy: 1e-9)
    XCTAssertEqual(w1.frame.midY, 150 + R * (1 - cos(φ)), accuracy: 1e-9)
    XCTAssertEqual(w1.zIndex, -6)
    XCTAssertEqual(w1.alpha, 0.6)
  }

  func testCubicTurnsAboutTheSharedEdge() {
    // At p = 0.5 the page turns by π/4 about its leading edge: its centre
    // moves e/2 back from its slot's 460 (d = −1), then T(w/2)·Ry(π/4)·P,
    // whose m41 is (w/2)·cos(π/4).
    let layout = pager(3, .cubic)
    let a = item(layout, 1, at(130))
    XCTAssertEqual(a.center, Point(x: 460 - 130, y: 150))
    XCTAssertEqual(a.transform.m.12, 130 * cos(Double.pi / 4), accuracy: 1e-12)
    XCTAssertEqual(a.zIndex, 5)
    XCTAssertEqual(a.alpha, 1)
    // Vertical: about x.
    let v = pager(3, .cubic) { $0.scrollDirection = .vertical }
    let b = item(v, 1, at(0, 100))
    XCTAssertEqual(b.center, Point(x: 200, y: 350 - 100))
    XCTAssertEqual(b.transform.m.13, 100 * cos(Double.pi / 4), accuracy: 1e-12)
  }

  func testVerticalPitchAndNoOpTransformers() {
    // Vertical overlap proposes no spacing and draws nothing: s = h = 200.
    let layout = pager(3, .overlap) { $0.scrollDirection = .vertical }
    XCTAssertEqual(layout.contentSize, Size(width: 400, height: 300 + 2 * 200))
    let a = item(layout, 1, at(0))
    XCTAssertTrue(a.transform.isIdentity)
    XCTAssertEqual(a.zIndex, 3 - 1)
    XCTAssertEqual(a.frame, Rect(x: 70, y: 250, width: 260, height: 200))
  }

  func testWrapNamesEveryCopysLap() {
    // n = 2 with wrap: slot j is page j mod 2, lap ⌊j/2⌋; the period is 2s.
    let layout = pager(2) { $0.wrap = true }
    XCTAssertEqual(layout.contentSize, Size(width: 520, height: 300))
    let shown = layout.attributes(in: at(0), bounds: at(0))
    XCTAssertEqual(shown.map { [$0.item, $0.lap!] }, [[1, -1], [0, 0], [1, 0]])
    XCTAssertEqual(
      layout.centeredCard(in: at(520 * 3)), Card(path: IndexPath(section: 0, item: 0), lap: 3))
    // A single page repeats unless removesInfiniteLoopForSingleItem.
    XCTAssertTrue(pager(1) { $0.wrap = true }.loops)
    XCTAssertFalse(
      pager(1) {
        $0.wrap = true
        $0.removesInfiniteLoopForSingleItem = true
      }.loops)
  }

  func testDecelerationDistances() {
    // N = 2 from x = 0.2: a forward fling lands on ⌈0.2 + 1⌉ = 2.
    let paged = pager(50) { $0.decelerationDistance = .pages(2) }
    let plan = paged.scrollPlan(contentOffset: Point(x: 52, y: 0), velocity: Point(x: 9, y: 0))
    XCTAssertEqual(plan.targetContentOffset.x, 2 * 260)
    XCTAssertEqual(plan.policy, .paging)
    // automatic: round(q + 0.35) of the projection q = (52 + 0.5 · 99)/260.
    let auto = pager(50) { $0.decelerationDistance = .automatic }
    let a = auto.scrollPlan(contentOffset: Point(x: 52, y: 0), velocity: Point(x: 0.5, y: 0))
    XCTAssertEqual(a.targetContentOffset.x, 260)
    XCTAssertEqual(a.policy, .directional)
  }
}
