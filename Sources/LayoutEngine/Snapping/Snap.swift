#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a scroll that ends comes to rest.
public enum SnapPolicy: String, Sendable, CaseIterable {
  /// The card whose rest offset is nearest the projected offset.
  case nearest
  /// FSPagerView: a flick above the threshold biases the projection by
  /// `bias` pitches in its direction.
  case directional
  /// At most `maxItems` cards per fling, and at least one for a fast one.
  case paging
  /// No snapping: the projection itself.
  case free
}

/// What a snap does at the ends of the content.
public enum SnapEdges: String, Sendable, CaseIterable {
  /// The first and last card's rest offsets bound every target.
  case snap
  /// A projection beyond the first or last card's rest offset is kept.
  case free
}

/// The `snap` options of a carousel.
public struct SnapConfiguration: Equatable, Sendable {
  public var policy = SnapPolicy.nearest
  /// UIScrollView.decelerationRate: the velocity kept per millisecond.
  public var decelerationRate = SnapConfiguration.normal
  /// In pitches (fractions of the way to the next card).
  public var bias = 0.35
  /// In points per millisecond.
  public var velocityThreshold = 0.3
  public var maxItems = 1
  public var edges = SnapEdges.snap

  /// UIScrollView.DecelerationRate.normal and .fast.
  public static let normal = 0.998
  public static let fast = 0.99

  public init() {}
}

/// Where to put an item with `Layout.contentOffset(for:position:)`.
public enum ItemPosition: String, Sendable, CaseIterable {
  case center
  case leading
  case trailing
}

/// The answer to a scroll that ends: where it stops, and how it gets there.
public struct ScrollPlan: Equatable, Sendable {
  public var targetContentOffset: Point
  public var targetItem: IndexPath?
  /// The target card's lap in a looping carousel; nil otherwise.
  public var targetLap: Int? = nil
  /// Where deceleration alone would stop, clamped to the offset range (in
  /// a loop, along the scroll axis, to ±1e15, the protocol's coordinate
  /// bound).
  public var projectedContentOffset: Point
  public var policy: SnapPolicy
  public var durationMs: Double
  /// Offsets every frame interval from the release (the first sample) to
  /// the target (the last, exactly).
  public var trajectory: [Point]
}

/// The deceleration is considered settled once this many points remain.
let settleDistance = 0.5

extension Layout {
  // MARK: Cards in order

  /// The number of items across all sections. O(1).
  public var itemCount: Int { sectionStarts.last ?? 0 }

  func globalIndex(_ p: IndexPath) -> Int { sectionStarts[p.section] + p.item }

  func indexPath(global g: Int) -> IndexPath {
    // The last section starting at or before g that is not empty.
    let s = upperBound(sections.count) { sectionStarts[$0 + 1] > g }
    return IndexPath(section: s, item: g - sectionStarts[s])
  }

  /// A card's rest offset along the scroll axis, unclamped, in the
  /// left-to-right space: its centre at the viewport's centre. O(log lines).
  func restOffset(_ g: Int) -> Double {
    if let exact = placement.restOffset(global: g) { return exact }
    return axes.main(placement.frameForItem(indexPath(global: g)).center)
      - axes.main(viewportSize) / 2
  }

  /// Client offsets along the scroll axis ↔ the left-to-right space, in
  /// which item order and offsets increase together. Its own inverse.
  func ltrMain(_ v: Double) -> Double {
    guard isRTL, scrollDirection == .horizontal else { return v }
    return mirrorWidth - viewportSize.width - v
  }

  /// The offset range along the scroll axis in the left-to-right space.
  var ltrMainRange: (lo: Double, hi: Double) {
    let (lo, hi) = offsetRange
    let a = ltrMain(axes.main(lo))
    let b = ltrMain(axes.main(hi))
    return (min(a, b), max(a, b))
  }

  /// The last rest offsets one snap looked up: the card search, the
  /// interpolation and the final clamp ask for the same two cards, each
  /// O(log n) to find.
  struct RestMemo {
    private var keys = (-1, -1)
    private var values = (0.0, 0.0)

    mutating func offset(_ g: Int, _ layout: Layout) -> Double {
      if keys.0 == g { return values.0 }
      if keys.1 == g { return values.1 }
      let t = layout.restOffset(g)
      keys = (g, keys.0)
      values = (t, values.0)
      return t
    }
  }

  /// The last card whose rest offset is at most `u`, or −1. O(log n).
  func bracket(_ u: Double) -> Int {
    var memo = RestMemo()
    return bracket(u, &memo)
  }

  func bracket(_ u: Double, _ memo: inout RestMemo) -> Int {
    let c = u + axes.main(viewportSize) / 2
    let probe = scrollDirection == .horizontal ? Point(x: c, y: 0) : Point(x: 0, y: c)
    guard let p = placement.nearestItem(to: probe, mainAxisOnly: true) else { return -1 }
    let g = globalIndex(p)
    return memo.offset(g, self) <= u ? g : g - 1
  }

  /// The fractional card index at offset `u`, interpolating linearly between
  /// rest offsets and clamped to [0, n − 1]. O(log n).
  func fractionalIndex(_ u: Double, _ memo: inout RestMemo) -> Double {
    let n = itemCount
    let a = bracket(u, &memo)
    if a < 0 { return 0 }
    if a >= n - 1 { return Double(n - 1) }
    let t0 = memo.offset(a, self)
    let t1 = memo.offset(a + 1, self)
    return t1 > t0 ? Double(a) + (u - t0) / (t1 - t0) : Double(a)
  }

  /// The card whose clamped rest offset is nearest `u`; ties go to the one
  /// whose unclamped rest offset is nearer, then to the earlier. O(log n).
  func nearestCard(_ u: Double, _ memo: inout RestMemo) -> Int {
    let (lo, hi) = ltrMainRange
    let a = bracket(u, &memo)
    var best = -1
    var key = (Double.infinity, Double.infinity)
    // The minimum lies at one of the two cards around u (rest offsets are
    // sorted, and clamping keeps them sorted).
    for g in a...(a + 1) where g >= 0 && g < itemCount {
      let t = memo.offset(g, self)
      let k = (abs(min(max(t, lo), hi) - u), abs(t - u))
      if k < key {
        key = k
        best = g
      }
    }
    return best
  }

  // MARK: Scroll plans

  /// How the layout comes to rest, and what its focus is: its kind's.
  /// O(1).
  public var restModel: RestModel { traits.restModel }

  /// The snap options in force: a carousel's own, a waterfall's when it
  /// has them, `free` otherwise.
  var snapConfiguration: SnapConfiguration {
    if let s = traits.kind.snapping { return s }
    var s = SnapConfiguration()
    s.policy = .free
    return s
  }

  /// scrollViewWillEndDragging plus the deceleration after it: projects the
  /// release (offset + v·r / (1 − r) per axis, unless the client proposes an
  /// offset), applies the snap policy, and samples a deceleration curve that
  /// ends exactly at the target every `frameInterval` ms. O(log n + samples).
  public func scrollPlan(
    contentOffset o: Point, velocity v: Point, proposed: Point? = nil,
    frameInterval: Double = 1000.0 / 60
  ) -> ScrollPlan {
    let rest = restingPlace(contentOffset: o, velocity: v, proposed: proposed)
    let (duration, samples) = Self.decelerate(
      from: o, to: rest.target, rate: snapConfiguration.decelerationRate,
      frameInterval: frameInterval)
    return ScrollPlan(
      targetContentOffset: rest.target, targetItem: rest.item, targetLap: rest.lap,
      projectedContentOffset: rest.projected, policy: snapConfiguration.policy,
      durationMs: duration, trajectory: samples)
  }

  /// `scrollPlan` without its trajectory: the projection, and the target
  /// offset, card and lap. O(log n).
  func restingPlace(contentOffset o: Point, velocity v: Point, proposed: Point?) -> (
    projected: Point, target: Point, item: IndexPath?, lap: Int?
  ) {
    let snap = snapConfiguration
    let r = snap.decelerationRate
    let k = r / (1 - r)
    var projected = clampOffset(proposed ?? Point(x: o.x + v.x * k, y: o.y + v.y * k))
    if loops {
      if scrollDirection == .horizontal {
        projected.x = min(max(projected.x, -Self.maxLoopOffset), Self.maxLoopOffset)
      } else {
        projected.y = min(max(projected.y, -Self.maxLoopOffset), Self.maxLoopOffset)
      }
    }
    var target = projected
    var item: IndexPath? = nil
    var lap: Int? = nil
    if let own = placement.restTarget(
      contentOffset: o, projected: projected, velocity: v, of: self)
    {
      (item, lap) = (own.item, own.lap)
      if scrollDirection == .horizontal { target.x = own.main } else { target.y = own.main }
    } else if itemCount == 0 || restModel == .free {
      item = centeredItem(in: Rect(origin: target, size: viewportSize))
    } else if restModel == .tops {
      // Tops, not cards: items need not be in index order along the
      // scroll axis (a waterfall's).
      let main = topSnapTarget(
        snap, offset: ltrMain(axes.main(o)), projected: ltrMain(axes.main(projected)),
        velocity: (isRTL && scrollDirection == .horizontal ? -1 : 1) * axes.main(v))
      item = main.item
      let m = ltrMain(main.offset)
      if scrollDirection == .horizontal { target.x = m } else { target.y = m }
    } else if loops, period > 0 {
      // Centred cards of the endless sequence, reduced by the release's lap; the plan's offsets are absolute.
      let (K, shift) = loopBase(axes.main(o))
      let main = loopSnapTarget(
        snap, offset: ltrMain(axes.main(o) - shift),
        projected: ltrMain(axes.main(projected) - shift),
        velocity: (isRTL && scrollDirection == .horizontal ? -1 : 1) * axes.main(v))
      item = indexPath(global: main.card.index)
      lap = K + main.card.lap
      let m = ltrMain(main.offset) + shift
      if scrollDirection == .horizontal { target.x = m } else { target.y = m }
    } else {
      // Centred cards.
      let main = snapTarget(
        snap, offset: ltrMain(axes.main(o)), projected: ltrMain(axes.main(projected)),
        velocity: (isRTL && scrollDirection == .horizontal ? -1 : 1) * axes.main(v))
      item = indexPath(global: main.card)
      let m = ltrMain(main.offset)
      if scrollDirection == .horizontal { target.x = m } else { target.y = m }
    }
    return (projected, target, item, lap)
  }

  /// A looping projection stays within the protocol's coordinate bound.
  static let maxLoopOffset = 1e15

  /// The policy's card and offset along the scroll axis, in the
  /// left-to-right space. O(log n).
  func snapTarget(
    _ snap: SnapConfiguration, offset o: Double, projected p: Double, velocity v: Double
  )
    -> (card: Int, offset: Double)
  {
    let n = itemCount
    let (lo, hi) = ltrMainRange
    // Ties of fractional indices go to the earlier card.
    func round(_ x: Double) -> Int { Int(min(max((x - 0.5).rounded(.up), 0), Double(n - 1))) }
    let fast = abs(v) >= snap.velocityThreshold && v != 0
    var memo = RestMemo()
    let card: Int
    switch snap.policy {
    case .nearest:
      card = nearestCard(p, &memo)
    case .free:
      return (nearestCard(p, &memo), p)
    case .directional:
      card = round(fractionalIndex(p, &memo) + (fast ? (v > 0 ? snap.bias : -snap.bias) : 0))
    case .paging:
      let f = fractionalIndex(o, &memo)
      if !fast {
        card = round(f)
      } else if v > 0 {
        let base = f.rounded(.down)
        let m = Double(snap.maxItems)
        card = round(min(max(fractionalIndex(p, &memo), base + 1), base + m))
      } else {
        let base = f.rounded(.up)
        let m = Double(snap.maxItems)
        card = round(min(max(fractionalIndex(p, &memo), base - m), base - 1))
      }
    }
    if snap.edges == .free {
      // In an end zone the projection stands.
      if p < restOffset(0) { return (0, p) }
      if p > restOffset(n - 1) { return (n - 1, p) }
    }
    return (card, min(max(memo.offset(card, self), lo), hi))
  }

  /// UIKit's exponential deceleration retimed to land on `target`: the
  /// offset at t ms is o + Δ·(1 − rᵗ), which covers all but 0.5 pt of Δ at
  /// T = ln(0.5 / |Δ|) / ln r; samples at 0, F, 2F, … until T is passed, the
  /// last replaced by the target itself, sample i taking r^(iF) as qⁱ with
  /// q = r^F multiplied in i times. Returns (N·F, the N + 1 samples).
  /// O(samples).
  static func decelerate(from o: Point, to target: Point, rate r: Double, frameInterval F: Double)
    -> (Double, [Point])
  {
    let dx = target.x - o.x
    let dy = target.y - o.y
    let distance = max(abs(dx), abs(dy))
    guard distance > 0 else { return (0, [target]) }
    let T = distance > settleDistance ? log(settleDistance / distance) / log(r) : 0
    let n = max(1, Int((T / F).rounded(.up)))
    var samples: [Point] = []
    samples.reserveCapacity(n + 1)
    // r^(iF) as qⁱ, q = r^F, one multiplication per sample rather than a
    // pow: the samples are the same doubles whoever computes them in the
    // same order.
    let q = pow(r, F)
    var rest = 1.0
    for _ in 0..<n {
      let k = 1 - rest
      samples.append(Point(x: o.x + dx * k, y: o.y + dy * k))
      rest *= q
    }
    samples.append(target)
    return (Double(n) * F, samples)
  }

  // MARK: Programmatic scrolling

  /// scrollToItem(at:at:animated:): the offset that shows the item's
  /// untransformed frame at the viewport's centre, or its leading or
  /// trailing edge at the visible area's (the bounds less contentInset),
  /// along the scroll axis; across it `crossOffset`. Clamped to
  /// `offsetRange`; nil for a path out of range. O(log lines).
  public func contentOffset(for path: IndexPath, position: ItemPosition, crossOffset: Double)
    -> Point?
  {
    scrollTarget(for: path, position: position, from: crossAxisOrigin(crossOffset))?.offset
  }

  private func crossAxisOrigin(_ cross: Double) -> Point {
    scrollDirection == .horizontal ? Point(x: 0, y: cross) : Point(x: cross, y: 0)
  }

  /// scrollToItem from the content offset `current` (the session's bounds'
  /// origin): `contentOffset(for:position:crossOffset:)` with `current`'s
  /// cross-axis offset, and in a looping carousel the shortest way round:
  /// of the item's copies, the one whose offset is nearest `current`'s
  /// (ties: the later lap, forward), with that lap. O(log lines).
  public func scrollTarget(for path: IndexPath, position: ItemPosition, from current: Point)
    -> (offset: Point, lap: Int?)?
  {
    guard path.section >= 0, path.section < sections.count, path.item >= 0,
      path.item < placement.itemCount(inSection: path.section)
    else { return nil }
    let crossOffset = scrollDirection == .horizontal ? current.y : current.x
    let (lo, hi, _, _) = axes.spans(placement.frameForItem(path))
    var inset = contentInset
    if isRTL { swap(&inset.left, &inset.right) }
    let (lead, trail, _, _) = axes.split(inset)
    let W = axes.main(viewportSize)
    let main: Double
    switch position {
    case .center: main = placement.restOffset(global: globalIndex(path)) ?? (lo + hi) / 2 - W / 2
    case .leading: main = lo - lead
    case .trailing: main = hi + trail - W
    }
    var m = ltrMain(main)
    var lap: Int? = nil
    if loops, period > 0 {
      // Reduced by the current lap: u is the current offset and main the
      // lap-0 copy's, left to right; copy k is k·P further.
      let P = period
      let (K, shift) = loopBase(axes.main(current))
      let u = ltrMain(axes.main(current) - shift)
      let q = ((u - main) / P).rounded(.down)
      var k = Int(min(max(q, -4e18), 4e18))
      // Of copies k and k + 1 (either side of u), the nearer; ties forward.
      if abs(main + Double(k + 1) * P - u) <= abs(main + Double(k) * P - u) { k += 1 }
      m = ltrMain(main + Double(k) * P) + shift
      lap = K + k
    }
    let p =
      scrollDirection == .horizontal ? Point(x: m, y: crossOffset) : Point(x: crossOffset, y: m)
    return (clampOffset(p), lap)
  }
}
