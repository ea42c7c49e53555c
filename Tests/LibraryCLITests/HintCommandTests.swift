import Foundation
import Testing

@testable import LibraryCLI

/// The commands the command line shows (the screen's actions, empty states, hints, paging) act on the same database
/// and client as the command that showed them, so they can be pasted as they are.
@Suite("Commands in hints carry --db and --client")
struct HintCommandTests {
    @Test("--db and --client from the command line are in the screen's actions, as text and as JSON")
    func screenActions() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let db = sandbox.database
        sandbox.run(["--db", db, "--client", "2", "take", "1"], useDatabase: false)
        let text = sandbox.run(
            ["--db", db, "--client", "2", "--width", "200", "list", "--per-page", "2"], useDatabase: false)
        #expect(text.code == 0)
        let program = "librarycli --db \(db) --client 2"
        #expect(text.out.contains("Next page → \(program) list --page 2 --per-page 2"))
        #expect(text.out.contains("Search → \(program) list --search <text>"))
        #expect(!text.out.contains("→ librarycli list"))

        let json = sandbox.run(["--db", db, "--client", "2", "--json", "list", "--per-page", "2"], useDatabase: false)
        #expect(json.out.contains("\"command\": \"\(program) return 1\""))
        #expect(json.out.contains("\"command\": \"\(program) loans\""))
        #expect(!json.out.contains("\"command\": \"librarycli return"))
        #expect(!json.out.contains("\"command\": \"librarycli list"))

        // `take` prints the screen after the change with the same commands.
        let taken = sandbox.run(["--db", db, "--client", "2", "--json", "take", "2"], useDatabase: false)
        #expect(taken.out.contains("\"command\": \"\(program) return 2\""))
    }

    @Test("only --db when only --db was given; a path that needs quoting is shell-quoted")
    func quotedDatabase() throws {
        let sandbox = Sandbox()
        let db = sandbox.directory + "/my lib's.sqlite"
        #expect(sandbox.run(["-q", "--db", db, "init", "--empty"], useDatabase: false).code == 0)
        let quoted = "'" + sandbox.directory + "/my lib'\\''s.sqlite'"

        let books = sandbox.run(["--db", db, "books"], useDatabase: false)
        #expect(
            books.out == "The library has no books yet. Add the demo catalog with: librarycli --db \(quoted) seed\n")
        let clients = sandbox.run(["--db", db, "clients"], useDatabase: false)
        #expect(clients.out.contains("Add one with: librarycli --db \(quoted) clients add"))
        let tokens = sandbox.run(["--db", db, "tokens"], useDatabase: false)
        #expect(tokens.out.contains("Create one with: librarycli --db \(quoted) tokens create --client ID"))

        sandbox.run(["-q", "--db", db, "clients", "add", "Ann"], useDatabase: false)
        let screen = sandbox.run(["--db", db, "--width", "300", "list"], useDatabase: false)
        #expect(screen.out.contains("Add the demo catalog: librarycli --db \(quoted) seed"))
        let loans = sandbox.run(["--db", db, "--client", "1", "loans"], useDatabase: false)
        #expect(loans.out.contains("Take one with: librarycli --db \(quoted) --client 1 take <book-id>"))
    }

    @Test("a database and client from LIBRARY_DB and LIBRARY_CLIENT, or the defaults, keep the short form")
    func environmentKeepsShortForm() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "1"])
        let text = sandbox.run(
            ["--width", "200", "list", "--per-page", "2"], environment: ["LIBRARY_CLIENT": "1"])
        let json = sandbox.run(["--json", "list"], environment: ["LIBRARY_CLIENT": "1"])
        #expect(json.out.contains("\"command\": \"librarycli return 1\""))
        #expect(text.out.contains("Next page → librarycli list --page 2 --per-page 2"))
        let books = sandbox.run(["books", "--per-page", "1"])
        #expect(books.out.contains("next: librarycli books --page 2 --per-page 1"))
    }

    @Test("the books table's paging and the PIN hint carry --db")
    func bookPagingAndPIN() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let db = sandbox.database
        let books = sandbox.run(["--db", db, "books", "--per-page", "1", "--page", "2"], useDatabase: false)
        #expect(books.out.contains("previous: librarycli --db \(db) books --page 1 --per-page 1"))
        #expect(books.out.contains("next: librarycli --db \(db) books --page 3 --per-page 1"))
        let pin = sandbox.run(["--db", db, "clients", "pin", "1"], useDatabase: false)
        #expect(pin.err.contains("printf '%s\\n' \"$PIN\" | librarycli --db \(db) clients pin 1"))
        // Usage hints name the command alone: it is the same help whatever the database.
        let both = sandbox.run(["--db", db, "tokens", "create", "--client", "1", "--librarian"], useDatabase: false)
        #expect(both.err.contains("See 'librarycli tokens create --help'"))
    }

    @Test("a database path that starts with '-' is written --db=PATH, which --db reads back; others --db PATH")
    func dashPath() throws {
        #expect(CommandContext.databaseArgument("-lib.sqlite") == "--db=-lib.sqlite")
        #expect(CommandContext.databaseArgument("-my lib.sqlite") == "--db='-my lib.sqlite'")
        #expect(CommandContext.databaseArgument("lib.sqlite") == "--db lib.sqlite")
        let sandbox = Sandbox()
        let result = sandbox.run(["--db=-lib.sqlite", "books"], useDatabase: false)
        #expect(result.err.contains("Create it with: librarycli --db=-lib.sqlite init"))
    }
}
