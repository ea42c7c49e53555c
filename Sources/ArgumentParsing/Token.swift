// MARK: - Token

/// One command-line word classified without knowledge of any command.
///
/// - `--name` and `--name=value` become `.longOption`;
/// - `-abc` becomes `.shortOptions("abc")` (a bundle, or `-n5` with an attached value);
/// - `-`, `-3` and `-1.5` (a dash followed by a digit) and plain words become `.value`;
/// - `--` is dropped and every word after it becomes `.positional`.
///
/// ```swift
/// Token.tokenize(["--page=2", "-qh", "12", "--", "--5"])
/// // [.longOption("page", inlineValue: "2"), .shortOptions("qh"), .value("12"), .positional("--5")]
/// ```
public enum Token: Equatable, Sendable {
    /// A long option without its dashes, and the value written after `=` if any.
    case longOption(String, inlineValue: String?)
    /// The letters after a single dash.
    case shortOptions(String)
    /// A word that may be an option value, a subcommand name or a positional argument.
    case value(String)
    /// A word after `--`: always a positional argument.
    case positional(String)

    /// Classifies every word of `arguments` (which must not include the program name).
    ///
    /// ```swift
    /// Token.tokenize(["take", "--", "12"]) == [.value("take"), .positional("12")]
    /// ```
    public static func tokenize(_ arguments: [String]) -> [Token] {
        var tokens: [Token] = []
        var afterTerminator = false
        for word in arguments {
            if afterTerminator {
                tokens.append(.positional(word))
            } else if word == "--" {
                afterTerminator = true
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    tokens.append(
                        .longOption(String(body[..<equals]), inlineValue: String(body[body.index(after: equals)...])))
                } else {
                    tokens.append(.longOption(String(body), inlineValue: nil))
                }
            } else if word.hasPrefix("-"), let second = word.dropFirst().first, !second.isNumber {
                tokens.append(.shortOptions(String(word.dropFirst())))
            } else {
                tokens.append(.value(word))
            }
        }
        return tokens
    }

    /// The word as the user typed it (after `--` and `=` splitting), for messages.
    ///
    /// ```swift
    /// Token.shortOptions("qh").original == "-qh"
    /// ```
    public var original: String {
        switch self {
        case .longOption(let name, let value): value.map { "--\(name)=\($0)" } ?? "--\(name)"
        case .shortOptions(let letters): "-" + letters
        case .value(let word), .positional(let word): word
        }
    }
}
