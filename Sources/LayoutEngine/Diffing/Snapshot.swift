// Diffable snapshots (UICollectionViewDiffableDataSource): the client
// hands over the whole data as section and item identifiers, and the diff
// below works out the batch update that turns the current data into it,
// with as few moves as there can be. The batch goes through
// `BatchUpdate.apply` like any other, so snapshots work on every layout
// kind, and a client can replay it.

/// One item of a snapshot: its id and, when it brings one, its size.
public struct SnapshotItem: Equatable, Sendable {
  public var id: ItemID
  /// nil: an existing item keeps its size; a new one has the uniform size.
  public var size: Size?
  public init(id: ItemID, size: Size? = nil) {
    self.id = id
    self.size = size
  }
}

/// One section of a snapshot.
public struct SnapshotSection: Sendable {
  public var id: ItemID
  /// The section's own fields the snapshot gives (nil fields are not
  /// given: an existing section keeps its own, a new one has the
  /// defaults). Its items and ids are not read.
  public var fields: Section
  public var items: [SnapshotItem]
  public init(id: ItemID, fields: Section = .uniform(0), items: [SnapshotItem]) {
    self.id = id
    self.fields = fields
    self.items = items
  }
}

/// The whole new data, in order, with the items to reload (new cells) or
/// reconfigure (the same cells, new content).
public struct Snapshot: Sendable {
  public var sections: [SnapshotSection]
  public var reloadItems: [SnapshotItem] = []
  public var reconfigureItems: [SnapshotItem] = []
  public init(sections: [SnapshotSection]) { self.sections = sections }
}

/// Why a snapshot is refused, with what the message names.
public enum SnapshotError: Error, Equatable, Sendable {
  /// Item ids given more than once, each once, in the order their second
  /// occurrence comes in the snapshot.
  case duplicateItems([ItemID])
  case duplicateSections([ItemID])
  /// `reloadItems[index]` (or `reconfigureItems`) names an id that is not
  /// in the snapshot.
  case unknownReload(index: Int)
  case unknownReconfigure(index: Int)
}

extension Snapshot {
  /// At most this many duplicates are named in an error.
  public static let duplicatesNamed = 10

  /// Refuses duplicate ids. O(n) expected.
  public func validate() throws(SnapshotError) {
    var seenSections = Set<ItemID>()
    var dupSections: [ItemID] = []
    for s in sections where !seenSections.insert(s.id).inserted {
      if dupSections.count < Self.duplicatesNamed && !dupSections.contains(s.id) {
        dupSections.append(s.id)
      }
    }
    if !dupSections.isEmpty { throw .duplicateSections(dupSections) }
    var seen = Set<ItemID>(minimumCapacity: sections.reduce(0) { $0 + $1.items.count })
    var dups: [ItemID] = []
    for s in sections {
      for item in s.items where !seen.insert(item.id).inserted {
        if dups.count < Self.duplicatesNamed && !dups.contains(item.id) { dups.append(item.id) }
      }
    }
    if !dups.isEmpty { throw .duplicateItems(dups) }
    for (i, r) in reloadItems.enumerated() where !seen.contains(r.id) {
      throw .unknownReload(index: i)
    }
    for (i, r) in reconfigureItems.enumerated() where !seen.contains(r.id) {
      throw .unknownReconfigure(index: i)
    }
  }

  /// The snapshot as sections, every item new: what a first apply to data
  /// without ids loads (UIKit's first apply). Sizes from the snapshot and
  /// its reload and reconfigure lists. O(n).
  public func makeSections() -> [Section] {
    let sizes = listedSizes
    return sections.map { s in
      var section = Section(items: .uniform(count: 0)).updating(s.fields)
      section.id = s.id
      let own = s.items.map { sizes[$0.id] ?? $0.size }
      if own.contains(where: { $0 != nil }) {
        section.items = .sizes(SizeList(own.map { $0 ?? Section.unsetSize }))
      } else {
        section.items = .uniform(count: s.items.count)
      }
      section.ids = IDList(s.items.map(\.id))
      return section
    }
  }

  /// The sizes the reload and reconfigure lists give, by id (a reload's
  /// over a reconfigure's, the last of each list over earlier ones).
  private var listedSizes: [ItemID: Size] {
    var sizes = [ItemID: Size]()
    for r in reconfigureItems { if let size = r.size { sizes[r.id] = size } }
    for r in reloadItems { if let size = r.size { sizes[r.id] = size } }
    return sizes
  }

  /// The batch update that turns `old` into this snapshot, with minimal
  /// moves, or nil when `old` cannot be diffed: a section or item without
  /// an id, or an id given twice (a first apply then replaces everything;
  /// see `makeSections`). Call `validate` first.
  ///
  /// Sections that survive in a longest increasing subsequence of their
  /// old order stay, the others move; within a surviving section, items
  /// that stay in it do the same. An item that changes sections moves,
  /// unless its old section is deleted or its new one inserted: then it is
  /// deleted and inserted (UIKit cannot move those). A size that changes
  /// rides on the item's move, or is a reconfigure when it stays. A reload
  /// of an item that would move is a delete and an insert (its cell is
  /// replaced anyway). Entries are in index order.
  ///
  /// - Complexity: O(n log n) in the items of both.
  public func batch(from old: [Section]) -> BatchUpdate? {
    // The old data's ids, which must all exist and be unique.
    var oldSection = [ItemID: Int](minimumCapacity: old.count)
    var oldItem = [ItemID: IndexPath](minimumCapacity: old.reduce(0) { $0 + $1.count })
    for (o, section) in old.enumerated() {
      guard let id = section.id, oldSection.updateValue(o, forKey: id) == nil else { return nil }
      guard section.count == 0 || section.ids != nil else { return nil }
      var complete = true
      var k = 0
      section.ids?.forEach { id in
        guard let id, oldItem.updateValue(IndexPath(section: o, item: k), forKey: id) == nil
        else {
          complete = false
          return false
        }
        k += 1
        return true
      }
      guard complete else { return nil }
    }
    var u = BatchUpdate()
    let listed = listedSizes
    let reloaded = Set(reloadItems.map(\.id))
    let reconfigured = Set(reconfigureItems.map(\.id)).subtracting(reloaded)

    // Sections.
    let sourceOf = sections.map { oldSection[$0.id] }
    var targetOf = [Int?](repeating: nil, count: old.count)
    for (s, o) in sourceOf.enumerated() { if let o { targetOf[o] = s } }
    let surviving = sourceOf.indices.filter { sourceOf[$0] != nil }
    let staying = longestIncreasingMask(surviving.map { sourceOf[$0]! })
    for (k, s) in surviving.enumerated() where !staying[k] {
      u.moveSections.append((sourceOf[s]!, s))
    }
    for o in old.indices where targetOf[o] == nil { u.deleteSections.append(o) }
    // Own sizes of old items, per old section, read once when needed.
    var oldSizes = [Int: [Size]]()
    func ownSize(_ p: IndexPath) -> Size? {
      guard case .sizes(let list) = old[p.section].items else { return nil }
      if oldSizes[p.section] == nil { oldSizes[p.section] = list.array }
      let size = oldSizes[p.section]![p.item]
      return size == Section.unsetSize ? nil : size
    }
    // What an item brings: the listed size, the snapshot's, else nil.
    func givenSize(_ item: SnapshotItem) -> Size? { listed[item.id] ?? item.size }

    for (s, section) in sections.enumerated() {
      guard let o = sourceOf[s] else {
        // Inserted with every item it holds, old ones keeping their sizes.
        var inserted = Section(items: .uniform(count: 0)).updating(section.fields)
        inserted.id = section.id
        let sizes = section.items.map { item in
          givenSize(item) ?? oldItem[item.id].flatMap(ownSize)
        }
        if sizes.contains(where: { $0 != nil }) {
          inserted.items = .sizes(SizeList(sizes.map { $0 ?? Section.unsetSize }))
        } else {
          inserted.items = .uniform(count: sizes.count)
        }
        inserted.ids = IDList(section.items.map(\.id))
        u.insertSections.append((s, inserted))
        continue
      }
      let merged = old[o].updating(section.fields)
      if !merged.hasSameFields(as: old[o]) { u.updateSections.append((s, section.fields)) }
      // Items that stay in this section, in new order, and their old
      // indices: the longest increasing run of them stays put.
      var stayers: [(new: Int, old: Int)] = []
      for (k, item) in section.items.enumerated() {
        let to = IndexPath(section: s, item: k)
        guard let from = oldItem[item.id] else {
          u.insertItems.append((to, Item(size: givenSize(item), id: item.id)))
          continue
        }
        let size = givenSize(item)
        if from.section == o {
          stayers.append((k, from.item))
        } else if targetOf[from.section] == nil || reloaded.contains(item.id) {
          // Out of a deleted section (or a reload): deleted with it, or
          // here, and inserted.
          if targetOf[from.section] != nil { u.deleteItems.append(from) }
          u.insertItems.append((to, Item(size: size ?? ownSize(from), id: item.id)))
        } else {
          u.moveItems.append((from, to, size.flatMap { $0 == ownSize(from) ? nil : $0 }))
          if reconfigured.contains(item.id) { u.reconfigureItems.append((from, nil)) }
        }
      }
      let keep = longestIncreasingMask(stayers.map(\.old))
      for (k, (n, i)) in stayers.enumerated() {
        let item = section.items[n]
        let from = IndexPath(section: o, item: i)
        let to = IndexPath(section: s, item: n)
        let size = givenSize(item)
        let changed = size.flatMap { $0 == ownSize(from) ? nil : $0 }
        if keep[k] {
          if reloaded.contains(item.id) {
            u.reloadItems.append((from, changed))
          } else if changed != nil || reconfigured.contains(item.id) {
            u.reconfigureItems.append((from, changed))
          }
        } else if reloaded.contains(item.id) {
          u.deleteItems.append(from)
          u.insertItems.append((to, Item(size: size ?? ownSize(from), id: item.id)))
        } else {
          u.moveItems.append((from, to, changed))
          if reconfigured.contains(item.id) { u.reconfigureItems.append((from, nil)) }
        }
      }
    }
    // Old items that are gone, or whose new section is inserted.
    var newSectionOf = [ItemID: Int](minimumCapacity: oldItem.count)
    for (s, section) in sections.enumerated() {
      for item in section.items where oldItem[item.id] != nil { newSectionOf[item.id] = s }
    }
    for (id, p) in oldItem where targetOf[p.section] != nil {
      guard let s = newSectionOf[id] else {
        u.deleteItems.append(p)
        continue
      }
      if sourceOf[s] == nil { u.deleteItems.append(p) }
    }
    u.deleteItems.sort()
    u.insertItems.sort { $0.path < $1.path }
    u.moveItems.sort { $0.to < $1.to }
    u.moveSections.sort { $0.to < $1.to }
    u.reloadItems.sort { $0.path < $1.path }
    u.reconfigureItems.sort { $0.path < $1.path }
    return u
  }
}
