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

    let handle: OpaquePointer
    private let connection: Connection

    init(connection: Connection, sql: String) throws {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sql.withCString { sqlite3_prepare_v2(connection.handle, $0, -1, &statement, &tail) }
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(connection: connection.handle, code: code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
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

    /// Binds one value to the parameter at `index` (1-based).
    ///
    /// ```swift
    /// try statement.bind(.text("Dune"), at: 1)
    /// ```
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        let position = Int32(index)
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, position)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, position, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, position, real)
        case .text(var text):
            code = text.withUTF8 { bytes in
                // A NULL pointer would bind NULL, so an empty string gets a valid one.
                let base = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 1)!
                return sqlite3_bind_text(
                    handle, position, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                    librarycli_sqlite3_transient())
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                code = sqlite3_bind_zeroblob(handle, position, 0)
            } else {
                code = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob(
                        handle, position, raw.baseAddress, Int32(raw.count), librarycli_sqlite3_transient())
                }
            }
        }
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
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return Row(handle: handle)
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
    public func fetchOne<T>(_ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (Row) throws -> T) throws
        -> T?
    {
        try bind(arguments)
        defer { reset() }
        guard let row = try step() else { return nil }
        return try decode(row)
    }
}
