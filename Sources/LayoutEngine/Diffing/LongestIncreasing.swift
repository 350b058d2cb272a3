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
  // tails[k]: the position of the smallest value ending an increasing
  // subsequence of length k + 1 so far; previous[i]: the entry before i
  // in the subsequence that i ends.
  var tails: [Int] = []
  var previous = [Int](repeating: -1, count: values.count)
  for (i, v) in values.enumerated() {
    if let last = tails.last, values[last] < v {
      previous[i] = last
      tails.append(i)
      continue
    }
    var lo = 0
    var hi = tails.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
    }
    if lo > 0 { previous[i] = tails[lo - 1] }
    if lo == tails.count { tails.append(i) } else { tails[lo] = i }
  }
  var mask = [Bool](repeating: false, count: values.count)
  var i = tails.last ?? -1
  while i >= 0 {
    mask[i] = true
    i = previous[i]
  }
  return mask
}
