import PostgreSQL
import SQLite

#if canImport(Glibc)
    import Glibc
#endif

/// The library's data: clients, books and loans over one database connection.
///
/// Every method runs in its own transaction, or joins the one already open on the connection (so a screen's
/// queries can share one read snapshot via `read`). Like its `Database`, a store belongs to one thread.
///
/// ```swift
/// let store = try LibraryStore.open(at: "library.db", now: now)
/// let ann = try store.addClient(name: "Ann", now: now)
/// let taken = try store.take(bookIDs: [12, 13], clientID: ann.id, now: now)
/// ```
public struct LibraryStore {
    /// The connection. Internal: only the Library module runs SQL on the library's tables, so a schema change
    /// touches one module.
    let database: StoreDatabase
    /// Days a loan (and each renewal) lasts (`LibraryRules.loanPeriodDays` unless told otherwise).
    public var loanPeriodDays: Int
    /// The most books one page of the library may hold.
    public static let maxPerPage = 10_000

    /// Creates a store over an open, migrated database.
    ///
    /// ```swift
    /// let store = LibraryStore(database: db, loanPeriodDays: 21)
    /// ```
    public init(database: Database, loanPeriodDays: Int = LibraryRules.loanPeriodDays) {
        precondition(loanPeriodDays > 0, "the loan period must be at least one day")
        self.database = StoreDatabase(sqlite: database)
        self.loanPeriodDays = loanPeriodDays
    }

    /// Creates a store over an open, migrated PostgreSQL connection (see `LibraryDatabase.open(postgresql:now:)`).
    ///
    /// ```swift
    /// let store = LibraryStore(postgresql: try LibraryDatabase.open(postgresql: url, now: now))
    /// ```
    public init(postgresql connection: PostgreSQLConnection, loanPeriodDays: Int = LibraryRules.loanPeriodDays) {
        precondition(loanPeriodDays > 0, "the loan period must be at least one day")
        self.database = StoreDatabase(postgresql: connection)
        self.loanPeriodDays = loanPeriodDays
    }

    /// Which SQL the store's database speaks.
    ///
    /// ```swift
    /// print(store.dialect)  // sqlite
    /// ```
    public var dialect: SQLDialect { database.dialect }

    /// Opens and migrates the database at `path` (see `LibraryDatabase.open`) and returns a store over it; a
    /// PostgreSQL URL (`postgresql://...`) connects to that database instead (`options` are SQLite's).
    ///
    /// ```swift
    /// let store = try LibraryStore.open(at: "library.db", now: Timestamp.systemNow())
    /// ```
    public static func open(
        at path: String, options: DatabaseOptions = DatabaseOptions(), now: Timestamp,
        loanPeriodDays: Int = LibraryRules.loanPeriodDays
    ) throws -> LibraryStore {
        if LibraryDatabase.isPostgreSQLURL(path) {
            return LibraryStore(
                postgresql: try LibraryDatabase.open(postgresql: path, now: now), loanPeriodDays: loanPeriodDays)
        }
        return LibraryStore(
            database: try LibraryDatabase.open(at: path, options: options, now: now),
            loanPeriodDays: loanPeriodDays)
    }

    /// Whether the database was opened read-only (a file this user cannot write): reads work, writes fail.
    ///
    /// ```swift
    /// if store.isReadOnly { print("read-only") }
    /// ```
    public var isReadOnly: Bool { database.isReadOnly }

    /// Runs `body` in one read transaction, so all the store's reads inside see one snapshot.
    ///
    /// ```swift
    /// let (summary, loans) = try store.read { store in
    ///     (try store.clientSummary(clientID: 1), try store.openLoans(clientID: 1, now: now))
    /// }
    /// ```
    public func read<T>(_ body: (LibraryStore) throws -> T) throws -> T {
        try reading { try body(self) }
    }

    /// Runs `body` in one IMMEDIATE write transaction (or a savepoint when one is already open).
    ///
    /// ```swift
    /// try store.write { store in
    ///     _ = try store.addClient(name: "Ann", now: now)
    ///     _ = try store.addClient(name: "Bob", now: now)
    /// }
    /// ```
    public func write<T>(_ body: (LibraryStore) throws -> T) throws -> T {
        try writing { try body(self) }
    }

    // MARK: - Internal

    func reading<T>(_ body: () throws -> T) throws -> T {
        if database.isInTransaction {
            return try body()
        }
        switch database.backend {
        case .sqlite(let sqlite): return try sqlite.read { _ in try body() }
        case .postgresql(let connection): return try connection.transaction(readOnly: true) { _ in try body() }
        }
    }

    /// Runs `body` in a write transaction (a savepoint inside one). On PostgreSQL a transaction that lost a
    /// serialization race or a deadlock (40001, 40P01) runs again, up to `LibraryRules.writeAttempts` times.
    func writing<T>(_ body: () throws -> T) throws -> T {
        switch database.backend {
        case .sqlite(let sqlite):
            if sqlite.isInTransaction { return try sqlite.savepoint { _ in try body() } }
            return try sqlite.write { _ in try body() }
        case .postgresql(let connection):
            if connection.isInTransaction { return try connection.savepoint { _ in try body() } }
            var attempt = 1
            while true {
                do {
                    return try connection.transaction { _ in try body() }
                } catch let error as PostgreSQLError where error.isRetryable && attempt < LibraryRules.writeAttempts {
                    attempt += 1
                    usleep(UInt32(1_000 * attempt * attempt))
                }
            }
        }
    }
}

// MARK: - Decoding rows

/// Column lists and decoders shared by the store's queries.
enum Columns {
    /// The book columns of table alias `b`, decoded by `book(_:at:)`.
    static let book = "b.id, b.title, b.author, b.year, b.pages, b.description, b.isbn, b.status"
    static let bookCount = 8
    /// The loan columns of table alias `l`, decoded by `loan(_:at:)`.
    static let loan = "l.id, l.book_id, l.client_id, l.taken_at, l.due_at, l.returned_at, l.renewals"
    static let loanCount = 7
    /// The client columns of table alias `c`.
    static let client = "c.id, c.name, c.card_number, c.loan_limit, c.created_at"

    static func book(_ row: StoreRow, at start: Int = 0) -> Book {
        Book(
            id: row.int(start), title: row.string(start + 1), author: row.string(start + 2),
            year: row.intOrNil(start + 3), pages: row.intOrNil(start + 4), description: row.string(start + 5),
            isbn: row.stringOrNil(start + 6), status: BookStatus(rawValue: row.string(start + 7)) ?? .withdrawn)
    }

    static func loan(_ row: StoreRow, at start: Int = 0) throws -> Loan {
        Loan(
            id: row.int(start), bookID: row.int(start + 1), clientID: row.int(start + 2),
            takenAt: try timestamp(row, start + 3), dueAt: try timestamp(row, start + 4),
            returnedAt: row.isNull(start + 5) ? nil : try timestamp(row, start + 5), renewals: row.int(start + 6))
    }

    static func client(_ row: StoreRow, at start: Int = 0) throws -> Client {
        Client(
            id: row.int(start), name: row.string(start + 1), cardNumber: row.string(start + 2),
            loanLimit: row.int(start + 3), createdAt: try timestamp(row, start + 4))
    }

    static func timestamp(_ row: StoreRow, _ index: Int) throws -> Timestamp {
        try row.timestamp(index)
    }
}
