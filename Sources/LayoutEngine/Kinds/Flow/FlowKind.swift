// `flow`: UICollectionViewFlowLayout. Flow lines (Placement/FlowLines.swift),
// no effect, free scrolling.

extension FlowConfiguration: LayoutKind {
  var name: String { "flow" }
  var pinsSupplementaries: (headers: Bool, footers: Bool) {
    (sectionHeadersPinToVisibleBounds, sectionFootersPinToVisibleBounds)
  }
  var flowFields: FlowConfiguration? { self }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming AnyPlacement?,
    continuity: Continuity?, rowOffsets: RowOffsets
  ) -> AnyPlacement {
    var c = self
    c.itemSize = uniformItemSize
    return .flow(
      FlowGeometry(
        configuration: c, sections: sections,
        crossExtent: crossExtent(viewport, inset, scrollDirection),
        previous: previous?.flowGeometry, reuse: continuity?.sections ?? []))
  }
}

/// The extent across the scroll axis that lines or columns fill: the
/// viewport's less the content insets. O(1).
func crossExtent(_ viewport: Size, _ inset: Insets, _ direction: ScrollDirection) -> Double {
  max(
    0,
    direction == .vertical
      ? viewport.width - inset.left - inset.right : viewport.height - inset.top - inset.bottom)
}

extension AnyPlacement {
  /// The flow lines of a placement in flow lines, else nil. O(1).
  var flowGeometry: FlowGeometry? {
    if case .flow(let g) = self { return g }
    return nil
  }
}
