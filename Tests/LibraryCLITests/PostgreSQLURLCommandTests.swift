import Foundation
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
}
