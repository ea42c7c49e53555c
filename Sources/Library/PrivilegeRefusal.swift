import PostgreSQL

/// A PostgreSQL role's missing privilege (SQLSTATE 42501) in words: which role, what the server refused, and the
/// GRANT that lets it (the library's tables for a role that cannot read or write them; USAGE on the schema for one
/// that cannot see them; CREATE on the schema for one that cannot create the library), or, for a migration by a role
/// that does not own the tables, the role to migrate with. The command line says it (exit 73), and so does `serve`
/// (500 `database-permission`). It quotes only the server's message and the role's name, in which the connection's
/// passwords are already `***`.
///
/// ```swift
/// if let refusal = PrivilegeRefusal(error) {
///     print(refusal.message(database: "the PostgreSQL database postgresql://alice@db/library"))
///     // "the role alice may not read or write the library in ... (permission denied for table loans); ..."
/// }
/// ```
public struct PrivilegeRefusal: Sendable, Equatable {
    /// The role's name as the server gave it, when known.
    public let role: String?
    /// What the server refused, without a full stop: "permission denied for table loans".
    public let refused: String
    /// Whether the role lacks USAGE on the schema that holds the library (see ``missingUsage(_:)``), rather than
    /// CREATE on it, when the server refused the schema.
    public let lacksUsage: Bool

    /// The refusal `error` describes, or nil when it is not a missing privilege.
    ///
    /// ```swift
    /// PrivilegeRefusal(PostgreSQLError(sqlState: "42501", message: "permission denied for table loans"))?.refused
    /// // "permission denied for table loans"
    /// ```
    public init?(_ error: PostgreSQLError) {
        guard error.isInsufficientPrivilege else { return nil }
        role = error.user
        refused = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
        lacksUsage = error.detail == Self.usageDetail
    }

    /// The server's refusal of a schema (`error`, "permission denied for schema public"), marked as a missing USAGE
    /// rather than a missing CREATE: the server words both alike.
    ///
    /// ```swift
    /// PrivilegeRefusal(PrivilegeRefusal.missingUsage(error))?.lacksUsage  // true
    /// ```
    public static func missingUsage(_ error: PostgreSQLError) -> PostgreSQLError {
        PostgreSQLError(
            sqlState: error.sqlState, message: error.message, detail: usageDetail, sql: error.sql, user: error.user)
    }

    /// The detail line that marks a missing USAGE on the schema.
    static let usageDetail = "The role may not use the schema that holds the library's tables (USAGE)."

    /// The sentence, naming the database as `database` ("the PostgreSQL database ..."), ending with the GRANT.
    ///
    /// ```swift
    /// refusal.message(database: "the PostgreSQL database")
    /// ```
    public func message(database: String) -> String {
        let grantee = role.map(Self.identifier) ?? "CURRENT_USER"
        let who = role.map { "the role \($0)" } ?? "this role"
        if refused.hasPrefix("permission denied for schema ") {
            let schema = refused.dropFirst("permission denied for schema ".count)
            if lacksUsage {
                return "\(who) may not use the schema \(schema), which holds the library, in \(database) "
                    + "(\(refused)); nothing was changed. Grant it: GRANT USAGE ON SCHEMA \(schema) TO \(grantee); "
                    + "or use another role."
            }
            return "\(who) may not create the library's tables in \(database) (\(refused)); nothing was changed. "
                + "Create the library with the database owner's role, or grant it: "
                + "GRANT CREATE ON SCHEMA \(schema) TO \(grantee);"
        }
        if refused.hasPrefix("must be owner of ") {
            return "\(who) may not change the library's tables in \(database) (\(refused)), as migrating them "
                + "needs; nothing was changed. Migrate with the role that owns the tables, then use this one."
        }
        return "\(who) may not read or write the library in \(database) (\(refused)); nothing was changed. "
            + "Grant it the library's tables (GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "
            + "public TO \(grantee); GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(grantee); reading needs "
            + "SELECT only), or use another role."
    }

    /// A role or schema name as SQL reads it: as it is when lower-case letters, digits and underscores, else quoted.
    ///
    /// ```swift
    /// PrivilegeRefusal.identifier("Alice")  // "\"Alice\""
    /// ```
    public static func identifier(_ name: String) -> String {
        let plain =
            name.first.map { $0 == "_" || ("a"..."z").contains($0) } == true
            && name.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        return plain ? name : "\"" + name.replacing("\"", with: "\"\"") + "\""
    }
}
