/// Where each id of a list lies, for the snapshot diff: an open-addressed
/// table of positions into a list the caller keeps (the table holds no
/// ids of its own: 8 bytes a slot, two slots an id). Each slot keeps the
/// id's 32-bit fingerprint beside its position, so that a probe compares
/// ids only when the fingerprints agree.
///
/// An id's home slot is taken from its hash's top bits, so that entries
/// recorded in order of their hashes' top byte (`recordSorted`) sweep the
/// table from one end to the other instead of missing the caches on every
/// id: at 1e6 ids the table is 16 MB.
struct IDTable {
  /// Per slot: the fingerprint in the high half, position + 1 in the low
  /// half (0: empty).
  private var slots: [UInt64]
  private let mask: Int
  /// A hash shifted right by this many bits is its home slot.
  private let shift: UInt64

  /// A table for up to `count` ids. O(count).
  init(capacity count: Int) {
    var size = 16
    var bits: UInt64 = 4
    while size < 2 * count {
      size <<= 1
      bits += 1
    }
    slots = [UInt64](repeating: 0, count: size)
    mask = size - 1
    shift = 64 - bits
  }

  /// The 64-bit hash of an id: the integer mixed (Fibonacci hashing), the
  /// string's UTF-8 by FNV-1a; the two kinds apart, so 1 and "1" differ.
  /// Its top bits are the well-mixed ones. O(length of the id).
  @inline(__always)
  static func hash(_ id: ItemID) -> UInt64 {
    switch id {
    case .int(let v):
      let h = UInt64(bitPattern: v) &* 0x9E37_79B9_7F4A_7C15
      return h ^ (h >> 29)
    case .string(let s):
      var h: UInt64 = 0xCBF2_9CE4_8422_2325
      var copy = s
      copy.withUTF8 { bytes in
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
      }
      return (h ^ (h >> 32)) &* 0x9E37_79B9_7F4A_7C15 | 1
    }
  }

  /// What a slot holds for the id hashed `h` at `position`: the hash's top
  /// 32 bits (the fingerprint, whose top bits are the home slot) over
  /// position + 1. O(1).
  @inline(__always)
  static func entry(hash h: UInt64, at position: Int) -> UInt64 {
    h & 0xFFFF_FFFF_0000_0000 | UInt64(position + 1)
  }

  /// Records `entry` unless an equal id is recorded already (`same`
  /// answers whether the id at a recorded position is the entry's);
  /// returns the position already recorded, or nil. O(1) expected.
  @inline(__always)
  mutating func record(_ entry: UInt64, same: (Int) -> Bool) -> Int? {
    let print = entry >> 32
    var i = Int(truncatingIfNeeded: entry >> shift)
    while true {
      let slot = slots[i]
      if slot == 0 {
        slots[i] = entry
        return nil
      }
      if slot >> 32 == print {
        let p = Int(slot & 0xFFFF_FFFF) - 1
        if same(p) { return p }
      }
      i = (i + 1) & mask
    }
  }

  /// Records `entries` in order of their top byte, keeping the order of
  /// entries that share it (so that of two equal ids the earlier is found
  /// recorded): the home slots then rise through the table. False, with
  /// the table incomplete, when an id is there twice. O(count) expected,
  /// and 8 bytes an entry besides.
  mutating func recordSorted(_ entries: [UInt64], same: (Int, Int) -> Bool) -> Bool {
    var next = [Int](repeating: 0, count: 256)
    for e in entries { next[Int(e >> 56)] += 1 }
    var sum = 0
    for b in 0..<256 {
      let c = next[b]
      next[b] = sum
      sum += c
    }
    let sorted = [UInt64](unsafeUninitializedCapacity: entries.count) { buffer, count in
      for e in entries {
        let b = Int(e >> 56)
        buffer[next[b]] = e
        next[b] += 1
      }
      count = entries.count
    }
    for e in sorted {
      let p = Int(e & 0xFFFF_FFFF) - 1
      if record(e, same: { same($0, p) }) != nil { return false }
    }
    return true
  }

  /// The position recorded for `id`, or nil. O(1) expected.
  @inline(__always)
  func find(_ id: ItemID, idAt: (Int) -> ItemID) -> Int? {
    let h = Self.hash(id)
    let print = h >> 32
    var i = Int(truncatingIfNeeded: h >> shift)
    while true {
      let slot = slots[i]
      if slot == 0 { return nil }
      if slot >> 32 == print {
        let p = Int(slot & 0xFFFF_FFFF) - 1
        if idAt(p) == id { return p }
      }
      i = (i + 1) & mask
    }
  }
}
