// Lays out one flow grid twice, in process with LayoutEngine and through
// a spawned flowlayoutd with FlowLayoutClient, and checks that both give
// every element the same doubles. Exit status 0 when they agree.
import FlowLayoutClient
import LayoutEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Twelve items of widths in thirds of a point, so that positions are
// inexact doubles, in a 320 × 240 viewport scrolled to y = 45.
let widths: [Double] = (0..<12).map { (i: Int) -> Double in
  Double(90 + 10 * (i % 4)) + Double(i % 3) / 3
}
let viewport = LayoutEngine.Size(width: 320, height: 240)
let bounds = LayoutEngine.Rect(x: 0, y: 45, width: 320, height: 240)

// 1. In process: a value type, no I/O.
var flow = FlowConfiguration()
flow.minimumLineSpacing = 12
let engine = Layout(
  type: .flow(flow),
  sections: [.sizes(widths.map { LayoutEngine.Size(width: $0, height: 60) })],
  viewportSize: viewport)
let local = engine.attributes(in: bounds, bounds: bounds)

// 2. Through the daemon ($FLOWLAYOUTD, or flowlayoutd on PATH).
let client = try LayoutClient.spawn()
let sizes: [JSON] = widths.map { (w: Double) -> JSON in ["width": .number(w), "height": 60] }
_ = try client.open(
  session: "embed", layout: ["type": "flow", "minimumLineSpacing": 12],
  bounds: FlowLayoutClient.Rect(x: 0, y: 0, width: 320, height: 240),
  sections: [["itemSizes": .array(sizes)]])
// attributesInRect answers {attributes}, which a picture reads as a fresh
// start, as it reads layout/open's.
var picture = Picture()
picture.apply(
  try client.attributesInRect(
    session: "embed", rect: FlowLayoutClient.Rect(x: 0, y: 45, width: 320, height: 240)))

var mismatches = 0

/// Counts the elements whose index or frame differ between the two.
@MainActor func compare(_ local: [LayoutAttributes], _ remote: [Attributes], _ what: String) {
  for (a, b) in zip(local, remote) {
    let mine = [Double(a.item), a.frame.x, a.frame.y, a.frame.width, a.frame.height]
    let theirs = [Double(b.key.item), b.frame.x, b.frame.y, b.frame.width, b.frame.height]
    if mine != theirs {
      mismatches += 1
      print("\(what): item \(a.item): engine \(a.frame), daemon \(b.frame)")
    }
  }
  if local.count != remote.count {
    mismatches += 1
    print("\(what): engine \(local.count) elements, daemon \(remote.count)")
  }
}
compare(local, picture.elements, "open")

// 3. The same batch update both ways: a 150-point item inserted at 0.
var update = BatchUpdate()
update.insertItems = [
  (IndexPath(section: 0, item: 0), Item(size: LayoutEngine.Size(width: 150, height: 60)))
]
var changed = engine
changed.apply(try update.apply(to: engine.sections, uniformSize: flow.uniformItemSize))
_ = try client.performBatchUpdates(
  session: "embed",
  updates: ["insertItems": [["section": 0, "item": 0, "size": ["width": 150, "height": 60]]]])
var after = Picture()
after.apply(
  try client.attributesInRect(
    session: "embed", rect: FlowLayoutClient.Rect(x: 0, y: 45, width: 320, height: 240)))
compare(changed.attributes(in: bounds, bounds: bounds), after.elements, "batch")

let content = engine.contentSize
print(
  "embed-swift: \(local.count) elements in the viewport at y = \(bounds.y), content "
    + "\(content.width) × \(content.height); "
    + "engine and daemon \(mismatches == 0 ? "agree to the bit" : "DIFFER"), before and after a batch update"
)
let status = try client.shutdown()
exit(mismatches == 0 && status == 0 ? 0 : 1)
