import JSONRPC
import LayoutEngine

// `carousel`: iCarousel's types and options.

struct CarouselDecoder: KindDecoder {
  let name = "carousel"

  func read(_ f: Fields, base: LayoutType?) throws(RPCError) -> LayoutType {
    try f.rejectUnknown(carouselKeys)
    var c = CarouselConfiguration()
    if case .carousel(let b)? = base { c = b }
    try readCarouselFields(f, into: &c)
    return .carousel(c)
  }

  /// A carousel's sections carry items only.
  var sectionFormat: SectionFormat { SectionFormat(keys: SectionFormat.itemKeys) }

  var capabilities: [(key: String, value: Capability)] {
    [("carouselStyles", .names(CarouselStyle.allCases.map(\.rawValue)))]
  }
}

private let carouselKeys: Set<String> = Set([
  "type", "style", "itemSize", "scrollDirection", "perspective", "viewpointOffset", "spacing",
  "tilt", "arc", "radius", "count", "fade", "showBackfaces", "wrap", "visibleItems",
  "offsetMultiplier", "snap",
]).union(everyKindsLayoutKeys)

/// The most items a carousel examines per query (`visibleItems`): each
/// frame transforms every one of them.
let maxCarouselVisibleItems = 1000
/// The most places on a circular carousel's circle (`count`).
let maxCarouselCount = 1_000_000

/// Reads the carousel fields into `c`, leaving unset fields as they are.
private func readCarouselFields(_ f: Fields, into c: inout CarouselConfiguration)
  throws(RPCError)
{
  if let v = try f.optionalChoice("style", CarouselStyle.allCases.map(\.rawValue)) {
    c.style = CarouselStyle(rawValue: v)!
  }
  if let v = try f.optionalSize("itemSize") { c.itemSize = v }
  if let d = try f.optionalChoice("scrollDirection", ScrollDirection.allCases.map(\.rawValue)) {
    c.scrollDirection = ScrollDirection(rawValue: d)!
  }
  if let v = try f.optionalNumber("perspective", min: 0, maxMagnitude: maxCoordinate) {
    guard v > 0 else { throw .invalidParams(f.path("perspective"), "must be > 0") }
    c.perspective = v
  }
  if let o = try f.optionalObject("viewpointOffset") {
    c.viewpointOffset = Size(width: try o.coordinate("width"), height: try o.coordinate("height"))
  }
  if let v = try f.optionalNumber("spacing", maxMagnitude: maxCurveParameter) { c.spacing = v }
  if let v = try f.optionalNumber("tilt", maxMagnitude: maxCurveParameter) { c.tilt = v }
  if let v = try f.optionalNumber("arc", maxMagnitude: maxCurveParameter) {
    guard v != 0 else { throw .invalidParams(f.path("arc"), "must not be 0") }
    c.arc = v
  }
  if let v = try f.optionalNumber("radius", maxMagnitude: maxCoordinate) { c.radius = v }
  if f.optional("count") != nil { c.count = try f.integer("count", in: 1...maxCarouselCount) }
  if let o = try f.optionalObject("fade") {
    try o.rejectUnknown(["min", "max", "range", "minAlpha"])
    if let v = try o.optionalNumber("min", maxMagnitude: maxCoordinate) { c.fade.min = v }
    if let v = try o.optionalNumber("max", maxMagnitude: maxCoordinate) { c.fade.max = v }
    if let v = try o.optionalNumber("range", min: 0, maxMagnitude: maxCoordinate) {
      guard v > 0 else { throw .invalidParams(o.path("range"), "must be > 0") }
      c.fade.range = v
    }
    if let v = try o.optionalNumber("minAlpha", min: 0, maxMagnitude: 1) { c.fade.minAlpha = v }
  }
  if let v = try f.optionalBool("showBackfaces") { c.showBackfaces = v }
  if let v = try f.optionalBool("wrap") { c.wrap = v }
  if f.optional("visibleItems") != nil {
    c.visibleItems = try f.integer("visibleItems", in: 1...maxCarouselVisibleItems)
  }
  if let v = try f.optionalNumber("offsetMultiplier", min: 0, maxMagnitude: maxCurveParameter) {
    guard v > 0 else { throw .invalidParams(f.path("offsetMultiplier"), "must be > 0") }
    c.offsetMultiplier = v
  }
  if let s = try f.optionalObject("snap") { c.snap = try readSnap(s, base: c.snap) }
}
