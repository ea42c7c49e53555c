import Formats

/// A PostgreSQL URL (`postgresql://` or `postgres://`) read the way libpq reads it, so that what librarycli takes
/// for the user name, password and host is what libpq connects with: refusing the URLs that could be read two ways,
/// naming one without its password, and finding every password it holds.
///
/// libpq takes the user information up to the first `@` before any `/` (even past a `?`), and the host up to the
/// next `:`, `/`, `?` or `,`; a person (and RFC 3986) may read the same text otherwise. `ambiguity(in:)` refuses
/// those texts, so a password with an unencoded `@`, `/` or `?` never ends up in a host name or a database name,
/// where messages would show it.
///
/// ```swift
/// PostgreSQLConnectionURL.ambiguity(in: "postgresql://ann:a@b@db/lib")  // "... percent-encode ... as %40 ..."
/// PostgreSQLConnectionURL.redacted("postgresql://ann:secret@db/lib")  // "postgresql://ann@db/lib"
/// ```
public enum PostgreSQLConnectionURL {
    /// libpq's two URL schemes.
    static let schemes = ["postgresql://", "postgres://"]

    /// Whether `text` is a PostgreSQL URL: `postgresql://...` or `postgres://...`.
    ///
    /// ```swift
    /// PostgreSQLConnectionURL.isURL("postgresql:///library")  // true
    /// ```
    public static func isURL(_ text: String) -> Bool {
        schemes.contains { text.hasPrefix($0) }
    }

    /// Why `url` could be read in more than one way (so that part of a password could be taken for the host, the
    /// port or the database name), as a sentence that quotes nothing of the URL; nil when it cannot, or when it is
    /// no URL.
    ///
    /// ```swift
    /// PostgreSQLConnectionURL.ambiguity(in: "postgresql://ann@db/lib")  // nil
    /// ```
    public static func ambiguity(in url: String) -> String? {
        guard let parts = Parts(url) else { return nil }
        if parts.userInfo?.contains("?") == true {
            return "the PostgreSQL URL has a '?' before its '@', so its user name and password could be read in two "
                + "ways: percent-encode a '?' in them as %3F (and an '@' as %40, a '/' as %2F)"
        }
        if parts.hostAndPath.contains("@") {
            if parts.userInfo != nil {
                return "the PostgreSQL URL has more than one '@' before its host, so its user name and password "
                    + "could be read in two ways: percent-encode an '@' in them as %40 "
                    + "(postgresql://user:p%40ss@host/db)"
            }
            return "the PostgreSQL URL has an '@' after a '/', so its user name, password and host could be read in "
                + "two ways: percent-encode a '/' in the password as %2F, and an '@' in the database name as %40"
        }
        return nil
    }

    /// The URL as messages and logs name it, holding no secret: `user:secret@host` becomes `user@host`, the
    /// `password` and `sslpassword` parameters are left out, every other parameter but those of `plainKeys` shows
    /// its value as `***` (a misspelt `Password=secret` too, or `options=`), and every password the URL holds (see
    /// `passwords(in:)`) is `***` wherever else it stands (a user or database name that is the password). A URL
    /// that `ambiguity(in:)` refuses shows its scheme only.
    ///
    /// ```swift
    /// PostgreSQLConnectionURL.redacted("postgresql://ann@db/lib?password=x&port=5433")  // "...lib?port=5433"
    /// PostgreSQLConnectionURL.redacted("postgresql://db/lib?Password=x")  // "postgresql://db/lib?Password=***"
    /// PostgreSQLConnectionURL.redacted("postgresql://ann:ann@db/lib")  // "postgresql://***@db/lib"
    /// ```
    public static func redacted(_ url: String) -> String {
        guard let parts = Parts(url) else { return url }
        guard ambiguity(in: url) == nil else { return parts.scheme + "…" }
        var text = ""
        if let userInfo = parts.userInfo {
            text += (userInfo.firstIndex(of: ":").map { userInfo[..<$0] } ?? userInfo) + "@"
        }
        text += parts.hostAndPath
        if let query = parts.query {
            let kept = query.split(separator: "&", omittingEmptySubsequences: false).compactMap {
                pair -> String? in
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if isPasswordKey(halves[0]) { return nil }
                if halves.count == 2 && isPlainKey(halves[0]) { return String(pair) }
                return halves.count == 2 ? halves[0] + "=***" : "***"
            }
            if !kept.isEmpty { text += "?" + kept.joined(separator: "&") }
        }
        for password in passwords(in: url).sorted(by: { $0.count > $1.count }) {
            text = text.replacing(password, with: "***")
        }
        return parts.scheme + text
    }

    /// Every password `url` holds, as written and percent-decoded: the user information's (read up to the first
    /// `@`, as libpq does, and up to the last, as a person may) and each `password` query parameter's.
    ///
    /// ```swift
    /// PostgreSQLConnectionURL.passwords(in: "postgresql://ann:p%40ss@db/lib")  // ["p%40ss", "p@ss"]
    /// ```
    public static func passwords(in url: String) -> [String] {
        guard let parts = Parts(url) else { return [] }
        var found: [Substring] = []
        let beforeQuery = parts.text.prefix { $0 != "?" }
        for at in [parts.text.firstIndex(of: "@"), beforeQuery.lastIndex(of: "@")].compactMap({ $0 }) {
            let info = parts.text[..<at]
            if let colon = info.firstIndex(of: ":") { found.append(info[info.index(after: colon)...]) }
        }
        if let query = parts.query {
            for pair in query.split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if halves.count == 2 && isPasswordKey(halves[0]) { found.append(halves[1]) }
            }
        }
        var all: [String] = []
        for password in found where !password.isEmpty {
            all.append(String(password))
            if let decoded = percentDecoded(password), !decoded.isEmpty { all.append(decoded) }
        }
        return all
    }

    /// `text` with its `%XX` escapes decoded, as libpq decodes a URL's parts; nil when an escape is malformed or
    /// the bytes are not UTF-8.
    ///
    /// ```swift
    /// PostgreSQLConnectionURL.percentDecoded("p%40ss")  // "p@ss"
    /// ```
    public static func percentDecoded(_ text: Substring) -> String? {
        try? PercentDecoding.decode(text, plusIsSpace: false)
    }

    // MARK: - Private

    /// The connection parameters whose values are secrets: the password, and the one of the client's SSL key.
    public static let secretKeys: Set<String> = ["password", "sslpassword"]

    /// The connection parameters whose values are never secret, shown as written when a URL is named (see
    /// `redacted(_:)`); any other parameter's value is shown as `***`.
    public static let plainKeys: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "sslmode", "connect_timeout", "application_name",
        "fallback_application_name", "target_session_attrs", "client_encoding",
    ]

    /// A query key of `plainKeys`, percent-encoded or not.
    private static func isPlainKey(_ key: Substring) -> Bool {
        plainKeys.contains(String(key)) || percentDecoded(key).map(plainKeys.contains) == true
    }

    /// A query key naming a secret (see `secretKeys`), percent-encoded or not (libpq decodes keys too).
    private static func isPasswordKey(_ key: Substring) -> Bool {
        secretKeys.contains(String(key)) || percentDecoded(key).map(secretKeys.contains) == true
    }

    /// A URL split where libpq splits it (`conninfo_uri_parse_options`).
    private struct Parts {
        let scheme: String
        /// Everything after the scheme.
        let text: Substring
        /// `user[:password]`, up to the first `@` when no `/` comes before it; nil when there is none.
        let userInfo: Substring?
        /// The hosts and ports, and the path: after the user information, up to the first `?`.
        let hostAndPath: Substring
        /// The query parameters, after the `?`; nil when there is no `?`.
        let query: Substring?

        init?(_ url: String) {
            guard let scheme = PostgreSQLConnectionURL.schemes.first(where: { url.hasPrefix($0) }) else { return nil }
            self.scheme = scheme
            text = url.dropFirst(scheme.count)
            var rest = text
            if let at = text.firstIndex(where: { $0 == "@" || $0 == "/" }), text[at] == "@" {
                userInfo = text[..<at]
                rest = text[text.index(after: at)...]
            } else {
                userInfo = nil
            }
            if let mark = rest.firstIndex(of: "?") {
                hostAndPath = rest[..<mark]
                query = rest[rest.index(after: mark)...]
            } else {
                hostAndPath = rest
                query = nil
            }
        }
    }
}
