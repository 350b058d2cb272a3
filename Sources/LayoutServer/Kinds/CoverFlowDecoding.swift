import JSONRPC
import LayoutEngine

// `coverFlow`: the seeds' cover flows (flow lines of one card, the
// cover-flow effect, card snapping, an optional loop).

struct CoverFlowDecoder: KindDecoder {
  let name = "coverFlow"

  func read(_ f: Fields, base: LayoutType?) throws(RPCError) -> LayoutType {
    try f.rejectUnknown(coverFlowKeys)
    var c = CoverFlowConfiguration()
    if case .coverFlow(let b)? = base { c = b }
    try readFlowFields(f, into: &c.flow)
    if f.optional("sectionInset") != nil { c.sectionInset = try f.optionalInsets("sectionInset") }
    if let s = try f.optionalObject("scale") { c.scale = try readCurve(s, default: c.scale) }
    if let a = try f.optionalObject("alpha") { c.alpha = try readCurve(a, default: c.alpha) }
    if let u = try f.optionalChoice("distanceUnit", DistanceUnit.allCases.map(\.rawValue)) {
      c.distanceUnit = DistanceUnit(rawValue: u)!
    }
    if let t = try f.optionalObject("rotation") { c.tilt = try readTilt(t, base: c.tilt) }
    if let t = try f.optionalObject("sideShift") {
      c.sideShift = try readSideShift(t, base: c.sideShift)
    }
    // Absent fields keep the current (or default) value, so configure can
    // change one of them.
    if let mode = try f.optionalChoice("spacingMode", SpacingMode.names) {
      switch mode {
      case "fixed": c.spacing = .fixed
      case "overlap": c.spacing = .overlap(visibleOffset: 40)
      default: c.spacing = .flow
      }
    }
    if let o = try f.optionalObject("overlap") {
      guard case .overlap = c.spacing else {
        throw .invalidParams(f.path("overlap"), "requires spacingMode \"overlap\"")
      }
      try o.rejectUnknown(["visibleOffset"])
      if let v = try o.optionalNumber("visibleOffset", min: 0, maxMagnitude: maxCoordinate) {
        guard v > 0 else { throw .invalidParams(o.path("visibleOffset"), "must be > 0") }
        c.spacing = .overlap(visibleOffset: v)
      }
    }
    if let e = try f.optionalChoice("ends", Ends.allCases.map(\.rawValue)) {
      c.ends = Ends(rawValue: e)!
    }
    if let s = try f.optionalObject("snap") { c.snap = try readSnap(s, base: c.snap) }
    if let v = try f.optionalBool("loop") { c.loop = v }
    return .coverFlow(c)
  }

  var sectionFormat: SectionFormat { .flowLines }

  var capabilities: [(key: String, value: Capability)] {
    [
      ("scaleCurves", .names(Curve.Shape.allCases.map(\.rawValue))),
      ("distanceUnits", .names(DistanceUnit.allCases.map(\.rawValue))),
      ("spacingModes", .names(SpacingMode.names)),
      ("ends", .names(Ends.allCases.map(\.rawValue))),
      ("carouselEffects", .names(["scale", "alpha", "rotation", "sideShift"])),
      ("loop", .flag(true)),
    ]
  }

  /// A tilt is blamed on its perspective when the layout itself changed,
  /// else on the change that made a card reach the eye; a loop's period on
  /// `loop` when opened, on the layout or the change otherwise.
  func error(for problem: LayoutProblem, source: ChangeSource) -> RPCError {
    switch (problem, source) {
    case (.tiltReachesEye, .open), (.tiltReachesEye, .configure):
      return .invalidParams(
        "params.layout.rotation.perspective",
        "must exceed half the largest card extent times the largest scale times sin(maxAngle)")
    case (.tiltReachesEye, .change(let field)):
      return .invalidParams(
        field, "makes a tilted card reach the eye (see params.layout.rotation.perspective)")
    case (.loop(.unboundedScale), _):
      return .invalidParams(
        "params.layout.scale",
        "must stay bounded when loop is on: a linear curve needs a minimum (a maximum for a "
          + "negative factor), a reciprocal one with a negative factor both")
    case (.loop(.period(let P)), _):
      return .invalidParams(
        loopField(source),
        "leaves the loop a period of \(P == P.rounded() && abs(P) < 1e15 ? "\(Int(P))" : "\(P)") "
          + "points (one copy's extent along the scroll axis); "
          + "it must be at least 1")
    case (.loop(.overlappingCopies), _):
      return .invalidParams(
        loopField(source),
        "makes a copy's last card come after the next copy's first (negative insets)")
    default:
      return .invalidParams(source.viewportField, "makes the \(name) layout impossible to draw")
    }
  }

  private func loopField(_ source: ChangeSource) -> String {
    if case .open = source { return "params.layout.loop" }
    return source.viewportField
  }
}

private let coverFlowKeys = flowKeys.union([
  "scale", "alpha", "distanceUnit", "rotation", "sideShift", "spacingMode", "overlap", "ends",
  "snap", "loop",
])

/// Reads `rotation: {maxAngle, perspective}`.
private func readTilt(_ f: Fields, base: Tilt?) throws(RPCError) -> Tilt {
  try f.rejectUnknown(["maxAngle", "perspective"])
  var t = base ?? Tilt()
  if let v = try f.optionalNumber("maxAngle", min: 0, maxMagnitude: 90) { t.maxAngle = v }
  if let v = try f.optionalNumber("perspective", min: 0, maxMagnitude: maxCoordinate) {
    guard v > 0 else { throw .invalidParams(f.path("perspective"), "must be > 0") }
    t.perspective = v
  }
  return t
}

/// Reads `sideShift: {factor, maximum?}`.
private func readSideShift(_ f: Fields, base: SideShift?) throws(RPCError) -> SideShift {
  try f.rejectUnknown(["factor", "maximum"])
  return SideShift(
    factor: try f.optionalNumber("factor", maxMagnitude: maxCoordinate) ?? base?.factor ?? 0,
    maximum: try f.optionalNumber("maximum", min: 0, maxMagnitude: maxCoordinate) ?? base?.maximum)
}
