import Foundation
import Library
import SQLite
import StoreTestSupport

/// A fresh directory per test, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "library-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A migrated library with a few books and two clients: in a temporary SQLite file, or (`.postgresql`) in a fresh
/// PostgreSQL database cloned from a migrated template (see `PostgreSQLTestDatabase`).
struct Fixture {
    let kind: StoreKind
    let now = Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 40)!
    let store: LibraryStore
    let ann: Client
    let bob: Client
    let directory = TemporaryDirectory()
    /// The PostgreSQL database (nil for SQLite). Declared after the store, so the store's connection is closed first
    /// and the database can be dropped when the fixture goes.
    let postgreSQL: PostgreSQLTestDatabase?

    /// The SQLite file (meaningful for SQLite only).
    var path: String { directory.file("library.db") }

    /// Where the library is: the SQLite file's path or the PostgreSQL database's URL, as `LibraryStore.open` takes
    /// either.
    var location: String { postgreSQL?.url ?? path }

    init(kind: StoreKind = .sqlite, books: Int = 10, annLimit: Int = 5) throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            postgreSQL = nil
            store = try LibraryStore.open(at: directory.file("library.db"), now: now)
        case .postgresql:
            let database = try PostgreSQLTestDatabase()
            postgreSQL = database
            store = try LibraryStore.open(at: database.url, now: now)
        }
        precondition(store.dialect.rawValue == kind.rawValue, "a \(kind) fixture on \(store.dialect)")
        ann = try store.addClient(name: "Ann", loanLimit: annLimit, now: now)
        bob = try store.addClient(name: "Bob", now: now)
        if books > 0 {
            _ = try store.importBooks((1...books).map { NewBook(title: "Book \($0)", author: "Author \($0)") })
        }
    }

    /// Another connection to the same library (each thread needs its own); the busy timeout is SQLite's.
    func openStore(busyTimeoutMilliseconds: Int = 30_000) throws -> LibraryStore {
        try LibraryStore.open(
            at: location, options: DatabaseOptions(busyTimeoutMilliseconds: busyTimeoutMilliseconds), now: now)
    }
}

/// Runs `body` on `count` threads at once and waits for all of them.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            body(index)
            group.leave()
        }
    }
    group.wait()
}
