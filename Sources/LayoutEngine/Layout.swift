/// The layout types the engine knows. Each is flow geometry plus a policy.
public enum LayoutType: Equatable, Sendable {
  /// UICollectionViewFlowLayout.
  case flow(FlowConfiguration)
  /// A cover-flow carousel (the seeds' HWCoverFlowLayout and relatives).
  case coverFlow(CoverFlowConfiguration)

  public var name: String {
    switch self {
    case .flow: return "flow"
    case .coverFlow: return "coverFlow"
    }
  }

  public var flowConfiguration: FlowConfiguration {
    switch self {
    case .flow(let c): return c
    case .coverFlow(let c): return c.flow
    }
  }
}

/// A live layout: the data source, the layout type and the viewport size,
/// with the geometry computed for them. A value type; copying is cheap
/// until one copy is mutated (the arrays inside are copy-on-write).
public struct Layout: Sendable {
  public private(set) var type: LayoutType
  public private(set) var sections: [Section]
  /// UIScrollView.contentInset: it narrows the cross extent and extends the
  /// range of valid content offsets.
  public private(set) var contentInset: Insets
  public private(set) var viewportSize: Size
  public private(set) var geometry: FlowGeometry
  /// The largest card extent, which bounds how far a scaled-up card can
  /// grow beyond its untransformed frame.
  private var maxItemExtent: Double

  /// Computes the layout. O(sections + items in sections of varied sizes).
  public init(
    type: LayoutType, sections: [Section], contentInset: Insets = .zero, viewportSize: Size
  ) {
    self.type = type
    self.sections = sections
    self.contentInset = contentInset
    self.viewportSize = viewportSize
    self.geometry = Self.makeGeometry(type, sections, contentInset, viewportSize)
    let c = type.flowConfiguration
    var extent = max(c.itemSize.width, c.itemSize.height)
    for s in sections {
      if case .sizes(let sizes) = s.items {
        for size in sizes { extent = max(extent, size.width, size.height) }
      }
    }
    maxItemExtent = extent
  }

  private static func makeGeometry(
    _ type: LayoutType, _ sections: [Section], _ inset: Insets, _ viewport: Size
  ) -> FlowGeometry {
    let c = type.flowConfiguration
    let D = max(
      0,
      c.scrollDirection == .vertical
        ? viewport.width - inset.left - inset.right : viewport.height - inset.top - inset.bottom)
    switch type {
    case .flow(let c):
      return FlowGeometry(configuration: c, sections: sections, crossExtent: D)
    case .coverFlow(let cf):
      return FlowGeometry(
        configuration: cf.flow, sections: sections, crossExtent: D, policy: cf.policy,
        sectionInsets: { _, section in cf.inset(for: section, viewport: viewport, crossExtent: D) })
    }
  }

  public var scrollDirection: ScrollDirection { type.flowConfiguration.scrollDirection }
  var axes: Axes { Axes(direction: scrollDirection) }

  /// Changes the viewport size. O(1) when the geometry does not depend on
  /// the change (a flow layout whose cross extent is unchanged); otherwise a
  /// full relayout, O(sections + items of varied sizes). Returns whether
  /// the geometry was recomputed.
  @discardableResult
  public mutating func setViewportSize(_ size: Size) -> Bool {
    guard size != viewportSize else { return false }
    let old = viewportSize
    viewportSize = size
    if case .flow = type, axes.cross(old) == axes.cross(size) { return false }
    geometry = Self.makeGeometry(type, sections, contentInset, size)
    return true
  }

  /// collectionViewContentSize. O(1).
  public var contentSize: Size { geometry.contentSize }

  /// The range of content offsets a scroll view allows, from
  /// −contentInset.leading to contentSize + contentInset.trailing − viewport,
  /// per axis. O(1).
  public var offsetRange: (min: Point, max: Point) {
    let size = contentSize
    let lo = Point(x: -contentInset.left, y: -contentInset.top)
    let hi = Point(
      x: max(lo.x, size.width + contentInset.right - viewportSize.width),
      y: max(lo.y, size.height + contentInset.bottom - viewportSize.height))
    return (lo, hi)
  }

  /// Clamps an offset into `offsetRange`. O(1).
  public func clampOffset(_ p: Point) -> Point {
    let (lo, hi) = offsetRange
    return Point(x: min(max(p.x, lo.x), hi.x), y: min(max(p.y, lo.y), hi.y))
  }

  // MARK: Queries

  /// layoutAttributesForElements(in:): every cell, header and footer whose
  /// frame (transformed, for carousels) intersects `rect`, as seen when the
  /// viewport is `bounds`. O(log n + k) for k results.
  public func attributes(in rect: Rect, bounds: Rect) -> [LayoutAttributes] {
    var result: [LayoutAttributes] = []
    switch type {
    case .flow:
      geometry.forEachElement(in: rect) { kind, s, i, frame in
        result.append(LayoutAttributes(kind: kind, section: s, item: i, frame: frame))
      }
    case .coverFlow(let cf):
      // A card scaled above 1 may reach into the rect from outside it.
      let growth = max(0, min(cf.scale.upperBound, 1e6) - 1) * maxItemExtent / 2
      let search = Rect(
        x: rect.x - growth, y: rect.y - growth, width: rect.width + 2 * growth,
        height: rect.height + 2 * growth)
      let centerMain = axes.main(bounds.center)
      let extent = axes.main(bounds.size)
      geometry.forEachElement(in: search) { kind, s, i, frame in
        var a = LayoutAttributes(kind: kind, section: s, item: i, frame: frame)
        if kind == .cell { cf.decorate(&a, centerMain: centerMain, extent: extent) }
        if a.frame.intersects(rect) { result.append(a) }
      }
    }
    return result
  }

  /// layoutAttributesForItem(at:), or nil when the path is out of range.
  /// O(items in its line), plus O(log lines) for sections of varied sizes.
  public func attributesForItem(_ path: IndexPath, bounds: Rect) -> LayoutAttributes? {
    guard path.section >= 0, path.section < sections.count, path.item >= 0,
      path.item < geometry.itemCount(inSection: path.section)
    else { return nil }
    var a = LayoutAttributes(
      kind: .cell, section: path.section, item: path.item, frame: geometry.frameForItem(path))
    if case .coverFlow(let cf) = type {
      cf.decorate(&a, centerMain: axes.main(bounds.center), extent: axes.main(bounds.size))
    }
    return a
  }

  /// layoutAttributesForSupplementaryView(ofKind:at:), or nil when the
  /// section is out of range or the element has zero thickness. O(1).
  public func attributesForSupplementary(_ kind: ElementKind, section: Int) -> LayoutAttributes? {
    guard section >= 0, section < sections.count,
      let frame = geometry.frameForSupplementary(kind, section: section)
    else { return nil }
    return LayoutAttributes(kind: kind, section: section, item: 0, frame: frame)
  }

  /// The item whose centre is nearest the centre of `bounds`: along the
  /// scroll axis for carousels, in the plane for flow. nil without items.
  /// O(log n) plus the few lines examined.
  public func centeredItem(in bounds: Rect) -> IndexPath? {
    if case .coverFlow = type {
      return geometry.nearestItem(to: bounds.center, mainAxisOnly: true)
    }
    return geometry.nearestItem(to: bounds.center, mainAxisOnly: false)
  }

  /// targetContentOffset(forProposedContentOffset:withScrollingVelocity:).
  /// Carousels put the card nearest the proposed viewport's centre exactly
  /// at the centre, searching every card, not only the visible ones (the
  /// seeds' bug); flow leaves the offset where it is. Either way the result
  /// is clamped to `offsetRange`. O(log n).
  public func targetContentOffset(proposed raw: Point) -> (offset: Point, item: IndexPath?) {
    // Clamp first: a proposal past either end means the end itself.
    let proposed = clampOffset(raw)
    let viewport = Rect(origin: proposed, size: viewportSize)
    guard case .coverFlow = type else {
      let target = clampOffset(proposed)
      return (target, centeredItem(in: Rect(origin: target, size: viewportSize)))
    }
    guard let item = centeredItem(in: viewport),
      let frame = attributesForItem(item, bounds: viewport)
    else { return (clampOffset(proposed), nil) }
    var target = proposed
    if scrollDirection == .horizontal {
      target.x = frame.center.x - viewportSize.width / 2
    } else {
      target.y = frame.center.y - viewportSize.height / 2
    }
    return (clampOffset(target), item)
  }
}
