import Formats
import Foundation
import HTTP
import HTTPTestSupport
import Library
import LibraryServer
import SQLite
import Seeding
import Testing

/// A library in a temporary folder, with the demo catalog and clients (demo PINs 1111, 2222, 3333, 4444).
final class TestLibrary: @unchecked Sendable {
    static let now = Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 40)!
    let directory: String
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "librarycli-server-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        path = directory + "/library.sqlite"
        let store = try LibraryStore.open(at: path, now: Self.now)
        _ = try CatalogImport.firstUse(of: store, now: Self.now)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A store on the file (another connection than the server's).
    func store() throws -> LibraryStore {
        try LibraryStore.open(at: path, now: Self.now)
    }

    func token(client: Int) throws -> String {
        try store().createToken(for: .client(client), now: Self.now).token
    }

    func librarianToken() throws -> String {
        try store().createToken(for: .librarian, now: Self.now).token
    }

    /// Starts the service on 127.0.0.1, port 0, with a fixed clock (unless told another).
    func start(
        threads: Int = 4, busyTimeoutMilliseconds: Int = 5_000, log: (@Sendable (AccessLogEntry) -> Void)? = nil,
        crossOrigin: CrossOrigin? = nil, now: @escaping @Sendable () -> Timestamp = { TestLibrary.now }
    ) throws -> LibraryService {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: threads)
        configuration.accessLog = log
        return try LibraryService.start(
            databasePath: path, configuration: configuration,
            databaseOptions: DatabaseOptions(busyTimeoutMilliseconds: busyTimeoutMilliseconds),
            crossOrigin: crossOrigin, now: now)
    }

    /// Starts the service, runs `body` and stops it.
    func serve<T>(threads: Int = 4, crossOrigin: CrossOrigin? = nil, _ body: (LibraryService) throws -> T) throws -> T {
        let service = try start(threads: threads, crossOrigin: crossOrigin)
        defer { service.stop() }
        return try body(service)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One request on a new connection, and its response.
func call(
    _ port: Int, _ method: String, _ target: String, token: String? = nil, headers: [(String, String)] = [],
    json: String? = nil, body: [UInt8]? = nil
) throws -> TestClient.Response {
    let client = try TestClient(port: port)
    var fields = headers
    if let token { fields.append(("Authorization", "Bearer \(token)")) }
    var bytes = body ?? []
    if let json {
        fields.append(("Content-Type", "application/json"))
        bytes = Array(json.utf8)
    }
    if (method == "POST" || method == "DELETE") && bytes.isEmpty { fields.append(("Content-Length", "0")) }
    client.request(method, target, headers: fields, body: bytes)
    return try client.readResponse(head: method == "HEAD")
}

extension TestClient.Response {
    /// The body as JSON.
    var json: JSONValue {
        get throws { try JSONParser.parse(body) }
    }

    /// The problem's `code`, or nil.
    var code: String? {
        (try? json)?["code"]?.stringValue
    }
}

/// The value at a path of object members and array indices (`"items"`, `0`, ...).
func value(_ json: JSONValue, _ path: Any...) -> JSONValue? {
    var current: JSONValue? = json
    for step in path {
        if let key = step as? String {
            current = current?[key]
        } else if let index = step as? Int, let array = current?.arrayValue, array.indices.contains(index) {
            current = array[index]
        } else {
            return nil
        }
    }
    return current
}

/// Runs `body` on a new thread; `join()` waits for it (bounded).
final class Background: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.start()
    }

    @discardableResult
    func join(seconds: Int = 30) -> Bool {
        done.wait(timeout: .now() + .seconds(seconds)) == .success
    }
}

/// A clock a test moves by hand; the service reads it from its own threads.
typealias TestClock = Shared<Timestamp>

extension Shared where Value == Timestamp {
    /// The time now, as the service's clock.
    var now: @Sendable () -> Timestamp { { self.withLock { $0 } } }
}

/// A value shared between threads.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The built `librarycli` beside the test bundle (or in .build/debug).
enum Binary {
    static let url: URL = {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = bundleFolder.appendingPathComponent("librarycli")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/librarycli")
    }()

    /// Runs the binary to the end with a clean environment.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        code: Int32, out: String, err: String
    ) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LIBRARY_NOW": "2026-11-29T14:40:00Z"].merging(environment) {
            $1
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }
}
