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
            "EXPLAIN QUERY PLAN " + BookImporter.findByIdentitySQL, ["T1", "", 1]
        ) { $0.string(3) }
        #expect(
            plan.contains { $0.contains("USING INDEX books_by_identity (title=? AND author=? AND year=?)") }, "\(plan)")
    }
}
