// `waterfall`: CHTCollectionViewWaterfallLayout. Waterfall columns
// (WaterfallColumns.swift), optionally snapping to tops.

extension WaterfallConfiguration: LayoutKind {
  struct Placed: KindPlacement {
    let kind: WaterfallConfiguration
    var stored: WaterfallGeometry?
  }

  var name: String { "waterfall" }
  var pinsSupplementaries: (headers: Bool, footers: Bool) {
    (sectionHeadersPinToVisibleBounds, sectionFootersPinToVisibleBounds)
  }
  var snapping: SnapConfiguration? { snap }
  /// Tops rest at the visible top when it snaps.
  var restModel: RestModel { snap == nil ? .free : .tops }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming WaterfallGeometry?,
    continuity: Continuity?
  ) -> WaterfallGeometry {
    // Handed on, not copied, so that the columns it holds are unshared.
    WaterfallGeometry(
      configuration: self, sections: sections,
      crossExtent: crossExtent(viewport, inset, scrollDirection), previous: consume previous,
      continuity: continuity)
  }

  /// Spanning every column is a waterfall's notion: other kinds see the
  /// plain sizes. O(n).
  func sections(_ sections: [Section], leavingFor next: LayoutType) -> [Section] {
    if case .waterfall = next { return sections }
    return sections.map { $0.withoutFullSpan }
  }
}
