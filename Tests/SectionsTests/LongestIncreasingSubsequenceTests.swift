import Testing

@testable import Sections

// MARK: - The longest increasing subsequence behind minimal moves

@Suite("Longest increasing subsequence")
struct LongestIncreasingSubsequenceTests {
    @Test(
        "marks one longest strictly increasing run",
        arguments: [
            ([], []),
            ([5], [true]),
            ([0, 1, 2], [true, true, true]),
            ([2, 1, 0], [false, false, true]),
            ([0, 3, 1, 2], [true, false, true, true]),
            ([3, 0, 1, 2], [false, true, true, true]),
            ([1, 2, 0, 3], [true, true, false, true]),
        ] as [([Int], [Bool])])
    func marks(values: [Int], expected: [Bool]) {
        #expect(longestIncreasingSubsequenceMask(values) == expected)
    }

    @Test("the marked run is increasing and as long as a quadratic reference finds")
    func matchesReference() {
        var random = SplitMix64(seed: 99)
        for _ in 0..<300 {
            let values = random.shuffled(Array(0..<random.below(40)))
            let mask = longestIncreasingSubsequenceMask(values)
            let kept = zip(values, mask).filter(\.1).map(\.0)
            #expect(kept == kept.sorted())
            #expect(kept.count == referenceLength(values))
        }
    }

    private func referenceLength(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
}
