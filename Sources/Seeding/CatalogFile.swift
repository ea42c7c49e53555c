import Formats

/// How an input file is written.
///
/// For example:
///
///     CatalogFormat.detect(path: "books.jsonl", bytes: bytes)  // .jsonLines
public enum CatalogFormat: String, Sendable, Hashable, CaseIterable {
    /// Comma-separated values with a header row.
    case csv
    /// A JSON array of objects (or, when the content says so, JSON Lines).
    case json
    /// JSON Lines: one object per line.
    case jsonLines

    /// The format named by the file's extension (`.csv`, `.json`, `.jsonl`, `.ndjson`, any case), else the one its
    /// content looks like: `[` or `{` first (after a byte order mark and blanks) is JSON, anything else is CSV.
    ///
    ///     CatalogFormat.detect(path: "export.txt", bytes: Array("[{}]".utf8))  // .json
    public static func detect(path: String, bytes: [UInt8]) -> CatalogFormat {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            switch name[name.index(after: dot)...].lowercased() {
            case "csv": return .csv
            case "json": return .json
            case "jsonl", "ndjson": return .jsonLines
            default: break
            }
        }
        switch JSONLayout.detect(bytes) {
        case .array: return .json
        case .lines: return .jsonLines
        case nil: return .csv
        }
    }
}

/// What an input file lists.
///
///     if file.kind == .clients { ... }
public enum CatalogKind: String, Sendable, Hashable {
    /// Books (the default).
    case books
    /// Clients: the header or keys include a card number.
    case clients
}

/// One input file read and fully validated: its books or its clients, with the line each came from.
///
/// Reading checks every row before anything is written, so a file with one bad row imports nothing.
///
/// For example:
///
///     let file = try CatalogFile.read(path: "seed/books.csv")
///     print(file.kind, file.books.count)  // books 49
public struct CatalogFile: Sendable, Hashable {
    /// The file's name as given (used in messages and reports).
    public var name: String
    /// Whether it lists books or clients.
    public var kind: CatalogKind
    /// The books, in file order (empty for a clients file).
    public var books: [BookRecord]
    /// The clients, in file order (empty for a books file).
    public var clients: [ClientRecord]
    /// The 1-based line each record (book or client) starts on.
    public var lines: [Int]
    /// Values that were unusable but not worth refusing the file for, such as an ISBN a spreadsheet mangled: the
    /// book goes in without it, and the import reports the warning.
    public var warnings: [String] = []
    /// For each warning, the index of the record it was found with (`CatalogSource.readAll` fills it): a warning
    /// comes before its record's repeat warning, so an import reports them by line. Missing ones count as 0.
    var warningRecords: [Int] = []
    /// The CSV column of a clients file that marks the default client (its 1-based number and header name), so that
    /// a second default is reported at its column as every other bad value is; nil for JSON and books files.
    public var defaultColumn: Column?
    /// JSON: the key each client marked default was marked with, as written (`isDefault`), by the client's index, so
    /// that a second default is reported by the key the file uses.
    var defaultKeys: [Int: String] = [:]

    /// A CSV column: its 1-based number and its name in the header.
    ///
    ///     CatalogFile.Column(number: 3, name: "default")
    public struct Column: Sendable, Hashable {
        /// The 1-based column.
        public var number: Int
        /// The header's name for it.
        public var name: String

        /// Creates a column.
        ///
        ///     CatalogFile.Column(number: 3, name: "Default")
        public init(number: Int, name: String) {
            self.number = number
            self.name = name
        }
    }

    /// Creates a file value directly (handy for tests and generated data).
    ///
    ///     CatalogFile(name: "demo", books: [BookRecord(title: "Dune")])
    public init(
        name: String, kind: CatalogKind = .books, books: [BookRecord] = [], clients: [ClientRecord] = [],
        lines: [Int]? = nil
    ) {
        self.name = name
        self.kind = kind
        self.books = books
        self.clients = clients
        self.lines = lines ?? Array(2..<(2 + books.count + clients.count))
    }

    /// How many records the file holds.
    ///
    ///     file.count  // 49
    public var count: Int { books.count + clients.count }

    /// Reads and validates the file at `path`. The format comes from the extension or the content; the kind
    /// (books or clients) from the header or keys unless `expecting` insists on one. The whole file ends up in
    /// memory: `CatalogSource` reads one record at a time.
    ///
    /// Throws `InputFileError` when the file cannot be read and `DataError` for anything wrong inside it.
    ///
    ///     let clients = try CatalogFile.read(path: "clients.csv", expecting: .clients)
    public static func read(path: String, expecting kind: CatalogKind? = nil) throws -> CatalogFile {
        try CatalogSource.open(path: path, expecting: kind).readAll()
    }

    /// Parses and validates a file's bytes; `name` is used in error messages.
    ///
    ///     let file = try CatalogFile.parse(Array("title\nDune\n".utf8), name: "books.csv", format: .csv)
    public static func parse(
        _ bytes: [UInt8], name: String, format: CatalogFormat, expecting kind: CatalogKind? = nil
    ) throws(DataError) -> CatalogFile {
        do {
            return try CatalogSource(bytes: bytes, name: name, format: format, expecting: kind).readAll()
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError(file: name, reason: "\(error)")
        }
    }
}
