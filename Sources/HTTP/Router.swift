/// Turns a request into a response.
///
///     let hello: Responder = { _ in .text("hello") }
public typealias Responder = @Sendable (Request) throws -> Response

/// What a route requires of the request body.
///
///     router.post("/books", accepts: .json) { request in ... }
public enum BodyRequirement: Sendable, Hashable {
    /// Any body or none.
    case any
    /// A body, when there is one, must be declared JSON (`application/json` or `application/...+json`); another
    /// `Content-Type` is answered 415 before the handler runs. An empty body is left to the handler.
    case json
}

/// One route: a method, a path pattern and its handler.
///
///     Route(method: .get, pattern: "/books/:id", handler: { request in .text(request.parameters["id"]!) })
public struct Route: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The pattern: literal segments and `:name` segments that match any one segment.
    public var pattern: String
    /// What the route requires of the body.
    public var accepts: BodyRequirement
    /// The handler.
    public var handler: Responder

    let segments: [Segment]

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// Creates a route.
    ///
    ///     Route(method: .delete, pattern: "/loans/:bookId", handler: returnBook)
    public init(method: HTTPMethod, pattern: String, accepts: BodyRequirement = .any, handler: @escaping Responder) {
        self.method = method
        self.pattern = pattern
        self.accepts = accepts
        self.handler = handler
        self.segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            segment.hasPrefix(":") ? .parameter(String(segment.dropFirst())) : .literal(String(segment))
        }
    }

    /// The parameters when `segments` match the pattern, else nil.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, path) {
            switch segment {
            case .literal(let literal): if literal != value { return nil }
            case .parameter(let name):
                if value.isEmpty { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }
}

/// Routes as data: method + path pattern (`/books/:id`) -> handler. Unknown paths answer 404, a known path with
/// another method 405 with `Allow` (`OPTIONS` 204 with `Allow`, as does `OPTIONS *` for every method routed), `HEAD` uses the `GET` route (the server sends no body), and a `.json` route
/// answers 415 to a body of another type. All three are problem+json.
///
///     var router = Router()
///     router.get("/healthz") { _ in .json(["status": "ok"]) }
///     router.get("/books/:id") { request in .text("book \(request.parameters["id"]!)") }
///     router.post("/loans", accepts: .json) { request in .json(try request.json(), status: .created) }
///     let server = try Server.start(router: router, configuration: .init(port: 0))
public struct Router: Sendable {
    /// The routes in the order they were added; the first match wins.
    public private(set) var routes: [Route] = []

    /// An empty router: every path is 404.
    public init() {}

    /// Adds a route.
    ///
    ///     router.add(.put, "/books/:id", accepts: .json) { request in ... }
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, accepts: BodyRequirement = .any, _ handler: @escaping Responder
    ) {
        routes.append(Route(method: method, pattern: pattern, accepts: accepts, handler: handler))
    }

    /// Adds a `GET` route (which also answers `HEAD`).
    ///
    ///     router.get("/books") { request in ... }
    public mutating func get(_ pattern: String, _ handler: @escaping Responder) {
        add(.get, pattern, handler)
    }

    /// Adds a `POST` route.
    ///
    ///     router.post("/books", accepts: .json) { request in ... }
    public mutating func post(_ pattern: String, accepts: BodyRequirement = .any, _ handler: @escaping Responder) {
        add(.post, pattern, accepts: accepts, handler)
    }

    /// Adds a `PUT` route.
    ///
    ///     router.put("/books/:id", accepts: .json) { request in ... }
    public mutating func put(_ pattern: String, accepts: BodyRequirement = .any, _ handler: @escaping Responder) {
        add(.put, pattern, accepts: accepts, handler)
    }

    /// Adds a `PATCH` route.
    ///
    ///     router.patch("/books/:id", accepts: .json) { request in ... }
    public mutating func patch(_ pattern: String, accepts: BodyRequirement = .any, _ handler: @escaping Responder) {
        add(.patch, pattern, accepts: accepts, handler)
    }

    /// Adds a `DELETE` route.
    ///
    ///     router.delete("/loans/:bookId") { request in ... }
    public mutating func delete(_ pattern: String, accepts: BodyRequirement = .any, _ handler: @escaping Responder) {
        add(.delete, pattern, accepts: accepts, handler)
    }

    /// What the router makes of a method and decoded path segments.
    public enum Match: Sendable {
        /// This route, with these parameters.
        case found(Route, parameters: [String: String])
        /// The path is known, but not for this method; these are the methods it has (`HEAD` included with `GET`).
        case methodNotAllowed(allowed: [HTTPMethod])
        /// No route has this path.
        case notFound
    }

    /// 204 with `Allow`: `methods`, with `HEAD` beside `GET` and `OPTIONS` last.
    static func options(_ methods: [HTTPMethod]) -> Response {
        var allowed = methods
        if let get = allowed.firstIndex(of: .get), !allowed.contains(.head) { allowed.insert(.head, at: get + 1) }
        if !allowed.contains(.options) { allowed.append(.options) }
        return Response(status: .noContent, headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
    }

    /// Finds the route for `method` and `segments`.
    ///
    ///     router.match(.get, ["books", "12"])  // .found(route, parameters: ["id": "12"])
    public func match(_ method: HTTPMethod, _ segments: [String]) -> Match {
        var allowed: [HTTPMethod] = []
        var getRoute: (Route, [String: String])?
        for route in routes {
            guard let parameters = route.match(segments) else { continue }
            if route.method == method { return .found(route, parameters: parameters) }
            if route.method == .get && getRoute == nil { getRoute = (route, parameters) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if method == .head, let (route, parameters) = getRoute { return .found(route, parameters: parameters) }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get) && !allowed.contains(.head) {
            allowed.insert(.head, at: allowed.firstIndex(of: .get)! + 1)
        }
        return .methodNotAllowed(allowed: allowed)
    }

    /// Answers `request`: runs the matching route's handler with ``Request/parameters`` set, or answers 404, 405
    /// (with `Allow`) or 415 as a problem.
    ///
    ///     let response = try router.respond(to: Request(method: .get, target: "/healthz"))
    public func respond(to request: Request) throws -> Response {
        if request.method == .options && request.path == "*" {
            // OPTIONS *: what the server as a whole answers.
            var methods: [HTTPMethod] = []
            for route in routes where !methods.contains(route.method) { methods.append(route.method) }
            return Self.options(methods)
        }
        switch match(request.method, request.pathSegments) {
        case .notFound:
            return Problem(status: .notFound, code: "not-found", detail: "There is nothing at \(request.path).")
                .response()
        case .methodNotAllowed(let allowed) where request.method == .options:
            return Self.options(allowed)
        case .methodNotAllowed(let allowed):
            // The same list as OPTIONS on that path gives: OPTIONS is answered there too.
            let names =
                allowed.map(\.rawValue).joined(separator: ", ") + (allowed.contains(.options) ? "" : ", OPTIONS")
            return Problem(
                status: .methodNotAllowed, code: "method-not-allowed",
                detail: "\(request.path) does not answer \(request.method); it answers \(names).",
                headers: ["Allow": names]
            ).response()
        case .found(let route, let parameters):
            if route.accepts == .json && !request.body.isEmpty && !request.hasJSONBody {
                let declared = request.headers["Content-Type"].map { $0.trimmingSpaces() }
                return Problem(
                    status: .unsupportedMediaType, code: "unsupported-media-type",
                    detail: "The body must be JSON (Content-Type: application/json); "
                        + (declared.map { $0.isEmpty ? "its Content-Type was empty." : "it was \($0)." }
                            ?? "it was not declared."),
                    headers: ["Accept-Post": "application/json"]
                ).response()
            }
            var request = request
            request.parameters = parameters
            return try route.handler(request)
        }
    }
}
