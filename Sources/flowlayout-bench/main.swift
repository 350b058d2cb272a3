// Engine and handler micro-benchmarks (`make bench`). Prints one line per
// measurement: the median and p99 over repeated runs, in-process, no I/O.
#if canImport(Glibc)
  import Glibc
#endif
import JSONRPC
import LayoutEngine
import LayoutServer

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

/// Runs `body` `runs` times, each after an untimed `setup`, and returns
/// (median, p99) in nanoseconds.
func measure(runs: Int, setup: () -> Void = {}, _ body: (Int) -> Void) -> (Double, Double) {
  var samples: [Double] = []
  samples.reserveCapacity(runs)
  for i in 0..<runs {
    setup()
    let t = now()
    body(i)
    samples.append(now() - t)
  }
  samples.sort()
  return (samples[runs / 2], samples[min(runs - 1, runs * 99 / 100)])
}

func report(_ name: String, _ r: (Double, Double), per: Double = 1, unit: String = "µs") {
  let scale = unit == "µs" ? 1e3 : unit == "ms" ? 1e6 : 1
  let line = "\(name): p50 \(fmt(r.0 / per / scale)) \(unit), p99 \(fmt(r.1 / per / scale)) \(unit)"
  print(line)
}

func fmt(_ d: Double) -> String {
  let x = (d * 100).rounded() / 100
  return "\(x)"
}

/// A seeded generator: every run lays out the same sizes, and making ten
/// million of them costs no system calls.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
var g = SplitMix(state: 42)
let n = Int(CommandLine.arguments.dropFirst().first ?? "1000000") ?? 1_000_000
/// `flowlayout-bench N waterfall` runs the waterfall and carousel rows only
/// (make bench runs them at those issues' 1e6).
let waterfallOnly = CommandLine.arguments.dropFirst(2).first == "waterfall"
// The allocator as the daemon's serving loop sets it.
Server.keepFreedMemory()
print("n = \(n)")
let sizes = (0..<n).map { _ in
  Size(
    width: Double(Int.random(in: 20...120, using: &g)),
    height: Double(Int.random(in: 20...80, using: &g)))
}
let viewport = Size(width: 375, height: 600)
// An open replaces nothing: the previous layout is freed before the clock
// starts, so the rows time building alone.
let empty = Layout(type: .flow(FlowConfiguration()), sections: [], viewportSize: viewport)
// `flowlayout-bench N MODE` runs one family of rows.
let modes: [String: () -> Void] = [
  "columns": waterfallColumnRows, "reorder": reorderRows, "snapshot": snapshotRows,
  "compositional": compositionalRows, "outline": outlineRows,
]
if let mode = CommandLine.arguments.dropFirst(2).first, let rows = modes[mode] {
  rows()
  exit(0)
}
if waterfallOnly {
  var packed = waterfallRows(.packed)
  waterfallQueries(packed)
  editRows("waterfall packed", &packed, runs: n > 100_000 ? 20 : 200)
  packed = empty
  var stable = waterfallRows(.stable)
  editRows("waterfall stable", &stable, runs: 200)
  stable = empty
  waterfallColumnRows()
  carouselRows()
  pagerRows()
  compositionalRows()
  exit(0)
}
var flow = Layout(
  type: .flow(FlowConfiguration()), sections: [.sizes(sizes)], viewportSize: viewport)
report(
  "flow open (ns per item)",
  measure(runs: 5, setup: { flow = empty }) { _ in
    flow = Layout(
      type: .flow(FlowConfiguration()), sections: [.sizes(sizes)], viewportSize: viewport)
  }, per: Double(n), unit: "ns")
// The queries run in a function on local copies: top-level globals are
// main-actor state, and every access from a closure would check the
// executor, timing the harness instead of the engine.
func queryRows(_ flow: Layout, _ cover: Layout) {
  let height = flow.contentSize.height
  report(
    "flow attributesInRect 375x600",
    measure(runs: 2000) { i in
      let b = Rect(
        x: 0, y: (Double(i) * 997).truncatingRemainder(dividingBy: height - 600), width: 375,
        height: 600)
      _ = flow.attributes(in: b, bounds: b)
    })
  report(
    "flow centeredItem",
    measure(runs: 2000) { i in
      let b = Rect(
        x: 0, y: (Double(i) * 997).truncatingRemainder(dividingBy: height - 600), width: 375,
        height: 600)
      _ = flow.centeredItem(in: b)
    })
  let width = cover.contentSize.width
  report(
    "coverFlow bounds update (attributes + centred)",
    measure(runs: 2000) { i in
      let b = Rect(
        x: (Double(i) * 997).truncatingRemainder(dividingBy: width - 375), y: 0, width: 375,
        height: 600)
      _ = cover.attributes(in: b, bounds: b)
      _ = cover.centeredItem(in: b)
    })
  report(
    "coverFlow snap",
    measure(runs: 2000) { i in
      _ = cover.targetContentOffset(
        proposed: Point(x: (Double(i) * 997).truncatingRemainder(dividingBy: width), y: 0))
    })
}
var cover = Layout(
  type: .coverFlow(CoverFlowConfiguration()), sections: [.sizes(sizes)], viewportSize: viewport)
queryRows(flow, cover)
let width = cover.contentSize.width

// Edits at the front: the O(log n) path. Each run inserts a card at index
// 0 and the next deletes it, so n stays put.
func editRows(_ name: String, _ layout: inout Layout, runs: Int = 2000) {
  let uniform = layout.type.uniformItemSize
  var insert = BatchUpdate()
  insert.insertItems = [(IndexPath(section: 0, item: 0), Item(size: Size(width: 64, height: 48)))]
  var delete = BatchUpdate()
  delete.deleteItems = [IndexPath(section: 0, item: 0)]
  var ins: [Double] = []
  var del: [Double] = []
  for _ in 0..<runs {
    var t = now()
    layout.apply(try! insert.apply(to: layout.sections, uniformSize: uniform))
    ins.append(now() - t)
    t = now()
    layout.apply(try! delete.apply(to: layout.sections, uniformSize: uniform))
    del.append(now() - t)
  }
  ins.sort()
  del.sort()
  report("\(name) insert at 0", (ins[runs / 2], ins[runs * 99 / 100]))
  report("\(name) delete at 0", (del[runs / 2], del[runs * 99 / 100]))
}
editRows("coverFlow (single row)", &cover)
editRows("flow (wrapping lines)", &flow)
report(
  "coverFlow open (ns per item)",
  measure(runs: 3, setup: { cover = empty }) { _ in
    cover = Layout(
      type: .coverFlow(CoverFlowConfiguration()), sections: [.sizes(sizes)],
      viewportSize: viewport)
  }, per: Double(n), unit: "ns")

// Waterfall (`flowlayout-bench N waterfall`): the same sizes as aspect
// ratios, in 3 columns of a 375-wide viewport. The session keeps the previous layout for its deltas, so every
// edit below runs on a layout whose storage is shared with a copy.
/// Opens `sizes` as a waterfall of `c` in `size`, reporting the open as
/// `name` (ns per item); the layout opened. O(n) per run.
func openWaterfall(_ c: WaterfallConfiguration, in size: Size, name: String) -> Layout {
  let type = LayoutType.waterfall(c)
  var wf = empty
  report(
    "\(name) (ns per item)",
    measure(runs: 3, setup: { wf = empty }) { _ in
      wf = Layout(type: type, sections: [.sizes(sizes)], viewportSize: size)
    }, per: Double(n), unit: "ns")
  return wf
}
func waterfallRows(_ placement: ColumnPlacement) -> Layout {
  var c = WaterfallConfiguration()
  c.columnCount = 3
  c.placement = placement
  return openWaterfall(c, in: viewport, name: "waterfall \(placement) open")
}
/// Shortest-first across many columns: an open of the same sizes in 2
/// and in 1,024 columns (the viewport widened so that columns keep a
/// width), whose ratio shows what the columns cost.
func waterfallColumnRows() {
  for columns in [2, 1024] {
    var c = WaterfallConfiguration()
    c.columnCount = columns
    _ = openWaterfall(
      c, in: Size(width: Double(columns) * 60, height: 600),
      name: "waterfall open in \(columns) columns")
  }
}
func waterfallQueries(_ wf: Layout) {
  let height = wf.contentSize.height
  report(
    "waterfall attributesInRect 375x600",
    measure(runs: 2000) { i in
      let b = Rect(
        x: 0, y: (Double(i) * 997).truncatingRemainder(dividingBy: max(height - 600, 1)),
        width: 375, height: 600)
      _ = wf.attributes(in: b, bounds: b)
    })
  let chunk = Array(sizes.prefix(2048))
  var grown = wf
  report(
    "waterfall append 2048",
    measure(runs: 20, setup: { grown = wf }) { _ in
      grown.appendItems(section: 0, count: chunk.count, sizes: chunk, ids: nil)
    })
}

// The handler path: JSON in (jansson), JSON out (JSONWriter), no pipes.
final class Handler {
  // One request of every size: this row times jansson and the handler on
  // the whole load, not the daemon's chunked bulk path (bench/run.py).
  let server = LayoutServer(
    limits: {
      var l = Limits()
      l.maxItemValuesPerRequest = .max
      return l
    }())
  var w = JSONWriter()
  func call(_ method: String, _ params: String) {
    let doc = try! JSONDocument.parse(params)
    w.removeAll()
    try! server.handleRequest(method: method, params: doc.root, result: &w)
  }
}
nonisolated(unsafe) let handler = Handler()
func call(_ method: String, _ params: String) { handler.call(method, params) }
/// RFC 4648 base64 of `bytes`, for the packed open of a large n.
func base64(_ bytes: UnsafeRawBufferPointer) -> String {
  let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  var out: [UInt8] = []
  out.reserveCapacity((bytes.count + 2) / 3 * 4)
  var i = 0
  while i < bytes.count {
    let a = UInt32(bytes[i])
    let b = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
    let c = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
    let v = a << 16 | b << 8 | c
    out.append(alphabet[Int(v >> 18 & 63)])
    out.append(alphabet[Int(v >> 12 & 63)])
    out.append(i + 1 < bytes.count ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
    out.append(i + 2 < bytes.count ? alphabet[Int(v & 63)] : UInt8(ascii: "="))
    i += 3
  }
  return String(decoding: out, as: UTF8.self)
}

let head =
  "{\"session\":\"s\",\"layout\":{\"type\":\"coverFlow\"},\"bounds\":{\"x\":0,\"y\":0,\"width\":375,\"height\":600},\"sections\":[{"
var json = ""
if n > 1_000_000 {
  // Ten million sizes as JSON objects would be 300 MB of text: packed.
  let flat = sizes.flatMap { [$0.width, $0.height] }
  json = head + "\"widthsAndHeightsBase64\":\"" + flat.withUnsafeBytes { base64($0) } + "\"}]}"
  call("layout/open", json)
} else {
  json = head + "\"itemSizes\":["
  json += sizes.map { "{\"width\":\($0.width),\"height\":\($0.height)}" }.joined(separator: ",")
  json += "]}]}"
  report(
    "layout/open over JSON (ns per item)", measure(runs: 1) { _ in call("layout/open", json) },
    per: Double(n), unit: "ns")
}
report(
  "layout/setBounds handler, coverFlow",
  measure(runs: 2000) { i in
    let x = (Double(i) * 997).truncatingRemainder(dividingBy: width - 375)
    call(
      "layout/setBounds",
      "{\"session\":\"s\",\"bounds\":{\"x\":\(x),\"y\":0,\"width\":375,\"height\":600}}")
  })
guard n <= 1_000_000 else { exit(0) }
report(
  "jansson parse of that open request (ns per item)",
  measure(runs: 1) { _ in
    _ = try! JSONDocument.parse(json)
  }, per: Double(n), unit: "ns")

// Number formatting dominates the wire path: 300 non-integral doubles, the
// numbers of about ten cards' attributes.
let numbers = (0..<300).map { _ in Double.random(in: 0...1000, using: &g) }
report(
  "JSONWriter: 300 doubles",
  measure(runs: 2000) { _ in
    var w = JSONWriter()
    w.beginArray()
    for d in numbers { w.number(d) }
    w.endArray()
  })

// Carousels (`flowlayout-bench N waterfall`): iCarousel styles over the
// same sizes; a bounds update is the visible window's attributes and the
// centred card, as a session's setBounds computes them.
func carouselRows() {
  for style in [CarouselStyle.rotary, .coverFlow, .cylinder] {
    var c = CarouselConfiguration()
    c.style = style
    let layout = Layout(type: .carousel(c), sections: [.sizes(sizes)], viewportSize: viewport)
    let span = layout.contentSize.width
    report(
      "carousel \(style.rawValue) bounds update (attributes + centred)",
      measure(runs: 2000) { i in
        let b = Rect(
          x: (Double(i) * 997.25).truncatingRemainder(dividingBy: span), y: 0, width: 375,
          height: 600)
        _ = layout.attributes(in: b, bounds: b)
        _ = layout.centeredCard(in: b)
      })
  }
}

// Pagers (`flowlayout-bench N waterfall`): N pages of FSPagerView with a
// transformer, endless; a bounds update is the visible pages' attributes
// and the centred page, as a session's setBounds computes them.
func pagerRows() {
  for transformer in [PagerTransformer.ferrisWheel, .coverFlow, .cubic] {
    var c = PagerConfiguration()
    c.itemSize = Size(width: 300, height: 400)
    c.transformer = transformer
    c.wrap = true
    let layout = Layout(type: .pager(c), sections: [.uniform(n)], viewportSize: viewport)
    let span = 3 * layout.contentSize.width
    report(
      "pager \(transformer.rawValue) bounds update (attributes + centred)",
      measure(runs: 2000) { i in
        let b = Rect(
          x: (Double(i) * 997.25).truncatingRemainder(dividingBy: span) - span / 3, y: 0,
          width: 375, height: 600)
        _ = layout.attributes(in: b, bounds: b)
        _ = layout.centeredCard(in: b)
      })
  }
}

// Compositional (`flowlayout-bench N waterfall`): N / 10 sections of 10
// items, alternately a grid of half-width 100-point rows and an App Store
// row of 150 × 120 cards that pages by group and zooms its centre card; and
// one plain section of N items. A row frame is what layout/scrollSection
// computes: the offset, the viewport's attributes and the centred item.
func compositionalRows() {
  func item(_ w: LayoutDimension, _ h: LayoutDimension) -> LayoutItem {
    .item(size: LayoutSize(width: w, height: h), contentInsets: .zero)
  }
  let grid = SectionLayout(
    group: LayoutGroup(
      direction: .horizontal, size: LayoutSize(width: .fractionalWidth(1), height: .absolute(100)),
      subitems: [item(.fractionalWidth(0.5), .fractionalHeight(1))]))
  var row = SectionLayout(
    group: LayoutGroup(
      direction: .horizontal, size: LayoutSize(width: .absolute(150), height: .absolute(120)),
      subitems: [item(.fractionalWidth(1), .fractionalHeight(1))]))
  row.interGroupSpacing = 10
  row.contentInsets = DirectionalInsets(top: 0, leading: 16, bottom: 0, trailing: 16)
  row.orthogonalScrollingBehavior = .groupPaging
  row.effect = RowEffect(scale: Curve(peak: 1, factor: 0.5, minimum: 0.8))
  let type = LayoutType.compositional(CompositionalConfiguration(section: grid))
  let count = n / 10
  var rowSection = Section.uniform(10)
  rowSection.kindFields = row
  let specs = (0..<count).map { k -> Section in k % 2 == 1 ? rowSection : .uniform(10) }
  var sections = empty
  report(
    "compositional open of \(count) sections of 10 (ns per item)",
    measure(runs: 3, setup: { sections = empty }) { _ in
      sections = Layout(type: type, sections: specs, viewportSize: viewport)
    }, per: Double(n), unit: "ns")
  let height = sections.contentSize.height
  report(
    "compositional attributesInRect 375x600, sections",
    measure(runs: 2000) { i in
      let b = Rect(
        x: 0, y: (Double(i) * 997).truncatingRemainder(dividingBy: max(height - 600, 1)),
        width: 375, height: 600)
      _ = sections.attributes(in: b, bounds: b)
    })
  // A row in the middle of the content, scrolled frame by frame.
  let s = (count / 2) | 1  // odd sections are rows
  let top = sections.frameForItem(IndexPath(section: s, item: 0)).y
  let b = Rect(x: 0, y: max(0, top - 200), width: 375, height: 600)
  var scrolled = sections
  let range = scrolled.rowRange(section: s)!.hi
  report(
    "compositional scrollSection frame (offset, attributes, centred item)",
    measure(runs: 2000) { i in
      scrolled.setRowOffset((Double(i) * 7.25).truncatingRemainder(dividingBy: range), section: s)
      _ = scrolled.attributes(in: b, bounds: b)
      _ = scrolled.centeredItem(in: b)
    })
  sections = empty
  scrolled = empty
  // One plain section of self-sizing rows, every item measured: the case
  // that keeps a record per item (a section of unmeasured items is O(1)).
  let list = LayoutType.compositional(
    CompositionalConfiguration(
      section: SectionLayout(
        group: LayoutGroup(
          direction: .horizontal,
          size: LayoutSize(width: .fractionalWidth(1), height: .estimated(44)),
          subitems: [item(.fractionalWidth(1), .estimated(44))]))))
  let measured = [Section.sizes(sizes)]
  var one = empty
  report(
    "compositional open of one section of \(n) measured (ns per item)",
    measure(runs: 3, setup: { one = empty }) { _ in
      one = Layout(type: list, sections: measured, viewportSize: viewport)
    }, per: Double(n), unit: "ns")
  let tall = one.contentSize.height
  report(
    "compositional attributesInRect 375x600, one section",
    measure(runs: 2000) { i in
      let b = Rect(
        x: 0, y: (Double(i) * 997).truncatingRemainder(dividingBy: max(tall - 600, 1)),
        width: 375, height: 600)
      _ = one.attributes(in: b, bounds: b)
    })
}

/// The peak resident set so far, in bytes (ru_maxrss). O(1).
func peakRSS() -> Double {
  var u = rusage()
  getrusage(RUSAGE_SELF.rawValue, &u)
  return Double(u.ru_maxrss) * 1024
}

// Snapshots (`flowlayout-bench N snapshot`): N items with ids in 10
// sections of a flow; a snapshot with 1 % of them changed (a third
// deleted, a third inserted, a third moved, some across sections), and an
// identical one. A row is what layout/applySnapshot does in process: the
// validation, the diff, the batch applied to the sections and the relayout.
func snapshotRows() {
  var rng = SplitMix(state: 7)
  let per = n / 10
  let old = (0..<10).map { k -> Section in
    var s = Section.uniform(per)
    s.id = .int(Int64(k))
    s.ids = IDList((0..<per).map { .int(Int64(k * per + $0)) })
    return s
  }
  var items = (0..<10).map { k in (0..<per).map { Int64(k * per + $0) } }
  let changes = max(n / 300, 1)
  var fresh = Int64(n)
  for _ in 0..<changes {
    let k = Int.random(in: 0..<10, using: &rng)
    items[k].remove(at: Int.random(in: 0..<items[k].count, using: &rng))
    let t = Int.random(in: 0..<10, using: &rng)
    items[t].insert(fresh, at: Int.random(in: 0...items[t].count, using: &rng))
    fresh += 1
    let a = Int.random(in: 0..<10, using: &rng)
    let moved = items[a].remove(at: Int.random(in: 0..<items[a].count, using: &rng))
    let b = Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 0..<10, using: &rng) : a
    items[b].insert(moved, at: Int.random(in: 0...items[b].count, using: &rng))
  }
  func snapshot(_ items: [[Int64]]) -> Snapshot {
    Snapshot(
      sections: items.enumerated().map { k, ids in
        SnapshotSection(id: .int(Int64(k)), items: ids.map { SnapshotItem(id: .int($0)) })
      })
  }
  let changed = snapshot(items)
  let same = snapshot(
    old.map { s in
      s.ids!.array.map { id -> Int64 in
        guard case .int(let v) = id! else { return -1 }
        return v
      }
    })
  let base = Layout(type: .flow(FlowConfiguration()), sections: old, viewportSize: viewport)
  func apply(_ snap: Snapshot) -> Layout {
    let index = try! snap.validate()
    let update = snap.batch(from: old, index: index)!
    let result = try! update.apply(to: old, uniformSize: FlowConfiguration().itemSize)
    var layout = base
    layout.apply(result)
    return layout
  }
  let runs = n > 100_000 ? 5 : 20
  let before = peakRSS()
  report(
    "snapshot of \(n) items, 1% changed: diff and apply",
    measure(runs: runs) { _ in
      _ = apply(changed)
    }, unit: "ms")
  print("snapshot peak extra memory: \(fmt((peakRSS() - before) / Double(n))) B/item")
  report(
    "snapshot of \(n) items, identical: diff and apply",
    measure(runs: runs) { _ in
      _ = apply(same)
    }, unit: "ms")
  // Over the wire: the changed snapshot as JSON through the handler, on a
  // session opened with the old ids; the handler's cost beyond jansson's
  // parse of the same text is the daemon's.
  func idList(_ ids: [Int64]) -> String { "[" + ids.map(String.init).joined(separator: ",") + "]" }
  let original = (0..<10).map { k in (0..<per).map { Int64(k * per + $0) } }
  func sectionsJSON(_ lists: [[Int64]], key: String, count: Bool) -> String {
    lists.enumerated().map { k, ids in
      "{\"id\":\(k),\(count ? "\"itemCount\":\(ids.count)," : "")\"\(key)\":\(idList(ids))}"
    }.joined(separator: ",")
  }
  let session = "{\"session\":\"snap\","
  // Its own handler: the global one is set up later in this file's order.
  let wire = Handler()
  wire.call(
    "layout/open",
    session
      + "\"layout\":{\"type\":\"flow\"},\"bounds\":{\"x\":0,\"y\":0,\"width\":375,\"height\":600},"
      + "\"sections\":[\(sectionsJSON(original, key: "ids", count: true))]}")
  let text = session + "\"sections\":[\(sectionsJSON(items, key: "items", count: false))]}"
  let back = session + "\"sections\":[\(sectionsJSON(original, key: "items", count: false))]}"
  // Each run applies the changed snapshot to the old data, which the
  // untimed setup puts back.
  report(
    "layout/applySnapshot over JSON, 1% changed",
    measure(runs: runs, setup: { wire.call("layout/applySnapshot", back) }) { _ in
      wire.call("layout/applySnapshot", text)
    }, unit: "ms")
  report(
    "jansson parse of that snapshot",
    measure(runs: runs) { _ in _ = try! JSONDocument.parse(text) }, unit: "ms")
}
