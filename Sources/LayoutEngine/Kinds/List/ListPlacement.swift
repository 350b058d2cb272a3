// The list placement: the list rows' bands (Placement/ListRows.swift)
// stacked vertically, one per section, the last band holding the list's
// last row.

/// The placed list.
public struct ListGeometry: Placement {
  let metrics: ListMetrics
  var bands: [ListBand]
  public private(set) var contentSize: Size
  /// Whether any element draws beyond its frame (a grouped list's corners,
  /// an outline row's indentation): a plain flat list's frames skip the
  /// effect (a band is costly to read per element).
  let decorates: Bool

  /// Places `sections` in a viewport `width` wide. O(sections): a section's
  /// rows are summed by its sizes' rope.
  init(_ c: ListConfiguration, sections: [Section], width W: Double, viewportWidth: Double) {
    let metrics = ListMetrics(c, width: W, viewportWidth: viewportWidth)
    self.metrics = metrics
    let spacing = c.appearance.spacesSections ? c.sectionSpacing : 0
    let lastNonEmpty = sections.lastIndex { $0.count > 0 }
    var bands: [ListBand] = []
    bands.reserveCapacity(sections.count)
    var y = 0.0
    for (s, section) in sections.enumerated() {
      let b = metrics.band(
        section, section.fields(ListSectionFields.self), at: y,
        trailing: s == sections.count - 1 ? spacing : 0, holdsLastRow: s == lastNonEmpty)
      bands.append(b)
      y = b.end
    }
    self.bands = bands
    contentSize = Size(width: W, height: y)
    decorates = c.appearance.hasBackgrounds || sections.contains { $0.outlineBox != nil }
  }

  // MARK: Placement

  public var sectionCount: Int { bands.count }
  public func itemCount(inSection s: Int) -> Int { bands[s].count }
  public var elementSpan: (lo: Double, hi: Double) { (0, contentSize.height) }

  public func frameForItem(_ path: IndexPath) -> Rect {
    metrics.frame(row: path.item, of: bands[path.section])
  }

  public func frameForSupplementary(_ kind: ElementKind, section s: Int, pin: Pinning?) -> Rect? {
    metrics.supplementary(kind, of: bands[s], pin: pin)
  }

  /// The first section whose span ends after `lo`. O(log sections).
  func firstBand(endingAfter lo: Double) -> Int { upperBound(bands.count) { bands[$0].end > lo } }

  public func forEachElement(
    in rect: Rect, pin: Pinning?, _ body: (ElementKind, Int, Int, Rect) -> Void
  ) {
    forEachElement(in: rect, pin: pin, after: nil) { k, s, i, r in
      body(k, s, i, r)
      return true
    }
  }

  /// Every element meeting `rect` in document order, from just after
  /// `after`, until `body` returns false. O(log n + k) per section met.
  public func forEachElement(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    let hi = rect.y + rect.height
    let key = after.map { ($0.section, $0.kind.documentRank, $0.item, $0.kind.rowRank) }
    var s = max(firstBand(endingAfter: rect.y), after?.section ?? 0)
    while s < bands.count && bands[s].start < hi {
      if !metrics.walkElements(of: bands[s], section: s, in: rect, pin: pin, after: key, body) {
        return
      }
      s += 1
    }
  }

  public func elementCountBound(in rect: Rect, pin: Pinning?) -> Int {
    let lo = rect.y
    let hi = rect.y + rect.height
    var n = 0
    var s = firstBand(endingAfter: lo)
    while s < bands.count && bands[s].start < hi {
      n += metrics.elementCountBound(of: bands[s], lo: lo, hi: hi)
      s += 1
    }
    return n
  }

  public func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath? {
    guard !bands.isEmpty else { return nil }
    let y = point.y
    var best: (d: Double, path: IndexPath)? = nil
    func consider(_ s: Int, _ j: Int) {
      let c = frameForItem(IndexPath(section: s, item: j)).center.y
      let d = abs(c - y)
      if best == nil || d < best!.d { best = (d, IndexPath(section: s, item: j)) }
    }
    let s0 = min(firstBand(endingAfter: y), bands.count - 1)
    // The row at `y` (or the first after it) and the one before it.
    var s = s0
    while s < bands.count && bands[s].count == 0 { s += 1 }
    var before: (Int, Int)? = nil
    if s < bands.count {
      let (j, b) = metrics.rowsAround(y, of: bands[s])
      if let b { before = (s, b) }
      consider(s, j)
    }
    if before == nil {
      var p = min(s, bands.count) - 1
      while p >= 0 && bands[p].count == 0 { p -= 1 }
      if p >= 0 { before = (p, bands[p].count - 1) }
    }
    if let (p, j) = before {
      // Ties go to the earlier row.
      let c = frameForItem(IndexPath(section: p, item: j)).center.y
      if best == nil || abs(c - y) <= best!.d {
        best = (abs(c - y), IndexPath(section: p, item: j))
      }
    }
    return best?.path
  }

  public func invariantViolation() -> String? {
    var y = 0.0
    for (s, b) in bands.enumerated() {
      if b.start != y { return "list section \(s) starts at \(b.start), not \(y)" }
      if let v = metrics.invariantViolation(of: b) { return "list section \(s): \(v)" }
      y = b.end
    }
    return y == contentSize.height ? nil : "the list's content ends at \(contentSize.height)"
  }
}
