// The registry of kinds: every layout type the engine has, each a case
// holding its kind's configuration. Adding a kind adds its case here and
// its folder beside this file; nothing else in the engine names it.

/// The layout types the engine knows, each a kind (Kinds/<Type>/).
public enum LayoutType: Equatable, Sendable {
  /// UICollectionViewFlowLayout: flow lines, no effect, free scrolling.
  case flow(FlowConfiguration)
  /// A cover-flow carousel (the seeds' HWCoverFlowLayout and relatives):
  /// flow lines of one card, the cover-flow effect and card snapping.
  case coverFlow(CoverFlowConfiguration)
  /// Masonry (CHTCollectionViewWaterfallLayout): waterfall columns.
  case waterfall(WaterfallConfiguration)
  /// iCarousel: one slot per item a constant pitch apart, every item drawn
  /// at the viewport's centre by one of iCarousel's 3D styles.
  case carousel(CarouselConfiguration)
  /// UICollectionViewCompositionalLayout: sections of groups, some of them
  /// rows that scroll on their own, with row effects and row snapping.
  /// Boxed: its section layout is large, and a session copies its type on
  /// every frame.
  indirect case compositional(CompositionalConfiguration)
  /// FSPagerView: pages on slots, drawn by its transformers.
  case pager(PagerConfiguration)
  /// UICollectionLayoutListConfiguration: rows, separators, headers and
  /// grouped backgrounds.
  case list(ListConfiguration)

  /// The type's name, as `type` takes it (its kind's, without boxing it).
  /// O(1).
  public var name: String {
    switch self {
    case .flow: return "flow"
    case .coverFlow: return "coverFlow"
    case .waterfall: return "waterfall"
    case .carousel: return "carousel"
    case .compositional: return "compositional"
    case .pager: return "pager"
    case .list: return "list"
    }
  }

  /// Each case's kind. O(1), but it boxes the configuration: `Layout`
  /// takes it once when its type is set.
  var kind: any LayoutKind {
    switch self {
    case .flow(let c): return c
    case .coverFlow(let c): return c
    case .waterfall(let c): return c
    case .carousel(let c): return c
    case .compositional(let c): return c
    case .pager(let c): return c
    case .list(let c): return c
    }
  }
}
