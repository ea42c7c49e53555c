// MARK: - Output

/// Where a piece of parser output belongs.
///
/// ```swift
/// output.channel == .standardError
/// ```
public enum OutputChannel: Equatable, Sendable {
    /// Help and version text.
    case standardOutput
    /// Usage errors.
    case standardError
}

/// Text to print, where to print it, and the exit status to end with.
///
/// ```swift
/// let output = parser.output(for: .version)!
/// // ParserOutput(text: "1.0.0\n", channel: .standardOutput, exitCode: 0)
/// ```
public struct ParserOutput: Equatable, Sendable {
    /// The complete text, ending with a newline.
    public var text: String
    /// Standard output for help and version, standard error for errors.
    public var channel: OutputChannel
    /// 0 for help and version, 64 for usage errors.
    public var exitCode: Int32

    /// Creates an output.
    ///
    /// ```swift
    /// ParserOutput(text: "hi\n", channel: .standardOutput, exitCode: 0)
    /// ```
    public init(text: String, channel: OutputChannel, exitCode: Int32) {
        self.text = text
        self.channel = channel
        self.exitCode = exitCode
    }
}

extension ArgumentParser {
    /// The text, stream and exit code for an outcome; nil for `.command`, which the program runs itself.
    ///
    /// ```swift
    /// if let output = parser.output(for: outcome, width: 100) { emit(output) }
    /// ```
    public func output(for outcome: ParseOutcome, width: Int = 80) -> ParserOutput? {
        switch outcome {
        case .command: nil
        case .help(let path):
            ParserOutput(text: helpText(for: path, width: width), channel: .standardOutput, exitCode: ExitCode.success)
        case .version:
            ParserOutput(text: (root.version ?? "") + "\n", channel: .standardOutput, exitCode: ExitCode.success)
        case .failure(let error): output(for: error, width: width)
        }
    }

    /// The message for a usage error, including a usage line and a pointer to `--help`; exit code 64.
    ///
    /// ```swift
    /// parser.output(for: UsageError(.unknownOption("--serch", suggestion: "--search"), commandPath: ["list"])).text
    /// // Error: Unknown option '--serch'. Did you mean '--search'?
    /// // Usage: librarycli list [--page <n>] [--per-page <n>] [--all] [--search <text>]
    /// //   See 'librarycli list --help' for more information.
    /// ```
    public func output(for error: UsageError, width: Int = 80) -> ParserOutput {
        let program = ([root.name] + error.commandPath).joined(separator: " ")
        var lines = TextWrap.paragraphs("Error: " + error.error.message, width: width)
        lines += TextWrap.items(usageWords(for: error.commandPath), width: width, prefix: "Usage: ", indent: 7)
        lines += TextWrap.paragraphs("  See '\(program) --help' for more information.", width: width)
        return ParserOutput(
            text: lines.joined(separator: "\n") + "\n", channel: .standardError, exitCode: ExitCode.usageError)
    }
}
