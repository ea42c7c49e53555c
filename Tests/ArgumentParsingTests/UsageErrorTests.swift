import ArgumentParsing
import Testing

@Suite("Usage errors")
struct UsageErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var line: String
        var error: ParseError
        var path: [String]
        var testDescription: String { line }
    }

    static let cases: [Case] = [
        Case(line: "list --serch x", error: .unknownOption("--serch", suggestion: "--search"), path: ["list"]),
        Case(line: "list --zzz", error: .unknownOption("--zzz", suggestion: nil), path: ["list"]),
        Case(line: "lsit", error: .unknownCommand("lsit", suggestion: "list"), path: []),
        Case(line: "clients ad", error: .unknownCommand("ad", suggestion: "add"), path: ["clients"]),
        Case(line: "xyzzy", error: .unknownCommand("xyzzy", suggestion: nil), path: []),
        Case(line: "list --page", error: .missingValue(option: "--page <n>"), path: ["list"]),
        Case(line: "list --page -x", error: .missingValue(option: "--page <n>"), path: ["list"]),
        Case(line: "list --page --all", error: .missingValue(option: "--page <n>"), path: ["list"]),
        Case(line: "list --search", error: .missingValue(option: "--search <text>"), path: ["list"]),
        Case(line: "list --search -- x", error: .missingValue(option: "--search <text>"), path: ["list"]),
        Case(line: "take", error: .missingArgument("<book-id>"), path: ["take"]),
        Case(line: "books add", error: .missingArgument("--title <title>"), path: ["books", "add"]),
        Case(line: "renew 1 2", error: .unexpectedArgument("2"), path: ["renew"]),
        Case(line: "list 5", error: .unexpectedArgument("5"), path: ["list"]),
        Case(line: "list --all=yes", error: .unexpectedValue(option: "--all", value: "yes"), path: ["list"]),
        Case(line: "list --help=foo", error: .unexpectedValue(option: "--help", value: "foo"), path: ["list"]),
        Case(line: "--help=", error: .unexpectedValue(option: "--help", value: ""), path: []),
        Case(line: "--version=1", error: .unexpectedValue(option: "--version", value: "1"), path: []),
        Case(line: "list --page 1 --page 2", error: .duplicateOption("--page"), path: ["list"]),
        Case(
            line: "--format xml list",
            error: .invalidValue("xml", for: "--format <format>", expected: "one of 'text', 'json'"), path: []),
        Case(
            line: "export --format text",
            error: .invalidValue("text", for: "--format <format>", expected: "one of 'csv', 'json'"), path: ["export"]),
        Case(
            line: "--format text export",
            error: .invalidValue("text", for: "--format <format>", expected: "one of 'csv', 'json'"), path: ["export"]),
        Case(
            line: "completion tcsh",
            error: .invalidValue("tcsh", for: "<shell>", expected: "one of 'bash', 'zsh', 'fish'"),
            path: ["completion"]),
        Case(line: "list -qx", error: .unknownOption("-x", suggestion: nil), path: ["list"]),
        Case(line: "list -all", error: .unknownOption("-a", suggestion: "--all"), path: ["list"]),
        Case(line: "help lsit", error: .unknownCommand("lsit", suggestion: "list"), path: []),
        Case(line: "help clients ad", error: .unknownCommand("ad", suggestion: "add"), path: ["clients"]),
        Case(line: "help list --widht 20", error: .unknownOption("--widht", suggestion: "--width"), path: ["list"]),
        Case(line: "help take -qx", error: .unknownOption("-x", suggestion: nil), path: ["take"]),
    ]

    @Test("wrong command lines fail with the right error", arguments: cases)
    func fails(_ testCase: Case) {
        #expect(Fixture.parse(testCase.line) == .failure(UsageError(testCase.error, commandPath: testCase.path)))
    }

    @Test("the full message has the swift-argument-parser shape and exit code 64")
    func fullMessage() throws {
        let output = try #require(Fixture.parser.output(for: Fixture.parse("list --serch x")))
        #expect(
            output.text == """
                Error: Unknown option '--serch'. Did you mean '--search'?
                Usage: librarycli list [--page <n>] [--per-page <n>] [--all] [--search <text>]
                  See 'librarycli list --help' for more information.

                """)
        #expect(output.channel == .standardError)
        #expect(output.exitCode == 64)
    }

    @Test("an invalid id from a typed getter renders with the command's usage")
    func invalidIdMessage() throws {
        let parsed = try #require(Fixture.command("take 0"))
        let error = try #require(throws: UsageError.self) { try parsed.positiveIntegers("book-id") }
        let output = Fixture.parser.output(for: error)
        #expect(
            output.text == """
                Error: Invalid value '0' for '<book-id>': expected a positive whole number.
                Usage: librarycli take <book-id> ...
                  See 'librarycli take --help' for more information.

                """)
        #expect(output.exitCode == ExitCode.usageError)
    }

    @Test("messages for every error case")
    func wording() {
        #expect(
            ParseError.unknownCommand("lsit", suggestion: "list").message
                == "Unknown command 'lsit'. Did you mean 'list'?")
        #expect(ParseError.missingValue(option: "--page <n>").message == "Missing value for '--page <n>'.")
        #expect(ParseError.missingArgument("<book-id>").message == "Missing expected argument '<book-id>'.")
        #expect(ParseError.unexpectedArgument("x").message == "Unexpected argument 'x'.")
        #expect(
            ParseError.unexpectedValue(option: "--all", value: "1").message
                == "The flag '--all' does not take a value (got '1').")
        #expect(ParseError.duplicateOption("--page").message == "The option '--page' was given more than once.")
        #expect(
            ParseError.conflictingOptions("--all", "--page").message
                == "The options '--all' and '--page' cannot be used together.")
    }

    @Test("one of several options: shown as a choice in usage, none or two refused with the usage line")
    func oneOfOptions() throws {
        let create = CommandSpec(
            name: "create", abstract: "Create a token.",
            options: [.flag("librarian", help: "A librarian's."), .value("label", valueName: "text", help: "Label.")],
            oneOf: ["client", "librarian"])
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "librarycli", globalOptions: [.value("client", valueName: "id", help: "The client.")],
                subcommands: [create]))
        #expect(parser.usage(for: ["create"]) == "librarycli create (--client <id> | --librarian) [--label <text>]")
        func outcome(_ line: String) -> ParseOutcome {
            parser.parse(line.split(separator: " ").map(String.init))
        }
        #expect(
            outcome("create --label x")
                == .failure(UsageError(.missingChoice(["--client <id>", "--librarian"]), commandPath: ["create"])))
        #expect(
            outcome("--client 2 create --librarian")
                == .failure(UsageError(.conflictingOptions("--client <id>", "--librarian"), commandPath: ["create"])))
        guard case .command = outcome("--client 2 create") else {
            Issue.record("--client before create")
            return
        }
        guard case .command = outcome("create --librarian") else {
            Issue.record("--librarian")
            return
        }
        guard case .help = outcome("create --help") else {
            Issue.record("help needs no choice")
            return
        }
        let output = parser.output(for: outcome("create"))
        #expect(
            output?.text == """
                Error: Missing one of '--client <id>' or '--librarian'.
                Usage: librarycli create (--client <id> | --librarian) [--label <text>]
                  See 'librarycli create --help' for more information.

                """)
        #expect(output?.exitCode == 64)
    }

    @Test("a long usage line wraps under the first word")
    func wrapsUsage() throws {
        let output = try #require(Fixture.parser.output(for: Fixture.parse("list --serch x"), width: 50))
        #expect(
            output.text == """
                Error: Unknown option '--serch'. Did you mean
                '--search'?
                Usage: librarycli list [--page <n>]
                       [--per-page <n>] [--all] [--search <text>]
                  See 'librarycli list --help' for more
                  information.

                """)
    }
}
