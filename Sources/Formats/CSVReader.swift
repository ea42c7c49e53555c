/// A strict RFC 4180 CSV reader over UTF-8 bytes that yields one record at a time.
///
/// The first row is the header; every later row must have as many fields. Fields may be quoted with `"`; a quoted
/// field may hold commas, doubled quotes (`""` for one `"`) and line breaks, which are kept as they are. Rows end in
/// LF or CRLF; the last row may end without one. A UTF-8 byte order mark at the start is skipped.
///
/// Decisions beyond RFC 4180:
/// - A completely empty line is skipped, not read as a record (write `""` for an empty one-column value).
/// - A carriage return outside quotes that is not followed by a line feed is an error (old Mac line endings are
///   refused rather than guessed at). Inside quotes it is kept as data.
/// - NUL bytes, invalid UTF-8, fields over ``CSVLimits/maxFieldBytes`` and rows over ``CSVLimits/maxColumns`` are
///   errors, as are empty or duplicate header names.
///
/// It reads a whole file held in memory; ``CSVStreamReader`` reads the same format a chunk at a time.
///
/// For example:
///
///     var reader = try CSVReader(bytes: fileBytes)
///     while let record = try reader.next() {
///         print(record.line, record["title"] ?? "")
///     }
public struct CSVReader: Sendable {
    /// The header row.
    public let header: CSVHeader
    /// The bounds applied while reading.
    public let limits: CSVLimits
    private let bytes: [UInt8]
    private var scanner: CSVScanner

    // MARK: - Creating a reader

    /// Creates a reader over the bytes of a whole file and reads its header row.
    ///
    ///     var reader = try CSVReader(bytes: Array("title,author\nDune,Frank Herbert\n".utf8))
    ///
    /// - Throws: ``CSVError`` when the header is missing or malformed.
    public init(bytes: [UInt8], limits: CSVLimits = CSVLimits()) throws {
        self.bytes = bytes
        self.limits = limits
        var scanner = CSVScanner(limits: limits)
        let row = try bytes.withUnsafeBufferPointer { buffer in
            scanner.start(in: buffer)
            return try scanner.nextRow(in: buffer, expecting: nil)
        }
        guard let row else {
            throw CSVError(line: scanner.line, field: 1, byteColumn: 1, reason: .missingHeader)
        }
        self.header = try CSVHeader(checking: row)
        self.scanner = scanner
    }

    /// Creates a reader over a copy of raw bytes, such as a memory-mapped or `read(2)` buffer.
    ///
    ///     var reader = try buffer.withUnsafeBytes { try CSVReader(buffer: $0) }
    public init(buffer: UnsafeRawBufferPointer, limits: CSVLimits = CSVLimits()) throws {
        try self.init(bytes: Array(buffer), limits: limits)
    }

    /// Creates a reader over the UTF-8 of a string; handy in tests.
    ///
    ///     var reader = try CSVReader(string: "a,b\n1,2\n")
    public init(string: String, limits: CSVLimits = CSVLimits()) throws {
        try self.init(bytes: Array(string.utf8), limits: limits)
    }

    // MARK: - Reading records

    /// Reads the next record, or returns nil at the end of the file.
    ///
    ///     while let record = try reader.next() { use(record) }
    ///
    /// - Throws: ``CSVError`` for malformed input; the reader should not be used after an error.
    public mutating func next() throws -> CSVRecord? {
        let expected = header.count
        let row = try bytes.withUnsafeBufferPointer { buffer in
            try scanner.nextRow(in: buffer, expecting: expected)
        }
        guard let row else { return nil }
        return CSVRecord(line: row.line, fields: row.fields, header: header)
    }

    /// Reads all remaining records into an array. Prefer ``next()`` for large files.
    ///
    ///     let records = try reader.readAll()
    public mutating func readAll() throws -> [CSVRecord] {
        var records: [CSVRecord] = []
        while let record = try next() {
            records.append(record)
        }
        return records
    }
}
