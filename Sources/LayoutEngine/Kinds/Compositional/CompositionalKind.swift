// `compositional`: UICollectionViewCompositionalLayout. Sections of groups
// (CompositionalPlacement.swift), some of them rows that scroll
// on their own with row effects and row snapping (Rows.swift).

extension CompositionalConfiguration: LayoutKind {
  var name: String { "compositional" }
  /// Each boundary item says whether it pins; the placement reads it.
  var pinsSupplementaries: (headers: Bool, footers: Bool) { (true, true) }
  /// Sizes come from the section layouts; items carry measured sizes only.
  var uniformItemSize: Size { .zero }
  /// Fractional heights resolve against the viewport's height.
  var dependsOnMainExtent: Bool { true }
  var hasRows: Bool { true }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming AnyPlacement?,
    continuity: Continuity?, rowOffsets: RowOffsets
  ) -> AnyPlacement {
    var before: CompositionalGeometry? = nil
    if case .compositional(let g)? = previous { before = g }
    let visible = Size(
      width: max(0, viewport.width - inset.left - inset.right),
      height: max(0, viewport.height - inset.top - inset.bottom))
    return .compositional(
      CompositionalGeometry(
        configuration: self, sections: sections, visible: visible, rowOffsets: rowOffsets,
        previous: before, continuity: continuity))
  }
}

// The pipeline's stages: the search widened by a row effect's reach, and
// each element's zIndex and row effect.
extension CompositionalConfiguration {
  typealias EffectContext = CompositionalGeometry?

  var hasEffect: Bool { true }

  func searchRect(_ rect: Rect, bounds: Rect, in layout: Layout) -> Rect {
    guard case .compositional(let g) = layout.placement else { return rect }
    return layout.rowSearch(rect, g)
  }

  func effectContext(bounds: Rect, in layout: Layout) -> CompositionalGeometry? {
    guard case .compositional(let g) = layout.placement else { return nil }
    return g
  }

  func applyEffect(
    to a: inout LayoutAttributes, _ g: CompositionalGeometry?, in layout: Layout
  ) {
    guard let g else { return }
    layout.decorateRowElement(&a, g)
  }

  var readsPlacementBeforeApply: Bool { true }

  /// Each scrolled row keeps its leading group's first item where it was.
  func didApply(_ result: BatchResult, before: AnyPlacement, to layout: inout Layout) {
    if case .compositional(let g) = before { layout.anchorRows(g, result) }
  }
}
