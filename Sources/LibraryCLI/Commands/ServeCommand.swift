import HTTP
import Library
import LibraryServer
import PostgreSQL
import SQLite
import Seeding

/// `serve`: the HTTP/JSON API on libmicrohttpd (see the LibraryServer module), until SIGINT or SIGTERM.
enum ServeCommand {
    static func run(_ context: CommandContext) throws -> ExitCode {
        // Block the termination signals before any thread starts, so they all inherit the mask and `wait` gets them.
        let signals = TerminationSignals()
        let parsed = context.parsed
        let host = parsed.string("host") ?? "127.0.0.1"
        let port = try parsed.integer("port", in: 0...65_535) ?? 8080
        let threads = try parsed.integer("threads", in: 1...256) ?? 4
        let origins = parsed.strings("allow-origin")
        var crossOrigin: CrossOrigin?
        if !origins.isEmpty {
            do {
                crossOrigin = try CrossOrigin(allowing: origins)
            } catch {
                throw Failure(message: "--allow-origin: \(error).", code: .usage)
            }
        }
        if context.options.format == .json {
            throw Failure(
                message: "'\(CommandContext.programName) serve' answers JSON over HTTP; leave out --json and --format.",
                code: .usage)
        }
        let fixedNow: Timestamp? =
            context.environment["LIBRARY_NOW"].flatMap { $0.isEmpty ? nil : $0 } == nil
            ? nil : try context.now
        // Migrate the database first (the default one is created and seeded on first use, as `list` does); a
        // database named with --db must exist, as for the commands that read: a server is not how a library starts.
        let demoSignIns: [DemoSignIn]
        do {
            let store = try context.openStore(.reads)
            demoSignIns = try context.withDatabase { try Self.demoSignIns(store) }
        }
        let console = context.console
        var configuration = ServerConfiguration(host: host, port: port, threads: threads)
        if !context.options.isQuiet {
            configuration.accessLog = { entry in console.err(entry.line + "\n") }
        }
        configuration.errorLog = { request, error in console.err(LibraryService.errorLine(request, error) + "\n") }
        let service: LibraryService
        do {
            service = try LibraryService.start(
                databasePath: context.options.database.path, configuration: configuration,
                demoSignIns: demoSignIns, crossOrigin: crossOrigin, log: { line in console.err(line + "\n") },
                now: { fixedNow ?? Timestamp.systemNow() })
        } catch let error as ServerError {
            switch error {
            case .badHost, .badPort, .badConfiguration: throw Failure(message: "\(error).", code: .usage)
            case .cannotListen: throw Failure(message: "\(error).", code: .cannotListen)
            }
        } catch let error as SQLiteError {
            throw Failure(sqlite: error, path: context.options.database.path)
        } catch let error as PostgreSQLError {
            throw Failure(postgresql: error, name: context.options.database.displayName)
        } catch let error as MigrationError {
            throw Failure(migration: error, path: context.options.database.displayName)
        }
        console.err("Listening on \(service.server.url)\n")
        _ = signals.wait()
        service.stop()
        if service.databaseMoved {
            // It kept answering (503) so that a supervisor saw it; it ends saying so too.
            throw Failure(
                message: "the database file \(context.options.database.path) was moved, renamed, deleted or replaced "
                    + "while serving; the requests after that were refused (503 database-moved).",
                code: .cannotWrite)
        }
        return .success
    }

    /// The demo clients (`seed/clients.csv`) whose documented demo PIN still signs them in here: on the demo
    /// database all four, on any other none (no such card, or another PIN). The web front's sign-in page shows
    /// them (`GET /v1/demo`); the PINs are in README, so showing them tells no one anything new.
    static func demoSignIns(_ store: LibraryStore) throws -> [DemoSignIn] {
        var found: [DemoSignIn] = []
        for client in DemoData.clients {
            guard let pin = client.pin, let stored = try store.client(cardNumber: client.cardNumber),
                try store.pinMatches(cardNumber: client.cardNumber, pin: pin)
            else { continue }
            found.append(DemoSignIn(name: stored.name, cardNumber: client.cardNumber, pin: pin))
        }
        return found
    }
}
