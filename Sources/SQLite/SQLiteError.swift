import CSQLite

/// An error reported by SQLite: the result codes, SQLite's own message and the SQL that failed.
///
/// Bound values are never part of the error, so it is safe to print.
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO clients (name, card_number) VALUES (?, ?)", ["Ann", "C-1"])
/// } catch let error as SQLiteError where error.isUniqueConstraintViolation {
///     print(error)  // "SQLite error 2067 (constraint failed): UNIQUE constraint failed: ... (in: INSERT ...)"
/// }
/// ```
///
/// SQLite's result codes are C macros that the program embedding this module may not see (`CSQLite` is not a
/// product, and Swift cannot import the extended ones at all): `SQLiteError.ResultCode` names them.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, such as `SQLITE_CONSTRAINT_UNIQUE` (2067, `ResultCode.constraintUnique`).
    ///
    /// ```swift
    /// if error.extendedCode == SQLiteError.ResultCode.constraintForeignKey { ... }
    /// ```
    public let extendedCode: Int32

    /// SQLite's message, such as "UNIQUE constraint failed: clients.card_number".
    ///
    /// ```swift
    /// print(error.message)
    /// ```
    public let message: String

    /// The SQL that failed, if any (never the bound values).
    ///
    /// ```swift
    /// print(error.sql ?? "-")
    /// ```
    public let sql: String?

    /// Creates an error from a result code (primary or extended), a message and the SQL.
    ///
    /// ```swift
    /// throw SQLiteError(code: SQLiteError.ResultCode.error, message: "journal mode is not WAL")
    /// ```
    public init(code: Int32, message: String, sql: String? = nil) {
        self.extendedCode = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code, such as `SQLITE_CONSTRAINT` (19) or `SQLITE_BUSY` (5): the extended code's low byte.
    ///
    /// ```swift
    /// if error.code == SQLiteError.ResultCode.busy { ... }
    /// ```
    public var code: Int32 { extendedCode & 0xFF }

    /// Whether a constraint (UNIQUE, CHECK, NOT NULL, FOREIGN KEY, a trigger's RAISE) refused the change.
    ///
    /// ```swift
    /// if error.isConstraintViolation { print("refused") }
    /// ```
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// Whether a UNIQUE constraint or index, or a PRIMARY KEY, refused a duplicate (`ResultCode.constraintUnique` or
    /// `ResultCode.constraintPrimaryKey`); SQLite's message names the table and columns.
    ///
    /// ```swift
    /// if error.isUniqueConstraintViolation { print("that card number is taken") }
    /// ```
    public var isUniqueConstraintViolation: Bool {
        extendedCode == ResultCode.constraintUnique || extendedCode == ResultCode.constraintPrimaryKey
    }

    /// Whether the database stayed locked by another connection longer than the busy timeout.
    ///
    /// ```swift
    /// if error.isBusy { exit(75) }
    /// ```
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// Whether the database (or its file or directory) cannot be written.
    ///
    /// ```swift
    /// if error.isReadOnly { exit(73) }
    /// ```
    public var isReadOnly: Bool { code == SQLITE_READONLY || code == SQLITE_PERM }

    /// Whether the database file was moved, renamed, deleted or replaced while the connection had it open
    /// (`ResultCode.readOnlyDatabaseMoved`, a kind of read-only): nothing was written, as it would have been lost.
    /// Open the database again by its path. `isReadOnly` is true too.
    ///
    /// ```swift
    /// if error.isMoved { print("the database file was moved or deleted") }
    /// ```
    public var isMoved: Bool { extendedCode == ResultCode.readOnlyDatabaseMoved }

    /// Whether the file is not an SQLite database.
    ///
    /// ```swift
    /// if error.isNotADatabase { print("not a library file") }
    /// ```
    public var isNotADatabase: Bool { code == SQLITE_NOTADB }

    /// Whether the database file is damaged.
    ///
    /// ```swift
    /// if error.isCorrupt { print("damaged") }
    /// ```
    public var isCorrupt: Bool { code == SQLITE_CORRUPT }

    /// Whether the file cannot be opened (missing folder, no permission, missing file when read-only).
    ///
    /// ```swift
    /// if error.isCannotOpen { exit(73) }
    /// ```
    public var isCannotOpen: Bool { code == SQLITE_CANTOPEN }

    /// Whether the disk (or a file size limit) is full, or the operating system failed a read or write.
    ///
    /// ```swift
    /// if error.isStorageFailure { print("nothing was changed") }
    /// ```
    public var isStorageFailure: Bool { code == SQLITE_FULL || code == SQLITE_IOERR }

    /// Whether SQLite refused the SQL itself (`SQLITE_ERROR`): a syntax error, or a table or column that is not in
    /// the schema ("no such table"), as when a schema was changed under a program that knows its SQL is right.
    ///
    /// ```swift
    /// if error.isSQLError { try migrator.verifySchema(db) }
    /// ```
    public var isSQLError: Bool { code == SQLITE_ERROR }

    /// A one-line description for a command-line message.
    ///
    /// ```swift
    /// print("error: \(error)")  // "SQLite error 5 (database is locked): database is locked"
    /// ```
    public var description: String {
        let explanation = String(cString: sqlite3_errstr(extendedCode))
        var text = "SQLite error \(extendedCode) (\(explanation)): \(message)"
        if let sql {
            text += " (in: \(sql))"
        }
        return text
    }
}

// MARK: - Result codes

extension SQLiteError {
    /// SQLite's result codes, for comparing with `code` (primary) and `extendedCode` and for `init(code:message:sql:)`:
    /// the numbers of SQLite's `SQLITE_...` macros, which are part of its stable interface.
    ///
    /// ```swift
    /// switch error.extendedCode {
    /// case SQLiteError.ResultCode.constraintForeignKey: print("no such client")
    /// case SQLiteError.ResultCode.constraintCheck: print("refused by a rule")
    /// default: throw error
    /// }
    /// ```
    public enum ResultCode {
        /// `SQLITE_ERROR` (1): an SQL error, such as a syntax error or a missing table.
        public static let error: Int32 = 1
        /// `SQLITE_PERM` (3): access permission denied.
        public static let permission: Int32 = 3
        /// `SQLITE_BUSY` (5): the database is locked by another connection.
        public static let busy: Int32 = 5
        /// `SQLITE_LOCKED` (6): a table is locked by this connection.
        public static let locked: Int32 = 6
        /// `SQLITE_READONLY` (8): the database cannot be written.
        public static let readOnly: Int32 = 8
        /// `SQLITE_IOERR` (10): the operating system failed a read or write.
        public static let ioError: Int32 = 10
        /// `SQLITE_CORRUPT` (11): the database file is damaged.
        public static let corrupt: Int32 = 11
        /// `SQLITE_FULL` (13): the disk is full.
        public static let full: Int32 = 13
        /// `SQLITE_CANTOPEN` (14): the file cannot be opened.
        public static let cannotOpen: Int32 = 14
        /// `SQLITE_CONSTRAINT` (19): a constraint refused the change.
        public static let constraint: Int32 = 19
        /// `SQLITE_MISUSE` (21): the library was used wrongly (as a nested `write`).
        public static let misuse: Int32 = 21
        /// `SQLITE_RANGE` (25): a parameter index or argument count out of range.
        public static let range: Int32 = 25
        /// `SQLITE_NOTADB` (26): the file is not a database.
        public static let notADatabase: Int32 = 26
        /// `SQLITE_CONSTRAINT_CHECK` (275): a CHECK constraint.
        public static let constraintCheck: Int32 = 275
        /// `SQLITE_CONSTRAINT_FOREIGNKEY` (787): a foreign key.
        public static let constraintForeignKey: Int32 = 787
        /// `SQLITE_READONLY_DBMOVED` (1032): the database file was moved or deleted while open.
        public static let readOnlyDatabaseMoved: Int32 = 1032
        /// `SQLITE_CONSTRAINT_NOTNULL` (1299): a NOT NULL constraint.
        public static let constraintNotNull: Int32 = 1299
        /// `SQLITE_CONSTRAINT_PRIMARYKEY` (1555): a duplicate primary key.
        public static let constraintPrimaryKey: Int32 = 1555
        /// `SQLITE_CONSTRAINT_TRIGGER` (1811): a trigger's `RAISE`.
        public static let constraintTrigger: Int32 = 1811
        /// `SQLITE_CONSTRAINT_UNIQUE` (2067): a UNIQUE constraint or index.
        public static let constraintUnique: Int32 = 2067
    }
}

// MARK: - Internal

extension SQLiteError {
    /// A statement that writes, run inside `Database.read`: a bug in the caller, who should have used `write`.
    static func writeInsideRead(sql: String?) -> SQLiteError {
        SQLiteError(
            code: SQLITE_MISUSE,
            message: "cannot write inside a read transaction; use write { } instead", sql: sql)
    }

    /// `write` or `read` called while a transaction is open: transactions do not nest, savepoints do.
    static func nestedTransaction(begin: String) -> SQLiteError {
        SQLiteError(
            code: SQLITE_MISUSE,
            message: "a transaction is already open: write and read do not nest; use savepoint { } inside it",
            sql: begin)
    }

    /// The error of a write refused because the file at `path` is no longer the one the connection has open
    /// (`isMoved`), as `Database.write` throws it; for a caller that refuses for the same reason.
    ///
    /// ```swift
    /// if db.hasMoved { throw SQLiteError.moved(path: db.path) }
    /// ```
    public static func moved(path: String) -> SQLiteError {
        SQLiteError(
            code: ResultCode.readOnlyDatabaseMoved,
            message: "the database file \(path) was moved, renamed, deleted or replaced while open; nothing was written"
        )
    }

    /// The error of the last failed call on `connection`, with `code` when the connection is gone.
    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        if let connection {
            let extended = sqlite3_extended_errcode(connection)
            let message = String(cString: sqlite3_errmsg(connection))
            // sqlite3_errmsg may describe a later call; trust the code we were given when they disagree.
            if extended & 0xFF == code & 0xFF {
                self.init(code: extended, message: message, sql: sql)
            } else {
                self.init(code: code, message: String(cString: sqlite3_errstr(code)), sql: sql)
            }
        } else {
            self.init(code: code, message: String(cString: sqlite3_errstr(code)), sql: sql)
        }
    }
}
