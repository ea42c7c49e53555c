// MARK: - CommandSpec

/// Declares a command: its name, help texts, positional arguments, options and subcommands.
///
/// The root command carries the program name, the version and the global options, which are accepted before or
/// after any subcommand. `-h`/`--help` (and `--version` when a version is set) are built in; so is a `help`
/// subcommand in every command that has subcommands (`librarycli help clients add`, `librarycli clients help add`).
///
/// ```swift
/// let root = CommandSpec(
///     name: "librarycli", abstract: "Borrow and return books.",
///     globalOptions: [.value("db", valueName: "path", help: "The database file.")],
///     subcommands: [
///         CommandSpec(name: "take", abstract: "Take books.",
///                     arguments: [.repeating("book-id", help: "A book id.")]),
///         CommandSpec(name: "clients", abstract: "List clients.", subcommands: [
///             CommandSpec(name: "add", abstract: "Add a client.", arguments: [.required("name", help: "Name.")]),
///         ]),
///     ],
///     version: "1.0.0")
/// ```
public struct CommandSpec: Equatable, Sendable {
    /// The word that selects the command; for the root, the program name.
    public var name: String
    /// One line saying what the command does; shown in OVERVIEW and in the parent's SUBCOMMANDS list.
    public var abstract: String
    /// Longer text shown after the overview; paragraphs are separated by blank lines.
    public var discussion: String
    /// Positional arguments in order.
    public var arguments: [ArgumentSpec]
    /// Options valid for this command only. They shadow a global option of the same name.
    public var options: [OptionSpec]
    /// Options valid everywhere; only read from the root command.
    public var globalOptions: [OptionSpec]
    /// Nested commands.
    public var subcommands: [CommandSpec]
    /// The subcommand used when none is named and the words given fit it, e.g. `"list"` at the root.
    public var defaultSubcommand: String?
    /// The version printed by `--version`; only read from the root command.
    public var version: String?
    /// Free-text sections appended to this command's help, e.g. EXIT CODES and ENVIRONMENT.
    public var extraHelpSections: [HelpSection]
    /// Names of options (its own or global ones) of which exactly one must be given, such as `["client",
    /// "librarian"]`: the usage shows them as `(--client <id> | --librarian)`, and the parser refuses none or two.
    public var oneOf: [String]

    /// Creates a command.
    ///
    /// ```swift
    /// let renew = CommandSpec(name: "renew", abstract: "Renew a loan.",
    ///                         arguments: [.required("book-id", help: "The book to renew.")])
    /// ```
    public init(
        name: String, abstract: String = "", discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], globalOptions: [OptionSpec] = [], subcommands: [CommandSpec] = [],
        defaultSubcommand: String? = nil, version: String? = nil, extraHelpSections: [HelpSection] = [],
        oneOf: [String] = []
    ) {
        precondition(
            arguments.dropLast().allSatisfy { !$0.isRepeating }, "Only the last argument of '\(name)' may repeat")
        precondition(
            defaultSubcommand.map { name in subcommands.contains { $0.name == name } } ?? true,
            "The default subcommand of '\(name)' must be one of its subcommands")
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.globalOptions = globalOptions
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.version = version
        self.extraHelpSections = extraHelpSections
        self.oneOf = oneOf
    }

    // MARK: - Lookup

    /// The direct subcommand with the given name.
    ///
    /// ```swift
    /// root.subcommand(named: "clients")?.subcommand(named: "add")
    /// ```
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// Whether this command has the built-in `help` subcommand: it has subcommands and none named `help`.
    ///
    /// ```swift
    /// root.hasBuiltInHelp  // true: `librarycli help take`, `librarycli clients help add`
    /// ```
    public var hasBuiltInHelp: Bool { !subcommands.isEmpty && subcommand(named: "help") == nil }

    /// The built-in `help` subcommand, as a command of its own for its help text (`librarycli help help`).
    static let builtInHelp = CommandSpec(
        name: "help", abstract: "Show subcommand help information.",
        arguments: [
            .repeating("subcommand", help: "The subcommand to show help for, and its subcommands.", isOptional: true)
        ])

    /// The command reached by following `path` from this command, or nil if a name is unknown.
    ///
    /// ```swift
    /// root.command(at: ["clients", "add"])?.name == "add"
    /// ```
    public func command(at path: [String]) -> CommandSpec? {
        var command = self
        for name in path {
            guard let next = command.subcommand(named: name) else { return nil }
            command = next
        }
        return command
    }
}

// MARK: - HelpSection

/// A titled block appended to a command's help: free text, two-column rows, or both (the text first).
///
/// Free text keeps its lines as written; lines wider than the help width are wrapped keeping their indentation.
/// Rows are laid out like the OPTIONS list: each term, then its text in a column just wide enough for the longest
/// term (at most the options' column); wrapped text hangs under the text column, and a term too wide for the column
/// gets a line of its own with its text below.
///
/// ```swift
/// let exitCodes = HelpSection(title: "EXIT CODES", rows: [.init(" 0", "Success."), .init("64", "Usage error.")])
/// let notes = HelpSection(title: "NOTES", body: "Dates are in UTC.")
/// ```
public struct HelpSection: Equatable, Sendable {
    /// One row of a section: a term (kept as written, leading spaces included) and its description.
    ///
    /// ```swift
    /// HelpSection.Row("LIBRARY_DB", "the database file")
    /// ```
    public struct Row: Equatable, Sendable {
        /// The left column, such as an exit code or a variable's name.
        public var term: String
        /// The description, wrapped as one paragraph.
        public var text: String

        /// Creates a row.
        ///
        /// ```swift
        /// HelpSection.Row("COLUMNS", "the width of text output")
        /// ```
        public init(_ term: String, _ text: String) {
            self.term = term
            self.text = text
        }
    }

    /// The heading, printed followed by a colon, e.g. `"EXIT CODES"`.
    public var title: String
    /// Free text under the heading.
    public var body: String
    /// Two-column rows under the heading, after the free text.
    public var rows: [Row]

    /// Creates a section of free text.
    ///
    /// ```swift
    /// HelpSection(title: "ENVIRONMENT", body: "LIBRARY_DB  Default database path.")
    /// ```
    public init(title: String, body: String) {
        self.title = title
        self.body = body
        self.rows = []
    }

    /// Creates a section of two-column rows, with optional free text before them.
    ///
    /// ```swift
    /// HelpSection(title: "ENVIRONMENT", rows: [.init("LIBRARY_DB", "the database file")])
    /// ```
    public init(title: String, body: String = "", rows: [Row]) {
        self.title = title
        self.body = body
        self.rows = rows
    }
}
