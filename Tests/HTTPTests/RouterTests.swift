import Formats
import Testing

@testable import HTTP

@Suite struct RouterTests {
    private func router() -> Router {
        var router = Router()
        router.get("/books") { _ in .text("list") }
        router.get("/books/:id") { request in .text("book \(request.parameters["id"] ?? "?")") }
        router.delete("/books/:id") { _ in Response(status: .noContent) }
        router.post("/loans", accepts: .json) { request in .json(try request.json(), status: .created) }
        return router
    }

    @Test func matchesLiteralAndParameterSegments() throws {
        let response = try router().respond(to: Request(method: .get, target: "/books/12?x=1"))
        #expect(response.bodyBytes == Array("book 12".utf8))
        let list = try router().respond(to: Request(method: .get, target: "/books"))
        #expect(list.bodyBytes == Array("list".utf8))
    }

    @Test func decodesEachSegmentOnItsOwn() throws {
        let response = try router().respond(to: Request(method: .get, target: "/books/a%2Fb%20c"))
        #expect(response.bodyBytes == Array("book a/b c".utf8))
    }

    @Test func unknownPathIsNotFoundProblem() throws {
        let response = try router().respond(to: Request(method: .get, target: "/nothing/here"))
        #expect(response.status == .notFound)
        #expect(response.headers["content-type"] == "application/problem+json; charset=utf-8")
        let json = try JSONParser.parse(response.bodyBytes ?? [])
        #expect(json["status"] == .int(404))
        #expect(json["code"] == .string("not-found"))
    }

    @Test func knownPathWithAnotherMethodIs405WithAllow() throws {
        let response = try router().respond(to: Request(method: .put, target: "/books/3"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, DELETE, OPTIONS")
    }

    @Test func headUsesTheGetRoute() throws {
        guard case .found(let route, let parameters) = router().match(.head, ["books", "9"]) else {
            Issue.record("HEAD did not match")
            return
        }
        #expect(route.method == .get)
        #expect(parameters == ["id": "9"])
    }

    @Test func jsonRouteRefusesOtherMediaTypes() throws {
        let request = Request(
            method: .post, target: "/loans", headers: ["Content-Type": "text/plain"], body: Array("hi".utf8))
        let response = try router().respond(to: request)
        #expect(response.status == .unsupportedMediaType)
        let json = Request(
            method: .post, target: "/loans", headers: ["Content-Type": "application/json; charset=utf-8"],
            body: Array("[1]".utf8))
        #expect(try router().respond(to: json).status == .created)
    }

    @Test("a 415 says what the body was declared: a type, an empty Content-Type, or none")
    func unsupportedMediaTypeSaysWhatWasDeclared() throws {
        func detail(_ headers: HTTPHeaders) throws -> String? {
            let request = Request(method: .post, target: "/loans", headers: headers, body: Array("hi".utf8))
            let response = try router().respond(to: request)
            #expect(response.status == .unsupportedMediaType)
            return try JSONParser.parse(response.bodyBytes ?? [])["detail"]?.stringValue
        }
        let prefix = "The body must be JSON (Content-Type: application/json); it was "
        #expect(try detail(["Content-Type": "text/plain"]) == prefix + "text/plain.")
        let empty = "The body must be JSON (Content-Type: application/json); its Content-Type was empty."
        #expect(try detail(["Content-Type": ""]) == empty)
        #expect(try detail(["Content-Type": "  "]) == empty)
        #expect(try detail([:]) == prefix + "not declared.")
    }

    @Test func badJSONIsProblemWithLineAndColumn() throws {
        let request = Request(
            method: .post, target: "/loans", headers: ["Content-Type": "application/json"],
            body: Array("{\n  \"a\": [1,]\n}".utf8))
        #expect(throws: Problem.self) { try router().respond(to: request) }
        do {
            _ = try request.json()
        } catch {
            #expect(error.status == .badRequest)
            #expect(error.code == "bad-json")
            #expect(error.extensions["line"] == .int(2))
            #expect(error.extensions["column"] != nil)
        }
    }

    @Test func middlewareRunsOutermostFirst() throws {
        let order = Collected<String>()
        let first = Middleware { request, next in
            order.append("first")
            var response = try next(request)
            response.headers.add("X-Order", "first")
            return response
        }
        let second = Middleware { request, next in
            order.append("second")
            return try next(request)
        }
        let chain = Middleware.chain([first, second], around: router().respond(to:))
        let response = try chain(Request(method: .get, target: "/books"))
        #expect(order.all == ["first", "second"])
        #expect(response.headers["x-order"] == "first")
    }

    @Test func problemsMiddlewareMapsErrors() throws {
        struct Refused: Error {}
        struct Hidden: Error {}
        let reported = Collected<String>()
        let errors = Middleware.problems(
            map: { error in error is Refused ? Problem(status: .conflict, code: "refused") : nil },
            report: { _, error in reported.append("\(error)") })
        let refused = Middleware.chain([errors]) { _ in throw Refused() }
        #expect(try refused(Request(method: .get, target: "/")).status == .conflict)
        let hidden = Middleware.chain([errors]) { _ in throw Hidden() }
        let response = try hidden(Request(method: .get, target: "/", requestID: "r1"))
        #expect(response.status == .internalServerError)
        #expect(!String(decoding: response.bodyBytes ?? [], as: UTF8.self).contains("Hidden"))
        #expect(reported.all.count == 1)
    }

    @Test func problemsMiddlewareReportsErrorsItMapsTo500() throws {
        struct Misconfigured: Error {}
        struct Refused: Error {}
        let reported = Collected<String>()
        let errors = Middleware.problems(
            map: { error in
                switch error {
                case is Misconfigured: Problem(status: .internalServerError, code: "misconfigured")
                case is Refused: Problem(status: .conflict, code: "refused")
                default: nil
                }
            },
            report: { request, error in reported.append("\(request.requestID) \(error)") })
        let misconfigured = Middleware.chain([errors]) { _ in throw Misconfigured() }
        let response = try misconfigured(Request(method: .get, target: "/", requestID: "r2"))
        #expect(response.status == .internalServerError)
        #expect(String(decoding: response.bodyBytes ?? [], as: UTF8.self).contains("misconfigured"))
        #expect(reported.all == ["r2 Misconfigured()"])
        _ = try Middleware.chain([errors]) { _ in throw Refused() }(Request(method: .get, target: "/"))
        _ = try Middleware.chain([errors]) { _ in throw Problem(status: .internalServerError, code: "own") }(
            Request(method: .get, target: "/"))
        #expect(reported.all.count == 1)
    }
}

@Suite struct ValueTests {
    @Test func queryParametersDecode() throws {
        let query = try QueryParameters(parsing: "search=le+guin&q=%C3%A9t%C3%A9&tag=a&tag=b&flag")
        #expect(query["search"] == "le guin")
        #expect(query["q"] == "été")
        #expect(query.values(for: "tag") == ["a", "b"])
        #expect(query["flag"] == "")
        #expect(query["missing"] == nil)
    }

    @Test("single: one value or none; a second one is 400 bad-parameter naming the parameter")
    func singleValues() throws {
        let query = try QueryParameters(parsing: "page=2&perPage=5&perPage=0&search=")
        #expect(try query.single("page") == "2")
        #expect(try query.single("search") == "")
        #expect(try query.single("missing") == nil)
        #expect(try query.single("Page") == nil)
        do {
            _ = try query.single("perPage")
            Issue.record("a repeated parameter was accepted")
        } catch {
            #expect(error.status == .badRequest)
            #expect(error.code == "bad-parameter")
            #expect(error.extensions["parameter"] == .string("perPage"))
            #expect(error.detail == "'perPage' is given more than once; give it once.")
        }
    }

    @Test(arguments: ["a=%zz", "a=%4", "a=%FF", "%"])
    func badPercentEncodingThrows(query: String) {
        #expect(throws: PercentDecodingError.self) { try QueryParameters(parsing: query) }
    }

    @Test func percentDecodingErrorsSayWhatIsWrong() {
        let escape = #expect(throws: PercentDecodingError.self) { try QueryParameters(parsing: "a=%zz") }
        #expect(escape?.description == #"bad percent-encoding in "%zz""#)
        // Well-formed escapes whose bytes are not UTF-8: the encoding is fine, the bytes are not.
        let bytes = #expect(throws: PercentDecodingError.self) { try QueryParameters(parsing: "a=caf%E9") }
        #expect(bytes?.reason == .notUTF8)
        #expect(bytes?.description == #""caf%E9" is percent-encoded correctly, but the bytes it encodes are not UTF-8"#)
    }

    @Test func headersAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        headers.add("x-a", "2")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.values(for: "X-a") == ["1", "2"])
        headers.set("X-A", "3")
        #expect(headers.values(for: "x-a") == ["3"])
        headers.remove("content-type")
        #expect(!headers.contains("Content-Type"))
        #expect(!HTTPHeaders.isValid(name: "X-B", value: "a\r\nSet-Cookie: x"))
        #expect(!HTTPHeaders.isValid(name: "Bad Name", value: "a"))
    }

    @Test func problemDocumentHasStandardMembersThenExtensions() {
        let problem = Problem(
            status: .conflict, code: "on-loan", detail: "Book 12 is on loan.", extensions: ["bookId": 12],
            headers: ["Retry-After": "5"])
        let text = String(decoding: problem.response().bodyBytes ?? [], as: UTF8.self)
        #expect(
            text
                == #"{"type":"about:blank","title":"Conflict","status":409,"detail":"Book 12 is on loan.","code":"on-loan","bookId":12}"#
        )
        #expect(problem.response().headers["Retry-After"] == "5")
    }

    @Test func logRedactsSecretQueryValues() {
        let words = ServerConfiguration().redactedQueryKeys
        let line = LogRedaction.redact("/v1/x?token=abc&page=2&PIN=1234&access_token=zz&q=a%0Ab", secretWords: words)
        #expect(line == "/v1/x?token=REDACTED&page=2&PIN=REDACTED&access_token=REDACTED&q=a%0Ab")
        #expect(LogRedaction.redact("/a b\n", secretWords: words) == "/a%20b%0A")
        #expect(LogRedaction.redact("/été\u{7F}?q=\t", secretWords: words) == "/%C3%A9t%C3%A9%7F?q=%09")
        // Values the application calls secret are redacted whatever their key, in the query and the path.
        let secret: (String) -> Bool = { $0.contains("sk_") }
        #expect(
            LogRedaction.redact("/a/sk_1/b?q=x%20sk_2&page=2&sk_3&pin=1", secretWords: words, isSecretValue: secret)
                == "/a/REDACTED/b?q=REDACTED&page=2&REDACTED&pin=REDACTED")
    }

    @Test func eventFramesSplitDataLines() {
        let stream = EventStream()
        stream.send(data: "one\ntwo\r\nthree", event: "changes", id: "v\n1")
        stream.comment("hi")
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, capacity: $0.count) }
        #expect(
            String(decoding: buffer[0..<count], as: UTF8.self)
                == "event: changes\nid: v 1\ndata: one\ndata: two\ndata: three\n\n: hi\n\n")
    }

    @Test func eventStreamCutsAtItsBufferLimit() {
        let stream = EventStream(bufferLimit: 10)
        let reasons = Collected<EventStream.CloseReason>()
        stream.onClose { reasons.append($0) }
        #expect(stream.write(Array("12345".utf8)))
        #expect(!stream.write(Array("1234567".utf8)))
        #expect(reasons.all == [.bufferOverflow])
        #expect(!stream.isOpen)
    }

    @Test func deferredResolvesOnce() {
        let deferred = DeferredResponse(timeout: .seconds(1))
        let resolved = Collected<Bool>()
        deferred.onResolved { resolved.append(true) }
        #expect(deferred.resolve(.text("a")))
        #expect(!deferred.resolve(.text("b")))
        #expect(deferred.response?.bodyBytes == Array("a".utf8))
        #expect(resolved.all == [true])
    }
}
