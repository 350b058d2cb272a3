import LayoutEngine

// Drag to reorder (`flowlayout-bench N reorder`): issue #27's rows, at N
// items of varied sizes in a flow of wrapping lines and in a waterfall of
// 3 columns, packed and stable. The item at N/2 is grabbed; the first update
// takes the target 10,000 items away (one move's relayout of the lines
// between); then each frame moves the finger to the next item's centre, so
// the target moves by a slot a frame, and walks the viewport as a frame
// does. End and cancel are a single batch move and a walk of the data.

func reorderRows() {
  var flow = Layout(
    type: .flow(FlowConfiguration()), sections: [.sizes(sizes)], viewportSize: viewport)
  reorderRows("flow", flow)
  flow = empty
  var c = WaterfallConfiguration()
  c.columnCount = 3
  var packed = Layout(type: .waterfall(c), sections: [.sizes(sizes)], viewportSize: viewport)
  reorderRows("waterfall packed", packed)
  packed = empty
  c.placement = .stable
  var stable = Layout(type: .waterfall(c), sections: [.sizes(sizes)], viewportSize: viewport)
  reorderRows("waterfall stable", stable)
  stable = empty
}

func reorderRows(_ name: String, _ data: Layout) {
  let origin = IndexPath(section: 0, item: n / 2)
  let frames = 400
  // 10,000 items on, or as far as a smaller n allows.
  let far = min(origin.item + 10_000, n - 2 - frames / 2)
  func centre(_ i: Int) -> Point {
    data.attributesForItem(
      IndexPath(section: 0, item: i), bounds: Rect(origin: .zero, size: viewport))!
      .frame.center
  }
  let start = centre(far)
  let bounds = Rect(
    x: 0, y: start.y - viewport.height / 2, width: viewport.width, height: viewport.height)
  let positions = (0..<frames).map { centre(far + 1 + $0 / 2) }
  for targeting in ReorderOptions.Targeting.allCases {
    var options = ReorderOptions()
    options.targeting = targeting
    var m = InteractiveMovement(data, origin: origin, lap: nil, bounds: bounds)!
    report(
      "reorder \(name) \(targeting): first update, target 10,000 items away",
      measure(
        runs: 5, setup: { m = InteractiveMovement(data, origin: origin, lap: nil, bounds: bounds)! }
      ) { _ in
        m.update(position: start, bounds: bounds, data: data, options: options)
      })
    var moved = 0
    report(
      "reorder \(name) \(targeting): update frame",
      measure(runs: frames) { i in
        if m.update(position: positions[i], bounds: bounds, data: data, options: options) {
          moved += 1
        }
        _ = m.attributesAndCenteredCard(in: bounds, bounds: bounds)
      })
    print("reorder \(name) \(targeting): target changes: \(moved) of \(frames) frames")
  }
  let target = IndexPath(section: 0, item: far)
  var u = BatchUpdate()
  u.moveItems = [(origin, target, nil)]
  var after = data
  report(
    "reorder \(name): end (one batch move of 10,000 items)",
    measure(runs: 5, setup: { after = data }) { _ in
      after.apply(try! u.apply(to: data.sections, uniformSize: data.type.uniformItemSize))
    })
  report(
    "reorder \(name): cancel (a walk of the data)",
    measure(runs: 50) { _ in _ = data.attributesAndCenteredCard(in: bounds, bounds: bounds) })
}
