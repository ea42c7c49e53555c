import Formats
import Foundation
import HTTP
import HTTPTestSupport
import Library
import LibraryServer
import PostgreSQL
import StoreTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A library in a new PostgreSQL database (`t_<random hex>`), made by `librarycli init` (the demo catalog, or
/// `--empty`), dropped at the end of the test.
final class PostgreSQLLibrary: @unchecked Sendable {
    let name: String
    let url: String

    init(empty: Bool = false) throws {
        guard let base = TestPostgreSQL.baseURL else { throw TestFailure("LIBRARY_TEST_POSTGRES is not set") }
        name = "t_" + (0..<16).map { _ in String(Int.random(in: 0..<16), radix: 16) }.joined()
        try PostgreSQLConnection(url: base).execute(script: "CREATE DATABASE \"\(name)\"")
        url = TestPostgreSQL.url(base, database: name)
        let made = try Binary.run(["--db", url, "-q", "init"] + (empty ? ["--empty"] : []))
        guard made.code == 0 else { throw TestFailure("init failed: \(made.err)") }
    }

    deinit {
        guard let base = TestPostgreSQL.baseURL, let admin = try? PostgreSQLConnection(url: base) else { return }
        try? admin.execute(script: "DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)")
    }

    func store() throws -> LibraryStore {
        try LibraryStore.open(at: url, now: TestLibrary.now)
    }

    func token(client: Int) throws -> String {
        try store().createToken(for: .client(client), now: TestLibrary.now).token
    }

    /// Starts the service in this process on 127.0.0.1, port 0, with the tests' clock (unless told another).
    func start(threads: Int = 4, now: @escaping @Sendable () -> Timestamp = { TestLibrary.now }) throws
        -> LibraryService
    {
        try LibraryService.start(
            databasePath: url, configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: threads),
            now: now)
    }

    func count(_ sql: String) throws -> Int {
        try PostgreSQLConnection(url: url).fetchOne(sql) { $0.int(0) } ?? -1
    }

    /// Ends every other connection to the database, as a restarted server would; returns how many.
    @discardableResult
    func terminateConnections() throws -> Int {
        try PostgreSQLConnection(url: url).fetchOne(
            """
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()
            """
        ) { $0.int(0) } ?? 0
    }

    /// What is wrong with the loans, if anything: a book lent twice, a client over the limit, a loan returned
    /// before it was taken.
    func loanProblems() throws -> [String] {
        var problems: [String] = []
        let twice = try count(
            "SELECT count(*) FROM (SELECT book_id FROM loans WHERE returned_at IS NULL GROUP BY book_id "
                + "HAVING count(*) > 1) AS twice")
        if twice != 0 { problems.append("\(twice) books lent twice") }
        let over = try count(
            """
            SELECT count(*) FROM clients c
            WHERE (SELECT count(*) FROM loans l WHERE l.client_id = c.id AND l.returned_at IS NULL) > c.loan_limit
            """)
        if over != 0 { problems.append("\(over) clients over their limit") }
        let backwards = try count("SELECT count(*) FROM loans WHERE returned_at < taken_at OR due_at <= taken_at")
        if backwards != 0 { problems.append("\(backwards) loans out of order") }
        return problems
    }
}

/// Opens the event stream of `token`'s screen and reads its first event (the whole screen).
func openStream(_ port: Int, token: String) throws -> EventReader {
    let client = try TestClient(port: port, timeoutSeconds: 5)
    client.request("GET", "/v1/screen/events", headers: [("Authorization", "Bearer \(token)")])
    let head = try client.readHead()
    guard head.status == 200 else { throw TestFailure("the stream answered \(head.status)") }
    let events = EventReader(client)
    _ = try events.next()
    return events
}

/// The next change on the stream, and how long it took to come.
func nextChange(_ events: EventReader) throws -> (json: JSONValue, seconds: Double) {
    let start = Date()
    let event = try events.next()
    return (try JSONParser.parse(event.data), Date().timeIntervalSince(start))
}

/// The ids of the items a change-set inserted.
func insertedIDs(_ json: JSONValue) -> [String] {
    value(json, "changes", "items", "inserted")?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
}

@Suite(
    "serve on PostgreSQL",
    .enabled(if: TestPostgreSQL.isConfigured, "LIBRARY_TEST_POSTGRES names no PostgreSQL database to test with")
)
struct PostgreSQLServerTests {
    @Test("GET /v1/screen, POST /v1/loans and DELETE /v1/loans/N, with the library's refusals")
    func screenAndLoans() throws {
        let library = try PostgreSQLLibrary()
        let token = try library.token(client: 1)
        let other = try library.token(client: 2)
        let service = try library.start()
        defer { service.stop() }
        let port = service.port
        #expect(try call(port, "GET", "/v1/screen").status == 401)
        let screen = try call(port, "GET", "/v1/screen", token: token)
        #expect(screen.status == 200)
        #expect(screen.text.contains("Hey John Doe!"))
        #expect(try screen.json["sections"]?.arrayValue?.count == 3)
        let etag = try #require(screen[header: "ETag"])
        #expect(try call(port, "GET", "/v1/screen", token: token, headers: [("If-None-Match", etag)]).status == 304)

        let taken = try call(port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [5, 6]}"#)
        #expect(taken.status == 201)
        #expect(value(try taken.json, "outcomes", 0, "bookId") == .int(5))
        #expect(insertedIDs(try taken.json).sorted() == ["client-book-5", "client-book-6"])
        #expect(try call(port, "GET", "/v1/screen", token: token, headers: [("If-None-Match", etag)]).status == 200)
        let again = try call(port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [5]}"#)
        #expect(again.status == 409)
        #expect(again.code == "already-yours")
        let onLoan = try call(port, "POST", "/v1/loans", token: other, json: #"{"bookIds": [7, 6]}"#)
        #expect(onLoan.status == 409)
        #expect(onLoan.code == "on-loan")
        #expect(try library.count("SELECT count(*) FROM loans WHERE client_id = 2") == 0)
        let open = try call(port, "GET", "/v1/loans", token: token).json
        #expect(open["loans"]?.arrayValue?.compactMap { $0["bookId"]?.intValue }.sorted() == [5, 6])

        let returned = try call(port, "DELETE", "/v1/loans/5", token: token)
        #expect(returned.status == 200)
        #expect(value(try returned.json, "outcomes", 0, "action") == .string("return"))
        let twice = try call(port, "DELETE", "/v1/loans/5", token: token)
        #expect(twice.status == 409)
        #expect(twice.code == "not-yours")
        #expect(try call(port, "DELETE", "/v1/loans/99999", token: token).code == "no-such-book")
        #expect(try call(port, "POST", "/v1/loans/6/renewal", token: token, json: "{}").status == 200)
        #expect(try library.count("SELECT renewals FROM loans WHERE book_id = 6") == 1)
        let history = try call(port, "GET", "/v1/loans?state=returned", token: token).json
        #expect(history["loans"]?.arrayValue?.map { $0["bookId"] } == [.int(5)])
    }

    @Test("16 clients POST one book at once: exactly one 201, fifteen 409 on-loan")
    func sixteenAtOnce() throws {
        let library = try PostgreSQLLibrary()
        let store = try library.store()
        let tokens = try (0..<16).map { index in
            let client = try store.addClient(name: "Racer \(index)", now: TestLibrary.now)
            return try store.createToken(for: .client(client.id), now: TestLibrary.now).token
        }
        let service = try library.start(threads: 8)
        defer { service.stop() }
        let port = service.port
        let statuses = Shared<[(Int, String?)]>([])
        let start = DispatchSemaphore(value: 0)
        let workers = tokens.map { token in
            Background {
                start.wait()
                let response = try? call(port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [15]}"#)
                statuses.withLock { $0.append((response?.status ?? 0, response?.code)) }
            }
        }
        for _ in workers { start.signal() }
        for worker in workers { #expect(worker.join()) }
        let results = statuses.withLock { $0 }
        #expect(results.filter { $0.0 == 201 }.count == 1, "\(results)")
        #expect(results.filter { $0.0 == 409 && $0.1 == "on-loan" }.count == 15)
        #expect(try library.count("SELECT count(*) FROM loans WHERE book_id = 15") == 1)
    }

    @Test("a loan falling due reaches an event stream, with nothing committed")
    func loanFallingDue() throws {
        let library = try PostgreSQLLibrary()
        let token = try library.token(client: 2)
        try library.store().take(bookIDs: [17], clientID: 2, now: TestLibrary.now)
        let clock = TestClock(TestLibrary.now)
        let service = try library.start(now: clock.now)
        defer { service.stop() }
        let events = try openStream(service.port, token: token)
        let overdue = try LibraryRules.dueDate(from: TestLibrary.now).adding(seconds: 1)
        clock.withLock { $0 = overdue }
        let change = try nextChange(events)
        #expect(change.seconds < 2, "the change took \(change.seconds) s")
        let screen = try call(service.port, "GET", "/v1/screen", token: token)
        #expect(screen.text.contains(#""overdue":1"#))
        #expect(change.json["etag"].map { "\"\($0.stringValue ?? "")\"" } == screen[header: "ETag"])
    }

    @Test("two servers on one database: a take through one reaches the other's stream and screen; so does the CLI's")
    func twoServers() throws {
        let library = try PostgreSQLLibrary()
        let token = try library.token(client: 2)
        let first = try library.start()
        defer { first.stop() }
        let second = try library.start()
        defer { second.stop() }
        let before = try call(second.port, "GET", "/v1/screen", token: token)
        let events = try openStream(second.port, token: token)

        let taken = try call(first.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [17]}"#)
        #expect(taken.status == 201)
        // Read after write, through the other server.
        let after = try call(second.port, "GET", "/v1/screen", token: token)
        #expect(after[header: "ETag"] != before[header: "ETag"])
        #expect(after.text.contains("client-book-17"))
        let change = try nextChange(events)
        #expect(insertedIDs(change.json) == ["client-book-17"])
        #expect(change.seconds < 2, "the change took \(change.seconds) s")

        let cli = try Binary.run(["--db", library.url, "--client", "2", "-q", "take", "18"])
        #expect(cli.code == 0, "\(cli.err)")
        let fromCLI = try nextChange(events)
        #expect(insertedIDs(fromCLI.json) == ["client-book-18"])
        #expect(fromCLI.seconds < 2, "the change took \(fromCLI.seconds) s")
        #expect(try call(first.port, "GET", "/v1/screen", token: token).text.contains("client-book-18"))

        // A token revoked by the CLI ends the stream on the other server.
        let revoke = try Binary.run(["--db", library.url, "-q", "tokens", "revoke", "1"])
        #expect(revoke.code == 0, "\(revoke.err)")
        var ended = false
        for _ in 0..<100 {
            guard try events.client.readChunk() != nil else {
                ended = true
                break
            }
        }
        #expect(ended)
        #expect(try call(first.port, "GET", "/v1/screen", token: token).status == 401)
    }

    @Test("serve killed with SIGKILL in the middle of writes leaves the loans whole; a new server carries on")
    func killedMidWrite() throws {
        let library = try PostgreSQLLibrary(empty: true)
        let store = try library.store()
        // More books than the clients may hold together: one is always free.
        for number in 1...10 { _ = try store.addBook(NewBook(title: "Book \(number)")) }
        let tokens = try (1...4).map { index in
            let client = try store.addClient(name: "Client \(index)", loanLimit: 2, now: TestLibrary.now)
            return try store.createToken(for: .client(client.id), now: TestLibrary.now).token
        }
        let serve = try ServeProcess(["--db", library.url, "-q", "serve", "--port", "0", "--threads", "4"])
        defer { serve.stop() }
        let port = serve.port
        let stopping = Shared(false)
        let answers = Shared<[Int: Int]>([:])
        let workers = (0..<6).map { _ in
            Background {
                var generator = SystemRandomNumberGenerator()
                for _ in 0..<10_000 where !stopping.withLock({ $0 }) {
                    let token = tokens[Int.random(in: 0..<tokens.count, using: &generator)]
                    let book = Int.random(in: 1...10, using: &generator)
                    let response =
                        Bool.random(using: &generator)
                        ? try? call(port, "POST", "/v1/loans", token: token, json: "{\"bookIds\": [\(book)]}")
                        : try? call(port, "DELETE", "/v1/loans/\(book)", token: token)
                    answers.withLock { $0[response?.status ?? 0, default: 0] += 1 }
                }
            }
        }
        for _ in 0..<200 where answers.withLock({ $0[201, default: 0] + $0[200, default: 0] }) < 20 { usleep(10_000) }
        kill(serve.process.processIdentifier, SIGKILL)
        serve.process.waitUntilExit()
        stopping.withLock { $0 = true }
        for worker in workers { #expect(worker.join()) }
        let seen = answers.withLock { $0 }
        #expect(seen[201, default: 0] > 0, "\(seen)")
        #expect(Set(seen.keys).isSubset(of: [0, 200, 201, 409]), "\(seen)")
        #expect(try library.loanProblems() == [])
        #expect(try library.count("SELECT count(*) FROM loans") >= seen[201, default: 0])

        // Nothing of the killed server holds a lock: a new one takes and returns at once.
        let service = try library.start()
        defer { service.stop() }
        let free = try library.count(
            "SELECT min(b.id) FROM books b WHERE NOT EXISTS "
                + "(SELECT 1 FROM loans l WHERE l.book_id = b.id AND l.returned_at IS NULL)")
        #expect(free > 0)
        let token = try library.token(client: try store.addClient(name: "Late", now: TestLibrary.now).id)
        let taken = try call(service.port, "POST", "/v1/loans", token: token, json: "{\"bookIds\": [\(free)]}")
        #expect(taken.status == 201, "\(taken.text)")
        #expect(try call(service.port, "DELETE", "/v1/loans/\(free)", token: token).status == 200)
    }

    @Test(
        "the database server drops every connection under load: 503s at most, then the server and its streams recover")
    func connectionsDropped() throws {
        let library = try PostgreSQLLibrary()
        let tokens = try (1...4).map { try library.token(client: $0) }
        let service = try library.start(threads: 4)
        defer { service.stop() }
        let port = service.port
        let events = try openStream(port, token: tokens[1])

        let stopping = Shared(false)
        let answers = Shared<[String: Int]>([:])
        let workers = (0..<4).map { worker in
            Background {
                // Each worker takes and returns a book of its own, and reads its screen.
                let token = tokens[worker]
                let book = 40 + worker
                for _ in 0..<10_000 where !stopping.withLock({ $0 }) {
                    for (method, target) in [
                        ("POST", "/v1/loans"), ("GET", "/v1/screen"), ("DELETE", "/v1/loans/\(book)"),
                    ] {
                        let body = method == "POST" ? "{\"bookIds\": [\(book)]}" : nil
                        let key: String
                        do {
                            let response = try call(port, method, target, token: token, json: body)
                            key = "\(method) \(response.status) \(response.code ?? "")"
                        } catch {
                            key = "\(method) \(error)"
                        }
                        answers.withLock { $0[key, default: 0] += 1 }
                    }
                }
            }
        }
        for _ in 0..<3 {
            usleep(250_000)
            #expect(try library.terminateConnections() > 0)
        }
        usleep(250_000)
        stopping.withLock { $0 = true }
        for worker in workers { #expect(worker.join()) }
        let seen = answers.withLock { $0 }
        let allowed: Set<String> = [
            "POST 201 ", "GET 200 ", "DELETE 200 ", "POST 503 busy", "GET 503 busy", "DELETE 503 busy",
            // After a take or a return answered 503, the worker's book is still free or still held by it: its
            // next return or take is refused.
            "POST 409 already-yours", "DELETE 409 not-yours",
        ]
        #expect(Set(seen.keys).isSubset(of: allowed), "\(seen)")
        #expect(seen["GET 200 ", default: 0] > 0, "\(seen)")

        // Recovered: every request answers, without restarting the service.
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(try call(port, "GET", "/v1/screen", token: tokens[1]).status) }
        #expect(statuses == [200, 200, 200, 200, 200])
        // The watcher reconnected too: the open stream still gets changes, the server's and another process's.
        let taken = try call(port, "POST", "/v1/loans", token: tokens[1], json: #"{"bookIds": [30]}"#)
        #expect(taken.status == 201)
        var change = try nextChange(events)
        for _ in 0..<20 where !insertedIDs(change.json).contains("client-book-30") { change = try nextChange(events) }
        #expect(insertedIDs(change.json).contains("client-book-30"))
        #expect(change.seconds < 2, "the change took \(change.seconds) s")
        let cli = try Binary.run(["--db", library.url, "--client", "2", "-q", "take", "31"])
        #expect(cli.code == 0, "\(cli.err)")
        let fromCLI = try nextChange(events)
        #expect(insertedIDs(fromCLI.json).contains("client-book-31"))
        #expect(try library.loanProblems() == [])
    }

    /// Fills the pool with `count` connections: as many screens read at once.
    private func warm(_ port: Int, token: String, count: Int) {
        let start = DispatchSemaphore(value: 0)
        let readers = (0..<count).map { _ in
            Background {
                start.wait()
                _ = try? call(port, "GET", "/v1/screen", token: token)
            }
        }
        for _ in readers { start.signal() }
        for reader in readers { _ = reader.join() }
    }

    @Test(
        "connections dropped while the server is idle: streams and long-polls opened before get the changes after")
    func streamsOpenAcrossAnOutage() throws {
        let library = try PostgreSQLLibrary()
        let token = try library.token(client: 2)
        let service = try library.start(threads: 4)
        defer { service.stop() }
        let port = service.port
        warm(port, token: token, count: 6)
        let events = try openStream(port, token: token)
        let etag = try #require(try call(port, "GET", "/v1/screen", token: token)[header: "ETag"])
        let waiting = try TestClient(port: port, timeoutSeconds: 10)
        waiting.request(
            "GET", "/v1/screen/changes?since=\(etag.dropFirst().dropLast())&wait=30",
            headers: [("Authorization", "Bearer \(token)")])
        #expect(!waiting.isReadable(withinMilliseconds: 200))

        #expect(try library.terminateConnections() > 0)
        // A change while the watcher has not yet noticed, then (once it has) another: both reach the stream, from
        // the CLI, without a request to the server in between.
        let during = try Binary.run(["--db", library.url, "--client", "2", "-q", "take", "18"])
        #expect(during.code == 0, "\(during.err)")
        let answer = try waiting.readResponse()
        #expect(answer.status == 200)
        #expect(insertedIDs(try answer.json) == ["client-book-18"])
        let first = try nextChange(events)
        #expect(insertedIDs(first.json) == ["client-book-18"])
        #expect(first.seconds < 3, "the change took \(first.seconds) s")
        let after = try Binary.run(["--db", library.url, "--client", "2", "-q", "take", "19"])
        #expect(after.code == 0, "\(after.err)")
        let second = try nextChange(events)
        #expect(insertedIDs(second.json) == ["client-book-19"])
        #expect(second.seconds < 2, "the change took \(second.seconds) s")
        // The server's own requests answer; a take through it reaches the stream too.
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(try call(port, "GET", "/v1/screen", token: token).status) }
        #expect(statuses.filter { $0 != 200 }.count <= 1, "\(statuses)")
        #expect(try call(port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [20]}"#).status == 201)
        #expect(insertedIDs(try nextChange(events).json) == ["client-book-20"])
    }

    @Test("connections dropped while the server is idle: at most one request answers 503, however many were pooled")
    func oneFailurePerOutage() throws {
        let library = try PostgreSQLLibrary()
        let token = try library.token(client: 2)
        let service = try library.start(threads: 4)
        defer { service.stop() }
        let port = service.port
        warm(port, token: token, count: 8)
        #expect(try library.terminateConnections() > 0)
        var answers: [String] = []
        for _ in 0..<8 {
            let response = try call(port, "GET", "/v1/screen", token: token)
            answers.append("\(response.status) \(response.code ?? "")")
        }
        #expect(answers.filter { $0 != "200 " }.count <= 1, "\(answers)")
        #expect(answers.allSatisfy { $0 == "200 " || $0 == "503 busy" }, "\(answers)")
    }

    @Test(
        "a role that may only read: takes and sign-ins answer 500 database-permission with the GRANT, logged by id",
        .needsPostgreSQLRoles)
    func readOnlyRole() throws {
        let library = try PostgreSQLLibrary()
        let token = try library.token(client: 2)
        let role = "r_" + TestPostgreSQL.randomHex()
        let admin = try PostgreSQLConnection(url: library.url)
        try admin.execute(script: "CREATE ROLE \(role) LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)")
        defer { try? admin.execute(script: "DROP OWNED BY \(role); DROP ROLE \(role)") }
        let logged = Shared<[String]>([])
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 4)
        configuration.errorLog = { request, error in
            logged.withLock { $0.append(LibraryService.errorLine(request, error)) }
        }
        let service = try LibraryService.start(
            databasePath: TestPostgreSQL.url(library.url, user: role), configuration: configuration,
            now: { TestLibrary.now })
        defer { service.stop() }
        let port = service.port
        #expect(try call(port, "GET", "/v1/screen", token: token).status == 200)
        let taken = try call(port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [5]}"#)
        let signIn = try call(port, "POST", "/v1/sessions", json: #"{"cardNumber":"C-0003","pin":"3333"}"#)
        for response in [taken, signIn] {
            #expect(response.status == 500)
            #expect(response.code == "database-permission")
            let detail = try response.json["detail"]?.stringValue ?? ""
            #expect(
                detail.hasPrefix(
                    "The role \(role) may not read or write the library in the server's PostgreSQL database "
                        + "(permission denied for table "),
                "\(detail)")
            #expect(detail.contains("nothing was changed") && detail.contains("GRANT SELECT, INSERT"), "\(detail)")
        }
        #expect(try library.count("SELECT count(*) FROM loans WHERE client_id = 2") == 0)
        // Each is logged once, with its request id, the SQLSTATE and the server's message; never a token or PIN.
        let lines = logged.withLock { $0 }
        #expect(lines.count == 2, "\(lines)")
        for (response, method) in [(taken, "POST"), (signIn, "POST")] {
            let id = try #require(response[header: "X-Request-Id"])
            #expect(
                lines.contains { $0.hasPrefix("Error: request \(id) (\(method)) failed: PostgreSQL error 42501: ") },
                "\(lines)")
        }
        #expect(!lines.contains { $0.contains(token) || $0.contains("3333") || $0.contains("C-0003") }, "\(lines)")
    }
}
