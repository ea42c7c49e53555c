/// Cross-origin resource sharing (CORS, the Fetch standard) for fronts served from other origins, such as a
/// development server on `http://localhost:3000`: which origins a browser may let read the answers, and what the
/// ``Middleware/crossOrigin(_:)`` middleware answers them.
///
/// A request whose `Origin` is allowed gets `Access-Control-Allow-Origin` (the origin itself, or `*` when every
/// origin is allowed) and `Access-Control-Expose-Headers` (``exposedHeaders``) on its response, errors and event
/// streams included. A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) on a known path gets
/// the router's 204 with `Access-Control-Allow-Methods` (the path's methods, as `Allow` lists them),
/// `Access-Control-Allow-Headers` (``allowedHeaders``) and `Access-Control-Max-Age`. An origin not allowed gets no
/// `Access-Control-*` field at all, so the browser keeps the answer from the page. Every response says
/// `Vary: Origin`, as the answer depends on it. No credentials are allowed (no
/// `Access-Control-Allow-Credentials`): a front sends its token in `Authorization`, not in a cookie, which is why
/// `*` is safe.
///
///     let cors = try CrossOrigin(allowing: ["http://localhost:3000"])
///     let server = try Server.start(router: router, middleware: [.crossOrigin(cors)], configuration: configuration)
public struct CrossOrigin: Sendable, Equatable {
    /// The allowed origins, lowercased (`scheme://host[:port]`), or `["*"]` for any.
    public let origins: [String]
    /// The request header fields a page may send (`Access-Control-Allow-Headers`).
    public var allowedHeaders: [String]
    /// The response header fields a page may read beyond the CORS-safelisted ones (`Access-Control-Expose-Headers`).
    public var exposedHeaders: [String]
    /// How long a browser may keep a preflight's answer (`Access-Control-Max-Age`), in seconds.
    public var maxAgeSeconds: Int

    /// The request header fields allowed by default: what a JSON API with bearer tokens, idempotency keys,
    /// conditional requests, preferences and resumable event streams takes.
    public static let defaultAllowedHeaders = [
        "Authorization", "Content-Type", "Idempotency-Key", "If-None-Match", "Prefer", "Last-Event-ID",
    ]
    /// The response header fields exposed by default.
    public static let defaultExposedHeaders = [
        "ETag", "X-Request-Id", "Link", "Location", "Retry-After", "Preference-Applied", "Idempotent-Replayed",
        "WWW-Authenticate",
    ]

    /// A policy allowing `origins`: each exactly `scheme://host[:port]` (no path, not even `/`), or `*` for any
    /// origin. Letters are compared without regard to case.
    ///
    ///     try CrossOrigin(allowing: ["http://localhost:3000", "https://app.example.org"])
    ///     try CrossOrigin(allowing: ["*"])
    ///
    /// - Throws: ``CrossOriginError`` for a value that is not an origin, or for none.
    public init(
        allowing origins: [String], allowedHeaders: [String] = defaultAllowedHeaders,
        exposedHeaders: [String] = defaultExposedHeaders, maxAgeSeconds: Int = 600
    ) throws(CrossOriginError) {
        guard !origins.isEmpty else { throw .noOrigin }
        var parsed: [String] = []
        for origin in origins {
            guard let valid = Self.origin(origin) else { throw .notAnOrigin(origin) }
            if !parsed.contains(valid) { parsed.append(valid) }
        }
        self.origins = parsed.contains("*") ? ["*"] : parsed
        self.allowedHeaders = allowedHeaders
        self.exposedHeaders = exposedHeaders
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// The value of `Access-Control-Allow-Origin` for a request from `origin`, or nil when it is not allowed.
    ///
    ///     try CrossOrigin(allowing: ["http://localhost:3000"]).allowOrigin(for: "http://localhost:3000")
    ///     // "http://localhost:3000"
    public func allowOrigin(for origin: String) -> String? {
        if origins == ["*"] { return "*" }
        return origins.contains(origin.lowercased()) ? origin : nil
    }

    /// `origin` lowercased when it is `*` or `scheme://host[:port]`, else nil.
    static func origin(_ origin: String) -> String? {
        if origin == "*" { return origin }
        let lowered = origin.lowercased()
        guard let separator = lowered.firstRange(of: "://") else { return nil }
        let scheme = lowered[..<separator.lowerBound]
        let authority = lowered[separator.upperBound...]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            !authority.isEmpty,
            authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]_".contains($0)) })
        else { return nil }
        // The host, then a port as a browser writes it: a number from 1 to 65535 without leading zeros, and none at
        // all when it is the scheme's default (a browser sends `http://localhost`, never `http://localhost:80`).
        let host: Substring
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        // A bracketed host (IPv6) was cut at its `]`; any other holds no bracket.
        guard !host.isEmpty, host.hasPrefix("[") || !host.contains(where: { $0 == "[" || $0 == "]" }) else {
            return nil
        }
        guard let port else { return lowered }
        guard !port.isEmpty, port.allSatisfy(\.isASCII), let number = Int(port), (1...65_535).contains(number) else {
            return nil
        }
        let defaults = ["http": 80, "https": 443, "ws": 80, "wss": 443]
        if defaults[String(scheme)] == number { return "\(scheme)://\(host)" }
        return "\(scheme)://\(host):\(number)"
    }
}

/// Why a cross-origin policy could not be made.
///
///     do { _ = try CrossOrigin(allowing: ["localhost:3000"]) }
///     catch { print(error) }  // 'localhost:3000' is not an origin: give scheme://host[:port] ...
public enum CrossOriginError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No origin was given.
    case noOrigin
    /// The value is not `*` or `scheme://host[:port]`.
    case notAnOrigin(String)

    /// The message for people.
    public var description: String {
        switch self {
        case .noOrigin: "no origin to allow"
        case .notAnOrigin(let value):
            "'\(value.prefix(80))' is not an origin: give scheme://host[:port] without a path, "
                + "such as http://localhost:3000, or * for any origin"
        }
    }
}

extension Middleware {
    /// Answers cross-origin requests and preflights as `policy` says (see ``CrossOrigin``). Put it first (outermost),
    /// so it also marks the problems the middleware inside it answers; a ``Problem`` thrown further in is answered
    /// here too, with the headers.
    ///
    ///     let server = try Server.start(
    ///         router: router, middleware: [.crossOrigin(try CrossOrigin(allowing: ["*"])), .problems()],
    ///         configuration: configuration)
    public static func crossOrigin(_ policy: CrossOrigin) -> Middleware {
        Middleware { request, next in
            var response: Response
            do {
                response = try next(request)
            } catch let problem as Problem {
                response = problem.response()
            }
            let varies = response.headers.values(for: "Vary").contains { field in
                field.split(separator: ",").contains { $0.trimmingSpaces().lowercased() == "origin" }
            }
            if !varies { response.headers.add("Vary", "Origin") }
            guard let origin = request.headers["Origin"], let allowed = policy.allowOrigin(for: origin) else {
                return response
            }
            response.headers.set("Access-Control-Allow-Origin", allowed)
            let preflight = request.method == .options && request.headers.contains("Access-Control-Request-Method")
            if preflight, response.status == .noContent, let methods = response.headers["Allow"] {
                response.headers.set("Access-Control-Allow-Methods", methods)
                response.headers.set("Access-Control-Allow-Headers", policy.allowedHeaders.joined(separator: ", "))
                response.headers.set("Access-Control-Max-Age", String(policy.maxAgeSeconds))
            } else if !policy.exposedHeaders.isEmpty {
                response.headers.set("Access-Control-Expose-Headers", policy.exposedHeaders.joined(separator: ", "))
            }
            return response
        }
    }
}
