import Foundation
import Library
import SQLite
import Testing

@testable import LibraryCLI

@Suite("A schema changed by hand while a command runs")
struct SchemaChangedUnderfootTests {
    @Test("'no such table' after the check at open is a damaged database (73), not a bug (70)")
    func tableDroppedAfterOpen() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        guard case .command(let parsed) = LibraryCommandLine.parser.parse(["--db", sandbox.database, "clients"]) else {
            Issue.record("clients did not parse")
            return
        }
        let console = Console.captured()
        let options = try GlobalOptions(parsed, environment: [:], accountHome: { nil }, console: console)
        let context = CommandContext(
            parsed: parsed, options: options, environment: [:], console: console,
            systemNow: try Timestamp(secondsSinceEpoch: 0))
        let store = try context.openStore(.reads)
        #expect(try context.withDatabase { try store.allClients() }.count == 2)
        // SQL errors that are not the schema's fault are bugs, exit 70.
        let bug = try #require(throws: Failure.self) {
            try context.withDatabase { throw SQLiteError(code: 1, message: "near \"SELEC\": syntax error") }
        }
        #expect(bug.code == .internalError)
        let other = try Database(path: sandbox.database)
        try other.execute("PRAGMA foreign_keys=OFF")
        try other.execute("DROP TABLE loans")
        let failure = try #require(throws: Failure.self) {
            try context.withDatabase { try store.openLoans(clientID: 1, now: context.now) }
        }
        #expect(failure.code == .cannotWrite)
        #expect(
            failure.message
                == "'\(sandbox.database)' is not a librarycli database or damaged: table loans is missing; it was left "
                + "as it is.")
    }

    @Test("an internal error shows the first line of the SQL that failed, cut short, never a whole script")
    func internalErrorCutsTheSQL() {
        let script = "-- Who may do what: tokens.\nCREATE TABLE tokens (\n    id INTEGER PRIMARY KEY\n) STRICT;\n"
        let failure = Failure(SQLiteError(code: 1, message: "table tokens already exists", sql: script))
        #expect(failure.code == .internalError)
        #expect(
            failure.message
                == "internal error: SQLite error 1 (SQL logic error): table tokens already exists (in: -- Who may do "
                + "what: tokens. ...). This is a bug in librarycli.")
        let long = "SELECT " + String(repeating: "x, ", count: 60) + "y FROM t"
        let cut = Failure(SQLiteError(code: 1, message: "no such column: x", sql: long))
        #expect(cut.message.contains("(in: " + String(long.prefix(80)) + " ...)"))
        let short = Failure(SQLiteError(code: 1, message: "no such table: t", sql: "SELECT * FROM t"))
        #expect(short.message.contains("(in: SELECT * FROM t)"))
    }
}
