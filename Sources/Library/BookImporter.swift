import SQLite

/// How many books (or clients) an import inserted, updated or found unchanged.
///
/// ```swift
/// let counts = try store.importBooks(catalog)
/// print("\(counts.inserted) added, \(counts.updated) updated, \(counts.unchanged) unchanged")
/// ```
public struct ImportCounts: Sendable, Hashable {
    /// New books.
    public var inserted = 0
    /// Existing books whose fields changed.
    public var updated = 0
    /// Existing books already identical.
    public var unchanged = 0

    /// Creates counts.
    ///
    /// ```swift
    /// ImportCounts(inserted: 3, updated: 0, unchanged: 1)
    /// ```
    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// What importing one book (or client) did.
///
/// ```swift
/// if case .inserted(let id) = try importer.importBook(draft) { print("new book #\(id)") }
/// ```
public enum ImportOutcome: Sendable, Hashable {
    /// A new row with this id.
    case inserted(id: Int)
    /// An existing row whose fields were updated.
    case updated(id: Int)
    /// An existing row already identical.
    case unchanged(id: Int)
}

/// Inserts or updates many books quickly with reused prepared statements, for idempotent seeding. Each book's
/// search columns are written with it, and its full-text index entry in the same transaction.
///
/// A book matches an existing one by ISBN when it has one, otherwise by title + author + year among books
/// without an ISBN. Several identical drafts in one import match distinct existing copies, so seeding the same
/// catalog twice leaves the library unchanged. The status of existing books is never changed. Use it inside one
/// write transaction (`LibraryStore.importBooks` does that for you).
///
/// Call `finish()` after the last book, before the transaction commits: it indexes the books not yet indexed.
///
/// ```swift
/// try store.write { store in
///     let importer = try BookImporter(store: store)
///     for draft in drafts { try importer.importBook(draft) }
///     print(try importer.finish())
/// }
/// ```
public final class BookImporter {
    /// What was done so far.
    public private(set) var counts = ImportCounts()

    private let database: StoreDatabase
    /// SQLite's connection, for its fast paths (changed-row count, last rowid, stepping); nil on PostgreSQL.
    private let sqlite: Database?
    private let findByISBN: StoreStatement
    /// PostgreSQL: a batch's ISBNs looked up at once.
    private let findByISBNs: StoreStatement?
    private let findByIdentity: StoreStatement
    private let insert: StoreStatement
    private let update: StoreStatement
    /// SQLite's FTS5 index entries, written in batches; nil on PostgreSQL, whose search vector is a generated column.
    private let index: SearchIndexWriter?
    private var claimed = Set<Int>()
    /// PostgreSQL: the books waiting to be written (in batches of `batchSize`, by COPY with reserved ids), and the
    /// books of this import by ISBN, written or waiting (a later row with the same ISBN meets them as SQLite's
    /// sequential inserts would).
    private var pending: [PendingBook] = []
    private var importedByISBN: [String: ImportedBook] = [:]
    static let batchSize = 1_000

    private struct PendingBook {
        var book: NewBook
        var search: SearchColumns
    }

    private enum ImportedBook {
        case written(Book)
        case pending(index: Int)
    }

    /// Prepares the statements on the store's connection.
    ///
    /// ```swift
    /// let importer = try BookImporter(store: store)
    /// ```
    public init(store: LibraryStore) throws {
        database = store.database
        sqlite = database.dialect == .sqlite ? database.sqlite : nil
        findByISBN = try database.prepare("SELECT \(Columns.book) FROM books b WHERE b.isbn = ?")
        findByISBNs =
            database.dialect == .postgresql
            ? try database.prepare("SELECT \(Columns.book) FROM books b WHERE b.isbn = ANY (CAST(? AS text[]))")
            : nil
        findByIdentity = try database.prepare(
            database.dialect == .sqlite ? Self.findByIdentitySQL : Self.findByIdentityPostgreSQL)
        insert = try database.prepare(
            """
            INSERT INTO books (title, author, year, pages, description, isbn, status,
                               search_title, search_author, search_description)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (isbn) DO NOTHING
            """ + (database.dialect == .sqlite ? "" : " RETURNING id"))
        update = try database.prepare(
            """
            UPDATE books SET title = ?, author = ?, year = ?, pages = ?, description = ?, isbn = ?,
                             search_title = ?, search_author = ?, search_description = ?
            WHERE id = ?
            """)
        index = try sqlite.map { try SearchIndexWriter(database: $0) }
        if database.dialect == .postgresql && database.isInTransaction {
            // Writers of books take turns from here, as SQLite's single writer does: the count's row stays locked
            // until the import commits, so another import's look-ups of ISBNs happen after this one's books are in.
            _ = try database.fetchOne("SELECT book_count FROM library_stats WHERE id = 1 FOR UPDATE") { $0.int(0) }
        }
    }

    /// Inserts `draft`, or updates the existing copy it matches; throws `LibraryError.invalidInput` for bad fields.
    /// On SQLite the book is written at once and its outcome returned. On PostgreSQL it is checked at once and
    /// written with the next batch (or by `finish()`), and the outcome is nil: `finish()` counts every book.
    ///
    /// ```swift
    /// let outcome = try importer.importBook(NewBook(title: "Dune", author: "Frank Herbert", isbn: "9780441013593"))
    /// ```
    @discardableResult
    public func importBook(_ draft: NewBook) throws -> ImportOutcome? {
        precondition(database.isInTransaction, "import books inside a write transaction")
        let book = try LibraryStore.validated(draft)
        guard sqlite != nil else {
            pending.append(PendingBook(book: book, search: SearchColumns(book)))
            if pending.count >= Self.batchSize { try writePending() }
            return nil
        }
        var search: SearchColumns?
        if book.isbn != nil {
            // Most imported books are new: insert first, and only when the unique ISBN turns the insert into no
            // change (`ON CONFLICT DO NOTHING`: no row, no id used, no count) look the existing copy up. One statement
            // per new book instead of a look-up and an insert.
            let columns = SearchColumns(book)
            search = columns
            if let id = try insertRow(book, columns) { return try inserted(id) }
        }
        if let existing = try match(book) {
            claimed.insert(existing.id)
            if existing.title == book.title && existing.author == book.author && existing.year == book.year
                && existing.pages == book.pages && existing.description == book.description
                && existing.isbn == book.isbn
            {
                counts.unchanged += 1
                return .unchanged(id: existing.id)
            }
            let search = search ?? SearchColumns(book)
            try index?.remove(id: existing.id)
            try update.execute([
                book.title, book.author, book.year, book.pages, book.description, book.isbn,
                search.title, search.author, search.description, existing.id,
            ])
            try index?.added(id: existing.id)
            counts.updated += 1
            return .updated(id: existing.id)
        }
        guard let id = try insertRow(book, search ?? SearchColumns(book)) else {
            // Only a book with an ISBN can conflict, and one that did was matched above.
            throw LibraryError.invalidInput("the ISBN \(book.isbn ?? "") is already in the library")
        }
        return try inserted(id)
    }

    /// Indexes the books imported and not yet in the full-text index, and returns the counts. Call it after the last
    /// book, inside the transaction; until then some imported books may be missing from search results.
    ///
    /// ```swift
    /// let counts = try importer.finish()
    /// ```
    @discardableResult
    public func finish() throws -> ImportCounts {
        try writePending()
        try index?.flush()
        return counts
    }

    // MARK: - Internal

    /// Copies without an ISBN matching title + author + year. The unary `+` keeps SQLite from using the ISBN
    /// index for `isbn IS NULL` (which would scan every ISBN-less book); `books_by_identity` is used instead.
    static let findByIdentitySQL = """
        SELECT \(Columns.book) FROM books b
        WHERE b.title = ? AND b.author = ? AND b.year IS ? AND +b.isbn IS NULL ORDER BY b.id
        """

    /// The same look-up in PostgreSQL's words (`IS NOT DISTINCT FROM`; no unary `+` to keep an index out).
    static let findByIdentityPostgreSQL = """
        SELECT \(Columns.book) FROM books b
        WHERE b.title = ? AND b.author = ? AND b.year IS NOT DISTINCT FROM CAST(? AS integer) AND b.isbn IS NULL
        ORDER BY b.id
        """

    // MARK: - PostgreSQL batches

    /// Writes the waiting books: one look-up of their ISBNs, the matches updated (or left unchanged) row by row,
    /// the new books inserted by one COPY with ids reserved by raising the book count once.
    private func writePending() throws {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        let isbns = batch.compactMap(\.book.isbn)
        var existing: [String: Book] = [:]
        if !isbns.isEmpty {
            try findByISBNs?.forEachRow([Self.arrayLiteral(isbns)]) { row in
                let book = Columns.book(row)
                if let isbn = book.isbn { existing[isbn] = book }
            }
        }
        var fresh: [PendingBook] = []
        for item in batch {
            let book = item.book
            if let isbn = book.isbn {
                switch importedByISBN[isbn] {
                case .pending(let index):
                    // A repeat of a book this batch inserts: as if it had been inserted already, then matched.
                    let first = fresh[index].book
                    if first.title == book.title && first.author == book.author && first.year == book.year
                        && first.pages == book.pages && first.description == book.description
                    {
                        counts.unchanged += 1
                    } else {
                        var replaced = item
                        replaced.book.status = first.status
                        fresh[index] = replaced
                        counts.updated += 1
                    }
                    continue
                case .written(let written):
                    try meet(written, with: item)
                    continue
                case nil:
                    if let found = existing[isbn] {
                        try meet(found, with: item)
                        continue
                    }
                }
                importedByISBN[isbn] = .pending(index: fresh.count)
                fresh.append(item)
            } else if let found = try match(book) {
                try meet(found, with: item)
            } else {
                fresh.append(item)
            }
        }
        guard !fresh.isEmpty else { return }
        let reserved = try database.fetchOne(
            "UPDATE library_stats SET book_count = book_count + ? WHERE id = 1 RETURNING book_count", [fresh.count]
        ) { $0.int(0) }
        guard let last = reserved else {
            throw LibraryError.invalidInput("the library's book count is missing; the database is damaged")
        }
        let first = last - fresh.count + 1
        guard case .postgresql(let connection) = database.backend else { return }
        try connection.copy(
            """
            COPY books (id, title, author, year, pages, description, isbn, status,
                        search_title, search_author, search_description) FROM STDIN
            """
        ) { copy in
            for (offset, item) in fresh.enumerated() {
                let book = item.book
                try copy.row([
                    String(first + offset), book.title, book.author, book.year.map(String.init),
                    book.pages.map(String.init), book.description, book.isbn, book.status.rawValue,
                    item.search.title, item.search.author, item.search.description,
                ])
            }
        }
        for (offset, item) in fresh.enumerated() {
            let book = item.book
            let id = first + offset
            claimed.insert(id)
            if let isbn = book.isbn {
                importedByISBN[isbn] = .written(
                    Book(
                        id: id, title: book.title, author: book.author, year: book.year, pages: book.pages,
                        description: book.description, isbn: book.isbn, status: book.status))
            }
        }
        counts.inserted += fresh.count
    }

    /// A waiting book that matched a book already written: unchanged, or updated in place.
    private func meet(_ existing: Book, with item: PendingBook) throws {
        claimed.insert(existing.id)
        let book = item.book
        if existing.title == book.title && existing.author == book.author && existing.year == book.year
            && existing.pages == book.pages && existing.description == book.description && existing.isbn == book.isbn
        {
            counts.unchanged += 1
            return
        }
        try update.execute([
            book.title, book.author, book.year, book.pages, book.description, book.isbn,
            item.search.title, item.search.author, item.search.description, existing.id,
        ])
        if let isbn = book.isbn {
            var updated = existing
            (updated.title, updated.author, updated.year) = (book.title, book.author, book.year)
            (updated.pages, updated.description) = (book.pages, book.description)
            importedByISBN[isbn] = .written(updated)
        }
        counts.updated += 1
    }

    /// A PostgreSQL array literal of texts, each quoted, for one bound `text[]` value.
    static func arrayLiteral(_ values: [String]) -> String {
        var literal: [UInt8] = [UInt8(ascii: "{")]
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            literal.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                literal.append(byte)
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }

    // MARK: - Private

    /// Inserts the book; false when its ISBN is already in the library (nothing was inserted).
    private func insertRow(_ book: NewBook, _ search: SearchColumns) throws -> Int? {
        let values: [(any DatabaseValueConvertible)?] = [
            book.title, book.author, book.year, book.pages, book.description, book.isbn, book.status.rawValue,
            search.title, search.author, search.description,
        ]
        guard let sqlite else { return try insert.fetchOne(values) { $0.int(0) } }
        try insert.execute(values)
        return sqlite.changedRowCount == 1 ? Int(sqlite.lastInsertedRowID) : nil
    }

    /// Records the row just inserted: its full-text entry (batched), its claim and the count.
    private func inserted(_ id: Int) throws -> ImportOutcome {
        try index?.added(id: id)
        claimed.insert(id)
        counts.inserted += 1
        return .inserted(id: id)
    }

    private func match(_ book: NewBook) throws -> Book? {
        if let isbn = book.isbn {
            return try findByISBN.fetchOne([isbn]) { Columns.book($0) }
        }
        guard let statement = findByIdentity.sqlite else {
            return try findByIdentity.fetchAll([book.title, book.author, book.year]) { Columns.book($0) }
                .first { !claimed.contains($0.id) }
        }
        var found: Book?
        try statement.bind([book.title, book.author, book.year])
        defer { statement.reset() }
        while found == nil, let row = try statement.step() {
            let candidate = Columns.book(StoreRow(sqlite: row))
            if !claimed.contains(candidate.id) {
                found = candidate
            }
        }
        return found
    }
}

extension LibraryStore {
    // MARK: - Import

    /// Imports `books` in one write transaction (all or none) with one set of reused statements.
    ///
    /// ```swift
    /// let counts = try store.importBooks([NewBook(title: "Dune", author: "Frank Herbert", year: 1965)])
    /// ```
    public func importBooks<Books: Sequence>(_ books: Books) throws -> ImportCounts where Books.Element == NewBook {
        try writing {
            let importer = try BookImporter(store: self)
            for book in books {
                try importer.importBook(book)
            }
            return try importer.finish()
        }
    }
}

extension LibraryStore {
    /// The page cache a bulk import works with: 256 MB (SQLite's default is 2 MB, which makes a large import read
    /// and write the same index pages over and over).
    public static let bulkCacheKiB = 262_144

    /// Runs `body` (a bulk import's write transaction) with a 256 MB page cache and temporary storage in memory, then
    /// puts the connection's own settings back, whether `body` throws or not. Inside a transaction (where the
    /// settings would not apply to the transaction's start) it just runs `body`.
    ///
    /// ```swift
    /// let counts = try store.withBulkSettings { try store.importBooks(books) }
    /// ```
    public func withBulkSettings<T>(_ body: () throws -> T) throws -> T {
        guard !database.isInTransaction, database.dialect == .sqlite else { return try body() }
        let database = database.sqlite
        let cacheSize = try database.fetchOne("PRAGMA cache_size") { $0.int(0) } ?? -2000
        let tempStore = try database.fetchOne("PRAGMA temp_store") { $0.int(0) } ?? 0
        // PRAGMA values cannot be bound; these are integers this code chose or read back from SQLite.
        try database.execute("PRAGMA cache_size=-\(Self.bulkCacheKiB)")
        try database.execute("PRAGMA temp_store=MEMORY")
        defer {
            try? database.execute("PRAGMA cache_size=\(cacheSize)")
            try? database.execute("PRAGMA temp_store=\(tempStore)")
        }
        return try body()
    }
}

extension LibraryStore {
    /// The greatest ISBN that starts with `prefix`, or nil when no book has one; found on the ISBN index, without
    /// a scan. Synthetic catalogs use it to number new books after the ones already there.
    ///
    /// ```swift
    /// try store.highestISBN(startingWith: "9798")  // "9798000000991"
    /// ```
    public func highestISBN(startingWith prefix: String) throws -> String? {
        try reading {
            try database.fetchOne(
                "SELECT max(isbn) FROM books WHERE isbn >= ? AND isbn < ?", [prefix, prefix + "\u{10FFFF}"]
            ) { $0.stringOrNil(0) } ?? nil
        }
    }
}
