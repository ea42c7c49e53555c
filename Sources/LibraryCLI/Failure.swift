import Glibc
import Library
import PostgreSQL
import SQLite

/// An error as the user reads it: one plain message and the documented exit code.
///
/// For example:
///
///     let failure = Failure(LibraryError.noSuchBook(id: 99))
///     failure.code     // .refused
///     failure.message  // "There is no book #99."
struct Failure: Error {
    var message: String
    var code: ExitCode

    init(message: String, code: ExitCode) {
        self.message = message
        self.code = code
    }

    /// Words any error for the user and picks its exit code.
    init(_ error: any Error) {
        switch error {
        case let failure as Failure:
            self = failure
        case LibraryError.invalidInput(let reason, _):
            // An empty name or title, a limit out of range: the command line asked for something impossible.
            self.init(message: reason, code: .usage)
        case let refusal as LibraryError:
            self.init(message: refusal.message, code: .refused)
        case AuthError.pinNotAllowed, AuthError.invalidIdempotencyKey:
            self.init(message: (error as? AuthError)?.message ?? "", code: .usage)
        case AuthError.cannotHash:
            self.init(message: AuthError.cannotHash.message, code: .internalError)
        case let refusal as AuthError:
            self.init(message: refusal.message, code: .refused)
        case let error as SQLiteError:
            self.init(sqlite: error, path: nil)
        case let error as PostgreSQLError:
            self.init(postgresql: error, name: nil)
        case let error as PostgreSQLURLError:
            // A URL that could be read two ways: the command line is wrong (nothing of the URL is quoted).
            self.init(message: "\(error.message); nothing was tried.", code: .usage)
        case let error as TimestampError:
            // LIBRARY_NOW is checked where it is read, so this is a time stored in the database.
            self.init(
                message: "the database holds a time librarycli cannot read (\(error.message)); it may be damaged.",
                code: .cannotWrite)
        case let error as MigrationError:
            self.init(migration: error, path: nil)
        case let error as InternalError:
            self.init(message: "internal error: \(error.message). This is a bug in librarycli.", code: .internalError)
        default:
            if let input = InputFailure(error) {
                self.init(message: input.message, code: input.code)
            } else {
                self.init(message: "internal error: \(error). This is a bug in librarycli.", code: .internalError)
            }
        }
    }

    /// Words a migrator's refusal (exit 73), naming the database file when it is known.
    init(migration error: MigrationError, path: String?) {
        let file = path.map { "'\($0)'" } ?? "The database"
        if error.isNotOurs {
            self.init(message: "\(file) is \(error.message).", code: .cannotWrite)
        } else {
            self.init(message: "\(file) cannot be used: \(error.message).", code: .cannotWrite)
        }
    }

    /// Words a database error, naming the database file when it is known.
    /// PostgreSQL's errors: unreachable or overloaded servers and lost races are worth trying again (75), a
    /// refused login, a missing database or a role without the privileges the command needs cannot be used (73), a
    /// constraint is the library refusing (65).
    init(postgresql error: PostgreSQLError, name: String?) {
        let database = name.map { "the PostgreSQL database \($0)" } ?? "the PostgreSQL database"
        // libpq's messages may end with a question ("...accepting TCP/IP connections?"): no full stop after one.
        let reason = ".?!".contains(error.message.last ?? " ") ? error.message : error.message + "."
        if error.isRetryable {
            self.init(
                message: "\(database) stayed busy (other writers kept winning); nothing was changed. Try again.",
                code: .busy)
        } else if error.isAuthenticationFailure {
            self.init(message: "cannot sign in to \(database): \(reason)", code: .cannotWrite)
        } else if error.isNoSuchDatabase {
            self.init(
                message: "\(database) does not exist: \(reason) Create it first (createdb).", code: .cannotWrite)
        } else if let refusal = PrivilegeRefusal(error) {
            self.init(message: refusal.message(database: database), code: .cannotWrite)
        } else if error.sqlState == "08P01" || error.sqlStateClass == "42" && error.sql == nil
            || error.sqlState == "3F000"
        {
            // A URL libpq cannot read (or a server speaking another protocol), or a search path that names no
            // schema there is: trying again will not help.
            self.init(message: "cannot use \(database): \(reason)", code: .cannotWrite)
        } else if error.isUnavailable {
            self.init(message: "cannot reach \(database): \(reason) Nothing was changed; try again.", code: .busy)
        } else if error.sqlState == "25006" {
            self.init(message: "cannot write to \(database): it is read-only (\(error.message)).", code: .cannotWrite)
        } else if error.sqlStateClass == "53" {
            // Insufficient resources: disk full, out of memory, too many connections.
            self.init(
                message: "\(database) cannot take the change just now: \(reason) Nothing was changed; try again.",
                code: .busy)
        } else if error.isConstraintViolation {
            self.init(message: "the library refused the change: \(error.message).", code: .refused)
        } else {
            self.init(
                message: "internal error: \(error.description). This is a bug in librarycli.", code: .internalError)
        }
    }

    /// Whether `path`'s file may be written to but its folder may not (so SQLite cannot make its journal files).
    static func folderIsReadOnly(of path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "/" : folder, W_OK) != 0
    }

    /// `path`'s `-wal` or `-shm` file when it exists and this user may not write it, though the database itself may.
    private static func readOnlyJournalFile(of path: String) -> String? {
        guard access(path, W_OK) == 0 else { return nil }
        return [path + "-wal", path + "-shm"].first { access($0, F_OK) == 0 && access($0, W_OK) != 0 }
    }

    init(sqlite error: SQLiteError, path: String?) {
        let file = path.map { "'\($0)'" } ?? "the database"
        if error.isBusy {
            self.init(
                message: "\(file) stayed busy (another librarycli is writing to it); nothing was changed. Try again.",
                code: .busy)
        } else if error.isMoved {
            self.init(
                message: "cannot write to \(file): the file was moved, renamed, deleted or replaced while the command "
                    + "ran; nothing was changed.",
                code: .cannotWrite)
        } else if error.isReadOnly, let path, Self.folderIsReadOnly(of: path) {
            // The file may be writable: SQLite's journal files (`-wal`, `-shm`) go beside it, in its folder.
            self.init(
                message: "cannot write to \(file): its folder is read-only, and the database keeps its journal files "
                    + "(\(path.split(separator: "/").last ?? "")-wal, -shm) beside it (\(error.message)).",
                code: .cannotWrite)
        } else if error.isReadOnly, let path, let journal = Self.readOnlyJournalFile(of: path) {
            // The database may be written, but not the journal file beside it (another user's, left by their write).
            self.init(
                message: "cannot write to \(file): its journal file '\(journal)' is read-only to this user "
                    + "(\(error.message)).",
                code: .cannotWrite)
        } else if error.isReadOnly {
            self.init(message: "cannot write to \(file): it is read-only (\(error.message)).", code: .cannotWrite)
        } else if error.isNotADatabase {
            self.init(message: "\(file) is not a librarycli database (it is not an SQLite file).", code: .cannotWrite)
        } else if error.isCorrupt {
            self.init(
                message: "\(file) is damaged (\(error.message)); it was left as it is. Restore it from a backup.",
                code: .cannotWrite)
        } else if error.isCannotOpen {
            self.init(message: "cannot open \(file): \(error.message).", code: .cannotWrite)
        } else if error.isStorageFailure {
            self.init(
                message: "cannot write to \(file): \(error.message) (is the disk full, or a file size limit reached?); "
                    + "nothing was changed.",
                code: .cannotWrite)
        } else if error.isConstraintViolation {
            self.init(message: "the library refused the change: \(error.message).", code: .refused)
        } else {
            self.init(
                message: "internal error: \(Self.shortDescription(error)). This is a bug in librarycli.",
                code: .internalError)
        }
    }

    /// `error.description` with the SQL that failed cut to its first line and 80 characters: a migration or a
    /// long query would otherwise fill the screen.
    private static func shortDescription(_ error: SQLiteError) -> String {
        guard let sql = error.sql else { return error.description }
        let line = sql.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let short = line.count > 80 || line.count < sql.count ? String(line.prefix(80)) + " ..." : line
        return SQLiteError(code: error.extendedCode, message: error.message, sql: short).description
    }
}
