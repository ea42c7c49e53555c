import CSQLite
import Testing

@testable import SQLite

@Suite struct StatementTests {
    let directory = TemporaryDirectory()

    func open() throws -> Database {
        let db = try Database(path: directory.file("test.db"))
        try db.execute(script: "CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, f INTEGER, n ANY) STRICT;")
        return db
    }

    @Test func bindsAndReadsEveryType() throws {
        let db = try open()
        let blob: [UInt8] = [0, 1, 254, 255]
        try db.execute(
            "INSERT INTO t (i, r, s, b, f, n) VALUES (?, ?, ?, ?, ?, ?)",
            [Int64.max, 2.5, "héllo\u{0}wörld 📚", blob, true, nil])
        let row = try #require(
            try db.fetchOne("SELECT i, r, s, b, f, n FROM t") { row in
                (row.int64(0), row.double(1), row.string(2), row.blob(3), row.bool(4), row.isNull(5), row.value(5))
            })
        #expect(row.0 == Int64.max)
        #expect(row.1 == 2.5)
        #expect(row.2 == "héllo\u{0}wörld 📚")
        #expect(row.3 == blob)
        #expect(row.4 == true)
        #expect(row.5 == true)
        #expect(row.6 == .null)
    }

    @Test func readsNullsAsOptionals() throws {
        let db = try open()
        let missing: Int? = nil
        try db.execute("INSERT INTO t (i, s) VALUES (?, ?)", [missing, Optional<String>.none])
        let values = try #require(
            try db.fetchOne("SELECT i, r, s, b FROM t") { row in
                (row.intOrNil(0), row.doubleOrNil(1), row.stringOrNil(2), row.blobOrNil(3), row.int(0), row.string(2))
            })
        #expect(values.0 == nil)
        #expect(values.1 == nil)
        #expect(values.2 == nil)
        #expect(values.3 == nil)
        #expect(values.4 == 0)
        #expect(values.5 == "")
    }

    @Test func emptyStringAndBlobAreNotNull() throws {
        let db = try open()
        try db.execute("INSERT INTO t (s, b) VALUES (?, ?)", ["", [UInt8]()])
        let values = try #require(
            try db.fetchOne("SELECT s IS NULL, b IS NULL, typeof(s), typeof(b) FROM t") { row in
                (row.bool(0), row.bool(1), row.string(2), row.string(3))
            })
        #expect(values == (false, false, "text", "blob"))
    }

    @Test func databaseValueKeepsStorageClass() throws {
        let db = try open()
        try db.execute("INSERT INTO t (n) VALUES (?), (?), (?), (?)", [1, 1.5, "x", [UInt8]([7])])
        let values = try db.fetchAll("SELECT n FROM t ORDER BY rowid") { $0.value(0) }
        #expect(values == [.integer(1), .real(1.5), .text("x"), .blob([7])])
    }

    @Test func statementIsReusedAcrossManyRows() throws {
        let db = try open()
        let insert = try db.prepare("INSERT INTO t (i, s) VALUES (?, ?)")
        try db.write { _ in
            for number in 1...1000 {
                try insert.execute([number, "row \(number)"])
            }
        }
        let select = try db.prepare("SELECT s FROM t WHERE i = ?")
        #expect(try select.fetchOne([7]) { $0.string(0) } == "row 7")
        #expect(try select.fetchOne([999]) { $0.string(0) } == "row 999")
        #expect(try select.fetchOne([5000]) { $0.string(0) } == nil)
        #expect(try db.fetchOne("SELECT count(*), sum(i) FROM t") { [$0.int(0), $0.int(1)] } == [1000, 500_500])
    }

    @Test func stepIteratesRows() throws {
        let db = try open()
        try db.execute("INSERT INTO t (i) VALUES (1), (2), (3)")
        let select = try db.prepare("SELECT i FROM t WHERE i >= ? ORDER BY i")
        try select.bind([2])
        var seen: [Int] = []
        while let row = try select.step() {
            seen.append(row.int(0))
        }
        #expect(seen == [2, 3])
        select.reset()
        #expect(try select.step()?.int(0) == 2)
    }

    @Test func wrongArgumentCountIsAnError() throws {
        let db = try open()
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO t (i) VALUES (?)", [1, 2])
        }
        #expect(error.code == SQLITE_RANGE)
    }

    @Test(
        "a parameter index out of range throws SQLITE_RANGE, whatever its size",
        arguments: [0, 5, -1, 1 << 33, Int.max, Int.min])
    func bindIndexOutOfRange(index: Int) throws {
        let db = try open()
        let statement = try db.prepare("SELECT ?")
        let binds: [(String, () throws -> Void)] = [
            ("value", { try statement.bind(.integer(1), at: index) }),
            ("null", { try statement.bind(.null, at: index) }),
            ("blob", { try statement.bind(.blob([1]), at: index) }),
            ("text", { try statement.bind(text: "x", at: index) }),
            ("integer", { try statement.bind(integer: 1, at: index) }),
        ]
        for (name, bind) in binds {
            let error = try #require(throws: SQLiteError.self, "\(name)") { try bind() }
            #expect(error.extendedCode == SQLITE_RANGE, "\(name)")
            #expect(error.message == "column index out of range", "\(name)")
            #expect(error.sql == "SELECT ?", "\(name)")
        }
        try statement.bind(.integer(7), at: 1)
        #expect(try statement.step()?.int(0) == 7)
    }

    @Test func valuesAreBoundNotSpliced() throws {
        let db = try open()
        let hostile = "'); DROP TABLE t; --"
        try db.execute("INSERT INTO t (s) VALUES (?)", [hostile])
        #expect(try db.fetchOne("SELECT s FROM t") { $0.string(0) } == hostile)
    }

    @Test func scriptRunsSeveralStatements() throws {
        let db = try open()
        try db.execute(script: "INSERT INTO t (i) VALUES (1); INSERT INTO t (i) VALUES (2); CREATE TABLE u (x);")
        #expect(try db.fetchOne("SELECT count(*) FROM t") { $0.int(0) } == 2)
        #expect(try db.fetchOne("SELECT count(*) FROM u") { $0.int(0) } == 0)
        #expect(throws: SQLiteError.self) { try db.execute(script: "INSERT INTO nowhere VALUES (1);") }
    }

    @Test func errorCarriesCodeMessageAndSQLButNoValues() throws {
        let db = try open()
        try db.execute(script: "CREATE TABLE u (x TEXT UNIQUE) STRICT;")
        try db.execute("INSERT INTO u (x) VALUES (?)", ["secret-value"])
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO u (x) VALUES (?)", ["secret-value"])
        }
        #expect(error.code == SQLITE_CONSTRAINT)
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.isConstraintViolation)
        #expect(error.message.contains("UNIQUE constraint failed: u.x"))
        #expect(error.sql == "INSERT INTO u (x) VALUES (?)")
        #expect(!error.description.contains("secret-value"))
        #expect(error.description.contains("UNIQUE constraint failed"))
    }

    @Test func syntaxErrorAtPrepare() throws {
        let db = try open()
        let error = try #require(throws: SQLiteError.self) { try db.prepare("SELEC 1") }
        #expect(error.code == SQLITE_ERROR)
        #expect(error.sql == "SELEC 1")
        #expect(error.message.contains("syntax error"))
    }

    @Test func doubleQuotedStringLiteralsAreRefused() throws {
        let db = try open()
        let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO t (s) VALUES (\"text\")") }
        #expect(error.message.contains("no such column"))
    }

    @Test("prepare refuses SQL with a second statement, which would silently not run")
    func secondStatementIsRefused() throws {
        let db = try open()
        try db.execute("INSERT INTO t (i) VALUES (1), (2)")
        for sql in [
            "UPDATE t SET i = 10 WHERE i = 1; DELETE FROM t", "SELECT 1; SELECT 2", "SELECT 1;;\n DELETE FROM t",
            "SELECT 1; -- a comment\nDELETE FROM t", "SELECT 1; /* ; */ SELECT 2;", "SELECT 1; this is not SQL",
        ] {
            let error = try #require(throws: SQLiteError.self, "\(sql)") { try db.prepare(sql) }
            #expect(error.code == SQLITE_MISUSE, "\(sql)")
            #expect(error.message.contains("more than one statement"), "\(sql)")
            #expect(throws: SQLiteError.self, "\(sql)") { try db.execute(sql) }
        }
        #expect(try db.fetchAll("SELECT i FROM t ORDER BY i") { $0.int(0) } == [1, 2])
    }

    @Test("prepare accepts a tail of whitespace, semicolons and comments")
    func emptyTailIsAccepted() throws {
        let db = try open()
        for sql in [
            "SELECT 1;", "SELECT 1 ;  \n\t", "SELECT 1; ;;", "SELECT 1 -- the answer", "SELECT 1; /* done */",
            "SELECT 1; -- done\n  /* really */ ;",
        ] {
            #expect(try db.fetchOne(sql) { $0.int(0) } == 1, "\(sql)")
        }
        #expect(throws: SQLiteError.self) { try db.prepare("  -- nothing but a comment") }
    }

    @Test("a row kept past its closure keeps its statement alive and is no longer valid")
    func escapedRowKeepsStatementAndIsInvalid() throws {
        let db = try open()
        try db.execute("INSERT INTO t (i, s) VALUES (1, 'one'), (2, 'two')")
        weak var released: Statement?
        var escaped: [Row] = []
        do {
            let statement = try db.prepare("SELECT i, s FROM t ORDER BY i")
            released = statement
            _ = try statement.fetchAll { row in
                #expect(row.isValid)
                escaped.append(row)
            }
        }
        #expect(released != nil, "the rows keep their statement alive")
        #expect(escaped.count == 2)
        #expect(escaped.allSatisfy { !$0.isValid })
        escaped.removeAll()
        #expect(released == nil, "and release it with the last row")
    }

    @Test("the previous row of a statement is invalid once it steps on")
    func previousRowIsInvalidAfterStep() throws {
        let db = try open()
        try db.execute("INSERT INTO t (i) VALUES (1), (2)")
        let select = try db.prepare("SELECT i FROM t ORDER BY i")
        let first = try #require(try select.step())
        #expect(first.isValid && first.int(0) == 1)
        let second = try #require(try select.step())
        #expect(!first.isValid)
        #expect(second.isValid && second.int(0) == 2)
        select.reset()
        #expect(!second.isValid)
    }

    @Test("reading a row after its statement moved on stops the program instead of reading stale memory")
    func readingAnEscapedRowTraps() async {
        await #expect(processExitsWith: .failure) {
            let db = try! Database(path: ":memory:")
            var escaped: Row?
            _ = try! db.fetchOne("SELECT 'text'") { escaped = $0 }
            _ = escaped!.string(0)
        }
    }
}
