import Rendering
import Sections

/// The library screen's shape, as the article draws it: client info card, the client's books row, the library grid.
enum LibraryFixture {
    static let clientInfo = Section(
        id: "client-info", layout: .card,
        items: [
            Item(
                id: "client-1", kind: "client", title: "Hey John Doe!", subtitle: "Member since 2024-03-02",
                lines: ["3 books on loan · 1 overdue"],
                fields: [Field("clientId", .int(1)), Field("name", .string("John Doe"))])
        ],
        header: Supplementary(kind: .header, id: "client-info-header", title: "Your account"))

    static let clientBookItems = [
        Item(
            id: "client-book-12", kind: "book", title: "Dune", subtitle: "Frank Herbert", lines: ["due 2026-12-13"],
            actions: [
                Action(
                    id: "return", title: "Return", command: "librarycli return 12",
                    request: Action.Request(method: "DELETE", href: "/v1/loans/12"))
            ],
            fields: [Field("bookId", .int(12)), Field("dueAt", .string("2026-12-13"))]),
        Item(
            id: "client-book-7", kind: "book", title: "Crime and Punishment", subtitle: "Fyodor Dostoevsky",
            lines: ["due 2026-11-02"], badges: [Badge(text: "overdue", style: .warning)],
            actions: [Action(id: "return", title: "Return", command: "librarycli return 7")],
            fields: [Field("bookId", .int(7)), Field("dueAt", .string("2026-11-02"))]),
        Item(
            id: "client-book-31", kind: "book", title: "Norwegian Wood", subtitle: "Haruki Murakami",
            lines: ["due 2027-01-05"],
            actions: [Action(id: "return", title: "Return", command: "librarycli return 31")],
            fields: [Field("bookId", .int(31)), Field("dueAt", .string("2027-01-05"))]),
    ]

    static func clientBooks(_ items: [Item]) -> Section {
        Section(
            id: "client-books", layout: .row(cardWidth: 26), items: items,
            header: Supplementary(
                kind: .header, id: "client-books-header", title: "Your books", count: items.count,
                actions: [
                    Action(id: TextRenderer.showAllActionID, title: "All your books", command: "librarycli loans")
                ]),
            emptyState: Supplementary(
                kind: .empty, id: "client-books-empty", title: "You don't have any books right now!",
                lines: ["Take one from the library below."]))
    }

    static func libraryBook(
        _ id: Int, _ title: String, _ author: String, badges: [Badge] = [], canTake: Bool = true
    ) -> Item {
        Item(
            id: "book-\(id)", kind: "book", title: title, subtitle: author, badges: badges,
            actions: canTake
                ? [
                    Action(
                        id: "take", title: "Take", command: "librarycli take \(id)",
                        request: Action.Request(
                            method: "POST", href: "/v1/loans", body: .object([("bookIds", .array([.int(id)]))])))
                ] : [],
            fields: [Field("bookId", .int(id)), Field("available", .bool(canTake))])
    }

    static let libraryBooks = Section(
        id: "library-books", layout: .grid(minimumItemWidth: 28),
        items: [
            libraryBook(
                12, "Dune", "Frank Herbert", badges: [Badge(text: "✓ yours", style: .positive)], canTake: false),
            libraryBook(
                3, "The Left Hand of Darkness", "Ursula K. Le Guin",
                badges: [Badge(text: "on loan until 2026-12-20", style: .muted)], canTake: false),
            libraryBook(
                5, "One Hundred Years of Solitude: The Illustrated Anniversary Edition", "Gabriel García Márquez"),
            libraryBook(8, "Les Misérables", "Victor Hugo"),
            libraryBook(9, "紅樓夢", "曹雪芹 (Cao Xueqin)"),
            libraryBook(10, "ألف ليلة وليلة", "Anonymous"),
            libraryBook(11, "Pride and Prejudice", "Jane Austen"),
            libraryBook(14, "The Master and Margarita", "Mikhail Bulgakov"),
        ],
        header: Supplementary(
            kind: .header, id: "library-books-header", title: "Library", count: 42,
            actions: [Action(id: "search", title: "Search", command: "librarycli list --search <text>")]),
        footer: Supplementary(
            kind: .footer, id: "library-books-footer", title: "Page 1 of 3 · 42 books",
            actions: [Action(id: "next-page", title: "Next page", command: "librarycli list --page 2")],
            fields: [Field("page", .int(1)), Field("pageCount", .int(3))]))

    static let screenEmpty = Supplementary(
        kind: .empty, id: "screen-empty", title: "The library is empty", lines: ["Seed it with: librarycli seed"])

    /// The full screen: the client holds three books.
    static let screen = Snapshot(
        sections: [clientInfo, clientBooks(clientBookItems), libraryBooks], emptyState: screenEmpty)

    /// The same screen while the client holds no books.
    static let screenWithoutLoans = Snapshot(
        sections: [clientInfo, clientBooks([]), libraryBooks], emptyState: screenEmpty)

    /// The marks `librarycli take 31` would produce: a new card in the row, a changed grid cell, headers and the
    /// client's card.
    static let takeMarks = ChangeMarks(
        insertedItems: ["client-book-31"], updatedItems: ["book-12", "client-1"],
        updatedSupplementaries: ["client-books-header", "library-books-header"])
}
