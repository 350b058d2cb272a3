// A layout type is a kind: one folder under Kinds/ behind `LayoutKind`,
// built from layers that know nothing of particular types: a placement
// (Placement/), optionally an effect (Effects/), a snapping (Snapping/) and
// repetition (Snapping/Loop.swift). `Layout` opens its kind once per
// request; what the kind's requirements compute is concrete code, never a
// dynamic call per element.

/// One layout kind: the facts generic code asks of it, its placement, the
/// stages of the query pipeline it adds, and its validation. Defaults are
/// those of a plain placement: no effect, no snapping, no repetition.
public protocol LayoutKind: Sendable {
  /// `type`'s name in the protocol.
  var name: String { get }
  var scrollDirection: ScrollDirection { get }
  var layoutDirection: LayoutDirection { get }
  /// Whether section headers, then footers, pin to the visible bounds.
  var pinsSupplementaries: (headers: Bool, footers: Bool) { get }
  /// The snapping layer's options; nil scrolls freely.
  var snapping: SnapConfiguration? { get }
  /// The size of items without one of their own.
  var uniformItemSize: Size { get }
  /// Whether the placement keeps a record per item whatever the sizes, so
  /// that its sessions cost memory and time in proportion to the items.
  var storesEveryItem: Bool { get }
  /// Whether the placement depends on the viewport's extent along the
  /// scroll axis (not only across it).
  var dependsOnMainExtent: Bool { get }
  /// Whether the content repeats without end along the scroll axis.
  var loops: Bool { get }
  /// Whether it repeats by drawing copies of its placement one period
  /// apart (repetition, Snapping/Loop.swift), rather than by its own wrap.
  var repeatsPlacement: Bool { get }
  /// Whether its sections can be rows that scroll on their own.
  var hasRows: Bool { get }
  /// Whether rest offsets put a card's centre at the viewport's centre.
  var centresCards: Bool { get }
  /// The flow fields of a kind placed in flow lines, whose cards have a
  /// pitch (nil otherwise).
  var flowFields: FlowConfiguration? { get }

  /// The placement for `sections` in a viewport of `viewport` size less
  /// `inset`, keeping what `continuity` says continues of `previous`.
  /// O(sections + items of varied sizes), less what continues.
  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: AnyPlacement?,
    continuity: Continuity?, rowOffsets: RowOffsets
  ) -> AnyPlacement

  /// The kind's own problem with `layout` (beyond repetition's, which
  /// `Layout.problem` checks for every kind), or nil. O(log lines).
  func problem(in layout: Layout) -> LayoutProblem?

  /// Sections leaving this kind for `next`: what only this kind reads of
  /// them is dropped. O(n) when something is.
  func sections(_ sections: [Section], leavingFor next: LayoutType) -> [Section]
}

extension LayoutKind {
  public var layoutDirection: LayoutDirection { .ltr }
  public var pinsSupplementaries: (headers: Bool, footers: Bool) { (false, false) }
  public var snapping: SnapConfiguration? { nil }
  public var storesEveryItem: Bool { false }
  public var dependsOnMainExtent: Bool { false }
  public var loops: Bool { false }
  public var repeatsPlacement: Bool { loops }
  public var hasRows: Bool { false }
  public var centresCards: Bool { false }
  public var flowFields: FlowConfiguration? { nil }
  public func problem(in layout: Layout) -> LayoutProblem? { nil }
  public func sections(_ sections: [Section], leavingFor next: LayoutType) -> [Section] {
    sections
  }
}

extension LayoutType {
  /// The registry of kinds: each case's kind. O(1), but it boxes the
  /// configuration: `Layout` takes it once when its type is set.
  public var kind: any LayoutKind {
    switch self {
    case .flow(let c): return c
    case .coverFlow(let c): return c
    case .waterfall(let c): return c
    case .carousel(let c): return c
    case .compositional(let c): return c
    }
  }
}
