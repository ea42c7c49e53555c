import SQLite

/// A book together with one of its loans.
///
/// ```swift
/// for held in try store.openLoans(clientID: 1, now: now) {
///     print(held.book.title, held.loan.dueAt.date, held.isOverdue ? "OVERDUE" : "")
/// }
/// ```
public struct LoanedBook: Sendable, Hashable {
    /// The book.
    public var book: Book
    /// The loan.
    public var loan: Loan
    /// Whether the loan is past due at the time it was read (for a loan just returned: whether it came back late).
    public var isOverdue: Bool

    /// Creates a value.
    ///
    /// ```swift
    /// LoanedBook(book: book, loan: loan, isOverdue: loan.isOverdue(at: now))
    /// ```
    public init(book: Book, loan: Loan, isOverdue: Bool) {
        self.book = book
        self.loan = loan
        self.isOverdue = isOverdue
    }
}

extension LibraryStore {
    // MARK: - Taking

    /// Lends every book in `bookIDs` to the client, all or none, in one IMMEDIATE transaction.
    ///
    /// Due = `now` + the loan period. Throws the first refusal: `LibraryError.noSuchClient`, `.noSuchBook`,
    /// `.alreadyYours`, `.onLoanToSomeoneElse` (with its due date), `.bookNotLendable` (lost or withdrawn) or
    /// `.loanLimitReached` (counting the books taken in this call); `.invalidInput` when the due date would be
    /// after 9999-12-31. Repeated ids count once.
    ///
    /// ```swift
    /// let taken = try store.take(bookIDs: [12, 13], clientID: ann.id, now: now)
    /// print(taken.map { "\($0.book.title) due \($0.loan.dueAt.date)" })
    /// ```
    @discardableResult
    public func take(bookIDs: [Int], clientID: Int, now: Timestamp) throws -> [LoanedBook] {
        let ids = Self.unique(bookIDs)
        let due = try Self.dueDate(from: now, days: loanPeriodDays, what: "A book taken at \(now.iso8601)")
        return try writing {
            guard let client = try lockedClient(id: clientID) else { throw LibraryError.noSuchClient(id: clientID) }
            var books: [Book] = []
            for id in ids {
                guard let book = try book(id: id) else { throw LibraryError.noSuchBook(id: id) }
                if let loan = try openLoan(bookID: id) {
                    if loan.clientID == clientID {
                        throw LibraryError.alreadyYours(id: id, title: book.title, dueAt: loan.dueAt)
                    }
                    throw LibraryError.onLoanToSomeoneElse(id: id, title: book.title, dueAt: loan.dueAt)
                }
                guard book.status == .available else {
                    throw LibraryError.bookNotLendable(id: id, title: book.title, status: book.status)
                }
                books.append(book)
            }
            let held = try heldCount(clientID: clientID)
            if let refusal = LibraryRules.loanLimitRefusal(held: held, limit: client.loanLimit, requested: books.count)
            {
                throw refusal
            }
            var taken: [LoanedBook] = []
            for book in books {
                // The index `loans_one_open_per_book` refuses a second open loan: only a writer outside this
                // transaction can meet it (the checks above ran in it), and then no row comes back. (On PostgreSQL
                // the insert waits for that writer's transaction to end, then skips the row if it committed.)
                let inserted = try database.fetchOne(
                    """
                    INSERT INTO loans (book_id, client_id, taken_at, due_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (book_id) WHERE returned_at IS NULL DO NOTHING RETURNING id
                    """,
                    [book.id, clientID, now.iso8601, due.iso8601]
                ) { $0.int(0) }
                guard let loanID = inserted else {
                    throw LibraryError.onLoanToSomeoneElse(
                        id: book.id, title: book.title, dueAt: try? openLoan(bookID: book.id)?.dueAt)
                }
                let loan = Loan(
                    id: loanID, bookID: book.id, clientID: clientID, takenAt: now,
                    dueAt: due, returnedAt: nil, renewals: 0)
                taken.append(LoanedBook(book: book, loan: loan, isOverdue: false))
            }
            return taken
        }
    }

    // MARK: - Returning

    /// Ends the client's loans of every book in `bookIDs`, all or none; returns the closed loans.
    ///
    /// Throws `LibraryError.noSuchClient`, `.noSuchBook` or `.notBorrowedByYou` (also for a second return).
    ///
    /// ```swift
    /// try store.returnBooks(bookIDs: [12], clientID: ann.id, now: now)
    /// ```
    @discardableResult
    public func returnBooks(bookIDs: [Int], clientID: Int, now: Timestamp) throws -> [LoanedBook] {
        let ids = Self.unique(bookIDs)
        return try writing {
            // The client's row locked (PostgreSQL), as for a take: two returns of one loan at once end it once.
            guard try lockedClient(id: clientID) != nil else { throw LibraryError.noSuchClient(id: clientID) }
            var returned: [LoanedBook] = []
            for id in ids {
                let (book, loan) = try ownLoan(bookID: id, clientID: clientID)
                // A clock set back must not break `returned_at >= taken_at`: such a return counts as immediate.
                let returnedAt = max(now, loan.takenAt)
                try database.execute("UPDATE loans SET returned_at = ? WHERE id = ?", [returnedAt.iso8601, loan.id])
                var closed = loan
                closed.returnedAt = returnedAt
                returned.append(LoanedBook(book: book, loan: closed, isOverdue: loan.isOverdue(at: now)))
            }
            return returned
        }
    }

    // MARK: - Renewing

    /// Extends the client's loan of `bookID` by one loan period (from its due date), at most
    /// `LibraryRules.maxRenewals` times.
    ///
    /// Throws `LibraryError.noSuchClient`, `.noSuchBook`, `.notBorrowedByYou`, `.overdue` (due before `now`)
    /// or `.renewalLimitReached`.
    ///
    /// ```swift
    /// let renewed = try store.renew(bookID: 12, clientID: ann.id, now: now)
    /// print(renewed.loan.dueAt.date)
    /// ```
    @discardableResult
    public func renew(bookID: Int, clientID: Int, now: Timestamp) throws -> LoanedBook {
        try writing {
            // The client's row locked (PostgreSQL): renewals at once are counted one after the other.
            guard try lockedClient(id: clientID) != nil else { throw LibraryError.noSuchClient(id: clientID) }
            let (book, loan) = try ownLoan(bookID: bookID, clientID: clientID)
            if let refusal = LibraryRules.renewalRefusal(of: loan, book: book, isOverdue: loan.dueAt < now) {
                throw refusal
            }
            var renewed = loan
            renewed.dueAt = try Self.dueDate(
                from: loan.dueAt, days: loanPeriodDays, what: "\(book.title) (#\(bookID)) renewed")
            renewed.renewals += 1
            try database.execute(
                "UPDATE loans SET due_at = ?, renewals = ? WHERE id = ?",
                [renewed.dueAt.iso8601, renewed.renewals, loan.id])
            return LoanedBook(book: book, loan: renewed, isOverdue: false)
        }
    }

    // MARK: - Internal

    /// The client, with its row locked until the transaction ends on PostgreSQL (`SELECT ... FOR UPDATE`), so two
    /// takes by one client at once count the books held one after the other and can never pass the loan limit
    /// together, and returns and renewals of the client's loans read what the one before wrote. (SQLite's
    /// IMMEDIATE write transactions already run one at a time.)
    func lockedClient(id: Int) throws -> Client? {
        guard database.dialect == .postgresql else { return try client(id: id) }
        return try database.fetchOne("SELECT \(Columns.client) FROM clients c WHERE c.id = ? FOR UPDATE", [id]) {
            try Columns.client($0)
        }
    }

    /// The open loan of a book, if any.
    func openLoan(bookID: Int) throws -> Loan? {
        try database.fetchOne(
            "SELECT \(Columns.loan) FROM loans l WHERE l.book_id = ? AND l.returned_at IS NULL", [bookID]
        ) { try Columns.loan($0) }
    }

    /// How many books the client holds now.
    func heldCount(clientID: Int) throws -> Int {
        try database.fetchOne("SELECT count(*) FROM loans WHERE client_id = ? AND returned_at IS NULL", [clientID]) {
            $0.int(0)
        } ?? 0
    }

    // MARK: - Private

    /// The client's open loan of the book. On PostgreSQL its row stays locked until the transaction ends
    /// (`SELECT ... FOR UPDATE`): a return or renewal running at the same time waits, then reads the loan as that
    /// one left it, so two returns of one loan cannot both succeed and two renewals cannot count as one. (SQLite's
    /// IMMEDIATE write transactions already run one at a time.)
    private func ownLoan(bookID: Int, clientID: Int) throws -> (Book, Loan) {
        guard let book = try book(id: bookID) else { throw LibraryError.noSuchBook(id: bookID) }
        let loan =
            database.dialect == .postgresql
            ? try database.fetchOne(
                "SELECT \(Columns.loan) FROM loans l WHERE l.book_id = ? AND l.returned_at IS NULL FOR UPDATE",
                [bookID]
            ) { try Columns.loan($0) }
            : try openLoan(bookID: bookID)
        guard let loan, loan.clientID == clientID else {
            throw LibraryError.notBorrowedByYou(id: bookID, title: book.title)
        }
        return (book, loan)
    }

    /// `start` plus `days`, or `LibraryError.invalidInput` when that is past 9999-12-31T23:59:59Z.
    private static func dueDate(from start: Timestamp, days: Int, what: String) throws -> Timestamp {
        do {
            return try LibraryRules.dueDate(from: start, days: days)
        } catch {
            throw LibraryError.invalidInput(
                "\(what) would be due after \(Timestamp.latest.iso8601), the last moment the library can record; "
                    + "check the clock.")
        }
    }

    private static func unique(_ ids: [Int]) -> [Int] {
        var seen = Set<Int>()
        return ids.filter { seen.insert($0).inserted }
    }
}
