import StoreTestSupport
import Synchronization
import Testing

@testable import Library

@Suite struct ConcurrencyTests {
    @Test(arguments: StoreKind.available)
    func racingForOneBookLendsItOnce(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 3)
        let clients = try (0..<16).map { try fixture.store.addClient(name: "Racer \($0)", now: fixture.now).id }
        let results = Mutex<[Result<Int, LibraryError>]>([])
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
        let successes = Mutex(0)
        let refusals = Mutex(0)
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
}
