/// Which column an item goes to (CHTCollectionViewWaterfallLayout's
/// itemRenderDirection).
public enum ItemRenderDirection: String, Sendable, CaseIterable {
  /// The column whose top is lowest (nearest the section's start); ties to
  /// the lowest column index.
  case shortestFirst
  /// The item's index in its section, mod the column count.
  case leftToRight
  /// The column count − 1 − that.
  case rightToLeft
}

/// Whether items keep their columns across data changes.
public enum ColumnPlacement: String, Sendable, CaseIterable {
  /// Every relayout places every item by the column rule (CHT's behaviour).
  case packed
  /// An item gets its column when it enters the layout and keeps it: edits
  /// elsewhere only slide it along its column.
  case stable
}

/// The layout-wide fields of `waterfall` (CHTCollectionViewWaterfallLayout's
/// properties, and what its users asked it for).
public struct WaterfallConfiguration: Equatable, Sendable {
  public var scrollDirection = ScrollDirection.vertical
  public var columnCount = 2
  public var minimumColumnSpacing = 10.0
  public var minimumInteritemSpacing = 10.0
  public var sectionInset = Insets.zero
  /// Thicknesses along the scroll axis (a width when horizontal).
  public var headerHeight = 0.0
  public var footerHeight = 0.0
  public var headerInset = Insets.zero
  public var footerInset = Insets.zero
  public var itemRenderDirection = ItemRenderDirection.shortestFirst
  public var placement = ColumnPlacement.packed
  /// 0: exact; else column widths and item heights are floored to this
  /// pixel grid, as CHT floors to the screen scale.
  public var pixelScale = 0.0
  /// The least main-axis extent of the content.
  public var minimumContentHeight = 0.0
  /// The size of items that carry none (`itemCount` sections).
  public var itemSize = Size(width: 50, height: 50)
  public var estimatedItemSize: Size? = nil
  public var sectionHeadersPinToVisibleBounds = false
  public var sectionFootersPinToVisibleBounds = false
  public var layoutDirection = LayoutDirection.ltr
  /// Snapping to item tops (nil: free scrolling).
  public var snap: SnapConfiguration? = nil

  /// The size of items without one of their own.
  public var uniformItemSize: Size { estimatedItemSize ?? itemSize }

  public init() {}

  /// Floors `v` to the pixel grid (exact when pixelScale is 0). The 1e-9
  /// absorbs the product's rounding, so that an item as tall as it is wide
  /// is exactly one column width tall. O(1).
  @inline(__always) func floored(_ v: Double) -> Double {
    guard pixelScale > 0 else { return v }
    return (v * pixelScale + 1e-9).rounded(.down) / pixelScale
  }
}

/// The per-section values of a waterfall's delegate (CHT's
/// columnCountForSection and relatives); nil keeps the layout's value.
/// A section's `inset` and `minimumInteritemSpacing` are the section's own
/// fields, shared with flow.
public struct ColumnOverrides: SectionFields {
  public var columnCount: Int? = nil
  public var minimumColumnSpacing: Double? = nil
  public var headerHeight: Double? = nil
  public var footerHeight: Double? = nil
  public var headerInset: Insets? = nil
  public var footerInset: Insets? = nil
  public init() {}

  /// These overrides with those `patch` gives replacing them. O(1).
  public func updating(_ patch: ColumnOverrides) -> ColumnOverrides {
    var c = self
    c.columnCount = patch.columnCount ?? columnCount
    c.minimumColumnSpacing = patch.minimumColumnSpacing ?? minimumColumnSpacing
    c.headerHeight = patch.headerHeight ?? headerHeight
    c.footerHeight = patch.footerHeight ?? footerHeight
    c.headerInset = patch.headerInset ?? headerInset
    c.footerInset = patch.footerInset ?? footerInset
    return c
  }
}

// A waterfall item that spans every column stores its size with the width's
// sign bit set: sizes are never negative otherwise (the unset marker is
// (−1, −1), whose height no item has), so no other storage must follow
// inserts, deletes and moves.
extension Size {
  /// This size, marked as spanning every column of a waterfall section.
  public var fullSpan: Size { Size(width: -abs(width), height: height) }
  /// True when the size carries the full-span mark. O(1).
  @inline(__always) public var isFullSpan: Bool {
    width.sign == .minus && height >= 0
  }
  /// The size without the full-span mark. O(1).
  @inline(__always) public var unmarked: Size {
    isFullSpan ? Size(width: -width, height: height) : self
  }
}
