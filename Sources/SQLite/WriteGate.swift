import CSQLite
import Glibc

/// Lets one write transaction at a time start among the connections of one process that share it (through
/// `DatabaseOptions.writeGate`), so that they queue on a lock instead of in SQLite's busy handler, which sleeps
/// 1, 2, 5, 10 ... ms between tries and under load makes writers wait far longer than the write takes. Writers in
/// other processes still meet SQLite's lock and busy timeout as before. A writer that cannot pass the gate within
/// the busy timeout fails as a busy database does (`SQLITE_BUSY`).
///
/// ```swift
/// let gate = WriteGate()
/// let options = DatabaseOptions(writeGate: gate)
/// let a = try Database(path: path, options: options), b = try Database(path: path, options: options)
/// // a.write and b.write on two threads: one waits for the other on the gate, not in SQLite
/// ```
public final class WriteGate: @unchecked Sendable, Equatable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A gate no one holds.
    ///
    /// ```swift
    /// let gate = WriteGate()
    /// ```
    public init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the gate; throws a busy `SQLiteError` when the gate stays held for `milliseconds`.
    func pass<T>(waitingAtMost milliseconds: Int, _ body: () throws -> T) throws -> T {
        if pthread_mutex_trylock(mutex) != 0 {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            let nanoseconds = Int(deadline.tv_nsec) + max(0, milliseconds) % 1_000 * 1_000_000
            deadline.tv_sec += max(0, milliseconds) / 1_000 + nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            guard pthread_mutex_timedlock(mutex, &deadline) == 0 else {
                throw SQLiteError(
                    code: SQLITE_BUSY,
                    message: "another write of this process held the database for more than \(milliseconds) ms")
            }
        }
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Gates are equal when they are the same gate.
    public static func == (left: WriteGate, right: WriteGate) -> Bool { left === right }
}
