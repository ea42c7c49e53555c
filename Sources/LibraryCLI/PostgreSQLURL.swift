import Library
import PostgreSQL

/// Telling a PostgreSQL connection URL from a file path, and naming one in messages without its password.
enum PostgreSQLURL {
    /// Whether `text` is a PostgreSQL URL: `postgresql://...` or `postgres://...` (libpq's two schemes).
    static func isURL(_ text: String) -> Bool {
        LibraryDatabase.isPostgreSQLURL(text)
    }

    /// The URL with any password left out: `user:secret@host` becomes `user@host`, and a `password=` query
    /// parameter is dropped, so messages and logs never show one. The URL is split where libpq splits it (the user
    /// information ends at the first `@`); one that could be read two ways (an unencoded `@` in the password) is
    /// refused before connecting, and shows as its scheme only. See `PostgreSQLConnectionURL`.
    static func redacted(_ url: String) -> String {
        PostgreSQLConnectionURL.redacted(url)
    }

    /// Throws a usage error (exit 64) for a URL whose user name, password and host could be read in more than one
    /// way; the message quotes nothing of the URL.
    static func check(_ url: String) throws(Failure) {
        if let ambiguity = PostgreSQLConnectionURL.ambiguity(in: url) {
            throw Failure(PostgreSQLURLError(message: ambiguity))
        }
    }
}
