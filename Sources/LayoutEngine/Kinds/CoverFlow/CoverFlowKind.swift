// `coverFlow`: the seeds' cover flows. Flow lines of one card each, the
// cover-flow effect (CoverFlowEffect.swift), card snapping, and an
// optional loop.

extension CoverFlowConfiguration: LayoutKind {
  struct Placed: KindPlacement {
    let kind: CoverFlowConfiguration
    var stored: FlowGeometry?
  }

  var name: String { "coverFlow" }
  var scrollDirection: ScrollDirection { flow.scrollDirection }
  var layoutDirection: LayoutDirection { flow.layoutDirection }
  var pinsSupplementaries: (headers: Bool, footers: Bool) {
    (flow.sectionHeadersPinToVisibleBounds, flow.sectionFootersPinToVisibleBounds)
  }
  var snapping: SnapConfiguration? { snap }
  var uniformItemSize: Size { flow.uniformItemSize }
  /// Its insets centre the first and last card in the viewport.
  var dependsOnMainExtent: Bool { true }
  func repetition(itemCount n: Int) -> Repetition { loop ? .copies : .none }
  var restModel: RestModel { .centredCards }

  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming FlowGeometry?,
    continuity: Continuity?
  ) -> FlowGeometry {
    var c = flow
    c.itemSize = c.uniformItemSize
    let D = crossExtent(viewport, inset, c.scrollDirection)
    return FlowGeometry(
      configuration: c, sections: sections, crossExtent: D, policy: policy,
      sectionInsets: { _, section in self.inset(for: section, viewport: viewport, crossExtent: D)
      },
      previous: previous, reuse: continuity?.sections ?? [])
  }

  /// A tilted card must never reach the eye; a loop's scale must stay
  /// bounded. O(1).
  func problem(_ g: FlowGeometry, in layout: Layout) -> LayoutProblem? {
    if !layout.tiltIsDrawable(self, g) { return .tiltReachesEye }
    if loop, !scale.magnitudeBound(upTo: .infinity).isFinite { return .loop(.unboundedScale) }
    return nil
  }
}

// The pipeline's stages: the search widened by how far a card's drawn box
// can lie from its frame, and the cover-flow effect on cells.
extension CoverFlowConfiguration {
  typealias EffectContext = (centerMain: Double, extent: Double)

  var hasEffect: Bool { true }

  func searchRect(_ rect: Rect, bounds: Rect, _ g: FlowGeometry, in layout: Layout) -> Rect {
    layout.coverSearch(self, g, rect: rect, bounds: bounds)
  }

  func effectContext(bounds: Rect, _ g: FlowGeometry, in layout: Layout) -> EffectContext {
    (layout.axes.main(bounds.center), layout.axes.main(bounds.size))
  }

  func applyEffect(to a: inout LayoutAttributes, _ c: EffectContext, in layout: Layout) {
    guard a.kind == .cell else { return }
    apply(
      to: &a, centerMain: c.centerMain, extent: c.extent,
      lineSpacing: lineSpacing(layout.sections[a.section].minimumLineSpacing))
  }
}
