/// Where each id of a list lies, for the snapshot diff: an open-addressed
/// table of positions into a list the caller keeps (the table holds no
/// ids of its own: 8 bytes a slot, two slots an id). Each slot keeps the
/// id's 32-bit fingerprint beside its position, so that a probe compares
/// ids only when the fingerprints agree.
struct IDTable {
  /// Per slot: the fingerprint in the high half, position + 1 in the low
  /// half (0: empty).
  private var slots: [UInt64]
  private let mask: Int

  /// A table for up to `count` ids. O(count).
  init(capacity count: Int) {
    var size = 16
    while size < 2 * count { size <<= 1 }
    slots = [UInt64](repeating: 0, count: size)
    mask = size - 1
  }

  /// The 64-bit hash of an id: the integer mixed (Fibonacci hashing), the
  /// string's UTF-8 by FNV-1a; the two kinds apart, so 1 and "1" differ.
  /// O(length of the id).
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

  /// Reads the home slots of `hashes`, so that the misses of a batch of
  /// ids overlap (the table is far larger than the caches at 1e6 ids, and
  /// one miss at a time would cost a hundred nanoseconds an id). Returns a
  /// value only so that the reads are not optimised away. O(count).
  @inline(__always)
  func touch(_ hashes: UnsafeBufferPointer<UInt64>) -> UInt64 {
    var sum: UInt64 = 0
    for h in hashes { sum &+= slots[Int(truncatingIfNeeded: h) & mask] }
    return sum
  }

  /// Records `id`, whose hash is `h`, at `position` unless an equal id is
  /// there already (`idAt` answers the id at a recorded position); returns
  /// the position already recorded, or nil. O(1) expected.
  @inline(__always)
  mutating func insert(_ id: ItemID, hash h: UInt64, at position: Int, idAt: (Int) -> ItemID)
    -> Int?
  {
    let print = UInt64(UInt32(truncatingIfNeeded: h >> 32))
    var i = Int(truncatingIfNeeded: h) & mask
    while true {
      let slot = slots[i]
      if slot == 0 {
        slots[i] = print << 32 | UInt64(position + 1)
        return nil
      }
      if slot >> 32 == print {
        let p = Int(slot & 0xFFFF_FFFF) - 1
        if idAt(p) == id { return p }
      }
      i = (i + 1) & mask
    }
  }

  /// The position recorded for `id`, or nil. O(1) expected.
  @inline(__always)
  func find(_ id: ItemID, idAt: (Int) -> ItemID) -> Int? {
    let h = Self.hash(id)
    let print = UInt64(UInt32(truncatingIfNeeded: h >> 32))
    var i = Int(truncatingIfNeeded: h) & mask
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
