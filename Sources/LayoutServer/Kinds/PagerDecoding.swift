import JSONRPC
import LayoutEngine

// `pager`: FSPagerView's properties, one section of pages, and what a
// pager refuses (more sections, a content inset, pages of their own sizes,
// a pitch of nothing).

private let pagerKeys: Set<String> = Set([
  "type", "itemSize", "interitemSpacing", "transformer", "minimumScale", "minimumAlpha", "wrap",
  "scrollDirection", "decelerationDistance", "removesInfiniteLoopForSingleItem",
]).union(everyKindsLayoutKeys)

/// The most pages one fling may pass (`decelerationDistance`).
private let maxDecelerationDistance = 1_000_000

struct PagerDecoder: KindDecoder {
  let name = "pager"

  func read(_ f: Fields, base: LayoutType?) throws(RPCError) -> LayoutType {
    try f.rejectUnknown(pagerKeys)
    var c = PagerConfiguration()
    if case .pager(let b)? = base { c = b }
    if let s = try f.optionalSize("itemSize") { c.itemSize = s }
    if let v = try f.optionalNumber("interitemSpacing", maxMagnitude: maxCoordinate) {
      c.interitemSpacing = v
    }
    if let t = try f.optionalChoice("transformer", PagerTransformer.allCases.map(\.rawValue)) {
      c.transformer = PagerTransformer(rawValue: t)!
    }
    if let v = try f.optionalNumber("minimumScale", min: 0, maxMagnitude: 1) {
      guard v < 1 else { throw .invalidParams(f.path("minimumScale"), "must be in [0, 1)") }
      c.minimumScale = v
    }
    if let v = try f.optionalNumber("minimumAlpha", min: 0, maxMagnitude: 1) { c.minimumAlpha = v }
    if let v = try f.optionalBool("wrap") { c.wrap = v }
    if let d = try f.optionalChoice("scrollDirection", ScrollDirection.allCases.map(\.rawValue)) {
      c.scrollDirection = ScrollDirection(rawValue: d)!
    }
    if let v = f.optional("decelerationDistance") {
      if v.string != nil {
        guard try f.optionalChoice("decelerationDistance", ["automatic"]) != nil else {
          throw .invalidParams(f.path("decelerationDistance"), "is required")
        }
        c.decelerationDistance = .automatic
      } else {
        c.decelerationDistance = .pages(
          try f.integer("decelerationDistance", in: 1...maxDecelerationDistance))
      }
    }
    if let v = try f.optionalBool("removesInfiniteLoopForSingleItem") {
      c.removesInfiniteLoopForSingleItem = v
    }
    return .pager(c)
  }

  /// A pager's section carries a count of pages and their ids: every page
  /// has the pager's itemSize.
  var sectionFormat: SectionFormat {
    SectionFormat(keys: SectionFormat.itemKeys) { s, _ throws(RPCError) in
      for key in ["itemSizes", packedSizesKey] where s.optional(key) != nil {
        throw .invalidParams(s.path(key), "is not accepted: every page has the pager's itemSize")
      }
    }
  }

  var capabilities: [(key: String, value: Capability)] {
    [("pagerTransformers", .names(PagerTransformer.allCases.map(\.rawValue)))]
  }

  /// The pager's problems (one section at most, no content inset, no
  /// pages of their own sizes, a pitch above 0; then a period under a
  /// point), each blamed on the field that set it.
  func error(for problem: LayoutProblem, source: ChangeSource) -> RPCError {
    switch problem {
    case .sectionCount(let count, _):
      // A configure that makes a session of several sections a pager is
      // refused for its type.
      let sections = source.isConfigure ? "params.layout.type" : "params.sections"
      return .invalidParams(
        source.blames(sections), "gives the pager \(count) sections; a pager has at most one")
    case .contentInset:
      return .invalidParams(
        source.blames("params.contentInset"),
        "must be zero: a pager's collection view has no content inset")
    case .ownItemSizes:
      return .invalidParams(
        source.viewportField,
        "gives pages sizes of their own; every page has the pager's itemSize")
    case .pitch(let s):
      return .invalidParams(
        source.blames("params.layout.interitemSpacing"),
        "leaves the pages a pitch of \(s) points (the page's extent along the scroll axis plus "
          + "the spacing); it must be above 0")
    default:
      // Pages repeat a period of n · pitch: one below a point is refused.
      return .invalidParams(
        source.blames("params.layout.interitemSpacing"),
        "makes the repeated pages a period under a point (the pages' count times their pitch)")
    }
  }
}

extension ChangeSource {
  fileprivate var isConfigure: Bool {
    if case .configure = self { return true }
    return false
  }
}
