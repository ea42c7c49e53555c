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
