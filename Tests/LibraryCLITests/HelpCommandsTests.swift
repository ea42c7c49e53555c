import ArgumentParsing
import Foundation
import LibraryCLI
import Testing

/// Every command a help text shows works (issue 10, item 12).
@Suite("The commands that help texts name")
struct HelpCommandsTests {
    /// Every command path, the built-in `help` subcommands included.
    static func allPaths() -> [[String]] {
        var paths: [[String]] = []
        var pending: [([String], CommandSpec)] = [([], CommandLineSpec.root)]
        while !pending.isEmpty {
            let (path, command) = pending.removeFirst()
            paths.append(path)
            if command.hasBuiltInHelp { paths.append(path + ["help"]) }
            pending += command.subcommands.map { (path + [$0.name], $0) }
        }
        return paths
    }

    /// The subcommand names that can follow `words` (a `help` word names no command of its own).
    static func subcommandNames(after words: [String]) -> [String] {
        var command = CommandLineSpec.root
        for word in words where word != "help" {
            guard let next = command.subcommand(named: word) else { return [] }
            command = next
        }
        return command.subcommands.map(\.name) + (command.hasBuiltInHelp ? ["help"] : [])
    }

    /// Each `librarycli ...` command a text shows: the words after the program name up to the first that is not a command
    /// word, with `<subcommand>` replaced by every subcommand it can stand for.
    static func commands(in text: String) -> [[String]] {
        var found: [[String]] = []
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        for (index, token) in tokens.enumerated() {
            let bare = token.trimmingCharacters(in: CharacterSet(charactersIn: "'\"(),."))
            // A command is quoted ('librarycli list') or follows a colon (USAGE:, For example:); elsewhere the name
            // is prose ("a librarycli database") or a path ($XDG_DATA_HOME/librarycli/...).
            let isCommand = token.hasPrefix("'") || (index > 0 && tokens[index - 1].hasSuffix(":"))
            guard bare == "librarycli", isCommand else { continue }
            var words: [String] = []
            var expanded: [[String]]?
            for next in tokens[(index + 1)...] {
                let word = next.trimmingCharacters(in: CharacterSet(charactersIn: "'\"(),."))
                if word == "<subcommand>" {
                    expanded = subcommandNames(after: words).map { words + [$0] }
                    break
                }
                guard word.first?.isLowercase == true, word.allSatisfy({ $0.isLowercase || $0 == "-" }) else { break }
                words.append(word)
                if next != word { break }  // a closing quote or bracket ends the command
            }
            found += expanded ?? [words]
        }
        return found
    }

    @Test("a walk of every help text runs each command it names with --help, successfully")
    func everyNamedCommandWorks() {
        let parser = LibraryCommandLine.parser
        var commands: Set<[String]> = []
        for path in Self.allPaths() {
            commands.formUnion(Self.commands(in: parser.helpText(for: path, width: 10_000)))
        }
        // The walk itself must find what the texts show, or this test could pass by finding nothing.
        for expected in [
            ["list"], ["clients", "help", "add"], ["books", "help", "list"], ["help", "take"], ["help"],
        ] {
            #expect(commands.contains(expected), "the walk missed librarycli \(expected.joined(separator: " "))")
        }
        let sandbox = Sandbox()
        let rootHelp = sandbox.run(["--help"]).out
        for words in commands.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let result = sandbox.run(words + ["--help"])
            let line = "librarycli " + words.joined(separator: " ") + " --help"
            #expect(result.code == 0, "\(line): \(result.err)")
            #expect(result.err.isEmpty, "\(line)")
            #expect(result.out.hasPrefix("OVERVIEW: "), "\(line)")
            if !words.isEmpty { #expect(result.out != rootHelp, "\(line) showed the top-level help") }
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database), "help created a database")
    }

    @Test(
        "help at every level: help help, clients help add, books help, help clients help",
        arguments: [
            (["help", "help"], "USAGE: librarycli help [<subcommand> ...]"),
            (["help", "--help"], "USAGE: librarycli help [<subcommand> ...]"),
            (["clients", "help", "add"], "USAGE: librarycli clients add [--card <number>]"),
            (["clients", "help"], "USAGE: librarycli clients [<subcommand>]"),
            (["books", "help", "add"], "USAGE: librarycli books add --title <title>"),
            (["help", "clients", "help"], "USAGE: librarycli clients help [<subcommand> ...]"),
            (["clients", "help", "help"], "USAGE: librarycli clients help [<subcommand> ...]"),
        ])
    func helpEverywhere(arguments: [String], usage: String) {
        let result = Sandbox().run(arguments)
        #expect(result.code == 0, "\(arguments): \(result.err)")
        #expect(result.out.contains(usage), "\(arguments): \(result.out)")
    }

    @Test("help of an unknown command is still a usage error, with a suggestion")
    func unknownCommand() {
        let result = Sandbox().run(["clients", "help", "ad"])
        #expect(result.code == 64)
        #expect(result.err.hasPrefix("Error: Unknown command 'ad'. Did you mean 'add'?"))
    }
}
