import HTTP
import Library
import SQLite
import Testing

@testable import LibraryServer

/// The line `serve` logs for a request answered 500, and the problem a file it may not write gives.
@Suite("The error log line and database permission problems")
struct ErrorLogLineTests {
    static let request = Request(method: .post, target: "/v1/loans?token=lc_secret", headers: ["X-Request-Id": "r1"])

    @Test("an SQLite error is its code and message on one line: no SQL, no target")
    func sqliteErrorLine() {
        let error = SQLiteError(
            code: SQLiteError.ResultCode.constraintTrigger, message: "nope",
            sql: "INSERT INTO loans (book_id)\nVALUES ('x')")
        let line = LibraryService.errorLine(Self.request, error)
        #expect(line.hasSuffix("(POST) failed: SQLite error 1811: nope"), "\(line)")
        #expect(!line.contains("\n") && !line.contains("INSERT") && !line.contains("lc_secret"))
    }

    @Test("another error is named by its type alone, as its words may quote a stored value")
    func otherErrorLine() {
        struct StoredValueTrouble: Error, CustomStringConvertible {
            var description: String { "'garbage'\nis not a time" }
        }
        let line = LibraryService.errorLine(Self.request, StoredValueTrouble())
        #expect(line.hasSuffix("failed: StoredValueTrouble"), "\(line)")
        #expect(!line.contains("garbage"))
    }

    @Test("a database file the server may not write is 500 database-permission, saying so")
    func readOnlyFile() throws {
        let problem = try #require(
            ProblemMapping.problem(for: SQLiteError(code: SQLiteError.ResultCode.readOnly, message: "readonly")))
        #expect(problem.status == .internalServerError && problem.code == "database-permission")
        #expect(problem.detail?.contains("read-only") == true)
    }
}
