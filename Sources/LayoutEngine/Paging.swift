// Pages of a rect's elements, for snapshots too large for one answer:
// each page continues in document order (by lap, then section: the header,
// the cells by item, the footer) just after the last element of the one
// before, and costs what its own elements cost plus a descent, not what
// the elements before it cost.

/// Where a page starts: just after this element (its lap in a loop).
public struct PageStart: Equatable, Sendable {
  public var position: ElementPosition
  public var lap: Int?
  public init(position: ElementPosition, lap: Int? = nil) {
    self.position = position
    self.lap = lap
  }

  /// Whether `a` comes after this start in document order. O(1).
  func precedes(_ a: LayoutAttributes) -> Bool {
    func rank(_ k: ElementKind) -> Int {
      switch k {
      case .decoration: return -1
      case .header: return 0
      case .cell: return 1
      case .footer: return 2
      }
    }
    let p = position
    return (lap ?? 0, p.section, rank(p.kind), p.item)
      < (a.lap ?? 0, a.section, rank(a.kind), a.item)
  }
}

extension Layout {
  /// At most `limit` of `attributes(in: rect, bounds:)`, the ones just
  /// after `after` (from the first without it), and whether more remain:
  /// the same elements with the same values as that answer's slice.
  /// O(log n + limit) (a waterfall: plus the items whose indices lie
  /// within the rect's columns' span; a loop: plus the copies skipped).
  public func attributes(in rect: Rect, bounds: Rect, after: PageStart?, limit: Int)
    -> (attributes: [LayoutAttributes], more: Bool)
  {
    var out: [LayoutAttributes] = []
    out.reserveCapacity(min(limit, 4096) + 1)
    // One past the limit says whether more remain.
    forEachAttribute(in: rect, bounds: bounds, after: after) { a in
      out.append(a)
      return out.count <= limit
    }
    let more = out.count > limit
    if more { out.removeLast() }
    return (out, more)
  }

  /// `attributes(in: rect, bounds:)` one element at a time, from just after
  /// `after`, until `take` returns false: an answer written as it is
  /// computed, with no array of every element. O(log n + elements visited)
  /// (as the pages).
  public func forEachAttribute(
    in rect: Rect, bounds: Rect, after: PageStart? = nil, _ take: (LayoutAttributes) -> Bool
  ) {
    if case .carousel = type {
      for a in attributes(in: rect, bounds: bounds) where after?.precedes(a) ?? true {
        if !take(a) { break }
      }
    } else if loops, case .coverFlow(let cf) = type, period > 0 {
      let q = loopQuery(rect, bounds, cf)
      let (K, shift, b, search, (kLo, kHi)) = (q.K, q.shift, q.bounds, q.search, q.laps)
      var k = kLo
      if let after { k = max(kLo, (after.lap ?? 0) &- K) }
      while k <= kHi {
        let off = Double(k) * period
        let lapBounds = shiftedMain(b, -off)
        let from = after.flatMap { (($0.lap ?? 0) &- K) == k ? $0.position : nil }
        var stop = false
        placement.forEachElement(
          in: shiftedMain(search, -off), pin: pinning(lapBounds), after: from
        ) {
          kind, s, i, frame in
          let a = finish(kind, s, i, frame, k: k, K: K, shift: shift, lapBounds: lapBounds, cf)
          guard a.frame.intersects(rect) else { return true }
          stop = !take(a)
          return !stop
        }
        if stop { break }
        k += 1
      }
    } else {
      let r = toLTR(rect)
      let b = toLTR(bounds)
      let pin = pinning(b)
      var search = r
      var effect: CoverFlowConfiguration? = nil
      var rows: CompositionalGeometry? = nil
      if case .coverFlow(let cf) = type {
        search = coverSearch(cf, rect: r, bounds: b)
        effect = cf
      } else if case .compositional(let g) = placement {
        search = rowSearch(r, g)
        rows = g
      }
      let centerMain = axes.main(b.center)
      let extent = axes.main(b.size)
      placement.forEachElement(in: search, pin: pin, after: after?.position) { kind, s, i, frame in
        var a: LayoutAttributes
        if let g = rows {
          a = rowAttributes(g, kind, s, i, frame)
          guard a.frame.intersects(r) else { return true }
        } else {
          a = Self.plain(kind, s, i, frame, pinned: pin)
        }
        if let cf = effect {
          if kind == .cell {
            cf.apply(
              to: &a, centerMain: centerMain, extent: extent,
              lineSpacing: cf.lineSpacing(sections[s].minimumLineSpacing))
          }
          guard a.frame.intersects(r) else { return true }
        }
        fromLTR(&a)
        return take(a)
      }
    }
  }
}
