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
    let p = position
    return (lap ?? 0, p.section, p.kind.documentRank, p.item, p.kind.rowRank) < a.documentOrder
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
    placement.forEachAttribute(in: rect, bounds: bounds, after: after, of: self, take)
  }
}
