/// An append-mostly array kept in chunks of 4,096: a copy shares every
/// chunk, and an append or a truncation copies at most one chunk (and the
/// list of chunks), so a layout kept for a delta costs nothing when its copy
/// grows.
struct Chunked<T: Sendable>: Sendable {
  private static var shift: Int { 12 }
  private static var mask: Int { (1 << shift) - 1 }
  /// Full chunks, then the chunk being filled.
  private var chunks: [[T]] = []
  private var tail: [T] = []

  init() {}

  /// O(1).
  var count: Int { chunks.count &<< Self.shift + tail.count }

  /// O(1).
  @inline(__always) subscript(i: Int) -> T {
    let c = i &>> Self.shift
    return c < chunks.count ? chunks[c][i & Self.mask] : tail[i & Self.mask]
  }

  /// O(1) amortised: the tail is copied at most once after a copy.
  @inline(__always) mutating func append(_ v: T) {
    if tail.count == Self.mask + 1 {
      chunks.append(tail)
      tail = []
    }
    if tail.capacity == 0 { tail.reserveCapacity(Self.mask + 1) }
    tail.append(v)
  }

  /// Keeps the first `n` elements. O(n / 4096 + 4096).
  mutating func truncate(to n: Int) {
    guard n < count else { return }
    let c = n &>> Self.shift
    if c < chunks.count {
      tail = chunks[c]
      chunks.removeLast(chunks.count - c)
    }
    tail.removeLast(tail.count - (n & Self.mask))
  }

  var last: T? { count > 0 ? self[count - 1] : nil }

  /// The first index whose element satisfies `pred`, which is false and
  /// then true along the array. O(log n).
  func partition(_ pred: (T) -> Bool) -> Int {
    let c = upperBound(chunks.count) { pred(chunks[$0][Self.mask]) }
    if c < chunks.count {
      return c &<< Self.shift + upperBound(Self.mask + 1) { pred(chunks[c][$0]) }
    }
    return c &<< Self.shift + upperBound(tail.count) { pred(tail[$0]) }
  }

  /// The elements in order. O(n).
  var array: [T] { chunks.flatMap { $0 } + tail }
}
