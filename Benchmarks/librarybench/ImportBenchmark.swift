import CSQLite
import Library
import Seeding

/// `import`: N generated books into an empty database, CatalogImport.generate vs what SQLite itself does with the
/// same rows: one raw prepared INSERT in one transaction with a 256 MB page cache, the rows generated (and their
/// search columns folded) before the clock starts.
enum ImportBenchmark {
    static func run(_ options: Options) throws {
        let count = options.count ?? 1_000_000
        let large = count >= 500_000
        let runs = options.runs ?? (large ? 3 : 7)
        let warmupCount = large ? count / 10 : count
        print("import: \(grouped(count)) generated books into an empty database (seed 1), \(runs) runs")
        if large {
            print("  (large N: \(runs) runs, after one warm-up run of each at \(grouped(warmupCount)) books)")
        }
        if options.runs == nil && large {
            print("  (fewer than 7 runs because one run takes seconds; pass --runs 7 for more)")
        }
        if large {
            _ = try library(count: warmupCount)
            _ = try baseline(count: warmupCount)
        }
        let stats = try measure(
            runs: runs, warmups: large ? 0 : 1,
            [
                Contender(name: "library", run: { try library(count: count) }),
                Contender(name: "baseline", run: { try baseline(count: count) }),
            ])
        printStats("CatalogImport.generate (BookImporter)", stats[0], work: count, unit: "rows/s")
        printStats("baseline: SQLite alone, rows ready, 256 MB page cache", stats[1], work: count, unit: "rows/s")
        // The target: the time within 1.5x of SQLite's, that is at least 1/1.5 of its speed.
        printRatio("import", subject: stats[0].median, baseline: stats[1].median, target: 1 / 1.5)
    }

    /// Times `CatalogImport.generate` into a fresh, migrated database (opening and migrating are not timed).
    static func library(count: Int) throws -> Double {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let now = Timestamp.systemNow()
        let seconds: Double
        do {
            let store = try LibraryStore.open(at: directory.file("library.sqlite"), now: now)
            seconds = try timed {
                let report = try CatalogImport.generate(count: count, seed: 1, into: store)
                guard report.books.inserted == count else { throw BenchError("inserted \(report.books.inserted)") }
            }
            guard try store.bookCount() == count else { throw BenchError("library import lost books") }
        }
        return seconds
    }

    /// One generated book as the baseline binds it: the search columns already folded.
    struct Row {
        var title: String
        var author: String
        var year: Int?
        var pages: Int?
        var description: String
        var isbn: String?
        var status: String
        var search: [String]
    }

    /// The rows `CatalogGenerator(seed: 1)` draws (titles in random order), in the order it draws them.
    static func rows(count: Int) -> [Row] {
        var generator = CatalogGenerator(seed: 1)
        return (0..<count).map { number in
            let book = generator.book(number: number)
            return Row(
                title: book.title, author: book.author, year: book.year, pages: book.pages,
                description: book.description, isbn: book.isbn, status: (book.status ?? .available).rawValue,
                search: [
                    SearchFolding.indexText(book.title), SearchFolding.indexText(book.author),
                    SearchFolding.indexText(book.description),
                ])
        }
    }

    /// Times SQLite itself inserting the same rows into the same schema: the rows are made before the clock starts,
    /// then one transaction with a 256 MB page cache, one reused INSERT, and the full-text index entries written
    /// 1,000 books at a time by a second reused INSERT, as librarycli writes them.
    static func baseline(count: Int) throws -> Double {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rows = rows(count: count)
        let seconds: Double
        do {
            let database = try RawDatabase.withSchema(path: directory.file("baseline.sqlite"))
            try database.exec("PRAGMA cache_size=-262144")
            seconds = try timed {
                try database.exec("BEGIN IMMEDIATE")
                let insert = try database.prepare(
                    """
                    INSERT INTO books (title, author, year, pages, description, isbn, status,
                                       search_title, search_author, search_description)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let index = try database.prepare(
                    """
                    INSERT INTO book_search (rowid, search_title, search_author, search_description)
                    SELECT id, search_title, search_author, search_description FROM books WHERE id BETWEEN ? AND ?
                    """)
                var firstUnindexed = 1
                for (number, row) in rows.enumerated() {
                    insert.bind(1, row.title)
                    insert.bind(2, row.author)
                    if let year = row.year { insert.bind(3, year) } else { insert.bindNull(3) }
                    if let pages = row.pages { insert.bind(4, pages) } else { insert.bindNull(4) }
                    insert.bind(5, row.description)
                    if let isbn = row.isbn { insert.bind(6, isbn) } else { insert.bindNull(6) }
                    insert.bind(7, row.status)
                    for (offset, text) in row.search.enumerated() { insert.bind(Int32(8 + offset), text) }
                    try insert.run()
                    let id = Int(sqlite3_last_insert_rowid(database.handle))
                    if id - firstUnindexed + 1 == 1_000 || number == count - 1 {
                        index.bind(1, firstUnindexed)
                        index.bind(2, id)
                        try index.run()
                        firstUnindexed = id + 1
                    }
                }
                try database.exec("COMMIT")
            }
            let check = try database.prepare("SELECT count(*) FROM books")
            guard try check.int() == count else { throw BenchError("baseline import lost books") }
        }
        return seconds
    }
}
