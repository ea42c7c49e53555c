import Foundation
import SQLite
import Testing

/// Many real librarycli processes against one database at once.
@Suite("Concurrent processes")
struct ConcurrencyTests {
    // MARK: - Races for one book and one limit

    @Test("16 processes take the same book for 16 clients: exactly one wins, the others are refused")
    func sameBook() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: Array(repeating: 5, count: 16), books: 50)
        let children = (1...16).map { sandbox.start(["-q", "--client", "\($0)", "take", "7"]) }
        let results = children.map { $0.wait() }
        let endings = results.map(\.ending)
        #expect(endings.filter { $0 == .exited(0) }.count == 1, "\(endings)")
        #expect(endings.filter { $0 == .exited(1) }.count == 15, "\(endings)")
        for refused in results where refused.ending == .exited(1) {
            #expect(refused.err.contains("on loan"), "\(refused.err)")
        }
        let db = try sandbox.open()
        let open = try db.fetchAll("SELECT client_id FROM loans WHERE book_id = 7 AND returned_at IS NULL") {
            $0.int(0)
        }
        #expect(open.count == 1)
        let winner = try #require(results.firstIndex { $0.ending == .exited(0) })
        #expect(open == [winner + 1])
        #expect(try db.fetchOne("SELECT count(*) FROM loans") { $0.int(0) } == 1)
        #expect(try brokenInvariants(db) == [])
    }

    @Test("a client 3 books below the limit, 12 processes each taking another book: exactly 3 succeed")
    func limitRace() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 50)
        let first = sandbox.run(["-q", "--client", "1", "take", "1", "2"])
        try #require(first.code == 0, "\(first.err)")
        let children = (11...22).map { sandbox.start(["-q", "--client", "1", "take", "\($0)"]) }
        let endings = children.map { $0.wait().ending }
        #expect(endings.filter { $0 == .exited(0) }.count == 3, "\(endings)")
        #expect(endings.filter { $0 == .exited(1) }.count == 9, "\(endings)")
        let db = try sandbox.open()
        #expect(try openLoans(db) == [1: 5])
        #expect(try brokenInvariants(db) == [])
    }

    @Test("8 processes renew one loan at once: exactly 2 renewals succeed, the loan is 28 days longer")
    func renewRace() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 10)
        try #require(sandbox.run(["-q", "take", "4"]).code == 0)
        let endings = (0..<8).map { _ in sandbox.start(["-q", "renew", "4"]) }.map { $0.wait().ending }
        #expect(endings.filter { $0 == .exited(0) }.count == 2, "\(endings)")
        #expect(endings.filter { $0 == .exited(1) }.count == 6, "\(endings)")
        let db = try sandbox.open()
        let loan = try db.fetchOne("SELECT renewals, due_at FROM loans WHERE book_id = 4") { ($0.int(0), $0.string(1)) }
        #expect(loan?.0 == 2)
        #expect(loan?.1 == "2027-01-10T23:59:59Z")
    }

    @Test("8 processes return one book at once: exactly one succeeds")
    func returnRace() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 10)
        try #require(sandbox.run(["-q", "take", "4"]).code == 0)
        let endings = (0..<8).map { _ in sandbox.start(["-q", "return", "4"]) }.map { $0.wait().ending }
        #expect(endings.filter { $0 == .exited(0) }.count == 1, "\(endings)")
        #expect(endings.filter { $0 == .exited(1) }.count == 7, "\(endings)")
        let db = try sandbox.open()
        #expect(try db.fetchOne("SELECT count(*) FROM loans WHERE returned_at IS NOT NULL") { $0.int(0) } == 1)
        #expect(try brokenInvariants(db) == [])
    }

    @Test("10 clients take overlapping sets of 3 books at once: each gets all 3 or none, no book twice")
    func overlappingTakes() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: Array(repeating: 5, count: 10), books: 20)
        let children = (1...10).map { client in
            sandbox.start(["-q", "--client", "\(client)", "take"] + (0..<3).map { "\(client + $0)" })
        }
        let endings = children.map { $0.wait().ending }
        #expect(endings.allSatisfy { $0 == .exited(0) || $0 == .exited(1) }, "\(endings)")
        let db = try sandbox.open()
        let held = try openLoans(db)
        #expect(held.values.allSatisfy { $0 == 3 }, "\(held)")
        #expect(held.count == endings.filter { $0 == .exited(0) }.count)
        // Client c takes books c...c+2. The winners' triples are disjoint, and every loser's triple meets a
        // winner's (else it would have been free when that client took it): between 2 (such as clients 3 and 8) and
        // 4 winners, depending on the order the processes commit in.
        let winners = held.keys.sorted()
        for (first, second) in zip(winners, winners.dropFirst()) {
            #expect(second - first >= 3, "overlapping winners \(winners)")
        }
        for loser in (1...10) where held[loser] == nil {
            #expect(winners.contains { abs($0 - loser) <= 2 }, "client \(loser)'s books were all free: \(winners)")
        }
        #expect((2...4).contains(held.count), "\(held)")
        #expect(try brokenInvariants(db) == [])
    }

    // MARK: - A mixed load

    @Test("8 processes, 40 random take/return/renew/list each: only 0 or 1, and every invariant holds")
    func mixedLoad() throws {
        let sandbox = Sandbox()
        let limits = [5, 3, 2, 1, 4, 0]
        try sandbox.makeLibrary(limits: limits, books: 30)
        let clients = limits.count
        // The real clock, not LIBRARY_NOW: processes take and return in real order, so returned_at >= taken_at
        // checks something.
        let outcomes = concurrently(8) { worker -> [String] in
            var random = SeededGenerator(seed: UInt64(worker) &* 7919 &+ 17)
            var lines: [String] = []
            for _ in 0..<40 {
                let client = Int.random(in: 1...clients, using: &random)
                let book = Int.random(in: 1...12, using: &random)
                let command: [String]
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4: command = ["take", "\(book)"]
                case 4..<7: command = ["return", "\(book)"]
                case 7..<9: command = ["renew", "\(book)"]
                default: command = ["list"]
                }
                let result = sandbox.run(["-q", "--client", "\(client)"] + command, extra: ["LIBRARY_NOW": nil])
                if result.ending != .exited(0) && result.ending != .exited(1) {
                    lines.append("\(command) for client \(client): \(result.ending): \(result.err)")
                }
            }
            return lines
        }
        let unexpected = outcomes.flatMap { $0 }
        #expect(unexpected == [])
        let db = try sandbox.open()
        #expect(try brokenInvariants(db) == [])
        #expect(try db.fetchOne("SELECT count(*) FROM loans") { $0.int(0) } ?? 0 > 0)
        try expectScreenCountsMatch(sandbox, clients: clients)
    }

    // MARK: - Locks held by another connection

    @Test("list succeeds while another connection holds a write transaction open, and sees only committed data")
    func readersDoNotBlock() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 20)
        let writer = try sandbox.open(readOnly: false)
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute(
            "INSERT INTO books (title, author, search_title) VALUES ('Uncommitted', 'Nobody', 'uncommitted')")
        try writer.execute(
            "INSERT INTO loans (book_id, client_id, taken_at, due_at) VALUES (3, 1, ?, ?)",
            [
                "2026-11-29T09:00:00Z", "2026-12-13T09:00:00Z",
            ])
        let listed = sandbox.run(["-q", "--json", "list"])
        try writer.execute("ROLLBACK")
        #expect(listed.ending == .exited(0), "\(listed.err)")
        #expect(!listed.out.contains("Uncommitted"))
        #expect(listed.out.contains("\"totalCount\": 20"))
        #expect(listed.out.contains("\"booksHeld\": 0"))
    }

    @Test("a take that waits beyond the 5 s busy timeout exits 75, says try again, and changes nothing")
    func busyBeyondTimeout() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 20)
        let writer = try sandbox.open(readOnly: false)
        try writer.execute("BEGIN IMMEDIATE")
        // The lock is held until the process has ended, so the outcome does not depend on timing.
        let taken = sandbox.run(["-q", "take", "4"])
        try writer.execute("ROLLBACK")
        #expect(taken.ending == .exited(75), "\(taken.err)")
        #expect(taken.err.contains("busy"))
        #expect(taken.err.contains("Try again"))
        #expect(taken.err.contains(sandbox.database))
        #expect(taken.out.isEmpty)
        let db = try sandbox.open()
        #expect(try db.fetchOne("SELECT count(*) FROM loans") { $0.int(0) } == 0)
        #expect(sandbox.run(["-q", "take", "4"]).ending == .exited(0))
    }
}
