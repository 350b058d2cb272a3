// List rows, shared by the `list` kind and a compositional layout's list
// sections (`{"list": …}`): a band per section, [spacing][padding][header]
// [rows][footer], rows full width or inset, separators and a background
// around them. Rows are a single row of cards (FlowLines' RowWalk with no
// spacing): a row's y is its band's rows' start plus the exact sum of the
// heights before it, whatever path asks, so that a relayout costs
// O(sections) and a query O(log n + k).

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
  /// An outline section's tree and row ids: a row's level indents its
  /// content and its separators. nil for a flat section.
  var outline: OutlineBox? = nil
  var ids: IDList? = nil
}

/// What every band of one list configuration in one width shares: the
/// rows' x and width, the separators' thickness and automatic leading
/// inset.
struct ListMetrics: Sendable {
  let configuration: ListConfiguration
  let rowX: Double
  let rowWidth: Double
  let thickness: Double
  let automaticLeading: Double

  /// The metrics of rows in a width `W` starting at x `origin` (a
  /// compositional section's leading inset), in a viewport `viewportWidth`
  /// wide (the layout margins depend on it). O(1).
  init(_ c: ListConfiguration, width W: Double, origin: Double = 0, viewportWidth: Double) {
    configuration = c
    let rtl = c.layoutDirection == .rtl
    let sL = rtl ? c.safeAreaInsets.right : c.safeAreaInsets.left
    let sR = rtl ? c.safeAreaInsets.left : c.safeAreaInsets.right
    let m = c.margins(width: viewportWidth)
    if c.appearance.insetsRows {
      rowX = origin + sL + m
      rowWidth = max(0, W - sL - sR - 2 * m)
      automaticLeading = c.cellLayoutMargins
    } else {
      rowX = origin
      rowWidth = W
      automaticLeading = c.cellLayoutMargins + sL
    }
    thickness = 1 / c.displayScale
  }

  /// `section` placed from y: [spacing][padding][header][rows][footer],
  /// plus `trailing` after the footer. O(1): the rows' total is their
  /// sizes' summary.
  func band(
    _ section: Section, _ f: ListSectionFields?, at start: Double, trailing: Double,
    holdsLastRow: Bool
  ) -> ListBand {
    let c = configuration
    let headerMode = f?.headerMode ?? c.headerMode
    let footerMode = f?.footerMode ?? c.footerMode
    var y = start + (c.appearance.spacesSections ? c.sectionSpacing : 0)
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
    let rows = walk(start: rowsStart, count: section.count)
    let rowsEnd = rowsStart + rows.thickness(SectionGeometry.RowPrefix(sizes.summary, rows.axes))
    var footerHeight = 0.0
    if footerMode == .supplementary, (f?.footerHeight ?? c.footerHeight) > 0 {
      footerHeight = f?.footerHeight ?? c.footerHeight
    }
    return ListBand(
      start: start, headerY: headerY, headerHeight: headerHeight, rowsStart: rowsStart,
      rowsEnd: rowsEnd, footerHeight: footerHeight, end: rowsEnd + footerHeight + trailing,
      count: section.count, sizes: sizes, firstRowIsHeader: headerMode == .firstItemInSection,
      showsSeparators: f?.showsSeparators ?? c.showsSeparators,
      separators: (f?.separatorConfiguration).map { $0.over(c.separatorConfiguration) }
        ?? c.separatorConfiguration,
      itemSeparators: f?.itemSeparators ?? [:], holdsLastRow: holdsLastRow,
      outline: section.outlineBox, ids: section.outlineBox == nil ? nil : section.ids)
  }

  /// The walk along a band's rows: a single row of cards, no spacing.
  @inline(__always) func walk(_ b: ListBand) -> RowWalk { walk(start: b.rowsStart, count: b.count) }

  @inline(__always) func walk(start: Double, count: Int) -> RowWalk {
    RowWalk(
      axes: Axes(direction: .vertical),
      itemSize: Size(width: rowWidth, height: configuration.estimatedRowHeight),
      itemsStart: start, lineSpacing: 0, crossLead: rowX, avail: rowWidth, count: count)
  }

  @inline(__always) func rowFrame(start: Double, height: Double) -> Rect {
    Rect(x: rowX, y: start, width: rowWidth, height: height)
  }

  /// Row `j`'s frame. O(log n).
  func frame(row j: Int, of b: ListBand) -> Rect {
    let w = walk(b)
    let card = w.card(j, b.sizes)
    return rowFrame(start: card.start, height: w.mainExtent(card.raw))
  }

  /// A band's header or footer (pinned in plain appearances when `pin`
  /// asks), or its background. O(1).
  func supplementary(_ kind: ElementKind, of b: ListBand, pin: Pinning?) -> Rect? {
    let pins = configuration.appearance.pinsSupplementaries
    switch kind {
    case .header:
      guard b.headerHeight > 0 else { return nil }
      var y = b.headerY
      if let pin, pin.headers, pins {
        y = pin.header(own: y, thickness: b.headerHeight, limit: b.rowsEnd)
      }
      return Rect(x: rowX, y: y, width: rowWidth, height: b.headerHeight)
    case .footer:
      guard b.footerHeight > 0 else { return nil }
      var y = b.rowsEnd
      if let pin, pin.footers, pins {
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
  /// given the row's frame and outline level, or nil when it shows none: the item's
  /// override, the section's, the layout's, then the automatic rule. O(1)
  /// (a dictionary lookup when the section has overrides).
  @inline(__always)
  func separator(_ edge: ElementKind, row j: Int, level: Int, of b: ListBand, frame r: Rect)
    -> Rect?
  {
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
    // The automatic inset follows an outline row's indentation.
    let x =
      r.x
      + (insets?.leading
        ?? automaticLeading + Double(level) * configuration.indentationWidth)
    let end = r.x + r.width - (insets?.trailing ?? 0)
    return Rect(
      x: x, y: top ? r.y : r.y + r.height - thickness, width: max(0, end - x), height: thickness)
  }

  /// Band `b` (section `s`)'s elements meeting `rect` in document order:
  /// background, header, each row between its separators, footer; those
  /// at or before `key` (section, document rank, item, row rank) left
  /// out. Returns false once `body` does. O(log n + k).
  @inline(__always)
  func walkElements(
    of b: ListBand, section s: Int, in rect: Rect, pin: Pinning?,
    after key: (Int, Int, Int, Int)?, _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) -> Bool {
    let lo = rect.y
    let hi = rect.y + rect.height
    @inline(__always) func emit(_ k: ElementKind, _ i: Int, _ r: Rect) -> Bool {
      guard r.intersects(rect) else { return true }
      if let key, (s, k.documentRank, i, k.rowRank) <= key { return true }
      return body(k, s, i, r)
    }
    if let r = supplementary(.decoration, of: b, pin: pin), !emit(.decoration, 0, r) {
      return false
    }
    if let r = supplementary(.header, of: b, pin: pin), !emit(.header, 0, r) { return false }
    if b.count > 0 && b.rowsStart < hi && b.rowsEnd >= lo {
      var stopped = false
      let w = walk(b)
      let from = key.map { $0.0 == s ? max(0, $0.2) : 0 } ?? 0
      // An outline row's level moves its separators' automatic inset. The
      // cursor is reached through a pointer: a variable the walk's visitor
      // captured would cost an exclusivity check on every row.
      var cursor = b.showsSeparators ? OutlineRowCursor(b.outline, ids: b.ids) : nil
      withUnsafeMutablePointer(to: &cursor) { rows in
        func visit(_ j: Int, _ start: Double, _ thick: Double, _: Range<Int>, _: Size?) -> Bool {
          if start >= hi { return false }
          if j < from { return true }
          let r = rowFrame(start: start, height: thick)
          let level = rows.pointee == nil ? 0 : rows.pointee!.level(j)
          if let t = separator(.topSeparator, row: j, level: level, of: b, frame: r),
            !emit(.topSeparator, j, t)
          {
            stopped = true
            return false
          }
          if !emit(.cell, j, r) {
            stopped = true
            return false
          }
          if let t = separator(.bottomSeparator, row: j, level: level, of: b, frame: r),
            !emit(.bottomSeparator, j, t)
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
      }
      if stopped { return false }
    }
    if let r = supplementary(.footer, of: b, pin: pin), !emit(.footer, 0, r) { return false }
    return true
  }

  /// At least as many elements of band `b` as meet [lo, hi). O(log n).
  func elementCountBound(of b: ListBand, lo: Double, hi: Double) -> Int {
    var n = 3
    if b.count > 0 {
      let w = walk(b)
      let a = w.firstCard(endingAfter: lo, b.sizes)
      let z = w.firstCard(endingAfter: hi, b.sizes)
      n += 3 * (min(z, b.count - 1) - min(a, b.count - 1) + 1)
    }
    return n
  }

  /// The rows of a non-empty band nearest y: the first ending after y (or
  /// the last) and the one before it. O(log n).
  func rowsAround(_ y: Double, of b: ListBand) -> (at: Int, before: Int?) {
    let j = min(walk(b).firstCard(endingAfter: y, b.sizes), b.count - 1)
    return (j, j > 0 ? j - 1 : nil)
  }

  /// What a list draws beyond frames: an outline row's indentation
  /// (level × indentationWidth), and the rounding a grouped appearance
  /// names: a background's radius, and a cell's corners (the top ones on
  /// its band's first row, the bottom ones on its last). The level is
  /// the one the query marked the cell with. O(1).
  @inline(__always)
  func decorate(_ a: inout LayoutAttributes, rowCount: Int) {
    if let row = a.outlineRow, a.kind == .cell {
      a.indentation = Double(row.level) * configuration.indentationWidth
    }
    guard configuration.appearance.hasBackgrounds else { return }
    switch a.kind {
    case .decoration:
      a.cornerRadius = configuration.appearance == .insetGrouped ? configuration.cornerRadius : 0
    case .cell:
      var mask: CornerMask = []
      if a.item == 0 { mask.formUnion(.top) }
      if a.item == rowCount - 1 { mask.formUnion(.bottom) }
      a.cornerMask = mask
    default:
      break
    }
  }

  /// A band's own invariants. O(log n) (the sizes' rope check aside).
  func invariantViolation(of b: ListBand) -> String? {
    if b.sizes.count != b.count { return "its sizes are not its rows" }
    if let v = b.sizes.invariantViolation() { return "its sizes: \(v)" }
    if !(b.start <= b.rowsStart && b.rowsStart <= b.rowsEnd && b.rowsEnd <= b.end) {
      return "its parts are out of order"
    }
    return nil
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
