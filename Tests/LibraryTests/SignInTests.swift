import Foundation
import SQLite
import StoreTestSupport
import Testing

@testable import Library

@Suite("PINs and sign-in: policy, lock-out, no card-existence oracle")
struct SignInTests {
    @Test(arguments: StoreKind.available)
    func aClientSignsInWithTheRightPINOnly(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        #expect(try !store.hasPIN(clientID: fixture.ann.id))
        try store.setPIN(clientID: fixture.ann.id, pin: "4821", now: fixture.now)
        #expect(try store.hasPIN(clientID: fixture.ann.id))
        let session = try store.signIn(cardNumber: fixture.ann.cardNumber, pin: "4821", now: fixture.now)
        #expect(session.clientID == fixture.ann.id)
        #expect(
            try store.authenticate(token: session.token, now: fixture.now)
                == Principal(tokenID: session.tokenID, owner: .client(fixture.ann.id)))
        #expect(try store.tokens().map(\.label) == ["sign-in"])
        #expect(throws: AuthError.signInFailed) {
            try store.signIn(cardNumber: fixture.ann.cardNumber, pin: "4822", now: fixture.now)
        }
        #expect(throws: AuthError.signInFailed) {
            try store.signIn(cardNumber: fixture.bob.cardNumber, pin: "4821", now: fixture.now)  // no PIN
        }
    }

    @Test(
        "a card number is read whatever the case of its letters, and its variants share one lock-out",
        arguments: StoreKind.available)
    func cardNumbersIgnoreCase(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        try store.setPIN(clientID: fixture.ann.id, pin: "4821", now: fixture.now)
        let lower = fixture.ann.cardNumber.lowercased()
        #expect(lower != fixture.ann.cardNumber)
        #expect(try store.signIn(cardNumber: lower, pin: "4821", now: fixture.now).clientID == fixture.ann.id)
        #expect(try store.pinMatches(cardNumber: " " + lower, pin: "4821"))
        // Five failures spread over the variants lock the card for all of them.
        for (index, card) in [lower, fixture.ann.cardNumber, lower, fixture.ann.cardNumber, lower].enumerated() {
            #expect(throws: AuthError.signInFailed) {
                try store.signIn(cardNumber: card, pin: "0000", now: fixture.now.plus(Int64(index)))
            }
        }
        #expect(throws: AuthError.lockedOut(retryAfter: 15 * 60 - 5)) {
            try store.signIn(cardNumber: fixture.ann.cardNumber, pin: "4821", now: fixture.now.plus(5))
        }
        // Setting the PIN again clears the card's failures, whichever way they were typed.
        try store.setPIN(clientID: fixture.ann.id, pin: "4821", now: fixture.now.plus(6))
        #expect(try store.signIn(cardNumber: lower, pin: "4821", now: fixture.now.plus(7)).clientID == fixture.ann.id)
    }

    @Test(arguments: StoreKind.available)
    func thePINIsKeptOnlyAsAnArgon2idHash(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        try fixture.store.setPIN(clientID: fixture.ann.id, pin: "90817263", now: fixture.now)
        let values = try fixture.everyStoredValue()
        #expect(!values.contains { $0.contains("90817263") })
        #expect(values.contains { $0.hasPrefix("$argon2id$") })
    }

    @Test(arguments: StoreKind.available)
    func setAndClearRefuseBadInput(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        #expect(throws: AuthError.pinNotAllowed) {
            try store.setPIN(clientID: fixture.ann.id, pin: "12", now: fixture.now)
        }
        #expect(throws: LibraryError.noSuchClient(id: 77)) {
            try store.setPIN(clientID: 77, pin: "1234", now: fixture.now)
        }
        #expect(throws: LibraryError.noSuchClient(id: 77)) { try store.clearPIN(clientID: 77) }
        #expect(try !store.clearPIN(clientID: fixture.ann.id))
        try store.setPIN(clientID: fixture.ann.id, pin: "1234", now: fixture.now)
        #expect(try store.clearPIN(clientID: fixture.ann.id))
        #expect(throws: AuthError.signInFailed) {
            try store.signIn(cardNumber: fixture.ann.cardNumber, pin: "1234", now: fixture.now)
        }
    }

    @Test(arguments: StoreKind.available)
    func fiveFailuresLockTheCardFifteenMinutesWhateverThePIN(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        let card = fixture.ann.cardNumber
        try store.setPIN(clientID: fixture.ann.id, pin: "4821", now: fixture.now)
        for minute in 0..<5 {
            #expect(throws: AuthError.signInFailed) {
                try store.signIn(cardNumber: card, pin: "0000", now: fixture.now.plus(Int64(minute) * 60))
            }
        }
        // The first failure was at +0: the card is locked until +15 min, even with the right PIN.
        #expect(throws: AuthError.lockedOut(retryAfter: 15 * 60 - 5 * 60)) {
            try store.signIn(cardNumber: card, pin: "4821", now: fixture.now.plus(5 * 60))
        }
        #expect(throws: AuthError.lockedOut(retryAfter: 1)) {
            try store.signIn(cardNumber: card, pin: "4821", now: fixture.now.plus(15 * 60 - 1))
        }
        // Said in minutes, rounded up, as a person reads a wait; seconds only in the last minute.
        #expect(AuthError.lockedOut(retryAfter: 892).message.hasSuffix("try again in 15 minutes."))
        #expect(AuthError.lockedOut(retryAfter: 61).message.hasSuffix("try again in 2 minutes."))
        #expect(AuthError.lockedOut(retryAfter: 60).message.hasSuffix("try again in 1 minute."))
        #expect(AuthError.lockedOut(retryAfter: 1).message.hasSuffix("try again in 1 second."))
        // Another card is not affected.
        try store.setPIN(clientID: fixture.bob.id, pin: "5555", now: fixture.now)
        _ = try store.signIn(cardNumber: fixture.bob.cardNumber, pin: "5555", now: fixture.now.plus(60))
        // Fifteen minutes after the first failure, the right PIN works again, and clears the failures.
        let session = try store.signIn(cardNumber: card, pin: "4821", now: fixture.now.plus(15 * 60))
        #expect(session.clientID == fixture.ann.id)
        for _ in 0..<4 {
            #expect(throws: AuthError.signInFailed) {
                try store.signIn(cardNumber: card, pin: "0000", now: fixture.now.plus(16 * 60))
            }
        }
        _ = try store.signIn(cardNumber: card, pin: "4821", now: fixture.now.plus(16 * 60))
    }

    @Test(arguments: StoreKind.available)
    func anUnknownCardBehavesLikeAWrongPIN(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        try store.setPIN(clientID: fixture.ann.id, pin: "4821", now: fixture.now)
        for _ in 0..<5 {
            #expect(throws: AuthError.signInFailed) {
                try store.signIn(cardNumber: "C-NOBODY", pin: "4821", now: fixture.now)
            }
        }
        // Failures are recorded and locked out for an unknown card too: the answers do not tell it from a real one.
        #expect(throws: AuthError.lockedOut(retryAfter: 15 * 60)) {
            try store.signIn(cardNumber: "C-NOBODY", pin: "4821", now: fixture.now)
        }
        let failures = try fixture.store.database.fetchAll(
            "SELECT card_number FROM sign_in_failures"
        ) { $0.string(0) }
        #expect(failures == Array(repeating: "C-NOBODY", count: 5))
        for card in ["", String(repeating: "x", count: 101), "C-\u{1B}1"] {
            #expect(throws: AuthError.signInFailed) {
                try store.signIn(cardNumber: card, pin: "1234", now: fixture.now)
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func settingAPINClearsTheLockOut(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let store = fixture.store
        try store.setPIN(clientID: fixture.ann.id, pin: "4821", now: fixture.now)
        for _ in 0..<5 {
            _ = try? store.signIn(cardNumber: fixture.ann.cardNumber, pin: "0000", now: fixture.now)
        }
        #expect(throws: AuthError.lockedOut(retryAfter: 900)) {
            try store.signIn(cardNumber: fixture.ann.cardNumber, pin: "4821", now: fixture.now)
        }
        try store.setPIN(clientID: fixture.ann.id, pin: "7777", now: fixture.now)
        _ = try store.signIn(cardNumber: fixture.ann.cardNumber, pin: "7777", now: fixture.now)
    }

    @Test(arguments: StoreKind.available)
    func parallelGuessesCannotGetPastTheLimit(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        try fixture.store.setPIN(clientID: fixture.ann.id, pin: "4821", now: fixture.now)
        let card = fixture.ann.cardNumber
        let location = fixture.location
        let now = fixture.now
        let results = Results()
        runOnThreads(8) { index in
            let store = try! LibraryStore.open(
                at: location, options: DatabaseOptions(busyTimeoutMilliseconds: 30_000), now: now)
            do {
                _ = try store.signIn(cardNumber: card, pin: String(format: "%04d", index), now: now)
                results.add("signed in")
            } catch let error as AuthError {
                results.add(error == .signInFailed ? "failed" : "locked")
            } catch {
                results.add("\(error)")
            }
        }
        #expect(results.all.filter { $0 == "failed" }.count <= AccessRules.maxFailedSignIns)
        #expect(results.all.allSatisfy { $0 == "failed" || $0 == "locked" }, "\(results.all)")
        let recorded = try fixture.store.database.fetchOne("SELECT count(*) FROM sign_in_failures") { $0.int(0) }
        #expect(recorded == results.all.filter { $0 == "failed" }.count)
    }
}

/// Strings collected from several threads.
final class Results: @unchecked Sendable {
    private var values: [String] = []
    private let lock = NSLock()
    func add(_ value: String) { lock.withLock { values.append(value) } }
    var all: [String] { lock.withLock { values } }
}
