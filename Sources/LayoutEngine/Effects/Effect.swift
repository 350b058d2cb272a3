// The effects layer: how an element looks (transform, alpha, zIndex, and
// where its centre is drawn) as a function of where its untransformed frame
// sits relative to the viewport. Placements never see it; a layout type
// without an effect draws its frames as they are.

/// An effect applied to each cell a query returns.
public protocol Effect: Sendable {
  /// Applies the effect to a cell's attributes (their frame is the
  /// placement's) for a viewport whose centre is at `centerMain` along the
  /// scroll axis and whose extent there is `extent`; `lineSpacing` is the
  /// spacing between neighbouring cells of the cell's section, which
  /// pitch-relative effects measure distance in. O(1).
  func apply(
    to a: inout LayoutAttributes, centerMain: Double, extent: Double, lineSpacing: Double)
}
