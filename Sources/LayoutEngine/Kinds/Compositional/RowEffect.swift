// Row effects: a compositional row's items scaled and faded by their
// distance from the row's visible centre, the App Store "zoom" row that
// UIKit builds with visibleItemsInvalidationHandler. The same curves as
// cover flow's, measured across the row instead of along the scroll axis.

extension RowEffect {
  /// Applies the effect to a cell of a row whose visible centre is at
  /// `center` along the row's axis (`horizontal`: x) and whose visible
  /// extent is `extent`: d = |the cell's centre − center| / extent. O(1).
  public func apply(
    to a: inout LayoutAttributes, center: Double, extent: Double, horizontal: Bool
  ) {
    let c = horizontal ? a.center.x : a.center.y
    let d = extent > 0 ? abs(c - center) / extent : 0
    let s = scale.value(at: d)
    if s != 1 { a.setTransform(.scale(s, s)) }
    a.alpha = alpha.value(at: d)
  }
}
