/// Which entries of `values` (distinct integers) form the longest strictly
/// increasing subsequence, as a mask.
///
/// Ties between subsequences of equal length are broken one way, working
/// back from the end: the last kept entry is, of those ending a longest
/// subsequence, the one with the smallest value; each earlier kept entry
/// is, of those before the next kept one that end a subsequence one
/// shorter, the one with the smallest value. Patience sorting finds
/// exactly that subsequence.
///
/// - Complexity: O(n log n); O(n) when the values mostly increase (an
///   entry above the longest run so far extends it without a search).
func longestIncreasingMask(_ values: [Int]) -> [Bool] {
  let n = values.count
  var mask = [Bool](repeating: false, count: n)
  guard n > 0 else { return mask }
  // tails[k]: the position of the smallest value ending an increasing
  // subsequence of length k + 1 so far; previous[i]: the entry before i
  // in the subsequence that i ends. Through buffers: no bounds checks or
  // uniqueness tests in a loop that runs once per item of a section.
  let tails = UnsafeMutablePointer<Int>.allocate(capacity: n)
  let previous = UnsafeMutablePointer<Int>.allocate(capacity: n)
  defer {
    tails.deallocate()
    previous.deallocate()
  }
  var count = 0
  var top = Int.min  // values[tails[count - 1]]
  values.withUnsafeBufferPointer { values in
    for i in 0..<n {
      let v = values[i]
      if v > top {
        previous[i] = count > 0 ? tails[count - 1] : -1
        tails[count] = i
        count += 1
        top = v
        continue
      }
      var lo = 0
      var hi = count
      while lo < hi {
        let mid = (lo + hi) / 2
        if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
      }
      previous[i] = lo > 0 ? tails[lo - 1] : -1
      tails[lo] = i
      if lo == count - 1 { top = v }
    }
  }
  var i = tails[count - 1]
  while i >= 0 {
    mask[i] = true
    i = previous[i]
  }
  return mask
}
