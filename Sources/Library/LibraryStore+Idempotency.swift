import SQLite

extension LibraryStore {
    // MARK: - Idempotency keys

    /// The response kept for this request's idempotency key, or nil when there is none younger than
    /// `AccessRules.idempotencyKeepSeconds`. Throws `AuthError.idempotencyKeyReused` when the key (of the same token)
    /// came with another method, path or body hash, and `AuthError.invalidIdempotencyKey` for a malformed key.
    ///
    /// For a request to run exactly once, look up, act and store in one write transaction:
    ///
    /// ```swift
    /// let response = try store.write { store -> StoredResponse in
    ///     if let kept = try store.storedResponse(for: request, now: now) { return kept }
    ///     let response = handle(store)  // take the books; a refusal is a response too
    ///     try store.storeResponse(response, for: request, now: now)
    ///     return response
    /// }
    /// ```
    public func storedResponse(for request: IdempotentRequest, now: Timestamp) throws -> StoredResponse? {
        try Self.check(request)
        let cutoff = try Self.idempotencyCutoff(now)
        let inTransaction = database.isInTransaction
        return try reading {
            // Looked up inside a write (as above), the key stays locked on PostgreSQL until it commits: a request
            // sent again meanwhile waits, then finds the response kept, as behind SQLite's write lock.
            if inTransaction { try database.lockUntilCommit(.idempotencyKey, key: Self.lockKey(request)) }
            guard
                let row = try database.fetchOne(
                    """
                    SELECT method, path, body_sha256, status, headers, body FROM idempotency_keys
                    WHERE token_id = ? AND key = ? AND created_at > ?
                    """,
                    [request.principal, request.key, cutoff.iso8601],
                    { row in
                        (
                            method: row.string(0), path: row.string(1), bodyHash: row.blob(2),
                            response: StoredResponse(
                                status: row.int(3), headers: Self.headers(from: row.string(4)), body: row.blob(5))
                        )
                    })
            else { return nil }
            guard row.method == request.method, row.path == request.path, row.bodyHash == request.bodyHash else {
                throw AuthError.idempotencyKeyReused(key: request.key)
            }
            return row.response
        }
    }

    /// Keeps `response` for this request's idempotency key, and purges the entries older than
    /// `AccessRules.idempotencyKeepSeconds`. When the key is kept already for the same request the first response
    /// stays; for another request it throws `AuthError.idempotencyKeyReused`. Throws `LibraryError.invalidInput` for
    /// a status outside 100-599 or a header name or value that cannot be replayed (a line break, a colon in a name).
    /// Never store a response that holds a secret (a token): it is kept in the clear.
    ///
    /// ```swift
    /// try store.storeResponse(StoredResponse(status: 201, body: bytes), for: request, now: now)
    /// ```
    public func storeResponse(_ response: StoredResponse, for request: IdempotentRequest, now: Timestamp) throws {
        try Self.check(request)
        guard (100...599).contains(response.status) else {
            throw LibraryError.invalidInput("A response status is 100 to 599, not \(response.status).")
        }
        for header in response.headers {
            let badName = header.name.isEmpty || header.name.utf8.contains { !(0x21...0x7E).contains($0) || $0 == 0x3A }
            let badValue = header.value.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 }
            guard !badName, !badValue else {
                throw LibraryError.invalidInput("The response header '\(header.name)' cannot be stored.")
            }
        }
        let cutoff = try Self.idempotencyCutoff(now)
        try writing {
            try database.lockUntilCommit(.idempotencyKey, key: Self.lockKey(request))
            try database.execute("DELETE FROM idempotency_keys WHERE created_at <= ?", [cutoff.iso8601])
            if try storedResponse(for: request, now: now) != nil { return }
            try database.execute(
                """
                INSERT INTO idempotency_keys (token_id, key, method, path, body_sha256, status, headers, body, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    request.principal, request.key, request.method, request.path, request.bodyHash, response.status,
                    response.headers.map { "\($0.name): \($0.value)\n" }.joined(), response.body, now.iso8601,
                ])
        }
    }

    // MARK: - Private

    /// The key of a request's idempotency-key lock: the token and the key.
    private static func lockKey(_ request: IdempotentRequest) -> String { "\(request.principal) \(request.key)" }

    private static func check(_ request: IdempotentRequest) throws {
        guard AccessRules.idempotencyKeyProblem(request.key) == nil else { throw AuthError.invalidIdempotencyKey }
        guard request.bodyHash.count == 32 else {
            throw LibraryError.invalidInput("A request body's hash is a SHA-256 of 32 bytes.")
        }
        guard !request.method.isEmpty else { throw LibraryError.invalidInput("A request needs a method.") }
    }

    /// Entries created at or before this moment are expired.
    private static func idempotencyCutoff(_ now: Timestamp) throws -> Timestamp {
        try Timestamp(
            secondsSinceEpoch: max(
                Timestamp.earliest.secondsSinceEpoch, now.secondsSinceEpoch - AccessRules.idempotencyKeepSeconds))
    }

    private static func headers(from text: String) -> [StoredResponse.Header] {
        text.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            var value = line[line.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
            return StoredResponse.Header(name: String(line[..<colon]), value: String(value))
        }
    }
}
