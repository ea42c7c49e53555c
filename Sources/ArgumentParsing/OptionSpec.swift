// MARK: - OptionSpec

/// Declares one named option (`--name`, optionally `-n`) of a command.
///
/// Build options with the static factories; the long name is written without dashes.
///
/// ```swift
/// let page = OptionSpec.value("page", valueName: "n", help: "The page to show.", defaultValue: "1")
/// let all = OptionSpec.flag("all", help: "Show every book.")
/// let quiet = OptionSpec.flag("quiet", short: "q", help: "Print nothing but errors.")
/// let file = OptionSpec.repeating("file", valueName: "path", help: "A file to read.")
/// let format = OptionSpec.value("format", valueName: "format", help: "Output format.", allowedValues: ["csv", "json"])
/// ```
public struct OptionSpec: Equatable, Sendable {
    /// How an option consumes values.
    ///
    /// ```swift
    /// OptionSpec.flag("all", help: "").kind == .flag
    /// ```
    public enum Kind: Equatable, Sendable {
        /// A switch without a value; it may be given several times (its count is recorded).
        case flag
        /// An option taking exactly one value; giving it twice is a usage error.
        case value
        /// An option taking one value each time it is given; all values are kept in order.
        case repeatingValue
    }

    /// The long name without dashes, e.g. `"per-page"` for `--per-page`.
    public var name: String
    /// The optional one-letter name, e.g. `"q"` for `-q`.
    public var short: Character?
    /// The placeholder shown in usage and help, e.g. `"n"` for `--page <n>`.
    public var valueName: String
    /// One line (or a paragraph) of help.
    public var help: String
    /// Whether the option is a flag, a single value or a repeatable value.
    public var kind: Kind
    /// The values the option accepts; empty means any value.
    public var allowedValues: [String]
    /// The value used when the option is absent, shown in help as `(default: …)`.
    public var defaultValue: String?
    /// Whether the option must be given (value options only).
    public var isRequired: Bool
    /// Whether the value is free text (a title, a search): the next word is taken as the value whatever it starts
    /// with, so `--search -tolkien` searches for "-tolkien" (swift-argument-parser's `.unconditional` parsing).
    /// Other options take the next word only when it is not an option.
    public var isFreeText: Bool

    /// Creates an option; prefer the `flag`, `value` and `repeating` factories.
    ///
    /// ```swift
    /// let o = OptionSpec(name: "page", short: nil, valueName: "n", help: "Page.", kind: .value)
    /// ```
    public init(
        name: String, short: Character? = nil, valueName: String = "value", help: String, kind: Kind,
        allowedValues: [String] = [], defaultValue: String? = nil, isRequired: Bool = false, isFreeText: Bool = false
    ) {
        precondition(!name.isEmpty && !name.hasPrefix("-"), "Option names are written without dashes")
        precondition(kind != .flag || !isRequired, "A flag cannot be required")
        precondition(kind != .flag || !isFreeText, "A flag takes no value")
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.kind = kind
        self.allowedValues = allowedValues
        self.defaultValue = defaultValue
        self.isRequired = isRequired
        self.isFreeText = isFreeText
    }

    // MARK: - Factories

    /// A flag such as `--all` or `-q`.
    ///
    /// ```swift
    /// let quiet = OptionSpec.flag("quiet", short: "q", help: "Print nothing but errors.")
    /// ```
    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, help: help, kind: .flag)
    }

    /// An option that takes one value, such as `--page 2` or `--page=2`; with `isFreeText`, the next word whatever
    /// it starts with (`--search -tolkien`).
    ///
    /// ```swift
    /// let color = OptionSpec.value("color", valueName: "when", help: "Colour output.",
    ///                              allowedValues: ["auto", "always", "never"], defaultValue: "auto")
    /// let search = OptionSpec.value("search", valueName: "text", help: "Search.", isFreeText: true)
    /// ```
    public static func value(
        _ name: String, short: Character? = nil, valueName: String, help: String, allowedValues: [String] = [],
        defaultValue: String? = nil, isRequired: Bool = false, isFreeText: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueName: valueName, help: help, kind: .value, allowedValues: allowedValues,
            defaultValue: defaultValue, isRequired: isRequired, isFreeText: isFreeText)
    }

    /// An option that may be given several times, each with a value, such as `--file a --file b`.
    ///
    /// ```swift
    /// let file = OptionSpec.repeating("file", valueName: "path", help: "A seed file to load.")
    /// ```
    public static func repeating(
        _ name: String, short: Character? = nil, valueName: String, help: String, allowedValues: [String] = [],
        isRequired: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueName: valueName, help: help, kind: .repeatingValue,
            allowedValues: allowedValues, isRequired: isRequired)
    }

    // MARK: - Display

    /// The option as written on the command line, e.g. `"--per-page"`.
    ///
    /// ```swift
    /// OptionSpec.flag("all", help: "").spelling == "--all"
    /// ```
    public var spelling: String { "--" + name }

    /// The option with its value placeholder as used in messages, e.g. `"--page <n>"`.
    ///
    /// ```swift
    /// OptionSpec.value("page", valueName: "n", help: "").display == "--page <n>"
    /// ```
    public var display: String { kind == .flag ? spelling : "\(spelling) <\(valueName)>" }

    /// Whether the option consumes a value.
    ///
    /// ```swift
    /// OptionSpec.flag("all", help: "").takesValue == false
    /// ```
    public var takesValue: Bool { kind != .flag }
}
