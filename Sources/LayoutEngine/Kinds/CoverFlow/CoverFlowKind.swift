// `coverFlow`: the seeds' cover flows. Flow lines of one card each, the
// cover-flow effect (Effects/CoverFlow.swift), card snapping, and an
// optional loop.

extension CoverFlowConfiguration: LayoutKind {
  public var name: String { "coverFlow" }
  public var scrollDirection: ScrollDirection { flow.scrollDirection }
  public var layoutDirection: LayoutDirection { flow.layoutDirection }
  public var pinsSupplementaries: (headers: Bool, footers: Bool) {
    (flow.sectionHeadersPinToVisibleBounds, flow.sectionFootersPinToVisibleBounds)
  }
  public var snapping: SnapConfiguration? { snap }
  public var uniformItemSize: Size { flow.uniformItemSize }
  /// Its insets centre the first and last card in the viewport.
  public var dependsOnMainExtent: Bool { true }
  public var loops: Bool { loop }
  public var centresCards: Bool { true }
  public var flowFields: FlowConfiguration? { flow }

  public func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: AnyPlacement?,
    continuity: Continuity?, rowOffsets: RowOffsets
  ) -> AnyPlacement {
    var c = flow
    c.itemSize = c.uniformItemSize
    let D = crossExtent(viewport, inset, c.scrollDirection)
    return .flow(
      FlowGeometry(
        configuration: c, sections: sections, crossExtent: D, policy: policy,
        sectionInsets: { _, section in self.inset(for: section, viewport: viewport, crossExtent: D)
        },
        previous: previous?.flowGeometry, reuse: continuity?.sections ?? []))
  }

  /// A tilted card must never reach the eye; a loop's scale must stay
  /// bounded. O(1).
  public func problem(in layout: Layout) -> LayoutProblem? {
    if !layout.tiltIsDrawable { return .tiltReachesEye }
    if loop, !scale.magnitudeBound(upTo: .infinity).isFinite { return .loop(.unboundedScale) }
    return nil
  }
}
