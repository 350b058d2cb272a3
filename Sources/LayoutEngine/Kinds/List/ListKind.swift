// `list`: UICollectionLayoutListConfiguration. A list placement
// (ListPlacement.swift), free scrolling, and an effect that only names
// what a grouped list rounds: its backgrounds' radius and its first and
// last rows' corners.

extension ListConfiguration: LayoutKind {
  struct Placed: KindPlacement {
    let kind: ListConfiguration
    var stored: ListGeometry?
  }

  var name: String { "list" }
  var scrollDirection: ScrollDirection { .vertical }
  var pinsSupplementaries: (headers: Bool, footers: Bool) {
    (appearance.pinsSupplementaries, appearance.pinsSupplementaries)
  }
  /// Rows are full width: only the height is the estimate.
  var uniformItemSize: Size { Size(width: 0, height: estimatedRowHeight) }

  /// O(sections): rows are summed by their ropes, so nothing of the
  /// previous placement needs keeping.
  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming ListGeometry?,
    continuity: Continuity?
  ) -> ListGeometry {
    ListGeometry(
      self, sections: sections, width: crossExtent(viewport, inset, .vertical),
      viewportWidth: viewport.width)
  }

  /// Every section's rows are list rows; its fields merge the overrides.
  func separatorFields(_ overrides: [Int: SeparatorConfiguration], of section: Section)
    -> (any SectionFields)?
  {
    var fields = ListSectionFields()
    fields.itemSeparators = overrides
    return fields
  }

  /// Every list draws something beyond frames (an outline row's
  /// indentation, a grouped list's corners); none moves a frame.
  var hasEffect: Bool { true }

  func effectContext(bounds: Rect, _ g: ListGeometry, in layout: Layout) -> ListGeometry { g }

  /// A background's radius and zIndex below the cells; a cell's rounded
  /// corners and indentation. O(1).
  func applyEffect(to a: inout LayoutAttributes, _ g: ListGeometry, in layout: Layout) {
    guard g.decorates else { return }
    g.metrics.decorate(&a, rowCount: g.bands[a.section].count)
    if a.kind == .decoration { a.zIndex = -1 }
  }
}
