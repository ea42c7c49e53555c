import Library
import Rendering

/// Text that comes from users and files, checked on the way in and cleaned on the way out.
///
/// In: a name, title, author, description or card number from the command line is checked against its
/// `TextField` before the database is opened, so a refused value (exit 64) leaves nothing behind. Out: every line a
/// command prints as text goes through `TerminalText.sanitized`, the cleaning the screen uses, so no value can
/// reach the terminal as an escape sequence or break a line, and then has its right-to-left runs isolated
/// (`TerminalText.isolatingRightToLeftRuns`), as the screen and tables isolate right-to-left text.
///
/// For example:
///
///     let name = try CommandText.checked(parsed.argument("name") ?? "", .name)
///     context.say("Added client #3 \(name).")
enum CommandText {
    /// The trimmed value, or a usage error naming what is wrong with it.
    static func checked(_ text: String, _ field: TextField) throws -> String {
        do {
            return try field.checked(text)
        } catch {
            throw Failure(message: error.sentence, code: .usage)
        }
    }

    /// One line cleaned for a terminal: a line break or control character in it cannot break or restyle the line,
    /// and right-to-left text in it (a title, a name) is isolated so that it cannot reorder the sentence around it.
    ///
    ///     CommandText.line("Added \u{1B}[31mAnn\n")  // "Added �[31mAnn "
    static func line(_ text: String) -> String {
        TerminalText.isolatingRightToLeftRuns(TerminalText.sanitized(text))
    }

    /// One line cleaned for a terminal and folded at `width` cells: lines that end in newlines, none wider than
    /// `width` (a word wider than a line is broken across lines, never cut), right-to-left text isolated on each.
    ///
    ///     CommandText.folded("Took Jane Eyre (#5), due 2026-12-17.", width: 20)
    ///     // "Took Jane Eyre (#5),\ndue 2026-12-17.\n"
    static func folded(_ text: String, width: Int) -> String {
        TerminalText.folded(text, width: width).map { TerminalText.isolatingRightToLeftRuns($0) + "\n" }.joined()
    }

    /// A message ending in a newline: folded at `width`, or one cleaned line when `width` is nil.
    ///
    ///     CommandText.message("Took Dune (#5).", width: nil)  // "Took Dune (#5).\n"
    static func message(_ text: String, width: Int?) -> String {
        width.map { folded(text, width: $0) } ?? line(text) + "\n"
    }

    /// Text of several lines (such as a usage error) with each line cleaned; the line breaks between them are kept.
    ///
    ///     CommandText.lines("Error: '\u{1B}' is not a number\nUsage: ...\n")
    static func lines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line(String($0)) }
            .joined(separator: "\n")
    }
}

extension CommandContext {
    /// Prints one line of text output (a confirmation, a summary), cleaned for the terminal and folded at the
    /// output's width when one is known (broken at spaces, a longer word across lines: nothing is cut).
    ///
    ///     context.say("Added Dune as book #50.")
    func say(_ line: String) {
        console.out(CommandText.message(line, width: options.messageWidth))
    }
}
