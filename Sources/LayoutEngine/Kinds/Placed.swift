// The one dispatch point: a kind paired with its own placement type.
// `Layout` holds one `any PlacedKind` and opens it once per request; every
// body behind it is written once (`KindPlacement`'s defaults) and
// specialised for each kind's pair, so the kind's code reads its placement
// as its own type (no enum of placements, no downcast) and a frame
// dispatches once, never per element. The pair is a concrete type each
// kind names in its folder (one line): a generic pair's witnesses would
// run unspecialised, asking the runtime for its placement's metadata on
// every call.

/// A kind and the placement it computed. Generic code reaches the
/// placement's shared operations (it is a `Placement`) and the kind's
/// queries, each handed the placement as the kind's own type.
protocol PlacedKind: Placement {
  /// Recomputes the placement for `sections` in `viewport` less `inset`,
  /// handing the current one to the kind (moved, not shared, so that the
  /// nodes it edits are edited in place) with what `continuity` says
  /// continues of it. O(sections + items of varied sizes), less what
  /// continues.
  mutating func relayout(
    _ sections: [Section], inset: Insets, viewport: Size, continuity: Continuity?)

  /// The kind `next` with its placement: this placement handed to it when
  /// it is the same kind (a change of fields keeps what continues), a fresh
  /// one otherwise. O(sections + items of varied sizes).
  mutating func replacingKind(
    _ next: any LayoutKind, _ sections: [Section], inset: Insets, viewport: Size,
    continuity: Continuity?
  ) -> any PlacedKind

  func attributes(
    in rect: Rect, bounds: Rect, nearest: inout Layout.NearestCell?, of layout: Layout
  ) -> [LayoutAttributes]
  func forEachAttribute(
    in rect: Rect, bounds: Rect, after: PageStart?, of layout: Layout,
    _ take: (LayoutAttributes) -> Bool)
  func elementCountBound(in rect: Rect, bounds: Rect, of layout: Layout) -> Int
  func attributesForItem(_ path: IndexPath, lap: Int?, bounds: Rect, of layout: Layout)
    -> LayoutAttributes?
  func attributesForSupplementary(
    _ kind: ElementKind, section: Int, lap: Int?, bounds: Rect, of layout: Layout
  ) -> LayoutAttributes?
  func lapsExamined(in rect: Rect, bounds: Rect, of layout: Layout) -> Double
  func anchorPoint(_ path: IndexPath, lap: Int?, bounds: Rect, of layout: Layout) -> Point?
  func searchRect(_ rect: Rect, bounds: Rect, in layout: Layout) -> Rect
  func restTarget(
    contentOffset: Point, projected: Point, velocity: Point, of layout: Layout
  ) -> (main: Double, item: IndexPath?, lap: Int?)?
  func problem(in layout: Layout) -> LayoutProblem?

  /// The placement as `G` when it is one, for tests that look inside a
  /// particular kind's placement. O(1).
  func placement<G: Placement>(as: G.Type) -> G?
}

/// A kind with the placement it computed: each kind's pair (say
/// `struct Placed: KindPlacement { let kind: FlowConfiguration; var stored:
/// FlowGeometry? }`) gets every requirement of `PlacedKind` from here.
protocol KindPlacement: PlacedKind {
  associatedtype K: LayoutKind
  init(kind: K, stored: K.Geometry?)
  var kind: K { get }
  /// Always set, but for the moment of a relayout, when it is handed to
  /// the kind (`take()`): an optional rather than a placeholder placement.
  var stored: K.Geometry? { get set }
}

extension KindPlacement {
  init(
    _ kind: K, _ sections: [Section], inset: Insets, viewport: Size,
    previous: consuming K.Geometry? = nil, continuity: Continuity? = nil
  ) {
    self.init(
      kind: kind,
      stored: kind.makePlacement(
        sections, inset: inset, viewport: viewport, previous: consume previous,
        continuity: continuity))
  }

  @inline(__always) var placement: K.Geometry { stored.unsafelyUnwrapped }

  mutating func relayout(
    _ sections: [Section], inset: Insets, viewport: Size, continuity: Continuity?
  ) {
    // Moved, never copied: a copy would share every node the kind edits.
    stored = kind.makePlacement(
      sections, inset: inset, viewport: viewport, previous: stored.take(), continuity: continuity)
  }

  mutating func replacingKind(
    _ next: any LayoutKind, _ sections: [Section], inset: Insets, viewport: Size,
    continuity: Continuity?
  ) -> any PlacedKind {
    next.placed(sections, inset: inset, viewport: viewport, taking: &stored, continuity: continuity)
  }

  // MARK: Placement, forwarded

  var contentSize: Size { placement.contentSize }
  var sectionCount: Int { placement.sectionCount }
  func itemCount(inSection s: Int) -> Int { placement.itemCount(inSection: s) }
  var elementSpan: (lo: Double, hi: Double) { placement.elementSpan }
  func frameForItem(_ path: IndexPath) -> Rect { placement.frameForItem(path) }
  func frameForSupplementary(_ kind: ElementKind, section s: Int, pin: Pinning?) -> Rect? {
    placement.frameForSupplementary(kind, section: s, pin: pin)
  }
  func forEachElement(
    in rect: Rect, pin: Pinning?, _ body: (ElementKind, Int, Int, Rect) -> Void
  ) {
    placement.forEachElement(in: rect, pin: pin, body)
  }
  func forEachElement(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    placement.forEachElement(in: rect, pin: pin, after: after, body)
  }
  func elementCountBound(in rect: Rect, pin: Pinning?) -> Int {
    placement.elementCountBound(in: rect, pin: pin)
  }
  func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath? {
    placement.nearestItem(to: point, mainAxisOnly: mainAxisOnly)
  }
  func restOffset(global g: Int) -> Double? { placement.restOffset(global: g) }
  var placedThrough: Double { placement.placedThrough }
  func invariantViolation() -> String? { placement.invariantViolation() }
  var orthogonalRows: (any OrthogonalRows)? { placement.orthogonalRows }
  mutating func setRowOffset(_ offset: Double, section s: Int) {
    stored!.setRowOffset(offset, section: s)
  }

  // MARK: The kind's queries, handed its own placement

  func attributes(
    in rect: Rect, bounds: Rect, nearest: inout Layout.NearestCell?, of layout: Layout
  ) -> [LayoutAttributes] {
    kind.attributes(in: rect, bounds: bounds, nearest: &nearest, placement, of: layout)
  }
  func forEachAttribute(
    in rect: Rect, bounds: Rect, after: PageStart?, of layout: Layout,
    _ take: (LayoutAttributes) -> Bool
  ) {
    kind.forEachAttribute(in: rect, bounds: bounds, after: after, placement, of: layout, take)
  }
  func elementCountBound(in rect: Rect, bounds: Rect, of layout: Layout) -> Int {
    kind.elementCountBound(in: rect, bounds: bounds, placement, of: layout)
  }
  func attributesForItem(_ path: IndexPath, lap: Int?, bounds: Rect, of layout: Layout)
    -> LayoutAttributes?
  {
    kind.attributesForItem(path, lap: lap, bounds: bounds, placement, of: layout)
  }
  func attributesForSupplementary(
    _ element: ElementKind, section: Int, lap: Int?, bounds: Rect, of layout: Layout
  ) -> LayoutAttributes? {
    kind.attributesForSupplementary(
      element, section: section, lap: lap, bounds: bounds, placement, of: layout)
  }
  func lapsExamined(in rect: Rect, bounds: Rect, of layout: Layout) -> Double {
    kind.lapsExamined(in: rect, bounds: bounds, placement, of: layout)
  }
  func anchorPoint(_ path: IndexPath, lap: Int?, bounds: Rect, of layout: Layout) -> Point? {
    kind.anchorPoint(path, lap: lap, bounds: bounds, placement, of: layout)
  }
  func searchRect(_ rect: Rect, bounds: Rect, in layout: Layout) -> Rect {
    kind.searchRect(rect, bounds: bounds, placement, in: layout)
  }
  func restTarget(
    contentOffset: Point, projected: Point, velocity: Point, of layout: Layout
  ) -> (main: Double, item: IndexPath?, lap: Int?)? {
    kind.restTarget(
      contentOffset: contentOffset, projected: projected, velocity: velocity, placement,
      of: layout)
  }
  func problem(in layout: Layout) -> LayoutProblem? { kind.problem(placement, in: layout) }

  func placement<G: Placement>(as: G.Type) -> G? { placement as? G }
}

extension LayoutKind {
  /// This kind with its placement, computed afresh. O(sections + items of
  /// varied sizes).
  func placed(_ sections: [Section], inset: Insets, viewport: Size) -> any PlacedKind {
    Placed(self, sections, inset: inset, viewport: viewport)
  }

  /// This kind with its placement, continuing `previous` when it is this
  /// kind's placement type (taken out of it, so that its nodes are edited
  /// in place). The one place a placement's type is compared: a type
  /// change to another kind starts afresh.
  func placed<G: Placement>(
    _ sections: [Section], inset: Insets, viewport: Size, taking previous: inout G?,
    continuity: Continuity?
  ) -> any PlacedKind {
    guard G.self == Geometry.self, let old = previous.take() as? Geometry else {
      return Placed(self, sections, inset: inset, viewport: viewport)
    }
    return Placed(
      self, sections, inset: inset, viewport: viewport, previous: old, continuity: continuity)
  }
}
