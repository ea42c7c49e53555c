import StoreTestSupport
import Testing

@testable import Library

@Suite struct ScreenTests {
    @Test(arguments: StoreKind.available)
    func libraryPageShowsEachBooksAvailabilityForTheViewer(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 6)
        let store = fixture.store
        let (ann, bob, now) = (fixture.ann.id, fixture.bob.id, fixture.now)
        try store.take(bookIDs: [2], clientID: ann, now: now)
        try store.take(bookIDs: [3], clientID: bob, now: try now.adding(days: 1))
        try store.setStatus(.lost, bookID: 4)
        try store.setStatus(.withdrawn, bookID: 5)
        try store.take(bookIDs: [6], clientID: ann, now: now)
        try store.returnBooks(bookIDs: [6], clientID: ann, now: try now.adding(days: 2))
        let page = try store.libraryPage(page: 1, perPage: 10, viewerID: ann)
        #expect(
            page.entries.map(\.availability) == [
                .available, .heldByYou(dueAt: try now.adding(days: 14).endOfDay),
                .onLoan(dueAt: try now.adding(days: 15).endOfDay),
                .lost,
                .withdrawn, .available,
            ])
        #expect(page.totalCount == 6)
        #expect(page.pageCount == 1)
    }

    @Test(arguments: StoreKind.available)
    func clientLoansAreOrderedByTakenTimeWithOverdueFlags(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let (ann, now) = (fixture.ann.id, fixture.now)
        try store.take(bookIDs: [7], clientID: ann, now: now)
        try store.take(bookIDs: [2], clientID: ann, now: try now.adding(days: 10))
        let later = try now.adding(days: 15)
        let loans = try store.openLoans(clientID: ann, now: later)
        #expect(loans.map(\.book.id) == [7, 2])
        #expect(loans.map(\.isOverdue) == [true, false])
        let summary = try store.clientSummary(clientID: ann, now: later)
        #expect(summary.booksHeld == 2)
        #expect(summary.overdueCount == 1)
        #expect(summary.remainingAllowance == 3)
        #expect(throws: LibraryError.noSuchClient(id: 9)) { try store.clientSummary(clientID: 9, now: now) }
    }

    @Test(arguments: StoreKind.available)
    func screenChangesWithTheClockWhenItsEarliestLoanNotYetOverdueFallsDue(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let (ann, now) = (fixture.ann.id, fixture.now)
        #expect(try store.clientScreen(clientID: ann, page: 1, perPage: 5, now: now).changesAt == nil)
        try store.take(bookIDs: [7], clientID: ann, now: now)
        try store.take(bookIDs: [2], clientID: ann, now: try now.adding(days: 10))
        let firstDue = try LibraryRules.dueDate(from: now)
        let screen = try store.clientScreen(clientID: ann, page: 1, perPage: 5, now: now)
        #expect(screen.changesAt == (try firstDue.adding(seconds: 1)))
        // At its due time the first loan is not overdue yet; a second later it is, and the screen read then
        // changes next when the second loan falls due.
        let atDue = try store.clientScreen(clientID: ann, page: 1, perPage: 5, now: firstDue)
        #expect(atDue.summary.overdueCount == 0)
        let changesAt = try #require(screen.changesAt)
        let after = try store.clientScreen(clientID: ann, page: 1, perPage: 5, now: changesAt)
        #expect(after.summary.overdueCount == 1)
        #expect(after.loans.map(\.isOverdue) == [true, false])
        #expect(after.changesAt == (try now.adding(days: 24).endOfDay.adding(seconds: 1)))
        #expect(after.loans[0].loan.overdueFrom == changesAt)
        let returned = try store.returnBooks(bookIDs: [7], clientID: ann, now: changesAt)
        #expect(returned.first?.loan.overdueFrom == nil)
    }

    @Test(arguments: StoreKind.available)
    func historyIsNewestFirst(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let (ann, now) = (fixture.ann.id, fixture.now)
        try store.take(bookIDs: [1, 2, 3], clientID: ann, now: now)
        try store.returnBooks(bookIDs: [2], clientID: ann, now: try now.adding(days: 1))
        try store.returnBooks(bookIDs: [1], clientID: ann, now: try now.adding(days: 2))
        try store.returnBooks(bookIDs: [3], clientID: ann, now: try now.adding(days: 3))
        #expect(try store.loanHistory(clientID: ann).map(\.book.id) == [3, 1, 2])
        #expect(try store.loanHistory(clientID: ann, limit: 2).map(\.book.id) == [3, 1])
        #expect(try store.loanHistory(clientID: fixture.bob.id).isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func wholeScreenInOneSnapshot(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 30)
        try fixture.store.take(bookIDs: [25], clientID: fixture.ann.id, now: fixture.now)
        let screen = try fixture.store.clientScreen(clientID: fixture.ann.id, page: 2, perPage: 20, now: fixture.now)
        #expect(screen.summary.client == fixture.ann)
        #expect(screen.loans.map(\.book.id) == [25])
        #expect(screen.library.entries.map(\.book.id) == Array(21...30))
        #expect(try screen.library.entries[4].availability == .heldByYou(dueAt: fixture.now.adding(days: 14).endOfDay))
        #expect(!fixture.store.database.isInTransaction)
    }
}
