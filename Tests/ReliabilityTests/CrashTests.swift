import Foundation
import SQLite
import Testing

/// `kill -9` at awkward moments: the database must stay whole, and each command all or nothing.
@Suite("Processes killed with SIGKILL")
struct CrashTests {
    // MARK: - Large imports

    @Test(
        "kill -9 of seed --generate 200000 once the WAL has grown: integrity ok, none or all of the books",
        arguments: [1, 8, 24]
    )
    func killSeed(walMegabytes: Int) throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 10)
        try #require(sandbox.run(["-q", "take", "3"]).code == 0)
        let child = sandbox.start(["-q", "seed", "--generate", "200000"])
        try killWhenWALGrows(child, sandbox, megabytes: walMegabytes)
        try expectWholeAfterCrash(sandbox, booksBefore: 10, imported: 200_000, openLoans: [1: 1])
    }

    @Test("kill -9 of an import of a 200,000-row CSV once the WAL has grown: integrity ok, none or all of it")
    func killImport() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 10)
        try #require(sandbox.run(["-q", "take", "3"]).code == 0)
        let file = sandbox.directory + "/books.csv"
        try writeCatalog(rows: 200_000, to: file)
        let child = sandbox.start(["-q", "import", file])
        try killWhenWALGrows(child, sandbox, megabytes: 4)
        try expectWholeAfterCrash(sandbox, booksBefore: 10, imported: 200_000, openLoans: [1: 1])
    }

    // MARK: - Loans

    @Test("take and return killed at many moments: integrity ok, multi-book takes all or none, invariants hold")
    func killLoans() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [1000, 5], books: 80)
        var children: [Child] = []
        for index in 0..<24 {
            // Client 1 takes its own three books at once; client 2 takes and returns book 80 over and over.
            let triple = (1...3).map { "\(index * 3 + $0)" }
            let take = sandbox.start(["-q", "--client", "1", "take"] + triple)
            let loan = sandbox.start(["-q", "--client", "2", index % 2 == 0 ? "take" : "return", "80"])
            usleep(UInt32(index % 12) * 1_500)
            take.kill()
            loan.kill()
            children += [take, loan]
        }
        let endings = children.map { $0.wait().ending }
        for ending in endings {
            #expect(ending == .signaled(SIGKILL) || ending == .exited(0) || ending == .exited(1), "\(ending)")
        }
        let listed = sandbox.run(["-q", "list"])
        #expect(listed.code == 0, "\(listed.err)")
        let db = try sandbox.open()
        #expect(try brokenInvariants(db) == [])
        for index in 0..<24 {
            let books = (1...3).map { index * 3 + $0 }
            let open = try db.fetchOne(
                "SELECT count(*) FROM loans WHERE client_id = 1 AND returned_at IS NULL AND book_id IN (?, ?, ?)",
                books
            ) { $0.int(0) }
            #expect(open == 0 || open == 3, "take \(books) left \(open ?? -1) of 3 loans")
        }
        let all = try db.fetchOne("SELECT count(*) FROM loans") { $0.int(0) } ?? 0
        try expectScreenCountsMatch(sandbox, clients: 2)
        // Still writable: no lock or half-written transaction left behind.
        #expect(sandbox.run(["-q", "--client", "2", "take", "79"]).ending == .exited(0))
        #expect(try sandbox.open().fetchOne("SELECT count(*) FROM loans") { $0.int(0) } == all + 1)
    }
}

// MARK: - Helpers

/// Kills `child` once the database's WAL has reached `megabytes` (the import is then mid-transaction), or lets
/// it be if it ended first.
private func killWhenWALGrows(_ child: Child, _ sandbox: Sandbox, megabytes: Int) throws {
    while !child.hasEnded && sandbox.size("-wal") < megabytes << 20 {
        usleep(2_000)
    }
    child.kill()
    let result = child.wait()
    #expect(result.ending == .signaled(SIGKILL) || result.ending == .exited(0), "\(result.ending): \(result.err)")
}

/// After a crash the next librarycli opens the database, which is whole and holds none or all of an import.
private func expectWholeAfterCrash(
    _ sandbox: Sandbox, booksBefore: Int, imported: Int, openLoans expected: [Int: Int],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let listed = sandbox.run(["-q", "--json", "list"])
    #expect(listed.ending == .exited(0), "\(listed.err)", sourceLocation: sourceLocation)
    let db = try sandbox.open()
    #expect(try brokenInvariants(db) == [], sourceLocation: sourceLocation)
    let books = try db.fetchOne("SELECT count(*) FROM books") { $0.int(0) }
    #expect(books == booksBefore || books == booksBefore + imported, sourceLocation: sourceLocation)
    #expect(try openLoans(db) == expected, sourceLocation: sourceLocation)
    #expect(listed.out.contains("\"totalCount\": \(books ?? -1)"), sourceLocation: sourceLocation)
}

/// Writes a CSV catalog of `rows` distinct books.
func writeCatalog(rows: Int, to path: String) throws {
    var text = "title,author,year,pages\n"
    text.reserveCapacity(rows * 40)
    for index in 0..<rows {
        text += "Reliable Book \(index),Author \(index % 977),\(1900 + index % 100),\(100 + index % 400)\n"
    }
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}
