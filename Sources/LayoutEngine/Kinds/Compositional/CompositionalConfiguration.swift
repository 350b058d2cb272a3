// The fields of `compositional`: UICollectionViewCompositionalLayout's
// sections, groups and items, named as UIKit names them
// (NSCollectionLayoutDimension, NSCollectionLayoutGroup, …).

/// NSCollectionLayoutDimension.
public enum LayoutDimension: Equatable, Sendable {
  case fractionalWidth(Double)
  case fractionalHeight(Double)
  case absolute(Double)
  /// Self-sizing: this value until `setItemSizes` reports the item's size.
  case estimated(Double)

  /// The dimension against its container's size. O(1).
  @inline(__always) func resolved(in container: Size) -> Double {
    switch self {
    case .fractionalWidth(let f): return f * container.width
    case .fractionalHeight(let f): return f * container.height
    case .absolute(let v), .estimated(let v): return v
    }
  }

  var isEstimated: Bool {
    if case .estimated = self { return true }
    return false
  }
}

/// NSCollectionLayoutSize.
public struct LayoutSize: Equatable, Sendable {
  public var width: LayoutDimension
  public var height: LayoutDimension
  public init(width: LayoutDimension, height: LayoutDimension) {
    self.width = width
    self.height = height
  }

  @inline(__always) func resolved(in container: Size) -> Size {
    Size(width: width.resolved(in: container), height: height.resolved(in: container))
  }
}

/// NSDirectionalEdgeInsets: leading and trailing are mirrored in rtl with
/// the rest of the layout.
public struct DirectionalInsets: Equatable, Sendable {
  public var top: Double
  public var leading: Double
  public var bottom: Double
  public var trailing: Double
  public static let zero = DirectionalInsets(top: 0, leading: 0, bottom: 0, trailing: 0)
  public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  /// As left-to-right Insets (the geometry's space).
  var insets: Insets { Insets(top: top, left: leading, bottom: bottom, right: trailing) }
}

/// NSCollectionLayoutSpacing.
public enum LayoutSpacing: Equatable, Sendable {
  case fixed(Double)
  /// At least the value; the space left over is shared between the gaps.
  case flexible(Double)

  var value: Double {
    switch self {
    case .fixed(let v), .flexible(let v): return v
    }
  }
}

/// NSCollectionLayoutItem, or a group nested in its place.
public indirect enum LayoutItem: Equatable, Sendable {
  case item(size: LayoutSize, contentInsets: DirectionalInsets)
  case group(LayoutGroup)

  var size: LayoutSize {
    switch self {
    case .item(let size, _): return size
    case .group(let g): return g.size
    }
  }
}

/// NSCollectionLayoutGroup.
public struct LayoutGroup: Equatable, Sendable {
  public enum Direction: String, Sendable, CaseIterable {
    case horizontal
    case vertical
  }
  public var direction: Direction
  public var size: LayoutSize
  public var subitems: [LayoutItem]
  /// `subitem:count:` (iOS 13–15): exactly this many copies of the one
  /// subitem, sharing the group's extent.
  public var count: Int? = nil
  public var interItemSpacing = LayoutSpacing.fixed(0)
  public var contentInsets = DirectionalInsets.zero

  public init(direction: Direction, size: LayoutSize, subitems: [LayoutItem]) {
    self.direction = direction
    self.size = size
    self.subitems = subitems
  }
}

/// UICollectionLayoutSectionOrthogonalScrollingBehavior.
public enum OrthogonalScrollingBehavior: String, Sendable, CaseIterable {
  case none
  case continuous
  case continuousGroupLeadingBoundary
  case paging
  case groupPaging
  case groupPagingCentered
}

/// NSCollectionLayoutBoundarySupplementaryItem (a header or a footer).
public struct BoundaryItem: Equatable, Sendable {
  public var kind: ElementKind
  public var size: LayoutSize
  public var pinToVisibleBounds = false
  public init(kind: ElementKind, size: LayoutSize, pinToVisibleBounds: Bool = false) {
    self.kind = kind
    self.size = size
    self.pinToVisibleBounds = pinToVisibleBounds
  }
}

/// A row's `visibleItemsInvalidationHandler` zoom: the cover-flow curves
/// over d = the distance of an item's centre from the row's visible centre
/// divided by the visible width.
public struct RowEffect: Equatable, Sendable {
  public var scale: Curve
  public var alpha: Curve
  public init(scale: Curve = .constant(1), alpha: Curve = .constant(1)) {
    self.scale = scale
    self.alpha = alpha
  }
}

/// NSCollectionLayoutSection: a compositional section's own fields (a
/// section provider's answer).
public struct SectionLayout: SectionFields {
  public var group: LayoutGroup
  public var interGroupSpacing = 0.0
  public var contentInsets = DirectionalInsets.zero
  public var orthogonalScrollingBehavior = OrthogonalScrollingBehavior.none
  /// At most one header and one footer.
  public var boundarySupplementaryItems: [BoundaryItem] = []
  /// A background decoration's insets; nil: none.
  public var background: DirectionalInsets? = nil
  /// Only for orthogonal sections.
  public var effect: RowEffect? = nil
  /// A list section (`{"list": …}` in place of `group`): its rows, header,
  /// footer, separators and background are the list's, and `group` is
  /// unused.
  public var list: ListSectionLayout? = nil

  public init(group: LayoutGroup) {
    self.group = group
  }

  /// NSCollectionLayoutSection.list(using:layoutEnvironment:).
  public init(list: ListSectionLayout) {
    self.group = LayoutGroup(
      direction: .vertical,
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(0)),
      subitems: [
        .item(
          size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)),
          contentInsets: .zero)
      ])
    self.list = list
  }

  public var scrollsOrthogonally: Bool { orthogonalScrollingBehavior != .none }

  /// A patch's layout replaces the section's whole. O(1).
  public func updating(_ patch: SectionLayout) -> SectionLayout { patch }

  func boundary(_ kind: ElementKind) -> BoundaryItem? {
    boundarySupplementaryItems.first { $0.kind == kind }
  }
}

/// A compositional list section's fields: the list's configuration (its
/// `layoutDirection` is the compositional layout's) and its items'
/// separator overrides by index.
public struct ListSectionLayout: Equatable, Sendable {
  public var configuration: ListConfiguration
  public var itemSeparators: [Int: SeparatorConfiguration] = [:]
  public init(_ configuration: ListConfiguration) {
    self.configuration = configuration
  }
}

/// UICollectionViewCompositionalLayoutConfiguration, with the default
/// section layout (a section provider's answer for sections without one).
public struct CompositionalConfiguration: Equatable, Sendable {
  public var scrollDirection = ScrollDirection.vertical
  public var interSectionSpacing = 0.0
  public var section: SectionLayout
  public var layoutDirection = LayoutDirection.ltr

  /// One full-width item 44 points tall per group, as a plain list.
  public static let defaultSection = SectionLayout(
    group: LayoutGroup(
      direction: .horizontal,
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44)),
      subitems: [
        .item(
          size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1)),
          contentInsets: .zero)
      ]))

  public init(section: SectionLayout = CompositionalConfiguration.defaultSection) {
    self.section = section
  }
}
