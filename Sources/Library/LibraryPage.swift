/// What a viewer can do with a book right now.
///
/// ```swift
/// switch entry.availability {
/// case .available: print("on the shelf")
/// case .heldByYou(let due): print("yours until \(due.date)")
/// default: break
/// }
/// ```
public enum Availability: Sendable, Hashable {
    /// On the shelf.
    case available
    /// On loan to the viewing client.
    case heldByYou(dueAt: Timestamp)
    /// On loan to another client.
    case onLoan(dueAt: Timestamp)
    /// Lost.
    case lost
    /// Withdrawn from the collection.
    case withdrawn

    /// The name JSON documents give it (the screen's book items, `serve`'s books, `--json books`): `available`,
    /// `yours`, `on-loan`, `lost` or `withdrawn`.
    ///
    /// ```swift
    /// Availability.onLoan(dueAt: due).name  // "on-loan"
    /// ```
    public var name: String {
        switch self {
        case .available: "available"
        case .heldByYou: "yours"
        case .onLoan: "on-loan"
        case .lost: "lost"
        case .withdrawn: "withdrawn"
        }
    }

    /// When the loan ends, for a book on loan; nil otherwise.
    ///
    /// ```swift
    /// entry.availability.dueAt?.iso8601  // "2026-12-13T10:00:00Z"
    /// ```
    public var dueAt: Timestamp? {
        switch self {
        case .heldByYou(let due), .onLoan(let due): due
        case .available, .lost, .withdrawn: nil
        }
    }
}

/// A book with its availability for the viewing client.
///
/// ```swift
/// for entry in page.entries { print(entry.book.title, entry.availability) }
/// ```
public struct LibraryEntry: Sendable, Hashable {
    /// The book.
    public var book: Book
    /// Its availability for the viewer.
    public var availability: Availability

    /// Creates an entry.
    ///
    /// ```swift
    /// LibraryEntry(book: book, availability: .available)
    /// ```
    public init(book: Book, availability: Availability) {
        self.book = book
        self.availability = availability
    }
}

/// One page of the library's books (all books, or those matching a search).
///
/// ```swift
/// let page = try store.libraryPage(page: 2, perPage: 20, viewerID: 1)
/// print("page \(page.page) of \(page.pageCount), \(page.totalCount) books")
/// ```
public struct LibraryPage: Sendable, Hashable {
    /// The books on this page: by id, or best match first for a search.
    public var entries: [LibraryEntry]
    /// The 1-based page number.
    public var page: Int
    /// Books per page.
    public var perPage: Int
    /// How many books there are in all (or match the search).
    public var totalCount: Int
    /// The search text, nil for the whole library.
    public var search: String?

    /// Creates a page.
    ///
    /// ```swift
    /// LibraryPage(entries: [], page: 1, perPage: 20, totalCount: 0, search: nil)
    /// ```
    public init(entries: [LibraryEntry], page: Int, perPage: Int, totalCount: Int, search: String?) {
        self.entries = entries
        self.page = page
        self.perPage = perPage
        self.totalCount = totalCount
        self.search = search
    }

    /// The number of pages (at least 1, even when empty).
    ///
    /// ```swift
    /// page.pageCount
    /// ```
    public var pageCount: Int { max(1, (totalCount + perPage - 1) / perPage) }

    /// Whether a later page exists.
    ///
    /// ```swift
    /// if page.hasNextPage { ... }
    /// ```
    public var hasNextPage: Bool { page < pageCount }

    /// Whether an earlier page exists.
    ///
    /// ```swift
    /// if page.hasPreviousPage { ... }
    /// ```
    public var hasPreviousPage: Bool { page > 1 }
}
