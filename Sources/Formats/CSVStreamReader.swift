/// A CSV reader that streams: it reads its input a chunk at a time (256 KiB by default) and yields one record at a
/// time, so a file of any length is read in memory bounded by the chunk size and the longest record (each field is
/// at most ``CSVLimits/maxFieldBytes``).
///
/// It follows exactly the rules of ``CSVReader`` (the two share one scanner), and gives the same records and the
/// same errors, with the same line, field and column, wherever the chunks happen to end: inside a quoted field,
/// between the CR and LF of a line end, inside the byte order mark.
///
/// For example, over a file descriptor:
///
///     var reader = try CSVStreamReader { buffer in
///         let count = read(descriptor, buffer.baseAddress, buffer.count)
///         if count < 0 { throw ReadError(errno) }
///         return count
///     }
///     while let record = try reader.next() {
///         print(record.line, record["title"] ?? "")
///     }
public struct CSVStreamReader {
    /// The header row.
    public let header: CSVHeader
    /// The bounds applied while reading.
    public let limits: CSVLimits
    /// The default size of one read: 256 KiB.
    public static let defaultChunkSize = 1 << 18
    private var input: ChunkedInput
    private var scanner: CSVScanner

    /// Creates a reader that reads from `source` and reads the header row.
    ///
    ///     var reader = try CSVStreamReader(source: byteSource(over: Array("title\nDune\n".utf8)))
    ///
    /// - Throws: ``CSVError`` when the header is missing or malformed, or whatever `source` throws.
    public init(
        chunkSize: Int = CSVStreamReader.defaultChunkSize, limits: CSVLimits = CSVLimits(),
        source: @escaping ByteSource
    ) throws {
        self.limits = limits
        var input = ChunkedInput(chunkSize: chunkSize, source: source)
        // The byte order mark is looked for in the first three bytes, however small the chunks are.
        while input.filled < 3 && !input.isAtEnd { try input.refill(keepingFrom: 0) }
        var scanner = CSVScanner(limits: limits)
        input.withBuffer { scanner.start(in: $0) }
        guard let row = try Self.nextRow(&scanner, &input, expecting: nil) else {
            throw CSVError(line: scanner.line, field: 1, byteColumn: 1, reason: .missingHeader)
        }
        self.header = try CSVHeader(checking: row)
        self.input = input
        self.scanner = scanner
    }

    /// How many bytes were read from the source so far.
    ///
    ///     reader.bytesRead  // 1048576
    public var bytesRead: Int { input.bytesRead }

    /// Makes strings only of the fields of `columns` (0-based header positions) from the next record on: the fields
    /// of the other columns are still read and checked (quotes, UTF-8, NUL bytes, their size, the field count), so
    /// the same files are refused with the same errors, but they come back empty. For a file of many columns of
    /// which a reader needs a few: making a string of every field was a sixth of importing goodbooks-10k.
    ///
    ///     reader.decodeOnly(columns: [0, 3])  // record.fields[1] == "" from now on
    public mutating func decodeOnly(columns: some Sequence<Int>) {
        var decoded = [Bool](repeating: false, count: header.count)
        for column in columns where decoded.indices.contains(column) { decoded[column] = true }
        scanner.decoded = decoded
    }

    /// Reads the next record, or returns nil at the end of the input.
    ///
    ///     while let record = try reader.next() { use(record) }
    ///
    /// - Throws: ``CSVError`` for malformed input, or whatever the source throws; the reader should not be used
    ///   after an error.
    public mutating func next() throws -> CSVRecord? {
        guard let row = try Self.nextRow(&scanner, &input, expecting: header.count) else { return nil }
        return CSVRecord(line: row.line, fields: row.fields, header: header)
    }

    /// Counts the records (rows after the header, blank lines left out) of the CSV that `source` gives, cheaply: one
    /// pass over the bytes that follows quotes and makes no strings. It checks nothing, so for a malformed file the
    /// count is only an estimate; a progress bar's total is what it is for.
    ///
    ///     let total = try CSVStreamReader.countRecords(source: byteSource(over: bytes))
    public static func countRecords(chunkSize: Int = defaultChunkSize, source: ByteSource) throws -> Int {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var lines = 0
        var inQuotes = false
        var hasContent = false
        while true {
            let count = try chunk.withUnsafeMutableBytes { try source($0) }
            if count == 0 { break }
            for byte in chunk[0..<count] {
                if inQuotes {
                    if byte == 0x22 { inQuotes = false }
                } else if byte == 0x0A {
                    if hasContent { lines += 1 }
                    hasContent = false
                } else if byte != 0x0D {
                    hasContent = true
                    if byte == 0x22 { inQuotes = true }
                }
            }
        }
        if hasContent || inQuotes { lines += 1 }
        return max(0, lines - 1)
    }

    // MARK: - Private

    private static func nextRow(_ scanner: inout CSVScanner, _ input: inout ChunkedInput, expecting: Int?) throws
        -> CSVScanner.Row?
    {
        while true {
            let isFinal = input.isAtEnd
            let step = try input.withBuffer { buffer in
                try scanner.step(in: buffer, expecting: expecting, isFinal: isFinal)
            }
            switch step {
            case .row(let row): return row
            case .end: return nil
            case .needMore:
                scanner.position -= try input.refill(keepingFrom: scanner.position)
            }
        }
    }
}

extension CSVHeader {
    /// The header of a file from its first row: names must be distinct. An empty name (a spreadsheet's trailing
    /// comma) is allowed, as often as it comes: no name finds its column, so its values are left unread.
    init(checking row: CSVScanner.Row) throws {
        var seen = Set<String>()
        for (index, name) in row.fields.enumerated() where !name.isEmpty && !seen.insert(name).inserted {
            throw CSVError(line: row.line, field: index + 1, byteColumn: 1, reason: .duplicateHeaderName(name))
        }
        self.init(names: row.fields)
    }
}
