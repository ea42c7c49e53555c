/// What one read of the library gathers for one client's screen: plain values, no SQLite.
///
/// `LibraryScreen.snapshot(from:)` turns it into sections; `LibraryScreen.load(...)` fills it from the store.
///
/// For example:
///
///     let data = ScreenData(
///         client: .init(id: 1, name: "John Doe", cardNumber: "C-0001", loanLimit: 5),
///         heldBooks: [], catalog: .init(books: [], page: 1, perPage: 20, totalCount: 0))
public struct ScreenData: Hashable, Sendable {
    /// The client whose screen this is.
    public struct Client: Hashable, Sendable {
        public var id: Int
        public var name: String
        public var cardNumber: String
        public var loanLimit: Int

        /// Creates the client part.
        ///
        ///     ScreenData.Client(id: 1, name: "John Doe", cardNumber: "C-0001", loanLimit: 5)
        public init(id: Int, name: String, cardNumber: String, loanLimit: Int) {
            self.id = id
            self.name = name
            self.cardNumber = cardNumber
            self.loanLimit = loanLimit
        }
    }

    /// The facts about a book that the screen shows.
    public struct Book: Hashable, Sendable {
        public var id: Int
        public var title: String
        public var author: String
        public var year: Int?
        public var pages: Int?
        public var description: String

        /// Creates a book.
        ///
        ///     ScreenData.Book(id: 12, title: "Dune", author: "Frank Herbert", year: 1965, pages: 412)
        public init(
            id: Int, title: String, author: String, year: Int? = nil, pages: Int? = nil, description: String = ""
        ) {
            self.id = id
            self.title = title
            self.author = author
            self.year = year
            self.pages = pages
            self.description = description
        }
    }

    /// A book the client holds, with its due date (UTC ISO-8601).
    public struct HeldBook: Hashable, Sendable {
        public var book: Book
        public var dueAt: String
        public var isOverdue: Bool
        public var renewals: Int

        /// Creates a held book.
        ///
        ///     ScreenData.HeldBook(book: dune, dueAt: "2026-12-13T10:00:00Z", isOverdue: false)
        public init(book: Book, dueAt: String, isOverdue: Bool, renewals: Int = 0) {
            self.book = book
            self.dueAt = dueAt
            self.isOverdue = isOverdue
            self.renewals = renewals
        }
    }

    /// Whether a catalog book can be taken, and by whom it is held.
    public enum Availability: Hashable, Sendable {
        case available
        /// Held by this client, due then.
        case yours(dueAt: String)
        /// Held by another client, due then.
        case onLoan(dueAt: String)
        case lost
        case withdrawn
    }

    /// A book of the library's catalog and its availability for this client.
    public struct CatalogBook: Hashable, Sendable {
        public var book: Book
        public var availability: Availability

        /// Creates a catalog book.
        ///
        ///     ScreenData.CatalogBook(book: dune, availability: .available)
        public init(book: Book, availability: Availability) {
            self.book = book
            self.availability = availability
        }
    }

    /// One page of the catalog (or of a search).
    public struct Catalog: Hashable, Sendable {
        public var books: [CatalogBook]
        /// The page shown, from 1.
        public var page: Int
        /// Books per page, or nil when every book is shown (`--all`).
        public var perPage: Int?
        /// How many books there are in all (matching the search, if any).
        public var totalCount: Int
        /// The search text, if the catalog was searched.
        public var search: String?

        /// Creates a catalog page.
        ///
        ///     ScreenData.Catalog(books: books, page: 2, perPage: 20, totalCount: 42)
        public init(books: [CatalogBook], page: Int, perPage: Int?, totalCount: Int, search: String? = nil) {
            self.books = books
            self.page = page
            self.perPage = perPage
            self.totalCount = totalCount
            self.search = search
        }

        /// How many pages there are in all, at least 1.
        ///
        ///     ScreenData.Catalog(books: [], page: 1, perPage: 20, totalCount: 42).pageCount  // 3
        public var pageCount: Int {
            guard let perPage, perPage > 0 else { return 1 }
            return max(1, (totalCount + perPage - 1) / perPage)
        }
    }

    public var client: Client
    /// The client's open loans, oldest first.
    public var heldBooks: [HeldBook]
    public var catalog: Catalog

    /// Creates screen data.
    ///
    ///     ScreenData(client: john, heldBooks: [], catalog: page)
    public init(client: Client, heldBooks: [HeldBook], catalog: Catalog) {
        self.client = client
        self.heldBooks = heldBooks
        self.catalog = catalog
    }
}
