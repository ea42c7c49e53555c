import Library

/// Imports books and clients into a library in one write transaction: all of it or none of it.
///
/// Books files are streamed: each row is read, validated and imported in turn inside the transaction, so a file of
/// any length takes bounded memory, and a bad row anywhere rolls back everything (nothing is written). Clients files
/// are small and are read whole first (their PINs are hashed before the transaction). Books go through Library's
/// `BookImporter` (matched by ISBN, else by title + author + year among books without one); clients are matched
/// by card number. Running the same import twice changes nothing the second time. A row whose ISBN (or card number)
/// an earlier row of the same import already had is skipped (and reported), so duplicates never insert twice. Rows
/// without an ISBN that repeat a title + author + year are copies, as an export lists them: each is its own book,
/// matched to a distinct existing copy on the next import.
///
/// For example:
///
///     let report = try CatalogImport.importFiles(["clients.csv", "books.csv"], into: store, now: now)
///     let preview = try CatalogImport.importFiles(["books.json"], into: store, now: now,
///                                                 options: ImportOptions(dryRun: true))
public enum CatalogImport {
    // MARK: - Entry points

    /// Reads, validates and imports files (`seed --file`, `import`). Each file is books or clients by its header
    /// or keys (a card number column means clients) unless `expecting` insists. Every file is opened and its header
    /// read before the transaction; books are streamed through it (see `importFiles(_:into:now:options:progress:)`
    /// for sources).
    ///
    /// Throws `InputFileError` (a file cannot be read), `DataError` (bad data; nothing was written),
    /// or a database error.
    ///
    ///     let report = try CatalogImport.importFiles(["books.csv"], into: store, now: now, expecting: .books)
    public static func importFiles(
        _ paths: [String], into store: LibraryStore, now: Timestamp, expecting kind: CatalogKind? = nil,
        options: ImportOptions = ImportOptions(), progress: ImportProgress? = nil
    ) throws -> ImportReport {
        let sources = try paths.map { try CatalogSource.open(path: $0, expecting: kind) }
        return try importFiles(sources, into: store, now: now, options: options, progress: progress)
    }

    /// Imports opened files in one transaction: the clients files are read whole first, the books files streamed
    /// row by row inside the transaction (memory stays bounded whatever their length). A bad row anywhere throws
    /// `DataError` naming its file and line, and nothing is written.
    ///
    /// Progress: when `progress` is given, the total is counted first in one cheap pass over each books file that
    /// parses nothing (`CatalogSource.countRecords()`: rows outside quotes, non-blank JSON lines), so the callback
    /// gets rows done and rows in all; without `progress` nothing is counted.
    ///
    ///     let source = try CatalogSource.open(path: "books.csv", expecting: .books)
    ///     let report = try CatalogImport.importFiles([source], into: store, now: now)
    public static func importFiles(
        _ sources: [CatalogSource], into store: LibraryStore, now: Timestamp, options: ImportOptions = ImportOptions(),
        progress: ImportProgress? = nil
    ) throws -> ImportReport {
        let inputs: [Input] = try sources.map { source in
            source.kind == .clients ? .whole(try source.readAll()) : .stream(source)
        }
        let clients = inputs.compactMap(\.file)
        try checkOneDefault(clients)
        let pinHashes = options.dryRun ? [:] : try hashPINs(clients)
        var total = 0
        if progress != nil {
            for input in inputs {
                switch input {
                case .whole(let file): total += file.count
                case .stream(let source): total += try source.countRecords()
                }
            }
        }
        return try importInputs(
            inputs, total: total, into: store, now: now, options: options, progress: progress, pinHashes: pinHashes)
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
        return try importInputs(
            files.map { .whole($0) }, total: files.reduce(0) { $0 + $1.count }, into: store, now: now,
            options: options, progress: progress, pinHashes: pinHashes)
    }

    /// One input of an import: a file read whole, or a books file streamed.
    private enum Input {
        case whole(CatalogFile)
        case stream(CatalogSource)

        var name: String {
            switch self {
            case .whole(let file): file.name
            case .stream(let source): source.name
            }
        }

        var file: CatalogFile? {
            if case .whole(let file) = self { return file }
            return nil
        }
    }

    private static func importInputs(
        _ inputs: [Input], total: Int, into store: LibraryStore, now: Timestamp, options: ImportOptions,
        progress: ImportProgress?, pinHashes: [String: PINHash]
    ) throws -> ImportReport {
        let files = inputs.compactMap(\.file)
        var attempt = 0
        return try transaction(
            store, files: inputs.map(\.name), cacheKiB: LibraryStore.fileImportCacheKiB, options: options
        ) { report in
            attempt += 1
            if attempt > 1 {
                // The transaction runs again (PostgreSQL, after a deadlock): the streams start over.
                for case .stream(let source) in inputs { try source.restart() }
            }
            var ticker = ProgressTicker(total: total, interval: options.progressInterval, progress: progress)
            // The books' warnings by file, then by line: a row's own before its repeat's.
            var warnings = WarningLog()
            try importBooks(inputs, into: store, report: &report, warnings: &warnings, ticker: &ticker)
            warnings.replay(into: &report)
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
    /// `init`); `init --empty` only marks it done. Says which happened, so that a process that lost the race does
    /// not claim it made the library.
    ///
    ///     if case .seeded(let report) = try CatalogImport.firstUse(of: store, now: now) { print(report.books) }
    public static func firstUse(of store: LibraryStore, now: Timestamp, seedDemo: Bool = true) throws
        -> FirstUseOutcome
    {
        if seedDemo, try !store.isFirstUseDone() {
            _ = try DemoData.pinHashes()  // hashed now, before the first use takes the write lock
        }
        let report = try store.firstUse(now: now) { store in
            seedDemo ? try self.seedDemo(into: store, now: now) : nil
        }
        switch report {
        case .none: return .handledBefore
        case .some(.none): return .leftEmpty
        case .some(.some(let report)): return .seeded(report)
        }
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
        return try transaction(store, files: [], cacheKiB: LibraryStore.bulkCacheKiB, options: options) { report in
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

    /// Runs `body` in the import's one write transaction, with the bulk settings and a page cache of `cacheKiB`: a
    /// file import's is smaller (`LibraryStore.fileImportCacheKiB`), so that its memory stays bounded whatever the
    /// file's size.
    private static func transaction(
        _ store: LibraryStore, files: [String], cacheKiB: Int, options: ImportOptions,
        _ body: (inout ImportReport) throws -> Void
    ) throws -> ImportReport {
        var report = ImportReport(files: files, dryRun: options.dryRun)
        do {
            try store.withBulkSettings(cacheKiB: cacheKiB) {
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
        _ inputs: [Input], into store: LibraryStore, report: inout ImportReport, warnings: inout WarningLog,
        ticker: inout ProgressTicker
    ) throws {
        // Made at the first book: an import of clients alone never prepares (or, on PostgreSQL, locks) for books.
        var importer: BookImporter?
        var seen = SeenBooks()
        for (index, input) in inputs.enumerated() {
            func book(_ record: BookRecord, line: Int) throws {
                defer { ticker.advance() }
                // Only an ISBN makes two rows the same book: rows without one that share title, author and year are
                // copies (a library holds several of a book), each imported, and matched to distinct copies the
                // library has by `BookImporter`.
                if let isbn = record.isbn, !isbn.isEmpty {
                    let repeated: (file: Int, line: Int)?
                    do {
                        repeated = try seen.insert(isbn: isbn, file: index, line: line)
                    } catch {
                        throw DataError(file: input.name, line: line, reason: error.message)
                    }
                    if let first = repeated {
                        report.books.skipped += 1
                        warnings.add(
                            "\(input.name): line \(line) repeats \(inputs[first.file].name) line \(first.line) "
                                + "(ISBN \(isbn)); skipped")
                        return
                    }
                }
                do {
                    if importer == nil { importer = try BookImporter(store: store) }
                    try importer?.importBook(newBook(record), fields: record.fields)
                } catch let error as LibraryError {
                    throw DataError(file: input.name, line: line, reason: error.message)
                }
            }
            switch input {
            case .whole(let file):
                // Each warning before its record (those of a clients file, which has no books here, all at once).
                var next = 0
                func warn(upTo record: Int) {
                    while next < file.warnings.count,
                        next >= file.warningRecords.count || file.warningRecords[next] <= record
                    {
                        warnings.add(file.warnings[next])
                        next += 1
                    }
                }
                for (offset, record) in file.books.enumerated() {
                    warn(upTo: offset)
                    try book(record, line: file.lines[offset])
                }
                warn(upTo: Int.max)
            case .stream(let source):
                while let entry = try source.next(warn: { warnings.add($0) }) {
                    guard case .book(let record) = entry.record else { continue }
                    try book(record, line: entry.line)
                }
            }
        }
        guard let importer else { return }
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
                if let first = seen[CardNumber.key(record.cardNumber)] {
                    report.clients.skipped += 1
                    report.warn(
                        "\(file.name): line \(line) repeats card number \(record.cardNumber) of \(first.file) line "
                            + "\(first.line); skipped")
                    continue
                }
                seen[CardNumber.key(record.cardNumber)] = (file.name, line)
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
                        file: file.name, line: line, column: file.defaultColumn?.number,
                        field: file.defaultColumn?.name ?? file.defaultKeys[index] ?? "default",
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

/// An ISBN packed exactly into 64 bits, when it is at most 13 characters of `0`-`9` and `X` (an import's ISBNs are
/// 13 digits): base 11, with the length above; nil for anything else.
private func packedISBN(_ isbn: String) -> UInt64? {
    var value: UInt64 = 0
    var count: UInt64 = 0
    for byte in isbn.utf8 {
        count += 1
        guard count <= 13 else { return nil }
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value * 11 + UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "X"): value = value * 11 + 10
        default: return nil
        }
    }
    return count << 50 | value  // 11^13 < 2^46
}

/// The books of one import so far, by key, with where each was first seen: compact, and exact.
///
/// An ISBN packs into one 64-bit number. The n-th distinct ISBN keeps its number and its line in append-only chunked
/// arrays (12 bytes, never copied as they grow), its file is found from n (files are read in order), and an
/// open-addressing table of 32-bit entry numbers finds it again (about 6 bytes at 80% load, growing by half): about
/// 20 MB for a million ISBNs, where a `Dictionary` of keys and places would take 32 MB, and 48 MB while it doubles.
/// An ISBN that does not pack (only a `CatalogFile` made by hand has one) is kept as a string. Books without an ISBN
/// are not kept at all: each is a copy of its own.
private struct SeenBooks {
    private var isbns = PackedTable()
    private var lines = ChunkedArray<UInt32>()
    /// The first entry number of each file's ISBNs, by the file's index (files are read in order).
    private var fileStarts: [(file: Int, first: Int)] = []
    /// Lines past 2^32 - 1, by entry number (a file of more than 4 GB of one-byte lines).
    private var longLines: [Int: Int] = [:]
    private var others: [String: (file: Int, line: Int)] = [:]

    /// Records `isbn` as seen in file `file` at `line`; returns where it was seen first when it was already.
    /// Throws past 2^32 - 2 distinct ISBNs in one import.
    mutating func insert(isbn: String, file: Int, line: Int) throws(LibraryError) -> (file: Int, line: Int)? {
        guard let packed = packedISBN(isbn) else {
            if let first = others[isbn] { return first }
            others[isbn] = (file, line)
            return nil
        }
        if let entry = try isbns.insert(packed) {
            let first = lines[entry] == .max ? longLines[entry] ?? 0 : Int(lines[entry])
            return (fileOf(entry), first)
        }
        let entry = isbns.count - 1
        if fileStarts.last?.file != file { fileStarts.append((file, entry)) }
        if line < Int(UInt32.max) {
            lines.append(UInt32(line))
        } else {
            lines.append(.max)
            longLines[entry] = line
        }
        return nil
    }

    private func fileOf(_ entry: Int) -> Int {
        var low = 0
        var high = fileStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if fileStarts[middle].first <= entry { low = middle } else { high = middle - 1 }
        }
        return fileStarts[low].file
    }
}

/// Non-zero 64-bit keys numbered 0, 1, 2, ... in the order added: the keys in a chunked array, and a linear-probing
/// table of their numbers + 1 (0: empty).
private struct PackedTable {
    private var keys = ChunkedArray<UInt64>()
    private var slots: [UInt32] = Array(repeating: 0, count: 1024)

    /// How many keys were added.
    var count: Int { keys.count }

    /// Adds `key` (numbered `count`) and returns nil, or returns the number it already has.
    mutating func insert(_ key: UInt64) throws(LibraryError) -> Int? {
        var slot = Self.slot(of: key, capacity: slots.count)
        while slots[slot] != 0 {
            let entry = Int(slots[slot]) - 1
            if keys[entry] == key { return entry }
            slot = slot + 1 == slots.count ? 0 : slot + 1
        }
        guard keys.count < Int(UInt32.max) - 1 else {
            throw LibraryError.invalidInput("one import can hold at most \(UInt32.max - 2) distinct ISBNs")
        }
        keys.append(key)
        slots[slot] = UInt32(keys.count)
        if keys.count * 5 > slots.count * 4 { grow() }
        return nil
    }

    /// The key's first slot: a multiplicative hash mapped onto any capacity (not only powers of two).
    private static func slot(of key: UInt64, capacity: Int) -> Int {
        let hash = key &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: (hash ^ hash >> 29).multipliedFullWidth(by: UInt64(capacity)).high)
    }

    private mutating func grow() {
        let capacity = slots.count + slots.count / 2
        var newSlots = [UInt32](repeating: 0, count: capacity)
        for number in slots where number != 0 {
            var slot = Self.slot(of: keys[Int(number) - 1], capacity: capacity)
            while newSlots[slot] != 0 { slot = slot + 1 == capacity ? 0 : slot + 1 }
            newSlots[slot] = number
        }
        slots = newSlots
    }
}

/// An append-only array in chunks of 65,536 elements, so growing it never copies (nor briefly doubles) it.
private struct ChunkedArray<Element: FixedWidthInteger> {
    private var chunks: [[Element]] = []
    private(set) var count = 0

    mutating func append(_ element: Element) {
        if count & 0xFFFF == 0 { chunks.append(Array(unsafeUninitializedCapacity: 1 << 16) { _, made in made = 0 }) }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    subscript(index: Int) -> Element {
        chunks[index >> 16][index & 0xFFFF]
    }
}

/// Warnings kept in order for a report, the first `ImportReport.maxWarnings` as text and the rest only counted
/// (the report lists no more than that).
private struct WarningLog {
    private var texts: [String] = []
    private var omitted = 0

    mutating func add(_ text: String) {
        if texts.count < ImportReport.maxWarnings { texts.append(text) } else { omitted += 1 }
    }

    /// Adds the warnings to `report`, as if each had been added there.
    func replay(into report: inout ImportReport) {
        for text in texts { report.warn(text) }
        report.warnOmitted(omitted)
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
