// `list`: UICollectionLayoutListConfiguration's fields, those a section may
// override (its `ListSectionFields`), and how separators resolve: an item's
// override, then its section's, then the layout's, then the automatic rule.

/// UICollectionLayoutListConfiguration.Appearance.
public enum ListAppearance: String, Sendable, CaseIterable {
  case plain
  case grouped
  case insetGrouped
  case sidebar
  case sidebarPlain

  /// Rows inset by the layout margins (and the safe area) rather than full
  /// width.
  var insetsRows: Bool { self == .insetGrouped || self == .sidebar }
  /// `sectionSpacing` before every section and after the last.
  var spacesSections: Bool { self == .grouped || self == .insetGrouped || self == .sidebar }
  /// A background behind each section's rows, and rounded corners.
  var hasBackgrounds: Bool { self == .grouped || self == .insetGrouped }
  /// Supplementary headers and footers pin to the visible bounds.
  var pinsSupplementaries: Bool { self == .plain || self == .sidebarPlain }
  /// The automatic rule shows separators at all.
  var showsAutomaticSeparators: Bool { self == .plain || self == .grouped || self == .insetGrouped }
}

/// UICollectionLayoutListConfiguration.HeaderMode.
public enum ListHeaderMode: String, Sendable, CaseIterable {
  case none
  case supplementary
  /// Row 0 of each section is its header: an ordinary cell that never pins
  /// and has no separators of its own.
  case firstItemInSection
}

/// UICollectionLayoutListConfiguration.FooterMode.
public enum ListFooterMode: String, Sendable, CaseIterable {
  case none
  case supplementary
}

/// UIListSeparatorConfiguration.Visibility.
public enum SeparatorVisibility: String, Sendable, CaseIterable {
  case automatic
  case visible
  case hidden
}

/// A separator's insets along the row; a field left nil keeps the one
/// beneath it (in the end, the automatic inset).
public struct SeparatorInsets: Equatable, Sendable {
  public var leading: Double?
  public var trailing: Double?
  public init(leading: Double? = nil, trailing: Double? = nil) {
    self.leading = leading
    self.trailing = trailing
  }
  /// These insets over `base`, field by field. O(1).
  func over(_ base: SeparatorInsets?) -> SeparatorInsets {
    SeparatorInsets(leading: leading ?? base?.leading, trailing: trailing ?? base?.trailing)
  }
}

/// UIListSeparatorConfiguration: a layout's, a section's, or one item's
/// (itemSeparatorHandler). nil fields fall back to the level beneath.
public struct SeparatorConfiguration: Equatable, Sendable {
  public var topSeparatorVisibility: SeparatorVisibility?
  public var bottomSeparatorVisibility: SeparatorVisibility?
  public var topSeparatorInsets: SeparatorInsets?
  public var bottomSeparatorInsets: SeparatorInsets?
  public init() {}

  /// This configuration's fields over `base`'s; insets merge field by
  /// field. O(1).
  public func over(_ base: SeparatorConfiguration?) -> SeparatorConfiguration {
    guard let base else { return self }
    var c = SeparatorConfiguration()
    c.topSeparatorVisibility = topSeparatorVisibility ?? base.topSeparatorVisibility
    c.bottomSeparatorVisibility = bottomSeparatorVisibility ?? base.bottomSeparatorVisibility
    c.topSeparatorInsets =
      topSeparatorInsets.map { $0.over(base.topSeparatorInsets) } ?? base.topSeparatorInsets
    c.bottomSeparatorInsets =
      bottomSeparatorInsets.map { $0.over(base.bottomSeparatorInsets) }
      ?? base.bottomSeparatorInsets
    return c
  }
}

/// UICollectionLayoutListConfiguration, with the layout environment's
/// numbers a client sets to match a device.
public struct ListConfiguration: Equatable, Sendable {
  public var appearance = ListAppearance.plain
  public var showsSeparators = true
  public var separatorConfiguration = SeparatorConfiguration()
  public var headerMode = ListHeaderMode.none
  public var footerMode = ListFooterMode.none
  public var headerHeight = 38.0
  public var footerHeight = 0.0
  /// Above supplementary headers only. UIKit's automatic value is
  /// unpublished: a client sets the device's.
  public var headerTopPadding = 0.0
  public var layoutDirection = LayoutDirection.ltr
  /// nil: UIKit's readable margins, 16, or 20 in a viewport 768 points
  /// wide or more.
  public var layoutMargins: Double? = nil
  public var cellLayoutMargins = 16.0
  public var indentationWidth = 10.0
  /// The separators are 1/displayScale thick.
  public var displayScale = 2.0
  /// Physical sides: left and right swap roles in rtl.
  public var safeAreaInsets = Insets.zero
  public var sectionSpacing = 20.0
  public var cornerRadius = 10.0
  public var estimatedRowHeight = 44.0

  public init() {}

  /// The layout margins in a viewport `width` wide. O(1).
  func margins(width: Double) -> Double { layoutMargins ?? (width >= 768 ? 20 : 16) }
}

/// A list section's own fields: the appearance-independent ones it
/// overrides, and its items' separator overrides by index (UIKit's
/// itemSeparatorHandler answers by index path too).
public struct ListSectionFields: SectionFields {
  public var headerMode: ListHeaderMode?
  public var footerMode: ListFooterMode?
  public var headerHeight: Double?
  public var footerHeight: Double?
  public var showsSeparators: Bool?
  public var separatorConfiguration: SeparatorConfiguration?
  /// By item index; an entry replaces the item's earlier one whole.
  public var itemSeparators: [Int: SeparatorConfiguration] = [:]
  public init() {}

  public func updating(_ patch: ListSectionFields) -> ListSectionFields {
    var f = self
    f.headerMode = patch.headerMode ?? headerMode
    f.footerMode = patch.footerMode ?? footerMode
    f.headerHeight = patch.headerHeight ?? headerHeight
    f.footerHeight = patch.footerHeight ?? footerHeight
    f.showsSeparators = patch.showsSeparators ?? showsSeparators
    f.separatorConfiguration = patch.separatorConfiguration ?? separatorConfiguration
    f.itemSeparators.merge(patch.itemSeparators) { _, new in new }
    return f
  }
}
