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
    /// (books or clients) from the header or keys unless `expecting` insists on one.
    ///
    /// Throws `InputFileError` when the file cannot be read and `DataError` for anything wrong inside it.
    ///
    ///     let clients = try CatalogFile.read(path: "clients.csv", expecting: .clients)
    public static func read(path: String, expecting kind: CatalogKind? = nil) throws -> CatalogFile {
        let bytes = try InputFile.read(path: path)
        return try parse(bytes, name: path, format: CatalogFormat.detect(path: path, bytes: bytes), expecting: kind)
    }

    /// Parses and validates a file's bytes; `name` is used in error messages.
    ///
    ///     let file = try CatalogFile.parse(Array("title\nDune\n".utf8), name: "books.csv", format: .csv)
    public static func parse(
        _ bytes: [UInt8], name: String, format: CatalogFormat, expecting kind: CatalogKind? = nil
    ) throws(DataError) -> CatalogFile {
        switch format {
        case .csv: return try parseCSV(bytes, name: name, expecting: kind)
        case .json, .jsonLines: return try parseJSON(bytes, name: name, lines: format == .jsonLines, expecting: kind)
        }
    }

    // MARK: - CSV

    private static func warning(_ problem: CatalogColumns.Problem, name: String, line: Int, json: Bool = false)
        -> String
    {
        let field = problem.columnName ?? "?"
        let place = json ? "key \"\(field)\"" : "column \(problem.column ?? 0) (\(field))"
        return "\(name): line \(line), \(place): \(problem.reason); imported without it"
    }

    private static func parseCSV(_ bytes: [UInt8], name: String, expecting: CatalogKind?) throws(DataError)
        -> CatalogFile
    {
        var header: [String] = []
        do {
            var reader = try CSVReader(bytes: bytes)
            header = reader.header.names
            let kind = try decideKind(header: header, expecting: expecting, name: name, line: 1)
            var file = CatalogFile(name: name, kind: kind, lines: [])
            switch kind {
            case .books:
                let columns = try headerColumns(name: name) {
                    try CatalogColumns(header: header)
                }
                while let record = try reader.next() {
                    let line = record.line
                    file.books.append(
                        try row(line, name: name) {
                            try columns.record(from: record.fields) { problem in
                                file.warnings.append(Self.warning(problem, name: name, line: line))
                            }
                        })
                    file.lines.append(line)
                }
            case .clients:
                let columns = try headerColumns(name: name) {
                    try ClientColumns(header: header)
                }
                while let record = try reader.next() {
                    file.clients.append(try row(record.line, name: name) { try columns.record(from: record.fields) })
                    file.lines.append(record.line)
                }
            }
            return file
        } catch let error as DataError {
            throw error
        } catch let error as CSVError {
            let field = error.field >= 1 && error.field <= header.count ? header[error.field - 1] : nil
            throw DataError(
                file: name, line: error.line, column: error.field, field: field, reason: error.reason.description)
        } catch {
            throw DataError(file: name, reason: "\(error)")
        }
    }

    private static func headerColumns<Columns>(
        name: String, _ make: () throws -> Columns
    ) throws(DataError) -> Columns {
        do {
            return try make()
        } catch let error as CatalogColumns.Problem {
            throw DataError(file: name, line: 1, column: error.column, field: error.columnName, reason: error.reason)
        } catch {
            throw DataError(file: name, line: 1, reason: "\(error)")
        }
    }

    private static func row<Record>(
        _ line: Int, name: String, _ make: () throws -> Record
    ) throws(DataError) -> Record {
        do {
            return try make()
        } catch let error as CatalogColumns.Problem {
            throw DataError(file: name, line: line, column: error.column, field: error.columnName, reason: error.reason)
        } catch {
            throw DataError(file: name, line: line, reason: "\(error)")
        }
    }

    // MARK: - JSON

    private static func parseJSON(_ bytes: [UInt8], name: String, lines: Bool, expecting: CatalogKind?)
        throws(DataError) -> CatalogFile
    {
        var records: [JSONRecord] = []
        do {
            if lines && JSONLayout.detect(bytes) != .array {
                var reader = JSONLinesReader(bytes: bytes)
                while let line = try reader.next() {
                    guard case .object(let object) = line.value else {
                        throw DataError(
                            file: name, line: line.line,
                            reason: "expected an object, found \(line.value.kindName)")
                    }
                    records.append(JSONRecord(line: line.line, object: object))
                }
            } else {
                records = try JSONRecords.read(bytes)
            }
        } catch let error as DataError {
            throw error
        } catch let error as JSONError {
            throw DataError(file: name, line: error.line, reason: "\(error.reason) (byte \(error.column))")
        } catch {
            throw DataError(file: name, reason: "\(error)")
        }
        let kind = try decideKind(
            header: records.first?.object.keys ?? [], expecting: expecting, name: name, line: records.first?.line ?? 1)
        var file = CatalogFile(name: name, kind: kind, lines: [])
        for record in records {
            let (header, fields) = try JSONFields.flatten(record, kind: kind, name: name)
            switch kind {
            case .books:
                let columns = try jsonColumns(record.line, name: name) {
                    try CatalogColumns(header: header)
                }
                let line = record.line
                file.books.append(
                    try jsonRow(line, name: name) {
                        try columns.record(from: fields) { problem in
                            file.warnings.append(Self.warning(problem, name: name, line: line, json: true))
                        }
                    })
            case .clients:
                let columns = try jsonColumns(record.line, name: name) {
                    try ClientColumns(header: header)
                }
                file.clients.append(try jsonRow(record.line, name: name) { try columns.record(from: fields) })
            }
            file.lines.append(record.line)
        }
        return file
    }

    private static func jsonColumns<Columns>(
        _ line: Int, name: String, _ make: () throws -> Columns
    ) throws(DataError) -> Columns {
        do {
            return try make()
        } catch let error as CatalogColumns.Problem {
            let reason = error.reason.replacing(" column: the header needs", with: " key: each object needs")
            throw DataError(file: name, line: line, reason: reason)
        } catch {
            throw DataError(file: name, line: line, reason: "\(error)")
        }
    }

    private static func jsonRow<Record>(
        _ line: Int, name: String, _ make: () throws -> Record
    ) throws(DataError) -> Record {
        do {
            return try make()
        } catch let error as CatalogColumns.Problem {
            throw DataError(file: name, line: line, field: error.columnName, reason: error.reason)
        } catch {
            throw DataError(file: name, line: line, reason: "\(error)")
        }
    }

    // MARK: - Kind

    private static func decideKind(header: [String], expecting: CatalogKind?, name: String, line: Int)
        throws(DataError) -> CatalogKind
    {
        let found: CatalogKind = ClientColumns.describesClients(header) ? .clients : .books
        if expecting == .books && found == .clients {
            throw DataError(
                file: name, line: line,
                reason: "this looks like a clients file (it has a card number), but books were expected")
        }
        return expecting ?? found
    }
}
