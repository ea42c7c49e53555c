import CSQLite
import Foundation
import Testing

@testable import SQLite

/// A database file moved, renamed, deleted or replaced while a connection has it open.
@Suite struct MovedFileTests {
    let directory = TemporaryDirectory()

    func open(_ name: String = "library.db", options: DatabaseOptions = DatabaseOptions()) throws -> Database {
        let db = try Database(path: directory.file(name), options: options)
        try db.execute(script: "CREATE TABLE IF NOT EXISTS t (x INTEGER) STRICT;")
        return db
    }

    @Test("hasMoved: false while the path names the open file, true once it is deleted, renamed or replaced")
    func hasMoved() throws {
        for change in ["delete", "rename", "replace"] {
            let name = "\(change).db"
            let db = try open(name)
            #expect(!db.hasMoved)
            try db.write { db in try db.execute("INSERT INTO t VALUES (1)") }
            #expect(!db.hasMoved)
            switch change {
            case "delete":
                try FileManager.default.removeItem(atPath: directory.file(name))
            case "rename":
                try FileManager.default.moveItem(atPath: directory.file(name), toPath: directory.file("renamed.db"))
            default:
                _ = try open("backup.db")
                #expect(rename(directory.file("backup.db"), directory.file(name)) == 0)
            }
            #expect(db.hasMoved, "after \(change)")
        }
        #expect(try !Database(path: ":memory:").hasMoved)
    }

    @Test("write refuses a file that moved (isMoved, read-only kind), before its body and before it commits")
    func writeRefusesMovedFile() throws {
        let path = directory.file("library.db")
        let db = try open()
        try db.write { db in try db.execute("INSERT INTO t VALUES (1)") }
        // Replaced by another database: what the connection commits would go to the file no one opens any more.
        _ = try open("backup.db")
        #expect(rename(directory.file("backup.db"), path) == 0)
        var ran = false
        let refused = #expect(throws: SQLiteError.self) {
            try db.write { db in
                ran = true
                try db.execute("INSERT INTO t VALUES (2)")
            }
        }
        #expect(!ran)
        #expect(refused?.isMoved == true)
        #expect(refused?.isReadOnly == true)
        #expect(refused?.extendedCode == SQLITE_READONLY | (4 << 8))  // SQLITE_READONLY_DBMOVED
        #expect(refused?.message.contains(path) == true)
        #expect(!db.isInTransaction)
        #expect(try db.fetchOne("SELECT count(*) FROM t") { $0.int(0) } == 1)

        // Moved while the transaction ran: rolled back, not committed.
        let other = try open("other.db")
        let moved = #expect(throws: SQLiteError.self) {
            try other.write { db in
                try db.execute("INSERT INTO t VALUES (3)")
                try FileManager.default.moveItem(atPath: directory.file("other.db"), toPath: directory.file("gone.db"))
            }
        }
        #expect(moved?.isMoved == true)
        #expect(!other.isInTransaction)
        #expect(try other.fetchOne("SELECT count(*) FROM t") { $0.int(0) } == 0)
    }
}
