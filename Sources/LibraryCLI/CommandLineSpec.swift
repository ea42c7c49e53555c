import ArgumentParsing
import Library

/// The command line of `librarycli`, declared once: the parser, the help text and the completion scripts all come
/// from here, so they cannot drift apart.
///
/// For example:
///
///     let parser = ArgumentParser(root: CommandLineSpec.root)
///     parser.parse(["take", "12"])
public enum CommandLineSpec {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// The root command with every subcommand and the global options.
    ///
    ///     CommandLineSpec.root.subcommand(named: "take")?.abstract
    public static let root = CommandSpec(
        name: "librarycli",
        abstract: "A library's clients, books and loans, from the terminal, for scripts and for app fronts.",
        discussion: """
            With no command, librarycli shows the current client's screen (the same as 'librarycli list'). \
            The first use of the default database creates it with the demo catalog.
            """,
        globalOptions: globalOptions,
        subcommands: [
            list, take, returnBooks, renew, loans, history, clients, tokens, books, seed, importCatalog, export,
            migrate,
            initDatabase, copy, serve, completion,
        ],
        defaultSubcommand: "list",
        version: version,
        extraHelpSections: [
            HelpSection(title: "EXIT CODES", rows: exitCodes),
            HelpSection(title: "ENVIRONMENT", rows: environment),
        ])

    // MARK: - Global options

    static let globalOptions: [OptionSpec] = [
        .value(
            "db", valueName: "path",
            help: "The database file, or a PostgreSQL URL such as postgresql://user@host/dbname "
                + "(default: $LIBRARY_DB, else the default database)."),
        .value(
            "client", valueName: "id", help: "The client to act as (default: $LIBRARY_CLIENT, else the default client)."
        ),
        .value("format", valueName: "format", help: "Output format.", allowedValues: ["text", "json"]),
        .flag("json", help: "The same as --format json. Errors stay text on standard error."),
        .value("color", valueName: "when", help: "Colour in text output.", allowedValues: ["auto", "always", "never"]),
        .value("width", valueName: "n", help: "Width of text output in columns (default: the terminal's, else 80)."),
        .flag("quiet", short: "q", help: "Print only the data, no notes on standard error."),
    ]

    // MARK: - Commands

    static let list = CommandSpec(
        name: "list", abstract: "Show the client's screen: their info, their books, and the library's books.",
        options: [
            .value("page", valueName: "n", help: "The page of the library's books to show (default: 1)."),
            .value("per-page", valueName: "n", help: "Books per page (default: 20)."),
            .flag(
                "all",
                help:
                    "Show every book of the library (or every match of --search) on one page: at most \(LibraryStore.maxPerPage)."
            ),
            .value(
                "search", valueName: "text",
                help: "Only books matching every word (title, author or description; word starts, any order, any "
                    + "case or accents; \"a phrase\"; an ISBN), best first; at most \(BookSearch.maxLength) characters.",
                isFreeText: true),
        ])

    static let take = CommandSpec(
        name: "take", abstract: "Take books: all of them, or none if one cannot be taken.",
        discussion: "Prints one line per book with its due date, then the screen with what changed marked.",
        arguments: [.repeating("book-id", help: "The id of a book to take.")])

    static let returnBooks = CommandSpec(
        name: "return", abstract: "Return books: all of them, or none if one is not on loan to the client.",
        arguments: [.repeating("book-id", help: "The id of a book to return.")])

    static let renew = CommandSpec(
        name: "renew",
        abstract:
            "Renew a loan by one loan period of \(LibraryRules.loanPeriodDays) days (\(LibraryRules.maxRenewals) times "
            + "at most, not when overdue).",
        arguments: [.required("book-id", help: "The id of the book to renew.")])

    static let loans = CommandSpec(
        name: "loans",
        abstract: "All of the client's books on loan, with due dates, soonest first; overdue ones marked.",
        discussion: "The screen shows as many of them as fit and says '+N more' with this command.")

    static let history = CommandSpec(
        name: "history", abstract: "The client's returned loans, newest first.")

    static let clients = CommandSpec(
        name: "clients", abstract: "List, add and choose clients, and set their PINs.",
        subcommands: [
            CommandSpec(name: "list", abstract: "List the clients."),
            CommandSpec(
                name: "add", abstract: "Add a client.",
                arguments: [.required("name", help: "The client's name.")],
                options: [
                    .value(
                        "card", valueName: "number", help: "The library card number (default: a new one).",
                        isFreeText: true),
                    .value(
                        "limit", valueName: "n",
                        help: "How many books the client may hold at once, \(LibraryRules.loanLimits.lowerBound) to "
                            + "\(LibraryRules.loanLimits.upperBound) (default: \(LibraryRules.defaultLoanLimit))."),
                ]),
            CommandSpec(
                name: "use", abstract: "Make a client the default, kept in the database.",
                arguments: [.required("client-id", help: "The id of the client.")]),
            CommandSpec(
                name: "pin", abstract: "Set a client's PIN for signing in, read from standard input; or clear it.",
                discussion: """
                    The PIN is \(AccessRules.pinDigits.lowerBound) to \(AccessRules.pinDigits.upperBound) digits, \
                    read from standard input, never from the command line: at a terminal it is asked twice, without \
                    showing it. Only its Argon2id hash is kept.
                    """,
                arguments: [.required("client-id", help: "The id of the client.")],
                options: [.flag("clear", help: "Remove the PIN: the client cannot sign in until one is set.")]),
        ],
        defaultSubcommand: "list")

    static let tokens = CommandSpec(
        name: "tokens", abstract: "Create, list and revoke the bearer tokens app fronts use.",
        subcommands: [
            CommandSpec(name: "list", abstract: "List the tokens: ids, roles, labels, last use; never the token."),
            CommandSpec(
                name: "create", abstract: "Create a token and print it once, alone on standard output.",
                discussion: """
                    Give --client ID (the token acts only as that client) or --librarian (the token may also add \
                    books and clients). Only the token's SHA-256 is kept: it cannot be shown again.
                    """,
                options: [
                    .value("client", valueName: "id", help: "The client whose token it is: it acts only as them."),
                    .flag("librarian", help: "A librarian's token instead of a client's."),
                    .value(
                        "label", valueName: "text", help: "What the token is for, such as \"Ann's phone\".",
                        isFreeText: true),
                ],
                oneOf: ["client", "librarian"]),
            CommandSpec(
                name: "revoke", abstract: "Revoke a token: it stops working at once.",
                arguments: [.required("token-id", help: "The id of the token (see 'tokens list').")]),
        ],
        defaultSubcommand: "list")

    static let books = CommandSpec(
        name: "books", abstract: "List, search and add books of the catalog.",
        subcommands: [
            CommandSpec(
                name: "list", abstract: "List the catalog as a table.",
                options: [
                    .value(
                        "search", valueName: "text",
                        help: "Only books matching every word (as list --search), best first; at most "
                            + "\(BookSearch.maxLength) characters.",
                        isFreeText: true),
                    .value("page", valueName: "n", help: "The page to show (default: 1)."),
                    .value("per-page", valueName: "n", help: "Books per page (default: 50)."),
                    .flag(
                        "all",
                        help: "Every book (or every match of --search) on one page: at most \(LibraryStore.maxPerPage)."
                    ),
                ]),
            CommandSpec(
                name: "add", abstract: "Add a book (one physical copy).",
                options: [
                    .value("title", valueName: "title", help: "The title.", isRequired: true, isFreeText: true),
                    .value("author", valueName: "author", help: "The author or authors.", isFreeText: true),
                    .value(
                        "year", valueName: "year",
                        help: "The year of first publication (negative before the common era)."),
                    .value("pages", valueName: "n", help: "The number of pages."),
                    .value("isbn", valueName: "isbn", help: "The ISBN-10 or ISBN-13."),
                    .value("description", valueName: "text", help: "A one-line description.", isFreeText: true),
                ]),
        ],
        defaultSubcommand: "list")

    static let seed = CommandSpec(
        name: "seed",
        abstract: "Load the demo catalog and clients, or the given files; running it again changes nothing.",
        discussion: """
            Books are matched by ISBN when they have one, else by title, author and year; clients by card number. \
            A file whose header has a card_number column holds clients; any other holds books. \
            --generate is the exception: each run adds new books.
            """,
        options: [
            .repeating(
                "file", valueName: "path",
                help: "A CSV, JSON or JSON Lines file to load instead of the demo data (- for standard input)."),
            .value(
                "generate", valueName: "n",
                help: "Add n new synthetic books (for benchmarks) instead: every run adds n more, after those already "
                    + "there, and never changes them."),
            .value(
                "random-seed", valueName: "s",
                help: "The seed of the synthetic books' titles and authors (default: 1)."),
        ])

    static let importCatalog = CommandSpec(
        name: "import", abstract: "Import books from a CSV, JSON or JSON Lines file: all rows or none.",
        discussion: """
            CSV: RFC 4180 with a header row; columns are found by name (title, author/authors, year/\
            original_publication_year, pages, isbn/isbn13, description); one warning names the other columns, \
            which are not read. JSON: an array of objects with the same names, or one object per line. \
            A path of - reads standard input (a pipe is read whole first, up to 2 GiB).
            """,
        arguments: [.required("path", help: "The file to import, or - for standard input.")],
        options: [.flag("dry-run", help: "Report what would change, and change nothing.")])

    static let export = CommandSpec(
        name: "export", abstract: "Write the catalog as CSV or JSON.",
        options: [
            .value(
                "format", valueName: "format",
                help: "csv or json (default: json with --json, else from --output's extension, else csv).",
                allowedValues: ["csv", "json"]),
            .value(
                "output", short: "o", valueName: "path",
                help: "The file to write (default, or -: standard output). It is replaced whole, keeping its mode and "
                    + "owner; a symbolic link is written through to its target; a directory, FIFO or device is "
                    + "refused."),
        ])

    static let migrate = CommandSpec(
        name: "migrate", abstract: "Bring the database's schema up to date.",
        options: [
            .flag("status", help: "List the applied and pending migrations; change nothing."),
            .flag(
                "check",
                help:
                    "Also prove that the search index and the kept book count agree with the books, and that every "
                    + "loan, token and PIN names a book or client that exists (exit 73 if not); the check changes "
                    + "nothing."
            ),
        ])

    static let initDatabase = CommandSpec(
        name: "init", abstract: "Create the database with the demo catalog.",
        options: [.flag("empty", help: "Create it with no books and no clients.")])

    static let copy = CommandSpec(
        name: "copy", abstract: "Copy a whole library into an empty one, between SQLite and PostgreSQL.",
        discussion: """
            Copies clients, books, loans, tokens, PINs and settings, keeping every id, in one transaction on the \
            target: all or nothing. The target may be new; one that already holds clients, books, loans or tokens \
            is refused. Either side is a file path or a PostgreSQL URL.
            """,
        options: [
            .value(
                "from", valueName: "db", help: "The library to copy (a file or a PostgreSQL URL).", isRequired: true),
            .value("to", valueName: "db", help: "The empty library to fill (created when missing).", isRequired: true),
        ])

    static let serve = CommandSpec(
        name: "serve", abstract: "Serve the library's HTTP/JSON API to app fronts, with live screen changes.",
        discussion: """
            When ready, prints 'Listening on http://HOST:PORT' on standard error, then one access log line per \
            request (not with -q). SIGINT or SIGTERM stops it gracefully (exit 0; 73 when its database file was \
            moved or deleted while it ran, which it answers with 503 until stopped). Fronts authenticate with a \
            bearer token ('tokens create') or sign in with a card number and PIN (POST /v1/sessions).
            """,
        options: [
            .value("host", valueName: "address", help: "The address to listen on (default: 127.0.0.1, loopback only)."),
            .value("port", valueName: "n", help: "The port to listen on; 0 picks a free one (default: 8080)."),
            .value(
                "threads", valueName: "n", help: "Worker threads, each with its own database connection (default: 4)."),
            .repeating(
                "allow-origin", valueName: "origin",
                help: "Let pages from this origin (such as http://localhost:3000; * for any) call the API from a "
                    + "browser (CORS); may be repeated (default: none, no CORS headers)."),
        ])

    static let completion = CommandSpec(
        name: "completion", abstract: "Print a shell completion script.",
        discussion: "For example: librarycli completion bash > /etc/bash_completion.d/librarycli",
        arguments: [.required("shell", help: "bash, zsh or fish.", allowedValues: ["bash", "zsh", "fish"])])

    // MARK: - Help sections

    static var exitCodes: [HelpSection.Row] {
        ExitCode.allCases.map { code in
            let number = String(code.rawValue)
            return HelpSection.Row(String(repeating: " ", count: 3 - number.count) + number, code.meaning)
        }
    }

    static let environment: [HelpSection.Row] = [
        .init("LIBRARY_DB", "the database file or PostgreSQL URL, when --db is not given"),
        .init("LIBRARY_CLIENT", "the client id, when --client is not given"),
        .init("LIBRARY_NOW", "the current time (ISO-8601), for scripted demos and tests"),
        .init(
            "XDG_DATA_HOME",
            "where the default database lives: $XDG_DATA_HOME/librarycli/library.sqlite "
                + "(else ~/.local/share/librarycli/library.sqlite)"),
        .init("COLUMNS", "the width of text output, when --width is not given"),
        .init("NO_COLOR", "when set and not empty, no colour (unless --color always)"),
    ]
}
