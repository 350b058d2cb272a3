// `waterfall`: CHTCollectionViewWaterfallLayout. Waterfall columns
// (WaterfallColumns.swift), optionally snapping to tops.

extension WaterfallConfiguration: LayoutKind {
  var name: String { "waterfall" }
  var pinsSupplementaries: (headers: Bool, footers: Bool) {
    (sectionHeadersPinToVisibleBounds, sectionFootersPinToVisibleBounds)
  }
  var snapping: SnapConfiguration? { snap }
  /// Each item's column is recorded.
  var storesEveryItem: Bool { true }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming AnyPlacement?,
    continuity: Continuity?, rowOffsets: RowOffsets
  ) -> AnyPlacement {
    // Handed on, not copied, so that the columns it holds are unshared.
    var before: WaterfallGeometry? = nil
    if case .waterfall(let g)? = consume previous { before = g }
    return .waterfall(
      WaterfallGeometry(
        configuration: self, sections: sections,
        crossExtent: crossExtent(viewport, inset, scrollDirection), previous: consume before,
        continuity: continuity))
  }

  /// Spanning every column is a waterfall's notion: other kinds see the
  /// plain sizes. O(n).
  func sections(_ sections: [Section], leavingFor next: LayoutType) -> [Section] {
    if case .waterfall = next { return sections }
    return sections.map { $0.withoutFullSpan }
  }
}
