// The flow lines' parameters: UICollectionViewFlowLayout's layout-wide
// properties, shared by the two kinds on flow lines (flow, cover flow).

/// The layout-wide properties of UICollectionViewFlowLayout.
public struct FlowConfiguration: Equatable, Sendable {
  public var scrollDirection: ScrollDirection = .vertical
  public var itemSize = Size(width: 50, height: 50)
  public var minimumLineSpacing: Double = 10
  public var minimumInteritemSpacing: Double = 10
  public var sectionInset: Insets = .zero
  public var headerReferenceSize: Size = .zero
  public var footerReferenceSize: Size = .zero
  public var sectionHeadersPinToVisibleBounds = false
  public var sectionFootersPinToVisibleBounds = false
  /// `rtl` mirrors the left-to-right layout (see `Layout`).
  public var layoutDirection = LayoutDirection.ltr
  /// Self-sizing: items not yet measured (those without a size of their
  /// own) have this size instead of itemSize.
  public var estimatedItemSize: Size? = nil

  /// The size of items that carry none: estimatedItemSize when set.
  public var uniformItemSize: Size { estimatedItemSize ?? itemSize }

  public init() {}
}
