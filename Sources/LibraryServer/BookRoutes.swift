import Formats
import HTTP
import Library
import LibraryScreen

/// `GET /v1/books` (keyset pages, or ranked search results), `GET /v1/books/:id`, and the librarian's
/// `POST /v1/books` and `POST /v1/clients`.
struct BookRoutes: Sendable {
    let service: ServiceParts

    /// The most books one page of `GET /v1/books` holds.
    static let maxLimit = 1_000

    func add(to router: inout Router) {
        router.get("/v1/books", books)
        router.post("/v1/books", accepts: .json, addBook)
        router.get("/v1/books/:id", book)
        router.post("/v1/clients", accepts: .json, addClient)
    }

    /// A page of books: by id after `after` (the last id of the previous page: a keyset page), or, with `search`, the
    /// matches best first after the `after` first ones (an offset: ranks are not stable enough for a keyset, as
    /// bm25 weighs every match by the whole catalog, so a book added between two pages shifts the rest).
    /// `next` (and a `Link: rel="next"` header) names the next page.
    /// Search results stop at the first `LibraryStore.maxPerPage` (10,000) matches; a search answer says
    /// `"capped": true` when there were more.
    func books(_ request: Request) throws -> Response {
        let principal = try request.principal()
        let limit =
            try request.query.single("limit").map { text throws(Problem) in
                try ScreenQuery.integer(text, name: "limit", in: 1...Self.maxLimit)
            } ?? 20
        let after =
            try request.query.single("after").map { text throws(Problem) in
                try ScreenQuery.integer(text, name: "after", in: 0...Int.max)
            } ?? 0
        let search = try ScreenQuery(request.query).search
        let viewer = principal.owner.clientID
        let (entries, next, capped): ([LibraryEntry], Int?, Bool?) = try service.pool.with { store in
            guard let search else {
                let entries = try store.books(after: after, limit: limit + 1, viewerID: viewer)
                let page = Array(entries.prefix(limit))
                return (page, entries.count > limit ? page.last?.book.id : nil, nil)
            }
            // Search results stop at the first `maxPerPage` matches: the last page is cut there, and no next page is
            // offered past it (so a `next` link is never refused).
            let cap = LibraryStore.maxPerPage
            guard after < cap else {
                throw Problem(
                    status: .badRequest, code: "bad-parameter",
                    detail: "Search results stop at \(cap) books, so 'after' must be below \(cap); narrow the search.",
                    extensions: ["parameter": "after"])
            }
            let end = min(after + limit, cap)
            let found = try store.libraryPage(page: 1, perPage: end, viewerID: viewer, search: search)
            let page = Array(found.entries.dropFirst(after))
            return (page, end < min(found.totalCount, cap) ? end : nil, found.totalCount > cap)
        }
        var headers = HTTPHeaders()
        var nextLink: String?
        if let next {
            var link = "/v1/books?after=\(next)&limit=\(limit)"
            if let search { link += "&search=" + ActionRequests.percentEncoded(search) }
            headers.set("Link", "<\(link)>; rel=\"next\"")
            nextLink = link
        }
        return .json(
            .object(
                members: [
                    ("books", .array(entries.map { LibraryJSON.book($0.book, availability: $0.availability) })),
                    ("next", next.map { .string(String($0)) } ?? .null),
                    ("nextHref", nextLink.map { .string($0) } ?? .null),
                ] + (capped.map { [("capped", JSONValue.bool($0))] } ?? [])), headers: headers)
    }

    /// One book, as a page of `GET /v1/books` shows it: with its `availability` for the caller.
    func book(_ request: Request) throws -> Response {
        let viewer = try request.principal().owner.clientID
        let id = try ScreenQuery.integer(request.parameters["id"] ?? "", name: "id", in: 1...Int.max)
        // The keyset page that starts at this id: the same read, and so the same shape, as the list's.
        let entry = try service.pool.with { store in try store.books(after: id - 1, limit: 1, viewerID: viewer).first }
        guard let entry, entry.book.id == id else { throw ProblemMapping.libraryProblem(.noSuchBook(id: id)) }
        return .json(LibraryJSON.book(entry.book, availability: entry.availability))
    }

    /// The members `POST /v1/books` takes (the API description lists the same: a test checks it).
    static let bookMembers = ["title", "author", "year", "pages", "description", "isbn"]
    /// The members `POST /v1/clients` takes.
    static let clientMembers = ["name", "cardNumber", "loanLimit"]

    /// Librarian: adds a book `{"title", "author", "year", "pages", "description", "isbn"}`; 201 with `Location`.
    func addBook(_ request: Request) throws -> Response {
        try request.requireLibrarian()
        let body = try BodyReader(request, members: Self.bookMembers)
        let draft = NewBook(
            title: try body.requiredString("title"), author: try body.string("author") ?? "",
            year: try body.int("year"), pages: try body.int("pages"),
            description: try body.string("description") ?? "", isbn: try Self.isbn(body.string("isbn")))
        return try service.pool.with { store in
            try Idempotency.run(request, comparing: .parameters([]), store: store, now: service.now()) { store in
                let book = try store.addBook(draft)
                return .json(
                    LibraryJSON.book(book, availability: .available), status: .created,
                    headers: ["Location": "/v1/books/\(book.id)"])
            }
        }
    }

    /// A book's `isbn` as the library keeps it (ISBN-13 digits, by `ISBN.normalized`), nil when absent, null or
    /// blank; an unusable one is a 400 `invalid-input` problem naming the member.
    static func isbn(_ text: String?) throws(Problem) -> String? {
        guard let text else { return nil }
        do {
            return try ISBN.normalized(text)
        } catch {
            throw Problem(
                status: .badRequest, code: "invalid-input",
                detail: "'isbn': \(error.reason); give an ISBN-10 or ISBN-13 whose check digit holds.",
                extensions: ["member": .string("isbn")])
        }
    }

    /// Librarian: adds a client `{"name", "cardNumber", "loanLimit"}`; 201.
    func addClient(_ request: Request) throws -> Response {
        try request.requireLibrarian()
        let body = try BodyReader(request, members: Self.clientMembers)
        let name = try body.requiredString("name")
        let card = try body.string("cardNumber")
        let limit = try body.int("loanLimit") ?? LibraryRules.defaultLoanLimit
        let now = service.now()
        return try service.pool.with { store in
            try Idempotency.run(request, comparing: .parameters([]), store: store, now: now) { store in
                let client = try store.addClient(name: name, cardNumber: card, loanLimit: limit, now: now)
                return .json(LibraryJSON.client(client), status: .created)
            }
        }
    }
}
