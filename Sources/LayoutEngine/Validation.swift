// What a layout's kind refuses: a configuration that cannot be drawn or
// scrolled. Generic code asks `problem` after every change, before
// anything is stored; the kind's decoder in the server says which field
// is to blame and why.

/// Why a layout cannot be drawn or scrolled as it is configured.
public enum LayoutProblem: Equatable, Sendable {
  /// A tilted card's corner can reach the eye somewhere in the offset
  /// range (its perspective divisor falls to 0 or below).
  case tiltReachesEye
  /// The repeated content cannot be laid out (`LoopProblem`).
  case loop(LoopProblem)
  /// More sections than the kind lays out (`count` of at most `max`).
  case sectionCount(Int, max: Int)
  /// A content inset where the kind's scroll view has none.
  case contentInset
  /// Items with sizes of their own where every item has the kind's size.
  case ownItemSizes
  /// Items a distance of `pitch` apart along the scroll axis, where it
  /// must be above 0.
  case pitch(Double)
  /// A list section (the first, `section`) in a layout that scrolls
  /// horizontally: lists scroll vertically.
  case horizontalList(section: Int)
}

extension Layout {
  /// The first problem of this layout, or nil. It depends on the layout
  /// and the viewport size, never on the bounds' origin: a scroll cannot
  /// cause one. O(log lines).
  public var problem: LayoutProblem? {
    if let own = placement.problem(in: self) { return own }
    return loopProblem.map(LayoutProblem.loop)
  }
}
