/// The byte-level CSV state machine behind ``CSVReader``: splits rows into decoded fields.
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

    let limits: CSVLimits
    /// The 1-based line of the next byte to read.
    private(set) var line = 1
    private var position = 0
    private var bomLength = 0
    private var scratch: [UInt8] = []

    init(limits: CSVLimits) {
        self.limits = limits
    }

    // MARK: - Scanning

    /// Skips a byte order mark at the start of `buffer`.
    mutating func start(in buffer: UnsafeBufferPointer<UInt8>) {
        bomLength = utf8BOMLength(buffer)
        position = bomLength
    }

    /// Reads the next non-empty row, checking its field count against `expected` when given.
    mutating func nextRow(in buffer: UnsafeBufferPointer<UInt8>, expecting expected: Int?) throws -> Row? {
        let count = buffer.count
        var pos = position
        while pos < count {
            if buffer[pos] == lineFeed {
                pos += 1
                line += 1
            } else if buffer[pos] == carriageReturn && pos + 1 < count && buffer[pos + 1] == lineFeed {
                pos += 2
                line += 1
            } else {
                break
            }
        }
        position = pos
        guard pos < count else { return nil }

        let recordLine = line
        let recordStart = pos
        var fields: [String] = []
        fields.reserveCapacity(expected ?? 8)
        var firstExtraField = -1
        while true {
            let fieldNumber = fields.count + 1
            if fieldNumber > limits.maxColumns {
                throw error(.tooManyColumns(limit: limits.maxColumns), at: pos, field: fieldNumber, in: buffer)
            }
            if let expected, fieldNumber == expected + 1 { firstExtraField = pos }
            if pos < count && buffer[pos] == quote {
                fields.append(try quotedField(in: buffer, at: &pos, field: fieldNumber))
            } else {
                fields.append(try unquotedField(in: buffer, at: &pos, field: fieldNumber))
            }
            if pos >= count { break }
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
            throw error(.bareCarriageReturn, at: pos, field: fieldNumber, in: buffer)
        }
        if let expected, fields.count != expected {
            let reason = CSVError.Reason.fieldCountMismatch(found: fields.count, expected: expected)
            let column = TextPosition(of: recordStart, in: buffer, bomLength: bomLength).column
            var failure = CSVError(line: recordLine, field: fields.count, byteColumn: column, reason: reason)
            if fields.count > expected {
                let position = TextPosition(of: firstExtraField, in: buffer, bomLength: bomLength)
                failure = CSVError(
                    line: position.line, field: expected + 1, byteColumn: position.column, reason: reason)
            }
            throw failure
        }
        position = pos
        return Row(line: recordLine, fields: fields)
    }

    // MARK: - Private

    private mutating func quotedField(in buffer: UnsafeBufferPointer<UInt8>, at pos: inout Int, field: Int) throws
        -> String
    {
        let count = buffer.count
        let opening = pos
        pos += 1
        let contentStart = pos
        var segmentStart = pos
        var unescaped = false
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard pos < count else {
                throw error(.unterminatedQuotedField, at: opening, field: field, in: buffer)
            }
            let byte = buffer[pos]
            if byte == quote {
                guard pos + 1 < count && buffer[pos + 1] == quote else { break }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[segmentStart...pos]))
                unescaped = true
                pos += 2
                segmentStart = pos
                continue
            }
            if byte == 0 { throw error(.nulByte, at: pos, field: field, in: buffer) }
            if byte == lineFeed { line += 1 }
            pos += 1
        }
        let contentEnd = pos
        pos += 1
        if pos < count {
            let next = buffer[pos]
            if next != comma && next != lineFeed && next != carriageReturn {
                throw error(.charactersAfterClosingQuote, at: pos, field: field, in: buffer)
            }
        }
        if unescaped {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[segmentStart..<contentEnd]))
        }
        let size = unescaped ? scratch.count : contentEnd - contentStart
        if size > limits.maxFieldBytes {
            throw error(.fieldTooLarge(limit: limits.maxFieldBytes), at: opening, field: field, in: buffer)
        }
        if let bad = UTF8Validation.firstInvalidOffset(in: buffer, from: contentStart, to: contentEnd) {
            throw error(.invalidUTF8, at: bad, field: field, in: buffer)
        }
        if unescaped {
            return scratch.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[contentStart..<contentEnd]), as: UTF8.self)
    }

    private func unquotedField(in buffer: UnsafeBufferPointer<UInt8>, at pos: inout Int, field: Int) throws -> String {
        let count = buffer.count
        let start = pos
        while pos < count {
            let byte = buffer[pos]
            if byte == comma || byte == lineFeed || byte == carriageReturn { break }
            if byte == quote { throw error(.quoteInUnquotedField, at: pos, field: field, in: buffer) }
            if byte == 0 { throw error(.nulByte, at: pos, field: field, in: buffer) }
            pos += 1
        }
        if pos - start > limits.maxFieldBytes {
            throw error(.fieldTooLarge(limit: limits.maxFieldBytes), at: start, field: field, in: buffer)
        }
        if let bad = UTF8Validation.firstInvalidOffset(in: buffer, from: start, to: pos) {
            throw error(.invalidUTF8, at: bad, field: field, in: buffer)
        }
        if start == pos { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<pos]), as: UTF8.self)
    }

    private func error(_ reason: CSVError.Reason, at offset: Int, field: Int, in buffer: UnsafeBufferPointer<UInt8>)
        -> CSVError
    {
        let position = TextPosition(of: offset, in: buffer, bomLength: bomLength)
        return CSVError(line: position.line, field: field, byteColumn: position.column, reason: reason)
    }
}

private let quote: UInt8 = 0x22
private let comma: UInt8 = 0x2C
private let lineFeed: UInt8 = 0x0A
private let carriageReturn: UInt8 = 0x0D
