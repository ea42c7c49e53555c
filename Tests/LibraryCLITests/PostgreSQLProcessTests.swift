import Foundation
import Library
import PostgreSQL
import StoreTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A new, empty PostgreSQL database (`t_<random hex>`) in the test cluster for one test, dropped when the test
/// ends (any connection left to it is ended), and a folder for the test's files.
final class PostgreSQLSandbox {
    let name: String
    let url: String
    let files = Sandbox()
    let now = "2026-11-29T10:00:00Z"

    init() throws {
        let base = try #require(TestPostgreSQL.baseURL)
        name = "t_" + TestPostgreSQL.randomHex()
        try PostgreSQLConnection(url: base).execute(script: "CREATE DATABASE \"\(name)\"")
        url = TestPostgreSQL.url(base, database: name)
    }

    deinit {
        guard let base = TestPostgreSQL.baseURL, let admin = try? PostgreSQLConnection(url: base) else { return }
        try? admin.execute(script: "DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)")
    }

    /// The environment of a run: this database, a fixed clock, nothing inherited.
    var environment: [String: String] {
        ["LIBRARY_DB": url, "LIBRARY_NOW": now, "HOME": files.directory, "PATH": "/usr/bin:/bin"]
    }

    /// Runs the binary on this database and waits for it.
    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil) throws
        -> RunResult
    {
        try Binary.run(
            arguments, environment: environment.merging(extra) { $1 }, stdin: stdin.map { Data($0.utf8) })
    }

    func connect() throws -> PostgreSQLConnection {
        try PostgreSQLConnection(url: url)
    }

    /// Every row of every table, as text, to prove a command changed nothing.
    func dump() throws -> [String] {
        let connection = try connect()
        let tables = try connection.fetchAll(
            """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
            """
        ) { $0.string(0) }
        var rows: [String] = []
        for table in tables {
            rows += try connection.fetchAll("SELECT * FROM \"\(table)\" ORDER BY 1") { row in
                table + ": " + (0..<row.count).map { row.isNull($0) ? "NULL" : row.string($0) }.joined(separator: "|")
            }
        }
        return rows
    }

    /// One number from the database.
    func count(_ sql: String) throws -> Int {
        try connect().fetchOne(sql) { $0.int(0) } ?? -1
    }
}

/// The binary started and not waited for: `finish` waits (at most `seconds`, then kills it).
final class RunningBinary {
    let process = Process()
    private let err = Pipe()

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = Binary.url
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
    }

    func finish(seconds: Double = 30) -> RunResult {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return RunResult(code: -1, out: "", err: "killed after \(seconds) s")
        }
        process.waitUntilExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return RunResult(code: process.terminationStatus, out: "", err: text)
    }
}

/// The JSON document's shape: its object keys, array nesting and kinds of values (strings, numbers, null),
/// without the values.
func shape(_ value: Any) -> String {
    switch value {
    case let object as [String: Any]:
        return "{" + object.keys.sorted().map { "\($0):\(shape(object[$0]!))" }.joined(separator: ",") + "}"
    case let array as [Any]:
        return "[" + Set(array.map(shape)).sorted().joined(separator: "|") + "]"
    case is NSNull: return "null"
    case is String: return "s"
    case is NSNumber: return "n"
    default: return "?"
    }
}

@Suite("PostgreSQL URLs of the tests")
struct TestPostgreSQLURLTests {
    @Test("the database of both URL shapes is replaced")
    func replacing() {
        #expect(
            TestPostgreSQL.url("postgresql://postgres@127.0.0.1:5432/librarycli", database: "t_ab")
                == "postgresql://postgres@127.0.0.1:5432/t_ab")
        #expect(
            TestPostgreSQL.url("postgresql://postgres@/librarycli?host=/tmp/pg&port=54331", database: "t_ab")
                == "postgresql://postgres@/t_ab?host=/tmp/pg&port=54331")
        #expect(TestPostgreSQL.url("postgres://h", database: "t_ab") == "postgres://h/t_ab")
        #expect(
            TestPostgreSQL.url("postgresql:///x?dbname=y&host=/s", database: "t_ab")
                == "postgresql:///t_ab?dbname=t_ab&host=/s")
    }
}

@Suite(
    "PostgreSQL: the librarycli executable",
    .enabled(if: TestPostgreSQL.isConfigured, "LIBRARY_TEST_POSTGRES names no PostgreSQL database to test with")
)
struct PostgreSQLProcessTests {
    @Test("init, init again, and list: the same screens as on SQLite for the same data")
    func initAndList() throws {
        let pg = try PostgreSQLSandbox()
        let created = try pg.run(["init"])
        #expect(created.code == 0, "\(created.err)")
        #expect(created.err == "Created a library with the demo catalog (49 books, 4 clients) at \(pg.url).\n")
        let again = try pg.run(["init"])
        #expect(again.code == 0)
        #expect(again.err == "The library at \(pg.url) already exists; nothing was changed.\n")
        let json = try pg.run(["--json", "init"])
        #expect(json.code == 0)
        #expect(try parseJSON(json.out)["created"] as? Bool == false)

        // The same library on SQLite, changed the same way.
        let sqlite = pg.files
        sqlite.now = pg.now
        #expect(sqlite.run(["init"]).code == 0)
        for arguments in [["--client", "2", "take", "3", "5"], ["--client", "2", "return", "5"], ["take", "7"]] {
            #expect(try pg.run(["-q"] + arguments).code == 0)
            #expect(sqlite.run(["-q"] + arguments).code == 0)
        }
        for arguments in [
            ["list"], ["--json", "list"], ["--json", "list", "--client", "2", "--page", "2"], ["--json", "clients"],
            ["--json", "loans", "--client", "2"], ["--json", "history", "--client", "2"], ["books", "--page", "2"],
        ] {
            let onPostgreSQL = try pg.run(arguments, environment: ["COLUMNS": "100"])
            let onSQLite = sqlite.run(arguments, environment: ["COLUMNS": "100"])
            #expect(onPostgreSQL.code == 0, "\(arguments): \(onPostgreSQL.err)")
            #expect(onPostgreSQL.out == onSQLite.out, "\(arguments)")
            #expect(onPostgreSQL.err == onSQLite.err, "\(arguments)")
        }
        // A search finds the same books, in a document of the same shape (each engine ranks them its own way).
        for text in ["tolstoy", "brontë", "the", "war"] {
            let onPostgreSQL = try parseJSON(try pg.run(["--json", "books", "--search", text]).out)
            let onSQLite = try parseJSON(sqlite.run(["--json", "books", "--search", text]).out)
            #expect(shape(onPostgreSQL) == shape(onSQLite), "\(text)")
            let ids = { (document: [String: Any]) in
                Set((document["books"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int })
            }
            #expect(ids(onPostgreSQL) == ids(onSQLite), "\(text)")
            #expect(!ids(onPostgreSQL).isEmpty)
            let screen = try parseJSON(try pg.run(["--json", "list", "--search", text]).out)
            #expect(shape(screen) == shape(try parseJSON(sqlite.run(["--json", "list", "--search", text]).out)))
        }
    }

    @Test("take, renew, loans, history and return, as the default client and as another")
    func loans() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init"]).code == 0)
        let taken = try pg.run(["take", "1"])
        #expect(taken.code == 0)
        #expect(taken.out.hasPrefix("Took The Odyssey (#1), due 2026-12-13.\n"))
        #expect(taken.out.contains("Hey John Doe! (changed)"))
        let mine = try pg.run(["take", "1"])
        #expect(mine.code == 1)
        #expect(mine.err == "Error: You already have The Odyssey (#1); it is due 2026-12-13.\n")
        let other = try pg.run(["-q", "take", "1"], environment: ["LIBRARY_CLIENT": "2"])
        #expect(other.code == 1)
        #expect(other.err.hasPrefix("Error: The Odyssey (#1) is on loan to someone else, due back 2026-12-13."))
        let renewed = try pg.run(["-q", "renew", "1"])
        #expect(renewed.code == 0, "\(renewed.err)")
        #expect(renewed.out.hasPrefix("Renewed The Odyssey (#1): now due 2026-12-27 (renewal 1 of 2)."))
        let loans = try pg.run(["loans"])
        #expect(loans.out.contains("2026-12-27   1  The Odyssey  Homer   1 of 2"))
        #expect(loans.out.contains("John Doe has 1 book of 5."))
        let document = try parseJSON(try pg.run(["--json", "loans"]).out)
        #expect((document["loans"] as? [[String: Any]])?.count == 1)
        let notYours = try pg.run(["--client", "2", "return", "1"])
        #expect(notYours.code == 1)
        #expect(notYours.err.hasPrefix("Error: You do not have The Odyssey (#1) on loan."))
        let returned = try pg.run(["-q", "return", "1"])
        #expect(returned.code == 0)
        #expect(returned.out.hasPrefix("Returned The Odyssey (#1)."))
        #expect(try pg.run(["return", "1"]).code == 1)
        let history = try pg.run(["history"])
        #expect(history.code == 0)
        #expect(history.out.contains("The Odyssey"))
        #expect(try pg.run(["loans"]).out.contains("John Doe has no books"))
        // Unknown books and clients.
        let missing = try pg.run(["take", "999"])
        #expect(missing.code == 1)
        #expect(missing.err.hasPrefix("Error: There is no book #999."))
        let nobody = try pg.run(["--client", "99", "take", "2"])
        #expect(nobody.code == 1)
        #expect(nobody.err.contains("There is no client #99."))
    }

    @Test("clients add, use and pin (read from stdin); books --search; tokens create, list and revoke")
    func clientsBooksTokens() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init"]).code == 0)
        let added = try pg.run(["clients", "add", "Ann Lee", "--card", "C-0100", "--limit", "3"])
        #expect(added.code == 0)
        #expect(added.out == "Added client #5 Ann Lee (card C-0100, limit 3).\n")
        let twice = try pg.run(["clients", "add", "Bo", "--card", "C-0100"])
        #expect(twice.code == 1)
        #expect(twice.err.contains("C-0100"))
        #expect(try pg.run(["clients", "use", "5"]).out == "Client #5 Ann Lee is now the default client.\n")
        #expect(try pg.run(["list"]).out.contains("Hey Ann Lee!"))
        let pin = try pg.run(["clients", "pin", "5"], stdin: "9876\n")
        #expect(pin.code == 0, "\(pin.err)")
        #expect(pin.out == "Set the PIN of client #5 Ann Lee (card C-0100).\n")
        let store = try LibraryStore.open(at: pg.url, now: try Timestamp(iso8601: pg.now))
        #expect(try store.pinMatches(cardNumber: "C-0100", pin: "9876"))
        #expect(try !store.pinMatches(cardNumber: "C-0100", pin: "1234"))
        #expect(try pg.run(["clients", "pin", "5"]).code == 64)

        let found = try pg.run(["books", "--search", "tolstoy"])
        #expect(found.code == 0)
        #expect(found.out.contains("Anna Karenina") && found.out.contains("War and Peace"))
        #expect(found.out.contains("Page 1 of 1 · 2 books"))
        let isbn = try parseJSON(try pg.run(["--json", "books", "--search", "978-0-14-303500-8"]).out)
        #expect((isbn["books"] as? [[String: Any]])?.first?["title"] as? String == "Anna Karenina")
        #expect(try parseJSON(try pg.run(["--json", "books", "--search", "zzzz"]).out)["totalCount"] as? Int == 0)

        let created = try pg.run(["tokens", "create", "--client", "2"])
        #expect(created.code == 0, "\(created.err)")
        let token = created.out.trimmingCharacters(in: .newlines)
        #expect(token.hasPrefix("lc_") && token.count == 46)
        #expect(created.err.contains("shown only once") && !created.err.contains(token))
        let listed = try pg.run(["--json", "tokens", "list"])
        #expect(listed.code == 0 && !listed.out.contains(token))
        #expect(try store.authenticate(token: token, now: try Timestamp(iso8601: pg.now)) != nil)
        #expect(try pg.run(["tokens", "revoke", "1"]).out == "Revoked token #1.\n")
        #expect(try store.authenticate(token: token, now: try Timestamp(iso8601: pg.now)) == nil)
        #expect(try pg.run(["tokens", "revoke", "99"]).code == 1)
    }

    @Test("import is all or nothing; seed adds the demo catalog and generated books; migrate --status and --check")
    func importSeedMigrate() throws {
        let pg = try PostgreSQLSandbox()
        let status = try pg.run(["migrate", "--status"])
        #expect(status.code == 0)
        #expect(status.out == Migrations.postgresql.map { "pending  \($0.name)\n" }.joined())
        #expect(try pg.dump() == [])
        let listed = try pg.run(["--db", pg.url, "list"])
        #expect(listed.code == 73)
        #expect(
            listed.err.hasSuffix(
                "holds no library yet; nothing was created. Create it with: librarycli --db '\(pg.url)' init\n"),
            "\(listed.err)")
        let created = try pg.run(["init", "--empty"])
        #expect(created.code == 0)
        #expect(created.err == "Created an empty library at \(pg.url).\n")
        let file = pg.files.directory + "/books.csv"
        try "title,author,year\nDune,Frank Herbert,1965\nEmma,Jane Austen,18x5\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let before = try pg.dump()
        let bad = try pg.run(["import", file])
        #expect(bad.code == 65)
        #expect(bad.err.contains("books.csv: line 3, column 3 (year): '18x5' is not a year"))
        #expect(try pg.dump() == before)
        try "title,author,year\nDune,Frank Herbert,1965\nEmma,Jane Austen,1815\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        #expect(try pg.run(["import", file]).out == "books: 2 inserted, 0 updated, 0 unchanged, 0 skipped\n")
        #expect(try pg.run(["import", file]).out == "books: 0 inserted, 0 updated, 2 unchanged, 0 skipped\n")
        // A bad row after many good ones: still nothing imported.
        let rows = (1...2_000).map { "Book \($0),Author,\(1_000 + $0 % 900)" }.joined(separator: "\n")
        try "title,author,year\n\(rows)\nLast,Author,later\n".write(toFile: file, atomically: true, encoding: .utf8)
        let middle = try pg.dump()
        let late = try pg.run(["import", file])
        #expect(late.code == 65)
        #expect(late.err.contains("line 2002"))
        #expect(try pg.dump() == middle)

        let seeded = try pg.run(["seed"])
        #expect(seeded.code == 0, "\(seeded.err)")
        // The demo catalog's Dune (with its ISBN) is the Dune imported above without one: matched by title, author and
        // year, and given the ISBN.
        #expect(seeded.out.hasPrefix("books: 48 inserted, 1 updated, 0 unchanged, 0 skipped\nclients: 4 inserted"))
        let generated = try pg.run(["seed", "--generate", "300"])
        #expect(generated.out == "books: 300 inserted, 0 updated, 0 unchanged, 0 skipped\n")
        #expect(try parseJSON(try pg.run(["--json", "books"]).out)["totalCount"] as? Int == 350)
        #expect(try pg.count("SELECT max(id) FROM books") == 350)

        let applied = try pg.run(["migrate", "--status"])
        #expect(applied.code == 0)
        #expect(
            applied.out
                == Migrations.postgresql.map { "applied  \($0.name)\n" }.joined())
        let checked = try pg.run(["migrate", "--check"])
        #expect(checked.code == 0)
        #expect(checked.out.hasSuffix("The database is up to date.\nThe search index agrees with the 350 books.\n"))
        let document = try parseJSON(try pg.run(["--json", "migrate", "--status"]).out)
        #expect((document["applied"] as? [String])?.count == Migrations.postgresql.count)
        #expect((document["pending"] as? [String]) == [])
    }

    @Test("export from SQLite, import into PostgreSQL, export again: the same catalog, as CSV and as JSON")
    func exportRoundTrip() throws {
        let pg = try PostgreSQLSandbox()
        let sqlite = pg.files
        #expect(sqlite.run(["init"]).code == 0)
        #expect(
            sqlite.run([
                "books", "add", "--title", "Quotes, \"commas\" and ünïcödé", "--author", "Ян Ли", "--year", "1500",
                "--description", "Line one; 'two'", "--pages", "1",
            ]).code == 0)
        let csv = sqlite.run(["export"])
        #expect(csv.code == 0)
        let file = sqlite.directory + "/catalog.csv"
        try csv.out.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try pg.run(["init", "--empty"]).code == 0)
        let imported = try pg.run(["import", file])
        #expect(imported.out == "books: 50 inserted, 0 updated, 0 unchanged, 0 skipped\n")
        #expect(try pg.run(["export"]).out == csv.out)
        #expect(try pg.run(["export", "--format", "json"]).out == sqlite.run(["export", "--format", "json"]).out)
        let output = sqlite.directory + "/again.json"
        #expect(try pg.run(["export", "-o", output]).code == 0)
        #expect(try pg.run(["import", output]).out == "books: 0 inserted, 0 updated, 50 unchanged, 0 skipped\n")
    }

    @Test("copy moves a whole library from SQLite to PostgreSQL and back: every screen, loan, token and PIN kept")
    func copyBetweenStores() throws {
        let pg = try PostgreSQLSandbox()
        let sqlite = pg.files
        sqlite.now = pg.now
        #expect(sqlite.run(["init"]).code == 0)
        for arguments in [["--client", "2", "take", "3", "5"], ["--client", "2", "return", "5"], ["take", "7"]] {
            #expect(sqlite.run(["-q"] + arguments).code == 0)
        }
        let token = sqlite.run(["tokens", "create", "--client", "1"]).out.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(sqlite.run(["clients", "pin", "3"], input: "9876\n").code == 0)
        let copied = try pg.run(["--json", "copy", "--from", sqlite.database, "--to", pg.url])
        #expect(copied.code == 0, "\(copied.err)")
        let counts = try parseJSON(copied.out)
        #expect(counts["books"] as? Int == 49 && counts["loans"] as? Int == 3 && counts["tokens"] as? Int == 1)
        for arguments in [
            ["--json", "list"], ["--json", "list", "--client", "2"], ["--json", "history", "--client", "2"],
            ["export"], ["--json", "clients"], ["--json", "tokens"],
        ] {
            let onPostgreSQL = try pg.run(arguments)
            #expect(onPostgreSQL.code == 0 && onPostgreSQL.out == sqlite.run(arguments).out, "\(arguments)")
        }
        // The token and the PIN work on the copy; new rows get ids after the copied ones.
        let store = try LibraryStore.open(at: pg.url, now: Timestamp(iso8601: pg.now))
        #expect(try store.authenticate(token: token, now: Timestamp(iso8601: pg.now))?.owner == .client(1))
        #expect(try store.pinMatches(cardNumber: "C-0003", pin: "9876"))
        let added = try pg.run(["clients", "add", "Fifth"])
        #expect(added.code == 0 && (added.out + added.err).contains("client #5"), "\(added.out)\(added.err)")
        #expect(try pg.run(["books", "add", "--title", "Fiftieth"]).code == 0)
        #expect(try pg.count("SELECT max(id) FROM books") == 50)
        #expect(try pg.run(["migrate", "--check"]).code == 0)
        // Into a library that is not empty: refused, nothing changed.
        let before = try pg.dump()
        let refused = try pg.run(["copy", "--from", sqlite.database, "--to", pg.url])
        #expect(refused.code == 1 && refused.err.contains("not empty"), "\(refused.err)")
        #expect(try pg.dump() == before)
        // And back into a new SQLite file: the same library.
        let back = sqlite.directory + "/back.sqlite"
        #expect(try pg.run(["copy", "--from", pg.url, "--to", back]).code == 0)
        for arguments in [["--json", "list", "--client", "2"], ["export"], ["--json", "tokens"]] {
            // Both named by LIBRARY_DB, so the commands in their screens are written alike (no --db).
            let copied = sqlite.run(arguments, environment: ["LIBRARY_DB": back])
            #expect(copied.out == (try pg.run(arguments)).out, "\(arguments)")
        }
    }

    @Test(
        "a role that may only read: list works, take is refused with exit 73 and changes nothing",
        .needsPostgreSQLRoles)
    func readOnlyRole() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init"]).code == 0)
        let role = "r_" + TestPostgreSQL.randomHex()
        let admin = try pg.connect()
        try admin.execute(script: "CREATE ROLE \(role) LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)")
        defer { try? admin.execute(script: "DROP OWNED BY \(role); DROP ROLE \(role)") }
        // The test database's URL with the new role as its user (whatever user the tests' URL names).
        let url = TestPostgreSQL.url(pg.url, user: role)
        let before = try pg.dump()
        let listed = try pg.run(["--db", url, "list"])
        #expect(listed.code == 0 && listed.out.contains("Hey John Doe!"), "\(listed.err)")
        let taken = try pg.run(["--db", url, "take", "3"])
        #expect(taken.code == 73, "\(taken.err)")
        #expect(
            taken.err.hasPrefix(
                "Error: the role \(role) may not read or write the library in the PostgreSQL database \(url) "
                    + "(permission denied for table "),
            "\(taken.err)")
        #expect(taken.err.contains("nothing was changed") && taken.err.contains("GRANT SELECT, INSERT"))
        // A password that is the role's name is masked in the whole message: the URL, the role and the GRANT.
        let masked = try pg.run(["--db", TestPostgreSQL.url(pg.url, user: "\(role):\(role)"), "take", "3"])
        #expect(masked.code == 73 && !masked.err.contains(role) && !masked.out.contains(role), "\(masked.err)")
        #expect(
            masked.err.hasPrefix(
                "Error: the role *** may not read or write the library in the PostgreSQL database postgresql://***@"),
            "\(masked.err)")
        #expect(try pg.dump() == before)
    }

    @Test(
        "a role that may read and write the tables but not create any: migrate and migrate --check need no CREATE",
        .needsPostgreSQLRoles)
    func readWriteRoleMigrates() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init"]).code == 0)
        let role = "r_" + TestPostgreSQL.randomHex()
        let admin = try pg.connect()
        try admin.execute(
            script: "CREATE ROLE \(role) LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC; "
                + "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role); "
                + "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(role)")
        defer { try? admin.execute(script: "DROP OWNED BY \(role); DROP ROLE \(role)") }
        let url = TestPostgreSQL.url(pg.url, user: role)
        let before = try pg.dump()
        let migrated = try pg.run(["--db", url, "migrate"])
        #expect(migrated.code == 0 && migrated.out.contains("The database is up to date."), "\(migrated.err)")
        let checked = try pg.run(["--db", url, "migrate", "--check"])
        #expect(checked.code == 0, "\(checked.err)")
        #expect(checked.out.contains("The database is up to date.") && checked.out.contains("The search index agrees"))
        let status = try pg.run(["--db", url, "migrate", "--status"])
        #expect(status.code == 0 && !status.out.contains("pending"), "\(status.err)")
        #expect(try pg.dump() == before)
    }

    @Test(
        "a role with CONNECT only, then CREATE on the schema too: every command finds the library and is refused (73)",
        .needsPostgreSQLRoles)
    func roleWithoutPrivileges() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init"]).code == 0)
        let role = "r_" + TestPostgreSQL.randomHex()
        let admin = try pg.connect()
        // CONNECT is every role's by default; PostgreSQL 15 gives no one CREATE on the schema public, 14 and older
        // give it to everyone (the second round).
        try admin.execute(script: "CREATE ROLE \(role) LOGIN")
        defer { try? admin.execute(script: "DROP OWNED BY \(role); DROP ROLE \(role)") }
        let url = TestPostgreSQL.url(pg.url, user: role)
        let before = try pg.dump()
        for grant in ["", "GRANT CREATE ON SCHEMA public TO \(role)"] {
            if !grant.isEmpty { try admin.execute(script: grant) }
            for arguments in [
                ["list"], ["books"], ["export"], ["--json", "clients"], ["take", "5"], ["init"], ["migrate"],
                ["migrate", "--status"], ["clients", "add", "Eve"],
            ] {
                let result = try pg.run(["--db", url] + arguments)
                #expect(result.code == 73, "\(grant) \(arguments): \(result.err)")
                #expect(
                    result.err
                        == "Error: the role \(role) may not read or write the library in the PostgreSQL database "
                        + "\(url) (permission denied for table schema_migrations); nothing was changed. Grant it the "
                        + "library's tables (GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "
                        + "\(role); GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(role); reading needs SELECT "
                        + "only), or use another role.\n",
                    "\(grant) \(arguments)")
                #expect(result.out.isEmpty, "\(arguments)")
            }
        }
        #expect(try pg.dump() == before)
        #expect(try pg.count("SELECT count(*) FROM pg_catalog.pg_tables WHERE tableowner = '\(role)'") == 0)
    }

    @Test(
        "a role with the tables but no USAGE on the schema: every command and serve name the GRANT (73), none creates",
        .needsPostgreSQLRoles)
    func roleWithoutSchemaUsage() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init"]).code == 0)
        let role = "r_" + TestPostgreSQL.randomHex()
        let admin = try pg.connect()
        // A common hardening: PUBLIC loses the schema, the role gets the tables only.
        try admin.execute(
            script: "CREATE ROLE \(role) LOGIN; REVOKE ALL ON SCHEMA public FROM PUBLIC; "
                + "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role); "
                + "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(role)")
        defer { try? admin.execute(script: "DROP OWNED BY \(role); DROP ROLE \(role)") }
        let url = TestPostgreSQL.url(pg.url, user: role)
        let before = try pg.dump()
        for arguments in [
            ["list"], ["take", "2"], ["init"], ["migrate"], ["migrate", "--status"], ["migrate", "--check"],
            ["serve", "--port", "0"],
        ] {
            let result = try pg.run(["--db", url] + arguments)
            #expect(result.code == 73, "\(arguments): \(result.err)")
            #expect(
                result.err
                    == "Error: the role \(role) may not use the schema public, which holds the library, in the "
                    + "PostgreSQL database \(url) (permission denied for schema public); nothing was changed. Grant "
                    + "it: GRANT USAGE ON SCHEMA public TO \(role); or use another role.\n",
                "\(arguments)")
            #expect(result.out.isEmpty, "\(arguments)")
        }
        #expect(try pg.dump() == before)
        // Granted, the role uses the library.
        try admin.execute(script: "GRANT USAGE ON SCHEMA public TO \(role)")
        let taken = try pg.run(["--db", url, "take", "2"])
        #expect(taken.code == 0, "\(taken.err)")
    }

    @Test(
        "a role with the tables but not their ownership, given a pending migration: told to migrate with the owner (73)",
        .needsPostgreSQLRoles)
    func roleThatDoesNotOwnTheTablesMigrates() throws {
        let pg = try PostgreSQLSandbox()
        // A library an older librarycli made: every migration but the last, which changes a table.
        let older = PostgreSQLMigrator(migrations: Array(Migrations.postgresql.dropLast()))
        try older.migrate(try pg.connect(), appliedAt: pg.now)
        let role = "r_" + TestPostgreSQL.randomHex()
        let admin = try pg.connect()
        try admin.execute(
            script: "CREATE ROLE \(role) LOGIN; "
                + "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role); "
                + "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(role)")
        defer { try? admin.execute(script: "DROP OWNED BY \(role); DROP ROLE \(role)") }
        let url = TestPostgreSQL.url(pg.url, user: role)
        let before = try pg.dump()
        for arguments in [["migrate"], ["take", "1"]] {
            let result = try pg.run(["--db", url] + arguments)
            #expect(result.code == 73, "\(arguments): \(result.err)")
            #expect(
                result.err.hasPrefix(
                    "Error: the role \(role) may not change the library's tables in the PostgreSQL database \(url) "
                        + "(must be owner of "),
                "\(arguments): \(result.err)")
            #expect(
                result.err.hasSuffix(
                    "as migrating them needs; nothing was changed. Migrate with the role that owns the tables, then "
                        + "use this one.\n"),
                "\(arguments): \(result.err)")
            #expect(!result.err.contains("GRANT"), "\(arguments)")
        }
        #expect(try pg.dump() == before)
        #expect(try pg.run(["migrate"]).code == 0)
        let status = try pg.run(["--db", url, "migrate", "--status"])
        #expect(status.code == 0 && !status.out.contains("pending"), "\(status.err)")
    }

    @Test(
        "a role that may not create tables in an empty database: init says so (73) and creates nothing",
        .needsPostgreSQLRoles)
    func roleThatMayNotCreate() throws {
        let pg = try PostgreSQLSandbox()
        let role = "r_" + TestPostgreSQL.randomHex()
        let admin = try pg.connect()
        try admin.execute(script: "CREATE ROLE \(role) LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        defer { try? admin.execute(script: "DROP OWNED BY \(role); DROP ROLE \(role)") }
        let url = TestPostgreSQL.url(pg.url, user: role)
        let result = try pg.run(["--db", url, "init"])
        #expect(result.code == 73, "\(result.err)")
        #expect(
            result.err
                == "Error: the role \(role) may not create the library's tables in the PostgreSQL database \(url) "
                + "(permission denied for schema public); nothing was changed. Create the library with the database "
                + "owner's role, or grant it: GRANT CREATE ON SCHEMA public TO \(role);\n")
        #expect(try pg.dump().isEmpty)
        // A command that only reads says there is no library yet, as for any role.
        let listed = try pg.run(["--db", url, "list"])
        #expect(listed.code == 73 && listed.err.contains("holds no library yet"), "\(listed.err)")
    }

    @Test("a missing database, an unreachable server, a password in the URL, another program's database")
    func errors() throws {
        let pg = try PostgreSQLSandbox()
        let base = try #require(TestPostgreSQL.baseURL)
        let missingName = "t_" + TestPostgreSQL.randomHex()
        let missing = TestPostgreSQL.url(base, database: missingName)
        for arguments in [["list"], ["init"], ["take", "1"], ["migrate"], ["serve", "--port", "0"]] {
            let result = try Binary.run(["--db", missing] + arguments, environment: pg.environment)
            #expect(result.code == 73, "\(arguments): \(result.err)")
            #expect(result.err.hasPrefix("Error: the PostgreSQL database \(missing) does not exist"))
            #expect(result.err.contains("\"\(missingName)\""))
        }
        let unreachable = try Binary.run(["--db", "postgresql://u@127.0.0.1:1/x", "list"], environment: pg.environment)
        #expect(unreachable.code == 75)
        #expect(unreachable.err.hasPrefix("Error: cannot reach the PostgreSQL database postgresql://u@127.0.0.1:1/x: "))
        #expect(unreachable.err.contains("Connection refused"))
        #expect(unreachable.err.hasSuffix("Nothing was changed; try again.\n"))
        #expect(!unreachable.err.contains("?."))
        // A host name that does not resolve is out of reach too, whatever the name says.
        let unknownHost = try Binary.run(
            ["--db", "postgresql://u@nosuchhost.invalid/x", "list"], environment: pg.environment)
        #expect(unknownHost.code == 75, "\(unknownHost.err)")
        #expect(
            unknownHost.err.hasPrefix(
                "Error: cannot reach the PostgreSQL database postgresql://u@nosuchhost.invalid/x: "))

        // SSL asked of a server without it: the server's reason (73), as trying again cannot help. (Over TCP: a Unix
        // socket never uses SSL; only when the test server listens on 127.0.0.1 without SSL.)
        let admin = try pg.connect()
        let (ssl, port, addresses) = try #require(
            try admin.fetchOne(
                "SELECT current_setting('ssl'), current_setting('port'), current_setting('listen_addresses')"
            ) {
                ($0.string(0), $0.string(1), $0.string(2))
            })
        if ssl == "off" && (addresses.contains("127.0.0.1") || addresses.contains("*") || addresses == "localhost") {
            let user = try #require(try admin.fetchOne("SELECT current_user::text") { $0.string(0) })
            let url = "postgresql://\(user)@127.0.0.1:\(port)/\(pg.name)?sslmode=require"
            for arguments in [["list"], ["take", "1"], ["serve", "--port", "0"]] {
                let result = try Binary.run(["--db", url] + arguments, environment: pg.environment)
                #expect(result.code == 73, "\(arguments): \(result.err)")
                #expect(result.err.hasPrefix("Error: cannot use the PostgreSQL database \(url): "), "\(result.err)")
                #expect(result.err.contains("server does not support SSL, but SSL was required"), "\(result.err)")
                #expect(!result.err.contains("try again"), "\(result.err)")
            }
        }

        // A password never shows, in any message; a URL libpq cannot read is refused (73), not worth retrying.
        let secrets = [
            "postgresql://u:SECRET@127.0.0.1:1/x", "postgres://u:SECRET@127.0.0.1:1/x?connect_timeout=2",
            "postgresql://u@127.0.0.1:1/x?password=SECRET", "postgresql://u:SECRET@[::1/x",
            "postgresql://u:SECRET@127.0.0.1:notaport/x", "postgresql://u:SE%zzCRET@127.0.0.1:1/x",
            "postgresql://u:SECRET@127.0.0.1:1/x?password=SE%zz", "postgresql://u:SECRET@127.0.0.1:1/x?bogus=1",
        ]
        for url in secrets {
            for arguments in [["list"], ["init"], ["take", "1"], ["migrate", "--status"], ["serve", "--port", "0"]] {
                let result = try Binary.run(["--db", url] + arguments, environment: pg.environment)
                #expect(result.code == 75 || result.code == 73, "\(url) \(arguments): \(result.err)")
                #expect(!result.err.contains("SECRET") && !result.out.contains("SECRET"), "\(result.err)")
                #expect(!result.err.contains("SE%zz") && !result.err.contains("CRET"), "\(result.err)")
                #expect(result.err.hasPrefix("Error: "))
            }
        }
        let malformed = try Binary.run(["--db", "postgresql://u:SECRET@[::1/x", "list"], environment: pg.environment)
        #expect(malformed.code == 73)
        #expect(malformed.err.contains("postgresql://u@[::1/x"))
        let badPort = try Binary.run(
            ["--db", "postgresql://u:SECRET@127.0.0.1:notaport/x", "list"], environment: pg.environment)
        #expect(badPort.code == 73)
        #expect(badPort.err.contains("notaport"))

        // Another program's database: refused by every command, left as it was.
        try pg.connect().execute(script: "CREATE TABLE stuff (x integer); INSERT INTO stuff VALUES (1)")
        let before = try pg.dump()
        for arguments in [["list"], ["init"], ["init", "--empty"], ["migrate"], ["take", "1"], ["seed"]] {
            let result = try pg.run(arguments)
            #expect(result.code == 73, "\(arguments): \(result.err)")
            #expect(
                result.err
                    == "Error: '\(pg.url)' is not a librarycli database: it holds other tables (stuff) and no record "
                    + "of librarycli's migrations; it was left as it is.\n")
        }
        #expect(try pg.dump() == before)
    }

    @Test("8 processes run init on one new database at once: all succeed, it is seeded once, one says it made it")
    func raceToInit() throws {
        let pg = try PostgreSQLSandbox()
        let running = try (1...8).map { _ in try RunningBinary(["init"], environment: pg.environment) }
        let results = running.map { $0.finish() }
        #expect(results.map(\.code) == Array(repeating: 0, count: 8), "\(results.map(\.err))")
        #expect(results.filter { $0.err.hasPrefix("Created a library with the demo catalog") }.count == 1)
        #expect(
            results.filter { $0.err == "The library at \(pg.url) already exists; nothing was changed.\n" }.count == 7,
            "\(results.map(\.err))")
        #expect(try pg.count("SELECT count(*) FROM books") == 49)
        #expect(try pg.count("SELECT count(*) FROM clients") == 4)
        #expect(try pg.count("SELECT count(*) FROM schema_migrations") == Migrations.postgresql.count)
    }

    @Test("4 processes import one catalog at once: each book once, every import succeeds, ids dense")
    func raceToImport() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init", "--empty"]).code == 0)
        let file = pg.files.directory + "/catalog.csv"
        let rows = (1...1_500).map {
            "Book \($0),Author \($0 % 7),\(1900 + $0 % 100),97800000\(String(format: "%05d", $0))"
        }
        try ("title,author,year,isbn\n" + rows.joined(separator: "\n") + "\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        let running = try (1...4).map { _ in try RunningBinary(["-q", "import", file], environment: pg.environment) }
        let results = running.map { $0.finish() }
        #expect(results.map(\.code) == [0, 0, 0, 0], "\(results.map(\.err))")
        #expect(try pg.count("SELECT count(*) FROM books") == 1_500)
        #expect(try pg.count("SELECT max(id) FROM books") == 1_500)
        #expect(try pg.count("SELECT book_count FROM library_stats") == 1_500)
    }

    @Test("16 processes take one book at once: one loan, fifteen refusals with exit 1")
    func raceForOneBook() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init", "--empty"]).code == 0)
        let store = try LibraryStore.open(at: pg.url, now: try Timestamp(iso8601: pg.now))
        _ = try store.addBook(NewBook(title: "Dune", author: "Frank Herbert"))
        let clients = try (1...16).map { try store.addClient(name: "Client \($0)", now: .earliest).id }
        let running = try clients.map { client in
            try RunningBinary(["--client", String(client), "-q", "take", "1"], environment: pg.environment)
        }
        let results = running.map { $0.finish() }
        #expect(results.filter { $0.code == 0 }.count == 1, "\(results.map(\.err))")
        let refused = results.filter { $0.code == 1 }
        #expect(refused.count == 15)
        #expect(refused.allSatisfy { $0.err.hasPrefix("Error: Dune (#1) is on loan to someone else") })
        #expect(try pg.count("SELECT count(*) FROM loans") == 1)
    }

    @Test("a client with a limit of 5 takes 10 books from 10 processes at once: exactly 5 loans")
    func raceToTheLimit() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init", "--empty"]).code == 0)
        #expect(try pg.run(["clients", "add", "Max", "--limit", "5"]).code == 0)
        let store = try LibraryStore.open(at: pg.url, now: try Timestamp(iso8601: pg.now))
        for number in 1...10 { _ = try store.addBook(NewBook(title: "Book \(number)")) }
        let running = try (1...10).map { book in
            try RunningBinary(
                ["-q", "take", String(book)], environment: pg.environment.merging(["LIBRARY_CLIENT": "1"]) { $1 })
        }
        let results = running.map { $0.finish() }
        #expect(results.filter { $0.code == 0 }.count == 5, "\(results.map(\.err))")
        let refused = results.filter { $0.code == 1 }
        #expect(refused.count == 5)
        #expect(
            refused.allSatisfy { $0.err.hasPrefix("Error: You have 5 of your 5 books; you cannot take 1 more book.") })
        #expect(try pg.count("SELECT count(*) FROM loans WHERE client_id = 1 AND returned_at IS NULL") == 5)
        let loans = try parseJSON(try pg.run(["--json", "loans", "--client", "1"]).out)
        #expect((loans["loans"] as? [Any])?.count == 5)
    }

    @Test("8 processes return one loan at once: one succeeds; 8 renew one at once: each success is a renewal")
    func raceOnOneLoan() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init", "--empty"]).code == 0)
        let store = try LibraryStore.open(at: pg.url, now: try Timestamp(iso8601: pg.now))
        let client = try store.addClient(name: "Ann", now: .earliest).id
        for number in 1...6 { _ = try store.addBook(NewBook(title: "Book \(number)")) }
        let environment = pg.environment.merging(["LIBRARY_CLIENT": String(client)]) { $1 }
        for book in 1...3 {
            try store.take(bookIDs: [book], clientID: client, now: try Timestamp(iso8601: pg.now))
            let running = try (1...8).map { _ in
                try RunningBinary(["-q", "return", String(book)], environment: environment)
            }
            let results = running.map { $0.finish() }
            #expect(results.filter { $0.code == 0 }.count == 1, "\(results.map(\.err))")
            #expect(results.filter { $0.code == 1 && $0.err.contains("You do not have Book \(book)") }.count == 7)
        }
        for book in 4...6 {
            try store.take(bookIDs: [book], clientID: client, now: try Timestamp(iso8601: pg.now))
            let running = try (1...8).map { _ in
                try RunningBinary(["-q", "renew", String(book)], environment: environment)
            }
            let results = running.map { $0.finish() }
            #expect(results.filter { $0.code == 0 }.count == 2, "\(results.map(\.err))")
            #expect(results.filter { $0.code == 1 && $0.err.contains("already renewed 2 times") }.count == 6)
            #expect(try pg.count("SELECT renewals FROM loans WHERE book_id = \(book)") == 2)
        }
    }

    @Test("8 processes take and return at random: no book lent twice, no client over the limit, every answer kept")
    func mixedLoad() throws {
        let pg = try PostgreSQLSandbox()
        #expect(try pg.run(["init", "--empty"]).code == 0)
        let store = try LibraryStore.open(at: pg.url, now: try Timestamp(iso8601: pg.now))
        for number in 1...5 { _ = try store.addBook(NewBook(title: "Book \(number)")) }
        _ = try store.addClient(name: "Ann", loanLimit: 2, now: .earliest)
        _ = try store.addClient(name: "Bob", loanLimit: 3, now: .earliest)
        // Each worker is one shell running its commands one after the other, printing each one's exit code.
        var generator = SystemRandomNumberGenerator()
        let workers = try (0..<8).map { _ -> Process in
            var script = "set -u\n"
            for _ in 0..<10 {
                let verb = Bool.random(using: &generator) ? "take" : "return"
                let client = Int.random(in: 1...2, using: &generator)
                let book = Int.random(in: 1...5, using: &generator)
                script += "\"$BIN\" -q --client \(client) \(verb) \(book) >/dev/null 2>&1; "
                script += "echo \"\(verb) \(client) \(book) $?\"\n"
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", script]
            process.environment = pg.environment.merging(["BIN": Binary.url.path]) { $1 }
            process.standardOutput = Pipe()
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        var outcomes: [(verb: String, client: Int, book: Int, code: Int)] = []
        for worker in workers {
            let pipe = try #require(worker.standardOutput as? Pipe)
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            worker.waitUntilExit()
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                outcomes.append((String(parts[0]), Int(parts[1])!, Int(parts[2])!, Int(parts[3])!))
            }
        }
        #expect(outcomes.count == 80)
        #expect(outcomes.allSatisfy { $0.code == 0 || $0.code == 1 }, "\(outcomes.filter { $0.code > 1 })")
        #expect(outcomes.contains { $0.verb == "take" && $0.code == 0 })
        // The database agrees with the answers: one loan per take that succeeded, one return per return that did.
        let takes = outcomes.filter { $0.verb == "take" && $0.code == 0 }.count
        let returns = outcomes.filter { $0.verb == "return" && $0.code == 0 }.count
        #expect(try pg.count("SELECT count(*) FROM loans") == takes)
        #expect(try pg.count("SELECT count(*) FROM loans WHERE returned_at IS NOT NULL") == returns)
        #expect(
            try pg.count(
                "SELECT count(*) FROM (SELECT book_id FROM loans WHERE returned_at IS NULL GROUP BY book_id "
                    + "HAVING count(*) > 1) AS twice") == 0)
        #expect(
            try pg.count(
                """
                SELECT count(*) FROM clients c
                WHERE (SELECT count(*) FROM loans l WHERE l.client_id = c.id AND l.returned_at IS NULL) > c.loan_limit
                """) == 0)
        for client in 1...2 {
            let loans = try parseJSON(try pg.run(["--json", "loans", "--client", String(client)]).out)
            #expect(
                (loans["loans"] as? [Any])?.count
                    == (try pg.count("SELECT count(*) FROM loans WHERE client_id = \(client) AND returned_at IS NULL")))
        }
    }
}
