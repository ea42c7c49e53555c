import CSQLite
import Glibc

/// How to open a database.
///
/// ```swift
/// let db = try Database(path: "library.db", options: DatabaseOptions(readOnly: true, busyTimeoutMilliseconds: 100))
/// ```
public struct DatabaseOptions: Sendable, Equatable {
    /// Open without write access; the file must exist and its journal mode is left alone.
    public var readOnly: Bool
    /// How long to wait for another connection's lock before failing with `SQLITE_BUSY`.
    public var busyTimeoutMilliseconds: Int
    /// Whether opening a writable file switches it to WAL at once. When false, the file is left exactly as it is
    /// until the caller calls `switchToWAL()`, so a file it checks and refuses stays unchanged.
    public var switchesToWALOnOpen: Bool
    /// A gate shared by connections of this process that write to the same file: their write transactions wait
    /// for each other on it (at most the busy timeout) instead of in SQLite's sleeping busy handler. Nil: none.
    public var writeGate: WriteGate?

    /// Creates options; the defaults are read-write, a 5 second busy timeout, WAL from the start and no gate.
    ///
    /// ```swift
    /// let options = DatabaseOptions(busyTimeoutMilliseconds: 10_000)
    /// ```
    public init(
        readOnly: Bool = false, busyTimeoutMilliseconds: Int = 5_000, switchesToWALOnOpen: Bool = true,
        writeGate: WriteGate? = nil
    ) {
        self.readOnly = readOnly
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.switchesToWALOnOpen = switchesToWALOnOpen
        self.writeGate = writeGate
    }
}

/// A connection to an SQLite database.
///
/// A connection belongs to one thread at a time and is not `Sendable`: each thread opens its own (SQLite in
/// WAL mode lets many readers and one writer work at once). Files are opened in WAL mode with
/// `synchronous=NORMAL`, foreign keys on, double-quoted string literals off, and created with mode 0600.
///
/// ```swift
/// let db = try Database(path: "/tmp/library.db")
/// try db.write { db in
///     try db.execute("INSERT INTO settings (key, value) VALUES (?, ?)", ["default_client", "1"])
/// }
/// ```
public final class Database {
    /// The path given at open (":memory:" for an in-memory database).
    ///
    /// ```swift
    /// print(db.path)
    /// ```
    public let path: String

    /// The options the database was opened with.
    ///
    /// ```swift
    /// if db.options.readOnly { ... }
    /// ```
    public let options: DatabaseOptions

    let connection: Connection
    /// The statements of `cachedStatement`, by SQL text: at most `statementCacheCapacity`, least recently used
    /// dropped first.
    private var statementCache: [String: Statement] = [:]
    /// Counts `cachedStatement` calls; each cached statement keeps the count of its last use.
    private var statementCacheClock: UInt64 = 0
    var savepointCounter = 0
    /// Whether this is a file opened for writing, which uses WAL.
    private let usesWAL: Bool
    private var isInWAL = false

    /// Opens (creating if missing, unless read-only) the database at `path`, or an in-memory one for ":memory:".
    ///
    /// `path` is a file path, never an SQLite URI: "file:lib.sqlite" is the file of that name in the current folder,
    /// as for any other program (SQLite, built to read URIs, would open "lib.sqlite").
    ///
    /// Throws `SQLiteError` when the file cannot be opened (`isCannotOpen`), is not a database
    /// (`isNotADatabase`, detected here without modifying the file) or cannot be switched to WAL.
    ///
    /// ```swift
    /// let db = try Database(path: "library.db")
    /// let memory = try Database(path: ":memory:")
    /// ```
    public init(path: String, options: DatabaseOptions = DatabaseOptions()) throws {
        self.path = path
        self.options = options
        let isFile = !(path.isEmpty || path == ":memory:")
        if isFile && !options.readOnly {
            Self.createPrivateFileIfMissing(path)
        }
        _ = sqliteConfigured
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= options.readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // SQLite is built to read a name that starts with "file:" as a URI (SQLITE_USE_URI); "./" makes it a path.
        let filename = path.hasPrefix("file:") ? "./" + path : path
        var handle = try Self.open(filename, flags: flags)
        if isFile && options.readOnly && Self.readFails(handle, with: SQLITE_READONLY) {
            // A WAL database in a folder this user cannot write, without its -shm file: SQLite cannot set up
            // shared memory, so even reads fail. Opened as immutable, reads work (and writes still fail).
            sqlite3_close_v2(handle)
            handle = try Self.open(Self.immutableURI(filename), flags: flags | SQLITE_OPEN_URI)
        }
        self.connection = Connection(handle: handle)
        self.usesWAL = isFile && !options.readOnly
        try configure()
    }

    /// Switches a file opened for writing to WAL journal mode with `synchronous=NORMAL`, if not done yet (at open,
    /// unless `switchesToWALOnOpen` is false); does nothing for read-only and in-memory databases.
    ///
    /// Throws when SQLite cannot switch (for example on a file system without shared memory).
    ///
    /// ```swift
    /// let db = try Database(path: path, options: DatabaseOptions(switchesToWALOnOpen: false))
    /// try check(db)  // reads only: the file is unchanged if it is refused
    /// try db.switchToWAL()
    /// ```
    public func switchToWAL() throws {
        guard usesWAL && !isInWAL else { return }
        let mode = try requestWAL()
        guard mode.lowercased() == "wal" else {
            throw SQLiteError(
                code: SQLITE_ERROR,
                message: "cannot switch \(path) to WAL journal mode (SQLite answered '\(mode)')",
                sql: "PRAGMA journal_mode=WAL")
        }
        try execute("PRAGMA synchronous=NORMAL")
        isInWAL = true
    }

    // MARK: - Running SQL

    /// Runs one statement with bound `arguments`, discarding any rows.
    ///
    /// The statement comes from `cachedStatement(_:)`, so this can run inside a row loop of the same SQL.
    ///
    /// ```swift
    /// try db.execute("UPDATE books SET status = ? WHERE id = ?", ["lost", 12])
    /// ```
    public func execute(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = []) throws {
        try cachedStatement(sql).execute(arguments)
    }

    /// Runs several `;`-separated statements without arguments (schema scripts, migrations).
    ///
    /// ```swift
    /// try db.execute(script: "CREATE TABLE a (x); CREATE TABLE b (y);")
    /// ```
    public func execute(script: String) throws {
        if connection.isReading { return try executeReading(script: script) }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(connection.handle, script, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(connection.handle), message: text, sql: script)
        }
    }

    /// A script inside a read transaction: each statement is prepared and checked with `sqlite3_stmt_readonly`
    /// before it runs, so one that writes throws before anything of it ran (the statements before it have run).
    private func executeReading(script: String) throws {
        try script.withCString { start in
            var rest = start
            while rest.pointee != 0 {
                var handle: OpaquePointer?
                var next: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(connection.handle, rest, -1, &handle, &next)
                defer { sqlite3_finalize(handle) }
                guard code == SQLITE_OK else {
                    throw SQLiteError(connection: connection.handle, code: code, sql: script)
                }
                guard let next, next > rest else { return }
                rest = next
                guard let handle else { continue }  // whitespace or a comment
                if sqlite3_stmt_readonly(handle) == 0 { throw SQLiteError.writeInsideRead(sql: script) }
                var step = sqlite3_step(handle)
                while step == SQLITE_ROW { step = sqlite3_step(handle) }
                guard step == SQLITE_DONE else {
                    throw SQLiteError(connection: connection.handle, code: step, sql: script)
                }
            }
        }
    }

    /// Prepares a new statement that the caller owns (finalized when released).
    ///
    /// ```swift
    /// let insert = try db.prepare("INSERT INTO books (title) VALUES (?)")
    /// ```
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: connection, sql: sql)
    }

    /// Returns a statement for `sql` prepared once per connection and kept for reuse.
    ///
    /// The statement is shared by everyone who asks for the same SQL (`execute`, `fetchAll` and `fetchOne` use it
    /// too), so use it at once rather than keep it bound. While it is in use (stepped to a row and not yet
    /// finished or reset) a call with the same SQL gets a newly prepared statement instead, which is kept in its
    /// place: the same SQL can run inside its own row loop, as in a recursive walk of a tree, without rewinding the
    /// outer loop. The cache holds at most `statementCacheCapacity` statements, dropping the least recently used;
    /// a statement dropped while someone still holds or steps it lives on until they let it go.
    ///
    /// ```swift
    /// let select = try db.cachedStatement("SELECT title FROM books WHERE id = ?")
    /// let title = try select.fetchOne([12]) { $0.string(0) }
    ///
    /// func walk(_ parent: Int) throws {  // every descendant of `parent`, depth first
    ///     try db.cachedStatement("SELECT id FROM nodes WHERE parent = ?").forEachRow([parent]) { row in
    ///         try walk(row.int(0))
    ///     }
    /// }
    /// ```
    public func cachedStatement(_ sql: String) throws -> Statement {
        statementCacheClock &+= 1
        if let statement = statementCache[sql], !statement.isInUse {
            statement.lastCacheUse = statementCacheClock
            return statement
        }
        let statement = try prepare(sql)
        statement.lastCacheUse = statementCacheClock
        let isNew = statementCache.updateValue(statement, forKey: sql) == nil
        if isNew && statementCache.count > Self.statementCacheCapacity,
            let oldest = statementCache.min(by: { $0.value.lastCacheUse < $1.value.lastCacheUse })
        {
            statementCache.removeValue(forKey: oldest.key)
        }
        return statement
    }

    /// The most statements `cachedStatement(_:)` keeps per connection: more than the library's own SQL texts, so
    /// its statements stay prepared, while a program that builds many distinct texts (values written into the SQL)
    /// does not grow without bound.
    ///
    /// ```swift
    /// Database.statementCacheCapacity  // 256
    /// ```
    public static let statementCacheCapacity = 256

    /// Decodes every row of `sql` with `decode`.
    ///
    /// The statement comes from `cachedStatement(_:)`, so `decode` may run the same SQL again.
    ///
    /// ```swift
    /// let names = try db.fetchAll("SELECT name FROM clients ORDER BY id") { $0.string(0) }
    /// ```
    public func fetchAll<T>(
        _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (Row) throws -> T
    ) throws -> [T] {
        try cachedStatement(sql).fetchAll(arguments, decode)
    }

    /// Decodes the first row of `sql` with `decode`, or returns nil when there is none.
    ///
    /// The statement comes from `cachedStatement(_:)`, so `decode` may run the same SQL again.
    ///
    /// ```swift
    /// let count = try db.fetchOne("SELECT count(*) FROM clients") { $0.int(0) } ?? 0
    /// ```
    public func fetchOne<T>(
        _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ decode: (Row) throws -> T
    ) throws -> T? {
        try cachedStatement(sql).fetchOne(arguments, decode)
    }

    /// The rowid of the last successful INSERT on this connection.
    ///
    /// ```swift
    /// try db.execute("INSERT INTO clients ...")
    /// let id = db.lastInsertedRowID
    /// ```
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(connection.handle) }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE on this connection.
    ///
    /// ```swift
    /// try db.execute("UPDATE loans SET returned_at = ? WHERE id = ?", [now, id])
    /// if db.changedRowCount == 0 { ... }
    /// ```
    public var changedRowCount: Int { Int(sqlite3_changes(connection.handle)) }

    /// The number of rows this connection has inserted, updated or deleted since it opened (rolled back ones
    /// included): when it moved, this connection wrote.
    ///
    /// ```swift
    /// let before = db.totalChangedRowCount
    /// try db.execute("UPDATE loans SET returned_at = ? WHERE id = ?", [now, id])
    /// db.totalChangedRowCount > before  // true
    /// ```
    public var totalChangedRowCount: Int { Int(sqlite3_total_changes64(connection.handle)) }

    /// Whether the database file was moved, renamed, deleted or replaced since this connection opened it: its path
    /// no longer names the file the connection has open (SQLite's `SQLITE_FCNTL_HAS_MOVED`, one `stat` of the path).
    /// What the connection would commit then goes to a file no other program opens by that name (in WAL mode to a
    /// `-wal` file under the old name), so it would be lost; `write` refuses such a file (`SQLiteError.isMoved`).
    /// Always false for an in-memory database.
    ///
    /// ```swift
    /// if db.hasMoved { print("\(db.path) was moved or deleted while open; open it again") }
    /// ```
    public var hasMoved: Bool {
        var moved: Int32 = 0
        let code = sqlite3_file_control(connection.handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        return code == SQLITE_OK && moved != 0
    }

    /// Whether a transaction is open on this connection.
    ///
    /// ```swift
    /// precondition(!db.isInTransaction)
    /// ```
    public var isInTransaction: Bool { sqlite3_get_autocommit(connection.handle) == 0 }
}

// MARK: - Connection

/// Owns the sqlite3 handle; statements keep it alive so it is closed after the last one is finalized.
final class Connection {
    let handle: OpaquePointer
    /// Whether a `read` transaction is open: statements that write are refused before they run.
    var isReading = false

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        sqlite3_close_v2(handle)
    }
}

// MARK: - Private

extension Database {
    private func configure() throws {
        let handle = connection.handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(clamping: options.busyTimeoutMilliseconds))
        for option in [SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DQS_DDL] {
            var result: Int32 = 0
            let code = librarycli_sqlite3_db_config_int(handle, option, 0, &result)
            guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code, sql: nil) }
        }
        // A cheap read of the header: a file that is not a database fails here (SQLITE_NOTADB, "file is not a
        // database"), before anything is written.
        _ = try fetchOne("PRAGMA schema_version") { $0.int(0) }
        if options.switchesToWALOnOpen {
            try switchToWAL()
        }
        try execute("PRAGMA foreign_keys=ON")
    }

    /// Asks for WAL journal mode, and returns the mode SQLite answered. Switching a new database to WAL needs an
    /// exclusive lock, and SQLite answers SQLITE_BUSY at once (without the busy handler) while another connection is
    /// reading it, as when two processes open a new database together: retry then, until the busy timeout.
    private func requestWAL() throws -> String {
        var waited = 0
        while true {
            do {
                return try fetchOne("PRAGMA journal_mode=WAL") { $0.string(0) } ?? ""
            } catch let error as SQLiteError where error.isBusy && waited < options.busyTimeoutMilliseconds {
                usleep(5_000)
                waited += 5
            }
        }
    }

    private static func open(_ path: String, flags: Int32) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        return handle
    }

    /// Whether a first read on `handle` fails with this primary result code.
    private static func readFails(_ handle: OpaquePointer, with code: Int32) -> Bool {
        sqlite3_exec(handle, "SELECT count(*) FROM sqlite_master", nil, nil, nil) & 0xFF == code
    }

    /// `file:PATH?immutable=1`, with the characters URIs reserve escaped.
    private static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                escaped += "%" + String(byte, radix: 16, uppercase: true)
            default:
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// Creates an empty file readable by its owner only, so SQLite (and its -wal, -shm files) use mode 0600.
    private static func createPrivateFileIfMissing(_ path: String) {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        }
    }
}

/// SQLite's process-wide configuration, done once before the first connection opens SQLite (Swift runs a global's
/// initializer once, on first use, thread-safely): no memory statistics (`sqlite3_memory_used` reads 0), which
/// otherwise take a global mutex around each of SQLite's allocations, about 40 per book of a bulk import.
private let sqliteConfigured: Bool = librarycli_sqlite3_config_no_memory_statistics() == SQLITE_OK
