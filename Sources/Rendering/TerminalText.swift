/// Making user text safe and fitting it to a number of terminal cells.
///
/// Titles come from users and files: they may hold newlines, tabs or an ESC that would start a terminal escape
/// sequence. ``sanitized(_:)`` replaces them; ``truncated(_:toWidth:)`` and ``padded(_:toWidth:)`` fit text to a
/// width without splitting a grapheme cluster; ``isolated(_:)`` keeps right-to-left text from reordering the columns
/// around it.
///
/// For example:
///
///     TerminalText.fitted("Crime and Punishment", width: 10)  // "Crime and…"
public enum TerminalText {
    // MARK: - Cleaning

    /// The text with control characters replaced: tab, newline and other line breaks become a space, every other
    /// control (ESC, DEL, C1 controls) becomes U+FFFD, and bidirectional embedding, override and isolate controls are
    /// removed, so nothing in it can move the cursor, start an escape sequence or reorder the line.
    ///
    ///     TerminalText.sanitized("Dune\n\u{1B}[31m")  // "Dune �[31m"
    public static func sanitized(_ text: String) -> String {
        if isPlainASCII(text) { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
                result.append(" ")
            case 0x202A...0x202E, 0x2066...0x2069:
                continue
            case 0x00...0x1F, 0x7F...0x9F:
                result.append("\u{FFFD}")
            default:
                result.append(scalar)
            }
        }
        // A joiner, variation selector or modifier at the start, or a joiner at the end, would join this text to its
        // neighbour on the line and change the width of both, so it is dropped.
        while let first = result.first, isJoiner(first) { result.removeFirst() }
        while result.last == "\u{200D}" { result.removeLast() }
        return String(result)
    }

    // MARK: - Fitting

    /// The text cut to at most `width` cells, ending with `…` when anything was cut. Grapheme clusters are never
    /// split: a wide character that does not fit is dropped whole.
    ///
    ///     TerminalText.truncated("中文中文", toWidth: 5)  // "中文…"
    public static func truncated(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if isPlainASCII(text) {
            // One cell per byte: cut the bytes.
            let count = text.utf8.count
            return count <= width ? text : String(Substring(text.utf8.prefix(width - 1))) + "…"
        }
        if DisplayWidth.of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let cells = DisplayWidth.of(character)
            if used + cells > width - 1 { break }
            result.append(character)
            used += cells
        }
        return result + "…"
    }

    /// The text followed by spaces up to `width` cells; text already as wide or wider is returned unchanged.
    ///
    ///     TerminalText.padded("ab", toWidth: 4)  // "ab  "
    public static func padded(_ text: String, toWidth width: Int) -> String {
        let missing = width - DisplayWidth.of(text)
        return missing > 0 ? text + TerminalText.repeated(" ", count: missing) : text
    }

    /// The text wrapped in first-strong isolate (U+2068) and pop directional isolate (U+2069) when it holds any
    /// right-to-left letter, so the bidi algorithm cannot reorder what surrounds it. The isolates take no cells.
    ///
    ///     TerminalText.isolated("كتاب")  // "\u{2068}كتاب\u{2069}"
    public static func isolated(_ text: String) -> String {
        containsRightToLeft(text) ? "\u{2068}" + text + "\u{2069}" : text
    }

    /// Sanitised, truncated to `width`, isolated if right-to-left, then padded: exactly `width` cells.
    ///
    ///     TerminalText.fitted("Dune", width: 6)  // "Dune  "
    public static func fitted(_ text: String, width: Int) -> String {
        let cut = truncated(sanitized(text), toWidth: width)
        return isolated(cut) + TerminalText.repeated(" ", count: max(0, width - DisplayWidth.of(cut)))
    }

    /// Sanitised text broken at spaces into lines of at most `width` cells; a word longer than a line is truncated.
    /// Each line is isolated if right-to-left but not padded.
    ///
    ///     TerminalText.wrapped("Page 1 of 3 · 42 books", width: 12)  // ["Page 1 of 3", "· 42 books"]
    public static func wrapped(_ text: String, width: Int) -> [String] {
        let clean = sanitized(text)
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in clean.split(separator: " ", omittingEmptySubsequences: true) {
            let piece = truncated(String(word), toWidth: width)
            let pieceWidth = DisplayWidth.of(piece)
            if currentWidth > 0 && currentWidth + 1 + pieceWidth > width {
                lines.append(current)
                current = ""
                currentWidth = 0
            }
            if currentWidth > 0 {
                current += " "
                currentWidth += 1
            }
            current += piece
            currentWidth += pieceWidth
        }
        if currentWidth > 0 || lines.isEmpty { lines.append(current) }
        return lines.map(isolated)
    }

    /// `unit` written `count` times (none when `count` is not positive), built in one allocation: the renderer pads
    /// and draws borders with it on every line, where `String(repeating:count:)` costs several times as much.
    ///
    ///     TerminalText.repeated("─", count: 3)  // "───"
    static func repeated(_ unit: String, count: Int) -> String {
        guard count > 0 else { return "" }
        var unit = unit
        return unit.withUTF8 { bytes in
            guard bytes.count > 0 else { return "" }
            return String(unsafeUninitializedCapacity: bytes.count * count) { buffer in
                var offset = 0
                for _ in 0..<count {
                    for byte in bytes {
                        buffer[offset] = byte
                        offset += 1
                    }
                }
                return offset
            }
        }
    }

    // MARK: - Private

    private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// ZWJ, variation selectors and emoji modifiers: scalars that change the width of the cluster they join.
    private static func isJoiner(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0100...0xE01EF: true
        default: false
        }
    }

    /// Whether any scalar belongs to a right-to-left script block (Hebrew, Arabic, Syriac, Thaana, N'Ko, …).
    private static func containsRightToLeft(_ text: String) -> Bool {
        if isPlainASCII(text) { return false }
        return text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
                return true
            default:
                return false
            }
        }
    }
}
