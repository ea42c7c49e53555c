import Testing

@Suite("Help, version and usage errors")
struct HelpAndUsageTests {
    @Test("--help prints the overview, the commands, the exit codes and the environment on stdout")
    func help() {
        let result = Sandbox().run(["--help"])
        #expect(result.code == 0)
        #expect(result.err.isEmpty)
        for part in ["USAGE:", "SUBCOMMANDS:", "take", "return", "EXIT CODES", " 75  ", "LIBRARY_DB", "LIBRARY_NOW"] {
            #expect(result.out.contains(part), "help lacks \(part)")
        }
    }

    @Test("help <command> and <command> --help give the same text", arguments: ["take", "list", "import"])
    func commandHelp(command: String) {
        let sandbox = Sandbox()
        let viaHelp = sandbox.run(["help", command])
        let viaFlag = sandbox.run([command, "--help"])
        #expect(viaHelp.code == 0 && viaFlag.code == 0)
        #expect(viaHelp.out == viaFlag.out)
        #expect(viaHelp.out.contains("librarycli \(command)"))
    }

    @Test("--version prints the version")
    func version() {
        let result = Sandbox().run(["--version"])
        #expect(result.code == 0)
        #expect(result.out == "0.1.0\n")
    }

    @Test(
        "usage errors: message, usage line and a pointer to help on stderr, exit 64, nothing written",
        arguments: [
            (["lsit"], "Error: Unknown command 'lsit'. Did you mean 'list'?"),
            (["list", "--serch", "x"], "Error: Unknown option '--serch'. Did you mean '--search'?"),
            (["take"], "Error: Missing expected argument '<book-id>'."),
            (["take", "abc"], "Error: Invalid value 'abc' for '<book-id>'"),
            (["take", "0"], "Error: Invalid value '0' for '<book-id>'"),
            (["take", "-3"], "Error: Invalid value '-3' for '<book-id>'"),
            (["take", "1.5"], "Error: Invalid value '1.5' for '<book-id>'"),
            (["take", "99999999999999999999"], "Error: Invalid value '99999999999999999999' for '<book-id>'"),
            (["take", "--", "--5"], "Error: Invalid value '--5' for '<book-id>'"),
            (["return", ""], "Error: Invalid value '' for '<book-id>'"),
            (["renew", "1", "2"], "Error: Unexpected argument '2'."),
            (["list", "--page", "0"], "Error: Invalid value '0' for '--page <n>'"),
            (["list", "--per-page", "100000"], "Error: Invalid value '100000' for '--per-page <n>'"),
            (["list", "--all", "--page", "2"], "Error: The options '--all' and '--page' cannot be used together."),
            (["list", "--page"], "Error: Missing value for '--page <n>'."),
            (["--format", "xml", "list"], "Error: Invalid value 'xml' for '--format <format>'"),
            (["--color", "sometimes"], "Error: Invalid value 'sometimes' for '--color <when>'"),
            (["--width", "5"], "Error: Invalid value '5' for '--width <n>'"),
            (["--client", "zero"], "Error: Invalid value 'zero' for '--client <id>'"),
            (["clients", "add"], "Error: Missing expected argument '<name>'."),
            (["clients", "add", "Ann", "--limit", "-1"], "Error: Invalid value '-1' for '--limit <n>'"),
            (["books", "add", "--author", "X"], "Error: Missing expected argument '--title <title>'."),
            (["books", "add", "--title", "X", "--year", "soon"], "Error: Invalid value 'soon' for '--year <year>'"),
            (["books", "add", "--title", "X", "--year", " 1999"], "Error: Invalid value ' 1999' for '--year <year>'"),
            (["books", "add", "--title", "X", "--year", "+1999"], "Error: Invalid value '+1999' for '--year <year>'"),
            (["books", "add", "--title", "X", "--pages", "5.0"], "Error: Invalid value '5.0' for '--pages <n>'"),
            (["books", "add", "--title", "X", "--isbn", "12"], "Error: Invalid value '12' for '--isbn <isbn>'"),
            (["completion", "powershell"], "Error: Invalid value 'powershell' for '<shell>'"),
            (["import"], "Error: Missing expected argument '<path>'."),
            (["export", "--format", "xml"], "Error: Invalid value 'xml' for '--format <format>'"),
            (["seed", "--generate", "ten"], "Error: Invalid value 'ten' for '--generate <n>'"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        let result = sandbox.run(arguments)
        #expect(result.code == 64)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix(message), "got: \(result.err)")
        #expect(result.err.contains("Usage: librarycli"))
        #expect(result.err.contains("See 'librarycli"))
        #expect(try sandbox.dump() == before)
    }

    @Test(
        "values the library cannot hold are usage errors too, and change nothing",
        arguments: [
            (["books", "add", "--title", "  "], "Error: A book's title cannot be empty."),
            (["clients", "add", " "], "Error: A client's name cannot be empty."),
            (["clients", "add", "Ann", "--card", " "], "Error: A card number cannot be empty."),
            // Text that shows nothing is empty too: zero-width spaces, joiners, variation selectors, fillers, marks.
            (["books", "add", "--title", "\u{200B}"], "Error: A book's title cannot be empty."),
            (["books", "add", "--title", "\u{FE0F}\u{200D}"], "Error: A book's title cannot be empty."),
            (["clients", "add", "\u{200B}"], "Error: A client's name cannot be empty."),
            (["clients", "add", "\u{115F}"], "Error: A client's name cannot be empty."),
            (["clients", "add", "\u{0301}"], "Error: A client's name cannot be empty."),
            (["clients", "add", "Ann", "--card", "\u{FEFF}"], "Error: A card number cannot be empty."),
            (
                ["books", "add", "--title", "Dune", "--author", "\u{FEFF}"],
                "Error: The author has no visible character."
            ),
        ])
    func impossibleValues(arguments: [String], message: String) throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        let result = sandbox.run(arguments)
        #expect(result.code == 64)
        #expect(result.err == message + "\n")
        #expect(try sandbox.dump() == before)
    }

    @Test("LIBRARY_NOW that is not a time is a usage error")
    func badClock() {
        let result = Sandbox().run(["list"], environment: ["LIBRARY_NOW": "yesterday"])
        #expect(result.code == 64)
        #expect(result.err.contains("LIBRARY_NOW"))
    }

    @Test("bash completion is a valid script naming every command")
    func completion() throws {
        let result = Sandbox().run(["completion", "bash"])
        #expect(result.code == 0)
        for command in ["list", "take", "return", "renew", "history", "clients", "books", "seed", "import", "export"] {
            #expect(result.out.contains(command))
        }
        for shell in ["zsh", "fish"] {
            #expect(Sandbox().run(["completion", shell]).code == 0)
        }
    }
}
