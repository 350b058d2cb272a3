// One rest model per kind: how its scroll comes to rest, and so what the
// user is looking at. The snapping layer picks the rest rule from it, and
// anchoring and the centred item measure the focus by it; generic code
// asks the model, never which type it has.

/// How a layout comes to rest, and what its focus is.
public enum RestModel: Equatable, Sendable {
  /// A card's centre rests at the viewport's centre (cover flows,
  /// carousels, pagers): the focus is the card whose centre is nearest the
  /// viewport's centre along the scroll axis, and anchoring measures from
  /// centres.
  case centredCards
  /// An item's leading edge rests at the visible leading edge (a snapping
  /// waterfall, whose items need not be in index order along the axis):
  /// the focus is the first visible item, measured from leading edges.
  case tops
  /// Wherever the deceleration ends (flow, compositional): the focus is
  /// the first visible item, measured from leading edges.
  case free

  /// Whether the focus is measured between centres along the scroll axis
  /// (a centred card) rather than from the viewport's leading edge, with
  /// the centred item nearest in the plane. O(1).
  public var measuresFromCentres: Bool { self == .centredCards }
}
