import Formats

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
        if onUTF8(text, needsNoSanitizing) { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch ControlCharacter(scalar) {
            case nil:
                result.append(scalar)
            case .bidirectionalControl:
                continue
            case .lineSeparator, .paragraphSeparator:
                result.append(" ")
            case .control:
                // Tab, the line breaks and NEL read as a space; every other control would act on the terminal.
                let isBreak = (0x09...0x0D).contains(scalar.value) || scalar.value == 0x85
                result.append(isBreak ? " " : "\u{FFFD}")
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

    /// The text cut to at most `width` cells like ``truncated(_:toWidth:)``, but keeping its last `tail` characters
    /// whole: what comes before them gives way, so a number at the end is never cut. When the tail leaves no room
    /// for a cell of the rest, the text is cut as a whole.
    ///
    ///     TerminalText.truncated("Miguel de Cervantes · 1605", toWidth: 20, keepingLast: 7)
    ///     // "Miguel de Ce… · 1605"
    public static func truncated(_ text: String, toWidth width: Int, keepingLast tail: Int) -> String {
        guard tail > 0, DisplayWidth.of(text) > width else { return truncated(text, toWidth: width) }
        let kept = text.suffix(tail)
        let keptWidth = DisplayWidth.of(String(kept))
        guard kept.startIndex > text.startIndex, width - keptWidth >= 2 else { return truncated(text, toWidth: width) }
        return truncated(String(text[..<kept.startIndex]), toWidth: width - keptWidth) + kept
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

    /// One line of a left-to-right sentence (a message) with each right-to-left run in it isolated (U+2068 … U+2069),
    /// so that a title or name quoted in the sentence cannot pull the numbers and punctuation after it into its own
    /// direction (in "Took مئة عام (#1), due …" the "(#1)" would otherwise be drawn before the title). A run goes from
    /// the first right-to-left letter to the last one of a row of words with no left-to-right letter between them:
    /// digits or punctuation between right-to-left letters belong to the run, those around it stay outside, and
    /// digits alone (Arabic-Indic ones typed as a book id) make no run. Meant for sanitised text (which holds no
    /// isolate); a line without a right-to-left letter comes back unchanged.
    ///
    ///     TerminalText.isolatingRightToLeftRuns("محمد عبد الله has 1 book of 5.")
    ///     // "\u{2068}محمد عبد الله\u{2069} has 1 book of 5."
    public static func isolatingRightToLeftRuns(_ line: String) -> String {
        guard containsRightToLeft(line) else { return line }
        let characters = Array(line)
        // The places (in `characters`) of the first and last right-to-left character of each run.
        var runs: [(start: Int, end: Int)] = []
        var open: (start: Int, end: Int)?
        for (index, character) in characters.enumerated() {
            let scalars = character.unicodeScalars
            if scalars.contains(where: { isRightToLeft($0) && $0.properties.isAlphabetic }) {
                open = (open?.start ?? index, index)
            } else if scalars.contains(where: { $0.properties.isAlphabetic }), let run = open {
                runs.append(run)
                open = nil
            }
        }
        if let open { runs.append(open) }
        var result = ""
        var next = 0
        for run in runs {
            result += String(characters[next..<run.start]) + "\u{2068}"
            result += String(characters[run.start...run.end]) + "\u{2069}"
            next = run.end + 1
        }
        return result + String(characters[next...])
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

    /// Sanitised text broken at spaces into lines of at most `width` cells, like ``wrapped(_:width:)``, but losing
    /// nothing: a word wider than a line is broken between grapheme clusters across lines instead of cut. For
    /// messages (a confirmation, a note, an error) whose every character counts, such as a path or a command.
    /// Unlike ``wrapped(_:width:)`` the lines are not isolated: a message is a left-to-right sentence that may quote
    /// right-to-left text, as it reads unfolded.
    ///
    ///     TerminalText.folded("Saved to /tmp/library.sqlite", width: 10)
    ///     // ["Saved to", "/tmp/libra", "ry.sqlite"]
    public static func folded(_ text: String, width: Int) -> [String] {
        let clean = sanitized(text)
        guard width > 0 else { return [] }
        if DisplayWidth.of(clean) <= width { return [clean] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        func endLine() {
            lines.append(current)
            current = ""
            currentWidth = 0
        }
        for word in clean.split(separator: " ", omittingEmptySubsequences: true) {
            let word = String(word)
            let wordWidth = DisplayWidth.of(word)
            if currentWidth > 0 && currentWidth + 1 + wordWidth > width { endLine() }
            if currentWidth > 0 {
                current += " "
                currentWidth += 1
            }
            guard currentWidth + wordWidth > width else {
                current += word
                currentWidth += wordWidth
                continue
            }
            for character in word {
                let cells = DisplayWidth.of(character)
                if currentWidth > 0 && currentWidth + cells > width { endLine() }
                current.append(character)
                currentWidth += cells
            }
        }
        if currentWidth > 0 || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// A shell command folded into lines of at most `width` cells that paste back as the same command: it is broken
    /// only between shell words (never inside quotes), and every line but the last ends with ` \`. A word wider
    /// than a line is broken inside, where a break keeps its meaning: a line ends with `\` (outside quotes) or
    /// closes its quote and ends with `\`, and the next line opens the quote again (`'my li'\` then
    /// `'brary.sqlite'`); such a word pastes whole when its lines are taken without their indentation. Narrower than
    /// 6 cells, the command is folded as ``folded(_:width:)`` does.
    ///
    ///     TerminalText.foldedCommand("librarycli --db '/tmp/my library.sqlite' list --page 2", width: 36)
    ///     // ["librarycli --db \\", "'/tmp/my library.sqlite' list \\", "--page 2"]
    public static func foldedCommand(_ command: String, width: Int) -> [String] {
        let clean = sanitized(command)
        if DisplayWidth.of(clean) <= width { return [clean] }
        guard width >= 6 else { return folded(clean, width: width) }
        let words = ShellWord.split(clean)
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            let room = isLast ? width : width - 2
            if currentWidth > 0 && currentWidth + 1 + word.width <= room {
                current += " " + word.text
                currentWidth += 1 + word.width
                continue
            }
            if currentWidth > 0 {
                lines.append(current + " \\")
                current = ""
                currentWidth = 0
            }
            if word.width <= room {
                current = word.text
                currentWidth = word.width
                continue
            }
            // A word wider than a line: broken inside, at places where it can be.
            for piece in word.pieces(width: width) {
                if currentWidth > 0 { lines.append(current) }
                current = piece
                currentWidth = DisplayWidth.of(piece)
            }
        }
        if currentWidth > 0 || lines.isEmpty { lines.append(current) }
        return lines
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
                if bytes.count == 1 {
                    buffer.initialize(repeating: bytes[0])
                    return count
                }
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

    /// Appends `count` spaces to `text` (none when `count` is not positive); the runs of up to 127 spaces that pad
    /// most cells and lines are made once.
    ///
    ///     TerminalText.appendSpaces(2, to: &line)
    static func appendSpaces(_ count: Int, to text: inout String) {
        guard count > 0 else { return }
        text += count < spaceRuns.count ? spaceRuns[count] : repeated(" ", count: count)
    }

    // MARK: - Private

    /// `spaceRuns[n]` is n spaces.
    private static let spaceRuns: [String] = (0..<128).map { repeated(" ", count: $0) }

    private static func isPlainASCII(_ text: String) -> Bool {
        onUTF8(text) { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
    }

    /// `body` applied to the text's UTF-8 bytes in place (a copy only for a bridged string without them).
    private static func onUTF8(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Whether ``sanitized(_:)`` gives the text back unchanged, decided on its bytes: no ASCII control or DEL, no
    /// C1 control (U+0080–U+009F: C2 80–C2 9F), no ZWJ, line or paragraph separator or bidirectional embedding
    /// (U+200D, U+2028–U+202E: E2 80 8D, E2 80 A8–AE), no isolate (U+2066–U+2069: E2 81 A6–A9), and no first
    /// scalar that could be a variation selector, emoji modifier or tag-range selector (a lead byte EF or above).
    /// A `false` only sends the text through the scalar-by-scalar path, so doubtful cases answer `false`.
    private static func needsNoSanitizing(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let first = bytes.first, first >= 0xEF { return false }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F { return false }
            } else if byte == 0xC2 {
                if index + 1 < count && bytes[index + 1] < 0xA0 { return false }
            } else if byte == 0xE2 && index + 2 < count {
                let second = bytes[index + 1]
                let third = bytes[index + 2]
                if second == 0x80 && (third == 0x8D || (0xA8...0xAE).contains(third)) { return false }
                if second == 0x81 && (0xA6...0xA9).contains(third) { return false }
            }
            index += 1
        }
        return true
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
        // Every scalar of those blocks starts with a lead byte D6–DF (U+0590–U+07FF), E0 (U+0800–U+08FF), EF
        // (U+FB1D–U+FEFF) or F0 (U+10800–U+1EFFF); text without one has none of them.
        let mayHaveOne = onUTF8(text) { bytes in
            bytes.contains { byte in (0xD6...0xE0).contains(byte) || byte == 0xEF || byte == 0xF0 }
        }
        if !mayHaveOne { return false }
        return text.unicodeScalars.contains(where: isRightToLeft)
    }

    /// Whether the scalar belongs to a right-to-left script block (Hebrew, Arabic, Syriac, Thaana, N'Ko, …).
    private static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}

/// One word of a shell command, as `TerminalText.foldedCommand` breaks it: its characters and, before each, the
/// quoting in force and whether a line may break there.
private struct ShellWord {
    /// How a character is quoted: not, in '...', in "..." or in $'...'.
    enum Quoting { case none, single, double, escapes }

    var characters: [(character: Character, quoting: Quoting, canBreakBefore: Bool)] = []
    var text: String { String(characters.map(\.character)) }
    var width: Int { DisplayWidth.of(text) }

    /// The command's words, split at spaces outside quotes.
    static func split(_ command: String) -> [ShellWord] {
        var words: [ShellWord] = []
        var word = ShellWord()
        var quoting = Quoting.none
        var escaped = false
        var previous: Character?
        for character in command {
            if quoting == .none && !escaped && character == " " {
                if !word.characters.isEmpty { words.append(word) }
                word = ShellWord()
                previous = nil
                continue
            }
            // Never after a backslash that escapes, nor inside `$'`, nor before a hex digit in $'...' (it may end
            // an escape such as \u200b).
            let canBreak =
                !escaped && !word.characters.isEmpty && !(previous == "$" && character == "'" && quoting == .none)
                && !(quoting == .escapes && (character.isHexDigit || previous == "\\"))
            word.characters.append((character, quoting, canBreak))
            if escaped {
                escaped = false
            } else {
                switch (quoting, character) {
                case (.none, "\\"), (.double, "\\"), (.escapes, "\\"): escaped = true
                case (.none, "'"): quoting = previous == "$" ? .escapes : .single
                case (.none, "\""): quoting = .double
                case (.single, "'"), (.escapes, "'"): quoting = .none
                case (.double, "\""): quoting = .none
                default: break
                }
            }
            previous = character
        }
        if !word.characters.isEmpty { words.append(word) }
        return words
    }

    /// The word in lines of at most `width` cells where it can break: each line but the last ends with `\`,
    /// closing its quote first, and the next opens it again.
    func pieces(width: Int) -> [String] {
        var lines: [String] = []
        var start = 0
        var open = ""
        while start < characters.count {
            // The furthest place to break at that keeps the line within `width` with its closing `'\`; else the
            // nearest place at all (the line is then wider: nothing in this stretch may break).
            var used = open.count
            var over: Int?
            var fits: Int?
            var index = start
            while index < characters.count {
                used += DisplayWidth.of(characters[index].character)
                index += 1
                guard index < characters.count, characters[index].canBreakBefore else { continue }
                let close = Self.quotes(characters[index].quoting).close
                if used + close.count + 1 <= width {
                    fits = index
                } else {
                    over = fits ?? index
                    break
                }
            }
            // The rest fits on this line with room for a ` \` after it (a word may follow), or breaks at the last place
            // that does.
            let end = over ?? (used <= width - 2 ? characters.count : fits ?? characters.count)
            let text = open + String(characters[start..<end].map(\.character))
            if end == characters.count {
                lines.append(text)
                break
            }
            let (close, reopen) = Self.quotes(characters[end].quoting)
            lines.append(text + close + "\\")
            open = reopen
            start = end
        }
        return lines
    }

    /// What ends a quote before a break and opens it again after.
    private static func quotes(_ quoting: Quoting) -> (close: String, open: String) {
        switch quoting {
        case .none: ("", "")
        case .single: ("'", "'")
        case .double: ("\"", "\"")
        case .escapes: ("'", "$'")
        }
    }
}
