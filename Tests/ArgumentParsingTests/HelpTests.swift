import ArgumentParsing
import Testing

@Suite("Help")
struct HelpTests {
    @Test(
        "help requests route to the right command",
        arguments: [
            ("--help", []), ("-h", []), ("help", []), ("list --help", ["list"]), ("list -h", ["list"]),
            ("help list", ["list"]), ("help clients add", ["clients", "add"]), ("clients add -h", ["clients", "add"]),
            ("-qh", []), ("list --serch x --help", ["list"]), ("take --help", ["take"]),
            ("clients --help add", ["clients", "add"]), ("lsit --help", []),
            // The global options the help lists may follow `help <command>`.
            ("help list --width 20", ["list"]), ("help list --width=33", ["list"]), ("help take -q", ["take"]),
            ("help clients add --color never", ["clients", "add"]), ("help --db x.sqlite list", ["list"]),
        ] as [(String, [String])])
    func routes(_ line: String, _ path: [String]) {
        #expect(Fixture.parse(line) == .help(commandPath: path))
    }

    @Test("help output goes to standard output with exit code 0")
    func output() throws {
        let output = try #require(Fixture.parser.output(for: .help(commandPath: ["take"])))
        #expect(output.channel == .standardOutput)
        #expect(output.exitCode == 0)
        #expect(
            Fixture.parser.output(for: .version) == ParserOutput(text: "1.2.3\n", channel: .standardOutput, exitCode: 0)
        )
    }

    @Test("a subcommand's help lists its arguments, own and global options")
    func subcommandHelp() {
        #expect(
            Fixture.parser.helpText(for: ["clients", "add"]) == """
                OVERVIEW: Add a client.

                USAGE: librarycli clients add [--card <number>] [--limit <n>] <name>

                ARGUMENTS:
                  <name>                  The client's name.

                OPTIONS:
                  --card <number>         Library card number.
                  --limit <n>             Loan limit.
                  --db <path>             The database file.
                  --client <id>           The client acting.
                  --format <format>       Output format. (values: text, json)
                  --json                  Same as --format json.
                  --color <when>          Colour output. (values: auto, always, never)
                  --width <n>             Wrap output to this width.
                  -q, --quiet             Print nothing but errors.
                  -h, --help              Show help information.

                """)
    }

    @Test("the root help lists subcommands, version and extra sections, wrapped to the width")
    func rootHelp() {
        let text = Fixture.parser.helpText(for: [], width: 60)
        #expect(
            text.hasPrefix(
                "OVERVIEW: Borrow and return library books.\n\nUSAGE: librarycli [<options>] [<subcommand>]\n"))
        #expect(text.contains("\n  --version               Show the version.\n"))
        #expect(
            text.contains(
                "\n  --color <when>          Colour output. (values: auto,\n                          always, never)\n")
        )
        #expect(text.contains("\nSUBCOMMANDS:\n  list                    Show the library screen.\n"))
        #expect(
            text.contains(
                "\n  help                    Show subcommand help information.\n\n"
                    + "  See 'librarycli help <subcommand>' for detailed help.\n"
            ))
        #expect(text.hasSuffix("\n\nEXIT CODES:\n  0   Success.\n  64  Usage error.\n"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 60 })
    }

    @Test("defaults, repeating options and long labels are shown")
    func details() {
        let list = Fixture.parser.helpText(for: ["list"])
        #expect(list.contains("  --page <n>              The page to show. (default: 1)\n"))
        let seed = Fixture.parser.helpText(for: ["seed"])
        #expect(seed.contains("USAGE: librarycli seed [--file <path> ...] [--generate <n>]\n"))
        #expect(seed.contains("  --file <path> ...       A seed file.\n"))
        let spec = CommandSpec(
            name: "tool", abstract: "A tool.", discussion: "First paragraph.\n\nSecond.",
            options: [.value("a-very-long-option-name", valueName: "value", help: "Help below.")])
        let text = ArgumentParser(root: spec).helpText(for: [])
        #expect(
            text.contains(
                "OVERVIEW: A tool.\n\nFirst paragraph.\n\nSecond.\n\nUSAGE: tool [--a-very-long-option-name <value>]\n")
        )
        #expect(text.contains("  --a-very-long-option-name <value>\n                          Help below.\n"))
    }

    @Test("help for a required option shows it without brackets")
    func requiredOption() {
        #expect(Fixture.parser.usage(for: ["books", "add"]) == "librarycli books add --title <title> [--year <year>]")
        #expect(Fixture.parser.usage(for: ["completion"]) == "librarycli completion <shell>")
    }

    @Test("usage lines folded at a narrow width share one indent", arguments: [20, 24, 30, 40])
    func usageIndent(width: Int) throws {
        for path in [["list"], ["clients", "add"], []] {
            let lines = Fixture.parser.helpText(for: path, width: width).split(
                separator: "\n", omittingEmptySubsequences: false)
            let start = try #require(lines.firstIndex { $0.hasPrefix("USAGE:") })
            let end = lines[start...].firstIndex { $0.isEmpty } ?? lines.endIndex
            let continued = lines[(start + 1)..<end]
            let indents = Set(continued.map { $0.prefix { $0 == " " }.count })
            #expect(indents.count <= 1, "\(path) at \(width): \(lines[start..<end])")
            #expect(lines[start..<end].allSatisfy { $0.count <= width })
        }
    }
}
