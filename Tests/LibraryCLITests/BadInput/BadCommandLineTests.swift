import Foundation
import Testing

extension BadInputTests {
    /// One bad command line: `$DIR` in an argument or variable is the sandbox's directory.
    struct CommandLine: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var environment: [String: String] = [:]
        var code: Int32
        var message: String

        var testDescription: String {
            let shown = arguments.map { $0.count > 40 ? String($0.prefix(20)) + "…(\($0.count))" : $0 }
            let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
            return variables + (shown.isEmpty ? "(no arguments)" : shown.joined(separator: " "))
        }

        init(_ arguments: [String], _ code: Int32, _ message: String, environment: [String: String] = [:]) {
            self.arguments = arguments
            self.code = code
            self.message = message
            self.environment = environment
        }
    }

    @Suite("Bad command lines: the documented exit code and message, and the database unchanged")
    struct CommandLines {
        @Test("A bad command line is refused", arguments: commandLines)
        func refused(_ line: CommandLine) throws {
            let sandbox = try BadInputTests.sandbox()
            let before = try sandbox.dump()
            let files = BadInputTests.listing(sandbox)
            let expand = { (text: String) in text.replacingOccurrences(of: "$DIR", with: sandbox.directory) }
            let result = sandbox.run(
                line.arguments.map(expand), environment: line.environment.mapValues(expand))
            BadInputTests.expectFailure(result, code: line.code, message: line.message, line.testDescription)
            let unchanged = try sandbox.dump() == before
            #expect(unchanged, "\(line.testDescription) changed the database")
            let sameFiles = BadInputTests.listing(sandbox) == files
            #expect(sameFiles, "\(line.testDescription) left files behind")
        }

        @Test("The corpus holds at least 100 command lines")
        func size() {
            #expect(commandLines.count >= 100)
        }
    }
}

// MARK: - The corpus

private typealias C = BadInputTests.CommandLine

private let usage = "Usage: librarycli"
private let positive = "expected a positive whole number"

private let commandLines: [BadInputTests.CommandLine] =
    bookIds + listOptions + globalOptions + clientCommands + bookCommands + fileCommands + otherCommands
    + environmentVariables + textValues + hugeArguments

private let bookIds: [C] = [
    C(["take"], 64, "Missing expected argument '<book-id>'"),
    C(["take", "abc"], 64, "Invalid value 'abc' for '<book-id>': " + positive),
    C(["take", "0"], 64, "Invalid value '0' for '<book-id>'"),
    C(["take", "-1"], 64, "Invalid value '-1' for '<book-id>'"),
    C(["take", "+1"], 64, "Invalid value '+1'"),
    C(["take", "1.5"], 64, "Invalid value '1.5'"),
    C(["take", "0x10"], 64, "Invalid value '0x10'"),
    C(["take", " 1"], 64, "Invalid value ' 1'"),
    C(["take", "1 "], 64, "Invalid value '1 '"),
    C(["take", ""], 64, "Invalid value '' for '<book-id>'"),
    C(["take", "١"], 64, "Invalid value '١'"),
    C(["take", "99999999999999999999"], 64, "Invalid value '99999999999999999999'"),
    C(["take", "9223372036854775808"], 64, "Invalid value '9223372036854775808'"),
    C(["take", "1e3"], 64, "Invalid value '1e3'"),
    C(["take", "1\u{0}"], 64, "Invalid value"),
    C(["take", "2", "x"], 64, "Invalid value 'x'"),
    C(["take", "--"], 64, "Missing expected argument '<book-id>'"),
    C(["take", "--", "-1"], 64, "Invalid value '-1'"),
    C(["take", "999"], 1, "There is no book #999."),
    C(["take", "2", "999"], 1, "There is no book #999."),
    C(["take", "1"], 1, "You already have Dune (#1)"),
    C(["take", "2", "1"], 1, "You already have Dune (#1)"),
    C(["--client", "2", "take", "1"], 1, "is on loan to someone else"),
    C(["--client", "2", "take", "2", "3", "1"], 1, "on loan to someone else"),
    C(["return"], 64, "Missing expected argument '<book-id>'"),
    C(["return", "abc"], 64, "Invalid value 'abc'"),
    C(["return", "2"], 1, "You do not have Crime and Punishment (#2) on loan."),
    C(["return", "999"], 1, "There is no book #999."),
    C(["return", "1", "2"], 1, "You do not have Crime and Punishment (#2) on loan."),
    C(["--client", "2", "return", "1"], 1, "You do not have Dune (#1) on loan."),
    C(["renew"], 64, "Missing expected argument '<book-id>'"),
    C(["renew", "1", "2"], 64, "Unexpected argument '2'"),
    C(["renew", "x"], 64, "Invalid value 'x'"),
    C(["renew", "2"], 1, "You do not have Crime and Punishment (#2) on loan."),
    C(["renew", "999"], 1, "There is no book #999."),
]

private let listOptions: [C] = [
    C(["list", "--page", "0"], 64, "Invalid value '0' for '--page <n>'"),
    C(["list", "--page", "x"], 64, "Invalid value 'x' for '--page <n>'"),
    C(["list", "--page", "-1"], 64, "Invalid value '-1' for '--page <n>'"),
    C(["list", "--page", "1000000001"], 64, "expected a whole number from 1 to 1000000000"),
    C(["list", "--page"], 64, "Missing value for '--page <n>'"),
    C(["list", "--per-page", "0"], 64, "Invalid value '0' for '--per-page <n>'"),
    C(["list", "--per-page", "100000"], 64, "Invalid value '100000' for '--per-page <n>'"),
    C(["list", "--search"], 64, "Missing value for '--search <text>'"),
    C(["list", "--serch", "x"], 64, "Unknown option '--serch'. Did you mean '--search'?"),
    C(["list", "extra"], 64, "Unexpected argument 'extra'"),
    C(["list", "--all", "--page", "2"], 64, "'--all' and '--page' cannot be used together"),
    C(["list", "--page", "1", "--page", "2"], 64, "was given more than once"),
    C(["list", "--all=yes"], 64, "--all"),
    C(["lsit"], 64, "Unknown command 'lsit'. Did you mean 'list'?"),
    C(["tkae", "1"], 64, "Unknown command 'tkae'. Did you mean 'take'?"),
    C(["history", "x"], 64, "Unexpected argument 'x'"),
    C(["history", "--bogus"], 64, "Unknown option '--bogus'"),
]

private let globalOptions: [C] = [
    C(["--width", "0"], 64, "Invalid value '0' for '--width <n>'"),
    C(["--width", "x"], 64, "Invalid value 'x' for '--width <n>'"),
    C(["--width", "-5"], 64, "Invalid value '-5' for '--width <n>'"),
    C(["--width", "19"], 64, "expected a whole number from 20 to"),
    C(["--width", "1001"], 64, "Invalid value '1001'"),
    C(["--width"], 64, "Missing value for '--width <n>'"),
    C(["--color", "purple"], 64, "Invalid value 'purple' for '--color <when>'"),
    C(["--color"], 64, "Missing value for '--color <when>'"),
    C(["--format", "xml"], 64, "Invalid value 'xml' for '--format <format>'"),
    C(["--format"], 64, "Missing value for '--format <format>'"),
    C(["--client", "0"], 64, "Invalid value '0' for '--client <id>'"),
    C(["--client", "x"], 64, "Invalid value 'x' for '--client <id>'"),
    C(["--client", "-1"], 64, "Invalid value '-1' for '--client <id>'"),
    C(["--client", "99999999999999999999"], 64, "Invalid value '99999999999999999999'"),
    C(["--client", "99"], 1, "There is no client #99."),
    C(["--client", "99", "take", "2"], 1, "There is no client #99."),
    C(["--db"], 64, "Missing value for '--db <path>'"),
    C(["--db", ""], 64, "Invalid value '' for '--db <path>': expected a file path."),
    C(["--db", "$DIR", "take", "2"], 73, "is a directory, not a database file"),
    C(["--db", "$DIR/no/such/folder/x.sqlite", "list"], 73, "does not exist"),
    C(["--db", "/dev/null", "list"], 73, "/dev/null"),
    C(["-x"], 64, "Unknown option '-x'"),
    C(["-qx"], 64, "Unknown option '-x'"),
    C(["--bogus"], 64, "Unknown option '--bogus'"),
    C(["--json", "--bogus", "take", "1"], 64, "Unknown option '--bogus'"),
    C(["take", "1", "--json", "--bogus"], 64, "Unknown option '--bogus'"),
]

private let clientCommands: [C] = [
    C(["clients", "add"], 64, "Missing expected argument '<name>'"),
    C(["clients", "add", ""], 64, "A client's name cannot be empty."),
    C(["clients", "add", "x", "--limit", "x"], 64, "Invalid value 'x' for '--limit <n>'"),
    C(["clients", "add", "x", "--limit", "-1"], 64, "Invalid value '-1' for '--limit <n>'"),
    C(["clients", "add", "x", "--limit", "1001"], 64, "expected a whole number from 0 to"),
    C(["clients", "add", "x", "--limit"], 64, "Missing value for '--limit <n>'"),
    C(["clients", "add", "x", "--card", ""], 64, "A card number cannot be empty."),
    C(["clients", "add", "x", "y"], 64, "Unexpected argument 'y'"),
    C(["clients", "add", "Dup", "--card", "C-0001"], 1, "Card number C-0001 belongs to another client."),
    C(["clients", "use", "99"], 1, "There is no client #99."),
    C(["clients", "use", "x"], 64, "Invalid value 'x' for '<client-id>'"),
    C(["clients", "use", "0"], 64, "Invalid value '0' for '<client-id>'"),
    C(["clients", "use"], 64, "Missing expected argument '<client-id>'"),
    C(["clients", "frob"], 64, "Unknown command 'frob'"),
    C(["clients", "list", "extra"], 64, "Unexpected argument 'extra'"),
]

private let bookCommands: [C] = [
    C(["books", "add"], 64, "Missing expected argument '--title <title>'"),
    C(["books", "add", "--title", ""], 64, "A book's title cannot be empty."),
    C(["books", "add", "--title", "   "], 64, "A book's title cannot be empty."),
    C(
        ["books", "add", "--title", "x", "--year", "x"], 64,
        "Invalid value 'x' for '--year <year>': expected a whole number from -9999 to 9999, not 0 (-1 is 1 BC)."),
    C(["books", "add", "--title", "x", "--year", "0"], 64, "Invalid value '0' for '--year <year>'"),
    C(
        ["books", "add", "--title", "x", "--pages", "x"], 64,
        "for '--pages <n>': expected a whole number from 1 to 1000000."),
    C(["books", "add", "--title", "x", "--year", "10000"], 64, "Invalid value '10000' for '--year <year>'"),
    C(["books", "add", "--title", "x", "--year", "1.5"], 64, "Invalid value '1.5' for '--year <year>'"),
    C(["books", "add", "--title", "x", "--pages", "-1"], 64, "Invalid value '-1' for '--pages"),
    C(["books", "add", "--title", "x", "--pages", "0"], 64, "Invalid value '0' for '--pages"),
    C(["books", "add", "--title", "x", "--pages", "x"], 64, "Invalid value 'x' for '--pages"),
    C(["books", "add", "--title", "x", "--isbn", "abc"], 64, "Invalid value 'abc' for '--isbn <isbn>'"),
    C(["books", "add", "--title", "x", "--isbn", "123"], 64, "Invalid value '123' for '--isbn <isbn>'"),
    C(["books", "add", "--title", "x", "--title", "y"], 64, "The option '--title' was given more than once."),
    C(["books", "add", "Dune"], 64, "Unexpected argument 'Dune'"),
    C(["books", "frob"], 64, "Unknown command 'frob'"),
    C(["books", "list", "--page", "0"], 64, "Invalid value '0' for '--page <n>'"),
    C(["books", "list", "--per-page", "0"], 64, "Invalid value '0' for '--per-page <n>'"),
    C(["books", "--search"], 64, "Missing value for '--search <text>'"),
]

private let fileCommands: [C] = [
    C(["export", "--format", "xml"], 64, "Invalid value 'xml' for '--format <format>'"),
    C(["export", "--format"], 64, "Missing value for '--format <format>'"),
    C(["export", "--output", "$DIR/no/such/folder/x.csv"], 74, "No such file or directory"),
    C(["export", "--output", "$DIR"], 74, "it is a directory, not a regular file"),
    C(["export", "--output", ""], 64, "Invalid value '' for '--output <path>'"),
    C(["seed", "--file", ""], 64, "Invalid value '' for '--file <path>'"),
    C(["import"], 64, "Missing expected argument '<path>'"),
    C(["import", "a", "b"], 64, "Unexpected argument 'b'"),
    C(["import", "--dry-run"], 64, "Missing expected argument '<path>'"),
    C(["import", "$DIR/missing.csv"], 66, "missing.csv: no such file"),
    C(["import", "$DIR"], 66, "is a directory, not a regular file"),
    C(["import", ""], 64, "Invalid value '' for '<path>'"),
    C(["import", "/dev/null"], 66, "is a character device, not a regular file"),
    C(["import", "/dev/zero"], 66, "is a character device, not a regular file"),
    C(["import", "$DIR/library.sqlite"], 65, "library.sqlite: line 1, column 1: a NUL byte. Nothing was imported."),
    C(["seed", "--file"], 64, "Missing value for '--file <path>'"),
    C(["seed", "--file", "$DIR/missing.csv"], 66, "missing.csv: no such file"),
    C(["seed", "--file", "$DIR"], 66, "is a directory, not a regular file"),
    C(["seed", "--file", "/dev/zero"], 66, "is a character device"),
    C(["seed", "--generate", "x"], 64, "Invalid value 'x' for '--generate <n>'"),
    C(["seed", "--generate", "-1"], 64, "Invalid value '-1' for '--generate <n>'"),
    C(["seed", "--generate", "100000001"], 64, "Invalid value '100000001'"),
    C(["seed", "--random-seed", "x"], 64, "Invalid value 'x' for '--random-seed <s>'"),
]

private let otherCommands: [C] = [
    C(["migrate", "extra"], 64, "Unexpected argument 'extra'"),
    C(["migrate", "--bogus"], 64, "Unknown option '--bogus'"),
    C(["migrate", "--status", "extra"], 64, "Unexpected argument 'extra'"),
    C(["init", "--bogus"], 64, "Unknown option '--bogus'"),
    C(["init", "extra"], 64, "Unexpected argument 'extra'"),
    C(["completion"], 64, "Missing expected argument '<shell>'"),
    C(["completion", "tcsh"], 64, "Invalid value 'tcsh' for '<shell>'"),
    C(["completion", "bash", "zsh"], 64, "Unexpected argument 'zsh'"),
    C(["help", "nope"], 64, "Unknown command 'nope'"),
    C(["help", "take", "extra"], 64, "Unknown command 'extra'"),
]

private let environmentVariables: [C] = [
    C(["list"], 64, "Invalid value 'abc' for 'LIBRARY_CLIENT'", environment: ["LIBRARY_CLIENT": "abc"]),
    C(["list"], 64, "LIBRARY_CLIENT", environment: ["LIBRARY_CLIENT": "0"]),
    C(["list"], 1, "There is no client #99.", environment: ["LIBRARY_CLIENT": "99"]),
    C(["take", "2"], 1, "There is no client #99.", environment: ["LIBRARY_CLIENT": "99"]),
    C(["list"], 64, "Invalid value 'garbage' for 'LIBRARY_NOW'", environment: ["LIBRARY_NOW": "garbage"]),
    C(["take", "2"], 64, "LIBRARY_NOW", environment: ["LIBRARY_NOW": "2026-13-45T99:00:00Z"]),
    C(["list"], 73, "is a directory, not a database file", environment: ["LIBRARY_DB": "$DIR"]),
    C(["list"], 64, "expected a time in the years 0001 to 9999", environment: ["LIBRARY_NOW": "0000-06-01T00:00:00Z"]),
    C(
        ["take", "2"], 64, "the last moment the library can record",
        environment: ["LIBRARY_NOW": "9999-12-31T23:59:59Z"]),
    C(["renew", "1"], 64, "LIBRARY_NOW", environment: ["LIBRARY_NOW": "10000-01-01T00:00:00Z"]),
    C(["loans"], 64, "LIBRARY_CLIENT", environment: ["LIBRARY_CLIENT": "x"]),
    C(["history"], 64, "LIBRARY_CLIENT", environment: ["LIBRARY_CLIENT": "-3"]),
    C(["clients", "add", "Ann"], 64, "LIBRARY_NOW", environment: ["LIBRARY_NOW": "soon"]),
]

/// Text the library cannot keep: control characters and values over their limits (see README, Limits).
private let textValues: [C] = [
    C(["clients", "add", "Ann\u{1B}]0;pwned\u{7}"], 64, "The name holds a control character (U+001B) at character 4."),
    C(["clients", "add", "Two\nlines"], 64, "control character (U+000A)"),
    C(["clients", "add", "Tab\there"], 64, "control character (U+0009)"),
    C(["clients", "add", "C1\u{9B}2J"], 64, "control character (U+009B)"),
    C(["clients", "add", "Del\u{7F}"], 64, "control character (U+007F)"),
    C(["clients", "add", "Line\u{2028}sep"], 64, "The name holds a line separator (U+2028) at character 5."),
    // Bidirectional embeddings, overrides and isolates: "Evil \u{202E}gnp.exe" would read "Evil exe.png" on a page.
    C(["clients", "add", "Ann\u{2066}"], 64, "The name holds a bidirectional control (U+2066) at character 4."),
    C(
        ["books", "add", "--title", "Evil \u{202E}gnp.exe\u{202C} title"], 64,
        "The title holds a bidirectional control (U+202E) at character 6."),
    C(["books", "add", "--title", "x", "--author", "\u{202A}A"], 64, "The author holds a bidirectional control"),
    C(["books", "add", "--title", "x", "--description", "\u{2069}"], 64, "The description holds a bidirectional"),
    C(["clients", "add", String(repeating: "n", count: 100_000)], 64, "100000 characters long; at most 200"),
    C(["clients", "add", "Ann", "--card", "C\u{0}1"], 64, "The card number holds a control character"),
    C(["clients", "add", "Ann", "--card", String(repeating: "9", count: 101)], 64, "at most 100"),
    C(["books", "add", "--title", "Du\u{1B}[2Jne"], 64, "The title holds a control character"),
    C(["books", "add", "--title", String(repeating: "t", count: 501)], 64, "at most 500"),
    C(["books", "add", "--title", "x", "--author", "A\rB"], 64, "The author holds a control character (U+000D)"),
    C(["books", "add", "--title", "x", "--author", String(repeating: "a", count: 1001)], 64, "at most 1000"),
    C(["books", "add", "--title", "x", "--description", "\u{1B}[5m"], 64, "The description holds a control"),
    C(["books", "add", "--title", "x", "--description", String(repeating: "d", count: 4_001)], 64, "at most 4000"),
]

/// Very long arguments: refused quickly, and the message does not crash on them.
private let hugeArguments: [C] = [
    C(["take", String(repeating: "1", count: 100_000)], 64, "Invalid value '1111"),
    C(["take"] + Array(repeating: "abc", count: 10_000), 64, "Invalid value 'abc'"),
    C(["list", "--" + String(repeating: "x", count: 100_000)], 64, "Unknown option '--xxxx"),
    C([String(repeating: "é", count: 100_000)], 64, "Unknown command 'éééé"),
    C(["import", "$DIR/" + String(repeating: "a", count: 5_000)], 66, "aaaa"),
    C(["books", "add", "--title", "x", "--year", String(repeating: "9", count: 10_000)], 64, "--year <year>"),
    // Search text is limited to 200 characters (issue 10, item 7), checked before the database is opened.
    C(["list", "--search", String(repeating: "x", count: 50_000)], 64, searchLimit),
    C(["list", "--search", String(repeating: "%", count: 25_000)], 64, searchLimit),
    C(["list", "--search", String(repeating: "a", count: 201)], 64, "Invalid value 'aaaaaaaaaaaaaaaaaaaa…'"),
    C(["books", "--search", String(repeating: "_", count: 201)], 64, searchLimit),
    C(["--json", "books", "list", "--search", String(repeating: "dune ", count: 1_000)], 64, searchLimit),
    C(["--db", "$DIR/new.sqlite", "list", "--search", String(repeating: "é", count: 300)], 64, searchLimit),
]

private let searchLimit = "expected search text of at most 200 characters"
