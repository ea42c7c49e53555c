import Foundation
import Library
import PostgreSQL
import SQLite

/// A PostgreSQL database of one test's own, on the server `LIBRARY_TEST_POSTGRES` names: a clone of a template
/// database that the embedded migrations made, so each test starts from a migrated, empty library in a fraction of
/// the time migrating would take.
///
/// The template is named after a hash of the embedded migrations' names and checksums (a changed migration makes
/// a new one). It is made once, by whichever test gets there first, under an advisory lock on the database of
/// `LIBRARY_TEST_POSTGRES` (so test processes running together make it once): built under a temporary name,
/// migrated through `LibraryStore.open` with that connection closed again (PostgreSQL clones no database someone
/// is connected to), then renamed. A test's database is dropped when this object goes, unless someone is still
/// connected to it; the cluster is a throwaway one, so one left behind does no harm.
///
/// ```swift
/// let database = try PostgreSQLTestDatabase()
/// let store = try LibraryStore.open(at: database.url, now: now)
/// ```
public final class PostgreSQLTestDatabase: Sendable {
    /// The database's name: "lt_" and 32 random hex digits.
    public let name: String
    /// The URL of the database: `LIBRARY_TEST_POSTGRES` with its database name replaced.
    public let url: String
    private let baseURL: String

    /// A new database cloned from the migrated template, or (`migrated: false`) an empty one cloned from
    /// `template0`. Throws when `LIBRARY_TEST_POSTGRES` is unset or PostgreSQL refuses.
    public init(migrated: Bool = true) throws {
        guard let baseURL = StoreKind.postgreSQLURL else {
            throw PostgreSQLTestDatabaseError("\(StoreKind.postgreSQLVariable) is not set")
        }
        self.baseURL = baseURL
        name = "lt_" + Self.randomHex(bytes: 16)
        url = try Self.url(baseURL, database: name)
        let admin = try PostgreSQLConnection(url: baseURL, applicationName: "librarycli-tests")
        let template = migrated ? try Self.migratedTemplate(admin, baseURL: baseURL) : "template0"
        try admin.execute(script: "CREATE DATABASE \(Self.quoted(name)) TEMPLATE \(Self.quoted(template))")
    }

    deinit {
        // Dropped once nobody is connected any more: a connection just closed leaves within milliseconds; one still
        // open leaves the database behind (DROP DATABASE would wait five seconds for it, then fail).
        guard let admin = try? PostgreSQLConnection(url: baseURL, applicationName: "librarycli-tests") else { return }
        for _ in 0..<20 {
            let connected = try? admin.fetchOne(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = ?", [name]
            ) { $0.int(0) }
            guard let connected else { return }
            if connected == 0 {
                try? admin.execute(script: "DROP DATABASE IF EXISTS \(Self.quoted(name))")
                return
            }
            usleep(10_000)
        }
    }

    /// `url` with its database name replaced by `database`: `postgresql://user@/library?host=/tmp` becomes
    /// `postgresql://user@/<database>?host=/tmp`, `postgresql://user@host:5432/library` becomes
    /// `postgresql://user@host:5432/<database>`. Throws for a connection string that is no URL.
    ///
    /// ```swift
    /// try PostgreSQLTestDatabase.url("postgresql://me@db:5432/library", database: "lt_1")  // ...5432/lt_1
    /// ```
    public static func url(_ url: String, database: String) throws -> String {
        guard LibraryDatabase.isPostgreSQLURL(url) else {
            throw PostgreSQLTestDatabaseError("\(StoreKind.postgreSQLVariable) must be a postgresql:// URL")
        }
        return TestPostgreSQL.url(url, database: database)
    }

    /// The name of the template the embedded PostgreSQL migrations make.
    public static let templateName: String = {
        let migrations = Migrations.postgresql.map { $0.name + " " + $0.checksum }.joined(separator: "\n")
        return "lt_template_" + SHA256.hexDigest(of: migrations).prefix(16)
    }()

    // MARK: - Private

    /// Whether this process has seen the template made (no lock and no look-up needed then).
    private static let templateIsReady = Shared(false)

    /// Makes the template unless it is there; returns its name.
    private static func migratedTemplate(_ admin: PostgreSQLConnection, baseURL: String) throws -> String {
        if templateIsReady.withLock({ $0 }) { return templateName }
        let lockKey = "7024494137046291523"  // any fixed number ("librarycli-tests")
        try admin.execute("SELECT pg_advisory_lock(CAST(? AS bigint))", [lockKey])
        defer { _ = try? admin.execute("SELECT pg_advisory_unlock(CAST(? AS bigint))", [lockKey]) }
        let exists =
            try admin.fetchOne("SELECT count(*) FROM pg_database WHERE datname = ?", [templateName]) { $0.int(0) } == 1
        if !exists {
            // Built under another name and renamed when migrated: a run that stopped half-way leaves no template.
            let building = templateName + "_building"
            try admin.execute(script: "DROP DATABASE IF EXISTS \(quoted(building)) WITH (FORCE)")
            try admin.execute(script: "CREATE DATABASE \(quoted(building)) TEMPLATE template0")
            do {
                // The store and its connection are released at the end of this block.
                let now = Timestamp(year: 2026, month: 1, day: 1)!
                let store = try LibraryStore.open(at: try url(baseURL, database: building), now: now)
                precondition(store.dialect == .postgresql)
            }
            try admin.execute(script: "ALTER DATABASE \(quoted(building)) RENAME TO \(quoted(templateName))")
        }
        templateIsReady.withLock { $0 = true }
        return templateName
    }

    /// An identifier in double quotes (the names here are ASCII letters, digits and underscores of our making).
    private static func quoted(_ identifier: String) -> String {
        precondition(identifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        return "\"" + identifier + "\""
    }

    private static func randomHex(bytes: Int) -> String {
        (0..<bytes).map { _ in
            let byte = UInt8.random(in: 0...255)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}

/// Why no PostgreSQL test database could be made.
public struct PostgreSQLTestDatabaseError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
