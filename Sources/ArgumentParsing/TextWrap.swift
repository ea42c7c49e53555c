// MARK: - TextWrap

/// Word wrapping for help and usage text.
enum TextWrap {
    /// Wraps `items` (words that must not be split) into lines of at most `width` columns.
    ///
    /// The first line starts with `prefix`; later lines are all indented alike: by `indent` spaces, or fewer when the
    /// widest word would not fit after them. A word wider than the available room gets a line of its own; one wider
    /// than `width` is split at its spaces (a usage item such as `[--title <text>]`), and a part still wider is cut
    /// into pieces of `width` characters (a URL at a very narrow width), so no line is wider than `width`.
    static func items(_ items: [String], width: Int, prefix: String = "", indent: Int) -> [String] {
        var lines: [String] = []
        var line = prefix
        var lineHasWord = false
        let words = fitting(items, width: width)
        let margin = String(repeating: " ", count: max(0, min(indent, width - (words.map(\.count).max() ?? 0))))
        for item in words {
            if lineHasWord, line.count + 1 + item.count > width {
                lines.append(line)
                line = margin
                lineHasWord = false
            } else if !lineHasWord, line.count + item.count > width {
                if line.allSatisfy({ $0 == " " }) {
                    line = margin
                } else {
                    lines.append(line)  // a label such as "USAGE:" on a line of its own
                    line = margin
                }
            }
            line += (lineHasWord ? " " : "") + item
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    /// `items` with each one wider than `width` split at its spaces, and each part still wider cut every `width`
    /// characters.
    private static func fitting(_ items: [String], width: Int) -> [String] {
        guard width > 0 else { return items }
        return items.flatMap { item -> [String] in
            guard item.count > width else { return [item] }
            return item.split(separator: " ").flatMap { part -> [String] in
                guard part.count > width else { return [String(part)] }
                let characters = Array(part)
                return stride(from: 0, to: characters.count, by: width).map {
                    String(characters[$0..<min($0 + width, characters.count)])
                }
            }
        }
    }

    /// Wraps free text: every input line is wrapped on its own, keeping its leading spaces on continuation lines,
    /// and the whole block is shifted right by `indent`. Lines that fit are kept exactly (inner spacing included).
    static func paragraphs(_ text: String, width: Int, indent: Int = 0) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { rawLine -> [String] in
            let leading = rawLine.prefix { $0 == " " }.count
            if indent + rawLine.count <= width {
                return [rawLine.isEmpty ? "" : String(repeating: " ", count: indent) + rawLine]
            }
            let words = rawLine.split(separator: " ").map(String.init)
            guard !words.isEmpty else { return [""] }
            let prefix = String(repeating: " ", count: indent + leading)
            return items(words, width: width, prefix: prefix, indent: indent + leading)
        }
    }

    /// The column where the text of OPTIONS and similar lists starts.
    static let entryColumn = 26

    /// A two-column entry: `label` at column 2, `text` wrapped from column `column` (on the next line if the label
    /// is too wide), continuation lines hanging under the text column. When `width` leaves the text column less
    /// than 20 cells, the text goes under the label instead, indented by 6.
    static func entry(label: String, text: String, width: Int, column: Int = entryColumn) -> [String] {
        let labelLine = "  " + label
        let words = text.split(separator: " ").map(String.init)
        guard width >= column + 20 else {
            // The label wraps too, continued under itself, when it is wider than the terminal.
            let labelLines =
                labelLine.count <= width
                ? [labelLine]
                : items(label.split(separator: " ").map(String.init), width: width, prefix: "  ", indent: 4)
            guard !words.isEmpty else { return labelLines }
            return labelLines + items(words, width: width, prefix: String(repeating: " ", count: 6), indent: 6)
        }
        guard !words.isEmpty else { return [labelLine] }
        let textWidth = width
        if labelLine.count <= column - 2 {
            let prefix = labelLine + String(repeating: " ", count: column - labelLine.count)
            return items(words, width: textWidth, prefix: prefix, indent: column)
        }
        return [labelLine]
            + items(words, width: textWidth, prefix: String(repeating: " ", count: column), indent: column)
    }
}
