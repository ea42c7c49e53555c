import SQLite
import Testing

@testable import Library

/// Migration 0004: the books table rebuilt with its status rule as comparisons (no temporary b-tree per insert);
/// every row, id, loan and index entry kept, and the same rule enforced.
@Suite struct BookStatusCheckMigrationTests {
    @Test func rebuildKeepsBooksLoansCountAndSearch() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("library.db")
        let now = Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 40)!
        do {
            // A library of the first three migrations, with books, a lost one and a loan.
            let old = try Database(path: path)
            try LibraryDatabase.defineFunctions(on: old)
            try Migrator(migrations: Array(Migrations.embedded.prefix(3))) {
                try LibraryDatabase.defineFunctions(on: $0)
            }
            .migrate(old, appliedAt: now.iso8601)
            try old.execute(
                """
                INSERT INTO books (title, author, isbn, status) VALUES
                    ('Dune', 'Frank Herbert', '9780441172719', 'available'),
                    ('The Hobbit', 'J. R. R. Tolkien', NULL, 'lost')
                """)
            try old.execute(
                "UPDATE books SET search_title = library_search_text(title), search_author = library_search_text(author)"
            )
            try old.execute("INSERT INTO book_search (book_search) VALUES ('rebuild')")
            try old.execute(
                "INSERT INTO clients (name, card_number, created_at) VALUES ('Ann', 'C-1', ?)", [now.iso8601])
            try old.execute(
                "INSERT INTO loans (book_id, client_id, taken_at, due_at) VALUES (1, 1, ?, ?)",
                [now.iso8601, "2026-12-20T14:40:00Z"])
        }
        let store = try LibraryStore.open(at: path, now: now)
        #expect(try Migrations.migrator.isUpToDate(store.database.sqlite))
        try Migrations.migrator.verifySchema(store.database.sqlite)
        #expect(try store.book(id: 1)?.title == "Dune")
        #expect(try store.book(id: 2)?.status == .lost)
        #expect(try store.bookCount() == 2)
        #expect(try store.libraryPage(page: 1, perPage: 10, search: "tolkien").entries.map(\.book.id) == [2])
        #expect(try store.searchIndexProblem() == nil)
        #expect(try store.database.fetchOne("SELECT count(*) FROM loans WHERE book_id = 1") { $0.int(0) } == 1)
        // The next book still takes the next id and is counted.
        let next = try store.addBook(NewBook(title: "Emma", author: "Jane Austen"))
        #expect(next.id == 3)
        #expect(try store.bookCount() == 3)
    }

    @Test func statusRuleStillHolds() throws {
        let fixture = try Fixture(books: 1)
        let database = fixture.store.database.sqlite
        for status in ["available", "lost", "withdrawn"] {
            try database.execute("UPDATE books SET status = ? WHERE id = 1", [status])
        }
        #expect(throws: SQLiteError.self) {
            try database.execute("UPDATE books SET status = 'borrowed' WHERE id = 1")
        }
        #expect(throws: SQLiteError.self) {
            try database.execute("INSERT INTO books (title, status) VALUES ('X', 'Available')")
        }
        #expect(try fixture.store.bookCount() == 1)
        // What the rebuild is for: an insert builds no temporary b-tree to check the status.
        let opcodes = try database.fetchAll("EXPLAIN INSERT INTO books (title) VALUES ('X')") { $0.string(1) }
        #expect(opcodes.contains("Insert") && !opcodes.contains("OpenEphemeral"))
    }
}
