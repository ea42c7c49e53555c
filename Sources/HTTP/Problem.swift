import Formats

/// An RFC 9457 problem: an error a handler throws (or returns with ``response()``) that the server sends as
/// `application/problem+json` with `type`, `title`, `status`, `detail` and extension members such as `code`.
///
///     throw Problem(status: .conflict, code: "on-loan", detail: "Book 12 is on loan to someone else, due back 2026-12-15.")
///     // 409 {"type":"about:blank","title":"Conflict","status":409,"detail":"Book 12 ...","code":"on-loan"}
///
///     throw Problem(status: .tooManyRequests, code: "locked", detail: "Try again later.",
///                   headers: ["Retry-After": "900"])
public struct Problem: Error, Sendable, CustomStringConvertible {
    /// The status.
    public var status: HTTPStatus
    /// A URI naming the kind of problem; `about:blank` when the status says it all.
    public var type: String
    /// A short summary of the kind of problem; by default the status's reason phrase.
    public var title: String
    /// This occurrence, for people.
    public var detail: String?
    /// Extension members after the standard ones, in order (our stable `code` among them).
    public var extensions: JSONObject
    /// Header fields to send with the problem (`Allow`, `Retry-After`, `WWW-Authenticate`, ...).
    public var headers: HTTPHeaders

    /// Creates a problem. `code`, when given, becomes the first extension member.
    ///
    ///     Problem(status: .badRequest, code: "bad-json", detail: "line 1, column 7: trailing comma",
    ///             extensions: ["line": 1, "column": 7])
    public init(
        status: HTTPStatus, code: String? = nil, detail: String? = nil, title: String? = nil,
        type: String = "about:blank", extensions: JSONObject = JSONObject(), headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.status = status
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        var members = JSONObject()
        if let code { _ = members.insertNew(key: "code", value: .string(code)) }
        for member in extensions.members where member.key != "code" || code == nil {
            _ = members.insertNew(key: member.key, value: member.value)
        }
        self.extensions = members
        self.headers = headers
    }

    /// The `code` extension member, if any.
    ///
    ///     problem.code  // "on-loan"
    public var code: String? { extensions["code"]?.stringValue }

    /// The problem document.
    ///
    ///     problem.json["status"]  // .int(409)
    public var json: JSONValue {
        var object = JSONObject()
        _ = object.insertNew(key: "type", value: .string(type))
        _ = object.insertNew(key: "title", value: .string(title))
        _ = object.insertNew(key: "status", value: .int(status.code))
        if let detail { _ = object.insertNew(key: "detail", value: .string(detail)) }
        for member in extensions.members where !["type", "title", "status", "detail"].contains(member.key) {
            _ = object.insertNew(key: member.key, value: member.value)
        }
        return .object(object)
    }

    /// The problem as an `application/problem+json` response with its header fields.
    ///
    ///     return Problem(status: .notFound, code: "no-such-book", detail: "No book 99.").response()
    public func response() -> Response {
        var headers = self.headers
        headers.set("Content-Type", "application/problem+json; charset=utf-8")
        var bytes: [UInt8] = []
        JSONWriter.write(json, to: &bytes)
        return Response(status: status, headers: headers, body: bytes)
    }

    /// `409 on-loan: Book 12 is on loan.`
    public var description: String {
        "\(status.code)\(code.map { " \($0)" } ?? ""): \(detail ?? title)"
    }
}
