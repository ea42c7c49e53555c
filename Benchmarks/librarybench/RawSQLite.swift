import CSQLite
import Library

/// The baselines' direct use of SQLite's C API: one connection with the pragmas librarycli uses.
final class RawDatabase {
    let handle: OpaquePointer

    /// Opens `path` with WAL, synchronous=NORMAL and foreign keys on, as `SQLite.Database` does.
    init(path: String) throws {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK, let connection else {
            throw BenchError("cannot open \(path)")
        }
        handle = connection
        try exec("PRAGMA journal_mode=WAL")
        try exec("PRAGMA synchronous=NORMAL")
        try exec("PRAGMA foreign_keys=ON")
    }

    deinit { sqlite3_close_v2(handle) }

    /// A new database at `path` with librarycli's schema (migrated by the Library module, which defines the SQL
    /// functions the migrations use), opened raw.
    static func withSchema(path: String) throws -> RawDatabase {
        _ = try LibraryDatabase.open(at: path, now: Timestamp.systemNow())
        return try RawDatabase(path: path)
    }

    /// Runs SQL without results.
    func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw BenchError("\(text) in \(sql)")
        }
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw BenchError("\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        return RawStatement(handle: statement, database: handle)
    }
}

/// One prepared statement.
final class RawStatement {
    let handle: OpaquePointer
    let database: OpaquePointer

    init(handle: OpaquePointer, database: OpaquePointer) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(handle, index, sqlite3_int64(value))
    }

    func bind(_ index: Int32, _ value: String) {
        var text = value
        text.withUTF8 { bytes in
            _ = sqlite3_bind_text(
                handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                Int32(bytes.count), librarycli_sqlite3_transient())
        }
    }

    func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Steps once: true for a row, false when done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw BenchError(String(cString: sqlite3_errmsg(database)))
        }
    }

    /// The integer in column `index` of the current row.
    func column(_ index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// Resets the statement to run again (bindings are kept).
    func reset() {
        sqlite3_reset(handle)
    }

    /// Steps to the end and resets.
    func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// The integer in the first column of the first row, or nil when there is no row; resets.
    func int() throws -> Int? {
        defer { sqlite3_reset(handle) }
        return try step() ? Int(sqlite3_column_int64(handle, 0)) : nil
    }

    /// The text in the first column of the first row, or nil when there is no row; resets.
    func text() throws -> String? {
        defer { sqlite3_reset(handle) }
        guard try step(), let pointer = sqlite3_column_text(handle, 0) else { return nil }
        return String(cString: pointer)
    }
}

/// A failure in the benchmark itself.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
