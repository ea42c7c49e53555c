import Foundation
import Library
import LibraryCLI
import SQLite
import Testing

/// What one run of the command line gave.
struct RunResult {
    var code: Int32
    var out: String
    var err: String
}

/// A temporary folder with a database path in it, removed at the end of the test.
final class Sandbox {
    let directory: String
    var database: String { directory + "/library.sqlite" }
    /// 2026-11-29T10:00:00Z unless a test says otherwise.
    var now = "2026-11-29T10:00:00Z"

    init() {
        let template = NSTemporaryDirectory() + "librarycli-cli-XXXXXX"
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot create a temporary directory")
        directory = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs librarycli in this process against the sandbox's database; with `failingOutputWith`, every write to
    /// standard output fails with that `errno`; `input` is standard input (typed at a terminal with `terminal`);
    /// `errorWidth` is the width of standard error's terminal, when only it is one.
    /// `unsetting` names variables to leave out of the environment; `accountHome` is the home directory the password
    /// database gives.
    @discardableResult
    func run(
        _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [], terminal: Bool = false,
        width: Int? = nil, errorWidth: Int? = nil,
        useDatabase: Bool = true, failingOutputWith failure: Int32? = nil, input: String = "",
        accountHome: String? = nil
    ) -> RunResult {
        var env = ["LIBRARY_NOW": now, "HOME": directory]
        if useDatabase { env["LIBRARY_DB"] = database }
        env.merge(environment) { _, new in new }
        for name in unsetting { env[name] = nil }
        let console = Console.captured(
            isTerminal: terminal, width: width, errorWidth: errorWidth, failingOutputWith: failure, input: input)
        let code = LibraryCommandLine.main(
            arguments: arguments, environment: env, accountHome: { accountHome }, console: console,
            systemNow: Timestamp(year: 1970, month: 1, day: 1)!)
        return RunResult(code: code, out: console.capturedOutput, err: console.capturedError)
    }

    /// A library with one client (John Doe, the default) and three books.
    func makeSmallLibrary() {
        run(["init", "--empty"])
        run(["clients", "add", "John Doe", "--card", "C-0001"])
        run(["clients", "add", "Jane Roe", "--card", "C-0002", "--limit", "2"])
        run(["books", "add", "--title", "Dune", "--author", "Frank Herbert", "--year", "1965", "--pages", "412"])
        run(["books", "add", "--title", "Crime and Punishment", "--author", "Fyodor Dostoevsky", "--year", "1866"])
        run(["books", "add", "--title", "Les Misérables", "--author", "Victor Hugo", "--year", "1862"])
    }

    /// Every row of every table, as text, to prove a command changed nothing.
    func dump() throws -> [String] {
        guard FileManager.default.fileExists(atPath: database) else { return ["<no database>"] }
        let db = try Database(path: database, options: DatabaseOptions(readOnly: true))
        let tables = try db.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            $0.string(0)
        }
        var rows: [String] = []
        for table in tables {
            rows += try db.fetchAll("SELECT * FROM \"\(table)\"") { row in
                table + ": " + (0..<row.count).map { "\(row.value($0))" }.joined(separator: "|")
            }
        }
        return rows
    }
}

/// Runs `binary` (a copy another user may execute) as nobody (uid and gid 65534) through setpriv, standard output
/// discarded; for the tests of files and folders another user may not write. Needs root.
func runAsNobody(_ binary: String, _ arguments: [String], environment: [String: String]) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments
    process.environment = environment
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return RunResult(code: process.terminationStatus, out: "", err: errors)
}

/// Parses JSON output with Foundation, to prove it is valid JSON.
func parseJSON(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
}
