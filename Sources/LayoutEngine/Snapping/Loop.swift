// Looping carousels: the content repeats without end along the scroll axis.
//
// Copy k (its *lap*) is the original content shifted by k·P along the
// scroll axis in the left-to-right space, where P, the *period*, is one
// copy's extent: the content's main-axis extent with the loop's section
// insets (none before a section's cards, its line spacing after them), so
// that the spacing joining the last card to the next copy's first card is
// the line spacing. Lap k spans [k·P, (k + 1)·P); in rtl horizontal
// scrolling the mirror image puts it at −k·P in client coordinates.
//
// Offsets far from zero stay exact: every query first reduces its offset
// into one period, K = ⌊offset / P⌋ (left to right), works with the
// reduced offset and small lap numbers, and adds K·P back at the end. So
// an offset of 1e12 gives the same relative frames as its reduced offset,
// up to the rounding of K·P + local.

/// A card of a carousel: its index path, and its lap when the layout loops.
public struct Card: Equatable, Hashable, Sendable {
  public var path: IndexPath
  public var lap: Int?
  public init(path: IndexPath, lap: Int? = nil) {
    self.path = path
    self.lap = lap
  }
}

/// Why a looping configuration cannot be laid out.
public enum LoopProblem: Equatable, Sendable {
  /// The period is shorter than 1 point while there are items to repeat.
  case period(Double)
  /// A copy's last card comes after the next copy's first (negative
  /// explicit insets along the scroll axis).
  case overlappingCopies
  /// The scale curve is unbounded, so cards arbitrarily far away could be
  /// drawn over the viewport.
  case unboundedScale
}

/// A card of the endless sequence in the left-to-right space: global index
/// `index` (0..<n) of copy `lap`.
struct LoopCard: Equatable {
  var lap: Int
  var index: Int
}

extension Layout {
  /// The period P of a looping carousel: one copy's extent along the scroll
  /// axis, which is also `contentSize` along it. O(1).
  public var period: Double { axes.main(contentSize) }

  /// Why the loop cannot be laid out, or nil (always nil without loop).
  /// O(log lines).
  public var loopProblem: LoopProblem? {
    guard loops, traits.kind.repeatsPlacement else { return nil }
    let P = period
    guard itemCount > 0 || P != 0 else { return nil }
    if !(P >= 1) { return .period(P) }
    if itemCount > 0 && restOffset(itemCount - 1) > restOffset(0) + P { return .overlappingCopies }
    return nil
  }

  /// The client-space direction of a lap's shift along the scroll axis.
  var lapDirection: Double { isRTL && scrollDirection == .horizontal ? -1 : 1 }

  /// The reduction of a client offset along the scroll axis:
  /// K = ⌊left-to-right offset / P⌋ and the client-space shift K·P (−K·P
  /// in rtl horizontal). O(1).
  func loopBase(_ clientMain: Double) -> (lap: Int, shift: Double) {
    let P = period
    guard P > 0 else { return (0, 0) }
    let q = (ltrMain(clientMain) / P).rounded(.down)
    let K = q.isFinite ? Int(min(max(q, -4e18), 4e18)) : 0
    return (K, lapDirection * Double(K) * P)
  }

  /// `r` moved by `d` along the scroll axis. O(1).
  func shiftedMain(_ r: Rect, _ d: Double) -> Rect {
    var r = r
    if scrollDirection == .horizontal { r.x += d } else { r.y += d }
    return r
  }

  /// Moves an element by `d` along the scroll axis (its transform, about
  /// its centre, is unchanged). O(1).
  func shiftMain(_ a: inout LayoutAttributes, _ d: Double) {
    if scrollDirection == .horizontal {
      a.center.x += d
      a.frame.x += d
    } else {
      a.center.y += d
      a.frame.y += d
    }
  }

  /// The laps, relative to the reduction, whose elements can lie in the
  /// main-axis span [lo, hi] of the reduced left-to-right space. O(1).
  func lapRange(_ lo: Double, _ hi: Double) -> (lo: Int, hi: Int) {
    let P = period
    let span = placement.elementSpan
    func int(_ v: Double) -> Int { Int(min(max(v, -4e18), 4e18)) }
    return (int(((lo - span.hi) / P).rounded(.down)), int(((hi - span.lo) / P).rounded(.up)))
  }

  /// How many copies `attributes(in: rect, bounds:)` examines: 0 without
  /// loop. Callers bound it, since a loop has no end. O(1).
  public func lapsExamined(in rect: Rect, bounds: Rect) -> Double {
    placement.lapsExamined(in: rect, bounds: bounds, of: self)
  }

  /// What every query of a loop over a client rect works with: the
  /// reduction K and its shift, the bounds reduced into the left-to-right
  /// space, the frames to search there (the kind's widened rect), and
  /// the copies, relative to K, whose elements can lie in it. O(1).
  struct LoopQuery {
    var K: Int
    var shift: Double
    var bounds: Rect
    var search: Rect
    var laps: (lo: Int, hi: Int)
  }

  func loopQuery<K: LayoutKind>(
    _ kind: K, _ g: K.Geometry, _ clientRect: Rect, _ clientBounds: Rect
  ) -> LoopQuery {
    let (K, shift) = loopBase(axes.main(clientBounds.origin))
    let rect = toLTR(shiftedMain(clientRect, -shift))
    let bounds = toLTR(shiftedMain(clientBounds, -shift))
    let search = kind.searchRect(rect, bounds: bounds, g, in: self)
    let (lo, hi, _, _) = axes.spans(search)
    return LoopQuery(K: K, shift: shift, bounds: bounds, search: search, laps: lapRange(lo, hi))
  }

  /// Every element of every copy whose frame overlaps `rect`, in lap order
  /// and within a lap in document order. O(laps examined · log n + k).
  func loopAttributes<K: LayoutKind>(
    _ kind: K, _ g: K.Geometry, in clientRect: Rect, bounds clientBounds: Rect
  ) -> [LayoutAttributes] {
    guard period > 0 else { return [] }
    let q = loopQuery(kind, g, clientRect, clientBounds)
    let (K, shift, bounds, search) = (q.K, q.shift, q.bounds, q.search)
    let (kLo, kHi) = q.laps
    var result: [LayoutAttributes] = []
    guard kLo <= kHi else { return result }
    for k in kLo...kHi {
      let off = Double(k) * period
      let b = shiftedMain(bounds, -off)
      g.forEachElement(in: shiftedMain(search, -off), pin: pinning(b)) {
        element, s, i, frame in
        let a = finish(
          kind, g, element, s, i, frame, k: k, K: K, shift: shift, lapBounds: b,
          viewport: clientBounds)
        if a.frame.intersects(clientRect), kind.keeps(a) { result.append(a) }
      }
    }
    return result
  }

  /// `loopAttributes` one element at a time, from just after `after`, until
  /// `take` returns false. O(laps examined · log n + elements visited).
  func loopForEachAttribute<K: LayoutKind>(
    _ kind: K, _ g: K.Geometry, in rect: Rect, bounds: Rect, after: PageStart?,
    _ take: (LayoutAttributes) -> Bool
  ) {
    let q = loopQuery(kind, g, rect, bounds)
    let (K, shift, b, search, (kLo, kHi)) = (q.K, q.shift, q.bounds, q.search, q.laps)
    var k = kLo
    if let after { k = max(kLo, (after.lap ?? 0) &- K) }
    while k <= kHi {
      let off = Double(k) * period
      let lapBounds = shiftedMain(b, -off)
      let from = after.flatMap { (($0.lap ?? 0) &- K) == k ? $0.position : nil }
      var stop = false
      g.forEachElement(
        in: shiftedMain(search, -off), pin: pinning(lapBounds), after: from
      ) {
        element, s, i, frame in
        let a = finish(
          kind, g, element, s, i, frame, k: k, K: K, shift: shift, lapBounds: lapBounds,
          viewport: bounds)
        guard a.frame.intersects(rect), kind.keeps(a) else { return true }
        stop = !take(a)
        return !stop
      }
      if stop { break }
      k += 1
    }
  }

  /// At least as many elements as `loopAttributes` answers: the copies at
  /// both ends of the rect one by one, and every copy between whole. O(log
  /// n) per copy at the ends.
  func loopElementCountBound<K: LayoutKind>(
    _ kind: K, _ g: K.Geometry, in rect: Rect, bounds: Rect
  ) -> Int {
    let q = loopQuery(kind, g, rect, bounds)
    let (b, search, (kLo, kHi)) = (q.bounds, q.search, q.laps)
    let (lo, hi, _, _) = axes.spans(search)
    guard kLo <= kHi else { return 0 }
    func lap(_ k: Int) -> Int {
      let off = Double(k) * period
      return g.elementCountBound(
        in: shiftedMain(search, -off), pin: pinning(shiftedMain(b, -off)))
    }
    // Copies wholly inside the span count whole; the few the span cuts
    // (lapRange errs wide by a copy at each end) one by one.
    let P = period
    let span = g.elementSpan
    func int(_ v: Double) -> Int { Int(min(max(v, -4e18), 4e18)) }
    let inLo = max(kLo, int(((lo - span.lo) / P).rounded(.up)))
    let inHi = min(kHi, int(((hi - span.hi) / P).rounded(.down)))
    guard inLo <= inHi else { return (kLo...kHi).reduce(0) { $0 + lap($1) } }
    let whole = itemCount + 2 * sections.count
    let (inside, overflow) = whole.multipliedReportingOverflow(by: inHi - inLo + 1)
    if overflow { return Int.max }
    var n = inside
    for k in kLo..<inLo { n += lap(k) }
    if inHi < kHi { for k in (inHi + 1)...kHi { n += lap(k) } }
    return n
  }

  /// The attributes of one element of copy K + k, from its frame in copy 0
  /// of the reduced left-to-right space and the bounds moved into that
  /// copy (`lapBounds` = reduced bounds − k·P), back in client space. The
  /// one path every loop query takes, so they agree to the bit. `viewport`
  /// is the client's bounds. O(1).
  func finish<Kind: LayoutKind>(
    _ kind: Kind, _ g: Kind.Geometry, _ element: ElementKind, _ s: Int, _ i: Int, _ frame: Rect,
    k: Int, K: Int,
    shift: Double, lapBounds b: Rect, viewport: Rect
  ) -> LayoutAttributes {
    let pin = pinning(b)
    var a = Self.plain(element, s, i, frame, pinned: pin)
    a.lap = K + k
    let context = kind.effectContext(lapBounds: b, viewport: toLTR(viewport), g, in: self)
    kind.applyEffect(to: &a, context, in: self)
    shiftMain(&a, Double(k) * period)
    fromLTR(&a)
    shiftMain(&a, shift)
    return a
  }

  /// One element of a loop: copy `lap`, or the copy whose (unpinned)
  /// centre is nearest the viewport's centre. `frame` is its frame in copy
  /// 0 (left to right). O(1) plus the pinned frame.
  func loopElement<K: LayoutKind>(
    _ kind: K, _ g: K.Geometry, _ element: ElementKind, _ s: Int, _ i: Int, _ frame: Rect,
    lap: Int?,
    bounds clientBounds: Rect
  ) -> LayoutAttributes? {
    let P = period
    guard P > 0 else { return nil }
    let (K, shift) = loopBase(axes.main(clientBounds.origin))
    let bounds = toLTR(shiftedMain(clientBounds, -shift))
    let k: Int
    if let lap {
      k = lap &- K
    } else {
      // The nearest copy; ties go to the earlier lap.
      let x = ((axes.main(bounds.center) - axes.main(frame.center)) / P - 0.5).rounded(.up)
      k = Int(min(max(x, -4e18), 4e18))
    }
    let b = shiftedMain(bounds, -Double(k) * P)
    var local = frame
    if element != .cell,
      let pinned = g.frameForSupplementary(element, section: s, pin: pinning(b))
    {
      local = pinned
    }
    return finish(
      kind, g, element, s, i, local, k: k, K: K, shift: shift, lapBounds: b, viewport: clientBounds)
  }

  // MARK: Cards of the endless sequence (left-to-right space)

  /// Copy `lap`'s card `index`, with an index outside 0..<n carried into
  /// the neighbouring laps. O(1).
  func loopCard(lap: Int, index: Int) -> LoopCard {
    let n = itemCount
    var l = lap + index / n
    var i = index % n
    if i < 0 {
      i += n
      l -= 1
    }
    return LoopCard(lap: l, index: i)
  }

  /// A card's rest offset: its centre at the viewport's centre. O(log lines).
  func loopRest(_ c: LoopCard) -> Double { restOffset(c.index) + Double(c.lap) * period }

  /// The last card whose rest offset is at most `u`. O(log n).
  func loopBracket(_ u: Double) -> LoopCard {
    let q = ((u - restOffset(0)) / period).rounded(.down)
    let j = Int(min(max(q, -4e18), 4e18))
    // bracket gives −1 when rounding left u just before card 0: that is
    // the previous copy's last card.
    return loopCard(lap: j, index: bracket(u - Double(j) * period))
  }

  /// The fractional index of offset `u` along the endless sequence
  /// (n·lap + index, interpolated between rest offsets). O(log n).
  func loopFractionalIndex(_ u: Double) -> Double {
    let a = loopBracket(u)
    let b = loopCard(lap: a.lap, index: a.index + 1)
    let t0 = loopRest(a)
    let t1 = loopRest(b)
    let base = Double(a.lap) * Double(itemCount) + Double(a.index)
    return t1 > t0 ? base + (u - t0) / (t1 - t0) : base
  }

  /// The card of fractional index `f` rounded to the nearest, ties to the
  /// earlier card. O(1).
  func loopCard(rounding f: Double) -> LoopCard {
    let n = Double(itemCount)
    let g = (f - 0.5).rounded(.up)
    let lap = (g / n).rounded(.down)
    let index = min(max(g - lap * n, 0), n - 1)
    return LoopCard(lap: Int(min(max(lap, -4e18), 4e18)), index: Int(index))
  }

  /// The card whose rest offset is nearest `u`, ties to the earlier one.
  /// O(log n).
  func loopNearestCard(_ u: Double) -> LoopCard {
    let a = loopBracket(u)
    let b = loopCard(lap: a.lap, index: a.index + 1)
    return abs(loopRest(b) - u) < abs(loopRest(a) - u) ? b : a
  }

  /// The centred card: the copy whose centre is nearest the viewport's
  /// centre along the scroll axis, ties to the earlier (lap, item); for
  /// layouts that do not loop, `centeredItem` without a lap. O(log n).
  public func centeredCard(in bounds: Rect) -> Card? {
    guard loops else { return centeredItem(in: bounds).map { Card(path: $0) } }
    guard itemCount > 0, period > 0 else { return nil }
    let (K, shift) = loopBase(axes.main(bounds.origin))
    let c = loopNearestCard(ltrMain(axes.main(bounds.origin) - shift))
    return Card(path: indexPath(global: c.index), lap: K + c.lap)
  }

  /// The snap policy's card and rest offset on the endless sequence, for a
  /// release at `o` projected to `p` (reduced left-to-right offsets).
  /// No ends: `edges` does not apply, and nothing is clamped. O(log n).
  func loopSnapTarget(
    _ snap: SnapConfiguration, offset o: Double, projected p: Double, velocity v: Double
  ) -> (card: LoopCard, offset: Double) {
    let fast = abs(v) >= snap.velocityThreshold && v != 0
    let card: LoopCard
    switch snap.policy {
    case .nearest:
      card = loopNearestCard(p)
    case .free:
      return (loopNearestCard(p), p)
    case .directional:
      let bias = fast ? (v > 0 ? snap.bias : -snap.bias) : 0
      card = loopCard(rounding: loopFractionalIndex(p) + bias)
    case .paging:
      let f = loopFractionalIndex(o)
      let m = Double(snap.maxItems)
      if !fast {
        card = loopCard(rounding: f)
      } else if v > 0 {
        let base = f.rounded(.down)
        card = loopCard(rounding: min(max(loopFractionalIndex(p), base + 1), base + m))
      } else {
        let base = f.rounded(.up)
        card = loopCard(rounding: min(max(loopFractionalIndex(p), base - m), base - 1))
      }
    }
    return (card, loopRest(card))
  }
}
