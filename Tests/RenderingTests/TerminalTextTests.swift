import Foundation
import Rendering
import Testing

@Suite struct TerminalTextTests {
    @Test func sanitizingReplacesControlsAndDropsBidiControls() {
        #expect(TerminalText.sanitized("Dune") == "Dune")
        #expect(TerminalText.sanitized("a\nb\tc\r\nd") == "a b c  d")
        #expect(TerminalText.sanitized("\u{1B}[31mred") == "\u{FFFD}[31mred")
        #expect(TerminalText.sanitized("x\u{9B}y\u{7F}\u{0}") == "x\u{FFFD}y\u{FFFD}\u{FFFD}")
        #expect(TerminalText.sanitized("a\u{202E}b\u{2066}c\u{2069}") == "abc")
        #expect(TerminalText.sanitized("ligne\u{2028}deux") == "ligne deux")
    }

    @Test func truncationNeverSplitsAGraphemeCluster() {
        #expect(TerminalText.truncated("Crime and Punishment", toWidth: 10) == "Crime and…")
        #expect(TerminalText.truncated("Dune", toWidth: 4) == "Dune")
        #expect(TerminalText.truncated("中文中文", toWidth: 5) == "中文…")
        #expect(TerminalText.truncated("中文中文", toWidth: 6) == "中文…")
        #expect(TerminalText.truncated("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
        #expect(TerminalText.truncated("👨‍👩‍👧👨‍👩‍👧", toWidth: 3) == "👨‍👩‍👧…")
        #expect(TerminalText.truncated("abc", toWidth: 0) == "")
        #expect(TerminalText.truncated("abc", toWidth: 1) == "…")
    }

    @Test func paddingFillsToWidth() {
        #expect(TerminalText.padded("ab", toWidth: 4) == "ab  ")
        #expect(TerminalText.padded("中", toWidth: 3) == "中 ")
        #expect(TerminalText.padded("abcdef", toWidth: 3) == "abcdef")
    }

    @Test func rightToLeftTextIsIsolatedWithoutChangingWidth() {
        #expect(TerminalText.isolated("Dune") == "Dune")
        #expect(TerminalText.isolated("ألف") == "\u{2068}ألف\u{2069}")
        #expect(TerminalText.isolated("Shalom שלום") == "\u{2068}Shalom שלום\u{2069}")
        let fitted = TerminalText.fitted("ألف ليلة وليلة", width: 10)
        #expect(fitted.hasPrefix("\u{2068}"))
        #expect(DisplayWidth.of(fitted) == 10)
    }

    @Test func fittingGivesExactlyTheWidth() {
        for text in ["", "Dune", "紅樓夢紅樓夢紅樓夢", "a\nb", "😀😀😀😀😀😀😀"] {
            for width in 1...12 {
                #expect(DisplayWidth.of(TerminalText.fitted(text, width: width)) == width, "\(text) at \(width)")
            }
        }
    }

    @Test func wrappingBreaksAtSpaces() {
        #expect(TerminalText.wrapped("Page 1 of 3 · 42 books", width: 12) == ["Page 1 of 3", "· 42 books"])
        #expect(TerminalText.wrapped("", width: 5) == [""])
        #expect(TerminalText.wrapped("Supercalifragilistic", width: 6) == ["Super…"])
        #expect(TerminalText.wrapped("a\nb", width: 5) == ["a b"])
    }

    @Test("a message's right-to-left runs are isolated, from their first to their last right-to-left letter")
    func isolatingRuns() {
        let fsi = "\u{2068}"
        let pdi = "\u{2069}"
        #expect(TerminalText.isolatingRightToLeftRuns("Took Dune (#5).") == "Took Dune (#5).")
        #expect(TerminalText.isolatingRightToLeftRuns("") == "")
        #expect(
            TerminalText.isolatingRightToLeftRuns("Took مئة عام من العزلة (#1), due 2026-12-17.")
                == "Took \(fsi)مئة عام من العزلة\(pdi) (#1), due 2026-12-17.")
        #expect(
            TerminalText.isolatingRightToLeftRuns("محمد عبد الله has 1 book of 5.")
                == "\(fsi)محمد عبد الله\(pdi) has 1 book of 5.")
        // Quotes and punctuation around a run stay outside; digits between its words stay inside.
        #expect(TerminalText.isolatingRightToLeftRuns("No books match “שלום”.") == "No books match “\(fsi)שלום\(pdi)”.")
        #expect(TerminalText.isolatingRightToLeftRuns("Added ألف 1 ليلة.") == "Added \(fsi)ألف 1 ليلة\(pdi).")
        // Two runs with left-to-right words between them are isolated apart.
        #expect(
            TerminalText.isolatingRightToLeftRuns("Took كتاب and ספר.") == "Took \(fsi)كتاب\(pdi) and \(fsi)ספר\(pdi).")
        // Digits alone make no run: a book id typed in Arabic-Indic digits is quoted as it is.
        #expect(TerminalText.isolatingRightToLeftRuns("Invalid value '١٢'.") == "Invalid value '١٢'.")
        // Combining marks stay with their letters.
        #expect(TerminalText.isolatingRightToLeftRuns("x كِتَاب") == "x \(fsi)كِتَاب\(pdi)")
    }

    @Test func foldingBreaksLongWordsAndLosesNothing() {
        #expect(
            TerminalText.folded("Saved to /tmp/library.sqlite", width: 10) == ["Saved to", "/tmp/libra", "ry.sqlite"])
        #expect(TerminalText.folded("Took Dune (#5).", width: 40) == ["Took Dune (#5)."])
        #expect(TerminalText.folded("", width: 5) == [""])
        #expect(TerminalText.folded("紅樓夢紅樓夢 x", width: 5) == ["紅樓", "夢紅", "樓夢", "x"])
        // A message stays a left-to-right sentence quoting right-to-left text: no line is isolated as a whole.
        #expect(
            TerminalText.folded("Took كتاب طويلة (#4), due 2026-12-17.", width: 20).allSatisfy {
                !$0.contains("\u{2068}")
            })
        // Any text at any width: every line fits, and the words come back whole in order.
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "Dune", "紅樓夢", "😀", "e\u{301}", "/very/long/path/to/a/library.sqlite", "·", "--search"]
        for _ in 0..<300 {
            let words = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            let text = words.joined(separator: " ")
            let width = Int.random(in: 2...30, using: &random)
            let lines = TerminalText.folded(text, width: width)
            for line in lines { #expect(DisplayWidth.of(line) <= width, "\(text) at \(width): \(line)") }
            #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "\(text) at \(width)")
        }
    }

    @Test func truncationKeepsAKeptTailWhole() {
        #expect(
            TerminalText.truncated("Miguel de Cervantes · 1605", toWidth: 20, keepingLast: 7) == "Miguel de Ce… · 1605")
        #expect(TerminalText.truncated("Homer · 725 BC", toWidth: 12, keepingLast: 9) == "Ho… · 725 BC")
        #expect(TerminalText.truncated("Jane Austen · 1813", toWidth: 18, keepingLast: 7) == "Jane Austen · 1813")
        // No room for the rest before the tail: cut as a whole.
        #expect(TerminalText.truncated("Homer · 725 BC", toWidth: 9, keepingLast: 9) == "Homer · …")
    }
}

/// Commands folded for the screen paste back as the same command: bash reads the folded lines as the one line.
@Suite struct FoldedCommandTests {
    static let commands = [
        "librarycli --db '/tmp/pt/my library file.sqlite' list --page 2",
        "librarycli --db '/tmp/it'\\''s here/a very long folder name indeed/library.sqlite' list --page 3 --per-page 5",
        "librarycli --db $'/tmp/ta\\tb \\u200b/lib.sqlite' list --search 'the the the the the' --page 2",
        "librarycli --db \"/tmp/double quoted/library.sqlite\" take 12",
        "librarycli list --page 2 --per-page 10 --search 'tolkien hobbit'",
    ]

    /// The words bash makes of `text`, printed one a line.
    static func words(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -- " + text + "\nprintf '[%s]\\n' \"$@\""]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: [12, 20, 27, 36, 44, 60])
    func foldedLinesPasteAsTheCommand(width: Int) throws {
        for command in Self.commands {
            let lines = TerminalText.foldedCommand(command, width: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
            #expect(lines.dropLast().allSatisfy { $0.hasSuffix("\\") }, "\(lines)")
            #expect(try Self.words(lines.joined(separator: "\n")) == Self.words(command), "\(lines)")
        }
    }

    @Test("broken only between words when every word fits: indented lines paste too")
    func betweenWords() throws {
        let command = Self.commands[0]
        let lines = TerminalText.foldedCommand(command, width: 40)
        #expect(lines == ["librarycli --db \\", "'/tmp/pt/my library file.sqlite' list \\", "--page 2"])
        #expect(try Self.words(lines.joined(separator: "\n    ")) == Self.words(command))
        #expect(TerminalText.foldedCommand("librarycli take 12", width: 18) == ["librarycli take 12"])
    }
}
