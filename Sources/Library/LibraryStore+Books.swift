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
        return try writing {
            do {
                try database.execute(
                    """
                    INSERT INTO books (title, author, year, pages, description, isbn, status, search_text)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        book.title, book.author, book.year, book.pages, book.description, book.isbn,
                        book.status.rawValue, Self.searchText(book),
                    ])
            } catch let error as SQLiteError where error.isConstraintViolation && book.isbn != nil {
                throw LibraryError.isbnTaken(book.isbn!)
            }
            return Book(
                id: Int(database.lastInsertedRowID), title: book.title, author: book.author, year: book.year,
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

    /// Marks a book available, lost or withdrawn; throws `LibraryError.noSuchBook`.
    ///
    /// ```swift
    /// try store.setStatus(.withdrawn, bookID: 12)
    /// ```
    public func setStatus(_ status: BookStatus, bookID: Int) throws {
        try writing {
            try database.execute("UPDATE books SET status = ? WHERE id = ?", [status.rawValue, bookID])
            guard database.changedRowCount == 1 else { throw LibraryError.noSuchBook(id: bookID) }
        }
    }

    // MARK: - Pages

    /// One page of the library's books with each one's availability for `viewerID`, in one query.
    ///
    /// Without `search` the page is found by key (page N starts after id (N-1)*perPage), so any page is as fast
    /// as the first, and the total is read from `library_stats`. With `search` (title or author, ignoring case
    /// and accents) the matching books are paged in id order. Search text longer than `BookSearch.maxLength`
    /// throws `LibraryError.invalidInput`; empty or white-space-only text is no search.
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
        let query = try search.flatMap { text throws(LibraryError) in try BookSearch(text) }?.text
        let select = """
            SELECT \(Columns.book), l.client_id, l.due_at
            FROM books b LEFT JOIN loans l ON l.book_id = b.id AND l.returned_at IS NULL
            """
        let viewer = viewerID ?? 0
        return try reading {
            let decode = { (row: Row) throws -> LibraryEntry in try Self.entry(row, viewerID: viewer) }
            guard let query else {
                let (start, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
                let entries =
                    overflow
                    ? []
                    : try database.fetchAll("\(select) WHERE b.id > ? ORDER BY b.id LIMIT ?", [start, perPage], decode)
                return LibraryPage(
                    entries: entries, page: page, perPage: perPage, totalCount: try bookCount(), search: nil)
            }
            let pattern = SearchFolding.containsPattern(query)
            let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
            let entries =
                overflow
                ? []
                : try database.fetchAll(
                    "\(select) WHERE b.search_text LIKE ? ESCAPE '\\' ORDER BY b.id LIMIT ? OFFSET ?",
                    [pattern, perPage, offset], decode)
            let total =
                try database.fetchOne("SELECT count(*) FROM books WHERE search_text LIKE ? ESCAPE '\\'", [pattern]) {
                    $0.int(0)
                } ?? 0
            return LibraryPage(entries: entries, page: page, perPage: perPage, totalCount: total, search: query)
        }
    }

    // MARK: - Internal

    /// The folded title and author stored in `search_text`.
    static func searchText(_ book: NewBook) -> String {
        SearchFolding.fold(book.title + " " + book.author)
    }

    /// The draft trimmed and checked; throws `LibraryError.invalidInput`.
    static func validated(_ draft: NewBook) throws -> NewBook {
        var book = draft
        book.title = trimmed(draft.title)
        book.author = trimmed(draft.author)
        book.isbn = draft.isbn.map(trimmed).flatMap { $0.isEmpty ? nil : $0 }
        guard !book.title.isEmpty else { throw LibraryError.invalidInput("A book's title cannot be empty.") }
        if let year = book.year, !(-9999...9999).contains(year) {
            throw LibraryError.invalidInput("A year must be between -9999 and 9999, not \(year).")
        }
        if let pages = book.pages, pages <= 0 {
            throw LibraryError.invalidInput("A page count must be positive, not \(pages).")
        }
        return book
    }

    // MARK: - Private

    private static func entry(_ row: Row, viewerID: Int) throws -> LibraryEntry {
        let book = Columns.book(row)
        let availability: Availability
        if !row.isNull(Columns.bookCount) {
            let due = try Columns.timestamp(row, Columns.bookCount + 1)
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
