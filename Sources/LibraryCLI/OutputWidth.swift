import ArgumentParsing
import Rendering

/// The width text is laid out at, decided by one rule for the screen, tables, help and messages: `--width N` (a whole
/// number from 20 to 1000), else `COLUMNS`, else the terminal's, else 80. `COLUMNS` and a terminal narrower than 20 or
/// wider than 1000 give 20 or 1000. A `--width` value that is refused (`+40`, `5`, `wide`) is never used: the error
/// that refuses it is laid out by the rest of the rule.
///
/// Messages (confirmations, summaries, notes, errors) are folded only when the width is known (`--width`, `COLUMNS`
/// or a terminal); written to a file or a pipe at the default 80, each stays on one line for scripts. Messages on
/// standard error (notes, errors) go by standard error's terminal, so that `librarycli take 9 | cat` still folds
/// its error on the terminal.
///
/// For example:
///
///     let width = OutputWidth(option: "+40", environment: ["COLUMNS": "5"], terminalWidth: nil)
///     width.columns       // 20
///     width.messageWidth  // 20
struct OutputWidth: Equatable {
    /// The widths `--width` accepts, and those `COLUMNS` and a terminal are brought into: the text renderer's.
    static let range = TextRenderer.minimumWidth...TextRenderer.maximumWidth

    /// The width of the screen, tables and help.
    var columns: Int
    /// The width messages are folded at: `columns` when the width is known, nil when it is only the default.
    var messageWidth: Int?
    /// The width messages on standard error are folded at: as `messageWidth`, but by standard error's terminal.
    var errorMessageWidth: Int?

    /// The width from a `--width` value (nil when not given), the environment's `COLUMNS` and the terminal's width
    /// (standard output's; `errorTerminalWidth` is standard error's).
    init(option: String?, environment: [String: String], terminalWidth: Int?, errorTerminalWidth: Int? = nil) {
        if let option, let width = try? Validation.integer(option, for: "--width", in: Self.range) {
            columns = width
            messageWidth = width
            errorMessageWidth = width
            return
        }
        if let text = environment["COLUMNS"], let width = try? Validation.integer(text, for: "COLUMNS"), width > 0 {
            columns = Self.clamped(width)
            messageWidth = columns
            errorMessageWidth = columns
            return
        }
        if let terminalWidth, terminalWidth > 0 {
            columns = Self.clamped(terminalWidth)
            messageWidth = columns
        } else {
            columns = 80
            messageWidth = nil
        }
        errorMessageWidth = errorTerminalWidth.flatMap { $0 > 0 ? Self.clamped($0) : nil }
    }

    /// The width for a command line not parsed yet (help, and errors that cut parsing short): from the first
    /// `--width` before `--` (`--width 40`, `--width=40`).
    ///
    ///     OutputWidth(arguments: ["list", "--width=40"], environment: [:], terminalWidth: nil).columns  // 40
    init(arguments: [String], environment: [String: String], terminalWidth: Int?, errorTerminalWidth: Int? = nil) {
        var option: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { break }
            if argument == "--width" && index + 1 < arguments.count {
                option = arguments[index + 1]
                break
            } else if argument.hasPrefix("--width=") {
                option = String(argument.dropFirst(8))
                break
            }
        }
        self.init(
            option: option, environment: environment, terminalWidth: terminalWidth,
            errorTerminalWidth: errorTerminalWidth)
    }

    private static func clamped(_ width: Int) -> Int { min(max(width, range.lowerBound), range.upperBound) }
}
