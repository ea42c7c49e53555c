import CSQLite
import Glibc
import Library
import Seeding

/// `loans`: take then return one book, one transaction each, via LibraryStore vs the raw C API.
enum LoanBenchmark {
    /// Books in the benchmark's library; takes cycle through them.
    static let libraryBooks = 1_000

    static func run(_ options: Options) throws {
        let pairs = options.count ?? 5_000
        let runs = options.runs ?? 7
        print(
            "loans: \(grouped(pairs)) take + return pairs (\(grouped(2 * pairs)) transactions) per run, \(runs) runs,")
        print("  one client, a library of \(grouped(libraryBooks)) books, a fresh database per run")
        let stats = try measure(
            runs: runs, warmups: 1,
            [
                Contender(name: "library", run: { try library(pairs: pairs) }),
                Contender(name: "baseline", run: { try baseline(pairs: pairs) }),
            ])
        printStats("LibraryStore.take + returnBooks", stats[0], work: 2 * pairs, unit: "transactions/s")
        printStats("baseline: raw C API transactions", stats[1], work: 2 * pairs, unit: "transactions/s")
        printRatio("loans", subject: stats[0].median, baseline: stats[1].median, target: 0.7)
    }

    /// A fresh database with the books and one client (limit 5); returns its path.
    static func prepare(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.file("loans.sqlite")
        let store = try LibraryStore.open(at: path, now: Timestamp.systemNow())
        _ = try CatalogImport.generate(count: libraryBooks, seed: 1, into: store)
        _ = try store.addClient(name: "Bench Client", loanLimit: 5, now: Timestamp.systemNow())
        return path
    }

    static func library(pairs: Int) throws -> Double {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try prepare(directory)
        let store = try LibraryStore.open(at: path, now: Timestamp.systemNow())
        return try timed {
            for pair in 0..<pairs {
                let id = pair % libraryBooks + 1
                try store.take(bookIDs: [id], clientID: 1, now: Timestamp.systemNow())
                try store.returnBooks(bookIDs: [id], clientID: 1, now: Timestamp.systemNow())
            }
        }
    }

    static func baseline(pairs: Int) throws -> Double {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try prepare(directory)
        let database = try RawDatabase(path: path)
        let begin = try database.prepare("BEGIN IMMEDIATE")
        let commit = try database.prepare("COMMIT")
        let clientLimit = try database.prepare("SELECT loan_limit FROM clients WHERE id = ?")
        let bookStatus = try database.prepare("SELECT status FROM books WHERE id = ?")
        let openLoan = try database.prepare("SELECT id FROM loans WHERE book_id = ? AND returned_at IS NULL")
        let held = try database.prepare("SELECT count(*) FROM loans WHERE client_id = ? AND returned_at IS NULL")
        let insert = try database.prepare(
            "INSERT INTO loans (book_id, client_id, taken_at, due_at) VALUES (?, ?, ?, ?)")
        let close = try database.prepare(
            "UPDATE loans SET returned_at = ? WHERE book_id = ? AND client_id = ? AND returned_at IS NULL")
        return try timed {
            for pair in 0..<pairs {
                let id = pair % libraryBooks + 1
                // Take: the client exists and is under its limit, the book exists, is available and free.
                try begin.run()
                let now = time(nil)
                clientLimit.bind(1, 1)
                guard let limit = try clientLimit.int() else { throw BenchError("no client") }
                bookStatus.bind(1, id)
                guard try bookStatus.text() == "available" else { throw BenchError("book \(id) not lendable") }
                openLoan.bind(1, id)
                guard try openLoan.int() == nil else { throw BenchError("book \(id) on loan") }
                held.bind(1, 1)
                guard try held.int() ?? 0 < limit else { throw BenchError("limit reached") }
                insert.bind(1, id)
                insert.bind(2, 1)
                insert.bind(3, iso8601(now))
                insert.bind(4, iso8601(now + 14 * 86_400))
                try insert.run()
                try commit.run()
                // Return: close the open loan in its own transaction.
                try begin.run()
                close.bind(1, iso8601(time(nil)))
                close.bind(2, id)
                close.bind(3, 1)
                try close.run()
                guard sqlite3_changes(database.handle) == 1 else { throw BenchError("book \(id) not returned") }
                try commit.run()
            }
        }
    }

    /// UTC ISO-8601 with strftime, as a C program would write it.
    static func iso8601(_ seconds: time_t) -> String {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
