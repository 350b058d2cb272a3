import JSONRPC
import LayoutEngine

// `flow`: UICollectionViewFlowLayout's fields, and the section fields of
// every kind placed in flow lines.

struct FlowDecoder: KindDecoder {
  let name = "flow"

  func read(_ f: Fields, base: LayoutType?) throws(RPCError) -> LayoutType {
    try f.rejectUnknown(flowKeys)
    var c = FlowConfiguration()
    if case .flow(let b)? = base { c = b }
    try readFlowFields(f, into: &c)
    return .flow(c)
  }

  var sectionFormat: SectionFormat { .flowLines }
}

extension SectionFormat {
  /// A flow-lines section: per-section inset, spacings and reference sizes.
  static let flowLines = SectionFormat(
    keys: SectionFormat.itemKeys.union([
      "inset", "minimumInteritemSpacing", "minimumLineSpacing", "headerSize", "footerSize",
    ])
  ) { s, section throws(RPCError) in
    section.inset = try s.optionalInsets("inset")
    section.minimumLineSpacing = try s.optionalSpacing("minimumLineSpacing")
    section.minimumInteritemSpacing = try s.optionalSpacing("minimumInteritemSpacing")
    section.headerSize = try s.optionalSize("headerSize")
    section.footerSize = try s.optionalSize("footerSize")
  }
}

/// The fields every flow-based layout type accepts.
let flowKeys: Set<String> = Set([
  "type", "scrollDirection", "itemSize", "minimumLineSpacing", "minimumInteritemSpacing",
  "sectionInset", "headerReferenceSize", "footerReferenceSize",
  "sectionHeadersPinToVisibleBounds", "sectionFootersPinToVisibleBounds", "layoutDirection",
  "estimatedItemSize",
]).union(everyKindsLayoutKeys)

/// Reads the flow fields into `c`, leaving unset fields at their defaults.
func readFlowFields(_ f: Fields, into c: inout FlowConfiguration) throws(RPCError) {
  if let d = try f.optionalChoice("scrollDirection", ScrollDirection.allCases.map(\.rawValue)) {
    c.scrollDirection = ScrollDirection(rawValue: d)!
  }
  if let s = try f.optionalSize("itemSize") { c.itemSize = s }
  if let v = try f.optionalSpacing("minimumLineSpacing") { c.minimumLineSpacing = v }
  if let v = try f.optionalSpacing("minimumInteritemSpacing") { c.minimumInteritemSpacing = v }
  if let v = try f.optionalInsets("sectionInset") { c.sectionInset = v }
  if let v = try f.optionalSize("headerReferenceSize") { c.headerReferenceSize = v }
  if let v = try f.optionalSize("footerReferenceSize") { c.footerReferenceSize = v }
  if let v = try f.optionalBool("sectionHeadersPinToVisibleBounds") {
    c.sectionHeadersPinToVisibleBounds = v
  }
  if let v = try f.optionalBool("sectionFootersPinToVisibleBounds") {
    c.sectionFootersPinToVisibleBounds = v
  }
  if let v = try f.optionalSize("estimatedItemSize") { c.estimatedItemSize = v }
  if let d = try f.optionalChoice("layoutDirection", LayoutDirection.allCases.map(\.rawValue)) {
    c.layoutDirection = LayoutDirection(rawValue: d)!
  }
}
