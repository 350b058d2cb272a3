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
  /// A waterfall's per-section values (columnCount and relatives).
  public var columns: ColumnOverrides? = nil
  /// Whether its items can be dragged to reorder and receive a dragged
  /// item (collectionView(_:canMoveItemAt:)); nil is true.
  public var allowsReordering: Bool? = nil
  /// A compositional layout's section layout for this section (a section
  /// provider's answer); nil uses the layout's default. Boxed: a section
  /// layout is large, and every other type's sections are copied often.
  public var sectionLayout: SectionLayout? {
    get { layoutBox?.value }
    set { layoutBox = newValue.map(SectionLayoutBox.init) }
  }
  var layoutBox: SectionLayoutBox? = nil

  /// Holds `other`'s section layout by the same reference when the two are
  /// equal, so that the placement resolves it once for both (decoders call
  /// it for sections sent with copies of one layout). O(the layout).
  public mutating func shareSectionLayout(with other: Section) {
    if let a = layoutBox, let b = other.layoutBox, a !== b, a.value == b.value { layoutBox = b }
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
  /// replacing its own; its items and id stay. A waterfall's column
  /// overrides merge field by field. O(1).
  public func updating(_ patch: Section) -> Section {
    var s = self
    s.inset = patch.inset ?? inset
    s.minimumLineSpacing = patch.minimumLineSpacing ?? minimumLineSpacing
    s.minimumInteritemSpacing = patch.minimumInteritemSpacing ?? minimumInteritemSpacing
    s.headerSize = patch.headerSize ?? headerSize
    s.footerSize = patch.footerSize ?? footerSize
    s.allowsReordering = patch.allowsReordering ?? allowsReordering
    if let c = patch.columns { s.columns = (columns ?? ColumnOverrides()).updating(c) }
    if let l = patch.layoutBox { s.layoutBox = l }
    return s
  }

  /// Whether the section's own fields (not its items or ids) equal
  /// `other`'s. O(1) unless both hold distinct section layouts.
  public func hasSameFields(as other: Section) -> Bool {
    inset == other.inset && minimumLineSpacing == other.minimumLineSpacing
      && minimumInteritemSpacing == other.minimumInteritemSpacing
      && headerSize == other.headerSize && footerSize == other.footerSize
      && columns == other.columns && allowsReordering == other.allowsReordering
      && sectionLayout == other.sectionLayout
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

/// A section layout held by reference (see `Section.sectionLayout`).
final class SectionLayoutBox: Equatable, Sendable {
  let value: SectionLayout
  init(_ value: SectionLayout) { self.value = value }
  static func == (a: SectionLayoutBox, b: SectionLayoutBox) -> Bool {
    a === b || a.value == b.value
  }
}
