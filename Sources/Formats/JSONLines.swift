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

/// Reads JSON Lines a chunk at a time (256 KiB by default), one line at a time, with the rules and errors of
/// ``JSONLinesReader``: memory is bounded by the chunk size and the longest line, not by the document's length.
///
/// For example:
///
///     var reader = JSONLinesStreamReader(source: byteSource(over: Array("{\"a\": 1}\n{\"a\": 2}\n".utf8)))
///     while let line = try reader.next() {
///         print(line.line, line.value["a"] ?? .null)
///     }
public struct JSONLinesStreamReader {
    private let maxDepth: Int
    private var input: ChunkedInput
    /// The offset in the window of the next line's first byte.
    private var position = 0
    private var bomLength = 0
    private var started = false
    /// The 1-based line of the next line.
    private var line = 1

    /// Creates a reader that reads from `source`; nothing is read until the first ``next()``.
    ///
    ///     var reader = JSONLinesStreamReader(chunkSize: 1 << 16, source: source)
    public init(
        chunkSize: Int = CSVStreamReader.defaultChunkSize, maxDepth: Int = JSONParser.defaultMaxDepth,
        source: @escaping ByteSource
    ) {
        self.maxDepth = maxDepth
        self.input = ChunkedInput(chunkSize: chunkSize, source: source)
    }

    /// How many bytes were read from the source so far.
    ///
    ///     reader.bytesRead  // 1048576
    public var bytesRead: Int { input.bytesRead }

    /// Counts the lines that hold something other than blanks (the values a reader would read, for a well-formed
    /// document), in one cheap pass that parses nothing; for a progress bar's total.
    ///
    ///     let total = try JSONLinesStreamReader.countLines(source: byteSource(over: bytes))
    public static func countLines(chunkSize: Int = CSVStreamReader.defaultChunkSize, source: ByteSource) throws -> Int {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var lines = 0
        var hasContent = false
        while true {
            let count = try chunk.withUnsafeMutableBytes { try source($0) }
            if count == 0 { break }
            for byte in chunk[0..<count] {
                switch byte {
                case 0x0A:
                    if hasContent { lines += 1 }
                    hasContent = false
                case 0x20, 0x09, 0x0D: break
                default: hasContent = true
                }
            }
        }
        return hasContent ? lines + 1 : lines
    }

    /// Reads the value on the next non-blank line, or returns nil at the end.
    ///
    ///     while let line = try reader.next() { use(line.value) }
    ///
    /// - Throws: ``JSONError`` naming the line, or whatever the source throws.
    public mutating func next() throws -> JSONLine? {
        if !started {
            // The byte order mark is looked for in the first three bytes, however small the chunks are.
            while input.filled < 3 && !input.isAtEnd { try input.refill(keepingFrom: 0) }
            bomLength = input.withBuffer { utf8BOMLength($0) }
            position = bomLength
            started = true
        }
        while true {
            // The next complete line: up to a line feed, or to the end of the input.
            let lineFeed = input.withBuffer { buffer -> Int? in
                var index = position
                while index < buffer.count {
                    if buffer[index] == 0x0A { return index }
                    index += 1
                }
                return nil
            }
            guard let lineEnd = lineFeed ?? (input.isAtEnd ? input.filled : nil) else {
                let dropped = try input.refill(keepingFrom: line == 1 ? 0 : position)
                position -= dropped
                continue
            }
            if position >= input.filled && input.isAtEnd { return nil }
            // Line 1 keeps the byte order mark in the window, so its columns are counted as a whole file's are.
            let first = line == 1 ? 0 : position
            let bom = line == 1 ? bomLength : 0
            let maxDepth = maxDepth
            let start = position
            let value: JSONValue? = try input.withBuffer { buffer in
                let window = UnsafeBufferPointer(rebasing: buffer[first..<lineEnd])
                var scanner = JSONScanner(
                    buffer: window, from: start - first, to: lineEnd - first, maxDepth: maxDepth, bomLength: bom)
                scanner.skipWhitespace()
                guard scanner.pos < window.count else { return nil }
                do {
                    return try scanner.parseDocument()
                } catch var error as JSONError {
                    error.line += line - 1
                    throw error
                }
            }
            position = min(lineEnd + 1, input.filled)
            line += 1
            if let value { return JSONLine(line: line - 1, value: value) }
        }
    }
}
