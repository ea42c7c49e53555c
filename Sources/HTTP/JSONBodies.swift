import Formats

extension Request {
    /// The body parsed as JSON with the project's strict parser; a body that is not JSON throws a 400 problem
    /// with code `bad-json` and the `line` and `column` of the first error.
    ///
    ///     router.post("/loans", accepts: .json) { request in
    ///         let body = try request.json()
    ///         let ids = body["bookIds"]?.arrayValue ?? []
    ///         return .json(["count": .int(ids.count)], status: .created)
    ///     }
    ///
    /// - Throws: ``Problem`` (400, `bad-json`).
    public func json(maxDepth: Int = JSONParser.defaultMaxDepth) throws(Problem) -> JSONValue {
        do {
            return try JSONParser.parse(body, maxDepth: maxDepth)
        } catch let error as JSONError {
            throw Problem(
                status: .badRequest, code: "bad-json", detail: "The body is not valid JSON: \(error).",
                extensions: ["line": .int(error.line), "column": .int(error.column)])
        } catch {
            throw Problem(status: .badRequest, code: "bad-json", detail: "The body is not valid JSON.")
        }
    }
}

extension Response {
    /// A compact `application/json; charset=utf-8` response written with the project's JSON writer.
    ///
    ///     return .json(["status": "ok"])
    ///     return .json(document, status: .created, headers: ["ETag": "\"v42\""])
    public static func json(_ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders())
        -> Response
    {
        var headers = headers
        headers.set("Content-Type", "application/json; charset=utf-8")
        var bytes: [UInt8] = []
        JSONWriter.write(value, to: &bytes)
        return Response(status: status, headers: headers, body: bytes)
    }
}
