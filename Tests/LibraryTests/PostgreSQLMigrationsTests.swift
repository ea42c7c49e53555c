import Foundation
import PostgreSQL
import SQLite
import StoreTestSupport
import Testing

@testable import Library

/// The PostgreSQL schema's migrations: the same names as SQLite's, embedded from migrations/postgresql, applied once
/// each, and the same refusals as SQLite's migrator.
@Suite struct PostgreSQLMigrationsTests {
    static let now = Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 40)!

    @Test func theMigrationsHaveSQLitesNames() {
        #expect(!Migrations.postgresql.isEmpty)
        #expect(Migrations.postgresql.map(\.name) == Migrations.embedded.map(\.name))
    }

    @Test func embeddedMigrationsEqualTheFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations").appendingPathComponent("postgresql")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(Migrations.postgresql.map(\.name) == names)
        for migration in Migrations.postgresql {
            let text = try String(contentsOf: folder.appendingPathComponent(migration.name), encoding: .utf8)
            #expect(migration.sql == text, "\(migration.name) differs from the folder")
        }
    }

    @Test(.needsPostgreSQL)
    func openMigratesOnceAndRecordsTheClock() throws {
        let database = try PostgreSQLTestDatabase(migrated: false)
        let names = Migrations.postgresql.map(\.name)
        do {
            let connection = try LibraryDatabase.open(postgresql: database.url, now: Self.now)
            #expect(try PostgreSQLMigrator().status(connection).applied == names)
        }
        let later = try Self.now.adding(days: 1)
        let connection = try LibraryDatabase.open(postgresql: database.url, now: later)
        #expect(try PostgreSQLMigrator().migrate(connection, appliedAt: later.iso8601).isEmpty)
        let applied = try connection.fetchAll(
            "SELECT name, to_char(applied_at, 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM schema_migrations ORDER BY name"
        ) { [$0.string(0), $0.string(1)] }
        #expect(applied == names.map { [$0, Self.now.iso8601] })
    }

    @Test(.needsPostgreSQL)
    func migratingFromSeveralConnectionsAtOnceAppliesEachMigrationOnce() throws {
        let database = try PostgreSQLTestDatabase(migrated: false)
        let url = database.url
        let applied = Shared<[String]>([])
        runOnThreads(4) { _ in
            do {
                let connection = try PostgreSQLConnection(url: url)
                let names = try PostgreSQLMigrator().migrate(connection, appliedAt: Self.now.iso8601)
                applied.withLock { $0 += names }
            } catch {
                Issue.record("migrating: \(error)")
            }
        }
        #expect(applied.withLock { $0.sorted() } == Migrations.postgresql.map(\.name))
        let connection = try PostgreSQLConnection(url: url)
        #expect(
            try connection.fetchOne("SELECT count(*) FROM schema_migrations") { $0.int(0) }
                == applied.withLock { $0.count })
        #expect(try PostgreSQLMigrator().status(connection).isUpToDate)
    }

    @Test(.needsPostgreSQL)
    func anEditedMigrationIsRefused() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try PostgreSQLConnection(url: database.url)
        var edited = Migrations.postgresql
        edited[1] = Migration(name: edited[1].name, sql: edited[1].sql + "\n-- edited after it was applied\n")
        let migrator = PostgreSQLMigrator(migrations: edited)
        #expect(throws: MigrationError.checksumMismatch(name: edited[1].name)) { try migrator.status(connection) }
        #expect(throws: MigrationError.checksumMismatch(name: edited[1].name)) {
            try migrator.migrate(connection, appliedAt: Self.now.iso8601)
        }
    }

    @Test(.needsPostgreSQL)
    func aMigrationFromANewerLibrarycliIsRefused() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try PostgreSQLConnection(url: database.url)
        // This librarycli knows the first three migrations; the database has the fourth too.
        let older = PostgreSQLMigrator(migrations: Array(Migrations.postgresql.prefix(3)))
        let newest = Migrations.postgresql[3].name
        #expect(throws: MigrationError.unknownMigration(name: newest)) { try older.status(connection) }
        #expect(throws: MigrationError.unknownMigration(name: newest)) {
            try older.migrate(connection, appliedAt: Self.now.iso8601)
        }
        // A name no librarycli has made yet, as the store opens it.
        try connection.execute(
            "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES ('9999_future.sql', 'x', now())")
        #expect(throws: MigrationError.unknownMigration(name: "9999_future.sql")) {
            try LibraryStore.open(at: database.url, now: Self.now)
        }
    }

    @Test(.needsPostgreSQL)
    func anotherProgramsDatabaseIsRefusedUnchanged() throws {
        let database = try PostgreSQLTestDatabase(migrated: false)
        let connection = try PostgreSQLConnection(url: database.url)
        try connection.execute(script: "CREATE TABLE orders (id integer PRIMARY KEY)")
        #expect(throws: MigrationError.foreignDatabase(tables: ["orders"])) {
            try LibraryStore.open(at: database.url, now: Self.now)
        }
        #expect(throws: MigrationError.foreignDatabase(tables: ["orders"])) {
            try PostgreSQLMigrator().migrate(connection, appliedAt: Self.now.iso8601)
        }
        let tables = try connection.fetchAll(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ) { $0.string(0) }
        #expect(tables == ["orders"])
    }

    @Test(
        "a role without privileges on the library's tables finds the library and is refused (42501), creating nothing",
        .needsPostgreSQL, .needsPostgreSQLRoles)
    func aRoleWithoutPrivilegesFindsTheLibrary() throws {
        let database = try PostgreSQLTestDatabase()
        let admin = try PostgreSQLConnection(url: database.url)
        let role = "r_" + TestPostgreSQL.randomHex()
        // CONNECT (every role's by default) and CREATE on the schema, as PostgreSQL 14 and older give everyone.
        try admin.execute(script: "CREATE ROLE \(role) LOGIN; GRANT CREATE ON SCHEMA public TO \(role)")
        defer { try? admin.execute(script: "DROP OWNED BY \(role); DROP ROLE \(role)") }
        do {
            let connection = try PostgreSQLConnection(url: TestPostgreSQL.url(database.url, user: role))
            #expect(connection.user == role)
            // The catalog shows the role every table, privileges or not: the library is there.
            #expect(try PostgreSQLMigrator.tables(connection).contains("schema_migrations"))
            #expect(try PostgreSQLMigrator.tables(connection).contains("books"))
            let reading = try #require(throws: PostgreSQLError.self) { try PostgreSQLMigrator().status(connection) }
            #expect(reading.isInsufficientPrivilege && reading.user == role)
            #expect(reading.message == "permission denied for table schema_migrations")
            let migrating = try #require(throws: PostgreSQLError.self) {
                try PostgreSQLMigrator().migrate(connection, appliedAt: Self.now.iso8601)
            }
            #expect(migrating.isInsufficientPrivilege, "\(migrating)")
            let opening = try #require(throws: PostgreSQLError.self) {
                try LibraryStore.open(at: TestPostgreSQL.url(database.url, user: role), now: Self.now)
            }
            #expect(opening.isInsufficientPrivilege)
        }
        let owned = try admin.fetchOne(
            """
            SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_roles r ON r.oid = c.relowner
            WHERE r.rolname = ?
            """, [role]
        ) { $0.int(0) }
        #expect(owned == 0)
        #expect(try PostgreSQLMigrator().status(admin).isUpToDate)
    }

    @Test(.needsPostgreSQL)
    func booksAreNeverDeletedAndIDsStayDense() throws {
        let fixture = try Fixture(kind: .postgresql, books: 3)
        let db = fixture.store.database
        let deletion = #expect(throws: PostgreSQLError.self) { try db.execute("DELETE FROM books WHERE id = 2") }
        #expect(deletion?.message.contains("withdrawn, not deleted") == true)
        let gap = #expect(throws: PostgreSQLError.self) {
            try db.execute("INSERT INTO books (id, title) VALUES (100, 'Gap')")
        }
        #expect(gap?.message.contains("dense") == true)
        #expect(throws: PostgreSQLError.self) { try db.execute("UPDATE books SET id = 50 WHERE id = 3") }
        // A book refused for its ISBN takes no id: the next one is still dense.
        _ = try fixture.store.addBook(NewBook(title: "Dune", isbn: "9780441172719"))
        #expect(throws: LibraryError.isbnTaken("9780441172719")) {
            try fixture.store.addBook(NewBook(title: "Dune again", isbn: "9780441172719"))
        }
        #expect(try fixture.store.addBook(NewBook(title: "Emma")).id == 5)
        #expect(try fixture.store.bookCount() == 5)
        #expect(try db.fetchOne("SELECT count(*) FROM books") { $0.int(0) } == 5)
    }
}

/// Without `LIBRARY_TEST_POSTGRES` the store tests run on SQLite only; this test is then skipped, and says so.
@Suite struct PostgreSQLStoreTests {
    @Test(
        .enabled(
            if: StoreKind.available.contains(.postgresql),
            "PostgreSQL store tests skipped: set LIBRARY_TEST_POSTGRES to a PostgreSQL URL"))
    func theStoreTestsRunOnPostgreSQL() throws {
        let database = try PostgreSQLTestDatabase()
        let store = try LibraryStore.open(at: database.url, now: PostgreSQLMigrationsTests.now)
        #expect(store.dialect == .postgresql)
        #expect(try PostgreSQLMigrator().status(PostgreSQLConnection(url: database.url)).isUpToDate)
        #expect(try store.bookCount() == 0 && store.allClients().isEmpty)
    }

    @Test(arguments: [
        (
            "postgresql://postgres@/librarycli?host=/tmp/pg&port=54330",
            "postgresql://postgres@/lt_1?host=/tmp/pg&port=54330"
        ),
        ("postgresql://me:secret@db.example:5432/librarycli", "postgresql://me:secret@db.example:5432/lt_1"),
        ("postgres://db.example/librarycli?sslmode=disable", "postgres://db.example/lt_1?sslmode=disable"),
        ("postgresql://db.example", "postgresql://db.example/lt_1"),
        ("postgresql:///librarycli", "postgresql:///lt_1"),
        ("postgresql://me@?host=/tmp/pg", "postgresql://me@/lt_1?host=/tmp/pg"),
    ])
    func aTestDatabasesURLIsTheBaseURLWithItsName(base: String, expected: String) throws {
        #expect(try PostgreSQLTestDatabase.url(base, database: "lt_1") == expected)
    }
}
