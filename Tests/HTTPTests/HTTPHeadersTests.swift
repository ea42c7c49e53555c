import Testing

@testable import HTTP

/// Field names compared as HTTP compares them (ASCII letters without case, every other byte exactly), held to the
/// plain definition on every pair of bytes and on names with a byte changed.
@Suite struct HTTPHeadersTests {
    /// The plain definition: ASCII-lowercase both, then compare.
    static func plainMatch(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
        }
        return a.map(lower) == b.map(lower)
    }

    @Test func namesMatchOnEveryPairOfBytes() {
        var mismatches = 0
        for x in UInt8(0)...UInt8(0x7F) {
            for y in UInt8(0)...UInt8(0x7F) {
                let a = [UInt8(ascii: "X"), x, UInt8(ascii: "-")]
                let b = [UInt8(ascii: "x"), y, UInt8(ascii: "-")]
                let fast = HTTPHeaders.namesMatch(
                    String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
                if fast != Self.plainMatch(a, b) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func namesOfOtherLengthsOrLettersDiffer() {
        #expect(HTTPHeaders.namesMatch("Content-Type", "content-type"))
        #expect(HTTPHeaders.namesMatch("ETAG", "ETag"))
        #expect(!HTTPHeaders.namesMatch("Content-Type", "Content-Typ"))
        #expect(!HTTPHeaders.namesMatch("Content-Type", "Content_Type"))
        #expect(!HTTPHeaders.namesMatch("É", "é"))  // not ASCII: bytes compared as they are
        #expect(HTTPHeaders.namesMatch("", ""))
    }

    @Test func lookUpsIgnoreTheCaseOfNames() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-Request-Id": "1"]
        #expect(headers["content-TYPE"] == "application/json")
        headers.add("x-request-id", "2")
        #expect(headers.values(for: "X-REQUEST-ID") == ["1", "2"])
        headers.set("X-Request-ID", "3")
        #expect(headers.values(for: "x-request-id") == ["3"])
        headers.remove("CONTENT-type")
        #expect(headers["Content-Type"] == nil)
        #expect(headers.count == 1)
    }

    @Test func tokenBytesAreRFC9110s() {
        let others = Set("!#$%&'*+-.^_`|~".utf8)
        for byte in UInt8(0)...UInt8(0xFF) {
            let isToken =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || others.contains(byte)
            #expect(HTTPHeaders.isTokenByte(byte) == isToken, "byte \(byte)")
        }
    }
}

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
