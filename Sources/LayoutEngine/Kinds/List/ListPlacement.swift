// The list placement: sections stacked vertically, each [spacing][padding]
// [header][rows][footer], rows full width or inset, separators and a
// background around them. Rows are a single row of cards (Placement/'s
// RowWalk with no spacing): a row's y is its section's rows' start plus the
// exact sum of the heights before it, whatever path asks, so that a
// relayout costs O(sections) and a query O(log n + k).

/// One section of a list, placed.
struct ListBand: Sendable {
  var start: Double
  /// The header's y and height (0: no header element).
  var headerY: Double
  var headerHeight: Double
  var rowsStart: Double
  /// Where the rows end and the footer starts.
  var rowsEnd: Double
  var footerHeight: Double
  /// Where the next section starts.
  var end: Double
  var count: Int
  var sizes: SizeList
  /// Row 0 is the section's header (firstItemInSection).
  var firstRowIsHeader: Bool
  var showsSeparators: Bool
  /// The section's separators before items' overrides.
  var separators: SeparatorConfiguration
  var itemSeparators: [Int: SeparatorConfiguration]
  /// Its last row is the list's last row (plain hides that separator).
  var holdsLastRow: Bool
}

/// The placed list.
public struct ListGeometry: Placement {
  let configuration: ListConfiguration
  /// The content width, the rows' x and width, the separators' thickness
  /// and automatic leading inset.
  let width: Double
  let rowX: Double
  let rowWidth: Double
  let thickness: Double
  let automaticLeading: Double
  var bands: [ListBand]
  public private(set) var contentSize: Size

  /// Places `sections` in a viewport `width` wide. O(sections): a section's
  /// rows are summed by its sizes' rope.
  init(_ c: ListConfiguration, sections: [Section], width W: Double, viewportWidth: Double) {
    configuration = c
    width = W
    let rtl = c.layoutDirection == .rtl
    let sL = rtl ? c.safeAreaInsets.right : c.safeAreaInsets.left
    let sR = rtl ? c.safeAreaInsets.left : c.safeAreaInsets.right
    let m = c.margins(width: viewportWidth)
    if c.appearance.insetsRows {
      rowX = sL + m
      rowWidth = max(0, W - sL - sR - 2 * m)
      automaticLeading = c.cellLayoutMargins
    } else {
      rowX = 0
      rowWidth = W
      automaticLeading = c.cellLayoutMargins + sL
    }
    thickness = 1 / c.displayScale
    let spacing = c.appearance.spacesSections ? c.sectionSpacing : 0
    let lastNonEmpty = sections.lastIndex { $0.count > 0 }
    var bands: [ListBand] = []
    bands.reserveCapacity(sections.count)
    var y = 0.0
    for (s, section) in sections.enumerated() {
      let f = section.fields(ListSectionFields.self)
      let headerMode = f?.headerMode ?? c.headerMode
      let footerMode = f?.footerMode ?? c.footerMode
      let start = y
      y += spacing
      var headerHeight = 0.0
      var headerY = y
      if headerMode == .supplementary, (f?.headerHeight ?? c.headerHeight) > 0 {
        headerHeight = f?.headerHeight ?? c.headerHeight
        headerY = y + c.headerTopPadding
        y = headerY + headerHeight
      }
      let sizes = section.sizeList
      let rowsStart = y
      // The rows' total as a walk's prefix over all of them has it.
      let rows = Self.walk(
        start: rowsStart, count: section.count, x: rowX, width: rowWidth,
        estimate: c.estimatedRowHeight)
      let rowsEnd =
        rowsStart + rows.thickness(SectionGeometry.RowPrefix(sizes.summary, rows.axes))
      var footerHeight = 0.0
      if footerMode == .supplementary, (f?.footerHeight ?? c.footerHeight) > 0 {
        footerHeight = f?.footerHeight ?? c.footerHeight
      }
      y = rowsEnd + footerHeight
      bands.append(
        ListBand(
          start: start, headerY: headerY, headerHeight: headerHeight, rowsStart: rowsStart,
          rowsEnd: rowsEnd, footerHeight: footerHeight, end: y,
          count: section.count, sizes: sizes, firstRowIsHeader: headerMode == .firstItemInSection,
          showsSeparators: f?.showsSeparators ?? c.showsSeparators,
          separators: (f?.separatorConfiguration).map { $0.over(c.separatorConfiguration) }
            ?? c.separatorConfiguration,
          itemSeparators: f?.itemSeparators ?? [:], holdsLastRow: s == lastNonEmpty))
    }
    if !bands.isEmpty {
      y += spacing
      bands[bands.count - 1].end = y
    }
    self.bands = bands
    contentSize = Size(width: W, height: y)
  }

  /// The walk along band `b`'s rows: a single row of cards, no spacing.
  @inline(__always) func walk(_ b: ListBand) -> RowWalk {
    Self.walk(
      start: b.rowsStart, count: b.count, x: rowX, width: rowWidth,
      estimate: configuration.estimatedRowHeight)
  }

  @inline(__always)
  static func walk(start: Double, count: Int, x: Double, width: Double, estimate: Double)
    -> RowWalk
  {
    RowWalk(
      axes: Axes(direction: .vertical), itemSize: Size(width: width, height: estimate),
      itemsStart: start, lineSpacing: 0, crossLead: x, avail: width, count: count)
  }

  @inline(__always) func rowFrame(start: Double, height: Double) -> Rect {
    Rect(x: rowX, y: start, width: rowWidth, height: height)
  }

  // MARK: Placement

  public var sectionCount: Int { bands.count }
  public func itemCount(inSection s: Int) -> Int { bands[s].count }
  public var elementSpan: (lo: Double, hi: Double) { (0, contentSize.height) }

  public func frameForItem(_ path: IndexPath) -> Rect {
    let b = bands[path.section]
    let w = walk(b)
    let card = w.card(path.item, b.sizes)
    return rowFrame(start: card.start, height: w.mainExtent(card.raw))
  }

  public func frameForSupplementary(_ kind: ElementKind, section s: Int, pin: Pinning?) -> Rect? {
    let b = bands[s]
    switch kind {
    case .header:
      guard b.headerHeight > 0 else { return nil }
      var y = b.headerY
      if let pin, pin.headers {
        y = pin.header(own: y, thickness: b.headerHeight, limit: b.rowsEnd)
      }
      return Rect(x: rowX, y: y, width: rowWidth, height: b.headerHeight)
    case .footer:
      guard b.footerHeight > 0 else { return nil }
      var y = b.rowsEnd
      if let pin, pin.footers {
        y = pin.footer(own: y, thickness: b.footerHeight, limit: b.rowsStart)
      }
      return Rect(x: rowX, y: y, width: rowWidth, height: b.footerHeight)
    case .decoration:
      guard configuration.appearance.hasBackgrounds, b.count > 0 else { return nil }
      return Rect(x: rowX, y: b.rowsStart, width: rowWidth, height: b.rowsEnd - b.rowsStart)
    case .cell, .topSeparator, .bottomSeparator:
      return nil
    }
  }

  /// Row `j`'s separator on `edge` (`.topSeparator` or `.bottomSeparator`)
  /// given the row's frame, or nil when it shows none: the item's
  /// override, the section's, the layout's, then the automatic rule. O(1)
  /// (a dictionary lookup when the section has overrides).
  @inline(__always)
  func separator(_ edge: ElementKind, row j: Int, of b: ListBand, frame r: Rect) -> Rect? {
    guard b.showsSeparators else { return nil }
    var c = b.separators
    if !b.itemSeparators.isEmpty, let o = b.itemSeparators[j] { c = o.over(c) }
    let top = edge == .topSeparator
    switch (top ? c.topSeparatorVisibility : c.bottomSeparatorVisibility) ?? .automatic {
    case .hidden: return nil
    case .visible: break
    case .automatic:
      let a = configuration.appearance
      if top || !a.showsAutomaticSeparators || (b.firstRowIsHeader && j == 0) { return nil }
      if j == b.count - 1 && (a != .plain || b.holdsLastRow) { return nil }
    }
    let insets = top ? c.topSeparatorInsets : c.bottomSeparatorInsets
    let x = r.x + (insets?.leading ?? automaticLeading)
    let end = r.x + r.width - (insets?.trailing ?? 0)
    return Rect(
      x: x, y: top ? r.y : r.y + r.height - thickness, width: max(0, end - x), height: thickness)
  }

  /// The first section whose span ends after `lo`. O(log sections).
  func firstBand(endingAfter lo: Double) -> Int { upperBound(bands.count) { bands[$0].end > lo } }

  public func forEachElement(
    in rect: Rect, pin: Pinning?, _ body: (ElementKind, Int, Int, Rect) -> Void
  ) {
    walkElements(in: rect, pin: pin, after: nil) { k, s, i, r in
      body(k, s, i, r)
      return true
    }
  }

  public func forEachElement(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    walkElements(in: rect, pin: pin, after: after, body)
  }

  /// Every element meeting `rect` in document order, from just after
  /// `after`, until `body` returns false. O(log n + k) per section met.
  @inline(__always)
  func walkElements(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    let lo = rect.y
    let hi = rect.y + rect.height
    let key = after.map { ($0.section, $0.kind.documentRank, $0.item, $0.kind.rowRank) }
    @inline(__always) func emit(_ k: ElementKind, _ s: Int, _ i: Int, _ r: Rect) -> Bool {
      guard r.intersects(rect) else { return true }
      if let key, (s, k.documentRank, i, k.rowRank) <= key { return true }
      return body(k, s, i, r)
    }
    var s = max(firstBand(endingAfter: lo), after?.section ?? 0)
    while s < bands.count && bands[s].start < hi {
      let b = bands[s]
      if let r = frameForSupplementary(.decoration, section: s, pin: pin),
        !emit(.decoration, s, 0, r)
      {
        return
      }
      if let r = frameForSupplementary(.header, section: s, pin: pin), !emit(.header, s, 0, r) {
        return
      }
      if b.count > 0 && b.rowsStart < hi && b.rowsEnd >= lo {
        var stopped = false
        let w = walk(b)
        let from = after.map { $0.section == s ? max(0, $0.item) : 0 } ?? 0
        let visit: SectionGeometry.LineVisitor = { j, start, thick, _, _ in
          if start >= hi { return false }
          if j < from { return true }
          let r = rowFrame(start: start, height: thick)
          if let t = separator(.topSeparator, row: j, of: b, frame: r),
            !emit(.topSeparator, s, j, t)
          {
            stopped = true
            return false
          }
          if !emit(.cell, s, j, r) {
            stopped = true
            return false
          }
          if let t = separator(.bottomSeparator, row: j, of: b, frame: r),
            !emit(.bottomSeparator, s, j, t)
          {
            stopped = true
            return false
          }
          return true
        }
        if from > 0, from < b.count {
          // From the cursor's row when it lies past the rect's first.
          w.forEachCard(from: from, b.sizes, endingAfter: lo, visit)
        } else if from < b.count {
          w.forEachCard(b.sizes, endingAfter: lo, visit)
        }
        if stopped { return }
      }
      if let r = frameForSupplementary(.footer, section: s, pin: pin), !emit(.footer, s, 0, r) {
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
      let b = bands[s]
      n += 3
      if b.count > 0 {
        let w = walk(b)
        let a = w.firstCard(endingAfter: lo, b.sizes)
        let z = w.firstCard(endingAfter: hi, b.sizes)
        n += 3 * (min(z, b.count - 1) - min(a, b.count - 1) + 1)
      }
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
      let b = bands[s]
      let j = min(walk(b).firstCard(endingAfter: y, b.sizes), b.count - 1)
      if j > 0 { before = (s, j - 1) }
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
      if b.sizes.count != b.count { return "list section \(s)'s sizes are not its rows" }
      if let v = b.sizes.invariantViolation() { return "list section \(s)'s sizes: \(v)" }
      if !(b.start <= b.rowsStart && b.rowsStart <= b.rowsEnd && b.rowsEnd <= b.end) {
        return "list section \(s)'s parts are out of order"
      }
      y = b.end
    }
    return y == contentSize.height ? nil : "the list's content ends at \(contentSize.height)"
  }
}

extension RowWalk {
  /// The index of the first card ending after `y` (`count` when none
  /// does). O(log n).
  func firstCard(endingAfter y: Double, _ sizes: SizeList) -> Int {
    var found = count
    forEachCard(sizes, endingAfter: y) { j, _, _, _, _ in
      found = j
      return false
    }
    return found
  }

  /// `forEachCard(sizes, endingAfter: lo)` from card `j` on (or from the
  /// first ending after `lo` when that comes later). O(log n + cards
  /// visited).
  func forEachCard(
    from j: Int, _ sizes: SizeList, endingAfter lo: Double, _ body: SectionGeometry.LineVisitor
  ) {
    let first = firstCard(endingAfter: lo, sizes)
    guard first <= j else {
      forEachCard(sizes, endingAfter: lo, body)
      return
    }
    let axes = axes
    var (p, elements, offset) = sizes.leaf(
      containing: j, prefix: SectionGeometry.RowPrefix(), adding: { $0.adding($1, axes) })
    p.add(elements, upTo: offset, axes)
    forEachCard(sizes, p, elements, first: j - offset, at: offset, body)
  }
}
