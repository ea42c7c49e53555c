import ArgumentParsing

/// A spec shaped like librarycli's, shared by the tests.
enum Fixture {
    static let globals: [OptionSpec] = [
        .value("db", valueName: "path", help: "The database file."),
        .value("client", valueName: "id", help: "The client acting."),
        .value("format", valueName: "format", help: "Output format.", allowedValues: ["text", "json"]),
        .flag("json", help: "Same as --format json."),
        .value("color", valueName: "when", help: "Colour output.", allowedValues: ["auto", "always", "never"]),
        .value("width", valueName: "n", help: "Wrap output to this width."),
        .flag("quiet", short: "q", help: "Print nothing but errors."),
    ]

    static let root = CommandSpec(
        name: "librarycli", abstract: "Borrow and return library books.",
        globalOptions: globals,
        subcommands: [
            CommandSpec(
                name: "list", abstract: "Show the library screen.",
                options: [
                    .value("page", valueName: "n", help: "The page to show.", defaultValue: "1"),
                    .value("per-page", valueName: "n", help: "Books per page."),
                    .flag("all", help: "Show every book."),
                    .value("search", valueName: "text", help: "Only books matching the text.", isFreeText: true),
                ]),
            CommandSpec(
                name: "take", abstract: "Take books on loan.",
                arguments: [.repeating("book-id", help: "The id of a book to take.")]),
            CommandSpec(
                name: "renew", abstract: "Renew a loan.", arguments: [.required("book-id", help: "The book.")]),
            CommandSpec(
                name: "clients", abstract: "List clients.",
                subcommands: [
                    CommandSpec(
                        name: "add", abstract: "Add a client.",
                        arguments: [.required("name", help: "The client's name.")],
                        options: [
                            .value("card", valueName: "number", help: "Library card number."),
                            .value("limit", valueName: "n", help: "Loan limit."),
                        ]),
                    CommandSpec(
                        name: "use", abstract: "Act as a client.", arguments: [.required("id", help: "Client id.")]),
                ]),
            CommandSpec(
                name: "books", abstract: "List books.",
                subcommands: [
                    CommandSpec(
                        name: "add", abstract: "Add a book.",
                        options: [
                            .value("title", valueName: "title", help: "The title.", isRequired: true),
                            .value("year", valueName: "year", help: "Year published."),
                        ])
                ]),
            CommandSpec(
                name: "seed", abstract: "Load seed data.",
                options: [
                    .repeating("file", valueName: "path", help: "A seed file."),
                    .value("generate", valueName: "n", help: "Generate this many books."),
                ]),
            CommandSpec(
                name: "export", abstract: "Export the catalogue.",
                options: [
                    .value("format", valueName: "format", help: "File format.", allowedValues: ["csv", "json"]),
                    .value("output", valueName: "path", help: "Output file."),
                ]),
            CommandSpec(
                name: "completion", abstract: "Print a completion script.",
                arguments: [.required("shell", help: "The shell.", allowedValues: ["bash", "zsh", "fish"])]),
        ],
        version: "1.2.3",
        extraHelpSections: [HelpSection(title: "EXIT CODES", body: "0   Success.\n64  Usage error.")])

    static let parser = ArgumentParser(root: root)

    /// Parses a space-separated command line.
    static func parse(_ line: String) -> ParseOutcome {
        parser.parse(line.split(separator: " ").map(String.init))
    }

    /// The parsed command, or nil if the outcome is something else.
    static func command(_ line: String) -> ParsedCommand? {
        if case .command(let parsed) = parse(line) { return parsed }
        return nil
    }
}
