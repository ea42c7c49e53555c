import Foundation
import Synchronization
import Testing

@testable import SQLite

@Suite struct MigratorTests {
    let directory = TemporaryDirectory()
    let first = Migration(
        name: "0001_people.sql", sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT) STRICT;")
    let second = Migration(
        name: "0002_pets.sql",
        sql: "CREATE TABLE pets (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES people (id)) STRICT;")

    func tables(_ db: Database) throws -> [String] {
        try db.fetchAll("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.string(0) }
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
        let orphan = Migration(name: "0003_orphan.sql", sql: "INSERT INTO pets (id, owner) VALUES (1, 99);")
        // foreign_keys=ON would refuse the INSERT itself; turn it off the way a careless migration might.
        try db.execute("PRAGMA foreign_keys=OFF")
        let error = try #require(throws: MigrationError.self) {
            try Migrator(migrations: [first, second, orphan]).migrate(db, appliedAt: "t2")
        }
        #expect(error == .foreignKeyViolation(name: orphan.name, table: "pets"))
        #expect(try db.fetchOne("SELECT count(*) FROM pets") { $0.int(0) } == 0)
    }

    @Test func concurrentMigratorsBothSucceed() throws {
        let path = directory.file("race.db")
        let migrations = (1...8).map { Migration(name: "000\($0).sql", sql: "CREATE TABLE t\($0) (x INTEGER) STRICT;") }
        let outcomes = Mutex<[Result<[String], any Error>]>([])
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
}
