import SQLite

extension LibraryStore {
    // MARK: - Books

    /// Adds one physical copy; throws `LibraryError.invalidInput` for bad fields or `.isbnTaken`.
    ///
    /// ```swift
    /// let dune = try store.addBook(NewBook(title: "Dune", author: "Frank Herbert", year: 1965))
    /// ```
    public func addBook(_ draft: NewBook) throws -> Book {
        let book = try Self.validated(draft)
        let search = SearchColumns(book)
        return try writing {
            let inserted: Int?
            do {
                inserted = try database.fetchOne(
                    """
                    INSERT INTO books (title, author, year, pages, description, isbn, status,
                                       search_title, search_author, search_description)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                    """,
                    [
                        book.title, book.author, book.year, book.pages, book.description, book.isbn,
                        book.status.rawValue, search.title, search.author, search.description,
                    ]
                ) { $0.int(0) }
            } catch let error
                where ConstraintFailure(error)?.isUnique(table: "books", columns: ["isbn"]) == true
            {
                throw LibraryError.isbnTaken(book.isbn ?? "")
            }
            guard let id = inserted else { throw LibraryError.invalidInput("The book was not added.") }
            if database.dialect == .sqlite {
                // PostgreSQL's search vector is a generated column; SQLite's FTS5 index is written here.
                let index = try SearchIndexWriter(database: database.sqlite)
                try index.added(id: id)
                try index.flush()
            }
            return Book(
                id: id, title: book.title, author: book.author, year: book.year,
                pages: book.pages, description: book.description, isbn: book.isbn, status: book.status)
        }
    }

    /// The book with this id, or nil.
    ///
    /// ```swift
    /// let book = try store.book(id: 12)
    /// ```
    public func book(id: Int) throws -> Book? {
        try reading {
            try database.fetchOne("SELECT \(Columns.book) FROM books b WHERE b.id = ?", [id]) { Columns.book($0) }
        }
    }

    /// How many books the library has (read in O(1) from `library_stats`).
    ///
    /// ```swift
    /// let total = try store.bookCount()
    /// ```
    public func bookCount() throws -> Int {
        try reading {
            try database.fetchOne("SELECT book_count FROM library_stats WHERE id = 1") { $0.int(0) } ?? 0
        }
    }

    /// Calls `body` with every book in id order, read in one snapshot `chunkSize` rows per query (keyset paging on
    /// the id), so a million books never sit in memory at once.
    ///
    /// ```swift
    /// try store.forEachBook { book in print(book.title) }
    /// ```
    public func forEachBook(chunkSize: Int = 1000, _ body: (Book) throws -> Void) throws {
        precondition(chunkSize > 0, "the chunk size must be positive")
        try reading {
            let select = try database.cachedStatement(
                "SELECT \(Columns.book) FROM books b WHERE b.id > ? ORDER BY b.id LIMIT ?")
            var lastID = 0
            while true {
                var books: [Book] = []
                books.reserveCapacity(chunkSize)
                try select.forEachRow([lastID, chunkSize]) { books.append(Columns.book($0)) }
                for book in books { try body(book) }
                guard books.count == chunkSize, let last = books.last else { break }
                lastID = last.id
            }
        }
    }

    /// Marks a book available, lost or withdrawn; throws `LibraryError.noSuchBook`.
    ///
    /// ```swift
    /// try store.setStatus(.withdrawn, bookID: 12)
    /// ```
    public func setStatus(_ status: BookStatus, bookID: Int) throws {
        try writing {
            let changed = try database.execute("UPDATE books SET status = ? WHERE id = ?", [status.rawValue, bookID])
            guard changed == 1 else { throw LibraryError.noSuchBook(id: bookID) }
        }
    }

    // MARK: - Pages

    /// One page of the library's books with each one's availability for `viewerID`, in one read transaction.
    ///
    /// Without `search` the page is found by key (page N starts after id (N-1)*perPage), so any page is as fast
    /// as the first, and the total is read from `library_stats`. With `search` (see `BookSearch`: every word, in
    /// any order, a prefix of a word of the title, author or description, any case and accents; a quoted phrase;
    /// an ISBN) the matching books come best first: by relevance (FTS5's bm25, PostgreSQL's `ts_rank`), a match in
    /// the title weighing more than one in the author, more than one in the description; equal ranks by title and
    /// id, so paging through them shows each book once. `totalCount` is how many
    /// matched. Search text longer than `BookSearch.maxLength` throws `LibraryError.invalidInput`; empty or
    /// white-space-only text is no search.
    ///
    /// ```swift
    /// let page = try store.libraryPage(page: 20_000, perPage: 50, viewerID: client.id)
    /// let found = try store.libraryPage(page: 1, perPage: 20, viewerID: client.id, search: "garcia marquez")
    /// ```
    public func libraryPage(page: Int, perPage: Int, viewerID: Int? = nil, search: String? = nil) throws
        -> LibraryPage
    {
        guard page >= 1 else { throw LibraryError.invalidInput("Page numbers start at 1, not \(page).") }
        guard (1...Self.maxPerPage).contains(perPage) else {
            throw LibraryError.invalidInput("Books per page must be between 1 and \(Self.maxPerPage), not \(perPage).")
        }
        let query = try search.flatMap { text throws(LibraryError) in try BookSearch(text) }
        let viewer = viewerID ?? 0
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        return try reading {
            let decode = { (row: StoreRow) throws -> LibraryEntry in try Self.entry(row, viewerID: viewer) }
            guard let query else {
                let entries =
                    overflow
                    ? []
                    : try database.fetchAll(
                        "\(Self.pageSelect) WHERE b.id > ? ORDER BY b.id LIMIT ?", [offset, perPage], decode)
                return LibraryPage(
                    entries: entries, page: page, perPage: perPage, totalCount: try bookCount(), search: nil)
            }
            var found = try isbnMatches(query, offset: overflow ? nil : offset, perPage: perPage, decode)
            if found.total == 0, let expression = database.dialect == .sqlite ? query.matchExpression : query.tsQuery {
                found = try textMatches(expression, offset: overflow ? nil : offset, perPage: perPage, decode)
            }
            return LibraryPage(
                entries: found.entries, page: page, perPage: perPage, totalCount: found.total, search: query.text)
        }
    }

    /// Whether the search index agrees with the books, read in one write transaction (FTS5's check needs one;
    /// nothing is changed): nil when it does, else what is wrong. Checks that every book's search columns hold
    /// `SearchFolding.indexText` of its title, author and description, and that the FTS5 index holds exactly
    /// those columns of every book (FTS5 `integrity-check` against its content table).
    ///
    /// ```swift
    /// if let problem = try store.searchIndexProblem() { print("search index: \(problem)") }
    /// ```
    public func searchIndexProblem() throws -> String? {
        guard database.dialect == .sqlite else { return try searchColumnsProblem() }
        try LibraryDatabase.defineFunctions(on: database.sqlite)
        return try writing {
            let stale = try database.fetchOne(
                """
                SELECT id FROM books
                WHERE search_title IS NOT library_search_text(title)
                   OR search_author IS NOT library_search_text(author)
                   OR search_description IS NOT library_search_text(description)
                ORDER BY id LIMIT 1
                """
            ) { $0.int(0) }
            if let stale { return "book #\(stale)'s search text does not match its title, author or description" }
            do {
                try database.execute("INSERT INTO book_search (book_search, rank) VALUES ('integrity-check', 1)")
            } catch let error as SQLiteError where error.isCorrupt {
                return "the full-text index does not match the books (\(error.message))"
            }
            return nil
        }
    }

    /// PostgreSQL's check: every book's search columns hold `SearchFolding.indexText` of its title, author and
    /// description (read 1,000 books at a time); the weighted `search_vector` is a generated column, which
    /// PostgreSQL itself keeps equal to those columns.
    private func searchColumnsProblem() throws -> String? {
        try reading {
            var lastID = 0
            while true {
                let rows = try database.fetchAll(
                    """
                    SELECT id, title, author, description, search_title, search_author, search_description
                    FROM books WHERE id > ? ORDER BY id LIMIT 1000
                    """, [lastID]
                ) { row in
                    (
                        id: row.int(0),
                        fresh: SearchFolding.indexText(row.string(1)) == row.string(4)
                            && SearchFolding.indexText(row.string(2)) == row.string(5)
                            && SearchFolding.indexText(row.string(3)) == row.string(6)
                    )
                }
                if let stale = rows.first(where: { !$0.fresh }) {
                    return "book #\(stale.id)'s search text does not match its title, author or description"
                }
                guard let last = rows.last, rows.count == 1000 else { return nil }
                lastID = last.id
            }
        }
    }

    // MARK: - Internal

    /// The draft trimmed and checked; throws `LibraryError.invalidInput`.
    static func validated(_ draft: NewBook) throws -> NewBook {
        var book = draft
        book.title = trimmed(draft.title)
        book.author = trimmed(draft.author)
        book.isbn = draft.isbn.map(trimmed).flatMap { $0.isEmpty ? nil : $0 }
        guard !TextField.isBlank(book.title) else {
            throw LibraryError.invalidInput("A book's title cannot be empty.", field: "title")
        }
        try check(book.title, .title)
        try check(book.author, .author)
        try check(book.description, .description)
        if let isbn = book.isbn { try check(isbn, .isbn) }
        if let year = book.year, !LibraryRules.isYear(year) {
            throw LibraryError.invalidInput("A year must be \(LibraryRules.yearRule); \(year) is not.", field: "year")
        }
        if let pages = book.pages, !(1...LibraryRules.maxPages).contains(pages) {
            throw LibraryError.invalidInput(
                "A page count must be between 1 and \(LibraryRules.maxPages), not \(pages).", field: "pages")
        }
        return book
    }

    /// Throws `LibraryError.invalidInput` naming `field` when `text` does not fit it (see `TextField`).
    static func check(_ text: String, _ field: TextField) throws {
        do {
            try field.check(text)
        } catch {
            throw LibraryError.invalidInput(error.sentence, field: field.rawValue)
        }
    }

    // MARK: - Private

    /// One match of a full-text search: the book, its bm25 rank (lower is better) and, when needed, its title.
    private struct Match {
        var id: Int
        var rank: Double
        var title: String?
    }

    private static let pageSelect = """
        SELECT \(Columns.book), l.client_id, l.due_at
        FROM books b LEFT JOIN loans l ON l.book_id = b.id AND l.returned_at IS NULL
        """

    /// The books whose ISBN the search text is, by title (none when it is not an ISBN). No offset: the total only.
    private func isbnMatches(
        _ search: BookSearch, offset: Int?, perPage: Int, _ decode: (StoreRow) throws -> LibraryEntry
    ) throws -> (entries: [LibraryEntry], total: Int) {
        let isbns = search.isbns
        guard let first = isbns.first, let last = isbns.last else { return ([], 0) }
        let total =
            try database.fetchOne("SELECT count(*) FROM books WHERE isbn IN (?, ?)", [first, last]) { $0.int(0) } ?? 0
        guard total > 0, let offset else { return ([], total) }
        let entries = try database.fetchAll(
            "\(Self.pageSelect) WHERE b.isbn IN (?, ?) ORDER BY b.title, b.id LIMIT ? OFFSET ?",
            [first, last, perPage, offset], decode)
        return (entries, total)
    }

    /// The books matching an FTS5 expression, best first (bm25 with the column weights set by migration 0002),
    /// then by folded title and id. No offset: the total only.
    ///
    /// FTS5 evaluates the expression once: every match's rowid and rank is read (cheaper than FTS5's own
    /// `ORDER BY rank`, and it gives the count), sorted here, and titles are read only for the matches whose rank
    /// ties with the page's first or last book, the only ones whose place depends on their title.
    private func textMatches(
        _ expression: String, offset: Int?, perPage: Int, _ decode: (StoreRow) throws -> LibraryEntry
    ) throws -> (entries: [LibraryEntry], total: Int) {
        // Lower ranks first: FTS5's bm25 is negative, better matches lower; PostgreSQL's ts_rank is negated to agree,
        // weighted as `rank` is (title 1.0 (A), author 0.4 (B), description 0.1 (D)).
        let select =
            database.dialect == .sqlite
            ? "SELECT rowid, rank FROM book_search WHERE book_search MATCH ?"
            : """
            SELECT id, -ts_rank('{0.1, 0, 0.4, 1.0}', search_vector, to_tsquery('simple', ?))
            FROM books WHERE search_vector @@ to_tsquery('simple', ?)
            """
        let arguments: [(any DatabaseValueConvertible)?] =
            database.dialect == .sqlite ? [expression] : [expression, expression]
        var matches = try database.fetchAll(select, arguments) { Match(id: $0.int(0), rank: $0.double(1), title: nil) }
        let total = matches.count
        guard let offset, offset < total else { return ([], total) }
        matches.sort { ($0.rank, $0.id) < ($1.rank, $1.id) }
        // The page's window, widened to whole runs of equal rank at both ends, then ordered by title within them.
        let end = min(offset + perPage, total)
        var low = offset
        while low > 0 && matches[low - 1].rank == matches[offset].rank { low -= 1 }
        var high = end
        while high < total && matches[high].rank == matches[end - 1].rank { high += 1 }
        let titleOf = try database.cachedStatement("SELECT search_title FROM books WHERE id = ?")
        for index in low..<high {
            matches[index].title = try titleOf.fetchOne([matches[index].id]) { $0.string(0) } ?? ""
        }
        matches[low..<high].sort { ($0.rank, $0.title ?? "", $0.id) < ($1.rank, $1.title ?? "", $1.id) }
        let page = matches[offset..<end].map(\.id)
        let placeholders = Array(repeating: "?", count: page.count).joined(separator: ", ")
        let rows = try database.fetchAll("\(Self.pageSelect) WHERE b.id IN (\(placeholders))", page, decode)
        let position = Dictionary(uniqueKeysWithValues: page.enumerated().map { ($1, $0) })
        let entries = rows.sorted { position[$0.book.id, default: 0] < position[$1.book.id, default: 0] }
        return (entries, total)
    }

    private static func entry(_ row: StoreRow, viewerID: Int) throws -> LibraryEntry {
        let book = Columns.book(row)
        let availability: Availability
        if !row.isNull(Columns.bookCount) {
            let due = try row.timestamp(Columns.bookCount + 1)
            availability = row.int(Columns.bookCount) == viewerID ? .heldByYou(dueAt: due) : .onLoan(dueAt: due)
        } else {
            switch book.status {
            case .available: availability = .available
            case .lost: availability = .lost
            case .withdrawn: availability = .withdrawn
            }
        }
        return LibraryEntry(book: book, availability: availability)
    }
}
