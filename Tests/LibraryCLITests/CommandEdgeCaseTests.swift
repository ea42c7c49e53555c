import Foundation
import Glibc
import Testing

/// Edge cases of the command line: 0-byte database files, a missing HOME, free text that starts with a dash, an empty NO_COLOR,
/// `--help=foo`, notes of new databases, LIBRARY_NOW read when not needed, too-large numbers and too-long names, and a
/// search paged past its end.
@Suite("Edge cases of the command line: empty files, HOME, free text, colour, notes, big numbers")
struct CommandEdgeCaseTests {
    // MARK: - A 0-byte database file

    /// An empty file at the sandbox's database path, as `touch` or `mktemp` makes.
    static func emptyFile(_ sandbox: Sandbox) {
        #expect(FileManager.default.createFile(atPath: sandbox.database, contents: Data()))
    }

    @Test("init on a 0-byte file creates the library in it (the demo catalog unless --empty)")
    func initOnEmptyFile() throws {
        for (arguments, books) in [(["init"], 49), (["init", "--empty"], 0)] {
            let sandbox = Sandbox()
            Self.emptyFile(sandbox)
            let result = sandbox.run(arguments)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.hasPrefix("Created "), "\(result.err)")
            #expect(!result.err.contains("already exists"))
            let json = try parseJSON(sandbox.run(["--json", "books", "--all"]).out)
            #expect(json["totalCount"] as? Int == books)
        }
        let sandbox = Sandbox()
        Self.emptyFile(sandbox)
        let json = try parseJSON(sandbox.run(["--json", "init"]).out)
        #expect(json["created"] as? Bool == true)
    }

    @Test("a read-only command on a 0-byte file says it holds no library, exit 73, and leaves it empty")
    func readOnEmptyFile() throws {
        for arguments in [["books"], ["list"], ["clients"], ["export"], ["migrate", "--status"]] {
            let sandbox = Sandbox()
            Self.emptyFile(sandbox)
            let result = sandbox.run(arguments)
            #expect(result.code == 73, "\(arguments)")
            #expect(
                result.err
                    == "Error: database '\(sandbox.database)' is an empty file and holds no library yet; nothing was "
                    + "changed. Create it with: librarycli --db \(sandbox.database) init\n", "\(arguments)")
            let size = try FileManager.default.attributesOfItem(atPath: sandbox.database)[.size] as? Int
            #expect(size == 0, "\(arguments) wrote to the empty file")
        }
    }

    @Test("a write command on a 0-byte file creates the library in it, with the note")
    func writeOnEmptyFile() {
        let sandbox = Sandbox()
        Self.emptyFile(sandbox)
        let result = sandbox.run(["clients", "add", "Ann"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.hasPrefix("Created a new, empty library at \(sandbox.database)."))
        #expect(sandbox.run(["clients"]).out.contains("Ann"))
    }

    // MARK: - HOME

    @Test("without HOME the default database is under the password database's home directory")
    func homeFromPasswordDatabase() {
        let sandbox = Sandbox()
        let home = sandbox.directory + "/account"
        #expect(mkdir(home, 0o700) == 0)
        for unset in [true, false] {
            let result = sandbox.run(
                ["-q", "books"], environment: unset ? [:] : ["HOME": ""], unsetting: unset ? ["HOME"] : [],
                useDatabase: false, accountHome: home)
            #expect(result.code == 0, "\(result.err)")
        }
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/librarycli/library.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: "librarycli/library.sqlite"))
    }

    @Test("without HOME or an account's home, a clear error (exit 73); commands without a database still work")
    func noHomeAtAll() {
        let sandbox = Sandbox()
        let result = sandbox.run(["books"], unsetting: ["HOME"], useDatabase: false, accountHome: nil)
        #expect(result.code == 73)
        #expect(result.err.hasPrefix("Error: cannot find a place for the default database: HOME is not set"))
        #expect(result.err.contains("--db PATH"))
        #expect(!FileManager.default.fileExists(atPath: "librarycli/library.sqlite"))
        #expect(sandbox.run(["completion", "bash"], unsetting: ["HOME"], useDatabase: false).code == 0)
        // XDG_DATA_HOME, LIBRARY_DB and --db need no home.
        let xdg = sandbox.run(
            ["-q", "books"], environment: ["XDG_DATA_HOME": sandbox.directory], unsetting: ["HOME"],
            useDatabase: false)
        #expect(xdg.code == 0, "\(xdg.err)")
        #expect(sandbox.run(["init"], unsetting: ["HOME"]).code == 0)
    }

    // MARK: - Free text that starts with a dash

    @Test("options of free text take the next word whatever it starts with")
    func freeTextWithDash() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let added = sandbox.run([
            "books", "add", "--title", "-Dune", "--author", "--Frank", "--description", "-x", "--year", "1965",
        ])
        #expect(added.code == 0, "\(added.err)")
        #expect(added.out == "Added -Dune as book #4.\n")
        let json = try parseJSON(sandbox.run(["--json", "books", "--search", "-dune"]).out)
        let titles = (json["books"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles.contains("-Dune"))
        #expect(
            try parseJSON(sandbox.run(["--json", "books", "--search", "--frank"]).out)["search"] as? String == "--frank"
        )
        #expect(sandbox.run(["list", "--search", "-tolkien"]).out.contains("books matching “-tolkien”"))
        #expect(sandbox.run(["clients", "add", "Ann", "--card", "-7"]).out.contains("card -7"))
        let token = sandbox.run(["tokens", "create", "--client", "1", "--label", "-phone"])
        #expect(token.code == 0, "\(token.err)")
        #expect(sandbox.run(["tokens"]).out.contains("-phone"))
        // Numbers and choices still refuse an option in their place.
        let page = sandbox.run(["books", "--page", "--all"])
        #expect(page.code == 64)
        #expect(page.err.hasPrefix("Error: Missing value for '--page <n>'."))
    }

    // MARK: - NO_COLOR and --help=foo

    @Test("an empty NO_COLOR does not turn colour off; a non-empty one does")
    func emptyNoColor() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let escape = "\u{1B}["
        let empty = sandbox.run(["list"], environment: ["TERM": "xterm", "NO_COLOR": ""], terminal: true)
        #expect(empty.out.contains(escape))
        let set = sandbox.run(["list"], environment: ["TERM": "xterm", "NO_COLOR": "0"], terminal: true)
        #expect(!set.out.contains(escape))
    }

    @Test(
        "--help and --version take no value, as --json does",
        arguments: [["--help=foo"], ["list", "--help=1"], ["--version=x"]])
    func builtInFlagsTakeNoValue(arguments: [String]) {
        let result = Sandbox().run(arguments)
        #expect(result.code == 64)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix("Error: The flag '--"), "\(result.err)")
        #expect(result.err.contains("does not take a value"))
    }

    // MARK: - Notes of a new database

    @Test("import and seed --file into a new database say so and how to seed it, as take does")
    func newDatabaseNotes() throws {
        let sandbox = Sandbox()
        let file = sandbox.directory + "/books.csv"
        try "title,author\nEmma,Jane Austen\n".write(toFile: file, atomically: true, encoding: .utf8)
        for (index, arguments) in [
            ["import", file], ["seed", "--file", file], ["seed", "--generate", "2"], ["migrate"],
        ]
        .enumerated() {
            let path = sandbox.directory + "/new-\(index).sqlite"
            let result = sandbox.run(["--db", path] + arguments)
            #expect(result.code == 0, "\(result.err)")
            #expect(
                result.err.hasPrefix(
                    "Created a new, empty library at \(path). Add the demo catalog with: librarycli --db \(path) seed\n"
                ),
                "\(arguments): \(result.err)")
        }
        let path = sandbox.directory + "/demo.sqlite"
        let seeded = sandbox.run(["--db", path, "seed"])
        #expect(seeded.err == "Created a new, empty library at \(path).\n")
        #expect(sandbox.run(["-q", "--db", sandbox.directory + "/quiet.sqlite", "import", file]).err.isEmpty)
        // migrate on a library that exists says nothing of creating one.
        #expect(!sandbox.run(["--db", sandbox.directory + "/new-3.sqlite", "migrate"]).err.contains("Created"))
    }

    // MARK: - LIBRARY_NOW only when needed

    @Test("a bad LIBRARY_NOW breaks only the commands that add clients or compare times")
    func libraryNowOnlyWhenNeeded() throws {
        let sandbox = Sandbox()
        let bad = ["LIBRARY_NOW": "bad"]
        #expect(sandbox.run(["init", "--empty"], environment: bad).code == 0)
        let file = sandbox.directory + "/books.csv"
        try "title,author\nEmma,Jane Austen\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(sandbox.run(["seed", "--file", file], environment: bad).code == 0)
        #expect(sandbox.run(["seed", "--generate", "3"], environment: bad).code == 0)
        let clients = sandbox.directory + "/clients.csv"
        try "name,card_number\nAnn,C-9\n".write(toFile: clients, atomically: true, encoding: .utf8)
        let withClients = sandbox.run(["seed", "--file", clients], environment: bad)
        #expect(withClients.code == 64)
        #expect(withClients.err.contains("LIBRARY_NOW"))
        #expect(sandbox.run(["seed"], environment: bad).code == 64)
        #expect(sandbox.run(["--db", sandbox.directory + "/demo.sqlite", "init"], environment: bad).code == 64)
        #expect(sandbox.run(["clients"]).out.contains("No clients yet"))
    }

    // MARK: - Messages

    @Test("a positive whole number too large says the largest allowed")
    func tooLargeNumber() {
        let result = Sandbox().run(["--width", "200", "take", "99999999999999999999"])
        #expect(result.code == 64)
        #expect(
            result.err.hasPrefix(
                "Error: Invalid value '99999999999999999999' for '<book-id>': expected a positive whole number of at "
                    + "most 9223372036854775807."))
    }

    @Test("a database name over 255 bytes is too long, not missing", arguments: [["books"], ["init"], ["take", "1"]])
    func nameTooLong(arguments: [String]) {
        let sandbox = Sandbox()
        let path = sandbox.directory + "/" + String(repeating: "a", count: 300) + ".sqlite"
        let result = sandbox.run(["--db", path] + arguments)
        #expect(result.code == 73)
        #expect(
            result.err
                == "Error: cannot use the database '\(path)': the name is too long (a file name is at most 255 bytes, "
                + "a path at most 4095); nothing was created.\n")
    }

    // MARK: - A search paged past its end

    @Test("a search paged past its last page says so, with the count and the last page, in text and JSON")
    func searchPastTheEnd() throws {
        let sandbox = Sandbox()
        sandbox.run(["-q", "init"])
        let list = sandbox.run(["--width", "120", "list", "--page", "2", "--search", "tolkien"])
        #expect(list.code == 0)
        #expect(list.out.contains("Library: books matching “tolkien” (2)"))
        #expect(!list.out.contains("No books match"))
        #expect(list.out.contains("Page 2 is past the end: 2 books match “tolkien”, on 1 page."))
        // The command back is written once, as the action (it was also written as a line before it).
        #expect(list.out.contains("Last page → librarycli list --page 1 --search tolkien"))
        #expect(list.out.components(separatedBy: "librarycli list --page 1 --search tolkien").count == 2)
        let first = sandbox.run(["--width", "120", "list", "--page", "99"])
        #expect(first.out.contains("Page 99 is past the end: there are 3 pages."))
        #expect(first.out.contains("First page → librarycli list\n"))
        #expect(first.out.components(separatedBy: "→ librarycli list\n").count == 2, "\(first.out)")
        #expect(!first.out.contains("See the first page"))
        let books = sandbox.run(["books", "--search", "tolkien", "--page", "3", "--per-page", "1"])
        #expect(
            books.out
                == "Page 3 is past the end: 2 books match “tolkien”, on 2 pages. See the last page: librarycli books "
                + "--page 2 --per-page 1 --search tolkien\n")
        let json = try parseJSON(sandbox.run(["--json", "list", "--page", "2", "--search", "tolkien"]).out)
        let library = try #require((json["sections"] as? [[String: Any]])?.last)
        let empty = try #require(
            (library["supplementaries"] as? [[String: Any]])?.first { $0["kind"] as? String == "empty" })
        #expect(empty["title"] as? String == "Page 2 is past the end: 2 books match “tolkien”, on 1 page.")
        #expect(empty["pageCount"] as? Int == 1)
        #expect(empty["totalCount"] as? Int == 2)
        let action = try #require((empty["actions"] as? [[String: Any]])?.first)
        #expect(action["id"] as? String == "last-page")
        #expect(action["href"] as? String == "/v1/screen?page=1&search=tolkien")
        // No match at all still says so.
        #expect(sandbox.run(["books", "--search", "zzzz"]).out == "No books match “zzzz”.\n")
    }

    @Test(
        "a libpq key=value string as the database is refused (exit 64), never created as a file nor quoted",
        arguments: [
            ["--db", "host=db password=s3cret", "take", "1"], ["--db", "dbname=lib user=ann", "list"],
            ["--db", "dbname = lib password = s3cret", "books"],
            ["--db", "host = db password = s3cret", "init", "--empty"],
        ])
    func keywordValueDatabase(arguments: [String]) throws {
        let sandbox = Sandbox()
        let result = sandbox.run(arguments, useDatabase: false)
        #expect(result.code == 64, "\(result.err)")
        #expect(result.err.contains("a key=value connection string is not read"))
        #expect(!result.err.contains("s3cret") && !result.err.contains("dbname=lib"))
        let made = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory)
        #expect(!made.contains { $0.contains("=") }, "\(made)")
        let copy = sandbox.run(["copy", "--from", "host=db password=s3cret", "--to", sandbox.database])
        #expect(copy.code == 64 && !copy.err.contains("s3cret"), "\(copy.err)")
    }
}
