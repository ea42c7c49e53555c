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
/// if case .inserted(let id) = try clients.importClient(name: "Ann", cardNumber: "C-7", loanLimit: 5) { print(id) }
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
/// A book matches an existing one by ISBN when it has one. A book without an ISBN matches one by title + author +
/// year (title and author compared NFC-normalised and case-folded, `SearchFolding.matchKey`), whether that one has an
/// ISBN or not, and keeps that ISBN; a book whose ISBN the library does not have matches a book without an ISBN that
/// way and gives it the ISBN. Among several, one without an ISBN comes first, then one with the draft's pages and
/// description, then the lowest id. Several identical drafts in one import match distinct existing copies, so
/// seeding the same catalog twice leaves the library unchanged. The status of existing books is never changed, nor a fact the draft
/// does not give (`importBook(_:fields:)`, for a file without that column). Use it inside one
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
    private let update: StoreStatement
    /// SQLite: the books waiting to be inserted by one multi-row INSERT (`insertBatch`), in the order they came.
    private var batch: [PendingBook] = []
    /// SQLite: the INSERT of `rowsPerInsert` rows, once prepared.
    private var fullBatchInsert: Statement?
    /// SQLite: rows per multi-row INSERT. Each INSERT into `books` is a statement transaction (the `books_counted`
    /// trigger could abort it half-way), with its journal and the full-text table's savepoint: written per 100 rows
    /// instead of per row, a seed of 100,000 books spends about a third less time in SQLite.
    static let rowsPerInsert = 100
    /// SQLite's FTS5 index entries, written in batches; nil on PostgreSQL, whose search vector is a generated column.
    private let index: SearchIndexWriter?
    /// The books this import matched among those the library had before it; every book with an id above
    /// `firstNewID - 1` was inserted by this import and is taken too. (Ids are dense and never reused.)
    private var claimed = Set<Int>()
    /// The folded search text of the names (and other text) this import has met.
    private var folding = FoldingCache()
    private var firstNewID = Int.max
    /// PostgreSQL: the books waiting to be written (in batches of `batchSize`, by COPY with reserved ids), and the
    /// books of this import by ISBN, written or waiting (a later row with the same ISBN meets them as SQLite's
    /// sequential inserts would).
    private var pending: [PendingBook] = []
    private var importedByISBN: [String: ImportedBook] = [:]
    /// SQLite: the ISBNs of the books in `batch`.
    private var batchISBNs = Set<String>()
    /// Whether the library had books without an ISBN when the import began: only then can a book with an ISBN the
    /// library lacks meet one by title + author + year (books this import inserts are its own).
    private var hadBooksWithoutISBN = true
    static let batchSize = 1_000

    private struct PendingBook {
        var book: NewBook
        var search: SearchColumns
        /// The facts `book` gives; an existing book it meets keeps the others.
        var fields: BookFields = .all
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
        update = try database.prepare(
            """
            UPDATE books SET title = ?, author = ?, year = ?, pages = ?, description = ?, isbn = ?,
                             search_title = ?, search_author = ?, search_description = ?
            WHERE id = ?
            """)
        index = try sqlite.map { try SearchIndexWriter(database: $0) }
        if database.isInTransaction {
            // PostgreSQL: writers of books take turns from here, as SQLite's single writer does: the count's row
            // stays locked until the import commits, so another import's look-ups of ISBNs happen after this
            // one's books are in.
            let count = try database.fetchOne(
                "SELECT book_count FROM library_stats WHERE id = 1"
                    + (database.dialect == .postgresql ? " FOR UPDATE" : "")
            ) { $0.int(0) }
            firstNewID = (count ?? Int.max - 1) + 1
            hadBooksWithoutISBN =
                try database.fetchOne("SELECT 1 FROM books WHERE isbn IS NULL LIMIT 1") {
                    $0.int(0)
                } != nil
        }
    }

    /// Inserts `draft`, or updates the existing copy it matches; throws `LibraryError.invalidInput` for bad fields.
    /// The book is checked at once and written with the next batch (or by `finish()`); `finish()` counts every
    /// book.
    ///
    /// `fields` names the facts the draft gives (all of them unless told): an existing book it matches keeps the
    /// others as they are, and a new book gets the draft's values (the defaults) for them. A draft without an
    /// ISBN is matched by its title, author and year whatever `fields` says, and never takes a book's ISBN away.
    ///
    /// ```swift
    /// try importer.importBook(NewBook(title: "Dune", author: "Frank Herbert", isbn: "9780441013593"))
    /// try importer.importBook(NewBook(title: "Dune", isbn: "9780441013593"), fields: [.title])  // author kept
    /// ```
    public func importBook(_ draft: NewBook, fields: BookFields = .all) throws {
        precondition(database.isInTransaction, "import books inside a write transaction")
        let book = try LibraryStore.validated(draft)
        let item = PendingBook(book: book, search: SearchColumns(book, cache: &folding), fields: fields)
        guard sqlite != nil else {
            pending.append(item)
            if pending.count >= Self.batchSize { try writePending() }
            return
        }
        if let isbn = book.isbn {
            // A book whose ISBN the library lacks may meet a book without one. Not when a waiting book has the
            // ISBN: inserted first, it is the one this book meets.
            if hadBooksWithoutISBN, !batchISBNs.contains(isbn), let existing = try match(item, withoutISBN: true),
                try findByISBN.fetchOne([isbn], { Columns.book($0) }) == nil
            {
                try meet(existing, with: item)
                return
            }
            batchISBNs.insert(isbn)
        } else if var existing = try match(item, withoutISBN: false) {
            // Books without an ISBN match only books the library had before this import (the new ones are this
            // import's own). A waiting book that has the ISBN of the one found meets it first, as one by one.
            if let isbn = existing.isbn, batchISBNs.contains(isbn) {
                try insertBatch()
                guard let next = try match(item, withoutISBN: false) else {
                    batch.append(item)
                    return
                }
                existing = next
            }
            try meet(existing, with: item)
            return
        }
        // Most imported books are new: they are inserted with `ON CONFLICT (isbn) DO NOTHING`, and only a book
        // whose ISBN turned its row into no change is looked up (`insertBatch`). One statement per 100 new books
        // instead of a look-up and an insert per book.
        batch.append(item)
        if batch.count >= Self.rowsPerInsert { try insertBatch() }
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
        try insertBatch()
        try index?.flush()
        return counts
    }

    // MARK: - Internal

    /// The books that may have a draft's title + author + year: those with its folded search title and author (on
    /// `books_by_folded_identity`) and its year, by id. `match` compares their title and author exactly as folded.
    static let findByIdentitySQL = """
        SELECT \(Columns.book) FROM books b
        WHERE b.search_title = ? AND b.search_author = ? AND b.year IS ? ORDER BY b.id
        """

    /// The same look-up in PostgreSQL's words (`IS NOT DISTINCT FROM`).
    static let findByIdentityPostgreSQL = """
        SELECT \(Columns.book) FROM books b
        WHERE b.search_title = ? AND b.search_author = ? AND b.year IS NOT DISTINCT FROM CAST(? AS integer)
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
                    let item = merged(item, keeping: first)
                    let book = item.book
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
                    if hadBooksWithoutISBN, let found = try match(item, withoutISBN: true) {
                        try meet(found, with: item)
                        continue
                    }
                }
                importedByISBN[isbn] = .pending(index: fresh.count)
                fresh.append(item)
            } else if let found = try match(item, withoutISBN: false) {
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
            claim(id)
            if let isbn = book.isbn {
                importedByISBN[isbn] = .written(
                    Book(
                        id: id, title: book.title, author: book.author, year: book.year, pages: book.pages,
                        description: book.description, isbn: book.isbn, status: book.status))
            }
        }
        counts.inserted += fresh.count
    }

    /// A waiting book that matched a book already written: unchanged, or updated in place (with its full-text
    /// entry on SQLite). A book without an ISBN keeps the existing one's.
    private func meet(_ existing: Book, with given: PendingBook) throws {
        claim(existing.id)
        var item = merged(
            given,
            keeping: NewBook(
                title: existing.title, author: existing.author, year: existing.year, pages: existing.pages,
                description: existing.description))
        if item.book.isbn == nil { item.book.isbn = existing.isbn }
        let book = item.book
        if existing.title == book.title && existing.author == book.author && existing.year == book.year
            && existing.pages == book.pages && existing.description == book.description && existing.isbn == book.isbn
        {
            counts.unchanged += 1
            return
        }
        try index?.remove(id: existing.id)
        try update.execute([
            book.title, book.author, book.year, book.pages, book.description, book.isbn,
            item.search.title, item.search.author, item.search.description, existing.id,
        ])
        try index?.added(id: existing.id)
        if sqlite == nil, let isbn = book.isbn {
            var updated = existing
            (updated.title, updated.author, updated.year) = (book.title, book.author, book.year)
            (updated.pages, updated.description) = (book.pages, book.description)
            importedByISBN[isbn] = .written(updated)
        }
        counts.updated += 1
    }

    /// `item` with the facts it does not give taken from `kept` (the book it meets), its search columns folded
    /// again when a text changed; `item` itself when it gives every fact.
    private func merged(_ item: PendingBook, keeping kept: NewBook) -> PendingBook {
        guard item.fields != .all else { return item }
        var book = item.book
        if !item.fields.contains(.title) { book.title = kept.title }
        if !item.fields.contains(.author) { book.author = kept.author }
        if !item.fields.contains(.year) { book.year = kept.year }
        if !item.fields.contains(.pages) { book.pages = kept.pages }
        if !item.fields.contains(.description) { book.description = kept.description }
        return PendingBook(book: book, search: SearchColumns(book, cache: &folding), fields: .all)
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

    /// SQLite: inserts the waiting books with one INSERT of all their rows, `ON CONFLICT (isbn) DO NOTHING RETURNING
    /// id, isbn`. A book whose ISBN was in the library already (or earlier in the batch) inserted nothing; it is
    /// then looked up and met, in order, as if each book had been inserted alone. The rows are inserted in the
    /// batch's order, so the inserted ones have the returned ids in ascending order.
    private func insertBatch() throws {
        guard let sqlite, !batch.isEmpty else { return }
        let rows = batch
        batch.removeAll(keepingCapacity: true)
        batchISBNs.removeAll(keepingCapacity: true)
        // The full batch's statement is prepared once per import (its text alone, 100 rows of placeholders, takes
        // longer to build than a batch of books to bind); a last, shorter batch gets its own.
        let statement: Statement
        if rows.count == Self.rowsPerInsert {
            let full = try fullBatchInsert ?? sqlite.prepare(Self.insertSQL(rows: rows.count))
            fullBatchInsert = full
            statement = full
        } else {
            statement = try sqlite.prepare(Self.insertSQL(rows: rows.count))
        }
        statement.reset()
        for (row, item) in rows.enumerated() {
            let first = row * Self.insertColumns.count
            for (offset, column) in Self.insertColumns.enumerated() {
                try column.bind(statement, item, first + offset + 1)
            }
        }
        var ids: [Int] = []
        ids.reserveCapacity(rows.count)
        var insertedISBNs = Set<String>()
        defer { statement.reset() }
        while let row = try statement.step() {
            ids.append(row.int(0))
            if let isbn = row.stringOrNil(1) { insertedISBNs.insert(isbn) }
        }
        ids.sort()
        var next = 0
        var conflicts: [PendingBook] = []
        for item in rows {
            if let isbn = item.book.isbn, insertedISBNs.remove(isbn) == nil {
                conflicts.append(item)
                continue
            }
            guard next < ids.count else { break }
            try index?.added(id: ids[next])
            next += 1
        }
        guard next == ids.count, insertedISBNs.isEmpty, next + conflicts.count == rows.count else {
            throw LibraryError.invalidInput(
                "SQLite inserted \(ids.count) of \(rows.count) books in a way this import cannot account for")
        }
        counts.inserted += ids.count
        for item in conflicts {
            guard let isbn = item.book.isbn, let existing = try findByISBN.fetchOne([isbn], { Columns.book($0) })
            else {
                throw LibraryError.invalidInput("the ISBN \(item.book.isbn ?? "") is already in the library")
            }
            try meet(existing, with: item)
        }
    }

    /// The columns a new book's row is written with, each with how its value is bound: the one list the INSERT's
    /// text and its bindings both come from.
    private static let insertColumns: [(name: String, bind: @Sendable (Statement, PendingBook, Int) throws -> Void)] = [
        ("title", { try $0.bind(text: $1.book.title, at: $2) }),
        ("author", { try $0.bind(text: $1.book.author, at: $2) }),
        ("year", { try $0.bind(integer: $1.book.year, at: $2) }),
        ("pages", { try $0.bind(integer: $1.book.pages, at: $2) }),
        ("description", { try $0.bind(text: $1.book.description, at: $2) }),
        ("isbn", { try $0.bind(text: $1.book.isbn, at: $2) }),
        ("status", { try $0.bind(text: $1.book.status.rawValue, at: $2) }),
        ("search_title", { try $0.bind(text: $1.search.title, at: $2) }),
        ("search_author", { try $0.bind(text: $1.search.author, at: $2) }),
        ("search_description", { try $0.bind(text: $1.search.description, at: $2) }),
    ]

    /// `INSERT INTO books (...) VALUES (...), ... ON CONFLICT (isbn) DO NOTHING RETURNING id, isbn` for `rows` rows.
    static func insertSQL(rows: Int) -> String {
        let row = "(" + repeatElement("?", count: insertColumns.count).joined(separator: ", ") + ")"
        return """
            INSERT INTO books (\(insertColumns.map(\.name).joined(separator: ", ")))
            VALUES \(repeatElement(row, count: rows).joined(separator: ", "))
            ON CONFLICT (isbn) DO NOTHING RETURNING id, isbn
            """
    }

    /// Whether the book `id` is taken by this import: matched already, or inserted by it.
    private func isClaimed(_ id: Int) -> Bool {
        id >= firstNewID || claimed.contains(id)
    }

    private func claim(_ id: Int) {
        if id < firstNewID { claimed.insert(id) }
    }

    /// The book not taken yet that has the draft's title, author (both as `SearchFolding.matchKey` folds them) and
    /// year; only one without an ISBN when `withoutISBN`. Of several: one without an ISBN first, then one whose pages
    /// and description (those `fields` gives) are the draft's too, then the lowest id. So copies that differ only in
    /// pages or description are met by their own rows in whatever order a file lists them.
    private func match(_ item: PendingBook, withoutISBN: Bool) throws -> Book? {
        let book = item.book
        let fields = item.fields
        let title = SearchFolding.matchKey(book.title)
        let author = SearchFolding.matchKey(book.author)
        var best: (book: Book, rank: Int)?
        /// Weighs a candidate (they come by id); true once the best possible one is found.
        func consider(_ copy: Book) -> Bool {
            guard !isClaimed(copy.id), !withoutISBN || copy.isbn == nil,
                SearchFolding.matchKey(copy.title) == title, SearchFolding.matchKey(copy.author) == author
            else { return false }
            let isSame =
                (!fields.contains(.pages) || copy.pages == book.pages)
                && (!fields.contains(.description) || copy.description == book.description)
            let rank = (copy.isbn == nil ? 0 : 2) + (isSame ? 0 : 1)
            if rank < best?.rank ?? Int.max { best = (copy, rank) }
            return rank == 0
        }
        let key: [(any DatabaseValueConvertible)?] = [item.search.title, item.search.author, book.year]
        guard let statement = findByIdentity.sqlite else {
            for copy in try findByIdentity.fetchAll(key, { Columns.book($0) }) where consider(copy) { break }
            return best?.book
        }
        try statement.bind(key)
        defer { statement.reset() }
        while let row = try statement.step() {
            if consider(Columns.book(StoreRow(sqlite: row))) { break }
        }
        return best?.book
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
    /// The page cache a bulk import works with by default: 256 MB (SQLite's default is 2 MB, which makes a large
    /// import read and write the same index pages over and over).
    public static let bulkCacheKiB = 262_144

    /// The page cache an import of files works with: 32 MB, so that a file of any size is imported in under 100 MB
    /// of memory (a 1,000,000-book CSV: 91 MB at its peak, against 335 MB with 256 MB; about 7% slower).
    public static let fileImportCacheKiB = 32_768

    /// Runs `body` (a bulk import's write transaction) with a page cache of `cacheKiB` (256 MB by default) and
    /// temporary storage in memory, then puts the connection's own settings back, whether `body` throws or not.
    /// Inside a transaction (where the settings would not apply to the transaction's start) it just runs `body`.
    ///
    /// ```swift
    /// let counts = try store.withBulkSettings { try store.importBooks(books) }
    /// ```
    public func withBulkSettings<T>(cacheKiB: Int = bulkCacheKiB, _ body: () throws -> T) throws -> T {
        guard !database.isInTransaction, database.dialect == .sqlite else { return try body() }
        let database = database.sqlite
        let cacheSize = try database.fetchOne("PRAGMA cache_size") { $0.int(0) } ?? -2000
        let tempStore = try database.fetchOne("PRAGMA temp_store") { $0.int(0) } ?? 0
        // PRAGMA values cannot be bound; these are integers this code chose or read back from SQLite.
        try database.execute("PRAGMA cache_size=-\(max(1, cacheKiB))")
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
