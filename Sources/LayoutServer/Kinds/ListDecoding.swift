import JSONRPC
import LayoutEngine

// `list`: UICollectionLayoutListConfiguration's fields, the environment's
// numbers, and a list section's overrides (header and footer modes and
// heights, separators, per-item separators).

private let listSectionKeys: Set<String> = [
  "headerMode", "footerMode", "headerHeight", "footerHeight", "showsSeparators",
  "separatorConfiguration", "itemSeparators",
]

/// The list's own fields, as a `list` layout and a compositional list
/// section take them.
let listFieldKeys: Set<String> = [
  "appearance", "showsSeparators", "separatorConfiguration", "headerMode", "footerMode",
  "headerHeight", "footerHeight", "headerTopPadding", "layoutMargins", "cellLayoutMargins",
  "indentationWidth", "displayScale", "safeAreaInsets", "sectionSpacing", "cornerRadius",
  "estimatedRowHeight",
]

private let listKeys: Set<String> = listFieldKeys.union(["type", "layoutDirection"]).union(
  everyKindsLayoutKeys)

private let separatorKeys = [
  "topSeparatorVisibility", "bottomSeparatorVisibility", "topSeparatorInsets",
  "bottomSeparatorInsets",
]

struct ListDecoder: KindDecoder {
  let name = "list"

  func read(_ f: Fields, base: LayoutType?) throws(RPCError) -> LayoutType {
    try f.rejectUnknown(listKeys)
    var c = ListConfiguration()
    if case .list(let b)? = base { c = b }
    try readListFields(f, into: &c)
    if let d = try f.optionalChoice("layoutDirection", LayoutDirection.allCases.map(\.rawValue)) {
      c.layoutDirection = LayoutDirection(rawValue: d)!
    }
    return .list(c)
  }

  /// A list section: its rows, and its own modes, heights and separators.
  var sectionFormat: SectionFormat {
    SectionFormat(keys: SectionFormat.itemKeys.union(listSectionKeys)) {
      s, section throws(RPCError) in
      guard listSectionKeys.contains(where: { s.optional($0) != nil }) else { return }
      var o = ListSectionFields()
      if let v = try s.optionalChoice("headerMode", ListHeaderMode.allCases.map(\.rawValue)) {
        o.headerMode = ListHeaderMode(rawValue: v)!
      }
      if let v = try s.optionalChoice("footerMode", ListFooterMode.allCases.map(\.rawValue)) {
        o.footerMode = ListFooterMode(rawValue: v)!
      }
      o.headerHeight = try s.optionalSpacing("headerHeight")
      o.footerHeight = try s.optionalSpacing("footerHeight")
      o.showsSeparators = try s.optionalBool("showsSeparators")
      if let c = try s.optionalObject("separatorConfiguration") {
        o.separatorConfiguration = try readSeparators(c)
      }
      o.itemSeparators = try readItemSeparators(s)
      section.kindFields = o
    }
  }

  var capabilities: [(key: String, value: Capability)] {
    [
      ("listAppearances", .names(ListAppearance.allCases.map(\.rawValue))),
      ("listHeaderModes", .names(ListHeaderMode.allCases.map(\.rawValue))),
    ]
  }
}

/// The list's own fields of `f` into `c`, leaving absent fields as they
/// are.
func readListFields(_ f: Fields, into c: inout ListConfiguration) throws(RPCError) {
  if let v = try f.optionalChoice("appearance", ListAppearance.allCases.map(\.rawValue)) {
    c.appearance = ListAppearance(rawValue: v)!
  }
  if let v = try f.optionalBool("showsSeparators") { c.showsSeparators = v }
  if let s = try f.optionalObject("separatorConfiguration") {
    c.separatorConfiguration = try readSeparators(s)
  }
  if let v = try f.optionalChoice("headerMode", ListHeaderMode.allCases.map(\.rawValue)) {
    c.headerMode = ListHeaderMode(rawValue: v)!
  }
  if let v = try f.optionalChoice("footerMode", ListFooterMode.allCases.map(\.rawValue)) {
    c.footerMode = ListFooterMode(rawValue: v)!
  }
  if let v = try f.optionalSpacing("headerHeight") { c.headerHeight = v }
  if let v = try f.optionalSpacing("footerHeight") { c.footerHeight = v }
  if let v = try f.optionalSpacing("headerTopPadding") { c.headerTopPadding = v }
  if let v = try f.optionalSpacing("layoutMargins") { c.layoutMargins = v }
  if let v = try f.optionalSpacing("cellLayoutMargins") { c.cellLayoutMargins = v }
  if let v = try positive(f, "indentationWidth") { c.indentationWidth = v }
  if let v = try positive(f, "displayScale") { c.displayScale = v }
  if let s = try f.optionalObject("safeAreaInsets") {
    try s.rejectUnknown(["top", "left", "bottom", "right"])
    var i = c.safeAreaInsets
    if let v = try s.optionalSpacing("top") { i.top = v }
    if let v = try s.optionalSpacing("left") { i.left = v }
    if let v = try s.optionalSpacing("bottom") { i.bottom = v }
    if let v = try s.optionalSpacing("right") { i.right = v }
    c.safeAreaInsets = i
  }
  if let v = try f.optionalSpacing("sectionSpacing") { c.sectionSpacing = v }
  if let v = try f.optionalSpacing("cornerRadius") { c.cornerRadius = v }
  if let v = try positive(f, "estimatedRowHeight") { c.estimatedRowHeight = v }
}

/// A section's `itemSeparators: [{item, …}]`, by item; empty when absent.
func readItemSeparators(_ s: Fields) throws(RPCError) -> [Int: SeparatorConfiguration] {
  var out: [Int: SeparatorConfiguration] = [:]
  guard s.optional("itemSeparators") != nil else { return out }
  let (array, path) = try s.array("itemSeparators")
  for i in 0..<array.count {
    let e = try Fields(array[i], element: i, of: path)
    try e.rejectUnknown(Set(separatorKeys + ["item"]))
    let item = try e.integer("item", in: 0...Int.max)
    out[item] = try readSeparators(e, extra: ["item"])
  }
  return out
}

/// A number greater than zero, or nil when absent.
private func positive(_ f: Fields, _ key: String) throws(RPCError) -> Double? {
  guard let v = try f.optionalNumber(key, min: 0, maxMagnitude: maxCoordinate) else { return nil }
  guard v > 0 else { throw .invalidParams(f.path(key), "must be greater than 0") }
  return v
}

/// A `separatorConfiguration` object (or an `itemSeparators` entry).
private func readSeparators(_ f: Fields, extra: [String] = []) throws(RPCError)
  -> SeparatorConfiguration
{
  try f.rejectUnknown(Set(separatorKeys + extra))
  var c = SeparatorConfiguration()
  let names = SeparatorVisibility.allCases.map(\.rawValue)
  if let v = try f.optionalChoice("topSeparatorVisibility", names) {
    c.topSeparatorVisibility = SeparatorVisibility(rawValue: v)!
  }
  if let v = try f.optionalChoice("bottomSeparatorVisibility", names) {
    c.bottomSeparatorVisibility = SeparatorVisibility(rawValue: v)!
  }
  c.topSeparatorInsets = try readSeparatorInsets(f, "topSeparatorInsets")
  c.bottomSeparatorInsets = try readSeparatorInsets(f, "bottomSeparatorInsets")
  return c
}

private func readSeparatorInsets(_ f: Fields, _ key: String) throws(RPCError) -> SeparatorInsets? {
  guard let i = try f.optionalObject(key) else { return nil }
  try i.rejectUnknown(["leading", "trailing"])
  return SeparatorInsets(
    leading: try i.optionalNumber("leading", maxMagnitude: maxCoordinate),
    trailing: try i.optionalNumber("trailing", maxMagnitude: maxCoordinate))
}

extension LayoutServer {
  /// layout/setItemSeparators {session, items: [{section+item | id, …}]} →
  /// the batch answer: each entry replaces its item's separator override
  /// (UIKit's itemSeparatorHandler), one section update per section
  /// touched, committed as any batch. O(items + sections + the batch).
  func setItemSeparators(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    let (array, path) = try p.array("items")
    guard array.count <= limits.maxItemValuesPerRequest else {
      throw .invalidParams(
        path, "holds \(array.count) items, more than maxItemValuesPerRequest")
    }
    // The kind decides which sections' rows are list rows: a list's all,
    // a compositional layout's its list sections.
    var bySection: [Int: [Int: SeparatorConfiguration]] = [:]
    for i in 0..<array.count {
      let e = try Fields(array[i], element: i, of: path)
      try e.rejectUnknown(Set(separatorKeys + ["section", "item", "id"]))
      let at = try indexPath(e, old)
      if bySection[at.section] == nil,
        old.layout.separatorFields([:], section: at.section) == nil
      {
        throw .invalidParams(
          e.path,
          "names an item of section \(at.section), whose rows are not list rows"
            + " (\(old.layout.type.name) layout)")
      }
      bySection[at.section, default: [:]][at.item] =
        try readSeparators(e, extra: ["section", "item", "id"])
    }
    var update = BatchUpdate()
    for (s, overrides) in bySection.sorted(by: { $0.key < $1.key }) {
      var patch = Section.uniform(0)
      patch.kindFields = old.layout.separatorFields(overrides, section: s)
      update.updateSections.append((s, patch))
    }
    try commit(slot, .performBatchUpdates(update), source: .change(path), p, &w) {
      w, session, delta in
      w.animations(delta.animations, in: session)
    }
  }
}
