import SQLite

extension LibraryStore {
    // MARK: - Tokens

    /// Creates a bearer token for a client or a librarian and returns it with its id. The token is
    /// `AccessRules.tokenPrefix` and `AccessRules.tokenBytes` random bytes in URL-safe base64 ("lc_" and 43
    /// characters); only its SHA-256 is stored, so it can be shown once and never again.
    ///
    /// Throws `LibraryError.noSuchClient` for an unknown client and `LibraryError.invalidInput` for a label that is too
    /// long or holds a control character (see `TextField.tokenLabel`).
    ///
    /// ```swift
    /// let issued = try store.createToken(for: .client(1), label: "Ann's phone", now: now)
    /// print(issued.token)  // shown once
    /// ```
    public func createToken(for owner: TokenOwner, label: String = "", now: Timestamp) throws -> IssuedToken {
        let label = trimmed(label)
        try Self.check(label, .tokenLabel)
        return try writing {
            if let clientID = owner.clientID, try client(id: clientID) == nil {
                throw LibraryError.noSuchClient(id: clientID)
            }
            return try insertToken(for: owner, label: label, now: now)
        }
    }

    /// Who `token` acts for, or nil when it is unknown, malformed or revoked. The stored hash is compared in constant
    /// time. Records the token's last use, at most once per `AccessRules.lastUseResolutionSeconds` (so most calls only
    /// read); call it outside `read` (it may write). A server that must not wait for a writer uses
    /// ``lookUpToken(_:now:)`` and records the uses later with ``recordTokenUses(_:)``.
    ///
    /// ```swift
    /// guard let principal = try store.authenticate(token: bearer, now: now) else { /* 401 */ }
    /// ```
    public func authenticate(token: String, now: Timestamp) throws -> Principal? {
        guard let found = try lookUpToken(token, now: now) else { return nil }
        if found.useIsStale { try recordTokenUses([found.principal.tokenID: now]) }
        return found.principal
    }

    /// Who `token` acts for, reading only (it never waits for a writer): nil when it is unknown, malformed or
    /// revoked. `useIsStale` says its recorded last use is older than `AccessRules.lastUseResolutionSeconds` before
    /// `now` (or there is none), so the use should be recorded.
    ///
    /// ```swift
    /// if let found = try store.lookUpToken(bearer, now: now), found.useIsStale { recorder.note(found.principal) }
    /// ```
    public func lookUpToken(_ token: String, now: Timestamp) throws -> (principal: Principal, useIsStale: Bool)? {
        guard AccessRules.looksLikeToken(token) else { return nil }
        let hash = Self.tokenHash(token)
        let found = try reading {
            try database.fetchOne(
                "SELECT id, token_hash, role, client_id, last_used_at, revoked_at FROM tokens WHERE token_hash = ?",
                [hash]
            ) { row in
                (
                    id: row.int(0), hash: row.blob(1),
                    owner: Self.owner(role: row.string(2), clientID: row.intOrNil(3)),
                    lastUsed: try row.isNull(4) ? nil : row.timestamp(4), isRevoked: !row.isNull(5)
                )
            }
        }
        guard let found, Secrets.equalInConstantTime(found.hash, hash), !found.isRevoked, let owner = found.owner
        else { return nil }
        let stale = now.secondsSinceEpoch - AccessRules.lastUseResolutionSeconds
        return (
            Principal(tokenID: found.id, owner: owner),
            found.lastUsed.map { $0.secondsSinceEpoch <= stale } ?? true
        )
    }

    /// Records when tokens were last used (token id → when), in one write; a token whose recorded use is less
    /// than `AccessRules.lastUseResolutionSeconds` older than the new one keeps it, and unknown ids are ignored.
    ///
    /// ```swift
    /// try store.recordTokenUses([3: now, 7: now])
    /// ```
    public func recordTokenUses(_ uses: [Int: Timestamp]) throws {
        guard !uses.isEmpty else { return }
        _ = try writing {
            for (id, when) in uses.sorted(by: { $0.key < $1.key }) {
                let stale = try Timestamp(
                    secondsSinceEpoch: when.secondsSinceEpoch - AccessRules.lastUseResolutionSeconds)
                try database.execute(
                    "UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)",
                    [when.iso8601, id, stale.iso8601])
            }
        }
    }

    /// Which of these token ids no longer authenticate (revoked, or not there at all), in one query: how a server
    /// finds the open streams whose token was revoked since they opened.
    ///
    /// ```swift
    /// let ended = try store.inactiveTokens(among: [3, 4])  // [3] after `librarycli tokens revoke 3`
    /// ```
    public func inactiveTokens(among ids: Set<Int>) throws -> Set<Int> {
        guard !ids.isEmpty else { return [] }
        let sorted = ids.sorted().map(String.init).joined(separator: ",")
        // The ids travel as one bound value: a JSON array for SQLite's json_each, an array literal for PostgreSQL.
        let (sql, list) =
            database.dialect == .sqlite
            ? (
                """
                SELECT CAST(j.value AS INTEGER) FROM json_each(?) j
                WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.id = j.value AND t.revoked_at IS NULL)
                """, "[" + sorted + "]"
            )
            : (
                """
                SELECT j.id FROM unnest(CAST(? AS bigint[])) AS j (id)
                WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.id = j.id AND t.revoked_at IS NULL)
                """, "{" + sorted + "}"
            )
        return try reading { Set(try database.fetchAll(sql, [list]) { $0.int(0) }) }
    }

    /// Every token, by id, revoked ones too: ids, owners, labels and times, never the token.
    ///
    /// ```swift
    /// for token in try store.tokens() where token.isActive { print(token.id, token.label) }
    /// ```
    public func tokens() throws -> [TokenInfo] {
        try reading {
            try database.fetchAll(
                "SELECT id, role, client_id, label, created_at, last_used_at, revoked_at FROM tokens ORDER BY id"
            ) { row in
                guard let owner = Self.owner(role: row.string(1), clientID: row.intOrNil(2)) else {
                    throw LibraryError.invalidInput("Token #\(row.int(0)) has an unknown role '\(row.string(1))'.")
                }
                return TokenInfo(
                    id: row.int(0), owner: owner, label: row.string(3), createdAt: try row.timestamp(4),
                    lastUsedAt: row.isNull(5) ? nil : try row.timestamp(5),
                    revokedAt: row.isNull(6) ? nil : try row.timestamp(6))
            }
        }
    }

    /// Revokes a token: it no longer authenticates. Returns false when it was revoked already (its revocation time
    /// is kept); throws `AuthError.noSuchToken` for an unknown id.
    ///
    /// ```swift
    /// try store.revokeToken(id: 3, now: now)
    /// ```
    @discardableResult
    public func revokeToken(id: Int, now: Timestamp) throws -> Bool {
        try writing {
            guard
                let revoked = try database.fetchOne(
                    "SELECT revoked_at IS NOT NULL FROM tokens WHERE id = ?", [id],
                    {
                        $0.bool(0)
                    })
            else { throw AuthError.noSuchToken(id: id) }
            if revoked { return false }
            try database.execute("UPDATE tokens SET revoked_at = ? WHERE id = ?", [now.iso8601, id])
            return true
        }
    }

    // MARK: - Internal

    /// The SHA-256 of a token's text, as `tokens.token_hash` keeps it.
    static func tokenHash(_ token: String) -> [UInt8] {
        Secrets.sha256(Array(token.utf8))
    }

    /// Creates a token for `owner` inside the current write transaction (sign-in).
    func insertToken(for owner: TokenOwner, label: String, now: Timestamp) throws -> IssuedToken {
        let token = AccessRules.tokenPrefix + Secrets.base64URL(Secrets.randomBytes(count: AccessRules.tokenBytes))
        let id = try database.fetchOne(
            "INSERT INTO tokens (token_hash, role, client_id, label, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
            [Self.tokenHash(token), owner.role, owner.clientID, label, now.iso8601]
        ) { $0.int(0) }
        guard let id else { throw LibraryError.invalidInput("The token was not created.") }
        return IssuedToken(id: id, token: token)
    }

    private static func owner(role: String, clientID: Int?) -> TokenOwner? {
        switch (role, clientID) {
        case ("client", .some(let id)): .client(id)
        case ("librarian", nil): .librarian
        default: nil
        }
    }
}
