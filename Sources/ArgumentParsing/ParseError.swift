// MARK: - ParseError

/// What went wrong while reading the command line; the wording lives in `message`, apart from the cases.
///
/// Display names are stored as shown to the user: options as `--page <n>` or `--all`, arguments as `<book-id>`.
///
/// ```swift
/// ParseError.unknownOption("--serch", suggestion: "--search").message
/// // "Unknown option '--serch'. Did you mean '--search'?"
/// ```
public enum ParseError: Error, Equatable, Sendable {
    /// An option no command on the path declares, with the closest known spelling if any is close.
    case unknownOption(String, suggestion: String?)
    /// A word in the place of a subcommand that names none, with the closest subcommand if any is close.
    case unknownCommand(String, suggestion: String?)
    /// An option that takes a value was last on the line or followed by another option.
    case missingValue(option: String)
    /// A required argument or required option was not given.
    case missingArgument(String)
    /// None of the options of which the command needs exactly one (`CommandSpec.oneOf`), shown as in usage.
    case missingChoice([String])
    /// A positional word the command has no place for.
    case unexpectedArgument(String)
    /// A flag written with `=value`.
    case unexpectedValue(option: String, value: String)
    /// A value that does not fit: the value, where it was given, and what was expected.
    case invalidValue(String, for: String, expected: String)
    /// A single-value option given more than once.
    case duplicateOption(String)
    /// Two options that cannot be used together, checked by the program after parsing.
    case conflictingOptions(String, String)

    /// The sentence printed after `Error: `.
    ///
    /// ```swift
    /// ParseError.invalidValue("0", for: "<book-id>", expected: "a positive whole number").message
    /// // "Invalid value '0' for '<book-id>': expected a positive whole number."
    /// ```
    public var message: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            "Unknown option '\(option)'." + Self.didYouMean(suggestion)
        case .unknownCommand(let command, let suggestion):
            "Unknown command '\(command)'." + Self.didYouMean(suggestion)
        case .missingValue(let option):
            "Missing value for '\(option)'."
        case .missingArgument(let argument):
            "Missing expected argument '\(argument)'."
        case .missingChoice(let options):
            "Missing one of " + options.map { "'\($0)'" }.joined(separator: " or ") + "."
        case .unexpectedArgument(let word):
            "Unexpected argument '\(word)'."
        case .unexpectedValue(let option, let value):
            "The flag '\(option)' does not take a value (got '\(value)')."
        case .invalidValue(let value, let place, let expected):
            "Invalid value '\(value)' for '\(place)': expected \(expected)."
        case .duplicateOption(let option):
            "The option '\(option)' was given more than once."
        case .conflictingOptions(let first, let second):
            "The options '\(first)' and '\(second)' cannot be used together."
        }
    }

    // MARK: - Private

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " Did you mean '\($0)'?" } ?? ""
    }
}

// MARK: - UsageError

/// A `ParseError` together with the command it happened in, so the usage line can be printed.
///
/// Thrown by the parser and by the typed getters of `ParsedCommand`; turn it into text with
/// `ArgumentParser.output(for:width:)`.
///
/// ```swift
/// let error = UsageError(.missingArgument("<book-id>"), commandPath: ["take"])
/// error.exitCode == ExitCode.usageError
/// ```
public struct UsageError: Error, Equatable, Sendable {
    /// What went wrong.
    public var error: ParseError
    /// The subcommand path (without the program name) whose usage should be shown.
    public var commandPath: [String]

    /// Creates a usage error.
    ///
    /// ```swift
    /// UsageError(.unexpectedArgument("x"), commandPath: ["list"])
    /// ```
    public init(_ error: ParseError, commandPath: [String]) {
        self.error = error
        self.commandPath = commandPath
    }

    /// The exit status for every usage error: 64 (`EX_USAGE`).
    ///
    /// ```swift
    /// UsageError(.unexpectedArgument("x"), commandPath: []).exitCode == 64
    /// ```
    public var exitCode: Int32 { ExitCode.usageError }
}

// MARK: - ExitCode

/// Exit statuses used by the parser's output.
///
/// ```swift
/// exit(ExitCode.usageError)  // 64
/// ```
public enum ExitCode {
    /// Help and version output: 0.
    public static let success: Int32 = 0
    /// Any usage error: 64, as `EX_USAGE` in `sysexits.h`.
    public static let usageError: Int32 = 64
}
