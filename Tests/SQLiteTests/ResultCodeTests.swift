import CSQLite
import SQLite  // not @testable: what a program embedding the module sees
import Testing

@Suite struct ResultCodeTests {
    let directory = TemporaryDirectory()

    @Test("SQLiteError.ResultCode's primary codes are SQLite's")
    func primaryCodesAreSQLites() {
        let pairs: [(Int32, Int32)] = [
            (SQLiteError.ResultCode.error, SQLITE_ERROR), (SQLiteError.ResultCode.permission, SQLITE_PERM),
            (SQLiteError.ResultCode.busy, SQLITE_BUSY), (SQLiteError.ResultCode.locked, SQLITE_LOCKED),
            (SQLiteError.ResultCode.readOnly, SQLITE_READONLY), (SQLiteError.ResultCode.ioError, SQLITE_IOERR),
            (SQLiteError.ResultCode.corrupt, SQLITE_CORRUPT), (SQLiteError.ResultCode.full, SQLITE_FULL),
            (SQLiteError.ResultCode.cannotOpen, SQLITE_CANTOPEN),
            (SQLiteError.ResultCode.constraint, SQLITE_CONSTRAINT), (SQLiteError.ResultCode.misuse, SQLITE_MISUSE),
            (SQLiteError.ResultCode.range, SQLITE_RANGE), (SQLiteError.ResultCode.notADatabase, SQLITE_NOTADB),
        ]
        for (ours, sqlites) in pairs {
            #expect(ours == sqlites)
        }
    }

    @Test(
        "each constraint's extended code is the one SQLite reports; isUniqueConstraintViolation for UNIQUE and PRIMARY KEY"
    )
    func constraintCodesAreWhatSQLiteReports() throws {
        let db = try Database(path: directory.file("codes.db"))
        try db.execute(
            script: """
                CREATE TABLE p (id INTEGER PRIMARY KEY);
                CREATE TABLE t (
                    k TEXT PRIMARY KEY, u TEXT UNIQUE, n TEXT NOT NULL, c INTEGER CHECK (c > 0),
                    p INTEGER REFERENCES p(id)
                ) STRICT, WITHOUT ROWID;
                CREATE TRIGGER refuse BEFORE INSERT ON t WHEN NEW.n = 'refuse' BEGIN SELECT RAISE(ABORT, 'no'); END;
                INSERT INTO t (k, u, n, c) VALUES ('a', 'x', 'n', 1);
                """)
        let cases: [(String, Int32, Bool)] = [
            ("INSERT INTO t (k, u, n) VALUES ('b', 'x', 'n')", SQLiteError.ResultCode.constraintUnique, true),
            ("INSERT INTO t (k, n) VALUES ('a', 'n')", SQLiteError.ResultCode.constraintPrimaryKey, true),
            ("INSERT INTO t (k) VALUES ('c')", SQLiteError.ResultCode.constraintNotNull, false),
            ("INSERT INTO t (k, n, c) VALUES ('c', 'n', 0)", SQLiteError.ResultCode.constraintCheck, false),
            ("INSERT INTO t (k, n, p) VALUES ('c', 'n', 9)", SQLiteError.ResultCode.constraintForeignKey, false),
            ("INSERT INTO t (k, n) VALUES ('c', 'refuse')", SQLiteError.ResultCode.constraintTrigger, false),
        ]
        for (sql, code, isUnique) in cases {
            let error = try #require(throws: SQLiteError.self, "\(sql)") { try db.execute(sql) }
            #expect(error.extendedCode == code, "\(sql): \(error)")
            #expect(error.code == SQLiteError.ResultCode.constraint, "\(sql)")
            #expect(error.isUniqueConstraintViolation == isUnique, "\(sql)")
        }
        let syntax = try #require(throws: SQLiteError.self) { try db.execute("SELEC 1") }
        #expect(syntax.code == SQLiteError.ResultCode.error)
        #expect(!syntax.isUniqueConstraintViolation)
    }
}
