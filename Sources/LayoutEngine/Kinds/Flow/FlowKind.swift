// `flow`: UICollectionViewFlowLayout. Flow lines (Placement/FlowLines.swift),
// no effect, free scrolling.

extension FlowConfiguration: LayoutKind {
  struct Placed: KindPlacement {
    let kind: FlowConfiguration
    var stored: FlowGeometry?
  }

  var name: String { "flow" }
  var pinsSupplementaries: (headers: Bool, footers: Bool) {
    (sectionHeadersPinToVisibleBounds, sectionFootersPinToVisibleBounds)
  }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming FlowGeometry?,
    continuity: Continuity?
  ) -> FlowGeometry {
    var c = self
    c.itemSize = uniformItemSize
    return FlowGeometry(
      configuration: c, sections: sections,
      crossExtent: crossExtent(viewport, inset, scrollDirection),
      previous: previous, reuse: continuity?.sections ?? [])
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
