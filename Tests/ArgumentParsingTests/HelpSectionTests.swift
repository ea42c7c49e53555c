import ArgumentParsing
import Testing

@Suite("Help sections with two-column rows")
struct HelpSectionTests {
    static func help(_ sections: [HelpSection], width: Int) -> String {
        let root = CommandSpec(name: "tool", abstract: "A tool.", extraHelpSections: sections)
        let text = ArgumentParser(root: root).helpText(for: [], width: width)
        return String(text[text.range(of: "\n\n", options: .backwards)!.upperBound...])
    }

    @Test("the text column fits the longest term; wrapped lines hang under it")
    func hangingIndent() {
        let section = HelpSection(
            title: "EXIT CODES",
            rows: [.init(" 0", "success"), .init("73", "the database cannot be created, opened or written")])
        #expect(
            Self.help([section], width: 40) == """
                EXIT CODES:
                   0  success
                  73  the database cannot be created,
                      opened or written

                """)
    }

    @Test("a term wider than the column gets its own line, its text below")
    func longTerm() {
        let section = HelpSection(
            title: "ENVIRONMENT",
            rows: [.init("A", "short"), .init("A_VERY_LONG_VARIABLE_NAME_X", "described below, wrapped if need be")])
        #expect(
            Self.help([section], width: 50) == """
                ENVIRONMENT:
                  A                       short
                  A_VERY_LONG_VARIABLE_NAME_X
                                          described below, wrapped
                                          if need be

                """)
    }

    @Test("free text comes before the rows and keeps its lines")
    func bodyAndRows() {
        let section = HelpSection(title: "NOTES", body: "Some text.", rows: [.init("x", "y")])
        #expect(Self.help([section], width: 80) == "NOTES:\n  Some text.\n  x  y\n")
    }

    @Test("help works below every command with subcommands, and help help shows the help command")
    func nestedHelp() {
        #expect(Fixture.parse("clients help add") == .help(commandPath: ["clients", "add"]))
        #expect(Fixture.parse("clients help") == .help(commandPath: ["clients"]))
        #expect(Fixture.parse("help help") == .help(commandPath: ["help"]))
        #expect(Fixture.parse("help --help") == .help(commandPath: ["help"]))
        #expect(Fixture.parse("help take --help") == .help(commandPath: ["take"]))
        #expect(Fixture.parse("clients add help") != .help(commandPath: ["clients", "add"]))
        let text = Fixture.parser.helpText(for: ["help"])
        #expect(
            text.hasPrefix("OVERVIEW: Show subcommand help information.\n\nUSAGE: librarycli help [<subcommand> ...]\n")
        )
        let clients = Fixture.parser.helpText(for: ["clients"])
        #expect(clients.contains("\n  help                    Show subcommand help information.\n"))
        #expect(clients.contains("See 'librarycli clients help <subcommand>' for detailed help."))
    }
}
