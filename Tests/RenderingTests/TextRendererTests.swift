import Rendering
import Sections
import Testing

@Suite struct TextRendererTests {
    static let widths = [40, 80, 120]

    // MARK: - Goldens

    @Test(arguments: widths)
    func libraryScreenMatchesGolden(width: Int) throws {
        let text = TextRenderer(width: width).render(LibraryFixture.screen)
        try GoldenFile.check(text, named: "library-\(width).txt")
        try expectFits(text, width: width)
    }

    @Test(arguments: widths)
    func libraryScreenWithoutLoansMatchesGolden(width: Int) throws {
        let text = TextRenderer(width: width).render(LibraryFixture.screenWithoutLoans)
        try GoldenFile.check(text, named: "library-no-loans-\(width).txt")
        try expectFits(text, width: width)
        #expect(text.contains("You don't have any books right now!"))
        #expect(text.contains("Your books (0)"))
    }

    @Test(arguments: widths)
    func changeMarksMatchGolden(width: Int) throws {
        let text = TextRenderer(width: width).render(LibraryFixture.screen, marks: LibraryFixture.takeMarks)
        try GoldenFile.check(text, named: "library-take-\(width).txt")
        try expectFits(text, width: width)
        #expect(text.contains(width == 40 ? "+2 more, 1 new" : "(new)"))
        #expect(text.contains("(changed)"))
    }

    // MARK: - Layouts

    @Test func gridUsesTheLayoutsColumnCount() {
        let lines = TextRenderer(width: 120).lines(Snapshot(sections: [LibraryFixture.libraryBooks]))
        let topBorders = lines.first { $0.hasPrefix("┌") }!
        #expect(topBorders.filter { $0 == "┌" }.count == 4)
        let narrow = TextRenderer(width: 40).lines(Snapshot(sections: [LibraryFixture.libraryBooks]))
        #expect(narrow.filter { $0.hasPrefix("┌") }.allSatisfy { $0.filter { $0 == "┌" }.count == 1 })
    }

    @Test func rowShowsWhatFitsThenHowManyMore() {
        let section = LibraryFixture.clientBooks(LibraryFixture.clientBookItems)
        let narrow = TextRenderer(width: 40).render(Snapshot(sections: [section]))
        #expect(narrow.contains("+2 more"))
        #expect(narrow.contains("Dune"))
        #expect(!narrow.contains("Norwegian Wood"))
        let wide = TextRenderer(width: 120).render(Snapshot(sections: [section]))
        #expect(!wide.contains("more"))
        #expect(wide.contains("Norwegian Wood"))
    }

    @Test func listShowsOneBlockPerItemWithActionsAndBadges() {
        var section = LibraryFixture.libraryBooks
        section.layout = .list
        let text = TextRenderer(width: 60).render(Snapshot(sections: [section]))
        #expect(text.contains("  Take → librarycli take 8\n"))
        #expect(text.contains("  ✓ yours\n"))
        #expect(text.contains("  on loan until 2026-12-20\n"))
        #expect(text.hasPrefix("── Library (42) ─"))
    }

    @Test func oneMarkEverywhereAfterTheFirstLineOfListsAndCards() {
        var list = LibraryFixture.libraryBooks
        list.layout = .list
        let marks = ChangeMarks(
            insertedItems: ["book-8", "client-1"], updatedItems: ["book-9"],
            updatedSupplementaries: ["library-books-footer"])
        let lines = TextRenderer(width: 60).lines(Snapshot(sections: [LibraryFixture.clientInfo, list]), marks: marks)
        #expect(lines.contains { $0.hasPrefix("│ Hey John Doe! (new) ") && $0.hasSuffix(" │") })
        #expect(lines.contains("  Les Misérables (new)"))
        #expect(lines.contains("  紅樓夢 (changed)"))
        #expect(lines.contains("  Pride and Prejudice"))
        #expect(lines.suffix(4).first == "  Take → librarycli take 14")
        #expect(lines.suffix(2).first == "  Page 1 of 3 · 42 books (changed)")
        // No other mark is drawn: no `+` or `~` gutter anywhere.
        #expect(!lines.contains { $0.hasPrefix("+") || $0.hasPrefix("~") || $0.hasPrefix("│+") || $0.hasPrefix("│~") })
        let boxed = TextRenderer(width: 80).lines(LibraryFixture.screen, marks: LibraryFixture.takeMarks)
        #expect(boxed.contains { $0.contains("┌─ (new) ─") })
        #expect(boxed.contains { $0.contains("┌─ (changed) ─") })
    }

    @Test func aRowThatCannotShowEveryItemNamesTheCommandThatLists() {
        let narrow = TextRenderer(width: 60).lines(LibraryFixture.screen)
        #expect(narrow.contains { $0.hasSuffix("│ +2 more → librarycli loans") })
        #expect(!narrow.contains { $0.contains("All your books") })
        let wide = TextRenderer(width: 120).lines(LibraryFixture.screen)
        #expect(!wide.contains { $0.contains("librarycli loans") })
    }

    @Test func wholeScreenEmptyStateIsShownAlone() {
        let snapshot = Snapshot(
            sections: [LibraryFixture.clientBooks([]), Section(id: "library-books", whenEmpty: .hide)],
            emptyState: LibraryFixture.screenEmpty)
        let lines = TextRenderer(width: 80).lines(snapshot)
        #expect(lines == ["  The library is empty", "  Seed it with: librarycli seed"])
    }

    @Test("a disabled action shows why, dimmed, and no command to run", arguments: [20, 40, 80])
    func disabledActionShowsItsReason(width: Int) {
        let reason = "You have 5 of your 5 books; you cannot take 1 more book."
        let item = Item(
            id: "book-3", kind: "book", title: "Emma",
            actions: [Action(id: "take", title: "Take", command: "librarycli take 3", disabledReason: reason)])
        for layout in [Layout.list, .grid(minimumItemWidth: 16, spacing: 2)] {
            let section = Section(id: "books", layout: layout, items: [item])
            let text = TextRenderer(width: width).render(Snapshot(sections: [section]))
            #expect(!text.contains("librarycli take 3"), "\(layout) at \(width):\n\(text)")
            #expect(text.contains("Take:"), "\(layout) at \(width):\n\(text)")
            let words = text.split(whereSeparator: { " │\n".contains($0) }).joined(separator: " ")
            #expect(words.contains("cannot take 1 more book."), "\(layout) at \(width):\n\(text)")
        }
    }

    @Test(
        "a command too long for its line is folded, never cut, in lists, cards and supplementaries",
        arguments: [20, 33, 80])
    func longCommandsAreFoldedWhole(width: Int) {
        let command =
            "librarycli list --page 2 --per-page 1 --search 'harry potter and the order of the phoenix rowling'"
        let action = Action(id: "next", title: "Next page", command: command)
        let item = Item(id: "book-1", kind: "book", title: "Emma", actions: [action])
        for layout in [Layout.list, .grid(minimumItemWidth: 16, spacing: 2)] {
            let section = Section(
                id: "books", layout: layout, items: [item],
                footer: Supplementary(kind: .footer, id: "pages", title: "Page 1", actions: [action]))
            let lines = TextRenderer(width: width).lines(Snapshot(sections: [section]))
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
            #expect(!lines.joined().contains("…"), "\(layout) at \(width):\n\(lines.joined(separator: "\n"))")
            // Every character of the command is there, in order, once the borders and line breaks are taken out,
            // with the folds' continuations (`\`) and the quotes they close and open again.
            let shown = lines.joined().filter { !" │┌┐└┘─→\\'".contains($0) }
            #expect(shown.contains(command.filter { !" '".contains($0) }), "\(layout) at \(width)")
        }
    }

    @Test func widthIsClampedToTwenty() throws {
        let renderer = TextRenderer(width: 3)
        #expect(renderer.width == 20)
        try expectFits(renderer.render(LibraryFixture.screen), width: 20)
    }

    // MARK: - Safety

    @Test func controlCharactersInTitlesNeverReachTheTerminal() throws {
        let hostile = Item(
            id: "x", kind: "book", title: "Evil\u{1B}[2J\u{1B}]0;pwned\u{07}\nsecond line\r\u{9B}31m",
            subtitle: "tab\there", badges: [Badge(text: "\u{1B}[5mblink")],
            actions: [Action(id: "a", title: "Go\u{1B}", command: "rm\n-rf")])
        for style in Layout.Style.allCases {
            let snapshot = Snapshot(sections: [Section(id: "s", layout: Layout(style: style), items: [hostile])])
            let plain = TextRenderer(width: 50).render(snapshot)
            #expect(!plain.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 })
            #expect(!plain.contains("\r"))
            #expect(!plain.contains("Evil\n"))
            let colored = TextRenderer(width: 50, color: true).render(snapshot)
            #expect(!Self.strippingSGR(colored).unicodeScalars.contains { $0.value == 0x1B })
            try expectFits(plain, width: 50)
        }
    }

    @Test func rightToLeftTitlesAreIsolated() {
        let text = TextRenderer(width: 80).render(LibraryFixture.screen)
        #expect(text.contains("\u{2068}ألف ليلة وليلة\u{2069}"))
        let isolates = text.unicodeScalars.filter { $0.value == 0x2068 }.count
        #expect(isolates == text.unicodeScalars.filter { $0.value == 0x2069 }.count)
        #expect(isolates > 0)
    }

    @Test(arguments: widths)
    func colorDoesNotChangeTheLayout(width: Int) {
        let plain = TextRenderer(width: width).render(LibraryFixture.screen, marks: LibraryFixture.takeMarks)
        let colored = TextRenderer(width: width, color: true)
            .render(LibraryFixture.screen, marks: LibraryFixture.takeMarks)
        #expect(colored != plain)
        #expect(colored.contains("\u{1B}[1;33m(changed)\u{1B}[0m"))
        #expect(Self.strippingSGR(colored) == plain)
    }

    @Test func randomUnicodeTitlesNeverOverflow() throws {
        var random = SplitMix64(seed: 42)
        for round in 0..<60 {
            let items = (0..<Int.random(in: 0...7, using: &random)).map { index in
                Item(
                    id: "i\(index)", kind: "k", title: RandomText.make(using: &random),
                    subtitle: Bool.random(using: &random) ? RandomText.make(using: &random) : nil,
                    lines: [RandomText.make(using: &random)],
                    badges: [Badge(text: RandomText.make(using: &random), style: .warning)],
                    actions: [Action(id: "a", title: RandomText.make(using: &random), command: "cmd \(index)")])
            }
            let style = Layout.Style.allCases[round % 4]
            let section = Section(
                id: "s", layout: Layout(style: style, minimumItemWidth: Int.random(in: 1...40, using: &random)),
                items: items,
                header: Supplementary(kind: .header, id: "h", title: RandomText.make(using: &random), count: round),
                footer: Supplementary(kind: .footer, id: "f", title: RandomText.make(using: &random)),
                emptyState: Supplementary(kind: .empty, id: "e", title: RandomText.make(using: &random)))
            let width = Int.random(in: 20...130, using: &random)
            let marks = ChangeMarks(insertedItems: ["i0"], updatedItems: ["i1"], updatedSupplementaries: ["h"])
            let plain = TextRenderer(width: width).render(Snapshot(sections: [section]), marks: marks)
            try expectFits(plain, width: width)
            #expect(!plain.unicodeScalars.contains { $0.value == 0x1B })
            let colored = TextRenderer(width: width, color: true).render(Snapshot(sections: [section]), marks: marks)
            #expect(Self.strippingSGR(colored) == plain)
        }
    }

    // MARK: - Helpers

    @Test("any width is kept within minimumWidth...maximumWidth, and extreme layouts render within it")
    func extremeWidthsAndLayouts() throws {
        #expect(TextRenderer(width: .max).width == TextRenderer.maximumWidth)
        #expect(TextRenderer(width: .min).width == TextRenderer.minimumWidth)
        #expect(TextRenderer(width: TextRenderer.maximumWidth).width == TextRenderer.maximumWidth)
        let items = LibraryFixture.libraryBooks.items
        let layouts: [Layout] = [
            .grid(minimumItemWidth: .max), .grid(minimumItemWidth: 10, spacing: .max),
            .grid(minimumItemWidth: .max, spacing: .max), .row(cardWidth: .max), .row(cardWidth: 10, spacing: .max),
            .row(cardWidth: .max, spacing: .max), .grid(minimumItemWidth: 1, spacing: 0),
        ]
        for width in [Int.max, 80, 20, Int.min] {
            let renderer = TextRenderer(width: width, color: false)
            for layout in layouts {
                let snapshot = Snapshot(sections: [Section(id: "s", layout: layout, items: items)])
                let text = renderer.render(snapshot)
                try expectFits(text, width: renderer.width)
                #expect(text.contains("┌"), "\(layout) at \(width)")
            }
            // A gap wider than the line fits no two items either: drawn as one item per line, like a gap of the width.
            let huge = renderer.render(
                Snapshot(sections: [Section(id: "s", layout: .grid(spacing: .max), items: items)]))
            let wide = renderer.render(
                Snapshot(sections: [Section(id: "s", layout: .grid(spacing: renderer.width), items: items)]))
            #expect(huge == wide)
        }
        try expectFits(TextRenderer(width: .max).render(LibraryFixture.screen), width: TextRenderer.maximumWidth)
    }

    private func expectFits(_ text: String, width: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(text.hasSuffix("\n"), sourceLocation: sourceLocation)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let cells = DisplayWidth.of(String(line))
            #expect(cells <= width, "\(cells) > \(width): \(line)", sourceLocation: sourceLocation)
            #expect(!line.contains("\r"), sourceLocation: sourceLocation)
        }
    }

    /// The text without `ESC [ … m` sequences.
    static func strippingSGR(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\u{1B}" {
                guard let next = scalars.next(), next == "[" else {
                    out.append(scalar)
                    continue
                }
                while let parameter = scalars.next(), parameter != "m" {}
                continue
            }
            out.append(scalar)
        }
        return String(out)
    }
}
