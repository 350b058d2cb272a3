/// A point, as the protocol's `{x, y}`.
public struct Point: Equatable, Hashable, Sendable {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  public init?(_ j: JSON) {
    guard let x = j["x"].double, let y = j["y"].double else { return nil }
    self.init(x: x, y: y)
  }
  public var json: JSON { ["x": .number(x), "y": .number(y)] }
}

/// A size, as the protocol's `{width, height}`.
public struct Size: Equatable, Hashable, Sendable {
  public var width: Double
  public var height: Double
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  public init?(_ j: JSON) {
    guard let w = j["width"].double, let h = j["height"].double else { return nil }
    self.init(width: w, height: h)
  }
  public var json: JSON { ["width": .number(width), "height": .number(height)] }
}

/// A rect, as the protocol's `{x, y, width, height}`.
public struct Rect: Equatable, Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
  public init?(_ j: JSON) {
    guard let x = j["x"].double, let y = j["y"].double, let w = j["width"].double,
      let h = j["height"].double
    else { return nil }
    self.init(x: x, y: y, width: w, height: h)
  }
  public var json: JSON {
    ["x": .number(x), "y": .number(y), "width": .number(width), "height": .number(height)]
  }
}

/// Insets, as the protocol's `{top, left, bottom, right}`.
public struct Insets: Equatable, Hashable, Sendable {
  public var top, left, bottom, right: Double
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
  public var json: JSON {
    [
      "top": .number(top), "left": .number(left), "bottom": .number(bottom),
      "right": .number(right),
    ]
  }
}

/// An element's identity: kind, section, item (0 for headers and footers),
/// lap (0 outside looping carousels) and a list separator's edge.
public struct ElementKey: Hashable, Comparable, Sendable {
  public var kind: String
  public var section: Int
  public var item: Int
  public var lap: Int
  /// `"top"` or `"bottom"` for a separator; nil otherwise.
  public var edge: String?

  public init(kind: String, section: Int, item: Int, lap: Int = 0, edge: String? = nil) {
    self.kind = kind
    self.section = section
    self.item = item
    self.lap = lap
    self.edge = edge
  }

  /// `{kind, edge?, section, item, lap?}`, as in `removed`.
  public init?(_ j: JSON) {
    guard let kind = j["kind"].string, let section = j["section"].int, let item = j["item"].int
    else { return nil }
    self.init(
      kind: kind, section: section, item: item, lap: j["lap"].int ?? 0, edge: j["edge"].string)
  }

  /// The daemon's document order: by lap, section, then a decoration
  /// (a section's background), header, rows by item (a list row's top
  /// separator, its cell, its bottom separator), footer.
  public static func < (a: ElementKey, b: ElementKey) -> Bool {
    func rank(_ k: String) -> Int {
      switch k {
      case "decoration": return -1
      case "header": return 0
      case "cell", "separator": return 1
      case "footer": return 2
      default: return 3
      }
    }
    func row(_ e: String?) -> Int { e == "top" ? 0 : e == "bottom" ? 2 : 1 }
    return (a.lap, a.section, rank(a.kind), a.item, row(a.edge))
      < (b.lap, b.section, rank(b.kind), b.item, row(b.edge))
  }
}

/// UICollectionViewLayoutAttributes as the daemon answers them. `size` is
/// untransformed and `frame` the bounding box after `transform` (the 16
/// CATransform3D fields m11…m44; nil for the identity, which is omitted).
public struct Attributes: Equatable, Sendable {
  public var key: ElementKey
  /// The item's id, when it has one.
  public var id: ItemID?
  public var center: Point
  public var size: Size
  public var frame: Rect
  public var transform: [Double]?
  public var alpha: Double
  public var zIndex: Int
  /// The item an interactive movement drags (it follows the finger).
  public var moving: Bool
  /// The whole object, for fields this struct does not name.
  public var json: JSON

  public init?(_ j: JSON) {
    guard let key = ElementKey(j), let center = Point(j["center"]), let size = Size(j["size"]),
      let frame = Rect(j["frame"]), let alpha = j["alpha"].double, let z = j["zIndex"].int
    else { return nil }
    self.key = key
    self.center = center
    self.size = size
    self.frame = frame
    self.transform = j["transform"].array?.compactMap(\.double)
    self.alpha = alpha
    self.zIndex = z
    self.moving = j["moving"] == .bool(true)
    self.json = j
    self.id = ItemID(j["id"])
  }
}

/// An item's (or a section's) id: a string or an integer. `1` and `"1"`
/// are different ids.
public enum ItemID: Hashable, Sendable {
  case int(Int64)
  case string(String)

  /// The id a JSON value holds, or nil (absent, or not an id).
  public init?(_ j: JSON) {
    switch j {
    case .string(let s): self = .string(s)
    case .number(let d) where d == d.rounded() && abs(d) < 9.2e18: self = .int(Int64(d))
    default: return nil
    }
  }

  public var json: JSON {
    switch self {
    case .int(let i): return .number(Double(i))
    case .string(let s): return .string(s)
    }
  }
}

/// The client's copy of what is on screen, kept up to date from the
/// answers that change a session, as a UICollectionView keeps its visible
/// cells: an `open` answer starts it over, a delta drops `removed` and puts
/// every `invalidated`.
public struct Picture: Sendable {
  public private(set) var elementsByKey: [ElementKey: Attributes] = [:]
  /// The visible items that have ids, by id: a view keyed by id survives
  /// moves and snapshots.
  public private(set) var elementsByID: [ItemID: Attributes] = [:]
  public private(set) var contentSize: Size?
  public private(set) var bounds: Rect?
  public private(set) var centeredItem: JSON = .null

  public init() {}

  /// Applies the answer of `layout/open` or of any method whose answer is
  /// a delta (the method table's `picture`: `open` or `delta`). O(k log k)
  /// for k elements in the answer.
  public mutating func apply(_ result: JSON) {
    if result["invalidated"].isNull, let attributes = result["attributes"].array {
      elementsByKey = [:]
      elementsByID = [:]
      for a in attributes.compactMap(Attributes.init) { put(a) }
    } else {
      for k in (result["removed"].array ?? []).compactMap(ElementKey.init) {
        forget(elementsByKey[k])
        elementsByKey[k] = nil
      }
      for a in (result["invalidated"].array ?? []).compactMap(Attributes.init) {
        forget(elementsByKey[a.key])
        put(a)
      }
    }
    contentSize = Size(result["contentSize"])
    bounds = Rect(result["bounds"])
    centeredItem = result["centeredItem"]
  }

  /// The visible elements in document order. O(k log k).
  public var elements: [Attributes] { elementsByKey.values.sorted { $0.key < $1.key } }

  /// Back to front: by zIndex, then document order. O(k log k).
  public var paintingOrder: [Attributes] {
    elementsByKey.values.sorted { ($0.zIndex, $0.key) < ($1.zIndex, $1.key) }
  }

  private mutating func put(_ a: Attributes) {
    elementsByKey[a.key] = a
    if let id = a.id { elementsByID[id] = a }
  }

  private mutating func forget(_ a: Attributes?) {
    if let a, let id = a.id, elementsByID[id]?.key == a.key { elementsByID[id] = nil }
  }

  public subscript(key: ElementKey) -> Attributes? { elementsByKey[key] }
  /// The visible item with this id (in a loop, one of its copies).
  public subscript(id id: ItemID) -> Attributes? { elementsByID[id] }
  public var count: Int { elementsByKey.count }
}
