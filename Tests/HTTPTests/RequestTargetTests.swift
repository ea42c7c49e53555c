import Formats
import Testing

@testable import HTTP

/// Request targets, queries and media types are cut on ASCII bytes; held to `String.split` on ASCII text (where
/// characters and bytes agree) and to what URLs mean where they do not (a separator before a combining mark).
@Suite struct RequestTargetTests {
    /// Every text of up to four bytes from separators and letters.
    static let texts: [String] = {
        var texts = [""]
        var last = [""]
        for _ in 1...4 {
            last = last.flatMap { text in "a?/=&;".map { text + String($0) } }
            texts += last
        }
        return texts
    }()

    @Test func splitOnByteAgreesWithSplitOnASCIIText() {
        var mismatches: [String] = []
        for text in Self.texts {
            for separator in "?/=&;" {
                for maxSplits in [1, Int.max] {
                    for omitting in [false, true] {
                        let plain = text.split(
                            separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
                        let bytes = Substring(text).splitOnByte(
                            UInt8(ascii: separator.unicodeScalars.first!), maxSplits: maxSplits,
                            omittingEmpty: omitting)
                        if bytes != plain { mismatches.append("\(text) on \(separator)") }
                    }
                }
            }
        }
        #expect(Self.texts.count == 1_555)
        #expect(mismatches == [])
    }

    @Test func targetsAreCutOnBytes() throws {
        let target = try RequestTarget(parsing: "/v1/books/%C3%A9t%C3%A9?search=le+guin&after=12")
        #expect(target.segments == ["v1", "books", "été"])
        #expect(target.path == "/v1/books/été")
        #expect(target.query["search"] == "le guin")
        #expect(target.query["after"] == "12")
        // A "/" followed by a combining mark is one character but still two segments.
        let combining = try RequestTarget(parsing: "/a/\u{301}b?x=\u{301}")
        #expect(combining.segments == ["a", "\u{301}b"])
        #expect(combining.query["x"] == "\u{301}")
        #expect(try RequestTarget(parsing: "/").segments == [])
        #expect(throws: PercentDecodingError.self) { try RequestTarget(parsing: "books") }
        #expect(throws: PercentDecodingError.self) { try RequestTarget(parsing: "") }
    }

    @Test func requestsMadeFromAParsedTargetMatchRequestsThatParseIt() throws {
        let text = "/v1/screen?page=2&perPage=10"
        let made = Request(
            method: .get, target: text, parsed: try RequestTarget(parsing: text), headers: [:], remoteAddress: "",
            requestID: "")
        let parsed = Request(method: .get, target: text)
        #expect(made.path == parsed.path)
        #expect(made.pathSegments == parsed.pathSegments)
        #expect(made.query["page"] == "2" && parsed.query["perPage"] == "10")
    }

    @Test func mediaTypesDropParameters() {
        let request = Request(
            method: .post, target: "/", headers: ["Content-Type": " Application/JSON ; charset=utf-8"])
        #expect(request.mediaType == "application/json")
        #expect(request.hasJSONBody)
    }
}
