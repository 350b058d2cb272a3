import JSONRPC
import LayoutEngine

// JSON → engine values. Every reader names the field it rejects.

/// Every coordinate, size, spacing and inset is at most 1e15 points in
/// magnitude: beyond that a Double no longer resolves a fraction of a point,
/// and sums of such values could overflow to infinity.
let maxCoordinate = 1e15
/// Curve parameters are bounded so that a curve's value stays finite.
let maxCurveParameter = 1e6

extension Fields {
  func coordinate(_ key: String, min: Double? = nil) throws(RPCError) -> Double {
    try number(key, min: min, maxMagnitude: maxCoordinate)
  }

  func point(_ key: String) throws(RPCError) -> Point {
    let f = try object(key)
    let (x, y, _, _) = f.value.members(("x", "y", "x", "y"))
    try f.onlyMembers(["x", "y"])
    return Point(x: try f.coordinate(x, "x"), y: try f.coordinate(y, "y"))
  }

  /// Refuses members beyond `known` (say `z` in a point), naming the first;
  /// O(1) when there are none (every frame's bounds), O(members) else.
  func onlyMembers(_ known: [String]) throws(RPCError) {
    if value.memberCount > known.count { try rejectUnknown(known) }
    // Fewer members than names: a known one is missing, which its reader
    // names; as many: either all known, or one unknown stands for a
    // missing one, which its reader names first.
  }

  /// `coordinate(name)` for a member already found (nil: missing; null
  /// counts as missing, as `optional` has it).
  func coordinate(_ v: JSONValue?, _ name: String, min: Double? = nil) throws(RPCError) -> Double {
    guard let v, !v.isNull else { throw .invalidParams(path(name), "is required") }
    return try Fields.number(v, path: path(name), min: min, maxMagnitude: maxCoordinate)
  }

  func optionalPoint(_ key: String) throws(RPCError) -> Point? {
    guard optional(key) != nil else { return nil }
    return try point(key)
  }

  func size(_ key: String) throws(RPCError) -> Size {
    let f = try object(key)
    try f.onlyMembers(["width", "height"])
    return try f.asSize()
  }

  func optionalSize(_ key: String) throws(RPCError) -> Size? {
    guard optional(key) != nil else { return nil }
    return try size(key)
  }

  func asSize() throws(RPCError) -> Size {
    Size(width: try coordinate("width", min: 0), height: try coordinate("height", min: 0))
  }

  /// A rect: any finite origin, a size of finite numbers >= 0.
  func rect(_ key: String) throws(RPCError) -> Rect {
    let f = try object(key)
    // Every frame sends one: its members found in one pass, then checked
    // in order as before, so that errors name the same field.
    let (x, y, width, height) = f.value.members(("x", "y", "width", "height"))
    try f.onlyMembers(["x", "y", "width", "height"])
    return Rect(
      x: try f.coordinate(x, "x"), y: try f.coordinate(y, "y"),
      width: try f.coordinate(width, "width", min: 0),
      height: try f.coordinate(height, "height", min: 0))
  }

  func optionalInsets(_ key: String) throws(RPCError) -> Insets? {
    guard let f = try optionalObject(key) else { return nil }
    try f.onlyMembers(["top", "left", "bottom", "right"])
    return Insets(
      top: try f.coordinate("top"), left: try f.coordinate("left"),
      bottom: try f.coordinate("bottom"), right: try f.coordinate("right"))
  }

  func optionalSpacing(_ key: String) throws(RPCError) -> Double? {
    try optionalNumber(key, min: 0, maxMagnitude: maxCoordinate)
  }
}

func readCurve(_ f: Fields, default d: Curve) throws(RPCError) -> Curve {
  try f.rejectUnknown(["curve", "peak", "factor", "minimum", "maximum"])
  var c = d
  if let s = try f.optionalChoice("curve", Curve.Shape.allCases.map(\.rawValue)) {
    c.shape = Curve.Shape(rawValue: s)!
  }
  if let v = try f.optionalNumber("peak", maxMagnitude: maxCurveParameter) { c.peak = v }
  if let v = try f.optionalNumber("factor", maxMagnitude: maxCurveParameter) { c.factor = v }
  if f.optional("minimum") != nil {
    c.minimum = try f.number("minimum", maxMagnitude: maxCurveParameter)
  }
  if f.optional("maximum") != nil {
    c.maximum = try f.number("maximum", maxMagnitude: maxCurveParameter)
  }
  if let lo = c.minimum, let hi = c.maximum, lo > hi {
    throw .invalidParams(f.path("minimum"), "must not exceed \(f.path("maximum"))")
  }
  return c
}

/// The largest deceleration rate accepted: slower decay makes the
/// trajectory of a long fling too long to send.
let maxDecelerationRate = 0.999

/// Reads `snap: {policy, decelerationRate, bias, velocityThreshold, maxItems, edges}`.
func readSnap(_ f: Fields, base: SnapConfiguration) throws(RPCError) -> SnapConfiguration {
  try f.rejectUnknown([
    "policy", "decelerationRate", "bias", "velocityThreshold", "maxItems", "edges",
  ])
  var s = base
  if let p = try f.optionalChoice("policy", SnapPolicy.allCases.map(\.rawValue)) {
    s.policy = SnapPolicy(rawValue: p)!
  }
  if let r = f.optional("decelerationRate") {
    if r.string != nil {
      let name = try f.optionalChoice("decelerationRate", ["normal", "fast"])
      s.decelerationRate = name == "fast" ? SnapConfiguration.fast : SnapConfiguration.normal
    } else {
      let v = try f.number("decelerationRate", min: 0, maxMagnitude: maxDecelerationRate)
      guard v > 0 else {
        throw .invalidParams(
          f.path("decelerationRate"), "must be \"normal\", \"fast\" or a number in (0, 0.999]")
      }
      s.decelerationRate = v
    }
  }
  if let v = try f.optionalNumber("bias", min: 0, maxMagnitude: 1) { s.bias = v }
  if let v = try f.optionalNumber("velocityThreshold", min: 0, maxMagnitude: maxCoordinate) {
    s.velocityThreshold = v
  }
  if f.optional("maxItems") != nil { s.maxItems = try f.integer("maxItems", in: 1...1_000_000_000) }
  if let e = try f.optionalChoice("edges", SnapEdges.allCases.map(\.rawValue)) {
    s.edges = SnapEdges(rawValue: e)!
  }
  return s
}

/// What a layout kind's section objects and item sizes may carry beyond
/// what every kind reads (`itemCount`, `itemSizes`, the packed sizes,
/// `ids`): its keys, whether an item size may say `fullSpan`, and a reader
/// of its own section fields. Each kind's decoder (Kinds/) gives one.
struct SectionFormat: Sendable {
  var keys: Set<String>
  var fullSpan: Bool
  /// Reads the kind's own fields of a section object into the section.
  var readFields: @Sendable (Fields, inout Section) throws(RPCError) -> Void

  init(
    keys: Set<String>, fullSpan: Bool = false,
    readFields: @escaping @Sendable (Fields, inout Section) throws(RPCError) -> Void = { _, _ in }
  ) {
    self.keys = keys
    self.fullSpan = fullSpan
    self.readFields = readFields
  }

  /// The keys every kind's sections accept.
  static let itemKeys: Set<String> = [
    "itemCount", "itemSizes", packedSizesKey, "ids", "outline",
  ]
  /// The keys of a section's own fields in this format (none of its items').
  var fieldKeys: Set<String> { keys.subtracting(Self.itemKeys).union(Self.everyKindsKeys) }
  /// The section fields every kind accepts.
  static let everyKindsKeys: Set<String> = ["allowsReordering"]

  /// Reads a section object's fields: every kind's, then the kind's own.
  func read(_ s: Fields, into section: inout Section) throws(RPCError) {
    section.allowsReordering = try s.optionalBool("allowsReordering")
    try readFields(s, &section)
  }

  /// The format of the session's kind. O(kinds).
  init(_ type: LayoutType) { self = LayoutKinds.decoder(for: type).sectionFormat }
}

/// Reads an item's size object: `{width, height}`, and `fullSpan` where
/// the format has it.
func readItemSize(_ f: Fields, format: SectionFormat) throws(RPCError) -> Size {
  guard format.fullSpan else {
    try f.rejectUnknown(["width", "height"])
    return try f.asSize()
  }
  try f.rejectUnknown(["width", "height", "fullSpan"])
  let size = try f.asSize()
  return try f.optionalBool("fullSpan") == true ? size.fullSpan : size
}

/// A bulk request's `{section, item, size: {width, height}}` entry, read
/// without Fields when it is plainly valid: exactly those members, integers
/// >= 0 and a plain size in range. nil sends the entry down the checked
/// path, which names what is wrong (or reads what else it holds). O(1).
@inline(__always)
func plainSizedPath(_ v: JSONValue) -> (IndexPath, Size)? {
  guard v.isObject, v.memberCount == 3, let s = v["section"]?.integer, let i = v["item"]?.integer,
    s >= 0, i >= 0, let size = v["size"], size.isObject, size.memberCount == 2,
    let w = size["width"]?.number, let h = size["height"]?.number,
    w >= 0, h >= 0, w <= maxCoordinate, h <= maxCoordinate
  else { return nil }
  return (IndexPath(section: Int(s), item: Int(i)), Size(width: w, height: h))
}

/// An optional item size object at `key`.
func optionalItemSize(_ f: Fields, _ key: String, format: SectionFormat) throws(RPCError) -> Size? {
  guard f.optional(key) != nil else { return nil }
  return try readItemSize(try f.object(key), format: format)
}

/// Reads one `{width, height}` on the bulk path: no allocation unless the
/// value is invalid, when the slow path builds the error naming the field.
/// O(1).
@inline(__always)
private func readSize(_ v: JSONValue, format: SectionFormat, path: () -> String) throws(RPCError)
  -> Size
{
  if v.isObject, v.memberCount == 2, let w = v["width"]?.number, let h = v["height"]?.number,
    w >= 0, h >= 0, w <= maxCoordinate, h <= maxCoordinate
  {
    return Size(width: w, height: h)
  }
  // null: an item without a size of its own (not measured yet).
  if v.isNull { return Section.unsetSize }
  return try readItemSize(try Fields(v, path: path()), format: format)
}

/// The error for a session whose `count` items exceed its cap.
func limitError(_ path: String, _ cap: ItemCap, count: Int) -> RPCError {
  let limit = count > cap.perSession || count < 0 ? cap.perSession : cap.max
  return RPCError(
    code: ErrorCode.limitExceeded,
    message: "\(path) holds more than \(limit) items, \(cap.reason(for: count))", field: path)
}

/// The error for a request carrying more item values (sizes and ids)
/// than `maxItemValuesPerRequest`.
func valuesLimitError(_ path: String, _ count: Int, _ limits: Limits) -> RPCError {
  RPCError(
    code: ErrorCode.limitExceeded,
    message:
      "\(path) carries \(count) item sizes and ids; one request may carry at most \(limits.maxItemValuesPerRequest), so that it never holds up the frames queued behind it: send the rest with layout/appendItems",
    field: path)
}

/// The sizes and ids a section object carries, counted without reading
/// them. O(1).
func declaredValues(_ s: Fields) -> Int {
  (s.optional("itemSizes")?.count ?? 0) + packedCount(s, packedSizesKey)
    + (s.optional("ids")?.count ?? 0)
    + (s.optional("outline").map { $0.isArray ? outlineNodeCount($0) : 0 } ?? 0)
}

/// The item count a section object declares, read without allocating (an
/// outline's: every node, hidden ones included).
func declaredCount(_ s: Fields) throws(RPCError) -> Int {
  if let outline = s.optional("outline"), outline.isArray {
    return outlineNodeCount(outline)
  }
  if s.optional("itemCount") != nil {
    return try s.integer("itemCount", in: 0...Int.max)
  } else if let sizes = s.optional("itemSizes") {
    guard sizes.isArray else { throw .invalidParams(s.path("itemSizes"), "must be an array") }
    return sizes.count
  } else if s.optional(packedSizesKey) != nil {
    return packedCount(s, packedSizesKey)
  }
  throw .invalidParams(s.path("itemCount"), "is required (or itemSizes, or \(packedSizesKey))")
}

/// An item id: a string or an integer.
func readItemID(_ v: JSONValue, path: String) throws(RPCError) -> ItemID {
  if let i = v.integer { return .int(i) }
  if v.kind == .string, let s = v.string {
    // Refused at the door: an id is quoted in answers and errors, and a
    // long one would take them past every limit.
    guard s.utf8.count <= Limits.maxIdBytes else {
      throw .invalidParams(
        path, "is \(s.utf8.count) bytes long; the limit (maxIdBytes) is \(Limits.maxIdBytes)")
    }
    return .string(s)
  }
  throw .invalidParams(path, "must be a string or an integer")
}

/// Reads one section object (`extra` lists further keys the caller reads);
/// an `outline` in place of its items where `outlines` allows one.
func readSection(
  _ s: Fields, extra: Set<String> = [], format: SectionFormat, outlines: Bool = false
) throws(RPCError) -> Section {
  try s.rejectUnknown(format.keys.union(extra).union(["id"]).union(SectionFormat.everyKindsKeys))
  if s.optional("outline") != nil {
    guard outlines else {
      throw .invalidParams(
        s.path("outline"),
        "is a section of layout/open or layout/reloadData; an inserted section gives its items")
    }
    for other in ["itemCount", "itemSizes", packedSizesKey, "ids"] where s.optional(other) != nil {
      throw .invalidParams(s.path(other), "cannot be given with outline: its nodes are the items")
    }
    let nodes = try readOutline(s, "outline", format: format)
    var section = Section(outline: try makeOutline(nodes, path: s.path("outline")))
    if let id = s.optional("id") { section.id = try readItemID(id, path: s.path("id")) }
    try format.read(s, into: &section)
    return section
  }
  var section: Section
  let given = ["itemCount", "itemSizes", packedSizesKey].filter { s.optional($0) != nil }
  if given.count > 1 {
    throw .invalidParams(s.path(given[1]), "cannot be given with \(given[0])")
  }
  switch given.first {
  case "itemCount": section = .uniform(try s.integer("itemCount", in: 0...Int.max))
  case packedSizesKey: section = .sizes(try readPackedSizes(s, packedSizesKey))
  default: section = .sizes(try readSizeObjects(s, "itemSizes", format: format))
  }
  if s.optional("ids") != nil { section.ids = IDList(try readIDs(s, count: section.count)) }
  if let id = s.optional("id") { section.id = try readItemID(id, path: s.path("id")) }
  try format.read(s, into: &section)
  return section
}

/// Reads a section's own fields (those of `format`, no items), the
/// fields not given left nil: an update of a section, or a snapshot's.
func readSectionFields(_ s: Fields, extra: Set<String>, format: SectionFormat) throws(RPCError)
  -> Section
{
  try s.rejectUnknown(format.fieldKeys.union(extra))
  var section = Section.uniform(0)
  try format.read(s, into: &section)
  return section
}

/// Reads `params.sections`, enforcing the item limit before allocating
/// anything per item. O(sections + sizes).
func readSections(_ f: Fields, limits: Limits, cap: ItemCap, format: SectionFormat)
  throws(RPCError) -> [Section]
{
  let (array, path) = try f.array("sections")
  guard array.count <= limits.maxSections else {
    throw RPCError(
      code: ErrorCode.limitExceeded,
      message:
        "\(path) has \(array.count) sections; the limit is \(limits.maxSections)", field: path)
  }
  // First pass: counts only, so that an over-limit request costs nothing.
  var total = 0
  var values = 0
  for i in 0..<array.count {
    let section = try Fields(array[i], element: i, of: path)
    let n = try declaredCount(section)
    total = total.addingReportingOverflow(n).partialValue
    if total > cap.max || total < 0 { throw limitError(path, cap, count: total) }
    values += declaredValues(section)
  }
  if values > limits.maxItemValuesPerRequest { throw valuesLimitError(path, values, limits) }
  var sections: [Section] = []
  sections.reserveCapacity(array.count)
  for i in 0..<array.count {
    var section = try readSection(
      try Fields(array[i], element: i, of: path), format: format, outlines: true)
    // Sections sent with copies of one layout hold one (resolved once).
    if let last = sections.last { section.shareFields(with: last) }
    sections.append(section)
  }
  return sections
}

private func readPath(_ f: Fields) throws(RPCError) -> IndexPath {
  IndexPath(
    section: try f.integer("section", in: 0...Int.max), item: try f.integer("item", in: 0...Int.max)
  )
}

/// Calls `body` with each element of the optional array `key` as Fields;
/// with `plain`, an element that `plainSizedPath` reads goes to it instead.
private func forEachObject(
  _ f: Fields, _ key: String, plain: ((IndexPath, Size) -> Void)? = nil,
  _ body: (Fields) throws(RPCError) -> Void
) throws(RPCError) {
  guard f.optional(key) != nil else { return }
  let (array, path) = try f.array(key)
  for i in 0..<array.count {
    if let plain, let (at, size) = plainSizedPath(array[i]) {
      plain(at, size)
      continue
    }
    try body(try Fields(array[i], element: i, of: path))
  }
}

private func forEachInt(_ f: Fields, _ key: String, _ body: (Int) -> Void) throws(RPCError) {
  guard f.optional(key) != nil else { return }
  let (array, path) = try f.array(key)
  for i in 0..<array.count {
    body(try Fields.integer(array[i], path: "\(path)[\(i)]", in: 0...Int.max))
  }
}

/// Reads `params.updates` of performBatchUpdates. Range checks against the
/// session are the engine's (error 1003); this checks shapes and types.
/// The item sizes and ids a batch carries, counted without reading them:
/// each inserted or reloaded item once (its size, or the slot of one), an
/// inserted item once more for an id, and an inserted section's sizes and
/// ids. O(items inserted + sections inserted).
func declaredValues(ofBatch f: Fields) -> Int {
  var values =
    (f.optional("reloadItems")?.count ?? 0) + (f.optional("reconfigureItems")?.count ?? 0)
  if let inserts = f.optional("insertItems") {
    values += inserts.count
    for i in 0..<inserts.count where inserts[i]["id"].map({ !$0.isNull }) == true { values += 1 }
  }
  if let sections = f.optional("insertSections") {
    for i in 0..<sections.count where sections[i].isObject {
      if let section = try? Fields(sections[i], path: "") { values += declaredValues(section) }
    }
  }
  return values
}

/// Reads `[{width, height}]` at `key`. O(count).
func readSizeObjects(_ f: Fields, _ key: String, format: SectionFormat) throws(RPCError)
  -> [Size]
{
  let (array, path) = try f.array(key)
  var list: [Size] = []
  list.reserveCapacity(array.count)
  for k in 0..<array.count {
    list.append(try readSize(array[k], format: format, path: { "\(path)[\(k)]" }))
  }
  return list
}

/// Reads `ids`, which must hold one id per item (`count`). O(count).
func readIDs(_ f: Fields, count: Int) throws(RPCError) -> [ItemID?] {
  let (array, path) = try f.array("ids")
  guard array.count == count else {
    throw .invalidParams(path, "must have one id per item (\(count))")
  }
  var list: [ItemID?] = []
  list.reserveCapacity(count)
  for k in 0..<count { list.append(try readItemID(array[k], path: "\(path)[\(k)]")) }
  return list
}

/// The packed encoding of item sizes: base64 (RFC 4648, padded) of
/// little-endian float64 (width, height) pairs, 16 bytes per item.
let packedSizesKey = "widthsAndHeightsBase64"

/// The items a packed size string at `key` holds, from its length alone
/// (0 when absent or not a string). O(1).
func packedCount(_ f: Fields, _ key: String) -> Int {
  f.optional(key)?.withStringBytes { Base64.decodedCount($0) / 16 } ?? 0
}

/// Reads packed sizes (`widthsAndHeightsBase64`), decoded straight into
/// the sizes' storage: no JSON array, no copy of the string. Malformed
/// base64, a length that is not a whole number of items, and values that
/// are not finite, negative or beyond 1e15 are -32602 naming the field.
/// O(count).
func readPackedSizes(_ f: Fields, _ key: String) throws(RPCError) -> [Size] {
  let path = f.path(key)
  let format = "base64 (RFC 4648, padded) of little-endian float64 (width, height) pairs"
  guard let value = f.optional(key),
    let result = value.withStringBytes({ text -> Result<[Size], RPCError> in
      guard text.count % 4 == 0 else {
        return .failure(
          .invalidParams(path, "must be \(format): its length \(text.count) is not a multiple of 4")
        )
      }
      let bytes = Base64.decodedCount(text)
      guard bytes % 16 == 0 else {
        return .failure(
          .invalidParams(
            path, "must decode to a whole number of items (16 bytes each), not \(bytes) bytes"))
      }
      var failure: RPCError? = nil
      let sizes = [Size](unsafeUninitializedCapacity: bytes / 16) { buffer, count in
        let raw = UnsafeMutableRawBufferPointer(buffer)
        do throws(Base64.Failure) {
          try Base64.decode(text, into: raw)
        } catch {
          switch error {
          case .length(let n):
            failure = .invalidParams(
              path, "must be \(format): its length \(n) is not a multiple of 4")
          case .character(let at):
            failure = .invalidParams(path, "must be \(format): byte \(at) is not base64")
          case .padding:
            failure = .invalidParams(path, "must be \(format): its last bits are not zero")
          }
          count = 0
          return
        }
        // In place: each pair read as little-endian and checked.
        let words = raw.bindMemory(to: UInt64.self)
        for i in 0..<(bytes / 16) {
          let w = Double(bitPattern: UInt64(littleEndian: words[2 * i]))
          let h = Double(bitPattern: UInt64(littleEndian: words[2 * i + 1]))
          guard w.isFinite, h.isFinite, w >= 0, h >= 0, w <= maxCoordinate, h <= maxCoordinate
          else {
            let which = !(w.isFinite && w >= 0 && w <= maxCoordinate) ? "width" : "height"
            failure = .invalidParams(
              path, "item \(i)'s \(which) must be a finite number >= 0 and at most 1e15")
            count = 0
            return
          }
          buffer[i] = Size(width: w, height: h)
        }
        count = bytes / 16
      }
      if let failure { return .failure(failure) }
      return .success(sizes)
    })
  else {
    throw .invalidParams(path, "must be a string: \(format)")
  }
  return try result.get()
}

/// Reads `count` items' sizes for layout/appendItems from `itemSizes`
/// ([{width, height}]) or `widthsAndHeights` ([w0, h0, w1, h1, …], the
/// leaner encoding: two numbers per item, no keys). O(count).
func readAppendedSizes(_ f: Fields, key: String, format: SectionFormat) throws(RPCError)
  -> [Size]
{
  if key == "itemSizes" { return try readSizeObjects(f, key, format: format) }
  if key == packedSizesKey { return try readPackedSizes(f, key) }
  let (array, path) = try f.array(key)
  var list: [Size] = []
  guard array.count % 2 == 0 else {
    throw .invalidParams(path, "must hold a width and a height per item (an even count)")
  }
  list.reserveCapacity(array.count / 2)
  for k in stride(from: 0, to: array.count, by: 2) {
    let w = array[k].number
    let h = array[k + 1].number
    guard let w, let h, w >= 0, h >= 0, w <= maxCoordinate, h <= maxCoordinate else {
      // The slow path: the one that fails names itself.
      for j in k...(k + 1) {
        _ = try Fields.number(array[j], path: "\(path)[\(j)]", min: 0, maxMagnitude: maxCoordinate)
      }
      throw .invalidParams(path, "must hold finite numbers >= 0")
    }
    list.append(Size(width: w, height: h))
  }
  return list
}

func readBatchUpdate(_ f: Fields, format: SectionFormat) throws(RPCError) -> BatchUpdate {
  try f.rejectUnknown([
    "deleteSections", "insertSections", "moveSections", "deleteItems", "insertItems", "moveItems",
    "reloadItems", "reconfigureItems", "updateSections", "itemCounts",
  ])
  var u = BatchUpdate()
  try forEachInt(f, "deleteSections") { u.deleteSections.append($0) }
  try forEachObject(f, "insertSections") { (s) throws(RPCError) in
    let index = try s.integer("index", in: 0...Int.max)
    u.insertSections.append((index, try readSection(s, extra: ["index"], format: format)))
  }
  try forEachObject(f, "moveSections") { (m) throws(RPCError) in
    try m.rejectUnknown(["from", "to"])
    u.moveSections.append(
      (try m.integer("from", in: 0...Int.max), try m.integer("to", in: 0...Int.max)))
  }
  try forEachObject(f, "deleteItems") { (p) throws(RPCError) in
    try p.rejectUnknown(["section", "item"])
    u.deleteItems.append(try readPath(p))
  }
  if let inserts = f.optional("insertItems") { u.insertItems.reserveCapacity(inserts.count) }
  try forEachObject(f, "insertItems", plain: { u.insertItems.append(($0, Item(size: $1))) }) {
    (p) throws(RPCError) in
    try p.rejectUnknown(["section", "item", "size", "id"])
    var item = Item(size: try optionalItemSize(p, "size", format: format))
    if let id = p.optional("id") { item.id = try readItemID(id, path: p.path("id")) }
    u.insertItems.append((try readPath(p), item))
  }
  try forEachObject(f, "moveItems") { (m) throws(RPCError) in
    try m.rejectUnknown(["from", "to", "size"])
    let from = try m.object("from")
    let to = try m.object("to")
    try from.rejectUnknown(["section", "item"])
    try to.rejectUnknown(["section", "item"])
    u.moveItems.append(
      (try readPath(from), try readPath(to), try optionalItemSize(m, "size", format: format)))
  }
  try forEachObject(f, "reloadItems", plain: { u.reloadItems.append(($0, $1)) }) {
    (p) throws(RPCError) in
    try p.rejectUnknown(["section", "item", "size"])
    u.reloadItems.append((try readPath(p), try optionalItemSize(p, "size", format: format)))
  }
  try forEachObject(f, "reconfigureItems", plain: { u.reconfigureItems.append(($0, $1)) }) {
    (p) throws(RPCError) in
    try p.rejectUnknown(["section", "item", "size"])
    u.reconfigureItems.append((try readPath(p), try optionalItemSize(p, "size", format: format)))
  }
  try forEachObject(f, "updateSections") { (s) throws(RPCError) in
    let index = try s.integer("index", in: 0...Int.max)
    u.updateSections.append((index, try readSectionFields(s, extra: ["index"], format: format)))
  }
  if f.optional("itemCounts") != nil {
    var counts: [Int] = []
    try forEachInt(f, "itemCounts") { counts.append($0) }
    u.itemCounts = counts
  }
  return u
}
