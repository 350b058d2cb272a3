import JSONRPC
import LayoutEngine

extension JSONWriter {
  mutating func elementKey(_ k: ElementKey, id: ItemID? = nil) {
    beginObject()
    identity(k.kind, k.section, k.item, k.lap)
    if let id {
      key("id")
      itemID(id)
    }
    endObject()
  }

  /// `contentSize, bounds, invalidated, removed, centeredItem` of a
  /// mutating answer, inside an object the caller opened.
  mutating func mutation(_ session: LiveLayout, _ delta: LiveDelta) {
    key("contentSize")
    size(session.layout.contentSize)
    key("bounds")
    rect(session.bounds)
    key("invalidated")
    attributesArray(
      session.picture, at: delta.invalidated, ids: session.pictureIDs, in: session.layout)
    key("removed")
    beginArray()
    if delta.removedIDs.isEmpty {
      for k in delta.removed { elementKey(k) }
    } else {
      for (k, id) in zip(delta.removed, delta.removedIDs) { elementKey(k, id: id) }
    }
    endArray()
    key("centeredItem")
    card(delta.centered, id: session.layout.itemID(of: delta.centered))
  }
}
