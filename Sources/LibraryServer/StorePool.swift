import Library
import SQLite

/// Stores on the same database file, one per thread using it at a time: a request takes one, uses it on its
/// thread, and gives it back. There are never more than the threads that ask at once (the server's workers), so
/// each worker in effect has its own SQLite connection; in WAL mode readers never wait for the writer.
///
///     let pool = StorePool(path: "library.sqlite", now: { Timestamp.systemNow() })
///     let book = try pool.with { store in try store.book(id: 12) }
final class StorePool: Sendable {
    /// A store handed between threads, one at a time (a connection belongs to one thread while in use).
    private final class Lease: @unchecked Sendable {
        let store: LibraryStore
        init(_ store: LibraryStore) { self.store = store }
    }

    let path: String
    let options: DatabaseOptions
    private let now: @Sendable () -> Timestamp
    private let idle = Locked<[Lease]>([])
    private let maxIdle: Int

    init(
        path: String, options: DatabaseOptions = DatabaseOptions(), maxIdle: Int = 64,
        now: @escaping @Sendable () -> Timestamp
    ) {
        self.path = path
        self.options = options
        self.maxIdle = maxIdle
        self.now = now
    }

    /// Runs `body` with a store of its own for the time of the call.
    func with<T>(_ body: (LibraryStore) throws -> T) throws -> T {
        let lease = try idle.withLock { $0.popLast() } ?? Lease(open())
        do {
            let result = try body(lease.store)
            giveBack(lease)
            return result
        } catch {
            giveBack(lease)
            throw error
        }
    }

    /// A new store on the file (migrated and checked, as every librarycli process opens it).
    func open() throws -> LibraryStore {
        try LibraryStore.open(at: path, options: options, now: now())
    }

    /// Closes the idle connections.
    func drain() {
        idle.withLock { $0.removeAll() }
    }

    private func giveBack(_ lease: Lease) {
        idle.withLock { leases in
            if leases.count < maxIdle { leases.append(lease) }
        }
    }
}
