import Foundation
import Testing

/// The stores a store test runs against: SQLite always, PostgreSQL when `LIBRARY_TEST_POSTGRES` names a database
/// (a superuser URL of an empty database in a throwaway cluster: each test gets a database of its own there).
///
/// ```swift
/// @Test(arguments: StoreKind.available)
/// func takesABook(kind: StoreKind) throws { let fixture = try Fixture(kind: kind) }
/// ```
public enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    /// The environment variable that enables the PostgreSQL store tests.
    public static let postgreSQLVariable = "LIBRARY_TEST_POSTGRES"

    /// The PostgreSQL URL the tests may use, or nil when `LIBRARY_TEST_POSTGRES` is unset or empty.
    public static var postgreSQLURL: String? {
        guard let url = ProcessInfo.processInfo.environment[postgreSQLVariable], !url.isEmpty else { return nil }
        return url
    }

    /// The stores to run store tests against: `.sqlite`, and `.postgresql` when `LIBRARY_TEST_POSTGRES` is set.
    public static var available: [StoreKind] { postgreSQLURL == nil ? [.sqlite] : [.sqlite, .postgresql] }

    public var testDescription: String { rawValue }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when `LIBRARY_TEST_POSTGRES` is set; without it the test is skipped, saying why.
    ///
    /// ```swift
    /// @Test(.needsPostgreSQL) func migratesOnce() throws { ... }
    /// ```
    public static var needsPostgreSQL: Self {
        .enabled(
            if: StoreKind.available.contains(.postgresql),
            "needs PostgreSQL: set \(StoreKind.postgreSQLVariable) to a PostgreSQL URL")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test only when the user of `LIBRARY_TEST_POSTGRES` may create roles (a superuser, or CREATEROLE, as
    /// the throwaway cluster's `postgres` is); otherwise it is skipped, saying why.
    ///
    /// ```swift
    /// @Test(.needsPostgreSQLRoles) func aRoleWithoutPrivilegesIsRefused() throws { ... }
    /// ```
    public static var needsPostgreSQLRoles: Self {
        .enabled(
            Comment(
                rawValue: "needs a PostgreSQL user that may create roles: \(StoreKind.postgreSQLVariable) is unset, "
                    + "cannot connect, or names a user that is neither a superuser nor CREATEROLE")
        ) { TestPostgreSQL.mayCreateRoles }
    }
}
