// The carousel's slots: iCarousel's item width apart, on the shared slot
// placement.

extension SlotGeometry {
  /// A carousel's slots: w (the largest item extent along the axis) apart,
  /// divided by the offset multiplier. O(sections): sizes come from the
  /// ropes' summaries.
  public init(configuration c: CarouselConfiguration, sections: [Section], viewport: Size) {
    let horizontal = c.scrollDirection == .horizontal
    var starts = [0]
    var extent = horizontal ? c.itemSize.width : c.itemSize.height
    var lists: [SizeList?] = []
    var anyUniform = false
    for s in sections {
      starts.append(starts[starts.count - 1] + s.count)
      switch s.items {
      case .uniform(let n):
        lists.append(nil)
        anyUniform = anyUniform || n > 0
      case .sizes(let list):
        lists.append(list)
        let sum = list.summary
        if sum.unset > 0 { anyUniform = true }
        if sum.count > sum.unset { extent = max(extent, horizontal ? sum.maxWidth : sum.maxHeight) }
      }
    }
    // With no item of the uniform size, w is the largest size carried.
    if !anyUniform, starts[starts.count - 1] > 0 {
      extent = 0
      for case let list? in lists where list.summary.count > list.summary.unset {
        extent = max(extent, horizontal ? list.summary.maxWidth : list.summary.maxHeight)
      }
    }
    self.init(
      pitch: extent / c.resolvedOffsetMultiplier, itemExtent: extent, itemSize: c.itemSize,
      sizes: lists, starts: starts, wraps: c.resolvedWrap, horizontal: horizontal,
      viewport: viewport, emptyExtent: horizontal ? viewport.width : viewport.height)
  }
}
