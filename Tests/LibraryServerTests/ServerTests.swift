import Formats
import HTTP
import Library
import LibraryServer
import Testing

@Suite("serve: access, screens and problems")
struct AccessAndScreenTests {
    @Test("GET /healthz needs no token; every other route needs one: 401 with WWW-Authenticate: Bearer")
    func healthAndMissingTokens() throws {
        let library = try TestLibrary()
        try library.serve { service in
            let health = try call(service.port, "GET", "/healthz")
            #expect(health.status == 200)
            #expect(health.text == #"{"status":"ok"}"#)
            #expect(health[header: "X-Request-Id"]?.isEmpty == false)
            for (method, target) in [
                ("GET", "/v1/screen"), ("GET", "/v1/screen/changes?since=x"), ("GET", "/v1/loans"),
                ("DELETE", "/v1/loans/1"), ("GET", "/v1/books"), ("GET", "/v1/books/1"),
            ] {
                let response = try call(service.port, method, target)
                #expect(response.status == 401, "\(method) \(target)")
                #expect(response[header: "WWW-Authenticate"] == "Bearer")
                #expect(response.code == "no-token")
            }
            let unknown = try call(service.port, "GET", "/v1/screen", token: "lc_not-a-real-token-at-all")
            #expect(unknown.status == 401)
            #expect(unknown.code == "unknown-token")
            #expect(unknown[header: "WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            #expect(!unknown.text.contains("lc_not-a-real-token"))
            // Another scheme is no credentials (RFC 6750 §3.1: 401 without an error code); a Bearer credential
            // without its token is a malformed request, 400.
            let scheme = try call(service.port, "GET", "/v1/screen", headers: [("Authorization", "Basic abc")])
            #expect(scheme.status == 401)
            #expect(scheme.code == "no-token")
            #expect(scheme[header: "WWW-Authenticate"] == "Bearer")
            for header in ["Bearer", "bearer \t", "Bearer\tabc"] {
                let malformed = try call(service.port, "GET", "/v1/screen", headers: [("Authorization", header)])
                #expect(malformed.status == 400, "\(header)")
                #expect(malformed.code == "bad-authorization")
                #expect(malformed[header: "WWW-Authenticate"] == #"Bearer error="invalid_request""#)
            }
        }
    }

    @Test("a revoked token is refused at once")
    func revokedToken() throws {
        let library = try TestLibrary()
        let issued = try library.store().createToken(for: .client(1), now: TestLibrary.now)
        try library.serve { service in
            #expect(try call(service.port, "GET", "/v1/screen", token: issued.token).status == 200)
            _ = try library.store().revokeToken(id: issued.id, now: TestLibrary.now)
            #expect(try call(service.port, "GET", "/v1/screen", token: issued.token).status == 401)
        }
    }

    @Test("the screen is the client's document with an ETag; If-None-Match gives 304; parameters are checked")
    func screenAndETag() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let screen = try call(service.port, "GET", "/v1/screen?perPage=3", token: token)
            #expect(screen.status == 200)
            #expect(screen[header: "Content-Type"] == "application/json; charset=utf-8")
            let json = try screen.json
            #expect(value(json, "version") == .int(1))
            #expect(value(json, "sections", 0, "items", 0, "clientId") == .int(1))
            #expect(value(json, "sections", 2, "items")?.arrayValue?.count == 3)
            let etag = try #require(screen[header: "ETag"])
            #expect(etag.hasPrefix("\"") && etag.count > 20)
            let again = try call(service.port, "GET", "/v1/screen?perPage=3", token: token)
            #expect(again[header: "ETag"] == etag)
            #expect(again.body == screen.body)
            let cached = try call(
                service.port, "GET", "/v1/screen?perPage=3", token: token, headers: [("If-None-Match", etag)])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
            let other = try call(
                service.port, "GET", "/v1/screen?perPage=4", token: token, headers: [("If-None-Match", etag)])
            #expect(other.status == 200)
            for bad in ["page=0", "perPage=abc", "perPage=100000", "page=-1"] {
                let response = try call(service.port, "GET", "/v1/screen?\(bad)", token: token)
                #expect(response.status == 400, "\(bad)")
                #expect(response.code == "bad-parameter")
            }
            let long = String(repeating: "a", count: 300)
            #expect(try call(service.port, "GET", "/v1/screen?search=\(long)", token: token).status == 400)
            let found = try call(service.port, "GET", "/v1/screen?search=odyssey", token: token)
            #expect(found.status == 200)
        }
    }

    @Test(
        "the screen answered again without reading it is never stale: each change by the server, another connection or another process shows at once"
    )
    func repeatedScreensAreNeverStale() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let store = try library.store()
        /// Book 5's availability on the screen, and the screen's ETag.
        func bookFive(_ port: Int) throws -> (String?, String?) {
            let screen = try call(port, "GET", "/v1/screen", token: token)
            let items = value(try screen.json, "sections", 2, "items")?.arrayValue ?? []
            let item = items.first { $0["id"] == .string("book-5") }
            return (item?["availability"]?.stringValue, screen[header: "ETag"])
        }
        try library.serve(threads: 4) { service in
            let (first, etag) = try bookFive(service.port)
            #expect(first == "available")
            #expect(try bookFive(service.port) == (first, etag))
            // Another connection (as another process would), many times, each read right after the commit.
            for round in 0..<40 {
                if round % 2 == 0 {
                    try store.take(bookIDs: [5], clientID: round % 4 == 0 ? 1 : 2, now: TestLibrary.now)
                } else {
                    _ = try store.returnBooks(bookIDs: [5], clientID: round % 4 == 1 ? 1 : 2, now: TestLibrary.now)
                }
                let expected = round % 2 == 1 ? "available" : round % 4 == 0 ? "yours" : "on-loan"
                #expect(try bookFive(service.port).0 == expected, "round \(round)")
            }
            // The server itself: the screen right after a take is the one the take answered.
            let take = try call(service.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [5]}"#)
            #expect(take.status == 201)
            let (afterTake, afterTakeTag) = try bookFive(service.port)
            #expect(afterTake == "yours")
            #expect(afterTakeTag == take[header: "ETag"])
            // Another process.
            let giveBack = try Binary.run(["--db", library.path, "--client", "1", "-q", "return", "5"])
            #expect(giveBack.code == 0, "\(giveBack.err)")
            #expect(try bookFive(service.port).0 == "available")
        }
    }

    @Test("a client's token shows only its own client's screen; a librarian's has no screen (403)")
    func screensAreTheTokensClients() throws {
        let library = try TestLibrary()
        let ann = try library.token(client: 1)
        let bob = try library.token(client: 2)
        let librarian = try library.librarianToken()
        try library.serve { service in
            let annScreen = try call(service.port, "GET", "/v1/screen", token: ann).json
            let bobScreen = try call(service.port, "GET", "/v1/screen", token: bob).json
            #expect(value(annScreen, "sections", 0, "items", 0, "clientId") == .int(1))
            #expect(value(bobScreen, "sections", 0, "items", 0, "clientId") == .int(2))
            // No parameter picks another client.
            let asOther = try call(service.port, "GET", "/v1/screen?clientId=2&client=2", token: ann).json
            #expect(value(asOther, "sections", 0, "items", 0, "clientId") == .int(1))
            let forbidden = try call(service.port, "GET", "/v1/screen", token: librarian)
            #expect(forbidden.status == 403)
            #expect(forbidden.code == "not-a-client")
        }
    }

    @Test("404 for an unknown path, 405 with Allow for a known path and another method")
    func notFoundAndMethodNotAllowed() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let missing = try call(service.port, "GET", "/v1/nothing", token: token)
            #expect(missing.status == 404)
            let wrong = try call(service.port, "PUT", "/v1/screen", token: token)
            #expect(wrong.status == 405)
            #expect(wrong[header: "Allow"] == "GET, HEAD, OPTIONS")
            let loans = try call(service.port, "PATCH", "/v1/loans", token: token)
            #expect(loans[header: "Allow"]?.contains("POST") == true)
        }
    }

    @Test("the access log names requests without their tokens")
    func accessLogHasNoTokens() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let lines = Shared<[String]>([])
        let service = try library.start(log: { entry in lines.withLock { $0.append(entry.line) } })
        _ = try call(service.port, "GET", "/v1/screen?token=\(token)", token: token)
        _ = try call(service.port, "POST", "/v1/sessions", json: #"{"cardNumber":"C-0001","pin":"1111"}"#)
        // A token under any other query key, cut short, in a path segment or as a bare query item is redacted too.
        let short = String(token.prefix(12))
        _ = try call(service.port, "GET", "/v1/screen?t=\(token)&page=1", token: token)
        _ = try call(service.port, "GET", "/v1/screen?search=Bearer+\(short)", token: token)
        _ = try call(service.port, "GET", "/v1/books/\(token)", token: token)
        _ = try call(service.port, "GET", "/v1/screen?\(token)", token: token)
        service.stop()
        let logged = lines.withLock { $0 }
        #expect(logged.count == 6)
        #expect(!logged.joined().contains(token))
        #expect(!logged.joined().contains(short))
        #expect(!logged.joined().contains("1111"))
        #expect(logged.contains { $0.contains(" /v1/screen?t=REDACTED&page=1 ") })
        #expect(logged.contains { $0.contains(" /v1/books/REDACTED ") })
    }
}

@Suite("serve: sign-in")
struct SignInTests {
    @Test("a demo PIN signs in: 201 with a token that shows that client's screen")
    func signIn() throws {
        let library = try TestLibrary()
        try library.serve { service in
            let response = try call(
                service.port, "POST", "/v1/sessions", json: #"{"cardNumber":"C-0002","pin":"2222"}"#)
            #expect(response.status == 201)
            let json = try response.json
            #expect(json["clientId"] == .int(2))
            let token = try #require(json["token"]?.stringValue)
            let screen = try call(service.port, "GET", "/v1/screen", token: token).json
            #expect(value(screen, "sections", 0, "items", 0, "clientId") == .int(2))
        }
    }

    @Test("a wrong PIN is 401; after 5 failures the card is locked: 429 with Retry-After, even with the right PIN")
    func lockOut() throws {
        let library = try TestLibrary()
        try library.serve { service in
            for _ in 0..<5 {
                let wrong = try call(
                    service.port, "POST", "/v1/sessions", json: #"{"cardNumber":"C-0003","pin":"0000"}"#)
                #expect(wrong.status == 401)
                #expect(wrong.code == "sign-in-failed")
            }
            let locked = try call(
                service.port, "POST", "/v1/sessions", json: #"{"cardNumber":"C-0003","pin":"3333"}"#)
            #expect(locked.status == 429)
            #expect(locked.code == "locked-out")
            #expect(Int(locked[header: "Retry-After"] ?? "") ?? 0 > 0)
            let unknownCard = try call(
                service.port, "POST", "/v1/sessions", json: #"{"cardNumber":"C-9999","pin":"1111"}"#)
            #expect(unknownCard.status == 401)
            let missing = try call(service.port, "POST", "/v1/sessions", json: #"{"cardNumber":"C-0001"}"#)
            #expect(missing.status == 400)
            #expect(missing.code == "invalid-body")
        }
    }
}

@Suite("serve: request bodies")
struct BodyTests {
    @Test("a body that is not JSON is 415, a truncated one 400 bad-json with line and column")
    func notJSONAndTruncated() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let plain = try call(
                service.port, "POST", "/v1/loans", token: token, headers: [("Content-Type", "text/plain")],
                body: Array("bookIds=1".utf8))
            #expect(plain.status == 415)
            let truncated = try call(service.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [1"#)
            #expect(truncated.status == 400)
            #expect(truncated.code == "bad-json")
            #expect(try truncated.json["line"] == .int(1))
            #expect(try truncated.json["column"]?.intValue != nil)
            let wrongShape = try call(service.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": "1"}"#)
            #expect(wrongShape.status == 400)
            #expect(wrongShape.code == "invalid-body")
            let empty = try call(service.port, "POST", "/v1/loans", token: token, json: "[]")
            #expect(empty.status == 400)
        }
        // Nothing was taken.
        #expect(try library.store().openLoans(clientID: 1, now: TestLibrary.now).isEmpty)
    }

    @Test("every route that takes a body (each POST and DELETE) refuses one that is not JSON with 415")
    func everyBodyRouteChecksItsType() throws {
        for route in LibraryService.routes where route.method != .get {
            #expect(route.accepts == .json, "\(route.method) \(route.pattern) does not check its body's type")
        }
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        _ = try library.store().take(bookIDs: [3], clientID: 1, now: TestLibrary.now)
        try library.serve { service in
            let text = try call(
                service.port, "DELETE", "/v1/loans/3", token: token, headers: [("Content-Type", "text/plain")],
                body: Array("hello".utf8))
            #expect(text.status == 415)
            #expect(text.code == "unsupported-media-type")
            let png = try call(
                service.port, "DELETE", "/v1/loans/3", token: token, headers: [("Content-Type", "image/png")],
                body: Array("{}".utf8))
            #expect(png.status == 415)
            let empty = try call(
                service.port, "DELETE", "/v1/loans/3", token: token, headers: [("Content-Type", "")],
                body: Array("{}".utf8))
            #expect(empty.status == 415)
            #expect(try empty.json["detail"]?.stringValue?.hasSuffix("; its Content-Type was empty.") == true)
            let signOut = try call(
                service.port, "DELETE", "/v1/sessions/current", token: token,
                headers: [("Content-Type", "text/plain")], body: Array("bye".utf8))
            #expect(signOut.status == 415)
            let member = try call(service.port, "DELETE", "/v1/sessions/current", token: token, json: #"{"all": true}"#)
            #expect(member.status == 400)
            #expect(member.code == "invalid-body")
            // None of them returned the book or signed out; a JSON body without members does.
            let returned = try call(service.port, "DELETE", "/v1/loans/3", token: token, json: "{}")
            #expect(returned.status == 200)
            let signedOut = try call(service.port, "DELETE", "/v1/sessions/current", token: token, json: "{}")
            #expect(signedOut.status == 204)
        }
    }

    @Test("a 2 MiB body is 413; JSON nested 100,000 deep is 400")
    func hugeAndDeep() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let big = [UInt8](repeating: UInt8(ascii: " "), count: 2 << 20)
            let huge = try call(
                service.port, "POST", "/v1/loans", token: token, headers: [("Content-Type", "application/json")],
                body: big)
            #expect(huge.status == 413)
            let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let nested = try call(service.port, "POST", "/v1/loans", token: token, json: deep)
            #expect(nested.status == 400)
            #expect(nested.code == "bad-json")
        }
    }
}

@Suite("serve: the API description")
struct OpenAPITests {
    @Test("openapi.json is OpenAPI 3.1 and its paths and methods are exactly the router's routes")
    func matchesRoutes() throws {
        let library = try TestLibrary()
        try library.serve { service in
            let response = try call(service.port, "GET", "/v1/openapi.json")
            #expect(response.status == 200)
            let json = try response.json
            #expect(json["openapi"]?.stringValue?.hasPrefix("3.1") == true)
            var described: Set<String> = []
            for path in json["paths"]?.objectValue?.members ?? [] {
                for method in path.value.objectValue?.members ?? [] {
                    described.insert("\(method.key.uppercased()) \(path.key)")
                }
            }
            let routed = Set(
                LibraryService.routes.map { route in
                    let path = route.pattern.split(separator: "/").map { segment in
                        segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
                    }
                    return "\(route.method.rawValue) /" + path.joined(separator: "/")
                })
            #expect(described == routed)
            #expect(routed.count >= 13)
        }
    }
}

@Suite("serve: query parameters")
struct QueryParameterTests {
    @Test("a known parameter given twice is 400 bad-parameter naming it; unknown and mis-cased ones are ignored")
    func repeatedAndUnknown() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let etag = try #require(try call(service.port, "GET", "/v1/screen", token: token)[header: "ETag"])
            let since = String(etag.dropFirst().dropLast())
            for (method, target, parameter) in [
                ("GET", "/v1/screen?perPage=5&perPage=0", "perPage"),
                ("GET", "/v1/screen?page=1&search=a&page=1", "page"),
                ("GET", "/v1/screen?search=a&search=b", "search"),
                ("GET", "/v1/screen/changes?since=\(since)&changes=batch-safe&changes=x", "changes"),
                ("GET", "/v1/screen/changes?since=\(since)&since=\(since)", "since"),
                ("GET", "/v1/screen/changes?since=\(since)&wait=0&wait=1", "wait"),
                ("GET", "/v1/screen/events?changes=standard&changes=standard", "changes"),
                ("GET", "/v1/loans?state=open&state=returned", "state"),
                ("GET", "/v1/books?limit=5&limit=6", "limit"),
                ("GET", "/v1/books?after=1&after=2", "after"),
                ("DELETE", "/v1/loans/3?perPage=5&perPage=5", "perPage"),
            ] {
                let response = try call(service.port, method, target, token: token)
                #expect(response.status == 400, "\(target)")
                #expect(response.code == "bad-parameter", "\(target)")
                #expect(try response.json["parameter"] == .string(parameter), "\(target)")
                #expect(
                    try response.json["detail"]?.stringValue?.contains("given more than once") == true, "\(target)")
            }
            // Fronts add cache-busters; a parameter no route reads, or one in another case, is not looked at.
            let ignored = try call(service.port, "GET", "/v1/screen?perpage=0&_=1733250000&_=2", token: token)
            #expect(ignored.status == 200)
            #expect(ignored[header: "ETag"] == etag)
        }
    }
}
