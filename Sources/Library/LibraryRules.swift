/// The library's numeric rules, defined once: the store, the command line, imports and seeding all read them here,
/// and a test checks that the schema's CHECK constraints (`migrations/sqlite/0001_create_library.sql`) agree.
///
/// ```swift
/// let limit = LibraryRules.defaultLoanLimit       // 5
/// LibraryRules.loanLimits.contains(1_001)          // false
/// let due = try now.adding(days: LibraryRules.loanPeriodDays)
/// ```
public enum LibraryRules {
    /// How many books a new client may hold at once unless told otherwise.
    public static let defaultLoanLimit = 5

    /// The loan limits a client may have (`clients.loan_limit`).
    public static let loanLimits: ClosedRange<Int> = 0...1_000

    /// How many times one loan may be renewed (`loans.renewals`).
    public static let maxRenewals = 2
    /// How many times a PostgreSQL write transaction runs when it loses a serialization race or a deadlock
    /// (SQLSTATE 40001, 40P01) before the failure is reported (exit 75, HTTP 503).
    ///
    /// ```swift
    /// LibraryRules.writeAttempts  // 5
    /// ```
    public static let writeAttempts = 5

    /// Days a loan, and each renewal, lasts.
    public static let loanPeriodDays = 14

    /// When a loan started (or renewed) at `start` for `days` days falls due: at the end of its last day in UTC, the
    /// day the screen shows, so a book is never overdue on the day it is shown as due. Throws `TimestampError` when
    /// that is after `Timestamp.latest`.
    ///
    /// ```swift
    /// try LibraryRules.dueDate(from: Timestamp(iso8601: "2026-11-29T10:00:00Z"), days: 14).iso8601
    /// // "2026-12-13T23:59:59Z"
    /// ```
    public static func dueDate(from start: Timestamp, days: Int = loanPeriodDays) throws(TimestampError) -> Timestamp {
        try start.adding(days: days).endOfDay
    }

    /// The publication years a book may have, negative before the common era (`books.year`), but never 0: years
    /// are counted as historians count them, 1 BC (`-1`) just before AD 1 (`1`). See ``isYear(_:)``.
    public static let years: ClosedRange<Int> = -9_999...9_999

    /// Whether `year` is a publication year a book may have: in ``years`` and not 0.
    ///
    /// ```swift
    /// LibraryRules.isYear(-725)  // true: 725 BC
    /// LibraryRules.isYear(0)     // false: there is no year 0
    /// ```
    public static func isYear(_ year: Int) -> Bool { years.contains(year) && year != 0 }

    /// How the year rule is worded in messages: "a whole number from -9999 to 9999, not 0 (-1 is 1 BC)".
    public static let yearRule = "a whole number from \(years.lowerBound) to \(years.upperBound), not 0 (-1 is 1 BC)"

    /// The largest page count a book may have (the schema asks only for more than 0).
    public static let maxPages = 1_000_000

    /// The refusal of renewing `loan` of `book`, overdue or not, or nil when it may be renewed: an overdue loan must
    /// be returned, and a loan is renewed at most `maxRenewals` times. The store refuses a renewal with it, and the
    /// screen marks its Renew actions disabled with its message, so both say the same thing.
    ///
    /// ```swift
    /// LibraryRules.renewalRefusal(of: loan, book: book, isOverdue: false)  // nil while renewals < 2
    /// ```
    public static func renewalRefusal(of loan: Loan, book: Book, isOverdue: Bool) -> LibraryError? {
        if isOverdue { return .overdue(id: book.id, title: book.title, dueAt: loan.dueAt) }
        guard loan.renewals < maxRenewals else {
            return .renewalLimitReached(id: book.id, title: book.title, limit: maxRenewals)
        }
        return nil
    }

    /// The refusal of taking `requested` more books for a client who holds `held` of a `limit`, or nil when the
    /// loan limit allows it. The store refuses a take with it, and the screen marks its Take actions disabled with
    /// its message, so both say the same thing.
    ///
    /// ```swift
    /// LibraryRules.loanLimitRefusal(held: 5, limit: 5)?.message
    /// // "You have 5 of your 5 books; you cannot take 1 more book."
    /// LibraryRules.loanLimitRefusal(held: 4, limit: 5)  // nil
    /// ```
    public static func loanLimitRefusal(held: Int, limit: Int, requested: Int = 1) -> LibraryError? {
        held + requested <= limit ? nil : .loanLimitReached(limit: limit, held: held, requested: requested)
    }
}
