import PostgreSQL
import SQLite

/// Which constraint refused a change, read from SQLite's extended result code and its message, so a refusal is
/// reported for what it is: a second open loan of a book (the unique index on `loans.book_id`) is "on loan to
/// someone else", and a CHECK or trigger failure is never mistaken for one.
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO clients (name, card_number, created_at) VALUES (?, ?, ?)", ["Ann", "C-1", now])
/// } catch let error as SQLiteError where ConstraintFailure(error)?.isUnique(table: "clients",
///                                                                           columns: ["card_number"]) == true {
///     print("that card is taken")
/// }
/// ```
struct ConstraintFailure: Hashable, Sendable {
    /// The kind of constraint, from the extended result code.
    enum Kind: Hashable, Sendable {
        case unique, primaryKey, check, notNull, foreignKey, trigger, other
    }

    /// The kind.
    var kind: Kind
    /// For UNIQUE, PRIMARY KEY and NOT NULL: the table and its columns named in SQLite's message
    /// ("UNIQUE constraint failed: loans.book_id").
    var table: String?
    var columns: [String]
    /// SQLite's message.
    var message: String

    /// The failure `error` describes, or nil when it is not a constraint failure.
    init?(_ error: SQLiteError) {
        guard error.isConstraintViolation else { return nil }
        switch error.extendedCode {
        case SQLiteError.ResultCode.constraintUnique: kind = .unique
        case SQLiteError.ResultCode.constraintPrimaryKey: kind = .primaryKey
        case SQLiteError.ResultCode.constraintCheck: kind = .check
        case SQLiteError.ResultCode.constraintNotNull: kind = .notNull
        case SQLiteError.ResultCode.constraintForeignKey: kind = .foreignKey
        case SQLiteError.ResultCode.constraintTrigger: kind = .trigger
        default: kind = .other
        }
        message = error.message
        table = nil
        columns = []
        guard [.unique, .primaryKey, .notNull].contains(kind), let colon = message.firstIndex(of: ":") else {
            return
        }
        // "UNIQUE constraint failed: t.a, t.b": every column is named with its table.
        for part in message[message.index(after: colon)...].split(separator: ",") {
            let name = part.trimmingPrefix(" ")
            guard let dot = name.firstIndex(of: ".") else { continue }
            table = String(name[..<dot])
            columns.append(String(name[name.index(after: dot)...]))
        }
    }

    /// Whether this is a UNIQUE (or PRIMARY KEY) failure on exactly these columns of `table`.
    /// The failure an error of either store describes, or nil when it is no constraint failure.
    init?(_ error: any Error) {
        if let error = error as? SQLiteError {
            self.init(error)
        } else if let error = error as? PostgreSQLError {
            self.init(error)
        } else {
            return nil
        }
    }

    /// PostgreSQL's: the kind from the SQLSTATE, the table and (for unique keys) the columns from the diagnostics.
    init?(_ error: PostgreSQLError) {
        switch error.sqlState {
        case "23505": kind = .unique
        case "23514": kind = .check
        case "23502": kind = .notNull
        case "23503": kind = .foreignKey
        case "P0001": kind = .trigger
        default:
            guard error.isConstraintViolation else { return nil }
            kind = .other
        }
        message = error.message
        table = error.table
        columns = kind == .notNull ? error.column.map { [$0] } ?? [] : error.uniqueColumns
    }

    func isUnique(table: String, columns: [String]) -> Bool {
        (kind == .unique || kind == .primaryKey) && self.table == table && self.columns == columns
    }
}
