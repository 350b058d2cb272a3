import JSONRPC
import LayoutEngine

// Swipe actions (UISwipeActionsConfiguration), the same on every type: the
// engine's LiveLayout holds the swipe; these read the requests and write
// the buttons' frames and where a release leaves the row.

extension LayoutServer {
  /// layout/beginSwipe {session, section+item | id, edge, actions,
  /// performsFirstActionWithFullSwipe?} → {began, closedSwipe?}. O(log n +
  /// actions).
  func beginSwipe(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let path = try indexPath(p, sessions.values[slot])
    let edge = try p.optionalChoice("edge", SwipeEdge.allCases.map(\.rawValue))
    guard let edge else { throw .invalidParams(p.path("edge"), "is required") }
    let (array, arrayPath) = try p.array("actions")
    guard array.count >= 1 else { throw .invalidParams(arrayPath, "must hold at least one action") }
    guard array.count <= maxSwipeActions else {
      throw .invalidParams(arrayPath, "must hold at most \(maxSwipeActions) actions")
    }
    var actions: [SwipeAction] = []
    for i in 0..<array.count {
      let a = try Fields(array[i], element: i, of: arrayPath)
      try a.rejectUnknown(["width", "style"])
      let style = try a.optionalChoice("style", SwipeActionStyle.allCases.map(\.rawValue))
      actions.append(
        SwipeAction(
          width: try a.number("width", min: 0, maxMagnitude: maxCoordinate),
          style: style.map { SwipeActionStyle(rawValue: $0)! } ?? .normal))
    }
    let full = try p.optionalBool("performsFirstActionWithFullSwipe") ?? true
    let closed = try modify(slot) { session in
      session.beginSwipe(
        at: path, edge: SwipeEdge(rawValue: edge)!, actions: actions,
        performsFirstActionWithFullSwipe: full)
    }
    w.beginObject()
    w.key("began")
    w.bool(true)
    if let closed {
      w.key("closedSwipe")
      w.indexPath(closed)
    }
    w.endObject()
  }

  /// layout/updateSwipe {session, translation} → {translation, actions}.
  /// O(actions + log n).
  func updateSwipe(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let t = try p.number("translation", maxMagnitude: maxCoordinate)
    let moved = try modify(slot) { session in session.updateSwipe(translation: t) }
    guard let moved else {
      throw .invalidParams(
        p.path("session"), "has no swipe in progress (layout/beginSwipe starts one)")
    }
    w.beginObject()
    w.key("translation")
    w.number(moved.translation)
    w.key("actions")
    w.beginArray()
    for r in moved.buttons { w.rect(r) }
    w.endArray()
    w.endObject()
  }

  /// layout/endSwipe {session, velocity} → {state, translation}. O(actions
  /// + log n).
  func endSwipe(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    let v = try p.number("velocity", maxMagnitude: maxCoordinate)
    let (state, translation) = try modify(slot) { session in session.endSwipe(velocity: v) }
    w.beginObject()
    w.key("state")
    w.string(state.rawValue)
    w.key("translation")
    w.number(translation)
    w.endObject()
  }

  /// layout/closeSwipe {session} → {state: "closed"}. O(1).
  func closeSwipe(_ p: Fields, _ w: inout JSONWriter) throws(RPCError) {
    let slot = try existingSlot(p)
    try modify(slot) { session in session.closeSwipe() }
    w.beginObject()
    w.key("state")
    w.string(SwipeState.closed.rawValue)
    w.endObject()
  }
}

/// The most buttons one swipe may have: a row shows a handful.
let maxSwipeActions = 64
