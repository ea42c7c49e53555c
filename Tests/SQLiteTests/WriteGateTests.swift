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

    @Test(
        "behind a writer that waits for another process, a write fails as busy once the one timeout is over, not twice it"
    )
    func gateAndBusyShareOneTimeout() throws {
        let gate = WriteGate()
        _ = try open(gate)
        let path = directory.file("gate.db")
        // Another process's writer: a connection outside the gate holding the write lock.
        let other = try open(nil)
        try other.execute(script: "BEGIN IMMEDIATE")
        defer { try? other.execute(script: "ROLLBACK") }
        let timeout = 2_000
        let results = Locked<[Int: (busy: Bool, milliseconds: Double)]>([:])
        let first = DispatchSemaphore(value: 0)
        runOnThreads(2) { thread in
            guard let db = try? Self.open(path, gate, busyTimeoutMilliseconds: timeout) else { return }
            if thread == 1 { first.wait() } else { first.signal() }
            if thread == 1 { usleep(1_000_000) }  // the second comes half-way through the first's wait
            let start = Date()
            var busy = false
            do {
                try db.write { db in try db.execute("INSERT INTO t VALUES (?)", [thread]) }
            } catch let error as SQLiteError {
                busy = error.isBusy
            } catch {}
            results.withLock { $0[thread] = (busy, Date().timeIntervalSince(start) * 1_000) }
        }
        let both = results.withLock { $0 }
        #expect(both[0]?.busy == true && both[1]?.busy == true, "\(both)")
        // The second waited for the first at the gate (half the timeout), then only the other half in SQLite: it
        // fails after about the timeout (a 25% margin), where a full timeout after the gate's wait took 1.5 times it.
        #expect((both[1]?.milliseconds ?? 0) < Double(timeout) * 1.25, "\(both)")
        #expect(try open(nil).fetchOne("SELECT count(*) FROM t") { $0.int(0) } == 0)
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
