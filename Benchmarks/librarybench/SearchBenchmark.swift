import Library
import Seeding

/// `search`: a two-word search, page 1, through the store (what `list --search` runs) vs a bare FTS5 MATCH of the
/// same words written here, on the same file.
enum SearchBenchmark {
    /// Two words of the generated catalog: a family name (author column) and a noun (titles and descriptions).
    static let words = ["tanaka", "lantern"]
    /// Queries per measured run, so that one run is long enough to time.
    static let queriesPerRun = 20

    static func run(_ options: Options) throws {
        let count = options.count ?? 1_000_000
        let runs = options.runs ?? 7
        print("search: \"\(words.joined(separator: " "))\", page 1 of 20, over \(grouped(count)) generated books")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let now = Timestamp.systemNow()
        let path = directory.file("search.sqlite")
        let store = try LibraryStore.open(at: path, now: now)
        _ = try CatalogImport.generate(count: count, seed: 1, into: store)
        let client = try store.addClient(name: "Bench Client", now: now)
        let raw = try RawDatabase(path: path)
        // The bare query: the words folded as the store folds them, each an FTS5 prefix string, ranked by FTS5.
        let expression = words.map { "\"\(SearchFolding.fold($0))\"*" }.joined(separator: " ")
        let bare = try raw.prepare("SELECT rowid FROM book_search WHERE book_search MATCH ? ORDER BY rank LIMIT 20")

        let page = try store.libraryPage(
            page: 1, perPage: 20, viewerID: client.id, search: words.joined(separator: " "))
        bare.bind(1, expression)
        var bareIDs: [Int] = []
        while try bare.step() { bareIDs.append(bare.column(0)) }
        bare.reset()
        print("  \(grouped(page.totalCount)) books match; page 1 holds \(page.entries.count)")
        guard page.entries.count == bareIDs.count else {
            throw BenchError("the store found \(page.entries.count) books on page 1, the bare query \(bareIDs.count)")
        }

        let stats = try measure(
            runs: runs, warmups: 1,
            [
                Contender(
                    name: "library",
                    run: {
                        try timed {
                            for _ in 0..<queriesPerRun {
                                _ = try store.libraryPage(
                                    page: 1, perPage: 20, viewerID: client.id, search: words.joined(separator: " "))
                            }
                        }
                    }),
                Contender(
                    name: "baseline",
                    run: {
                        try timed {
                            for _ in 0..<queriesPerRun {
                                bare.bind(1, expression)
                                while try bare.step() {}
                                bare.reset()
                            }
                        }
                    }),
            ])
        let perQuery = { (stats: Stats) in Stats(seconds: stats.seconds.map { $0 / Double(queriesPerRun) }) }
        printStats("store.libraryPage(search:), page 1 (per query)", perQuery(stats[0]))
        printStats("baseline: bare MATCH ... ORDER BY rank LIMIT 20", perQuery(stats[1]))
        printRatio(
            "search", subject: stats[0].median, baseline: stats[1].median, target: nil,
            note: "(the store also counts the matches, breaks ties by title and reads each book and its loan)")
    }
}
