/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Rejects trailing commas, comments, leading zeros, single quotes, raw control characters in strings, invalid
/// escapes, unpaired `\u` surrogates, invalid UTF-8, duplicate object keys, numbers beyond a finite `Double`
/// (`1e400`), and arrays or objects nested deeper than `maxDepth`. A leading UTF-8 byte order mark is ignored.
///
/// Every `maxDepth` (here and in ``JSONLinesReader``, ``JSONLinesStreamReader`` and ``JSONRecords``) is clamped to
/// `0...maximumDepth`, never trapping: 0 or less accepts a lone number, string, boolean or null and throws
/// ``JSONError/Reason/nestingTooDeep(limit:)`` for any array or object; a limit above ``maximumDepth`` is
/// ``maximumDepth``.
///
/// For example:
///
///     let value = try JSONParser.parse(#"[{"title": "Dune", "year": 1965}]"#)
///     value.arrayValue?.first?["year"]  // .int(1965)
public enum JSONParser {
    /// The default limit on nested arrays and objects.
    ///
    ///     try JSONParser.parse(bytes, maxDepth: JSONParser.defaultMaxDepth)
    public static let defaultMaxDepth = 512

    /// The highest limit a caller can ask for: a value nested this deep is written by ``JSONWriter`` (which does not
    /// recurse) and freed (which does, in Swift's runtime) on a thread with a 512 KiB stack, with room to spare.
    ///
    ///     try JSONParser.parse(bytes, maxDepth: 1_000_000)  // throws beyond JSONParser.maximumDepth levels
    public static let maximumDepth = 1_000

    /// Parses a whole document holding exactly one value.
    ///
    ///     let value = try JSONParser.parse(Array("[1, 2.5, null]".utf8))
    ///
    /// - Throws: ``JSONError`` with the line and column of the first problem.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            let bom = utf8BOMLength(buffer)
            var scanner = JSONScanner(buffer: buffer, from: bom, to: buffer.count, maxDepth: maxDepth, bomLength: bom)
            return try scanner.parseDocument()
        }
    }

    /// Parses a whole document given as a string.
    ///
    ///     let value = try JSONParser.parse(#"{"a": true}"#)
    ///
    /// - Throws: ``JSONError`` with the line and column of the first problem.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}
