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
  /// The section's forest when it is an outline: its items are its
  /// visible nodes.
  public var outline: Outline? = nil
  public init(id: ItemID, fields: Section = .uniform(0), items: [SnapshotItem]) {
    self.id = id
    self.fields = fields
    self.items = items
  }

  /// An outline section: its items are `outline`'s visible nodes, each
  /// with the size `given` gives it (nil: an existing item keeps its own).
  /// O(nodes).
  public init(id: ItemID, fields: Section = .uniform(0), outline: Outline, given: [OutlineNode]) {
    var sizes: [Size?] = []
    sizes.reserveCapacity(outline.count)
    func walk(_ nodes: [OutlineNode]) {
      for n in nodes {
        sizes.append(n.size)
        walk(n.children)
      }
    }
    walk(given)
    self.init(
      id: id, fields: fields,
      items: outline.visibleNodes().map { SnapshotItem(id: outline.ids[$0], size: sizes[$0]) })
    self.outline = outline
  }
}

extension SnapshotSection {
  /// The section this snapshot section makes, every item new, with
  /// `sizes` (one per item; nil: none of its own): its fields over the
  /// defaults, its id, its items' ids, and sizes stored only when one is
  /// given. O(n).
  func section(sizes: [Size?]) -> Section {
    var section = Section(items: .uniform(count: 0)).updating(fields)
    section.id = id
    if sizes.contains(where: { $0 != nil }) {
      section.items = .sizes(SizeList(sizes.map { $0 ?? Section.unsetSize }))
    } else {
      section.items = .uniform(count: sizes.count)
    }
    section.ids = IDList(items.map(\.id))
    section.outline = outline
    return section
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

/// A validated snapshot's items, found by id: what `validate` builds and
/// `batch` reads. About 17 bytes an item (16 more while a snapshot of
/// `sortedRecordingFrom` items or more is validated).
public struct SnapshotIndex {
  /// Each section's first item in the flattened list, then the count.
  let starts: [Int]
  let table: IDTable
  /// Per section: whether any of its items brings a size (read with the
  /// ids here, so that the diff need not stream the items again).
  let sized: [Bool]

  /// The item index of the sections the snapshot makes (its items in
  /// order), kept for the session's keyed requests. O(1).
  public var itemIndex: ItemIndex { ItemIndex(table: table, starts: starts) }
}

extension Snapshot {
  /// At most this many duplicates are named in an error.
  public static let duplicatesNamed = 10

  /// The id of the item at flattened position `g`. O(log sections).
  @inline(__always)
  func id(at g: Int, _ starts: [Int]) -> ItemID {
    let s = section(of: g, starts)
    return sections[s].items[g - starts[s]].id
  }

  /// The section of flattened position `g`. O(log sections).
  @inline(__always)
  func section(of g: Int, _ starts: [Int]) -> Int {
    var lo = 0
    var hi = starts.count - 1
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if starts[mid] <= g { lo = mid } else { hi = mid }
    }
    return lo
  }

  /// Refuses duplicate ids and reloads of ids not in the snapshot, and
  /// answers the index `batch` reads. O(n) expected.
  @discardableResult
  public func validate() throws(SnapshotError) -> SnapshotIndex {
    var seenSections = Set<ItemID>()
    var dupSections: [ItemID] = []
    for s in sections where !seenSections.insert(s.id).inserted {
      if dupSections.count < Self.duplicatesNamed && !dupSections.contains(s.id) {
        dupSections.append(s.id)
      }
    }
    if !dupSections.isEmpty { throw .duplicateSections(dupSections) }
    var starts = [0]
    starts.reserveCapacity(sections.count + 1)
    for s in sections { starts.append(starts[starts.count - 1] + s.items.count) }
    let total = starts[starts.count - 1]
    var sized = [Bool](repeating: false, count: sections.count)
    var table = IDTable(capacity: total)
    if total < Self.sortedRecordingFrom {
      let dups = record(into: &table, starts, sized: &sized)
      if !dups.isEmpty { throw .duplicateItems(dups) }
    } else {
      // Every item's table entry, from one pass over the items.
      let entries = [UInt64](unsafeUninitializedCapacity: total) { buffer, count in
        var g = 0
        for (s, section) in sections.enumerated() {
          for item in section.items {
            if item.size != nil { sized[s] = true }
            buffer[g] = IDTable.entry(hash: IDTable.hash(item.id), at: g)
            g += 1
          }
        }
        count = total
      }
      guard table.recordSorted(entries, same: { id(at: $0, starts) == id(at: $1, starts) })
      else {
        // Named in the order they repeat, by the pass in order.
        var again = IDTable(capacity: total)
        throw .duplicateItems(record(into: &again, starts, sized: &sized))
      }
    }
    for (i, r) in reloadItems.enumerated()
    where table.find(r.id, idAt: { id(at: $0, starts) }) == nil {
      throw .unknownReload(index: i)
    }
    for (i, r) in reconfigureItems.enumerated()
    where table.find(r.id, idAt: { id(at: $0, starts) }) == nil {
      throw .unknownReconfigure(index: i)
    }
    return SnapshotIndex(starts: starts, table: table, sized: sized)
  }

  /// From this many items on, `validate` records them in the order of
  /// their hashes (`IDTable.recordSorted`): below, the table (8 MB at
  /// most) mostly stays in the caches, and the items are recorded in
  /// order.
  static let sortedRecordingFrom = 1 << 19

  /// Records every item in `table` in snapshot order, notes the sections
  /// that bring sizes, and answers the ids given more than once, each
  /// once, in the order their second occurrence comes, at most
  /// `duplicatesNamed`. O(n) expected.
  private func record(into table: inout IDTable, _ starts: [Int], sized: inout [Bool])
    -> [ItemID]
  {
    var dups: [ItemID] = []
    var g = 0
    for (s, section) in sections.enumerated() {
      for item in section.items {
        if item.size != nil { sized[s] = true }
        let entry = IDTable.entry(hash: IDTable.hash(item.id), at: g)
        if table.record(entry, same: { id(at: $0, starts) == item.id }) != nil,
          dups.count < Self.duplicatesNamed, !dups.contains(item.id)
        {
          dups.append(item.id)
        }
        g += 1
      }
    }
    return dups
  }

  /// The snapshot as sections, every item new: what a first apply to data
  /// without ids loads (UIKit's first apply). Sizes from the snapshot and
  /// its reload and reconfigure lists. O(n).
  public func makeSections() -> [Section] {
    let sizes = listedSizes
    return sections.map { s in
      s.section(sizes: s.items.map { sizes.isEmpty ? $0.size : sizes[$0.id] ?? $0.size })
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
  /// an id, or a section id twice, or an item id twice that the snapshot
  /// keeps (a first apply then replaces everything; see `makeSections`).
  /// `index` is what `validate` answered (nil: built here).
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
  /// - Complexity: O(n log n) in the items of both; O(n) expected when the
  ///   items keep their order (the longest runs are found by appending).
  /// `uniformSize` is the size of an item without one of its own (the
  /// layout's `uniformItemSize`): a size given equal to an item's current
  /// size, its own or this one, changes nothing, and a uniform item stays
  /// uniform.
  public func batch(from old: [Section], index: SnapshotIndex? = nil, uniformSize: Size? = nil)
    -> BatchUpdate?
  {
    guard let index = index ?? (try? validate()) else { return nil }
    let starts = index.starts
    let total = starts[starts.count - 1]
    // Old sections by id, which must all exist and be unique.
    var oldSection = [ItemID: Int](minimumCapacity: old.count)
    for (o, section) in old.enumerated() {
      guard let id = section.id, oldSection.updateValue(o, forKey: id) == nil else { return nil }
      guard section.count == 0 || section.ids != nil else { return nil }
    }
    let sourceOf = sections.map { oldSection[$0.id] }
    var targetOf = [Int?](repeating: nil, count: old.count)
    for (s, o) in sourceOf.enumerated() { if let o { targetOf[o] = s } }

    var u = BatchUpdate()
    // For each new item, its old path packed as (section << 32 | item),
    // or -1 when it is new. One pass over the old ids, one probe each.
    var oldOfNew = [Int64](repeating: -1, count: total)
    // Written through a buffer: a captured array would be checked for
    // uniqueness on every write.
    let diffable = oldOfNew.withUnsafeMutableBufferPointer { oldOfNew in
      for (o, before) in old.enumerated() {
        var k = 0
        var complete = true
        // Where the next old item most likely is among the new ones: right
        // after the last one found (the first of its section's new place at
        // the start). A right guess costs one comparison of ids, read in
        // order, instead of a probe of the table (a cache miss at 1e6).
        var guess = targetOf[o].map { starts[$0] } ?? total
        var guessSection = targetOf[o] ?? 0
        // The guessed section's items, held while the guesses stay in it.
        var items = guessSection < sections.count ? sections[guessSection].items : []
        var itemsFirst = starts[guessSection]
        // Leaf by leaf: the body is inlined in the loop over a leaf.
        before.ids?.forEachLeaf(from: 0) { _, leaf, _ in
          for j in 0..<leaf.count {
            let id = leaf[j]
            guard let id else {
              complete = false
              return false
            }
            var found: Int? = nil
            if guess < total {
              if guess >= itemsFirst + items.count {
                while starts[guessSection + 1] <= guess { guessSection += 1 }
                items = sections[guessSection].items
                itemsFirst = starts[guessSection]
              }
              if items[guess - itemsFirst].id.isSame(as: id) { found = guess }
            }
            if found == nil { found = index.table.find(id, idAt: { self.id(at: $0, starts) }) }
            if let g = found {
              guess = g + 1
              if g < starts[guessSection] || g >= starts[guessSection + 1] {
                guessSection = self.section(of: g, starts)
                items = sections[guessSection].items
                itemsFirst = starts[guessSection]
              }
              // The same id twice in the old data, kept: not diffable.
              guard oldOfNew[g] < 0 else {
                complete = false
                return false
              }
              oldOfNew[g] = Int64(o) << 32 | Int64(k)
              // Kept, but its new section is inserted: deleted here.
              if targetOf[o] != nil && sourceOf[guessSection] == nil {
                u.deleteItems.append(IndexPath(section: o, item: k))
              }
            } else if targetOf[o] != nil {
              u.deleteItems.append(IndexPath(section: o, item: k))  // gone
            }
            k += 1
          }
          return true
        }
        guard complete else { return false }
      }
      return true
    }
    guard diffable else { return nil }
    func oldPath(_ packed: Int64) -> IndexPath {
      IndexPath(section: Int(packed >> 32), item: Int(packed & 0xFFFF_FFFF))
    }

    let listed = listedSizes
    let reloaded = Set(reloadItems.map(\.id))
    let reconfigured = Set(reconfigureItems.map(\.id)).subtracting(reloaded)
    // Own sizes of old items: read from their sections when asked.
    func ownSize(_ p: IndexPath) -> Size? {
      guard case .sizes(let list) = old[p.section].items else { return nil }
      let size = list[p.item]
      return size == Section.unsetSize ? nil : size
    }
    // What an item brings: the listed size, the snapshot's, else nil.
    @inline(__always) func givenSize(_ item: SnapshotItem) -> Size? {
      listed.isEmpty ? item.size : listed[item.id] ?? item.size
    }
    // A size given that differs from the item's current one (its own, or
    // the uniform size), else nil.
    @inline(__always) func changedSize(_ item: SnapshotItem, _ from: IndexPath) -> Size? {
      guard let size = givenSize(item) else { return nil }
      return size == (ownSize(from) ?? uniformSize) ? nil : size
    }

    // An item that stays in its section: kept in place (reloaded or
    // reconfigured there when asked), else moved, or deleted and inserted
    // when reloaded.
    func stay(_ item: SnapshotItem, from: IndexPath, to: IndexPath, kept: Bool) {
      let isReloaded = !reloaded.isEmpty && reloaded.contains(item.id)
      if kept {
        let changed = changedSize(item, from)
        if isReloaded {
          u.reloadItems.append((from, changed))
        } else if changed != nil || reconfigured.contains(item.id) {
          u.reconfigureItems.append((from, changed))
        }
      } else if isReloaded {
        u.deleteItems.append(from)
        u.insertItems.append((to, Item(size: givenSize(item) ?? ownSize(from), id: item.id)))
      } else {
        u.moveItems.append((from, to, changedSize(item, from)))
        if !reconfigured.isEmpty && reconfigured.contains(item.id) {
          u.reconfigureItems.append((from, nil))
        }
      }
    }

    // Sections.
    let surviving = sourceOf.indices.filter { sourceOf[$0] != nil }
    let staying = longestIncreasingMask(surviving.map { sourceOf[$0]! })
    for (k, s) in surviving.enumerated() where !staying[k] {
      u.moveSections.append((sourceOf[s]!, s))
    }
    for o in old.indices where targetOf[o] == nil { u.deleteSections.append(o) }

    for (s, section) in sections.enumerated() {
      let first = starts[s]
      guard let o = sourceOf[s] else {
        // Inserted with every item it holds, old ones keeping their sizes.
        let sizes = section.items.enumerated().map { k, item in
          let was = oldOfNew[first + k]
          return givenSize(item) ?? (was < 0 ? nil : ownSize(oldPath(was)))
        }
        u.insertSections.append((s, section.section(sizes: sizes)))
        continue
      }
      let merged = old[o].updating(section.fields)
      if !merged.hasSameFields(as: old[o]) { u.updateSections.append((s, section.fields)) }
      // Items that stay in this section keep their places when their old
      // indices increase in new order (the common case, found without a
      // search); else the longest increasing run of them does.
      // The old index of new item k when it stays in this section.
      @inline(__always) func stayer(_ k: Int) -> Int? {
        let was = oldOfNew[first + k]
        return was >= 0 && Int(was >> 32) == o ? Int(was & 0xFFFF_FFFF) : nil
      }
      var inOrder = true
      var last = -1
      for k in 0..<section.items.count {
        guard let i = stayer(k) else { continue }
        if i < last {
          inOrder = false
          break
        }
        last = i
      }
      var keep: [Bool] = []
      if !inOrder {
        var olds: [Int] = []
        for k in 0..<section.items.count { if let i = stayer(k) { olds.append(i) } }
        keep = longestIncreasingMask(olds)
      }
      var stayers = 0
      for k in 0..<section.items.count {
        if let i = stayer(k) {
          let kept = inOrder || keep[stayers]
          stayers += 1
          let from = IndexPath(section: o, item: i)
          if kept && reloaded.isEmpty && listed.isEmpty && reconfigured.isEmpty
            && (!index.sized[s] || section.items[k].size == nil)
          {
            continue  // the common case: stays as it is
          }
          stay(section.items[k], from: from, to: IndexPath(section: s, item: k), kept: kept)
          continue
        }
        let item = section.items[k]
        let to = IndexPath(section: s, item: k)
        let was = oldOfNew[first + k]
        guard was >= 0 else {
          u.insertItems.append((to, Item(size: givenSize(item), id: item.id)))
          continue
        }
        let from = oldPath(was)
        if targetOf[from.section] == nil || (!reloaded.isEmpty && reloaded.contains(item.id)) {
          // Out of a deleted section (or a reload): deleted with it, or
          // here, and inserted.
          if targetOf[from.section] != nil { u.deleteItems.append(from) }
          u.insertItems.append((to, Item(size: givenSize(item) ?? ownSize(from), id: item.id)))
        } else {
          u.moveItems.append((from, to, changedSize(item, from)))
          if !reconfigured.isEmpty && reconfigured.contains(item.id) {
            u.reconfigureItems.append((from, nil))
          }
        }
      }
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
