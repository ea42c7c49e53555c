/// Why the library refused a request. Every case is something a user can cause; `message` explains it plainly.
///
/// ```swift
/// do {
///     try store.take(bookIDs: [12], clientID: 1, now: now)
/// } catch let refusal as LibraryError {
///     print(refusal.message)  // "Dune (#12) is on loan to someone else, due back 2026-12-13."
/// }
/// ```
public enum LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no book with this id.
    case noSuchBook(id: Int)
    /// There is no client with this id.
    case noSuchClient(id: Int)
    /// No default client is set and none was given.
    case noDefaultClient
    /// The book is lost or withdrawn.
    case bookNotLendable(id: Int, title: String, status: BookStatus)
    /// The client already has this book.
    case alreadyYours(id: Int, title: String, dueAt: Timestamp)
    /// Another client has this book, until `dueAt` (nil if it could not be read).
    case onLoanToSomeoneElse(id: Int, title: String, dueAt: Timestamp?)
    /// Taking `requested` more books would exceed the client's limit.
    case loanLimitReached(limit: Int, held: Int, requested: Int)
    /// The client does not have this book on loan (never took it, or already returned it).
    case notBorrowedByYou(id: Int, title: String)
    /// The loan was already renewed the maximum number of times.
    case renewalLimitReached(id: Int, title: String, limit: Int)
    /// An overdue loan cannot be renewed; the book must be returned.
    case overdue(id: Int, title: String, dueAt: Timestamp)
    /// Another client has this card number.
    case cardNumberTaken(String)
    /// Another book has this ISBN.
    case isbnTaken(String)
    /// A field is empty or out of range. `field` names it when the input was one named field, as the library's API
    /// names it (a `NewBook` property or an `addClient` parameter: "title", "year", "loanLimit", "cardNumber"), so a
    /// caller can point at what to correct; nil otherwise.
    ///
    /// ```swift
    /// LibraryError.invalidInput("A year must be between -9999 and 9999, not 10000.", field: "year")
    /// ```
    case invalidInput(String, field: String? = nil)

    /// A plain English sentence for the user.
    ///
    /// ```swift
    /// LibraryError.noSuchBook(id: 99).message  // "There is no book #99."
    /// ```
    public var message: String {
        switch self {
        case .noSuchBook(let id):
            return "There is no book #\(id)."
        case .noSuchClient(let id):
            return "There is no client #\(id)."
        case .noDefaultClient:
            return "No client is chosen; give a client or set a default client."
        case .bookNotLendable(let id, let title, let status):
            return "\(title) (#\(id)) is \(status.rawValue) and cannot be borrowed."
        case .alreadyYours(let id, let title, let dueAt):
            return "You already have \(title) (#\(id)); it is due \(dueAt.date)."
        case .onLoanToSomeoneElse(let id, let title, let dueAt):
            let until = dueAt.map { ", due back \($0.date)" } ?? ""
            return "\(title) (#\(id)) is on loan to someone else\(until)."
        case .loanLimitReached(let limit, let held, let requested):
            guard limit > 0 else { return "Your card does not allow borrowing books right now (its loan limit is 0)." }
            let books = requested == 1 ? "1 more book" : "\(requested) more books"
            return "You have \(held) of your \(limit) books; you cannot take \(books)."
        case .notBorrowedByYou(let id, let title):
            return "You do not have \(title) (#\(id)) on loan."
        case .renewalLimitReached(let id, let title, let limit):
            return "\(title) (#\(id)) was already renewed \(limit) times; please return it."
        case .overdue(let id, let title, let dueAt):
            return "\(title) (#\(id)) was due \(dueAt.date) and cannot be renewed; please return it."
        case .cardNumberTaken(let card):
            return "Card number \(card) belongs to another client."
        case .isbnTaken(let isbn):
            return "Another book already has ISBN \(isbn)."
        case .invalidInput(let reason, _):
            return reason
        }
    }

    /// Same as `message`.
    ///
    /// ```swift
    /// print("\(refusal)")
    /// ```
    public var description: String { message }
}
