import PostgreSQL
import SQLite

/// Which SQL a store's connection speaks.
///
/// ```swift
/// if store.dialect == .postgresql { print("on a server") }
/// ```
public enum SQLDialect: String, Sendable, Hashable {
    /// SQLite, a file on this machine.
    case sqlite
    /// PostgreSQL, a database server.
    case postgresql
}

/// The store's connection, SQLite or PostgreSQL, behind one small API: the store's SQL is written once with `?`
/// parameters where the dialects agree, and per dialect (`dialect`) where they differ. Rows are read by column
/// index through `StoreRow`. Internal: only the Library module runs SQL on the library's tables.
final class StoreDatabase {
    enum Backend {
        case sqlite(Database)
        case postgresql(PostgreSQLConnection)
    }

    let backend: Backend
    let dialect: SQLDialect
    /// PostgreSQL: whether this connection listens for change notifications, and how many it has received.
    var isListening = false
    var notificationsReceived = 0

    init(sqlite: Database) {
        backend = .sqlite(sqlite)
        dialect = .sqlite
    }

    init(postgresql: PostgreSQLConnection) {
        backend = .postgresql(postgresql)
        dialect = .postgresql
    }

    /// The SQLite connection; only for SQLite-only work (a precondition failure on PostgreSQL).
    var sqlite: Database {
        guard case .sqlite(let database) = backend else { preconditionFailure("an SQLite-only operation") }
        return database
    }

    var isReadOnly: Bool {
        if case .sqlite(let database) = backend { return database.options.readOnly }
        return false
    }

    var isInTransaction: Bool {
        switch backend {
        case .sqlite(let database): database.isInTransaction
        case .postgresql(let connection): connection.isInTransaction
        }
    }

    /// Runs one statement; returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = []) throws -> Int {
        switch backend {
        case .sqlite(let database):
            try database.cachedStatement(sql).execute(arguments)
            return database.changedRowCount
        case .postgresql(let connection):
            return try connection.execute(sql, Self.text(arguments))
        }
    }

    func fetchAll<T>(
        _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (StoreRow) throws -> T
    ) throws -> [T] {
        switch backend {
        case .sqlite(let database):
            return try database.cachedStatement(sql).fetchAll(arguments) { try decode(StoreRow(sqlite: $0)) }
        case .postgresql(let connection):
            return try connection.fetchAll(sql, Self.text(arguments)) { try decode(StoreRow(postgresql: $0)) }
        }
    }

    func fetchOne<T>(
        _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (StoreRow) throws -> T
    ) throws -> T? {
        switch backend {
        case .sqlite(let database):
            return try database.cachedStatement(sql).fetchOne(arguments) { try decode(StoreRow(sqlite: $0)) }
        case .postgresql(let connection):
            return try connection.fetchOne(sql, Self.text(arguments)) { try decode(StoreRow(postgresql: $0)) }
        }
    }

    func forEachRow(
        _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ body: (StoreRow) throws -> Void
    ) throws {
        switch backend {
        case .sqlite(let database):
            try database.cachedStatement(sql).forEachRow(arguments) { try body(StoreRow(sqlite: $0)) }
        case .postgresql(let connection):
            try connection.forEachRow(sql, Self.text(arguments)) { try body(StoreRow(postgresql: $0)) }
        }
    }

    /// A statement prepared once and run many times (bulk imports).
    func prepare(_ sql: String) throws -> StoreStatement {
        switch backend {
        case .sqlite(let database): StoreStatement(database: self, sqlite: try database.prepare(sql), sql: sql)
        case .postgresql: StoreStatement(database: self, sqlite: nil, sql: sql)
        }
    }

    /// The argument values as PostgreSQL's text format takes them (`bytea` as `\x` hex).
    static func text(_ arguments: [(any DatabaseValueConvertible)?]) -> [String?] {
        arguments.map { argument in
            switch argument?.databaseValue ?? .null {
            case .null: nil
            case .integer(let value): String(value)
            case .real(let value): String(value)
            case .text(let value): value
            case .blob(let bytes): PostgreSQLBytes.text(bytes)
            }
        }
    }
}

/// A prepared statement of a `StoreDatabase`: SQLite's own, or the SQL text PostgreSQL prepares once per
/// connection.
struct StoreStatement {
    let database: StoreDatabase
    let sqlite: Statement?
    let sql: String

    @discardableResult
    func execute(_ arguments: [(any DatabaseValueConvertible)?] = []) throws -> Int {
        guard let sqlite else { return try database.execute(sql, arguments) }
        try sqlite.execute(arguments)
        return database.sqlite.changedRowCount
    }

    func fetchOne<T>(_ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (StoreRow) throws -> T) throws
        -> T?
    {
        guard let sqlite else { return try database.fetchOne(sql, arguments, decode) }
        return try sqlite.fetchOne(arguments) { try decode(StoreRow(sqlite: $0)) }
    }

    func fetchAll<T>(_ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (StoreRow) throws -> T) throws
        -> [T]
    {
        guard let sqlite else { return try database.fetchAll(sql, arguments, decode) }
        return try sqlite.fetchAll(arguments) { try decode(StoreRow(sqlite: $0)) }
    }

    func forEachRow(_ arguments: [(any DatabaseValueConvertible)?] = [], _ body: (StoreRow) throws -> Void) throws {
        guard let sqlite else { return try database.forEachRow(sql, arguments, body) }
        try sqlite.forEachRow(arguments) { try body(StoreRow(sqlite: $0)) }
    }
}

/// One row of a store query, read by 0-based column index, from either dialect.
struct StoreRow {
    private enum Source {
        case sqlite(Row)
        case postgresql(PostgreSQLRow)
    }

    private let source: Source

    init(sqlite row: Row) { source = .sqlite(row) }
    init(postgresql row: PostgreSQLRow) { source = .postgresql(row) }

    func isNull(_ index: Int) -> Bool {
        switch source {
        case .sqlite(let row): row.isNull(index)
        case .postgresql(let row): row.isNull(index)
        }
    }

    func int(_ index: Int) -> Int {
        switch source {
        case .sqlite(let row): row.int(index)
        case .postgresql(let row): row.int(index)
        }
    }

    func bool(_ index: Int) -> Bool {
        switch source {
        case .sqlite(let row): row.bool(index)
        case .postgresql(let row): row.bool(index)
        }
    }

    func double(_ index: Int) -> Double {
        switch source {
        case .sqlite(let row): row.double(index)
        case .postgresql(let row): row.double(index)
        }
    }

    func string(_ index: Int) -> String {
        switch source {
        case .sqlite(let row): row.string(index)
        case .postgresql(let row): row.string(index)
        }
    }

    func blob(_ index: Int) -> [UInt8] {
        switch source {
        case .sqlite(let row): row.blob(index)
        case .postgresql(let row): row.bytes(index)
        }
    }

    func intOrNil(_ index: Int) -> Int? { isNull(index) ? nil : int(index) }
    func stringOrNil(_ index: Int) -> String? { isNull(index) ? nil : string(index) }

    /// A time column: SQLite keeps ISO-8601 text; PostgreSQL's `timestamptz` reads as "2026-11-29 14:40:00+00"
    /// in the UTC, ISO session the connection sets, which becomes "2026-11-29T14:40:00Z".
    func timestamp(_ index: Int) throws -> Timestamp {
        switch source {
        case .sqlite(let row):
            return try Timestamp(iso8601: row.string(index))
        case .postgresql(let row):
            return try Timestamp(iso8601: Self.iso8601(postgresql: row.string(index)))
        }
    }

    static func iso8601(postgresql text: String) -> String {
        var bytes = Array(text.utf8)
        if bytes.count > 10 && bytes[10] == UInt8(ascii: " ") { bytes[10] = UInt8(ascii: "T") }
        if bytes.count > 3 && bytes.suffix(3).elementsEqual("+00".utf8) {
            bytes.removeLast(3)
            bytes.append(UInt8(ascii: "Z"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StoreDatabase {
    /// A statement cached by the connection (SQLite's statement cache; PostgreSQL prepares every statement once).
    func cachedStatement(_ sql: String) throws -> StoreStatement {
        switch backend {
        case .sqlite(let database): StoreStatement(database: self, sqlite: try database.cachedStatement(sql), sql: sql)
        case .postgresql: StoreStatement(database: self, sqlite: nil, sql: sql)
        }
    }
}

extension StoreDatabase {
    /// See `LibraryStore.dataVersion()`: SQLite's `PRAGMA data_version`; on PostgreSQL the number of change
    /// notifications this connection has received (it starts listening on the first call).
    func dataVersion() throws -> Int {
        switch backend {
        case .sqlite(let database):
            return try database.fetchOne("PRAGMA data_version") { $0.int(0) } ?? 0
        case .postgresql(let connection):
            if !isListening {
                try connection.listen(Self.changesChannel)
                isListening = true
            } else if !connection.isInTransaction {
                // A round trip (an empty query): the server sends the notifications of every commit that ended
                // before it ahead of its answer (PostgreSQL signals the listeners before it acknowledges a COMMIT),
                // so a change committed before this call is counted by it, as SQLite's data_version counts it,
                // not a moment later.
                try connection.execute(script: "")
            }
            notificationsReceived += try connection.notifications(waitingAtMost: 0).count
            return notificationsReceived
        }
    }

    /// The rows this connection has written since it opened.
    var rowsWritten: Int {
        switch backend {
        case .sqlite(let database): database.totalChangedRowCount
        case .postgresql(let connection): connection.rowsWritten
        }
    }

    /// The channel the PostgreSQL schema's triggers notify on every committed change.
    static let changesChannel = "librarycli_changes"
}

extension StoreDatabase {
    /// What a write locks on PostgreSQL where it reads and then writes on what it read, and no row can be locked
    /// for it. SQLite's write transaction holds the whole database, so there it is one step already; PostgreSQL's
    /// writers run side by side.
    enum WriteLock: Int {
        /// Adding a client: the next free generated card number is looked up, then taken.
        case clients = 1
        /// A sign-in with one card number: its recent failures are counted, then one is added.
        case signIn = 2
        /// The library's first use: whether it was handled is read, then it is handled and marked done.
        case firstUse = 3
        /// One idempotency key of one token: a kept response is looked up, the request acted on and its response kept.
        case idempotencyKey = 4
    }

    /// On PostgreSQL, waits for and takes `lock` for `key` (hashed), held until the transaction ends
    /// (`pg_advisory_xact_lock`; the first key is "lc" and the lock's number). Nothing on SQLite.
    func lockUntilCommit(_ lock: WriteLock, key: String = "") throws {
        guard dialect == .postgresql else { return }
        try execute("SELECT pg_advisory_xact_lock(?, hashtext(?))", [0x6C63_0000 + lock.rawValue, key])
    }
}
