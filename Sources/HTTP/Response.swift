/// What a handler answers: a status, header fields and a body that is either bytes, an ``EventStream`` the
/// application writes into over time, or a ``DeferredResponse`` it resolves later (long-poll).
///
/// The server adds `Content-Length` (or chunked encoding for streams), `Date` and `X-Request-Id`; do not set them.
///
///     return Response(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
///     return .json(["status": "ok"])
///     return .eventStream(stream)
///     return .deferred(waiter)
public struct Response: Sendable {
    /// Where the body comes from.
    public enum Body: Sendable {
        /// These bytes, all at once.
        case bytes([UInt8])
        /// Bytes written by the application over time, sent as they come (chunked), until the stream is closed.
        case stream(EventStream)
        /// A response given later from any thread, or a fallback after a timeout; the connection holds no thread
        /// meanwhile. Header fields set here (for example by middleware) are added to the final response.
        case deferred(DeferredResponse)
    }

    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// Creates a response.
    ///
    ///     Response(status: .noContent)
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response with a byte body.
    ///
    ///     Response(status: .ok, headers: ["Content-Type": "text/csv"], body: Array(csv.utf8))
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]) {
        self.init(status: status, headers: headers, body: .bytes(body))
    }

    /// A `text/plain; charset=utf-8` response.
    ///
    ///     return .text("pong")
    public static func text(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> Response
    {
        var headers = headers
        headers.set("Content-Type", "text/plain; charset=utf-8")
        return Response(status: status, headers: headers, body: Array(text.utf8))
    }

    /// A `text/event-stream` response that sends what the application writes into `stream` (Server-Sent Events).
    /// No worker thread waits while the stream is idle.
    ///
    ///     let stream = EventStream()
    ///     hub.subscribe(stream)  // the application keeps it and sends frames from any thread
    ///     return .eventStream(stream)
    public static func eventStream(_ stream: EventStream, headers: HTTPHeaders = HTTPHeaders()) -> Response {
        var headers = headers
        headers.set("Content-Type", "text/event-stream; charset=utf-8")
        headers.set("Cache-Control", "no-store")
        return Response(status: .ok, headers: headers, body: .stream(stream))
    }

    /// A response given later through `deferred` (from any thread), or its timeout response.
    ///
    ///     let waiter = DeferredResponse(timeout: .seconds(30), timeoutResponse: Response(status: .notModified))
    ///     changes.notifyOnce { waiter.resolve(.json(["changed": true])) }
    ///     return .deferred(waiter)
    public static func deferred(_ deferred: DeferredResponse, headers: HTTPHeaders = HTTPHeaders()) -> Response {
        Response(status: .ok, headers: headers, body: .deferred(deferred))
    }

    /// The byte body, or nil for a stream or deferred body.
    ///
    ///     response.bodyBytes.map { String(decoding: $0, as: UTF8.self) }
    public var bodyBytes: [UInt8]? {
        if case .bytes(let bytes) = body { return bytes }
        return nil
    }
}
