import Library
import PostgreSQL
import StoreTestSupport
import Testing

/// Searches where the stores' full-text engines could part: SQLite's FTS5 (the unicode61 tokenizer: a word is a run
/// of letters and digits; a phrase lies within one column) and PostgreSQL's tsvector (the default parser of the
/// 'simple' configuration, over the three columns in one vector). The same books must be found on both.
@Suite struct SearchAgreementTests {
    static let books = [
        NewBook(title: "Dune", author: "Frank Herbert"),
        NewBook(title: "Nineteen Eighty-Four", author: "George Orwell"),
        NewBook(title: "War and Peace", author: "Leo Tolstoy", description: "Written by Tolstoy (1828-1910)."),
        NewBook(title: "Web Pages", description: "Read at example.com, version 2.5."),
    ]

    static func titles(_ kind: StoreKind, _ search: String) throws -> [String] {
        let fixture = try Fixture(kind: kind, books: 0)
        _ = try fixture.store.importBooks(books)
        let found = try fixture.store.libraryPage(page: 1, perPage: 10, search: search).entries
        return found.map(\.book.title).sorted()
    }

    @Test(
        arguments: StoreKind.available,
        [
            ("\"dune frank\"", []),  // a phrase does not run on from the title into the author
            ("\"herbert dune\"", []),
            ("\"frank herbert\"", ["Dune"]),
            ("\"orwell nineteen\"", []),
            ("eighty-four orwell", ["Nineteen Eighty-Four"]),
            ("four", ["Nineteen Eighty-Four"]),
            ("1828", ["War and Peace"]),
            ("example", ["Web Pages"]),
        ] as [(String, [String])])
    func phrasesLieWithinOneColumn(kind: StoreKind, example: (search: String, expected: [String])) throws {
        #expect(try Self.titles(kind, example.search) == example.expected, "\(example.search)")
    }

    /// PostgreSQL's parser alone keeps "eighty-four" whole before its parts (so a phrase over it finds no book), a
    /// number after a hyphen signed ("-1910"), a host name ("example.com") and a decimal ("2.5") as one token each,
    /// where unicode61 splits them into words; migrations/postgresql/0002 turns ASCII punctuation into spaces before
    /// the parser sees the search columns, so both stores find these books.
    @Test(
        arguments: StoreKind.available,
        [
            ("\"nineteen eighty four\"", ["Nineteen Eighty-Four"]),  // a hyphen separates words
            ("\"nineteen eighty-four\"", ["Nineteen Eighty-Four"]),
            ("1910", ["War and Peace"]),  // after a hyphen, a number is a word of its own
            ("com", ["Web Pages"]),  // so is the part of a host name after a dot
            ("5", ["Web Pages"]),  // and the digits after a decimal point
        ] as [(String, [String])])
    func punctuationSeparatesWords(kind: StoreKind, example: (search: String, expected: [String])) throws {
        #expect(try Self.titles(kind, example.search) == example.expected, "\(example.search)")
    }

    /// In a PostgreSQL database whose LC_CTYPE is C, the parser reads every non-ASCII character as a letter, so
    /// quotes such as « » and dashes would stick to the words beside them; the schema maps them to spaces first.
    @Test("in a database with LC_CTYPE C, quotes and dashes beyond ASCII still separate words", .needsPostgreSQL)
    func punctuationInACTypeDatabase() throws {
        let base = try #require(TestPostgreSQL.baseURL)
        let admin = try PostgreSQLConnection(url: base)
        let name = "lt_ctype_" + TestPostgreSQL.randomHex()
        try admin.execute(
            script: "CREATE DATABASE \"\(name)\" TEMPLATE template0 ENCODING 'UTF8' LC_CTYPE 'C' LC_COLLATE 'C'")
        defer { try? admin.execute(script: "DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)") }
        let now = try Timestamp(iso8601: "2026-11-29T10:00:00Z")
        let store = try LibraryStore.open(at: TestPostgreSQL.url(base, database: name), now: now)
        _ = try store.importBooks([
            NewBook(title: "«Война и мир» — роман", author: "Лев Толстой"),
            NewBook(title: "Café «Noir»", author: "‘Anonymous’"),
        ])
        for (search, expected) in [
            ("война", ["«Война и мир» — роман"]), ("роман", ["«Война и мир» — роман"]), ("noir", ["Café «Noir»"]),
            ("anonymous", ["Café «Noir»"]), ("\"война и мир\"", ["«Война и мир» — роман"]),
        ] {
            let found = try store.libraryPage(page: 1, perPage: 10, search: search).entries.map(\.book.title)
            #expect(found == expected, "\(search)")
        }
    }
}
