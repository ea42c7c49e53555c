import CSQLite
import Library
import Seeding

/// `import`: N generated books into an empty database, CatalogImport.generate vs one raw prepared INSERT.
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
        printStats("baseline: raw C API, one prepared INSERT", stats[1], work: count, unit: "rows/s")
        printRatio("import", subject: stats[0].median, baseline: stats[1].median, target: 0.7)
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

    /// Times the raw C API doing the same rows: one transaction, one reused INSERT, the same column values.
    static func baseline(count: Int) throws -> Double {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let seconds: Double
        do {
            let database = try RawDatabase.withSchema(path: directory.file("baseline.sqlite"))
            seconds = try timed {
                try database.exec("BEGIN IMMEDIATE")
                let insert = try database.prepare(
                    """
                    INSERT INTO books (title, author, year, pages, description, isbn, status,
                                       search_title, search_author, search_description)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                // The full-text index entries, 1,000 books at a time, as librarycli writes them.
                let index = try database.prepare(
                    """
                    INSERT INTO book_search (rowid, search_title, search_author, search_description)
                    SELECT id, search_title, search_author, search_description FROM books WHERE id BETWEEN ? AND ?
                    """)
                var firstUnindexed = 1
                var generator = CatalogGenerator(seed: 1)
                for number in 0..<count {
                    let book = generator.book(number: number)
                    insert.bind(1, book.title)
                    insert.bind(2, book.author)
                    if let year = book.year { insert.bind(3, year) } else { insert.bindNull(3) }
                    if let pages = book.pages { insert.bind(4, pages) } else { insert.bindNull(4) }
                    insert.bind(5, book.description)
                    if let isbn = book.isbn { insert.bind(6, isbn) } else { insert.bindNull(6) }
                    insert.bind(7, (book.status ?? .available).rawValue)
                    let search = [
                        SearchFolding.indexText(book.title), SearchFolding.indexText(book.author),
                        SearchFolding.indexText(book.description),
                    ]
                    for (offset, text) in search.enumerated() { insert.bind(Int32(8 + offset), text) }
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
