import CSQLite
import Foundation
import Testing

@testable import SQLite

@Suite struct DatabaseTests {
    let directory = TemporaryDirectory()

    @Test func fileIsInWALModeWithForeignKeys() throws {
        let db = try Database(path: directory.file("a.db"))
        #expect(try db.fetchOne("PRAGMA journal_mode") { $0.string(0) } == "wal")
        #expect(try db.fetchOne("PRAGMA foreign_keys") { $0.int(0) } == 1)
        #expect(try db.fetchOne("PRAGMA synchronous") { $0.int(0) } == 1)  // NORMAL
    }

    @Test("switchesToWALOnOpen false leaves the file's journal mode alone until switchToWAL")
    func walCanWait() throws {
        let path = directory.file("later.db")
        do {
            let db = try Database(path: path, options: DatabaseOptions(switchesToWALOnOpen: false))
            try db.execute(script: "CREATE TABLE t (x);")
            #expect(try db.fetchOne("PRAGMA journal_mode") { $0.string(0) } == "delete")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let db = try Database(path: path, options: DatabaseOptions(switchesToWALOnOpen: false))
            #expect(try db.fetchOne("SELECT count(*) FROM t") { $0.int(0) } == 0)
            #expect(try db.fetchOne("PRAGMA foreign_keys") { $0.int(0) } == 1)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let db = try Database(path: path, options: DatabaseOptions(switchesToWALOnOpen: false))
        try db.switchToWAL()
        try db.switchToWAL()
        #expect(try db.fetchOne("PRAGMA journal_mode") { $0.string(0) } == "wal")
        #expect(try db.fetchOne("PRAGMA synchronous") { $0.int(0) } == 1)
    }

    @Test func memoryDatabaseOpens() throws {
        let db = try Database(path: ":memory:")
        try db.execute(script: "CREATE TABLE t (x);")
        #expect(try db.fetchOne("SELECT count(*) FROM t") { $0.int(0) } == 0)
    }

    @Test func newFileIsPrivate() throws {
        let path = directory.file("private.db")
        let db = try Database(path: path)
        try db.execute(script: "CREATE TABLE t (x);")
        for file in [path, path + "-wal"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let permissions = try #require(attributes[.posixPermissions] as? NSNumber).intValue
            #expect(permissions & 0o077 == 0, "\(file) has mode \(String(permissions, radix: 8))")
        }
    }

    @Test func notADatabaseIsRefusedAndLeftUntouched() throws {
        let path = directory.file("notes.txt")
        let content = Data(String(repeating: "These are my notes, not a database.\n", count: 200).utf8)
        try content.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SQLiteError.self) { try Database(path: path) }
        #expect(error.isNotADatabase)
        #expect(error.message == "file is not a database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(throws: SQLiteError.self) { try Database(path: path, options: DatabaseOptions(readOnly: true)) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
    }

    @Test func missingFolderCannotOpen() throws {
        let error = try #require(throws: SQLiteError.self) {
            try Database(path: directory.file("no/such/folder/a.db"))
        }
        #expect(error.isCannotOpen)
    }

    @Test func readOnlyCannotWriteAndKeepsJournalMode() throws {
        let path = directory.file("ro.db")
        do {
            let db = try Database(path: path)
            try db.execute(script: "CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        }
        let readOnly = try Database(path: path, options: DatabaseOptions(readOnly: true))
        #expect(try readOnly.fetchOne("SELECT x FROM t") { $0.int(0) } == 1)
        let error = try #require(throws: SQLiteError.self) {
            try readOnly.execute("INSERT INTO t VALUES (2)")
        }
        #expect(error.isReadOnly)
        let missing = try #require(throws: SQLiteError.self) {
            try Database(path: directory.file("missing.db"), options: DatabaseOptions(readOnly: true))
        }
        #expect(missing.isCannotOpen)
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing.db")))
    }

    @Test func busyWriterSurfacesAsBusy() throws {
        let path = directory.file("busy.db")
        let holder = try Database(path: path)
        try holder.execute(script: "CREATE TABLE t (x);")
        let waiter = try Database(path: path, options: DatabaseOptions(busyTimeoutMilliseconds: 50))
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("INSERT INTO t VALUES (1)")
        let error = try #require(throws: SQLiteError.self) {
            try waiter.write { db in try db.execute("INSERT INTO t VALUES (2)") }
        }
        #expect(error.isBusy)
        #expect(error.code == SQLITE_BUSY)
        #expect(!waiter.isInTransaction)
        // Readers are not blocked by the writer in WAL mode.
        #expect(try waiter.read { db in try db.fetchOne("SELECT count(*) FROM t") { $0.int(0) } } == 0)
        try holder.execute("COMMIT")
        try waiter.write { db in try db.execute("INSERT INTO t VALUES (2)") }
        #expect(try waiter.fetchOne("SELECT count(*) FROM t") { $0.int(0) } == 2)
    }
}
