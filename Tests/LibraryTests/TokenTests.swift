import SQLite
import StoreTestSupport
import Testing

@testable import Library

@Suite("Tokens: create, authenticate, list, revoke")
struct TokenTests {
    @Test(arguments: StoreKind.available)
    func createdTokensAuthenticateAsTheirOwner(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let client = try store.createToken(for: .client(fixture.ann.id), label: "Ann's phone", now: fixture.now)
        let librarian = try store.createToken(for: .librarian, now: fixture.now)
        #expect(client.token.hasPrefix("lc_"))
        #expect(client.token.count == 3 + 43)  // 256 bits in URL-safe base64
        #expect(AccessRules.looksLikeToken(client.token))
        #expect(client.token != librarian.token)
        #expect(
            try store.authenticate(token: client.token, now: fixture.now)
                == Principal(tokenID: client.id, owner: .client(fixture.ann.id)))
        let admin = try #require(try store.authenticate(token: librarian.token, now: fixture.now))
        #expect(admin.isLibrarian && admin.tokenID == librarian.id)
    }

    @Test(arguments: StoreKind.available)
    func unknownMalformedAndRevokedTokensDoNotAuthenticate(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let issued = try store.createToken(for: .client(fixture.ann.id), now: fixture.now)
        var altered = Array(issued.token)
        altered[10] = altered[10] == "A" ? "B" : "A"
        for token in [
            "", "lc_", "Bearer " + issued.token, issued.token + "x", String(altered),
            "lc_"
                + String(
                    repeating: "!", count: 43),
        ] {
            #expect(try store.authenticate(token: token, now: fixture.now) == nil, "\(token)")
        }
        #expect(try store.revokeToken(id: issued.id, now: fixture.now))
        #expect(try store.authenticate(token: issued.token, now: fixture.now) == nil)
        #expect(try store.revokeToken(id: issued.id, now: fixture.now.plus(60)) == false)
        #expect(try store.tokens().first?.revokedAt == fixture.now)  // the first revocation is kept
        #expect(throws: AuthError.noSuchToken(id: 99)) { try store.revokeToken(id: 99, now: fixture.now) }
    }

    @Test(arguments: StoreKind.available)
    func theDatabaseKeepsOnlyTheTokensHash(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let issued = try fixture.store.createToken(for: .librarian, label: "desk", now: fixture.now)
        let session = try fixture.store.createToken(for: .client(fixture.bob.id), now: fixture.now)
        let values = try fixture.everyStoredValue()
        for token in [issued.token, session.token] {
            let secret = String(token.dropFirst(3))
            #expect(!values.contains { $0.contains(secret) })
        }
        let hashes = try fixture.store.database.fetchAll("SELECT token_hash FROM tokens ORDER BY id") {
            $0.blob(0)
        }
        #expect(hashes == [Secrets.sha256(Array(issued.token.utf8)), Secrets.sha256(Array(session.token.utf8))])
    }

    @Test(arguments: StoreKind.available)
    func listingShowsEverythingButTheToken(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let a = try store.createToken(for: .client(fixture.ann.id), label: "  phone ", now: fixture.now)
        let b = try store.createToken(for: .librarian, now: fixture.now.plus(5))
        try store.revokeToken(id: b.id, now: fixture.now.plus(10))
        #expect(
            try store.tokens() == [
                TokenInfo(
                    id: a.id, owner: .client(fixture.ann.id), label: "phone", createdAt: fixture.now, lastUsedAt: nil,
                    revokedAt: nil),
                TokenInfo(
                    id: b.id, owner: .librarian, label: "", createdAt: fixture.now.plus(5), lastUsedAt: nil,
                    revokedAt: fixture.now.plus(10)),
            ])
    }

    @Test(arguments: StoreKind.available)
    func lastUseIsRecordedAtMostOnceAMinute(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let issued = try store.createToken(for: .librarian, now: fixture.now)
        _ = try store.authenticate(token: issued.token, now: fixture.now.plus(100))
        #expect(try store.tokens()[0].lastUsedAt == fixture.now.plus(100))
        _ = try store.authenticate(token: issued.token, now: fixture.now.plus(159))
        #expect(try store.tokens()[0].lastUsedAt == fixture.now.plus(100))
        _ = try store.authenticate(token: issued.token, now: fixture.now.plus(160))
        #expect(try store.tokens()[0].lastUsedAt == fixture.now.plus(160))
    }

    @Test(arguments: StoreKind.available)
    func badOwnersAndLabelsAreRefused(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        #expect(throws: LibraryError.noSuchClient(id: 42)) {
            try store.createToken(for: .client(42), now: fixture.now)
        }
        for label in ["a\u{1B}[31m", String(repeating: "x", count: 201), "two\nlines"] {
            #expect(throws: LibraryError.self) {
                try store.createToken(for: .librarian, label: label, now: fixture.now)
            }
        }
        #expect(try store.tokens().isEmpty)
    }

    /// The constraint `sql` broke, or nil when it ran (or failed for another reason).
    func refusal(_ fixture: Fixture, _ sql: String, _ arguments: [(any DatabaseValueConvertible)?])
        -> ConstraintFailure?
    {
        do {
            try fixture.store.database.execute(sql, arguments)
            return nil
        } catch {
            return ConstraintFailure(error)
        }
    }

    @Test(arguments: StoreKind.available)
    func theSchemaRefusesWhatTheRulesRefuse(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let (hash, now) = (Secrets.sha256([1]), fixture.now.iso8601)
        for (role, client, tokenHash) in [
            ("client", nil, hash), ("librarian", fixture.ann.id, hash), ("admin", nil, hash),
            ("librarian", nil, Array(hash.prefix(16))),
        ] as [(String, Int?, [UInt8])] {
            let insert = "INSERT INTO tokens (token_hash, role, client_id, created_at) VALUES (?, ?, ?, ?)"
            #expect(refusal(fixture, insert, [tokenHash, role, client, now])?.kind == .check, "\(role)")
        }
        let pin = "INSERT INTO client_pins (client_id, pin_hash, set_at) VALUES (?, '1234', ?)"
        #expect(refusal(fixture, pin, [fixture.ann.id, now])?.kind == .check)
        #expect(try fixture.store.tokens().isEmpty && !fixture.store.hasPIN(clientID: fixture.ann.id))
    }

    @Test(arguments: StoreKind.available)
    func theSchemasLimitsAreTheRules(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let (db, now) = (fixture.store.database, fixture.now.iso8601)
        let longest = String(repeating: "l", count: TextField.tokenLabel.maxLength)
        let insertToken = "INSERT INTO tokens (token_hash, role, label, created_at) VALUES (?, 'librarian', ?, ?)"
        try db.execute(insertToken, [Secrets.sha256([1]), longest, now])
        #expect(refusal(fixture, insertToken, [Secrets.sha256([2]), longest + "l", now])?.kind == .check)
        let insertKey =
            "INSERT INTO idempotency_keys (token_id, key, method, path, body_sha256, status, body, created_at) "
            + "VALUES (1, ?, 'POST', '/', ?, 200, ?, ?)"
        let maxKey = String(repeating: "k", count: AccessRules.idempotencyKeyLengths.upperBound)
        try db.execute(insertKey, [maxKey, Secrets.sha256([]), [UInt8](), now])
        #expect(refusal(fixture, insertKey, [maxKey + "k", Secrets.sha256([]), [UInt8](), now])?.kind == .check)
        #expect(refusal(fixture, insertKey, ["", Secrets.sha256([]), [UInt8](), now])?.kind == .check)
        let maxCard = String(repeating: "c", count: TextField.cardNumber.maxLength)
        let insertFailure = "INSERT INTO sign_in_failures (card_number, failed_at) VALUES (?, ?)"
        try db.execute(insertFailure, [maxCard, now])
        #expect(refusal(fixture, insertFailure, [maxCard + "c", now])?.kind == .check)
    }
}
