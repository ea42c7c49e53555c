import Formats
import HTTP
import HTTPTestSupport
import LibraryServer
import Testing

@Suite("serve: fronts on other origins (CORS)")
struct CrossOriginTests {
    static let front = "http://localhost:3000"

    @Test("a preflight from an allowed origin is 204 with the route's methods, the headers and a max age; no token")
    func allowedPreflight() throws {
        let library = try TestLibrary()
        try library.serve(crossOrigin: try CrossOrigin(allowing: [Self.front])) { service in
            let preflight = try call(
                service.port, "OPTIONS", "/v1/loans/12",
                headers: [
                    ("Origin", Self.front), ("Access-Control-Request-Method", "DELETE"),
                    ("Access-Control-Request-Headers", "authorization, content-type, idempotency-key"),
                ])
            #expect(preflight.status == 204)
            #expect(preflight[header: "Access-Control-Allow-Origin"] == Self.front)
            #expect(preflight[header: "Access-Control-Allow-Methods"] == "DELETE, OPTIONS")
            let allowed = preflight[header: "Access-Control-Allow-Headers"] ?? ""
            for name in [
                "Authorization", "Content-Type", "Idempotency-Key", "If-None-Match", "Prefer", "Last-Event-ID",
            ] {
                #expect(allowed.contains(name), "\(name) is not allowed")
            }
            #expect(Int(preflight[header: "Access-Control-Max-Age"] ?? "") ?? 0 > 0)
            #expect(preflight[header: "Vary"]?.contains("Origin") == true)
            #expect(preflight[header: "Access-Control-Allow-Credentials"] == nil)
            let screen = try call(
                service.port, "OPTIONS", "/v1/screen",
                headers: [("Origin", Self.front), ("Access-Control-Request-Method", "GET")])
            #expect(screen[header: "Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS")
        }
    }

    @Test("an origin not allowed gets no CORS header, on a preflight or a request")
    func originNotAllowed() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve(crossOrigin: try CrossOrigin(allowing: [Self.front])) { service in
            for origin in ["http://localhost:3001", "https://localhost:3000", "http://evil.example"] {
                let preflight = try call(
                    service.port, "OPTIONS", "/v1/loans",
                    headers: [("Origin", origin), ("Access-Control-Request-Method", "POST")])
                #expect(preflight.status == 204)
                #expect(preflight[header: "Allow"] == "POST, GET, HEAD, OPTIONS")
                #expect(!preflight.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
                let screen = try call(service.port, "GET", "/v1/screen", token: token, headers: [("Origin", origin)])
                #expect(screen.status == 200)
                #expect(!screen.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
                #expect(screen[header: "Vary"]?.contains("Origin") == true)
            }
        }
    }

    @Test("requests from an allowed origin: answers, problems and event streams say so and expose their headers")
    func actualRequests() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve(crossOrigin: try CrossOrigin(allowing: ["https://app.example.org", Self.front])) {
            service in
            func expectCORS(_ response: TestClient.Response, _ what: String) {
                #expect(response[header: "Access-Control-Allow-Origin"] == Self.front, "\(what)")
                let exposed = response[header: "Access-Control-Expose-Headers"] ?? ""
                for name in [
                    "ETag", "X-Request-Id", "Link", "Location", "Retry-After", "Preference-Applied",
                    "Idempotent-Replayed", "WWW-Authenticate",
                ] {
                    #expect(exposed.contains(name), "\(what): \(name) is not exposed")
                }
                #expect(response[header: "Vary"]?.contains("Origin") == true, "\(what)")
            }
            let origin = [("Origin", Self.front)]
            let screen = try call(service.port, "GET", "/v1/screen", token: token, headers: origin)
            #expect(screen.status == 200)
            expectCORS(screen, "screen")
            let take = try call(
                service.port, "POST", "/v1/loans", token: token, headers: origin, json: #"{"bookIds": [3]}"#)
            #expect(take.status == 201)
            expectCORS(take, "take")
            let noToken = try call(service.port, "GET", "/v1/screen", headers: origin)
            #expect(noToken.status == 401)
            expectCORS(noToken, "401")
            let notFound = try call(service.port, "GET", "/v1/nothing", token: token, headers: origin)
            #expect(notFound.status == 404)
            expectCORS(notFound, "404")
            let badType = try call(
                service.port, "POST", "/v1/loans", token: token, headers: origin + [("Content-Type", "text/plain")],
                body: Array("x".utf8))
            #expect(badType.status == 415)
            expectCORS(badType, "415")

            let stream = try TestClient(port: service.port, timeoutSeconds: 30)
            stream.request("GET", "/v1/screen/events", headers: [("Authorization", "Bearer \(token)")] + origin)
            let head = try stream.readHead()
            #expect(head.status == 200)
            #expect(head[header: "Content-Type"]?.hasPrefix("text/event-stream") == true)
            expectCORS(head, "event stream")
        }
    }

    @Test("'*' allows any origin, answered '*'")
    func anyOrigin() throws {
        let library = try TestLibrary()
        try library.serve(crossOrigin: try CrossOrigin(allowing: ["*"])) { service in
            let health = try call(service.port, "GET", "/healthz", headers: [("Origin", "http://anything.example:81")])
            #expect(health[header: "Access-Control-Allow-Origin"] == "*")
            let preflight = try call(
                service.port, "OPTIONS", "/v1/sessions",
                headers: [("Origin", "http://anything.example:81"), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.status == 204)
            #expect(preflight[header: "Access-Control-Allow-Origin"] == "*")
            #expect(preflight[header: "Access-Control-Allow-Methods"] == "POST, OPTIONS")
        }
    }

    @Test("without allowed origins nothing changes: no CORS header, no Vary, a preflight is the plain 204 with Allow")
    func unchangedWithout() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let preflight = try call(
                service.port, "OPTIONS", "/v1/loans",
                headers: [("Origin", Self.front), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.status == 204)
            #expect(preflight[header: "Allow"] == "POST, GET, HEAD, OPTIONS")
            let screen = try call(service.port, "GET", "/v1/screen", token: token, headers: [("Origin", Self.front)])
            for response in [preflight, screen] {
                #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
                #expect(response[header: "Vary"] == nil)
            }
        }
    }

    @Test("serve --allow-origin refuses what is not an origin (64) before listening")
    func badOption() throws {
        let library = try TestLibrary()
        for bad in ["localhost:3000", "http://localhost:3000/", "http://localhost:3000/app", ""] {
            let run = try Binary.run(["--db", library.path, "serve", "--port", "0", "--allow-origin", bad])
            #expect(run.code == 64, "\(bad): \(run.err)")
            #expect(run.err.contains("--allow-origin"), "\(bad)")
            #expect(!run.err.contains("Listening"))
        }
    }

    @Test("serve --allow-origin, repeated, answers each origin")
    func option() throws {
        let library = try TestLibrary()
        let serve = try ServeProcess([
            "--db", library.path, "-q", "serve", "--port", "0", "--allow-origin", Self.front, "--allow-origin",
            "https://app.example.org",
        ])
        defer { serve.stop() }
        for origin in [Self.front, "https://app.example.org"] {
            let health = try call(serve.port, "GET", "/healthz", headers: [("Origin", origin)])
            #expect(health[header: "Access-Control-Allow-Origin"] == origin)
        }
        let other = try call(serve.port, "GET", "/healthz", headers: [("Origin", "http://localhost:8080")])
        #expect(other[header: "Access-Control-Allow-Origin"] == nil)
    }
}
