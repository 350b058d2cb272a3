// `carousel`: iCarousel. Slots a constant pitch apart
// (Placement/CarouselPlacement.swift), every item drawn at the viewport's
// centre by one of iCarousel's styles (Effects/Carousel.swift), its own
// window of visible items and wrap (CarouselQueries.swift), item snapping.

extension CarouselConfiguration: LayoutKind {
  public var name: String { "carousel" }
  public var snapping: SnapConfiguration? { snap }
  public var uniformItemSize: Size { itemSize }
  /// The slots are centred in the viewport.
  public var dependsOnMainExtent: Bool { true }
  public var loops: Bool { resolvedWrap }
  /// Its wrap is iCarousel's own: each item once, at its nearest offset.
  public var repeatsPlacement: Bool { false }
  public var centresCards: Bool { true }

  public func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: AnyPlacement?,
    continuity: Continuity?, rowOffsets: RowOffsets
  ) -> AnyPlacement {
    .carousel(CarouselGeometry(configuration: self, sections: sections, viewport: viewport))
  }
}
