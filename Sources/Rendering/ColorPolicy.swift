/// Whether to colour text output, decided from the `--color` choice and the environment, as plain inputs.
///
/// The CLI passes `isatty(1)`, `NO_COLOR` and `TERM`; the decision itself has no side effects and is tested here.
/// Rules, in order: `--color always` colours and `--color never` does not; otherwise a non-empty `NO_COLOR`
/// (https://no-color.org) or `TERM=dumb` turns colour off, and colour is on only when the output is a terminal.
///
/// For example:
///
///     let color = ColorPolicy.shouldColor(choice: .auto, isTerminal: true, noColor: nil, term: "xterm-256color")
///     // true
public enum ColorPolicy {
    /// The user's `--color` choice.
    public enum Choice: String, Hashable, Sendable, CaseIterable {
        /// Colour when writing to a terminal that can show it (the default).
        case auto
        /// Always colour, even into a pipe.
        case always
        /// Never colour.
        case never

        /// Parses `auto`, `always` or `never` (case-insensitive); `nil` for anything else.
        ///
        ///     ColorPolicy.Choice(parsing: "Always")  // .always
        public init?(parsing text: String) {
            self.init(rawValue: text.lowercased())
        }
    }

    /// Whether to write ANSI colour.
    ///
    ///     ColorPolicy.shouldColor(choice: .auto, isTerminal: true, noColor: "1", term: "xterm")  // false
    public static func shouldColor(choice: Choice, isTerminal: Bool, noColor: String?, term: String?) -> Bool {
        switch choice {
        case .always:
            return true
        case .never:
            return false
        case .auto:
            if let noColor, !noColor.isEmpty { return false }
            if term == "dumb" { return false }
            return isTerminal
        }
    }
}
