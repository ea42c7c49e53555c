import SQLite
import StoreTestSupport
import Testing

@testable import Library

@Suite("Idempotency keys: store, replay, mismatch, expiry")
struct IdempotencyTests {
    func request(_ principal: Int, key: String = "key-1", body: String = "{\"bookIds\":[1]}") -> IdempotentRequest {
        IdempotentRequest(
            principal: principal, key: key, method: "POST", path: "/v1/loans",
            bodyHash: Secrets.sha256(Array(body.utf8)))
    }

    @Test(arguments: StoreKind.available)
    func aStoredResponseIsReplayedForTheSameRequest(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let token = try store.createToken(for: .client(fixture.ann.id), now: fixture.now)
        let first = request(token.id)
        #expect(try store.storedResponse(for: first, now: fixture.now) == nil)
        let response = StoredResponse(
            status: 201,
            headers: [
                .init(name: "Content-Type", value: "application/json; charset=utf-8"),
                .init(name: "ETag", value: "\"v7\""),
                .init(name: "X-Empty", value: ""),
            ],
            body: Array("{\"outcomes\":[]}".utf8) + [0, 255])
        try store.storeResponse(response, for: first, now: fixture.now)
        #expect(try store.storedResponse(for: first, now: fixture.now.plus(60)) == response)
        // Storing again for the same request keeps the first response.
        try store.storeResponse(StoredResponse(status: 500, body: []), for: first, now: fixture.now.plus(1))
        #expect(try store.storedResponse(for: first, now: fixture.now.plus(60)) == response)
        // Another token's same key is another entry.
        let other = try store.createToken(for: .client(fixture.bob.id), now: fixture.now)
        #expect(try store.storedResponse(for: request(other.id), now: fixture.now) == nil)
    }

    @Test(arguments: StoreKind.available)
    func theSameKeyWithAnotherRequestIsAMismatch(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let token = try store.createToken(for: .librarian, now: fixture.now)
        try store.storeResponse(StoredResponse(status: 201, body: [1]), for: request(token.id), now: fixture.now)
        var others = [request(token.id, body: "{\"bookIds\":[2]}")]
        var other = request(token.id)
        other.path = "/v1/books"
        others.append(other)
        other = request(token.id)
        other.method = "DELETE"
        others.append(other)
        for mismatch in others {
            #expect(throws: AuthError.idempotencyKeyReused(key: "key-1")) {
                try store.storedResponse(for: mismatch, now: fixture.now)
            }
            #expect(throws: AuthError.idempotencyKeyReused(key: "key-1")) {
                try store.storeResponse(StoredResponse(status: 200, body: []), for: mismatch, now: fixture.now)
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func entriesExpireAfterADayAndArePurged(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let token = try store.createToken(for: .librarian, now: fixture.now)
        let kept = StoredResponse(status: 201, body: [1])
        try store.storeResponse(kept, for: request(token.id), now: fixture.now)
        let day = AccessRules.idempotencyKeepSeconds
        #expect(try store.storedResponse(for: request(token.id), now: fixture.now.plus(day - 1)) == kept)
        #expect(try store.storedResponse(for: request(token.id), now: fixture.now.plus(day)) == nil)
        // After a day the key may be used for another request; storing purges the old entries.
        try store.storeResponse(
            StoredResponse(status: 200, body: [2]), for: request(token.id, key: "key-2"), now: fixture.now.plus(day))
        let keys = try fixture.store.database.fetchAll("SELECT key FROM idempotency_keys") { $0.string(0) }
        #expect(keys == ["key-2"])
    }

    @Test(arguments: StoreKind.available)
    func badKeysStatusesAndHeadersAreRefused(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let token = try store.createToken(for: .librarian, now: fixture.now)
        for key in ["", "with space", String(repeating: "k", count: 256), "é"] {
            #expect(throws: AuthError.invalidIdempotencyKey) {
                try store.storedResponse(for: request(token.id, key: key), now: fixture.now)
            }
        }
        let bad: [StoredResponse] = [
            StoredResponse(status: 99, body: []), StoredResponse(status: 600, body: []),
            StoredResponse(status: 200, headers: [.init(name: "X-A", value: "a\r\nSet-Cookie: x")], body: []),
            StoredResponse(status: 200, headers: [.init(name: "X:A", value: "a")], body: []),
            StoredResponse(status: 200, headers: [.init(name: "", value: "a")], body: []),
        ]
        for response in bad {
            #expect(throws: LibraryError.self) {
                try store.storeResponse(response, for: request(token.id), now: fixture.now)
            }
        }
        #expect(try store.storedResponse(for: request(token.id), now: fixture.now) == nil)
    }

    @Test(arguments: StoreKind.available)
    func lookUpActAndStoreInOneTransactionRunsOnce(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let token = try store.createToken(for: .client(fixture.ann.id), now: fixture.now)
        var actions = 0
        for _ in 0..<3 {
            let response = try store.write { store -> StoredResponse in
                if let kept = try store.storedResponse(for: request(token.id), now: fixture.now) { return kept }
                actions += 1
                _ = try store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
                let response = StoredResponse(status: 201, body: Array("taken".utf8))
                try store.storeResponse(response, for: request(token.id), now: fixture.now)
                return response
            }
            #expect(response.status == 201)
        }
        #expect(actions == 1)
    }
}
