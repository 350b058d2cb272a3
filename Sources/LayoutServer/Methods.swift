import JSONRPC

/// One method of the protocol: its name, its parameters, the shape of its
/// answer and what the answer does to a client's picture of the viewport.
///
/// `LayoutServer.methodTable` is the only list of methods. Dispatch, the
/// unknown-field check, `initialize`'s `methodTable` capability and every
/// client's typed methods (generated from that capability) all derive from
/// it, so a method added here reaches every client and nothing else needs
/// a hand-kept list.
public struct MethodSpec: Sendable {
  /// One parameter. `type` is a TypeScript type over the names protocol.md
  /// defines (`Rect`, `Section`, …), which the clients' typings reuse, with
  /// `integer` for a number that must be an integer.
  public struct Param: Sendable, Equatable {
    public let name: String
    public let type: String
    public let required: Bool
  }

  /// What the answer does to the client's picture (its copy of the
  /// visible elements).
  public enum Picture: String, Sendable, CaseIterable {
    /// Nothing: a query or a plan.
    case none
    /// Starts it over (`attributes` is the whole viewport).
    case open
    /// Patches it (`removed`, then `invalidated`).
    case delta
  }

  public let name: String
  public let summary: String
  public let params: [Param]
  public let result: String
  public let picture: Picture
  let handler: Handler
  /// The parameters' names, for the unknown-field check: a method has a
  /// handful, which a comparison each finds sooner than a hash.
  let knownNames: [String]

  typealias Handler =
    @Sendable (LayoutServer) -> (Fields, inout JSONWriter) throws(RPCError) -> Void

  init(
    _ name: String, _ summary: String, params: [Param], result: String, picture: Picture = .none,
    _ handler: @escaping Handler
  ) {
    self.name = name
    self.summary = summary
    self.params = params
    self.result = result
    self.picture = picture
    self.handler = handler
    self.knownNames = params.map(\.name)
  }
}

private func required(_ name: String, _ type: String) -> MethodSpec.Param {
  .init(name: name, type: type, required: true)
}

private func optional(_ name: String, _ type: String) -> MethodSpec.Param {
  .init(name: name, type: type, required: false)
}

private let session = required("session", "string")
private let sectionIndex = required("section", "integer")
private let itemIndex = required("item", "integer")
private let lap = optional("lap", "integer")
// An item named by its path or, instead, by its id.
private let keyedItem = [
  optional("section", "integer"), optional("item", "integer"), optional("id", "ItemID"),
]

extension LayoutServer {
  /// Every method, in protocol.md's order.
  public static let methodTable: [MethodSpec] = [
    MethodSpec(
      "layout/open", "Opens a session and answers its first viewport.",
      params: [
        session, required("layout", "LayoutConfiguration"), required("bounds", "Rect"),
        required("sections", "Section[]"), optional("contentInset", "Insets"),
        optional("overscan", "number"), optional("followsEnd", "boolean"),
      ], result: "OpenResult", picture: .open
    ) { $0.open },
    MethodSpec(
      "layout/setBounds", "A scroll frame or a resize: the delta of the viewport.",
      params: [session, required("bounds", "Rect")], result: "MutationResult", picture: .delta
    ) { $0.setBounds },
    MethodSpec(
      "layout/scrollEnded", "Where a scroll released with this velocity comes to rest.",
      params: [
        session, required("contentOffset", "Point"), required("velocity", "Point"),
        optional("proposedContentOffset", "Point"), optional("frameInterval", "number"),
        optional("section", "integer"),
      ], result: "ScrollPlan"
    ) { $0.scrollEnded },
    MethodSpec(
      "layout/scrollToItem", "The content offset that shows an item at a position.",
      params: [session] + keyedItem + [optional("position", "ItemPosition")],
      result: "ScrollTarget"
    ) { $0.scrollToItem },
    MethodSpec(
      "layout/attributesInRect", "Every element that meets a rect, or a page of them.",
      params: [
        session, required("rect", "Rect"), optional("limit", "integer"),
        optional("after", "ElementKey"),
      ], result: "AttributesPage"
    ) { $0.attributesInRect },
    MethodSpec(
      "layout/attributesForItem", "One cell's attributes.",
      params: [session] + keyedItem + [lap], result: "ElementAttributes"
    ) { $0.attributesForItem },
    MethodSpec(
      "layout/attributesForSupplementary", "A section's header, footer or background, or null.",
      params: [
        session, required("kind", "\"header\" | \"footer\" | \"decoration\""), sectionIndex, lap,
      ],
      result: "OptionalElementAttributes"
    ) { $0.attributesForSupplementary },
    MethodSpec(
      "layout/itemAtPoint", "The topmost cell at a point, or null.",
      params: [session, required("point", "Point")], result: "ItemRef | null"
    ) { $0.itemAtPoint },
    MethodSpec(
      "layout/contentSize", "The session's content size.",
      params: [session], result: "ContentSizeResult"
    ) { $0.contentSize },
    MethodSpec(
      "layout/close", "Closes a session.",
      params: [session], result: "null"
    ) { $0.close },
    MethodSpec(
      "layout/performBatchUpdates",
      "Deletes, inserts, moves and reloads, applied as UIKit applies them.",
      params: [session, required("updates", "BatchUpdates")], result: "BatchUpdatesResult",
      picture: .delta
    ) { $0.performBatchUpdates },
    MethodSpec(
      "layout/reloadData", "Replaces every section.",
      params: [session, required("sections", "Section[]")], result: "MutationResult",
      picture: .delta
    ) { $0.reloadData },
    MethodSpec(
      "layout/applySnapshot",
      "The whole data as section and item ids: diffed, applied as a batch, and the batch answered.",
      params: [
        session, required("sections", "SnapshotSection[]"),
        optional("reloadItems", "SnapshotItem[]"), optional("reconfigureItems", "SnapshotItem[]"),
      ], result: "SnapshotResult", picture: .delta
    ) { $0.applySnapshot },
    MethodSpec(
      "layout/configure", "Changes the layout's properties, the content inset or the overscan.",
      params: [
        session, optional("layout", "Partial<LayoutConfiguration>"),
        optional("contentInset", "Insets"), optional("overscan", "number"),
        optional("followsEnd", "boolean"),
      ], result: "MutationResult", picture: .delta
    ) { $0.configure },
    MethodSpec(
      "layout/setItemSizes", "Self-sizing: measured sizes replace the estimates.",
      params: [session, required("sizes", "ItemSizeUpdate[]")], result: "MutationResult",
      picture: .delta
    ) { $0.setItemSizes },
    MethodSpec(
      "layout/appendItems", "Appends items to a section: the bulk path.",
      params: [
        session, sectionIndex, optional("itemCount", "integer"), optional("itemSizes", "Size[]"),
        optional("widthsAndHeights", "number[]"), optional("widthsAndHeightsBase64", "string"),
        optional("ids", "ItemID[]"),
      ], result: "MutationResult", picture: .delta
    ) { $0.appendItems },
    MethodSpec(
      "layout/scrollSection", "Scrolls an orthogonal row: the delta of the viewport.",
      params: [session, sectionIndex, required("offset", "number")], result: "RowScrollResult",
      picture: .delta
    ) { $0.scrollSection },
    MethodSpec(
      "layout/beginInteractiveMovement", "Starts dragging an item to reorder it.",
      params: [session] + keyedItem + [lap], result: "MovementBegan"
    ) { $0.beginInteractiveMovement },
    MethodSpec(
      "layout/updateInteractiveMovement",
      "Moves the dragged item's centre: the delta, the target and the autoscroll velocity.",
      params: [session, required("position", "Point")], result: "MovementUpdateResult",
      picture: .delta
    ) { $0.updateInteractiveMovement },
    MethodSpec(
      "layout/endInteractiveMovement", "Drops the dragged item at its target: one batch move.",
      params: [session], result: "MovementEndResult", picture: .delta
    ) { $0.endInteractiveMovement },
    MethodSpec(
      "layout/cancelInteractiveMovement", "Puts the dragged item back: the delta to the data.",
      params: [session], result: "MutationResult", picture: .delta
    ) { $0.cancelInteractiveMovement },
    MethodSpec(
      "layout/setItemSeparators",
      "A list's per-item separator overrides (itemSeparatorHandler): the batch's delta.",
      params: [session, required("items", "ItemSeparators[]")], result: "BatchUpdatesResult",
      picture: .delta
    ) { $0.setItemSeparators },
    MethodSpec(
      "layout/beginSwipe", "Starts swiping a row to reveal its actions.",
      params: [session] + keyedItem + [
        required("edge", "\"leading\" | \"trailing\""), required("actions", "SwipeAction[]"),
        optional("performsFirstActionWithFullSwipe", "boolean"),
      ], result: "SwipeBegan"
    ) { $0.beginSwipe },
    MethodSpec(
      "layout/updateSwipe", "Moves the swiped row's content: the action buttons' frames.",
      params: [session, required("translation", "number")], result: "SwipeUpdate"
    ) { $0.updateSwipe },
    MethodSpec(
      "layout/endSwipe", "Releases the swipe: whether it performs, rests open or closes.",
      params: [session, required("velocity", "number")], result: "SwipeEnd"
    ) { $0.endSwipe },
    MethodSpec(
      "layout/closeSwipe", "Closes the open swipe, if any.",
      params: [session], result: "SwipeClosed"
    ) { $0.closeSwipe },
    MethodSpec(
      "layout/expand",
      "Expands outline nodes (children: one node's lazily loaded subtree): the batch's delta and updates.",
      params: [session, required("ids", "ItemID[]"), optional("children", "OutlineNode[]")],
      result: "OutlineChangeResult", picture: .delta
    ) { $0.expand },
    MethodSpec(
      "layout/collapse", "Collapses outline nodes: the batch's delta and updates.",
      params: [session, required("ids", "ItemID[]")], result: "OutlineChangeResult",
      picture: .delta
    ) { $0.collapse },
    MethodSpec(
      "layout/outlineAppend",
      "Appends outline nodes as a parent's last children or a section's last roots.",
      params: [
        session, optional("section", "integer"), optional("parent", "ItemID"),
        required("items", "OutlineNode[]"),
      ], result: "OutlineChangeResult", picture: .delta
    ) { $0.outlineAppend },
    MethodSpec(
      "layout/outlineInsert", "Inserts outline nodes as siblings before or after a node.",
      params: [
        session, optional("before", "ItemID"), optional("after", "ItemID"),
        required("items", "OutlineNode[]"),
      ], result: "OutlineChangeResult", picture: .delta
    ) { $0.outlineInsert },
    MethodSpec(
      "layout/outlineDelete", "Deletes outline nodes, each with its descendants.",
      params: [session, required("ids", "ItemID[]")], result: "OutlineChangeResult",
      picture: .delta
    ) { $0.outlineDelete },
    MethodSpec(
      "layout/outlineReplaceChildren",
      "Replaces a node's children; they may reuse ids of the subtree they replace.",
      params: [session, required("parent", "ItemID"), required("children", "OutlineNode[]")],
      result: "OutlineChangeResult", picture: .delta
    ) { $0.outlineReplaceChildren },
    MethodSpec(
      "layout/outline", "A section's whole outline, every node with its flag.",
      params: [session, sectionIndex], result: "OutlineResult"
    ) { $0.outline },
  ]

  static let methodsByName = Dictionary(uniqueKeysWithValues: methodTable.map { ($0.name, $0) })

  /// Writes the `methodTable` capability. O(methods).
  func writeMethodTable(_ w: inout JSONWriter) {
    w.beginArray()
    for m in Self.methodTable {
      w.beginObject()
      w.key("name")
      w.string(m.name)
      w.key("summary")
      w.string(m.summary)
      w.key("params")
      w.beginArray()
      for p in m.params {
        w.beginObject()
        w.key("name")
        w.string(p.name)
        w.key("type")
        w.string(p.type)
        w.key("required")
        w.bool(p.required)
        w.endObject()
      }
      w.endArray()
      w.key("result")
      w.string(m.result)
      w.key("picture")
      w.string(m.picture.rawValue)
      w.endObject()
    }
    w.endArray()
  }
}
