/// The byte-level CSV state machine behind ``CSVReader`` and ``CSVStreamReader``: splits rows into decoded fields.
///
/// It reads a whole file in one buffer, or a file in chunks: `isFinal: false` says more bytes may follow the
/// buffer, and a row that reaches the buffer's end then gives ``Step/needMore`` (nothing consumed) instead of being
/// cut short. Error positions are counted from the row's start, so they do not depend on where a chunk begins.
///
///     var scanner = CSVScanner(limits: CSVLimits())
///     scanner.start(in: buffer)
///     let header = try scanner.nextRow(in: buffer, expecting: nil)
struct CSVScanner {
    /// One physical record: its starting line and fields.
    struct Row {
        var line: Int
        var fields: [String]
    }

    /// What one call of ``step(in:expecting:isFinal:)`` found.
    enum Step {
        /// A row.
        case row(Row)
        /// The end of the input (only when the buffer is the final one).
        case end
        /// The row runs past the buffer's end: call again with more bytes after the unconsumed ones.
        case needMore
    }

    let limits: CSVLimits
    /// The columns (by 0-based index) whose fields are made into strings; nil for all. Fields of other columns are
    /// read and checked all the same, and come back empty.
    var decoded: [Bool]?
    /// The 1-based line of the next byte to read.
    private(set) var line = 1
    /// The offset of the first byte not consumed yet; a streaming reader moves it back when it drops consumed bytes.
    var position = 0
    private var scratch: [UInt8] = []
    /// Where the row being read starts (always at the start of a line, after a byte order mark on line 1).
    private var rowStart = 0
    private var rowLine = 1

    /// Thrown inside a row that reaches the end of a non-final buffer.
    private struct NeedMore: Error {}

    init(limits: CSVLimits) {
        self.limits = limits
    }

    // MARK: - Scanning

    /// Skips a byte order mark at the start of `buffer`.
    mutating func start(in buffer: UnsafeBufferPointer<UInt8>) {
        position = utf8BOMLength(buffer)
    }

    /// Reads the next non-empty row of a whole file, checking its field count against `expected` when given.
    mutating func nextRow(in buffer: UnsafeBufferPointer<UInt8>, expecting expected: Int?) throws -> Row? {
        switch try step(in: buffer, expecting: expected, isFinal: true) {
        case .row(let row): return row
        case .end, .needMore: return nil
        }
    }

    /// Reads the next non-empty row, checking its field count against `expected` when given. With `isFinal` false,
    /// a row (or a run of blank lines) that reaches the buffer's end gives `.needMore` and consumes nothing.
    mutating func step(in buffer: UnsafeBufferPointer<UInt8>, expecting expected: Int?, isFinal: Bool) throws
        -> Step
    {
        let (startPosition, startLine) = (position, line)
        do {
            guard let row = try scanRow(in: buffer, expecting: expected, isFinal: isFinal) else { return .end }
            return .row(row)
        } catch is NeedMore {
            (position, line) = (startPosition, startLine)
            return .needMore
        }
    }

    // MARK: - Private

    private mutating func scanRow(in buffer: UnsafeBufferPointer<UInt8>, expecting expected: Int?, isFinal: Bool)
        throws -> Row?
    {
        let count = buffer.count
        var pos = position
        while pos < count {
            if buffer[pos] == lineFeed {
                pos += 1
                line += 1
            } else if buffer[pos] == carriageReturn && pos + 1 < count && buffer[pos + 1] == lineFeed {
                pos += 2
                line += 1
            } else if buffer[pos] == carriageReturn && pos + 1 == count && !isFinal {
                throw NeedMore()
            } else {
                break
            }
        }
        guard pos < count else {
            if !isFinal { throw NeedMore() }
            position = pos
            return nil
        }

        let recordLine = line
        let recordStart = pos
        rowStart = pos
        rowLine = line
        var fields: [String] = []
        fields.reserveCapacity(expected ?? 8)
        var firstExtraField = -1
        while true {
            let fieldNumber = fields.count + 1
            if fieldNumber > limits.maxColumns {
                throw error(.tooManyColumns(limit: limits.maxColumns), at: pos, field: fieldNumber, in: buffer)
            }
            if let expected, fieldNumber == expected + 1 { firstExtraField = pos }
            let decodes = decoded.map { fieldNumber <= $0.count && $0[fieldNumber - 1] } ?? true
            if pos < count && buffer[pos] == quote {
                fields.append(
                    try quotedField(in: buffer, at: &pos, field: fieldNumber, isFinal: isFinal, decodes: decodes))
            } else {
                fields.append(
                    try unquotedField(in: buffer, at: &pos, field: fieldNumber, isFinal: isFinal, decodes: decodes))
            }
            if pos >= count {
                if !isFinal { throw NeedMore() }
                break
            }
            let delimiter = buffer[pos]
            if delimiter == comma {
                pos += 1
                continue
            }
            if delimiter == lineFeed {
                pos += 1
                line += 1
                break
            }
            if pos + 1 < count && buffer[pos + 1] == lineFeed {
                pos += 2
                line += 1
                break
            }
            if pos + 1 == count && !isFinal { throw NeedMore() }
            throw error(.bareCarriageReturn, at: pos, field: fieldNumber, in: buffer)
        }
        if let expected, fields.count != expected {
            let reason = CSVError.Reason.fieldCountMismatch(found: fields.count, expected: expected)
            let column = rowPosition(of: recordStart, in: buffer).column
            // A short row names its first missing field.
            var failure = CSVError(line: recordLine, field: fields.count + 1, byteColumn: column, reason: reason)
            if fields.count > expected {
                let position = rowPosition(of: firstExtraField, in: buffer)
                failure = CSVError(
                    line: position.line, field: expected + 1, byteColumn: position.column, reason: reason)
            }
            throw failure
        }
        position = pos
        return Row(line: recordLine, fields: fields)
    }

    /// A quoted field. It is too large as soon as its content passes the limit, so a quote left open never makes a
    /// reader hold the rest of the file.
    private mutating func quotedField(
        in buffer: UnsafeBufferPointer<UInt8>, at pos: inout Int, field: Int, isFinal: Bool, decodes: Bool
    ) throws -> String {
        let count = buffer.count
        let opening = pos
        pos += 1
        let contentStart = pos
        var segmentStart = pos
        var unescaped = false
        var escapes = 0
        let limit = limits.maxFieldBytes
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard pos < count else {
                if !isFinal { throw NeedMore() }
                throw error(.unterminatedQuotedField, at: opening, field: field, in: buffer)
            }
            let byte = buffer[pos]
            if byte == quote {
                if pos + 1 == count && !isFinal { throw NeedMore() }
                guard pos + 1 < count && buffer[pos + 1] == quote else { break }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[segmentStart...pos]))
                unescaped = true
                escapes += 1
                pos += 2
                segmentStart = pos
            } else {
                if byte == 0 { throw error(.nulByte, at: pos, field: field, in: buffer) }
                if byte == lineFeed { line += 1 }
                pos += 1
            }
            if pos - contentStart - escapes > limit {
                throw error(.fieldTooLarge(limit: limit), at: opening, field: field, in: buffer)
            }
        }
        let contentEnd = pos
        pos += 1
        if pos < count {
            let next = buffer[pos]
            if next != comma && next != lineFeed && next != carriageReturn {
                throw error(.charactersAfterClosingQuote, at: pos, field: field, in: buffer)
            }
        } else if !isFinal {
            throw NeedMore()
        }
        if unescaped {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[segmentStart..<contentEnd]))
        }
        if let bad = UTF8Validation.firstInvalidOffset(in: buffer, from: contentStart, to: contentEnd) {
            throw error(.invalidUTF8, at: bad, field: field, in: buffer)
        }
        if !decodes { return "" }
        if unescaped {
            return scratch.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[contentStart..<contentEnd]), as: UTF8.self)
    }

    /// An unquoted field, too large as soon as it passes the limit.
    private func unquotedField(
        in buffer: UnsafeBufferPointer<UInt8>, at pos: inout Int, field: Int, isFinal: Bool, decodes: Bool
    ) throws -> String {
        let count = buffer.count
        let start = pos
        let end = min(count, start + limits.maxFieldBytes + 1)
        // Eight bytes at a time while none of them ends or breaks the field, then byte by byte.
        var highBits: UInt8 = 0
        if let base = buffer.baseAddress {
            var words: UInt64 = 0
            while pos + 8 <= end {
                let word = UnsafeRawPointer(base + pos).loadUnaligned(as: UInt64.self)
                if Self.containsFieldStop(word) { break }
                words |= word
                pos += 8
            }
            if words & 0x8080_8080_8080_8080 != 0 { highBits = 0x80 }
        }
        // One test for most bytes: the five that end or break a field (NUL, LF, CR, quote, comma) are all below 64.
        while pos < end {
            let byte = buffer[pos]
            highBits |= byte
            if byte < 64 && (unquotedFieldStops >> UInt64(byte)) & 1 != 0 {
                if byte == comma || byte == lineFeed || byte == carriageReturn { break }
                if byte == quote { throw error(.quoteInUnquotedField, at: pos, field: field, in: buffer) }
                throw error(.nulByte, at: pos, field: field, in: buffer)
            }
            pos += 1
        }
        if pos - start > limits.maxFieldBytes {
            throw error(.fieldTooLarge(limit: limits.maxFieldBytes), at: start, field: field, in: buffer)
        }
        if pos == count && !isFinal { throw NeedMore() }
        // ASCII (no byte with its high bit set) is valid UTF-8.
        if highBits >= 0x80, let bad = UTF8Validation.firstInvalidOffset(in: buffer, from: start, to: pos) {
            throw error(.invalidUTF8, at: bad, field: field, in: buffer)
        }
        if start == pos || !decodes { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<pos]), as: UTF8.self)
    }

    /// Whether any of the eight bytes of `word` is one an unquoted field stops at (NUL, LF, CR, quote, comma): a
    /// byte equal to `stop` is a zero byte of `word ^ stop`, and `(x - 0x01...) & ~x & 0x80...` is non-zero
    /// exactly when `x` has a zero byte.
    ///
    ///     CSVScanner.containsFieldStop(0x4142_4344_4546_4748)  // false: "ABCDEFGH"
    static func containsFieldStop(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        return zeroByte(word) | zeroByte(word ^ (ones &* 0x0A)) | zeroByte(word ^ (ones &* 0x0D))
            | zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x2C)) != 0
    }

    private func error(_ reason: CSVError.Reason, at offset: Int, field: Int, in buffer: UnsafeBufferPointer<UInt8>)
        -> CSVError
    {
        let position = rowPosition(of: offset, in: buffer)
        return CSVError(line: position.line, field: field, byteColumn: position.column, reason: reason)
    }

    /// The line and byte column of `offset` in the current row, counted from the row's start: a row starts a line
    /// (on line 1, after the byte order mark, which is not counted), so the bytes before it do not matter.
    private func rowPosition(of offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = rowLine
        var lineStart = rowStart
        var index = rowStart
        while index < offset {
            if buffer[index] == lineFeed {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return (line, offset - lineStart + 1)
    }
}

private let quote: UInt8 = 0x22
private let comma: UInt8 = 0x2C
private let lineFeed: UInt8 = 0x0A
private let carriageReturn: UInt8 = 0x0D
/// The bytes an unquoted field stops at, as bits of a mask: NUL, LF, CR, quote and comma.
private let unquotedFieldStops: UInt64 = 1 << 0 | 1 << 0x0A | 1 << 0x0D | 1 << 0x22 | 1 << 0x2C
