// `compositional`: UICollectionViewCompositionalLayout. Sections of groups
// (CompositionalPlacement.swift), some of them rows that scroll
// on their own with row effects and row snapping (Rows.swift).

extension CompositionalConfiguration: LayoutKind {
  struct Placed: KindPlacement {
    let kind: CompositionalConfiguration
    var stored: CompositionalGeometry?
  }

  var name: String { "compositional" }
  /// Each boundary item says whether it pins; the placement reads it.
  var pinsSupplementaries: (headers: Bool, footers: Bool) { (true, true) }
  /// Sizes come from the section layouts; items carry measured sizes only.
  var uniformItemSize: Size { .zero }
  /// Fractional heights resolve against the viewport's height.
  var dependsOnMainExtent: Bool { true }

  /// List sections only in a vertical layout. O(1): the placement notes
  /// the first.
  func problem(_ g: CompositionalGeometry, in layout: Layout) -> LayoutProblem? {
    g.horizontalList.map { .horizontalList(section: $0) }
  }

  /// A list section's layout with the overrides merged in; nil for a
  /// section of groups.
  func separatorFields(_ overrides: [Int: SeparatorConfiguration], of section: Section)
    -> (any SectionFields)?
  {
    var layout = section.fields(SectionLayout.self) ?? self.section
    guard layout.list != nil else { return nil }
    layout.list?.itemSeparators.merge(overrides) { _, new in new }
    return layout
  }

  /// Rows keep their offsets across every relayout but a batch, after
  /// which each scrolled row keeps its leading group's first item where
  /// it was.
  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size,
    previous: consuming CompositionalGeometry?, continuity: Continuity?
  ) -> CompositionalGeometry {
    let before = previous
    let visible = Size(
      width: max(0, viewport.width - inset.left - inset.right),
      height: max(0, viewport.height - inset.top - inset.bottom))
    let batch = continuity?.batch
    var g = CompositionalGeometry(
      configuration: self, sections: sections, visible: visible,
      rowOffsets: batch == nil ? before?.rowOffsets ?? [:] : [:], previous: before,
      continuity: continuity)
    if let batch, let before { g.anchorRows(from: before, batch) }
    return g
  }
}

// The pipeline's stages: the search widened by a row effect's reach, and
// each element's zIndex and row effect.
extension CompositionalConfiguration {
  typealias EffectContext = CompositionalGeometry

  var hasEffect: Bool { true }

  func searchRect(_ rect: Rect, bounds: Rect, _ g: CompositionalGeometry, in layout: Layout)
    -> Rect
  {
    layout.rowSearch(rect, g)
  }

  func effectContext(bounds: Rect, _ g: CompositionalGeometry, in layout: Layout)
    -> CompositionalGeometry
  {
    g
  }

  func applyEffect(
    to a: inout LayoutAttributes, _ g: CompositionalGeometry, in layout: Layout
  ) {
    layout.decorateRowElement(&a, g)
  }
}
