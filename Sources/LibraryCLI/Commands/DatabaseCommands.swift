import ArgumentParsing
import Formats
import Glibc
import Library
import PostgreSQL
import Rendering
import SQLite
import Seeding

/// `migrate` and `init`.
enum DatabaseCommands {
    static func migrate(_ context: CommandContext) throws -> ExitCode {
        if context.parsed.flag("status") && context.parsed.flag("check") {
            throw UsageError(.conflictingOptions("--status", "--check"), commandPath: context.parsed.path)
        }
        if context.options.database.isPostgreSQL { return try migratePostgreSQL(context) }
        let (database, existed) = try context.openDatabaseWithoutMigrating(
            context.parsed.flag("status") ? .reads : .writes)
        // The default database gets the demo catalog on its first use by any other command: nothing to advise.
        if !existed && !context.options.database.isDefault { context.noteCreated(.writes) }
        let migrator = Migrations.migrator
        do {
            let status = try context.withDatabase { try migrator.status(database) }
            if context.parsed.flag("status") {
                try context.withDatabase { try migrator.verifySchema(database) }
                print(applied: status.applied, pending: status.pending, appliedNow: [], context: context)
                return .success
            }
            let applied = try context.withDatabase {
                try migrator.migrate(database, appliedAt: context.recordingTime.iso8601)
            }
            try context.withDatabase { try migrator.verifySchema(database) }
            let checked =
                context.parsed.flag("check")
                ? try checkLibrary(LibraryStore(database: database), context: context) : nil
            print(
                applied: status.applied + applied, pending: [], appliedNow: applied, checkedBooks: checked,
                context: context)
            if !applied.isEmpty { try context.checkOutput(afterCommit: Self.migratedAnyway) }
            return .success
        } catch let error as MigrationError {
            throw Failure(migration: error, path: context.options.database.path)
        }
    }

    /// What `migrate` says when standard output fails after migrations were applied (each commits on its own).
    static let migratedAnyway = "the migrations were applied all the same; only their report was lost."

    /// `migrate` on PostgreSQL: the same report; each migration in its own transaction under an advisory lock.
    private static func migratePostgreSQL(_ context: CommandContext) throws -> ExitCode {
        let name = context.options.database.displayName
        do {
            let connection = try PostgreSQLConnection(url: context.options.database.path)
            let migrator = PostgreSQLMigrator()
            let status = try migrator.status(connection)
            if context.parsed.flag("status") {
                print(applied: status.applied, pending: status.pending, appliedNow: [], context: context)
                return .success
            }
            let applied = try migrator.migrate(connection, appliedAt: context.recordingTime.iso8601)
            let checked =
                context.parsed.flag("check")
                ? try checkLibrary(LibraryStore(postgresql: connection), context: context) : nil
            print(
                applied: status.applied + applied, pending: [], appliedNow: applied, checkedBooks: checked,
                context: context)
            if !applied.isEmpty { try context.checkOutput(afterCommit: Self.migratedAnyway) }
            return .success
        } catch let error as PostgreSQLError {
            throw Failure(postgresql: error, name: name)
        } catch let error as MigrationError {
            throw Failure(migration: error, path: name)
        }
    }

    /// `migrate --check`: the kept book count and the rows that name other rows (`LibraryStore.dataProblems`), then
    /// the search index against the books; returns how many books there are, or throws (exit 73) naming every
    /// problem found. The check changes nothing (a repair is another tool's, or a backup's, to make).
    private static func checkLibrary(_ store: LibraryStore, context: CommandContext) throws -> Int {
        let (problems, count) = try context.withDatabase {
            (try store.dataProblems() + [try store.searchIndexProblem()].compactMap { $0 }, try store.bookCount())
        }
        guard problems.isEmpty else {
            throw Failure(
                message: "'\(context.options.database.displayName)' is damaged: "
                    + "\(problems.joined(separator: "; ")). The check changed nothing.",
                code: .cannotWrite)
        }
        return count
    }

    static func initialize(_ context: CommandContext) throws -> ExitCode {
        let path = context.options.database.displayName
        let existed: Bool
        var opened: LibraryStore?
        if context.options.database.isPostgreSQL {
            let (store, held) = try context.openPostgreSQLStore(.fills)
            (existed, opened) = (held, store)
        } else {
            existed = try context.checkDatabasePath(path, use: .fills)
            if existed {
                // Refuses a file that is not a librarycli database.
                _ = try context.openDatabaseWithoutMigrating(.reads)
            }
        }
        if existed { return reportExisting(path, context: context) }
        let seedDemo = !context.parsed.flag("empty")
        // LIBRARY_NOW is read only when the demo clients are added: `init --empty` records no client.
        let now = seedDemo ? try context.now : context.recordingTime
        let store = try opened ?? context.openMigratedStore(.fills).store
        let summary: String
        switch try context.withDatabase({ try CatalogImport.firstUse(of: store, now: now, seedDemo: seedDemo) }) {
        case .handledBefore:
            // Another process made the library between the look above and the first use: it is not ours to claim.
            return reportExisting(path, context: context)
        case .leftEmpty:
            summary = "an empty library"
        case .seeded(let report):
            summary =
                "a library with the demo catalog (\(report.books.inserted) books, \(report.clients.inserted) clients)"
        }
        switch context.options.format {
        case .json:
            let document: JSONValue = [
                "version": 1, "database": .string(path), "created": true, "empty": .bool(context.parsed.flag("empty")),
            ]
            context.console.out(document.serialized() + "\n")
            try context.checkOutput(afterCommit: "the library was created all the same; only this report was lost.")
        case .text:
            // A note like the first-use one: on standard error, silenced by -q.
            context.note("Created \(summary) at \(path).")
        }
        return .success
    }

    /// `init` on a library that exists: nothing is changed, and it says so. Under --json a script still gets its
    /// document, saying that nothing was created.
    private static func reportExisting(_ path: String, context: CommandContext) -> ExitCode {
        if context.options.format == .json {
            let document: JSONValue = ["version": 1, "database": .string(path), "created": false]
            context.console.out(document.serialized() + "\n")
        }
        context.note("The library at \(path) already exists; nothing was changed.")
        return .success
    }

    /// `copy --from SRC --to DST`: the whole library into an empty one, in one transaction on the target.
    static func copy(_ context: CommandContext) throws -> ExitCode {
        guard let from = context.parsed.string("from"), !from.isEmpty, let to = context.parsed.string("to"), !to.isEmpty
        else {
            throw Failure(message: "copy needs --from and --to, each a file path or a PostgreSQL URL.", code: .usage)
        }
        func located(_ path: String) -> CommandContext {
            var located = context
            located.options.database = GlobalOptions.DatabaseLocation(path: path, isDefault: false)
            return located
        }
        let (source, target) = (located(from), located(to))
        // Both URLs are checked before either is connected to.
        for url in [from, to] where PostgreSQLURL.isURL(url) { try PostgreSQLURL.check(url) }
        for path in [from, to] { try PostgreSQLURL.checkNotKeywordValue(path) }
        if from == to {
            throw Failure(message: "--from and --to name the same library; nothing was copied.", code: .usage)
        }
        // A missing source is no library to copy: say so, rather than how to create it.
        var info = stat()
        if !PostgreSQLURL.isURL(from), stat(from, &info) != 0, errno == ENOENT {
            throw Failure(
                message: "the library to copy from, '\(from)', does not exist; nothing was copied.", code: .cannotWrite)
        }
        let sourceStore = try source.openMigratedStore(.reads).store
        let targetStore = try target.openMigratedStore(.writes).store
        let counts: CopyCounts
        do {
            counts = try target.withDatabase { try targetStore.copyLibrary(from: sourceStore) }
        } catch LibraryError.invalidInput(let reason, _) {
            throw Failure(message: "\(reason) Nothing was copied.", code: .refused)
        }
        switch context.options.format {
        case .json:
            let document: JSONValue = [
                "version": 1, "clients": .int(counts.clients), "books": .int(counts.books), "loans": .int(counts.loans),
                "tokens": .int(counts.tokens), "other": .int(counts.other),
            ]
            context.console.out(document.serialized() + "\n")
            try context.checkOutput(afterCommit: "the library was copied all the same; only this report was lost.")
        case .text:
            context.note(
                "Copied \(counts.clients) clients, \(counts.books) books, \(counts.loans) loans and \(counts.tokens) "
                    + "tokens from \(source.options.database.displayName) to \(target.options.database.displayName).")
        }
        return .success
    }

    // MARK: - Private

    private static func print(
        applied: [String], pending: [String], appliedNow: [String], checkedBooks: Int? = nil, context: CommandContext
    ) {
        switch context.options.format {
        case .json:
            var members: [(String, JSONValue)] = [
                ("version", 1), ("applied", .array(applied.map { .string($0) })),
                ("pending", .array(pending.map { .string($0) })),
                ("appliedNow", .array(appliedNow.map { .string($0) })),
            ]
            if let checkedBooks {
                members.append(("searchIndex", .object(members: [("agrees", true), ("books", .int(checkedBooks))])))
            }
            context.console.out(JSONValue.object(members: members).serialized() + "\n")
        case .text:
            for name in applied {
                context.say("applied  \(name)\(appliedNow.contains(name) ? "  (now)" : "")")
            }
            for name in pending { context.say("pending  \(name)") }
            if !context.parsed.flag("status") && appliedNow.isEmpty {
                context.say("The database is up to date.")
            }
            if let checkedBooks {
                context.say("The search index agrees with the \(checkedBooks) \(checkedBooks == 1 ? "book" : "books").")
            }
        }
    }
}
