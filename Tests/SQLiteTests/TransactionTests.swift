import CSQLite
import Testing

@testable import SQLite

@Suite struct TransactionTests {
    struct Refusal: Error {}

    let directory = TemporaryDirectory()

    func open() throws -> Database {
        let db = try Database(path: directory.file("tx.db"))
        try db.execute(script: "CREATE TABLE t (x INTEGER) STRICT;")
        return db
    }

    func count(_ db: Database) throws -> Int {
        try db.fetchOne("SELECT count(*) FROM t") { $0.int(0) } ?? -1
    }

    @Test func writeCommits() throws {
        let db = try open()
        let value = try db.write { db in
            try db.execute("INSERT INTO t VALUES (?)", [1])
            return 42
        }
        #expect(value == 42)
        #expect(!db.isInTransaction)
        let other = try Database(path: directory.file("tx.db"))
        #expect(try count(other) == 1)
    }

    @Test func writeRollsBackOnThrow() throws {
        let db = try open()
        #expect(throws: Refusal.self) {
            try db.write { db in
                try db.execute("INSERT INTO t VALUES (?)", [1])
                throw Refusal()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
    }

    @Test func savepointRollsBackOnlyItsOwnWork() throws {
        let db = try open()
        try db.write { db in
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(throws: Refusal.self) {
                try db.savepoint { db in
                    try db.execute("INSERT INTO t VALUES (2)")
                    throw Refusal()
                }
            }
            try db.savepoint { db in
                try db.execute("INSERT INTO t VALUES (3)")
                try db.savepoint { db in try db.execute("INSERT INTO t VALUES (4)") }
            }
        }
        #expect(try db.fetchAll("SELECT x FROM t ORDER BY x") { $0.int(0) } == [1, 3, 4])
    }

    @Test func readSeesOneSnapshot() throws {
        let db = try open()
        let writer = try Database(path: directory.file("tx.db"))
        let counts = try db.read { db in
            let before = try count(db)
            try writer.write { db in try db.execute("INSERT INTO t VALUES (1)") }
            return (before, try count(db))
        }
        #expect(counts == (0, 0))
        #expect(try count(db) == 1)
    }

    @Test("reads keep the connection's compiled statements: a cached statement is not prepared again")
    func readsKeepCompiledStatements() throws {
        let db = try open()
        try db.execute("INSERT INTO t VALUES (?)", [7])
        let select = try db.cachedStatement("SELECT x FROM t")
        for _ in 0..<3 {
            #expect(try db.read { _ in try select.fetchOne { $0.int(0) } } == 7)
            try db.write { db in try db.execute("UPDATE t SET x = x") }
        }
        #expect(select.timesPreparedAgain == 0)
        // A schema change does make it compile again: the count is real.
        try db.execute(script: "CREATE TABLE u (y INTEGER);")
        #expect(try db.read { _ in try select.fetchOne { $0.int(0) } } == 7)
        #expect(select.timesPreparedAgain == 1)
    }

    @Test("a write inside read fails loudly and changes nothing; writes work again after it")
    func readCannotWrite() throws {
        let db = try open()
        let attempts: [(String, (Database) throws -> Void)] = [
            ("execute", { db in try db.execute("INSERT INTO t VALUES (?)", [1]) }),
            ("script", { db in try db.execute(script: "INSERT INTO t VALUES (2);") }),
            ("script after a read", { db in try db.execute(script: "SELECT 1; -- note\n INSERT INTO t VALUES (2);") }),
            ("savepoint", { db in try db.savepoint { db in try db.execute("INSERT INTO t VALUES (3)") } }),
            ("prepared", { db in try db.prepare("DELETE FROM t").execute() }),
        ]
        for (name, attempt) in attempts {
            let error = try #require(throws: SQLiteError.self, "\(name)") { try db.read { db in try attempt(db) } }
            #expect(error.code == SQLITE_MISUSE, "\(name): \(error)")
            #expect(error.message.contains("inside a read transaction"), "\(name): \(error)")
            #expect(!db.isInTransaction)
        }
        #expect(try count(db) == 0)
        #expect(try db.read { db in try count(db) } == 0)
        try db.execute("INSERT INTO t VALUES (?)", [4])
        try db.write { db in try db.execute("INSERT INTO t VALUES (?)", [5]) }
        #expect(try count(db) == 2)
    }

    @Test("write or read inside a transaction throws SQLITE_MISUSE (savepoint nests), and the outer one goes on")
    func nestedTransactionThrows() throws {
        let db = try Database(path: directory.file("nested.db"), options: DatabaseOptions(writeGate: WriteGate()))
        try db.execute(script: "CREATE TABLE t (x INTEGER) STRICT;")
        let nested: [(String, (Database) throws -> Void)] = [
            ("write", { db in try db.write { db in try db.execute("INSERT INTO t VALUES (?)", [2]) } }),
            ("read", { db in _ = try db.read { db in try count(db) } }),
        ]
        for (outerName, outer) in [
            ("write", db.write as ((Database) throws -> Void) throws -> Void), ("read", db.read),
        ] {
            for (name, attempt) in nested {
                try outer { db in
                    let error = try #require(throws: SQLiteError.self, "\(name) in \(outerName)") { try attempt(db) }
                    #expect(error.code == SQLITE_MISUSE, "\(name) in \(outerName)")
                    #expect(error.message.contains("savepoint"), "\(name) in \(outerName): \(error)")
                    #expect(db.isInTransaction)
                }
            }
        }
        try db.write { db in
            try db.execute("INSERT INTO t VALUES (?)", [1])
            #expect(throws: SQLiteError.self) { try db.write { _ in } }
            try db.execute("INSERT INTO t VALUES (?)", [3])
        }
        #expect(try count(db) == 2)
        #expect(!db.isInTransaction)
    }
}
