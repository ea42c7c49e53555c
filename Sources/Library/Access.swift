/// Who a token acts for: one client, or a librarian (who may also add books and clients).
///
/// ```swift
/// let issued = try store.createToken(for: .client(1), label: "Ann's phone", now: now)
/// let admin = try store.createToken(for: .librarian, label: "front desk", now: now)
/// ```
public enum TokenOwner: Sendable, Hashable {
    /// A client token: it acts only as this client (by id).
    case client(Int)
    /// A librarian token.
    case librarian

    /// The role as stored (`tokens.role`): "client" or "librarian".
    ///
    /// ```swift
    /// TokenOwner.librarian.role  // "librarian"
    /// ```
    public var role: String {
        switch self {
        case .client: "client"
        case .librarian: "librarian"
        }
    }

    /// The client's id for a client token, nil for a librarian's.
    ///
    /// ```swift
    /// TokenOwner.client(3).clientID  // 3
    /// ```
    public var clientID: Int? {
        if case .client(let id) = self { return id }
        return nil
    }
}

/// Who made a request, as `authenticate` found it from a token.
///
/// ```swift
/// guard let principal = try store.authenticate(token: bearer, now: now) else { /* 401 */ }
/// if case .client(let clientID) = principal.owner { /* act as clientID only */ }
/// if !principal.isLibrarian { /* 403 for POST /v1/books */ }
/// ```
public struct Principal: Sendable, Hashable {
    /// The token's id (the scope of idempotency keys).
    public var tokenID: Int
    /// Whom the token acts for.
    public var owner: TokenOwner

    /// Creates a principal.
    ///
    /// ```swift
    /// Principal(tokenID: 1, owner: .librarian)
    /// ```
    public init(tokenID: Int, owner: TokenOwner) {
        self.tokenID = tokenID
        self.owner = owner
    }

    /// Whether the token is a librarian's.
    ///
    /// ```swift
    /// principal.isLibrarian
    /// ```
    public var isLibrarian: Bool { owner == .librarian }
}

/// A token just created: its id and its text, which is shown once and never stored (only its SHA-256 is).
///
/// ```swift
/// let issued = try store.createToken(for: .client(1), now: now)
/// print(issued.token)  // "lc_3q2-7wEXAMPLE..."
/// ```
public struct IssuedToken: Sendable, Hashable {
    /// The token's id, for `tokens list` and `revokeToken(id:)`.
    public var id: Int
    /// The secret text, for the `Authorization: Bearer` header.
    public var token: String

    /// Creates an issued token value.
    ///
    /// ```swift
    /// IssuedToken(id: 1, token: "lc_...")
    /// ```
    public init(id: Int, token: String) {
        self.id = id
        self.token = token
    }
}

/// What is known about a token, for listing: never the token itself.
///
/// ```swift
/// for token in try store.tokens() { print(token.id, token.label, token.owner, token.lastUsedAt as Any) }
/// ```
public struct TokenInfo: Sendable, Hashable, Identifiable {
    /// The token's id.
    public var id: Int
    /// Whom it acts for.
    public var owner: TokenOwner
    /// What it is for ("" when none was given; "sign-in" for tokens made by signing in).
    public var label: String
    /// When it was created.
    public var createdAt: Timestamp
    /// When it was last used, to the minute (`AccessRules.lastUseResolutionSeconds`); nil if never.
    public var lastUsedAt: Timestamp?
    /// When it was revoked; nil while it works.
    public var revokedAt: Timestamp?

    /// Creates a token description.
    ///
    /// ```swift
    /// TokenInfo(id: 1, owner: .librarian, label: "", createdAt: now, lastUsedAt: nil, revokedAt: nil)
    /// ```
    public init(
        id: Int, owner: TokenOwner, label: String, createdAt: Timestamp, lastUsedAt: Timestamp?, revokedAt: Timestamp?
    ) {
        self.id = id
        self.owner = owner
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    /// Whether the token still works.
    ///
    /// ```swift
    /// token.isActive
    /// ```
    public var isActive: Bool { revokedAt == nil }
}

/// A successful sign-in: a new client token (labelled "sign-in") and the client it acts for.
///
/// ```swift
/// let session = try store.signIn(cardNumber: "C-0001", pin: "1111", now: now)
/// // {"token": session.token, "clientId": session.clientID}
/// ```
public struct SignIn: Sendable, Hashable {
    /// The new token's id.
    public var tokenID: Int
    /// The new token's text, shown once.
    public var token: String
    /// The client who signed in.
    public var clientID: Int

    /// Creates a sign-in value.
    ///
    /// ```swift
    /// SignIn(tokenID: 2, token: "lc_...", clientID: 1)
    /// ```
    public init(tokenID: Int, token: String, clientID: Int) {
        self.tokenID = tokenID
        self.token = token
        self.clientID = clientID
    }
}

/// A client's PIN, hashed (Argon2id) and ready to store: made before a write transaction, since hashing is slow.
///
/// ```swift
/// let hash = try PINHash(pin: "1234")   // about 0.1 s and 64 MiB
/// try store.setPIN(clientID: 1, hash: hash, now: now)
/// ```
public struct PINHash: Sendable, Hashable {
    /// The Argon2id string (algorithm, costs, salt, digest).
    public let encoded: String

    /// Checks `pin` against `AccessRules.pinDigits` and hashes it. Throws `AuthError.pinNotAllowed` or
    /// `AuthError.cannotHash`.
    ///
    /// ```swift
    /// let hash = try PINHash(pin: "1111")
    /// ```
    public init(pin: String) throws(AuthError) {
        guard AccessRules.pinProblem(pin) == nil else { throw AuthError.pinNotAllowed }
        encoded = try Secrets.passwordHash(pin)
    }

    /// Whether `pin` is the PIN this hash was made from.
    ///
    /// ```swift
    /// try PINHash(pin: "1111").matches("1111")  // true
    /// ```
    public func matches(_ pin: String) -> Bool {
        Secrets.verifyPassword(pin, against: encoded)
    }
}

/// A response kept for an idempotency key, to answer a retry of the same request with it again.
///
/// ```swift
/// let response = StoredResponse(status: 201, headers: [.init(name: "ETag", value: "\"v7\"")], body: bytes)
/// ```
public struct StoredResponse: Sendable, Hashable {
    /// One header line of the response.
    public struct Header: Sendable, Hashable {
        /// The header's name, such as "ETag" (no colon, space or line break).
        public var name: String
        /// The header's value (no line break).
        public var value: String

        /// Creates a header.
        ///
        /// ```swift
        /// StoredResponse.Header(name: "Content-Type", value: "application/json; charset=utf-8")
        /// ```
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The status code, 100 to 599.
    public var status: Int
    /// The headers to replay, in order.
    public var headers: [Header]
    /// The body's bytes.
    public var body: [UInt8]

    /// Creates a stored response.
    ///
    /// ```swift
    /// StoredResponse(status: 200, headers: [], body: Array("{}".utf8))
    /// ```
    public init(status: Int, headers: [Header] = [], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The request an idempotency key was sent with: a retry must repeat all of it.
///
/// ```swift
/// let request = IdempotentRequest(
///     principal: principal.tokenID, key: "4f1c", method: "POST", path: "/v1/loans",
///     bodyHash: Secrets.sha256(body))
/// ```
public struct IdempotentRequest: Sendable, Hashable {
    /// The token id of the caller: keys are scoped per token.
    public var principal: Int
    /// The `Idempotency-Key` header's value.
    public var key: String
    /// The HTTP method, such as "POST".
    public var method: String
    /// The path (without the query's secrets, as the server chooses), such as "/v1/loans".
    public var path: String
    /// The SHA-256 (32 bytes) of what else a retry must repeat: the request body, and whatever else the server
    /// chooses to fold in (`librarycli serve` hashes the query with the body, each in a canonical form).
    public var bodyHash: [UInt8]

    /// Creates a request description.
    ///
    /// ```swift
    /// IdempotentRequest(principal: 1, key: "k1", method: "DELETE", path: "/v1/loans/12", bodyHash: Secrets.sha256([]))
    /// ```
    public init(principal: Int, key: String, method: String, path: String, bodyHash: [UInt8]) {
        self.principal = principal
        self.key = key
        self.method = method
        self.path = path
        self.bodyHash = bodyHash
    }
}
