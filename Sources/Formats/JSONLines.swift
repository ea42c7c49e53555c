// MARK: - JSON Lines

/// One value read from a JSON Lines document, with its 1-based line.
///
///     JSONLine(line: 3, value: ["title": "Dune"])
public struct JSONLine: Hashable, Sendable {
    /// The 1-based physical line the value sits on.
    public var line: Int
    /// The value.
    public var value: JSONValue

    /// Creates a line.
    ///
    ///     JSONLine(line: 1, value: .null)
    public init(line: Int, value: JSONValue) {
        self.line = line
        self.value = value
    }
}

/// Reads JSON Lines (https://jsonlines.org): one JSON value per line, one line at a time.
///
/// Lines end in LF or CRLF; empty and whitespace-only lines are skipped; each other line must hold exactly one
/// complete value. Errors carry the physical line. A leading UTF-8 byte order mark is ignored.
///
/// For example:
///
///     var reader = JSONLinesReader(bytes: Array("{\"a\": 1}\n{\"a\": 2}\n".utf8))
///     while let line = try reader.next() {
///         print(line.line, line.value["a"] ?? .null)
///     }
public struct JSONLinesReader: Sendable {
    private let bytes: [UInt8]
    private let maxDepth: Int
    private var position: Int
    private var line = 1

    /// Creates a reader over the bytes of a whole document.
    ///
    ///     var reader = JSONLinesReader(bytes: fileBytes)
    public init(bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.position = bytes.withUnsafeBufferPointer { utf8BOMLength($0) }
    }

    /// Creates a reader over the UTF-8 of a string.
    ///
    ///     var reader = JSONLinesReader(string: "1\n2\n")
    public init(string: String, maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.init(bytes: Array(string.utf8), maxDepth: maxDepth)
    }

    /// Reads the value on the next non-blank line, or returns nil at the end.
    ///
    ///     while let line = try reader.next() { use(line.value) }
    ///
    /// - Throws: ``JSONError`` naming the line.
    public mutating func next() throws -> JSONLine? {
        let maxDepth = maxDepth
        let start = position
        let result: (value: JSONValue?, next: Int, lines: Int) = try bytes.withUnsafeBufferPointer { buffer in
            let bom = utf8BOMLength(buffer)
            var lineStart = start
            var lines = 0
            while lineStart < buffer.count {
                var lineEnd = lineStart
                while lineEnd < buffer.count && buffer[lineEnd] != 0x0A { lineEnd += 1 }
                let next = min(lineEnd + 1, buffer.count)
                var scanner = JSONScanner(
                    buffer: buffer, from: lineStart, to: lineEnd, maxDepth: maxDepth, bomLength: bom)
                scanner.skipWhitespace()
                if scanner.pos < lineEnd {
                    return (try scanner.parseDocument(), next, lines)
                }
                lines += 1
                lineStart = next
            }
            return (nil, buffer.count, lines)
        }
        line += result.lines
        position = result.next
        guard let value = result.value else { return nil }
        defer { line += 1 }
        return JSONLine(line: line, value: value)
    }

    /// Reads all remaining values.
    ///
    ///     let values = try reader.readAll().map(\.value)
    public mutating func readAll() throws -> [JSONLine] {
        var lines: [JSONLine] = []
        while let line = try next() {
            lines.append(line)
        }
        return lines
    }
}
