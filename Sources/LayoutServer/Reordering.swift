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
    let slot = try existingSlot(p)
    let old = sessions.values[slot]
    let path = try indexPath(p, old)
    let lap = p.optional("lap") == nil ? nil : try p.integer("lap", in: -(1 << 40)...(1 << 40))
    if lap != nil, !old.layout.loops {
      throw .invalidParams(p.path("lap"), "is only accepted when the layout loops")
    }
    let began = try modify(slot) { $0.beginInteractiveMovement(at: path, lap: lap) }
    w.beginObject()
    w.key("began")
    w.bool(began)
    w.endObject()
  }

  /// layout/updateInteractiveMovement {session, position} → the mutation
  /// fields plus {target, autoscroll}. O(log n + k), plus one move's
  /// relayout when the target changes.
  func updateInteractiveMovement(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let position = try p.point("position")
    try commit(
      slot, .updateInteractiveMovement(position), source: .change(p.path("position")), p, &w
    ) { w, _, delta in
      w.key("target")
      w.indexPath(delta.movementTarget!)
      w.key("autoscroll")
      w.point(delta.autoscroll!)
    }
  }

  /// layout/endInteractiveMovement {session} → what performBatchUpdates
  /// with the one move from the origin to the target answers, with
  /// `updates`. The bounds stay: the picture already showed the new order,
  /// and only the moving item settles (listed in `moved`). O(one move).
  func endInteractiveMovement(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    try commit(slot, .endInteractiveMovement, source: .change(p.path("session")), p, &w) {
      w, session, delta in
      w.animations(delta.animations, in: session)
      w.key("updates")
      w.batchUpdate(delta.batch!, sections: [], fieldKeys: [])
    }
  }

  /// layout/cancelInteractiveMovement {session} → the mutation fields: the
  /// delta back to the picture before the movement. O(log n + k).
  func cancelInteractiveMovement(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    try commit(slot, .cancelInteractiveMovement, source: .change(p.path("session")), p, &w)
  }
}
