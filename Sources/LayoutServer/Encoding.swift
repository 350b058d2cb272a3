import JSONRPC
import LayoutEngine

// Engine values → JSON, written straight into the response bytes.

extension JSONWriter {
  mutating func point(_ p: Point) {
    beginObject()
    key("x")
    number(p.x)
    key("y")
    number(p.y)
    endObject()
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
    beginObject()
    identity(a.kind, a.section, a.item, a.lap)
    key("center")
    point(a.center)
    key("size")
    size(a.size)
    key("frame")
    rect(a.frame)
    if !a.transform.isIdentity {
      key("transform")
      beginArray()
      // Straight from the tuple: no array per element on the per-frame path.
      withUnsafeBytes(of: a.transform.m) { raw in
        for v in raw.bindMemory(to: Double.self) { number(v) }
      }
      endArray()
    }
    key("alpha")
    number(a.alpha)
    key("zIndex")
    int(a.zIndex)
    if a.hidden {
      key("hidden")
      bool(true)
    }
    endObject()
  }

  mutating func attributesArray(_ list: [LayoutAttributes]) {
    beginArray()
    for a in list { attributes(a) }
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
