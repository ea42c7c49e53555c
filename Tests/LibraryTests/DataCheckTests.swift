import StoreTestSupport
import Testing

@testable import Library

/// `LibraryStore.dataProblems`: what other tools can break and librarycli's own writes never do.
@Suite struct DataCheckTests {
    @Test(arguments: StoreKind.available)
    func aLibraryLibrarycliWroteHasNoProblem(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 5)
        _ = try fixture.store.take(bookIDs: [2], clientID: fixture.ann.id, now: fixture.now)
        #expect(try fixture.store.dataProblems() == [])
    }

    @Test(arguments: StoreKind.available)
    func aKeptCountThatDisagreesWithTheBooks(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 3)
        if kind == .sqlite {
            // PostgreSQL's trigger refuses a count that does not cover the books; a deleted row it lets be.
            try fixture.store.database.execute("UPDATE library_stats SET book_count = 0 WHERE id = 1")
            #expect(try fixture.store.dataProblems() == ["the kept book count is 0, but there are 3 books"])
        }
        try fixture.store.database.execute("DELETE FROM library_stats")
        #expect(try fixture.store.dataProblems() == ["the kept book count is missing, but there are 3 books"])
    }

    @Test(arguments: StoreKind.available)
    func rowsThatNameMissingBooksAndClients(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 3)
        let database = fixture.store.database
        // Another tool writes without the foreign keys: SQLite's are off unless a connection turns them on;
        // PostgreSQL's are dropped (the owner may).
        if kind == .sqlite {
            try database.execute("PRAGMA foreign_keys = OFF")
        } else {
            try database.execute("ALTER TABLE loans DROP CONSTRAINT loans_book_id_fkey")
            try database.execute("ALTER TABLE loans DROP CONSTRAINT loans_client_id_fkey")
        }
        for (book, client) in [(999, fixture.ann.id), (998, fixture.bob.id), (1, 77)] {
            try database.execute(
                """
                INSERT INTO loans (book_id, client_id, taken_at, due_at)
                VALUES (\(book), \(client), '2026-12-01T00:00:00Z', '2026-12-15T00:00:00Z')
                """)
        }
        let problems = try fixture.store.dataProblems()
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.hasPrefix("2 loans name a book that does not exist (loan #") == true, "\(problems)")
        #expect(problems.first?.hasSuffix(" names book #999)") == true, "\(problems)")
        #expect(problems.last?.hasPrefix("1 loan names a client that does not exist (loan #") == true, "\(problems)")
        #expect(problems.last?.hasSuffix(" names client #77)") == true, "\(problems)")
    }
}
