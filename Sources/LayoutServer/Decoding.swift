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
    return Point(x: try f.coordinate("x"), y: try f.coordinate("y"))
  }

  func optionalPoint(_ key: String) throws(RPCError) -> Point? {
    guard optional(key) != nil else { return nil }
    return try point(key)
  }

  func size(_ key: String) throws(RPCError) -> Size {
    try object(key).asSize()
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
    return Rect(
      x: try f.coordinate("x"), y: try f.coordinate("y"), width: try f.coordinate("width", min: 0),
      height: try f.coordinate("height", min: 0))
  }

  func optionalInsets(_ key: String) throws(RPCError) -> Insets? {
    guard let f = try optionalObject(key) else { return nil }
    return Insets(
      top: try f.coordinate("top"), left: try f.coordinate("left"),
      bottom: try f.coordinate("bottom"), right: try f.coordinate("right"))
  }

  func optionalSpacing(_ key: String) throws(RPCError) -> Double? {
    try optionalNumber(key, min: 0, maxMagnitude: maxCoordinate)
  }
}

/// The fields every flow-based layout type accepts.
private let flowKeys: Set<String> = [
  "type", "scrollDirection", "itemSize", "minimumLineSpacing", "minimumInteritemSpacing",
  "sectionInset", "headerReferenceSize", "footerReferenceSize",
  "sectionHeadersPinToVisibleBounds", "sectionFootersPinToVisibleBounds", "layoutDirection",
]

private let coverFlowKeys = flowKeys.union([
  "scale", "alpha", "distanceUnit", "rotation", "sideShift", "spacingMode", "overlap", "ends",
  "snap",
])

/// Reads the flow fields into `c`, leaving unset fields at their defaults.
private func readFlowFields(_ f: Fields, into c: inout FlowConfiguration) throws(RPCError) {
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
  if let d = try f.optionalChoice("layoutDirection", LayoutDirection.allCases.map(\.rawValue)) {
    c.layoutDirection = LayoutDirection(rawValue: d)!
  }
}

private func readCurve(_ f: Fields, default d: Curve) throws(RPCError) -> Curve {
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

/// Reads `rotation: {maxAngle, perspective}`.
private func readTilt(_ f: Fields) throws(RPCError) -> Tilt {
  try f.rejectUnknown(["maxAngle", "perspective"])
  var t = Tilt()
  if let v = try f.optionalNumber("maxAngle", min: 0, maxMagnitude: 90) { t.maxAngle = v }
  if let v = try f.optionalNumber("perspective", min: 0, maxMagnitude: maxCoordinate) {
    guard v > 0 else { throw .invalidParams(f.path("perspective"), "must be > 0") }
    t.perspective = v
  }
  return t
}

/// Reads `sideShift: {factor, maximum?}`.
private func readSideShift(_ f: Fields) throws(RPCError) -> SideShift {
  try f.rejectUnknown(["factor", "maximum"])
  return SideShift(
    factor: try f.optionalNumber("factor", maxMagnitude: maxCoordinate) ?? 0,
    maximum: try f.optionalNumber("maximum", min: 0, maxMagnitude: maxCoordinate))
}

/// The largest deceleration rate accepted: slower decay makes the
/// trajectory of a long fling too long to send.
let maxDecelerationRate = 0.999

/// Reads `snap: {policy, decelerationRate, bias, velocityThreshold, maxItems, edges}`.
private func readSnap(_ f: Fields) throws(RPCError) -> SnapConfiguration {
  try f.rejectUnknown([
    "policy", "decelerationRate", "bias", "velocityThreshold", "maxItems", "edges",
  ])
  var s = SnapConfiguration()
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

/// Reads `params.layout`.
func readLayoutType(_ f: Fields) throws(RPCError) -> LayoutType {
  let type = try f.string("type")
  switch type {
  case "flow":
    try f.rejectUnknown(flowKeys)
    var c = FlowConfiguration()
    try readFlowFields(f, into: &c)
    return .flow(c)
  case "coverFlow":
    try f.rejectUnknown(coverFlowKeys)
    var c = CoverFlowConfiguration()
    try readFlowFields(f, into: &c.flow)
    c.sectionInset = try f.optionalInsets("sectionInset")
    if let s = try f.optionalObject("scale") { c.scale = try readCurve(s, default: c.scale) }
    if let a = try f.optionalObject("alpha") { c.alpha = try readCurve(a, default: c.alpha) }
    if let u = try f.optionalChoice("distanceUnit", DistanceUnit.allCases.map(\.rawValue)) {
      c.distanceUnit = DistanceUnit(rawValue: u)!
    }
    if let t = try f.optionalObject("rotation") { c.tilt = try readTilt(t) }
    if let t = try f.optionalObject("sideShift") { c.sideShift = try readSideShift(t) }
    let mode = try f.optionalChoice("spacingMode", SpacingMode.names) ?? "flow"
    let overlap = try f.optionalObject("overlap")
    switch mode {
    case "fixed": c.spacing = .fixed
    case "overlap":
      var visible = 40.0
      if let o = overlap {
        try o.rejectUnknown(["visibleOffset"])
        if let v = try o.optionalNumber("visibleOffset", min: 0, maxMagnitude: maxCoordinate) {
          guard v > 0 else { throw .invalidParams(o.path("visibleOffset"), "must be > 0") }
          visible = v
        }
      }
      c.spacing = .overlap(visibleOffset: visible)
    default: c.spacing = .flow
    }
    if overlap != nil && mode != "overlap" {
      throw .invalidParams(f.path("overlap"), "requires spacingMode \"overlap\"")
    }
    if let e = try f.optionalChoice("ends", Ends.allCases.map(\.rawValue)) {
      c.ends = Ends(rawValue: e)!
    }
    if let s = try f.optionalObject("snap") { c.snap = try readSnap(s) }
    return .coverFlow(c)
  default:
    throw .invalidParams(f.path("type"), "must be one of \"flow\", \"coverFlow\"")
  }
}

private let sectionKeys: Set<String> = [
  "itemCount", "itemSizes", "inset", "minimumLineSpacing", "minimumInteritemSpacing",
  "headerSize", "footerSize",
]

/// Reads one `{width, height}` on the bulk path: no allocation unless the
/// value is invalid, when the slow path builds the error naming the field.
/// O(1).
@inline(__always)
private func readSize(_ v: JSONValue, path: () -> String) throws(RPCError) -> Size {
  if v.isObject, v.memberCount == 2, let w = v["width"]?.number, let h = v["height"]?.number,
    w >= 0, h >= 0, w <= maxCoordinate, h <= maxCoordinate
  {
    return Size(width: w, height: h)
  }
  let f = try Fields(v, path: path())
  try f.rejectUnknown(["width", "height"])
  return try f.asSize()
}

/// Reads `params.sections`, enforcing the item limit before allocating
/// anything per item. O(sections + sizes).
func readSections(_ f: Fields, limits: Limits) throws(RPCError) -> [Section] {
  let (array, path) = try f.array("sections")
  guard array.count <= limits.maxSections else {
    throw RPCError(
      code: ErrorCode.limitExceeded,
      message:
        "\(path) has \(array.count) sections; the limit is \(limits.maxSections)", field: path)
  }
  // First pass: counts only, so that an over-limit request costs nothing.
  var total = 0
  for i in 0..<array.count {
    let s = try Fields(array[i], path: "\(path)[\(i)]")
    let n: Int
    if s.optional("itemCount") != nil {
      n = try s.integer("itemCount", in: 0...Int.max)
    } else if let sizes = s.optional("itemSizes") {
      guard sizes.isArray else { throw .invalidParams(s.path("itemSizes"), "must be an array") }
      n = sizes.count
    } else {
      throw .invalidParams(s.path("itemCount"), "is required (or itemSizes)")
    }
    total = total.addingReportingOverflow(n).partialValue
    if total > limits.maxItemsPerSession || total < 0 {
      throw RPCError(
        code: ErrorCode.limitExceeded,
        message:
          "\(path) holds more than \(limits.maxItemsPerSession) items, the per-session limit",
        field: path)
    }
  }
  var sections: [Section] = []
  sections.reserveCapacity(array.count)
  for i in 0..<array.count {
    let s = try Fields(array[i], path: "\(path)[\(i)]")
    try s.rejectUnknown(sectionKeys)
    var section: Section
    if s.optional("itemCount") != nil {
      guard s.optional("itemSizes") == nil else {
        throw .invalidParams(s.path("itemSizes"), "cannot be given with itemCount")
      }
      section = .uniform(try s.integer("itemCount", in: 0...Int.max))
    } else {
      let (sizes, sizesPath) = try s.array("itemSizes")
      var list: [Size] = []
      list.reserveCapacity(sizes.count)
      for k in 0..<sizes.count {
        list.append(try readSize(sizes[k], path: { "\(sizesPath)[\(k)]" }))
      }
      section = .sizes(list)
    }
    section.inset = try s.optionalInsets("inset")
    section.minimumLineSpacing = try s.optionalSpacing("minimumLineSpacing")
    section.minimumInteritemSpacing = try s.optionalSpacing("minimumInteritemSpacing")
    section.headerSize = try s.optionalSize("headerSize")
    section.footerSize = try s.optionalSize("footerSize")
    sections.append(section)
  }
  return sections
}
