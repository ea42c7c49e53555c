import Testing

@testable import Formats

// MARK: - CSV: every chunk boundary reads as the whole buffer does

/// What a reader made of an input: the header, the records (with their lines) read before any error, and the error.
private struct CSVOutcome: Equatable, CustomStringConvertible {
    var header: [String] = []
    var records: [[String]] = []
    var lines: [Int] = []
    var error: CSVError?

    var description: String { "header \(header), records \(records) at \(lines), error \(String(describing: error))" }
}

/// What `open` (a header read, and the reader's `next`) reads, up to its end or its first error.
private func outcome(_ open: () throws -> (header: [String], next: () throws -> CSVRecord?)) -> CSVOutcome {
    var outcome = CSVOutcome()
    do {
        let (header, next) = try open()
        outcome.header = header
        while let record = try next() {
            outcome.records.append(record.fields)
            outcome.lines.append(record.line)
        }
    } catch {
        outcome.error = error as? CSVError
    }
    return outcome
}

private func wholeOutcome(_ bytes: [UInt8], limits: CSVLimits = CSVLimits()) -> CSVOutcome {
    outcome {
        var reader = try CSVReader(bytes: bytes, limits: limits)
        return (reader.header.names, { try reader.next() })
    }
}

private func streamOutcome(
    _ bytes: [UInt8], chunkSize: Int, sourceChunk: Int = .max, limits: CSVLimits = CSVLimits(),
    decoding columns: [Int]? = nil
) -> CSVOutcome {
    outcome {
        var reader = try CSVStreamReader(
            chunkSize: chunkSize, limits: limits, source: byteSource(over: bytes, chunk: sourceChunk))
        if let columns { reader.decodeOnly(columns: columns) }
        return (reader.header.names, { try reader.next() })
    }
}

/// A small file with every hard case: a byte order mark, CRLF and LF line ends, blank lines, quoted fields with
/// commas, doubled quotes, CRLF and LF inside, multi-byte UTF-8, empty fields, and a last row without a line end.
private let trickyCSV: [UInt8] =
    [0xEF, 0xBB, 0xBF]
    + Array(
        ("title,author,notes\r\n"
            + "\"Dune, Messiah\",Frank Herbert,\"He said \"\"no\"\".\r\nThen left.\"\r\n"
            + "\r\n"
            + "Война и мир,Лев Толстой,\"\"\n"
            + "\n"
            + "\"\"\"\",,\"a\nb\nc\"\r\n"
            + "東京,\"x\"\"\",\n"
            + "Last,\"no newline\",\"end\"").utf8)

@Test("every chunk size from 1 byte up reads the tricky file as the whole-buffer reader does")
func csvStreamEveryChunkBoundary() {
    let expected = wholeOutcome(trickyCSV)
    #expect(expected.error == nil)
    #expect(expected.records.count == 5)
    #expect(expected.lines == [2, 5, 7, 10, 11])
    for chunkSize in 1...(trickyCSV.count + 1) {
        #expect(streamOutcome(trickyCSV, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
    }
}

@Test("short reads from the source (1, 2, 3, 7 bytes a call) change nothing")
func csvStreamShortReads() {
    let expected = wholeOutcome(trickyCSV)
    for sourceChunk in [1, 2, 3, 7] {
        for chunkSize in [1, 5, 16, 1 << 20] {
            #expect(
                streamOutcome(trickyCSV, chunkSize: chunkSize, sourceChunk: sourceChunk) == expected,
                "source chunk \(sourceChunk), chunk size \(chunkSize)")
        }
    }
}

@Test("every golden file, at every chunk size, gives the same records", arguments: goldens)
func csvStreamGoldens(_ golden: CSVGolden) {
    let expected = wholeOutcome(golden.input)
    for chunkSize in 1...(golden.input.count + 1) {
        #expect(streamOutcome(golden.input, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
    }
}

@Test("every malformed file, at every chunk size, gives the same error: line, field and column", arguments: failures)
func csvStreamFailures(_ failure: CSVFailure) {
    let expected = wholeOutcome(failure.input)
    #expect(expected.error == failure.expected)
    for chunkSize in 1...(failure.input.count + 1) {
        #expect(streamOutcome(failure.input, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
    }
}

@Test(
    "decoding only some columns leaves the others' fields empty and changes no error",
    arguments: goldens.map(\.input) + failures.map(\.input) + [trickyCSV])
func csvStreamDecodingSomeColumns(_ input: [UInt8]) {
    let whole = wholeOutcome(input)
    let columnCount = max(whole.header.count, 1)
    for columns in [[]] + (0..<columnCount).map({ [$0] }) + [[0, columnCount - 1], [columnCount + 5]] {
        var expected = whole
        expected.records = whole.records.map { fields in
            fields.enumerated().map { index, field in columns.contains(index) ? field : "" }
        }
        for chunkSize in [1, 2, 7, input.count + 1] {
            #expect(
                streamOutcome(input, chunkSize: chunkSize, decoding: columns) == expected,
                "columns \(columns), chunk size \(chunkSize)")
        }
    }
}

@Test("errors deep in a file, after many chunks, name the same line, field and column")
func csvStreamLateErrors() {
    let rows = (1...300).map { "\"Book \($0)\nsecond line\",\($0)\r\n" }.joined()
    let inputs = [
        "title,n\r\n" + rows + "Bad,1,2\r\n",
        "title,n\r\n" + rows + "\"open,1\r\nmore\r\n",
        "title,n\r\n" + rows + "x\"y,1\r\n",
        "title,n\r\n" + rows + "ok,1\rz\n",
    ]
    for input in inputs.map({ Array($0.utf8) }) {
        let expected = wholeOutcome(input)
        #expect(expected.error != nil && expected.records.count == 300)
        for chunkSize in [1, 2, 3, 17, 64, 100, 1000, 4096] {
            #expect(streamOutcome(input, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
        }
    }
}

@Test("limits apply while streaming; a quote left open stops at the field limit, not the end of the input")
func csvStreamLimits() throws {
    let limits = CSVLimits(maxFieldBytes: 64, maxColumns: 4)
    for input in [
        "a\n" + String(repeating: "x", count: 65) + "\n", "a\n\"" + String(repeating: "y", count: 65) + "\"\n",
        "a,b,c,d\n1,2,3,4,5\n", "a\n\"ab\"\"" + String(repeating: "z", count: 61) + "\"\n",
    ] {
        let bytes = Array(input.utf8)
        let expected = wholeOutcome(bytes, limits: limits)
        for chunkSize in 1...(bytes.count + 1) {
            #expect(streamOutcome(bytes, chunkSize: chunkSize, limits: limits) == expected, "chunk size \(chunkSize)")
        }
    }
    // An unterminated quote near the start of a long input: refused once the field passes the limit.
    let long = Array(("title\n\"open\n" + String(repeating: "row\n", count: 100_000)).utf8)
    var reader = try CSVStreamReader(chunkSize: 1024, limits: limits, source: byteSource(over: long))
    #expect(throws: CSVError(line: 2, field: 1, byteColumn: 1, reason: .fieldTooLarge(limit: 64))) {
        _ = try reader.next()
    }
    #expect(reader.bytesRead < 10_000)
}

@Test("an empty input or a byte order mark alone has no header, at any chunk size")
func csvStreamMissingHeader() {
    for input: [UInt8] in [[], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB], Array("\r\n\n".utf8)] {
        let expected = wholeOutcome(input)
        for chunkSize in 1...4 {
            #expect(streamOutcome(input, chunkSize: chunkSize) == expected)
        }
    }
}

@Test("the cheap record count agrees with the reader on well-formed files")
func csvCountRecords() throws {
    for input in goldens.map(\.input) + [trickyCSV] {
        let records = wholeOutcome(input).records.count
        for chunk in [1, 3, 1 << 20] {
            #expect(try CSVStreamReader.countRecords(chunkSize: chunk, source: byteSource(over: input)) == records)
        }
    }
}

// MARK: - JSON Lines

private func wholeLines(_ bytes: [UInt8]) -> (lines: [JSONLine], error: JSONError?) {
    var reader = JSONLinesReader(bytes: bytes)
    var lines: [JSONLine] = []
    do {
        while let line = try reader.next() { lines.append(line) }
    } catch {
        return (lines, error as? JSONError)
    }
    return (lines, nil)
}

private func streamedLines(_ bytes: [UInt8], chunkSize: Int, sourceChunk: Int = .max) -> (
    lines: [JSONLine], error: JSONError?
) {
    var reader = JSONLinesStreamReader(chunkSize: chunkSize, source: byteSource(over: bytes, chunk: sourceChunk))
    var lines: [JSONLine] = []
    do {
        while let line = try reader.next() { lines.append(line) }
    } catch {
        return (lines, error as? JSONError)
    }
    return (lines, nil)
}

private let trickyLines: [UInt8] =
    [0xEF, 0xBB, 0xBF]
    + Array(
        ("{\"title\": \"Dune\", \"n\": 1}\r\n"
            + "\n"
            + "   \t\r\n"
            + "{\"title\": \"東京\\n\", \"tags\": [1, 2, {\"a\": null}]}\n"
            + "\"text\"\n"
            + "{\"last\": true}").utf8)

@Test("JSON Lines: every chunk size reads the tricky document as the whole-buffer reader does")
func jsonLinesStreamEveryChunkBoundary() {
    let expected = wholeLines(trickyLines)
    #expect(expected.error == nil && expected.lines.map(\.line) == [1, 4, 5, 6])
    for chunkSize in 1...(trickyLines.count + 1) {
        for sourceChunk in [1, Int.max] {
            let streamed = streamedLines(trickyLines, chunkSize: chunkSize, sourceChunk: sourceChunk)
            #expect(streamed.lines == expected.lines && streamed.error == nil, "chunk size \(chunkSize)")
        }
    }
}

@Test("JSON Lines: errors name the same line and byte at every chunk size", arguments: lineFailures)
func jsonLinesStreamFailures(_ failure: JSONLinesFailure) {
    for prefix in ["", "\u{FEFF}", "{\"a\": 1}\r\n\n"] {
        let bytes = Array((prefix + failure.input).utf8)
        let expected = wholeLines(bytes)
        #expect(expected.error != nil)
        for chunkSize in 1...(bytes.count + 1) {
            let streamed = streamedLines(bytes, chunkSize: chunkSize)
            #expect(streamed.lines == expected.lines && streamed.error == expected.error, "chunk size \(chunkSize)")
        }
    }
}

@Test("JSON Lines: the cheap count is the number of non-blank lines")
func jsonLinesCount() throws {
    for chunk in [1, 2, 1 << 20] {
        let count = try JSONLinesStreamReader.countLines(
            chunkSize: chunk, source: byteSource(over: Array(trickyLines.dropFirst(3))))
        #expect(count == 4)
    }
}
