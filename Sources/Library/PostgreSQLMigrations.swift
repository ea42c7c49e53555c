import PostgreSQL
import SQLite

extension Migrations {
    /// Every embedded PostgreSQL migration (`migrations/postgresql/*.sql`), in the order they apply: the same
    /// numbered names as SQLite's.
    ///
    /// ```swift
    /// Migrations.postgresql.map(\.name) == Migrations.embedded.map(\.name)  // true
    /// ```
    public static var postgresql: [Migration] {
        EmbeddedPostgreSQLMigrations.files.map {
            Migration(name: $0.name, sql: $0.text, checksum: $0.sha256)
        }
    }
}

/// Applies the PostgreSQL migrations, tracked in `schema_migrations` (name, SHA-256 checksum, time applied) as on
/// SQLite, with the same refusals: a database another program set up, a migration applied by a newer librarycli,
/// a migration edited after it was applied. Each pending migration runs in its own transaction holding
/// `pg_advisory_xact_lock`, so servers starting together on one database migrate it once.
///
/// ```swift
/// let migrator = PostgreSQLMigrator()
/// if try !migrator.status(connection).isUpToDate { try migrator.migrate(connection, appliedAt: now.iso8601) }
/// ```
public struct PostgreSQLMigrator: Sendable {
    /// The migrations, in order.
    public let migrations: [Migration]

    /// The key of the advisory lock migrations hold (any fixed number; "librarycli" in ASCII, shortened).
    static let lockKey = 0x6C69_6272_6172_7963

    /// Creates a migrator over `migrations` (the embedded PostgreSQL ones unless told otherwise).
    ///
    /// ```swift
    /// let migrator = PostgreSQLMigrator(migrations: Migrations.postgresql)
    /// ```
    public init(migrations: [Migration] = Migrations.postgresql) {
        self.migrations = migrations
    }

    /// Applied and pending migrations, reading only. Throws `MigrationError` for another program's database, an
    /// unknown (newer) migration or an edited one.
    ///
    /// ```swift
    /// print(try migrator.status(connection).pending)
    /// ```
    public func status(_ connection: PostgreSQLConnection) throws -> MigrationStatus {
        // One snapshot for all the queries: a migration another process commits between two of them would look
        // like another program's tables without a record of migrations.
        guard connection.isInTransaction else {
            return try connection.transaction(readOnly: true) { try status($0) }
        }
        try Self.checkSchemaUsable(connection)
        // Through pg_catalog, in the transaction's snapshot (to_regclass reads the latest catalog, so it could see a
        // table whose columns and rows this snapshot does not), and not through information_schema, which hides the
        // tables a role has no privilege on: such a role would find no library where there is one.
        let hasTable = try Self.hasMigrationsTable(connection)
        var recorded: [String: String] = [:]
        if hasTable {
            let ours =
                try connection.fetchOne(
                    """
                    SELECT count(*) FROM pg_catalog.pg_attribute a
                    JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
                    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = current_schema() AND c.relname = 'schema_migrations'
                      AND a.attnum > 0 AND NOT a.attisdropped AND a.attname IN ('name', 'checksum')
                    """
                ) { $0.int(0) } == 2
            guard ours else { throw MigrationError.foreignDatabase(tables: try Self.tables(connection)) }
            try connection.forEachRow("SELECT name, checksum FROM schema_migrations") { row in
                recorded[row.string(0)] = row.string(1)
            }
        }
        if recorded.isEmpty {
            let others = try Self.tables(connection).filter { $0 != "schema_migrations" }
            if !others.isEmpty { throw MigrationError.foreignDatabase(tables: others) }
        }
        return try MigrationStatus(recorded: recorded, migrations: migrations)
    }

    /// Applies the pending migrations, each in its own transaction under the advisory lock (a migration another
    /// server applied meanwhile is skipped); returns the names applied here.
    ///
    /// ```swift
    /// let applied = try migrator.migrate(connection, appliedAt: "2026-11-29T14:40:00Z")
    /// ```
    @discardableResult
    public func migrate(_ connection: PostgreSQLConnection, appliedAt: String) throws -> [String] {
        var applied: [String] = []
        for migration in migrations {
            let ran = try connection.transaction { connection -> Bool in
                try connection.execute("SELECT pg_advisory_xact_lock(CAST(? AS bigint))", [String(Self.lockKey)])
                // Only when missing: PostgreSQL checks CREATE on the schema before it looks for the table, so even
                // `CREATE TABLE IF NOT EXISTS` would refuse a role that may use the library but not create tables.
                // Under the lock, a table another server created meanwhile is seen (READ COMMITTED).
                if try !Self.hasMigrationsTable(connection) {
                    try connection.execute(
                        script: """
                            CREATE TABLE IF NOT EXISTS schema_migrations (
                                name       text COLLATE "C" PRIMARY KEY,
                                checksum   text NOT NULL,
                                applied_at timestamptz NOT NULL
                            )
                            """)
                }
                let status = try self.status(connection)
                guard status.pending.contains(migration.name) else { return false }
                try connection.execute(script: migration.sql)
                try connection.execute(
                    "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (?, ?, ?)",
                    [migration.name, migration.checksum, appliedAt])
                return true
            }
            if ran { applied.append(migration.name) }
        }
        return applied
    }

    /// Throws the role's missing USAGE on the schema that holds the library (42501, see
    /// `PrivilegeRefusal.missingUsage`): PostgreSQL leaves a schema the role may not use out of its search path, so
    /// `current_schema()` is NULL, and the role would find no library where there is one, and try to create it. The
    /// schema is the first of the search path that exists, as it is for a role that may use it.
    static func checkSchemaUsable(_ connection: PostgreSQLConnection) throws {
        let found = try connection.fetchOne(
            """
            SELECT current_schema() IS NULL,
                (SELECT n.nspname::text
                 FROM unnest(string_to_array(current_setting('search_path'), ',')) WITH ORDINALITY AS p(entry, position)
                 CROSS JOIN LATERAL (SELECT btrim(p.entry, ' ') AS name) AS t
                 JOIN pg_catalog.pg_namespace n ON n.nspname = CASE
                     WHEN t.name IN ('"$user"', '$user') THEN current_user::text
                     WHEN t.name LIKE '"%"' THEN replace(substr(t.name, 2, length(t.name) - 2), '""', '"')
                     ELSE lower(t.name) END
                 ORDER BY p.position LIMIT 1)
            """
        ) { (unusable: $0.bool(0), schema: $0.stringOrNil(1)) }
        guard let found, found.unusable, let schema = found.schema,
            try connection.fetchOne("SELECT has_schema_privilege(?, 'USAGE')", [schema], { $0.bool(0) }) == false
        else { return }
        // The server's own refusal, which names the role as the connection shows it (without its password).
        do {
            try connection.execute(script: "SELECT FROM \(PrivilegeRefusal.identifier(schema)).schema_migrations")
        } catch let error as PostgreSQLError where error.isInsufficientPrivilege {
            throw PrivilegeRefusal.missingUsage(error)
        }
    }

    /// Whether the connection's current schema holds a `schema_migrations` table, read through pg_catalog (which
    /// privileges do not hide), so that a role without CREATE on the schema never needs to try to create it.
    static func hasMigrationsTable(_ connection: PostgreSQLConnection) throws -> Bool {
        try connection.fetchOne(
            """
            SELECT count(*) FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relname = 'schema_migrations' AND c.relkind IN ('r', 'p')
            """
        ) { $0.int(0) } == 1
    }

    /// The tables of the connection's current schema, by name: every one, whatever the role may do with it.
    static func tables(_ connection: PostgreSQLConnection) throws -> [String] {
        try connection.fetchAll(
            """
            SELECT c.relname::text FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname COLLATE "C"
            """
        ) { $0.string(0) }
    }
}

extension LibraryDatabase {
    /// Whether `location` names a PostgreSQL database (`postgresql://...` or `postgres://...`, libpq's URL schemes)
    /// rather than an SQLite file.
    ///
    /// ```swift
    /// LibraryDatabase.isPostgreSQLURL("postgresql:///library")  // true
    /// ```
    public static func isPostgreSQLURL(_ location: String) -> Bool {
        location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
    }

    /// Connects to the PostgreSQL database at `url` and applies pending migrations, recording `now`; throws
    /// `PostgreSQLError` (cannot connect, authentication, no such database) or `MigrationError` (another
    /// program's database, a newer librarycli, an edited migration).
    ///
    /// ```swift
    /// let store = LibraryStore(postgresql: try LibraryDatabase.open(postgresql: "postgresql:///library", now: now))
    /// ```
    public static func open(postgresql url: String, now: Timestamp, migrating: Bool = true) throws
        -> PostgreSQLConnection
    {
        try openTellingCreation(postgresql: url, now: now, migrating: migrating).connection
    }

    /// Connects as ``open(postgresql:now:migrating:)`` does, and tells whether this call made the library: `created`
    /// is true when it applied the first migration, false when the library was there already, even if another
    /// process made it a moment before (migrations are applied under an advisory lock, so exactly one creates it).
    ///
    /// ```swift
    /// let (connection, created) = try LibraryDatabase.openTellingCreation(postgresql: url, now: now)
    /// ```
    public static func openTellingCreation(postgresql url: String, now: Timestamp, migrating: Bool = true) throws
        -> (connection: PostgreSQLConnection, created: Bool)
    {
        let connection = try PostgreSQLConnection(url: url)
        let migrator = PostgreSQLMigrator()
        let status = try migrator.status(connection)
        guard !status.isUpToDate else { return (connection, false) }
        guard migrating else { throw MigrationError.pendingMigrations(names: status.pending) }
        let applied = try migrator.migrate(connection, appliedAt: now.iso8601)
        return (connection, !applied.isEmpty && applied.first == migrator.migrations.first?.name)
    }
}
