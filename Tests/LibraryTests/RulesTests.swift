import SQLite
import Testing

@testable import Library

/// The rules are defined once in `LibraryRules`; the schema's CHECK constraints must agree with them, tried at each
/// boundary with direct SQL (so the database refuses what the store refuses, even from outside librarycli).
@Suite struct RulesTests {
    func accepts(_ fixture: Fixture, _ sql: String, _ arguments: [(any DatabaseValueConvertible)?]) -> Bool {
        do {
            try fixture.store.database.execute(sql, arguments)
            return true
        } catch {
            return false
        }
    }

    func insertClient(_ fixture: Fixture, limit: Int) -> Bool {
        accepts(
            fixture, "INSERT INTO clients (name, card_number, loan_limit, created_at) VALUES ('X', ?, ?, ?)",
            ["R-\(limit)", limit, fixture.now.iso8601])
    }

    func insertBook(_ fixture: Fixture, year: Int) -> Bool {
        accepts(fixture, "INSERT INTO books (title, year) VALUES ('Y', ?)", [year])
    }

    @Test func theSchemaAgreesWithTheLoanLimits() throws {
        let fixture = try Fixture()
        let limits = LibraryRules.loanLimits
        #expect(insertClient(fixture, limit: limits.lowerBound))
        #expect(insertClient(fixture, limit: limits.upperBound))
        #expect(!insertClient(fixture, limit: limits.lowerBound - 1))
        #expect(!insertClient(fixture, limit: limits.upperBound + 1))
        try fixture.store.database.execute(
            "INSERT INTO clients (name, card_number, created_at) VALUES ('Z', 'R-default', ?)", [fixture.now.iso8601])
        let limit = try fixture.store.client(cardNumber: "R-default")?.loanLimit
        #expect(limit == LibraryRules.defaultLoanLimit)
        #expect(
            try fixture.store.addClient(name: "Default", now: fixture.now).loanLimit == LibraryRules.defaultLoanLimit)
    }

    @Test func theSchemaAgreesWithTheYears() throws {
        let fixture = try Fixture(books: 0)
        #expect(insertBook(fixture, year: LibraryRules.years.lowerBound))
        #expect(insertBook(fixture, year: LibraryRules.years.upperBound))
        #expect(!insertBook(fixture, year: LibraryRules.years.lowerBound - 1))
        #expect(!insertBook(fixture, year: LibraryRules.years.upperBound + 1))
    }

    @Test func theSchemaAgreesWithTheRenewals() throws {
        let fixture = try Fixture()
        try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
        let update = "UPDATE loans SET renewals = ? WHERE book_id = 1"
        #expect(accepts(fixture, update, [LibraryRules.maxRenewals]))
        #expect(!accepts(fixture, update, [LibraryRules.maxRenewals + 1]))
        #expect(!accepts(fixture, update, [-1]))
    }

    @Test func theStoreUsesTheRules() throws {
        let fixture = try Fixture()
        #expect(fixture.store.loanPeriodDays == LibraryRules.loanPeriodDays)
        let store = fixture.store
        let (ann, now) = (fixture.ann.id, fixture.now)
        try store.take(bookIDs: [1], clientID: ann, now: now)
        for _ in 0..<LibraryRules.maxRenewals { try store.renew(bookID: 1, clientID: ann, now: now) }
        #expect(throws: LibraryError.renewalLimitReached(id: 1, title: "Book 1", limit: LibraryRules.maxRenewals)) {
            try store.renew(bookID: 1, clientID: ann, now: now)
        }
        #expect(throws: LibraryError.self) {
            try store.addClient(name: "Cy", loanLimit: LibraryRules.loanLimits.upperBound + 1, now: now)
        }
        #expect(throws: LibraryError.self) {
            try store.addBook(NewBook(title: "Old", year: LibraryRules.years.lowerBound - 1))
        }
    }
}
