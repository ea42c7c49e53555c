// MARK: - Longest increasing subsequence

/// Marks one longest strictly increasing subsequence of `values`, in O(n log n) (patience sorting).
///
/// The diff keeps the marked elements in place and reports the others as moves, so moves are as few as the order
/// allows. Among equally long subsequences, the choice is deterministic.
///
///     longestIncreasingSubsequenceMask([0, 3, 1, 2])  // [true, false, true, true]
func longestIncreasingSubsequenceMask(_ values: [Int]) -> [Bool] {
    if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) {
        return [Bool](repeating: true, count: values.count)
    }
    // tails[k] is the index of the smallest value ending an increasing subsequence of length k + 1, and
    // tailValues[k] that value (kept beside it so that the binary search reads one array).
    var tails: [Int] = []
    var tailValues: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        // Most values extend the longest run found so far (the items that did not move): skip the search for them.
        if let last = tailValues.last, last < value { low = high }
        while low < high {
            let middle = (low + high) / 2
            if tailValues[middle] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[index] = tails[low - 1] }
        if low == tails.count {
            tails.append(index)
            tailValues.append(value)
        } else {
            tails[low] = index
            tailValues[low] = value
        }
    }
    var mask = [Bool](repeating: false, count: values.count)
    var index = tails.last ?? -1
    while index >= 0 {
        mask[index] = true
        index = previous[index]
    }
    return mask
}
