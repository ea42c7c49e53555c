/// How a ``Server`` listens, its limits and its access log. The defaults suit a loopback service.
///
///     var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 4)
///     configuration.accessLog = { entry in log(entry.line) }
///     let server = try Server.start(router: router, configuration: configuration)
public struct ServerConfiguration: Sendable {
    /// The address to bind: an IPv4 or IPv6 literal, or `localhost` (127.0.0.1). Loopback unless asked otherwise.
    public var host: String
    /// The port; 0 lets the system pick a free one (``Server/port`` tells which).
    public var port: Int
    /// Worker threads polling connections (epoll); a handler runs on one of them.
    public var threads: Int
    /// Request bodies larger than this are answered 413 and the connection closed. A `Content-Length` over the
    /// limit is answered before any of the body is read. A body without one (chunked) is counted as it arrives:
    /// past the limit nothing more is kept, and 413 is sent when it ends (libmicrohttpd cannot answer in the middle
    /// of a body); past 8 times the limit the connection is cut without an answer.
    public var maxBodyBytes: Int
    /// Request targets (path and query) longer than this are answered 414.
    public var maxTargetBytes: Int
    /// Request header sections (names and values) larger than this are answered 431. libmicrohttpd itself refuses
    /// headers that do not fit in ``connectionMemoryLimit``.
    public var maxHeaderBytes: Int
    /// A connection idle (or too slow) for this many seconds is closed; 0 never.
    public var connectionTimeoutSeconds: Int
    /// At most this many connections at once; more wait in the kernel's listen queue until one closes. (The
    /// worker threads share it out: each takes at most its share.)
    public var maxConnections: Int
    /// At most this many connections at once from one client address (more are closed at once); 0 for no limit.
    public var maxConnectionsPerAddress: Int
    /// Memory for one connection's request line, headers and read buffer (libmicrohttpd's pool).
    public var connectionMemoryLimit: Int
    /// How long ``Server/stop()`` waits for requests in flight and streams to finish before closing them.
    public var stopTimeout: Duration
    /// How often open event streams get a comment line, which keeps proxies from closing them and finds clients
    /// that went away; nil never.
    public var eventStreamKeepAlive: Duration?
    /// How often idle event streams and waiting deferred responses (long-polls) are checked for clients that closed
    /// their end, so their connections and subscriptions end within this time; nil: a stream only at its next event
    /// or keep-alive, a long-poll at its answer or timeout.
    public var eventStreamHangUpCheck: Duration?
    /// Query keys whose values the access log replaces with `REDACTED`: a key is secret when it contains one of
    /// these words, case-insensitively.
    public var redactedQueryKeys: [String]
    /// Whether a value is a secret the access log must not show, whatever its query key: a query value or path
    /// segment (percent-decoded) for which this is true is replaced by `REDACTED`. The application knows what its
    /// secrets look like (`librarycli serve`: its tokens); nil redacts by ``redactedQueryKeys`` alone.
    ///
    ///     configuration.isSecretValue = { $0.hasPrefix("sk_") }  // "/x?q=sk_123" is logged "/x?q=REDACTED"
    public var isSecretValue: (@Sendable (String) -> Bool)?
    /// Receives one entry per request when it ends; nil logs nothing. Called on worker threads.
    public var accessLog: (@Sendable (AccessLogEntry) -> Void)?
    /// Receives errors a handler threw that were not a ``Problem`` (answered 500 without detail), to log them.
    public var errorLog: (@Sendable (Request, any Error) -> Void)?

    /// A configuration; every limit has a default.
    ///
    ///     ServerConfiguration(port: 0)
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threads: Int = 4, maxBodyBytes: Int = 1 << 20,
        maxTargetBytes: Int = 8 * 1024, maxHeaderBytes: Int = 16 * 1024, connectionTimeoutSeconds: Int = 30,
        maxConnections: Int = 1024, maxConnectionsPerAddress: Int = 256, connectionMemoryLimit: Int = 64 * 1024,
        stopTimeout: Duration = .seconds(10), eventStreamKeepAlive: Duration? = .seconds(15),
        eventStreamHangUpCheck: Duration? = .seconds(1),
        redactedQueryKeys: [String] = ["token", "pin", "password", "passwd", "secret", "key", "auth", "session"],
        isSecretValue: (@Sendable (String) -> Bool)? = nil,
        accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil,
        errorLog: (@Sendable (Request, any Error) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxTargetBytes = maxTargetBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.connectionMemoryLimit = connectionMemoryLimit
        self.stopTimeout = stopTimeout
        self.eventStreamKeepAlive = eventStreamKeepAlive
        self.eventStreamHangUpCheck = eventStreamHangUpCheck
        self.redactedQueryKeys = redactedQueryKeys
        self.isSecretValue = isSecretValue
        self.accessLog = accessLog
        self.errorLog = errorLog
    }
}

extension ServerConfiguration {
    /// `host` and `port` as a URL writes them: an IPv6 literal in brackets, whether `host` has them or not, any
    /// other host as it is.
    ///
    ///     ServerConfiguration.authority(host: "::1", port: 8080)        // "[::1]:8080"
    ///     ServerConfiguration.authority(host: "[::1]", port: 8080)      // "[::1]:8080"
    ///     ServerConfiguration.authority(host: "127.0.0.1", port: 8080)  // "127.0.0.1:8080"
    public static func authority(host: String, port: Int) -> String {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (bare.contains(":") ? "[\(bare)]" : bare) + ":\(port)"
    }
}

/// Why a server could not start.
///
///     do { _ = try Server.start(router: router, configuration: configuration) }
///     catch { print(error) }  // cannot listen on 127.0.0.1:80: Permission denied
public enum ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The host is not an IP address literal or `localhost`.
    case badHost(String)
    /// The port is outside 0...65535.
    case badPort(Int)
    /// A limit or count in the configuration is negative or zero where it must be positive.
    case badConfiguration(String)
    /// libmicrohttpd could not start listening.
    case cannotListen(host: String, port: Int, reason: String)

    /// The message for people.
    public var description: String {
        switch self {
        case .badHost(let host): "cannot listen on '\(host)': give an IP address or localhost"
        case .badPort(let port): "cannot listen on port \(port): ports go from 0 to 65535"
        case .badConfiguration(let what): "bad server configuration: \(what)"
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(ServerConfiguration.authority(host: host, port: port)): \(reason)"
        }
    }
}
