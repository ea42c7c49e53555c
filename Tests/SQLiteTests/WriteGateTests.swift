import CSQLite
import Foundation
import Testing

@testable import SQLite

@Suite struct WriteGateTests {
    let directory = TemporaryDirectory()

    func open(_ gate: WriteGate?, busyTimeoutMilliseconds: Int = 5_000) throws -> Database {
        try Self.open(directory.file("gate.db"), gate, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    static func open(_ path: String, _ gate: WriteGate?, busyTimeoutMilliseconds: Int = 5_000) throws -> Database {
        let options = DatabaseOptions(busyTimeoutMilliseconds: busyTimeoutMilliseconds, writeGate: gate)
        let db = try Database(path: path, options: options)
        try db.execute(script: "CREATE TABLE IF NOT EXISTS t (x INTEGER) STRICT;")
        return db
    }

    @Test("connections sharing a gate write from 8 threads at once: every write commits, none is busy")
    func writersQueueOnTheGate() throws {
        let gate = WriteGate()
        _ = try open(gate)
        let failures = Locked<[String]>([])
        let path = directory.file("gate.db")
        runOnThreads(8) { thread in
            do {
                let db = try Self.open(path, gate, busyTimeoutMilliseconds: 2_000)
                for row in 0..<50 {
                    try db.write { db in try db.execute("INSERT INTO t VALUES (?)", [thread * 100 + row]) }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try open(nil).fetchOne("SELECT count(*) FROM t") { $0.int(0) } == 400)
    }

    @Test("a writer that waits on the gate past the busy timeout fails as busy, and nothing is written")
    func gateTimesOutAsBusy() throws {
        let gate = WriteGate()
        _ = try open(gate)
        let path = directory.file("gate.db")
        let waiter = try open(gate, busyTimeoutMilliseconds: 100)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let holder = try? Self.open(path, gate)
            try? holder?.write { db in
                try db.execute("INSERT INTO t VALUES (1)")
                started.signal()
                release.wait()
            }
            done.signal()
        }
        thread.start()
        started.wait()
        var caught: SQLiteError?
        do {
            try waiter.write { db in try db.execute("INSERT INTO t VALUES (2)") }
        } catch let error as SQLiteError {
            caught = error
        }
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(caught?.isBusy == true)
        #expect(caught?.message.contains("another write of this process") == true)
        #expect(try open(nil).fetchAll("SELECT x FROM t ORDER BY x") { $0.int(0) } == [1])
    }

    @Test("totalChangedRowCount moves with this connection's writes only")
    func totalChangedRowCount() throws {
        let db = try open(nil)
        let other = try open(nil)
        let before = db.totalChangedRowCount
        try other.write { db in try db.execute("INSERT INTO t VALUES (1)") }
        #expect(db.totalChangedRowCount == before)
        try db.write { db in try db.execute("INSERT INTO t VALUES (2), (3)") }
        #expect(db.totalChangedRowCount == before + 2)
    }
}

/// A value shared between threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
