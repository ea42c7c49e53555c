/// One schema migration: a unique name (migrations apply in the order given) and its SQL script.
///
/// ```swift
/// let migration = Migration(name: "0001_create_library.sql", sql: "CREATE TABLE t (x) STRICT;")
/// ```
public struct Migration: Sendable, Equatable {
    /// The name, recorded in `schema_migrations` once applied.
    public let name: String
    /// The SQL script.
    public let sql: String

    /// Creates a migration.
    ///
    /// ```swift
    /// Migration(name: "0002_add_index.sql", sql: "CREATE INDEX ...;")
    /// ```
    public init(name: String, sql: String) {
        self.init(name: name, sql: sql, checksum: SHA256.hexDigest(of: sql))
    }

    /// Creates a migration whose checksum was computed before (at build time, for the embedded ones: hashing them
    /// at every start was 6% of a short command's work). A test proves each equals `SHA256.hexDigest(of: sql)`.
    ///
    /// ```swift
    /// Migration(name: file.name, sql: file.text, checksum: file.sha256)
    /// ```
    public init(name: String, sql: String, checksum: String) {
        self.name = name
        self.sql = sql
        self.checksum = checksum
    }

    /// The SHA-256 of the SQL, hex; stored when applied and compared on every later check.
    ///
    /// ```swift
    /// print(migration.checksum)
    /// ```
    public let checksum: String
}

/// Why the migrator refused a database. Nothing was changed when it throws one of these.
///
/// ```swift
/// catch let error as MigrationError { print(error.message) }
/// ```
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database has a migration applied that this program does not know: it was written by a newer program.
    case unknownMigration(name: String)
    /// An applied migration's SQL differs from the one this program carries.
    case checksumMismatch(name: String)
    /// Applying the migration left rows that break a foreign key.
    case foreignKeyViolation(name: String, table: String)
    /// The database needs migrations but was opened read-only.
    case pendingMigrations(names: [String])
    /// The database holds tables (or other objects) but no record of migrations: another program's database.
    case foreignDatabase(tables: [String])
    /// A table, index, trigger or view the applied migrations create is missing or was changed by hand.
    case damagedSchema(problem: String)

    /// Whether the database is not one these migrations made (another program's, or one changed by hand), rather
    /// than one they made at another version.
    ///
    /// ```swift
    /// if error.isNotOurs { print("'\(path)' is \(error.message)") }
    /// ```
    public var isNotOurs: Bool {
        switch self {
        case .foreignDatabase, .damagedSchema: true
        case .unknownMigration, .checksumMismatch, .foreignKeyViolation, .pendingMigrations: false
        }
    }

    /// A plain English explanation. For `foreignDatabase` and `damagedSchema` it reads after "the file is".
    ///
    /// ```swift
    /// print(MigrationError.checksumMismatch(name: "0001.sql").message)
    /// print("'\(path)' is \(MigrationError.damagedSchema(problem: "table loans is missing").message)")
    /// ```
    public var message: String {
        switch self {
        case .unknownMigration(let name):
            return "the database was written by a newer librarycli (unknown migration \(name)); upgrade librarycli"
        case .checksumMismatch(let name):
            return "migration \(name) was edited after it was applied; the database schema cannot be trusted"
        case .foreignKeyViolation(let name, let table):
            return "migration \(name) would leave broken references in table \(table); it was not applied"
        case .pendingMigrations(let names):
            return "the database needs migrating (\(names.joined(separator: ", "))) but was opened read-only"
        case .foreignDatabase(let tables):
            let shown = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", ..." : "")
            return "not a librarycli database: it holds other tables (\(shown)) and no record of librarycli's "
                + "migrations; it was left as it is"
        case .damagedSchema(let problem):
            return "not a librarycli database or damaged: \(problem); it was left as it is"
        }
    }

    /// Same as `message`.
    ///
    /// ```swift
    /// print("error: \(error)")
    /// ```
    public var description: String { message }
}

/// Which migrations a database has and which it still needs.
///
/// ```swift
/// let status = try migrator.status(db)
/// print(status.applied, status.pending)
/// ```
public struct MigrationStatus: Sendable, Equatable {
    /// Names of applied migrations, in order.
    public var applied: [String]
    /// Names of migrations still to apply, in order.
    public var pending: [String]

    /// Creates a status.
    ///
    /// ```swift
    /// MigrationStatus(applied: ["0001_create_library.sql"], pending: [])
    /// ```
    public init(applied: [String], pending: [String]) {
        self.applied = applied
        self.pending = pending
    }

    /// Whether nothing is pending.
    ///
    /// ```swift
    /// if status.isUpToDate { ... }
    /// ```
    public var isUpToDate: Bool { pending.isEmpty }
}

/// Applies an ordered list of migrations, tracked in `schema_migrations`, each in its own IMMEDIATE transaction.
///
/// Each migration runs with foreign keys off (so it may rebuild a table that others reference, as SQLite's 12-step
/// procedure does) and `PRAGMA foreign_key_check` runs before its COMMIT: a broken reference rolls it back with
/// `MigrationError.foreignKeyViolation`. Foreign keys are on again afterwards.
///
/// Safe for several processes at once: each transaction re-reads what is applied, so a second migrator finds
/// nothing left to do. Refuses databases written by a newer program or whose applied migrations were edited.
///
/// ```swift
/// let migrator = Migrator(migrations: [Migration(name: "0001.sql", sql: "CREATE TABLE t (x) STRICT;")])
/// try migrator.migrate(db, appliedAt: "2026-11-29T14:40:00Z")
/// ```
public struct Migrator: Sendable {
    /// The migrations in the order they apply.
    public let migrations: [Migration]
    /// Sets up a connection the migrations run on that the migrator opens itself (the in-memory database
    /// `verifySchema` builds), such as defining the SQL functions the migrations call.
    public let prepareConnection: @Sendable (Database) throws -> Void

    /// Creates a migrator; names must be unique. `prepareConnection` runs on connections the migrator opens itself;
    /// connections passed in are prepared by their owner.
    ///
    /// ```swift
    /// let migrator = Migrator(migrations: Migrations.embedded) { try LibraryDatabase.defineFunctions(on: $0) }
    /// ```
    public init(migrations: [Migration], prepareConnection: @escaping @Sendable (Database) throws -> Void = { _ in }) {
        precondition(Set(migrations.map(\.name)).count == migrations.count, "migration names must be unique")
        self.migrations = migrations
        self.prepareConnection = prepareConnection
    }

    /// Applies every pending migration; returns the names applied (empty when already up to date).
    ///
    /// `appliedAt` is recorded as the applied time (the caller's clock).
    ///
    /// ```swift
    /// let applied = try migrator.migrate(db, appliedAt: now.iso8601)
    /// ```
    @discardableResult
    public func migrate(_ db: Database, appliedAt: String) throws -> [String] {
        try migrate(db, appliedAt: appliedAt, verifying: true)
    }

    /// Applies every pending migration; with `verifying`, then checks the schema they made and records it.
    private func migrate(_ db: Database, appliedAt: String, verifying: Bool) throws -> [String] {
        // Fast path and early refusal without writing anything.
        let before = try db.read { try status(in: $0) }
        if before.isUpToDate {
            return []
        }
        if verifying && !before.applied.isEmpty {
            try checkBeforeMigrating(db)
        }
        var applied: [String] = []
        for migration in migrations {
            let didApply = try Self.withForeignKeysOff(db) {
                try db.write { db -> Bool in
                    try db.execute(script: Self.createTrackingTable)
                    let current = try status(in: db)
                    guard current.pending.contains(migration.name) else { return false }
                    try db.execute(script: migration.sql)
                    try db.execute(
                        "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (?, ?, ?)",
                        [migration.name, migration.checksum, appliedAt])
                    // Foreign keys were off: check every reference before COMMIT; a broken one rolls back.
                    if let table = try db.fetchOne("PRAGMA foreign_key_check", [], { $0.string(0) }) {
                        throw MigrationError.foreignKeyViolation(name: migration.name, table: table)
                    }
                    return true
                }
            }
            if didApply {
                applied.append(migration.name)
            }
        }
        if verifying && !applied.isEmpty {
            // Check the result once, here, and remember the schema it was checked at, so that opening the database
            // later (`verifySchemaIfChanged`) costs one read instead of building the schema again.
            try db.write { db in
                try verifySchema(db)
                try db.execute(
                    "INSERT INTO schema_verified (id, schema_version) VALUES (1, ?) "
                        + "ON CONFLICT (id) DO UPDATE SET schema_version = excluded.schema_version",
                    [try Self.schemaVersion(db)])
            }
        }
        return applied
    }

    /// Before migrating a database some migrations were applied to: checks, by reading only, that its schema is what
    /// they make (`verifySchema`) and that nothing the pending ones create is there already. A record of an applied
    /// migration deleted by hand hides no schema change (SQLite's count does not move), and would otherwise run that
    /// migration again over what it made: it fails half-way ("table already exists") or, worse, succeeds.
    /// The applied migrations are read again in the same read as the schema: another process may have applied more
    /// since the caller looked (several processes creating one library at once), and what it made is not damage.
    private func checkBeforeMigrating(_ db: Database) throws {
        try db.read { db in
            let applied = try status(in: db).applied
            try verifySchema(db)
            let made = Set(try schema(createdBy: migrations.filter { applied.contains($0.name) }).map(\.key))
            let present = Set(try Self.schemaObjects(db).map(\.key))
            for object in try schema(createdBy: migrations)
            where !made.contains(object.key) && present.contains(object.key) {
                throw MigrationError.damagedSchema(
                    problem: "\(object.key.type) \(object.key.name) is there already, though the migration that "
                        + "creates it is not recorded as applied")
            }
        }
    }

    /// Reports applied and pending migrations, reading only `schema_migrations`.
    ///
    /// Throws `MigrationError.unknownMigration`, `.checksumMismatch` or `.damagedSchema` (a migration not recorded
    /// while a later one is) for a database it must refuse.
    ///
    /// ```swift
    /// let status = try migrator.status(db)
    /// ```
    public func status(_ db: Database) throws -> MigrationStatus {
        if db.isInTransaction {
            return try status(in: db)
        }
        return try db.read { try status(in: $0) }
    }

    /// Checks that every table, index, trigger and view the applied migrations create is in the database exactly
    /// as they create it (objects they do not create are allowed); reads only.
    ///
    /// The expected schema comes from applying the same migrations to an in-memory database, so a table dropped or
    /// altered by hand is found here, at open, rather than as "no such table" in the middle of a command. Throws
    /// `MigrationError.damagedSchema` naming the first object missing or changed (or the errors of `status`).
    ///
    /// ```swift
    /// try migrator.verifySchema(db)  // "table loans is missing"
    /// ```
    public func verifySchema(_ db: Database) throws {
        let (applied, actual) = try db.isInTransaction ? readSchema(db) : db.read { try readSchema($0) }
        let expected = try schema(createdBy: migrations.filter { applied.contains($0.name) })
        let found = Dictionary(actual.map { ($0.key, $0.sql) }, uniquingKeysWith: { first, _ in first })
        // The tracking table is the migrator's own: its shape was checked by `status`.
        for object in expected where !Self.trackingTables.contains(object.key.name) {
            guard let sql = found[object.key] else {
                throw MigrationError.damagedSchema(problem: "\(object.key.type) \(object.key.name) is missing")
            }
            guard sql == object.sql else {
                throw MigrationError.damagedSchema(
                    problem: "\(object.key.type) \(object.key.name) differs from what the migrations create")
            }
        }
    }

    /// Verifies the schema as `verifySchema` does, unless it is unchanged since the migrator last verified it.
    ///
    /// SQLite counts every change to a database's schema (`PRAGMA schema_version`); `migrate` records the count at
    /// which it verified the schema. While the two agree, nothing was created, altered or dropped since, and this
    /// costs one read (of the count, and of `schema_migrations` for the refusals of `status`: a record deleted by
    /// hand moves no count); otherwise (a table dropped by hand, a database migrated before the count was kept) it
    /// checks the whole schema. Reads only.
    ///
    /// ```swift
    /// try migrator.verifySchemaIfChanged(db)  // at every open
    /// ```
    public func verifySchemaIfChanged(_ db: Database) throws {
        let unchanged = try db.read { db -> Bool in
            let hasRecord =
                try db.fetchOne(
                    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_verified'", [], { _ in true })
                ?? false
            // What is recorded as applied is part of the schema: a record deleted by hand changes no schema count.
            _ = try status(in: db)
            guard hasRecord else { return false }
            let verified = try db.fetchOne("SELECT schema_version FROM schema_verified WHERE id = 1") { $0.int(0) }
            return try verified == Self.schemaVersion(db)
        }
        if !unchanged {
            try verifySchema(db)
        }
    }

    /// Whether every migration is applied (and none is unknown or edited); cheap enough for every start-up.
    ///
    /// ```swift
    /// if try !migrator.isUpToDate(db) { try migrator.migrate(db, appliedAt: now.iso8601) }
    /// ```
    public func isUpToDate(_ db: Database) throws -> Bool {
        try status(db).isUpToDate
    }

    // MARK: - Private

    /// Runs `body` (one migration's transaction) with foreign keys off, then turns them back on if they were.
    ///
    /// `PRAGMA foreign_keys` is a no-op inside a transaction, so it is set around it. With foreign keys on, SQLite's
    /// 12-step table rebuild (the only way to change a CHECK rule) fails at DROP TABLE when other tables reference
    /// the table; the migration's own `PRAGMA foreign_key_check` before COMMIT keeps the references sound instead.
    private static func withForeignKeysOff<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        precondition(!db.isInTransaction, "migrations run outside any transaction")
        let wereOn = try db.fetchOne("PRAGMA foreign_keys") { $0.bool(0) } ?? false
        if wereOn { try db.execute("PRAGMA foreign_keys=OFF") }
        let result = Result { try body() }
        if wereOn { try db.execute("PRAGMA foreign_keys=ON") }
        return try result.get()
    }

    /// The migrator's own tables: what is applied, and the schema version at which the schema was last verified.
    private static let trackingTables: Set<String> = ["schema_migrations", "schema_verified"]

    private static let createTrackingTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            name       TEXT PRIMARY KEY,
            checksum   TEXT NOT NULL,
            applied_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE IF NOT EXISTS schema_verified (
            id             INTEGER PRIMARY KEY CHECK (id = 1),
            schema_version INTEGER NOT NULL
        ) STRICT;
        """

    /// SQLite's count of schema changes (`PRAGMA schema_version`).
    private static func schemaVersion(_ db: Database) throws -> Int {
        try db.fetchOne("PRAGMA schema_version") { $0.int(0) } ?? 0
    }

    /// One table, index, trigger or view, as `sqlite_schema` holds it.
    private struct SchemaObject {
        struct Key: Hashable {
            var type: String
            var name: String
        }
        var key: Key
        var sql: String
    }

    /// The objects of `db` (SQLite's own `sqlite_*` ones left out), in creation order.
    private static func schemaObjects(_ db: Database) throws -> [SchemaObject] {
        try db.fetchAll(
            "SELECT type, name, ifnull(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                + "ORDER BY rowid"
        ) { SchemaObject(key: .init(type: $0.string(0), name: $0.string(1)), sql: $0.string(2)) }
    }

    private func readSchema(_ db: Database) throws -> (applied: [String], objects: [SchemaObject]) {
        (try status(in: db).applied, try Self.schemaObjects(db))
    }

    /// The schema `migrations` create, applied to a new in-memory database.
    private func schema(createdBy migrations: [Migration]) throws -> [SchemaObject] {
        guard !migrations.isEmpty else { return [] }
        let memory = try Database(path: ":memory:")
        try prepareConnection(memory)
        _ = try Migrator(migrations: migrations).migrate(memory, appliedAt: "", verifying: false)
        return try Self.schemaObjects(memory)
    }

    private func status(in db: Database) throws -> MigrationStatus {
        let hasTable =
            try db.fetchOne(
                "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'", [], { _ in true })
            ?? false
        var recorded: [String: String] = [:]
        if hasTable {
            // Another program's `schema_migrations` (Rails has one) is not ours: ours has name and checksum.
            let ours =
                try db.fetchOne(
                    "SELECT count(*) FROM pragma_table_info('schema_migrations') WHERE name IN ('name', 'checksum')"
                ) { $0.int(0) } == 2
            guard ours else {
                throw MigrationError.foreignDatabase(tables: try Self.schemaObjects(db).map(\.key.name))
            }
            try db.cachedStatement("SELECT name, checksum FROM schema_migrations").forEachRow { row in
                recorded[row.string(0)] = row.string(1)
            }
        }
        if recorded.isEmpty {
            // Nothing recorded: only an empty database may be migrated; another program's tables are left alone.
            let others = try Self.schemaObjects(db).filter { !Self.trackingTables.contains($0.key.name) }
            if !others.isEmpty {
                throw MigrationError.foreignDatabase(tables: others.map(\.key.name))
            }
        }
        return try MigrationStatus(recorded: recorded, migrations: migrations)
    }
}

extension MigrationStatus {
    /// The status of `migrations` against what a database recorded (name -> checksum), with the refusals every
    /// store makes: a recorded name none of `migrations` has (a newer librarycli wrote it), a checksum that
    /// differs (the migration was edited after it was applied), and a migration not recorded while a later one is
    /// (its record was deleted by hand: migrations apply in order, so its objects are there, and running it again
    /// would fail half-way or repeat its changes), which is a schema changed by hand (`damagedSchema`).
    ///
    /// ```swift
    /// let status = try MigrationStatus(recorded: ["0001.sql": checksum], migrations: migrations)
    /// ```
    public init(recorded: [String: String], migrations: [Migration]) throws {
        let known = Set(migrations.map(\.name))
        if let unknown = recorded.keys.filter({ !known.contains($0) }).sorted().first {
            throw MigrationError.unknownMigration(name: unknown)
        }
        self.init(applied: [], pending: [])
        for migration in migrations {
            if let checksum = recorded[migration.name] {
                guard checksum == migration.checksum else {
                    throw MigrationError.checksumMismatch(name: migration.name)
                }
                if let missing = pending.first {
                    throw MigrationError.damagedSchema(
                        problem: "migration \(missing) is not recorded as applied, though the later "
                            + "\(migration.name) is")
                }
                applied.append(migration.name)
            } else {
                pending.append(migration.name)
            }
        }
    }
}
