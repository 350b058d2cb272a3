// Slots: one per item, a constant pitch apart along the scroll axis,
// whatever the items' sizes. Item i's slot is centred where the viewport's
// centre is when the content offset is i · pitch, so its rest offset is
// exactly i · pitch and the scroll offset in items is contentOffset / pitch.
// iCarousel's styles draw every item at the viewport's centre from these
// slots (Kinds/Carousel); FSPagerView's pages are drawn at them
// (Kinds/Pager). Snapping, scrolling to an item and anchoring work with
// the slots.

/// Slots for one viewport size, in content coordinates.
public struct SlotGeometry: Placement {
  /// Points between neighbouring slots.
  public let pitch: Double
  /// The largest item extent along the scroll axis.
  public let itemExtent: Double
  /// Whether the content repeats (one period is n · pitch).
  public let wraps: Bool
  let horizontal: Bool
  let viewport: Size
  let sizes: [SizeList?]
  let uniform: Size
  /// The content's extent along the axis without items and without wrap.
  let emptyExtent: Double
  /// The global index of each section's first item, then the item count.
  let starts: [Int]

  /// Slots `pitch` apart for items of `itemSize` (`sizes`: a section's own
  /// sizes, nil for uniform ones; `starts`: each section's first global
  /// index, then the count). O(1).
  init(
    pitch: Double, itemExtent: Double, itemSize: Size, sizes: [SizeList?], starts: [Int],
    wraps: Bool, horizontal: Bool, viewport: Size, emptyExtent: Double
  ) {
    self.pitch = pitch
    self.itemExtent = itemExtent
    self.uniform = itemSize
    self.sizes = sizes
    self.starts = starts
    self.wraps = wraps
    self.horizontal = horizontal
    self.viewport = viewport
    self.emptyExtent = emptyExtent
  }

  /// The number of items across all sections. O(1).
  public var itemCount: Int { starts[starts.count - 1] }

  var main: Double { horizontal ? viewport.width : viewport.height }
  var cross: Double { horizontal ? viewport.height : viewport.width }

  /// Without wrap, offsets run over [0, (n − 1) · pitch]: (n − 1) · pitch
  /// plus the viewport's extent (`emptyExtent` without items). With wrap,
  /// one period, n · pitch (offsets are unbounded). O(1).
  /// Each section's first global index follows the last one's items, and
  /// the sizes it holds are sound. O(n).
  public func invariantViolation() -> String? {
    if starts.count != sizes.count + 1 {
      return "slots: \(starts.count) starts for \(sizes.count) sections"
    }
    for s in sizes.indices {
      if starts[s + 1] < starts[s] { return "slots: section \(s) starts after the next one" }
      if let list = sizes[s] {
        if list.count != starts[s + 1] - starts[s] {
          return "slots: section \(s)'s sizes are not its items"
        }
        if let v = list.invariantViolation() { return "slots: section \(s)'s sizes: \(v)" }
      }
    }
    return nil
  }

  public var contentSize: Size {
    let n = Double(itemCount)
    let m = wraps ? n * pitch : n == 0 ? emptyExtent : (n - 1) * pitch + main
    return horizontal ? Size(width: m, height: cross) : Size(width: cross, height: m)
  }

  public var sectionCount: Int { starts.count - 1 }

  public func itemCount(inSection s: Int) -> Int { starts[s + 1] - starts[s] }

  public var elementSpan: (lo: Double, hi: Double) {
    let n = itemCount
    guard n > 0 else { return (0, 0) }
    let half = maxExtent / 2
    return (main / 2 - half, Double(n - 1) * pitch + main / 2 + half)
  }

  /// The largest extent of any item along either axis.
  var maxExtent: Double {
    var e = max(uniform.width, uniform.height)
    for case let list? in sizes where list.summary.count > list.summary.unset {
      e = max(e, list.summary.maxWidth, list.summary.maxHeight)
    }
    return e
  }

  /// The global index of an item. O(1).
  public func globalIndex(_ path: IndexPath) -> Int { starts[path.section] + path.item }

  /// The index path of a global index. O(log sections).
  public func indexPath(global g: Int) -> IndexPath {
    let s = upperBound(sectionCount) { starts[$0 + 1] > g }
    return IndexPath(section: s, item: g - starts[s])
  }

  /// An item's own size (the uniform size when it carries none). O(log n).
  public func size(of path: IndexPath) -> Size {
    guard let list = sizes[path.section] else { return uniform }
    let s = list[path.item]
    return s == Section.unsetSize ? uniform : s
  }

  /// The content offset along the scroll axis that centres item `g`:
  /// exactly g · pitch. O(1).
  public func restOffset(global g: Int) -> Double? { Double(g) * pitch }

  func slotOffset(_ g: Int) -> Double { Double(g) * pitch }

  /// The centre of item `path`'s slot, in copy `lap` when the slots wrap
  /// (a copy is one period, the content's extent, further): where
  /// anchoring measures an item that is drawn away from its slot. O(log n).
  func slotCenter(_ path: IndexPath, lap: Int?) -> Point {
    var c = frameForItem(path).center
    if let lap, wraps {
      let size = contentSize
      let shift = Double(lap) * (horizontal ? size.width : size.height)
      if horizontal { c.x += shift } else { c.y += shift }
    }
    return c
  }

  /// The slot: the item's own size, centred at g · pitch + W / 2 along the
  /// scroll axis and at the viewport's centre across. O(log n).
  public func frameForItem(_ path: IndexPath) -> Rect {
    let size = size(of: path)
    let c = slotOffset(globalIndex(path)) + main / 2
    let x = horizontal ? c : cross / 2
    let y = horizontal ? cross / 2 : c
    return Rect(
      x: x - size.width / 2, y: y - size.height / 2, width: size.width, height: size.height)
  }

  /// A carousel has no headers or footers.
  public func frameForSupplementary(_ kind: ElementKind, section s: Int, pin: Pinning?) -> Rect? {
    nil
  }

  /// The global indices of the slots that can meet `rect` (empty when
  /// none). O(1).
  private func slotRange(_ rect: Rect) -> ClosedRange<Int>? {
    let n = itemCount
    guard n > 0 else { return nil }
    let (lo, hi) = horizontal ? (rect.minX, rect.maxX) : (rect.minY, rect.maxY)
    let half = maxExtent / 2
    var first = 0
    var last = n - 1
    if pitch > 0 {
      let a = ((lo - main / 2 - half) / pitch).rounded(.down)
      let b = ((hi - main / 2 + half) / pitch).rounded(.up)
      guard b >= 0, a <= Double(n - 1) else { return nil }
      first = Int(max(a, 0))
      last = Int(min(b, Double(n - 1)))
    }
    return first <= last ? first...last : nil
  }

  /// Every slot that meets `rect`. O(log sections + k).
  public func forEachElement(
    in rect: Rect, pin: Pinning?, _ body: (ElementKind, Int, Int, Rect) -> Void
  ) {
    forEachElement(in: rect, pin: pin, after: nil) { kind, s, i, r in
      body(kind, s, i, r)
      return true
    }
  }

  /// The slots meeting `rect` after `after`, until `body` returns false:
  /// from the first slot past `after`, not from the rect's start. O(log
  /// sections + slots visited).
  public func forEachElement(
    in rect: Rect, pin: Pinning?, after: ElementPosition?,
    _ body: (ElementKind, Int, Int, Rect) -> Bool
  ) {
    guard let range = slotRange(rect) else { return }
    var g = range.lowerBound
    if let after { g = max(g, firstGlobal(after: after)) }
    while g <= range.upperBound {
      let path = indexPath(global: g)
      let frame = frameForItem(path)
      if frame.intersects(rect), !body(.cell, path.section, path.item, frame) { return }
      g += 1
    }
  }

  /// The global index of the first slot after `after` in document order
  /// (the item count when none is). O(1).
  private func firstGlobal(after a: ElementPosition) -> Int {
    let n = itemCount
    guard a.section >= 0 else { return 0 }
    guard a.section < sectionCount else { return n }
    let rest = a.rest(of: a.section)
    let start = starts[a.section]
    let count = itemCount(inSection: a.section)
    return rest.fromItem >= count ? starts[a.section + 1] : start + rest.fromItem
  }

  /// At least as many slots as `forEachElement(in: rect)` visits. O(1).
  public func elementCountBound(in rect: Rect, pin: Pinning?) -> Int {
    let n = itemCount
    guard n > 0 else { return 0 }
    guard pitch > 0 else { return n }
    let (lo, hi) = horizontal ? (rect.minX, rect.maxX) : (rect.minY, rect.maxY)
    let span = (hi - lo + maxExtent) / pitch + 2
    return span >= Double(n) ? n : max(0, Int(span))
  }

  /// The item whose slot centre is nearest `point` along the scroll axis
  /// (a carousel has one row), ties to the earlier. O(log sections).
  public func nearestItem(to point: Point, mainAxisOnly: Bool) -> IndexPath? {
    let n = itemCount
    guard n > 0 else { return nil }
    guard pitch > 0 else { return indexPath(global: 0) }
    let u = ((horizontal ? point.x : point.y) - main / 2) / pitch
    // Ties (u exactly halfway) go to the earlier item.
    let g = (u - 0.5).rounded(.up)
    return indexPath(global: Int(min(max(g, 0), Double(n - 1))))
  }
}
