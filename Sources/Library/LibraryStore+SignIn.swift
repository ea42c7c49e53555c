import SQLite

extension LibraryStore {
    // MARK: - PINs

    /// Sets (or replaces) a client's PIN: `AccessRules.pinDigits` digits, hashed with Argon2id before the write
    /// transaction (about 0.1 s), and clears the card's failed sign-ins. Throws `AuthError.pinNotAllowed`,
    /// `LibraryError.noSuchClient`.
    ///
    /// ```swift
    /// try store.setPIN(clientID: 1, pin: "4821", now: now)
    /// ```
    public func setPIN(clientID: Int, pin: String, now: Timestamp) throws {
        try setPIN(clientID: clientID, hash: PINHash(pin: pin), now: now)
    }

    /// Sets (or replaces) a client's PIN from a hash made beforehand, and clears the card's failed sign-ins.
    /// Throws `LibraryError.noSuchClient`.
    ///
    /// ```swift
    /// let hash = try PINHash(pin: "4821")   // slow: outside the transaction
    /// try store.write { store in try store.setPIN(clientID: 1, hash: hash, now: now) }
    /// ```
    public func setPIN(clientID: Int, hash: PINHash, now: Timestamp) throws {
        try writing {
            guard let client = try client(id: clientID) else { throw LibraryError.noSuchClient(id: clientID) }
            try database.execute(
                """
                INSERT INTO client_pins (client_id, pin_hash, set_at) VALUES (?, ?, ?)
                ON CONFLICT (client_id) DO UPDATE SET pin_hash = excluded.pin_hash, set_at = excluded.set_at
                """,
                [clientID, hash.encoded, now.iso8601])
            try database.execute(
                "DELETE FROM sign_in_failures WHERE card_number IN (?, ?)",
                [CardNumber.key(client.cardNumber), client.cardNumber])
        }
    }

    /// Removes a client's PIN, so the client cannot sign in until one is set; returns false when there was none.
    /// Throws `LibraryError.noSuchClient`.
    ///
    /// ```swift
    /// try store.clearPIN(clientID: 1)
    /// ```
    @discardableResult
    public func clearPIN(clientID: Int) throws -> Bool {
        try writing {
            guard try client(id: clientID) != nil else { throw LibraryError.noSuchClient(id: clientID) }
            return try database.execute("DELETE FROM client_pins WHERE client_id = ?", [clientID]) > 0
        }
    }

    /// Whether the client has a PIN (and so can sign in).
    ///
    /// ```swift
    /// if try !store.hasPIN(clientID: 1) { print("no PIN yet") }
    /// ```
    public func hasPIN(clientID: Int) throws -> Bool {
        try reading {
            try database.fetchOne("SELECT 1 FROM client_pins WHERE client_id = ?", [clientID]) { _ in true } ?? false
        }
    }

    /// Whether `pin` is the PIN of the client with card `cardNumber`: one Argon2id verification (about 0.1 s),
    /// false at once for an unknown card or a client without a PIN. It records nothing (no sign-in, no failure, no
    /// token): `serve` uses it to find the demo clients whose documented PIN still works.
    ///
    /// ```swift
    /// try store.pinMatches(cardNumber: "C-0001", pin: "1111")  // true on the demo database
    /// ```
    public func pinMatches(cardNumber: String, pin: String) throws -> Bool {
        let hash = try reading {
            try database.fetchOne(
                "SELECT p.pin_hash FROM clients c JOIN client_pins p ON p.client_id = c.id WHERE \(CardNumber.matchSQL)",
                CardNumber.matchParameters(cardNumber)
            ) { $0.string(0) }
        }
        guard let hash else { return false }
        return Secrets.verifyPassword(pin, against: hash)
    }

    // MARK: - Sign-in

    /// Signs a client in with card number and PIN, and returns a new client token labelled "sign-in".
    ///
    /// Throws `AuthError.signInFailed` for an unknown card, a card without a PIN or a wrong PIN alike (each checked
    /// against an Argon2id hash, a dummy one when there is none, so they also take as long), and records the failure
    /// for the card number as ``CardNumber/key(_:)`` compares it (so " c-0001 " is C-0001, and counts toward
    /// C-0001's lock-out). After `AccessRules.maxFailedSignIns` failures within
    /// `AccessRules.lockOutWindowSeconds` the card is refused with `AuthError.lockedOut(retryAfter:)`, whatever the
    /// PIN, until the oldest of them is that old. The check is repeated in the write transaction, so parallel guesses
    /// cannot get past the limit. A success clears the card's failures. Takes about 0.1 s (the hash); call it
    /// outside a transaction.
    ///
    /// ```swift
    /// let session = try store.signIn(cardNumber: "C-0001", pin: "1111", now: now)
    /// print(session.token, session.clientID)
    /// ```
    public func signIn(cardNumber: String, pin: String, now: Timestamp) throws -> SignIn {
        let typed = trimmed(cardNumber)
        let isCard = !typed.isEmpty && (try? TextField.cardNumber.check(typed)) != nil
        // Failures and the lock-out count per card key, so C-0001 and c-0001 share their five tries.
        let card = CardNumber.key(typed)
        if isCard, let retryAfter = try reading({ try lockOut(card: card, now: now) }) {
            throw AuthError.lockedOut(retryAfter: retryAfter)
        }
        let stored: (clientID: Int, hash: String)? =
            isCard
            ? try reading {
                try database.fetchOne(
                    """
                    SELECT c.id, p.pin_hash FROM clients c JOIN client_pins p ON p.client_id = c.id
                    WHERE \(CardNumber.matchSQL)
                    """,
                    CardNumber.matchParameters(typed)
                ) { ($0.int(0), $0.string(1)) }
            } : nil
        // Always one Argon2id verification, so an unknown card takes as long as a wrong PIN.
        let matches = Secrets.verifyPassword(pin, against: stored?.hash ?? Secrets.dummyHash) && stored != nil
        guard isCard else { throw AuthError.signInFailed }  // cannot be anyone's card: nothing to lock
        enum Outcome {
            case signedIn(SignIn)
            case failed
            case locked(Int)
        }
        let outcome: Outcome = try writing {
            // On PostgreSQL, one sign-in of a card at a time, as on SQLite: each counts the failures written before.
            try database.lockUntilCommit(.signIn, key: card)
            if let retryAfter = try lockOut(card: card, now: now) { return .locked(retryAfter) }
            // The PIN must still be the one checked (not changed or cleared meanwhile).
            if matches, let stored,
                try database.fetchOne(
                    "SELECT 1 FROM client_pins WHERE client_id = ? AND pin_hash = ?", [stored.clientID, stored.hash],
                    { _ in true }) == true
            {
                try database.execute("DELETE FROM sign_in_failures WHERE card_number = ?", [card])
                let issued = try insertToken(
                    for: .client(stored.clientID), label: AccessRules.signInTokenLabel, now: now)
                return .signedIn(SignIn(tokenID: issued.id, token: issued.token, clientID: stored.clientID))
            }
            let window = try Timestamp(secondsSinceEpoch: now.secondsSinceEpoch - AccessRules.lockOutWindowSeconds)
            try database.execute("DELETE FROM sign_in_failures WHERE failed_at <= ?", [window.iso8601])
            try database.execute(
                "INSERT INTO sign_in_failures (card_number, failed_at) VALUES (?, ?)", [card, now.iso8601])
            return .failed
        }
        switch outcome {
        case .signedIn(let session): return session
        case .failed: throw AuthError.signInFailed
        case .locked(let retryAfter): throw AuthError.lockedOut(retryAfter: retryAfter)
        }
    }

    // MARK: - Private

    /// Seconds until `card` may sign in again, or nil when it is not locked out: it is while it has
    /// `maxFailedSignIns` failures younger than the window, until the oldest of those is as old as the window.
    private func lockOut(card: String, now: Timestamp) throws -> Int? {
        let window = try Timestamp(secondsSinceEpoch: now.secondsSinceEpoch - AccessRules.lockOutWindowSeconds)
        guard
            let oldest = try database.fetchOne(
                """
                SELECT failed_at FROM sign_in_failures WHERE card_number = ? AND failed_at > ?
                ORDER BY failed_at DESC LIMIT 1 OFFSET ?
                """,
                [card, window.iso8601, AccessRules.maxFailedSignIns - 1], { try $0.timestamp(0) })
        else { return nil }
        return Int(max(1, oldest.secondsSinceEpoch + AccessRules.lockOutWindowSeconds - now.secondsSinceEpoch))
    }
}
