import Glibc
import HTTP

/// A value behind a pthread mutex (which ThreadSanitizer understands).
final class Protected<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}

/// Values collected from several threads.
final class Collected<Value: Sendable>: Sendable {
    private let values = Protected<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] { values.withLock { $0 } }

    /// Polls (bounded: up to `seconds`) until `condition` holds for the values; returns the values.
    @discardableResult
    func wait(seconds: Int = 10, until condition: ([Value]) -> Bool) -> [Value] {
        for _ in 0..<(seconds * 500) {
            let current = all
            if condition(current) { return current }
            usleep(2_000)
        }
        return all
    }
}

/// A one-shot latch: `open()` once, `wait()` until opened (bounded).
final class Gate: Sendable {
    private let opened = Protected(false)

    func open() {
        opened.withLock { $0 = true }
    }

    var isOpen: Bool { opened.withLock { $0 } }

    /// True when opened within `seconds`.
    @discardableResult
    func wait(seconds: Int = 10) -> Bool {
        for _ in 0..<(seconds * 500) {
            if isOpen { return true }
            usleep(2_000)
        }
        return false
    }
}

/// Polls `condition` up to `seconds`; true when it held.
func eventually(seconds: Int = 10, _ condition: () -> Bool) -> Bool {
    for _ in 0..<(seconds * 500) {
        if condition() { return true }
        usleep(2_000)
    }
    return false
}

/// A test configuration: 127.0.0.1, port 0, two threads, then `change`.
func testConfiguration(_ change: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
    change(&configuration)
    return configuration
}

/// Starts a server, runs `body`, and stops the server.
@discardableResult
func withServer<Result>(
    _ router: Router, middleware: [Middleware] = [], configuration: ServerConfiguration = testConfiguration(),
    _ body: (Server) throws -> Result
) throws -> Result {
    let server = try Server.start(router: router, middleware: middleware, configuration: configuration)
    defer { server.stop() }
    return try body(server)
}

/// Runs `body` on a new thread; `join()` waits for it (bounded).
final class Background: Sendable {
    private final class Work: Sendable {
        let body: @Sendable () -> Void
        let done = Gate()

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }

    private let work: Work

    init(_ body: @escaping @Sendable () -> Void) {
        work = Work(body)
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { raw in
                let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
                work.body()
                work.done.open()
                return nil
            }, Unmanaged.passRetained(work).toOpaque())
        pthread_detach(thread)
    }

    /// True when the body finished within `seconds`.
    @discardableResult
    func join(seconds: Int = 20) -> Bool {
        work.done.wait(seconds: seconds)
    }
}
