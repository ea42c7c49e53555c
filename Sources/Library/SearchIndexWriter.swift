import SQLite

/// Writes books' entries in the full-text index `book_search`, inside the caller's write transaction, so that books
/// and their entries are written (or rolled back) together. Used for every book the store adds or changes.
///
/// The index's content is the books' search columns (external content). New books are indexed together, read back
/// from their rows by id range (new ids are consecutive) when the range ends: at `flush()`, or when a book outside it
/// comes. FTS5 writes its pending terms to disk at every statement savepoint once it is part of the transaction,
/// and each INSERT into `books` opens one (its `books_counted` trigger could abort it half-way): indexing each book
/// with its own INSERT made an import about three times slower, and indexing every 1,000 books left FTS5 a thousand
/// small segments to merge in an import of a million; ranges of at most ``longestRange`` books bound the memory of
/// each indexing statement. Call `flush()` before the transaction commits.
///
/// ```swift
/// let index = try SearchIndexWriter(database: db)
/// try index.added(id: 12)  // book 12 was just inserted with its search columns
/// try index.flush()
/// ```
final class SearchIndexWriter {
    private let insertRange: Statement
    private let delete: Statement
    /// Books inserted but not yet indexed: a range of ids, since new ids are consecutive.
    private var pending: ClosedRange<Int>?

    /// Prepares the statements on `database`; one statement indexes at most `longestRange` books.
    init(database: Database, longestRange: Int = SearchIndexWriter.longestRange) throws {
        self.longestRange = max(1, longestRange)
        insertRange = try database.cachedStatement(
            """
            INSERT INTO book_search (rowid, search_title, search_author, search_description)
            SELECT id, search_title, search_author, search_description FROM books WHERE id BETWEEN ? AND ?
            """)
        delete = try database.cachedStatement(
            """
            INSERT INTO book_search (book_search, rowid, search_title, search_author, search_description)
            SELECT 'delete', id, search_title, search_author, search_description FROM books WHERE id = ?
            """)
    }

    /// The most books indexed by one statement, by default. The statement keeps, for its own rollback, the pages it changes
    /// that were there before it, and FTS5's merges reuse freed pages all the time: in memory (imports use
    /// `temp_store=MEMORY`) one statement for a million books grew to about 50 MB, and ranges of 20,000 took a
    /// 1,000,000-book import from 100 MB to 72 MB at its peak, in the same time.
    static let longestRange = 20_000
    private let longestRange: Int

    /// Marks the book `id`, just inserted with its search columns, to be indexed (at the latest by `flush()`).
    func added(id: Int) throws {
        if let range = pending, range.upperBound + 1 == id, range.count < longestRange {
            pending = range.lowerBound...id
            return
        }
        try flush()
        pending = id...id
    }

    /// Removes the book `id`'s entry; call it before its search columns change, and `added(id:)` after.
    func remove(id: Int) throws {
        try flush()
        try delete.execute([id])
    }

    /// Indexes the books added and not yet indexed.
    func flush() throws {
        guard let range = pending else { return }
        pending = nil
        try insertRange.execute([range.lowerBound, range.upperBound])
    }
}

/// A book's title, author and description as the search index holds them (`SearchFolding.indexText` of each), kept
/// in its row's `search_title`, `search_author` and `search_description`.
///
/// ```swift
/// SearchColumns(NewBook(title: "Фёдор")).title  // "федор fedor"
/// ```
struct SearchColumns {
    var title: String
    var author: String
    var description: String

    init(_ book: NewBook) {
        title = SearchFolding.indexText(book.title)
        author = SearchFolding.indexText(book.author)
        description = SearchFolding.indexText(book.description)
    }

    /// The same, folding through an import's cache.
    init(_ book: NewBook, cache: inout FoldingCache) {
        title = cache.indexText(book.title)
        author = cache.indexText(book.author)
        description = cache.indexText(book.description)
    }
}

/// `SearchFolding.indexText` with the results for short text that is not ASCII remembered (at most `capacity` of
/// them, forgotten all at once when full): an import meets the same authors again and again, and utf8proc's
/// folding of a name costs many times the look-up. ASCII text folds faster than it is looked up, and text longer
/// than `longestKept` bytes (descriptions, which rarely repeat) is not kept either, so the cache holds at most a
/// few megabytes.
///
/// ```swift
/// var cache = FoldingCache()
/// cache.indexText("Lucía Müller")  // "lucia muller", folded once
/// ```
struct FoldingCache {
    static let capacity = 4_096
    static let longestKept = 256
    private var folded: [String: String] = [:]

    mutating func indexText(_ text: String) -> String {
        let isASCII = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? false
        if text.utf8.count > Self.longestKept || isASCII {
            return SearchFolding.indexText(text)
        }
        if let known = folded[text] { return known }
        let result = SearchFolding.indexText(text)
        if folded.count >= Self.capacity { folded.removeAll(keepingCapacity: true) }
        folded[text] = result
        return result
    }
}
