import StoreTestSupport
import Testing

@testable import Library

@Suite struct ImporterTests {
    let catalog = [
        NewBook(title: "Dune", author: "Frank Herbert", year: 1965, isbn: "9780441013593"),
        NewBook(title: "The Odyssey", author: "Homer", year: -700),
        NewBook(title: "The Odyssey", author: "Homer", year: -700),  // a second copy
        NewBook(title: "Untitled notes"),
    ]

    @Test(arguments: StoreKind.available)
    func seedingTwiceChangesNothing(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        #expect(try fixture.store.importBooks(catalog) == ImportCounts(inserted: 4))
        #expect(try fixture.store.importBooks(catalog) == ImportCounts(unchanged: 4))
        #expect(try fixture.store.bookCount() == 4)
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "odyssey").totalCount == 2)
    }

    @Test(arguments: StoreKind.available)
    func updatesMatchedBooksAndKeepsTheirStatus(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        _ = try fixture.store.importBooks(catalog)
        try fixture.store.setStatus(.lost, bookID: 1)
        var changed = catalog
        changed[0].title = "Dune (Deluxe)"
        changed[1].pages = 541
        changed.append(NewBook(title: "Emma", author: "Jane Austen", year: 1815))
        #expect(try fixture.store.importBooks(changed) == ImportCounts(inserted: 1, updated: 2, unchanged: 2))
        let dune = try #require(try fixture.store.book(id: 1))
        #expect(dune.title == "Dune (Deluxe)")
        #expect(dune.status == .lost)
        #expect(try fixture.store.book(id: 2)?.pages == 541)
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "deluxe").totalCount == 1)
    }

    /// A fact the draft does not give is kept on the book it matches (by ISBN, or a copy by title + author +
    /// year); the facts it gives change, even to empty; a new book gets the defaults; the search index follows.
    @Test(arguments: StoreKind.available)
    func factsNotGivenAreKept(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        _ = try fixture.store.importBooks([
            NewBook(
                title: "Dune", author: "Frank Herbert", year: 1965, pages: 412, description: "Spice.",
                isbn: "9780441013593"),
            NewBook(title: "Emma", author: "Jane Austen", year: 1815, pages: 474, description: "Matchmaking."),
        ])
        let counts = try fixture.store.writing {
            let importer = try BookImporter(store: fixture.store)
            // By ISBN: only the title given.
            try importer.importBook(NewBook(title: "Dune (Deluxe)", isbn: "9780441013593"), fields: [.title])
            // A copy by title + author + year: the pages given (empty), the description not.
            try importer.importBook(
                NewBook(title: "Emma", author: "Jane Austen", year: 1815), fields: [.title, .author, .year, .pages])
            // New: the defaults for what is not given.
            try importer.importBook(NewBook(title: "Beowulf", isbn: "9780393320978"), fields: [.title])
            // The same ISBN again in one import, giving the description only: the title just given is kept.
            try importer.importBook(
                NewBook(title: "ignored", description: "Desert.", isbn: "9780441013593"), fields: [.description])
            return try importer.finish()
        }
        #expect(counts == ImportCounts(inserted: 1, updated: 3))
        let dune = try #require(try fixture.store.book(id: 1))
        #expect(dune.title == "Dune (Deluxe)" && dune.author == "Frank Herbert" && dune.year == 1965)
        #expect(dune.pages == 412 && dune.description == "Desert.")
        let emma = try #require(try fixture.store.book(id: 2))
        #expect(emma.pages == nil && emma.description == "Matchmaking.")
        let beowulf = try #require(try fixture.store.book(id: 3))
        #expect(beowulf.author == "" && beowulf.year == nil && beowulf.description == "")
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "herbert deluxe").totalCount == 1)
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "desert").totalCount == 1)
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: "spice").totalCount == 0)
    }

    /// Many books written together must give what writing them one at a time gives: new books numbered in their
    /// order (a matched book takes no number), repeats met as updates, the search index in step.
    @Test(arguments: StoreKind.available)
    func batchesGiveWhatOneBookAtATimeGives(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        func isbn(_ number: Int) -> String {
            let digits = String(number)
            return "97800000" + String(repeating: "0", count: 5 - digits.count) + digits
        }
        let first = (1...150).map { NewBook(title: "Book \($0)", author: "A", year: 2000, isbn: isbn($0)) }
        #expect(try fixture.store.importBooks(first) == ImportCounts(inserted: 150))
        var second: [NewBook] = []
        var expectedTitles: [Int: String] = [:]
        for number in 1...330 {
            if number % 7 == 0 && number <= 150 {
                // An existing book, changed: updated in place, no new id.
                second.append(NewBook(title: "Book \(number) revised", author: "A", year: 2000, isbn: isbn(number)))
                expectedTitles[number] = "Book \(number) revised"
            } else if number % 5 == 0 && number <= 150 {
                second.append(first[number - 1])  // an existing book, unchanged
            } else if number > 150 {
                let book = NewBook(title: "New \(number)", author: "B", year: 2001, isbn: isbn(number))
                second.append(book)
                if number % 11 == 0 {
                    // The same ISBN again in the same import, different title: the copy just inserted is updated.
                    second.append(NewBook(title: "New \(number) again", author: "B", year: 2001, isbn: isbn(number)))
                }
            }
            if number % 13 == 0 { second.append(NewBook(title: "Notes \(number)")) }  // no ISBN: always new
        }
        let counts = try fixture.store.importBooks(second)
        let news = (151...330).count
        let repeats = (151...330).filter { $0 % 11 == 0 }.count
        let notes = (1...330).filter { $0 % 13 == 0 }.count
        let revised = (1...150).filter { $0 % 7 == 0 }.count
        let unchanged = (1...150).filter { $0 % 5 == 0 && $0 % 7 != 0 }.count
        #expect(counts == ImportCounts(inserted: news + notes, updated: revised + repeats, unchanged: unchanged))
        #expect(try fixture.store.bookCount() == 150 + news + notes)
        // Ids in the order the new books came, after the 150 first ones.
        var id = 150
        for book in second where book.isbn.map({ Int($0.suffix(5))! > 150 }) ?? true {
            if book.title.hasSuffix("again") { continue }
            id += 1
            let stored = try #require(try fixture.store.book(id: id))
            #expect(stored.isbn == book.isbn && (stored.title == book.title || stored.title == book.title + " again"))
        }
        for (number, title) in expectedTitles { #expect(try fixture.store.book(id: number)?.title == title) }
        #expect(try fixture.store.libraryPage(page: 1, perPage: 50, search: "revised").totalCount == revised)
        #expect(try fixture.store.libraryPage(page: 1, perPage: 50, search: "again").totalCount == repeats)
        #expect(try fixture.store.searchIndexProblem() == nil)
        // And once more: nothing new (the books without an ISBN meet their copies by title, author and year).
        #expect(try fixture.store.importBooks(second).inserted == 0)
        #expect(try fixture.store.bookCount() == 150 + news + notes)
    }

    @Test(arguments: StoreKind.available)
    func invalidBookRollsBackTheWholeImport(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        #expect(throws: LibraryError.self) {
            try fixture.store.importBooks(catalog + [NewBook(title: "")])
        }
        #expect(try fixture.store.bookCount() == 0)
    }
}

@Suite struct ImporterQueryPlanTests {
    @Test func identityLookupUsesTheIdentityIndex() throws {
        let fixture = try Fixture(books: 0)
        _ = try fixture.store.importBooks((1...50).map { NewBook(title: "T\($0)", year: $0 % 3 == 0 ? nil : $0) })
        let plan = try fixture.store.database.fetchAll(
            "EXPLAIN QUERY PLAN " + BookImporter.findByIdentitySQL, ["t1", "", 1]
        ) { $0.string(3) }
        #expect(
            plan.contains {
                $0.contains("USING INDEX books_by_folded_identity (search_title=? AND search_author=? AND year=?)")
            }, "\(plan)")
    }
}
