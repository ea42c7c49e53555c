import Foundation
import PostgreSQL

/// The PostgreSQL cluster the tests may use: `LIBRARY_TEST_POSTGRES`, a superuser URL of an empty database in a
/// throwaway cluster (`postgresql://user@host:port/db` or `postgresql://user@/db?host=/socketdir&port=N`). The
/// tests that need it are skipped when it is not set.
public enum TestPostgreSQL {
    public static let baseURL: String? = {
        guard let url = ProcessInfo.processInfo.environment["LIBRARY_TEST_POSTGRES"], !url.isEmpty else { return nil }
        return url
    }()

    public static var isConfigured: Bool { baseURL != nil }

    /// `url` naming the database `name` instead of its own: the path's database, and a `dbname` query parameter
    /// when there is one.
    ///
    ///     url("postgresql://u@/lib?host=/tmp&port=5", database: "t_1")  // "postgresql://u@/t_1?host=/tmp&port=5"
    public static func url(_ url: String, database name: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
        let beforeQuery = rest[..<queryStart]
        let authority = beforeQuery[..<(beforeQuery.firstIndex(of: "/") ?? beforeQuery.endIndex)]
        var result = url[..<scheme.upperBound] + authority + "/" + name
        if queryStart < rest.endIndex {
            let pairs = rest[rest.index(after: queryStart)...].split(separator: "&").map { pair -> String in
                pair.lowercased().hasPrefix("dbname=") ? "dbname=" + name : String(pair)
            }
            result += "?" + pairs.joined(separator: "&")
        }
        return result
    }

    /// `url` signing in as `user` instead of its own user (the host, the database and the parameters kept).
    ///
    ///     url("postgresql://postgres@/lib?host=/tmp", user: "r_1")  // "postgresql://r_1@/lib?host=/tmp"
    public static func url(_ url: String, user: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let host = rest[..<authorityEnd].split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        return String(url[..<scheme.upperBound]) + user + "@" + host + rest[authorityEnd...]
    }

    /// Whether the user of `LIBRARY_TEST_POSTGRES` may create roles (a superuser, or one with CREATEROLE), as the
    /// tests of roles without privileges need; false when it is unset or cannot connect.
    public static let mayCreateRoles: Bool = {
        guard let baseURL, let connection = try? PostgreSQLConnection(url: baseURL, applicationName: "librarycli-tests")
        else { return false }
        let may = try? connection.fetchOne(
            "SELECT rolsuper OR rolcreaterole FROM pg_catalog.pg_roles WHERE rolname = current_user"
        ) { $0.bool(0) }
        return may ?? false
    }()

    /// 16 random hex digits.
    public static func randomHex() -> String {
        (0..<16).map { _ in String(Int.random(in: 0..<16), radix: 16) }.joined()
    }
}
