import Foundation
import SQLite
import Testing

@testable import Library

@Suite struct MigrationsTests {
    @Test func embeddedMigrationsEqualTheFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations").appendingPathComponent("sqlite")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!names.isEmpty)
        #expect(Migrations.embedded.map(\.name) == names)
        for migration in Migrations.embedded {
            let text = try String(contentsOf: folder.appendingPathComponent(migration.name), encoding: .utf8)
            #expect(migration.sql == text, "\(migration.name) differs from the folder")
        }
    }

    @Test("the checksums computed at build time are the SHA-256 of each embedded migration, on both stores")
    func embeddedChecksums() {
        for migration in Migrations.embedded + Migrations.postgresql {
            #expect(migration.checksum == SHA256.hexDigest(of: migration.sql), "\(migration.name)")
            #expect(migration == Migration(name: migration.name, sql: migration.sql))
        }
    }

    @Test func openMigratesOnceAndRecordsTheClock() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("library.db")
        let now = try Timestamp(iso8601: "2026-11-29T14:40:00Z")
        let db = try LibraryDatabase.open(at: path, now: now)
        #expect(try Migrations.migrator.isUpToDate(db))
        let applied = try db.fetchAll("SELECT name, applied_at FROM schema_migrations") {
            [$0.string(0), $0.string(1)]
        }
        #expect(applied == Migrations.embedded.map { [$0.name, "2026-11-29T14:40:00Z"] })
        let again = try LibraryDatabase.open(at: path, now: try now.adding(days: 1))
        let times = try again.fetchAll("SELECT applied_at FROM schema_migrations") { $0.string(0) }
        #expect(Set(times) == ["2026-11-29T14:40:00Z"])
    }

    @Test func readOnlyOpenOfNewDatabaseIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("library.db")
        _ = try Database(path: path)
        let now = try Timestamp(secondsSinceEpoch: 0)
        let error = try #require(throws: MigrationError.self) {
            try LibraryDatabase.open(at: path, options: DatabaseOptions(readOnly: true), now: now)
        }
        #expect(error == .pendingMigrations(names: Migrations.embedded.map(\.name)))
        _ = try LibraryDatabase.open(at: path, now: now)
        _ = try LibraryDatabase.open(at: path, options: DatabaseOptions(readOnly: true), now: now)
    }

    @Test func booksAreNeverDeletedAndIDsStayDense() throws {
        let fixture = try Fixture(books: 3)
        let db = fixture.store.database.sqlite
        let deletion = try #require(throws: SQLiteError.self) { try db.execute("DELETE FROM books WHERE id = 2") }
        #expect(deletion.message.contains("withdrawn, not deleted"))
        let gap = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO books (id, title) VALUES (100, 'Gap')")
        }
        #expect(gap.message.contains("dense"))
        #expect(throws: SQLiteError.self) { try db.execute("UPDATE books SET id = 50 WHERE id = 3") }
        #expect(try fixture.store.bookCount() == 3)
        #expect(try db.fetchOne("SELECT count(*) FROM books") { $0.int(0) } == 3)
    }
}
