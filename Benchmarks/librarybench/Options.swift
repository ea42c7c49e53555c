/// The command line: `librarybench [scenario] [--n N] [--runs R] [--url URL]`.
struct Options {
    /// The scenarios `all` runs (SQLite's: they need nothing but this machine).
    static let scenarios = ["import", "loans", "diff", "screen", "search"]
    /// The scenarios that need a PostgreSQL server (`--url`); run only when named.
    static let serverScenarios = ["pgloans"]
    static let usage = """
        usage: librarybench [all|import|loans|diff|screen|search] [--n N] [--runs R]
               librarybench pgloans --url URL [--n N] [--runs R]

          import   N generated books (default 1,000,000) into an empty database vs SQLite inserting the same rows
          loans    N take + return pairs (default 5,000) via LibraryStore vs raw C-API transactions
          diff     a snapshot diff of N items (default 100,000) vs CollectionDifference, and at N/10 and 10N
          screen   the library screen's diff after a take, N books (default 100,000) in library-books
          search   a two-word search, page 1, over N books (default 1,000,000) vs a bare FTS5 MATCH query
          all      every scenario above (the default)
          pgloans  N take + return pairs (default 2,000) via LibraryStore on PostgreSQL vs the same statements
                   through libpq's C API; a fresh database per run, made on the server of --url

          --n N      the size (small values make a smoke run of seconds)
          --runs R   measured runs after the warm-up (default 7; 3 for import at 500,000 books or more)
          --url URL  pgloans: a PostgreSQL URL (postgresql://user@/db?host=/socket/dir&port=5432) whose user may
                     create and drop databases; the benchmark's own databases are named librarybench_pgloans_*
        """

    var scenarios: [String] = scenarios
    var count: Int?
    var runs: Int?
    var url: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--n", "--runs":
                guard let text = rest.popFirst(), let value = Int(text.filter { $0 != "_" && $0 != "," }), value > 0
                else {
                    throw BenchError("\(argument) needs a positive number")
                }
                if argument == "--n" { count = value } else { runs = value }
            case "--url":
                guard let text = rest.popFirst(), !text.isEmpty else { throw BenchError("--url needs a URL") }
                url = text
            case "all":
                scenarios = Self.scenarios
            case "-h", "--help", "help":
                throw HelpRequested()
            default:
                guard Self.scenarios.contains(argument) || Self.serverScenarios.contains(argument) else {
                    throw BenchError("unknown argument '\(argument)'\n\(Self.usage)")
                }
                scenarios = [argument]
            }
        }
    }
}

/// `--help`: the usage goes to standard output and the exit status is 0.
struct HelpRequested: Error {}
