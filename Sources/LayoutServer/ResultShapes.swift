import JSONRPC

/// One object the daemon answers with: a method table entry's `result`,
/// or an object inside one (`Attributes`, `ElementKey`, …).
///
/// `LayoutServer.resultShapes` is the only list of them. `initialize`
/// reports it as `capabilities.resultShapes`, protocol.md shows it
/// (Tests/sync_protocol.py writes the table), and the clients' shapes are
/// generated from it (clients/js/generate.mjs, clients/python/generate.py,
/// clients/swift/generate.py), so that no client can drift from the
/// daemon or from another; test_result_shapes.py checks every answer of
/// protocol.md's examples against it.
public struct ResultShape: Sendable, Equatable {
  /// A field: `type` is a TypeScript type over protocol.md's names, as a
  /// method parameter's is.
  public struct Field: Sendable, Equatable {
    public let name: String
    public let type: String
    public let required: Bool
  }

  public let name: String
  public let summary: String
  public let fields: [Field]
}

private func field(_ name: String, _ type: String) -> ResultShape.Field {
  .init(name: name, type: type, required: true)
}

private func maybe(_ name: String, _ type: String) -> ResultShape.Field {
  .init(name: name, type: type, required: false)
}

private let delta = [
  field("contentSize", "Size"), field("bounds", "Rect"), field("invalidated", "Attributes[]"),
  field("removed", "ElementKey[]"), field("centeredItem", "ItemRef | null"),
  maybe("movementCancelled", "true"), maybe("closedSwipe", "IndexPath"),
]

private let animations = [
  field("appearing", "Attributes[]"), field("disappearing", "Attributes[]"),
  field("moved", "MovedElement[]"),
]

extension LayoutServer {
  /// Every object a method answers with, in protocol.md's order: the
  /// results first, then the objects inside them.
  public static let resultShapes: [ResultShape] = [
    ResultShape(
      name: "OpenResult", summary: "`layout/open`: the session's first picture.",
      fields: [
        field("contentSize", "Size"), field("bounds", "Rect"), field("attributes", "Attributes[]"),
        field("centeredItem", "ItemRef | null"),
      ]),
    ResultShape(
      name: "MutationResult",
      summary: "Every change's answer: the delta of the picture (`removed`, then `invalidated`).",
      fields: delta),
    ResultShape(
      name: "BatchUpdatesResult",
      summary: "`layout/performBatchUpdates`: the delta, plus what to animate.",
      fields: delta + animations),
    ResultShape(
      name: "SnapshotResult",
      summary:
        "`layout/applySnapshot`: a batch's answer and the batch (null for a first apply without ids).",
      fields: delta + animations.map { maybe($0.name, $0.type) } + [
        field("updates", "BatchUpdates | null")
      ]),
    ResultShape(
      name: "RowScrollResult",
      summary: "`layout/scrollSection`: the delta and the row's offset, clamped to its range.",
      fields: delta + [field("offset", "number")]),
    ResultShape(
      name: "MovementBegan", summary: "`layout/beginInteractiveMovement`: whether the drag began.",
      fields: [field("began", "boolean")]),
    ResultShape(
      name: "SwipeBegan",
      summary: "`layout/beginSwipe`: began, and the row whose open swipe it closed.",
      fields: [field("began", "true"), maybe("closedSwipe", "IndexPath")]),
    ResultShape(
      name: "OutlineChangeResult",
      summary:
        "`layout/expand`, `layout/collapse` and the outline edits: a batch's answer and the batch.",
      fields: delta + animations + [field("updates", "BatchUpdates")]),
    ResultShape(
      name: "OutlineResult", summary: "`layout/outline`: the section's whole tree.",
      fields: [field("outline", "OutlineNode[]")]),
    ResultShape(
      name: "OutlineNode", summary: "One node of an outline, with its flag and subtree.",
      fields: [
        field("id", "ItemID"), maybe("size", "Size"), field("expanded", "boolean"),
        field("children", "OutlineNode[]"),
      ]),
    ResultShape(
      name: "SwipeUpdate",
      summary:
        "`layout/updateSwipe`: the translation kept and the buttons' frames, first at the edge.",
      fields: [field("translation", "number"), field("actions", "Rect[]")]),
    ResultShape(
      name: "SwipeEnd", summary: "`layout/endSwipe`: where the release leaves the row.",
      fields: [field("state", "string"), field("translation", "number")]),
    ResultShape(
      name: "SwipeClosed", summary: "`layout/closeSwipe`: closed.",
      fields: [field("state", "string")]),
    ResultShape(
      name: "MovementUpdateResult",
      summary:
        "`layout/updateInteractiveMovement`: the delta, the target and the autoscroll velocity (points per ms).",
      fields: delta + [field("target", "IndexPath"), field("autoscroll", "Point")]),
    ResultShape(
      name: "MovementEndResult",
      summary: "`layout/endInteractiveMovement`: the one move's batch answer, and the batch.",
      fields: delta + animations + [field("updates", "BatchUpdates")]),
    ResultShape(
      name: "ScrollPlan",
      summary: "`layout/scrollEnded`: where a release comes to rest, and the path.",
      fields: [
        field("targetContentOffset", "Point"), field("targetItem", "ItemRef | null"),
        field("projectedContentOffset", "Point"), field("policy", "string"),
        field("durationMs", "number"), field("trajectory", "Point[]"),
      ]),
    ResultShape(
      name: "ScrollTarget",
      summary:
        "`layout/scrollToItem`: the offset; `rowOffset` when the item's row scrolls on its own.",
      fields: [
        field("contentOffset", "Point"), maybe("lap", "integer"), maybe("rowOffset", "number"),
      ]),
    ResultShape(
      name: "AttributesPage",
      summary: "`layout/attributesInRect`: the elements, and `next` while a page leaves more.",
      fields: [field("attributes", "Attributes[]"), maybe("next", "ElementKey")]),
    ResultShape(
      name: "ElementAttributes", summary: "`layout/attributesForItem`: one cell's attributes.",
      fields: [field("attributes", "Attributes")]),
    ResultShape(
      name: "OptionalElementAttributes",
      summary: "`layout/attributesForSupplementary`: a header, footer or background, or null.",
      fields: [field("attributes", "Attributes | null")]),
    ResultShape(
      name: "ContentSizeResult", summary: "`layout/contentSize`: the session's content size.",
      fields: [field("contentSize", "Size")]),
    ResultShape(
      name: "Attributes",
      summary:
        "UICollectionViewLayoutAttributes, as Values describes them.",
      fields: [
        field("kind", "ElementKind"), maybe("elementKind", "string"), maybe("edge", "string"),
        field("section", "integer"), field("item", "integer"), maybe("lap", "integer"),
        maybe("id", "ItemID"), field("center", "Point"),
        field("size", "Size"), field("frame", "Rect"), maybe("transform", "number[]"),
        field("alpha", "number"), field("zIndex", "integer"), maybe("hidden", "true"),
        maybe("moving", "true"), maybe("cornerRadius", "number"), maybe("cornerMask", "string[]"),
        maybe("level", "integer"), maybe("parent", "ItemID"), maybe("expanded", "boolean"),
        maybe("indentation", "number"),
      ]),
    ResultShape(
      name: "ElementKey",
      summary:
        "An element's identity: `item` 0 for headers and footers, `edge` only for a separator, `lap` only in a loop.",
      fields: [
        field("kind", "ElementKind"), maybe("edge", "string"), field("section", "integer"),
        field("item", "integer"), maybe("lap", "integer"), maybe("id", "ItemID"),
      ]),
    ResultShape(
      name: "ItemRef",
      summary: "An item: its `lap` when the layout loops, its `id` when it has one.",
      fields: [
        field("section", "integer"), field("item", "integer"), maybe("lap", "integer"),
        maybe("id", "ItemID"),
      ]),
    ResultShape(
      name: "MovedElement", summary: "A surviving element whose frame a batch changed.",
      fields: [
        field("kind", "ElementKind"), maybe("edge", "string"), field("section", "integer"),
        field("item", "integer"), maybe("lap", "integer"), maybe("id", "ItemID"),
        field("from", "IndexPath"),
        field("fromFrame", "Rect"), field("frame", "Rect"),
      ]),
  ]

  /// Writes the `resultShapes` capability. O(fields).
  func writeResultShapes(_ w: inout JSONWriter) {
    w.beginArray()
    for s in Self.resultShapes {
      w.beginObject()
      w.key("name")
      w.string(s.name)
      w.key("summary")
      w.string(s.summary)
      w.key("fields")
      w.beginArray()
      for f in s.fields {
        w.beginObject()
        w.key("name")
        w.string(f.name)
        w.key("type")
        w.string(f.type)
        w.key("required")
        w.bool(f.required)
        w.endObject()
      }
      w.endArray()
      w.endObject()
    }
    w.endArray()
  }
}
