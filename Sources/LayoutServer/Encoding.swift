import JSONRPC
import LayoutEngine

// Engine values → JSON, written straight into the response bytes.

extension JSONWriter {
  /// `{"x":…,"y":…}`: a sample written in place (`RawCursor.point`).
  mutating func point(_ p: Point) {
    beginRawValue()
    let t = numberTables
    rawWrite(reserving: RawCursor.pointBytes + JSONWriter.numberRoom) { start in
      var c = RawCursor(o: start, t: t)
      c.point(p, inlined: false)
      return c.o - start
    }
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

  /// An item id: a string or an integer.
  mutating func itemID(_ id: ItemID) {
    switch id {
    case .int(let i): int64(i)
    case .string(let s): string(s)
    }
  }

  /// `{section, item, lap?, id?}` or null; `lap` only in a looping
  /// carousel, `id` only for an item that has one in `layout`.
  mutating func card(_ c: Card?, id: ItemID? = nil) {
    guard let c else { return null() }
    card(c.path, lap: c.lap, id: id)
  }

  mutating func card(_ p: IndexPath?, lap: Int?, id: ItemID? = nil) {
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
    if let id {
      key("id")
      itemID(id)
    }
    endObject()
  }

  /// The members that name an element, inside an object the caller opened:
  /// kind (and a separator's edge), section, item, and lap in a looping
  /// carousel.
  mutating func identity(_ kind: ElementKind, _ section: Int, _ item: Int, _ lap: Int?) {
    key("kind")
    string(kind.wireName)
    if let edge = kind.edge {
      key("edge")
      string(edge)
    }
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
  mutating func attributes(_ a: LayoutAttributes, id: ItemID? = nil, parent: ItemID? = nil) {
    // The hottest shape of every answer, written straight into the buffer
    // as literal pieces and numbers: the same bytes as beginObject, key
    // and number would write, for one capacity check a card.
    beginRawValue()
    let t = numberTables
    guard let id else {
      // At most about 1,050 bytes: 250 of pieces, 24 numbers (a full
      // transform's sixteen) of at most 25, four integers of at most 21,
      // and the last number's scratch past them.
      rawWrite(reserving: 1280) { start in
        var c = RawCursor(o: start, t: t)
        Self.attributesHead(a, &c)
        Self.attributesTail(a, &c, open: parent != nil)
        return c.o - start
      }
      if let parent { closeWithParent(parent) }
      return
    }
    // An item's id (a string, escaped) goes between the two raw pieces.
    rawWrite(reserving: 160) { start in
      var c = RawCursor(o: start, t: t)
      Self.attributesHead(a, &c)
      c.lit(",\"id\":")
      return c.o - start
    }
    rawItemID(id)
    rawWrite(reserving: 1280) { start in
      var c = RawCursor(o: start, t: t)
      Self.attributesTail(a, &c, open: parent != nil)
      return c.o - start
    }
    if let parent { closeWithParent(parent) }
  }

  /// `,"parent":…}` of an outline row with a parent (an id, escaped): the
  /// tail leaves such an object open.
  private mutating func closeWithParent(_ parent: ItemID) {
    let t = numberTables
    rawWrite(reserving: 16) { start in
      var c = RawCursor(o: start, t: t)
      c.lit(",\"parent\":")
      return c.o - start
    }
    rawItemID(parent)
    rawWrite(reserving: 1) { start in
      start.pointee = UInt8(ascii: "}")
      return 1
    }
  }

  /// An item id with no separator: a string or an integer.
  mutating func rawItemID(_ id: ItemID) {
    switch id {
    case .int(let i): rawInt(Int(i))
    case .string(let s): rawString(s)
    }
  }

  /// `{"kind":…,"section":…,"item":…` and `,"lap":…` of an element.
  @inline(__always)
  private static func attributesHead(_ a: LayoutAttributes, _ c: inout RawCursor) {
    switch a.kind {
    case .cell: c.lit("{\"kind\":\"cell\",\"section\":")
    case .header: c.lit("{\"kind\":\"header\",\"section\":")
    case .footer: c.lit("{\"kind\":\"footer\",\"section\":")
    // The only decoration layouts have: a section's background.
    case .decoration:
      c.lit("{\"kind\":\"decoration\",\"elementKind\":\"background\",\"section\":")
    case .topSeparator: c.lit("{\"kind\":\"separator\",\"edge\":\"top\",\"section\":")
    case .bottomSeparator: c.lit("{\"kind\":\"separator\",\"edge\":\"bottom\",\"section\":")
    }
    c.int(a.section)
    c.lit(",\"item\":")
    c.int(a.item)
    if let lap = a.lap {
      c.lit(",\"lap\":")
      c.int(lap)
    }
  }

  /// The rest of an element's attributes, from `,"center":` to `}`.
  @inline(__always)
  private static func attributesTail(
    _ a: LayoutAttributes, _ c: inout RawCursor, open: Bool = false
  ) {
    c.lit(",\"center\":{\"x\":")
    c.num(a.center.x)
    c.lit(",\"y\":")
    c.num(a.center.y)
    c.lit("},\"size\":{\"width\":")
    c.num(a.size.width)
    c.lit(",\"height\":")
    c.num(a.size.height)
    c.lit("},\"frame\":{\"x\":")
    c.num(a.frame.x)
    c.lit(",\"y\":")
    c.num(a.frame.y)
    c.lit(",\"width\":")
    c.num(a.frame.width)
    c.lit(",\"height\":")
    c.num(a.frame.height)
    c.lit("}")
    if !a.transform.isIdentity {
      // `,"transform":[16 numbers]`, row by row.
      let m = a.transform.m
      c.lit(",\"transform\":[")
      // Cover flow's every card: a scale in the plane and nothing else,
      // written as two numbers between literal pieces instead of sixteen
      // (the same bytes: numbers write 0 and 1, and -0 as 0).
      if m.1 == 0 && m.2 == 0 && m.3 == 0 && m.4 == 0 && m.6 == 0 && m.7 == 0 && m.8 == 0
        && m.9 == 0 && m.10 == 1 && m.11 == 0 && m.12 == 0 && m.13 == 0 && m.14 == 0
        && m.15 == 1
      {
        let from = c.o
        c.num(m.0)
        let scaleBytes = c.o - from
        c.lit(",0,0,0,0,")
        // A uniform scale: the same double twice, formatted once.
        if m.5.bitPattern == m.0.bitPattern {
          c.o.update(from: from, count: scaleBytes)
          c.o += scaleBytes
        } else {
          c.num(m.5)
        }
        c.lit(",0,0,0,0,1,0,0,0,0,1]")
      } else {
        // Straight from the tuple: no array per element.
        withUnsafeBytes(of: m) { raw in
          for (k, v) in raw.bindMemory(to: Double.self).enumerated() {
            if k > 0 { c.lit(",") }
            c.num(v)
          }
        }
        c.lit("]")
      }
    }
    c.lit(",\"alpha\":")
    c.num(a.alpha)
    c.lit(",\"zIndex\":")
    c.int(a.zIndex)
    if a.hidden { c.lit(",\"hidden\":true") }
    if a.moving { c.lit(",\"moving\":true") }
    if let r = a.cornerRadius {
      c.lit(",\"cornerRadius\":")
      c.num(r)
    }
    if let mask = a.cornerMask {
      c.lit(",\"cornerMask\":[")
      var more = false
      if mask.contains(.topLeading) {
        c.lit("\"topLeading\"")
        more = true
      }
      if mask.contains(.topTrailing) {
        c.lit(more ? ",\"topTrailing\"" : "\"topTrailing\"")
        more = true
      }
      if mask.contains(.bottomLeading) {
        c.lit(more ? ",\"bottomLeading\"" : "\"bottomLeading\"")
        more = true
      }
      if mask.contains(.bottomTrailing) {
        c.lit(more ? ",\"bottomTrailing\"" : "\"bottomTrailing\"")
      }
      c.lit("]")
    }
    if let o = a.outlineRow {
      c.lit(",\"level\":")
      c.int(o.level)
      if let e = o.expanded { c.lit(e ? ",\"expanded\":true" : ",\"expanded\":false") }
    }
    if let v = a.indentation {
      c.lit(",\"indentation\":")
      c.num(v)
    }
    if !open { c.lit("}") }
  }

  mutating func attributesArray(_ list: [LayoutAttributes]) {
    beginArray()
    list.withUnsafeBufferPointer { all in for k in all.indices { attributes(all[k]) } }
    endArray()
  }

  /// The elements of `list` at `positions`, as an array. Through a
  /// pointer: an element read by subscript is copied whole (240 bytes).
  mutating func attributesArray(
    _ list: [LayoutAttributes], at positions: [Int], ids: [ItemID?] = [], in layout: Layout
  ) {
    beginArray()
    list.withUnsafeBufferPointer { all in
      if ids.isEmpty {
        for k in positions { attributes(all[k]) }
      } else {
        for k in positions {
          attributes(all[k], id: ids[k], parent: Self.parent(of: all[k], ids[k], in: layout))
        }
      }
    }
    endArray()
  }

  /// An outline row's parent's id, looked up by the row's own. O(1) but in
  /// an outline.
  @inline(__always)
  static func parent(of a: LayoutAttributes, _ id: ItemID?, in layout: Layout) -> ItemID? {
    guard a.outlineRow != nil, let id else { return nil }
    return layout.outlineParent(of: id, section: a.section)
  }

  /// `list`, each item with its id in `layout` (where it has one).
  /// O(k log n) in a layout with ids, O(k) otherwise.
  mutating func attributesArray(_ list: [LayoutAttributes], in layout: Layout) {
    beginArray()
    for a in list {
      let id = layout.itemID(of: a)
      attributes(a, id: id, parent: Self.parent(of: a, id, in: layout))
    }
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
    samples(p.trajectory)
    endObject()
  }

  /// A trajectory, `[{"x":…,"y":…},…]`, written as one raw value straight
  /// into the buffer (`RawCursor.point` per sample, with the shortest-
  /// decimal code inlined in this one loop): the bytes `point` would
  /// write, for a capacity check per trajectory rather than per piece.
  /// O(samples).
  mutating func samples(_ list: [Point]) {
    beginRawValue()
    // Room for every sample and comma, and the last number's scratch.
    let room = 2 + list.count * (RawCursor.pointBytes + 1) + JSONWriter.numberRoom
    let t = numberTables
    rawWrite(reserving: room) { start in
      var c = RawCursor(o: start, t: t)
      c.lit("[")
      // No closure around the loop: a captured cursor costs an
      // exclusivity check per access.
      for (k, q) in list.enumerated() {
        if k > 0 { c.lit(",") }
        c.point(q, inlined: true)
      }
      c.lit("]")
      return c.o - start
    }
  }
}

/// Where a hot shape's bytes go inside `rawWrite`: literal pieces, numbers
/// and integers written at a moving pointer. A struct, not closures over a
/// captured pointer (captured variables cost an exclusivity check each).
struct RawCursor {
  var o: UnsafeMutablePointer<UInt8>
  let t: JSONWriter.NumberTables

  @inline(__always) mutating func lit(_ s: StaticString) { o += JSONWriter.writeLiteral(s, at: o) }
  @inline(__always) mutating func num(_ d: Double) { o += JSONWriter.writeNumber(d, at: o, t) }
  @inline(__always) mutating func int(_ i: Int) { o += JSONWriter.writeInteger(i, at: o, t) }

  /// A piece of up to 8 bytes as one word store: the bytes past it are
  /// overwritten by what follows (the cursor always has that room).
  @inline(__always) mutating func piece(_ s: StaticString) {
    var v: UInt64 = 0
    let p = s.utf8Start
    for i in 0..<s.utf8CodeUnitCount { v |= UInt64(p[i]) << (8 * UInt64(i)) }
    UnsafeMutableRawPointer(o).storeBytes(of: v, as: UInt64.self)
    o += s.utf8CodeUnitCount
  }

  /// The most bytes `point` writes: two numbers of at most 25 and 14 of
  /// pieces.
  static let pointBytes = 2 * 25 + 14

  /// `{"x":…,"y":…}`, the bytes `beginObject`, `key` and `number` would
  /// write; a zero coordinate (every sample's cross axis in a scroll along
  /// one; numbers write 0 and -0 as 0) is part of a piece. O(1).
  @inline(__always) mutating func point(_ q: Point, inlined: Bool) {
    if q.x == 0 {
      piece("{\"x\":0,")
    } else {
      piece("{\"x\":")
      // Inlined, the shortest-decimal code for one loop over many.
      o += JSONWriter.writeNumber(q.x, at: o, t, inlined: inlined)
      piece(",")
    }
    if q.y == 0 {
      piece("\"y\":0}")
    } else {
      piece("\"y\":")
      num(q.y)
      piece("}")
    }
  }
}

extension ElementKind {
  /// `kind` on the wire: a row's two separators are one kind there, told
  /// apart by `edge`.
  var wireName: String { isSeparator ? "separator" : rawValue }
  /// A separator's `edge`, or nil.
  var edge: String? {
    switch self {
    case .topSeparator: return "top"
    case .bottomSeparator: return "bottom"
    default: return nil
    }
  }
  /// The kinds an element key (`after`, `removed`) names on the wire.
  static let wireNames = ["decoration", "header", "cell", "separator", "footer"]

  /// The kind a wire key names: `kind`, and for a separator its `edge`
  /// (read only then). nil for an unknown name.
  init?(wireName: String, edge: () throws(RPCError) -> String?) throws(RPCError) {
    if wireName == "separator" {
      guard let e = try edge() else { return nil }
      self = e == "top" ? .topSeparator : .bottomSeparator
    } else {
      guard let k = ElementKind(rawValue: wireName), !k.isSeparator else { return nil }
      self = k
    }
  }
}
