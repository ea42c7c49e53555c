import Foundation
import Library
import SQLite

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

/// A migrated library in a temporary file with a few books and two clients.
struct Fixture {
    let directory = TemporaryDirectory()
    let now = Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 40)!
    let store: LibraryStore
    let ann: Client
    let bob: Client

    var path: String { directory.file("library.db") }

    init(books: Int = 10, annLimit: Int = 5) throws {
        store = try LibraryStore.open(at: directory.file("library.db"), now: now)
        ann = try store.addClient(name: "Ann", loanLimit: annLimit, now: now)
        bob = try store.addClient(name: "Bob", now: now)
        if books > 0 {
            _ = try store.importBooks((1...books).map { NewBook(title: "Book \($0)", author: "Author \($0)") })
        }
    }

    /// Another connection to the same file (each thread needs its own).
    func openStore(busyTimeoutMilliseconds: Int = 30_000) throws -> LibraryStore {
        try LibraryStore.open(
            at: path, options: DatabaseOptions(busyTimeoutMilliseconds: busyTimeoutMilliseconds), now: now)
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
