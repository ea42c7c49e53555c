import Foundation
import Glibc
import SQLite
import Testing

@Suite("Opening databases: new, default, bad files")
struct DatabaseCommandTests {
    @Test("a new database given with --db is created empty by a command that writes, and says how to seed it")
    func newDatabase() throws {
        let sandbox = Sandbox()
        let result = sandbox.run(["--db", sandbox.database, "clients", "add", "Ann"], useDatabase: false)
        #expect(result.code == 0)
        #expect(result.err.contains("Created a new, empty library at \(sandbox.database)"))
        #expect(result.err.contains("seed"))
        #expect(FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("a command that only reads does not create a missing --db or LIBRARY_DB: exit 73, init as the hint")
    func readingCommandsDoNotCreate() throws {
        let sandbox = Sandbox()
        let books = sandbox.directory + "/books.csv"
        #expect(
            FileManager.default.createFile(atPath: books, contents: Data("title,author\nDune,Frank Herbert\n".utf8)))
        let output = sandbox.directory + "/out.csv"
        for arguments in [
            ["list"], ["list", "--search", "x"], ["books"], ["books", "list", "--all"], ["clients"],
            ["clients", "list"], ["history"], ["export"], ["export", "-o", output], ["migrate", "--status"],
            ["tokens"], ["tokens", "list"],
            ["import", "--dry-run", books],
        ] {
            for viaEnvironment in [false, true] {
                let result =
                    viaEnvironment
                    ? sandbox.run(arguments) : sandbox.run(["--db", sandbox.database] + arguments, useDatabase: false)
                #expect(result.code == 73, "\(arguments): \(result.err)")
                #expect(
                    result.err
                        == "Error: database '\(sandbox.database)' does not exist; nothing was created. Create it with: "
                        + "librarycli --db \(sandbox.database) init\n",
                    "\(arguments)")
                #expect(result.out.isEmpty, "\(arguments)")
                let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory)
                #expect(files == ["books.csv"], "\(arguments)")
            }
        }
    }

    @Test("serve does not create a missing --db: exit 73 with init as the hint, nothing created")
    func serveDoesNotCreate() throws {
        let sandbox = Sandbox()
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["--db", sandbox.database, "serve", "--port", "0"]
        process.environment = ["HOME": sandbox.directory, "LIBRARY_NOW": sandbox.now]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Bounded: a server that started after all is stopped after 20 s, and the test fails on its status.
        let stop = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: stop)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        stop.cancel()
        #expect(process.terminationStatus == 73, "\(message)")
        #expect(message.contains("database '\(sandbox.database)' does not exist; nothing was created"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test("commands that write data create a missing --db")
    func writingCommandsCreate() throws {
        for (arguments, code) in [
            (["init"], Int32(0)), (["init", "--empty"], 0), (["seed"], 0), (["clients", "add", "Ann"], 0),
            (["books", "add", "--title", "Dune"], 0), (["migrate"], 0), (["take", "1"], 1), (["return", "1"], 1),
            (["renew", "1"], 1), (["clients", "use", "1"], 1),
        ] {
            let sandbox = Sandbox()
            let result = sandbox.run(arguments)
            #expect(result.code == code, "\(arguments): \(result.err)")
            #expect(FileManager.default.fileExists(atPath: sandbox.database), "\(arguments)")
            #expect(try sandbox.dump().contains { $0.hasPrefix("schema_migrations: ") }, "\(arguments)")
        }
        let sandbox = Sandbox()
        let file = sandbox.directory + "/books.csv"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("title,author\nDune,Frank Herbert\n".utf8)))
        #expect(sandbox.run(["import", file]).code == 0)
        #expect(try sandbox.dump().contains { $0.hasPrefix("books: ") && $0.contains("Dune") })
    }

    @Test("the default database is created and seeded on first use by any command, even one that only reads")
    func defaultDatabaseIsCreatedByAnyCommand() throws {
        for arguments in [["books"], ["export"], ["clients"], ["history"], ["migrate", "--status"]] {
            let sandbox = Sandbox()
            let environment = ["XDG_DATA_HOME": sandbox.directory + "/data"]
            let result = sandbox.run(arguments, environment: environment, useDatabase: false)
            #expect(result.code == 0, "\(arguments): \(result.err)")
            #expect(
                FileManager.default.fileExists(atPath: sandbox.directory + "/data/librarycli/library.sqlite"),
                "\(arguments)")
        }
    }

    @Test("no client at all: a clear message saying how to add one")
    func noClient() {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let result = sandbox.run(["list"])
        #expect(result.code == 1)
        #expect(
            result.err == "Error: This library has no clients yet. Add one with: librarycli clients add \"Your Name\"\n"
        )
    }

    @Test("an unknown --client or LIBRARY_CLIENT is refused")
    func unknownClient() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let flag = sandbox.run(["--client", "9", "list"])
        #expect(flag.code == 1)
        #expect(flag.err.contains("There is no client #9."))
        let env = sandbox.run(["list"], environment: ["LIBRARY_CLIENT": "9"])
        #expect(env.code == 1)
        #expect(sandbox.run(["list"], environment: ["LIBRARY_CLIENT": "2"]).out.contains("Hey Jane Roe!"))
        #expect(
            sandbox.run(["--client", "1", "list"], environment: ["LIBRARY_CLIENT": "2"]).out.contains("Hey John Doe!"))
    }

    @Test("a file that is not a database: exit 73, a clear message, the file untouched")
    func notADatabase() throws {
        let sandbox = Sandbox()
        let content = Data(String(repeating: "not a database, just text\n", count: 200).utf8)
        #expect(FileManager.default.createFile(atPath: sandbox.database, contents: content))
        for arguments in [["list"], ["take", "1"], ["migrate"], ["clients", "add", "X"]] {
            let result = sandbox.run(arguments)
            #expect(result.code == 73, "\(arguments): \(result.err)")
            #expect(result.err.contains("is not a librarycli database"))
        }
        #expect(FileManager.default.contents(atPath: sandbox.database) == content)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database + "-wal"))
    }

    @Test("a directory as --db, or a database in a missing folder: exit 73")
    func badPaths() {
        let sandbox = Sandbox()
        let directory = sandbox.run(["--db", sandbox.directory, "list"], useDatabase: false)
        #expect(directory.code == 73)
        #expect(directory.err.contains("is a directory"))
        let missing = sandbox.run(["--db", sandbox.directory + "/no/such/place.sqlite", "list"], useDatabase: false)
        #expect(missing.code == 73)
        #expect(missing.err.contains("does not exist"))
    }

    @Test("--db is a file path, always: 'file:NAME' is a file of that name, ':memory:' a file too, no SQLite URI")
    func databasePathsAreLiteral() throws {
        let sandbox = Sandbox()
        let folder = sandbox.directory
        func run(_ arguments: [String]) throws -> RunResult {
            try Binary.run(arguments, environment: ["HOME": folder, "LIBRARY_NOW": sandbox.now], in: folder)
        }
        for (name, shown) in [
            ("file:new1.sqlite", "file:new1.sqlite"), (":memory:", "./:memory:"),
            ("file:good.sqlite?mode=ro", "file:good.sqlite?mode=ro"),
        ] {
            let created = try run(["--db", name, "init"])
            #expect(created.code == 0, "\(name): \(created.err)")
            #expect(created.err.contains(" at \(shown)."), "\(name): \(created.err)")
            #expect(FileManager.default.fileExists(atPath: folder + "/" + name), "\(name)")
            let books = try run(["--db", name, "books"])
            #expect(books.code == 0, "\(name): \(books.err)")
            #expect(!books.out.isEmpty, "\(name): \(books.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/new1.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/good.sqlite"))
        let missing = try run(["--db", "file:missing.sqlite", "list"])
        #expect(missing.code == 73)
        #expect(missing.err.contains("'file:missing.sqlite' does not exist"), "\(missing.err)")
        let written = try run(["-q", "--db", "file:other.sqlite?mode=ro", "clients", "add", "Ann"])
        #expect(written.code == 0, "\(written.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/file:other.sqlite?mode=ro"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/other.sqlite"))
    }

    @Test("a path that is no regular file, or a file used as a folder, is named for what it is (exit 73)")
    func pathsOfTheWrongKind() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let fifo = sandbox.directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in ["/dev/null", "/dev/zero", fifo] {
            for command in [["list"], ["take", "1"], ["init"]] {
                let result = sandbox.run(["--db", path] + command, useDatabase: false)
                #expect(result.code == 73, "\(path) \(command): \(result.err)")
                #expect(
                    result.err.contains("'\(path)' is not a regular file"), "\(path) \(command): \(result.err)")
                #expect(!result.err.contains("disk"), "\(path) \(command): \(result.err)")
            }
        }
        for path in [sandbox.database + "/", sandbox.database + "/x.sqlite"] {
            for command in [["list"], ["take", "1"]] {
                let result = sandbox.run(["--db", path] + command, useDatabase: false)
                #expect(result.code == 73, "\(path) \(command): \(result.err)")
                #expect(
                    result.err.contains("'\(sandbox.database)' is a file, not a folder"),
                    "\(path) \(command): \(result.err)")
            }
        }
    }

    @Test("migrate and migrate --status")
    func migrate() {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let status = sandbox.run(["migrate", "--status"])
        #expect(status.code == 0)
        #expect(status.out.contains("applied  0001_create_library.sql"))
        #expect(!status.out.contains("pending"))
        let migrate = sandbox.run(["migrate"])
        #expect(migrate.out.contains("up to date"))
    }

    @Test("init on an existing library changes nothing")
    func initTwice() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        let again = sandbox.run(["init"])
        #expect(again.code == 0)
        #expect(again.err.contains("already exists"))
        #expect(try sandbox.dump() == before)
    }

    @Test("new database files are readable by their owner only")
    func permissions() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.database)
        let mode = try #require(attributes[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0)
    }
}

@Suite("Databases this librarycli must not use")
struct ForeignDatabaseTests {
    @Test("a database written by a newer librarycli is refused with exit 73 and left unchanged")
    func newerSchema() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let db = try Database(path: sandbox.database)
        try db.execute(
            "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (?, ?, ?)",
            ["9999_from_the_future.sql", "0", "2030-01-01T00:00:00Z"])
        let before = try sandbox.dump()
        for arguments in [["list"], ["take", "1"], ["migrate"]] {
            let result = sandbox.run(arguments)
            #expect(result.code == 73, "\(arguments)")
            #expect(result.err.contains("newer librarycli"))
        }
        #expect(try sandbox.dump() == before)
    }
}

@Suite("Databases that are not librarycli's, or were damaged by hand")
struct NotOursTests {
    /// Commands that would write to, migrate or read the database.
    static let commands: [[String]] = [
        ["list"], ["books"], ["clients"], ["history"], ["export"], ["take", "1"], ["clients", "add", "X"],
        ["books", "add", "--title", "T"], ["migrate"], ["migrate", "--status"], ["seed"],
    ]

    @Test("another program's SQLite database is refused with exit 73 and left byte for byte unchanged")
    func unrelatedDatabase() throws {
        let sandbox = Sandbox()
        do {
            let db = try Database(path: sandbox.database, options: DatabaseOptions(switchesToWALOnOpen: false))
            try db.execute(script: "CREATE TABLE foo (x); INSERT INTO foo VALUES (1);")
        }
        let before = try #require(FileManager.default.contents(atPath: sandbox.database))
        for arguments in Self.commands {
            let result = sandbox.run(arguments)
            #expect(result.code == 73, "\(arguments): \(result.err)")
            #expect(
                result.err.hasPrefix(
                    "Error: '\(sandbox.database)' is not a librarycli database: it holds other tables (foo)"),
                "\(arguments): \(result.err)")
        }
        #expect(FileManager.default.contents(atPath: sandbox.database) == before)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database + "-wal"))
    }

    @Test("a table dropped by hand: exit 73, not a librarycli database or damaged, nothing changed")
    func droppedTable() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        do {
            let db = try Database(path: sandbox.database)
            try db.execute("PRAGMA foreign_keys=OFF")
            try db.execute("DROP TABLE loans")
        }
        let before = try sandbox.dump()
        for arguments in Self.commands {
            let result = sandbox.run(arguments)
            #expect(result.code == 73, "\(arguments): \(result.err)")
            #expect(
                result.err
                    == "Error: '\(sandbox.database)' is not a librarycli database or damaged: table loans is missing; "
                    + "it was left as it is.\n",
                "\(arguments)")
        }
        #expect(try sandbox.dump() == before)
    }

    @Test(
        "a migration's record deleted by hand: every command exits 73, none runs a migration again or shows SQL",
        arguments: ["0001_create_library.sql", "0003_tokens_and_pins.sql", "0004_book_status_check.sql"])
    func deletedMigrationRecord(name: String) throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        try Database(path: sandbox.database).execute("DELETE FROM schema_migrations WHERE name = ?", [name])
        let before = try sandbox.dump()
        for arguments in Self.commands {
            let result = sandbox.run(arguments)
            #expect(result.code == 73, "\(name) \(arguments): \(result.err)")
            #expect(
                result.err.hasPrefix("Error: '\(sandbox.database)' is not a librarycli database or damaged: "),
                "\(name) \(arguments): \(result.err)")
            #expect(!result.err.contains("CREATE"), "\(name) \(arguments): \(result.err)")
            #expect(result.out.isEmpty, "\(name) \(arguments): \(result.out)")
        }
        #expect(try sandbox.dump() == before)
    }

    @Test("a column added or a trigger dropped by hand is found too")
    func alteredSchema() throws {
        for (damage, problem) in [
            ("ALTER TABLE books ADD COLUMN shelf TEXT", "table books differs from what the migrations create"),
            ("DROP TRIGGER books_counted", "trigger books_counted is missing"),
            ("DROP INDEX loans_one_open_per_book", "index loans_one_open_per_book is missing"),
        ] {
            let sandbox = Sandbox()
            sandbox.makeSmallLibrary()
            try Database(path: sandbox.database).execute(damage)
            let result = sandbox.run(["take", "1"])
            #expect(result.code == 73, "\(damage)")
            #expect(result.err.contains("is not a librarycli database or damaged: \(problem)"), "\(result.err)")
        }
    }
}

@Suite("The default database's first use")
struct FirstUseTests {
    @Test("init --empty on the default database stays empty: the next command does not seed it")
    func emptyStaysEmpty() {
        let sandbox = Sandbox()
        let environment = ["XDG_DATA_HOME": sandbox.directory + "/data"]
        let created = sandbox.run(["init", "--empty"], environment: environment, useDatabase: false)
        #expect(created.code == 0)
        #expect(
            created.err.hasPrefix("Created an empty library at \(sandbox.directory)/data/librarycli/library.sqlite"))
        let list = sandbox.run(["list"], environment: environment, useDatabase: false)
        #expect(list.code == 1)
        #expect(list.err.contains("This library has no clients yet"))
        #expect(
            sandbox.run(["books"], environment: environment, useDatabase: false).out.hasPrefix(
                "The library has no books yet."))
    }

    @Test("init on the default database seeds it once; later commands say nothing")
    func initSeeds() {
        let sandbox = Sandbox()
        let environment = ["XDG_DATA_HOME": sandbox.directory + "/data"]
        let created = sandbox.run(["init"], environment: environment, useDatabase: false)
        #expect(created.err.contains("with the demo catalog (49 books, 4 clients)"))
        let list = sandbox.run(["list"], environment: environment, useDatabase: false)
        #expect(list.code == 0)
        #expect(list.err.isEmpty)
    }
}
