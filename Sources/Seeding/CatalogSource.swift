import Formats

/// One record of an input file: a book or a client, with the 1-based line it starts on.
///
///     if case .book(let book) = entry.record { print(entry.line, book.title) }
public struct CatalogEntry: Hashable, Sendable {
    /// A book or a client.
    public enum Record: Hashable, Sendable {
        /// A row of a books file.
        case book(BookRecord)
        /// A row of a clients file.
        case client(ClientRecord)
    }

    /// The 1-based line the record starts on.
    public var line: Int
    /// The record, validated.
    public var record: Record
}

/// An input file opened for streaming: its format and kind (books or clients) are known from its start, and its
/// records are read and validated one at a time, so a file of any length is read in bounded memory.
///
/// CSV and JSON Lines are read 256 KiB at a time (memory grows only with the longest row or line); a JSON array is
/// read and parsed whole when the source is opened (up to `InputFile.defaultLimit`). `restart()` reads the file
/// again from the start. A source is a reader with a position: use it from one place at a time.
///
/// For example:
///
///     let source = try CatalogSource.open(path: "books.csv")
///     while let entry = try source.next(warn: { print("warning:", $0) }) {
///         if case .book(let book) = entry.record { print(entry.line, book.title) }
///     }
public final class CatalogSource {
    /// The file's name as given (used in messages and reports).
    public let name: String
    /// How the file is written.
    public let format: CatalogFormat
    /// Whether it lists books or clients.
    public let kind: CatalogKind

    private let input: Input
    private var rows: Rows
    /// Warnings about the CSV header (a column nothing is read from), given with the first record.
    private var headerWarnings: [String]
    /// The JSON keys (as matched) already warned of as not used: one warning each per file.
    private var unusedKeysWarned: Set<String> = []
    /// The keys of the last JSON record looked at for unused keys: the records of a file mostly share theirs, and
    /// the next with the same keys needs no look (this runs for every record of an import).
    private var keysLookedAt: [String] = []
    /// JSON: the key, as written, that gave the last client read its `default` flag (`isDefault`, `default`, ...);
    /// nil when it had none, and for CSV.
    private var defaultKey: String?

    /// Where the bytes come from.
    private enum Input {
        case file(OpenInputFile)
        case memory([UInt8])
    }

    /// The reader at work and the columns it needs.
    private enum Rows {
        case csvBooks(CSVStreamReader, CatalogColumns)
        case csvClients(CSVStreamReader, ClientColumns)
        /// JSON Lines, with the first record read ahead (it gave the kind).
        case jsonLines(JSONLinesStreamReader, ahead: JSONRecord?)
        /// A JSON document read whole: its records and the index of the next one.
        case records([JSONRecord], next: Int)
        /// Held while a reader is out being read (`next()` puts it back): a reader left in `rows` as well would share
        /// its window, and the reader's next refill would copy the whole window.
        case reading
    }

    // MARK: - Opening

    /// Opens the file at `path` and reads its start: the format comes from the extension or the content,
    /// the kind from the CSV header or the first JSON object's keys, unless `expecting` insists on one. A regular
    /// file is streamed; a pipe (`/dev/stdin` when piped, a shell's `<(...)`, a named pipe) is read whole first, up
    /// to `InputFile.defaultLimit`, since an import may read its input twice. `name` (the path unless given, such
    /// as `standard input`) names it in messages and reports.
    ///
    /// Throws `InputFileError` when the file cannot be read and `DataError` for a bad header (or, for a JSON
    /// array, anything wrong in the document's syntax).
    ///
    ///     let clients = try CatalogSource.open(path: "clients.csv", expecting: .clients)
    ///     let piped = try CatalogSource.open(path: "/dev/stdin", name: "standard input")
    public static func open(path: String, name: String? = nil, expecting kind: CatalogKind? = nil) throws
        -> CatalogSource
    {
        let name = name ?? path
        let file: OpenInputFile
        do {
            file = try OpenInputFile(path: path, acceptingPipes: true)
        } catch {
            throw InputFileError(path: name, reason: error.reason)
        }
        if file.isPipe {
            let bytes: [UInt8]
            do {
                bytes = try file.readAll()
            } catch {
                throw InputFileError(path: name, reason: error.reason)
            }
            guard !bytes.isEmpty else {
                throw InputFileError(
                    path: name, reason: .unreadable("it is a pipe that gave nothing (is anything writing to it?)"))
            }
            let format = CatalogFormat.detect(path: path, bytes: bytes)
            return try CatalogSource(bytes: bytes, name: name, format: format, expecting: kind)
        }
        // The first bytes tell the format when the extension does not.
        var start = [UInt8](repeating: 0, count: 1 << 16)
        let count = try start.withUnsafeMutableBytes { buffer throws(InputFileError) in try file.read(into: buffer) }
        start.removeLast(start.count - count)
        try checkEncoding(start, name: name)
        let format = CatalogFormat.detect(path: path, bytes: start)
        return try CatalogSource(input: .file(file), name: name, format: format, expecting: kind)
    }

    /// A source over bytes already in memory; `name` is used in messages.
    ///
    ///     let source = try CatalogSource(bytes: Array("title\nDune\n".utf8), name: "books.csv", format: .csv)
    public convenience init(
        bytes: [UInt8], name: String, format: CatalogFormat, expecting kind: CatalogKind? = nil
    ) throws {
        try Self.checkEncoding(bytes, name: name)
        try self.init(input: .memory(bytes), name: name, format: format, expecting: kind)
    }

    private init(input: Input, name: String, format: CatalogFormat, expecting: CatalogKind?) throws {
        self.input = input
        self.name = name
        self.format = format
        let (rows, kind) = try Self.start(input, name: name, format: format, expecting: expecting)
        self.rows = rows
        self.kind = kind
        headerWarnings = Self.headerWarnings(rows, name: name)
    }

    // MARK: - Reading

    /// Reads and validates the next record, or returns nil at the end of the file. `warn` hears of values left out
    /// (such as an ISBN a spreadsheet mangled), as `name: line N, column C (isbn): ...; imported without it`, and
    /// of each column (or JSON key) nothing is read from, once, as `name: column C 'Autor' is not used; ...`.
    ///
    /// Throws `DataError` for bad data (naming the line) and `InputFileError` when the file cannot be read.
    ///
    ///     while let entry = try source.next() { print(entry.line) }
    public func next(warn: (String) -> Void = { _ in }) throws -> CatalogEntry? {
        for warning in headerWarnings { warn(warning) }
        headerWarnings = []
        switch rows {
        case .csvBooks(var reader, let columns):
            rows = .reading
            defer { rows = .csvBooks(reader, columns) }
            guard let record = try csv({ try reader.next() }, header: columns.header) else { return nil }
            let line = record.line
            let book = try Self.row(line, name: name) {
                try columns.record(from: record.fields) { problem in
                    warn(Self.warning(problem, name: name, line: line))
                }
            }
            return CatalogEntry(line: line, record: .book(book))
        case .csvClients(var reader, let columns):
            rows = .reading
            defer { rows = .csvClients(reader, columns) }
            guard let record = try csv({ try reader.next() }, header: columns.header) else { return nil }
            let client = try Self.row(record.line, name: name) { try columns.record(from: record.fields) }
            return CatalogEntry(line: record.line, record: .client(client))
        case .jsonLines(var reader, var ahead):
            rows = .reading
            defer { rows = .jsonLines(reader, ahead: ahead) }
            let next = try ahead ?? Self.jsonLine(&reader, name: name)
            ahead = nil
            guard let next else { return nil }
            warnOfUnusedKeys(next, warn: warn)
            return try Self.entry(next, kind: kind, name: name, defaultKey: &defaultKey, warn: warn)
        case .records(let records, let index):
            guard index < records.count else { return nil }
            rows = .records(records, next: index + 1)
            warnOfUnusedKeys(records[index], warn: warn)
            do {
                return try Self.entry(records[index], kind: kind, name: name, defaultKey: &defaultKey, warn: warn)
            } catch {
                // An object over several lines (a pretty-printed array): the bad value's own line, found again.
                var moved = error
                if let key = error.field, error.column == nil, let bytes = try? Self.readWhole(input),
                    let line = Self.memberLine(key: key, objectLine: records[index].line, in: bytes)
                {
                    moved.line = line
                }
                throw moved
            }
        case .reading:
            return nil
        }
    }

    /// Goes back to the first record (a write transaction that runs again reads its files again).
    ///
    ///     try source.restart()
    public func restart() throws {
        unusedKeysWarned = []
        keysLookedAt = []
        if case .records(let records, _) = rows {
            rows = .records(records, next: 0)
            return
        }
        rows = try Self.start(input, name: name, format: format, expecting: kind).rows
        headerWarnings = Self.headerWarnings(rows, name: name)
    }

    /// Reads every remaining record into a `CatalogFile` (its warnings included).
    ///
    ///     let clients = try CatalogSource.open(path: "clients.csv").readAll()
    public func readAll() throws -> CatalogFile {
        var file = CatalogFile(name: name, kind: kind, lines: [])
        if case .csvClients(_, let columns) = rows, let column = columns.isDefault {
            file.defaultColumn = CatalogFile.Column(number: column + 1, name: columns.header[column])
        }
        var warnings: [String] = []
        var warningRecords: [Int] = []
        while let entry = try next(warn: {
            warnings.append($0)
            warningRecords.append(file.lines.count)
        }) {
            switch entry.record {
            case .book(let book): file.books.append(book)
            case .client(let client):
                if client.isDefault, let defaultKey { file.defaultKeys[file.clients.count] = defaultKey }
                file.clients.append(client)
            }
            file.lines.append(entry.line)
        }
        file.warnings = warnings
        file.warningRecords = warningRecords
        return file
    }

    /// Counts the records in a cheap pass over the whole file that parses nothing (CSV: rows outside quotes;
    /// JSON Lines: non-blank lines), for a progress bar's total; then starts again from the first record. For a
    /// malformed file the count is an estimate.
    ///
    ///     let total = try source.countRecords()
    public func countRecords() throws -> Int {
        if case .records(let records, _) = rows { return records.count }
        let source = try Self.byteSource(input)
        let count =
            switch rows {
            case .jsonLines: try JSONLinesStreamReader.countLines(source: source)
            default: try CSVStreamReader.countRecords(source: source)
            }
        try restart()
        return count
    }

    // MARK: - Private

    /// Refuses, by its first bytes, a file that is not UTF-8 text at all, saying what it is: UTF-16 (Excel's
    /// "Unicode Text", with or without a byte order mark), gzip, or a ZIP archive (an `.xlsx` workbook).
    private static func checkEncoding(_ start: [UInt8], name: String) throws(DataError) {
        func starts(with prefix: [UInt8]) -> Bool { start.starts(with: prefix) }
        let reason: String
        // Without a byte order mark, ASCII text in UTF-16 has a zero byte beside every other one.
        let zeros = start.prefix(4).map { $0 == 0 }
        if starts(with: [0xFF, 0xFE]) || starts(with: [0xFE, 0xFF]) || zeros == [false, true, false, true]
            || zeros == [true, false, true, false]
        {
            reason = "the file is UTF-16 encoded; save it as UTF-8"
        } else if starts(with: [0x1F, 0x8B]) {
            reason = "the file is gzip-compressed; decompress it first (gunzip)"
        } else if starts(with: Array("PK\u{03}\u{04}".utf8)) {
            reason = "the file is a ZIP archive (an Excel workbook?); save it as CSV UTF-8 or decompress it first"
        } else {
            return
        }
        throw DataError(file: name, reason: reason)
    }

    /// The aliases of the facts a file of `kind` has.
    private static func aliases(_ kind: CatalogKind) -> [(fact: String, names: [String])] {
        kind == .books ? CatalogColumns.aliases : ClientColumns.aliases
    }

    /// One warning naming the columns of a CSV header that nothing is read from, if any.
    private static func headerWarnings(_ rows: Rows, name: String) -> [String] {
        let (header, kind): ([String], CatalogKind)
        switch rows {
        case .csvBooks(_, let columns): (header, kind) = (columns.header, .books)
        case .csvClients(_, let columns): (header, kind) = (columns.header, .clients)
        default: return []
        }
        let unused = CatalogColumns.unusedColumns(header, aliases: aliases(kind))
        guard !unused.isEmpty else { return [] }
        return ["\(name): " + CatalogColumns.unusedColumnsReason(header, columns: unused, aliases: aliases(kind))]
    }

    /// Warns once per file of each key of a JSON record that nothing is read from.
    private func warnOfUnusedKeys(_ record: JSONRecord, warn: (String) -> Void) {
        let keys = record.object.keys
        guard keys != keysLookedAt else { return }
        keysLookedAt = keys
        for index in CatalogColumns.unusedColumns(keys, aliases: Self.aliases(kind)) {
            guard unusedKeysWarned.insert(CatalogColumns.normalizedName(keys[index])).inserted else { continue }
            warn(
                "\(name): line \(record.line), key "
                    + CatalogColumns.unusedReason(keys[index], aliases: Self.aliases(kind), word: "keys"))
        }
    }

    /// The bytes from the start of the input.
    private static func byteSource(_ input: Input) throws -> ByteSource {
        switch input {
        case .memory(let bytes):
            return Formats.byteSource(over: bytes)
        case .file(let file):
            try file.rewind()
            return { buffer in try file.read(into: buffer) }
        }
    }

    /// Reads the start of the input: the CSV header or the first JSON record, and with it the kind.
    private static func start(_ input: Input, name: String, format: CatalogFormat, expecting: CatalogKind?)
        throws -> (rows: Rows, kind: CatalogKind)
    {
        let source = try byteSource(input)
        switch format {
        case .csv:
            var reader: CSVStreamReader
            do {
                reader = try CSVStreamReader(source: source)
            } catch let error as CSVError {
                throw DataError(file: name, line: error.line, column: error.field, reason: error.reason.description)
            }
            let header = reader.header.names
            let kind = try decideKind(header: header, expecting: expecting, name: name, line: 1)
            switch kind {
            case .books:
                let columns = try headerColumns(name: name, header: header) { try CatalogColumns(header: header) }
                reader.decodeOnly(columns: columns.usedColumns)
                return (.csvBooks(reader, columns), kind)
            case .clients:
                let columns = try headerColumns(name: name, header: header) { try ClientColumns(header: header) }
                return (.csvClients(reader, columns), kind)
            }
        case .json, .jsonLines:
            var layout: JSONLayout?
            var whole: [UInt8]?
            switch input {
            case .memory(let bytes):
                layout = JSONLayout.detect(bytes)
            case .file(let file):
                let prefix = 1 << 16
                var start = [UInt8](repeating: 0, count: prefix)
                let count = try start.withUnsafeMutableBytes { buffer throws(InputFileError) in
                    try file.read(into: buffer)
                }
                start.removeLast(prefix - count)
                layout = JSONLayout.detect(start)
                if layout == nil && count == prefix {
                    // Blanks all through the first bytes leave the layout open: the whole file settles it.
                    try file.rewind()
                    whole = try file.readAll()
                    layout = JSONLayout.detect(whole ?? [])
                }
                try file.rewind()
            }
            // As a whole file is read: JSON Lines by name (unless it is an array) or by content stream; an array,
            // or a `.json` file that is neither, is read whole.
            let streams = (format == .jsonLines && layout != .array) || (format == .json && layout == .lines)
            if streams {
                var reader = JSONLinesStreamReader(source: try byteSource(input))
                let first: JSONRecord?
                do {
                    first = try jsonLine(&reader, name: name)
                } catch let error as DataError {
                    // A first line that is no whole object may be the start of one object over several lines.
                    throw wholeObjectProblem(whole ?? (try? readWhole(input)) ?? [], name: name) ?? error
                }
                if let first, let problem = wrappedRecordsProblem(first.object, line: first.line, name: name) {
                    throw problem  // `--json books` output made compact (`jq -c .`): one line, one object
                }
                let kind = try decideKind(
                    header: first?.object.keys ?? [], expecting: expecting, name: name, line: first?.line ?? 1)
                return (.jsonLines(reader, ahead: first), kind)
            }
            if whole == nil {
                switch input {
                case .memory(let bytes): whole = bytes
                case .file(let file): whole = try file.readAll()
                }
            }
            let records = try jsonRecords(whole ?? [], name: name)
            let kind = try decideKind(
                header: records.first?.object.keys ?? [], expecting: expecting, name: name,
                line: records.first?.line ?? 1)
            return (.records(records, next: 0), kind)
        }
    }

    /// The line on which the value of the member `key` of the JSON object starting on `objectLine` starts, found by
    /// walking the object's bytes (strings skipped, nesting counted); nil when the key is not found as written (a key
    /// written with escapes).
    ///
    ///     CatalogSource.memberLine(key: "year", objectLine: 2, in: Array("[\n{\"a\": 1,\n\"year\": 0}]".utf8))  // 3
    static func memberLine(key: String, objectLine: Int, in bytes: [UInt8]) -> Int? {
        var line = 1
        var index = 0
        while line < objectLine, index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "{") { index += 1 }
        let wanted = Array(key.utf8)
        var depth = 0
        var expectingKey = false
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                let text = bytes[start..<min(index, bytes.count)]
                index += 1
                guard depth == 1, expectingKey else { continue }
                expectingKey = false
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                skipSpace()
                if text.elementsEqual(wanted) { return line }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth == 1 { expectingKey = byte == UInt8(ascii: "{") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 0 { return nil }
            case UInt8(ascii: ","):
                if depth == 1 { expectingKey = true }
            case UInt8(ascii: "\n"):
                line += 1
            default:
                break
            }
        }
        return nil
    }

    /// The whole input, for a second look after an error.
    private static func readWhole(_ input: Input) throws -> [UInt8] {
        switch input {
        case .memory(let bytes): return bytes
        case .file(let file):
            try file.rewind()
            return try file.readAll()
        }
    }

    /// When the document is one JSON object (pretty-printed over several lines, or librarycli's own `--json books`
    /// output, whose books are in a member), the error saying so; nil when it is not.
    private static func wholeObjectProblem(_ bytes: [UInt8], name: String) -> DataError? {
        guard case .object(let object)? = try? JSONParser.parse(bytes) else { return nil }
        let line = 1 + (bytes.firstIndex(of: UInt8(ascii: "{")).map { bytes[..<$0].count(where: { $0 == 0x0A }) } ?? 0)
        return wrappedRecordsProblem(object, line: line, name: name)
            ?? DataError(
                file: name, line: line,
                reason: "\(JSONError.Reason.unknownLayout.description); this is one object over several lines: put "
                    + "each object on one line, or the objects in [ ]")
    }

    /// When `object` holds the records in a member (librarycli's own `--json books` or `--json clients` output, on
    /// one line or several) and none of the names a book or a client is read by, the error saying so; else nil.
    private static func wrappedRecordsProblem(_ object: JSONObject, line: Int, name: String) -> DataError? {
        let known = Set(CatalogColumns.aliases.flatMap(\.names) + ClientColumns.aliases.flatMap(\.names))
        guard !object.keys.contains(where: { known.contains(CatalogColumns.normalizedName($0)) }) else { return nil }
        let records = object.members.first { member in
            guard case .array(let elements) = member.value, let first = elements.first else { return false }
            if case .object = first { return true }
            return false
        }
        guard let records else { return nil }
        let plain = records.key.utf8.allSatisfy { $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || $0 == 0x5F) }
        return DataError(
            file: name, line: line,
            reason: "\(JSONError.Reason.unknownLayout.description); this is one object, with the records in its "
                + "member '\(records.key)'" + (plain ? " (jq '.\(records.key)' gives them as an array)" : ""))
    }

    /// Reads a CSV record, turning the reader's errors into `DataError`s that name the column.
    private func csv(_ read: () throws -> CSVRecord?, header: [String]) throws -> CSVRecord? {
        do {
            return try read()
        } catch let error as CSVError {
            let field = error.field >= 1 && error.field <= header.count ? header[error.field - 1] : nil
            throw DataError(
                file: name, line: error.line, column: error.field, field: field, reason: error.reason.description)
        }
    }

    private static func jsonLine(_ reader: inout JSONLinesStreamReader, name: String) throws -> JSONRecord? {
        let line: JSONLine?
        do {
            line = try reader.next()
        } catch let error as JSONError {
            throw DataError(file: name, line: error.line, column: error.column, reason: "\(error.reason)")
        }
        guard let line else { return nil }
        guard case .object(let object) = line.value else {
            throw DataError(file: name, line: line.line, reason: "expected an object, found \(line.value.kindName)")
        }
        return JSONRecord(line: line.line, object: object)
    }

    private static func jsonRecords(_ bytes: [UInt8], name: String) throws(DataError) -> [JSONRecord] {
        do {
            return try JSONRecords.read(bytes)
        } catch let error as JSONError {
            throw DataError(file: name, line: error.line, column: error.column, reason: "\(error.reason)")
        } catch {
            throw DataError(file: name, reason: "\(error)")
        }
    }

    private static func entry(
        _ record: JSONRecord, kind: CatalogKind, name: String, defaultKey: inout String?, warn: (String) -> Void
    ) throws(DataError) -> CatalogEntry {
        let (header, fields) = try JSONFields.flatten(record, kind: kind, name: name)
        let line = record.line
        switch kind {
        case .books:
            let columns = try jsonColumns(line, name: name) { try CatalogColumns(header: header) }
            let book = try jsonRow(line, name: name) {
                try columns.record(from: fields) { problem in
                    warn(warning(problem, name: name, line: line, json: true))
                }
            }
            return CatalogEntry(line: line, record: .book(book))
        case .clients:
            let columns = try jsonColumns(line, name: name) { try ClientColumns(header: header) }
            defaultKey = columns.isDefault.map { header[$0] }
            return CatalogEntry(
                line: line, record: .client(try jsonRow(line, name: name) { try columns.record(from: fields) }))
        }
    }

    private static func warning(_ problem: CatalogColumns.Problem, name: String, line: Int, json: Bool = false)
        -> String
    {
        let field = problem.columnName ?? "?"
        let place = json ? "key \"\(field)\"" : "column \(problem.column ?? 0) (\(field))"
        return "\(name): line \(line), \(place): \(problem.reason); imported without it"
    }

    /// Finds a CSV header's columns. A header of one column that holds `;` or a tab was written with another
    /// separator: a missing column's message says so rather than list the names it needs.
    private static func headerColumns<Columns>(
        name: String, header: [String], _ make: () throws -> Columns
    ) throws(DataError) -> Columns {
        do {
            return try make()
        } catch let error as CatalogColumns.Problem {
            if error.column == nil, header.count == 1, let only = header.first,
                let separator = only.contains(";") ? "';'" : only.contains("\t") ? "tabs" : nil,
                let colon = error.reason.firstIndex(of: ":")
            {
                let shown = only.replacing("\t", with: "\\t")
                throw DataError(
                    file: name, line: 1,
                    reason:
                        "\(error.reason[..<colon]): the header '\(shown.count > 80 ? shown.prefix(77) + "..." : shown)' "
                        + "looks separated by \(separator), but librarycli reads comma-separated files; save it with "
                        + "commas")
            }
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

    private static func decideKind(header: [String], expecting: CatalogKind?, name: String, line: Int)
        throws(DataError) -> CatalogKind
    {
        let found: CatalogKind = ClientColumns.describesClients(header) ? .clients : .books
        if found == .books, expecting != .clients, ClientColumns.resemblesClients(header) {
            let cards = ClientColumns.aliases[1].names
            throw DataError(
                file: name, line: line,
                reason: "this looks like a clients file (a name and a loan limit or card), but it has no card number "
                    + "column: name it \(cards[0]) (or \(cards.dropFirst().joined(separator: ", ")))")
        }
        if expecting == .books && found == .clients {
            throw DataError(
                file: name, line: line,
                reason: "this looks like a clients file (it has a card number), but books were expected")
        }
        return expecting ?? found
    }
}
