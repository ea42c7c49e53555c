import Library

extension ScreenData {
    /// Which part of the catalog the screen shows.
    public enum CatalogRange: Hashable, Sendable {
        /// Page `page` (from 1) of `perPage` books.
        case page(Int, perPage: Int)
        /// Every book on one page.
        case all
    }

    /// Reads everything one client's screen shows in one read transaction: the client, the books they hold, and
    /// the asked part of the catalog (or of a search) with each book's availability.
    ///
    /// - throws: `LibraryError.noSuchClient` for an unknown client; `SQLiteError` when the database fails.
    ///
    ///     let data = try ScreenData.load(from: store, clientID: 1, range: .page(1, perPage: 20), now: now)
    public static func load(
        from store: LibraryStore, clientID: Int, range: CatalogRange, search: String? = nil, now: Timestamp
    ) throws -> ScreenData {
        try store.read { store in
            let (page, perPage): (Int, Int)
            switch range {
            case .page(let number, let size): (page, perPage) = (number, size)
            case .all: (page, perPage) = (1, max(1, try store.bookCount()))
            }
            let screen = try store.clientScreen(
                clientID: clientID, page: page, perPage: perPage, now: now, search: search)
            return ScreenData(screen, showsAll: range == .all)
        }
    }

    /// The screen data of what the store read.
    ///
    ///     let data = ScreenData(try store.clientScreen(clientID: 1, page: 1, perPage: 20, now: now))
    public init(_ screen: ClientScreen, showsAll: Bool = false) {
        let client = screen.summary.client
        self.init(
            client: Client(
                id: client.id, name: client.name, cardNumber: client.cardNumber, loanLimit: client.loanLimit),
            heldBooks: screen.loans.map { loaned in
                HeldBook(
                    book: Book(loaned.book), dueAt: loaned.loan.dueAt.iso8601, isOverdue: loaned.isOverdue,
                    renewals: loaned.loan.renewals)
            },
            catalog: Catalog(
                books: screen.library.entries.map {
                    CatalogBook(book: Book($0.book), availability: Availability($0.availability))
                },
                page: screen.library.page, perPage: showsAll ? nil : screen.library.perPage,
                totalCount: screen.library.totalCount, search: screen.library.search))
    }
}

extension ScreenData.Book {
    /// The screen's view of a library book.
    ///
    ///     ScreenData.Book(book)
    public init(_ book: Library.Book) {
        self.init(
            id: book.id, title: book.title, author: book.author, year: book.year, pages: book.pages,
            description: book.description)
    }
}

extension ScreenData.Availability {
    /// The screen's view of a book's availability.
    ///
    ///     ScreenData.Availability(.heldByYou(dueAt: due))  // .yours(dueAt: "2026-12-13T10:00:00Z")
    public init(_ availability: Library.Availability) {
        switch availability {
        case .available: self = .available
        case .heldByYou(let dueAt): self = .yours(dueAt: dueAt.iso8601)
        case .onLoan(let dueAt): self = .onLoan(dueAt: dueAt.iso8601)
        case .lost: self = .lost
        case .withdrawn: self = .withdrawn
        }
    }
}
