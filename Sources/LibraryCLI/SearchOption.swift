import ArgumentParsing
import Library

/// The `--search <text>` option of `list` and `books`, checked against the library's limit before anything is
/// opened, so that too long a text is a usage error (exit 64).
///
/// For example:
///
///     let search = try SearchOption.value(of: context.parsed)  // nil without --search
enum SearchOption {
    /// The option's text, or nil when it was not given; throws a `UsageError` when the text is longer than
    /// `BookSearch.maxLength`.
    static func value(of parsed: ParsedCommand) throws(UsageError) -> String? {
        guard let text = parsed.string("search") else { return nil }
        guard let problem = BookSearch.lengthProblem(text) else { return text }
        let display = parsed.availableOptions.first { $0.name == "search" }?.display ?? "--search"
        let shown = String(Substring(text.unicodeScalars.prefix(20))) + "…"
        throw UsageError(
            .invalidValue(shown, for: display, expected: "search text of \(problem)"), commandPath: parsed.path)
    }
}
