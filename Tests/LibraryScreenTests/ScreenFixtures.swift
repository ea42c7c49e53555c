import Library

/// Small screens for tests, made of the domain's own values.
enum Fixture {
    static let due = Timestamp(year: 2026, month: 12, day: 13, hour: 10)!
    static let othersDue = Timestamp(year: 2026, month: 12, day: 20, hour: 10)!
    static let taken = Timestamp(year: 2026, month: 11, day: 29, hour: 10)!

    static func book(_ id: Int) -> Book {
        Book(
            id: id, title: "Book \(id)", author: "Author \(id)", year: 2000, pages: 100 + id, description: "",
            isbn: nil,
            status: .available)
    }

    static func held(_ id: Int, overdue: Bool = false) -> LoanedBook {
        LoanedBook(
            book: book(id),
            loan: Loan(
                id: id, bookID: id, clientID: 1, takenAt: taken, dueAt: due, returnedAt: nil, renewals: 0),
            isOverdue: overdue)
    }

    /// A screen where `heldIDs` are John's and `othersIDs` are on loan to someone else, among books 1...count.
    static func screen(
        count: Int = 6, heldIDs: [Int] = [], othersIDs: [Int] = [], page: Int = 1, perPage: Int = 20,
        totalCount: Int? = nil, search: String? = nil, limit: Int = 5, overdueIDs: [Int] = []
    ) -> ClientScreen {
        let client = Client(id: 1, name: "John Doe", cardNumber: "C-0001", loanLimit: limit, createdAt: taken)
        let entries = (0..<count).map { index -> LibraryEntry in
            let id = index + 1
            let availability: Availability =
                heldIDs.contains(id)
                ? .heldByYou(dueAt: due) : othersIDs.contains(id) ? .onLoan(dueAt: othersDue) : .available
            return LibraryEntry(book: book(id), availability: availability)
        }
        return ClientScreen(
            summary: ClientSummary(client: client, booksHeld: heldIDs.count, overdueCount: overdueIDs.count),
            loans: heldIDs.map { held($0, overdue: overdueIDs.contains($0)) },
            library: LibraryPage(
                entries: entries, page: page, perPage: perPage, totalCount: totalCount ?? count, search: search))
    }
}
