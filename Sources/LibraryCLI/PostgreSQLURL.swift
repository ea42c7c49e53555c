import Library
import PostgreSQL

/// Telling a PostgreSQL connection URL from a file path, and naming one in messages without its password.
enum PostgreSQLURL {
    /// Whether `text` is a PostgreSQL URL: `postgresql://...` or `postgres://...` (libpq's two schemes).
    static func isURL(_ text: String) -> Bool {
        LibraryDatabase.isPostgreSQLURL(text)
    }

    /// The URL holding no secret: `user:secret@host` becomes `user@host`, a `password=` query parameter is dropped,
    /// any other parameter but the few that never hold a secret (host, port, dbname, user, sslmode...) shows its
    /// value as `***`, and the URL's passwords are `***` wherever else they stand, so messages and logs never show
    /// one. The URL is split where libpq splits it (the user information ends at the first `@`); one that could be
    /// read two ways (an unencoded `@` in the password) is refused before connecting, and shows as its scheme only.
    /// See `PostgreSQLConnectionURL.redacted(_:)`.
    static func redacted(_ url: String) -> String {
        PostgreSQLConnectionURL.redacted(url)
    }

    /// The keywords of libpq's `key=value` connection strings that give one away (`host=db dbname=lib`).
    private static let connectionKeywords = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "sslmode", "sslpassword", "service",
        "connect_timeout", "application_name", "options",
    ]

    /// Throws a usage error (exit 64) for a database "path" that is a libpq `key=value` connection string
    /// (`host=db password=secret`): librarycli takes PostgreSQL as a URL only, and such a string must be neither
    /// created as a file nor quoted in a message (it may hold a password). The message quotes nothing of it.
    ///
    ///     try PostgreSQLURL.checkNotKeywordValue("host=db dbname=lib")  // throws
    static func checkNotKeywordValue(_ path: String) throws(Failure) {
        guard !isURL(path) else { return }
        // A keyword, then `=` after any white space (libpq allows `host = db`), at the start or after white space.
        let scalars = Array(path.lowercased().unicodeScalars)
        let looksLikeOne = connectionKeywords.contains { keyword in
            let word = Array(keyword.unicodeScalars)
            var start = 0
            while start + word.count <= scalars.count {
                defer { start += 1 }
                guard start == 0 || scalars[start - 1].properties.isWhitespace,
                    Array(scalars[start..<start + word.count]) == word
                else { continue }
                var next = start + word.count
                while next < scalars.count && scalars[next].properties.isWhitespace { next += 1 }
                if next < scalars.count && scalars[next] == "=" { return true }
            }
            return false
        }
        guard looksLikeOne else { return }
        throw Failure(
            message: "the database is a file path or a PostgreSQL URL (postgresql://user@host/dbname); a key=value "
                + "connection string is not read. Write it as a URL, with the password percent-encoded or in "
                + "PGPASSWORD or ~/.pgpass.",
            code: .usage)
    }

    /// Throws a usage error (exit 64) for a URL whose user name, password and host could be read in more than one
    /// way; the message quotes nothing of the URL.
    static func check(_ url: String) throws(Failure) {
        if let ambiguity = PostgreSQLConnectionURL.ambiguity(in: url) {
            throw Failure(PostgreSQLURLError(message: ambiguity))
        }
    }
}
