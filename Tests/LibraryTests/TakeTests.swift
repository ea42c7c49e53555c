import SQLite
import StoreTestSupport
import Testing

@testable import Library

@Suite struct TakeTests {
    func openLoanCount(_ fixture: Fixture) throws -> Int {
        try fixture.store.database.fetchOne("SELECT count(*) FROM loans WHERE returned_at IS NULL") { $0.int(0) } ?? -1
    }

    @Test(arguments: StoreKind.available)
    func takesBooksWithDueDates(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let taken = try fixture.store.take(bookIDs: [3, 5], clientID: fixture.ann.id, now: fixture.now)
        #expect(taken.map(\.book.id) == [3, 5])
        // Due at the end of the fourteenth day, the date the screen shows.
        let due = try fixture.now.adding(days: 14).endOfDay
        #expect(try due.iso8601.hasSuffix("T23:59:59Z") && due.date == fixture.now.adding(days: 14).date)
        #expect(taken.allSatisfy { $0.loan.dueAt == due })
        #expect(taken.allSatisfy { $0.loan.takenAt == fixture.now && $0.loan.renewals == 0 && $0.loan.isOpen })
        #expect(
            try fixture.store.openLoans(clientID: fixture.ann.id, now: fixture.now).map(\.loan) == taken.map(\.loan))
    }

    @Test(arguments: StoreKind.available)
    func loanPeriodIsConfigurable(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        var store = fixture.store
        store.loanPeriodDays = 21
        let taken = try store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
        #expect(taken[0].loan.dueAt.iso8601 == "2026-12-20T23:59:59Z")
    }

    @Test(arguments: StoreKind.available)
    func refusesEachRuleWithItsOwnReason(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let (ann, bob, now) = (fixture.ann.id, fixture.bob.id, fixture.now)
        try store.take(bookIDs: [1], clientID: bob, now: now)
        try store.take(bookIDs: [2], clientID: ann, now: now)
        try store.setStatus(.lost, bookID: 3)
        try store.setStatus(.withdrawn, bookID: 4)
        let due = try LibraryRules.dueDate(from: now)
        #expect(throws: LibraryError.noSuchBook(id: 99)) { try store.take(bookIDs: [99], clientID: ann, now: now) }
        #expect(throws: LibraryError.noSuchClient(id: 77)) { try store.take(bookIDs: [5], clientID: 77, now: now) }
        #expect(throws: LibraryError.onLoanToSomeoneElse(id: 1, title: "Book 1", dueAt: due)) {
            try store.take(bookIDs: [1], clientID: ann, now: now)
        }
        #expect(throws: LibraryError.alreadyYours(id: 2, title: "Book 2", dueAt: due)) {
            try store.take(bookIDs: [2], clientID: ann, now: now)
        }
        #expect(throws: LibraryError.bookNotLendable(id: 3, title: "Book 3", status: .lost)) {
            try store.take(bookIDs: [3], clientID: ann, now: now)
        }
        #expect(throws: LibraryError.bookNotLendable(id: 4, title: "Book 4", status: .withdrawn)) {
            try store.take(bookIDs: [4], clientID: ann, now: now)
        }
        let message = LibraryError.onLoanToSomeoneElse(id: 1, title: "Book 1", dueAt: due).message
        #expect(message == "Book 1 (#1) is on loan to someone else, due back 2026-12-13.")
        #expect(try openLoanCount(fixture) == 2)
    }

    @Test(arguments: StoreKind.available)
    func limitCountsTheBooksBeingTaken(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, annLimit: 3)
        let store = fixture.store
        try store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
        #expect(throws: LibraryError.loanLimitReached(limit: 3, held: 1, requested: 3)) {
            try store.take(bookIDs: [2, 3, 4], clientID: fixture.ann.id, now: fixture.now)
        }
        try store.take(bookIDs: [2, 3, 3, 2], clientID: fixture.ann.id, now: fixture.now)  // repeats count once
        #expect(throws: LibraryError.loanLimitReached(limit: 3, held: 3, requested: 1)) {
            try store.take(bookIDs: [4], clientID: fixture.ann.id, now: fixture.now)
        }
        #expect(try openLoanCount(fixture) == 3)
    }

    @Test(arguments: StoreKind.available)
    func multiTakeIsAllOrNone(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        #expect(throws: LibraryError.noSuchBook(id: 404)) {
            try fixture.store.take(bookIDs: [1, 2, 404, 3], clientID: fixture.ann.id, now: fixture.now)
        }
        #expect(try openLoanCount(fixture) == 0)
        try fixture.store.take(bookIDs: [3], clientID: fixture.bob.id, now: fixture.now)
        #expect(throws: LibraryError.self) {
            try fixture.store.take(bookIDs: [1, 2, 3], clientID: fixture.ann.id, now: fixture.now)
        }
        #expect(try openLoanCount(fixture) == 1)
    }

    @Test(arguments: StoreKind.available)
    func databaseHoldsOneOpenLoanPerBookEvenForDirectSQL(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
        let error = #expect(throws: (any Error).self) {
            try fixture.store.database.execute(
                "INSERT INTO loans (book_id, client_id, taken_at, due_at) VALUES (1, ?, ?, ?)",
                [fixture.bob.id, fixture.now.iso8601, try fixture.now.adding(days: 1).iso8601])
        }
        let failure = try #require(error.flatMap { ConstraintFailure($0) }, "\(String(describing: error))")
        #expect(failure.isUnique(table: "loans", columns: ["book_id"]), "\(failure)")
        #expect(try openLoanCount(fixture) == 1)
    }
}
