import Formats
import Library
import Sections

/// The screen a client sees, as three sections: `client-info`, `client-books` and `library-books`.
///
/// This is where the library's facts meet the generic sections: the article's greeting and messages, the row of the
/// client's books with a return action each and an empty state, and the paged grid of the library's books with a
/// checkmark on the client's own. It knows nothing of terminals or JSON; renderers draw what it builds.
///
/// For example:
///
///     let screen = LibraryScreen.snapshot(from: data)
///     screen.visibleSections.map(\.id)  // ["client-info", "client-books", "library-books"]
public enum LibraryScreen {
    /// The section identifiers, stable across versions: fronts may rely on them.
    public enum SectionID {
        public static let clientInfo = "client-info"
        public static let clientBooks = "client-books"
        public static let libraryBooks = "library-books"
    }

    /// How many library books a page shows unless asked otherwise.
    public static let defaultPerPage = 20

    /// The item identifier of a book in the client's row (`client-book-12`).
    ///
    ///     LibraryScreen.clientBookItemID(12)  // "client-book-12"
    public static func clientBookItemID(_ bookID: Int) -> String { "client-book-\(bookID)" }

    /// The item identifier of a book in the library grid (`book-12`).
    ///
    ///     LibraryScreen.libraryBookItemID(12)  // "book-12"
    public static func libraryBookItemID(_ bookID: Int) -> String { "book-\(bookID)" }

    /// Builds the three sections from what was read for one client.
    ///
    /// - parameter screen: the client, the books they hold and a page of the catalog, as `load` reads them.
    /// - parameter showsAll: whether the page is the whole catalog (`--all`): no paging footer then.
    /// - parameter program: how commands in actions and hints are spelled, `librarycli` by default.
    ///
    ///     let snapshot = LibraryScreen.snapshot(from: try store.clientScreen(clientID: 1, page: 1, perPage: 20, now: now))
    public static func snapshot(from screen: ClientScreen, showsAll: Bool = false, program: String = "librarycli")
        -> Snapshot
    {
        build(screen, showsAll: showsAll, program: program).snapshot
    }

    /// The article's message for a client holding `held` books out of `limit`, `overdue` of them past due.
    ///
    ///     LibraryScreen.message(held: 0, limit: 5)
    ///     // "You have 0 books out of 5. Time to find your best book!"
    ///     LibraryScreen.message(held: 3, limit: 5, overdue: 2)
    ///     // "You have 2 overdue books: please return them. You hold 3 books out of 5."
    ///     LibraryScreen.message(held: 0, limit: 0)
    ///     // "You have 0 books out of 0. Your card does not allow borrowing books right now."
    public static func message(held: Int, limit: Int, overdue: Int = 0) -> String {
        let books = counted(held, "book")
        if overdue > 0 {
            let late =
                overdue == 1 ? "1 overdue book: please return it" : "\(overdue) overdue books: please return them"
            return "You have \(late). You hold \(books) out of \(limit)."
        }
        let counted = "You have \(books) out of \(limit)."
        if limit == 0 {
            return counted + " Your card does not allow borrowing books right now."
        } else if held >= limit {
            return counted + " You can't take more books: return at least one first."
        } else if held == 0 {
            return counted + " Time to find your best book!"
        } else {
            return counted + " Don't forget to return \(held == 1 ? "it" : "them") on time."
        }
    }

    /// A year as the screen writes it: `1965`, or `725 BC` before the common era.
    ///
    ///     LibraryScreen.yearText(-725)  // "725 BC"
    public static func yearText(_ year: Int) -> String {
        year < 0 ? "\(-year) BC" : "\(year)"
    }

    /// The command that lists all of the client's open loans, named where the screen cannot show them all.
    ///
    ///     LibraryScreen.loansCommand(program: "librarycli")  // "librarycli loans"
    public static func loansCommand(program: String) -> String { "\(program) loans" }

    // MARK: - Sections

    static func clientInfoSection(_ screen: ClientScreen) -> Section {
        let client = screen.summary.client
        let held = screen.summary.booksHeld
        let overdue = screen.summary.overdueCount
        var badges: [Badge] = []
        if overdue > 0 {
            badges.append(Badge(text: "\(overdue) overdue", style: .warning))
        }
        if LibraryRules.loanLimitRefusal(held: held, limit: client.loanLimit) != nil {
            badges.append(Badge(text: "limit reached", style: .muted))
        }
        let item = Item(
            id: "client-\(client.id)", kind: "client", title: "Hey \(client.name)!",
            subtitle: "Card \(client.cardNumber)",
            lines: [message(held: held, limit: client.loanLimit, overdue: overdue)],
            badges: badges,
            fields: [
                Field("clientId", .int(client.id)), Field("name", .string(client.name)),
                Field("cardNumber", .string(client.cardNumber)), Field("booksHeld", .int(held)),
                Field("loanLimit", .int(client.loanLimit)), Field("overdue", .int(overdue)),
            ])
        return Section(id: SectionID.clientInfo, layout: .card, items: [item])
    }

    static func clientBooksSection(_ screen: ClientScreen, program: String, reusing previous: BuiltScreen? = nil)
        -> Section
    {
        let items = reusedItems(
            screen.loans, previous: previous.map { ($0.screen.loans, $0.snapshot.sections[1].items) },
            id: \.book.id
        ) { clientBookItem($0, program: program, screenQuery: ActionRequests.screenQuery(of: screen.library)) }
        return Section(
            id: SectionID.clientBooks, layout: .row(cardWidth: 26, spacing: 2), items: items,
            // A row shows as many cards as fit; `show-all` names the command that lists every loan (the text
            // renderer writes it on the row's "+N more" line).
            header: Supplementary(
                kind: .header, id: "client-books-header", title: "Your books",
                actions: items.isEmpty
                    ? []
                    : [
                        Action(
                            id: "show-all", title: "All your books", command: loansCommand(program: program),
                            request: ActionRequests.loans)
                    ]),
            emptyState: Supplementary(
                kind: .empty, id: "client-books-empty", title: "You don't have any books right now!",
                // A client who may not take any book is told why, not how; nothing to pick when the library below
                // shows no book (an empty library, a search without a match, a page past the end).
                lines: takeRefusal(screen).map { [$0] }
                    ?? (screen.library.entries.isEmpty
                        ? [] : ["Pick one from the library below: \(program) take <book-id>"])))
    }

    static func clientBookItem(_ held: LoanedBook, program: String, screenQuery: String = "") -> Item {
        let book = held.book
        let due = held.loan.dueAt.date
        return Item(
            id: clientBookItemID(book.id), kind: "book", title: book.title,
            subtitle: byline(book), subtitleKeptTail: bylineKeptTail(book),
            lines: ["Due \(due)"],
            badges: held.isOverdue ? [Badge(text: "overdue", style: .warning)] : [],
            actions: [
                Action(
                    id: "return", title: "Return", command: "\(program) return \(book.id)",
                    request: ActionRequests.returnBook(book.id, screenQuery: screenQuery)),
                // One more loan period, or why not (overdue, or renewed as often as the rules allow).
                Action(
                    id: "renew", title: "Renew", command: "\(program) renew \(book.id)",
                    request: ActionRequests.renew(book.id, screenQuery: screenQuery),
                    disabledReason: LibraryRules.renewalRefusal(
                        of: held.loan, book: book, isOverdue: held.isOverdue
                    ).map(renewalReason)),
            ],
            fields: [
                Field("bookId", .int(book.id)), Field("dueAt", .string(held.loan.dueAt.iso8601)),
                Field("overdue", .bool(held.isOverdue)), Field("renewals", .int(held.loan.renewals)),
            ])
    }

    /// A renewal's refusal as a book's card says it: the card names the book, so the reason does not.
    static func renewalReason(_ refusal: LibraryError) -> String {
        switch refusal {
        case .overdue: "It is overdue: please return it."
        case .renewalLimitReached(_, _, let limit): "Renewed \(limit) times already: please return it."
        default: refusal.message
        }
    }

    static func libraryBooksSection(
        _ screen: ClientScreen, showsAll: Bool, program: String, reusing previous: BuiltScreen? = nil
    ) -> Section {
        let catalog = screen.library
        // At the loan limit every Take says why it cannot be used (the store's own refusal), before anyone taps it.
        let takeRefusal = self.takeRefusal(screen)
        // A book's card is a function of its entry and of the Take's refusal: the previous version's cards are
        // copied where both are the same.
        let reusable = previous.flatMap { previous in
            self.takeRefusal(previous.screen) == takeRefusal
                ? (previous.screen.library.entries, previous.snapshot.sections[2].items) : nil
        }
        let screenQuery = ActionRequests.screenQuery(of: catalog)
        let items = reusedItems(catalog.entries, previous: reusable, id: \.book.id) {
            libraryItem($0, takeRefusal: takeRefusal, program: program, screenQuery: screenQuery)
        }
        let header = Supplementary(
            kind: .header, id: "library-books-header",
            // The search text gives way to the closing quote and the count when the line is short.
            title: catalog.search.map { "Library: books matching “\($0)”" } ?? "Library",
            titleKeptTail: catalog.search == nil ? 0 : 1, count: catalog.totalCount,
            actions: [
                Action(
                    id: "search", title: "Search", command: "\(program) list --search <text>",
                    request: ActionRequests.search(perPage: catalog.perPage))
            ])
        return Section(
            id: SectionID.libraryBooks, layout: .grid(minimumItemWidth: 28, spacing: 2), items: items,
            header: header, footer: footer(catalog, showsAll: showsAll, program: program),
            emptyState: emptyCatalog(catalog, program: program))
    }

    // MARK: - Private

    /// Why no Take can be used on this screen (the loan limit is reached), if so.
    static func takeRefusal(_ screen: ClientScreen) -> String? {
        LibraryRules.loanLimitRefusal(held: screen.summary.booksHeld, limit: screen.summary.client.loanLimit)?.message
    }

    static func libraryItem(
        _ entry: LibraryEntry, takeRefusal: String?, program: String, screenQuery: String = ""
    ) -> Item {
        let book = entry.book
        // Each array made at its final size: growing them cost more than filling them.
        var lines: [String] = []
        lines.reserveCapacity(2)
        if let pages = book.pages { lines.append(counted(pages, "page")) }
        if !book.description.isEmpty { lines.append(book.description) }
        var badges: [Badge] = []
        var actions: [Action] = []
        actions.reserveCapacity(1)
        var fields: [Field] = []
        fields.reserveCapacity(5)
        fields.append(Field("bookId", .int(book.id)))
        switch entry.availability {
        case .available:
            actions.append(
                Action(
                    id: "take", title: "Take", command: "\(program) take \(book.id)",
                    request: ActionRequests.take(book.id, screenQuery: screenQuery), disabledReason: takeRefusal))
            fields.append(Field("availability", .string(entry.availability.name)))
        case .heldByYou(let dueAt):
            badges.append(Badge(text: "✓ yours", style: .positive))
            actions.append(
                Action(
                    id: "return", title: "Return", command: "\(program) return \(book.id)",
                    request: ActionRequests.returnBook(book.id, screenQuery: screenQuery)))
            fields.append(Field("availability", .string(entry.availability.name)))
            fields.append(Field("dueAt", .string(dueAt.iso8601)))
        case .onLoan(let dueAt):
            badges.append(Badge(text: "on loan, due back \(dueAt.date)", style: .muted))
            fields.append(Field("availability", .string(entry.availability.name)))
            fields.append(Field("dueAt", .string(dueAt.iso8601)))
        case .lost:
            badges.append(Badge(text: "lost", style: .muted))
            fields.append(Field("availability", .string(entry.availability.name)))
        case .withdrawn:
            badges.append(Badge(text: "withdrawn", style: .muted))
            fields.append(Field("availability", .string(entry.availability.name)))
        }
        if let year = book.year { fields.append(Field("year", .int(year))) }
        if let pages = book.pages { fields.append(Field("pages", .int(pages))) }
        return Item(
            id: libraryBookItemID(book.id), kind: "book", title: book.title, subtitle: byline(book),
            subtitleKeptTail: bylineKeptTail(book), lines: lines, badges: badges, actions: actions, fields: fields)
    }

    private static func footer(_ catalog: LibraryPage, showsAll: Bool, program: String) -> Supplementary? {
        guard !catalog.entries.isEmpty else { return nil }
        let books = counted(catalog.totalCount, "book")
        guard !showsAll else {
            return Supplementary(kind: .footer, id: "library-books-footer", title: "All \(books)")
        }
        let perPage = catalog.perPage
        let title = "Page \(catalog.page) of \(catalog.pageCount) · \(books)"
        var actions: [Action] = []
        func page(_ number: Int) -> String {
            "\(program) list --page \(number)\(perPageArgument(perPage))\(searchArgument(catalog))"
        }
        if catalog.page > 1 && catalog.page <= catalog.pageCount {
            actions.append(
                Action(
                    id: "previous-page", title: "Previous page", command: page(catalog.page - 1),
                    request: ActionRequests.screen(page: catalog.page - 1, perPage: perPage, search: catalog.search)))
        }
        if catalog.hasNextPage {
            actions.append(
                Action(
                    id: "next-page", title: "Next page", command: page(catalog.page + 1),
                    request: ActionRequests.screen(page: catalog.page + 1, perPage: perPage, search: catalog.search)))
            // Load more: the same books and the next page's after them, in the same order (pages are keyed on the
            // book id, so what is shown never reorders).
            if catalog.page == 1 && perPage * 2 <= 10_000 {
                let more = "\(program) list --per-page \(perPage * 2)\(searchArgument(catalog))"
                actions.append(
                    Action(
                        id: "load-more", title: "Load more", command: more,
                        request: ActionRequests.screen(page: nil, perPage: perPage * 2, search: catalog.search)))
            }
        }
        return Supplementary(
            kind: .footer, id: "library-books-footer", title: title, actions: actions,
            fields: [
                Field("page", .int(catalog.page)), Field("pageCount", .int(catalog.pageCount)),
                Field("totalCount", .int(catalog.totalCount)),
            ])
    }

    private static func emptyCatalog(_ catalog: LibraryPage, program: String) -> Supplementary {
        if let search = catalog.search, catalog.totalCount > 0 {
            // Books match, but this page is after the last one of them.
            let last = max(catalog.pageCount, 1)
            let command = "\(program) list --page \(last)\(perPageArgument(catalog.perPage))\(searchArgument(catalog))"
            return pastTheEnd(
                catalog,
                title: "Page \(catalog.page) is past the end: \(counted(catalog.totalCount, "book")) "
                    + "\(catalog.totalCount == 1 ? "matches" : "match") “\(search)”, on "
                    + "\(counted(last, "page")).",
                to: "last page", id: "last-page", command: command,
                request: ActionRequests.screen(page: last, perPage: catalog.perPage, search: search))
        }
        if let search = catalog.search {
            return Supplementary(
                kind: .empty, id: "library-books-empty", title: "No books match “\(search)”.",
                lines: ["Try other words, or see every book: \(program) list"])
        }
        if catalog.totalCount == 0 {
            return Supplementary(
                kind: .empty, id: "library-books-empty", title: "The library has no books yet.",
                lines: ["Add the demo catalog: \(program) seed", "Or import yours: \(program) import books.csv"])
        }
        return pastTheEnd(
            catalog,
            title:
                "Page \(catalog.page) is past the end: there \(catalog.pageCount == 1 ? "is 1 page" : "are \(catalog.pageCount) pages").",
            to: "first page", id: "first-page", command: "\(program) list\(perPageArgument(catalog.perPage))",
            request: ActionRequests.screen(page: nil, perPage: catalog.perPage, search: nil))
    }

    /// The empty state of a page past the end: what it says, the one action back (`to`, such as "last page"), and
    /// where the catalog stands (`page`, `pageCount`, `totalCount`). The action carries the command (the terminal
    /// writes "Last page → librarycli list --page 2"), so no line repeats it.
    private static func pastTheEnd(
        _ catalog: LibraryPage, title: String, to place: String, id: String, command: String,
        request: Action.Request
    ) -> Supplementary {
        Supplementary(
            kind: .empty, id: "library-books-empty", title: title,
            actions: [
                Action(
                    id: id, title: place.prefix(1).uppercased() + place.dropFirst(), command: command, request: request)
            ],
            fields: [
                Field("page", .int(catalog.page)), Field("pageCount", .int(catalog.pageCount)),
                Field("totalCount", .int(catalog.totalCount)),
            ])
    }

    /// `1 book`, `2 books`.
    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private static func perPageArgument(_ perPage: Int) -> String {
        perPage == defaultPerPage ? "" : " --per-page \(perPage)"
    }

    private static func searchArgument(_ catalog: LibraryPage) -> String {
        guard let search = catalog.search else { return "" }
        return " --search " + shellQuoted(search)
    }

    /// How many characters at the end of the byline stay whole on a narrow card: the year and the ` · ` before it
    /// (`Miguel de Cerva… · 1605`), so the author gives way and the year is never cut.
    private static func bylineKeptTail(_ book: Book) -> Int {
        guard let year = book.year else { return 0 }
        return yearText(year).utf8.count + (book.author.isEmpty ? 0 : 3)
    }

    /// `Frank Herbert · 1965`, or what of it is known; years before the common era read `720 BC`.
    private static func byline(_ book: Book) -> String? {
        // Put together directly: `joined(separator:)` on an array of two cost several thousand instructions a book.
        switch (book.author.isEmpty, book.year.map(yearText)) {
        case (true, nil): return nil
        case (true, let year?): return year
        case (false, nil): return book.author
        case (false, let year?):
            // One string of the right size: "+" made two, and appending the non-ASCII "·" took a slow path.
            var author = book.author
            var year = year
            return author.withUTF8 { author in
                year.withUTF8 { year in
                    let separator: [UInt8] = [0x20, 0xC2, 0xB7, 0x20]  // " · "
                    return String(unsafeUninitializedCapacity: author.count + separator.count + year.count) { text in
                        var end = text.initialize(fromContentsOf: author)
                        end = text[end...].initialize(fromContentsOf: separator)
                        return text[end...].initialize(fromContentsOf: year)
                    }
                }
            }
        }
    }
}

/// Quotes a word for a POSIX shell when it needs quoting, so the hints on screen can be pasted as they are. A word
/// holding a character a terminal does not show as it is (a control character, a line or paragraph separator, a
/// bidirectional control, which the text on screen leaves out or replaces) is written with escapes, `$'...'` (bash,
/// zsh, ksh), so that the hint still names the same file.
///
///     shellQuoted("my library.sqlite")  // "'my library.sqlite'"
///     shellQuoted("ta\tb.db")           // "$'ta\\tb.db'"
public func shellQuoted(_ word: String) -> String {
    let safe = word.unicodeScalars.allSatisfy { scalar in
        (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A)
            || (scalar.value >= 0x61 && scalar.value <= 0x7A) || "-_./:@,+".unicodeScalars.contains(scalar)
    }
    if safe && !word.isEmpty { return word }
    guard word.unicodeScalars.contains(where: isUnseen) else { return "'" + word.replacing("'", with: "'\\''") + "'" }
    var quoted = "$'"
    for scalar in word.unicodeScalars {
        switch scalar {
        case "\\": quoted += "\\\\"
        case "'": quoted += "\\'"
        case "\t": quoted += "\\t"
        case "\n": quoted += "\\n"
        case "\r": quoted += "\\r"
        case _ where isUnseen(scalar):
            let hex = String(scalar.value, radix: 16)
            quoted +=
                scalar.value < 0x80
                ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: quoted.unicodeScalars.append(scalar)
        }
    }
    return quoted + "'"
}

/// Whether a terminal shows `scalar` other than as it is (see `TerminalText.sanitized`).
private func isUnseen(_ scalar: Unicode.Scalar) -> Bool {
    ControlCharacter(scalar) != nil
}
