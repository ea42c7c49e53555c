import HTTP
import Library
import PostgreSQL
import SQLite

/// Stores on the same database file, one per thread using it at a time: a request takes one, uses it on its
/// thread, and gives it back. There are never more than the threads that ask at once (the server's workers), so
/// each worker in effect has its own SQLite connection; in WAL mode readers never wait for the writer. The stores
/// share a `WriteGate`, so the server's own writers queue for each other on a lock, not in SQLite's busy handler.
///
/// An SQLite file moved, renamed, deleted or replaced while the pool uses it (``refuseIfMoved()``) ends the pool's
/// work: from then on it lends no store and opens none, and says so once to `log`.
///
///     let pool = StorePool(path: "library.sqlite", now: { Timestamp.systemNow() })
///     let book = try pool.with { store in try store.book(id: 12) }
final class StorePool: Sendable {
    /// A store handed between threads, one at a time (a connection belongs to one thread while in use), with what
    /// its connection showed the last time ``StorePool/withGeneration(_:)`` looked.
    private final class Lease: @unchecked Sendable {
        let store: LibraryStore
        var seen: (dataVersion: Int, rowsWritten: Int)?
        /// The pool's count of broken connections found when this one was opened: a connection opened before the
        /// latest was found is not pooled again (the database most likely ended it too).
        let breaks: Int
        init(_ store: LibraryStore, breaks: Int) {
            self.store = store
            self.breaks = breaks
        }
    }

    /// The idle connections, and how many times a connection was found broken.
    private struct Idle {
        var leases: [Lease] = []
        var breaks = 0
    }

    let path: String
    let options: DatabaseOptions
    private let now: @Sendable () -> Timestamp
    private let idle = Locked(Idle())
    private let maxIdle: Int
    private let generation = Locked(0)
    private let log: (@Sendable (String) -> Void)?

    /// Whether the database file moved, and the connection that tells: an SQLite connection opened with the first
    /// store, never lent, only asked whether its file is still the one at `path`. (The pool's own connections may
    /// be busy on other threads; and one opened later would open whatever file `path` names by then.)
    private struct Witness {
        var database: Database?
        var moved = false
        /// When the file was last looked at: requests look at most every ``lookInterval`` (a write looks itself).
        var lookedAt: ContinuousClock.Instant?
    }

    /// How often requests look whether the file moved: a `stat` under one lock on every request cost a tenth of a
    /// screen's time under load, and a write looks for itself (before it commits) whenever it runs.
    static let lookInterval = Duration.milliseconds(100)
    private let witness = Locked(Witness())

    /// A pool of stores on `path` (opened when first asked for). `log` gets one line, once, when the SQLite file
    /// turns out to have moved (see ``refuseIfMoved()``).
    init(
        path: String, options: DatabaseOptions = DatabaseOptions(), maxIdle: Int = 64,
        log: (@Sendable (String) -> Void)? = nil, now: @escaping @Sendable () -> Timestamp
    ) {
        self.path = path
        var options = options
        if options.writeGate == nil { options.writeGate = WriteGate() }
        self.options = options
        self.maxIdle = maxIdle
        self.log = log
        self.now = now
    }

    /// Throws an `SQLiteError` that `isMoved` once the database file was moved, renamed, deleted or replaced since
    /// the pool first opened it (SQLite's `SQLITE_FCNTL_HAS_MOVED`: one `stat` of the path), or a store's write
    /// found so: what would be written from then on goes to a file no other program sees by that name, and what
    /// is read is no longer the library at `path`. It stays so (the server is restarted on the right file); the
    /// first time, `log` gets a line naming the path. Does nothing on PostgreSQL, or before the first store opened.
    ///
    /// Requests look at most every ``lookInterval``; `now` looks at once.
    ///
    ///     try pool.refuseIfMoved()  // before every request
    func refuseIfMoved(now: Bool = false) throws {
        let instant = ContinuousClock.now
        let (moved, first) = witness.withLock { witness -> (Bool, Bool) in
            if witness.moved { return (true, false) }
            guard let database = witness.database else { return (false, false) }
            if !now, let lookedAt = witness.lookedAt, instant - lookedAt < Self.lookInterval { return (false, false) }
            witness.lookedAt = instant
            guard database.hasMoved else { return (false, false) }
            witness.moved = true
            return (true, true)
        }
        if first { announceMove() }
        if moved { throw SQLiteError.moved(path: path) }
    }

    /// Notes that a store found the file moved (its write refused it), as ``refuseIfMoved()`` would have.
    private func noteMoved() {
        let first = witness.withLock { witness -> Bool in
            defer { witness.moved = true }
            return !witness.moved
        }
        if first { announceMove() }
    }

    private func announceMove() {
        log?(
            "Error: the database file \(path) was moved, renamed, deleted or replaced while the server ran; nothing "
                + "more is written to it, and every request is answered 503 database-moved: restart the server on "
                + "the library's file.")
    }

    /// Runs `body` with a store of its own for the time of the call.
    func with<T>(_ body: (LibraryStore) throws -> T) throws -> T {
        try lease { lease in try body(lease.store) }
    }

    /// Runs `body` with a store and the database's generation: a number that is the same for two calls only when
    /// nothing was committed to the database between the first call's start and the second call's start, by this
    /// server or any other process. So what `body` read under one generation may be answered again while the
    /// generation stays the same (see ``ScreenVersions/current(_:pool:now:)``).
    ///
    /// How: each connection's `PRAGMA data_version` moves when another connection commits, and its count of rows
    /// written moves when it writes itself. Before `body`, the store's connection is asked both; when either moved
    /// since this connection was last asked (or it is new), the generation goes up. A commit that ended before a
    /// call started is seen by that call's connection, or was seen by it, or by a connection asked since: each
    /// such sighting raised the generation before anything read after the commit could be tagged with it.
    func withGeneration<T>(_ body: (LibraryStore, Int) throws -> T) throws -> T {
        try lease { lease in
            let seen = (dataVersion: try lease.store.dataVersion(), rowsWritten: lease.store.rowsWritten)
            let moved = lease.seen.map { $0 != seen } ?? true
            lease.seen = seen
            let current = generation.withLock { value -> Int in
                if moved { value += 1 }
                return value
            }
            return try body(lease.store, current)
        }
    }

    /// A new store on the file (migrated and checked, as every librarycli process opens it).
    func open() throws -> LibraryStore {
        try refuseIfMoved(now: true)
        let store = try LibraryStore.open(at: path, options: options, now: now())
        if !LibraryDatabase.isPostgreSQLURL(path) {
            witness.withLock { witness in
                if witness.database == nil {
                    witness.database = try? Database(
                        path: path, options: DatabaseOptions(readOnly: true, switchesToWALOnOpen: false))
                }
            }
        }
        return store
    }

    /// Closes the idle connections.
    func drain() {
        idle.withLock { $0.leases.removeAll() }
    }

    /// Whether `error` says the store's connection is gone (a PostgreSQL server that restarted, went away or
    /// ended the connection): the store is of no more use, and a new one may work.
    static func isBroken(_ error: any Error) -> Bool {
        (error as? PostgreSQLError)?.isUnavailable == true
    }

    private func lease<T>(_ body: (Lease) throws -> T) throws -> T {
        try refuseIfMoved()
        let (pooled, breaks) = idle.withLock { idle in (idle.leases.popLast(), idle.breaks) }
        let lease = try pooled ?? Lease(open(), breaks: breaks)
        var broken = false
        defer {
            // A connection to a PostgreSQL server that went away is dropped, not pooled, and so are the idle ones
            // and those in use that were opened before it was found broken (the server most likely ended them
            // too): the next requests open new ones, so the service recovers when the server is back, after one
            // failed request rather than one per pooled connection.
            let dropped = idle.withLock { idle -> [Lease] in
                if broken {
                    idle.breaks += 1
                    defer { idle.leases.removeAll() }
                    return idle.leases
                }
                if lease.breaks == idle.breaks && idle.leases.count < maxIdle { idle.leases.append(lease) }
                return []
            }
            // Closed after the lock.
            _ = dropped
        }
        do {
            return try body(lease)
        } catch let error where Self.isBroken(error) {
            broken = true
            throw error
        } catch let error as SQLiteError where error.isMoved {
            noteMoved()
            throw error
        }
    }
}
