/// One book as read from an input file or generated: the catalog's facts, validated, before it meets the database.
///
/// For example:
///
///     let record = BookRecord(title: "Dune", author: "Frank Herbert", year: 1965, pages: 412,
///                             isbn: "9780441172719", description: "Desert planet, spice and prophecy.")
public struct BookRecord: Hashable, Sendable {
    public var title: String
    public var author: String
    public var year: Int?
    public var pages: Int?
    /// The ISBN-13 (digits only), if known. ISBN-10s are converted, so one book has one key.
    public var isbn: String?
    public var description: String

    /// Creates a record.
    ///
    ///     BookRecord(title: "The Odyssey", author: "Homer", year: -725)
    public init(
        title: String, author: String = "", year: Int? = nil, pages: Int? = nil, isbn: String? = nil,
        description: String = ""
    ) {
        self.title = title
        self.author = author
        self.year = year
        self.pages = pages
        self.isbn = isbn
        self.description = description
    }
}

/// One client as read from an input file.
///
/// For example:
///
///     ClientRecord(name: "John Doe", cardNumber: "C-0001", loanLimit: 5, isDefault: true)
public struct ClientRecord: Hashable, Sendable {
    public var name: String
    public var cardNumber: String
    public var loanLimit: Int
    public var isDefault: Bool

    /// Creates a record.
    ///
    ///     ClientRecord(name: "Ada", cardNumber: "C-0002")
    public init(name: String, cardNumber: String, loanLimit: Int = 5, isDefault: Bool = false) {
        self.name = name
        self.cardNumber = cardNumber
        self.loanLimit = loanLimit
        self.isDefault = isDefault
    }
}
