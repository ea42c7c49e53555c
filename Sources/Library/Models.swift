/// A library member who borrows books.
///
/// ```swift
/// let client = try store.addClient(name: "Ann", now: now)
/// print(client.cardNumber, client.loanLimit)  // "C-000001" 5
/// ```
public struct Client: Sendable, Hashable, Identifiable {
    /// The row id.
    public var id: Int
    /// The client's name.
    public var name: String
    /// The unique library card number.
    public var cardNumber: String
    /// How many books the client may hold at once.
    public var loanLimit: Int
    /// When the client was added.
    public var createdAt: Timestamp

    /// Creates a client value.
    ///
    /// ```swift
    /// Client(id: 1, name: "Ann", cardNumber: "C-1", loanLimit: 5, createdAt: now)
    /// ```
    public init(
        id: Int, name: String, cardNumber: String, loanLimit: Int = LibraryRules.defaultLoanLimit, createdAt: Timestamp
    ) {
        self.id = id
        self.name = name
        self.cardNumber = cardNumber
        self.loanLimit = loanLimit
        self.createdAt = createdAt
    }
}

/// Whether a physical copy can be lent.
///
/// ```swift
/// if book.status == .lost { ... }
/// ```
public enum BookStatus: String, Sendable, Hashable, CaseIterable {
    /// On the shelf or on loan: lendable.
    case available
    /// Lost; not lendable.
    case lost
    /// Taken out of the collection; not lendable.
    case withdrawn
}

/// One physical copy of a book.
///
/// ```swift
/// let book = try store.book(id: 12)
/// print(book?.title ?? "no such book")
/// ```
public struct Book: Sendable, Hashable, Identifiable {
    /// The row id; ids are dense 1...N.
    public var id: Int
    /// The title.
    public var title: String
    /// The author ("" when unknown).
    public var author: String
    /// The publication year, negative for BCE, nil when unknown.
    public var year: Int?
    /// The page count, nil when unknown.
    public var pages: Int?
    /// A description ("" when none).
    public var description: String
    /// The ISBN, nil when unknown; unique.
    public var isbn: String?
    /// Whether the copy is lendable.
    public var status: BookStatus

    /// Creates a book value.
    ///
    /// ```swift
    /// Book(id: 1, title: "Dune", author: "Frank Herbert", year: 1965, pages: 412, description: "", isbn: nil,
    ///      status: .available)
    /// ```
    public init(
        id: Int, title: String, author: String, year: Int?, pages: Int?, description: String, isbn: String?,
        status: BookStatus
    ) {
        self.id = id
        self.title = title
        self.author = author
        self.year = year
        self.pages = pages
        self.description = description
        self.isbn = isbn
        self.status = status
    }
}

/// A book to add: everything but the id.
///
/// ```swift
/// let book = try store.addBook(NewBook(title: "Dune", author: "Frank Herbert", year: 1965))
/// ```
public struct NewBook: Sendable, Hashable {
    /// The title (must not be blank).
    public var title: String
    /// The author.
    public var author: String
    /// The publication year (`LibraryRules.years`), nil when unknown.
    public var year: Int?
    /// The page count (> 0), nil when unknown.
    public var pages: Int?
    /// A description.
    public var description: String
    /// The ISBN, unique; nil when unknown.
    public var isbn: String?
    /// The initial status.
    public var status: BookStatus

    /// Creates a draft.
    ///
    /// ```swift
    /// NewBook(title: "The Odyssey", author: "Homer", year: -700)
    /// ```
    public init(
        title: String, author: String = "", year: Int? = nil, pages: Int? = nil, description: String = "",
        isbn: String? = nil, status: BookStatus = .available
    ) {
        self.title = title
        self.author = author
        self.year = year
        self.pages = pages
        self.description = description
        self.isbn = isbn
        self.status = status
    }
}

/// Which of a book's facts an import gives. A fact the import does not give (its file has no column or key for it)
/// is left as it is on an existing book the import matches; a new book gets the usual default for it.
///
/// ```swift
/// try importer.importBook(NewBook(title: "Dune", isbn: "9780441172719"), fields: [.title])  // author, year... kept
/// ```
public struct BookFields: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    /// Creates a set from its bits.
    ///
    /// ```swift
    /// BookFields(rawValue: 1)  // .title
    /// ```
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The title.
    public static let title = BookFields(rawValue: 1 << 0)
    /// The author.
    public static let author = BookFields(rawValue: 1 << 1)
    /// The publication year.
    public static let year = BookFields(rawValue: 1 << 2)
    /// The page count.
    public static let pages = BookFields(rawValue: 1 << 3)
    /// The description.
    public static let description = BookFields(rawValue: 1 << 4)
    /// Every fact: what a whole `NewBook` gives.
    public static let all: BookFields = [.title, .author, .year, .pages, .description]
}

/// A loan of one book to one client; open until returned.
///
/// ```swift
/// if loan.isOverdue(at: now) { print("due \(loan.dueAt.date)") }
/// ```
public struct Loan: Sendable, Hashable, Identifiable {
    /// The row id.
    public var id: Int
    /// The book lent.
    public var bookID: Int
    /// The borrower.
    public var clientID: Int
    /// When the book was taken.
    public var takenAt: Timestamp
    /// When it is due back.
    public var dueAt: Timestamp
    /// When it was returned; nil while open.
    public var returnedAt: Timestamp?
    /// How many times it was renewed (at most `LibraryRules.maxRenewals`).
    public var renewals: Int

    /// Creates a loan value.
    ///
    /// ```swift
    /// Loan(id: 1, bookID: 12, clientID: 1, takenAt: now, dueAt: try now.adding(days: 14), returnedAt: nil, renewals: 0)
    /// ```
    public init(
        id: Int, bookID: Int, clientID: Int, takenAt: Timestamp, dueAt: Timestamp, returnedAt: Timestamp?,
        renewals: Int
    ) {
        self.id = id
        self.bookID = bookID
        self.clientID = clientID
        self.takenAt = takenAt
        self.dueAt = dueAt
        self.returnedAt = returnedAt
        self.renewals = renewals
    }

    /// Whether the book is still out.
    ///
    /// ```swift
    /// loan.isOpen
    /// ```
    public var isOpen: Bool { returnedAt == nil }

    /// Whether the loan is open and its due time is before `now`.
    ///
    /// ```swift
    /// loan.isOverdue(at: now)
    /// ```
    public func isOverdue(at now: Timestamp) -> Bool { isOpen && dueAt < now }

    /// The first moment the loan is overdue if it stays open: the second after its due time (``isOverdue(at:)``
    /// is true from then on). Nil for a returned loan, and for one due at the last moment a timestamp can hold.
    ///
    /// ```swift
    /// loan.overdueFrom  // 2026-12-13T14:40:01Z for a loan due 2026-12-13T14:40:00Z
    /// ```
    public var overdueFrom: Timestamp? {
        guard isOpen else { return nil }
        return try? dueAt.adding(seconds: 1)
    }
}
