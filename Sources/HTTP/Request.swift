import Formats

/// An HTTP request as handlers and middleware see it: the whole body is already read (at most the server's body
/// limit), the path and query are decoded.
///
///     router.get("/books/:id") { request in
///         guard let id = request.parameters["id"].flatMap(Int.init) else {
///             throw Problem(status: .badRequest, code: "bad-id", detail: "The book id must be a number.")
///         }
///         return .json(["id": .int(id), "search": JSONValue(optional: request.query["search"])])
///     }
public struct Request: Sendable {
    /// The method, such as `GET`.
    public var method: HTTPMethod
    /// The path, percent-decoded (`/books/le%20guin` is `/books/le guin`), without the query.
    public var path: String
    /// The path's segments, each percent-decoded on its own (so an encoded `/` stays inside its segment).
    public var pathSegments: [String]
    /// The request target as sent: path and query, still percent-encoded. It may hold secrets: do not log it.
    public var target: String
    /// The decoded query parameters.
    public var query: QueryParameters
    /// The header fields; names are looked up case-insensitively.
    public var headers: HTTPHeaders
    /// The body bytes (empty when there is none).
    public var body: [UInt8]
    /// The client's address, such as `127.0.0.1` or `::1`; empty when unknown.
    public var remoteAddress: String
    /// The id the server gave this request (unique in the process, see `RequestIDs`); every response carries it as `X-Request-Id`.
    public var requestID: String
    /// Values of the matched route's `:name` segments; empty before routing.
    public var parameters: [String: String]
    /// Values attached by middleware (see ``RequestStorageKey``).
    public var storage: RequestStorage

    /// Creates a request; the server makes them, tests and middleware may too.
    ///
    ///     let request = Request(method: .get, target: "/books?search=dune")
    ///
    /// A target whose path or query cannot be decoded keeps its raw text in ``path`` and an empty ``query``.
    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: String = "", requestID: String = ""
    ) {
        let parsed =
            (try? RequestTarget(parsing: target)) ?? RequestTarget(path: target, segments: [], query: QueryParameters())
        self.init(
            method: method, target: target, parsed: parsed, headers: headers, remoteAddress: remoteAddress,
            requestID: requestID)
        self.body = body
    }

    /// A request whose target the server has parsed already.
    init(
        method: HTTPMethod, target: String, parsed: RequestTarget, headers: HTTPHeaders, remoteAddress: String,
        requestID: String
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = []
        self.remoteAddress = remoteAddress
        self.requestID = requestID
        self.parameters = [:]
        self.storage = RequestStorage()
        self.path = parsed.path
        self.pathSegments = parsed.segments
        self.query = parsed.query
    }

    /// The media type of the body without parameters, lowercased (`application/json`), or nil without a
    /// `Content-Type`.
    ///
    ///     request.mediaType == "application/json"
    public var mediaType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = Substring(value).splitOnByte(UInt8(ascii: ";"), maxSplits: 1, omittingEmpty: false).first ?? ""
        return type.trimmingSpaces().lowercased()
    }

    /// True when the body is declared as JSON: `application/json` or any `application/...+json`.
    ///
    ///     request.hasJSONBody
    public var hasJSONBody: Bool {
        guard let type = mediaType else { return false }
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }
}

/// A request target split into its decoded path, path segments and query.
struct RequestTarget {
    var path: String
    var segments: [String]
    var query: QueryParameters

    init(path: String, segments: [String], query: QueryParameters) {
        self.path = path
        self.segments = segments
        self.query = query
    }

    init(parsing target: String) throws(PercentDecodingError) {
        let parts = Substring(target).splitOnByte(UInt8(ascii: "?"), maxSplits: 1, omittingEmpty: false)
        let rawPath = parts.first ?? ""
        guard rawPath.utf8.first == UInt8(ascii: "/") else { throw PercentDecodingError(text: String(rawPath)) }
        var segments: [String] = []
        for segment in Substring(rawPath.utf8.dropFirst()).splitOnByte(UInt8(ascii: "/"), omittingEmpty: false) {
            segments.append(try PercentDecoding.decode(segment, plusIsSpace: false))
        }
        if segments == [""] { segments = [] }
        self.segments = segments
        self.path = "/" + segments.joined(separator: "/")
        self.query = parts.count > 1 ? try QueryParameters(parsing: String(parts[1])) : QueryParameters()
    }
}

extension RequestTarget {
    /// The origin form (`/path?query`) of a request target as sent: itself, or the path and query of an absolute
    /// form (`http://host/path?query`, RFC 9112 §3.2.2), or `*` for `OPTIONS *`; a 400 `bad-target` problem for
    /// anything else.
    ///
    ///     RequestTarget.originForm(of: "http://127.0.0.1/healthz", method: "GET")  // .success("/healthz")
    static func originForm(of target: String, method: String) -> Result<String, Problem> {
        let bytes = target.utf8
        if bytes.first == UInt8(ascii: "/") { return .success(target) }
        if target == "*" {
            guard method == "OPTIONS" else {
                return .failure(
                    Problem(
                        status: .badRequest, code: "bad-target",
                        detail: "The request target '*' is only for OPTIONS (RFC 9112 §3.2.4)."))
            }
            return .success("*")
        }
        let lowered = String(target.prefix(8)).lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let rest = target.utf8.dropFirst(scheme.utf8.count)
            let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
            guard authorityEnd != rest.startIndex else { break }
            let tail = String(Substring(target.utf8[authorityEnd...]))
            return .success(tail.isEmpty ? "/" : tail.hasPrefix("?") ? "/" + tail : tail)
        }
        return .failure(
            Problem(
                status: .badRequest, code: "bad-target",
                detail: "The request target must be a path ('/...'), an absolute http(s) URL, or '*' for OPTIONS."))
    }
}

extension Substring {
    /// The parts between the bytes equal to `separator` (an ASCII byte, so every part starts and ends on a scalar
    /// boundary), as `split(separator:maxSplits:omittingEmptySubsequences:)` makes them, without walking
    /// characters: a separator followed by a combining mark still separates, as it does in a URL.
    ///
    ///     Substring("a?b?c").splitOnByte(UInt8(ascii: "?"), maxSplits: 1, omittingEmpty: false)  // ["a", "b?c"]
    func splitOnByte(_ separator: UInt8, maxSplits: Int = .max, omittingEmpty: Bool) -> [Substring] {
        precondition(separator < 0x80, "the separator is an ASCII byte")
        return utf8.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: omittingEmpty).map {
            Substring($0)
        }
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
