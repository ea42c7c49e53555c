import ArgumentParsing
import Foundation
import LibraryCLI
import SQLite
import Testing

@Suite("Values at the edges from the command line")
struct EdgeValueCommandTests {
    // MARK: - The clock

    @Test("a due date past year 9999 is a usage error about the clock, not a loan, and changes nothing")
    func dueDatePastYear9999() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        sandbox.now = "9999-12-31T23:59:59Z"
        let result = sandbox.run(["take", "2"])
        #expect(result.code == 64)
        #expect(result.err.contains("9999-12-31T23:59:59Z") && result.err.contains("clock"), "\(result.err)")
        #expect(!result.err.contains("on loan"))
        #expect(try sandbox.dump() == before)
    }

    @Test(
        "a LIBRARY_NOW outside the years 0001-9999 is a usage error naming it",
        arguments: ["0000-01-01T00:00:00Z", "9999-12-31T23:30:00-01:00", "10000-01-01T00:00:00Z", "yesterday"])
    func clockOutOfRange(now: String) throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.now = now
        let result = sandbox.run(["list"])
        #expect(result.code == 64)
        #expect(result.err.contains("LIBRARY_NOW"), "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test(
        "a bad LIBRARY_NOW or LIBRARY_CLIENT is refused before a new database would be created",
        arguments: [["LIBRARY_NOW": "soon"], ["LIBRARY_CLIENT": "abc"]])
    func badEnvironmentCreatesNothing(environment: [String: String]) throws {
        let sandbox = Sandbox()
        let fresh = sandbox.directory + "/fresh.sqlite"
        for command in [["list"], ["take", "1"], ["loans"], ["history"]] {
            let result = sandbox.run(["--db", fresh] + command, environment: environment)
            if command == ["history"] && environment["LIBRARY_NOW"] != nil { continue }
            #expect(result.code == 64, "\(command): \(result.err)")
            #expect(!FileManager.default.fileExists(atPath: fresh), "\(command) created the database")
        }
    }

    @Test("a time in the database outside the years 0001-9999 (written by hand) is reported as damage, exit 73")
    func storedTimeOutOfRange() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        #expect(sandbox.run(["take", "1"]).code == 0)
        let db = try Database(path: sandbox.database)
        try db.execute("UPDATE loans SET taken_at = '0000-06-01T00:00:00Z'")
        let result = sandbox.run(["loans"])
        #expect(result.code == 73)
        #expect(result.err.contains("cannot read") && result.err.contains("0000-06-01T00:00:00Z"), "\(result.err)")
    }

    // MARK: - Names, titles and authors on the way in

    static let badNames = [
        "Ann\u{1B}]0;pwned\u{7}", "Ann\u{1B}[2J", "Two\nlines", "Tab\tbed", "Nul\u{0}", "Del\u{7F}", "C1\u{9B}31m",
        String(repeating: "n", count: 100_000),
    ]

    @Test("clients add refuses control characters and overlong names with exit 64 and creates nothing")
    func clientsAddRefusesBadNames() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        for name in Self.badNames {
            let result = sandbox.run(["clients", "add", name])
            #expect(result.code == 64, "\(result.err)")
            #expect(result.err.contains("name"))
            #expect(!result.err.contains("\u{1B}") && result.err.utf8.count < 1_000)
            #expect(result.out.isEmpty)
        }
        #expect(sandbox.run(["clients", "add", "Ann", "--card", "C\u{1B}9"]).code == 64)
        #expect(try sandbox.dump() == before)
        // A refused value on a new database path leaves no database behind.
        let fresh = sandbox.directory + "/fresh.sqlite"
        #expect(sandbox.run(["--db", fresh, "clients", "add", "Bad\nName"]).code == 64)
        #expect(!FileManager.default.fileExists(atPath: fresh))
        // The longest name allowed is accepted.
        let longest = String(repeating: "é", count: 200)
        #expect(sandbox.run(["clients", "add", longest]).code == 0)
    }

    @Test("books add refuses control characters and overlong titles, authors and descriptions")
    func booksAddRefusesBadText() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        for arguments in [
            ["--title", "Du\u{1B}[31mne"], ["--title", "Du\nne"], ["--title", String(repeating: "t", count: 501)],
            ["--title", "Dune", "--author", "Frank\tHerbert"],
            ["--title", "Dune", "--author", String(repeating: "a", count: 1_001)],
            ["--title", "Dune", "--description", "bell\u{7}"],
            ["--title", "Dune", "--description", String(repeating: "d", count: 4_001)],
        ] {
            let result = sandbox.run(["books", "add"] + arguments)
            #expect(result.code == 64, "\(arguments.joined(separator: " ").prefix(40)): \(result.err)")
            #expect(!result.err.contains("\u{1B}"))
        }
        #expect(try sandbox.dump() == before)
    }

    @Test("a control character in an imported file is a bad row with its line and column")
    func importRefusesControlCharacters() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        let csv = sandbox.directory + "/books.csv"
        try "title,author\nDune,Frank Herbert\n\"Bad\u{1B}[31mTitle\",Someone\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        let result = sandbox.run(["import", csv])
        #expect(result.code == 65)
        #expect(result.err.contains("line 3, column 1 (title)"), "\(result.err)")
        #expect(result.err.contains("control character (U+001B)"))
        #expect(!result.err.contains("\u{1B}"))
        let json = sandbox.directory + "/books.jsonl"
        try "{\"title\":\"Fine\"}\n{\"title\":\"Ok\",\"author\":\"Tab\\tbed\"}\n".write(
            toFile: json, atomically: true, encoding: .utf8)
        let jsonResult = sandbox.run(["import", json])
        #expect(jsonResult.code == 65)
        #expect(jsonResult.err.contains("line 2, key \"author\""), "\(jsonResult.err)")
        let clients = sandbox.directory + "/clients.csv"
        try "name,card_number\nGood,G-1\n\(String(repeating: "x", count: 201)),G-2\n".write(
            toFile: clients, atomically: true, encoding: .utf8)
        let clientResult = sandbox.run(["seed", "--file", clients])
        #expect(clientResult.code == 65)
        #expect(clientResult.err.contains("line 3, column 1 (name)"), "\(clientResult.err)")
        #expect(try sandbox.dump() == before)
    }

    @Test("a bidirectional override in an imported file is a bad row; LRM and RLM in real text are kept")
    func importRefusesBidirectionalControls() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        let csv = sandbox.directory + "/books.csv"
        try "title,author\nDune,Frank Herbert\nEvil \u{202E}gnp.exe\u{202C} title,Someone\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        let result = sandbox.run(["import", csv])
        #expect(result.code == 65)
        #expect(result.err.contains("line 3, column 1 (title)"), "\(result.err)")
        #expect(result.err.contains("bidirectional control (U+202E)"), "\(result.err)")
        #expect(!result.err.contains("\u{202E}"))
        #expect(try sandbox.dump() == before)
        let marks = sandbox.directory + "/marks.csv"
        try "title,author\n\"\u{200F}מאה שנים של בדידות\u{200E} (1967)\",Ann\u{061C}\n".write(
            toFile: marks, atomically: true, encoding: .utf8)
        #expect(sandbox.run(["import", marks]).code == 0)
    }

    // MARK: - Everything echoed is cleaned

    @Test("text a database already holds, or a command line carries, reaches the terminal cleaned")
    func echoesAreCleaned() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        // A title written by an older librarycli or another program, before the checks on the way in.
        let db = try Database(path: sandbox.database)
        try db.execute("UPDATE books SET title = ? WHERE id = 2", ["Crime\u{1B}[2J and\nPunishment"])
        try db.execute("UPDATE clients SET name = ? WHERE id = 2", ["Jane\u{1B}]0;x\u{7}Roe"])
        let took = sandbox.run(["take", "2"])
        #expect(took.code == 0, "\(took.err)")
        #expect(took.out.hasPrefix("Took Crime\u{FFFD}[2J and Punishment (#2), due"))
        let refused = sandbox.run(["--client", "2", "take", "2"])
        #expect(refused.code == 1)
        #expect(refused.err.contains("Crime\u{FFFD}[2J and Punishment (#2) is on loan"), "\(refused.err)")
        let used = sandbox.run(["clients", "use", "2"])
        #expect(used.out == "Client #2 Jane\u{FFFD}]0;x\u{FFFD}Roe is now the default client.\n")
        let searched = sandbox.run(["books", "--search", "no\u{1B}[31m"])
        #expect(!searched.out.contains("\u{1B}") && searched.out.contains("No books match"))
        let usage = sandbox.run(["clients", "add", "X", "--limit", "9\u{1B}[31m"])
        #expect(usage.code == 64)
        #expect(!usage.err.contains("\u{1B}") && usage.err.contains("\u{FFFD}[31m"), "\(usage.err)")
        for result in [took, refused, used, searched, usage] {
            #expect(!(result.out + result.err).unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }
    }

    // MARK: - take 3 3

    @Test("a book named twice counts once, and take says so")
    func repeatedIDsCountOnce() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let result = sandbox.run(["take", "3", "3"])
        #expect(result.code == 0)
        #expect(result.err == "Book #3 is named more than once; it counts once.\n")
        #expect(result.out.components(separatedBy: "Took Les Misérables (#3)").count == 2)
        #expect(sandbox.run(["-q", "return", "3", "3"]).err.isEmpty)
    }
}

@Suite("Every command with a bad environment")
struct BadEnvironmentTests {
    /// Which environment values a command reads.
    struct Use: OptionSet {
        let rawValue: Int
        static let clock = Use(rawValue: 1)
        static let client = Use(rawValue: 2)
    }

    /// Every command of `CommandLineSpec`, as a runnable command line, and what it reads.
    static func commands(_ sandbox: Sandbox) throws -> [(path: [String], arguments: [String], uses: Use)] {
        let csv = sandbox.directory + "/more.csv"
        try "title\nMore\n".write(toFile: csv, atomically: true, encoding: .utf8)
        return [
            (["list"], ["list"], [.clock, .client]),
            (["take"], ["take", "2"], [.clock, .client]),
            (["return"], ["return", "1"], [.clock, .client]),
            (["renew"], ["renew", "1"], [.clock, .client]),
            (["loans"], ["loans"], [.clock, .client]),
            (["history"], ["history"], [.client]),
            (["clients"], ["clients"], []),
            (["clients", "list"], ["clients", "list"], []),
            (["clients", "add"], ["clients", "add", "Ann"], [.clock]),
            (["clients", "use"], ["clients", "use", "2"], []),
            (["clients", "pin"], ["clients", "pin", "2", "--clear"], []),
            (["tokens"], ["tokens"], []),
            (["tokens", "list"], ["tokens", "list"], []),
            (["tokens", "create"], ["tokens", "create", "--librarian"], [.clock]),
            (["tokens", "revoke"], ["tokens", "revoke", "1"], [.clock]),
            (["books"], ["books"], []),
            (["books", "list"], ["books", "list", "--all"], []),
            (["books", "add"], ["books", "add", "--title", "Added"], []),
            (["seed"], ["seed"], [.clock]),
            (["seed"], ["seed", "--generate", "3"], []),
            (["import"], ["import", csv], []),
            (["export"], ["export"], []),
            (["migrate"], ["migrate"], []),
            (["migrate"], ["migrate", "--status"], []),
            (["init"], ["init"], []),
            (["init"], ["--db", sandbox.directory + "/new.sqlite", "init"], [.clock]),
            (["copy"], ["copy", "--from", sandbox.database, "--to", sandbox.directory + "/copy.sqlite"], []),
            (["completion"], ["completion", "bash"], []),
            // `serve` runs until a signal, so it is not run here: LibraryServerTests runs the binary with a bad
            // LIBRARY_NOW (exit 64) and with LIBRARY_CLIENT set (ignored).
            (["serve"], ["help", "serve"], []),
            (["help"], ["help", "take"], []),
            (["--version"], ["--version"], []),
            ([], [], [.clock, .client]),
        ]
    }

    @Test("the table above names every command")
    func everyCommandIsTried() throws {
        var leaves: [[String]] = []
        func walk(_ spec: CommandSpec, _ path: [String]) {
            if spec.subcommands.isEmpty { leaves.append(path) }
            for sub in spec.subcommands { walk(sub, path + [sub.name]) }
            if spec.defaultSubcommand != nil && !path.isEmpty { leaves.append(path) }
        }
        walk(CommandLineSpec.root, [])
        let tried = Set(try Self.commands(Sandbox()).map(\.path))
        for leaf in leaves {
            #expect(tried.contains(leaf), "\(leaf.joined(separator: " ")) is not tried with a bad environment")
        }
    }

    @Test(
        "each command reads only the environment values it uses",
        arguments: [
            ("LIBRARY_NOW", "not-a-time", Use.clock), ("LIBRARY_NOW", "0000-01-01T00:00:00Z", Use.clock),
            ("LIBRARY_CLIENT", "abc", Use.client), ("LIBRARY_CLIENT", "-1", Use.client),
        ])
    func badValue(name: String, value: String, use: Use) throws {
        for index in try Self.commands(Sandbox()).indices {
            let sandbox = Sandbox()
            sandbox.makeSmallLibrary()
            sandbox.run(["take", "1"])
            sandbox.run(["tokens", "create", "--librarian"])
            let command = try Self.commands(sandbox)[index]
            let result = sandbox.run(command.arguments, environment: [name: value])
            let line = command.arguments.joined(separator: " ")
            if command.uses.contains(use) {
                #expect(result.code == 64, "\(line) with \(name)=\(value): \(result.err)")
                #expect(result.err.contains(name), "\(line): \(result.err)")
            } else {
                #expect(result.code == 0, "\(line) with \(name)=\(value): \(result.err)")
            }
        }
    }
}
