import CLibPQ
import Glibc
import Library
import Seeding

/// `pgloans`: take then return one book, one transaction each, via `LibraryStore` on PostgreSQL vs the same
/// statements through libpq's C API directly.
///
/// Each run gets a fresh database copied from one template (migrated by librarycli, 1,000 generated books, one
/// client with a limit of 5, vacuumed and analyzed), made and dropped through the `--url` connection. The
/// baseline's SQL is the store's, written out: the same statements, prepared once, in the same transactions.
enum PostgreSQLLoanBenchmark {
    static let libraryBooks = LoanBenchmark.libraryBooks
    /// The client's CPU seconds in each timed run, by side (the benchmark runs on one thread): what the process
    /// itself spends, apart from the server and the waiting.
    nonisolated(unsafe) static var cpuSeconds: [String: [Double]] = [:]

    static func run(_ options: Options) throws {
        guard let url = options.url else {
            throw BenchError("pgloans needs --url URL: a PostgreSQL server where this user may create databases")
        }
        let pairs = options.count ?? 2_000
        let runs = options.runs ?? 7
        let databases = try PostgreSQLDatabases(url: url)
        let template = "librarybench_pgloans_template_\(getpid())"
        let scratch = "librarybench_pgloans_\(getpid())"
        defer {
            try? databases.drop(scratch)
            try? databases.drop(template)
        }
        try prepareTemplate(template, databases)
        print(
            "pgloans: \(grouped(pairs)) take + return pairs (\(grouped(2 * pairs)) transactions) per run, \(runs) runs,"
        )
        print("  one client, a library of \(grouped(libraryBooks)) books, a fresh database per run (PostgreSQL)")
        let stats = try measure(
            runs: runs, warmups: 1,
            [
                Contender(
                    name: "library",
                    run: {
                        try fresh(scratch, from: template, databases) { try library(pairs: pairs, url: $0) }
                    }),
                Contender(
                    name: "baseline",
                    run: {
                        try fresh(scratch, from: template, databases) { try baseline(pairs: pairs, url: $0) }
                    }),
            ])
        printStats("LibraryStore.take + returnBooks (PostgreSQL)", stats[0], work: 2 * pairs, unit: "transactions/s")
        printStats("baseline: libpq C API, same statements", stats[1], work: 2 * pairs, unit: "transactions/s")
        printPairedRatio("pgloans", subject: stats[0], baseline: stats[1], target: 0.7)
        let perTransaction = { (side: String) in  // (the first run of each side is the warm-up)
            duration(Stats(seconds: Array(cpuSeconds[side, default: []].dropFirst())).median / Double(2 * pairs))
        }
        print(
            "  the client's own CPU a transaction (medians): LibraryStore \(perTransaction("library")), "
                + "libpq \(perTransaction("baseline"))")
    }

    /// The library every run starts from: migrated by librarycli, 1,000 books, one client (limit 5).
    static func prepareTemplate(_ name: String, _ databases: PostgreSQLDatabases) throws {
        try databases.create(name)
        do {
            let store = try LibraryStore.open(at: databases.url(of: name), now: Timestamp.systemNow())
            _ = try CatalogImport.generate(count: libraryBooks, seed: 1, into: store)
            _ = try store.addClient(name: "Bench Client", loanLimit: 5, now: Timestamp.systemNow())
        }
        try RawPGConnection(url: databases.url(of: name)).exec("VACUUM (ANALYZE)")
    }

    /// Runs `body` on a fresh copy of the template (after a checkpoint), then drops it.
    static func fresh(
        _ name: String, from template: String, _ databases: PostgreSQLDatabases, _ body: (String) throws -> Double
    ) throws -> Double {
        try databases.create(name, template: template)
        defer { try? databases.drop(name) }
        databases.checkpoint()
        return try body(databases.url(of: name))
    }

    static func library(pairs: Int, url: String) throws -> Double {
        let store = try LibraryStore.open(at: url, now: Timestamp.systemNow())
        return try timedWithCPU("library") {
            for pair in 0..<pairs {
                let id = pair % libraryBooks + 1
                try store.take(bookIDs: [id], clientID: 1, now: Timestamp.systemNow())
                try store.returnBooks(bookIDs: [id], clientID: 1, now: Timestamp.systemNow())
            }
        }
    }

    /// `timed`, also recording the process's CPU seconds under `side`.
    static func timedWithCPU(_ side: String, _ body: () throws -> Void) throws -> Double {
        let cpu = processCPUSeconds()
        let seconds = try timed(body)
        cpuSeconds[side, default: []].append(processCPUSeconds() - cpu)
        return seconds
    }

    // The store's statements (LibraryStore+Loans.swift, +Books, +Clients; Columns in LibraryStore.swift) with
    // PostgreSQL's numbered placeholders, as the PostgreSQL module numbers them.
    static let lockedClientSQL =
        "SELECT c.id, c.name, c.card_number, c.loan_limit, c.created_at FROM clients c WHERE c.id = $1 FOR UPDATE"
    static let bookSQL =
        "SELECT b.id, b.title, b.author, b.year, b.pages, b.description, b.isbn, b.status FROM books b WHERE b.id = $1"
    static let openLoanSQL = """
        SELECT l.id, l.book_id, l.client_id, l.taken_at, l.due_at, l.returned_at, l.renewals FROM loans l \
        WHERE l.book_id = $1 AND l.returned_at IS NULL
        """
    static let lockedOpenLoanSQL = """
        SELECT l.id, l.book_id, l.client_id, l.taken_at, l.due_at, l.returned_at, l.renewals FROM loans l \
        WHERE l.book_id = $1 AND l.returned_at IS NULL FOR UPDATE
        """
    static let heldSQL = "SELECT count(*) FROM loans WHERE client_id = $1 AND returned_at IS NULL"
    static let insertSQL = """
        INSERT INTO loans (book_id, client_id, taken_at, due_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (book_id) WHERE returned_at IS NULL DO NOTHING RETURNING id
        """
    static let closeSQL = "UPDATE loans SET returned_at = $1 WHERE id = $2"

    static func baseline(pairs: Int, url: String) throws -> Double {
        let connection = try RawPGConnection(url: url)
        let lockedClient = try connection.prepare("locked_client", lockedClientSQL)
        let book = try connection.prepare("book", bookSQL)
        let openLoan = try connection.prepare("open_loan", openLoanSQL)
        let lockedOpenLoan = try connection.prepare("locked_open_loan", lockedOpenLoanSQL)
        let held = try connection.prepare("held", heldSQL)
        let insert = try connection.prepare("insert_loan", insertSQL)
        let close = try connection.prepare("close_loan", closeSQL)
        let clientID = "1"
        return try timedWithCPU("baseline") {
            for pair in 0..<pairs {
                let id = String(pair % libraryBooks + 1)
                // Take: the client (locked) and its limit, the book available, no open loan, under the limit.
                try connection.exec("BEGIN")
                let limit = try lockedClient.run(clientID) { result -> Int in
                    guard PQntuples(result) == 1 else { throw BenchError("no client") }
                    return atol(PQgetvalue(result, 0, 3))
                }
                try book.run(id) { result in
                    guard PQntuples(result) == 1, strcmp(PQgetvalue(result, 0, 7), "available") == 0 else {
                        throw BenchError("book \(id) not lendable")
                    }
                }
                try openLoan.run(id) { result in
                    guard PQntuples(result) == 0 else { throw BenchError("book \(id) on loan") }
                }
                try held.run(clientID) { result in
                    guard atol(PQgetvalue(result, 0, 0)) < limit else { throw BenchError("limit reached") }
                }
                let now = time(nil)
                try insert.run(id, clientID, LoanBenchmark.iso8601(now), LoanBenchmark.iso8601(now + 14 * 86_400)) {
                    result in
                    guard PQntuples(result) == 1 else { throw BenchError("book \(id) taken meanwhile") }
                }
                try connection.exec("COMMIT")
                // Return: the client (locked), the book, its open loan (locked; this client's), closed by id.
                try connection.exec("BEGIN")
                try lockedClient.run(clientID) { result in
                    guard PQntuples(result) == 1 else { throw BenchError("no client") }
                }
                try book.run(id) { result in
                    guard PQntuples(result) == 1 else { throw BenchError("no book \(id)") }
                }
                let loanID = try lockedOpenLoan.run(id) { result -> String in
                    guard PQntuples(result) == 1, strcmp(PQgetvalue(result, 0, 2), clientID) == 0 else {
                        throw BenchError("book \(id) not on loan to the client")
                    }
                    return String(cString: PQgetvalue(result, 0, 0))
                }
                try close.run(LoanBenchmark.iso8601(time(nil)), loanID) { result in
                    guard strcmp(PQcmdTuples(result), "1") == 0 else { throw BenchError("book \(id) not returned") }
                }
                try connection.exec("COMMIT")
            }
        }
    }
}
