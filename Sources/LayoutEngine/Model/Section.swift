/// UICollectionView.ScrollDirection.
public enum ScrollDirection: String, Sendable, CaseIterable {
  case vertical
  case horizontal
}

/// UIUserInterfaceLayoutDirection: which side lines start from.
public enum LayoutDirection: String, Sendable, CaseIterable {
  case ltr
  case rtl
}

/// One section of the data source, with the per-section values that
/// UICollectionViewDelegateFlowLayout's methods would return.
public struct Section: Equatable, Sendable {
  public enum Items: Equatable, Sendable {
    /// `count` items, each of the layout's itemSize. O(1) memory.
    case uniform(count: Int)
    /// One size per item (collectionView(_:layout:sizeForItemAt:)). An
    /// entry equal to `Section.unsetSize` has no size of its own and uses
    /// the layout's uniform size, like an item of a `uniform` section.
    case sizes(SizeList)
  }

  public var items: Items
  /// The section's identifier (a diffable snapshot's), or nil.
  public var id: ItemID? = nil
  /// Stable item ids, one per item, or nil when the client gave none.
  public var ids: IDList? = nil
  /// insetForSectionAt; nil uses the layout's sectionInset.
  public var inset: Insets?
  /// minimumLineSpacingForSectionAt; nil uses the layout's value.
  public var minimumLineSpacing: Double?
  /// minimumInteritemSpacingForSectionAt; nil uses the layout's value.
  public var minimumInteritemSpacing: Double?
  /// referenceSizeForHeaderInSection; nil uses headerReferenceSize.
  public var headerSize: Size?
  /// referenceSizeForFooterInSection; nil uses footerReferenceSize.
  public var footerSize: Size?
  /// Whether its items can be dragged to reorder and receive a dragged
  /// item (collectionView(_:canMoveItemAt:)); nil is true.
  public var allowsReordering: Bool? = nil
  /// The section's own fields of its layout's kind (a waterfall's
  /// `ColumnOverrides`, a compositional section's `SectionLayout`), or
  /// nil: the kind's defaults. Boxed: such fields can be large, and
  /// sections are copied often.
  public var kindFields: (any SectionFields)? {
    get { fieldsBox?.value }
    set { fieldsBox = newValue.map(SectionFieldsBox.init) }
  }
  /// The box of `kindFields`, whose identity a kind may key a cache on.
  public private(set) var fieldsBox: SectionFieldsBox? = nil

  /// The section's forest when it is an outline (UIKit's section
  /// snapshot), whose visible nodes are its items, ids and sizes; nil for
  /// a flat section. Boxed: sections are copied often.
  public var outline: Outline? {
    get { outlineBox?.value }
    set { outlineBox = newValue.map(OutlineBox.init) }
  }
  /// The box itself: what a per-element path reads, one reference to hold
  /// where the value would be eight.
  private(set) var outlineBox: OutlineBox? = nil

  /// A section whose items are `outline`'s visible nodes: their ids, and
  /// their sizes where any has one. O(rows).
  public init(outline: Outline) {
    let rows = outline.visibleNodes()
    if rows.contains(where: { outline.sizes[$0] != Section.unsetSize }) {
      self.init(items: .sizes(SizeList(rows.map { outline.sizes[$0] })))
    } else {
      self.init(items: .uniform(count: rows.count))
    }
    ids = IDList(rows.map { ItemID?.some(outline.ids[$0]) })
    self.outline = outline
  }

  /// The kind's own fields, when they are of type `F`. O(1).
  public func fields<F: SectionFields>(_ type: F.Type) -> F? { fieldsBox?.value as? F }

  /// Holds `other`'s kind fields by the same reference when the two are
  /// equal, so that the placement resolves them once for both (decoders
  /// call it for sections sent with copies of one layout). O(the fields).
  public mutating func shareFields(with other: Section) {
    if let a = fieldsBox, let b = other.fieldsBox, a !== b, a == b { fieldsBox = b }
  }

  public init(
    items: Items, inset: Insets? = nil, minimumLineSpacing: Double? = nil,
    minimumInteritemSpacing: Double? = nil, headerSize: Size? = nil, footerSize: Size? = nil
  ) {
    self.items = items
    self.inset = inset
    self.minimumLineSpacing = minimumLineSpacing
    self.minimumInteritemSpacing = minimumInteritemSpacing
    self.headerSize = headerSize
    self.footerSize = footerSize
  }

  /// The section with the own fields `patch` gives (those not nil)
  /// replacing its own; its items and id stay. The kind's fields merge as
  /// the kind says (`SectionFields.updating`). O(1).
  public func updating(_ patch: Section) -> Section {
    var s = self
    s.inset = patch.inset ?? inset
    s.minimumLineSpacing = patch.minimumLineSpacing ?? minimumLineSpacing
    s.minimumInteritemSpacing = patch.minimumInteritemSpacing ?? minimumInteritemSpacing
    s.headerSize = patch.headerSize ?? headerSize
    s.footerSize = patch.footerSize ?? footerSize
    s.allowsReordering = patch.allowsReordering ?? allowsReordering
    if let p = patch.fieldsBox {
      s.fieldsBox = fieldsBox.map { SectionFieldsBox($0.value.updating(with: p.value)) } ?? p
    }
    return s
  }

  /// Whether the section's own fields (not its items or ids) equal
  /// `other`'s. O(1) unless both hold distinct section layouts.
  public func hasSameFields(as other: Section) -> Bool {
    inset == other.inset && minimumLineSpacing == other.minimumLineSpacing
      && minimumInteritemSpacing == other.minimumInteritemSpacing
      && headerSize == other.headerSize && footerSize == other.footerSize
      && allowsReordering == other.allowsReordering && fieldsBox == other.fieldsBox
  }

  /// Marks an item without a size of its own in `.sizes` (sizes are never
  /// negative otherwise).
  public static let unsetSize = Size(width: -1, height: -1)

  /// Moves item `a` to index `b` (its size and id with it), editing the
  /// ropes in place when nothing else holds them. O(log n).
  mutating func moveItem(from a: Int, to b: Int) {
    if case .sizes(var list) = items {
      // Released here, so that `list` is the ropes' only holder.
      items = .uniform(count: 0)
      let size = list[a]
      list.remove(at: a)
      list.insert(size, at: b)
      items = .sizes(list)
    }
    if var list = ids {
      ids = nil
      let id = list[a]
      list.remove(at: a)
      list.insert(id, at: b)
      ids = list
    }
  }

  public static func uniform(_ count: Int) -> Section { Section(items: .uniform(count: count)) }
  /// A section of items with the given sizes. O(n).
  public static func sizes(_ sizes: [Size]) -> Section { Section(items: .sizes(SizeList(sizes))) }

  /// The items' sizes one by one, a uniform section's as `unsetSize` (they
  /// keep following the layout's uniform size): a uniform section's are
  /// one run. O(1).
  public var sizeList: SizeList {
    switch items {
    case .uniform(let n): return SizeList(repeating: Section.unsetSize, count: n)
    case .sizes(let list): return list
    }
  }

  /// The section with every full-span mark removed (for a layout type
  /// without columns). O(n) when it has sizes, O(1) otherwise.
  public var withoutFullSpan: Section {
    guard case .sizes(let list) = items else { return self }
    var s = self
    var sizes: [Size] = []
    sizes.reserveCapacity(list.count)
    var marked = false
    list.forEachLeaf(from: 0) { _, elements, _ in
      for e in elements {
        marked = marked || e.isFullSpan
        sizes.append(e.unmarked)
      }
      return true
    }
    if marked { s.items = .sizes(SizeList(sizes)) }
    return s
  }

  /// numberOfItemsInSection. O(1).
  public var count: Int {
    switch items {
    case .uniform(let n): return n
    case .sizes(let s): return s.count
    }
  }
}

/// A kind's own fields of a section: one payload per section, which
/// generic code stores, compares, patches and shares without knowing its
/// type (Model/ names no layout type).
public protocol SectionFields: Equatable, Sendable {
  /// These fields with those `patch` gives replacing them. O(1).
  func updating(_ patch: Self) -> Self
}

extension SectionFields {
  /// These fields patched by `patch`: merged when it is of this kind,
  /// replaced otherwise (the section changed kinds).
  func updating(with patch: any SectionFields) -> any SectionFields {
    guard let p = patch as? Self else { return patch }
    return updating(p)
  }

  func isEqual(to other: any SectionFields) -> Bool { (other as? Self) == self }
}

/// A section's outline held by reference (see `Section.outline`).
final class OutlineBox: Equatable, Sendable {
  let value: Outline
  /// Its arrays as a walk over rows reads them.
  let reader: Outline.Reader
  init(_ value: Outline) {
    self.value = value
    reader = value.reader
  }
  static func == (a: OutlineBox, b: OutlineBox) -> Bool { a === b || a.value == b.value }
}

/// A section's kind fields held by reference (see `Section.kindFields`).
public final class SectionFieldsBox: Equatable, Sendable {
  public let value: any SectionFields
  init(_ value: any SectionFields) { self.value = value }
  public static func == (a: SectionFieldsBox, b: SectionFieldsBox) -> Bool {
    a === b || a.value.isEqual(to: b.value)
  }
}
