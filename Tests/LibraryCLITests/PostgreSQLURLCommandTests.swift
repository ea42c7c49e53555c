import Foundation
import Library
import PostgreSQL
import Testing

@testable import LibraryCLI

/// PostgreSQL URLs and errors as the command line words them; no server needed.
@Suite("PostgreSQL URLs and errors on the command line")
struct PostgreSQLURLCommandTests {
    let environment = ["HOME": "/nonexistent", "LIBRARY_NOW": "2026-11-29T10:00:00Z", "PATH": "/usr/bin:/bin"]

    @Test("a URL with an unencoded '@' in its password is a usage error (64) before connecting, quoting none of it")
    func ambiguousURL() throws {
        let url = "postgresql://alice:abc@SECRETPART@127.0.0.1:55433/lib3"
        let runs = [
            ["--db", url, "list"], ["--db", url, "take", "5"], ["--db", url, "init"], ["--db", url, "export"],
            ["--db", url, "migrate", "--status"], ["--db", url, "serve", "--port", "0"],
            ["copy", "--from", "/nonexistent/library.sqlite", "--to", url],
            ["copy", "--from", url, "--to", "/nonexistent/library.sqlite"],
        ]
        for arguments in runs {
            let result = try Binary.run(arguments, environment: environment)
            #expect(result.code == 64, "\(arguments): \(result.err)")
            #expect(
                result.err
                    == "Error: the PostgreSQL URL has more than one '@' before its host, so its user name and "
                    + "password could be read in two ways: percent-encode an '@' in them as %40 "
                    + "(postgresql://user:p%40ss@host/db); nothing was tried.\n",
                "\(arguments)")
            for secret in ["abc", "SECRETPART"] {
                #expect(!result.err.contains(secret) && !result.out.contains(secret), "\(arguments)")
            }
        }
        // LIBRARY_DB is read the same way.
        let fromEnvironment = try Binary.run(["list"], environment: environment.merging(["LIBRARY_DB": url]) { $1 })
        #expect(fromEnvironment.code == 64 && !fromEnvironment.err.contains("SECRETPART"), "\(fromEnvironment.err)")
    }

    @Test("a host name that does not resolve is a server out of reach (75), whatever the name says")
    func unknownHost() throws {
        for host in ["nosuchhost.invalid", "invalid-name.invalid"] {
            let url = "postgresql://user:SECRET@\(host)/db?connect_timeout=2"
            let result = try Binary.run(["--db", url, "list"], environment: environment)
            #expect(result.code == 75, "\(result.err)")
            #expect(
                result.err.hasPrefix("Error: cannot reach the PostgreSQL database postgresql://user@\(host)/db"),
                "\(result.err)")
            #expect(result.err.contains("could not translate host name"), "\(result.err)")
            #expect(!result.err.contains("SECRET"))
        }
    }

    @Test(
        "no password shows in a message: not under a misspelt key, nor where the URL's user or database name is it",
        arguments: [
            // libpq refuses the key, and names it; its value is the user's password all the same.
            (
                "postgresql://alice@127.0.0.1:1/library?Password=QwX2", "QwX2",
                "cannot use the PostgreSQL database postgresql://alice@127.0.0.1:1/library?Password=***: "
            ),
            (
                "postgresql://alice@127.0.0.1:1/library?sslmode=disable&passwd=QwX2&port=1", "QwX2",
                "cannot use the PostgreSQL database postgresql://alice@127.0.0.1:1/library?sslmode=disable&passwd=***"
            ),
            // The server is out of reach (port 1): the URL names the database.
            (
                "postgresql://PwX10:PwX10@127.0.0.1:1/library", "PwX10",
                "cannot reach the PostgreSQL database postgresql://***@127.0.0.1:1/library: "
            ),
            (
                "postgresql://alice:Lib3x@127.0.0.1:1/Lib3x", "Lib3x",
                "cannot reach the PostgreSQL database postgresql://alice@127.0.0.1:1/***: "
            ),
            (
                "postgresql://alice:Opt7x@127.0.0.1:1/lib?options=-c%20x.y%3DOpt7x&connect_timeout=2", "Opt7x",
                "cannot reach the PostgreSQL database postgresql://alice@127.0.0.1:1/lib?options=***&connect_timeout=2: "
            ),
        ])
    func noPasswordInMessages(url: String, password: String, expected: String) throws {
        for arguments in [["--db", url, "books"], ["--db", url, "migrate", "--status"]] {
            let result = try Binary.run(arguments, environment: environment)
            #expect(result.code != 0 && result.err.hasPrefix("Error: " + expected), "\(arguments): \(result.err)")
            #expect(!result.err.contains(password) && !result.out.contains(password), "\(result.err)")
        }
    }

    @Test("a role without a privilege is exit 73 naming the role and the GRANT, never an internal error")
    func insufficientPrivilege() {
        let database = "postgresql://alice@db/lib1"
        let table = Failure(
            postgresql: PostgreSQLError(
                sqlState: "42501", message: "permission denied for table books",
                sql: "SELECT b.id FROM books b", user: "alice"),
            name: database)
        #expect(table.code == .cannotWrite)
        #expect(
            table.message
                == "the role alice may not read or write the library in the PostgreSQL database \(database) "
                + "(permission denied for table books); nothing was changed. Grant it the library's tables (GRANT "
                + "SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO alice; GRANT USAGE ON ALL "
                + "SEQUENCES IN SCHEMA public TO alice; reading needs SELECT only), or use another role.")
        #expect(!table.message.contains("SELECT b.id"))

        let schema = Failure(
            postgresql: PostgreSQLError(
                sqlState: "42501", message: "permission denied for schema public", sql: "CREATE TABLE clients (...)",
                user: "Alice Smith"),
            name: database)
        #expect(schema.code == .cannotWrite)
        #expect(
            schema.message
                == "the role Alice Smith may not create the library's tables in the PostgreSQL database \(database) "
                + "(permission denied for schema public); nothing was changed. Create the library with the database "
                + "owner's role, or grant it: GRANT CREATE ON SCHEMA public TO \"Alice Smith\";")
        #expect(!schema.message.contains("CREATE TABLE clients"))

        let unnamed = Failure(PostgreSQLError(sqlState: "42501", message: "must be owner of table books", sql: "ALTER"))
        #expect(unnamed.code == .cannotWrite)
        // Not owning the tables is no missing GRANT: migrating them takes their owner.
        #expect(
            unnamed.message
                == "this role may not change the library's tables in the PostgreSQL database (must be owner of table "
                + "books), as migrating them needs; nothing was changed. Migrate with the role that owns the tables, "
                + "then use this one.")

        let usage = Failure(
            postgresql: PrivilegeRefusal.missingUsage(
                PostgreSQLError(
                    sqlState: "42501", message: "permission denied for schema public", sql: "SELECT", user: "Alice")),
            name: database)
        #expect(usage.code == .cannotWrite)
        #expect(
            usage.message
                == "the role Alice may not use the schema public, which holds the library, in the PostgreSQL database "
                + "\(database) (permission denied for schema public); nothing was changed. Grant it: GRANT USAGE ON "
                + "SCHEMA public TO \"Alice\"; or use another role.")
    }

    @Test("identifiers are quoted only when SQL would not read them as they are")
    func identifiers() {
        #expect(PrivilegeRefusal.identifier("alice_2") == "alice_2")
        #expect(PrivilegeRefusal.identifier("Alice") == "\"Alice\"")
        #expect(PrivilegeRefusal.identifier("a\"b") == "\"a\"\"b\"")
        #expect(PrivilegeRefusal.identifier("2x") == "\"2x\"")
    }
}
