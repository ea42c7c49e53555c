import LibraryScreen

/// Small screen data for tests: a client, books, and a catalog page built from them.
enum Fixture {
    static let john = ScreenData.Client(id: 1, name: "John Doe", cardNumber: "C-0001", loanLimit: 5)

    static func book(_ id: Int, _ title: String = "Book", year: Int? = 2000) -> ScreenData.Book {
        ScreenData.Book(id: id, title: title, author: "Author \(id)", year: year, pages: 100 + id)
    }

    static func held(_ id: Int, overdue: Bool = false) -> ScreenData.HeldBook {
        ScreenData.HeldBook(book: book(id), dueAt: "2026-12-13T10:00:00Z", isOverdue: overdue)
    }

    /// A screen where `heldIDs` are John's and `othersIDs` are on loan to someone else, among books 1...count.
    static func data(
        count: Int = 6, heldIDs: [Int] = [], othersIDs: [Int] = [], page: Int = 1, perPage: Int? = 20,
        totalCount: Int? = nil, search: String? = nil, limit: Int = 5
    ) -> ScreenData {
        var client = john
        client.loanLimit = limit
        let catalog = (1...max(1, count)).prefix(count).map { id -> ScreenData.CatalogBook in
            let availability: ScreenData.Availability =
                heldIDs.contains(id)
                ? .yours(dueAt: "2026-12-13T10:00:00Z")
                : othersIDs.contains(id) ? .onLoan(dueAt: "2026-12-20T10:00:00Z") : .available
            return ScreenData.CatalogBook(book: book(id), availability: availability)
        }
        return ScreenData(
            client: client, heldBooks: heldIDs.map { held($0) },
            catalog: ScreenData.Catalog(
                books: catalog, page: page, perPage: perPage, totalCount: totalCount ?? count, search: search))
    }
}
