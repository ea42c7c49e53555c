import SQLite
import StoreTestSupport
import Testing

@testable import Library

/// The full-text index: built by migration 0002, kept by the database with each book, proven against the books.
@Suite struct SearchIndexTests {
    @Test func migrationBackfillsBooksWrittenBeforeIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("library.db")
        do {
            // A library of the first schema only, with books written as librarycli 0.1 wrote them.
            let old = try Database(path: path)
            try Migrator(migrations: Array(Migrations.embedded.prefix(1))).migrate(
                old, appliedAt: "2026-01-01T00:00:00Z")
            try old.execute(
                """
                INSERT INTO books (title, author, description, search_text) VALUES
                    ('Преступление и наказание', 'Фёдор Достоевский', 'Raskolnikov in Saint Petersburg.', 'x'),
                    ('The Hobbit', 'J. R. R. Tolkien', 'There and back again.', 'y')
                """)
        }
        let store = try LibraryStore.open(at: path, now: Timestamp(secondsSinceEpoch: 0))
        #expect(try Migrations.migrator.isUpToDate(store.database.sqlite))
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "dostoevsk федор").entries.map(\.book.id) == [1])
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "tolkien hobbit").entries.map(\.book.id) == [2])
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "raskolnikov").entries.map(\.book.id) == [1])
        #expect(try store.searchIndexProblem() == nil)
    }

    @Test(arguments: StoreKind.available)
    func theIndexFollowsAddsAndImports(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let store = fixture.store
        let dune = try store.addBook(NewBook(title: "Dune", author: "Frank Herbert", isbn: "9780441172719"))
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "herbert").entries.map(\.book) == [dune])
        // Re-importing the ISBN with a new title re-indexes the book: the old words no longer find it.
        let counts = try store.importBooks([
            NewBook(title: "Dune Messiah", author: "Frank Herbert", isbn: "9780441172719")
        ])
        #expect(counts.updated == 1)
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "messiah").entries.map(\.book.id) == [dune.id])
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "\"dune herbert\"").totalCount == 0)
        try store.setStatus(.lost, bookID: dune.id)
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "messiah").entries.first?.availability == .lost)
        #expect(try store.searchIndexProblem() == nil)
    }

    @Test func indexingInBoundedRangesIndexesEveryBook() throws {
        let fixture = try Fixture(kind: .sqlite, books: 0)
        let store = fixture.store
        try store.database.sqlite.write { db in
            // Ranges of 3: the ten books are indexed by four statements (3, 3, 3 and 1 at the flush).
            let index = try SearchIndexWriter(database: db, longestRange: 3)
            for number in 1...10 {
                let columns = SearchColumns(NewBook(title: "Volume \(number) marker\(number)z", author: "Ranged"))
                try db.execute(
                    """
                    INSERT INTO books (title, author, search_title, search_author, search_description)
                    VALUES (?, 'Ranged', ?, ?, '')
                    """, ["Volume \(number) marker\(number)z", columns.title, columns.author])
                try index.added(id: Int(db.lastInsertedRowID))
            }
            try index.flush()
        }
        #expect(try store.searchIndexProblem() == nil)
        for number in 1...10 {
            #expect(
                try store.libraryPage(page: 1, perPage: 10, search: "marker\(number)z").entries.map(\.book.id) == [
                    number
                ])
        }
        #expect(try store.libraryPage(page: 1, perPage: 20, search: "ranged").totalCount == 10)
    }

    @Test(arguments: StoreKind.available)
    func importsIndexEveryBookAcrossBatches(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let store = fixture.store
        // More books than one batch of the index writer, then one whose ISBN repeats a book of the same import
        // (an update of a book not yet indexed).
        var drafts = (1...2_345).map { NewBook(title: "Volume \($0)", author: "Serial Writer") }
        drafts.insert(NewBook(title: "Original Title", isbn: "9780441172719"), at: 1_500)
        drafts.append(NewBook(title: "Corrected Title", isbn: "9780441172719"))
        let counts = try store.importBooks(drafts)
        #expect(counts.inserted == 2_346 && counts.updated == 1)
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "serial").totalCount == 2_345)
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "\"volume 2345\"").totalCount == 1)
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "corrected").totalCount == 1)
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "original").totalCount == 0)
        #expect(try store.searchIndexProblem() == nil)
    }

    @Test(arguments: StoreKind.available)
    func aFailedImportLeavesNoIndexEntry(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let store = fixture.store
        #expect(throws: LibraryError.self) {
            try store.importBooks([NewBook(title: "Quixotic Unicorn"), NewBook(title: "  ")])
        }
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "quixotic").totalCount == 0)
        #expect(try store.database.fetchOne("SELECT count(*) FROM books") { $0.int(0) } == 0)
        if kind == .sqlite {
            #expect(try store.database.fetchOne("SELECT count(*) FROM book_search") { $0.int(0) } == 0)
        }
        #expect(try store.searchIndexProblem() == nil)
    }

    @Test(arguments: StoreKind.available)
    func theCheckFindsStaleSearchText(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 3)
        #expect(try fixture.store.searchIndexProblem() == nil)
        // A title changed behind librarycli's back, its search text left as it was.
        try fixture.store.database.execute("UPDATE books SET title = 'Renamed' WHERE id = 2")
        let problem = try #require(try fixture.store.searchIndexProblem())
        #expect(problem.contains("book #2"))
    }

    @Test func theCheckFindsAnIndexThatDisagreesWithTheBooks() throws {
        let fixture = try Fixture(books: 3)
        // The index entry of book 2 removed behind the trigger's back.
        try fixture.store.database.execute(
            """
            INSERT INTO book_search (book_search, rowid, search_title, search_author, search_description)
            SELECT 'delete', id, search_title, search_author, search_description FROM books WHERE id = 2
            """)
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "book 2").totalCount == 0)
        let problem = try #require(try fixture.store.searchIndexProblem())
        #expect(problem.contains("full-text index"))
    }

    @Test func aBookWrittenWithoutItsIndexEntryIsReported() throws {
        let fixture = try Fixture(books: 2)
        // Another SQLite tool adds a book with the right search columns but no index entry.
        try fixture.store.database.execute("INSERT INTO books (title, search_title) VALUES ('Raw', 'raw')")
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "raw").totalCount == 0)
        let problem = try #require(try fixture.store.searchIndexProblem())
        #expect(problem.contains("full-text index"))
    }

    @Test(arguments: StoreKind.available)
    func pagesThroughEqualRanksByTitle(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        // Ten books that rank the same for "saga" (same words, same lengths), added in reverse title order.
        let letters = "ABCDEFGHIJ".map(String.init)
        _ = try fixture.store.importBooks(
            letters.reversed().map { NewBook(title: "Saga \($0)", author: "Same Writer") })
        var seen: [String] = []
        for page in 1...4 {
            let part = try fixture.store.libraryPage(page: page, perPage: 3, search: "saga writer")
            #expect(part.totalCount == 10)
            seen += part.entries.map(\.book.title)
        }
        #expect(seen == letters.map { "Saga \($0)" })
        // A page past the end is empty but still counts the matches.
        let past = try fixture.store.libraryPage(page: 5, perPage: 3, search: "saga")
        #expect(past.entries.isEmpty && past.totalCount == 10)
        let far = try fixture.store.libraryPage(page: Int.max / 2, perPage: 10, search: "saga")
        #expect(far.entries.isEmpty && far.totalCount == 10)
    }

    @Test func aBareMatchQueryReadsTheSameIndex() throws {
        // What the benchmark's baseline and a sqlite3 session do: fold the words, MATCH, order by rank.
        let fixture = try Fixture(books: 0)
        _ = try fixture.store.importBooks([
            NewBook(title: "Essays", author: "George Orwell"), NewBook(title: "Orwell's Life", author: "Someone"),
        ])
        let ids = try fixture.store.database.fetchAll(
            "SELECT rowid FROM book_search WHERE book_search MATCH ? ORDER BY rank", ["\"orwell\"*"]
        ) { $0.int(0) }
        #expect(ids == [2, 1])
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "Orwell").entries.map(\.book.id) == [2, 1])
    }
}

@Suite struct BookSearchTests {
    @Test(
        arguments: [
            ("tolkien hobbit", "\"tolkien\"* \"hobbit\"*"),
            ("Tolkien \"The Hobbit\"", "\"tolkien\"* \"the hobbit\""),
            ("“lord of”  rings", "\"lord of\" \"rings\"*"),
            ("dune AND NOT NEAR(", "\"dune\"* \"and\"* \"not\"* \"near(\"*"),
            ("l'Étranger", "\"l'etranger\"*"),
            ("\"unclosed phrase", "\"unclosed\"* \"phrase\"*"),
            ("a\"b", "\"a\"* \"b\"*"),
            ("森の", "\"森 の\"*"),
            ("dune\u{0}\u{1B}x", "\"dune\"* \"x\"*"),
            ("* - : ^ ( ) { } ,", nil),
            ("\"\"", nil),
        ] as [(String, String?)])
    func matchExpression(text: String, expected: String?) throws {
        #expect(try BookSearch(text)?.matchExpression == expected)
    }

    @Test(
        arguments: [
            ("tolkien hobbit", "('tolkien':*) & ('hobbit':*)"),
            ("\"hobbit\" tolk", "('hobbit') & ('tolk':*)"),
            // Several tokens lie within one column: the title (A), the author (B) or the description (D).
            ("\"the hobbit\"", "('the':A <-> 'hobbit':A | 'the':B <-> 'hobbit':B | 'the':D <-> 'hobbit':D)"),
            ("l'etr", "('l':A <-> 'etr':*A | 'l':B <-> 'etr':*B | 'l':D <-> 'etr':*D)"),
            ("dune AND NOT NEAR( !x", "('dune':*) & ('and':*) & ('not':*) & ('near':*) & ('x':*)"),
            (
                "o\\'brien's",
                "('o':A <-> 'brien':A <-> 's':*A | 'o':B <-> 'brien':B <-> 's':*B | 'o':D <-> 'brien':D <-> 's':*D)"
            ),
            ("* - : ^ ( ) { } , & | !", nil),
        ] as [(String, String?)])
    func tsQuery(text: String, expected: String?) throws {
        #expect(try BookSearch(text)?.tsQuery == expected)
    }

    @Test(arguments: [
        ("9780441172719", ["9780441172719", "0441172717"]),
        ("978-0-441-17271-9", ["9780441172719", "0441172717"]),
        ("0-441-17271-7", ["9780441172719", "0441172717"]),
        ("ISBN 0 441 17271 7", ["9780441172719", "0441172717"]),
        ("080442957x", ["9780804429573", "080442957X"]),
        ("ISBN-13: 978-0-441-17271-9", ["9780441172719", "0441172717"]),
        ("isbn-10: 0441172717", ["9780441172719", "0441172717"]),
        ("ISBN10 0441172717", ["9780441172719", "0441172717"]),
        ("\"978-0441172719\"", ["9780441172719", "0441172717"]),
        ("978‑0‑441‑17271‑9", ["9780441172719", "0441172717"]),  // non-breaking hyphens
        ("isbn 13 9780441172719", []),
        ("9791234567896", ["9791234567896"]),
        ("dune", []), ("12345", []), ("97804411727190", []), ("04411727x7", []),
    ])
    func isbns(text: String, expected: [String]) throws {
        #expect(try BookSearch(text)?.isbns == expected)
    }
}
