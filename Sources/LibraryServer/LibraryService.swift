import HTTP
import Library
import PostgreSQL
import SQLite

/// What the routes share: the stores, the kept screen versions, the live feed and the clock.
struct ServiceParts: Sendable {
    let pool: StorePool
    let versions: ScreenVersions
    let feed: ChangeFeed
    let now: @Sendable () -> Timestamp
    /// Where tokens' last uses are noted, to be written off the request path.
    let tokenUses: TokenUseRecorder
    /// The demo clients the web front's sign-in page may show (none unless this is the demo database).
    var demoSignIns: [DemoSignIn] = []
}

/// The library's HTTP API (`librarycli serve`): the routes, bearer-token authentication, the mapping of the
/// library's refusals to problems, and the watcher that sends screen changes to open event streams and waiting
/// long-polls. Handlers only call the store and pick a renderer; the store knows no HTTP.
///
///     let signals = TerminationSignals()
///     let service = try LibraryService.start(
///         databasePath: "library.sqlite", configuration: ServerConfiguration(port: 0), now: { Timestamp.systemNow() })
///     print("Listening on http://127.0.0.1:\(service.port)")
///     _ = signals.wait()
///     service.stop()
public final class LibraryService: Sendable {
    /// The HTTP server.
    public let server: Server
    private let parts: ServiceParts

    /// The port it listens on.
    public var port: Int { server.port }

    private init(server: Server, parts: ServiceParts) {
        self.server = server
        self.parts = parts
    }

    /// Opens the database at `databasePath` (one connection per worker thread, plus the watcher's), starts the
    /// change watcher (polling every `watchInterval`: by default 10 ms on SQLite, where a look is one read of shared
    /// memory, and 50 ms on PostgreSQL, where it is a round trip) and the server. The database must exist and be migrated
    /// (the CLI opens it first). `demoSignIns` are the demo clients the web front's sign-in page shows (`GET
    /// /v1/demo`): give those whose documented demo PIN still works, and none on any other database. With
    /// `crossOrigin`, pages from the origins it allows may call the API from a browser (CORS); without, no
    /// `Access-Control-*` header is sent.
    ///
    /// An SQLite file moved, renamed, deleted or replaced while the service runs is written no more: from the
    /// request that finds it on (requests look at most every 100 ms, one `stat`; a write looks before it commits),
    /// every request is answered 503 `database-moved`,
    /// `/healthz` included, and `log` gets one line naming the file. The service keeps running, so that whoever
    /// supervises it sees the 503s; it is restarted on the library's file.
    ///
    ///     let service = try LibraryService.start(databasePath: path, configuration: configuration, now: clock)
    ///
    /// - Throws: `ServerError` when the address cannot be bound, the store's errors when the database cannot be
    ///   opened.
    public static func start(
        databasePath: String, configuration: ServerConfiguration, databaseOptions: DatabaseOptions = DatabaseOptions(),
        watchInterval: Duration? = nil, demoSignIns: [DemoSignIn] = [], crossOrigin: CrossOrigin? = nil,
        log: (@Sendable (String) -> Void)? = nil, now: @escaping @Sendable () -> Timestamp
    ) throws -> LibraryService {
        let pool = StorePool(
            path: databasePath, options: databaseOptions, maxIdle: configuration.threads + 8, log: log, now: now)
        _ = try pool.with { store in try store.dataVersion() }  // fails early on a database that cannot be opened
        let versions = ScreenVersions()
        let interval = watchInterval ?? .milliseconds(LibraryDatabase.isPostgreSQLURL(databasePath) ? 50 : 10)
        let feed = ChangeFeed(pool: pool, versions: versions, interval: interval, now: now)
        let parts = ServiceParts(
            pool: pool, versions: versions, feed: feed, now: now, tokenUses: TokenUseRecorder(pool: pool),
            demoSignIns: demoSignIns)
        try feed.start()
        // The access log never shows a token, whatever the query key (or path segment) it was sent in.
        var configuration = configuration
        let ownSecrets = configuration.isSecretValue
        configuration.isSecretValue = { value in Authentication.holdsToken(value) || ownSecrets?(value) == true }
        do {
            let server = try Server.start(
                router: router(parts),
                middleware: middleware(parts, crossOrigin: crossOrigin, errorLog: configuration.errorLog),
                configuration: configuration)
            return LibraryService(server: server, parts: parts)
        } catch {
            feed.stop()
            throw error
        }
    }

    /// Stops gracefully: no new connections, requests in flight finish, streams end cleanly, then the watcher
    /// stops and the connections close. Calling it again does nothing.
    ///
    ///     service.stop()
    public func stop() {
        server.stop()
        parts.feed.stop()
        parts.tokenUses.stop()
        parts.pool.drain()
    }

    /// Whether the SQLite database file was moved, renamed, deleted or replaced since the service opened it (looked
    /// at now, one `stat`): the service then answers every request 503 `database-moved` (see `start`). Always false
    /// on PostgreSQL.
    ///
    ///     service.stop()
    ///     if service.databaseMoved { exit(73) }
    public var databaseMoved: Bool {
        (try? parts.pool.refuseIfMoved(now: true)) == nil
    }

    /// A service no one holds any more is stopped (its watcher thread too).
    deinit {
        stop()
    }

    /// The line `serve` logs on stderr for a request answered 500: the request id (the access log's `id=`), the
    /// method and what failed, but not the target (a token could be in it; the access log shows it redacted). A
    /// PostgreSQL error is its SQLSTATE and message only (no SQL, no detail, which may quote values), an SQLite error
    /// its extended code and message (no SQL), any other error its type alone (its words may quote a stored value);
    /// always one line. The messages hold no token, PIN or password (the library sends only their hashes, and
    /// passwords are left out of libpq's words).
    ///
    ///     LibraryService.errorLine(request, error)
    ///     // "Error: request 5f0c... (POST) failed: PostgreSQL error 42501: permission denied for table loans"
    public static func errorLine(_ request: Request, _ error: any Error) -> String {
        let reason: String
        switch error {
        case let failure as PostgreSQLError: reason = "PostgreSQL error \(failure.sqlState): \(failure.message)"
        case let failure as SQLiteError: reason = "SQLite error \(failure.extendedCode): \(failure.message)"
        // Another error's words may quote a stored value: its type says what failed, and the request id finds it.
        default: reason = "\(type(of: error))"
        }
        // One line, whatever the words hold.
        let line = "Error: request \(request.requestID) (\(request.method)) failed: \(reason)"
        return String(line.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    /// The API's routes, without handlers that work (for the API description and its test).
    ///
    ///     LibraryService.routes.map { "\($0.method) \($0.pattern)" }  // ["GET /healthz", ...]
    public static var routes: [Route] {
        let pool = StorePool(path: "/nonexistent", now: { Timestamp.earliest })
        let versions = ScreenVersions()
        let parts = ServiceParts(
            pool: pool, versions: versions,
            feed: ChangeFeed(pool: pool, versions: versions, now: { Timestamp.earliest }),
            now: { Timestamp.earliest }, tokenUses: TokenUseRecorder(pool: pool))
        return router(parts).routes
    }

    static func router(_ parts: ServiceParts) -> Router {
        var router = Router()
        SessionRoutes(service: parts).add(to: &router)
        router.get("/v1/openapi.json") { _ in
            Response(
                status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"],
                body: Array(OpenAPI.document.utf8))
        }
        ScreenRoutes(service: parts).add(to: &router)
        LoanRoutes(service: parts).add(to: &router)
        BookRoutes(service: parts).add(to: &router)
        WebRoutes(demoSignIns: parts.demoSignIns).add(to: &router)
        return router
    }

    /// Cross-origin headers outermost (so problems carry them too), then the mapping of the library's errors to
    /// problems (every error answered 500 goes to `errorLog`, as the server's own last resort sends it), then the
    /// refusal of every request once the database file moved, then authentication.
    static func middleware(
        _ parts: ServiceParts, crossOrigin: CrossOrigin? = nil,
        errorLog: (@Sendable (Request, any Error) -> Void)? = nil
    ) -> [Middleware] {
        (crossOrigin.map { [Middleware.crossOrigin($0)] } ?? []) + [
            Middleware.problems(map: ProblemMapping.problem(for:)) { request, error in errorLog?(request, error) },
            Middleware { [pool = parts.pool] request, next in
                try pool.refuseIfMoved()
                return try next(request)
            },
            Authentication.middleware(pool: parts.pool, uses: parts.tokenUses, now: parts.now),
        ]
    }
}
