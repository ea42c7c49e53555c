import SQLite

/// How many rows of each kind `LibraryStore.copyLibrary(from:)` copied.
///
/// ```swift
/// let counts = try target.copyLibrary(from: source)
/// print(counts.books, counts.loans)
/// ```
public struct CopyCounts: Sendable, Hashable {
    /// Clients copied.
    public var clients = 0
    /// Books copied.
    public var books = 0
    /// Loans copied, open and returned.
    public var loans = 0
    /// Tokens copied (their hashes: a token keeps working against the copy).
    public var tokens = 0
    /// Every other row copied: PINs, settings, recent failed sign-ins, idempotency keys.
    public var other = 0
}

extension LibraryStore {
    /// Copies the whole library of `source` (clients, books with their search columns, loans, tokens, PINs,
    /// settings, recent failed sign-ins, idempotency keys) into this store, keeping every id, in one write
    /// transaction here (all or nothing) over one read snapshot there. The two stores may be of either dialect.
    /// Throws `LibraryError.invalidInput` when this store already holds clients, books, loans or tokens.
    ///
    /// ```swift
    /// let target = try LibraryStore.open(at: "postgresql:///library", now: now)
    /// let counts = try target.copyLibrary(from: try LibraryStore.open(at: "library.sqlite", now: now))
    /// ```
    @discardableResult
    public func copyLibrary(from source: LibraryStore) throws -> CopyCounts {
        try source.reading {
            try writing {
                for table in ["clients", "books", "loans", "tokens"] {
                    // Table names here are this list's constants, never input.
                    let count = try database.fetchOne("SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0
                    if count > 0 {
                        throw LibraryError.invalidInput(
                            "The target library is not empty (it has \(count) \(table)); copy into an empty one "
                                + "(init --empty).")
                    }
                }
                var counts = CopyCounts()
                let index = try database.dialect == .sqlite ? SearchIndexWriter(database: database.sqlite) : nil
                if database.dialect == .postgresql {
                    // The books keep their ids: reserve them all by setting the count (the schema's check refuses
                    // an id beyond it), and prove after that they are exactly 1...N.
                    try database.execute(
                        "UPDATE library_stats SET book_count = ? WHERE id = 1", [try source.bookCount()])
                }
                for table in CopiedTable.all {
                    let copied = try copy(table, from: source) { id in try index?.added(id: id) }
                    switch table.name {
                    case "clients": counts.clients = copied
                    case "books": counts.books = copied
                    case "loans": counts.loans = copied
                    case "tokens": counts.tokens = copied
                    default: counts.other += copied
                    }
                }
                try index?.flush()
                let (stored, counted) = (
                    try database.fetchOne("SELECT count(*) FROM books") { $0.int(0) } ?? 0, try bookCount()
                )
                guard stored == counted, stored == counts.books else {
                    throw LibraryError.invalidInput(
                        "The library to copy is inconsistent: \(counts.books) books copied, \(counted) counted.")
                }
                if database.dialect == .postgresql {
                    // Identity columns hand out ids after the copied ones.
                    for table in CopiedTable.all where table.hasIdentity {
                        _ = try database.fetchOne(
                            "SELECT setval(pg_get_serial_sequence(?, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM "
                                + table.name + "), false)", [table.name]
                        ) { $0.int(0) }
                    }
                }
                return counts
            }
        }
    }

    /// Copies one table's rows in id order, 1,000 at a time; `added` is told each id (the books' search index).
    private func copy(_ table: CopiedTable, from source: LibraryStore, added: (Int) throws -> Void) throws -> Int {
        let names = table.columns.map(\.name)
        let select =
            "SELECT \(names.joined(separator: ", ")) FROM \(table.name) WHERE \(table.key) > ? "
            + "ORDER BY \(table.key) LIMIT 1000"
        let insert =
            "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")" + table.onConflict
        let statement = try database.prepare(insert)
        var last: DatabaseValue = table.columns[table.keyIndex].kind == .integer ? .integer(0) : .text("")
        var copied = 0
        while true {
            let rows = try source.database.fetchAll(select, [last]) { row in
                try table.columns.indices.map { index -> DatabaseValue in
                    guard !row.isNull(index) else { return .null }
                    switch table.columns[index].kind {
                    case .integer: return .integer(Int64(row.int(index)))
                    case .text: return .text(row.string(index))
                    case .time: return .text(try row.timestamp(index).iso8601)
                    case .bytes: return .blob(row.blob(index))
                    }
                }
            }
            for values in rows {
                try statement.execute(values)
                if table.name == "books", case .integer(let id) = values[0] { try added(Int(id)) }
            }
            copied += rows.count
            guard rows.count == 1000, let final = rows.last else { return copied }
            last = final[table.keyIndex]
        }
    }
}

/// A table `copyLibrary` copies: its columns (how each is read and written) and the key it pages by, in an order
/// that inserts every row after the rows it refers to.
struct CopiedTable {
    enum Kind { case integer, text, time, bytes }

    struct Column {
        var name: String
        var kind: Kind
    }

    var name: String
    var columns: [Column]
    var key = "id"
    var hasIdentity = true
    /// How a row already in the (otherwise empty) target is met: settings such as the first-use mark are replaced.
    var onConflict = ""

    var keyIndex: Int { columns.firstIndex { $0.name == key } ?? 0 }

    static func columns(_ list: KeyValuePairs<String, Kind>) -> [Column] {
        list.map { Column(name: $0.key, kind: $0.value) }
    }

    static let all: [CopiedTable] = [
        CopiedTable(
            name: "clients",
            columns: columns([
                "id": .integer, "name": .text, "card_number": .text, "loan_limit": .integer,
                "created_at": .time,
            ])),
        CopiedTable(
            name: "books",
            columns: columns([
                "id": .integer, "title": .text, "author": .text, "year": .integer, "pages": .integer,
                "description": .text, "isbn": .text, "status": .text, "search_title": .text, "search_author": .text,
                "search_description": .text,
            ]),
            hasIdentity: false),
        CopiedTable(
            name: "loans",
            columns: columns([
                "id": .integer, "book_id": .integer, "client_id": .integer, "taken_at": .time, "due_at": .time,
                "returned_at": .time, "renewals": .integer,
            ])),
        CopiedTable(
            name: "tokens",
            columns: columns([
                "id": .integer, "token_hash": .bytes, "role": .text, "client_id": .integer, "label": .text,
                "created_at": .time, "last_used_at": .time, "revoked_at": .time,
            ])),
        CopiedTable(
            name: "client_pins", columns: columns(["client_id": .integer, "pin_hash": .text, "set_at": .time]),
            key: "client_id", hasIdentity: false),
        CopiedTable(
            name: "sign_in_failures", columns: columns(["id": .integer, "card_number": .text, "failed_at": .time])),
        CopiedTable(
            name: "idempotency_keys",
            columns: columns([
                "id": .integer, "token_id": .integer, "key": .text, "method": .text, "path": .text,
                "body_sha256": .bytes, "status": .integer, "headers": .text, "body": .bytes, "created_at": .time,
            ])),
        CopiedTable(
            name: "settings", columns: columns(["key": .text, "value": .text]), key: "key", hasIdentity: false,
            onConflict: " ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
    ]
}
