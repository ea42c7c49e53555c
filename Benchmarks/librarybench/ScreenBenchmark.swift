import Library
import LibraryScreen
import Sections
import Seeding

/// `screen`: the library screen's diff when one book is taken, with every book of the library on the screen.
enum ScreenBenchmark {
    static func run(_ options: Options) throws {
        let count = options.count ?? 100_000
        let runs = options.runs ?? 7
        print("screen: the library screen with all \(grouped(count)) books in library-books, before and after a take")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let now = Timestamp.systemNow()
        let store = try LibraryStore.open(at: directory.file("screen.sqlite"), now: now)
        _ = try CatalogImport.generate(count: count, seed: 1, into: store)
        let client = try store.addClient(name: "Bench Client", now: now)

        var before = Snapshot()
        let loadSeconds = try timed {
            before = LibraryScreen.snapshot(from: try screen(store, clientID: client.id, count: count, now: now))
        }
        let taken = count / 2 + 1
        try store.take(bookIDs: [taken], clientID: client.id, now: now)
        let after = LibraryScreen.snapshot(from: try screen(store, clientID: client.id, count: count, now: now))

        let oldItems = before.sections.flatMap(\.items)
        let newItems = after.sections.flatMap(\.items)
        let stats = try measure(
            runs: runs, warmups: 1,
            [
                Contender(name: "sections", run: { timed { _ = after.changes(from: before) } }),
                Contender(name: "baseline", run: { timed { _ = changedItems(old: oldItems, new: newItems) } }),
            ])
        printStats("load + snapshot, \(grouped(count)) books (1 run)", Stats(seconds: [loadSeconds]))
        printStats("Snapshot.changes(from:) after take \(taken)", stats[0])
        printStats("baseline: id hash map + item equality", stats[1])
        printRatio(
            "screen-diff", subject: stats[0].median, baseline: stats[1].median, target: nil,
            note: "(the baseline finds changed items only: no sections, paths or moves)")
        let changes = after.changes(from: before)
        print(
            "  changes: \(changes.itemInserts.map(\.id)) inserted, \(changes.itemUpdates.map(\.id)) updated,"
                + " \(changes.itemDeletes.count) deleted, \(changes.itemMoves.count) moved")
        guard changes.itemInserts.count == 1, changes.itemUpdates.count == 2, changes.itemDeletes.isEmpty,
            changes.itemMoves.isEmpty
        else {
            throw BenchError("a take should diff to one insert and two updates")
        }
    }

    /// The client's screen with every book: pages of at most 10,000 books (the most one page holds) joined into one.
    static func screen(_ store: LibraryStore, clientID: Int, count: Int, now: Timestamp) throws -> ClientScreen {
        let perPage = 10_000
        return try store.read { store in
            var screen = try store.clientScreen(clientID: clientID, page: 1, perPage: perPage, now: now)
            var page = 2
            while screen.library.entries.count < count {
                let more = try store.libraryPage(page: page, perPage: perPage, viewerID: clientID)
                guard !more.entries.isEmpty else { break }
                screen.library.entries += more.entries
                page += 1
            }
            screen.library.perPage = max(1, screen.library.entries.count)
            return screen
        }
    }

    /// The least any content-aware diff does: index the old items by id, then compare each new item with its old one.
    static func changedItems(old: [Item], new: [Item]) -> Int {
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (index, item) in old.enumerated() { oldIndex[item.id] = index }
        var changed = 0
        for item in new {
            if let index = oldIndex[item.id] {
                if old[index] != item { changed += 1 }
            } else {
                changed += 1
            }
        }
        return changed
    }
}
