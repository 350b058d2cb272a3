// Groups of a compositional layout (rules 2 and 3 of protocol.md's
// compositional geometry). A section's group is resolved once against its
// container: the fit rule decides how many copies of each subitem it
// holds, from the estimates, and that never changes with measured sizes.
// Placing the resolved tree gives every leaf's cell frame relative to the
// group's origin; only measured sizes along estimated axes make one
// group's placement differ from another's. Sizes here are literal widths
// and heights: a horizontal scroll swaps how groups stack, not what
// fractionalWidth means.

/// The most items one top-level group may hold: the fit rule stops
/// repeating there, so that a subitem of zero extent cannot repeat forever.
public let maxItemsPerGroup = 4096

/// A node of a resolved group: a leaf (one data item) or a group of nodes.
struct GroupNode: Sendable {
  /// The size from the estimates, as resolved against the container.
  var size: Size
  /// Whether width, then height, is an estimated dimension.
  var estimatedWidth: Bool
  var estimatedHeight: Bool
  /// An item's or a group's contentInsets (left = leading).
  var insets: Insets
  /// Nil for a leaf.
  var group: Arrangement?
  var children: [GroupNode] = []

  struct Arrangement: Sendable {
    var horizontal: Bool
    var spacing: LayoutSpacing
  }
}

/// A section's group resolved against its container: its leaves' cell
/// frames when no item is measured, and the tree to place again when some
/// are. Shared by every section with the same layout and container.
final class GroupTemplate: Sendable {
  /// The resolved tree, flattened (see `FlatNode`).
  let nodes: [FlatNode]
  /// The section layout and the container it was resolved for: sections
  /// share them through the template, one reference each.
  let layout: SectionLayout
  let container: Size
  /// Items per full group (≥ 1).
  let leafCount: Int
  /// The group's size with every item at its estimate.
  let size: Size
  /// Cell frames relative to the group's origin, leaf by leaf.
  let frames: [Rect]
  /// Whether any leaf has an estimated dimension: only then do measured
  /// sizes move anything.
  let measurable: Bool
  /// The frames' bounding box relative to the group's origin (with the
  /// origin itself), and the largest frame width or height: what a
  /// section of unmeasured items needs of its cells in O(1).
  let box: Rect
  let largestExtent: Double

  /// What the sections of this template share (CompositionalPlacement).
  let shape: SectionShape

  /// Resolves the layout's group against `container`, for a layout
  /// scrolling along `axes` with cross extent `W`. O(items per group ·
  /// depth).
  init(_ layout: SectionLayout, container: Size, axes: Axes, crossExtent W: Double) {
    self.layout = layout
    self.container = container
    var budget = maxItemsPerGroup
    let root = Self.resolve(.group(layout.group), in: container, budget: &budget)
    let nodes = Self.flatten(root)
    self.nodes = nodes
    var frames: [Rect] = []
    var leaf = 0
    size = nodes.withUnsafeBufferPointer {
      Self.place(0, $0, measured: { _ in nil }, leaf: &leaf, frames: &frames)
    }
    leafCount = frames.count
    self.frames = frames
    measurable = Self.hasEstimatedLeaf(root)
    var (x0, y0, x1, y1, e) = (0.0, 0.0, 0.0, 0.0, 0.0)
    for f in frames {
      x0 = min(x0, f.minX)
      y0 = min(y0, f.minY)
      x1 = max(x1, f.maxX)
      y1 = max(y1, f.maxY)
      e = max(e, f.width, f.height)
    }
    box = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    largestExtent = e
    shape = SectionShape(layout, container: container, size: size, box: box, axes: axes, W: W)
  }

  private static func hasEstimatedLeaf(_ n: GroupNode) -> Bool {
    n.group == nil
      ? n.estimatedWidth || n.estimatedHeight : n.children.contains { hasEstimatedLeaf($0) }
  }

  /// Rule 2: a node's size against its container, and a group's children
  /// by the fit rule (or `count`). O(leaves · depth).
  private static func resolve(_ item: LayoutItem, in container: Size, budget: inout Int)
    -> GroupNode
  {
    let dims = item.size
    let size = dims.resolved(in: container)
    switch item {
    case .item(_, let insets):
      budget -= 1
      return GroupNode(
        size: size, estimatedWidth: dims.width.isEstimated,
        estimatedHeight: dims.height.isEstimated, insets: insets.insets, group: nil)
    case .group(let g):
      let horizontal = g.direction == .horizontal
      let insets = g.contentInsets.insets
      let extent =
        horizontal
        ? size.width - insets.left - insets.right : size.height - insets.top - insets.bottom
      let s = g.interItemSpacing.value
      // Subitems resolve against the area the insets leave them, as a
      // section's group resolves against its effective content size.
      let area = Size(
        width: max(0, size.width - insets.left - insets.right),
        height: max(0, size.height - insets.top - insets.bottom))
      var node = GroupNode(
        size: size, estimatedWidth: dims.width.isEstimated,
        estimatedHeight: dims.height.isEstimated, insets: insets,
        group: .init(horizontal: horizontal, spacing: g.interItemSpacing))
      if let n = g.count, let sub = g.subitems.first {
        // subitem:count: n copies sharing the extent, whatever the
        // subitem's own size says along it (and never re-measured there).
        let share = max(0, (extent - Double(n - 1) * s) / Double(n))
        for _ in 0..<n where budget > 0 {
          var child = resolve(sub, in: area, budget: &budget)
          if horizontal {
            child.size.width = share
            child.estimatedWidth = false
          } else {
            child.size.height = share
            child.estimatedHeight = false
          }
          node.children.append(child)
        }
        return node
      }
      // Repeat the subitems in order while the next still fits (1e-9
      // absorbs the rounding of fractional sums); the first always goes.
      var position = 0.0
      var k = 0
      while budget > 0 {
        let sub = g.subitems[k % g.subitems.count]
        var trial = budget
        let child = resolve(sub, in: area, budget: &trial)
        let along = horizontal ? child.size.width : child.size.height
        let start = k == 0 ? 0 : position + s
        if k > 0 && start + along > extent + 1e-9 { break }
        budget = trial
        node.children.append(child)
        position = start + along
        k += 1
      }
      return node
    }
  }

  /// A resolved node in `nodes`: the tree laid out breadth first, each
  /// group's children contiguous, so that placing a group walks a buffer
  /// and retains nothing.
  struct FlatNode: Sendable {
    var size: Size
    var estimatedWidth: Bool
    var estimatedHeight: Bool
    var insets: Insets
    /// Nil for a leaf.
    var group: GroupNode.Arrangement?
    var first: Int
    var count: Int
  }

  static func flatten(_ root: GroupNode) -> [FlatNode] {
    var nodes: [FlatNode] = []
    var queue: [GroupNode] = [root]
    var head = 0
    while head < queue.count {
      let n = queue[head]
      head += 1
      // Children go after every node already queued.
      nodes.append(
        FlatNode(
          size: n.size, estimatedWidth: n.estimatedWidth, estimatedHeight: n.estimatedHeight,
          insets: n.insets, group: n.group, first: queue.count, count: n.children.count))
      queue.append(contentsOf: n.children)
    }
    return nodes
  }

  /// Rule 3: places node `k` at the origin, appending its leaves' cell
  /// frames, and returns its size. `measured(leaf)` is a leaf's measured
  /// size, which replaces the estimate along its estimated axes; a group
  /// with an estimated dimension fits its subitems along it. O(leaves ·
  /// depth).
  static func place(
    _ k: Int, _ nodes: UnsafeBufferPointer<FlatNode>, measured: (Int) -> Size?, leaf: inout Int,
    frames: inout [Rect]
  ) -> Size {
    let node = nodes[k]
    guard let arrangement = node.group else {
      var s = node.size
      if let m = measured(leaf) {
        if node.estimatedWidth { s.width = m.width }
        if node.estimatedHeight { s.height = m.height }
      }
      leaf += 1
      // The item's insets, except along an estimated axis (as UIKit).
      let i = node.insets
      let (l, r) = node.estimatedWidth ? (0.0, 0.0) : (i.left, i.right)
      let (t, b) = node.estimatedHeight ? (0.0, 0.0) : (i.top, i.bottom)
      frames.append(
        Rect(
          x: l, y: t, width: max(0, s.width - l - r), height: max(0, s.height - t - b)))
      return s
    }
    // Children placed at the origin first: flexible spacing needs their
    // extents before any position. Their sizes and frame ranges go in a
    // buffer on the stack, not an array per group.
    return withUnsafeTemporaryAllocation(
      of: (range: Range<Int>, size: Size).self, capacity: node.count
    ) { placed in
      for c in 0..<node.count {
        let from = frames.count
        let s = place(node.first + c, nodes, measured: measured, leaf: &leaf, frames: &frames)
        placed.initializeElement(at: c, to: (from..<frames.count, s))
      }
      return arrange(node, arrangement, placed.prefix(node.count), &frames)
    }
  }

  /// Positions a group's placed children (`placed`: each one's frame range
  /// and size) and returns the group's size. O(the children's frames).
  private static func arrange(
    _ node: FlatNode, _ arrangement: GroupNode.Arrangement,
    _ placed: Slice<UnsafeMutableBufferPointer<(range: Range<Int>, size: Size)>>,
    _ frames: inout [Rect]
  ) -> Size {
    let h = arrangement.horizontal
    let i = node.insets
    let inner = h ? node.size.width - i.left - i.right : node.size.height - i.top - i.bottom
    var gap = arrangement.spacing.value
    if case .flexible = arrangement.spacing, placed.count > 1 {
      let used = placed.reduce(0.0) { $0 + (h ? $1.size.width : $1.size.height) }
      gap += max(0, inner - used - Double(placed.count - 1) * gap) / Double(placed.count - 1)
    }
    var position = h ? i.left : i.top
    var across = 0.0
    for (k, (range, s)) in zip(0..., placed) {
      if k > 0 { position += gap }
      let dx = h ? position : i.left
      let dy = h ? i.top : position
      for f in range {
        frames[f].x += dx
        frames[f].y += dy
      }
      position += h ? s.width : s.height
      across = max(across, h ? s.height : s.width)
    }
    var size = node.size
    // An estimated dimension fits the subitems: along the direction to
    // the last one's end, across to the largest.
    if node.estimatedWidth { size.width = h ? position + i.right : i.left + across + i.right }
    if node.estimatedHeight { size.height = h ? i.top + across + i.bottom : position + i.bottom }
    return size
  }

  /// Places one group given each item's measured size (`measured(i)` for
  /// the group's i-th item), appending its cell frames to `frames`, and
  /// returns its size. O(items per group · depth).
  func place(into frames: inout [Rect], _ measured: (Int) -> Size?) -> Size {
    var leaf = 0
    return nodes.withUnsafeBufferPointer {
      Self.place(0, $0, measured: measured, leaf: &leaf, frames: &frames)
    }
  }
}
