/// A lean JSON byte encoder. Responses are written straight into a byte
/// buffer: no intermediate tree, and numbers in their shortest round-trip
/// form. Commas are placed automatically.
public struct JSONWriter {
  /// The bytes, written through a buffer of our own: appending to it needs
  /// no uniqueness or bounds check per byte, which an Array's append does.
  /// A writer is used in place (inout) and never copied to be written to
  /// twice: copies share the buffer.
  @usableFromInline let buffer = ByteBuffer(capacity: 1024)
  /// For each open container, whether the next element is its first: bit
  /// d of `firstBits` for the containers at depth d < 64 (every answer of
  /// this protocol), `deeper` for any beyond. Bits rather than an array:
  /// flipping one needs no uniqueness check.
  @usableFromInline var firstBits: UInt64 = 0
  @usableFromInline var depth = 0
  @usableFromInline var deeper: [Bool] = []
  @usableFromInline var afterKey = false

  public init() {}

  /// A copy of the bytes written. O(n): the server writes from
  /// `withBytes` instead.
  public var bytes: [UInt8] { withBytes { Array($0) } }

  /// The number of bytes written. O(1).
  public var byteCount: Int { buffer.count }

  /// Calls `body` with the bytes written, without copying them.
  public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: buffer.base, count: buffer.count))
  }

  /// A position to roll back to, so that a handler that fails half way
  /// through writing its result leaves no trace. O(1).
  public struct Mark {
    fileprivate let count: Int
    fileprivate let depth: Int
    fileprivate let firstBits: UInt64
    fileprivate let deeper: [Bool]
    fileprivate let afterKey: Bool
  }

  public var mark: Mark {
    Mark(
      count: buffer.count, depth: depth, firstBits: firstBits, deeper: deeper, afterKey: afterKey)
  }

  /// Drops everything written since `m`, and gives the enclosing container
  /// back whether it was still empty (the rolled-back value may have been
  /// its first element). O(1) but for containers nested beyond 64.
  public mutating func reset(to m: Mark) {
    buffer.count = m.count
    depth = m.depth
    firstBits = m.firstBits
    deeper = m.deeper
    afterKey = m.afterKey
  }

  /// Empties the writer for the next message, giving back the memory of a
  /// large answer. O(1).
  public mutating func removeAll() {
    buffer.count = 0
    if buffer.capacity > 1 << 20 { buffer.shrink(to: 1 << 16) }
    depth = 0
    firstBits = 0
    deeper.removeAll(keepingCapacity: true)
    afterKey = false
  }

  /// Makes room for `n` more bytes at once (a large answer whose size is
  /// known roughly), so that it is not copied as it grows. O(count).
  public mutating func reserve(_ n: Int) { buffer.reserve(n) }

  /// Whether the innermost open container has had no element yet, and
  /// marks it as having one. O(1).
  @inlinable @inline(__always)
  mutating func takeFirst() -> Bool {
    let d = depth - 1
    if d < 64 {
      let bit: UInt64 = 1 << UInt64(d)
      let was = firstBits & bit != 0
      firstBits &= ~bit
      return was
    }
    let was = deeper[d - 64]
    deeper[d - 64] = false
    return was
  }

  @inline(__always)
  private mutating func push() {
    if depth < 64 {
      firstBits |= 1 << UInt64(depth)
    } else {
      deeper.append(true)
    }
    depth += 1
  }

  @inline(__always)
  private mutating func pop() {
    depth -= 1
    if depth >= 64 { deeper.removeLast() }
  }

  @inlinable @inline(__always)
  mutating func prefix() {
    if afterKey {
      afterKey = false
      return
    }
    if depth > 0 && !takeFirst() { buffer.append(UInt8(ascii: ",")) }
  }

  public mutating func beginObject() {
    prefix()
    buffer.append(UInt8(ascii: "{"))
    push()
  }

  public mutating func endObject() {
    pop()
    buffer.append(UInt8(ascii: "}"))
  }

  public mutating func beginArray() {
    prefix()
    buffer.append(UInt8(ascii: "["))
    push()
  }

  public mutating func endArray() {
    pop()
    buffer.append(UInt8(ascii: "]"))
  }

  /// Writes an object key; the next value written is its value. A
  /// literal key resolves to this StaticString overload: its bytes are
  /// copied as they are, never escaped (the protocol's keys need none).
  public mutating func key(_ k: StaticString) {
    prefix()
    let n = k.utf8CodeUnitCount
    buffer.reserve(n + 3)
    let out = buffer.base + buffer.count
    out[0] = UInt8(ascii: "\"")
    if k.hasPointerRepresentation {
      ByteBuffer.copySmall(k.utf8Start, to: out + 1, count: n)
    } else {
      k.withUTF8Buffer { for i in 0..<n { out[1 + i] = $0[i] } }
    }
    out[n + 1] = UInt8(ascii: "\"")
    out[n + 2] = UInt8(ascii: ":")
    buffer.count += n + 3
    afterKey = true
  }

  /// A key known only at run time, escaped as any string. (Named, so that
  /// literals never take this slower path: a String overload would win.)
  public mutating func key(escaping k: String) {
    prefix()
    appendString(k)
    buffer.append(UInt8(ascii: ":"))
    afterKey = true
  }

  public mutating func string(_ s: String) {
    prefix()
    appendString(s)
  }

  public mutating func null() {
    prefix()
    buffer.append(literal: "null")
  }

  public mutating func bool(_ b: Bool) {
    prefix()
    if b {
      buffer.append(literal: "true")
    } else {
      buffer.append(literal: "false")
    }
  }

  public mutating func int(_ i: Int) {
    prefix()
    appendInt(i)
  }

  public mutating func int64(_ i: Int64) {
    prefix()
    appendInt(Int(i))
  }

  /// Writes a finite number: integral values below 2^53 as integers, others
  /// in Swift's shortest round-trip form. Non-finite values (which JSON
  /// cannot carry) are written as null.
  public mutating func number(_ d: Double) {
    prefix()
    rawNumber(d)
  }

  // Templates: a value written as literal pieces and numbers, with the
  // separator before it placed as for any value. For hot, fixed shapes
  // (an element's attributes): one copy per piece instead of a key call
  // per member.

  /// Starts a value written by the raw calls below: the comma before it,
  /// if any. The caller writes one complete JSON value.
  @inlinable @inline(__always)
  public mutating func beginRawValue() { prefix() }

  /// Appends literal JSON bytes (keys, punctuation) as they are.
  // Inlinable: a card's dozen literal pieces cost a copy each, not a call.
  @inlinable @inline(__always)
  public mutating func rawLiteral(_ s: StaticString) {
    let n = s.utf8CodeUnitCount
    buffer.reserve(n)
    ByteBuffer.copySmall(s.utf8Start, to: buffer.base + buffer.count, count: n)
    buffer.count += n
  }

  /// Lets `body` write up to `n` bytes straight into the buffer, from the
  /// pointer it is given, and returns how many it wrote: for hot shapes
  /// (a trajectory's samples) that place their own pieces and numbers
  /// (`writeNumber`). The bytes must be one complete JSON value, after
  /// `beginRawValue`. O(n).
  @inlinable
  public mutating func rawWrite(reserving n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    buffer.reserve(n)
    buffer.count += body(buffer.base + buffer.count)
  }

  /// The room `writeNumber` needs past its pointer (its scratch digits).
  @inlinable public static var numberRoom: Int { 96 }

  /// The tables number formatting reads, taken once (O(1)) for a shape
  /// written through `rawWrite`.
  public struct NumberTables {
    @usableFromInline let pow10: UnsafePointer<UInt64>
    @usableFromInline let powers: UnsafePointer<UInt64>
    @usableFromInline init(pow10: UnsafePointer<UInt64>, powers: UnsafePointer<UInt64>) {
      self.pow10 = pow10
      self.powers = powers
    }
  }

  @inlinable public var numberTables: NumberTables {
    NumberTables(pow10: buffer.pow10Words, powers: buffer.powersOfTen)
  }

  /// Writes `d` at `p` as `number` writes it (integers, the shortest
  /// decimal, null for a non-finite value) and returns its length (at
  /// most 25); `p` must have `numberRoom` bytes of room. `inlined` takes
  /// the shortest-decimal code into the caller: for a loop over many
  /// numbers (one call site), not for a shape with two dozen. O(1).
  @inlinable @inline(__always)
  public static func writeNumber(
    _ d: Double, at p: UnsafeMutablePointer<UInt8>, _ t: NumberTables, inlined: Bool = false
  ) -> Int {
    guard d.isFinite else { return writeLiteral("null", at: p) }
    if abs(d) < 9_007_199_254_740_992, Double(Int(d)) == d {
      return writeInt(Int(d), at: p, powers: t.powers)
    }
    return inlined
      ? ByteBuffer.writeShortest(d, at: p, pow10: t.pow10, powers: t.powers)
      : ByteBuffer.writeShortestCall(d, at: p, pow10: t.pow10, powers: t.powers)
  }

  /// Writes an integer at `p` (48 bytes of room) and returns its length.
  /// O(1).
  @inlinable @inline(__always)
  public static func writeInteger(_ i: Int, at p: UnsafeMutablePointer<UInt8>, _ t: NumberTables)
    -> Int
  {
    writeInt(i, at: p, powers: t.powers)
  }

  /// Copies a literal piece to `p` and returns its length. O(length).
  @inlinable @inline(__always)
  public static func writeLiteral(_ s: StaticString, at p: UnsafeMutablePointer<UInt8>) -> Int {
    let n = s.utf8CodeUnitCount
    ByteBuffer.copySmall(s.utf8Start, to: p, count: n)
    return n
  }

  /// Appends a number as `number` writes it, with no separator.
  @inlinable @inline(__always)
  public mutating func rawNumber(_ d: Double) {
    let t = numberTables
    rawWrite(reserving: Self.numberRoom) { Self.writeNumber(d, at: $0, t) }
  }

  /// Appends an integer with no separator (inside a raw shape).
  public mutating func rawInt(_ i: Int) { appendInt(i) }

  /// Appends `s` as a JSON string with no separator (inside a raw shape).
  public mutating func rawString(_ s: String) { appendString(s) }

  /// Writes a parsed value back as JSON (a request's fields echoed in an
  /// answer): the same members in the same order. O(size of the value).
  public mutating func value(_ v: JSONValue) {
    switch v.kind {
    case .object:
      beginObject()
      v.forEachMember { name, member in
        key(escaping: String(decoding: name, as: UTF8.self))
        value(member)
        return true
      }
      endObject()
    case .array:
      beginArray()
      for i in 0..<v.count { value(v[i]) }
      endArray()
    case .string: string(v.string ?? "")
    case .integer: int64(v.integer ?? 0)
    case .real: number(v.number ?? 0)
    case .true: bool(true)
    case .false: bool(false)
    case .null: null()
    }
  }

  /// Appends an already-encoded JSON value verbatim.
  public mutating func raw(_ json: [UInt8]) {
    prefix()
    json.withUnsafeBytes { buffer.append($0) }
  }

  @usableFromInline
  mutating func appendInt(_ value: Int) {
    // In place, with room for scratch digits past the number.
    buffer.reserve(48)
    buffer.count += Self.writeInt(
      value, at: buffer.base + buffer.count, powers: buffer.powersOfTen)
  }

  /// `appendInt`'s digits written at `start`, which has 48 bytes of room;
  /// returns their length. O(1).
  @usableFromInline @inline(__always)
  static func writeInt(
    _ value: Int, at start: UnsafeMutablePointer<UInt8>, powers: UnsafePointer<UInt64>
  ) -> Int {
    var out = start
    if value < 0 {
      out[0] = UInt8(ascii: "-")
      out += 1
    }
    let v = UInt64(value.magnitude)
    if v < 10 {
      // Indexes, sections, alpha 1 and 0: one byte.
      out[0] = UInt8(truncatingIfNeeded: v) &+ 0x30
      return out + 1 - start
    }
    let n = ShortestDouble.digitCount(v, powers: powers)
    if n <= 8 {
      // Eight digits, leading zeros included, past the number, and its n
      // copied into place in one word: no loop, no division.
      let scratch = out + 24
      ShortestDouble.write8(UInt32(truncatingIfNeeded: v), at: scratch)
      UnsafeMutableRawPointer(out).storeBytes(
        of: UnsafeRawPointer(scratch + 8 - n).loadUnaligned(as: UInt64.self), as: UInt64.self)
    } else {
      // The digit count first, then the digits written back to front, two
      // per table lookup.
      ShortestDouble.writeDigits(v, n, endingAt: out + n)
    }
    return out + n - start
  }

  private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
  private mutating func appendString(_ s: String) {
    buffer.append(UInt8(ascii: "\""))
    for c in s.utf8 {
      switch c {
      case UInt8(ascii: "\""): buffer.append(0x5C); buffer.append(0x22)
      case UInt8(ascii: "\\"): buffer.append(0x5C); buffer.append(0x5C)
      case 0x0A: buffer.append(literal: "\\n")
      case 0x0D: buffer.append(literal: "\\r")
      case 0x09: buffer.append(literal: "\\t")
      case 0..<0x20:
        buffer.append(literal: "\\u00")
        buffer.append(Self.hex[Int(c >> 4)])
        buffer.append(Self.hex[Int(c & 0xF)])
      default: buffer.append(c)
      }
    }
    buffer.append(UInt8(ascii: "\""))
  }
}

/// The bytes of a JSONWriter: a growable buffer whose appends check only
/// its capacity. O(1) amortised per byte.
@usableFromInline
final class ByteBuffer {
  @usableFromInline @exclusivity(unchecked) var base: UnsafeMutablePointer<UInt8>
  @usableFromInline @exclusivity(unchecked) var count = 0
  @usableFromInline @exclusivity(unchecked) private(set) var capacity: Int
  /// The number tables, read once per buffer rather than through lazy
  /// globals (a `swift_once` per number).
  @usableFromInline let pow10Words = ShortestDouble.pow10Words
  @usableFromInline let powersOfTen = ShortestDouble.powersOfTen

  init(capacity: Int) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  /// Room for `n` more bytes. O(1), or O(count) when it grows.
  @inlinable @inline(__always) func reserve(_ n: Int) {
    if count + n > capacity { grow(count + n) }
  }

  @usableFromInline @inline(never) func grow(_ needed: Int) {
    let size = Swift.max(needed, capacity * 2)
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
    bigger.update(from: base, count: count)
    base.deallocate()
    base = bigger
    capacity = size
  }

  /// Gives back memory beyond `size` (the bytes are dropped first). O(1).
  func shrink(to size: Int) {
    guard size < capacity, count <= size else { return }
    base.deallocate()
    base = .allocate(capacity: size)
    capacity = size
  }

  @inlinable @inline(__always) func append(_ b: UInt8) {
    reserve(1)
    appendUnchecked(b)
  }

  @inline(__always) func append(_ bytes: UnsafeRawBufferPointer) {
    reserve(bytes.count)
    appendUnchecked(bytes)
  }

  @inline(__always) func append(literal: StaticString) {
    literal.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
  }

  /// After `reserve`.
  @inlinable @inline(__always) func appendUnchecked(_ b: UInt8) {
    base[count] = b
    count += 1
  }

  @inline(__always) func appendUnchecked(_ bytes: UnsafeRawBufferPointer) {
    guard let from = bytes.baseAddress, bytes.count > 0 else { return }
    let n = bytes.count
    Self.copySmall(from.assumingMemoryBound(to: UInt8.self), to: base + count, count: n)
    count += n
  }

  /// Copies `n` bytes between buffers that do not overlap. Up to 64
  /// bytes (keys, literal pieces, numbers) go eight at a time, the last
  /// word overlapping the one before, which beats a call to memcpy and a
  /// loop over bytes; reads and writes stay within the `n` bytes.
  @inlinable @inline(__always)
  static func copySmall(
    _ from: UnsafePointer<UInt8>, to out: UnsafeMutablePointer<UInt8>, count n: Int
  ) {
    if n >= 8 && n <= 64 {
      let src = UnsafeRawPointer(from)
      let dst = UnsafeMutableRawPointer(out)
      var i = 0
      while i + 8 <= n {
        dst.storeBytes(
          of: src.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i,
          as: UInt64.self)
        i += 8
      }
      if i < n {
        dst.storeBytes(
          of: src.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8,
          as: UInt64.self)
      }
    } else if n < 8 {
      for i in 0..<n { out[i] = from[i] }
    } else {
      out.update(from: from, count: n)
    }
  }
}
