import HTTP
import Library
import LibraryServer
import SQLite

/// `serve`: the HTTP/JSON API on libmicrohttpd (see the LibraryServer module), until SIGINT or SIGTERM.
enum ServeCommand {
    static func run(_ context: CommandContext) throws -> ExitCode {
        // Block the termination signals before any thread starts, so they all inherit the mask and `wait` gets them.
        let signals = TerminationSignals()
        let parsed = context.parsed
        let host = parsed.string("host") ?? "127.0.0.1"
        let port = try parsed.integer("port", in: 0...65_535) ?? 8080
        let threads = try parsed.integer("threads", in: 1...256) ?? 4
        if context.options.format == .json {
            throw Failure(
                message: "'\(context.program) serve' answers JSON over HTTP; leave out --json and --format.",
                code: .usage)
        }
        let fixedNow: Timestamp? =
            context.environment["LIBRARY_NOW"].flatMap { $0.isEmpty ? nil : $0 } == nil
            ? nil : try context.now
        // Create, migrate (and for the default database, seed) the database first, as every writing command does.
        _ = try context.openStore(.writes)
        let console = context.console
        var configuration = ServerConfiguration(host: host, port: port, threads: threads)
        if !context.options.isQuiet {
            configuration.accessLog = { entry in console.err(entry.line + "\n") }
        }
        configuration.errorLog = { request, error in
            console.err("Error: request \(request.requestID) (\(request.method) \(request.path)) failed: \(error)\n")
        }
        let service: LibraryService
        do {
            service = try LibraryService.start(
                databasePath: context.options.database.path, configuration: configuration,
                now: { fixedNow ?? Timestamp.systemNow() })
        } catch let error as ServerError {
            switch error {
            case .badHost, .badPort, .badConfiguration: throw Failure(message: "\(error).", code: .usage)
            case .cannotListen: throw Failure(message: "\(error).", code: .refused)
            }
        } catch let error as SQLiteError {
            throw Failure(sqlite: error, path: context.options.database.path)
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        console.err("Listening on http://\(shownHost):\(service.port)\n")
        _ = signals.wait()
        service.stop()
        return .success
    }
}
