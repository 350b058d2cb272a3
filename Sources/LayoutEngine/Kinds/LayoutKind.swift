// A layout type is a kind: one folder under Kinds/ behind `LayoutKind`,
// built from layers that know nothing of particular types: a placement
// (Placement/), optionally an effect (Effects/), a snapping (Snapping/) and
// repetition (Repetition/). `Layout` opens its kind once per
// request; what the kind's requirements compute is concrete code, never a
// dynamic call per element.

/// One layout kind: the facts generic code asks of it, its placement, the
/// stages of the query pipeline it adds, and its validation. Defaults are
/// those of a plain placement: no effect, no snapping, no repetition.
protocol LayoutKind: Sendable {
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
  /// Whether the placement depends on the viewport's extent along the
  /// scroll axis (not only across it).
  var dependsOnMainExtent: Bool { get }
  /// How its content repeats with `n` items (Repetition/): not at all,
  /// by copies of its placement, or by a window of its own (FSPagerView
  /// stops repeating a single page when asked to). O(1).
  func repetition(itemCount n: Int) -> Repetition
  /// How its scroll comes to rest, and what its focus is.
  var restModel: RestModel { get }

  /// The kind's own placement type: generic code reaches it through
  /// `Placement`, the kind's code as itself.
  associatedtype Geometry: Placement
  /// The kind paired with its placement (Placed.swift): one line in the
  /// kind's folder, `struct Placed: KindPlacement { let kind: Self; var
  /// stored: Geometry? }`, so that every query runs specialised for it.
  associatedtype Placed: KindPlacement where Placed.K == Self

  /// The placement for `sections` in a viewport of `viewport` size less
  /// `inset`, keeping what `continuity` says continues of `previous` (nil
  /// continuity: nothing of its layout, only state of the kind's own that
  /// outlives a reload, such as a row's offset). O(sections + items of
  /// varied sizes), less what continues.
  func makePlacement(
    _ sections: [Section], inset: Insets, viewport: Size, previous: consuming Geometry?,
    continuity: Continuity?
  ) -> Geometry

  // MARK: The query pipeline's stages

  /// What the effect computes once per query (say, the viewport's centre).
  associatedtype EffectContext = Void
  /// Whether the effect can move or grow a frame: the pipeline then clips
  /// each element to the rect after it.
  var hasEffect: Bool { get }
  /// Widen: the rect of untransformed frames to walk for `rect` (both in
  /// the left-to-right space) seen through `bounds`: how far the effect
  /// can draw an element from its frame. O(1).
  func searchRect(_ rect: Rect, bounds: Rect, _ g: Geometry, in layout: Layout) -> Rect
  /// Clip: whether an element the effect drew is shown at all (say, not
  /// when fully transparent or behind the eye), beside meeting the rect.
  /// O(1).
  func keeps(_ a: LayoutAttributes) -> Bool
  /// The effect's context for a viewport `bounds` (left to right). O(1).
  func effectContext(bounds: Rect, _ g: Geometry, in layout: Layout) -> EffectContext
  /// The context for copy `lap` of repeated content, seen through
  /// `lapBounds` (the viewport moved into copy 0, where the copy's frames
  /// are) out of `viewport` (the client's, left to right). A kind whose
  /// effect is defined on the whole endless sequence reads the latter, so
  /// that no reduction rounds it. O(1).
  func effectContext(lapBounds: Rect, viewport: Rect, _ g: Geometry, in layout: Layout)
    -> EffectContext
  /// Effect: an element's transform, alpha, zIndex and drawn frame from
  /// its place relative to the viewport. O(1).
  func applyEffect(to a: inout LayoutAttributes, _ context: EffectContext, in layout: Layout)

  // MARK: Whole queries
  // Written once over the stages above (Pipeline.swift); a kind whose
  // elements are not a walk of its placement (a carousel's window) gives
  // its own.

  func attributes(
    in rect: Rect, bounds: Rect, nearest: inout Layout.NearestCell?, _ g: Geometry,
    of layout: Layout
  ) -> [LayoutAttributes]
  func forEachAttribute(
    in rect: Rect, bounds: Rect, after: PageStart?, _ g: Geometry, of layout: Layout,
    _ take: (LayoutAttributes) -> Bool)
  func elementCountBound(in rect: Rect, bounds: Rect, _ g: Geometry, of layout: Layout) -> Int
  /// A valid item's attributes, copy `lap` of a loop (nil: the nearest).
  func attributesForItem(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ g: Geometry, of layout: Layout
  ) -> LayoutAttributes?
  /// A valid section's header, footer or background, or nil.
  func attributesForSupplementary(
    _ kind: ElementKind, section: Int, lap: Int?, bounds: Rect, _ g: Geometry, of layout: Layout
  ) -> LayoutAttributes?
  /// The copies of repeated content one query examines (0 without).
  func lapsExamined(in rect: Rect, bounds: Rect, _ g: Geometry, of layout: Layout) -> Double
  /// Where anchoring measures a valid item from, in content coordinates.
  func anchorPoint(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ g: Geometry, of layout: Layout
  ) -> Point?
  /// Anchoring across a resize: where the anchor's centre goes relative
  /// to the reference point, given where it was (`offset`). Most kinds
  /// keep it; FSPagerView puts the page centred before at rest. O(1).
  func anchorOffsetAfterResize(_ offset: Double) -> Double
  /// Snapping: the kind's own rest for a release at `contentOffset` with
  /// `velocity`, projected to `projected` (client space, clamped as the
  /// scroll view clamps it): the target offset along the scroll axis, and
  /// its item and lap; nil leaves it to the snapping layer's policies.
  /// O(log n).
  func restTarget(
    contentOffset: Point, projected: Point, velocity: Point, _ g: Geometry, of layout: Layout
  ) -> (main: Double, item: IndexPath?, lap: Int?)?

  /// The kind's own problem with `layout` (beyond repetition's, which
  /// `Layout.problem` checks for every kind), or nil. O(log lines).
  func problem(_ g: Geometry, in layout: Layout) -> LayoutProblem?

  /// Sections leaving this kind for `next`: what only this kind reads of
  /// them is dropped. O(n) when something is.
  func sections(_ sections: [Section], leavingFor next: LayoutType) -> [Section]

  /// The section fields that give `section`'s items `overrides` (by item)
  /// as their separators, over those it has (UIKit's itemSeparatorHandler),
  /// or nil when its rows are not list rows. O(overrides).
  func separatorFields(_ overrides: [Int: SeparatorConfiguration], of section: Section)
    -> (any SectionFields)?
}

extension LayoutKind {
  var layoutDirection: LayoutDirection { .ltr }
  var pinsSupplementaries: (headers: Bool, footers: Bool) { (false, false) }
  var snapping: SnapConfiguration? { nil }
  var dependsOnMainExtent: Bool { false }
  func repetition(itemCount n: Int) -> Repetition { .none }
  var restModel: RestModel { .free }
  func problem(_ g: Geometry, in layout: Layout) -> LayoutProblem? { nil }
  var hasEffect: Bool { false }
  func searchRect(_ rect: Rect, bounds: Rect, _ g: Geometry, in layout: Layout) -> Rect { rect }
  func keeps(_ a: LayoutAttributes) -> Bool { true }
  func effectContext(lapBounds: Rect, viewport: Rect, _ g: Geometry, in layout: Layout)
    -> EffectContext
  {
    effectContext(bounds: lapBounds, g, in: layout)
  }
  func restTarget(
    contentOffset: Point, projected: Point, velocity: Point, _ g: Geometry, of layout: Layout
  ) -> (main: Double, item: IndexPath?, lap: Int?)? { nil }
  func anchorOffsetAfterResize(_ offset: Double) -> Double { offset }
  func sections(_ sections: [Section], leavingFor next: LayoutType) -> [Section] {
    sections
  }
  func separatorFields(_ overrides: [Int: SeparatorConfiguration], of section: Section)
    -> (any SectionFields)?
  { nil }
}

extension LayoutKind where EffectContext == Void {
  func effectContext(bounds: Rect, _ g: Geometry, in layout: Layout) {}
  func applyEffect(to a: inout LayoutAttributes, _ context: Void, in layout: Layout) {}
}
