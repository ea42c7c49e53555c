import Testing

@testable import HTTP

/// Request ids: 32 lowercase hex digits, the process's prefix then a scrambled counter that never repeats.
@Suite struct RequestIDTests {
    @Test func idsAreHexAndDistinct() {
        let ids = RequestIDs()
        let made = (0..<10_000).map { _ in ids.next() }
        #expect(Set(made).count == made.count)
        #expect(made.allSatisfy { $0.utf8.count == 32 && $0.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) } })
        #expect(Set(made.map { $0.prefix(16) }).count == 1)
        #expect(RequestIDs().next().prefix(16) != made[0].prefix(16))  // another process's prefix (2^-64 to fail)
    }

    @Test func theScrambleIsABijectionOnSmallRanges() {
        // Distinct inputs, distinct outputs: checked on a run of consecutive and of spread-out inputs.
        let consecutive = (UInt64(0)..<50_000).map(RequestIDs.mix)
        #expect(Set(consecutive).count == consecutive.count)
        let spread = (UInt64(0)..<50_000).map { RequestIDs.mix($0 &* 0x9E37_79B9_7F4A_7C15) }
        #expect(Set(spread).count == spread.count)
        #expect(RequestIDs.mix(0) == 0)  // SplitMix64's finaliser fixes 0 (ids add a random key first)
    }
}
