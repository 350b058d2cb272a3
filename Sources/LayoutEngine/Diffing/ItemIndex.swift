// Where each item id of a layout lies: the keyed requests' lookup
// (`{id}` in place of a path). An open-addressed table of global positions
// (IDTable), 16 bytes an id, with no copy of the ids: a probe reads the id
// at a candidate position from the sections only when the fingerprints
// agree.

/// The positions of a layout's item ids, built in one pass. Ids need not be
/// unique outside snapshots and `layout/open`: the first of equal ids is
/// the one found.
public struct ItemIndex: Sendable {
  private var table: IDTable
  /// The global position of each section's first item, and the total.
  private let starts: [Int]
  /// Whether an id is there twice (the index finds the first).
  public private(set) var hasDuplicates = false

  /// Indexes the ids of `sections`. O(n) expected, 16 bytes an id.
  public init(_ sections: [Section]) {
    self = Self.build(sections, stopAtDuplicate: false).index
  }

  /// Indexes the ids of `sections`, or answers the first id that repeats
  /// an earlier one: its path, and the path of the earlier. O(n) expected.
  public static func unique(_ sections: [Section]) -> Result<
    ItemIndex, DuplicateItemID
  > {
    let (index, duplicate) = build(sections, stopAtDuplicate: true)
    if let duplicate { return .failure(duplicate) }
    return .success(index)
  }

  /// The table a snapshot's validation built: positions in the snapshot's
  /// item order, which is the order of the sections it produces. O(1).
  init(table: IDTable, starts: [Int]) {
    self.table = table
    self.starts = starts
  }

  private static func build(_ sections: [Section], stopAtDuplicate: Bool) -> (
    index: ItemIndex, duplicate: DuplicateItemID?
  ) {
    var starts = [0]
    starts.reserveCapacity(sections.count + 1)
    for s in sections { starts.append(starts[starts.count - 1] + s.count) }
    let total = starts[starts.count - 1]
    // The id at a recorded position, read from its section's rope.
    func id(at p: Int) -> ItemID? {
      let s = section(of: p, starts)
      return sections[s].ids?[p - starts[s]] ?? nil
    }
    // A large table is filled in order of the hashes' top byte, swept
    // instead of missed once per id (as a snapshot's validation does); an
    // id there twice sends it down the sequential pass, which keeps the
    // first of equal ids and names the second.
    if total >= Snapshot.sortedRecordingFrom {
      var entries: [UInt64] = []
      entries.reserveCapacity(total)
      forEachID(sections, starts) { position, v in
        entries.append(IDTable.entry(hash: IDTable.hash(v), at: position))
        return true
      }
      var table = IDTable(capacity: total)
      if table.recordSorted(entries, same: { id(at: $0) == id(at: $1) }) {
        return (ItemIndex(table: table, starts: starts), nil)
      }
    }
    var table = IDTable(capacity: total)
    var duplicate: DuplicateItemID? = nil
    var twice = false
    forEachID(sections, starts) { position, v in
      let entry = IDTable.entry(hash: IDTable.hash(v), at: position)
      guard let earlier = table.record(entry, same: { id(at: $0) == v }) else { return true }
      twice = true
      guard stopAtDuplicate else { return true }
      let s = section(of: position, starts)
      let e = section(of: earlier, starts)
      duplicate = DuplicateItemID(
        id: v, path: IndexPath(section: s, item: position - starts[s]),
        earlier: IndexPath(section: e, item: earlier - starts[e]))
      return false
    }
    var index = ItemIndex(table: table, starts: starts)
    index.hasDuplicates = twice
    return (index, duplicate)
  }

  /// Each id with its global position, leaf by leaf, until `body` returns
  /// false. O(n).
  private static func forEachID(
    _ sections: [Section], _ starts: [Int], _ body: (Int, ItemID) -> Bool
  ) {
    for (s, section) in sections.enumerated() {
      guard let ids = section.ids else { continue }
      var position = starts[s]
      var go = true
      ids.forEachLeaf(from: 0) { _, leaf, _ in
        for j in 0..<leaf.count {
          if let v = leaf[j], !body(position, v) {
            go = false
            return false
          }
          position += 1
        }
        return true
      }
      if !go { return }
    }
  }

  /// The section holding global position `p`. O(log sections).
  private static func section(of p: Int, _ starts: [Int]) -> Int {
    var lo = 0
    var hi = starts.count - 2
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if starts[mid] <= p { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// Where `id` lies in `sections` (those the index was built from), or
  /// nil. O(1) expected, plus O(log n) to read a candidate's id.
  public func path(of id: ItemID, in sections: [Section]) -> IndexPath? {
    let starts = starts
    // Only positions holding an id are recorded.
    guard
      let p = table.find(
        id,
        idAt: { p in
          let s = Self.section(of: p, starts)
          return sections[s].ids![p - starts[s]]!
        })
    else { return nil }
    let s = Self.section(of: p, starts)
    return IndexPath(section: s, item: p - starts[s])
  }
}

/// An id given twice where ids must be unique.
public struct DuplicateItemID: Error, Sendable {
  public var id: ItemID
  /// The later occurrence, and the earlier one.
  public var path: IndexPath
  public var earlier: IndexPath
}

/// A live session's index of item ids, kept across changes: built once
/// (O(n)), then carried over batches by mapping its old paths through each
/// batch's result and recording the ids the batches insert, so that the
/// first keyed request after a small batch costs the batch, not the items.
/// A class, so that a query (which does not store its session) keeps what
/// it built; a change makes a new one (`after(_:_:)`), and the old one
/// stays valid for the session before it.
public final class LiveItemIndex: @unchecked Sendable {
  /// The index and the sections it was built from (ropes share their
  /// unchanged nodes with the session's), or nil until first asked.
  private var base: (index: ItemIndex, sections: [Section])?
  /// The batches applied since `base`, their new sections dropped.
  private var chain: [BatchResult] = []
  /// Ids the batches of `chain` inserted: the path right after the batch
  /// that inserted it (chain index).
  private var inserted: [ItemID: (path: IndexPath, batch: Int)] = [:]

  /// At most this many batches are carried, and this many inserted ids:
  /// past them the index is built again when next asked.
  static let maxBatches = 16
  static let maxInserted = 4096

  /// An index of `sections` built already (an open's uniqueness check, a
  /// snapshot's validation), or one built when first asked. O(1).
  public init(_ index: ItemIndex? = nil, of sections: [Section] = []) {
    if let index { base = (index, sections) }
  }

  /// The index after `update` (whose result is `result`) was applied to
  /// the sections this one indexes: carried over when it was built and the
  /// batch is small, else empty. O(ops + chain).
  public func after(_ update: BatchUpdate, _ result: BatchResult) -> LiveItemIndex {
    // With an id there twice, a deleted first would hide the second.
    guard let base, !base.index.hasDuplicates, chain.count < Self.maxBatches else {
      return LiveItemIndex()
    }
    // Inserted sections with their ids: too many to record, so built again.
    if update.insertSections.contains(where: { $0.section.ids != nil && $0.section.count > 0 }) {
      return LiveItemIndex()
    }
    let next = LiveItemIndex()
    next.base = base
    var r = result
    r.sections = []
    next.chain = chain + [r]
    next.inserted = inserted
    for (path, item) in update.insertItems {
      guard let id = item.id else { continue }
      // An id the index knows already: built again, as with duplicates.
      if next.inserted[id] != nil || base.index.path(of: id, in: base.sections) != nil {
        return LiveItemIndex()
      }
      next.inserted[id] = (path, chain.count)
    }
    guard next.inserted.count <= Self.maxInserted else { return LiveItemIndex() }
    return next
  }

  /// Where `id` lies in `sections` (those the session holds now), or nil.
  /// O(batches carried · log ops) expected; O(n) when it must be built.
  public func path(of id: ItemID, in sections: [Section]) -> IndexPath? {
    if base == nil {
      base = (ItemIndex(sections), sections)
      chain = []
      inserted = [:]
    }
    if chain.isEmpty && inserted.isEmpty { return base!.index.path(of: id, in: sections) }
    // The id's path through the batches after `from` (nil once deleted).
    func carried(_ p: IndexPath, from: Int) -> IndexPath? {
      var p = p
      for r in chain[from...] {
        guard let q = r.newPath(of: p, deleted: r.deletedItems) else { return nil }
        p = q
      }
      return p
    }
    func holds(_ p: IndexPath) -> Bool {
      p.section < sections.count && p.item < sections[p.section].count
        && sections[p.section].ids?[p.item] == id
    }
    var found: IndexPath? = nil
    if let p0 = base!.index.path(of: id, in: base!.sections), let p = carried(p0, from: 0),
      holds(p)
    {
      found = p
    }
    if let (p0, k) = inserted[id], let p = carried(p0, from: k + 1), holds(p) {
      found = found.map { min($0, p) } ?? p
    }
    return found
  }
}
