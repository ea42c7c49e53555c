import CMicroHTTPD
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd (keep-alive, pipelining, a pool of epoll worker threads) that answers
/// through a ``Router`` and ``Middleware``.
///
/// Every response carries an `X-Request-Id` of its own; errors a handler throws become RFC 9457 problems (500 without
/// detail for errors that are not a ``Problem``); an access-log entry goes to the configured sink when each
/// request ends. Limits (body, target, headers, connections, timeouts) are in ``ServerConfiguration``.
///
///     var router = Router()
///     router.get("/healthz") { _ in .json(["status": "ok"]) }
///     let signals = TerminationSignals()          // first, before any thread starts
///     let server = try Server.start(router: router, configuration: ServerConfiguration(port: 0))
///     print("Listening on http://127.0.0.1:\(server.port)")
///     signals.wait()                              // SIGINT or SIGTERM
///     server.stop()                               // graceful
public final class Server: Sendable {
    /// The configuration it runs with.
    public let configuration: ServerConfiguration
    /// The port it listens on (the one picked when the configuration asked for 0).
    public let port: Int

    /// The address it answers on, as a URL: `http://HOST:PORT`, an IPv6 host in brackets.
    ///
    ///     print("Listening on \(server.url)")  // "Listening on http://[::1]:8080"
    public var url: String {
        "http://" + ServerConfiguration.authority(host: configuration.host, port: port)
    }

    private let core: ServerCore

    private init(configuration: ServerConfiguration, port: Int, core: ServerCore) {
        self.configuration = configuration
        self.port = port
        self.core = core
    }

    /// Starts listening and answering on worker threads; returns once connections are accepted.
    ///
    ///     let server = try Server.start(router: router, middleware: [auth], configuration: configuration)
    ///
    /// - Throws: ``ServerError`` for a bad host, port or limit, or when the address cannot be bound.
    public static func start(
        router: Router, middleware: [Middleware] = [], configuration: ServerConfiguration = ServerConfiguration()
    ) throws(ServerError) -> Server {
        try start(responder: Middleware.chain(middleware, around: router.respond(to:)), configuration: configuration)
    }

    /// Starts a server that answers every request with `responder` (for a router of one's own).
    ///
    ///     let server = try Server.start(responder: { _ in .text("hi") }, configuration: configuration)
    public static func start(responder: @escaping Responder, configuration: ServerConfiguration) throws(ServerError)
        -> Server
    {
        let core = ServerCore(configuration: configuration, responder: responder)
        let port = try core.start()
        return Server(configuration: configuration, port: port, core: core)
    }

    /// Stops gracefully, and returns when done: stops accepting connections, ends open event streams cleanly and
    /// answers waiting deferred responses with their timeout response, lets requests in flight finish (up to
    /// ``ServerConfiguration/stopTimeout``; later responses say `Connection: close`), then closes every
    /// connection. A request whose header section had not all arrived is not in flight: its connection is closed
    /// at once, as an idle one is. Safe to call from any thread (typically the one that waited for a signal, see
    /// ``TerminationSignals``) but not from a handler; calling it again does nothing.
    ///
    ///     server.stop()
    public func stop() {
        core.stop()
    }

    /// A server no one holds any more is stopped (gracefully, blocking the thread that let it go).
    deinit {
        core.stop()
    }

    /// Requests started and not yet ended (streams and waiting deferred responses included).
    ///
    ///     server.requestsInFlight  // 0 when idle
    public var requestsInFlight: Int {
        core.inFlight
    }
}

/// The part of the server libmicrohttpd calls back into, passed to it as `cls`.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let responder: Responder

    private struct State {
        var daemon: DaemonHandle?
        var inFlight = 0
        /// Requests whose header section arrived (the access handler saw them) and that have not ended: what
        /// `stop` waits for. A request still sending its headers has nothing in flight, and is cut at once.
        var handling = 0
        var stopping = false
        var stopped = false
        var streams: [ObjectIdentifier: EventStream] = [:]
        var deferreds: [ObjectIdentifier: DeferredResponse] = [:]
        var timers: [TimerHandle] = []
    }

    private let state = Locked(State())
    private let requestIDs = RequestIDs()

    init(configuration: ServerConfiguration, responder: @escaping Responder) {
        self.configuration = configuration
        self.responder = responder
    }

    var inFlight: Int { state.withLock { $0.inFlight } }
    var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: - Start and stop

    func start() throws(ServerError) -> Int {
        let configuration = self.configuration
        guard (0...65_535).contains(configuration.port) else { throw .badPort(configuration.port) }
        for (name, value) in [
            ("threads", configuration.threads), ("maxBodyBytes", configuration.maxBodyBytes),
            ("maxTargetBytes", configuration.maxTargetBytes), ("maxHeaderBytes", configuration.maxHeaderBytes),
            ("maxConnections", configuration.maxConnections),
            ("connectionMemoryLimit", configuration.connectionMemoryLimit),
        ] where value <= 0 {
            throw .badConfiguration("\(name) must be positive, not \(value)")
        }
        if configuration.connectionTimeoutSeconds < 0 || configuration.maxConnectionsPerAddress < 0 {
            throw .badConfiguration("timeouts and per-address limits cannot be negative")
        }
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw .badHost(configuration.host)
        }
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if let problem = microhttpdLoad.problem {
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: problem)
        }
        var table = mhd
        let cls = Unmanaged.passRetained(self).toOpaque()
        errno = 0
        let daemon = address.withSockaddr { sockaddr in
            librarycli_mhd_start(
                &table, flags, sockaddr, UInt32(configuration.threads > 1 ? configuration.threads : 0),
                UInt32(clamping: configuration.maxConnections),
                UInt32(clamping: configuration.maxConnectionsPerAddress),
                UInt32(clamping: configuration.connectionTimeoutSeconds), configuration.connectionMemoryLimit,
                MHDCallbacks.access, MHDCallbacks.completed, MHDCallbacks.uri, cls)
        }
        guard let daemon else {
            let reason = errno == 0 ? "libmicrohttpd refused the settings" : String(cString: strerror(errno))
            Unmanaged<ServerCore>.fromOpaque(cls).release()
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: reason)
        }
        let port = Int(librarycli_mhd_bound_port(&table, daemon))
        var timers: [TimerHandle] = []
        if let interval = configuration.eventStreamKeepAlive {
            timers.append(TimerHandle(every: interval) { [weak self] in self?.sendKeepAlives() })
        }
        if let interval = configuration.eventStreamHangUpCheck {
            timers.append(TimerHandle(every: interval) { [weak self] in self?.endStreamsOfGoneClients() })
        }
        state.withLock { state in
            state.daemon = DaemonHandle(pointer: daemon, cls: cls)
            state.timers = timers
        }
        return port
    }

    func stop() {
        let claimed = state.withLock { state -> (DaemonHandle, [EventStream], [DeferredResponse], [TimerHandle])? in
            guard !state.stopping, let daemon = state.daemon else { return nil }
            state.stopping = true
            return (daemon, Array(state.streams.values), Array(state.deferreds.values), state.timers)
        }
        guard let (daemon, streams, deferreds, timers) = claimed else {
            waitUntilStopped()
            return
        }
        for timer in timers { timer.cancel() }
        // Not `MHD_quiesce_daemon`: on an epoll daemon with worker threads it races with the workers' own removal of
        // the listening socket from their epoll sets, and libmicrohttpd 0.9.75 aborts the process when it loses
        // (`Failed to remove listen FD from epoll set`). The socket stays open until `MHD_stop_daemon`; a request
        // that begins from now on is answered 503 `server-stopping` with `Connection: close` (see `access`).
        for stream in streams { stream.finish(.serverStopping) }
        for deferred in deferreds { deferred.resolve(deferred.timeoutResponse) }
        // Only requests that got to the handler are waited for: a connection whose request is still sending its
        // header section (or a slow client that stopped there) is closed by `MHD_stop_daemon` like an idle one.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.stopTimeout)
        while state.withLock({ $0.handling > 0 }) && clock.now < deadline {
            usleep(2_000)
        }
        mhd.MHD_stop_daemon!(daemon.pointer)
        Unmanaged<ServerCore>.fromOpaque(daemon.cls).release()
        state.withLock { state in
            state.stopped = true
            state.daemon = nil
            state.streams = [:]
            state.deferreds = [:]
        }
    }

    private func waitUntilStopped() {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.stopTimeout + .seconds(5))
        while !state.withLock({ $0.stopped || $0.daemon == nil }) && clock.now < deadline {
            usleep(2_000)
        }
    }

    private func sendKeepAlives() {
        let streams = state.withLock { Array($0.streams.values) }
        for stream in streams { stream.comment("keep-alive") }
    }

    /// Ends the streams and waiting requests whose clients closed their end while nothing was being sent (a peek at
    /// each idle stream's or waiting request's socket).
    private func endStreamsOfGoneClients() {
        let (streams, deferreds) = state.withLock { (Array($0.streams.values), Array($0.deferreds.values)) }
        for stream in streams { stream.endIfClientHungUp() }
        for deferred in deferreds { deferred.resolveIfClientHungUp() }
    }

    // MARK: - Requests

    /// A request line arrived: its exchange (retained until `completed`).
    func begin(target: String, connection: OpaquePointer) -> UnsafeMutableRawPointer {
        let stopping = state.withLock { state -> Bool in
            state.inFlight += 1
            return state.stopping
        }
        let exchange = Exchange(
            target: target, requestID: requestIDs.next(), start: ContinuousClock.now,
            remoteAddress: SocketAddress.clientAddress(of: connection))
        exchange.beganWhileStopping = stopping
        return Unmanaged.passRetained(exchange).toOpaque()
    }

    /// libmicrohttpd's access handler: headers (first call), body pieces, then the final call that answers.
    func access(
        _ exchange: Exchange, _ connection: OpaquePointer, method: String, version: String,
        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if exchange.queued {
            uploadSize.pointee = 0
            return .YES
        }
        if !exchange.started {
            exchange.started = true
            exchange.method = method
            let stopping = state.withLock { state -> Bool in
                state.handling += 1
                return state.stopping
            }
            if exchange.beganWhileStopping || stopping {
                // The server stops accepting work: the requests in flight finish, a new one (or one whose headers
                // were still arriving, which `stop` does not wait for) is told to come back.
                return queue(Self.stopping.response(), for: exchange, on: connection, close: true)
            }
            if let problem = prepare(exchange, connection, method: method, version: version) {
                return queue(problem.response(), for: exchange, on: connection, close: true)
            }
            return .YES
        }
        if uploadSize.pointee > 0 {
            let size = uploadSize.pointee
            uploadSize.pointee = 0
            // A body without Content-Length (chunked) that grows past the limit: libmicrohttpd cannot answer before
            // the body ends, so the rest is counted and dropped, and 413 follows; past 8 times the limit the
            // connection is cut.
            if exchange.discarded > 0 || exchange.body.count + size > configuration.maxBodyBytes {
                exchange.discarded += size
                exchange.body = []
                return exchange.discarded > 8 * configuration.maxBodyBytes ? .NO : .YES
            }
            if let uploadData {
                UnsafeRawPointer(uploadData).withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
                    exchange.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: size))
                }
            }
            return .YES
        }
        if let deferred = exchange.deferred {
            // Resumed: the deferred response was given.
            guard let response = deferred.response else { return .YES }
            return queueResolved(response, for: exchange, on: connection)
        }
        if exchange.discarded > 0 {
            return queue(tooLarge().response(), for: exchange, on: connection, close: true)
        }
        guard var request = exchange.request else { return .NO }
        request.body = exchange.body
        exchange.body = []
        let response: Response
        do {
            response = try responder(request)
        } catch {
            response = Problem.from(error, request: request, map: { _ in nil }) { [configuration] request, error in
                configuration.errorLog?(request, error)
            }.response()
        }
        return queue(response, for: exchange, on: connection, close: false)
    }

    /// The answer to a request that began after the server started to stop.
    static let stopping = Problem(
        status: .serviceUnavailable, code: "server-stopping",
        detail: "The server is stopping; try again in a moment (another server may take over).",
        headers: ["Retry-After": "1"])

    /// Builds the request from the request line and headers; a problem when they break a limit.
    private func prepare(_ exchange: Exchange, _ connection: OpaquePointer, method: String, version: String)
        -> Problem?
    {
        let headers = HeaderReader.headers(of: connection)
        if exchange.target.utf8.count > configuration.maxTargetBytes {
            return Problem(
                status: .uriTooLong, code: "uri-too-long",
                detail: "The request target is longer than \(configuration.maxTargetBytes) bytes.")
        }
        let headerBytes = headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if headerBytes > configuration.maxHeaderBytes {
            return Problem(
                status: .requestHeaderFieldsTooLarge, code: "header-fields-too-large",
                detail: "The request's header fields are larger than \(configuration.maxHeaderBytes) bytes.")
        }
        // RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host (an HTTP/1.0 one at most one).
        let hosts = headers.values(for: "Host")
        if hosts.count > 1 || (hosts.isEmpty && version != "HTTP/1.0") {
            return Problem(
                status: .badRequest, code: "bad-host",
                detail: "An HTTP/1.1 request needs exactly one Host header field; this one has \(hosts.count).")
        }
        // RFC 9112 §6.3: Content-Length fields that disagree make the message's length unknowable.
        let lengths = headers.values(for: "Content-Length").map { $0.trimmingSpaces() }
        if Set(lengths).count > 1 {
            return Problem(
                status: .badRequest, code: "bad-content-length",
                detail: "The request has Content-Length header fields that disagree.")
        }
        if let length = lengths.first {
            guard let count = Int(length), count >= 0 else {
                return Problem(
                    status: .badRequest, code: "bad-content-length", detail: "Content-Length is not a number.")
            }
            if count > configuration.maxBodyBytes { return tooLarge() }
        }
        let origin: String
        switch RequestTarget.originForm(of: exchange.target, method: method) {
        case .success(let form): origin = form
        case .failure(let problem): return problem
        }
        let target: RequestTarget
        if origin == "*" {
            target = RequestTarget(path: "*", segments: ["*"], query: QueryParameters())
        } else {
            do {
                target = try RequestTarget(parsing: origin)
            } catch {
                return Problem(
                    status: .badRequest, code: "bad-target", detail: "The request target cannot be read: \(error).")
            }
        }
        exchange.request = Request(
            method: HTTPMethod(method), target: origin, parsed: target, headers: headers,
            remoteAddress: exchange.remoteAddress, requestID: exchange.requestID)
        return nil
    }

    private func tooLarge() -> Problem {
        Problem(
            status: .contentTooLarge, code: "body-too-large",
            detail: "The request body is larger than \(configuration.maxBodyBytes) bytes.")
    }

    /// Sends `response` (or starts its stream, or waits for its deferred response).
    private func queue(_ response: Response, for exchange: Exchange, on connection: OpaquePointer, close: Bool)
        -> MHD_Result
    {
        var headers = response.headers
        headers.set("X-Request-Id", exchange.requestID)
        if close || isStopping { headers.set("Connection", "close") }
        switch response.body {
        case .bytes(let bytes):
            return send(status: response.status, headers: headers, bytes: bytes, exchange, connection)
        case .stream(let stream) where exchange.method == "HEAD":
            // The head alone: the stream is never sent, so it ends at once. (libmicrohttpd 0.9.75 says
            // Content-Length: 0 here: a chunked head would be followed by the last chunk, a body HEAD must not have.)
            stream.finish(.clientDisconnected)
            return send(status: response.status, headers: headers, bytes: [], exchange, connection)
        case .stream(let stream):
            let handle = ConnectionHandle(pointer: connection)
            guard stream.attach(handle) else {
                let problem = Problem(
                    status: .internalServerError, code: "internal-error", detail: "An event stream was reused.")
                return queue(problem.response(), for: exchange, on: connection, close: close)
            }
            exchange.stream = stream
            let stopping = state.withLock { state -> Bool in
                if !state.stopping { state.streams[ObjectIdentifier(stream)] = stream }
                return state.stopping
            }
            if stopping { stream.finish(.serverStopping) }
            let cls = Unmanaged.passRetained(stream).toOpaque()
            // A 4 KiB block per stream (libmicrohttpd allocates it for the response's life): an open stream mostly
            // waits, and a larger event is copied out in several reads.
            guard
                let mhdResponse = mhd.MHD_create_response_from_callback!(
                    librarycli_mhd_size_unknown(), 4 * 1024, MHDCallbacks.read, cls, MHDCallbacks.free)
            else {
                Unmanaged<EventStream>.fromOpaque(cls).release()
                return .NO
            }
            return finishQueue(mhdResponse, status: response.status, headers: headers, exchange, connection)
        case .deferred(let deferred):
            exchange.deferred = deferred
            exchange.deferredHeaders = response.headers
            let stopping = state.withLock { state -> Bool in
                if !state.stopping { state.deferreds[ObjectIdentifier(deferred)] = deferred }
                return state.stopping
            }
            if stopping {
                deferred.resolve(deferred.timeoutResponse)
            } else {
                DispatchQueue.global().asyncAfter(deadline: .now() + deferred.timeout.dispatchInterval) {
                    [weak deferred] in
                    if let deferred { deferred.resolve(deferred.timeoutResponse) }
                }
            }
            guard let resolved = deferred.responseOrSuspend(ConnectionHandle(pointer: connection)) else {
                return .YES
            }
            return queueResolved(resolved, for: exchange, on: connection)
        }
    }

    /// Sends the response a deferred response was resolved with, with the deferred response's header fields.
    private func queueResolved(_ resolved: Response, for exchange: Exchange, on connection: OpaquePointer)
        -> MHD_Result
    {
        var response = resolved
        for field in exchange.deferredHeaders where !response.headers.contains(field.name) {
            response.headers.add(field.name, field.value)
        }
        if case .deferred = response.body {
            response = Problem(
                status: .internalServerError, code: "internal-error",
                detail: "A deferred response was resolved with another deferred response."
            ).response()
        }
        return queue(response, for: exchange, on: connection, close: false)
    }

    private func send(
        status: HTTPStatus, headers: HTTPHeaders, bytes: [UInt8], _ exchange: Exchange, _ connection: OpaquePointer
    ) -> MHD_Result {
        let created = bytes.withUnsafeBytes { buffer in
            mhd.MHD_create_response_from_buffer!(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return .NO }
        return finishQueue(mhdResponse, status: status, headers: headers, exchange, connection)
    }

    private func finishQueue(
        _ mhdResponse: OpaquePointer, status: HTTPStatus, headers: HTTPHeaders, _ exchange: Exchange,
        _ connection: OpaquePointer
    ) -> MHD_Result {
        defer { mhd.MHD_destroy_response!(mhdResponse) }
        for field in headers {
            if HTTPHeaders.namesMatch(field.name, "Content-Length")
                || HTTPHeaders.namesMatch(field.name, "Transfer-Encoding")
                || HTTPHeaders.namesMatch(field.name, "Date")
            {
                continue
            }
            guard HTTPHeaders.isValid(name: field.name, value: field.value),
                mhd.MHD_add_response_header!(mhdResponse, field.name, field.value) == .YES
            else {
                let problem = Problem(
                    status: .internalServerError, code: "internal-error",
                    detail: "The response had a header field that cannot be sent.")
                var fallback = problem.response().headers
                fallback.set("X-Request-Id", exchange.requestID)
                exchange.stream?.finish(.closedByApplication)
                exchange.stream = nil
                return send(
                    status: problem.status, headers: fallback, bytes: problem.response().bodyBytes ?? [], exchange,
                    connection)
            }
        }
        exchange.queued = true
        exchange.status = status.code
        return mhd.MHD_queue_response!(connection, UInt32(status.code), mhdResponse)
    }

    /// libmicrohttpd is done with the request: log it, end its stream, forget it.
    func completed(_ exchange: Exchange, termination: MHD_RequestTerminationCode) {
        let stopping = state.withLock { state -> Bool in
            state.inFlight -= 1
            if exchange.started { state.handling -= 1 }
            if let stream = exchange.stream { state.streams[ObjectIdentifier(stream)] = nil }
            if let deferred = exchange.deferred { state.deferreds[ObjectIdentifier(deferred)] = nil }
            return state.stopping
        }
        let ok = termination == .REQUEST_TERMINATED_COMPLETED_OK
        // A stream ended because its client went away (or did not read) ends its response cleanly, yet incomplete.
        let streamReason = exchange.stream?.closeReason
        let cut = streamReason == .clientDisconnected || streamReason == .bufferOverflow
        exchange.stream?.detach(ok ? .closedByApplication : stopping ? .serverStopping : .clientDisconnected)
        exchange.deferred?.detach()
        guard exchange.started, let log = configuration.accessLog else { return }
        log(
            AccessLogEntry(
                remoteAddress: exchange.remoteAddress, method: LogRedaction.escape(exchange.method),
                target: LogRedaction.capped(
                    LogRedaction.redact(
                        exchange.target, secretWords: configuration.redactedQueryKeys,
                        isSecretValue: configuration.isSecretValue)),
                status: exchange.queued ? exchange.status : nil, duration: ContinuousClock.now - exchange.start,
                requestID: exchange.requestID, completed: ok && exchange.queued && !cut))
    }
}

/// The daemon and the retained `cls` it calls back with.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    let cls: UnsafeMutableRawPointer
}

/// A repeating timer on a global queue.
final class TimerHandle: @unchecked Sendable {
    private let source: DispatchSourceTimer

    init(every interval: Duration, _ body: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        source.schedule(deadline: .now() + interval.dispatchInterval, repeating: interval.dispatchInterval)
        source.setEventHandler(handler: body)
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}

extension Duration {
    var dispatchInterval: DispatchTimeInterval {
        let components = self.components
        let nanoseconds = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return .never }
        return .nanoseconds(Int(max(0, nanoseconds.partialValue + components.attoseconds / 1_000_000_000)))
    }
}
