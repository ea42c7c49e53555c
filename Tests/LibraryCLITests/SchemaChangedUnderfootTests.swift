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
}
