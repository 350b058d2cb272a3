// `compositional`: UICollectionViewCompositionalLayout. Sections of groups
// (Placement/CompositionalPlacement.swift), some of them rows that scroll
// on their own with row effects and row snapping (Rows.swift).

extension CompositionalConfiguration: LayoutKind {
  public var name: String { "compositional" }
  /// Each boundary item says whether it pins; the placement reads it.
  public var pinsSupplementaries: (headers: Bool, footers: Bool) { (true, true) }
  /// Sizes come from the section layouts; items carry measured sizes only.
  public var uniformItemSize: Size { .zero }
  /// Fractional heights resolve against the viewport's height.
  public var dependsOnMainExtent: Bool { true }
  public var hasRows: Bool { true }

  public func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: AnyPlacement?,
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
