import CSQLite

/// A prepared statement: bind values by position, step through rows, reset and reuse.
///
/// The statement is finalized when the last reference to it goes away. Reuse one statement in hot loops:
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO books (title, author) VALUES (?, ?)")
/// for (title, author) in catalog {
///     try insert.execute([title, author])  // binds, runs, resets
/// }
/// ```
public final class Statement {
    /// The SQL the statement was prepared from.
    ///
    /// ```swift
    /// print(statement.sql)
    /// ```
    public let sql: String

    /// How many times SQLite compiled this statement again since it was prepared (after a schema change, or when a
    /// setting of the connection expired it): a statement kept in a cache should stay at 0.
    ///
    /// ```swift
    /// let select = try db.cachedStatement("SELECT count(*) FROM books")
    /// select.timesPreparedAgain  // 0
    /// ```
    public var timesPreparedAgain: Int { Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)) }

    let handle: OpaquePointer
    private let connection: Connection
    /// Advanced by every step and reset: a `Row` is valid while the generation it was made in lasts.
    private(set) var generation: UInt64 = 0
    /// When `Database.cachedStatement` last handed this statement out (its own count of calls).
    var lastCacheUse: UInt64 = 0

    /// Whether the statement is between a row and its end: stepped to a row, not yet finished or reset.
    var isInUse: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// Prepares the one statement of `sql`; throws when it holds none, or more than one (a tail other than
    /// whitespace, `;` and comments), since only the first would run.
    init(connection: Connection, sql: String) throws {
        var statement: OpaquePointer?
        let code = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection.handle, text, -1, &statement, &tail)
            guard code == SQLITE_OK, statement != nil, let tail else { return code }
            return Self.isEmptyTail(tail, connection: connection.handle) ? SQLITE_OK : Self.tailFound
        }
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            if code == Self.tailFound {
                throw SQLiteError(
                    code: SQLITE_MISUSE,
                    message: "more than one statement in one prepared statement: only the first would run "
                        + "(use execute(script:) for several)",
                    sql: sql)
            }
            if code == SQLITE_OK {
                throw SQLiteError(code: SQLITE_MISUSE, message: "no statement to prepare", sql: sql)
            }
            throw SQLiteError(connection: connection.handle, code: code, sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// A private code for "the SQL has a tail": never returned by SQLite.
    private static let tailFound: Int32 = -1

    /// Whether the rest of the SQL after a statement holds no statement: SQLite's own parser decides, so
    /// whitespace, empty statements (`;`) and comments are empty, and anything it would run is not.
    private static func isEmptyTail(_ start: UnsafePointer<CChar>, connection: OpaquePointer) -> Bool {
        var rest = start
        while rest.pointee != 0 {
            var statement: OpaquePointer?
            var next: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection, rest, -1, &statement, &next)
            sqlite3_finalize(statement)
            // A statement, or text SQLite cannot parse: either way it is not empty.
            guard code == SQLITE_OK, statement == nil, let next, next > rest else { return false }
            rest = next
        }
        return true
    }

    // MARK: - Binding

    /// Resets the statement, clears old bindings and binds `arguments` to parameters 1...n.
    ///
    /// ```swift
    /// try statement.bind(["Dune", 1965, nil])
    /// ```
    public func bind(_ arguments: [(any DatabaseValueConvertible)?]) throws {
        reset()
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw SQLiteError(
                code: SQLITE_RANGE,
                message: "expected \(expected) argument(s), got \(arguments.count)",
                sql: sql
            )
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument?.databaseValue ?? .null, at: offset + 1)
        }
    }

    /// Binds one value to the parameter at `index` (1-based); an index outside 1...the parameter count throws an
    /// `SQLiteError` with `SQLITE_RANGE`, as every `bind(...at:)` does.
    ///
    /// ```swift
    /// try statement.bind(.text("Dune"), at: 1)
    /// ```
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        let index = try position(index)
        switch value {
        case .null: try bind(text: nil, at: Int(index))
        case .integer(let integer): try check(sqlite3_bind_int64(handle, index, integer))
        case .real(let real): try check(sqlite3_bind_double(handle, index, real))
        case .text(let text): try bind(text: text, at: Int(index))
        case .blob(let bytes):
            if bytes.isEmpty {
                try check(sqlite3_bind_zeroblob(handle, index, 0))
            } else {
                try check(
                    bytes.withUnsafeBytes { raw in
                        sqlite3_bind_blob(
                            handle, index, raw.baseAddress, Int32(raw.count), librarycli_sqlite3_transient())
                    })
            }
        }
    }

    /// Binds text, or NULL for nil, to the parameter at `index` (1-based), without going through `DatabaseValue`:
    /// for loops that bind thousands of values (call `reset()` first, then bind every parameter).
    ///
    /// ```swift
    /// statement.reset()
    /// try statement.bind(text: book.isbn, at: 6)
    /// ```
    public func bind(text: String?, at index: Int) throws {
        let index = try position(index)
        guard var text else { return try check(sqlite3_bind_null(handle, index)) }
        let code = text.withUTF8 { bytes in
            // A NULL pointer would bind NULL, so an empty string gets a valid one.
            let base = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 1)!
            return sqlite3_bind_text(
                handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                librarycli_sqlite3_transient())
        }
        try check(code)
    }

    /// Binds an integer, or NULL for nil, to the parameter at `index` (1-based); see `bind(text:at:)`.
    ///
    /// ```swift
    /// try statement.bind(integer: book.year, at: 3)
    /// ```
    public func bind(integer: Int?, at index: Int) throws {
        let index = try position(index)
        guard let integer else { return try check(sqlite3_bind_null(handle, index)) }
        try check(sqlite3_bind_int64(handle, index, Int64(integer)))
    }

    /// `index` as SQLite's parameter number; one beyond Int32 throws the `SQLITE_RANGE` that SQLite answers for any
    /// other index out of range (SQLite checks those itself).
    private func position(_ index: Int) throws -> Int32 {
        guard let position = Int32(exactly: index) else {
            throw SQLiteError(connection: nil, code: SQLITE_RANGE, sql: sql)
        }
        return position
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw SQLiteError(connection: connection.handle, code: code, sql: sql)
        }
    }

    // MARK: - Stepping

    /// Advances to the next row; nil when the statement is done.
    ///
    /// ```swift
    /// try statement.bind([clientID])
    /// while let row = try statement.step() {
    ///     print(row.string(0))
    /// }
    /// ```
    public func step() throws -> Row? {
        generation &+= 1
        if connection.isReading && sqlite3_stmt_readonly(handle) == 0 {
            sqlite3_reset(handle)
            throw SQLiteError.writeInsideRead(sql: sql)
        }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return Row(statement: self, generation: generation)
        case SQLITE_DONE:
            return nil
        default:
            let error = SQLiteError(connection: connection.handle, code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    ///
    /// ```swift
    /// statement.reset()
    /// ```
    public func reset() {
        generation &+= 1
        sqlite3_reset(handle)
    }

    /// Binds `arguments`, runs the statement to completion and resets it.
    ///
    /// ```swift
    /// try insert.execute(["Dune", "Frank Herbert"])
    /// ```
    public func execute(_ arguments: [(any DatabaseValueConvertible)?] = []) throws {
        try bind(arguments)
        defer { reset() }
        while try step() != nil {}
    }

    /// Binds `arguments` and calls `body` for each row.
    ///
    /// ```swift
    /// try select.forEachRow([clientID]) { row in print(row.string(0)) }
    /// ```
    public func forEachRow(_ arguments: [(any DatabaseValueConvertible)?] = [], _ body: (Row) throws -> Void) throws {
        try bind(arguments)
        defer { reset() }
        while let row = try step() {
            try body(row)
        }
    }

    /// Binds `arguments` and decodes every row with `decode`.
    ///
    /// ```swift
    /// let titles = try select.fetchAll([]) { row in row.string(0) }
    /// ```
    @inlinable  // specialised where it is called: an unspecialised append cost about 800 instructions a row
    public func fetchAll<T>(_ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (Row) throws -> T) throws
        -> [T]
    {
        var values: [T] = []
        try forEachRow(arguments) { values.append(try decode($0)) }
        return values
    }

    /// Binds `arguments` and decodes the first row with `decode`, or returns nil when there is none.
    ///
    /// ```swift
    /// let title = try select.fetchOne([12]) { row in row.string(0) }
    /// ```
    @inlinable
    public func fetchOne<T>(_ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (Row) throws -> T) throws
        -> T?
    {
        try bind(arguments)
        defer { reset() }
        guard let row = try step() else { return nil }
        return try decode(row)
    }
}
