// `pager`: FSPagerView. Pages one pitch apart on the slot placement, drawn
// at their slots by one of FSPagerView's transformers, repeated without end
// when `wrap` is on, snapped by FSPagerView's deceleration distance.
// protocol.md ("pager") states every rule this folder implements.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// FSPagerViewTransformerType.
public enum PagerTransformer: String, Sendable, CaseIterable {
  case crossFading
  case zoomOut
  case depth
  case overlap
  case linear
  case coverFlow
  case ferrisWheel
  case invertedFerrisWheel
  case cubic
}

/// FSPagerView's decelerationDistance: how many pages a fling passes.
public enum PagerDecelerationDistance: Equatable, Sendable {
  /// FSPagerView.automaticDistance: as far as the fling carries, biased a
  /// third of a page in its direction.
  case automatic
  /// At most this many page boundaries per fling (≥ 1).
  case pages(Int)
}

/// The `pager` layout type: FSPagerView's properties.
public struct PagerConfiguration: Equatable, Sendable {
  /// nil or zero: the bounds' size (FSPagerView's automaticSize).
  public var itemSize: Size? = nil
  public var interitemSpacing = 0.0
  public var transformer: PagerTransformer? = nil
  /// nil: the transformer's default (0.85 zoomOut, 0.5 depth, 0.65 else).
  public var minimumScale: Double? = nil
  /// nil: 0.6.
  public var minimumAlpha: Double? = nil
  /// FSPagerView's isInfinite.
  public var wrap = false
  public var scrollDirection = ScrollDirection.horizontal
  public var decelerationDistance = PagerDecelerationDistance.pages(1)
  public var removesInfiniteLoopForSingleItem = false
  public init() {}

  /// m: the effective minimum scale. O(1).
  public var resolvedMinimumScale: Double {
    if let m = minimumScale { return m }
    switch transformer {
    case .zoomOut?: return 0.85
    case .depth?: return 0.5
    default: return 0.65
    }
  }

  /// a: the effective minimum alpha. O(1).
  public var resolvedMinimumAlpha: Double { minimumAlpha ?? 0.6 }

  var horizontal: Bool { scrollDirection == .horizontal }

  /// The configured size, nil when automatic (nil or zero).
  var fixedItemSize: Size? {
    guard let s = itemSize, s != .zero else { return nil }
    return s
  }

  /// Rule G1: the page's size in a viewport of `viewport` size. O(1).
  public func pageSize(in viewport: Size) -> Size { fixedItemSize ?? viewport }

  /// Rule G2: the spacing between pages. A transformer proposes its own,
  /// computed from the configured width (0 when automatic), as
  /// FSPagerView reads `pagerView.itemSize`. O(1).
  public var spacing: Double {
    guard let t = transformer else { return interitemSpacing }
    let cw = fixedItemSize?.width ?? 0
    let m = resolvedMinimumScale
    switch t {
    case .crossFading, .zoomOut, .depth: return interitemSpacing
    case .cubic: return 0
    case .overlap: return horizontal ? -0.6 * m * cw : 0
    case .linear: return horizontal ? -0.2 * m * cw : 0
    case .coverFlow: return horizontal ? -sin(3 * Double.pi / 16) * cw : 0
    case .ferrisWheel, .invertedFerrisWheel: return horizontal ? -0.15 * cw : 0
    }
  }

  /// Rule G3: the pitch s, the distance between neighbouring pages, in a
  /// viewport of `viewport` size. O(1).
  public func pitch(in viewport: Size) -> Double {
    let size = pageSize(in: viewport)
    return (horizontal ? size.width : size.height) + spacing
  }

  /// Rule G4: whether `n` pages repeat. O(1).
  public func wraps(itemCount n: Int) -> Bool {
    wrap && n >= 1 && (n > 1 || !removesInfiniteLoopForSingleItem)
  }
}
