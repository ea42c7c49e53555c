// MARK: - CommandSpec

/// Declares a command: its name, help texts, positional arguments, options and subcommands.
///
/// The root command carries the program name, the version and the global options, which are accepted before or
/// after any subcommand. `-h`/`--help` (and `--version` when a version is set) are built in; so is a `help`
/// subcommand at the root when the root has subcommands.
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

    /// Creates a command.
    ///
    /// ```swift
    /// let renew = CommandSpec(name: "renew", abstract: "Renew a loan.",
    ///                         arguments: [.required("book-id", help: "The book to renew.")])
    /// ```
    public init(
        name: String, abstract: String = "", discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], globalOptions: [OptionSpec] = [], subcommands: [CommandSpec] = [],
        defaultSubcommand: String? = nil, version: String? = nil, extraHelpSections: [HelpSection] = []
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

/// A titled block of free text appended to a command's help.
///
/// Lines are kept as written; lines wider than the help width are wrapped keeping their indentation.
///
/// ```swift
/// let exitCodes = HelpSection(title: "EXIT CODES", body: "0   Success.\n64  Usage error.")
/// ```
public struct HelpSection: Equatable, Sendable {
    /// The heading, printed followed by a colon, e.g. `"EXIT CODES"`.
    public var title: String
    /// The text under the heading.
    public var body: String

    /// Creates a section.
    ///
    /// ```swift
    /// HelpSection(title: "ENVIRONMENT", body: "LIBRARY_DB  Default database path.")
    /// ```
    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}
