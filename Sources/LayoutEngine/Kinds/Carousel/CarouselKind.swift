// `carousel`: iCarousel. Slots a constant pitch apart
// (Placement/CarouselPlacement.swift), every item drawn at the viewport's
// centre by one of iCarousel's styles (CarouselEffect.swift), its own
// window of visible items and wrap (CarouselQueries.swift), item snapping.

extension CarouselConfiguration: LayoutKind {
  struct Placed: KindPlacement {
    let kind: CarouselConfiguration
    var stored: SlotGeometry?
  }

  var name: String { "carousel" }
  var snapping: SnapConfiguration? { snap }
  var uniformItemSize: Size { itemSize }
  /// The slots are centred in the viewport.
  var dependsOnMainExtent: Bool { true }
  /// iCarousel's wrap draws a window of the endless sequence itself.
  func repetition(itemCount n: Int) -> Repetition { resolvedWrap ? .window : .none }
  var restModel: RestModel { .centredCards }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming SlotGeometry?,
    continuity: Continuity?
  ) -> SlotGeometry {
    SlotGeometry(configuration: self, sections: sections, viewport: viewport)
  }
}

// A carousel's queries are iCarousel's: a window of items around the scroll
// position, each drawn at the viewport's centre (CarouselQueries.swift),
// not a walk of its slots.
extension CarouselConfiguration {
  func attributes(
    in rect: Rect, bounds: Rect, nearest: inout Layout.NearestCell?, _ g: SlotGeometry,
    of layout: Layout
  ) -> [LayoutAttributes] {
    layout.carouselAttributes(in: rect, bounds: bounds, self, g)
  }

  func forEachAttribute(
    in rect: Rect, bounds: Rect, after: PageStart?, _ g: SlotGeometry, of layout: Layout,
    _ take: (LayoutAttributes) -> Bool
  ) {
    var none: Layout.NearestCell? = nil
    for a in attributes(in: rect, bounds: bounds, nearest: &none, g, of: layout)
    where after?.precedes(a) ?? true {
      if !take(a) { break }
    }
  }

  /// The window: at most `visibleItems`.
  func elementCountBound(in rect: Rect, bounds: Rect, _ g: SlotGeometry, of layout: Layout)
    -> Int
  {
    CarouselFrame(
      self, itemCount: g.itemCount, itemExtent: g.itemExtent, bounds: bounds.size
    )
    .visibleItems
  }

  func attributesForItem(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ g: SlotGeometry, of layout: Layout
  ) -> LayoutAttributes? {
    layout.carouselItem(path, lap: lap, bounds: bounds, self, g)
  }

  /// The slot's centre: every item is drawn at the viewport's centre, so
  /// its drawn centre says nothing of where it is.
  func anchorPoint(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ g: SlotGeometry, of layout: Layout
  ) -> Point? {
    g.slotCenter(path, lap: lap)
  }
}
