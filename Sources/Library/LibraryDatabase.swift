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
        EmbeddedMigrations.files.map { Migration(name: $0.name, sql: $0.text) }
    }

    /// A migrator over the embedded migrations.
    ///
    /// ```swift
    /// try Migrations.migrator.isUpToDate(db)
    /// ```
    public static var migrator: Migrator { Migrator(migrations: embedded) }
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
    /// When the schema is already current this only reads `schema_migrations`. Read-only databases are checked,
    /// not migrated. Throws `SQLiteError` (busy, read-only, cannot open, not a database) or `MigrationError`
    /// (newer schema, edited migration, pending migrations on a read-only open).
    ///
    /// ```swift
    /// let db = try LibraryDatabase.open(at: path, options: DatabaseOptions(busyTimeoutMilliseconds: 2_000), now: now)
    /// ```
    public static func open(at path: String, options: DatabaseOptions = DatabaseOptions(), now: Timestamp) throws
        -> Database
    {
        let database = try Database(path: path, options: options)
        try defineFunctions(on: database)
        let migrator = Migrations.migrator
        let status = try migrator.status(database)
        if !status.isUpToDate {
            if options.readOnly {
                throw MigrationError.pendingMigrations(names: status.pending)
            }
            try migrator.migrate(database, appliedAt: now.iso8601)
        }
        return database
    }

    /// Defines the SQL functions librarycli's migrations and checks use on a connection opened some other way
    /// (`open` does it itself): `library_search_text(text)`, the text the search index holds
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
