import CJansson

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A parsed JSON document. Values borrowed from it (`JSONValue`) are valid
/// while the document is alive. Its tree lives in memory of its parse (see
/// `ParseRegion`), released at once when it dies: no walk of jansson's over
/// every value. Nothing outside the document holds a reference to one, and
/// nothing adds to a parsed tree.
public final class JSONDocument {
  public let root: JSONValue
  /// The parse region's chunk (−1: none) and what the parse spilled into.
  private let chunk: Int
  private let spill: ParseRegion.Spill?

  private init(root: UnsafeMutablePointer<json_t>, chunk: Int, spill: ParseRegion.Spill?) {
    self.root = JSONValue(raw: root)
    self.chunk = chunk
    self.spill = spill
  }

  deinit { ParseRegion.release(chunk: chunk, spill: spill) }

  /// Why a body could not be parsed.
  public struct ParseFailure: Error, Sendable {
    public let message: String
  }

  /// Parses one JSON text with jansson. Duplicate object keys are rejected,
  /// as are NaN, Infinity, numbers outside a double's range, integers
  /// beyond 64 bits and invalid UTF-8. jansson caps nesting depth (2048),
  /// so deep input cannot exhaust the stack. O(bytes).
  public static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) -> JSONDocument {
    var error = json_error_t()
    let flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY
    ParseRegion.begin()
    let root = bytes.baseAddress.flatMap {
      json_loadb($0.assumingMemoryBound(to: CChar.self), bytes.count, Int(flags), &error)
    }
    let (chunk, spill) = ParseRegion.end()
    guard let root else {
      ParseRegion.release(chunk: chunk, spill: spill)
      throw ParseFailure(message: describe(error, empty: bytes.isEmpty))
    }
    return JSONDocument(root: root, chunk: chunk, spill: spill)
  }

  public static func parse(_ bytes: ArraySlice<UInt8>) throws(ParseFailure) -> JSONDocument {
    let result = bytes.withUnsafeBytes { b -> Result<JSONDocument, ParseFailure> in
      do throws(ParseFailure) { return .success(try parse(b)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  public static func parse(_ bytes: [UInt8]) throws(ParseFailure) -> JSONDocument {
    let result = bytes.withUnsafeBytes { b -> Result<JSONDocument, ParseFailure> in
      do throws(ParseFailure) { return .success(try parse(b)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  public static func parse(_ text: String) throws(ParseFailure) -> JSONDocument {
    try parse(Array(text.utf8))
  }

  private static func describe(_ e: json_error_t, empty: Bool) -> String {
    if empty { return "empty message body" }
    let text = withUnsafeBytes(of: e.text) { raw in
      String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    return "\(text) at byte \(e.position)"
  }
}

/// Where jansson's allocations go while it parses. A parse takes one of 256
/// chunks of 8 KiB, allocated once (2 MiB in all) and reused, and hands out
/// its blocks in order: a scroll frame's parse (about 40 values, keys and
/// tables) costs no malloc or free. A parse that outgrows its chunk (a bulk
/// request), or finds every chunk taken (256 messages read ahead), goes on
/// in blocks of its own, from 64 KiB doubling to 16 MiB, handed out the same
/// way; an allocation over 64 KiB (a long string, a large array's table)
/// comes from malloc and is listed. Nothing of a parse is freed one by one
/// but those large ones: the document frees its chunk, blocks and large
/// allocations when it dies, in O(blocks + large) instead of jansson's walk
/// over every value (its malloc and free were half a bulk parse's time).
/// Temporaries jansson frees during the parse (a key's text, a table
/// outgrown) stay in their block until then: at most about the tree's own
/// size. Values created outside a parse come from malloc. Single-threaded,
/// like the server loop that parses.
enum ParseRegion {
  static let chunkSize = 8 << 10
  static let chunkCount = 256
  static let firstBlock = 64 << 10
  static let lastBlock = 16 << 20
  static let large = 64 << 10

  /// What a parse spilled beyond its chunk: its blocks and its large
  /// allocations. nil (nothing allocated) for a parse that fits its chunk.
  struct Spill {
    var blocks: [UnsafeMutableRawPointer] = []
    var large: Set<UnsafeMutableRawPointer> = []
  }

  @exclusivity(unchecked) nonisolated(unsafe) static var base: UnsafeMutableRawPointer? = nil
  /// Chunks not in use, as a stack of indices.
  @exclusivity(unchecked) nonisolated(unsafe) static var freeChunks: [Int] = []
  /// Whether a parse is under way, its chunk, and what it spilled so far.
  @exclusivity(unchecked) nonisolated(unsafe) static var parsing = false
  @exclusivity(unchecked) nonisolated(unsafe) static var chunk = -1
  @exclusivity(unchecked) nonisolated(unsafe) static var spill: Spill? = nil
  /// The free bytes of the chunk or block being handed out: `room` bytes
  /// from `next` (0 outside a parse, so that malloc takes over).
  @exclusivity(unchecked) nonisolated(unsafe) static var next = UnsafeMutableRawPointer(
    bitPattern: 16)!
  @exclusivity(unchecked) nonisolated(unsafe) static var room = 0
  /// The current block's bounds (empty while the chunk is handed out), and
  /// the next block's size.
  @exclusivity(unchecked) nonisolated(unsafe) static var blockStart = UnsafeMutableRawPointer(
    bitPattern: 16)!
  @exclusivity(unchecked) nonisolated(unsafe) static var blockEnd = blockStart
  @exclusivity(unchecked) nonisolated(unsafe) static var blockSize = firstBlock

  /// Installs the allocator (once) and starts a parse in a free chunk, if
  /// there is one. O(1).
  static func begin() {
    if base == nil {
      base = UnsafeMutableRawPointer.allocate(byteCount: chunkSize * chunkCount, alignment: 16)
      freeChunks = Array((0..<chunkCount).reversed())
      json_set_alloc_funcs(regionMalloc, regionFree)
    }
    parsing = true
    chunk = freeChunks.popLast() ?? -1
    if chunk >= 0, let base {
      next = base + chunk * chunkSize
      room = chunkSize
    }
  }

  /// Ends the parse and hands over what it holds: later allocations come
  /// from malloc. O(1).
  static func end() -> (chunk: Int, spill: Spill?) {
    parsing = false
    room = 0
    guard spill != nil else { return (chunk, nil) }
    blockEnd = blockStart
    blockSize = firstBlock
    defer { spill = nil }
    return (chunk, spill)
  }

  /// Frees what a parse held. O(blocks + large allocations).
  static func release(chunk: Int, spill: Spill?) {
    if chunk >= 0 { freeChunks.append(chunk) }
    guard let spill else { return }
    for p in spill.blocks { p.deallocate() }
    for p in spill.large { free(p) }
  }

  /// `n` bytes of the parse under way that its chunk or block cannot
  /// hold: a new block, or (over `large`) malloc. O(1) amortised.
  static func allocate(_ n: Int) -> UnsafeMutableRawPointer? {
    if spill == nil { spill = Spill() }
    if n > large {
      guard let p = malloc(n) else { return nil }
      spill!.large.insert(p)
      return p
    }
    let size = (n + 15) & ~15
    let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
    spill!.blocks.append(block)
    blockStart = block
    blockEnd = block + blockSize
    next = block + size
    room = blockSize - size
    blockSize = min(blockSize * 2, lastBlock)
    return block
  }

  /// jansson frees `p` during the parse: only a large allocation is
  /// given back now; the rest stays in its block until the document dies.
  static func release(during p: UnsafeMutableRawPointer) {
    if p >= blockStart && p < blockEnd { return }
    if spill?.large.remove(p) != nil { free(p) }
  }

  static func contains(_ p: UnsafeMutableRawPointer) -> Bool {
    guard let base else { return false }
    return p >= base && p < base + chunkSize * chunkCount
  }
}

// The common case inline: a small parse's values come from its chunk in a
// few instructions (a scroll frame makes about 40 of them).
private let regionMalloc: @convention(c) (Int) -> UnsafeMutableRawPointer? = { n in
  let size = (n + 15) & ~15
  if size <= ParseRegion.room {
    let p = ParseRegion.next
    ParseRegion.next = p + size
    ParseRegion.room &-= size
    return p
  }
  return ParseRegion.parsing ? ParseRegion.allocate(n) : malloc(n)
}

private let regionFree: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
  guard let p, !ParseRegion.contains(p) else { return }
  if ParseRegion.parsing {
    ParseRegion.release(during: p)
  } else {
    free(p)
  }
}

/// A borrowed view of one jansson value.
public struct JSONValue {
  @usableFromInline let raw: UnsafeMutablePointer<json_t>

  init(raw: UnsafeMutablePointer<json_t>) { self.raw = raw }

  public enum Kind: String, Sendable {
    case object, array, string, integer, real, `true`, `false`, null
  }

  public var kind: Kind {
    switch cj_typeof(raw) {
    case Int32(JSON_OBJECT.rawValue): return .object
    case Int32(JSON_ARRAY.rawValue): return .array
    case Int32(JSON_STRING.rawValue): return .string
    case Int32(JSON_INTEGER.rawValue): return .integer
    case Int32(JSON_REAL.rawValue): return .real
    case Int32(JSON_TRUE.rawValue): return .true
    case Int32(JSON_FALSE.rawValue): return .false
    default: return .null
    }
  }

  public var isNull: Bool { cj_is_null(raw) != 0 }
  public var isObject: Bool { cj_is_object(raw) != 0 }
  public var isArray: Bool { cj_is_array(raw) != 0 }

  /// The member `key` of an object, or nil. O(1) expected (jansson hashes keys).
  public subscript(key: String) -> JSONValue? {
    guard cj_is_object(raw) != 0 else { return nil }
    // The key's own UTF-8, by length: no NUL-terminated copy per lookup.
    var key = key
    let v = key.withUTF8 { json_object_getn(raw, $0.baseAddress, $0.count) }
    return v.map { JSONValue(raw: $0) }
  }

  /// Calls `body` with each key of an object as UTF-8 bytes borrowed from
  /// the document, until it returns false. O(members).
  public func forEachKey(_ body: (UnsafeRawBufferPointer) throws -> Bool) rethrows {
    try forEachMember { k, _ in try body(k) }
  }

  /// Whether the key bytes `k` (from `forEachMember`) are `name`. O(length).
  @inline(__always)
  public static func key(_ k: UnsafeRawBufferPointer, is name: StaticString) -> Bool {
    k.count == name.utf8CodeUnitCount
      && (k.count == 0 || memcmp(k.baseAddress!, name.utf8Start, k.count) == 0)
  }

  /// The members of an object named `names`, found in one pass (a lookup
  /// each would hash each key); nil for one that is absent. A name may
  /// repeat: only its first place is filled. O(members).
  public func members(
    _ names: (StaticString, StaticString, StaticString, StaticString)
  ) -> (JSONValue?, JSONValue?, JSONValue?, JSONValue?) {
    var found: (JSONValue?, JSONValue?, JSONValue?, JSONValue?)
    forEachMember { k, v in
      if Self.key(k, is: names.0) {
        found.0 = v
      } else if Self.key(k, is: names.1) {
        found.1 = v
      } else if Self.key(k, is: names.2) {
        found.2 = v
      } else if Self.key(k, is: names.3) {
        found.3 = v
      }
      return true
    }
    return found
  }

  /// Calls `body` with each member of an object, its key's UTF-8 bytes
  /// borrowed from the document and its value, until it returns false:
  /// one pass finds several members without hashing a key each. O(members).
  public func forEachMember(_ body: (UnsafeRawBufferPointer, JSONValue) throws -> Bool) rethrows {
    var it = json_object_iter(raw)
    while let i = it {
      let k = json_object_iter_key(i)
      let v = JSONValue(raw: json_object_iter_value(i))
      if try !body(UnsafeRawBufferPointer(start: k, count: json_object_iter_key_len(i)), v) {
        return
      }
      it = json_object_iter_next(raw, i)
    }
  }

  /// Whether this is a string value equal to `s`, compared as bytes
  /// without building a String. O(length).
  public func isString(_ s: String) -> Bool {
    guard cj_is_string(raw) != 0, let p = json_string_value(raw) else { return false }
    var s = s
    let n = json_string_length(raw)
    return s.withUTF8 {
      $0.count == n && $0.elementsEqual(UnsafeRawBufferPointer(start: p, count: n))
    }
  }

  /// A string value equal to one of `names`, returned as that String (no
  /// copy of the bytes); another string as a new String; nil for another
  /// kind. O(names) byte comparisons.
  public func string(interningIn names: [String]) -> String? {
    guard cj_is_string(raw) != 0 else { return nil }
    let n = json_string_length(raw)
    for name in names where name.utf8.count == n && isString(name) { return name }
    return string
  }

  /// The keys of an object, in jansson's iteration order. O(members).
  public var keys: [String] {
    var result: [String] = []
    forEachKey {
      result.append(String(decoding: $0, as: UTF8.self))
      return true
    }
    return result
  }

  /// The number of members of an object (0 for other kinds). O(1).
  public var memberCount: Int { cj_is_object(raw) != 0 ? json_object_size(raw) : 0 }

  /// The number of elements of an array (0 for other kinds). O(1).
  public var count: Int { cj_is_array(raw) != 0 ? json_array_size(raw) : 0 }

  /// Element `i` of an array. O(1).
  public subscript(index: Int) -> JSONValue {
    JSONValue(raw: json_array_get(raw, index))
  }

  /// The string's contents, or nil for another kind. O(length).
  public var string: String? {
    guard cj_is_string(raw) != 0, let p = json_string_value(raw) else { return nil }
    let n = json_string_length(raw)
    return p.withMemoryRebound(to: UInt8.self, capacity: n) {
      String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
    }
  }

  /// Calls `body` with a string value's UTF-8 bytes, borrowed from the
  /// document (no copy); nil for another kind. O(1) but for `body`.
  public func withStringBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
    guard cj_is_string(raw) != 0, let p = json_string_value(raw) else { return nil }
    return try body(UnsafeRawBufferPointer(start: p, count: json_string_length(raw)))
  }

  /// The byte length of a string value. O(1).
  public var stringLength: Int { cj_is_string(raw) != 0 ? json_string_length(raw) : 0 }

  /// An integer value, or nil for another kind (reals included). O(1).
  public var integer: Int64? {
    cj_is_integer(raw) != 0 ? Int64(json_integer_value(raw)) : nil
  }

  /// Any number as a Double, or nil. jansson only produces finite numbers. O(1).
  public var number: Double? {
    cj_is_number(raw) != 0 ? json_number_value(raw) : nil
  }

  public var bool: Bool? { cj_is_boolean(raw) != 0 ? cj_is_true(raw) != 0 : nil }
}
