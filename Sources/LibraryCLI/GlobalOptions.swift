import ArgumentParsing

/// The options every command accepts, resolved against the environment: `--db` over `LIBRARY_DB` over the default
/// database (under `XDG_DATA_HOME`, else `HOME`, else the home directory of the password database, which
/// `accountHome` looks up), `--width` over `COLUMNS` over the terminal over 80 (`OutputWidth`). `--client` is kept as
/// given: `LIBRARY_CLIENT` is read only by the commands that act as a client (`CommandContext.currentClient`).
///
/// For example:
///
///     let options = try GlobalOptions(
///         parsed, environment: ["LIBRARY_DB": "/tmp/lib.sqlite"], accountHome: UserAccount.homeDirectory,
///         console: console)
///     options.database.path  // "/tmp/lib.sqlite"
struct GlobalOptions {
    /// Where the database is, and whether it is the default one (seeded with the demo data on first use).
    struct DatabaseLocation: Equatable {
        /// The file path, or a PostgreSQL connection URL.
        var path: String
        var isDefault: Bool

        /// A location; `path` is a file path, always, as `Database` opens it ("file:x" is a file of that name): the
        /// one name SQLite keeps for a database in memory, gone when the command ends, is made a file too
        /// ("./:memory:", which messages show).
        init(path: String, isDefault: Bool) {
            self.path = path == ":memory:" ? "./:memory:" : path
            self.isDefault = isDefault
        }

        /// The default database when no home directory is known (`HOME` unset or empty, and none in the password
        /// database): opening it fails with a message saying to set `HOME` or pass `--db`.
        static let homeless = DatabaseLocation(path: "", isDefault: true)

        /// Whether this is the default database without a home directory to put it in.
        var isHomeless: Bool { isDefault && path.isEmpty }

        /// Whether `path` is a PostgreSQL URL (`postgresql://...` or `postgres://...`) rather than a file.
        var isPostgreSQL: Bool { PostgreSQLURL.isURL(path) }

        /// How messages name the database: the path, or the URL with any password left out.
        var displayName: String { isPostgreSQL ? PostgreSQLURL.redacted(path) : path }
    }

    enum Format: String {
        case text, json
    }

    var database: DatabaseLocation
    /// `--client`, when given.
    var clientID: Int?
    var format: Format
    var useColor: Bool
    /// The width of the screen, tables and help (see `OutputWidth`).
    var width: Int
    /// The width messages (confirmations, summaries, notes) are folded at: `width` when it was set (`--width`,
    /// `COLUMNS`) or is the terminal's; nil for output to a file or pipe at the default 80, where each message stays
    /// on one line for scripts (see `OutputWidth`).
    var messageWidth: Int?
    /// The width messages on standard error (notes) are folded at, by standard error's terminal (see `OutputWidth`).
    var errorMessageWidth: Int?
    var isQuiet: Bool

    init(
        _ parsed: ParsedCommand, environment: [String: String], accountHome: () -> String?, console: Console
    ) throws(UsageError) {
        database = try Self.databaseLocation(parsed, environment: environment, accountHome: accountHome)
        clientID = try parsed.positiveInteger("client")
        format = try Self.format(parsed)
        isQuiet = parsed.flag("quiet")
        // A refused value is a usage error here; `OutputWidth` then never uses it.
        _ = try parsed.integer("width", in: OutputWidth.range)
        let resolved = OutputWidth(
            option: parsed.string("width"), environment: environment, terminalWidth: console.terminalWidth,
            errorTerminalWidth: console.errorTerminalWidth)
        width = resolved.columns
        messageWidth = resolved.messageWidth
        errorMessageWidth = resolved.errorMessageWidth
        switch parsed.string("color") ?? "auto" {
        case "always": useColor = true
        case "never": useColor = false
        default:
            let term = environment["TERM"] ?? ""
            // no-color.org: only a NO_COLOR that is present and not empty turns colour off.
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            useColor = console.isOutputTerminal && !noColor && term != "dumb" && !term.isEmpty
        }
    }

    /// One meaning everywhere: `--json` is `--format json`, before or after the command. `export` has its own
    /// `--format csv|json` (read by the command); elsewhere `--format` is `text` or `json`.
    private static func format(_ parsed: ParsedCommand) throws(UsageError) -> Format {
        let named = parsed.string("format")
        if parsed.flag("json") {
            if let named, named != "json" {
                throw UsageError(.conflictingOptions("--json", "--format \(named)"), commandPath: parsed.path)
            }
            return .json
        }
        return named == "json" ? .json : .text
    }

    private static func databaseLocation(
        _ parsed: ParsedCommand, environment: [String: String], accountHome: () -> String?
    ) throws(UsageError) -> DatabaseLocation {
        if let path = parsed.string("db") {
            guard !path.isEmpty else {
                throw UsageError(
                    .invalidValue("", for: "--db <path>", expected: "a file path"), commandPath: parsed.path)
            }
            return DatabaseLocation(path: path, isDefault: false)
        }
        if let path = environment["LIBRARY_DB"], !path.isEmpty {
            return DatabaseLocation(path: path, isDefault: false)
        }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            dataHome = home + "/.local/share"
        } else if let home = accountHome() {
            dataHome = home + "/.local/share"
        } else {
            return .homeless  // an error when a command opens it, so `completion` still works
        }
        return DatabaseLocation(path: dataHome + "/librarycli/library.sqlite", isDefault: true)
    }
}
