import CLibPQ
import Glibc

/// The PostgreSQL baselines' direct use of libpq's C API (not the PostgreSQL module): one connection, statements
/// prepared once by name with `PQprepare`, run with `PQexecPrepared` in the text format, results read with
/// `PQgetvalue`, as a C program would.
final class RawPGConnection {
    let handle: OpaquePointer

    /// Connects with a libpq URL or conninfo string, and sets the session as librarycli's connections do (UTC, ISO
    /// dates, UTF-8), so both sides format and parse times alike.
    init(url: String) throws {
        guard let connection = PQconnectdb(url) else { throw BenchError("libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw BenchError("cannot connect: \(message)")
        }
        handle = connection
        // Notices ("database ... does not exist, skipping" and the like) are dropped, as librarycli drops them.
        _ = PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try exec("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET client_encoding = 'UTF8'")
    }

    deinit { PQfinish(handle) }

    /// Runs SQL through the simple query protocol (`BEGIN`, `COMMIT`, scripts), as librarycli runs those.
    func exec(_ sql: String) throws {
        guard let result = PQexec(handle, sql) else { throw BenchError("connection lost in \(sql)") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchError("\(String(cString: PQresultErrorMessage(result))) in \(sql)")
        }
    }

    /// Prepares `sql` (with `$1`, `$2`... placeholders) once under a name of its own.
    func prepare(_ name: String, _ sql: String) throws -> RawPGStatement {
        guard let result = PQprepare(handle, name, sql, 0, nil) else { throw BenchError("connection lost in \(sql)") }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw BenchError("\(String(cString: PQresultErrorMessage(result))) in \(sql)")
        }
        return RawPGStatement(connection: self, name: name, sql: sql)
    }
}

/// A statement prepared on a `RawPGConnection`.
struct RawPGStatement {
    let connection: RawPGConnection
    let name: String
    let sql: String

    /// Runs the statement with up to four text parameters (C strings for the call's length, in an array on the
    /// stack) and hands the result to `body`, which reads it with `PQgetvalue` and friends; the result is cleared
    /// afterwards.
    func run<T>(
        _ a: String, _ b: String? = nil, _ c: String? = nil, _ d: String? = nil, _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        let count: Int32 = d != nil ? 4 : c != nil ? 3 : b != nil ? 2 : 1
        let result = a.withCString { pa in
            (b ?? "").withCString { pb in
                (c ?? "").withCString { pc in
                    (d ?? "").withCString { pd in
                        let values = (pa, pb, pc, pd)
                        return withUnsafePointer(to: values) { tuple in
                            tuple.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: 4) {
                                PQexecPrepared(connection.handle, name, count, $0, nil, nil, 0)
                            }
                        }
                    }
                }
            }
        }
        guard let result else { throw BenchError("connection lost in \(sql)") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchError("\(String(cString: PQresultErrorMessage(result))) in \(sql)")
        }
        return try body(result)
    }
}

/// Databases made and dropped on a PostgreSQL server for the benchmark, through a connection to the database of
/// the URL given (`--url`), whose user may create databases.
final class PostgreSQLDatabases {
    let url: String
    private let admin: RawPGConnection

    init(url: String) throws {
        self.url = url
        admin = try RawPGConnection(url: url)
    }

    /// The URL of database `name` on the same server, as the same user: the URL's path replaced
    /// (`postgresql://user@host:port/NAME?query`), or `dbname=NAME` added to a `key=value` string.
    func url(of name: String) -> String {
        let schemes = ["postgresql://", "postgres://"]
        guard let scheme = schemes.first(where: { url.hasPrefix($0) }) else { return "\(url) dbname=\(name)" }
        let rest = url.dropFirst(scheme.count)
        let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
        let authorityEnd = rest[..<queryStart].firstIndex(of: "/") ?? queryStart
        return scheme + rest[..<authorityEnd] + "/" + name + rest[queryStart...]
    }

    /// A new database (dropped first when it exists), a copy of `template` when one is given.
    func create(_ name: String, template: String? = nil) throws {
        try drop(name)
        try admin.exec("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
    }

    /// Drops the database, ending any connection to it.
    func drop(_ name: String) throws {
        try admin.exec("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Writes every dirty page out now, so that no checkpoint started by one side's writes lands in the other's
    /// timed part.
    /// (Best effort: it needs a superuser or pg_checkpoint.)
    func checkpoint() {
        try? admin.exec("CHECKPOINT")
    }
}
