import Formats
import HTTP
import Library
import PostgreSQL
import SQLite

/// The library's refusals and the database's troubles as RFC 9457 problems with stable `code`s: 409 for a refusal
/// by a library rule, 404 for what does not exist, 400 for bad input, 401/422/429 for access, 503 for a busy
/// database (with `Retry-After`), 503 `database-moved` (without: it does not pass) for an SQLite file moved or deleted
/// under the server, 500 `database-permission` for a PostgreSQL role without a privilege it needs or an SQLite file
/// the server may not write.
///
///     ProblemMapping.libraryProblem(.noSuchBook(id: 9)).code  // "no-such-book"
enum ProblemMapping {
    /// The problem for an error of the domain or the database, or nil for one that is a bug (answered 500).
    static func problem(for error: any Error) -> Problem? {
        switch error {
        case let problem as Problem: return problem
        case let refusal as LibraryError: return libraryProblem(refusal)
        case let refusal as AuthError: return authProblem(refusal)
        case let failure as SQLiteError where failure.isBusy:
            return Problem(
                status: .serviceUnavailable, code: "busy",
                detail: "The database stayed busy (another program is writing to it); nothing was changed. Try again.",
                headers: ["Retry-After": "1"])
        case let failure as SQLiteError where failure.isMoved:
            // Not the request, and not passing: the server's file is no longer the library's (see StorePool).
            return Problem(
                status: .serviceUnavailable, code: "database-moved",
                detail: "The library's database file was moved, renamed, deleted or replaced while the server ran; "
                    + "nothing was changed. Every request is refused until the server is restarted on the library's "
                    + "file; ask the library's operator.")
        case let failure as SQLiteError where failure.isReadOnly:
            // The server's file, not the request: no use trying again until someone lets the server write it.
            return Problem(
                status: .internalServerError, code: "database-permission",
                detail: "The server cannot write the library's database file (it is read-only to the server); "
                    + "nothing was changed. Reading works; ask the library's operator.")
        case let failure as PostgreSQLError where failure.isRetryable || failure.isUnavailable:
            return Problem(
                status: .serviceUnavailable, code: "busy",
                detail: failure.isRetryable
                    ? "The database stayed busy (other writers kept winning); nothing was changed. Try again."
                    : "The database server cannot be reached just now; nothing was changed. Try again.",
                headers: ["Retry-After": "1"])
        case let failure as PostgreSQLError:
            guard let refusal = PrivilegeRefusal(failure) else { return nil }
            // The server's configuration, not the request: no use trying again until someone grants the role.
            let words = refusal.message(database: "the server's PostgreSQL database")
            return Problem(
                status: .internalServerError, code: "database-permission",
                detail: words.prefix(1).uppercased() + words.dropFirst())
        default: return nil
        }
    }

    static func libraryProblem(_ refusal: LibraryError) -> Problem {
        let (status, code): (HTTPStatus, String)
        var extensions: [(key: String, value: JSONValue)] = []
        switch refusal {
        case .noSuchBook(let id):
            (status, code) = (.notFound, "no-such-book")
            extensions.append(("bookId", .int(id)))
        case .noSuchClient(let id):
            (status, code) = (.notFound, "no-such-client")
            extensions.append(("clientId", .int(id)))
        case .noDefaultClient: (status, code) = (.badRequest, "no-client")
        case .bookNotLendable(let id, _, _):
            (status, code) = (.conflict, "not-lendable")
            extensions.append(("bookId", .int(id)))
        case .alreadyYours(let id, _, _):
            (status, code) = (.conflict, "already-yours")
            extensions.append(("bookId", .int(id)))
        case .onLoanToSomeoneElse(let id, _, _):
            (status, code) = (.conflict, "on-loan")
            extensions.append(("bookId", .int(id)))
        case .loanLimitReached(let limit, let held, let requested):
            (status, code) = (.conflict, "loan-limit-reached")
            extensions += [("limit", .int(limit)), ("held", .int(held)), ("requested", .int(requested))]
        case .notBorrowedByYou(let id, _):
            (status, code) = (.conflict, "not-yours")
            extensions.append(("bookId", .int(id)))
        case .renewalLimitReached(let id, _, let limit):
            (status, code) = (.conflict, "renewal-limit")
            extensions += [("bookId", .int(id)), ("limit", .int(limit))]
        case .overdue(let id, _, _):
            (status, code) = (.conflict, "overdue")
            extensions.append(("bookId", .int(id)))
        case .cardNumberTaken: (status, code) = (.conflict, "card-number-taken")
        case .isbnTaken: (status, code) = (.conflict, "isbn-taken")
        case .invalidInput(_, let field):
            // The routes that hand a body to the domain name its members as the domain names its fields.
            (status, code) = (.badRequest, "invalid-input")
            if let field { extensions.append(("member", .string(field))) }
        }
        var members = JSONObject()
        for member in extensions { _ = members.insertNew(key: member.key, value: member.value) }
        return Problem(status: status, code: code, detail: refusal.message, extensions: members)
    }

    static func authProblem(_ refusal: AuthError) -> Problem {
        switch refusal {
        case .signInFailed:
            return Problem(
                status: .unauthorized, code: "sign-in-failed", detail: refusal.message,
                headers: ["WWW-Authenticate": "Bearer"])
        case .lockedOut(let retryAfter):
            return Problem(
                status: .tooManyRequests, code: "locked-out", detail: refusal.message,
                extensions: ["retryAfter": .int(retryAfter)], headers: ["Retry-After": String(retryAfter)])
        case .pinNotAllowed: return Problem(status: .badRequest, code: "bad-pin", detail: refusal.message)
        case .invalidIdempotencyKey:
            return Problem(status: .badRequest, code: "bad-idempotency-key", detail: refusal.message)
        case .idempotencyKeyReused:
            return Problem(status: .unprocessableContent, code: "idempotency-key-reused", detail: refusal.message)
        case .noSuchToken: return Problem(status: .notFound, code: "no-such-token", detail: refusal.message)
        case .cannotHash:
            return Problem(
                status: .serviceUnavailable, code: "cannot-hash", detail: refusal.message,
                headers: ["Retry-After": "1"])
        }
    }
}
