import SQLite
import StoreTestSupport
import Testing

@testable import Library

@Suite struct BookTests {
    @Test(arguments: StoreKind.available)
    func addsAndReadsBooks(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let store = fixture.store
        let draft = NewBook(
            title: " The Odyssey ", author: "Homer", year: -700, pages: 541, description: "Wine-dark sea.",
            isbn: "9780140268867")
        let book = try store.addBook(draft)
        #expect(book.id == 1)
        #expect(book.title == "The Odyssey")
        #expect(try store.book(id: 1) == book)
        #expect(try store.book(id: 2) == nil)
        #expect(throws: LibraryError.isbnTaken("9780140268867")) {
            try store.addBook(NewBook(title: "Copy", isbn: "9780140268867"))
        }
        #expect(throws: LibraryError.self) { try store.addBook(NewBook(title: " ")) }
        #expect(throws: LibraryError.self) { try store.addBook(NewBook(title: "X", pages: 0)) }
        #expect(throws: LibraryError.self) { try store.addBook(NewBook(title: "X", year: 10_000)) }
        // There is no year 0: 1 BC (-1) is followed by AD 1.
        #expect(throws: LibraryError.invalidInput("A year must be \(LibraryRules.yearRule); 0 is not.", field: "year"))
        {
            try store.addBook(NewBook(title: "X", year: 0))
        }
        #expect(try store.addBook(NewBook(title: "Y", year: -1)).year == -1)
        #expect(try store.bookCount() == 2)
    }

    @Test(arguments: StoreKind.available)
    func hostileTitleIsStoredIntact(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let title = "'); DROP TABLE books; --"
        let book = try fixture.store.addBook(NewBook(title: title, author: "Robert\"); DELETE FROM loans;"))
        #expect(try fixture.store.book(id: book.id)?.title == title)
        #expect(try fixture.store.book(id: book.id)?.author == "Robert\"); DELETE FROM loans;")
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "drop table").entries.map(\.book) == [book])
    }

    @Test(arguments: StoreKind.available)
    func statusChanges(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 2)
        try fixture.store.setStatus(.lost, bookID: 2)
        #expect(try fixture.store.book(id: 2)?.status == .lost)
        #expect(throws: LibraryError.noSuchBook(id: 9)) { try fixture.store.setStatus(.lost, bookID: 9) }
    }

    @Test(arguments: StoreKind.available)
    func searchIgnoresCaseAndAccents(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let store = fixture.store
        let marquez = try store.addBook(NewBook(title: "Cien años de soledad", author: "Gabriel García Márquez"))
        let zola = try store.addBook(NewBook(title: "L'Œuvre", author: "Émile Zola"))
        _ = try store.addBook(NewBook(title: "Dune", author: "Frank Herbert"))
        let percent = try store.addBook(NewBook(title: "100% Wolf", author: "Jayne Lyons"))
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "GARCIA marquez").entries.map(\.book) == [marquez])
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "AÑOS").entries.map(\.book) == [marquez])
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "zola oeuvre").entries.map(\.book) == [zola])
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "emile zola").entries.map(\.book) == [zola])
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "100%").entries.map(\.book) == [percent])
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "_").totalCount == 4)  // no letter or digit
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "_ dune").totalCount == 1)
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "   ").totalCount == 4)
    }

    @Test(arguments: StoreKind.available)
    func searchPagesAndCounts(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 25)
        let page = try fixture.store.libraryPage(page: 2, perPage: 5, search: "book 1")
        // "book 1", "book 10" ... "book 19": 11 matches; page 2 holds ids 14...18.
        #expect(page.totalCount == 11)
        #expect(page.pageCount == 3)
        #expect(page.entries.map(\.book.id) == [14, 15, 16, 17, 18])
        #expect(page.search == "book 1")
    }

    @Test(arguments: StoreKind.available)
    func keysetPagesAreExact(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        _ = try fixture.store.importBooks((1...1_003).map { NewBook(title: "Title \($0)") })
        let store = fixture.store
        let first = try store.libraryPage(page: 1, perPage: 50)
        #expect(first.entries.map(\.book.id) == Array(1...50))
        #expect(first.totalCount == 1_003)
        #expect(first.pageCount == 21)
        #expect(!first.hasPreviousPage && first.hasNextPage)
        let twentieth = try store.libraryPage(page: 20, perPage: 50)
        #expect(twentieth.entries.map(\.book.id) == Array(951...1_000))
        #expect(twentieth.entries.first?.book.title == "Title 951")
        let last = try store.libraryPage(page: 21, perPage: 50)
        #expect(last.entries.map(\.book.id) == [1_001, 1_002, 1_003])
        #expect(!last.hasNextPage)
        #expect(try store.libraryPage(page: 22, perPage: 50).entries.isEmpty)
        #expect(try store.libraryPage(page: Int.max, perPage: 50).entries.isEmpty)
        #expect(throws: LibraryError.self) { try store.libraryPage(page: 0, perPage: 50) }
        #expect(throws: LibraryError.self) { try store.libraryPage(page: 1, perPage: 0) }
    }

    @Test func pagingUsesThePrimaryKeyAndCountIsNotAScan() throws {
        let fixture = try Fixture(books: 3)
        let db = fixture.store.database
        let plan = try db.fetchAll(
            """
            EXPLAIN QUERY PLAN SELECT b.id, l.client_id FROM books b
            LEFT JOIN loans l ON l.book_id = b.id AND l.returned_at IS NULL WHERE b.id > ? ORDER BY b.id LIMIT ?
            """, [0, 10]
        ) { $0.string(3) }
        #expect(plan.contains { $0.contains("SEARCH b USING INTEGER PRIMARY KEY (rowid>?)") }, "\(plan)")
        #expect(plan.contains { $0.contains("loans_one_open_per_book") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        #expect(try fixture.store.bookCount() == 3)
    }
}
