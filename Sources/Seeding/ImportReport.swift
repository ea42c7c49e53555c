/// What an import did (or, for a dry run, would do): counts for books and clients and the files read.
///
/// For example:
///
///     let report = try CatalogImport.importFiles(["books.csv"], into: store, now: now)
///     print("\(report.books.inserted) added, \(report.books.unchanged) unchanged")
public struct ImportReport: Sendable, Hashable {
    /// Counts for one kind of record.
    ///
    ///     report.books.total  // inserted + updated + unchanged + skipped
    public struct Counts: Sendable, Hashable {
        /// New rows.
        public var inserted = 0
        /// Existing rows whose fields changed.
        public var updated = 0
        /// Existing rows already identical.
        public var unchanged = 0
        /// Rows of the input left out because an earlier row of the same import has the same key: a book's ISBN or
        /// a client's card number. (Books without an ISBN are never skipped: each row is a copy of its own.)
        public var skipped = 0

        /// Creates counts.
        ///
        ///     ImportReport.Counts(inserted: 49)
        public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
            self.inserted = inserted
            self.updated = updated
            self.unchanged = unchanged
            self.skipped = skipped
        }

        /// Every input row counted.
        ///
        ///     counts.total
        public var total: Int { inserted + updated + unchanged + skipped }
    }

    /// The input files (names as given; `DemoData` names its embedded files), in the order read.
    public var files: [String]
    /// Book counts.
    public var books = Counts()
    /// Client counts.
    public var clients = Counts()
    /// The card number of the client this import made the default, if it did.
    public var defaultClientCard: String?
    /// Notes for the user: skipped duplicate rows, a default flag left unapplied, values and columns left out. Every
    /// one, up to `ImportReport.maxWarnings` (a bound on memory); `omittedWarnings` counts those past it.
    public var warnings: [String] = []
    /// How many warnings were past `ImportReport.maxWarnings` and are not in `warnings` (0 almost always).
    public private(set) var omittedWarnings = 0
    /// True when nothing was written: the work was done and rolled back.
    public var dryRun = false

    /// How many warnings a report keeps, one by one: a bound on memory that a real import hardly reaches.
    public static let maxWarnings = 100_000

    /// Creates an empty report.
    ///
    ///     ImportReport(files: ["books.csv"])
    public init(files: [String], dryRun: Bool = false) {
        self.files = files
        self.dryRun = dryRun
    }

    // MARK: - Internal

    /// Counts `count` warnings not listed, as `warn` would once the list is full (it must be).
    mutating func warnOmitted(_ count: Int) {
        guard count > 0 else { return }
        precondition(warnings.count >= Self.maxWarnings, "warnings are omitted only after the list is full")
        omittedWarnings += count
    }

    mutating func warn(_ text: String) {
        if warnings.count < Self.maxWarnings {
            warnings.append(text)
        } else {
            omittedWarnings += 1
        }
    }
}

/// Options for an import.
///
///     ImportOptions(dryRun: true, progressInterval: 10_000)
public struct ImportOptions: Sendable, Hashable {
    /// Do all the work in the transaction, then roll it back: the report is exact and nothing changes.
    public var dryRun: Bool
    /// The progress callback is called after every this many rows (and after the last).
    public var progressInterval: Int

    /// Creates options.
    ///
    ///     ImportOptions(dryRun: true)
    public init(dryRun: Bool = false, progressInterval: Int = 1000) {
        precondition(progressInterval > 0, "the progress interval must be positive")
        self.dryRun = dryRun
        self.progressInterval = progressInterval
    }
}

/// Called with the rows done so far and the total, at most every `ImportOptions.progressInterval` rows.
///
///     let progress: ImportProgress = { done, total in bar.draw(done, of: total) }
public typealias ImportProgress = (_ done: Int, _ total: Int) -> Void
