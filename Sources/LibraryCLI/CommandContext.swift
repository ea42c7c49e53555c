import ArgumentParsing
import Library
import LibraryScreen
import PostgreSQL
import SQLite
import Seeding

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output failed while a command reported its change; `consequence` says what became of the change
/// ("nothing was changed."). Exit 74, with one line on standard error.
struct OutputFailure: Error {
    var error: Console.OutputError
    var consequence: String
}

/// What a command does with its database, which decides what happens when the file does not exist yet. Each command
/// says it where it opens the database (`context.openStore(.reads)`), so no command can forget to.
///
/// For example:
///
///     let store = try context.openStore(parsed.flag("dry-run") ? .reads : .fills)
enum DatabaseUse {
    /// The command reads, or changes nothing (`list`, `export`, `import --dry-run`, `migrate --status`): a missing
    /// database is an error (exit 73, with `librarycli init` as the hint), except the default one.
    case reads
    /// The command writes data (`take`, `clients add`, `import`, `seed --file`, `migrate`): a missing database is
    /// created empty, with a note saying how to seed it.
    case writes
    /// The command fills a new database with the demo catalog itself and says what it put in (`init`, `seed`): a
    /// missing database is created, with a note that does not suggest seeding it (`init` words its own).
    case fills
}

/// Everything a command runs with: the parsed command line, the resolved global options, the console and the clock.
///
/// Environment values that only some commands use (`LIBRARY_NOW`, `LIBRARY_CLIENT`) are read and checked when a
/// command asks for them (`try context.now`, `currentClient(in:)`), so a bad one never breaks `books` or `export`.
///
/// Opening the database happens here, once per process, with the rules of the README: a missing database is created
/// and migrated by the commands that write (see `DatabaseUse`); the default database is created and seeded with the
/// demo data on first use by any command.
///
/// For example:
///
///     let store = try context.openStore(.reads)
///     let client = try context.currentClient(in: store)
struct CommandContext {
    var parsed: ParsedCommand
    var options: GlobalOptions
    var environment: [String: String]
    var console: Console
    /// The system's time, read once at start-up.
    var systemNow: Timestamp

    /// The time now: `LIBRARY_NOW` when set, else the system's. Only commands that compare or record times read
    /// it, and a `LIBRARY_NOW` that is not an ISO-8601 time in the years 0001-9999 is a usage error for them.
    var now: Timestamp {
        get throws(UsageError) {
            guard let text = environment["LIBRARY_NOW"], !text.isEmpty else { return systemNow }
            do {
                return try Timestamp(iso8601: text)
            } catch {
                let expected =
                    error.isOutOfRange
                    ? "a time in the years 0001 to 9999" : "an ISO-8601 time such as 2026-11-29T14:40:00Z"
                throw UsageError(.invalidValue(text, for: "LIBRARY_NOW", expected: expected), commandPath: parsed.path)
            }
        }
    }

    /// The time to record when opening the database creates or migrates it: `now`, or the system's time when
    /// `LIBRARY_NOW` is bad, so commands that do not use the clock are not broken by it.
    var recordingTime: Timestamp { (try? now) ?? systemNow }

    /// The program's name, for naming a command in a message ("See 'librarycli take --help'").
    static let programName = "librarycli"

    /// How to write a command that acts on the same database, for the commands hints name: `librarycli`, with
    /// `--db` when it was given on the command line (`librarycli --db my.sqlite`). A database from `LIBRARY_DB` or the
    /// default one is left out, as the environment gives it again. A PostgreSQL URL is written without its password
    /// (which `PGPASSWORD` or `~/.pgpass` gives).
    ///
    ///     context.program  // "librarycli --db 'my lib.sqlite'" for `librarycli --db "my lib.sqlite" clients`
    var program: String {
        guard let path = parsed.string("db"), !path.isEmpty else { return Self.programName }
        return "\(Self.programName) \(Self.databaseArgument(options.database.displayName))"
    }

    /// How to write a command that acts on the same database as the same client, for the screen's actions and the
    /// hints of the commands that act as a client: `program`, with `--client` when it was given on the command line
    /// (`librarycli --db my.sqlite --client 2`). A client from `LIBRARY_CLIENT` or the default one is left out.
    var clientProgram: String {
        guard let id = options.clientID else { return program }
        return "\(program) --client \(id)"
    }

    /// `--db PATH` as a shell word, so a hint can be pasted as it is; a path that starts with `-` is written
    /// `--db=PATH`, since `--db` takes no value that looks like an option.
    ///
    ///     CommandContext.databaseArgument("my lib.sqlite")  // "--db 'my lib.sqlite'"
    static func databaseArgument(_ path: String) -> String {
        path.hasPrefix("-") ? "--db=" + shellQuoted(path) : "--db " + shellQuoted(path)
    }

    // MARK: - The database

    /// Opens the database and applies pending migrations; a missing one is created as `use` allows, and the default
    /// one is seeded with the demo data on first use.
    func openStore(_ use: DatabaseUse) throws -> LibraryStore {
        let (store, existed) = try openMigratedStore(use)
        let path = options.database.displayName
        if options.database.isDefault && !store.isReadOnly {
            // The default library is seeded on first use, by whichever process gets there first.
            if case .seeded(let report) = try withDatabase({
                try CatalogImport.firstUse(of: store, now: recordingTime)
            }) {
                note(
                    "Created the library at \(path) with the demo catalog (\(report.books.inserted) books, "
                        + "\(report.clients.inserted) clients).")
            }
        } else if !existed {
            noteCreated(use)
        }
        return store
    }

    /// Says that a command created the library it was given (one that writes also says how to add the demo catalog).
    func noteCreated(_ use: DatabaseUse) {
        let path = options.database.displayName
        if use == .writes {
            note(
                "Created a new, empty library at \(path). Add the demo catalog with: "
                    + "\(Self.programName) \(Self.databaseArgument(path)) seed")
        } else if use == .fills {
            note("Created a new, empty library at \(path).")
        }
    }

    /// Opens the database and applies pending migrations, without the default database's first use (`init` handles
    /// it itself); returns the store and whether the file existed.
    func openMigratedStore(_ use: DatabaseUse) throws -> (store: LibraryStore, existed: Bool) {
        if options.database.isPostgreSQL { return try openPostgreSQLStore(use) }
        let path = options.database.path
        try PostgreSQLURL.checkNotKeywordValue(path)
        let existed = try checkDatabasePath(path, use: use)
        do {
            // Whether it existed is the migrations' word: of several processes opening a new file at once, the one
            // that made the library says so, the others find it made.
            let (database, created) = try LibraryDatabase.openTellingCreation(
                at: path, options: openingOptions(path, existed: existed, use: use), now: recordingTime)
            return (LibraryStore(database: database), !created)
        } catch let error as SQLiteError {
            throw Failure(sqlite: error, path: path)
        } catch let error as MigrationError {
            throw Failure(migration: error, path: path)
        }
    }

    /// Connects to the PostgreSQL database of `--db`, migrating it unless only reading; `existed` tells whether
    /// it held a library before (any migration applied).
    func openPostgreSQLStore(_ use: DatabaseUse) throws -> (store: LibraryStore, existed: Bool) {
        let url = options.database.path
        do {
            let connection = try PostgreSQLConnection(url: url)
            let migrator = PostgreSQLMigrator()
            let status = try migrator.status(connection)
            if !status.isUpToDate {
                guard use != .reads || !status.applied.isEmpty else {
                    throw Failure(
                        message: "the PostgreSQL database \(options.database.displayName) holds no library yet; "
                            + "nothing was created. Create it with: \(program) init",
                        code: .cannotWrite)
                }
                let applied = try migrator.migrate(connection, appliedAt: recordingTime.iso8601)
                // Of several processes at once, the one that applied the first migration made the library.
                let created = !applied.isEmpty && applied.first == migrator.migrations.first?.name
                return (LibraryStore(postgresql: connection), !created)
            }
            return (LibraryStore(postgresql: connection), true)
        } catch let error as PostgreSQLError {
            throw Failure(postgresql: error, name: options.database.displayName)
        } catch let error as MigrationError {
            throw Failure(migration: error, path: options.database.displayName)
        }
    }

    /// Opens the database file without applying migrations, after checking that it is a librarycli database (or new
    /// or empty); a missing one is created empty as `use` allows.
    func openDatabaseWithoutMigrating(_ use: DatabaseUse) throws -> (database: Database, existed: Bool) {
        let path = options.database.path
        let existed = try checkDatabasePath(path, use: use)
        do {
            let database = try withDatabase {
                try LibraryDatabase.openWithoutMigrating(
                    at: path, options: openingOptions(path, existed: existed, use: use))
            }
            return (database, existed)
        } catch let error as MigrationError {
            throw Failure(migration: error, path: path)
        }
    }

    /// A database this user cannot write is opened read-only: reads still work, writes fail with exit 73. So is one
    /// in a folder this user cannot write, for a command that only reads: SQLite could not make its journal files
    /// (`-wal`, `-shm`) there, which only writing needs.
    private func openingOptions(_ path: String, existed: Bool, use: DatabaseUse) -> DatabaseOptions {
        DatabaseOptions(
            readOnly: existed && (access(path, W_OK) != 0 || use == .reads && Failure.folderIsReadOnly(of: path)))
    }

    /// Runs a database step, wording database errors with the file's name.
    func withDatabase<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            // SQLite refused librarycli's own SQL ("no such table"): when the schema was changed by hand since it was
            // checked at open, that is a damaged database (exit 73), not a bug (exit 70).
            if error.isSQLError, let damage = schemaProblem() {
                throw Failure(migration: damage, path: options.database.path)
            }
            throw Failure(sqlite: error, path: options.database.path)
        } catch let error as PostgreSQLError {
            throw Failure(postgresql: error, name: options.database.displayName)
        }
    }

    /// What is wrong with the database's schema, checked again on a new read-only connection; nil when nothing is
    /// (or it cannot be checked).
    private func schemaProblem() -> MigrationError? {
        guard !options.database.isPostgreSQL else { return nil }
        do {
            let database = try Database(path: options.database.path, options: DatabaseOptions(readOnly: true))
            try Migrations.migrator.verifySchema(database)
            return nil
        } catch let error as MigrationError {
            return error
        } catch {
            return nil
        }
    }

    // MARK: - Changes and their output

    /// Makes a change and writes the output that reports it in one write transaction: the output is written and
    /// standard output checked before the commit, so output that cannot be written (a full disk) rolls the change
    /// back (exit 74, "nothing was changed"). A closed pipe (`| head -0`) is the reader leaving on purpose: the
    /// change stays and the command ends quietly, unless `closedPipeFails` (a token nobody read is no use).
    ///
    ///     let book = try context.writeReported(store) { store in
    ///         let book = try store.addBook(draft)
    ///         context.say("Added \(book.title) as book #\(book.id).")
    ///         return book
    ///     }
    func writeReported<T>(
        _ store: LibraryStore, ifOutputFails consequence: String = "nothing was changed.",
        closedPipeFails: Bool = false, _ body: (LibraryStore) throws -> T
    ) throws -> T {
        try withDatabase {
            try store.write { store in
                let result = try body(store)
                if let error = console.finishOutput(), closedPipeFails || !error.isClosedPipe {
                    throw OutputFailure(error: error, consequence: consequence)
                }
                return result
            }
        }
    }

    /// For commands whose change is committed before their output (`seed`, `import`, `init`, `migrate`, `copy`:
    /// their transactions are their own): when standard output failed, says so with `consequence`, what was kept
    /// (exit 74). A closed pipe ends the command quietly, as everywhere.
    func checkOutput(afterCommit consequence: String) throws {
        if let error = console.finishOutput(), !error.isClosedPipe {
            throw OutputFailure(error: error, consequence: consequence)
        }
    }

    /// How many books `--all` will show: all of them (all the matches of `search`), when they fit on one page
    /// (``LibraryStore/maxPerPage``); refused as a usage error when they do not.
    func countForAll(in store: LibraryStore, search: String?) throws -> Int {
        // The search as the store reads it: none for text without a letter or digit ("", "-"), the whole library.
        let (count, search) = try withDatabase {
            guard let search else { return (try store.bookCount(), nil as String?) }
            let page = try store.libraryPage(page: 1, perPage: 1, search: search)
            return (page.totalCount, page.search)
        }
        guard count <= LibraryStore.maxPerPage else {
            let what = search.map { "\(count) books match “\($0)”" } ?? "this library has \(count)"
            throw Failure(
                message: "--all shows at most \(LibraryStore.maxPerPage) books and \(what): "
                    + "use --page and --per-page. See '\(Self.programName) \(parsed.path.joined(separator: " ")) --help'.",
                code: .usage)
        }
        return max(count, 1)
    }

    /// A note for the person at the terminal, on standard error; `-q` silences it.
    func note(_ text: String) {
        if !options.isQuiet { console.err(CommandText.message(text, width: options.errorMessageWidth)) }
    }

    // MARK: - The client

    /// The client the command acts as: `--client`, else `LIBRARY_CLIENT` (checked only here, by the commands that
    /// act as a client), else the database's default client.
    func currentClient(in store: LibraryStore) throws -> Client {
        if let id = try chosenClientID() {
            guard let client = try withDatabase({ try store.client(id: id) }) else {
                throw Failure(
                    message: "There is no client #\(id). See the clients with: \(program) clients", code: .refused)
            }
            return client
        }
        if let id = try withDatabase({ try store.defaultClientID() }),
            let client = try withDatabase({ try store.client(id: id) })
        {
            return client
        }
        let clients = try withDatabase { try store.allClients() }
        if clients.isEmpty {
            throw Failure(
                message: "This library has no clients yet. Add one with: \(program) clients add \"Your Name\"",
                code: .refused)
        }
        throw Failure(
            message: "No client is chosen. Choose one with --client ID, or make one the default: "
                + "\(program) clients use \(clients[0].id)",
            code: .refused)
    }

    /// Opens the database for a command that acts as a client, and finds the client; a bad `LIBRARY_CLIENT` is
    /// refused before the database is opened.
    func openStoreAsClient(_ use: DatabaseUse) throws -> (LibraryStore, Client) {
        _ = try chosenClientID()
        let store = try openStore(use)
        return (store, try currentClient(in: store))
    }

    /// `--client`, else `LIBRARY_CLIENT`, else nil; a `LIBRARY_CLIENT` that is not a positive whole number is a usage
    /// error.
    func chosenClientID() throws(UsageError) -> Int? {
        if let id = options.clientID { return id }
        guard let text = environment["LIBRARY_CLIENT"], !text.isEmpty else { return nil }
        do {
            return try Validation.positiveInteger(text, for: "LIBRARY_CLIENT")
        } catch {
            throw UsageError(error, commandPath: parsed.path)
        }
    }

    // MARK: - Private

    /// Whether the database file exists; throws for paths that can never be a database, and for a missing one
    /// that `use` may not create (the default database is always created on first use).
    func checkDatabasePath(_ path: String, use: DatabaseUse) throws -> Bool {
        if options.database.isHomeless {
            throw Failure(
                message: "cannot find a place for the default database: HOME is not set and the password database "
                    + "has no home directory for this user. Set HOME (or XDG_DATA_HOME), or name a database with "
                    + "--db PATH or LIBRARY_DB.",
                code: .cannotWrite)
        }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw Failure(message: "'\(path)' is a directory, not a database file.", code: .cannotWrite)
            }
            if (info.st_mode & S_IFMT) != S_IFREG {
                // /dev/null, a pipe, a socket: SQLite would fail at its first write with "disk I/O error".
                throw Failure(
                    message: "'\(path)' is not a regular file (it is a device, pipe or socket), so it cannot be a "
                        + "database file; nothing was changed.",
                    code: .cannotWrite)
            }
            guard isEmptyFile(path, info) else { return true }
            // A 0-byte file (`touch`, `mktemp`) is SQLite's empty database: it holds no library yet, so it is treated
            // as a missing one (created by the commands that write, never by those that only read).
            if use == .reads && !options.database.isDefault {
                throw Failure(
                    message: "database '\(path)' is an empty file and holds no library yet; nothing was changed. "
                        + "Create it with: \(Self.programName) \(Self.databaseArgument(path)) init",
                    code: .cannotWrite)
            }
            return false
        }
        let reason = errno
        if reason == ENOTDIR, let file = fileUsedAsFolder(in: path) {
            throw Failure(
                message: "cannot use the database '\(path)': '\(file)' is a file, not a folder; nothing was created.",
                code: .cannotWrite)
        }
        if reason == ENAMETOOLONG {
            // Not "does not exist": no file of that name can exist (a name of the path is over 255 bytes, or the
            // whole path over 4095).
            throw Failure(
                message: "cannot use the database '\(path)': the name is too long (a file name is at most "
                    + "\(NAME_MAX) bytes, a path at most \(PATH_MAX - 1)); nothing was created.",
                code: .cannotWrite)
        }
        if use == .reads && !options.database.isDefault {
            throw Failure(
                message: "database '\(path)' does not exist; nothing was created. Create it with: "
                    + "\(Self.programName) \(Self.databaseArgument(path)) init",
                code: .cannotWrite)
        }
        let directory = parentDirectory(of: path)
        if options.database.isDefault {
            try makeDirectories(directory)
        } else if stat(directory, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
            throw Failure(
                message: "cannot create the database '\(path)': the folder '\(directory)' does not exist.",
                code: .cannotWrite)
        }
        return false
    }

    /// The first of `path`'s leading parts that is not a folder (`lib.sqlite` for `lib.sqlite/` or
    /// `lib.sqlite/x.sqlite`), or nil when each is one.
    private func fileUsedAsFolder(in path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        var shown = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            shown += (shown.isEmpty || shown.hasSuffix("/") ? "" : "/") + part
            var info = stat()
            if stat(prefix, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR {
                return shown
            }
        }
        return nil
    }

    /// Whether `path` (with `info`, its `stat`) is a regular file of 0 bytes with no write-ahead log holding pages.
    private func isEmptyFile(_ path: String, _ info: stat) -> Bool {
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 else { return false }
        var log = stat()
        return stat(path + "-wal", &log) != 0 || log.st_size == 0
    }

    private func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// `mkdir -p` with owner-only permissions: the library holds personal data.
    private func makeDirectories(_ directory: String) throws {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            prefix += "/" + part
            var info = stat()
            if stat(prefix, &info) == 0 { continue }
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw Failure(message: "cannot create the folder '\(prefix)': \(reason).", code: .cannotWrite)
            }
        }
    }
}
