import Formats
import Library

/// The format of an export.
///
///     ExportFormat(rawValue: "json")  // .json
public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// CSV with the header `title,author,year,pages,isbn,description,status`, quoted as RFC 4180 says.
    case csv
    /// A JSON array with one object per line, keys as in the CSV header.
    case json
}

/// Writes the catalog as CSV or JSON, streamed in id order a chunk at a time, so a million books never sit in
/// memory at once. What it writes imports back into an empty library as the same catalog.
///
/// For example:
///
///     let count = try CatalogExport.export(from: store, format: .csv, toFile: "catalog.csv")
///     try CatalogExport.export(from: store, format: .json, toFileDescriptor: STDOUT_FILENO)
public enum CatalogExport {
    /// The exported fields, in order.
    ///
    ///     CatalogExport.fields.joined(separator: ",")  // "title,author,year,pages,isbn,description,status"
    public static let fields = ["title", "author", "year", "pages", "isbn", "description", "status"]

    /// Exports to a file: written to a temporary file in the same directory and renamed over `path` at the end,
    /// so a failed export leaves nothing half-written. A symbolic link is written through (its target replaced);
    /// a directory, FIFO, socket or device is refused; an existing file keeps its mode, owner and group.
    /// Returns the number of books. Throws `OutputFileError`.
    ///
    ///     let count = try CatalogExport.export(from: store, format: .json, toFile: "catalog.json")
    @discardableResult
    public static func export(from store: LibraryStore, format: ExportFormat, toFile path: String) throws -> Int {
        try OutputFile.replacing(path) { descriptor in
            try export(from: store, format: format) { bytes throws(OutputFileError) in
                try OutputFile.write(bytes, to: descriptor, name: path)
            }
        }
    }

    /// Exports to an open descriptor, such as standard output. Returns the number of books.
    ///
    ///     try CatalogExport.export(from: store, format: .csv, toFileDescriptor: 1)
    @discardableResult
    public static func export(
        from store: LibraryStore, format: ExportFormat, toFileDescriptor descriptor: Int32,
        name: String = "standard output"
    ) throws -> Int {
        try export(from: store, format: format) { bytes throws(OutputFileError) in
            try OutputFile.write(bytes, to: descriptor, name: name)
        }
    }

    /// Exports through `write`, which receives the output in pieces of about `bufferSize` bytes, in order.
    /// Books are read in one snapshot, `chunkSize` rows per query (keyset paging on the id). Returns the count.
    ///
    ///     var output: [UInt8] = []
    ///     try CatalogExport.export(from: store, format: .csv) { output += $0 }
    @discardableResult
    public static func export(
        from store: LibraryStore, format: ExportFormat, chunkSize: Int = 1000, bufferSize: Int = 1 << 16,
        write: ([UInt8]) throws -> Void
    ) throws -> Int {
        precondition(chunkSize > 0 && bufferSize > 0, "chunk and buffer sizes must be positive")
        var buffer: [UInt8] = []
        buffer.reserveCapacity(bufferSize + 4096)
        var count = 0
        switch format {
        case .csv: appendCSVRow(fields, to: &buffer)
        case .json: buffer.append(UInt8(ascii: "["))
        }
        try store.forEachBook(chunkSize: chunkSize) { book in
            switch format {
            case .csv: appendCSV(book, to: &buffer)
            case .json: appendJSON(book, first: count == 0, to: &buffer)
            }
            count += 1
            if buffer.count >= bufferSize {
                try write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if format == .json { buffer.append(contentsOf: Array((count == 0 ? "]\n" : "\n]\n").utf8)) }
        if !buffer.isEmpty { try write(buffer) }
        return count
    }

    // MARK: - Private

    private static func appendCSV(_ book: Book, to buffer: inout [UInt8]) {
        appendCSVRow(
            [
                book.title, book.author, book.year.map(String.init) ?? "", book.pages.map(String.init) ?? "",
                book.isbn ?? "", book.description, book.status.rawValue,
            ], to: &buffer)
    }

    /// One CSV row: a field is quoted (its quotes doubled) when it holds a comma, quote, line break or
    /// surrounding space.
    private static func appendCSVRow(_ values: [String], to buffer: inout [UInt8]) {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            let utf8 = value.utf8
            let needsQuotes =
                utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
                || utf8.first == 0x20 || utf8.last == 0x20 || utf8.first == 0x09 || utf8.last == 0x09
            if needsQuotes {
                buffer.append(0x22)
                for byte in utf8 {
                    buffer.append(byte)
                    if byte == 0x22 { buffer.append(0x22) }
                }
                buffer.append(0x22)
            } else {
                buffer.append(contentsOf: utf8)
            }
        }
        buffer.append(0x0A)
    }

    private static func appendJSON(_ book: Book, first: Bool, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: Array((first ? "\n" : ",\n").utf8))
        var object = JSONObject()
        object["title"] = .string(book.title)
        object["author"] = .string(book.author)
        object["year"] = book.year.map { .int($0) } ?? .null
        object["pages"] = book.pages.map { .int($0) } ?? .null
        object["isbn"] = book.isbn.map { .string($0) } ?? .null
        object["description"] = .string(book.description)
        object["status"] = .string(book.status.rawValue)
        JSONWriter.write(.object(object), to: &buffer)
    }
}
