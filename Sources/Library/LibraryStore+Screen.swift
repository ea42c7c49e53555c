import SQLite

/// The client's header: who they are and how many books they hold.
///
/// ```swift
/// let summary = try store.clientSummary(clientID: 1, now: now)
/// print("\(summary.client.name): \(summary.booksHeld) of \(summary.client.loanLimit)")
/// ```
public struct ClientSummary: Sendable, Hashable {
    /// The client.
    public var client: Client
    /// Books on loan to the client now.
    public var booksHeld: Int
    /// Of those, how many are overdue.
    public var overdueCount: Int

    /// Creates a summary.
    ///
    /// ```swift
    /// ClientSummary(client: client, booksHeld: 2, overdueCount: 0)
    /// ```
    public init(client: Client, booksHeld: Int, overdueCount: Int) {
        self.client = client
        self.booksHeld = booksHeld
        self.overdueCount = overdueCount
    }

    /// How many more books the client may take.
    ///
    /// ```swift
    /// summary.remainingAllowance  // 3
    /// ```
    public var remainingAllowance: Int { max(0, client.loanLimit - booksHeld) }
}

/// Everything one client's screen shows, read in one snapshot.
///
/// ```swift
/// let screen = try store.clientScreen(clientID: 1, page: 1, perPage: 20, now: now)
/// ```
public struct ClientScreen: Sendable, Hashable {
    /// The header.
    public var summary: ClientSummary
    /// The client's open loans, oldest first.
    public var loans: [LoanedBook]
    /// A page of the library.
    public var library: LibraryPage

    /// Creates a screen.
    ///
    /// ```swift
    /// ClientScreen(summary: summary, loans: loans, library: page)
    /// ```
    public init(summary: ClientSummary, loans: [LoanedBook], library: LibraryPage) {
        self.summary = summary
        self.loans = loans
        self.library = library
    }

    /// The first moment the clock alone changes what this screen shows: when the earliest of its loans not yet
    /// overdue falls due (the header counts it, its card is marked); nil when no loan will. Everything else on the
    /// screen changes only with the database. A server keeping the screen live reads it again then.
    ///
    /// ```swift
    /// screen.changesAt  // 2026-12-13T14:40:01Z when its only loan is due at 2026-12-13T14:40:00Z
    /// ```
    public var changesAt: Timestamp? {
        loans.lazy.filter { !$0.isOverdue }.compactMap(\.loan.overdueFrom).min()
    }
}

extension LibraryStore {
    // MARK: - Screen queries

    /// The client's header; throws `LibraryError.noSuchClient`.
    ///
    /// ```swift
    /// let summary = try store.clientSummary(clientID: 1, now: now)
    /// ```
    public func clientSummary(clientID: Int, now: Timestamp) throws -> ClientSummary {
        try reading {
            guard let client = try client(id: clientID) else { throw LibraryError.noSuchClient(id: clientID) }
            let counts = try database.fetchOne(
                """
                SELECT count(*), count(*) FILTER (WHERE due_at < ?) FROM loans
                WHERE client_id = ? AND returned_at IS NULL
                """,
                [now.iso8601, clientID]
            ) { ($0.int(0), $0.int(1)) }
            return ClientSummary(client: client, booksHeld: counts?.0 ?? 0, overdueCount: counts?.1 ?? 0)
        }
    }

    /// The client's open loans with their books, oldest taken first, flagged overdue when due before `now`.
    ///
    /// ```swift
    /// let held = try store.openLoans(clientID: 1, now: now)
    /// ```
    public func openLoans(clientID: Int, now: Timestamp) throws -> [LoanedBook] {
        try reading {
            try database.fetchAll(
                """
                SELECT \(Columns.loan), \(Columns.book) FROM loans l JOIN books b ON b.id = l.book_id
                WHERE l.client_id = ? AND l.returned_at IS NULL ORDER BY l.taken_at, l.id
                """,
                [clientID]
            ) { row in
                let loan = try Columns.loan(row)
                return LoanedBook(
                    book: Columns.book(row, at: Columns.loanCount), loan: loan, isOverdue: loan.isOverdue(at: now))
            }
        }
    }

    /// The client's returned loans, most recently returned first (at most `limit`).
    ///
    /// ```swift
    /// let history = try store.loanHistory(clientID: 1, limit: 50)
    /// ```
    public func loanHistory(clientID: Int, limit: Int = 100) throws -> [LoanedBook] {
        try reading {
            try database.fetchAll(
                """
                SELECT \(Columns.loan), \(Columns.book) FROM loans l JOIN books b ON b.id = l.book_id
                WHERE l.client_id = ? AND l.returned_at IS NOT NULL ORDER BY l.returned_at DESC, l.id DESC LIMIT ?
                """,
                [clientID, max(0, limit)]
            ) { row in
                LoanedBook(
                    book: Columns.book(row, at: Columns.loanCount), loan: try Columns.loan(row), isOverdue: false)
            }
        }
    }

    /// The whole screen for a client in one read transaction: header, open loans, a library page.
    ///
    /// ```swift
    /// let screen = try store.clientScreen(clientID: 1, page: 3, perPage: 20, now: now, search: nil)
    /// ```
    public func clientScreen(clientID: Int, page: Int, perPage: Int, now: Timestamp, search: String? = nil) throws
        -> ClientScreen
    {
        try reading {
            ClientScreen(
                summary: try clientSummary(clientID: clientID, now: now),
                loans: try openLoans(clientID: clientID, now: now),
                library: try libraryPage(page: page, perPage: perPage, viewerID: clientID, search: search))
        }
    }
}
