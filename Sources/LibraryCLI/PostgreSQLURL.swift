import Library

/// Telling a PostgreSQL connection URL from a file path, and naming one in messages without its password.
enum PostgreSQLURL {
    /// Whether `text` is a PostgreSQL URL: `postgresql://...` or `postgres://...` (libpq's two schemes).
    static func isURL(_ text: String) -> Bool {
        LibraryDatabase.isPostgreSQLURL(text)
    }

    /// The URL with any password left out: `user:secret@host` becomes `user@host`, and a `password=` query
    /// parameter is dropped, so messages and logs never show one.
    static func redacted(_ url: String) -> String {
        let schemes = ["postgresql://", "postgres://"]
        guard let prefix = schemes.first(where: { url.hasPrefix($0) }) else { return url }
        let scheme = prefix
        var rest = url.dropFirst(prefix.count)
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[mark...]
            rest = rest[..<mark]
        }
        // The authority ends at the first '/'; user information ends at its last '@'.
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            let host = authority[authority.index(after: at)...]
            let name = user.firstIndex(of: ":").map { user[..<$0] } ?? user
            authority = Substring(name + "@" + host)
        }
        var kept: [Substring] = []
        if !query.isEmpty {
            for pair in query.dropFirst().split(separator: "&") {
                let key = pair.split(separator: "=", maxSplits: 1).first ?? ""
                if key.lowercased() != "password" { kept.append(pair) }
            }
        }
        return scheme + authority + path + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }
}
