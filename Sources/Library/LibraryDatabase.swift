import SQLite

/// The library's schema migrations, embedded from `migrations/*.sql` at build time, in name order.
///
/// ```swift
/// let migrator = Migrator(migrations: Migrations.embedded)
/// ```
public enum Migrations {
    /// Every embedded migration, in the order they apply.
    ///
    /// ```swift
    /// Migrations.embedded.map(\.name)  // ["0001_create_library.sql"]
    /// ```
    public static var embedded: [Migration] {
        EmbeddedMigrations.files.map { Migration(name: $0.name, sql: $0.text, checksum: $0.sha256) }
    }

    /// A migrator over the embedded migrations.
    ///
    /// ```swift
    /// try Migrations.migrator.isUpToDate(db)
    /// ```
    public static var migrator: Migrator {
        Migrator(migrations: embedded) { try LibraryDatabase.defineFunctions(on: $0) }
    }
}

/// Opening a library database.
///
/// ```swift
/// let db = try LibraryDatabase.open(at: "library.db", now: Timestamp.systemNow())
/// let store = LibraryStore(database: db)
/// ```
public enum LibraryDatabase {
    /// Opens the database at `path` (created if missing) and applies pending migrations, recording `now`.
    ///
    /// The file is checked first, as `openWithoutMigrating` does, so a database that is not librarycli's (another
    /// program's tables, a damaged schema, a newer librarycli) is refused unchanged. When the schema is already
    /// current this only reads. Read-only databases are checked, not migrated. Throws `SQLiteError` (busy,
    /// read-only, cannot open, not a database) or `MigrationError` (newer schema, edited migration, pending
    /// migrations on a read-only open, another program's database, a damaged schema).
    ///
    /// ```swift
    /// let db = try LibraryDatabase.open(at: path, options: DatabaseOptions(busyTimeoutMilliseconds: 2_000), now: now)
    /// ```
    public static func open(at path: String, options: DatabaseOptions = DatabaseOptions(), now: Timestamp) throws
        -> Database
    {
        try openTellingCreation(at: path, options: options, now: now).database
    }

    /// Opens as ``open(at:options:now:)`` does, and tells whether this call made the library: `created` is true when
    /// it applied the first migration, false when the library was there already, even if another process made it a
    /// moment before (the migrations are applied under the database's write lock, so exactly one opener creates it).
    ///
    /// ```swift
    /// let (db, created) = try LibraryDatabase.openTellingCreation(at: path, now: now)
    /// if created { print("Created \(path).") }
    /// ```
    public static func openTellingCreation(
        at path: String, options: DatabaseOptions = DatabaseOptions(), now: Timestamp
    ) throws -> (database: Database, created: Bool) {
        let database = try openWithoutMigrating(at: path, options: options)
        let migrator = Migrations.migrator
        let status = try migrator.status(database)
        guard !status.isUpToDate else { return (database, false) }
        if options.readOnly {
            throw MigrationError.pendingMigrations(names: status.pending)
        }
        let applied = try migrator.migrate(database, appliedAt: now.iso8601)
        return (database, applied.first == migrator.migrations.first?.name && !applied.isEmpty)
    }

    /// Opens the database at `path` (created if missing) without applying migrations, after checking, by reading
    /// only, that it is new or empty, or a librarycli database whose schema is what its applied migrations create.
    ///
    /// Nothing is written before the checks pass (not even the switch to WAL), so a refused file stays exactly as
    /// it was. Throws as `open` does, except for pending migrations.
    ///
    /// ```swift
    /// let db = try LibraryDatabase.openWithoutMigrating(at: path)
    /// let status = try Migrations.migrator.status(db)
    /// ```
    public static func openWithoutMigrating(at path: String, options: DatabaseOptions = DatabaseOptions()) throws
        -> Database
    {
        var checking = options
        checking.switchesToWALOnOpen = false
        let database = try Database(path: path, options: checking)
        try defineFunctions(on: database)
        try Migrations.migrator.verifySchemaIfChanged(database)
        if options.switchesToWALOnOpen {
            try database.switchToWAL()
        }
        return database
    }

    /// Defines the SQL functions librarycli's migrations and checks use on a connection opened some other way
    /// (`open` and `openWithoutMigrating` do it themselves): `library_search_text(text)`, the text the search index holds
    /// (`SearchFolding.indexText`).
    ///
    /// ```swift
    /// let db = try Database(path: path)
    /// try LibraryDatabase.defineFunctions(on: db)
    /// try Migrations.migrator.migrate(db, appliedAt: now.iso8601)
    /// ```
    public static func defineFunctions(on database: Database) throws {
        try database.defineFunction("library_search_text", SearchFolding.indexText)
    }
}
