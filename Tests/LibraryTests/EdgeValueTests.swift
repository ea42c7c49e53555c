import SQLite
import StoreTestSupport
import Testing

@testable import Library

/// Values at the edges: the years a timestamp can hold, the constraint that refused a change, and the length and
/// characters of the text the library keeps.
@Suite struct EdgeValueTests {
    // MARK: - Years 0001-9999

    @Test(arguments: [
        "0000-01-01T00:00:00Z", "0000-12-31T23:59:59Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00",
    ])
    func timestampsOutsideYears1To9999AreRefused(text: String) {
        let error = #expect(throws: TimestampError.self) { try Timestamp(iso8601: text) }
        #expect(error?.isOutOfRange == true)
        #expect(error?.message.contains("outside the years 0001 to 9999") == true)
    }

    @Test func theEndsOfTheRangeParseAddAndFormat() throws {
        #expect(try Timestamp(iso8601: "0001-01-01T00:00:00Z") == Timestamp.earliest)
        #expect(try Timestamp(iso8601: "9999-12-31T23:59:59Z") == Timestamp.latest)
        #expect(try Timestamp(iso8601: "0001-01-01T01:00:00+01:00").iso8601 == "0001-01-01T00:00:00Z")
        #expect(throws: TimestampError.self) { try Timestamp.latest.adding(seconds: 1) }
        #expect(throws: TimestampError.self) { try Timestamp.latest.adding(days: 14) }
        #expect(throws: TimestampError.self) { try Timestamp.earliest.adding(days: -1) }
        #expect(throws: TimestampError.self) { try Timestamp.earliest.adding(days: Int.max) }
        #expect(throws: TimestampError.self) { try Timestamp.earliest.adding(seconds: Int64.max) }
        #expect(throws: TimestampError.self) {
            try Timestamp(secondsSinceEpoch: Timestamp.latest.secondsSinceEpoch + 1)
        }
        #expect(throws: TimestampError.self) { try Timestamp(secondsSinceEpoch: Int64.min) }
        #expect(Timestamp(year: 0, month: 1, day: 1) == nil)
        #expect(Timestamp(year: 10_000, month: 1, day: 1) == nil)
        #expect(try Timestamp.latest.adding(days: -1).iso8601 == "9999-12-30T23:59:59Z")
    }

    @Test(arguments: StoreKind.available)
    func takingWhenTheDueDateWouldPassYear9999IsRefusedAsTheClockNotALoan(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let late = try Timestamp(iso8601: "9999-12-31T23:59:59Z")
        let error = #expect(throws: LibraryError.self) {
            try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: late)
        }
        guard case .invalidInput(let reason, _) = error else {
            Issue.record("expected invalidInput, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("9999-12-31T23:59:59Z") && reason.contains("clock"))
        #expect(!reason.contains("on loan"))
        #expect(try fixture.store.openLoans(clientID: fixture.ann.id, now: late).isEmpty)
        // The last day that still fits works.
        let lastTaken = try Timestamp.latest.adding(days: -LibraryRules.loanPeriodDays)
        let taken = try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: lastTaken)
        #expect(taken[0].loan.dueAt == Timestamp.latest)
    }

    @Test(arguments: StoreKind.available)
    func renewingPastYear9999IsRefusedAndChangesNothing(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let taken = try Timestamp(iso8601: "9999-12-10T00:00:00Z")
        try fixture.store.take(bookIDs: [2], clientID: fixture.ann.id, now: taken)
        let error = #expect(throws: LibraryError.self) {
            try fixture.store.renew(bookID: 2, clientID: fixture.ann.id, now: taken)
        }
        guard case .invalidInput = error else {
            Issue.record("expected invalidInput, got \(String(describing: error))")
            return
        }
        let loan = try fixture.store.openLoans(clientID: fixture.ann.id, now: taken)[0].loan
        #expect(loan.renewals == 0 && loan.dueAt.iso8601 == "9999-12-24T23:59:59Z")
    }

    // MARK: - Constraint failures are mapped by the constraint

    /// A trigger that refuses every insert into `table` (SQLITE_CONSTRAINT_TRIGGER, PostgreSQL's raise_exception;
    /// not a UNIQUE failure).
    func refuseInserts(into table: String, _ fixture: Fixture) throws {
        switch fixture.kind {
        case .sqlite:
            try fixture.store.database.execute(
                "CREATE TEMP TRIGGER refuse_\(table) BEFORE INSERT ON main.\(table) BEGIN SELECT RAISE(ABORT, 'no'); END"
            )
        case .postgresql:
            try fixture.store.database.execute(
                """
                CREATE OR REPLACE FUNCTION refuse_insert() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'no'; END $$
                """)
            try fixture.store.database.execute(
                "CREATE TRIGGER refuse_\(table) BEFORE INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION refuse_insert()"
            )
        }
    }

    /// Expects `body` to fail with the refusing trigger's own error, not a `LibraryError`.
    func expectTriggerFailure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try body() }
        #expect(!(error is LibraryError), "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(
            error.flatMap { ConstraintFailure($0) }?.kind == .trigger, "\(String(describing: error))",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: StoreKind.available)
    func aFailedInsertThatIsNotTheOneOpenLoanIndexIsNotReportedAsALoan(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        try refuseInserts(into: "loans", fixture)
        expectTriggerFailure { try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now) }
        #expect(try fixture.store.openLoans(clientID: fixture.ann.id, now: fixture.now).isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func aFailedClientOrBookInsertIsNotReportedAsATakenCardOrISBN(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        try refuseInserts(into: "clients", fixture)
        try refuseInserts(into: "books", fixture)
        expectTriggerFailure { _ = try fixture.store.addClient(name: "Cy", cardNumber: "NEW-1", now: fixture.now) }
        expectTriggerFailure { _ = try fixture.store.addBook(NewBook(title: "New", isbn: "9780000000002")) }
        #expect(try fixture.store.bookCount() == 10)
    }

    @Test(arguments: StoreKind.available)
    func aTakenCardOrISBNIsStillReportedAsOne(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        _ = try fixture.store.addBook(NewBook(title: "One", isbn: "9780000000002"))
        #expect(throws: LibraryError.cardNumberTaken(fixture.ann.cardNumber)) {
            try fixture.store.addClient(name: "Cy", cardNumber: fixture.ann.cardNumber, now: fixture.now)
        }
        #expect(throws: LibraryError.isbnTaken("9780000000002")) {
            try fixture.store.addBook(NewBook(title: "Two", isbn: "9780000000002"))
        }
    }

    // MARK: - Text: lengths and control characters

    @Test(arguments: TextField.allCases)
    func eachFieldTakesItsLimitAndNotOneMore(field: TextField) throws {
        try field.check(String(repeating: "é", count: field.maxLength))
        let error = #expect(throws: TextFieldProblem.self) {
            try field.check(String(repeating: "a", count: field.maxLength + 1))
        }
        #expect(error?.reason.contains("at most \(field.maxLength)") == true)
        // Code points, not grapheme clusters: one letter under a million accents is still too long.
        #expect(throws: TextFieldProblem.self) {
            try field.check("a" + String(repeating: "\u{301}", count: field.maxLength))
        }
    }

    @Test(arguments: [
        ("\u{0}", "control character"), ("\u{7}", "control character"), ("\u{1B}[31m", "control character"),
        ("\u{7F}", "control character"), ("\u{85}", "control character"), ("\u{9B}2J", "control character"),
        ("\u{2028}", "a line separator (U+2028)"), ("\u{2029}", "a paragraph separator (U+2029)"),
    ])
    func controlCharactersAreRefusedInEveryField(control: String, named: String) {
        for field in TextField.allCases {
            let error = #expect(throws: TextFieldProblem.self) { try field.check("Du" + control + "ne") }
            #expect(error?.reason.contains(named) == true, "\(error?.reason ?? "")")
            #expect(error?.reason.contains("at character 3") == true)
        }
    }

    /// Every code point from U+0000 to U+2100 (and the ones around U+2028), alone, first, last and among accented
    /// letters: refused exactly when it is a control character (line breaks and tabs only in a description), a line
    /// or paragraph separator or a bidirectional embedding, override or isolate, and named as such.
    @Test func everyControlCharacterIsFoundWhereverItStands() {
        let scalars = (0...0x2100).compactMap(Unicode.Scalar.init) + [Unicode.Scalar(0x1F600)!]
        for field in TextField.allCases {
            for scalar in scalars {
                let value = scalar.value
                let lineBreak = value == 0x09 || value == 0x0A || value == 0x0D
                let refused =
                    (value < 0x20 && !(lineBreak && field.allowsLineBreaks)) || (0x7F...0x9F).contains(value)
                    || value == 0x2028 || value == 0x2029 || (0x202A...0x202E).contains(value)
                    || (0x2066...0x2069).contains(value)
                let character = String(Character(scalar))
                for text in [character, character + "é", "é" + character, "Fé" + character + "ñx"] {
                    // A character that shows nothing is refused alone, as a value with no visible character.
                    let blank =
                        !refused && TextField.isBlank(text)
                        && text.unicodeScalars.contains { !$0.properties.isWhitespace }
                    do {
                        try field.check(text)
                        #expect(
                            !refused && !blank,
                            "U+\(String(value, radix: 16)) passed the \(field) check in \(text.debugDescription)")
                    } catch {
                        if blank {
                            #expect(error.reason == "the \(field.label) has no visible character")
                            continue
                        }
                        #expect(refused, "U+\(String(value, radix: 16)) refused in \(text.debugDescription): \(error)")
                        let kind =
                            value == 0x2028
                            ? "line separator"
                            : value == 0x2029
                                ? "paragraph separator"
                                : value >= 0x202A ? "bidirectional control" : "control character"
                        #expect(error.reason.contains(kind))
                    }
                }
            }
        }
    }

    @Test func lineBreaksAndTabsOnlyInADescription() throws {
        for text in ["a\nb", "a\tb", "a\r\nb"] {
            try TextField.description.check(text)
            for field in TextField.allCases where field != .description {
                #expect(throws: TextFieldProblem.self) { try field.check(text) }
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func theStoreRefusesWhatTheFieldsRefuse(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let long = String(repeating: "x", count: TextField.name.maxLength + 1)
        for name in ["Ann\u{1B}]0;pwned\u{7}", "Line\nbreak", "Tab\there", long] {
            #expect(throws: LibraryError.self) { try store.addClient(name: name, now: fixture.now) }
        }
        #expect(throws: LibraryError.self) { try store.addClient(name: "Cy", cardNumber: "C\u{1B}1", now: fixture.now) }
        for draft in [
            NewBook(title: "Du\nne"), NewBook(title: "Dune", author: "Frank\u{9B}Herbert"),
            NewBook(title: "Dune", description: "bell\u{7}"),
            NewBook(title: String(repeating: "t", count: TextField.title.maxLength + 1)),
            NewBook(title: "Dune", author: String(repeating: "a", count: TextField.author.maxLength + 1)),
            NewBook(title: "Dune", description: String(repeating: "d", count: TextField.description.maxLength + 1)),
        ] {
            #expect(throws: LibraryError.self) { try store.addBook(draft) }
            #expect(throws: LibraryError.self) { try store.importBooks([draft]) }
        }
        #expect(try store.bookCount() == 10)
        let kept = try store.addBook(NewBook(title: "Dune", description: "Part one.\n\tPart two."))
        #expect(kept.description == "Part one.\n\tPart two.")
    }
}
