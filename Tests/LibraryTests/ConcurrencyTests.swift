import StoreTestSupport
import Testing

@testable import Library

@Suite struct ConcurrencyTests {
    @Test(arguments: StoreKind.available)
    func racingForOneBookLendsItOnce(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 3)
        let clients = try (0..<16).map { try fixture.store.addClient(name: "Racer \($0)", now: fixture.now).id }
        let results = Shared<[Result<Int, LibraryError>]>([])
        let (location, now) = (fixture.location, fixture.now)
        runOnThreads(clients.count) { index in
            do {
                // A connection of its own (SQLite: waiting up to 30 s for the write lock).
                let store = try LibraryStore.open(
                    at: location, options: .init(busyTimeoutMilliseconds: 30_000), now: now)
                let taken = try store.take(bookIDs: [2], clientID: clients[index], now: now)
                results.withLock { $0.append(.success(taken[0].loan.id)) }
            } catch let refusal as LibraryError {
                results.withLock { $0.append(.failure(refusal)) }
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
        let outcomes = results.withLock { $0 }
        #expect(outcomes.count == clients.count)
        #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1)
        for case .failure(let refusal) in outcomes {
            guard case .onLoanToSomeoneElse(id: 2, _, dueAt: .some) = refusal else {
                Issue.record("unexpected refusal: \(refusal)")
                continue
            }
        }
        let open = try fixture.store.database.fetchOne("SELECT count(*) FROM loans WHERE book_id = 2") { $0.int(0) }
        #expect(open == 1)
    }

    @Test(arguments: StoreKind.available)
    func loanLimitHoldsUnderRace(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 20, annLimit: 5)
        try fixture.store.take(bookIDs: [1, 2], clientID: fixture.ann.id, now: fixture.now)  // 3 left
        let successes = Shared(0)
        let refusals = Shared(0)
        let (location, now, ann) = (fixture.location, fixture.now, fixture.ann.id)
        runOnThreads(10) { index in
            do {
                // A connection of its own (SQLite: waiting up to 30 s for the write lock).
                let store = try LibraryStore.open(
                    at: location, options: .init(busyTimeoutMilliseconds: 30_000), now: now)
                try store.take(bookIDs: [10 + index], clientID: ann, now: now)
                successes.withLock { $0 += 1 }
            } catch LibraryError.loanLimitReached(limit: 5, held: 5, requested: 1) {
                refusals.withLock { $0 += 1 }
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
        #expect(successes.withLock { $0 } == 3)
        #expect(refusals.withLock { $0 } == 7)
        #expect(try fixture.store.clientSummary(clientID: ann, now: now).booksHeld == 5)
    }

    @Test(arguments: StoreKind.available)
    func clientsAddedAtOnceGetGeneratedCardsOfTheirOwn(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let cards = Shared<[String]>([])
        let (location, now) = (fixture.location, fixture.now)
        runOnThreads(12) { index in
            do {
                let store = try LibraryStore.open(
                    at: location, options: .init(busyTimeoutMilliseconds: 30_000), now: now)
                let client = try store.addClient(name: "Client \(index)", now: now)
                cards.withLock { $0.append(client.cardNumber) }
            } catch {
                Issue.record("client \(index): \(error)")
            }
        }
        let all = cards.withLock { $0 }
        #expect(all.count == 12 && Set(all).count == 12, "\(all.sorted())")
        #expect(try fixture.store.allClients().count == 14)
    }

    @Test(arguments: StoreKind.available)
    func returningABookFromSeveralConnectionsAtOnceReturnsItOnce(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
        let outcomes = Shared<[String]>([])
        let (location, now, ann) = (fixture.location, fixture.now, fixture.ann.id)
        runOnThreads(8) { _ in
            do {
                let store = try LibraryStore.open(
                    at: location, options: .init(busyTimeoutMilliseconds: 30_000), now: now)
                _ = try store.returnBooks(bookIDs: [1], clientID: ann, now: now)
                outcomes.withLock { $0.append("returned") }
            } catch LibraryError.notBorrowedByYou(id: 1, _) {
                outcomes.withLock { $0.append("not yours") }
            } catch {
                outcomes.withLock { $0.append("\(error)") }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.sorted() == Array(repeating: "not yours", count: 7) + ["returned"], "\(all)")
    }

    @Test(arguments: StoreKind.available)
    func renewingFromSeveralConnectionsAtOnceCountsEveryRenewal(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
        let outcomes = Shared<[String]>([])
        let (location, now, ann) = (fixture.location, fixture.now, fixture.ann.id)
        runOnThreads(6) { _ in
            do {
                let store = try LibraryStore.open(
                    at: location, options: .init(busyTimeoutMilliseconds: 30_000), now: now)
                _ = try store.renew(bookID: 1, clientID: ann, now: now)
                outcomes.withLock { $0.append("renewed") }
            } catch LibraryError.renewalLimitReached(id: 1, _, limit: LibraryRules.maxRenewals) {
                outcomes.withLock { $0.append("limit") }
            } catch {
                outcomes.withLock { $0.append("\(error)") }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.sorted() == Array(repeating: "limit", count: 4) + ["renewed", "renewed"], "\(all)")
        let loan = try #require(try fixture.store.openLoans(clientID: ann, now: now).first?.loan)
        #expect(loan.renewals == 2)
        #expect(try loan.dueAt == now.adding(days: 3 * LibraryRules.loanPeriodDays).endOfDay)
    }

    @Test(arguments: StoreKind.available)
    func firstUseFromSeveralConnectionsAtOnceRunsOnce(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let outcomes = Shared<[String]>([])
        let (location, now) = (fixture.location, fixture.now)
        runOnThreads(6) { index in
            do {
                let store = try LibraryStore.open(
                    at: location, options: .init(busyTimeoutMilliseconds: 30_000), now: now)
                let ran = try store.firstUse(now: now) { store in
                    try store.addClient(name: "First \(index)", now: now).name
                }
                outcomes.withLock { $0.append(ran == nil ? "done already" : "ran") }
            } catch {
                outcomes.withLock { $0.append("\(error)") }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.sorted() == Array(repeating: "done already", count: 5) + ["ran"], "\(all)")
        #expect(try fixture.store.allClients().count == 3)
    }

    @Test(arguments: StoreKind.available)
    func oneIdempotencyKeyFromSeveralConnectionsAtOnceActsOnce(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let token = try fixture.store.createToken(for: .client(fixture.ann.id), now: fixture.now)
        let request = IdempotentRequest(
            principal: token.id, key: "retry-1", method: "POST", path: "/v1/loans", bodyHash: Secrets.sha256([1]))
        let actions = Shared(0)
        let statuses = Shared<[String]>([])
        let (location, now, ann) = (fixture.location, fixture.now, fixture.ann.id)
        runOnThreads(6) { _ in
            do {
                let store = try LibraryStore.open(
                    at: location, options: .init(busyTimeoutMilliseconds: 30_000), now: now)
                let response = try store.write { store -> StoredResponse in
                    if let kept = try store.storedResponse(for: request, now: now) { return kept }
                    actions.withLock { $0 += 1 }
                    _ = try store.take(bookIDs: [1], clientID: ann, now: now)
                    let response = StoredResponse(status: 201, body: Array("taken".utf8))
                    try store.storeResponse(response, for: request, now: now)
                    return response
                }
                statuses.withLock { $0.append(String(response.status)) }
            } catch {
                statuses.withLock { $0.append("\(error)") }
            }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: "201", count: 6))
        #expect(actions.withLock { $0 } == 1)
        #expect(try fixture.store.openLoans(clientID: ann, now: now).count == 1)
    }
}
