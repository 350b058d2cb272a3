// The query pipeline, written once for every kind: widen (the kind's search
// rect), walk (the placement's elements, copy by copy when the kind repeats
// its placement; an outline row's cell marked with its level and flag),
// effect (the kind's), clip (when the effect moves frames),
// rtl (mirrored back out of the left-to-right space). These are the default
// implementations of LayoutKind's queries: each is specialised for its kind,
// so a frame dispatches once, when `Layout` opens the kind, and never per
// element.

extension LayoutKind {
  @inline(__always)
  func attributes(
    in rect: Rect, bounds: Rect, nearest: inout Layout.NearestCell?, _ g: Geometry,
    of layout: Layout
  ) -> [LayoutAttributes] {
    if layout.repetition == .copies {
      return layout.loopAttributes(self, g, in: rect, bounds: bounds)
    }
    return layout.pipelineAttributes(self, g, in: rect, bounds: bounds, nearest: &nearest)
  }

  func forEachAttribute(
    in rect: Rect, bounds: Rect, after: PageStart?, _ g: Geometry, of layout: Layout,
    _ take: (LayoutAttributes) -> Bool
  ) {
    if layout.repetition == .copies && layout.period > 0 {
      layout.loopForEachAttribute(self, g, in: rect, bounds: bounds, after: after, take)
    } else {
      layout.pipelineForEachAttribute(self, g, in: rect, bounds: bounds, after: after, take)
    }
  }

  func elementCountBound(in rect: Rect, bounds: Rect, _ g: Geometry, of layout: Layout) -> Int {
    if layout.repetition == .copies && layout.period > 0 {
      return layout.loopElementCountBound(self, g, in: rect, bounds: bounds)
    }
    let r = layout.toLTR(rect)
    let b = layout.toLTR(bounds)
    return g.elementCountBound(in: searchRect(r, bounds: b, g, in: layout), pin: layout.pinning(b))
  }

  func attributesForItem(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ g: Geometry, of layout: Layout
  ) -> LayoutAttributes? {
    let frame = g.frameForItem(path)
    if layout.repetition == .copies {
      return layout.loopElement(
        self, g, .cell, path.section, path.item, frame, lap: lap, bounds: bounds)
    }
    var a = LayoutAttributes(kind: .cell, section: path.section, item: path.item, frame: frame)
    var marker = layout.outlineRowMarker
    marker?.mark(&a, in: layout)
    applyEffect(to: &a, effectContext(bounds: layout.toLTR(bounds), g, in: layout), in: layout)
    layout.fromLTR(&a)
    return a
  }

  func attributesForSupplementary(
    _ kind: ElementKind, section: Int, lap: Int?, bounds: Rect, _ g: Geometry, of layout: Layout
  ) -> LayoutAttributes? {
    if layout.repetition == .copies {
      guard let frame = g.frameForSupplementary(kind, section: section, pin: nil)
      else { return nil }
      return layout.loopElement(self, g, kind, section, 0, frame, lap: lap, bounds: bounds)
    }
    let b = layout.toLTR(bounds)
    let pin = layout.pinning(b)
    guard let frame = g.frameForSupplementary(kind, section: section, pin: pin)
    else { return nil }
    var a = Layout.plain(kind, section, 0, frame, pinned: pin)
    applyEffect(to: &a, effectContext(bounds: b, g, in: layout), in: layout)
    layout.fromLTR(&a)
    return a
  }

  func lapsExamined(in rect: Rect, bounds: Rect, _ g: Geometry, of layout: Layout) -> Double {
    guard layout.repetition == .copies, layout.period > 0 else { return 0 }
    let (a, b) = layout.loopQuery(self, g, rect, bounds).laps
    return Double(b) - Double(a) + 1
  }

  /// The element's drawn centre.
  func anchorPoint(
    _ path: IndexPath, lap: Int?, bounds: Rect, _ g: Geometry, of layout: Layout
  ) -> Point? {
    attributesForItem(path, lap: lap, bounds: bounds, g, of: layout)?.center
  }
}

extension Layout {
  /// Widen, walk, effect, clip, rtl over one copy of the placement. O(log n
  /// + k) for k elements, plus what the placement's walk costs. Inlined
  /// into each kind's query, so that the walk's closure is specialised
  /// into the placement's loop (every frame runs it).
  @inline(__always)
  func pipelineAttributes<K: LayoutKind>(
    _ k: K, _ g: K.Geometry, in rect: Rect, bounds: Rect, nearest: inout NearestCell?
  ) -> [LayoutAttributes] {
    let rect = toLTR(rect)
    let bounds = toLTR(bounds)
    let pin = pinning(bounds)
    let search = k.searchRect(rect, bounds: bounds, g, in: self)
    let context = k.effectContext(bounds: bounds, g, in: self)
    var result: [LayoutAttributes] = []
    // A viewport's worth without regrowing: attributes are large.
    result.reserveCapacity(16)
    let axes = axes
    var marker = outlineRowMarker
    if nearest != nil {
      let (lo, hi, clo, chi) = axes.spans(search)
      nearest!.span = (lo, hi)
      nearest!.crossSpan = (clo, chi)
    }
    g.forEachElement(in: search, pin: pin) { kind, s, i, frame in
      // Built in place in the result (an attribute is 240 bytes: a copy
      // into it costs two), and taken back when its drawn box misses.
      result.append(
        Self.plain(
          kind, s, i, frame, pinned: pin,
          row: marker == nil ? nil : marker!.row(kind, s, i, in: self)))
      if kind == .cell, nearest != nil {
        let c = frame.center
        if nearest!.pc == nil {
          nearest!.visit(s, i, axes.main(c))
        } else {
          nearest!.visit(s, i, axes.main(c), axes.cross(c))
        }
      }
      if k.hasEffect {
        let last = result.count - 1
        k.applyEffect(to: &result[last], context, in: self)
        if !result[last].frame.intersects(rect) || !k.keeps(result[last]) { result.removeLast() }
      }
    }
    if isRTL { for i in result.indices { fromLTR(&result[i]) } }
    return result
  }

  /// `pipelineAttributes` one element at a time, from just after `after`,
  /// until `take` returns false. O(log n + elements visited).
  func pipelineForEachAttribute<K: LayoutKind>(
    _ k: K, _ g: K.Geometry, in rect: Rect, bounds: Rect, after: PageStart?,
    _ take: (LayoutAttributes) -> Bool
  ) {
    let r = toLTR(rect)
    let b = toLTR(bounds)
    let pin = pinning(b)
    let context = k.effectContext(bounds: b, g, in: self)
    var marker = outlineRowMarker
    g.forEachElement(
      in: k.searchRect(r, bounds: b, g, in: self), pin: pin, after: after?.position
    ) { kind, s, i, frame in
      var a = Self.plain(kind, s, i, frame, pinned: pin)
      marker?.mark(&a, in: self)
      if k.hasEffect {
        k.applyEffect(to: &a, context, in: self)
        guard a.frame.intersects(r), k.keeps(a) else { return true }
      }
      fromLTR(&a)
      return take(a)
    }
  }
}
