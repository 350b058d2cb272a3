// `waterfall`: CHTCollectionViewWaterfallLayout. Waterfall columns
// (Placement/WaterfallColumns.swift), optionally snapping to tops.

extension WaterfallConfiguration: LayoutKind {
  var name: String { "waterfall" }
  var pinsSupplementaries: (headers: Bool, footers: Bool) {
    (sectionHeadersPinToVisibleBounds, sectionFootersPinToVisibleBounds)
  }
  var snapping: SnapConfiguration? { snap }
  /// Each item's column is recorded.
  var storesEveryItem: Bool { true }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: AnyPlacement?,
    continuity: Continuity?, rowOffsets: RowOffsets
  ) -> AnyPlacement {
    var before: WaterfallGeometry? = nil
    if case .waterfall(let g)? = previous { before = g }
    return .waterfall(
      WaterfallGeometry(
        configuration: self, sections: sections,
        crossExtent: crossExtent(viewport, inset, scrollDirection), previous: before,
        continuity: continuity))
  }

  /// Spanning every column is a waterfall's notion: other kinds see the
  /// plain sizes. O(n).
  func sections(_ sections: [Section], leavingFor next: LayoutType) -> [Section] {
    if case .waterfall = next { return sections }
    return sections.map { $0.withoutFullSpan }
  }
}
