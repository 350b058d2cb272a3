/// What an element is: a cell, or a section's header or footer
/// (UICollectionElementKindSectionHeader / Footer).
public enum ElementKind: String, Sendable, CaseIterable {
  case cell
  case header
  case footer
  /// A decoration view: a section's background.
  case decoration
  /// A list row's separators, above and below it (kind "separator" with
  /// its `edge` on the wire): two kinds, so that an element is still
  /// named by kind, section and item.
  case topSeparator
  case bottomSeparator

  /// Document order within a section: a background, the header, the rows
  /// (each its top separator, its cell, its bottom separator), the
  /// footer. The first key; `rowRank` orders one row's elements.
  @inline(__always) var documentRank: Int {
    switch self {
    case .decoration: return -1
    case .header: return 0
    case .cell, .topSeparator, .bottomSeparator: return 1
    case .footer: return 2
    }
  }

  /// A row's elements in order: top separator, cell, bottom separator.
  @inline(__always) var rowRank: Int {
    switch self {
    case .topSeparator: return 0
    case .bottomSeparator: return 2
    default: return 1
    }
  }

  /// Whether it is one of a row's separators.
  public var isSeparator: Bool { self == .topSeparator || self == .bottomSeparator }
  /// Whether an item owns it (its cell, its row's separators): it follows
  /// the item's index path through a batch or a movement, where the others
  /// follow their section.
  public var belongsToItem: Bool { self == .cell || isSeparator }
}

/// The corners of a cell drawn rounded (a grouped list section's first and
/// last rows): UIKit's CACornerMask in leading and trailing terms.
public struct CornerMask: OptionSet, Equatable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let topLeading = CornerMask(rawValue: 1)
  public static let topTrailing = CornerMask(rawValue: 2)
  public static let bottomLeading = CornerMask(rawValue: 4)
  public static let bottomTrailing = CornerMask(rawValue: 8)
  public static let top: CornerMask = [.topLeading, .topTrailing]
  public static let bottom: CornerMask = [.bottomLeading, .bottomTrailing]
  /// The corners' names, in this order.
  public static let names: [(CornerMask, String)] = [
    (.topLeading, "topLeading"), (.topTrailing, "topTrailing"),
    (.bottomLeading, "bottomLeading"), (.bottomTrailing, "bottomTrailing"),
  ]
}

/// UICollectionViewLayoutAttributes.
public struct LayoutAttributes: Equatable, Sendable {
  public var kind: ElementKind
  public var section: Int
  /// The item index; 0 for headers and footers.
  public var item: Int
  /// The copy of the content the element belongs to in a looping carousel
  /// (0 is the original, k is shifted by k periods along the scroll axis);
  /// nil when the layout does not loop.
  public var lap: Int?
  public var center: Point
  /// The untransformed size.
  public var size: Size
  /// The bounding box of the transformed element.
  public var frame: Rect
  public var transform: Transform3D
  public var alpha: Double
  public var zIndex: Int
  /// UICollectionViewLayoutAttributes.isHidden: a carousel card facing
  /// away or reaching the eye. Queries over rects leave hidden elements
  /// out; `attributesForItem` answers them with this set.
  public var hidden = false
  /// The item an interactive movement drags (it follows the finger).
  public var moving = false
  /// A background's corner radius (a list's), or nil.
  public var cornerRadius: Double? = nil
  /// Which corners of a grouped list's cell are rounded, or nil where the
  /// layout rounds none.
  public var cornerMask: CornerMask? = nil
  /// An outline row's level, parent and expanded flag; nil for items of
  /// flat sections and other elements.
  public var outlineRow: OutlineRow? = nil
  /// A list cell's content indentation (level × indentationWidth) in an
  /// outline; nil elsewhere.
  public var indentation: Double? = nil

  /// Attributes of an untransformed element occupying `frame`.
  public init(kind: ElementKind, section: Int, item: Int, frame: Rect) {
    self.kind = kind
    self.section = section
    self.item = item
    self.lap = nil
    self.center = frame.center
    self.size = frame.size
    self.frame = frame
    self.transform = .identity
    self.alpha = 1
    self.zIndex = 0
  }

  public var indexPath: IndexPath { IndexPath(section: section, item: item) }

  /// Its place in document order (lap, section, kind, item, within a
  /// row): the one order of answers, pages and keys. O(1).
  @inline(__always) var documentOrder: (Int, Int, Int, Int, Int) {
    (lap ?? 0, section, kind.documentRank, item, kind.rowRank)
  }

  /// Applies `t` about the element's centre and recomputes `frame` as the
  /// bounding box of the four transformed corners. O(1).
  public mutating func setTransform(_ t: Transform3D) {
    transform = t
    let hw = size.width / 2
    let hh = size.height / 2
    let m = t.m
    if m.1 == 0 && m.3 == 0 && m.4 == 0 && m.7 == 0 && m.12 == 0 && m.13 == 0 && m.15 == 1 {
      // A scale in the plane (every cover-flow card without tilt): each
      // corner is (dx·m11, dy·m22) with w = 1, the general path's doubles
      // (dx·m11 + dy·0 + 0 is dx·m11), so its box needs no four corners.
      let (x0, x1) = (-hw * m.0, hw * m.0)
      let (y0, y1) = (-hh * m.5, hh * m.5)
      let minX = min(min(Double.infinity, x0), x1)
      let maxX = max(max(-Double.infinity, x0), x1)
      let minY = min(min(Double.infinity, y0), y1)
      let maxY = max(max(-Double.infinity, y0), y1)
      frame = Rect(
        x: center.x + minX, y: center.y + minY, width: maxX - minX, height: maxY - minY)
      return
    }
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    // The four corners in a fixed order (min and max keep the first of
    // equals), unrolled: no array per element.
    @inline(__always) func add(_ dx: Double, _ dy: Double) {
      let p = t.apply(dx: dx, dy: dy)
      minX = min(minX, p.x)
      minY = min(minY, p.y)
      maxX = max(maxX, p.x)
      maxY = max(maxY, p.y)
    }
    add(-hw, -hh)
    add(hw, -hh)
    add(-hw, hh)
    add(hw, hh)
    frame = Rect(x: center.x + minX, y: center.y + minY, width: maxX - minX, height: maxY - minY)
  }

  /// The four corners of the transformed element, in order around it. O(1).
  public var outline: [Point] {
    let hw = size.width / 2
    let hh = size.height / 2
    return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { dx, dy in
      let p = transform.apply(dx: dx, dy: dy)
      return Point(x: center.x + p.x, y: center.y + p.y)
    }
  }

  /// True when `p` lies inside or on the edge of the transformed element:
  /// the convex quadrilateral its corners project to, not its bounding box.
  /// O(1).
  public func outlineContains(_ p: Point) -> Bool {
    if transform.isIdentity { return frame.contains(p) }
    let q = outline
    // Inside a convex polygon: p is on the same side of every edge. The
    // tolerance keeps points on an edge inside despite rounding.
    let tolerance = 1e-9 * max(1, frame.width, frame.height)
    var sign = 0.0
    for i in 0..<4 {
      let a = q[i]
      let b = q[(i + 1) % 4]
      let ex = b.x - a.x
      let ey = b.y - a.y
      let length = (ex * ex + ey * ey).squareRoot()
      guard length > 0 else { continue }
      let side = (ex * (p.y - a.y) - ey * (p.x - a.x)) / length
      if abs(side) <= tolerance { continue }
      if sign == 0 {
        sign = side > 0 ? 1 : -1
      } else if (side > 0 ? 1 : -1) != sign {
        return false
      }
    }
    return frame.contains(p)
  }
}
