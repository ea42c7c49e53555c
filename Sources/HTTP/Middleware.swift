/// Code around every request: it may change the request, answer without calling `next`, or change the response.
/// Middleware composes: the first in the server's list is the outermost.
///
///     let requireToken = Middleware { request, next in
///         guard request.headers["Authorization"] != nil else {
///             throw Problem(status: .unauthorized, code: "no-token", headers: ["WWW-Authenticate": "Bearer"])
///         }
///         return try next(request)
///     }
///     let server = try Server.start(router: router, middleware: [requireToken], configuration: configuration)
public struct Middleware: Sendable {
    /// The middleware's body: the request, and the rest of the chain to call with it.
    public let handle: @Sendable (Request, _ next: Responder) throws -> Response

    /// Creates middleware from a closure.
    ///
    ///     Middleware { request, next in try next(request) }
    public init(_ handle: @escaping @Sendable (Request, _ next: Responder) throws -> Response) {
        self.handle = handle
    }

    /// Wraps `responder` in `middleware`, the first outermost.
    ///
    ///     let chain = Middleware.chain([logging, auth], around: router.respond(to:))
    public static func chain(_ middleware: [Middleware], around responder: @escaping Responder) -> Responder {
        middleware.reversed().reduce(responder) { next, middleware in
            { request in try middleware.handle(request, next) }
        }
    }

    /// Turns errors thrown further in into problem responses: a ``Problem`` as itself, others through `map` (for
    /// the application's own errors), and anything `map` leaves (nil) as a 500 `internal-error` problem whose
    /// detail does not reveal the error. `report` gets every error answered 500 (left by `map`, or mapped to a
    /// 500), to log: an operator learns why from the log, a client only the request id. The server does the same
    /// as a last resort, so this is only needed to map the application's errors or to let outer middleware see the
    /// response.
    ///
    ///     let errors = Middleware.problems { error in
    ///         (error as? LoanError).map { Problem(status: .conflict, code: $0.code, detail: $0.message) }
    ///     }
    public static func problems(
        map: @escaping @Sendable (any Error) -> Problem? = { _ in nil },
        report: @escaping @Sendable (Request, any Error) -> Void = { _, _ in }
    ) -> Middleware {
        Middleware { request, next in
            do {
                return try next(request)
            } catch {
                return Problem.from(error, request: request, map: map, report: report).response()
            }
        }
    }

    /// Adds a header field to every response that does not already have it.
    ///
    ///     Middleware.header("Cache-Control", "no-store")
    public static func header(_ name: String, _ value: String) -> Middleware {
        Middleware { request, next in
            var response = try next(request)
            if !response.headers.contains(name) { response.headers.add(name, value) }
            return response
        }
    }
}

extension Problem {
    /// The problem for `error`: itself, `map`'s answer, or a 500 that reveals nothing; `report` gets the errors
    /// answered 500 that are not a ``Problem`` of their own.
    static func from(
        _ error: any Error, request: Request, map: (any Error) -> Problem?, report: (Request, any Error) -> Void
    ) -> Problem {
        if let problem = error as? Problem { return problem }
        if let problem = map(error) {
            if problem.status == .internalServerError { report(request, error) }
            return problem
        }
        report(request, error)
        return Problem(
            status: .internalServerError, code: "internal-error",
            detail: "The server failed to answer this request; quote request id \(request.requestID) when reporting it."
        )
    }
}
