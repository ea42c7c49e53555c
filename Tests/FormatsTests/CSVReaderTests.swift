import Testing

@testable import Formats

// MARK: - Golden valid inputs

/// A CSV input and the header and rows it must read as.
struct CSVGolden: Sendable, CustomTestStringConvertible {
    var name: String
    var input: [UInt8]
    var header: [String]
    var rows: [[String]]
    var lines: [Int]? = nil

    var testDescription: String { name }

    init(_ name: String, _ input: String, header: [String], rows: [[String]], lines: [Int]? = nil) {
        self.init(name, Array(input.utf8), header: header, rows: rows, lines: lines)
    }

    init(_ name: String, _ input: [UInt8], header: [String], rows: [[String]], lines: [Int]? = nil) {
        self.name = name
        self.input = input
        self.header = header
        self.rows = rows
        self.lines = lines
    }
}

let goldens: [CSVGolden] = [
    CSVGolden("plain LF", "a,b\n1,2\n3,4\n", header: ["a", "b"], rows: [["1", "2"], ["3", "4"]], lines: [2, 3]),
    CSVGolden("CRLF", "a,b\r\n1,2\r\n3,4\r\n", header: ["a", "b"], rows: [["1", "2"], ["3", "4"]], lines: [2, 3]),
    CSVGolden("no trailing newline", "a,b\n1,2", header: ["a", "b"], rows: [["1", "2"]]),
    CSVGolden("header only", "a,b\n", header: ["a", "b"], rows: []),
    CSVGolden("header only without newline", "a,b", header: ["a", "b"], rows: []),
    CSVGolden("empty fields", "a,b,c\n,,\n1,,3\n", header: ["a", "b", "c"], rows: [["", "", ""], ["1", "", "3"]]),
    CSVGolden("trailing comma is an empty last field", "a,b\n1,\n", header: ["a", "b"], rows: [["1", ""]]),
    CSVGolden("quoted comma", "a,b\n\"x, y\",2\n", header: ["a", "b"], rows: [["x, y", "2"]]),
    CSVGolden("doubled quotes", "a\n\"say \"\"hi\"\"\"\n", header: ["a"], rows: [["say \"hi\""]]),
    CSVGolden("only a doubled quote", "a\n\"\"\"\"\n", header: ["a"], rows: [["\""]]),
    CSVGolden("quoted empty", "a,b\n\"\",\"\"\n", header: ["a", "b"], rows: [["", ""]]),
    CSVGolden(
        "embedded LF keeps line numbers", "a,b\n\"one\ntwo\",2\n3,4\n", header: ["a", "b"],
        rows: [["one\ntwo", "2"], ["3", "4"]], lines: [2, 4]),
    CSVGolden("embedded CRLF kept verbatim", "a\r\n\"x\r\ny\"\r\n", header: ["a"], rows: [["x\r\ny"]]),
    CSVGolden("CR inside quotes kept", "a\n\"x\ry\"\n", header: ["a"], rows: [["x\ry"]]),
    CSVGolden("BOM skipped", [0xEF, 0xBB, 0xBF] + Array("a,b\n1,2\n".utf8), header: ["a", "b"], rows: [["1", "2"]]),
    CSVGolden(
        "blank lines skipped", "a,b\n\n1,2\n\r\n3,4\n\n", header: ["a", "b"], rows: [["1", "2"], ["3", "4"]],
        lines: [3, 5]),
    CSVGolden("spaces are data", "a,b\n 1 , 2 \n", header: ["a", "b"], rows: [[" 1 ", " 2 "]]),
    CSVGolden(
        "non-ASCII", "title,author\nПреступление и наказание,Фёдор Достоевский\n三体,刘慈欣\n",
        header: ["title", "author"], rows: [["Преступление и наказание", "Фёдор Достоевский"], ["三体", "刘慈欣"]]),
    CSVGolden("quoted header", "\"a,1\",b\nx,y\n", header: ["a,1", "b"], rows: [["x", "y"]]),
    CSVGolden("one column with quoted empty value", "a\n\"\"\nz\n", header: ["a"], rows: [[""], ["z"]]),
]

@Test(arguments: goldens)
func csvReadsGoldenInput(_ golden: CSVGolden) throws {
    var reader = try CSVReader(bytes: golden.input)
    #expect(reader.header.names == golden.header)
    let records = try reader.readAll()
    #expect(records.map(\.fields) == golden.rows)
    if let lines = golden.lines {
        #expect(records.map(\.line) == lines)
    }
    #expect(try reader.next() == nil)
}

// MARK: - Golden errors

/// A malformed CSV input and the error it must raise.
struct CSVFailure: Sendable, CustomTestStringConvertible {
    var name: String
    var input: [UInt8]
    var expected: CSVError
    var testDescription: String { name }

    init(_ name: String, _ input: String, _ expected: CSVError) {
        self.init(name, Array(input.utf8), expected)
    }

    init(_ name: String, _ input: [UInt8], _ expected: CSVError) {
        self.name = name
        self.input = input
        self.expected = expected
    }
}

private func failure(_ line: Int, _ field: Int, _ column: Int, _ reason: CSVError.Reason) -> CSVError {
    CSVError(line: line, field: field, byteColumn: column, reason: reason)
}

let failures: [CSVFailure] = [
    CSVFailure("empty file", "", failure(1, 1, 1, .missingHeader)),
    CSVFailure("BOM only", [0xEF, 0xBB, 0xBF], failure(1, 1, 1, .missingHeader)),
    CSVFailure("blank lines only", "\n\n", failure(3, 1, 1, .missingHeader)),
    CSVFailure("duplicate header name", "a,b,a\n", failure(1, 3, 1, .duplicateHeaderName("a"))),
    CSVFailure(
        "too many fields", "a,b\n1,2\n1,2,3,4\n", failure(3, 3, 5, .fieldCountMismatch(found: 4, expected: 2))),
    CSVFailure(
        "too few fields", "a,b,c,d,e,f,g\n1,2,3,4,5\n", failure(2, 6, 1, .fieldCountMismatch(found: 5, expected: 7))),
    CSVFailure("unterminated quote", "a,b\n1,\"open\nstill open\n", failure(2, 2, 3, .unterminatedQuotedField)),
    CSVFailure("quote inside unquoted field", "a,b\n1,ab\"c\n", failure(2, 2, 5, .quoteInUnquotedField)),
    CSVFailure("characters after closing quote", "a,b\n\"x\"y,2\n", failure(2, 1, 4, .charactersAfterClosingQuote)),
    CSVFailure("space after closing quote", "a,b\n\"x\" ,2\n", failure(2, 1, 4, .charactersAfterClosingQuote)),
    CSVFailure("bare CR ends nothing", "a,b\r1,2\n", failure(1, 2, 4, .bareCarriageReturn)),
    CSVFailure("bare CR after quoted field", "a\n\"x\"\ry\n", failure(2, 1, 4, .bareCarriageReturn)),
    CSVFailure(
        "invalid UTF-8", [UInt8]("a,b\n1,x".utf8) + [0xFF] + [UInt8]("y\n".utf8), failure(2, 2, 4, .invalidUTF8)),
    CSVFailure("truncated UTF-8 sequence", [UInt8]("a\n".utf8) + [0xE4, 0xB8], failure(2, 1, 1, .invalidUTF8)),
    CSVFailure("overlong UTF-8", [UInt8]("a\n".utf8) + [0xC0, 0xAF], failure(2, 1, 1, .invalidUTF8)),
    CSVFailure("UTF-8 surrogate", [UInt8]("a\n".utf8) + [0xED, 0xA0, 0x80], failure(2, 1, 1, .invalidUTF8)),
    CSVFailure(
        "invalid UTF-8 on the second line of a quoted field",
        [UInt8]("a\n\"ok\nbad ".utf8) + [0x80] + [UInt8]("\"\n".utf8), failure(3, 1, 5, .invalidUTF8)),
    CSVFailure("NUL in unquoted field", [UInt8]("a,b\n1,".utf8) + [0] + [UInt8]("\n".utf8), failure(2, 2, 3, .nulByte)),
    CSVFailure("NUL in quoted field", [UInt8]("a\n\"x".utf8) + [0] + [UInt8]("\"\n".utf8), failure(2, 1, 3, .nulByte)),
    CSVFailure(
        "error column counts from after the BOM", [0xEF, 0xBB, 0xBF] + Array("a,b\"\n".utf8),
        failure(1, 2, 4, .quoteInUnquotedField)),
]

@Test(arguments: failures)
func csvRejectsMalformedInput(_ failure: CSVFailure) {
    #expect(throws: failure.expected) {
        var reader = try CSVReader(bytes: failure.input)
        _ = try reader.readAll()
    }
}

// MARK: - Records, limits and messages

@Test func csvRecordsLookUpFieldsByName() throws {
    var reader = try CSVReader(string: "title,year\nDune,1965\n")
    let record = try #require(try reader.next())
    #expect(record["title"] == "Dune")
    #expect(record["year"] == "1965")
    #expect(record["missing"] == nil)
    #expect(record[1] == "1965")
    #expect(reader.header.index(of: "year") == 1)
}

@Test func csvHeaderNamesMayBeEmptyAndNameNoColumn() throws {
    // A spreadsheet's trailing commas: columns without a name, as many as it has.
    var reader = try CSVReader(string: "title,,year,\nDune,x,1965,y\n")
    let record = try #require(try reader.next())
    #expect(record["title"] == "Dune" && record["year"] == "1965")
    #expect(record[""] == nil)
    #expect(reader.header.index(of: "") == nil)
    #expect(reader.header.count == 4)
}

@Test func csvReaderYieldsGoodRecordsBeforeAnError() throws {
    var reader = try CSVReader(string: "a,b\n1,2\n3\n")
    #expect(try reader.next()?.fields == ["1", "2"])
    #expect(throws: CSVError.self) { try reader.next() }
}

@Test func csvFieldSizeLimitIsEnforced() throws {
    let limits = CSVLimits(maxFieldBytes: 4, maxColumns: 10)
    var fits = try CSVReader(string: "a\nabcd\n\"ab\"\"\"\n", limits: limits)
    #expect(try fits.readAll().map(\.fields) == [["abcd"], ["ab\""]])
    #expect(throws: CSVError(line: 2, field: 1, byteColumn: 1, reason: .fieldTooLarge(limit: 4))) {
        var reader = try CSVReader(string: "a\nabcde\n", limits: limits)
        _ = try reader.readAll()
    }
    #expect(throws: CSVError(line: 2, field: 1, byteColumn: 1, reason: .fieldTooLarge(limit: 4))) {
        var reader = try CSVReader(string: "a\n\"abcde\"\n", limits: limits)
        _ = try reader.readAll()
    }
}

@Test func csvColumnLimitIsEnforcedOnHeaderAndRows() throws {
    let limits = CSVLimits(maxColumns: 3)
    #expect(throws: CSVError(line: 1, field: 4, byteColumn: 7, reason: .tooManyColumns(limit: 3))) {
        _ = try CSVReader(string: "a,b,c,d\n", limits: limits)
    }
    #expect(throws: CSVError(line: 2, field: 4, byteColumn: 7, reason: .tooManyColumns(limit: 3))) {
        var reader = try CSVReader(string: "a,b,c\n1,2,3,4,5,6\n", limits: limits)
        _ = try reader.readAll()
    }
}

@Test func csvDefaultLimitsMatchTheDocumentation() {
    #expect(CSVLimits().maxFieldBytes == 1_048_576)
    #expect(CSVLimits().maxColumns == 10_000)
}

@Test func csvErrorMessagesArePlain() {
    let error = CSVError(line: 4, field: 6, byteColumn: 20, reason: .fieldCountMismatch(found: 5, expected: 7))
    #expect(error.description == "line 4, field 6 (byte 20): row has 5 fields, header has 7")
    let one = CSVError(line: 2, field: 1, byteColumn: 1, reason: .fieldCountMismatch(found: 1, expected: 2))
    #expect(one.description == "line 2, field 1 (byte 1): row has 1 field, header has 2")
}

@Test func csvReadsManyRecordsOneAtATime() throws {
    var text = "id,name,note\n"
    for index in 0..<5_000 {
        text += "\(index),name \(index),\"note, with \"\"quotes\"\"\nand a newline\"\n"
    }
    var reader = try CSVReader(string: text)
    var count = 0
    while let record = try reader.next() {
        #expect(record.line == 2 + count * 2)
        #expect(record["id"] == String(count))
        count += 1
    }
    #expect(count == 5_000)
}

@Test func csvReaderAcceptsRawBuffers() throws {
    let bytes = Array("a,b\n1,2\n".utf8)
    var reader = try bytes.withUnsafeBytes { try CSVReader(buffer: $0) }
    #expect(try reader.readAll().map(\.fields) == [["1", "2"]])
}
