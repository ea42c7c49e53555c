import Library

/// One book as read from an input file or generated: the catalog's facts, validated, before it meets the database.
///
/// For example:
///
///     let record = BookRecord(title: "Dune", author: "Frank Herbert", year: 1965, pages: 412,
///                             isbn: "9780441172719", description: "Desert planet, spice and prophecy.")
public struct BookRecord: Hashable, Sendable {
    /// The title (never empty).
    public var title: String
    /// The author ("" when unknown).
    public var author: String
    /// The publication year, negative before the common era.
    public var year: Int?
    /// The page count.
    public var pages: Int?
    /// The ISBN-13 (digits only), if known. ISBN-10s are converted, so one book has one key.
    public var isbn: String?
    /// A description ("" when none).
    public var description: String
    /// The status a new book starts with (nil: available). An import never changes an existing book's status.
    public var status: BookStatus?
    /// The facts the file gives, by having a column (CSV) or key (JSON) for them, empty or not: an existing book
    /// the record matches keeps the others. Every fact unless a file leaves some out.
    public var fields: BookFields = .all

    /// Creates a record.
    ///
    ///     BookRecord(title: "The Odyssey", author: "Homer", year: -725)
    public init(
        title: String, author: String = "", year: Int? = nil, pages: Int? = nil, isbn: String? = nil,
        description: String = "", status: BookStatus? = nil
    ) {
        self.title = title
        self.author = author
        self.year = year
        self.pages = pages
        self.isbn = isbn
        self.description = description
        self.status = status
    }
}

/// One client as read from an input file.
///
/// For example:
///
///     ClientRecord(name: "John Doe", cardNumber: "C-0001", loanLimit: 5, isDefault: true)
public struct ClientRecord: Hashable, Sendable {
    /// The client's name (never empty).
    public var name: String
    /// The library card number, which identifies the client across imports.
    public var cardNumber: String
    /// How many books the client may hold at once (`LibraryRules.loanLimits`).
    public var loanLimit: Int
    /// Whether the file marks this client as the default one.
    public var isDefault: Bool
    /// The client's PIN for signing in (`AccessRules.pinDigits` digits), nil when the file gives none. Set only for
    /// a client that has no PIN yet; it is hashed before it is stored.
    public var pin: String?

    /// Creates a record.
    ///
    ///     ClientRecord(name: "Ada", cardNumber: "C-0002", pin: "1234")
    public init(
        name: String, cardNumber: String, loanLimit: Int = LibraryRules.defaultLoanLimit, isDefault: Bool = false,
        pin: String? = nil
    ) {
        self.name = name
        self.cardNumber = cardNumber
        self.loanLimit = loanLimit
        self.isDefault = isDefault
        self.pin = pin
    }
}
