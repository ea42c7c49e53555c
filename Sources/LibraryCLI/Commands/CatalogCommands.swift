import ArgumentParsing
import Formats
import Library
import Rendering
import Seeding

#if canImport(Glibc)
    import Glibc
#endif

/// `seed`, `import` and `export`: catalogs in and out.
enum CatalogCommands {
    static func seed(_ context: CommandContext) throws -> ExitCode {
        let parsed = context.parsed
        let files = parsed.strings("file")
        if files.contains("") {
            throw UsageError(.invalidValue("", for: "--file <path>", expected: "a file path"), commandPath: parsed.path)
        }
        let count = try parsed.integer("generate", in: 0...CatalogGenerator.maxCount)
        let seed = try parsed.integer("random-seed", in: 0...Int.max)
        if count != nil, !files.isEmpty {
            throw UsageError(.conflictingOptions("--generate", "--file"), commandPath: parsed.path)
        }
        if seed != nil, count == nil {
            throw UsageError(.missingArgument("--generate <n>"), commandPath: parsed.path)
        }
        if files.count(where: { $0 == standardStream }) > 1 {
            throw UsageError(
                .invalidValue("-", for: "--file <path>", expected: "standard input (-) given once"),
                commandPath: parsed.path)
        }
        // The files opened (and their headers checked) before the database: a missing or bad file creates nothing.
        let sources = try files.map { try openSource($0, context: context) }
        // LIBRARY_NOW is read only when clients are added (and record when): the demo's, or a clients file's.
        // Synthetic books and books files record no time.
        let addsClients = count == nil && (files.isEmpty || sources.contains { $0.kind == .clients })
        let now = addsClients ? try context.now : context.recordingTime
        // The demo catalog fills a new database; files and synthetic books come with the note saying how to seed it.
        let store = try context.openStore(count == nil && files.isEmpty ? .fills : .writes)
        let progress = ProgressBar(context: context)
        let report = try progress.drawing {
            try context.withDatabase {
                if let count {
                    return try CatalogImport.generate(
                        count: count, seed: UInt64(seed ?? 1), into: store, options: progress.options,
                        progress: progress.callback)
                } else if !sources.isEmpty {
                    return try CatalogImport.importFiles(
                        sources, into: store, now: now, options: progress.options, progress: progress.callback)
                } else {
                    return try CatalogImport.seedDemo(
                        into: store, now: now, options: progress.options, progress: progress.callback)
                }
            }
        }
        // Files that all hold clients report clients, even when they have no rows.
        let clientsOnly = !sources.isEmpty && sources.allSatisfy { $0.kind == .clients }
        print(report, clientsOnly: clientsOnly, context: context)
        // The import commits in its own transaction (Seeding's), before its report: say that it was kept.
        try context.checkOutput(afterCommit: "the seed was committed all the same; only its report was lost.")
        return .success
    }

    static func importFile(_ context: CommandContext) throws -> ExitCode {
        let path = context.parsed.argument("path") ?? ""
        guard !path.isEmpty else {
            throw UsageError(
                .invalidValue("", for: "<path>", expected: "a file path"), commandPath: context.parsed.path)
        }
        var options = ImportOptions()
        options.dryRun = context.parsed.flag("dry-run")
        // Open the file and check its header before touching the database; its rows are then streamed through one
        // transaction, so a bad row anywhere changes nothing.
        let source = try openSource(path, expecting: .books, context: context)
        let now = context.recordingTime  // a books file records no time
        let store = try context.openStore(options.dryRun ? .reads : .writes)
        let progress = ProgressBar(context: context)
        options.progressInterval = progress.options.progressInterval
        let report = try progress.drawing {
            try context.withDatabase {
                try CatalogImport.importFiles(
                    [source], into: store, now: now, options: options, progress: progress.callback)
            }
        }
        print(report, context: context)
        if !options.dryRun {
            try context.checkOutput(afterCommit: "the import was committed all the same; only its report was lost.")
        }
        return .success
    }

    static func export(_ context: CommandContext) throws -> ExitCode {
        var output = context.parsed.string("output")
        if output?.isEmpty == true {
            throw UsageError(
                .invalidValue("", for: "--output <path>", expected: "a file path"), commandPath: context.parsed.path)
        }
        if output == standardStream { output = nil }  // `-o -` is standard output, as leaving it out is
        // `--json` (before or after the command) is `--format json`, as for every command.
        let format: ExportFormat
        if context.options.format == .json {
            format = .json
        } else if let name = context.parsed.string("format") {
            format = ExportFormat(rawValue: name) ?? .csv
        } else if let output, output.lowercased().hasSuffix(".json") {
            format = .json
        } else {
            format = .csv
        }
        if let output {
            // Writing the catalog over the database it is read from would destroy the library.
            let database = context.options.database.path
            for file in [database, database + "-wal", database + "-shm"]
            where !context.options.database.isPostgreSQL && isSameFile(output, file) {
                throw Failure(
                    message: "--output '\(output)' is the library's database file; choose another file.", code: .usage)
            }
        }
        let store = try context.openStore(.reads)
        var terminalSafe = TerminalSafeBytes()
        let count = try context.withDatabase {
            if let output {
                return try CatalogExport.export(from: store, format: format, toFile: output)
            }
            // Standard output goes through the console, which checks every write; after a failed one (a full disk,
            // or the reader of a pipe gone) the export stops, and the end of the run reports it. On a terminal, the
            // controls of text stored with them are replaced, so they cannot act on it.
            let toTerminal = context.console.isOutputTerminal
            let count = try CatalogExport.export(from: store, format: format) { bytes in
                context.console.out(toTerminal ? terminalSafe.cleaned(bytes) : bytes)
                if let error = context.console.outputError { throw error }
            }
            context.console.out(terminalSafe.finish())
            return count
        }
        if let output {
            context.note("Exported \(count) \(count == 1 ? "book" : "books") to \(output).")
        } else if terminalSafe.replaced > 0 {
            let controls =
                terminalSafe.replaced == 1 ? "1 control character" : "\(terminalSafe.replaced) control characters"
            context.note(
                "\(controls) stored in the catalog showed as \u{FFFD} on the terminal; "
                    + "export to a file (-o FILE) or a pipe to keep them as stored.")
        }
        return .success
    }

    // MARK: - Private

    /// The path that means standard input (`import -`, `seed --file -`) or standard output (`export -o -`).
    static let standardStream = "-"

    /// Opens an input file; `-` is standard input, read whole (up to `InputFile.defaultLimit`) when it is a pipe, and
    /// refused at a terminal.
    private static func openSource(
        _ path: String, expecting kind: CatalogKind? = nil, context: CommandContext
    ) throws -> CatalogSource {
        guard path == standardStream else { return try CatalogSource.open(path: path, expecting: kind) }
        let name = "standard input"
        if context.console.isInputTerminal {
            throw InputFileError(
                path: name, reason: .unreadable("it is a terminal; pipe or redirect a file into it (< books.csv)"))
        }
        return try CatalogSource.open(path: "/dev/stdin", name: name, expecting: kind)
    }

    /// Whether two paths name one existing file (the same device and inode), however they are spelled.
    private static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Prints the report: in text, a line for books and one for clients when the import met any; with neither, the
    /// books' line, or the clients' one when `clientsOnly` (every file held clients).
    private static func print(_ report: ImportReport, clientsOnly: Bool = false, context: CommandContext) {
        switch context.options.format {
        case .json:
            func counts(_ counts: ImportReport.Counts) -> JSONValue {
                [
                    "inserted": .int(counts.inserted), "updated": .int(counts.updated),
                    "unchanged": .int(counts.unchanged), "skipped": .int(counts.skipped),
                ]
            }
            let document: JSONValue = .object(members: [
                ("version", 1), ("dryRun", .bool(report.dryRun)), ("files", .array(report.files.map { .string($0) })),
                ("books", counts(report.books)), ("clients", counts(report.clients)),
                ("defaultClientCard", .init(optional: report.defaultClientCard)),
                ("warnings", .array(report.warnings.map { .string($0) })),
                ("omittedWarnings", .int(report.omittedWarnings)),
            ])
            context.console.out(document.serialized() + "\n")
        case .text:
            var lines: [String] = []
            let prefix = report.dryRun ? "Dry run, nothing was changed. Would have: " : ""
            let neither = report.books.total == 0 && report.clients.total == 0
            if report.books.total > 0 || (neither && !clientsOnly) {
                lines.append(prefix + "books: " + describe(report.books))
            }
            if report.clients.total > 0 || (neither && clientsOnly) {
                lines.append(prefix + "clients: " + describe(report.clients))
            }
            if let card = report.defaultClientCard {
                lines.append("The client with card \(card) is now the default client.")
            }
            for line in lines { context.say(line) }
            for warning in report.warnings.prefix(shownWarnings) { context.note("warning: \(warning)") }
            let more = report.warnings.count + report.omittedWarnings - shownWarnings
            if more > 0 {
                let listed = report.omittedWarnings == 0 ? "them all" : "the first \(ImportReport.maxWarnings)"
                let warnings = more == 1 ? "warning" : "warnings"
                context.note("warning: ... and \(more) more \(warnings); --json lists \(listed)")
            }
        }
    }

    /// How many of an import's warnings its text report lists; `--json` has them all.
    static let shownWarnings = 20

    static func describe(_ counts: ImportReport.Counts) -> String {
        "\(counts.inserted) inserted, \(counts.updated) updated, \(counts.unchanged) unchanged, "
            + "\(counts.skipped) skipped"
    }
}

/// A progress bar on standard error, drawn only on a terminal and only for imports big enough to take a moment.
struct ProgressBar {
    let context: CommandContext
    let isShown: Bool

    init(context: CommandContext) {
        self.context = context
        isShown = context.console.isErrorTerminal && !context.options.isQuiet
    }

    var options: ImportOptions { ImportOptions(dryRun: false, progressInterval: 5_000) }

    var callback: ImportProgress? {
        guard isShown else { return nil }
        let console = context.console
        let width = context.options.width
        return { done, total in
            guard total >= 20_000 else { return }
            console.err("\r" + Self.line(done: done, total: total, width: width))
        }
    }

    /// The bar's line for a terminal `width` columns wide: at most `width - 1` of them (a line filling the last
    /// column wraps on some terminals, and each redraw would leave a line behind): up to 30 cells of bar, then the
    /// counts; the counts alone when there is no room for 5 cells of bar.
    ///
    ///     ProgressBar.line(done: 10_000, total: 20_000, width: 30)  // "██████······ 10000/20000 rows"
    static func line(done: Int, total: Int, width: Int) -> String {
        let room = max(1, width - 1)
        let counts = "\(done)/\(total) rows"
        let barWidth = min(30, room - counts.count - 1)
        guard barWidth >= 5 else { return String(counts.prefix(room)) }
        let filled = total > 0 ? min(barWidth, done * barWidth / total) : barWidth
        return String(repeating: "█", count: filled) + String(repeating: "·", count: barWidth - filled) + " " + counts
    }

    /// Runs `body` (the import that draws the bar) and clears the bar's line when it ends, whether it returns or
    /// throws: the report, or the error's message, then starts at the line's beginning.
    ///
    ///     let report = try progress.drawing { try CatalogImport.importFiles(...) }
    func drawing<T>(_ body: () throws -> T) rethrows -> T {
        defer { finish() }
        return try body()
    }

    /// Clears the bar's line (on a terminal).
    func finish() {
        guard isShown else { return }
        context.console.err("\r\u{1B}[K")
    }
}

/// Input-file errors: bad data (65) or a missing or unreadable file (66); an export that cannot be written (74).
struct InputFailure {
    var message: String
    var code: ExitCode

    init?(_ error: any Error) {
        switch error {
        case let error as DataError:
            message = "\(error.description). Nothing was imported."
            code = .dataError
        case let error as InputFileError:
            message = error.description
            code = .noInput
        case let error as OutputFileError:
            message = error.description
            code = .ioError
        default:
            return nil
        }
    }
}
