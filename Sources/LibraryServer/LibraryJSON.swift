import Formats
import Library

/// Books, loans and clients as the API writes them.
enum LibraryJSON {
    /// A book with its availability for the caller (and `dueAt` when it is on loan): one shape wherever a book is
    /// answered.
    static func book(_ book: Book, availability: Availability) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .int(book.id)), ("title", .string(book.title)), ("author", .string(book.author)),
            ("year", book.year.map { .int($0) } ?? .null), ("pages", book.pages.map { .int($0) } ?? .null),
            ("description", .string(book.description)), ("isbn", book.isbn.map { .string($0) } ?? .null),
            ("status", .string(book.status.rawValue)),
        ]
        members.append(("availability", .string(availability.name)))
        if let due = availability.dueAt { members.append(("dueAt", .string(due.iso8601))) }
        return .object(members: members)
    }

    /// A loan as `--json take` writes its outcomes (with `action` there, and `overdue` in `loans`).
    static func loan(_ loaned: LoanedBook, action: String? = nil, overdue: Bool? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let action { members.append(("action", .string(action))) }
        members += [
            ("bookId", .int(loaned.book.id)), ("title", .string(loaned.book.title)),
            ("author", .string(loaned.book.author)), ("takenAt", .string(loaned.loan.takenAt.iso8601)),
            ("dueAt", .string(loaned.loan.dueAt.iso8601)),
            ("returnedAt", loaned.loan.returnedAt.map { .string($0.iso8601) } ?? .null),
            ("renewals", .int(loaned.loan.renewals)),
        ]
        if let overdue { members.append(("overdue", .bool(overdue))) }
        return .object(members: members)
    }

    static func client(_ client: Client) -> JSONValue {
        .object(members: [
            ("id", .int(client.id)), ("name", .string(client.name)), ("cardNumber", .string(client.cardNumber)),
            ("loanLimit", .int(client.loanLimit)), ("createdAt", .string(client.createdAt.iso8601)),
        ])
    }
}
