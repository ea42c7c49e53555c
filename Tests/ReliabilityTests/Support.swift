import Foundation
import SQLite
import Testing

// MARK: - The binary

/// The built `librarycli` executable, run as real processes (posix_spawn, so a test can kill them and see signals).
enum Binary {
    /// The test bundle sits beside the executable in the build folder; else `.build/debug/librarycli`.
    static let path: String = {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = bundleFolder.appendingPathComponent("librarycli")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside.path }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/librarycli").path
    }()
}

/// How a process ended: an exit code, or the signal that killed it.
enum Ending: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}

/// What one finished process gave.
struct Finished {
    var ending: Ending
    var out: String
    var err: String

    /// The exit code, or 128 + the signal (as a shell shows it).
    var code: Int32 {
        switch ending {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}

/// A running child process whose standard output and error go to files.
final class Child: @unchecked Sendable {
    let pid: pid_t
    private let outPath: String
    private let errPath: String
    private var ending: Ending?

    /// Starts `executable` with exactly `environment` (nothing inherited); output goes to files under `folder`.
    init(executable: String = Binary.path, _ arguments: [String], environment: [String: String], folder: String) {
        let id = UUID().uuidString
        outPath = folder + "/out-\(id)"
        errPath = folder + "/err-\(id)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, envp)
        precondition(result == 0, "posix_spawn \(executable) failed: \(result)")
        pid = child
    }

    /// Sends `signal` (SIGKILL unless told) if the process has not been reaped yet.
    func kill(_ signal: Int32 = SIGKILL) {
        if ending == nil { _ = Glibc.kill(pid, signal) }
    }

    /// Whether the process has ended (reaps it without blocking).
    var hasEnded: Bool {
        if ending != nil { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            ending = Self.decode(status)
            return true
        }
        return false
    }

    /// Waits for the process and returns how it ended with its output.
    func wait() -> Finished {
        if ending == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            ending = Self.decode(status)
        }
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        unlink(outPath)
        unlink(errPath)
        return Finished(ending: ending!, out: out, err: err)
    }

    private static func decode(_ status: Int32) -> Ending {
        status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }
}

// MARK: - A sandbox

/// A temporary folder with a database path in it, removed at the end of the test.
final class Sandbox: @unchecked Sendable {
    let directory: String
    var database: String { directory + "/library.sqlite" }
    /// The environment every librarycli run gets (nothing inherited).
    var environment: [String: String] {
        ["LIBRARY_DB": database, "HOME": directory, "PATH": "/usr/bin:/bin", "LIBRARY_NOW": "2026-11-29T10:00:00Z"]
    }

    init() {
        var bytes = Array((NSTemporaryDirectory() + "librarycli-rel-XXXXXX").utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot create a temporary directory")
        directory = String(cString: made!)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts librarycli with the sandbox environment plus `extra` (nil values remove a variable).
    func start(_ arguments: [String], extra: [String: String?] = [:]) -> Child {
        var env = environment
        for (key, value) in extra { env[key] = value }
        return Child(arguments, environment: env, folder: directory)
    }

    /// Runs librarycli to the end.
    @discardableResult
    func run(_ arguments: [String], extra: [String: String?] = [:]) -> Finished {
        start(arguments, extra: extra).wait()
    }

    /// Runs a shell command line with `$LIBRARYCLI` set to the binary (for ulimit and umask).
    func shell(_ script: String) -> Finished {
        var env = environment
        env["LIBRARYCLI"] = Binary.path
        return Child(executable: "/bin/sh", ["-c", script], environment: env, folder: directory).wait()
    }

    /// An empty library with `limits.count` clients (cards C-1..., limits as given, the first the default) and
    /// `books` generated books.
    func makeLibrary(limits: [Int], books: Int) throws {
        let created = run(["-q", "init", "--empty"])
        try #require(created.code == 0, "\(created.err)")
        let csv =
            "name,card_number,loan_limit,default\n"
            + limits.enumerated().map {
                "Client \($0.offset + 1),C-\($0.offset + 1),\($0.element),\($0.offset == 0 ? "yes" : "no")\n"
            }.joined()
        try csv.write(toFile: directory + "/clients.csv", atomically: true, encoding: .utf8)
        let clients = run(["-q", "seed", "--file", directory + "/clients.csv"])
        try #require(clients.code == 0, "\(clients.err)")
        if books > 0 {
            let seeded = run(["-q", "seed", "--generate", "\(books)"])
            try #require(seeded.code == 0, "\(seeded.err)")
        }
    }

    /// Opens the database in the test process.
    func open(readOnly: Bool = true) throws -> Database {
        try Database(path: database, options: DatabaseOptions(readOnly: readOnly))
    }

    /// The raw bytes of the database file.
    func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: database)) }

    /// The size of `database + suffix` in bytes, 0 when missing.
    func size(_ suffix: String = "") -> Int {
        var info = stat()
        return stat(database + suffix, &info) == 0 ? Int(info.st_size) : 0
    }
}

// MARK: - Invariants

/// The library's invariants, checked on the stored data; each broken one is a line.
func brokenInvariants(_ db: Database) throws -> [String] {
    var broken: [String] = []
    let integrity = try db.fetchAll("PRAGMA integrity_check") { $0.string(0) }
    if integrity != ["ok"] { broken.append("integrity_check: \(integrity.prefix(5))") }
    let keys = try db.fetchAll("PRAGMA foreign_key_check") { "\($0.value(0))" }
    if !keys.isEmpty { broken.append("foreign_key_check: \(keys.prefix(5))") }
    let doubled = try db.fetchAll(
        "SELECT book_id FROM loans WHERE returned_at IS NULL GROUP BY book_id HAVING count(*) > 1"
    ) { $0.int(0) }
    if !doubled.isEmpty { broken.append("books with two open loans: \(doubled)") }
    let over = try db.fetchAll(
        """
        SELECT c.id FROM clients c
        JOIN (SELECT client_id, count(*) AS n FROM loans WHERE returned_at IS NULL GROUP BY client_id) l
          ON l.client_id = c.id
        WHERE l.n > c.loan_limit
        """
    ) { $0.int(0) }
    if !over.isEmpty { broken.append("clients over their limit: \(over)") }
    let backwards = try db.fetchOne("SELECT count(*) FROM loans WHERE returned_at < taken_at") { $0.int(0) } ?? 0
    if backwards != 0 { broken.append("\(backwards) loans returned before taken") }
    let renewals = try db.fetchOne("SELECT count(*) FROM loans WHERE renewals NOT BETWEEN 0 AND 2") { $0.int(0) }
    if renewals ?? 0 != 0 { broken.append("loans renewed out of range") }
    let counted = try db.fetchOne("SELECT book_count FROM library_stats WHERE id = 1") { $0.int(0) } ?? -1
    let books = try db.fetchOne("SELECT count(*) FROM books") { $0.int(0) } ?? -2
    if counted != books { broken.append("library_stats says \(counted) books, the table holds \(books)") }
    let maxID = try db.fetchOne("SELECT coalesce(max(id), 0) FROM books") { $0.int(0) } ?? -1
    if maxID != books { broken.append("book ids not dense: max \(maxID), count \(books)") }
    return broken
}

/// Open loans per client as stored.
func openLoans(_ db: Database) throws -> [Int: Int] {
    let rows = try db.fetchAll("SELECT client_id, count(*) FROM loans WHERE returned_at IS NULL GROUP BY client_id") {
        ($0.int(0), $0.int(1))
    }
    return Dictionary(uniqueKeysWithValues: rows)
}

/// Checks that `list --json` for each client shows the counts the database stores.
func expectScreenCountsMatch(_ sandbox: Sandbox, clients: Int, sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    let db = try sandbox.open()
    let held = try openLoans(db)
    let books = try db.fetchOne("SELECT count(*) FROM books") { $0.int(0) } ?? -1
    for client in 1...clients {
        let listed = sandbox.run(["-q", "--client", "\(client)", "--json", "list"])
        try #require(listed.code == 0, "\(listed.err)", sourceLocation: sourceLocation)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any],
            sourceLocation: sourceLocation)
        let sections = try #require(json["sections"] as? [[String: Any]], sourceLocation: sourceLocation)
        let info = try #require(sections.first { $0["id"] as? String == "client-info" }, sourceLocation: sourceLocation)
        let item = try #require((info["items"] as? [[String: Any]])?.first, sourceLocation: sourceLocation)
        #expect(item["booksHeld"] as? Int == held[client] ?? 0, "client \(client)", sourceLocation: sourceLocation)
        let mine = sections.first { $0["id"] as? String == "client-books" }
        let mineCount = (mine?["items"] as? [[String: Any]])?.count ?? 0
        #expect(mineCount == held[client] ?? 0, "client \(client)'s books", sourceLocation: sourceLocation)
        let library = try #require(
            sections.first { $0["id"] as? String == "library-books" }, sourceLocation: sourceLocation)
        let footer = (library["supplementaries"] as? [[String: Any]])?.first { $0["kind"] as? String == "footer" }
        #expect(footer?["totalCount"] as? Int == books, sourceLocation: sourceLocation)
    }
}

// MARK: - Randomness

/// A small seeded generator (SplitMix64), so each worker's sequence of commands is reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs `body(i)` for i in 0..<count, each on its own thread, all at once, and returns the results in order.
func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = Results<T>(count: count)
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        Thread {
            results.set(index, body(index))
            done.signal()
        }.start()
    }
    for _ in 0..<count { done.wait() }
    return results.values.map { $0! }
}

private final class Results<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T?]

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [T?] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
