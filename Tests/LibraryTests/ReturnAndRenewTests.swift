import Library
import StoreTestSupport
import Testing

@Suite struct ReturnAndRenewTests {
    @Test(arguments: StoreKind.available)
    func returnsOnlyOwnBooksOnce(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let (ann, bob, now) = (fixture.ann.id, fixture.bob.id, fixture.now)
        try store.take(bookIDs: [1, 2], clientID: ann, now: now)
        try store.take(bookIDs: [3], clientID: bob, now: now)
        let later = try now.adding(days: 3)
        #expect(throws: LibraryError.notBorrowedByYou(id: 3, title: "Book 3")) {
            try store.returnBooks(bookIDs: [1, 3], clientID: ann, now: later)
        }
        #expect(throws: LibraryError.notBorrowedByYou(id: 4, title: "Book 4")) {
            try store.returnBooks(bookIDs: [4], clientID: ann, now: later)
        }
        #expect(throws: LibraryError.noSuchBook(id: 40)) {
            try store.returnBooks(bookIDs: [40], clientID: ann, now: later)
        }
        #expect(throws: LibraryError.noSuchClient(id: 40)) {
            try store.returnBooks(bookIDs: [1], clientID: 40, now: later)
        }
        #expect(try store.openLoans(clientID: ann, now: later).count == 2)  // all or none
        let returned = try store.returnBooks(bookIDs: [1], clientID: ann, now: later)
        #expect(returned.map(\.loan.returnedAt) == [later])
        #expect(throws: LibraryError.notBorrowedByYou(id: 1, title: "Book 1")) {
            try store.returnBooks(bookIDs: [1], clientID: ann, now: later)
        }
        #expect(try store.clientSummary(clientID: ann, now: later).booksHeld == 1)
        #expect(try store.loanHistory(clientID: ann).count == 1)
        try store.take(bookIDs: [1], clientID: bob, now: later)  // back on the shelf
    }

    @Test(arguments: StoreKind.available)
    func returnBeforeTakenTimeIsRecordedAsImmediate(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
        let skewed = try fixture.now.adding(seconds: -3_600)
        let returned = try fixture.store.returnBooks(bookIDs: [1], clientID: fixture.ann.id, now: skewed)
        #expect(returned.first?.loan.returnedAt == fixture.now)
    }

    @Test(arguments: StoreKind.available)
    func renewsTwiceFromTheDueDate(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let (ann, now) = (fixture.ann.id, fixture.now)
        try store.take(bookIDs: [1], clientID: ann, now: now)
        let first = try store.renew(bookID: 1, clientID: ann, now: try now.adding(days: 10))
        #expect(try first.loan.dueAt == now.adding(days: 28).endOfDay)
        #expect(first.loan.renewals == 1)
        let second = try store.renew(bookID: 1, clientID: ann, now: try now.adding(days: 28))  // due today
        #expect(try second.loan.dueAt == now.adding(days: 42).endOfDay)
        #expect(throws: LibraryError.renewalLimitReached(id: 1, title: "Book 1", limit: 2)) {
            try store.renew(bookID: 1, clientID: ann, now: try now.adding(days: 30))
        }
        #expect(try store.openLoans(clientID: ann, now: now).first?.loan.dueAt == now.adding(days: 42).endOfDay)
    }

    @Test(arguments: StoreKind.available)
    func refusesRenewingOverdueOrOthersBooks(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let (ann, bob, now) = (fixture.ann.id, fixture.bob.id, fixture.now)
        try store.take(bookIDs: [1], clientID: ann, now: now)
        // Due at the end of its last day: renewable all that day, overdue the second after.
        let due = try now.adding(days: 14).endOfDay
        let late = try due.adding(seconds: 1)
        #expect(try store.openLoans(clientID: ann, now: due).first?.isOverdue == false)
        #expect(try store.openLoans(clientID: ann, now: late).first?.isOverdue == true)
        #expect(throws: LibraryError.overdue(id: 1, title: "Book 1", dueAt: due)) {
            try store.renew(bookID: 1, clientID: ann, now: late)
        }
        #expect(throws: LibraryError.notBorrowedByYou(id: 1, title: "Book 1")) {
            try store.renew(bookID: 1, clientID: bob, now: now)
        }
        #expect(throws: LibraryError.noSuchBook(id: 50)) { try store.renew(bookID: 50, clientID: ann, now: now) }
        #expect(try store.openLoans(clientID: ann, now: now).first?.loan.renewals == 0)
    }
}
