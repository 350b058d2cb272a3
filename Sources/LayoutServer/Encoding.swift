import JSONRPC
import LayoutEngine

// Engine values → JSON, written straight into the response bytes.

extension JSONWriter {
  mutating func point(_ p: Point) {
    // A trajectory's every sample: literal pieces, as `attributes`.
    beginRawValue()
    rawLiteral("{\"x\":")
    rawNumber(p.x)
    // A scroll along one axis keeps the other at 0 (rawNumber writes 0 and
    // -0 as 0): the rest of the sample is a literal.
    if p.y == 0 {
      rawLiteral(",\"y\":0}")
      return
    }
    rawLiteral(",\"y\":")
    rawNumber(p.y)
    rawLiteral("}")
  }

  mutating func size(_ s: Size) {
    beginObject()
    key("width")
    number(s.width)
    key("height")
    number(s.height)
    endObject()
  }

  mutating func rect(_ r: Rect) {
    beginObject()
    key("x")
    number(r.x)
    key("y")
    number(r.y)
    key("width")
    number(r.width)
    key("height")
    number(r.height)
    endObject()
  }

  mutating func indexPath(_ p: IndexPath?) {
    guard let p else { return null() }
    beginObject()
    key("section")
    int(p.section)
    key("item")
    int(p.item)
    endObject()
  }

  /// `{section, item, lap?}` or null; `lap` only in a looping carousel.
  mutating func card(_ c: Card?) {
    guard let c else { return null() }
    card(c.path, lap: c.lap)
  }

  mutating func card(_ p: IndexPath?, lap: Int?) {
    guard let p else { return null() }
    beginObject()
    key("section")
    int(p.section)
    key("item")
    int(p.item)
    if let lap {
      key("lap")
      int(lap)
    }
    endObject()
  }

  /// The members that name an element, inside an object the caller opened:
  /// kind, section, item, and lap in a looping carousel.
  mutating func identity(_ kind: ElementKind, _ section: Int, _ item: Int, _ lap: Int?) {
    key("kind")
    string(kind.rawValue)
    key("section")
    int(section)
    key("item")
    int(item)
    if let lap {
      key("lap")
      int(lap)
    }
  }

  /// `{kind, section, item, lap?, center, size, frame, transform?, alpha,
  /// zIndex, hidden?}`; the transform is omitted when it is the identity,
  /// `lap` when the layout does not loop, `hidden` unless it is true.
  mutating func attributes(_ a: LayoutAttributes) {
    // The hottest shape of every answer, written as literal pieces: the
    // same bytes as beginObject, key and number would write.
    beginRawValue()
    // Room at once for everything up to the transform, so that its literal
    // pieces need no check each: under 160 bytes of pieces, three integers
    // of at most 21 and eight numbers of at most 25, 423 bytes in all.
    reserveRaw(512)
    switch a.kind {
    case .cell: rawLiteralUnchecked("{\"kind\":\"cell\",\"section\":")
    case .header: rawLiteralUnchecked("{\"kind\":\"header\",\"section\":")
    case .footer: rawLiteralUnchecked("{\"kind\":\"footer\",\"section\":")
    // The only decoration compositional sections have.
    case .decoration:
      rawLiteralUnchecked("{\"kind\":\"decoration\",\"elementKind\":\"background\",\"section\":")
    }
    rawInt(a.section)
    rawLiteralUnchecked(",\"item\":")
    rawInt(a.item)
    if let lap = a.lap {
      rawLiteralUnchecked(",\"lap\":")
      rawInt(lap)
    }
    rawLiteralUnchecked(",\"center\":{\"x\":")
    rawNumber(a.center.x)
    rawLiteralUnchecked(",\"y\":")
    rawNumber(a.center.y)
    rawLiteralUnchecked("},\"size\":{\"width\":")
    rawNumber(a.size.width)
    rawLiteralUnchecked(",\"height\":")
    rawNumber(a.size.height)
    rawLiteralUnchecked("},\"frame\":{\"x\":")
    rawNumber(a.frame.x)
    rawLiteralUnchecked(",\"y\":")
    rawNumber(a.frame.y)
    rawLiteralUnchecked(",\"width\":")
    rawNumber(a.frame.width)
    rawLiteralUnchecked(",\"height\":")
    rawNumber(a.frame.height)
    rawLiteralUnchecked("}")
    if !a.transform.isIdentity { transform(a.transform) }
    rawLiteral(",\"alpha\":")
    rawNumber(a.alpha)
    rawLiteral(",\"zIndex\":")
    rawInt(a.zIndex)
    if a.hidden { rawLiteral(",\"hidden\":true") }
    rawLiteral("}")
  }

  /// `,"transform":[16 numbers]`, row by row.
  private mutating func transform(_ t: Transform3D) {
    let m = t.m
    rawLiteral(",\"transform\":[")
    // Cover flow's every card: a scale in the plane and nothing else,
    // written as two numbers between literal pieces instead of sixteen
    // (the same bytes: rawNumber writes 0 and 1, and -0 as 0).
    if m.1 == 0 && m.2 == 0 && m.3 == 0 && m.4 == 0 && m.6 == 0 && m.7 == 0 && m.8 == 0
      && m.9 == 0 && m.10 == 1 && m.11 == 0 && m.12 == 0 && m.13 == 0 && m.14 == 0
      && m.15 == 1
    {
      let from = byteCount
      rawNumber(m.0)
      let scaleBytes = byteCount - from
      rawLiteral(",0,0,0,0,")
      // A uniform scale: the same double twice, formatted once.
      if m.5.bitPattern == m.0.bitPattern {
        rawRepeat(from: from, count: scaleBytes)
      } else {
        rawNumber(m.5)
      }
      rawLiteral(",0,0,0,0,1,0,0,0,0,1]")
      return
    }
    // Straight from the tuple: no array per element on the per-frame path.
    withUnsafeBytes(of: m) { raw in
      for (k, v) in raw.bindMemory(to: Double.self).enumerated() {
        if k > 0 { rawLiteral(",") }
        rawNumber(v)
      }
    }
    rawLiteral("]")
  }

  mutating func attributesArray(_ list: [LayoutAttributes]) {
    beginArray()
    list.withUnsafeBufferPointer { all in for k in all.indices { attributes(all[k]) } }
    endArray()
  }

  /// The elements of `list` at `positions`, as an array. Through a
  /// pointer: an element read by subscript is copied whole (240 bytes).
  mutating func attributesArray(_ list: [LayoutAttributes], at positions: [Int]) {
    beginArray()
    list.withUnsafeBufferPointer { all in for k in positions { attributes(all[k]) } }
    endArray()
  }

  /// `{targetContentOffset, targetItem, projectedContentOffset, policy,
  /// durationMs, trajectory}`.
  mutating func plan(_ p: ScrollPlan) {
    beginObject()
    key("targetContentOffset")
    point(p.targetContentOffset)
    key("targetItem")
    card(p.targetItem, lap: p.targetLap)
    key("projectedContentOffset")
    point(p.projectedContentOffset)
    key("policy")
    string(p.policy.rawValue)
    key("durationMs")
    number(p.durationMs)
    key("trajectory")
    beginArray()
    for q in p.trajectory { point(q) }
    endArray()
    endObject()
  }
}
