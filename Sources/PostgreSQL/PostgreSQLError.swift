/// An error reported by PostgreSQL or libpq: the SQLSTATE, the server's message and the SQL that failed.
///
/// Bound values and connection passwords are never part of the error, so it is safe to print.
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO clients (name, card_number) VALUES ($1, $2)", ["Ann", "C-1"])
/// } catch let error as PostgreSQLError where error.isUniqueViolation {
///     print(error.constraint ?? "-")  // "clients_card_number_key"
/// }
/// ```
public struct PostgreSQLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The five-character SQLSTATE, such as "23505" (unique violation); "08006" when the connection failed.
    ///
    /// ```swift
    /// if error.sqlState == "40001" { retry() }
    /// ```
    public let sqlState: String
    /// The primary message, such as "duplicate key value violates unique constraint ...".
    ///
    /// ```swift
    /// print(error.message)
    /// ```
    public let message: String
    /// The constraint that refused the change, when one did.
    ///
    /// ```swift
    /// if error.constraint == "loans_one_open_per_book" { ... }
    /// ```
    public let constraint: String?
    /// The server's detail line, such as "Key (isbn)=(978...) already exists." (it may hold values: never
    /// printed by `description`).
    ///
    /// ```swift
    /// print(error.detail ?? "-")
    /// ```
    public let detail: String?
    /// The table the error concerns, when the server names one.
    ///
    /// ```swift
    /// print(error.table ?? "-")
    /// ```
    public let table: String?
    /// The column the error concerns, when the server names one (NOT NULL violations).
    ///
    /// ```swift
    /// print(error.column ?? "-")
    /// ```
    public let column: String?
    /// The SQL that failed, if any (never the bound values).
    ///
    /// ```swift
    /// print(error.sql ?? "-")
    /// ```
    public let sql: String?
    /// The user name (role) the connection signed in as, when the error came from a connection's statement: messages
    /// name it when the role lacks a privilege (42501). Like the message, it holds no password: a user name that is
    /// (or holds) one of the connection's passwords has it as `***`.
    ///
    /// ```swift
    /// if error.sqlState == "42501" { print("GRANT ... TO \(error.user ?? "the role")") }
    /// ```
    public let user: String?

    /// Creates an error.
    ///
    /// ```swift
    /// throw PostgreSQLError(sqlState: "08006", message: "connection lost")
    /// ```
    public init(
        sqlState: String, message: String, detail: String? = nil, constraint: String? = nil, table: String? = nil,
        column: String? = nil, sql: String? = nil, user: String? = nil
    ) {
        self.detail = detail
        self.user = user
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
        self.table = table
        self.column = column
        self.sql = sql
    }

    /// The SQLSTATE class, its first two characters ("23" integrity constraint, "08" connection, "40" rollback).
    ///
    /// ```swift
    /// if error.sqlStateClass == "23" { print("refused by a constraint") }
    /// ```
    public var sqlStateClass: Substring { sqlState.prefix(2) }

    /// Whether a constraint (UNIQUE, CHECK, NOT NULL, FOREIGN KEY, EXCLUDE) refused the change.
    ///
    /// ```swift
    /// if error.isConstraintViolation { print("refused") }
    /// ```
    public var isConstraintViolation: Bool { sqlStateClass == "23" }

    /// The columns a unique violation names in its detail ("Key (token_id, key)=(...)" gives both), else [].
    ///
    /// ```swift
    /// if error.uniqueColumns == ["isbn"] { print("ISBN taken") }
    /// ```
    public var uniqueColumns: [String] {
        guard isUniqueViolation, let detail, detail.hasPrefix("Key ("),
            let close = detail.firstIndex(of: ")")
        else { return [] }
        let list = detail[detail.index(detail.startIndex, offsetBy: 5)..<close]
        return list.split(separator: ",").map { String($0.drop { $0 == " " }) }
    }

    /// Whether a UNIQUE constraint or unique index refused the change (23505).
    ///
    /// ```swift
    /// if error.isUniqueViolation { print("already there") }
    /// ```
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// Whether a trigger refused the change with `RAISE EXCEPTION` (P0001).
    ///
    /// ```swift
    /// if error.isRaisedException { print(error.message) }
    /// ```
    public var isRaisedException: Bool { sqlState == "P0001" }

    /// Whether the transaction lost a serialization race or a deadlock (40001, 40P01) and may be tried again.
    ///
    /// ```swift
    /// if error.isRetryable { try again() }
    /// ```
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// Whether the server cannot be reached or the connection broke (class 08, 57P01-57P03 shutting down or
    /// starting up): a later attempt may succeed.
    ///
    /// ```swift
    /// if error.isUnavailable { exit(75) }
    /// ```
    public var isUnavailable: Bool {
        sqlStateClass == "08" || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
            || sqlState == "53300"
    }

    /// Whether the server refused who we are (28000 invalid authorization, 28P01 wrong password).
    ///
    /// ```swift
    /// if error.isAuthenticationFailure { print("check the user and password") }
    /// ```
    public var isAuthenticationFailure: Bool { sqlStateClass == "28" }

    /// Whether the database named in the URL does not exist (3D000).
    ///
    /// ```swift
    /// if error.isNoSuchDatabase { print("createdb it first") }
    /// ```
    public var isNoSuchDatabase: Bool { sqlState == "3D000" }

    /// Whether the role lacks a privilege the statement needs (42501: "permission denied for table books", "must be
    /// owner of table books").
    ///
    /// ```swift
    /// if error.isInsufficientPrivilege { print("GRANT it, or use another role") }
    /// ```
    public var isInsufficientPrivilege: Bool { sqlState == "42501" }

    /// "PostgreSQL error 23505: <message> (in: <sql>)".
    ///
    /// ```swift
    /// print(error)
    /// ```
    public var description: String {
        var text = "PostgreSQL error \(sqlState): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }
}

/// A PostgreSQL URL refused before connecting, because its user name, password and host could be read in more than
/// one way (see `PostgreSQLConnectionURL.ambiguity(in:)`): a mistake in the URL, never worth trying again. The
/// message quotes nothing of the URL, so no part of a password shows.
///
/// ```swift
/// do {
///     _ = try PostgreSQLConnection(url: "postgresql://ann:a@b@db/lib")
/// } catch let error as PostgreSQLURLError {
///     print(error.message)  // "the PostgreSQL URL has more than one '@' before its host, ..."
/// }
/// ```
public struct PostgreSQLURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the URL was refused and how to write it (percent-encoding).
    public let message: String

    /// Creates an error.
    ///
    /// ```swift
    /// throw PostgreSQLURLError(message: "the PostgreSQL URL ...")
    /// ```
    public init(message: String) {
        self.message = message
    }

    /// Same as `message`.
    public var description: String { message }
}
