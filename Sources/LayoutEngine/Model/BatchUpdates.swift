// performBatchUpdates: UIKit's semantics, validation and error wording.
//
// Deletes, reloads and move sources use index paths from before the
// update; inserts and move destinations use index paths from after it. The
// order of operations within the request does not matter: deletes apply in
// descending order, then moves, then inserts in ascending order, which is
// the same as filling every new slot that is not an insert or a move
// destination with the surviving items, in their old order.

/// A stable identity a client gives an item or a section, so that anchoring
/// can follow it across a reloadData and snapshots can be diffed. Ids are
/// compared as JSON values: `1` and `"1"` differ.
public enum ItemID: Hashable, Sendable {
  case int(Int64)
  case string(String)

  /// `==`, with integers compared without copying either id (the diff
  /// compares one pair per item). O(length of the ids).
  @inline(__always)
  func isSame(as other: ItemID) -> Bool {
    if case .int(let a) = self, case .int(let b) = other { return a == b }
    return self == other
  }
}

/// One item of a section, as batch updates move it around.
public struct Item: Equatable, Sendable {
  /// nil: the layout's uniform item size.
  public var size: Size?
  public var id: ItemID?
  public init(size: Size? = nil, id: ItemID? = nil) {
    self.size = size
    self.id = id
  }
}

/// The operations of one performBatchUpdates call.
public struct BatchUpdate: Sendable {
  public var deleteSections: [Int] = []
  public var insertSections: [(index: Int, section: Section)] = []
  public var moveSections: [(from: Int, to: Int)] = []
  public var deleteItems: [IndexPath] = []
  public var insertItems: [(path: IndexPath, item: Item)] = []
  /// A size, when given, replaces the moved item's size.
  public var moveItems: [(from: IndexPath, to: IndexPath, size: Size?)] = []
  /// A reload keeps the item in place; a size, when given, replaces its size.
  public var reloadItems: [(path: IndexPath, size: Size?)] = []
  /// Like a reload, but the item keeps its cell (UIKit's
  /// reconfigureItems): old paths, optional sizes. Unlike a reload, the
  /// item may also move.
  public var reconfigureItems: [(path: IndexPath, size: Size?)] = []
  /// A surviving section's own fields (new indices): each field the patch
  /// gives replaces the section's (see `Section.updating`).
  public var updateSections: [(index: Int, fields: Section)] = []
  /// numberOfItemsInSection after the update, as the data source reports
  /// it; nil derives the counts from the operations.
  public var itemCounts: [Int]? = nil

  public init() {}

  /// Whether every item keeps its path and id (reloads, reconfigures and
  /// section fields only), so that an index of ids stays valid. O(1).
  public var keepsItemPaths: Bool {
    deleteSections.isEmpty && insertSections.isEmpty && moveSections.isEmpty
      && deleteItems.isEmpty && insertItems.isEmpty && moveItems.isEmpty
  }
}

/// A batch that UIKit would reject, with UIKit's wording.
public struct BatchUpdateError: Error, Equatable, Sendable {
  public var message: String
  init(_ message: String) { self.message = message }
}

/// How one section's items moved: removed old indices and added new ones,
/// both sorted. Survivors keep their relative order. Queries are O(log
/// ops).
struct ItemShuffle: Sendable {
  var removedOld: [Int] = []
  var addedNew: [Int] = []

  /// Whether new index `i` was inserted or moved in. O(log ops).
  func isAdded(_ i: Int) -> Bool {
    var lo = 0
    var hi = addedNew.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if addedNew[mid] < i { lo = mid + 1 } else { hi = mid }
    }
    return lo < addedNew.count && addedNew[lo] == i
  }

  /// The old index of the survivor at new index `i` (which is not added).
  /// O(log ops).
  func oldIndex(ofNew i: Int) -> Int {
    let rank = i - Self.countBelow(i, addedNew)
    return rank + Self.firstPast(rank, removedOld)
  }

  /// The new index of the survivor at old index `o` (which is not removed).
  /// O(log ops).
  func newIndex(ofOld o: Int) -> Int {
    let rank = o - Self.countBelow(o, removedOld)
    return rank + Self.firstPast(rank, addedNew)
  }

  /// How many of `sorted` are below `x`.
  private static func countBelow(_ x: Int, _ sorted: [Int]) -> Int {
    upperBound(sorted.count) { sorted[$0] >= x }
  }

  /// The first k with `sorted[k] - k > rank` (non-decreasing in k, the
  /// values being distinct and ascending): how many of them a survivor of
  /// that rank lies past.
  private static func firstPast(_ rank: Int, _ sorted: [Int]) -> Int {
    upperBound(sorted.count) { sorted[$0] - $0 > rank }
  }
}

/// The old indices of a section's survivors, asked in ascending order of
/// new index: each answer is amortised O(1) (a merge walk over the shuffle),
/// so a whole section costs O(n + ops).
public struct SurvivorWalk: Sendable {
  let shuffle: ItemShuffle
  private var added = 0
  private var removed = 0

  init(_ shuffle: ItemShuffle) { self.shuffle = shuffle }

  /// Every item stays where it is.
  static let identity = SurvivorWalk(ItemShuffle())

  /// The old index of the item at new index `i` when it stayed in its
  /// section in order, else nil (inserted or moved in). `i` must not
  /// decrease from one call to the next.
  public mutating func oldIndex(ofNew i: Int) -> Int? {
    let a = shuffle.addedNew
    while added < a.count && a[added] < i { added += 1 }
    if added < a.count && a[added] == i { return nil }
    let rank = i - added
    let r = shuffle.removedOld
    while removed < r.count && r[removed] <= rank + removed { removed += 1 }
    return rank + removed
  }
}

/// The outcome of a batch: the new sections, and the mapping between old
/// and new index paths that animations and anchoring need.
public struct BatchResult: Sendable {
  public var sections: [Section]
  /// For each new section, the old section it continues, or nil if inserted.
  var sectionSource: [Int?]
  /// For each old section, where it went, or nil if deleted.
  var sectionTarget: [Int?]
  /// For each new section continuing an old one: how its items moved.
  var shuffles: [ItemShuffle]
  /// Moves by new path: where the item came from. (An inserted item is
  /// added in its section's shuffle, and not here.)
  var arrivals: [IndexPath: IndexPath]
  /// Moves by old path, to their new path.
  var departures: [IndexPath: IndexPath]
  /// For each new section continuing an old one: the span of its items
  /// that changed, or nil when none did (see `Layout.apply`).
  var edits: [ItemEdit?]
  /// The items the batch deleted, by old path.
  public var deletedItems = IndexPathSet()

  /// The old index path of the element now at `path`, or nil when it was
  /// inserted (with its section, or on its own). O(ops in its section).
  public func oldPath(of path: IndexPath) -> IndexPath? {
    guard let oldSection = sectionSource[path.section] else { return nil }
    if let arrival = arrivals[path] { return arrival }
    if shuffles[path.section].isAdded(path.item) { return nil }
    return IndexPath(
      section: oldSection, item: shuffles[path.section].oldIndex(ofNew: path.item))
  }

  /// The old index of the item now at `item` of new section `section`
  /// when it stayed in its section in order (neither inserted nor moved);
  /// nil otherwise. O(ops in its section).
  public func survivor(section: Int, item: Int) -> Int? {
    guard section < sectionSource.count, sectionSource[section] != nil,
      !shuffles[section].isAdded(item)
    else { return nil }
    return shuffles[section].oldIndex(ofNew: item)
  }

  /// A walk over the survivors of new section `section`, or nil when the
  /// section was inserted. O(1).
  public func survivors(section: Int) -> SurvivorWalk? {
    guard section < sectionSource.count, sectionSource[section] != nil else { return nil }
    return SurvivorWalk(shuffles[section])
  }

  /// The old section a new section continues, or nil when it was inserted.
  public func oldSection(of section: Int) -> Int? { sectionSource[section] }

  /// The new section an old one went to, or nil when it was deleted.
  public func newSection(of section: Int) -> Int? { sectionTarget[section] }

  /// The new index path of the element that was at `path`, or nil when it
  /// was deleted (with its section, or on its own). O(ops in its section).
  public func newPath(of path: IndexPath, deleted: IndexPathSet) -> IndexPath? {
    if let d = departures[path] { return d }
    if deleted.contains(path) { return nil }
    guard let s = sectionTarget[path.section] else { return nil }
    return IndexPath(section: s, item: shuffles[s].newIndex(ofOld: path.item))
  }
}

extension Section {
  /// Item `i`: its own size when the section stores sizes, and its id.
  /// O(log n).
  func item(_ i: Int) -> Item {
    var it = Item()
    if case .sizes(let s) = items, s[i] != Section.unsetSize { it.size = s[i] }
    it.id = ids?[i] ?? nil
    return it
  }
}

/// Formats an index path as UIKit's NSIndexPath description does.
func describe(_ p: IndexPath) -> String {
  "{length = 2, path = \(p.section) - \(p.item)}"
}

extension BatchUpdate {
  /// Validates the batch against `old` and applies it. `uniformSize` is the
  /// size of items that carry none. Throws with UIKit's message when UIKit
  /// would raise. O(sections + ops), plus O(items) for each section whose
  /// items must be materialised (varied sizes or ids).
  public func apply(to old: [Section], uniformSize: Size) throws(BatchUpdateError) -> BatchResult {
    let m = old.count
    // Sections.
    var deleted = Set<Int>()
    for s in deleteSections {
      guard s >= 0 && s < m else {
        throw BatchUpdateError(
          "attempt to delete section \(s), but there are only \(m) sections before the update")
      }
      guard deleted.insert(s).inserted else {
        throw BatchUpdateError("attempt to delete section \(s) twice")
      }
    }
    let newCount = m - deleted.count + insertSections.count
    if let counts = itemCounts, counts.count != newCount {
      throw BatchUpdateError(
        "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (\(counts.count)) must be equal to the number of sections contained in the collection view before the update (\(m)), plus or minus the number of sections inserted or deleted (\(insertSections.count) inserted, \(deleted.count) deleted)."
      )
    }
    var source = [Int?](repeating: nil, count: newCount)
    var taken = [Bool](repeating: false, count: newCount)
    var movedOut = Set<Int>()
    for (from, to) in moveSections {
      guard from >= 0 && from < m else {
        throw BatchUpdateError(
          "attempt to move section \(from), but there are only \(m) sections before the update")
      }
      guard to >= 0 && to < newCount else {
        throw BatchUpdateError(
          "attempt to move section \(from) to section \(to), but there are only \(newCount) sections after the update"
        )
      }
      guard !deleted.contains(from) else {
        throw BatchUpdateError("attempt to delete and move the same section (\(from))")
      }
      guard movedOut.insert(from).inserted else {
        throw BatchUpdateError("attempt to move section \(from) twice")
      }
      guard !taken[to] else {
        throw BatchUpdateError(
          "attempt to move section \(from) to section \(to), which is already taken")
      }
      taken[to] = true
      source[to] = from
    }
    var insertedAt = [Int: Section]()
    for (index, section) in insertSections {
      guard index >= 0 && index < newCount else {
        throw BatchUpdateError(
          "attempt to insert section \(index) but there are only \(newCount) sections after the update"
        )
      }
      guard !taken[index] else {
        throw BatchUpdateError(
          "attempt to insert section \(index) twice, or where a section moves to")
      }
      taken[index] = true
      insertedAt[index] = section
    }
    // Fill the free slots with the remaining old sections, in order.
    var next = 0
    for s in 0..<newCount where !taken[s] {
      while deleted.contains(next) || movedOut.contains(next) { next += 1 }
      source[s] = next
      next += 1
    }
    var target = [Int?](repeating: nil, count: m)
    for (s, o) in source.enumerated() { if let o { target[o] = s } }

    // Items, by old path (deletes, reloads, move sources) and new path.
    for p in deleteItems {
      try checkOld(p, old, verb: "delete")
      guard !deleted.contains(p.section) else {
        throw BatchUpdateError(
          "attempt to delete item \(p.item) from section \(p.section), which is also being deleted")
      }
    }
    // Sorted, not hashed: a collapse deletes a hundred thousand rows.
    let deletes = IndexPathSet(ascending(deleteItems, by: { $0 }))
    if let p = deletes.firstRepeat {
      throw BatchUpdateError("attempt to delete the same index path twice \(describe(p))")
    }
    var reloads = [IndexPath: Size?]()
    for (p, size) in reloadItems {
      try checkOld(p, old, verb: "reload")
      guard !deletes.contains(p) else {
        throw BatchUpdateError("attempt to delete and reload the same index path \(describe(p))")
      }
      guard !deleted.contains(p.section) else {
        throw BatchUpdateError(
          "attempt to reload item \(p.item) in section \(p.section), which is being deleted")
      }
      reloads[p] = size
    }
    var reconfigures = [IndexPath: Size?]()
    for (p, size) in reconfigureItems {
      try checkOld(p, old, verb: "reconfigure")
      guard !deletes.contains(p) else {
        throw BatchUpdateError(
          "attempt to delete and reconfigure the same index path \(describe(p))")
      }
      guard reloads[p] == nil else {
        throw BatchUpdateError(
          "attempt to reload and reconfigure the same index path \(describe(p))")
      }
      guard !deleted.contains(p.section) else {
        throw BatchUpdateError(
          "attempt to reconfigure item \(p.item) in section \(p.section), which is being deleted")
      }
      guard reconfigures.updateValue(size, forKey: p) == nil else {
        throw BatchUpdateError("attempt to reconfigure the same index path twice \(describe(p))")
      }
    }
    var departures = [IndexPath: IndexPath](minimumCapacity: moveItems.count)
    var arrivals = [IndexPath: IndexPath](minimumCapacity: moveItems.count)
    // The sizes moved items take: the move's, else a reconfigure's.
    var movedSizes = [IndexPath: Size]()
    for (from, to, size) in moveItems {
      try checkOld(from, old, verb: "move")
      guard !deletes.contains(from) else {
        throw BatchUpdateError(
          "attempt to perform a delete and a move from the same index path \(describe(from))")
      }
      guard reloads[from] == nil else {
        throw BatchUpdateError(
          "attempt to perform a reload and a move from the same index path \(describe(from))")
      }
      guard !deleted.contains(from.section) else {
        throw BatchUpdateError(
          "attempt to move item \(from.item) out of section \(from.section), which is being deleted"
        )
      }
      guard departures[from] == nil else {
        throw BatchUpdateError("attempt to move index path \(describe(from)) twice")
      }
      guard to.section >= 0 && to.section < newCount, to.item >= 0 else {
        throw BatchUpdateError(
          "attempt to move index path \(describe(from)) to index path \(describe(to)), but there are only \(newCount) sections after the update"
        )
      }
      guard source[to.section] != nil else {
        throw BatchUpdateError(
          "attempt to move index path \(describe(from)) into section \(to.section), which is being inserted"
        )
      }
      guard arrivals[to] == nil else {
        throw BatchUpdateError(
          "attempt to move index path \(describe(from)) to index path \(describe(to)), which is already taken"
        )
      }
      departures[from] = to
      arrivals[to] = from
      if let size = size ?? reconfigures[from] ?? nil { movedSizes[from] = size }
    }
    // Staying items whose size a reload or a reconfigure replaces.
    for (p, size) in reconfigures where departures[p] == nil {
      if let size { reloads[p] = size }
    }
    var updated = [Int: Section]()
    for (index, fields) in updateSections {
      guard index >= 0 && index < newCount else {
        throw BatchUpdateError(
          "attempt to update section \(index) but there are only \(newCount) sections after the update"
        )
      }
      guard source[index] != nil else {
        throw BatchUpdateError("attempt to update section \(index), which is being inserted")
      }
      guard updated.updateValue(fields, forKey: index) == nil else {
        throw BatchUpdateError("attempt to update section \(index) twice")
      }
    }
    // Inserts by new section, as (item, index in insertItems): no hash per
    // insert, so that a million inserted items cost a sort check.
    var insertsBySection = [Int: [(item: Int, k: Int)]]()
    var run = Run<(item: Int, k: Int)>()
    for (k, (p, _)) in insertItems.enumerated() {
      guard p.section >= 0 && p.section < newCount, p.item >= 0 else {
        throw BatchUpdateError(
          "attempt to insert item \(p.item) into section \(p.section), but there are only \(newCount) sections after the update"
        )
      }
      guard source[p.section] != nil else {
        throw BatchUpdateError(
          "attempt to insert item \(p.item) into section \(p.section), which is itself being inserted"
        )
      }
      guard arrivals.isEmpty || arrivals[p] == nil else { throw insertTaken(p) }
      run.add((p.item, k), section: p.section, into: &insertsBySection)
    }
    run.flush(into: &insertsBySection)
    // Two inserts at one path: adjacent once sorted.
    for (s, list) in insertsBySection {
      let sorted = ascending(list, by: \.item)
      for i in sorted.indices.dropFirst() where sorted[i - 1].item == sorted[i].item {
        throw insertTaken(IndexPath(section: s, item: sorted[i].item))
      }
      insertsBySection[s] = sorted
    }

    // Per section: counts, validation, and the new items. Gathered in the
    // request's order, which is usually ascending already: a sort is then
    // one check instead of O(k log k).
    var removedBySection = [Int: [Int]]()  // old section → old items leaving
    var gone = Run<Int>()
    for p in deleteItems { gone.add(p.item, section: p.section, into: &removedBySection) }
    gone.flush(into: &removedBySection)
    // Counted before the moves' sources join them.
    let deletedBySection = removedBySection.mapValues(\.count)
    for m in moveItems { gone.add(m.from.item, section: m.from.section, into: &removedBySection) }
    gone.flush(into: &removedBySection)
    var movesIn = [Int: [(item: Int, k: Int)]]()  // new section → move destinations
    for (k, m) in moveItems.enumerated() {
      movesIn[m.to.section, default: []].append((m.to.item, k))
    }
    var result: [Section] = []
    result.reserveCapacity(newCount)
    var shuffles = [ItemShuffle](repeating: ItemShuffle(), count: newCount)
    var edits = [ItemEdit?](repeating: nil, count: newCount)
    for s in 0..<newCount {
      guard let o = source[s] else {
        let section = insertedAt[s]!
        if let counts = itemCounts, counts[s] != section.count {
          throw BatchUpdateError(
            "Invalid update: invalid number of items in section \(s). The number of items contained in an inserted section (\(counts[s])) must be equal to the number of items given for it (\(section.count))."
          )
        }
        result.append(section)
        continue
      }
      let before = old[o]
      let removed = ascending(removedBySection[o] ?? [], by: { $0 })
      // The new items arriving, ascending: inserts and move destinations
      // merged, each with where it comes from.
      let ins = insertsBySection[s] ?? []
      let mvs = ascending(movesIn[s] ?? [], by: \.item)
      var added: [Int] = []
      // The items arriving, and where the last one comes from when it is
      // a move (for the error that names it).
      // Each arriving item by where to read it: an insert's index in
      // `insertItems` (a hundred thousand items are not copied into an
      // array of their own), or a moved item's, -1 - its index in `moved`.
      var sources: [Int] = []
      var moved: [Item] = []
      var lastMove: IndexPath? = nil
      // Whether any arriving item brings a size, or an id, of its own.
      var anySize = false
      var anyID = false
      added.reserveCapacity(ins.count + mvs.count)
      sources.reserveCapacity(ins.count + mvs.count)
      var a = 0
      var b = 0
      while a < ins.count || b < mvs.count {
        if b == mvs.count || (a < ins.count && ins[a].item < mvs[b].item) {
          added.append(ins[a].item)
          sources.append(ins[a].k)
          anySize = anySize || insertItems[ins[a].k].item.size != nil
          anyID = anyID || insertItems[ins[a].k].item.id != nil
          lastMove = nil
          a += 1
        } else {
          let from = moveItems[mvs[b].k].from
          var item = old[from.section].item(from.item)
          if let size = movedSizes[from] { item.size = size }
          added.append(mvs[b].item)
          sources.append(-1 - moved.count)
          anySize = anySize || item.size != nil
          anyID = anyID || item.id != nil
          moved.append(item)
          lastMove = from
          b += 1
        }
      }
      let deletedHere = deletedBySection[o] ?? 0
      let insertedHere = ins.count
      let movedOutHere = removed.count - deletedHere
      let movedInHere = added.count - insertedHere
      let count = before.count - removed.count + added.count
      if let counts = itemCounts, counts[s] != count {
        throw BatchUpdateError(
          "Invalid update: invalid number of items in section \(s). The number of items contained in an existing section after the update (\(counts[s])) must be equal to the number of items contained in that section before the update (\(before.count)), plus or minus the number of items inserted or deleted from that section (\(insertedHere) inserted, \(deletedHere) deleted) and plus or minus the number of items moved into or out of that section (\(movedInHere) moved in, \(movedOutHere) moved out)."
        )
      }
      if let last = added.last, last >= count {
        let p = IndexPath(section: s, item: last)
        guard let from = lastMove else {
          throw BatchUpdateError(
            "attempt to insert item \(last) into section \(s), but there are only \(count) items in section \(s) after the update"
          )
        }
        throw BatchUpdateError(
          "attempt to move index path \(describe(from)) to index path \(describe(p)), but there are only \(count) items in section \(s) after the update"
        )
      }
      shuffles[s] = ItemShuffle(removedOld: removed, addedNew: added)
      let sectionReloads = reloads.filter { $0.key.section == o && $0.value != nil }
      if removed.isEmpty && added.isEmpty && sectionReloads.isEmpty {
        result.append(before)
        continue
      }
      // Uniform sections stay O(1) while no item brings a size or id of its own.
      let staysUniform =
        before.ids == nil
        && { if case .uniform = before.items { return true } else { return false } }()
        && sectionReloads.isEmpty
        && !anyID && !anySize
      if staysUniform {
        var section = before
        section.items = .uniform(count: count)
        result.append(section)
        // The span the removals and arrivals touch (the items outside it
        // are old ones in order), so that a stable waterfall places only
        // it, not the section.
        let lo = min(removed.first ?? .max, added.first ?? .max)
        let t = min(before.count - ((removed.last ?? -1) + 1), count - ((added.last ?? -1) + 1))
        edits[s] = ItemEdit(lo: lo, oldHi: before.count - t, newHi: count - t)
        continue
      }
      // Edit the section's ropes in place: reload sizes (old indices),
      // deletes and move sources in descending order, then inserts and
      // move destinations in ascending order. O(ops · log n), plus O(n)
      // when a uniform section first gets sizes or ids of their own.
      var section = before
      // Sizes stay uniform (O(1)) while none is brought; only ids change.
      let uniformSizes =
        { if case .uniform = before.items { return true } else { return false } }()
        && sectionReloads.isEmpty && !anySize
      var sizes = uniformSizes ? nil : before.sizeList
      var ids = before.ids
      if ids == nil && anyID {
        ids = IDList(Array(repeating: nil, count: before.count))
      }
      section.items = .uniform(count: 0)
      section.ids = nil
      var reloaded: [Int] = []
      for (p, size) in sectionReloads {
        guard let size else { continue }
        sizes?.set(p.item, size)
        reloaded.append(p.item)
      }
      // Descending: a stretch of consecutive indices goes as one removal.
      var end = removed.count
      while end > 0 {
        var start = end - 1
        while start > 0 && removed[start - 1] == removed[start] - 1 { start -= 1 }
        let range = removed[start]..<removed[end - 1] + 1
        sizes?.removeSubrange(range)
        ids?.removeSubrange(range)
        end = start
      }
      // Ascending new indices: a stretch of consecutive ones goes in as one
      // insert (a million appended items are one rope edit, not a million).
      var k = 0
      while k < added.count {
        var end = k + 1
        while end < added.count && added[end] == added[end - 1] + 1 { end += 1 }
        @inline(__always) func item(_ j: Int) -> Item {
          j >= 0 ? insertItems[j].item : moved[-1 - j]
        }
        if end - k == 1 {
          let it = item(sources[k])
          sizes?.insert(it.size ?? Section.unsetSize, at: added[k])
          ids?.insert(it.id, at: added[k])
        } else {
          let run = sources[k..<end]
          // Lazily: each value is copied once, into the rope's leaves.
          sizes?.insert(
            contentsOf: run.lazy.map { item($0).size ?? Section.unsetSize }, at: added[k])
          ids?.insert(contentsOf: run.lazy.map { item($0).id }, at: added[k])
        }
        k = end
      }
      section.items = sizes.map { .sizes($0) } ?? .uniform(count: count)
      section.ids = ids
      result.append(section)
      // The items before the first change and after the last are the old
      // ones: survivors keep their order, so the last t items of both
      // lists match when none of them was touched.
      let shuffle = shuffles[s]
      let lo = min(removed.first ?? .max, added.first ?? .max, reloaded.min() ?? .max)
      if lo != .max {
        let oldTouched = max(removed.last ?? -1, reloaded.max() ?? -1) + 1
        let newTouched =
          max(
            added.last ?? -1, reloaded.map { shuffle.newIndex(ofOld: $0) }.max() ?? -1) + 1
        let t = min(before.count - oldTouched, count - newTouched)
        edits[s] = ItemEdit(lo: lo, oldHi: before.count - t, newHi: count - t)
      }
    }
    for (s, fields) in updated { result[s] = result[s].updating(fields) }
    return BatchResult(
      sections: result, sectionSource: source, sectionTarget: target, shuffles: shuffles,
      arrivals: arrivals, departures: departures, edits: edits, deletedItems: deletes)
  }

  /// `apply(to: sections)` for one move within a section of sizes, made
  /// in `sections` itself: the section's ropes, when nothing else holds
  /// them, are edited in place rather than copied (an interactive
  /// movement moves its item a slot at a time, every frame). The same
  /// result as `apply`; nil, with `sections` untouched, for anything
  /// else (another shape, a path out of range). O(log n).
  static func move(
    from a: IndexPath, to b: IndexPath, in sections: inout [Section]
  ) -> BatchResult? {
    let s = a.section
    guard s == b.section, s >= 0, s < sections.count, a != b,
      case .sizes = sections[s].items
    else { return nil }
    let n = sections[s].count
    guard a.item >= 0, a.item < n, b.item >= 0, b.item < n else { return nil }
    sections[s].moveItem(from: a.item, to: b.item)
    let m = sections.count
    var shuffles = [ItemShuffle](repeating: ItemShuffle(), count: m)
    shuffles[s] = ItemShuffle(removedOld: [a.item], addedNew: [b.item])
    var edits = [ItemEdit?](repeating: nil, count: m)
    // As `apply` finds it: the items after the later of the two are
    // untouched.
    let hi = max(a.item, b.item) + 1
    edits[s] = ItemEdit(lo: min(a.item, b.item), oldHi: hi, newHi: hi)
    let identity = (0..<m).map { Optional($0) }
    return BatchResult(
      sections: sections, sectionSource: identity, sectionTarget: identity, shuffles: shuffles,
      arrivals: [b: a], departures: [a: b], edits: edits, deletedItems: IndexPathSet())
  }

  /// `list` in ascending order of `key`: as it is when already so (one
  /// pass), so that a request's usual ascending order costs no sort.
  private func ascending<T, K: Comparable>(_ list: [T], by key: (T) -> K) -> [T] {
    for i in list.indices.dropFirst() where key(list[i - 1]) > key(list[i]) {
      return list.sorted { key($0) < key($1) }
    }
    return list
  }

  private func insertTaken(_ p: IndexPath) -> BatchUpdateError {
    BatchUpdateError(
      "attempt to insert an item at index path \(describe(p)), which is already taken")
  }

  private func checkOld(_ p: IndexPath, _ old: [Section], verb: String) throws(BatchUpdateError) {
    guard p.section >= 0 && p.section < old.count else {
      throw BatchUpdateError(
        "attempt to \(verb) item \(p.item) from section \(p.section), but there are only \(old.count) sections before the update"
      )
    }
    guard p.item >= 0 && p.item < old[p.section].count else {
      throw BatchUpdateError(
        "attempt to \(verb) item \(p.item) from section \(p.section) which only contains \(old[p.section].count) items before the update"
      )
    }
  }
}

/// Index paths held sorted: built from an ascending list in O(k), asked in
/// O(log k); no hash per path, so that a batch of a hundred thousand
/// deletes costs their sort check.
public struct IndexPathSet: Sendable, Equatable, ExpressibleByArrayLiteral {
  private var sorted: [IndexPath] = []

  public init() {}

  /// Any paths, sorted here. O(k log k).
  public init(arrayLiteral paths: IndexPath...) { sorted = paths.sorted() }

  /// `ascending` must be in ascending order (repeats allowed, see
  /// `firstRepeat`).
  init(_ ascending: [IndexPath]) { sorted = ascending }

  public var count: Int { sorted.count }
  public var isEmpty: Bool { sorted.isEmpty }

  /// The first path given twice, or nil. O(k).
  var firstRepeat: IndexPath? {
    for i in sorted.indices.dropFirst() where sorted[i - 1] == sorted[i] { return sorted[i] }
    return nil
  }

  /// O(log k).
  public func contains(_ p: IndexPath) -> Bool {
    let k = upperBound(sorted.count) { sorted[$0] >= p }
    return k < sorted.count && sorted[k] == p
  }
}

/// Gathers values by section with one dictionary access per run of one
/// section (a batch's paths usually come grouped), not one per value.
private struct Run<T> {
  var section = -1
  var values: [T] = []

  mutating func add(_ value: T, section s: Int, into d: inout [Int: [T]]) {
    if s != section {
      flush(into: &d)
      section = s
    }
    values.append(value)
  }

  mutating func flush(into d: inout [Int: [T]]) {
    guard !values.isEmpty else { return }
    d[section, default: []].append(contentsOf: values)
    values.removeAll(keepingCapacity: true)
  }
}
