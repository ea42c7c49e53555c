import Testing

@testable import PostgreSQL

/// Reading a PostgreSQL URL as libpq reads it, refusing the ones that could be read two ways, and keeping every
/// password out of messages. No server needed.
@Suite("PostgreSQL URLs: ambiguity, redaction, passwords")
struct ConnectionURLTests {
    @Test(
        "a URL read one way only is accepted",
        arguments: [
            "postgresql://ann@db/lib", "postgresql://ann:p%40ss@db:5432/lib?sslmode=disable",
            "postgresql:///lib?host=/run/postgresql", "postgresql://db/lib?user=ann@example.org",
            "postgres://ann:pa:ss@db/lib", "postgresql://ann@h1:1,h2:2/lib", "postgresql://[::1]:5432/lib",
            "postgresql://ann:p%3Fs%2Fs@db/lib", "postgresql://", "host=db password=x", "library.sqlite",
        ])
    func accepted(url: String) {
        #expect(PostgreSQLConnectionURL.ambiguity(in: url) == nil)
    }

    @Test(
        "a URL whose user name, password and host could be read two ways is refused, quoting none of it",
        arguments: [
            // Two '@': libpq takes "abc" for the password and "SECRETPART@127.0.0.1" for the host.
            ("postgresql://alice:abc@SECRETPART@127.0.0.1:55433/lib3", ["abc", "SECRETPART"], "%40"),
            ("postgres://a@b@c/lib", ["a@b", "b@c"], "%40"),
            // A '/' in the password: libpq reads no user information, "alice" as the host, "ab" as the port.
            ("postgresql://alice:ab/cd@host/db", ["ab/cd", "cd@"], "%2F"),
            ("postgresql:///db@x", ["db@x"], "%40"),
            // A '?' before the '@': libpq takes "host?password=a" for the user information, RFC 3986 a query.
            ("postgresql://host?password=a@b", ["password=a"], "%3F"),
            ("postgresql://alice:pa?ss@host/db", ["pa?ss"], "%3F"),
        ])
    func refused(url: String, secrets: [String], advice: String) throws {
        let message = try #require(PostgreSQLConnectionURL.ambiguity(in: url))
        #expect(message.contains(advice), "\(message)")
        for secret in secrets { #expect(!message.contains(secret), "\(message)") }
        #expect(PostgreSQLConnectionURL.redacted(url) == String(url.prefix { $0 != ":" }) + "://…")
        // The connection refuses it before loading libpq or connecting.
        let error = try #require(throws: PostgreSQLURLError.self) { try PostgreSQLConnection(url: url) }
        #expect(error.message == message)
    }

    @Test(
        "a URL is named without its password, split where libpq splits it",
        arguments: [
            ("postgresql://ann:secret@db/lib", "postgresql://ann@db/lib"),
            ("postgresql://ann:s:e:c@db:5433/lib", "postgresql://ann@db:5433/lib"),
            ("postgresql://ann@db/lib?password=x&port=5433", "postgresql://ann@db/lib?port=5433"),
            ("postgresql://ann@db/lib?pass%77ord=x", "postgresql://ann@db/lib"),
            ("postgresql://ann@db/lib?sslpassword=k&application_name=x", "postgresql://ann@db/lib?application_name=x"),
            ("postgres://:secret@db/lib", "postgres://@db/lib"),
            ("postgresql:///lib?host=%2Ftmp&port=5", "postgresql:///lib?host=%2Ftmp&port=5"),
            ("postgresql://ann:p%40ss@db/lib?user=bob@example.org", "postgresql://ann@db/lib?user=bob@example.org"),
            ("library.sqlite", "library.sqlite"),
            // Only the parameters known to hold no secret show their values.
            ("postgresql://ann@db/lib?Password=QwX2", "postgresql://ann@db/lib?Password=***"),
            (
                "postgresql://db/lib?options=-c%20a%3Db&sslmode=require&x",
                "postgresql://db/lib?options=***&sslmode=require&***"
            ),
            (
                "postgresql:///lib?%68ost=%2Ftmp&dbname=lib&target_session_attrs=any&connect_timeout=3&sslmode=a",
                "postgresql:///lib?%68ost=%2Ftmp&dbname=lib&target_session_attrs=any&connect_timeout=3&sslmode=a"
            ),
            // A password is masked wherever else it stands: as the user name, the database name, a parameter.
            ("postgresql://PwX10:PwX10@db:5432/lib", "postgresql://***@db:5432/lib"),
            ("postgresql://ann:lib@db/lib?user=x", "postgresql://ann@db/***?user=x"),
            ("postgresql://ann:p%40ss@db/lib?application_name=p@ss", "postgresql://ann@db/lib?application_name=***"),
            ("postgresql://ann@db/ann?password=ann", "postgresql://***@db/***"),
        ])
    func redacted(url: String, expected: String) {
        #expect(PostgreSQLConnectionURL.redacted(url) == expected)
    }

    @Test("every password is found, as written and percent-decoded, in URLs and key=value strings")
    func passwords() {
        #expect(Set(PostgreSQLConnectionURL.passwords(in: "postgresql://ann:p%40ss@db/lib")) == ["p%40ss", "p@ss"])
        #expect(
            Set(PostgreSQLConnectionURL.passwords(in: "postgresql://ann@db/lib?password=a%20b&pass%77ord=c"))
                == ["a%20b", "a b", "c"])
        #expect(PostgreSQLConnectionURL.passwords(in: "postgresql://ann@db/lib").isEmpty)
        #expect(
            Set(PostgreSQLConnectionURL.passwords(in: "postgresql://ann@db/lib?sslpassword=k%21")) == ["k%21", "k!"])
        #expect(Set(PostgreSQLConnection.passwords(in: "host=db sslpassword=key user=x")) == ["key"])
        #expect(
            Set(PostgreSQLConnection.passwords(in: #"host=db password = 'a b\' c' user=x password=s\ t"#))
                == ["a b' c", "s t"])
        #expect(Set(PostgreSQLConnection.passwords(in: "postgresql://ann:p%40ss@db/lib")) == ["p%40ss", "p@ss"])
        #expect(PostgreSQLConnectionURL.percentDecoded("p%4") == nil)
        #expect(PostgreSQLConnectionURL.percentDecoded("%C3%BC") == "ü")
    }

    @Test("libpq's messages lose every password, as written and as decoded, wherever it stands")
    func redactingMessages() {
        let url = "postgresql://ann:p%40ss@db/lib?password=other"
        let message = #"could not read "p%40ss", "p@ss" or "other": p@ssother"#
        let redacted = PostgreSQLConnection.withoutPasswords(message, of: url)
        #expect(!redacted.contains("p@ss") && !redacted.contains("p%40ss") && !redacted.contains("other"))
        #expect(redacted == #"could not read "***", "***" or "***": ******"#)
        #expect(
            PostgreSQLConnection.withoutPasswords(#"missing "=" after "s3cr3t""#, of: "host=db password=s3cr3t")
                == #"missing "=" after "***""#)
    }

    @Test(
        "a failed connection's SQLSTATE comes from libpq's words, not from the names it quotes",
        arguments: [
            (#"could not translate host name "nosuchhost.invalid" to address: Name or service not known"#, "08001"),
            (#"could not translate host name "db" to address: Temporary failure in name resolution"#, "08001"),
            (#"connection to server at "127.0.0.1", port 1 failed: Connection refused"#, "08001"),
            (#"invalid port number: "notaport""#, "08P01"),
            (#"FATAL: database "role" does not exist"#, "3D000"),
            (#"FATAL: role "database" does not exist"#, "28000"),
            (#"FATAL: password authentication failed for user "invalid""#, "28P01"),
            (
                #"connection to server at "127.0.0.1", port 5432 failed: server does not support SSL, but SSL was "#
                    + "required", "08P01"
            ),
            (#"SSL error: certificate verify failed"#, "08P01"),
        ])
    func connectionSQLState(message: String, state: String) {
        #expect(PostgreSQLConnection.connectionSQLState(message) == state)
    }
}
