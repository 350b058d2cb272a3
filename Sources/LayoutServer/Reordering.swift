import JSONRPC
import LayoutEngine

// Drag to reorder (UICollectionView's interactive movement), the same on
// every kind: the engine's InteractiveMovement holds the preview; these
// handlers start it, move it, and end it through the one batch path.

/// The `layout` object's fields that every kind accepts.
let everyKindsLayoutKeys: Set<String> = [
  "reorderTargeting", "reorderHysteresis", "allowsCrossSectionReordering", "autoscrollEdge",
  "autoscrollMaxSpeed",
]

/// Reads the reordering fields of a `layout` object over `base`.
func readReorderOptions(_ f: Fields, base: ReorderOptions) throws(RPCError) -> ReorderOptions {
  var o = base
  if let t = try f.optionalChoice(
    "reorderTargeting", ReorderOptions.Targeting.allCases.map(\.rawValue))
  {
    o.targeting = ReorderOptions.Targeting(rawValue: t)!
  }
  if let v = try f.optionalNumber("reorderHysteresis", min: 0, maxMagnitude: maxCoordinate) {
    o.hysteresis = v
  }
  if let v = try f.optionalBool("allowsCrossSectionReordering") { o.allowsCrossSection = v }
  if let v = try f.optionalNumber("autoscrollEdge", min: 0, maxMagnitude: maxCoordinate) {
    o.autoscrollEdge = v
  }
  if let v = try f.optionalNumber("autoscrollMaxSpeed", min: 0, maxMagnitude: maxCoordinate) {
    o.autoscrollMaxSpeed = v
  }
  return o
}

extension LayoutServer {
  /// layout/beginInteractiveMovement {session, section, item | id, lap?}
  /// → {began}. False when another movement is in progress or the item's
  /// section has `allowsReordering: false`. O(log n).
  func beginInteractiveMovement(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
    let path = try indexPath(p, old)
    let lap = p.optional("lap") == nil ? nil : try p.integer("lap", in: -(1 << 40)...(1 << 40))
    if lap != nil, !old.layout.loops {
      throw .invalidParams(p.path("lap"), "is only accepted when the layout loops")
    }
    var began = false
    if old.movement == nil, old.layout.sections[path.section].allowsReordering != false,
      let m = InteractiveMovement(old.layout, origin: path, lap: lap, bounds: old.bounds)
    {
      var session = old
      session.movement = m
      store(id, session)
      began = true
    }
    w.beginObject()
    w.key("began")
    w.bool(began)
    w.endObject()
  }

  /// layout/updateInteractiveMovement {session, position} → the mutation
  /// fields plus {target, autoscroll}. O(log n + k), plus one move's
  /// relayout when the target changes.
  func updateInteractiveMovement(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
    let position = try p.point("position")
    var m = try movement(p, old)
    m.update(position: position, bounds: old.bounds, data: old.layout, options: old.reordering)
    var session = old
    session.movement = m
    try commit(
      id, &session, source: .change(p.path("position")), &w, idsKept: true, keepsMovement: true
    ) { _ in
    } answer: { w, session in
      w.key("target")
      w.indexPath(m.target)
      w.key("autoscroll")
      w.point(
        m.autoscroll(bounds: session.bounds, data: session.layout, options: session.reordering))
    }
  }

  /// layout/endInteractiveMovement {session} → what performBatchUpdates
  /// with the one move from the origin to the target answers, with
  /// `updates`. The bounds stay: the picture already showed the new order,
  /// and only the moving item settles (listed in `moved`). O(one move).
  func endInteractiveMovement(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, current) = try existing(p)
    let m = try movement(p, current)
    var old = current
    old.movement = nil
    var update = BatchUpdate()
    if m.target != m.origin { update.moveItems = [(m.origin, m.target, nil)] }
    try commitBatch(id, old, update, field: p.path("session"), &w, keepsBounds: true) { w, _ in
      w.key("updates")
      w.batchUpdate(update, sections: [], fieldKeys: [])
    }
  }

  /// layout/cancelInteractiveMovement {session} → the mutation fields: the
  /// delta back to the picture before the movement. O(log n + k).
  func cancelInteractiveMovement(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let (id, old) = try existing(p)
    _ = try movement(p, old)
    var session = old
    session.movement = nil
    try commit(id, &session, source: .change(p.path("session")), &w, idsKept: true)
  }

  /// The session's movement in progress, or -32602 naming the session.
  private func movement(_ p: Fields, _ session: Session) throws(RPCError) -> InteractiveMovement {
    guard let m = session.movement else {
      throw .invalidParams(
        p.path("session"),
        "has no interactive movement in progress (layout/beginInteractiveMovement starts one)")
    }
    return m
  }
}
