import JSONRPC
import LayoutEngine

// JSON → compositional section layouts: NSCollectionLayoutSection,
// NSCollectionLayoutGroup and NSCollectionLayoutItem as objects. Every
// reader names the field it rejects.

struct CompositionalDecoder: KindDecoder {
  let name = "compositional"

  func read(_ f: Fields, base: LayoutType?) throws(RPCError) -> LayoutType {
    try f.rejectUnknown(compositionalKeys)
    var c = CompositionalConfiguration()
    if case .compositional(let b)? = base { c = b }
    try readCompositionalFields(f, into: &c)
    return .compositional(c)
  }

  /// A compositional section's items (sizes are measured sizes) and its
  /// own section layout.
  var sectionFormat: SectionFormat {
    SectionFormat(keys: SectionFormat.itemKeys.union(["layout"])) { s, section throws(RPCError) in
      if let l = try s.optionalObject("layout") { section.kindFields = try readSectionLayout(l) }
    }
  }

  /// A list section where the layout scrolls horizontally.
  func error(for problem: LayoutProblem, source: ChangeSource) -> RPCError {
    guard case .horizontalList(let section) = problem else {
      return .invalidParams(
        source.viewportField, "makes the compositional layout impossible to draw")
    }
    return .invalidParams(
      source.blames("params.layout.scrollDirection"),
      "makes section \(section), a list section, scroll horizontally: list sections need "
        + "scrollDirection \"vertical\"")
  }

  var capabilities: [(key: String, value: Capability)] {
    [
      (
        "orthogonalScrollingBehaviors",
        .names(OrthogonalScrollingBehavior.allCases.map(\.rawValue))
      )
    ]
  }
}

private let compositionalKeys: Set<String> = Set([
  "type", "scrollDirection", "interSectionSpacing", "section", "layoutDirection",
]).union(everyKindsLayoutKeys)

/// Groups nest at most this deep: a section layout is a description, not
/// data, and recursion must stay shallow.
let maxGroupDepth = 16

/// Reads the compositional fields into `c`, leaving absent fields as they
/// are (`section`, when given, replaces the default section layout whole).
func readCompositionalFields(_ f: Fields, into c: inout CompositionalConfiguration)
  throws(RPCError)
{
  if let d = try f.optionalChoice("scrollDirection", ScrollDirection.allCases.map(\.rawValue)) {
    c.scrollDirection = ScrollDirection(rawValue: d)!
  }
  if let v = try f.optionalSpacing("interSectionSpacing") { c.interSectionSpacing = v }
  if let s = try f.optionalObject("section") { c.section = try readSectionLayout(s) }
  if let d = try f.optionalChoice("layoutDirection", LayoutDirection.allCases.map(\.rawValue)) {
    c.layoutDirection = LayoutDirection(rawValue: d)!
  }
}

/// `{group, interGroupSpacing?, contentInsets?, orthogonalScrollingBehavior?,
/// boundarySupplementaryItems?, decorationItems?, effect?}`, or a list
/// section `{list, contentInsets?}`.
func readSectionLayout(_ f: Fields) throws(RPCError) -> SectionLayout {
  try f.rejectUnknown([
    "group", "interGroupSpacing", "contentInsets", "orthogonalScrollingBehavior",
    "boundarySupplementaryItems", "decorationItems", "effect", "list",
  ])
  if let l = try f.optionalObject("list") {
    // The list's header and footer modes, separators and backgrounds
    // replace a group section's fields.
    for key in [
      "group", "boundarySupplementaryItems", "decorationItems", "interGroupSpacing",
      "orthogonalScrollingBehavior", "effect",
    ] where f.optional(key) != nil {
      throw .invalidParams(
        f.path(key),
        "cannot be given with list: a list section's own modes, separators and backgrounds "
          + "replace it")
    }
    var s = SectionLayout(list: try readListSectionLayout(l))
    s.contentInsets = try readDirectionalInsets(f, "contentInsets")
    return s
  }
  var s = SectionLayout(group: try readGroup(try f.object("group"), depth: 1))
  if let v = try f.optionalSpacing("interGroupSpacing") { s.interGroupSpacing = v }
  s.contentInsets = try readDirectionalInsets(f, "contentInsets")
  if let b = try f.optionalChoice(
    "orthogonalScrollingBehavior", OrthogonalScrollingBehavior.allCases.map(\.rawValue))
  {
    s.orthogonalScrollingBehavior = OrthogonalScrollingBehavior(rawValue: b)!
  }
  if f.optional("boundarySupplementaryItems") != nil {
    let (array, path) = try f.array("boundarySupplementaryItems")
    for i in 0..<array.count {
      let b = try Fields(array[i], element: i, of: path)
      try b.rejectUnknown(["kind", "size", "pinToVisibleBounds"])
      guard let kind = try b.optionalChoice("kind", ["header", "footer"]) else {
        throw .invalidParams(b.path("kind"), "is required")
      }
      let k = ElementKind(rawValue: kind)!
      guard s.boundarySupplementaryItems.allSatisfy({ $0.kind != k }) else {
        throw .invalidParams(b.path("kind"), "is a second \(kind): a section has at most one")
      }
      s.boundarySupplementaryItems.append(
        BoundaryItem(
          kind: k, size: try readLayoutSize(try b.object("size")),
          pinToVisibleBounds: try b.optionalBool("pinToVisibleBounds") ?? false))
    }
  }
  if f.optional("decorationItems") != nil {
    let (array, path) = try f.array("decorationItems")
    for i in 0..<array.count {
      let d = try Fields(array[i], element: i, of: path)
      try d.rejectUnknown(["kind", "contentInsets"])
      guard try d.optionalChoice("kind", ["background"]) != nil else {
        throw .invalidParams(d.path("kind"), "is required")
      }
      guard s.background == nil else {
        throw .invalidParams(d.path("kind"), "is a second background: a section has at most one")
      }
      s.background = try readDirectionalInsets(d, "contentInsets")
    }
  }
  if let e = try f.optionalObject("effect") {
    guard s.scrollsOrthogonally else {
      throw .invalidParams(
        e.path, "requires an orthogonalScrollingBehavior other than \"none\" (a row to act on)")
    }
    try e.rejectUnknown(["scale", "alpha"])
    var effect = RowEffect()
    if let c = try e.optionalObject("scale") {
      effect.scale = try readCurve(c, default: effect.scale)
    }
    if let c = try e.optionalObject("alpha") {
      effect.alpha = try readCurve(c, default: effect.alpha)
    }
    s.effect = effect
  }
  return s
}

/// `{top?, leading?, bottom?, trailing?}`, each 0 when absent; zero when
/// the member is absent.
private func readDirectionalInsets(_ f: Fields, _ key: String) throws(RPCError)
  -> DirectionalInsets
{
  guard let i = try f.optionalObject(key) else { return .zero }
  try i.rejectUnknown(["top", "leading", "bottom", "trailing"])
  func side(_ k: String) throws(RPCError) -> Double {
    i.optional(k) == nil ? 0 : try i.coordinate(k)
  }
  return DirectionalInsets(
    top: try side("top"), leading: try side("leading"), bottom: try side("bottom"),
    trailing: try side("trailing"))
}

/// `{width: Dimension, height: Dimension}`.
private func readLayoutSize(_ f: Fields) throws(RPCError) -> LayoutSize {
  try f.rejectUnknown(["width", "height"])
  return LayoutSize(
    width: try readDimension(try f.object("width")),
    height: try readDimension(try f.object("height")))
}

private let dimensionKeys = ["fractionalWidth", "fractionalHeight", "absolute", "estimated"]

/// Exactly one of `{fractionalWidth}`, `{fractionalHeight}`, `{absolute}`,
/// `{estimated}`: a fraction in [0, 1e6], or points in [0, 1e15].
private func readDimension(_ f: Fields) throws(RPCError) -> LayoutDimension {
  try f.rejectUnknown(Set(dimensionKeys))
  let given = dimensionKeys.filter { f.optional($0) != nil }
  guard let key = given.first else {
    throw .invalidParams(f.path, "must have one of " + dimensionKeys.joined(separator: ", "))
  }
  guard given.count == 1 else {
    throw .invalidParams(f.path(given[1]), "cannot be given with \(key)")
  }
  switch key {
  case "fractionalWidth":
    return .fractionalWidth(try f.number(key, min: 0, maxMagnitude: maxCurveParameter))
  case "fractionalHeight":
    return .fractionalHeight(try f.number(key, min: 0, maxMagnitude: maxCurveParameter))
  case "absolute": return .absolute(try f.coordinate(key, min: 0))
  default: return .estimated(try f.coordinate(key, min: 0))
  }
}

/// An item `{size, contentInsets?}`, or a group where `subitems` is given.
private func readLayoutItem(_ f: Fields, depth: Int) throws(RPCError) -> LayoutItem {
  if f.optional("subitems") != nil || f.optional("direction") != nil {
    return .group(try readGroup(f, depth: depth + 1))
  }
  try f.rejectUnknown(["size", "contentInsets"])
  return .item(
    size: try readLayoutSize(try f.object("size")),
    contentInsets: try readDirectionalInsets(f, "contentInsets"))
}

/// `{direction, size, subitems, count?, interItemSpacing?, contentInsets?}`.
private func readGroup(_ f: Fields, depth: Int) throws(RPCError) -> LayoutGroup {
  guard depth <= maxGroupDepth else {
    throw .invalidParams(f.path, "nests groups more than \(maxGroupDepth) deep")
  }
  try f.rejectUnknown([
    "direction", "size", "subitems", "count", "interItemSpacing", "contentInsets",
  ])
  guard
    let direction = try f.optionalChoice(
      "direction", LayoutGroup.Direction.allCases.map(\.rawValue))
  else { throw .invalidParams(f.path("direction"), "is required") }
  let size = try readLayoutSize(try f.object("size"))
  let (array, path) = try f.array("subitems")
  guard array.count > 0 else { throw .invalidParams(path, "must not be empty") }
  guard array.count <= maxItemsPerGroup else {
    throw .invalidParams(path, "has more than \(maxItemsPerGroup) subitems")
  }
  var subitems: [LayoutItem] = []
  for i in 0..<array.count {
    subitems.append(try readLayoutItem(try Fields(array[i], element: i, of: path), depth: depth))
  }
  var g = LayoutGroup(
    direction: LayoutGroup.Direction(rawValue: direction)!, size: size, subitems: subitems)
  if f.optional("count") != nil {
    guard subitems.count == 1 else {
      throw .invalidParams(f.path("count"), "requires exactly one subitem")
    }
    g.count = try f.integer("count", in: 1...maxItemsPerGroup)
  }
  if let s = try f.optionalObject("interItemSpacing") {
    try s.rejectUnknown(["fixed", "flexible"])
    if s.optional("fixed") != nil, s.optional("flexible") != nil {
      throw .invalidParams(s.path("flexible"), "cannot be given with fixed")
    }
    if s.optional("flexible") != nil {
      g.interItemSpacing = .flexible(try s.coordinate("flexible", min: 0))
    } else {
      g.interItemSpacing = .fixed(try s.coordinate("fixed", min: 0))
    }
  }
  g.contentInsets = try readDirectionalInsets(f, "contentInsets")
  return g
}

/// `{"list": {…}}` of a compositional section: the list's fields (its
/// layoutDirection is the compositional layout's) and its items' separator
/// overrides.
func readListSectionLayout(_ f: Fields) throws(RPCError) -> ListSectionLayout {
  if f.optional("layoutDirection") != nil {
    throw .invalidParams(
      f.path("layoutDirection"),
      "is the compositional layout's: a list section takes no direction of its own")
  }
  try f.rejectUnknown(listFieldKeys.union(["itemSeparators"]))
  var c = ListConfiguration()
  try readListFields(f, into: &c)
  var l = ListSectionLayout(c)
  l.itemSeparators = try readItemSeparators(f)
  return l
}
