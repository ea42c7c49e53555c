import SQLite

extension LibraryStore {
    // MARK: - Watching for changes

    /// SQLite's `PRAGMA data_version` on this store's connection: it changes whenever another connection (of this
    /// process or another) commits a change to the database, and stays the same for this connection's own writes.
    /// Polling it is how a server learns, cheaply, that screens may have changed.
    ///
    /// ```swift
    /// let before = try store.dataVersion()
    /// // ... another process runs `librarycli take 12` ...
    /// try store.dataVersion() != before  // true
    /// ```
    /// On PostgreSQL the connection listens on `librarycli_changes` (the schema's triggers notify it on every
    /// committed change to books, loans, clients, tokens and PINs, by any connection) from the first call on, and
    /// the version counts the notifications received: a notification arrives only after its commit is visible,
    /// and each call makes a round trip to the server, so every commit that ended before the call is counted.
    public func dataVersion() throws -> Int {
        try database.dataVersion()
    }

    /// The number of rows this store's connection has written since it opened: with `dataVersion()`, it tells
    /// whether the database may have changed since a moment before (this connection's own writes do not move the
    /// data version).
    ///
    /// ```swift
    /// let mark = (try store.dataVersion(), store.rowsWritten)
    /// // ... later: both the same means no one committed anything since
    /// ```
    public var rowsWritten: Int {
        database.rowsWritten
    }

    // MARK: - Keyset pages of books

    /// Up to `limit` books with ids greater than `afterID`, by id, each with its availability for `viewerID`
    /// (a keyset page: the next page starts after the last id, so pages never skip or repeat a book while others
    /// are added). Throws `LibraryError.invalidInput` for a limit outside 1...`maxPerPage`.
    ///
    /// ```swift
    /// let first = try store.books(after: 0, limit: 50, viewerID: 1)
    /// let second = try store.books(after: first.last!.book.id, limit: 50, viewerID: 1)
    /// ```
    public func books(after afterID: Int, limit: Int, viewerID: Int? = nil) throws -> [LibraryEntry] {
        guard (1...Self.maxPerPage).contains(limit) else {
            throw LibraryError.invalidInput("A page holds 1 to \(Self.maxPerPage) books, not \(limit).")
        }
        let viewer = viewerID ?? 0
        return try reading {
            try database.fetchAll(
                """
                SELECT \(Columns.book), l.client_id, l.due_at
                FROM books b LEFT JOIN loans l ON l.book_id = b.id AND l.returned_at IS NULL
                WHERE b.id > ? ORDER BY b.id LIMIT ?
                """,
                [afterID, limit]
            ) { row in
                let book = Columns.book(row)
                let availability: Availability
                if !row.isNull(Columns.bookCount) {
                    let due = try row.timestamp(Columns.bookCount + 1)
                    availability = row.int(Columns.bookCount) == viewer ? .heldByYou(dueAt: due) : .onLoan(dueAt: due)
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
    }
}
