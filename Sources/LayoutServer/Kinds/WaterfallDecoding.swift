import JSONRPC
import LayoutEngine

// `waterfall`: CHTCollectionViewWaterfallLayout's columns.

struct WaterfallDecoder: KindDecoder {
  let name = "waterfall"

  func read(_ f: Fields, base: LayoutType?) throws(RPCError) -> LayoutType {
    try f.rejectUnknown(waterfallKeys)
    var c = WaterfallConfiguration()
    if case .waterfall(let b)? = base { c = b }
    try readWaterfallFields(f, into: &c)
    return .waterfall(c)
  }

  /// A waterfall section: its inset, spacing and column overrides; items
  /// may span every column.
  var sectionFormat: SectionFormat {
    SectionFormat(
      keys: SectionFormat.itemKeys.union(["inset", "minimumInteritemSpacing"]).union(
        columnSectionKeys), fullSpan: true
    ) { s, section throws(RPCError) in
      section.inset = try s.optionalInsets("inset")
      section.minimumInteritemSpacing = try s.optionalSpacing("minimumInteritemSpacing")
      section.kindFields = try readColumnOverrides(s)
    }
  }

  /// A waterfall keeps a record per item (about 36 bytes and 20 ns each to
  /// place): at most about 360 MB and 0.2 s for an open. Never above
  /// maxItemsPerSession.
  var itemLimit: KindItemLimit? {
    KindItemLimit(key: "maxWaterfallItems", flag: "--max-waterfall-items", defaultValue: 10_000_000)
  }

  var capabilities: [(key: String, value: Capability)] {
    [
      ("itemRenderDirections", .names(ItemRenderDirection.allCases.map(\.rawValue))),
      ("columnPlacements", .names(ColumnPlacement.allCases.map(\.rawValue))),
    ]
  }
}

private let columnSectionKeys: Set<String> = [
  "columnCount", "minimumColumnSpacing", "headerHeight", "footerHeight", "headerInset",
  "footerInset",
]

private let waterfallKeys: Set<String> = Set([
  "type", "scrollDirection", "columnCount", "minimumColumnSpacing", "minimumInteritemSpacing",
  "sectionInset", "headerHeight", "footerHeight", "headerInset", "footerInset",
  "itemRenderDirection", "placement", "pixelScale", "minimumContentHeight", "itemSize",
  "estimatedItemSize", "sectionHeadersPinToVisibleBounds", "sectionFootersPinToVisibleBounds",
  "layoutDirection", "snap",
]).union(everyKindsLayoutKeys)

/// The most columns a waterfall section may have: a query costs
/// O(columns · log n), and every column is walked per query.
let maxColumnCount = 1024
/// The finest pixel grid: v · pixelScale must stay well within a double's
/// integers.
let maxPixelScale = 1000.0

/// Reads the waterfall fields into `c`, leaving unset fields as they are.
private func readWaterfallFields(_ f: Fields, into c: inout WaterfallConfiguration)
  throws(RPCError)
{
  if let d = try f.optionalChoice("scrollDirection", ScrollDirection.allCases.map(\.rawValue)) {
    c.scrollDirection = ScrollDirection(rawValue: d)!
  }
  if f.optional("columnCount") != nil {
    c.columnCount = try f.integer("columnCount", in: 1...maxColumnCount)
  }
  if let v = try f.optionalSpacing("minimumColumnSpacing") { c.minimumColumnSpacing = v }
  if let v = try f.optionalSpacing("minimumInteritemSpacing") { c.minimumInteritemSpacing = v }
  if let v = try f.optionalInsets("sectionInset") { c.sectionInset = v }
  if let v = try f.optionalSpacing("headerHeight") { c.headerHeight = v }
  if let v = try f.optionalSpacing("footerHeight") { c.footerHeight = v }
  if let v = try f.optionalInsets("headerInset") { c.headerInset = v }
  if let v = try f.optionalInsets("footerInset") { c.footerInset = v }
  if let d = try f.optionalChoice(
    "itemRenderDirection", ItemRenderDirection.allCases.map(\.rawValue))
  {
    c.itemRenderDirection = ItemRenderDirection(rawValue: d)!
  }
  if let d = try f.optionalChoice("placement", ColumnPlacement.allCases.map(\.rawValue)) {
    c.placement = ColumnPlacement(rawValue: d)!
  }
  if let v = try f.optionalNumber("pixelScale", min: 0, maxMagnitude: maxPixelScale) {
    c.pixelScale = v
  }
  if let v = try f.optionalSpacing("minimumContentHeight") { c.minimumContentHeight = v }
  if let s = try f.optionalSize("itemSize") { c.itemSize = s }
  if let v = try f.optionalSize("estimatedItemSize") { c.estimatedItemSize = v }
  if let v = try f.optionalBool("sectionHeadersPinToVisibleBounds") {
    c.sectionHeadersPinToVisibleBounds = v
  }
  if let v = try f.optionalBool("sectionFootersPinToVisibleBounds") {
    c.sectionFootersPinToVisibleBounds = v
  }
  if let d = try f.optionalChoice("layoutDirection", LayoutDirection.allCases.map(\.rawValue)) {
    c.layoutDirection = LayoutDirection(rawValue: d)!
  }
  if let s = try f.optionalObject("snap") {
    c.snap = try readSnap(s, base: c.snap ?? SnapConfiguration())
  }
}

/// Reads a waterfall section's column overrides; nil when it has none.
private func readColumnOverrides(_ s: Fields) throws(RPCError) -> ColumnOverrides? {
  guard columnSectionKeys.contains(where: { s.optional($0) != nil }) else { return nil }
  var o = ColumnOverrides()
  if s.optional("columnCount") != nil {
    o.columnCount = try s.integer("columnCount", in: 1...maxColumnCount)
  }
  o.minimumColumnSpacing = try s.optionalSpacing("minimumColumnSpacing")
  o.headerHeight = try s.optionalSpacing("headerHeight")
  o.footerHeight = try s.optionalSpacing("footerHeight")
  o.headerInset = try s.optionalInsets("headerInset")
  o.footerInset = try s.optionalInsets("footerInset")
  return o
}
