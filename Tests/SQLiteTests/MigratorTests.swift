import Foundation
import StoreTestSupport
import Testing

@testable import SQLite

@Suite struct MigratorTests {
    let directory = TemporaryDirectory()
    let first = Migration(
        name: "0001_people.sql", sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT) STRICT;")
    let second = Migration(
        name: "0002_pets.sql",
        sql: "CREATE TABLE pets (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES people (id)) STRICT;")

    /// The tables, without `schema_verified` (the migrator's record of the schema version it verified).
    func tables(_ db: Database) throws -> [String] {
        try db.fetchAll(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'schema_verified' ORDER BY name"
        ) { $0.string(0) }
    }

    func tracking(_ db: Database) throws -> [[String]] {
        try db.fetchAll("SELECT name, checksum, applied_at FROM schema_migrations ORDER BY name") {
            [$0.string(0), $0.string(1), $0.string(2)]
        }
    }

    @Test func migratesFromEmptyAndIsIdempotent() throws {
        let db = try Database(path: directory.file("m.db"))
        let migrator = Migrator(migrations: [first, second])
        #expect(try migrator.status(db) == MigrationStatus(applied: [], pending: [first.name, second.name]))
        #expect(try !migrator.isUpToDate(db))
        #expect(try migrator.migrate(db, appliedAt: "2026-11-29T14:40:00Z") == [first.name, second.name])
        #expect(try tables(db) == ["people", "pets", "schema_migrations"])
        #expect(
            try tracking(db) == [
                [first.name, first.checksum, "2026-11-29T14:40:00Z"],
                [second.name, second.checksum, "2026-11-29T14:40:00Z"],
            ])
        #expect(try migrator.isUpToDate(db))
        #expect(try migrator.migrate(db, appliedAt: "2027-01-01T00:00:00Z") == [])
        #expect(try tracking(db).map { $0[2] } == ["2026-11-29T14:40:00Z", "2026-11-29T14:40:00Z"])
    }

    @Test func appliesOnlyPendingOnes() throws {
        let db = try Database(path: directory.file("m.db"))
        try Migrator(migrations: [first]).migrate(db, appliedAt: "t1")
        let migrator = Migrator(migrations: [first, second])
        #expect(try migrator.status(db) == MigrationStatus(applied: [first.name], pending: [second.name]))
        #expect(try migrator.migrate(db, appliedAt: "t2") == [second.name])
        #expect(try tracking(db).map { $0[2] } == ["t1", "t2"])
    }

    @Test func refusesDatabaseFromNewerProgramWithoutChange() throws {
        let db = try Database(path: directory.file("m.db"))
        try Migrator(migrations: [first, second]).migrate(db, appliedAt: "t1")
        let older = Migrator(migrations: [first])
        let error = try #require(throws: MigrationError.self) { try older.migrate(db, appliedAt: "t2") }
        #expect(error == .unknownMigration(name: second.name))
        #expect(error.message.contains("newer librarycli"))
        #expect(throws: MigrationError.self) { try older.isUpToDate(db) }
        #expect(try tracking(db).count == 2)
    }

    @Test func refusesEditedMigrationWithoutChange() throws {
        let path = directory.file("m.db")
        let db = try Database(path: path)
        try Migrator(migrations: [first]).migrate(db, appliedAt: "t1")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let edited = Migration(name: first.name, sql: first.sql + "\n-- edited")
        let migrator = Migrator(migrations: [edited, second])
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(db, appliedAt: "t2") }
        #expect(error == .checksumMismatch(name: first.name))
        #expect(error.message.contains("was edited after it was applied"))
        #expect(try tables(db) == ["people", "schema_migrations"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func failingMigrationLeavesEarlierOnesApplied() throws {
        let db = try Database(path: directory.file("m.db"))
        let broken = Migration(name: "0002_broken.sql", sql: "CREATE TABLE ok (x); CREATE TABLE oops (;")
        #expect(throws: SQLiteError.self) {
            try Migrator(migrations: [first, broken]).migrate(db, appliedAt: "t1")
        }
        #expect(try tables(db) == ["people", "schema_migrations"])
        #expect(try tracking(db).map { $0[0] } == [first.name])
    }

    @Test func foreignKeyViolationsAreRefused() throws {
        let db = try Database(path: directory.file("m.db"))
        try Migrator(migrations: [first, second]).migrate(db, appliedAt: "t1")
        // Migrations run with foreign keys off, so the INSERT itself passes; the check before COMMIT refuses it.
        let orphan = Migration(name: "0003_orphan.sql", sql: "INSERT INTO pets (id, owner) VALUES (1, 99);")
        let error = try #require(throws: MigrationError.self) {
            try Migrator(migrations: [first, second, orphan]).migrate(db, appliedAt: "t2")
        }
        #expect(error == .foreignKeyViolation(name: orphan.name, table: "pets"))
        #expect(try db.fetchOne("SELECT count(*) FROM pets") { $0.int(0) } == 0)
        #expect(try db.fetchOne("PRAGMA foreign_keys") { $0.int(0) } == 1)
    }

    // MARK: - Rebuilding a referenced table

    let authors = Migration(
        name: "0001_authors.sql",
        sql: """
            CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;
            CREATE TABLE works (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES authors (id)) STRICT;
            INSERT INTO authors (id, name) VALUES (1, 'Ann'), (2, 'Bob');
            INSERT INTO works (id, author_id) VALUES (10, 1), (11, 2);
            """)

    /// SQLite's 12-step table rebuild (https://sqlite.org/lang_altertable.html#otheralter), the only way to add a
    /// CHECK rule to a table: a new table, the rows copied (those `filter` keeps), the old table dropped, the new
    /// one renamed. With foreign keys on, the DROP fails: `works` references `authors`.
    func rebuildAuthors(filter: String = "") -> Migration {
        Migration(
            name: "0002_authors_name_check.sql",
            sql: """
                CREATE TABLE new_authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (length(name) > 0)) STRICT;
                INSERT INTO new_authors (id, name) SELECT id, name FROM authors \(filter);
                DROP TABLE authors;
                ALTER TABLE new_authors RENAME TO authors;
                """)
    }

    @Test("a migration can rebuild a table that other tables reference; foreign keys are on again after it")
    func rebuildsReferencedTable() throws {
        let db = try Database(path: directory.file("m.db"))
        try Migrator(migrations: [authors]).migrate(db, appliedAt: "t1")
        let rebuild = rebuildAuthors()
        #expect(try Migrator(migrations: [authors, rebuild]).migrate(db, appliedAt: "t2") == [rebuild.name])
        let works = try db.fetchAll("SELECT w.id, a.name FROM works w JOIN authors a ON a.id = w.author_id") {
            "\($0.int(0)) \($0.string(1))"
        }
        #expect(works == ["10 Ann", "11 Bob"])
        #expect(try tables(db) == ["authors", "schema_migrations", "works"])
        #expect(try db.fetchOne("PRAGMA foreign_keys") { $0.int(0) } == 1)
        let check = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO authors (id, name) VALUES (3, '')")
        }
        #expect(check.message.contains("CHECK constraint failed"))
        let reference = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO works (id, author_id) VALUES (12, 99)")
        }
        #expect(reference.message.contains("FOREIGN KEY constraint failed"))
        #expect(try db.fetchAll("PRAGMA foreign_key_check") { $0.string(0) }.isEmpty)
    }

    @Test("a rebuild that loses referenced rows is rolled back whole, and foreign keys are on again")
    func rebuildThatBreaksReferencesIsRolledBack() throws {
        let db = try Database(path: directory.file("m.db"))
        try Migrator(migrations: [authors]).migrate(db, appliedAt: "t1")
        let rebuild = rebuildAuthors(filter: "WHERE id = 1")
        let error = try #require(throws: MigrationError.self) {
            try Migrator(migrations: [authors, rebuild]).migrate(db, appliedAt: "t2")
        }
        #expect(error == .foreignKeyViolation(name: rebuild.name, table: "works"))
        #expect(try tables(db) == ["authors", "schema_migrations", "works"])
        #expect(try db.fetchAll("SELECT name FROM authors ORDER BY id") { $0.string(0) } == ["Ann", "Bob"])
        #expect(try tracking(db).map { $0[0] } == [authors.name])
        #expect(try db.fetchOne("PRAGMA foreign_keys") { $0.int(0) } == 1)
        #expect(!db.isInTransaction)
    }

    @Test func concurrentMigratorsBothSucceed() throws {
        let path = directory.file("race.db")
        let migrations = (1...8).map { Migration(name: "000\($0).sql", sql: "CREATE TABLE t\($0) (x INTEGER) STRICT;") }
        let outcomes = Shared<[Result<[String], any Error>]>([])
        runOnThreads(4) { _ in
            let result = Result {
                let db = try Database(path: path, options: DatabaseOptions(busyTimeoutMilliseconds: 20_000))
                return try Migrator(migrations: migrations).migrate(db, appliedAt: "t")
            }
            outcomes.withLock { $0.append(result) }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.count == 4)
        var applied: [String] = []
        for result in results {
            applied += try result.get()
        }
        #expect(applied.sorted() == migrations.map(\.name))
        let db = try Database(path: path)
        #expect(try tracking(db).count == 8)
    }

    // MARK: - Databases these migrations did not make

    @Test("another program's database is refused unchanged: only an empty one is migrated from scratch")
    func foreignDatabaseIsRefused() throws {
        let path = directory.file("other.db")
        let setup = try Database(path: path)
        try setup.execute(script: "CREATE TABLE foo (x); INSERT INTO foo VALUES (1);")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let migrator = Migrator(migrations: [first, second])
        for attempt in [
            { _ = try migrator.migrate(setup, appliedAt: "t1") }, { _ = try migrator.status(setup) },
            { try migrator.verifySchema(setup) },
        ] {
            let error = try #require(throws: MigrationError.self) { try attempt() }
            #expect(error == .foreignDatabase(tables: ["foo"]))
            #expect(error.isNotOurs)
            #expect(error.message.hasPrefix("not a librarycli database"))
        }
        #expect(try tables(setup) == ["foo"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a schema_migrations table of another shape (Rails has one) is not ours either")
    func otherProgramsTrackingTableIsRefused() throws {
        let db = try Database(path: directory.file("rails.db"))
        try db.execute(
            script:
                "CREATE TABLE schema_migrations (version TEXT PRIMARY KEY); INSERT INTO schema_migrations VALUES ('1');"
        )
        let error = try #require(throws: MigrationError.self) {
            try Migrator(migrations: [first]).migrate(db, appliedAt: "t1")
        }
        #expect(error == .foreignDatabase(tables: ["schema_migrations"]))
        #expect(try tables(db) == ["schema_migrations"])
    }

    @Test("an empty database, or one with only an empty tracking table, is migrated")
    func emptyDatabasesAreMigrated() throws {
        let db = try Database(path: directory.file("empty.db"))
        try db.execute(
            script:
                "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT;"
        )
        #expect(try Migrator(migrations: [first]).migrate(db, appliedAt: "t1") == [first.name])
        try Migrator(migrations: [first]).verifySchema(db)
    }

    @Test("verifySchema finds a table, index or trigger dropped or changed by hand; extra objects are allowed")
    func verifySchemaFindsDamage() throws {
        let indexed = Migration(
            name: "0003_index.sql",
            sql: """
                CREATE INDEX pets_by_owner ON pets (owner);
                CREATE TRIGGER people_named BEFORE INSERT ON people WHEN NEW.name = '' BEGIN SELECT RAISE(ABORT, 'x'); END;
                """)
        let migrator = Migrator(migrations: [first, second, indexed])
        let damages: [(String, String)] = [
            ("DROP TABLE pets", "table pets is missing"),
            ("ALTER TABLE people ADD COLUMN age INTEGER", "table people differs from what the migrations create"),
            ("DROP INDEX pets_by_owner", "index pets_by_owner is missing"),
            ("DROP TRIGGER people_named", "trigger people_named is missing"),
        ]
        for (index, (damage, problem)) in damages.enumerated() {
            let db = try Database(path: directory.file("damaged\(index).db"))
            try migrator.migrate(db, appliedAt: "t1")
            try migrator.verifySchema(db)
            try db.execute(script: "CREATE TABLE notes (x); CREATE INDEX notes_x ON notes (x);")
            try migrator.verifySchema(db)
            try db.execute(script: damage)
            let error = try #require(throws: MigrationError.self, "\(damage)") { try migrator.verifySchema(db) }
            #expect(error == .damagedSchema(problem: problem), "\(damage)")
            #expect(error.message.hasPrefix("not a librarycli database or damaged: \(problem)"))
        }
    }

    @Test("a migration's record deleted by hand while a later one is applied is a changed schema, never re-run")
    func deletedRecordBeforeALaterOneIsRefused() throws {
        let third = Migration(name: "0003_toys.sql", sql: "CREATE TABLE toys (id INTEGER PRIMARY KEY) STRICT;")
        let migrator = Migrator(migrations: [first, second, third])
        let db = try Database(path: directory.file("gap.db"))
        try migrator.migrate(db, appliedAt: "t1")
        try db.execute("DELETE FROM schema_migrations WHERE name = ?", [second.name])
        let problem = "migration \(second.name) is not recorded as applied, though the later \(third.name) is"
        for attempt in [
            { _ = try migrator.migrate(db, appliedAt: "t2") }, { _ = try migrator.status(db) },
            { try migrator.verifySchemaIfChanged(db) }, { try migrator.verifySchema(db) },
        ] {
            let error = try #require(throws: MigrationError.self) { try attempt() }
            #expect(error == .damagedSchema(problem: problem))
            #expect(error.isNotOurs)
        }
        #expect(try tracking(db).map { $0[0] } == [first.name, third.name])
    }

    @Test("the last migration's record deleted by hand: what it made is there, so it is refused, not run again")
    func deletedRecordOfTheLastIsRefused() throws {
        let rebuilt = Migration(
            name: "0003_rebuild.sql",
            sql: """
                CREATE TABLE people_new (id INTEGER PRIMARY KEY, name TEXT CHECK (name <> '')) STRICT;
                INSERT INTO people_new SELECT * FROM people;
                DROP TABLE people;
                ALTER TABLE people_new RENAME TO people;
                """)
        for (last, problem) in [
            (second, "table pets is there already, though the migration that creates it is not recorded as applied"),
            (rebuilt, "table people differs from what the migrations create"),
        ] {
            let migrator = Migrator(migrations: [first, last])
            let db = try Database(path: directory.file("last-\(last.name).db"))
            try migrator.migrate(db, appliedAt: "t1")
            try db.execute("DELETE FROM schema_migrations WHERE name = ?", [last.name])
            let error = try #require(throws: MigrationError.self, "\(last.name)") {
                try migrator.migrate(db, appliedAt: "t2")
            }
            #expect(error == .damagedSchema(problem: problem))
            #expect(try tracking(db).map { $0[0] } == [first.name])
        }
    }

    @Test("verifySchema checks only what the applied migrations create")
    func verifySchemaFollowsAppliedMigrations() throws {
        let db = try Database(path: directory.file("partial.db"))
        try Migrator(migrations: [first]).migrate(db, appliedAt: "t1")
        try Migrator(migrations: [first, second]).verifySchema(db)
        try Migrator(migrations: []).verifySchema(try Database(path: directory.file("new.db")))
    }

    @Test("verifySchemaIfChanged: any change to the schema since migrate verified it is checked in full")
    func verifySchemaIfChangedFindsDamageAfterMigrate() throws {
        let migrator = Migrator(migrations: [first, second])
        let db = try Database(path: directory.file("changed.db"))
        try migrator.migrate(db, appliedAt: "t1")
        try migrator.verifySchemaIfChanged(db)
        try db.execute("DROP TABLE pets")
        let error = try #require(throws: MigrationError.self) { try migrator.verifySchemaIfChanged(db) }
        #expect(error == .damagedSchema(problem: "table pets is missing"))
    }

    @Test("verifySchemaIfChanged reads only SQLite's schema count while it is the one migrate verified")
    func verifySchemaIfChangedTrustsTheRecordedVersion() throws {
        let migrator = Migrator(migrations: [first, second])
        let db = try Database(path: directory.file("recorded.db"))
        try migrator.migrate(db, appliedAt: "t1")
        let verified = try #require(try db.fetchOne("SELECT schema_version FROM schema_verified") { $0.int(0) })
        #expect(try db.fetchOne("PRAGMA schema_version") { $0.int(0) } == verified)
        // A change hidden from the count (only by resetting it by hand) is not looked for: the fast path is taken.
        try db.execute("DROP TABLE pets")
        try db.execute("PRAGMA schema_version = \(verified)")
        try migrator.verifySchemaIfChanged(db)
        #expect(throws: MigrationError.self) { try migrator.verifySchema(db) }
        // Without the record (a database migrated before it was kept), the whole schema is checked.
        try db.execute("DELETE FROM schema_verified")
        #expect(throws: MigrationError.self) { try migrator.verifySchemaIfChanged(db) }
    }
}
