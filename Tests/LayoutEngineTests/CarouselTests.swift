import XCTest

@testable import LayoutEngine

/// iCarousel's styles, worked out by hand (the end-to-end suite compares
/// every style with an independent model): 200×200 items in a 600×400
/// viewport unless a test says otherwise.
final class CarouselTests: XCTestCase {
  let viewport = Size(width: 600, height: 400)

  func carousel(
    _ style: CarouselStyle, _ n: Int, configure: (inout CarouselConfiguration) -> Void = { _ in }
  )
    -> Layout
  {
    var c = CarouselConfiguration()
    c.style = style
    configure(&c)
    return Layout(type: .carousel(c), sections: [.uniform(n)], viewportSize: viewport)
  }

  func bounds(_ x: Double) -> Rect { Rect(x: x, y: 0, width: 600, height: 400) }

  /// A full 4×4 product, row vectors: the reference for the in-place
  /// updates of `translated` and `rotated`.
  func product(_ a: [Double], _ b: [Double]) -> [Double] {
    var out = [Double](repeating: 0, count: 16)
    for i in 0..<4 {
      for j in 0..<4 {
        var sum = 0.0
        for k in 0..<4 { sum += a[i * 4 + k] * b[k * 4 + j] }
        out[i * 4 + j] = sum
      }
    }
    return out
  }

  func testTranslateAndRotateAreCoreAnimationsConcatenations() {
    let base = Transform3D.perspective(500).translated(3, -4, 5)
    let t = base.rotated(0.7, 0, 1, 0).translated(10, 20, 30)
    let c = cos(0.7)
    let s = sin(0.7)
    let rotation: [Double] = [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]
    let translation: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1]
    let expected = product(translation, product(rotation, base.values))
    for (a, b) in zip(t.values, expected) { XCTAssertEqual(a, b, accuracy: 1e-12) }
    // Perspective then translate(−vx, −vy, 0): m34 = −1/500 and row 4
    // picks up −tz/500 in m44.
    XCTAssertEqual(Transform3D.perspective(500).translated(0, 0, -100).m.15, 1.2)
  }

  func testRotaryItemOneByHand() {
    // count = min(30, ⌊max(12, ⌈600/200⌉·π)⌋, 10) = 10, r = 100/tan(π/10).
    let layout = carousel(.rotary, 10)
    let a = layout.attributesForItem(IndexPath(section: 0, item: 1), bounds: bounds(0))!
    let r = 100 / tan(Double.pi / 10)
    let w = 1 + (r - r * cos(Double.pi / 5)) / 500
    XCTAssertEqual(a.center, Point(x: 300, y: 200))
    XCTAssertEqual(a.frame.x, 300 + (r * sin(Double.pi / 5) - 100) / w, accuracy: 1e-9)
    XCTAssertEqual(a.frame.width, 200 / w, accuracy: 1e-9)
    XCTAssertEqual(a.lap, 0)
    // At the centre: the perspective alone, z = m33 = 1, the front-most of
    // the window's 10 candidates: 9 lie behind it.
    let a0 = layout.attributesForItem(IndexPath(section: 0, item: 0), bounds: bounds(0))!
    XCTAssertEqual(a0.frame, Rect(x: 200, y: 100, width: 200, height: 200))
    XCTAssertEqual(a0.zIndex, 9)
    XCTAssertFalse(a0.hidden)
  }

  func testRestOffsetsAreExactMultiplesOfThePitch() {
    // pitch = 100 / 3: inexact, yet every rest offset is Double(i)·pitch,
    // and a snap lands on one.
    let layout = carousel(.linear, 40) {
      $0.itemSize = Size(width: 100, height: 100)
      $0.offsetMultiplier = 3
    }
    let pitch = 100.0 / 3
    for i in [0, 1, 7, 39] { XCTAssertEqual(layout.restOffset(i), Double(i) * pitch) }
    let plan = layout.scrollPlan(contentOffset: Point(x: 250, y: 0), velocity: .zero)
    XCTAssertEqual(plan.targetContentOffset.x, 7 * pitch)
    XCTAssertEqual(plan.targetItem, IndexPath(section: 0, item: 7))
    XCTAssertEqual(layout.contentSize, Size(width: 39 * pitch + 600, height: 400))
  }

  func testOneItemWrapsAtEveryOffset() {
    let layout = carousel(.cylinder, 1)
    XCTAssertTrue(layout.loops)
    for x in [0.0, 90, 150, 1234.5, -450] {
      let shown = layout.attributes(in: bounds(x), bounds: bounds(x))
      XCTAssertEqual(shown.count, 1)
      // u reduced into [0, 1): off = −u, or 1 − u past the half.
      let u = x / 200 - (x / 200).rounded(.down)
      XCTAssertEqual(shown[0].lap, Int((x / 200).rounded(.down)) + (u > 0.5 ? 1 : 0))
    }
  }

  func testWindowShiftsIntoRangeWithoutWrap() {
    // linear: ⌈600/200⌉ + 2 = 5 candidates around round(u).
    let layout = carousel(.linear, 10)
    let items = layout.attributes(in: bounds(0), bounds: bounds(0)).map(\.item)
    // Window 0…4, of which 0, 1 (at 300…500) and none further meet 0…600.
    XCTAssertEqual(items, [0, 1])
    let end = layout.attributes(in: bounds(1800), bounds: bounds(1800)).map(\.item)
    XCTAssertEqual(end, [8, 9])
  }

  func testVariedSizesSpaceByTheLargest() {
    var c = CarouselConfiguration()
    c.style = .linear
    let sizes = [
      Size(width: 100, height: 50), Size(width: 250, height: 80), Size(width: 60, height: 60),
    ]
    let layout = Layout(type: .carousel(c), sections: [.sizes(sizes)], viewportSize: viewport)
    guard let g = layout.placement(as: SlotGeometry.self) else { return XCTFail("placement") }
    XCTAssertEqual(g.pitch, 250)
    let a = layout.attributesForItem(IndexPath(section: 0, item: 2), bounds: bounds(0))!
    // off 2: translated by 2·250; its own 60×60 size.
    XCTAssertEqual(a.frame, Rect(x: 300 + 500 - 30, y: 170, width: 60, height: 60))
  }

  func testDepthOrderAndTies() {
    let deeper = LayoutAttributes(
      kind: .cell, section: 0, item: 0, frame: Rect(x: 0, y: 0, width: 1, height: 1))
    var nearer = deeper
    nearer.setTransform(Transform3D.identity.translated(0, 0, 0.6))
    // Larger z in front, whatever the distance.
    XCTAssertLessThan(CarouselDepth(deeper, offset: 0), CarouselDepth(nearer, offset: 3))
    // Equal z: the item nearer the scroll position in front.
    XCTAssertLessThan(CarouselDepth(deeper, offset: 1), CarouselDepth(deeper, offset: 0.2))
    XCTAssertEqual(CarouselDepth(deeper, offset: 0.2), CarouselDepth(deeper, offset: -0.2))
  }

  /// iCarousel's order (compareViewDepth), computed from each answered
  /// item's own transform and offset: +1 when `a` is in front of `b`, −1
  /// behind, 0 for an exact tie.
  func iCarouselOrder(_ a: LayoutAttributes, _ b: LayoutAttributes, u: Double, n: Int) -> Int {
    func z(_ x: LayoutAttributes) -> Double {
      x.transform.m.2 + x.transform.m.6 + x.transform.m.10 + x.transform.m.14
    }
    func distance(_ x: LayoutAttributes) -> Double {
      abs(Double(x.item + (x.lap ?? 0) * n) - u)
    }
    if z(a) != z(b) { return z(a) > z(b) ? 1 : -1 }
    if distance(a) != distance(b) { return distance(a) < distance(b) ? 1 : -1 }
    return 0
  }

  func testZIndexOrderIsICarouselsForEveryPairInEveryStyle() {
    // A property test over every style, both wraps, and scroll positions
    // at, between and halfway between items: the zIndex order of every two
    // answered items is iCarousel's depth order.
    var rng = SystemRandomNumberGenerator()
    var pairs = 0
    for style in CarouselStyle.allCases {
      for wrap in [false, true] {
        for n in [1, 2, 5, 13, 40] {
          let layout = carousel(style, n) {
            $0.wrap = wrap
            $0.showBackfaces = true
          }
          guard let g = layout.placement(as: SlotGeometry.self) else { return XCTFail("placement") }
          var offsets = [0.0, 0.5, 1, 2.5, Double(n) - 0.5]
          for _ in 0..<20 { offsets.append(Double.random(in: -2...Double(n + 2), using: &rng)) }
          for u in offsets {
            let b = bounds(u * g.pitch)
            let all = layout.attributes(
              in: Rect(x: -1e7, y: -1e7, width: 2e7, height: 2e7), bounds: b)
            for (i, x) in all.enumerated() {
              // attributesForItem agrees with the rect's answer.
              let one = layout.attributesForItem(x.indexPath, lap: x.lap, bounds: b)!
              XCTAssertEqual(one.zIndex, x.zIndex, "\(style) n \(n) u \(u) item \(x.item)")
              for y in all[(i + 1)...] {
                let expected = iCarouselOrder(x, y, u: u, n: n)
                let got = x.zIndex == y.zIndex ? 0 : (x.zIndex > y.zIndex ? 1 : -1)
                XCTAssertEqual(
                  got, expected,
                  "\(style) wrap \(wrap) n \(n) u \(u): \(x.item)/\(x.lap ?? 0) vs \(y.item)/\(y.lap ?? 0)"
                )
                pairs += 1
              }
            }
          }
        }
      }
    }
    XCTAssertGreaterThan(pairs, 10_000)
  }

  func testWheelsStackTheRightNeighbourOverTheLeft() {
    // iCarousel's wheel adds 0.01 · offset to z: the item after the
    // centred one lies on top of the item before it, and both on top of
    // nothing else; the centred one is in the middle of the stack.
    for style in [CarouselStyle.wheel, .invertedWheel] {
      let layout = carousel(style, 12)
      let all = layout.attributes(in: bounds(1200), bounds: bounds(1200))
      func z(_ item: Int) -> Int { all.first { $0.item == item }!.zIndex }
      // u = 6: items 5, 6, 7 at offsets −1, 0, 1.
      XCTAssertGreaterThan(z(7), z(6), "\(style)")
      XCTAssertGreaterThan(z(6), z(5), "\(style)")
    }
  }

  func testInvertedCylinderHidesTheFarSide() {
    let layout = carousel(.invertedCylinder, 12)
    // Item 6 is opposite: rotated by π, m33 = −1.
    let far = layout.attributesForItem(IndexPath(section: 0, item: 6), bounds: bounds(0))!
    XCTAssertTrue(far.hidden)
    XCTAssertEqual(far.transform.m.10, -1, accuracy: 1e-12)
    XCTAssertFalse(layout.attributes(in: bounds(0), bounds: bounds(0)).contains { $0.item == 6 })
  }
}
