// MARK: - Layout detection

/// How a document of records is laid out: one JSON array of objects, or JSON Lines with one object per line.
///
/// For example:
///
///     JSONLayout.detect(Array("[{\"a\": 1}]".utf8))  // .array
///     JSONLayout.detect(Array("{\"a\": 1}\n".utf8))  // .lines
public enum JSONLayout: Hashable, Sendable {
    /// A single JSON array whose elements are the records.
    case array
    /// JSON Lines: one record per line.
    case lines

    /// Looks at the first significant byte (after a byte order mark and whitespace): `[` means ``array``, `{`
    /// means ``lines``; anything else (including an empty document) gives nil.
    ///
    ///     JSONLayout.detect(bytes)  // .array
    public static func detect(_ bytes: [UInt8]) -> JSONLayout? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = utf8BOMLength(buffer)
            while index < buffer.count {
                switch buffer[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                case UInt8(ascii: "["): return .array
                case UInt8(ascii: "{"): return .lines
                default: return nil
                }
            }
            return nil
        }
    }
}

// MARK: - Records

/// One object read as a record, with the 1-based line where it starts.
///
///     JSONRecord(line: 2, object: ["title": "Dune"])
public struct JSONRecord: Hashable, Sendable {
    /// The 1-based physical line where the object starts.
    public var line: Int
    /// The object.
    public var object: JSONObject

    /// Creates a record.
    ///
    ///     JSONRecord(line: 1, object: JSONObject())
    public init(line: Int, object: JSONObject) {
        self.line = line
        self.object = object
    }
}

/// Reads a document of object records in either layout: a JSON array of objects or JSON Lines.
///
/// For example:
///
///     let records = try JSONRecords.read(fileBytes)
///     for record in records { print(record.line, record.object["title"] ?? .null) }
public enum JSONRecords {
    /// Detects the layout and reads every record; each must be an object.
    ///
    ///     let records = try JSONRecords.read(Array("[{\"a\": 1}, {\"a\": 2}]".utf8))  // 2 records
    ///
    /// - Throws: ``JSONError``: ``JSONError/Reason/unknownLayout`` when the layout is neither,
    ///   ``JSONError/Reason/expectedObject(found:)`` for a non-object record, or any syntax error, with its line.
    public static func read(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws -> [JSONRecord] {
        switch JSONLayout.detect(bytes) {
        case .array:
            return try readArray(bytes, maxDepth: maxDepth)
        case .lines:
            var reader = JSONLinesReader(bytes: bytes, maxDepth: maxDepth)
            var records: [JSONRecord] = []
            while let line = try reader.next() {
                guard case .object(let object) = line.value else {
                    throw JSONError(line: line.line, column: 1, reason: .expectedObject(found: line.value.kindName))
                }
                records.append(JSONRecord(line: line.line, object: object))
            }
            return records
        case nil:
            let position = bytes.withUnsafeBufferPointer { buffer in
                var index = utf8BOMLength(buffer)
                while index < buffer.count && [0x20, 0x09, 0x0A, 0x0D].contains(buffer[index]) { index += 1 }
                return TextPosition(of: index, in: buffer, bomLength: utf8BOMLength(buffer))
            }
            throw JSONError(line: position.line, column: position.column, reason: .unknownLayout)
        }
    }

    // MARK: - Private

    private static func readArray(_ bytes: [UInt8], maxDepth: Int) throws -> [JSONRecord] {
        try bytes.withUnsafeBufferPointer { buffer in
            let bom = utf8BOMLength(buffer)
            var scanner = JSONScanner(
                buffer: buffer, from: bom, to: buffer.count, maxDepth: max(1, JSONScanner.clamped(maxDepth) - 1),
                bomLength: bom)
            var records: [JSONRecord] = []
            var line = 1
            var counted = 0
            scanner.skipWhitespace()
            scanner.pos += 1  // the "[" found by detection
            scanner.skipWhitespace()
            if scanner.pos < buffer.count && buffer[scanner.pos] == UInt8(ascii: "]") {
                scanner.pos += 1
            } else {
                while true {
                    scanner.skipWhitespace()
                    let start = scanner.pos
                    let value = try scanner.parseValue()
                    while counted < start {
                        if buffer[counted] == 0x0A { line += 1 }
                        counted += 1
                    }
                    guard case .object(let object) = value else {
                        throw scanner.error(.expectedObject(found: value.kindName), at: start)
                    }
                    records.append(JSONRecord(line: line, object: object))
                    scanner.skipWhitespace()
                    guard scanner.pos < buffer.count else { throw scanner.error(.unexpectedEnd, at: scanner.pos) }
                    let byte = buffer[scanner.pos]
                    scanner.pos += 1
                    if byte == UInt8(ascii: "]") { break }
                    guard byte == UInt8(ascii: ",") else {
                        throw scanner.error(.expectedCommaOr("]"), at: scanner.pos - 1)
                    }
                    scanner.skipWhitespace()
                    if scanner.pos < buffer.count && buffer[scanner.pos] == UInt8(ascii: "]") {
                        throw scanner.error(.trailingComma, at: scanner.pos)
                    }
                }
            }
            scanner.skipWhitespace()
            guard scanner.pos == buffer.count else { throw scanner.error(.trailingCharacters, at: scanner.pos) }
            return records
        }
    }
}
