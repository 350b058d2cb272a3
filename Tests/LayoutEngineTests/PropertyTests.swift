import XCTest

@testable import LayoutEngine

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Queries that use binary search must agree with a brute-force scan of
/// every element, on random configurations.
final class PropertyTests: XCTestCase {
  func randomLayout(_ g: inout SplitMix) -> Layout {
    func v(_ r: ClosedRange<Int>) -> Double { Double(Int.random(in: r, using: &g)) }
    var c = FlowConfiguration()
    c.scrollDirection = Bool.random(using: &g) ? .vertical : .horizontal
    c.itemSize = Size(width: v(1...120), height: v(1...120))
    c.minimumLineSpacing = v(0...20)
    c.minimumInteritemSpacing = v(0...20)
    c.sectionInset = Insets(top: v(0...15), left: v(0...15), bottom: v(0...15), right: v(0...15))
    c.headerReferenceSize = Size(width: v(0...1) * v(0...40), height: v(0...1) * v(0...40))
    c.footerReferenceSize = Size(width: v(0...1) * v(0...40), height: v(0...1) * v(0...40))
    c.sectionHeadersPinToVisibleBounds = Bool.random(using: &g)
    c.sectionFootersPinToVisibleBounds = Bool.random(using: &g)
    c.layoutDirection = Bool.random(using: &g) ? .ltr : .rtl
    var sections: [Section] = []
    for _ in 0..<Int.random(in: 0...4, using: &g) {
      let n = Int.random(in: 0...40, using: &g)
      if Bool.random(using: &g) {
        sections.append(.uniform(n))
      } else {
        sections.append(.sizes((0..<n).map { _ in Size(width: v(1...200), height: v(1...90)) }))
      }
    }
    let viewport = Size(width: v(100...400), height: v(100...400))
    let inset = Insets(top: v(0...20), left: v(0...20), bottom: v(0...20), right: v(0...20))
    if Int.random(in: 0...3, using: &g) == 0 {
      var cf = CoverFlowConfiguration()
      cf.flow = c
      cf.sectionInset = nil
      // Random carousel effects, so that the search margins are checked too.
      if Bool.random(using: &g) {
        cf.scale = Curve(
          shape: Bool.random(using: &g) ? .linear : .reciprocal, peak: v(5...15) / 10,
          factor: v(0...10) / 10, minimum: Bool.random(using: &g) ? v(2...5) / 10 : nil)
      }
      cf.distanceUnit = DistanceUnit.allCases.randomElement(using: &g)!
      if Bool.random(using: &g) { cf.tilt = Tilt(maxAngle: v(0...80), perspective: v(400...2000)) }
      if Bool.random(using: &g) {
        cf.sideShift = SideShift(
          factor: v(-50...50), maximum: Bool.random(using: &g) ? v(0...40) : nil)
      }
      switch Int.random(in: 0...2, using: &g) {
      case 0: cf.spacing = .flow
      case 1: cf.spacing = .fixed
      default: cf.spacing = .overlap(visibleOffset: v(5...300))
      }
      cf.ends = Ends.allCases.randomElement(using: &g)!
      return Layout(
        type: .coverFlow(cf), sections: sections, contentInset: inset, viewportSize: viewport)
    }
    return Layout(type: .flow(c), sections: sections, contentInset: inset, viewportSize: viewport)
  }

  func everything(_ layout: Layout, bounds: Rect) -> [LayoutAttributes] {
    var all: [LayoutAttributes] = []
    for s in 0..<layout.sections.count {
      if let h = layout.attributesForSupplementary(.header, section: s, bounds: bounds) {
        all.append(h)
      }
      for i in 0..<layout.sections[s].count {
        all.append(layout.attributesForItem(IndexPath(section: s, item: i), bounds: bounds)!)
      }
      if let f = layout.attributesForSupplementary(.footer, section: s, bounds: bounds) {
        all.append(f)
      }
    }
    return all
  }

  func testItemAtPointMatchesBruteForce() {
    var g = SplitMix(state: 99)
    for _ in 0..<300 {
      let layout = randomLayout(&g)
      for _ in 0..<10 {
        let r = randomRect(layout, &g)
        let bounds = Rect(origin: r.origin, size: layout.viewportSize)
        let p = Point(x: r.x + r.width / 2, y: r.y + r.height / 2)
        let slow = everything(layout, bounds: bounds)
          .filter { $0.kind == .cell && $0.outlineContains(p) }
          .max { ($0.zIndex, $0.indexPath) < ($1.zIndex, $1.indexPath) }?.indexPath
        XCTAssertEqual(layout.itemAtPoint(p, bounds: bounds), slow, "\(p) in \(layout.type)")
      }
    }
  }

  func testAttributesInRectMatchesBruteForce() {
    var g = SplitMix(state: 42)
    for _ in 0..<300 {
      let layout = randomLayout(&g)
      let size = layout.contentSize
      for _ in 0..<10 {
        let rect = Rect(
          x: Double.random(
            in: (layout.offsetRange.min.x - 50)...(layout.offsetRange.min.x + size.width + 50),
            using: &g),
          y: Double.random(in: -50...(size.height + 50), using: &g),
          width: Double.random(in: 0...400, using: &g),
          height: Double.random(in: 0...400, using: &g))
        let bounds = Rect(origin: rect.origin, size: layout.viewportSize)
        let fast = layout.attributes(in: rect, bounds: bounds)
        let slow = everything(layout, bounds: bounds).filter { $0.frame.intersects(rect) }
        XCTAssertEqual(fast, slow, "rect \(rect) in \(layout.type)")
        XCTAssertGreaterThanOrEqual(layout.elementCountBound(in: rect, bounds: bounds), fast.count)
      }
    }
  }

  /// A cell's centre where the layout puts it, before spacing modes and
  /// side shifts move it: what centredItem measures.
  func layoutCenter(_ layout: Layout, _ a: LayoutAttributes) -> Point {
    let c = layout.geometry.frameForItem(a.indexPath).center
    return layout.isRTL ? Point(x: layout.mirrorWidth - c.x, y: c.y) : c
  }

  func testCenteredItemMatchesBruteForce() {
    var g = SplitMix(state: 7)
    for _ in 0..<300 {
      let layout = randomLayout(&g)
      let size = layout.contentSize
      for _ in 0..<10 {
        let bounds = Rect(
          origin: Point(
            x: Double.random(in: -200...(size.width + 200), using: &g),
            y: Double.random(in: -200...(size.height + 200), using: &g)),
          size: layout.viewportSize)
        let isCarousel = layout.type.name == "coverFlow"
        let c = bounds.center
        var best: (Double, IndexPath)? = nil
        for a in everything(layout, bounds: bounds) where a.kind == .cell {
          let dx = layoutCenter(layout, a).x - c.x
          let dy = layoutCenter(layout, a).y - c.y
          let along = layout.scrollDirection == .horizontal ? abs(dx) : abs(dy)
          let d = isCarousel ? along : (dx * dx + dy * dy).squareRoot()
          if best == nil || d < best!.0 { best = (d, a.indexPath) }
        }
        let got = layout.centeredItem(in: bounds)
        if let best, let got, got != best.1 {
          // Equal distances may resolve either way only when truly tied.
          let a = layout.attributesForItem(got, bounds: bounds)!
          let dx = layoutCenter(layout, a).x - c.x
          let dy = layoutCenter(layout, a).y - c.y
          let along = layout.scrollDirection == .horizontal ? abs(dx) : abs(dy)
          let d = isCarousel ? along : (dx * dx + dy * dy).squareRoot()
          XCTAssertEqual(d, best.0, accuracy: 1e-9)
        } else {
          XCTAssertEqual(got, best?.1)
        }
      }
    }
  }

  // MARK: Loops

  /// A random looping carousel with at least one item: random sections
  /// (few items, so several copies are often visible), headers, pinning,
  /// rtl, bounded scale curves, tilt, side shift and spacing modes.
  func randomLoop(_ g: inout SplitMix) -> Layout {
    func v(_ r: ClosedRange<Int>) -> Double { Double(Int.random(in: r, using: &g)) }
    while true {
      var cf = CoverFlowConfiguration()
      cf.loop = true
      cf.flow.scrollDirection = Bool.random(using: &g) ? .vertical : .horizontal
      cf.flow.itemSize = Size(width: v(20...120), height: v(20...120))
      cf.flow.minimumLineSpacing = v(0...20)
      cf.flow.layoutDirection = Bool.random(using: &g) ? .ltr : .rtl
      cf.flow.headerReferenceSize = Size(width: v(0...1) * v(0...40), height: v(0...1) * v(0...40))
      cf.flow.footerReferenceSize = Size(width: v(0...1) * v(0...40), height: v(0...1) * v(0...40))
      cf.flow.sectionHeadersPinToVisibleBounds = Bool.random(using: &g)
      switch Int.random(in: 0...2, using: &g) {
      case 0: cf.scale = Curve(peak: v(5...15) / 10, factor: v(0...10) / 10, minimum: v(2...5) / 10)
      case 1: cf.scale = Curve(shape: .reciprocal, peak: v(5...15) / 10, factor: v(0...10) / 100)
      default: cf.scale = .constant(1)
      }
      cf.distanceUnit = DistanceUnit.allCases.randomElement(using: &g)!
      if Bool.random(using: &g) { cf.tilt = Tilt(maxAngle: v(0...80), perspective: v(400...2000)) }
      if Bool.random(using: &g) {
        cf.sideShift = SideShift(factor: v(-50...50), maximum: v(0...40))
      }
      switch Int.random(in: 0...2, using: &g) {
      case 0: cf.spacing = .flow
      case 1: cf.spacing = .fixed
      default: cf.spacing = .overlap(visibleOffset: v(40...300))
      }
      var sections: [Section] = []
      for _ in 0..<Int.random(in: 1...3, using: &g) {
        let n = Int.random(in: 0...4, using: &g)
        sections.append(
          Bool.random(using: &g)
            ? .uniform(n)
            : .sizes((0..<n).map { _ in Size(width: v(20...120), height: v(20...120)) }))
      }
      let layout = Layout(
        type: .coverFlow(cf), sections: sections,
        viewportSize: Size(width: v(100...400), height: v(100...400)))
      if layout.itemCount > 0 && layout.problem == nil {
        return layout
      }
    }
  }

  /// Bounds somewhere in the loop: near 0 or ±1e9, in any lap.
  func randomLoopBounds(_ layout: Layout, _ g: inout SplitMix) -> Rect {
    let base = [0, 1e9, -1e9][Int.random(in: 0...2, using: &g)]
    let main = base + Double.random(in: -3 * layout.period...3 * layout.period, using: &g)
    let cross = Double.random(in: -50...50, using: &g)
    return layout.scrollDirection == .horizontal
      ? Rect(origin: Point(x: main, y: cross), size: layout.viewportSize)
      : Rect(origin: Point(x: cross, y: main), size: layout.viewportSize)
  }

  /// Every element of laps `laps`, in lap then document order.
  func everything(_ layout: Layout, laps: ClosedRange<Int>, bounds: Rect) -> [LayoutAttributes] {
    var all: [LayoutAttributes] = []
    for lap in laps {
      for s in 0..<layout.sections.count {
        if let h = layout.attributesForSupplementary(.header, section: s, lap: lap, bounds: bounds)
        {
          all.append(h)
        }
        for i in 0..<layout.sections[s].count {
          all.append(
            layout.attributesForItem(IndexPath(section: s, item: i), lap: lap, bounds: bounds)!)
        }
        if let f = layout.attributesForSupplementary(.footer, section: s, lap: lap, bounds: bounds)
        {
          all.append(f)
        }
      }
    }
    return all
  }

  /// The lap the bounds' origin lies in, roughly.
  func lapNear(_ layout: Layout, _ bounds: Rect) -> Int {
    let main = layout.scrollDirection == .horizontal ? bounds.x : bounds.y
    let sign = layout.isRTL && layout.scrollDirection == .horizontal ? -1.0 : 1.0
    return Int((sign * main / layout.period).rounded(.down))
  }

  func testLoopAttributesInRectMatchBruteForceOverLaps() {
    var g = SplitMix(state: 2024)
    for _ in 0..<120 {
      let layout = randomLoop(&g)
      for _ in 0..<4 {
        let bounds = randomLoopBounds(layout, &g)
        let rect = Rect(
          x: bounds.x + Double.random(in: -500...500, using: &g),
          y: bounds.y + Double.random(in: -500...500, using: &g),
          width: Double.random(in: 0...400, using: &g),
          height: Double.random(in: 0...400, using: &g))
        // Cards drawn within the rect lie within a few thousand points of
        // it (overlap spacing draws a card `off` away at most pitch/40·off
        // closer): enumerate every lap within 8000 points.
        let K = lapNear(layout, bounds)
        let L = Int((8000 / layout.period).rounded(.up)) + 2
        let slow = everything(layout, laps: (K - L)...(K + L), bounds: bounds)
          .filter { $0.frame.intersects(rect) }
        XCTAssertEqual(
          layout.attributes(in: rect, bounds: bounds), slow, "\(rect) in \(layout.type)")
        XCTAssertGreaterThanOrEqual(layout.elementCountBound(in: rect, bounds: bounds), slow.count)
      }
    }
  }

  func testLoopCenteredCardMatchesBruteForce() {
    var g = SplitMix(state: 77)
    for _ in 0..<200 {
      let layout = randomLoop(&g)
      for _ in 0..<5 {
        let bounds = randomLoopBounds(layout, &g)
        let centre = layout.scrollDirection == .horizontal ? bounds.midX : bounds.midY
        // The lap of the viewport's centre: the nearest copy is within a period of it.
        let sign = layout.isRTL && layout.scrollDirection == .horizontal ? -1.0 : 1.0
        let K = Int((sign * centre / layout.period).rounded(.down))
        // The untransformed centre of each copy, nearest first; ties to the
        // earlier (lap, item).
        var best: (Double, Int, IndexPath)? = nil
        for lap in (K - 3)...(K + 3) {
          for s in 0..<layout.sections.count {
            for i in 0..<layout.sections[s].count {
              let path = IndexPath(section: s, item: i)
              var c = layout.geometry.frameForItem(path).center
              let main = layout.scrollDirection == .horizontal ? c.x : c.y
              let shifted = main + Double(lap) * layout.period
              if layout.scrollDirection == .horizontal { c.x = shifted } else { c.y = shifted }
              if layout.isRTL && layout.scrollDirection == .horizontal {
                c.x = layout.mirrorWidth - c.x
              }
              let d = abs((layout.scrollDirection == .horizontal ? c.x : c.y) - centre)
              if best == nil || d < best!.0 - 1e-6 { best = (d, lap, path) }
            }
          }
        }
        let got = layout.centeredCard(in: bounds)!
        let a = layout.attributesForItem(got.path, lap: got.lap, bounds: bounds)!
        XCTAssertEqual(a.lap, got.lap)
        if got != Card(path: best!.2, lap: best!.1) {
          // Only a tie (to rounding at ±1e9) may resolve differently.
          let c = layout.geometry.frameForItem(got.path).center
          let main = (layout.scrollDirection == .horizontal ? c.x : c.y)
          let ltrCentre =
            layout.isRTL && layout.scrollDirection == .horizontal
            ? layout.mirrorWidth - centre : centre
          let d = abs(main + Double(got.lap!) * layout.period - ltrCentre)
          XCTAssertEqual(d, best!.0, accuracy: 1e-5, "\(bounds) in \(layout.type)")
        }
      }
    }
  }

  /// A cover flow's centred card (one walk from a card's reach behind the
  /// centre) against every card: the nearest centre along the axis, ties
  /// to the earlier index path, in rows of one and several sections.
  func testCoverFlowCentredCardIsTheNearestCentre() {
    var g = SplitMix(state: 77)
    for trial in 0..<40 {
      var cf = CoverFlowConfiguration()
      cf.flow.minimumLineSpacing = Double(Int.random(in: 0...30, using: &g))
      if trial % 3 == 1 { cf.flow.scrollDirection = .vertical }
      let sections: [Section] = (0..<Int.random(in: 1...3, using: &g)).map { _ in
        .sizes(
          (0..<Int.random(in: 0...40, using: &g)).map { _ in
            // Some equal sizes, so that centres tie.
            let w = Double(Int.random(in: 1...4, using: &g) * 25)
            return Size(width: w, height: w)
          })
      }
      let layout = Layout(
        type: .coverFlow(cf), sections: sections, viewportSize: Size(width: 300, height: 300))
      guard layout.itemCount > 0 else { continue }
      let vertical = layout.scrollDirection == .vertical
      let extent = vertical ? layout.contentSize.height : layout.contentSize.width
      for _ in 0..<30 {
        let o = Double.random(in: -200...(extent + 200), using: &g).rounded()
        let bounds =
          vertical
          ? Rect(x: 0, y: o, width: 300, height: 300) : Rect(x: o, y: 0, width: 300, height: 300)
        let centre = vertical ? bounds.midY : bounds.midX
        var best: (Double, IndexPath)? = nil
        for s in 0..<layout.sections.count {
          for i in 0..<layout.sections[s].count {
            let path = IndexPath(section: s, item: i)
            let c = layout.geometry.frameForItem(path).center
            let d = abs((vertical ? c.y : c.x) - centre)
            if best == nil || d < best!.0 || (d == best!.0 && path < best!.1) { best = (d, path) }
          }
        }
        XCTAssertEqual(layout.centeredCard(in: bounds)?.path, best?.1, "\(bounds)")
      }
    }
  }

  /// A frame's combined query gives exactly the two separate answers: the
  /// centred card settled on the attributes' walk (or, when the walk
  /// cannot settle it, searched for) is `centeredCard`'s, ties included.
  func testAttributesAndCenteredCardMatchTheSeparateQueries() {
    var g = SplitMix(state: 2026)
    var settled = 0
    for trial in 0..<400 {
      var layout = randomLayout(&g)
      if trial % 2 == 0 {
        // Cover flow with equal sizes, so that centres tie.
        var cf = CoverFlowConfiguration()
        cf.flow.minimumLineSpacing = Double(Int.random(in: 0...30, using: &g))
        if trial % 4 == 0 { cf.flow.scrollDirection = .vertical }
        if trial % 8 == 2 { cf.flow.layoutDirection = .rtl }
        let sections: [Section] = (0..<Int.random(in: 1...3, using: &g)).map { _ in
          .sizes(
            (0..<Int.random(in: 0...40, using: &g)).map { _ in
              let w = Double(Int.random(in: 1...4, using: &g) * 25)
              return Size(width: w, height: w)
            })
        }
        layout = Layout(
          type: .coverFlow(cf), sections: sections, viewportSize: Size(width: 300, height: 300))
      }
      let found = checkCentredWalk(layout, &g)
      if !layout.loops, case .coverFlow = layout.type { settled += found }
    }
    // The walk settled the card in most cover flow frames.
    XCTAssertGreaterThan(settled, 1000)
  }

  func testSectionOfEqualSizesMatchesUniformSection() {
    var c = FlowConfiguration()
    c.itemSize = Size(width: 70, height: 30)
    let v = Size(width: 320, height: 400)
    let a = Layout(type: .flow(c), sections: [.uniform(11)], viewportSize: v)
    let b = Layout(
      type: .flow(c), sections: [.sizes(Array(repeating: Size(width: 70, height: 30), count: 11))],
      viewportSize: v)
    let rect = Rect(x: 0, y: 0, width: 320, height: 400)
    XCTAssertEqual(a.attributes(in: rect, bounds: rect), b.attributes(in: rect, bounds: rect))
    XCTAssertEqual(a.contentSize, b.contentSize)
  }

  /// The count that lets an answer be refused before it is built: over a
  /// whole 1e7-item flow it is the item count, found without walking the
  /// items; over a viewport it is a viewport's worth.
  func testElementCountBoundIsCheapAndTight() {
    var flow = FlowConfiguration()
    flow.itemSize = Size(width: 10, height: 10)
    let viewport = Size(width: 375, height: 600)
    let big = Layout(type: .flow(flow), sections: [.uniform(10_000_000)], viewportSize: viewport)
    let all = Rect(x: 0, y: 0, width: 375, height: big.contentSize.height)
    XCTAssertEqual(big.elementCountBound(in: all, bounds: all), 10_000_000 + 2)
    let b = Rect(x: 0, y: 123_456, width: 375, height: 600)
    let visible = big.attributes(in: b, bounds: b).count
    let bound = big.elementCountBound(in: b, bounds: b)
    XCTAssertGreaterThanOrEqual(bound, visible)
    XCTAssertLessThanOrEqual(bound, visible + 2 * 18 + 2)  // a line more at each end
    var carousel = CarouselConfiguration()
    carousel.style = .rotary
    let ring = Layout(
      type: .carousel(carousel), sections: [.uniform(1_000_000)], viewportSize: viewport)
    XCTAssertEqual(ring.elementCountBound(in: all, bounds: b), 12)  // its visible items
  }

  /// A single row's bound over a viewport comes from its thinnest card,
  /// without a descent (cover flow's rows): never below the cards a rect
  /// meets, and within a factor of them; over the whole row, exact.
  func testSingleRowBoundFromTheThinnestCard() {
    var g = SplitMix(state: 31)
    var cf = CoverFlowConfiguration()
    cf.flow.minimumLineSpacing = 7
    let sizes = (0..<20_000).map { _ in
      Size(width: Double(Int.random(in: 40...90, using: &g)), height: 150)
    }
    let layout = Layout(
      type: .coverFlow(cf), sections: [.sizes(sizes)], viewportSize: Size(width: 375, height: 200))
    for _ in 0..<200 {
      let x = Double.random(in: -100...(layout.contentSize.width), using: &g)
      let w = Double.random(in: 0...2000, using: &g)
      let r = Rect(x: x, y: 0, width: w, height: 200)
      let b = Rect(x: x, y: 0, width: 375, height: 200)
      let met = layout.attributes(in: r, bounds: b).count
      let bound = layout.elementCountBound(in: r, bounds: b)
      XCTAssertGreaterThanOrEqual(bound, met)
      // Thinnest cards everywhere: within a factor of the cards met.
      XCTAssertLessThanOrEqual(bound, 2 * met + 16, "x \(x), width \(w)")
    }
    let all = Rect(x: -1000, y: 0, width: layout.contentSize.width + 2000, height: 200)
    XCTAssertEqual(layout.elementCountBound(in: all, bounds: all), 20_000 + 2)
  }

  /// Walks `rect` page by page and returns the concatenation.
  func paged(_ layout: Layout, _ rect: Rect, _ bounds: Rect, limit: Int) -> [LayoutAttributes] {
    var all: [LayoutAttributes] = []
    var after: PageStart? = nil
    while true {
      let page = layout.attributes(in: rect, bounds: bounds, after: after, limit: limit)
      XCTAssertLessThanOrEqual(page.attributes.count, limit)
      all += page.attributes
      guard page.more, let last = page.attributes.last else { break }
      after = PageStart(
        position: ElementPosition(kind: last.kind, section: last.section, item: last.item),
        lap: last.lap)
    }
    return all
  }

  func testPagesConcatenateToTheWholeAnswer() {
    var g = SplitMix(state: 77)
    for _ in 0..<150 {
      let layout = randomLayout(&g)
      let size = layout.contentSize
      let rect = Rect(
        x: layout.offsetRange.min.x - 50, y: -50, width: size.width + 100, height: size.height + 100
      )
      let bounds = Rect(origin: .zero, size: layout.viewportSize)
      let whole = layout.attributes(in: rect, bounds: bounds)
      for limit in [1, 3, 7] {
        XCTAssertEqual(
          paged(layout, rect, bounds, limit: limit), whole, "\(layout.type) by \(limit)")
      }
    }
    for _ in 0..<60 {
      let layout = randomLoop(&g)
      let bounds = randomLoopBounds(layout, &g)
      let rect = Rect(
        x: bounds.x - 700, y: bounds.y - 700, width: bounds.width + 1400,
        height: bounds.height + 1400)
      let whole = layout.attributes(in: rect, bounds: bounds)
      XCTAssertEqual(paged(layout, rect, bounds, limit: 2), whole, "loop \(layout.type)")
    }
    var c = CarouselConfiguration()
    c.style = .rotary
    let ring = Layout(
      type: .carousel(c), sections: [.uniform(7), .uniform(5)],
      viewportSize: Size(width: 600, height: 400))
    let b = Rect(x: 510, y: 0, width: 600, height: 400)
    XCTAssertEqual(paged(ring, b, b, limit: 4), ring.attributes(in: b, bounds: b))
  }
}

extension XCTestCase {
  /// A random rect over the content, which lies at negative x in rtl.
  func randomRect(_ layout: Layout, _ g: inout SplitMix) -> Rect {
    let size = layout.contentSize
    let minX = layout.offsetRange.min.x
    return Rect(
      x: Double.random(in: (minX - 50)...(minX + size.width + 50), using: &g),
      y: Double.random(in: -50...(size.height + 50), using: &g),
      width: Double.random(in: 0...400, using: &g),
      height: Double.random(in: 0...400, using: &g))
  }

  /// Checks `attributesAndCenteredCard` against the two separate queries
  /// over random viewports and rects of `layout`; returns in how many the
  /// walk itself settled the centred card (in the plane, for kinds that do
  /// not centre cards).
  func checkCentredWalk(_ layout: Layout, _ g: inout SplitMix, frames: Int = 10) -> Int {
    var settled = 0
    let size = layout.contentSize
    let minX = layout.offsetRange.min.x
    for _ in 0..<frames {
      let bounds = Rect(
        origin: Point(
          x: Double.random(in: (minX - 200)...(minX + size.width + 200), using: &g).rounded(),
          y: Double.random(in: -200...(size.height + 200), using: &g).rounded()),
        size: layout.viewportSize)
      // A session's visible rect (the bounds and some overscan), or any
      // rect: one that misses the centre must not settle it.
      let rect: Rect
      if Int.random(in: 0..<3, using: &g) > 0 {
        let o = Double(Int.random(in: 0...200, using: &g))
        rect = Rect(
          x: bounds.x - o, y: bounds.y - o, width: bounds.width + 2 * o,
          height: bounds.height + 2 * o)
      } else {
        rect = randomRect(layout, &g)
      }
      let both = layout.attributesAndCenteredCard(in: rect, bounds: bounds)
      XCTAssertEqual(both.attributes, layout.attributes(in: rect, bounds: bounds))
      XCTAssertEqual(both.centered, layout.centeredCard(in: bounds), "\(bounds) \(rect)")
      if !layout.loops {
        let c = layout.toLTR(bounds).center
        var nearest: Layout.NearestCell? = Layout.NearestCell(
          to: layout.axes.main(c),
          cross: layout.restModel.measuresFromCentres ? nil : layout.axes.cross(c))
        _ = layout.attributes(in: rect, bounds: bounds, nearest: &nearest)
        if let path = nearest?.settled {
          settled += 1
          XCTAssertEqual(path, both.centered?.path)
        }
      }
    }
    return settled
  }
}

extension PropertyTests {
  /// Flow grids of equal sizes (centres tie in the plane) and random flows:
  /// the walk settles the centred item in most frames, as `centeredItem`
  /// would find it.
  func testAFlowsWalkSettlesTheCentredItemInThePlane() {
    var g = SplitMix(state: 77)
    var settled = 0
    for trial in 0..<200 {
      var layout = randomLayout(&g)
      if trial % 2 == 0 {
        var c = FlowConfiguration()
        c.itemSize = Size(width: 50, height: 50)
        c.minimumLineSpacing = Double(Int.random(in: 0...10, using: &g))
        c.minimumInteritemSpacing = Double(Int.random(in: 0...10, using: &g))
        if trial % 4 == 0 { c.scrollDirection = .horizontal }
        if trial % 8 == 2 { c.layoutDirection = .rtl }
        layout = Layout(
          type: .flow(c), sections: [.uniform(Int.random(in: 0...300, using: &g))],
          viewportSize: Size(width: 300, height: 300))
      }
      settled += checkCentredWalk(layout, &g)
    }
    XCTAssertGreaterThan(settled, 800)
  }
}
