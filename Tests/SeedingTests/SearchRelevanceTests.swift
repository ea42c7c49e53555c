import Library
import Seeding
import StoreTestSupport
import Testing

/// Search relevance over a fixed catalog: the demo data plus the books below. Each case names the expected first
/// result or the expected set of titles. Every case runs against each store (`StoreKind.available`: SQLite, and
/// PostgreSQL when `LIBRARY_TEST_POSTGRES` is set) with the same expectations.
@Suite("Search relevance over the demo catalog")
struct SearchRelevanceTests {
    /// Books added to the demo catalog for cases it lacks (Vietnamese, Greek, ranking ties and columns).
    static let extraBooks: [NewBook] = [
        NewBook(title: "Truyện Kiều", author: "Nguyễn Du", year: 1820, description: "An epic poem in Vietnamese."),
        NewBook(title: "Bà Triệu", author: "Trần Văn Giáp", description: "A Vietnamese heroine of the third century."),
        NewBook(title: "Ὀδύσσεια", author: "Ὅμηρος", year: -725, description: "The Odyssey in Ancient Greek."),
        // Ranking by column: "orwell" in a title, in an author (Animal Farm, Nineteen Eighty-Four) and in a
        // description.
        NewBook(title: "Orwell: A Life", author: "Bernard Crick", year: 1980, description: "A biography."),
        NewBook(title: "Essays on Dystopia", author: "Anne Example", description: "Reads Orwell beside Huxley."),
        // Ties: the same words in the same columns; title order, not id order, decides.
        NewBook(title: "Zeta Saga", author: "Tie Writer", description: "Same words."),
        NewBook(title: "Alpha Saga", author: "Tie Writer", description: "Same words."),
    ]

    /// The demo catalog and the extra books: in a fresh library on SQLite; on PostgreSQL, where a database takes a
    /// quarter of a second to make, in one database seeded by the first case that needs it and read by each case
    /// through a connection of its own (the cases only read).
    static func library(_ kind: StoreKind) throws -> TestLibrary {
        switch kind {
        case .sqlite:
            let library = try TestLibrary(kind: .sqlite)
            try seed(library)
            return library
        case .postgresql:
            let database = try seededPostgreSQL.withLock { seeded in
                if let seeded { return seeded }
                let library = try TestLibrary(kind: .postgresql)
                try seed(library)
                seeded = library.postgreSQL
                return library.postgreSQL!
            }
            return try TestLibrary(postgreSQL: database)
        }
    }

    /// The seeded PostgreSQL library (kept for the whole run, so never dropped).
    private static let seededPostgreSQL = Shared<PostgreSQLTestDatabase?>(nil)

    private static func seed(_ library: TestLibrary) throws {
        _ = try CatalogImport.seedDemo(into: library.store, now: library.now)
        _ = try library.store.importBooks(extraBooks)
    }

    static func titles(_ library: TestLibrary, _ search: String, perPage: Int = 100) throws -> [String] {
        try library.store.libraryPage(page: 1, perPage: perPage, search: search).entries.map(\.book.title)
    }

    // MARK: - First result

    static let firstResults: [(search: String, expected: String)] = [
        // Several words, any order, all required.
        ("tolkien hobbit", "The Hobbit"), ("hobbit tolkien", "The Hobbit"), ("HOBBIT", "The Hobbit"),
        ("garcia marquez soledad", "Cien años de soledad"), ("soledad márquez", "Cien años de soledad"),
        ("orwell farm", "Animal Farm"), ("kafka", "Die Verwandlung"),
        // Prefixes.
        ("hobb", "The Hobbit"), ("hobb tolk", "The Hobbit"), ("frank", "Frankenstein"),
        ("nineteen eigh", "Nineteen Eighty-Four"), ("dun", "Dune"),
        // Accents and case in several scripts.
        ("федор", "Преступление и наказание"), ("ФЁДОР", "Преступление и наказание"),
        ("достоевский", "Преступление и наказание"), ("наказание преступление", "Преступление и наказание"),
        ("ba trieu", "Bà Triệu"), ("BÀ TRIỆU", "Bà Triệu"), ("truyen kieu", "Truyện Kiều"),
        ("nguyen du", "Truyện Kiều"), ("Nguyễn", "Truyện Kiều"), ("ομηρος", "Ὀδύσσεια"),
        ("ΟΔΥΣΣΕΙΑ", "Ὀδύσσεια"), ("οδυσσ", "Ὀδύσσεια"), ("l'etranger", "L'Étranger"),
        ("etranger camus", "L'Étranger"), ("bronte eyre", "Jane Eyre"), ("saint exupery", "The Little Prince"),
        // Latin spelling of Cyrillic and Greek names.
        ("dostoevsk", "Преступление и наказание"), ("dostoevsky", "Преступление и наказание"),
        ("omiros", "Ὀδύσσεια"),
        // Chinese, Japanese, Arabic.
        ("猫", "吾輩は猫である"), ("森", "ノルウェイの森"), ("ノルウェイ", "ノルウェイの森"), ("村上", "ノルウェイの森"),
        ("三体", "三体"), ("刘慈欣", "三体"), ("محفوظ", "بين القصرين"),
        // Phrases.
        ("\"the hobbit\"", "The Hobbit"), ("“lord of the rings”", "The Lord of the Rings"),
        ("tolkien \"lord of\"", "The Lord of the Rings"),
        // ISBN-13 and ISBN-10, with or without hyphens and spaces (Dune: 9780441172719).
        ("9780441172719", "Dune"), ("978-0-441-17271-9", "Dune"), ("978 0 441 17271 9", "Dune"),
        ("0441172717", "Dune"), ("0-441-17271-7", "Dune"), ("ISBN 0-441-17271-7", "Dune"),
        ("isbn: 978-0441172719", "Dune"), (" 0 441 17271 7 ", "Dune"),
        // Operators are words: "-" does not exclude, "*" does not widen.
        ("-dune", "Dune"), ("dune*", "Dune"), ("dune:", "Dune"), ("(dune)", "Dune"), ("^dune", "Dune"),
        ("{dune}", "Dune"), ("dune,", "Dune"),
    ]

    @Test("the expected book comes first", arguments: StoreKind.available, firstResults)
    func firstResult(kind: StoreKind, example: (search: String, expected: String)) throws {
        let library = try Self.library(kind)
        let found = try Self.titles(library, example.search)
        #expect(found.first == example.expected, "\(example.search): \(found)")
    }

    // MARK: - Sets

    static let expectedSets: [(search: String, expected: [String])] = [
        ("tolk", ["The Hobbit", "The Lord of the Rings"]),
        ("tolkien", ["The Hobbit", "The Lord of the Rings"]),
        ("steinbeck", ["Of Mice and Men", "The Grapes of Wrath"]),
        ("\"hobbit the\"", []),  // a phrase keeps its order
        ("tolkien dune", []),  // every word is required
        ("dune OR hobbit", []),  // OR is a word, not an operator
        ("hobbit NOT tolkien", []),  // NOT is a word too
        ("saga", ["Alpha Saga", "Zeta Saga"]),
        ("orwell", ["Orwell: A Life", "Animal Farm", "Nineteen Eighty-Four", "Essays on Dystopia"]),
        ("9780000000002", []),  // an ISBN no book has
    ]

    @Test("the expected set of books", arguments: StoreKind.available, expectedSets)
    func expectedSet(kind: StoreKind, example: (search: String, expected: [String])) throws {
        let (search, expected) = example
        let library = try Self.library(kind)
        let found = try Self.titles(library, search)
        #expect(Set(found) == Set(expected), "\(search): \(found)")
        #expect(found.count == expected.count, "\(search): \(found)")
        #expect(try library.store.libraryPage(page: 1, perPage: 1, search: search).totalCount == expected.count)
    }

    @Test("a title match ranks before an author match before a description match", arguments: StoreKind.available)
    func columnWeights(kind: StoreKind) throws {
        let library = try Self.library(kind)
        let found = try Self.titles(library, "orwell")
        let title = try #require(found.firstIndex(of: "Orwell: A Life"))
        let author = try #require(found.firstIndex(of: "Animal Farm"))
        let description = try #require(found.firstIndex(of: "Essays on Dystopia"))
        #expect(title < author && author < description, "\(found)")
    }

    @Test("equal matches are ordered by title, not by id", arguments: StoreKind.available)
    func tiesByTitle(kind: StoreKind) throws {
        let library = try Self.library(kind)
        // Zeta Saga was added first; the two books have the same words in the same columns.
        #expect(try Self.titles(library, "saga") == ["Alpha Saga", "Zeta Saga"])
        #expect(try Self.titles(library, "tie writer same") == ["Alpha Saga", "Zeta Saga"])
    }

    // MARK: - Paging

    @Test(
        "paging through ranked results shows every match once, in the order of one big page",
        arguments: StoreKind.available)
    func stablePaging(kind: StoreKind) throws {
        let library = try Self.library(kind)
        for search in ["the", "a", "of", "e"] {
            let all = try library.store.libraryPage(page: 1, perPage: 1_000, search: search)
            #expect(all.totalCount > 6, "\(search) is not a broad enough search")
            var paged: [Int] = []
            for page in 1...(all.totalCount + 2) / 3 + 1 {
                let part = try library.store.libraryPage(page: page, perPage: 3, search: search)
                #expect(part.totalCount == all.totalCount)
                paged += part.entries.map(\.book.id)
            }
            #expect(paged == all.entries.map(\.book.id), "\(search)")
            #expect(Set(paged).count == paged.count, "\(search): a book shown twice")
        }
    }

    // MARK: - Hostile input

    static let hostile: [String] =
        [
            "\"", "*", "AND", "OR", "NOT", "NEAR", "NEAR(", "NEAR()", "-", ":", "^", "(", ")", "{", "}", ",", "+", ".",
            "'", "\\", "%", "_", "\u{0}", "\"\"", "\" \"", "\"\"\"", "\"dune", "dune\"", "d\"une", "* dune",
            "dune AND", "AND dune", "NEAR(dune hobbit, 2)", "title:dune", "search_title:dune", "{search_title}: dune",
            "book_search:dune", "rank:1", "- dune", "-- dune", "dune NOT", "(dune", "dune)", "((((", "))))", "^^^",
            "\"(\" \")\"", "a:b:c", "*:*", "NEAR(\"", "\u{0}dune\u{0}", "dune\u{7}\u{1B}[31m", "\u{FEFF}dune",
            "e\u{301}\u{301}\u{301}", "🙂", "👨‍👩‍👧", "\u{200B}", "\u{202E}dune", "ﷺ", "𝔡𝔲𝔫𝔢", "Ⅻ", "½",
            "\"tolkien\" AND \"hobbit\" OR NOT NEAR(dune) * - : ^ ( ) { } ,",
            String(repeating: "\"", count: 200), String(repeating: "*", count: 200),
            String(repeating: "NEAR(", count: 40), String(repeating: "a ", count: 100),
            String(repeating: "ab", count: 100), String(repeating: "(", count: 200),
            String(repeating: "é", count: 200), String(repeating: "x\"", count: 100),
            "", " ", "   ", "\t", "\n\r\t ",
        ]

    @Test("hostile search text is text: results or none, never an error", arguments: StoreKind.available, hostile)
    func hostileInput(kind: StoreKind, search: String) throws {
        let library = try Self.library(kind)
        let page = try library.store.libraryPage(page: 1, perPage: 20, search: search)
        #expect(page.entries.count <= 20)
        #expect(page.totalCount >= page.entries.count)
        // A later page and a one-book page agree on the total.
        #expect(try library.store.libraryPage(page: 2, perPage: 1, search: search).totalCount == page.totalCount)
    }

    @Test(
        "empty or white-space-only text is no search: the whole library",
        arguments: StoreKind.available, ["", " ", "\t\n", "\u{3000}"])
    func emptySearch(kind: StoreKind, search: String) throws {
        let library = try Self.library(kind)
        let page = try library.store.libraryPage(page: 1, perPage: 10, search: search)
        #expect(page.search == nil)
        #expect(page.totalCount == (try library.store.bookCount()))
    }

    @Test(
        "text with no letter or digit in it has only words that are ignored: no search, the whole library",
        arguments: StoreKind.available, ["*", "-", "\"\"", "()", "* - : ^"])
    func punctuationOnly(kind: StoreKind, search: String) throws {
        let library = try Self.library(kind)
        let page = try library.store.libraryPage(page: 1, perPage: 10, search: search)
        #expect(page.search == nil)
        #expect(page.totalCount == (try library.store.bookCount()))
        // Beside a real word, such words are still ignored.
        #expect(try library.store.libraryPage(page: 1, perPage: 10, search: search + " dune").totalCount == 1)
    }

    @Test("the index agrees with the books after seeding the demo catalog", arguments: StoreKind.available)
    func indexAgrees(kind: StoreKind) throws {
        let library = try Self.library(kind)
        #expect(try library.store.searchIndexProblem() == nil)
    }
}
