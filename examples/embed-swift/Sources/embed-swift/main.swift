// Runs one live session twice, in process with LayoutEngine's LiveLayout
// and through a spawned flowlayoutd with FlowLayoutClient, and checks that
// every answer's delta is the same to the bit: the same elements sent and
// removed, with the same doubles, the same bounds and content size. Exit
// status 0 when they agree.
import FlowLayoutClient
import LayoutEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Twelve items of widths in thirds of a point, so that positions are
// inexact doubles, in a 320 × 240 viewport.
let widths: [Double] = (0..<12).map { (i: Int) -> Double in
  Double(90 + 10 * (i % 4)) + Double(i % 3) / 3
}
let viewport = LayoutEngine.Size(width: 320, height: 240)

// 1. In process: a value type, no I/O.
var flow = FlowConfiguration()
flow.minimumLineSpacing = 12
let (session, opened) = try LiveLayout.open(
  Layout(
    type: .flow(flow),
    sections: [.sizes(widths.map { LayoutEngine.Size(width: $0, height: 60) })],
    viewportSize: viewport),
  bounds: LayoutEngine.Rect(x: 0, y: 0, width: 320, height: 240))
var live = session

// 2. Through the daemon ($FLOWLAYOUTD, or flowlayoutd on PATH).
let client = try LayoutClient.spawn()
let sizes: [JSON] = widths.map { (w: Double) -> JSON in ["width": .number(w), "height": 60] }
let open = try client.open(
  session: "embed", layout: ["type": "flow", "minimumLineSpacing": 12],
  bounds: FlowLayoutClient.Rect(x: 0, y: 0, width: 320, height: 240),
  sections: [["itemSizes": .array(sizes)]])

var mismatches = 0
var steps = 0

@MainActor func differ(_ what: String, _ detail: String) {
  mismatches += 1
  print("\(what): \(detail)")
}

/// Compares a daemon answer with the engine's delta, field by field, to
/// the bit: the elements sent (in order), the keys removed, the bounds
/// and the content size.
@MainActor func compare(_ delta: LiveDelta, _ answer: JSON, _ what: String) {
  steps += 1
  let sent = (answer["invalidated"].array ?? answer["attributes"].array ?? [])
    .compactMap(Attributes.init)
  let mine = delta.invalidated.map { live.picture[$0] }
  if mine.count != sent.count {
    differ(what, "engine sends \(mine.count) elements, daemon \(sent.count)")
  }
  for (a, b) in zip(mine, sent) {
    let engine = [
      Double(a.section), Double(a.item), a.center.x, a.center.y, a.size.width, a.size.height,
      a.frame.x, a.frame.y, a.frame.width, a.frame.height, a.alpha, Double(a.zIndex),
      a.moving ? 1 : 0,
    ]
    let daemon = [
      Double(b.key.section), Double(b.key.item), b.center.x, b.center.y, b.size.width,
      b.size.height, b.frame.x, b.frame.y, b.frame.width, b.frame.height, b.alpha,
      Double(b.zIndex), b.moving ? 1 : 0,
    ]
    if engine.map(\.bitPattern) != daemon.map(\.bitPattern) || a.kind.rawValue != b.key.kind {
      differ(what, "item \(a.item): engine \(engine), daemon \(daemon)")
    }
  }
  let removed = (answer["removed"].array ?? []).map { [$0["section"].int, $0["item"].int] }
  if delta.removed.map({ [Optional($0.section), Optional($0.item)] }) != removed {
    differ(what, "engine removes \(delta.removed), daemon \(removed)")
  }
  let b = live.bounds
  if let r = FlowLayoutClient.Rect(answer["bounds"]),
    [b.x, b.y, b.width, b.height].map(\.bitPattern)
      != [r.x, r.y, r.width, r.height].map(\.bitPattern)
  {
    differ(what, "engine bounds \(b), daemon \(r)")
  }
  let c = live.layout.contentSize
  if let s = FlowLayoutClient.Size(answer["contentSize"]),
    [c.width, c.height].map(\.bitPattern) != [s.width, s.height].map(\.bitPattern)
  {
    differ(what, "engine content \(c), daemon \(s)")
  }
}

compare(opened, open, "open")

// 3. The same changes both ways: a scroll, a batch update (a 150-point item
// inserted at 0, which moves the viewport to keep what is on screen), a
// rotation, a drag to reorder and a measured size.
func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> (
  LayoutEngine.Rect, FlowLayoutClient.Rect
) {
  (
    LayoutEngine.Rect(x: x, y: y, width: w, height: h),
    FlowLayoutClient.Rect(x: x, y: y, width: w, height: h)
  )
}
let scroll = rect(0, 45, 320, 240)
compare(
  try live.commit(.setBounds(scroll.0)), try client.setBounds(session: "embed", bounds: scroll.1),
  "scroll")

var update = BatchUpdate()
update.insertItems = [
  (IndexPath(section: 0, item: 0), Item(size: LayoutEngine.Size(width: 150, height: 60)))
]
compare(
  try live.commit(.performBatchUpdates(update)),
  try client.performBatchUpdates(
    session: "embed",
    updates: ["insertItems": [["section": 0, "item": 0, "size": ["width": 150, "height": 60]]]]),
  "batch")

let rotated = rect(0, live.bounds.y, 240, 320)
compare(
  try live.commit(.setBounds(rotated.0)),
  try client.setBounds(session: "embed", bounds: rotated.1), "rotation")

_ = live.beginInteractiveMovement(at: IndexPath(section: 0, item: 3))
_ = try client.beginInteractiveMovement(session: "embed", section: 0, item: 3)
compare(
  try live.commit(.updateInteractiveMovement(LayoutEngine.Point(x: 120, y: 200))),
  try client.updateInteractiveMovement(
    session: "embed", position: FlowLayoutClient.Point(x: 120, y: 200)), "drag")
compare(
  try live.commit(.endInteractiveMovement), try client.endInteractiveMovement(session: "embed"),
  "drop")

compare(
  try live.commit(
    .setItemSizes([(IndexPath(section: 0, item: 5), LayoutEngine.Size(width: 200, height: 80))])),
  try client.setItemSizes(
    session: "embed",
    sizes: [["section": 0, "item": 5, "size": ["width": 200, "height": 80]]]), "measured size")

let content = live.layout.contentSize
print(
  "embed-swift: \(steps) answers, \(live.picture.count) elements in the viewport at y = "
    + "\(live.bounds.y), content \(content.width) × \(content.height); "
    + "engine and daemon \(mismatches == 0 ? "agree to the bit" : "DIFFER")"
)
let status = try client.shutdown()
exit(mismatches == 0 && status == 0 ? 0 : 1)
