import LayoutEngine

// Outlines (`flowlayout-bench N outline`): issue #43's rows. A plain list
// of N outline nodes: one root with 100,000 leaf children (or N/10 at a
// smaller N), expanded, at the top of the viewport, then N − k − 1 leaf
// roots. Collapsing it hides k rows, expanding it brings them back: each a
// live commit (the tree's flag, the batch of rows, the anchoring, the
// picture). A setBounds frame over the outline is held to the same frame
// over a flat list of the same rows.

func outlineRows() {
  let k = min(100_000, n / 10)
  var roots = [
    OutlineNode(
      id: .int(0), expanded: true, children: (1...k).map { OutlineNode(id: .int(Int64($0))) })
  ]
  roots += (k + 1..<n).map { OutlineNode(id: .int(Int64($0))) }
  let tree = try! Outline(roots)
  roots = []
  let bounds = Rect(origin: .zero, size: viewport)
  let list = LayoutType.list(ListConfiguration())
  let outline = Layout(type: list, sections: [Section(outline: tree)], viewportSize: viewport)
  var (open, _) = try! LiveLayout.open(outline, bounds: bounds)
  var live = open
  report(
    "outline: collapse a node of \(k) visible descendants among \(n) nodes",
    measure(runs: 11, setup: { live = open }) { _ in
      _ = try! live.commit(.collapse([.int(0)]))
    }, unit: "ms")
  var collapsed = open
  _ = try! collapsed.commit(.collapse([.int(0)]))
  report(
    "outline: expand it again",
    measure(runs: 11, setup: { live = collapsed }) { _ in
      _ = try! live.commit(.expand([.int(0)], children: nil))
    }, unit: "ms")
  // A scroll frame: the same walk down the rows, over the outline and over
  // a flat list of the same ids.
  var flatSection = Section.uniform(n)
  flatSection.ids = IDList((0..<n).map { ItemID.int(Int64($0)) })
  let flat = Layout(type: list, sections: [flatSection], viewportSize: viewport)
  let frames = 2_000
  for (name, layout) in [("outline", outline), ("flat list", flat)] {
    (open, _) = try! LiveLayout.open(layout, bounds: bounds)
    live = open
    report(
      "outline: setBounds frame over the \(name)",
      measure(runs: frames) { i in
        _ = try! live.commit(
          .setBounds(
            Rect(x: 0, y: 1_000 + Double(i) * 13.7, width: viewport.width, height: viewport.height))
        )
      })
  }
  open = live
}
