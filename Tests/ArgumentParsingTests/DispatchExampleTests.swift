import ArgumentParsing
import Testing

/// The wiring example from the module's report, kept compiling and correct.
@Suite("Dispatch example")
struct DispatchExampleTests {
    static let spec = CommandSpec(
        name: "librarycli", abstract: "Borrow and return library books.",
        globalOptions: [
            .value("db", valueName: "path", help: "The database file."),
            .flag("quiet", short: "q", help: "Print nothing but errors."),
        ],
        subcommands: [
            CommandSpec(
                name: "take", abstract: "Take books on loan.",
                arguments: [.repeating("book-id", help: "The id of a book to take.")]),
            CommandSpec(
                name: "clients", abstract: "List clients.",
                subcommands: [
                    CommandSpec(
                        name: "add", abstract: "Add a client.",
                        arguments: [.required("name", help: "The client's name.")],
                        options: [.value("limit", valueName: "n", help: "Loan limit.", defaultValue: "5")])
                ]),
        ],
        defaultSubcommand: "clients", version: "1.0.0")

    /// Runs a command line the way the CLI's `main` would; returns what would be printed and the exit code.
    static func run(_ arguments: [String]) -> (text: String, channel: OutputChannel, code: Int32) {
        let parser = ArgumentParser(root: spec)
        let outcome = parser.parse(arguments)
        guard case .command(let parsed) = outcome else {
            let output = parser.output(for: outcome)!
            return (output.text, output.channel, output.exitCode)
        }
        do {
            switch parsed.path {
            case ["take"]:
                let ids = try parsed.positiveIntegers("book-id")
                return ("took \(ids) from \(parsed.string("db") ?? "default.sqlite")\n", .standardOutput, 0)
            case ["clients", "add"]:
                let limit = try parsed.positiveInteger("limit") ?? 5
                return ("added \(parsed.argument("name")!) limit \(limit)\n", .standardOutput, 0)
            default:
                return ("clients\n", .standardOutput, 0)
            }
        } catch {
            let output = parser.output(for: error)
            return (output.text, output.channel, output.exitCode)
        }
    }

    @Test("commands dispatch on their path")
    func dispatch() {
        #expect(Self.run(["take", "3", "4", "--db", "x.sqlite"]).text == "took [3, 4] from x.sqlite\n")
        #expect(Self.run(["clients", "add", "Ann"]).text == "added Ann limit 5\n")
        #expect(Self.run([]).text == "clients\n")
        #expect(Self.run(["--version"]).text == "1.0.0\n")
    }

    @Test("errors from parsing and from typed getters share one rendering")
    func errors() {
        let bad = Self.run(["take", "1.5"])
        #expect(bad.code == 64)
        #expect(bad.channel == .standardError)
        #expect(bad.text.hasPrefix("Error: Invalid value '1.5' for '<book-id>': expected a positive whole number.\n"))
        let unknown = Self.run(["clients", "add", "Ann", "--limt", "3"])
        #expect(unknown.text.hasPrefix("Error: Unknown option '--limt'. Did you mean '--limit'?\n"))
        #expect(unknown.code == 64)
    }
}
