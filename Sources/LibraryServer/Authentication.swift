import HTTP
import Library

/// Where the authentication middleware leaves who made the request.
///
///     let principal = request.storage[PrincipalKey.self]
enum PrincipalKey: RequestStorageKey {
    typealias Value = Principal
}

extension Request {
    /// The caller, as the authentication middleware found them; 401 when there was no token (on a public route).
    func principal() throws(Problem) -> Principal {
        guard let principal = storage[PrincipalKey.self] else { throw Authentication.missingToken() }
        return principal
    }

    /// The client the caller's token acts as; 403 for a librarian's token, which has no screen or loans.
    func clientID() throws(Problem) -> Int {
        let principal = try principal()
        guard let id = principal.owner.clientID else {
            throw Problem(
                status: .forbidden, code: "not-a-client",
                detail: "This is a librarian's token; a client's screen and loans need a client's token.")
        }
        return id
    }

    /// 403 unless the caller's token is a librarian's.
    func requireLibrarian() throws(Problem) {
        guard try principal().isLibrarian else {
            throw Problem(
                status: .forbidden, code: "librarian-only",
                detail: "Only a librarian's token may do this; this token acts for one client.")
        }
    }
}

/// Bearer tokens: `Authorization: Bearer <token>` is checked against the store and the caller put in the request's
/// storage (``PrincipalKey``). Routes that are public (health, sign-in, the API description, the web front) need no
/// token and ignore any `Authorization` header (a stale one does not refuse a sign-in); every other request without
/// one (or with one of another scheme), or with an unknown or revoked one, is answered 401 with
/// `WWW-Authenticate: Bearer`; a `Bearer` credential without its token is 400 `bad-authorization`.
/// The token never appears in a problem, and the store compares only its hash.
enum Authentication {
    /// Paths anyone may call (and the web front's, `WebRoutes.isPublic`).
    static let publicPaths: Set<String> = ["/healthz", "/v1/sessions", "/v1/openapi.json"]

    /// Whether `path` needs no token.
    static func isPublic(_ path: String) -> Bool {
        publicPaths.contains(path) || WebRoutes.isPublic(path)
    }

    static func middleware(
        pool: StorePool, uses: TokenUseRecorder, now: @escaping @Sendable () -> Timestamp
    ) -> Middleware {
        let cache = TokenCache()
        return Middleware { request, next in
            var request = request
            // A public route ignores the Authorization header: a stale or revoked token must not stop a front from
            // signing in again, nor a probe from reading the health or the API description.
            // So does OPTIONS (what a path answers is no secret; the router answers it, 204 with Allow).
            if isPublic(request.path) || request.method == .options { return try next(request) }
            guard let header = request.headers["Authorization"] else { throw missingToken() }
            guard let token = bearerToken(header) else {
                // Another scheme (`Basic ...`) is no credentials this API knows: 401 without an error code, as
                // RFC 6750 §3.1 asks; a `Bearer` credential without its token is a malformed request: 400.
                guard isBearerScheme(header) else { throw missingToken() }
                throw Problem(
                    status: .badRequest, code: "bad-authorization",
                    detail: "The Authorization header must be 'Bearer <token>'.",
                    headers: ["WWW-Authenticate": #"Bearer error="invalid_request""#])
            }
            let (principal, generation) = try pool.withGeneration { store, generation in
                (
                    try cache.authenticate(token, store: store, generation: generation, now: now(), uses: uses),
                    generation
                )
            }
            guard let principal else { throw revokedToken() }
            request.storage[PrincipalKey.self] = principal
            request.storage[GenerationKey.self] = generation
            return try next(request)
        }
    }

    /// 401 for a token that is unknown or was revoked (also what a waiting long-poll gets when its token is).
    static func revokedToken() -> Problem {
        Problem(
            status: .unauthorized, code: "unknown-token", detail: "The bearer token is unknown or was revoked.",
            headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
    }

    static func missingToken() -> Problem {
        Problem(
            status: .unauthorized, code: "no-token",
            detail: "This needs a bearer token: 'Authorization: Bearer <token>' (see 'librarycli tokens create' or "
                + "POST /v1/sessions).",
            headers: ["WWW-Authenticate": "Bearer"])
    }

    /// Whether `text` holds something shaped like a token, whole or cut short: `AccessRules.tokenPrefix` followed by
    /// at least 8 URL-safe base64 characters. The access log redacts such values wherever they are sent.
    ///
    ///     Authentication.holdsToken("lc_3q2-7wEXAMPLE")  // true
    ///     Authentication.holdsToken("lc_ and more")      // false
    static func holdsToken(_ text: String) -> Bool {
        // Every request's log line asks this of each path segment and query value: on the bytes, no copies.
        var text = text
        return text.withUTF8 { bytes in
            let prefix = AccessRules.tokenPrefix.utf8
            var start = 0
            while start + prefix.count + 8 <= bytes.count {
                if bytes[start..<(start + prefix.count)].elementsEqual(prefix) {
                    var run = 0
                    var index = start + prefix.count
                    while index < bytes.count, run < 8, Self.isBase64URL(bytes[index]) {
                        run += 1
                        index += 1
                    }
                    if run >= 8 { return true }
                }
                start += 1
            }
            return false
        }
    }

    /// Whether `byte` is one of URL-safe base64's characters (A-Z, a-z, 0-9, `-`, `_`).
    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// Whether the header's scheme (its first word, in any case) is `Bearer`.
    ///
    ///     Authentication.isBearerScheme("bearer")     // true
    ///     Authentication.isBearerScheme("Basic abc")  // false
    static func isBearerScheme(_ header: String) -> Bool {
        let scheme = header.utf8.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        return scheme.count == 6 && zip(scheme, "bearer".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    /// The token of a `Bearer` credential (the scheme in any case), or nil.
    static func bearerToken(_ header: String) -> String? {
        // On bytes (the scheme and the separators are ASCII): no walk over characters for every request.
        let parts = header.utf8.split(separator: UInt8(ascii: " "), maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].count == 6,
            zip(parts[0], "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        let token = Substring(parts[1]).trimmingCharacters(in: " \t")
        return token.isEmpty ? nil : token
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
