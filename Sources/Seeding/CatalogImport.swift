import Library

/// Imports books and clients into a library in one write transaction: all of it or none of it.
///
/// Every input file is read and validated before anything is written. Books go through Library's
/// `BookImporter` (matched by ISBN, else by title + author + year among books without one); clients are matched
/// by card number. Running the same import twice changes nothing the second time. A row whose key an earlier
/// row of the same import already had is skipped (and reported), so duplicates never insert twice.
///
/// For example:
///
///     let report = try CatalogImport.importFiles(["clients.csv", "books.csv"], into: store, now: now)
///     let preview = try CatalogImport.importFiles(["books.json"], into: store, now: now,
///                                                 options: ImportOptions(dryRun: true))
public enum CatalogImport {
    // MARK: - Entry points

    /// Reads, validates and imports files (`seed --file`, `import`). Each file is books or clients by its header
    /// or keys (a card number column means clients) unless `expecting` insists.
    ///
    /// Throws `InputFileError` (a file cannot be read), `DataError` (bad data; nothing was written),
    /// or a database error.
    ///
    ///     let report = try CatalogImport.importFiles(["books.csv"], into: store, now: now, expecting: .books)
    public static func importFiles(
        _ paths: [String], into store: LibraryStore, now: Timestamp, expecting kind: CatalogKind? = nil,
        options: ImportOptions = ImportOptions(), progress: ImportProgress? = nil
    ) throws -> ImportReport {
        let files = try paths.map { try CatalogFile.read(path: $0, expecting: kind) }
        return try importFiles(files, into: store, now: now, options: options, progress: progress)
    }

    /// Imports files already read and validated, in one transaction.
    ///
    ///     let report = try CatalogImport.importFiles([try CatalogFile.read(path: "books.csv")], into: store, now: now)
    public static func importFiles(
        _ files: [CatalogFile], into store: LibraryStore, now: Timestamp, options: ImportOptions = ImportOptions(),
        progress: ImportProgress? = nil
    ) throws -> ImportReport {
        try checkOneDefault(files)
        // Argon2id is slow: the PINs are hashed before the write transaction, not while holding the lock.
        let pinHashes = options.dryRun ? [:] : try hashPINs(files)
        return try importFiles(files, into: store, now: now, options: options, progress: progress, pinHashes: pinHashes)
    }

    /// The PINs of the files' clients, hashed (about 0.1 s each), by card number; the first row of a card wins, as
    /// in the import. Throws `AuthError.cannotHash` when the memory cannot be had.
    ///
    ///     let hashes = try CatalogImport.hashPINs([file])
    public static func hashPINs(_ files: [CatalogFile]) throws(AuthError) -> [String: PINHash] {
        var hashes: [String: PINHash] = [:]
        for file in files {
            for client in file.clients where hashes[client.cardNumber] == nil {
                if let pin = client.pin { hashes[client.cardNumber] = try PINHash(pin: pin) }
            }
        }
        return hashes
    }

    private static func importFiles(
        _ files: [CatalogFile], into store: LibraryStore, now: Timestamp, options: ImportOptions,
        progress: ImportProgress?, pinHashes: [String: PINHash]
    ) throws -> ImportReport {
        try checkOneDefault(files)
        let total = files.reduce(0) { $0 + $1.count }
        return try transaction(store, files: files.map(\.name), options: options) { report in
            for file in files {
                for warning in file.warnings { report.warn(warning) }
            }
            var ticker = ProgressTicker(total: total, interval: options.progressInterval, progress: progress)
            try importBooks(files, into: store, report: &report, ticker: &ticker)
            try importClients(files, into: store, now: now, pinHashes: pinHashes, report: &report, ticker: &ticker)
            ticker.finish()
        }
    }

    /// Seeds the built-in demo catalog and clients (`seed`), with the demo clients' PINs for those who have none.
    /// John Doe becomes the default client only when the database has none, so re-seeding never overrides a user's
    /// choice.
    ///
    ///     let report = try CatalogImport.seedDemo(into: store, now: now)
    public static func seedDemo(
        into store: LibraryStore, now: Timestamp, options: ImportOptions = ImportOptions(),
        progress: ImportProgress? = nil
    ) throws -> ImportReport {
        let pinHashes = options.dryRun ? [:] : try DemoData.pinHashes()
        return try importFiles(
            DemoData.files, into: store, now: now, options: options, progress: progress, pinHashes: pinHashes)
    }

    /// Handles a library's first use once, even when several processes start on a new database together: the check
    /// and the seeding run in one IMMEDIATE transaction and are marked done in `settings` (`first_use`), so the
    /// others wait and then find it done. Seeds the demo data when `seedDemo` is true (a new default library, or
    /// `init`); `init --empty` only marks it done. Returns the seeding's report, or nil when the first use was
    /// handled already (or nothing was seeded).
    ///
    ///     if let report = try CatalogImport.firstUse(of: store, now: now) { print(report.books) }
    public static func firstUse(of store: LibraryStore, now: Timestamp, seedDemo: Bool = true) throws
        -> ImportReport?
    {
        if seedDemo, try !store.isFirstUseDone() {
            _ = try DemoData.pinHashes()  // hashed now, before the first use takes the write lock
        }
        let report = try store.firstUse(now: now) { store in
            seedDemo ? try self.seedDemo(into: store, now: now) : nil
        }
        return report ?? nil
    }

    /// Adds `count` new synthetic books from `CatalogGenerator(seed:)` (`seed --generate N --random-seed S`),
    /// streamed through the importer without building the catalog in memory. Every run adds `count` books: their
    /// synthetic ISBNs are numbered after the highest one already in the library, so a second run, with the same
    /// seed or another, never matches (and never rewrites) the books of an earlier one. Into an empty library the
    /// same count and seed give the same books.
    ///
    /// Throws `LibraryError.invalidInput` when `count` is outside `0...CatalogGenerator.maxCount` or the synthetic
    /// ISBNs would run out.
    ///
    ///     let report = try CatalogImport.generate(count: 1_000_000, seed: 42, into: store)
    public static func generate(
        count: Int, seed: UInt64, into store: LibraryStore, options: ImportOptions = ImportOptions(),
        progress: ImportProgress? = nil
    ) throws -> ImportReport {
        guard (0...CatalogGenerator.maxCount).contains(count) else {
            throw LibraryError.invalidInput(
                "The number of books to generate must be between 0 and \(CatalogGenerator.maxCount), not \(count).")
        }
        return try transaction(store, files: [], options: options) { report in
            let first = try CatalogGenerator.nextNumber(
                after: store.highestISBN(startingWith: CatalogGenerator.isbnPrefix))
            guard count <= CatalogGenerator.maxCount - first else {
                throw LibraryError.invalidInput(
                    "This library already has \(first) synthetic books; at most "
                        + "\(CatalogGenerator.maxCount - first) more can be generated, not \(count).")
            }
            var ticker = ProgressTicker(total: count, interval: options.progressInterval, progress: progress)
            var generator = CatalogGenerator(seed: seed)
            let importer = try BookImporter(store: store)
            for number in first..<(first + count) {
                try importer.importBook(newBook(generator.book(number: number)))
                ticker.advance()
            }
            report.books = counts(try importer.finish())
            ticker.finish()
        }
    }

    // MARK: - Private

    /// Thrown out of the transaction to roll back a dry run while keeping its report.
    private struct DryRunRollback: Error {
        var report: ImportReport
    }

    private static func transaction(
        _ store: LibraryStore, files: [String], options: ImportOptions, _ body: (inout ImportReport) throws -> Void
    ) throws -> ImportReport {
        var report = ImportReport(files: files, dryRun: options.dryRun)
        do {
            try store.withBulkSettings {
                try store.write { _ in
                    // From the start on every attempt: PostgreSQL runs a transaction again after a deadlock.
                    report = ImportReport(files: files, dryRun: options.dryRun)
                    try body(&report)
                    if options.dryRun { throw DryRunRollback(report: report) }
                }
            }
        } catch let rollback as DryRunRollback {
            return rollback.report
        }
        return report
    }

    private static func importBooks(
        _ files: [CatalogFile], into store: LibraryStore, report: inout ImportReport, ticker: inout ProgressTicker
    ) throws {
        guard files.contains(where: { !$0.books.isEmpty }) else { return }
        let importer = try BookImporter(store: store)
        var seen: [BookKey: (file: String, line: Int)] = [:]
        for file in files {
            for (index, record) in file.books.enumerated() {
                defer { ticker.advance() }
                let line = file.lines[index]
                let key = BookKey(record)
                if let first = seen[key] {
                    report.books.skipped += 1
                    report.warn("\(file.name): line \(line) repeats \(first.file) line \(first.line) (\(key)); skipped")
                    continue
                }
                seen[key] = (file.name, line)
                do {
                    try importer.importBook(newBook(record))
                } catch let error as LibraryError {
                    throw DataError(file: file.name, line: line, reason: error.message)
                }
            }
        }
        let skipped = report.books.skipped
        report.books = counts(try importer.finish())
        report.books.skipped = skipped
    }

    private static func importClients(
        _ files: [CatalogFile], into store: LibraryStore, now: Timestamp, pinHashes: [String: PINHash],
        report: inout ImportReport, ticker: inout ProgressTicker
    ) throws {
        guard files.contains(where: { !$0.clients.isEmpty }) else { return }
        let importer = try ClientImporter(store: store, now: now)
        let existingDefault = try store.defaultClientID()
        var seen: [String: (file: String, line: Int)] = [:]
        for file in files {
            for (index, record) in file.clients.enumerated() {
                defer { ticker.advance() }
                let line = file.lines[index]
                if let first = seen[record.cardNumber] {
                    report.clients.skipped += 1
                    report.warn(
                        "\(file.name): line \(line) repeats card number \(record.cardNumber) of \(first.file) line "
                            + "\(first.line); skipped")
                    continue
                }
                seen[record.cardNumber] = (file.name, line)
                let id: Int
                do {
                    switch try importer.importClient(
                        name: record.name, cardNumber: record.cardNumber, loanLimit: record.loanLimit)
                    {
                    case .inserted(let new): id = new
                    case .updated(let existing), .unchanged(let existing): id = existing
                    }
                } catch let error as LibraryError {
                    throw DataError(file: file.name, line: line, reason: error.message)
                }
                // A PIN is set only for a client without one: one the client chose is never reset by an import.
                if let hash = pinHashes[record.cardNumber], try !store.hasPIN(clientID: id) {
                    try store.setPIN(clientID: id, hash: hash, now: now)
                }
                guard record.isDefault else { continue }
                if existingDefault == nil {
                    try store.setDefaultClient(id: id)
                    report.defaultClientCard = record.cardNumber
                } else if existingDefault != id {
                    report.warn(
                        "\(file.name): line \(line) marks \(record.name) as the default client, but the library "
                            + "already has one; kept it")
                }
            }
        }
        let skipped = report.clients.skipped
        report.clients = counts(importer.counts)
        report.clients.skipped = skipped
    }

    /// More than one client marked default across the files is bad data, found before anything is written.
    private static func checkOneDefault(_ files: [CatalogFile]) throws(DataError) {
        var first: (file: String, line: Int)?
        for file in files {
            for (index, client) in file.clients.enumerated() where client.isDefault {
                let line = file.lines[index]
                if let first {
                    throw DataError(
                        file: file.name, line: line, field: "default",
                        reason: "only one client can be the default, and \(first.file) line \(first.line) already is")
                }
                first = (file.name, line)
            }
        }
    }

    private static func newBook(_ record: BookRecord) -> NewBook {
        NewBook(
            title: record.title, author: record.author, year: record.year, pages: record.pages,
            description: record.description, isbn: record.isbn, status: record.status ?? .available)
    }

    private static func counts(_ counts: ImportCounts) -> ImportReport.Counts {
        ImportReport.Counts(inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged)
    }
}

/// What makes two rows of one import the same book: the ISBN, or title + author + year without one.
private enum BookKey: Hashable, CustomStringConvertible {
    case isbn(String)
    case identity(title: String, author: String, year: Int?)

    init(_ record: BookRecord) {
        if let isbn = record.isbn, !isbn.isEmpty {
            self = .isbn(isbn)
        } else {
            self = .identity(title: record.title, author: record.author, year: record.year)
        }
    }

    var description: String {
        switch self {
        case .isbn(let isbn): "ISBN \(isbn)"
        case .identity(let title, let author, let year):
            "\(title) by \(author.isEmpty ? "unknown" : author), \(year.map(String.init) ?? "no year")"
        }
    }
}

/// Calls the progress callback every `interval` rows and once at the end.
private struct ProgressTicker {
    let total: Int
    let interval: Int
    let progress: ImportProgress?
    var done = 0
    var reported = -1

    mutating func advance() {
        done += 1
        if done % interval == 0 { report() }
    }

    mutating func finish() {
        if reported != done { report() }
    }

    private mutating func report() {
        reported = done
        progress?(done, total)
    }
}
