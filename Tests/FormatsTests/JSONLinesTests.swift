import Testing

@testable import Formats

// MARK: - JSON Lines

@Test func jsonLinesReadsOneValuePerLineSkippingBlankLines() throws {
    var reader = JSONLinesReader(string: "{\"a\": 1}\r\n\n   \n[2]\n\"three\"")
    let lines = try reader.readAll()
    #expect(
        lines == [JSONLine(line: 1, value: ["a": 1]), JSONLine(line: 4, value: [2]), JSONLine(line: 5, value: "three")])
    #expect(try reader.next() == nil)
}

@Test func jsonLinesIgnoresByteOrderMark() throws {
    var reader = JSONLinesReader(bytes: [0xEF, 0xBB, 0xBF] + Array("1\n2\n".utf8))
    #expect(try reader.readAll().map(\.value) == [1, 2])
}

@Test func jsonLinesEmptyDocumentHasNoValues() throws {
    var reader = JSONLinesReader(string: "\n\n")
    #expect(try reader.next() == nil)
}

/// A malformed JSON Lines document and the error it must raise.
struct JSONLinesFailure: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var expected: JSONError
    var testDescription: String { name }
}

let lineFailures: [JSONLinesFailure] = [
    JSONLinesFailure(
        name: "bad value on line 3", input: "1\n2\n{\"a\": }\n4\n",
        expected: JSONError(line: 3, column: 7, reason: .unexpectedCharacter("'}'"))),
    JSONLinesFailure(
        name: "value split across lines", input: "{\"a\":\n1}\n",
        expected: JSONError(line: 1, column: 6, reason: .unexpectedEnd)),
    JSONLinesFailure(
        name: "two values on one line", input: "1\n{} {}\n",
        expected: JSONError(line: 2, column: 4, reason: .trailingCharacters)),
    JSONLinesFailure(
        name: "after blank lines", input: "\n\n[1,]\n",
        expected: JSONError(line: 3, column: 4, reason: .trailingComma)),
]

@Test(arguments: lineFailures)
func jsonLinesErrorsNameTheLine(_ failure: JSONLinesFailure) {
    #expect(throws: failure.expected) {
        var reader = JSONLinesReader(string: failure.input)
        _ = try reader.readAll()
    }
}

// MARK: - Layout detection

@Test(arguments: [
    ("[{\"a\": 1}]", JSONLayout.array),
    ("\u{FEFF}\n  [", .array),
    ("{\"a\": 1}\n{\"a\": 2}\n", .lines),
    (" \r\n{", .lines),
])
func jsonLayoutIsDetected(_ input: String, _ layout: JSONLayout) {
    #expect(JSONLayout.detect(Array(input.utf8)) == layout)
}

@Test(arguments: ["", "   \n", "1", "\"text\"", "null", "x"])
func jsonLayoutIsUnknownForOtherDocuments(_ input: String) {
    #expect(JSONLayout.detect(Array(input.utf8)) == nil)
}

// MARK: - Records

@Test func jsonRecordsReadBothLayoutsAlike() throws {
    let array = try JSONRecords.read(Array("[\n  {\"title\": \"Dune\"},\n  {\"title\": \"三体\"}\n]\n".utf8))
    let lines = try JSONRecords.read(Array("\n{\"title\": \"Dune\"}\n{\"title\": \"三体\"}\n".utf8))
    #expect(array.map(\.object) == [["title": "Dune"], ["title": "三体"]])
    #expect(lines.map(\.object) == array.map(\.object))
    #expect(array.map(\.line) == [2, 3])
    #expect(lines.map(\.line) == [2, 3])
    #expect(try JSONRecords.read(Array(" [ ] ".utf8)).isEmpty)
}

/// A malformed record document and the error it must raise.
struct JSONRecordsFailure: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var expected: JSONError
    var testDescription: String { name }
}

private let recordFailures: [JSONRecordsFailure] = [
    JSONRecordsFailure(
        name: "array element not an object", input: "[\n{},\n 3\n]",
        expected: JSONError(line: 3, column: 2, reason: .expectedObject(found: "number"))),
    JSONRecordsFailure(
        name: "line not an object", input: "{}\n[1]\n",
        expected: JSONError(line: 2, column: 1, reason: .expectedObject(found: "array"))),
    JSONRecordsFailure(
        name: "trailing comma in array", input: "[{},\n]",
        expected: JSONError(line: 2, column: 1, reason: .trailingComma)),
    JSONRecordsFailure(
        name: "unclosed array", input: "[{}",
        expected: JSONError(line: 1, column: 4, reason: .unexpectedEnd)),
    JSONRecordsFailure(
        name: "content after array", input: "[{}] {}",
        expected: JSONError(line: 1, column: 6, reason: .trailingCharacters)),
    JSONRecordsFailure(
        name: "scalar document", input: "\n 42",
        expected: JSONError(line: 2, column: 2, reason: .unknownLayout)),
    JSONRecordsFailure(
        name: "empty document", input: "",
        expected: JSONError(line: 1, column: 1, reason: .unknownLayout)),
]

@Test(arguments: recordFailures)
func jsonRecordsRejectMalformedDocuments(_ failure: JSONRecordsFailure) {
    #expect(throws: failure.expected) {
        try JSONRecords.read(Array(failure.input.utf8))
    }
}

@Test func jsonRecordsDeepNestingThrows() {
    let nested = "[" + String(repeating: "[", count: 100_000)
    #expect(throws: JSONError.self) { try JSONRecords.read(Array(nested.utf8)) }
}
