// Repetition by copies: a query walks each copy of the placement its rect
// meets, one period apart, and finishes every element on one path.

extension Layout {
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
    var marker = outlineRowMarker
    for k in kLo...kHi {
      let off = Double(k) * period
      let b = shiftedMain(bounds, -off)
      g.forEachElement(in: shiftedMain(search, -off), pin: pinning(b)) {
        element, s, i, frame in
        let a = finish(
          kind, g, element, s, i, frame, k: k, K: K, shift: shift, lapBounds: b,
          viewport: clientBounds, marker: &marker)
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
    var marker = outlineRowMarker
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
          viewport: bounds, marker: &marker)
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
  /// is the client's bounds; `marker` marks an outline row. O(1).
  func finish<Kind: LayoutKind>(
    _ kind: Kind, _ g: Kind.Geometry, _ element: ElementKind, _ s: Int, _ i: Int, _ frame: Rect,
    k: Int, K: Int,
    shift: Double, lapBounds b: Rect, viewport: Rect, marker: inout OutlineRowMarker?
  ) -> LayoutAttributes {
    let pin = pinning(b)
    var a = Self.plain(element, s, i, frame, pinned: pin)
    a.lap = K + k
    marker?.mark(&a, in: self)
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
    var marker = outlineRowMarker
    return finish(
      kind, g, element, s, i, local, k: k, K: K, shift: shift, lapBounds: b, viewport: clientBounds,
      marker: &marker)
  }
}
