import Formats
import Glibc
import HTTP
import HTTPTestSupport
import Testing

/// The real server on 127.0.0.1, port 0, spoken to over sockets.
@Suite(.serialized) struct ServerTests {
    struct Boom: Error {}

    static func router() -> Router {
        var router = Router()
        router.get("/healthz") { _ in .json(["status": "ok"]) }
        router.get("/books/:id") { request in
            .json([
                "id": .string(request.parameters["id"] ?? ""), "search": JSONValue(optional: request.query["search"]),
            ])
        }
        router.delete("/books/:id") { _ in Response(status: .noContent) }
        router.post("/echo", accepts: .json) { request in .json(try request.json(), status: .created) }
        router.post("/size") { request in .text("\(request.body.count)") }
        router.get("/refuse") { _ in
            throw Problem(status: .conflict, code: "on-loan", detail: "On loan.", headers: ["Retry-After": "7"])
        }
        router.get("/boom") { _ in throw Boom() }
        router.get("/whoami") { request in .text(request.remoteAddress) }
        return router
    }

    @Test func answersJSONWithRequestID() throws {
        try withServer(Self.router()) { server in
            #expect(server.port > 0)
            let client = try TestClient(port: server.port)
            client.request("GET", "/books/12?search=le+guin")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response[header: "Content-Type"] == "application/json; charset=utf-8")
            #expect(response.text == #"{"id":"12","search":"le guin"}"#)
            #expect(response[header: "X-Request-Id"]?.count == 32)
        }
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() throws {
        try withServer(Self.router()) { server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/healthz")
            #expect(try client.readResponse().status == 200)
            client.request("GET", "/books/1")
            #expect(try client.readResponse().text.contains(#""id":"1""#))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withServer(Self.router()) { server in
            let client = try TestClient(port: server.port)
            client.send(
                "GET /books/1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 7\r\n\r\n[1,2,3]"
                    + "GET /books/3 HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try client.readResponse()
            let second = try client.readResponse()
            let third = try client.readResponse()
            #expect(first.text.contains(#""id":"1""#))
            #expect(second.status == 201)
            #expect(second.text == "[1,2,3]")
            #expect(third.text.contains(#""id":"3""#))
        }
    }

    @Test func headAnswersLikeGetWithoutBody() throws {
        try withServer(Self.router()) { server in
            let client = try TestClient(port: server.port)
            client.request("HEAD", "/healthz")
            let head = try client.readResponse(head: true)
            #expect(head.status == 200)
            #expect(head[header: "Content-Length"] == "15")
            // Nothing of a body was sent: the next response follows at once.
            client.request("GET", "/healthz")
            let get = try client.readResponse()
            #expect(get.text == #"{"status":"ok"}"#)
        }
    }

    @Test func statusesAreProblems() throws {
        try withServer(Self.router()) { server in
            let client = try TestClient(port: server.port)
            func problem(_ response: TestClient.Response) throws -> JSONValue {
                #expect(response[header: "Content-Type"] == "application/problem+json; charset=utf-8")
                #expect(response[header: "X-Request-Id"] != nil)
                return try JSONParser.parse(response.body)
            }
            client.request("GET", "/nothing")
            let notFound = try client.readResponse()
            #expect(notFound.status == 404)
            #expect(try problem(notFound)["code"] == "not-found")

            client.request("PUT", "/books/1")
            let notAllowed = try client.readResponse()
            #expect(notAllowed.status == 405)
            #expect(notAllowed[header: "Allow"] == "GET, HEAD, DELETE, OPTIONS")

            client.request("POST", "/echo", headers: [("Content-Type", "text/plain")], body: Array("hi".utf8))
            let unsupported = try client.readResponse()
            #expect(unsupported.status == 415)
            #expect(try problem(unsupported)["code"] == "unsupported-media-type")

            client.request("POST", "/echo", headers: [("Content-Type", "application/json")], body: Array("[1,".utf8))
            let badJSON = try client.readResponse()
            #expect(badJSON.status == 400)
            let badJSONProblem = try problem(badJSON)
            #expect(badJSONProblem["code"] == "bad-json")
            #expect(badJSONProblem["line"] == .int(1))

            client.request("GET", "/refuse")
            let refused = try client.readResponse()
            #expect(refused.status == 409)
            #expect(refused[header: "Retry-After"] == "7")
            let refusedProblem = try problem(refused)
            #expect(refusedProblem["title"] == "Conflict")
            #expect(refusedProblem["detail"] == "On loan.")

            client.request("GET", "/boom")
            let failed = try client.readResponse()
            #expect(failed.status == 500)
            #expect(try problem(failed)["code"] == "internal-error")
            #expect(!failed.text.contains("Boom"))

            client.request("DELETE", "/books/1")
            #expect(try client.readResponse().status == 204)

            client.request("GET", "/books/%zz")
            let badTarget = try client.readResponse()
            #expect(badTarget.status == 400)
            #expect(try problem(badTarget)["code"] == "bad-target")
        }
    }

    enum CallerKey: RequestStorageKey { typealias Value = String }

    @Test func middlewareAuthenticatesAndPassesValuesToHandlers() throws {
        let errors = Collected<String>()
        let auth = Middleware { request, next in
            guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else {
                throw Problem(status: .unauthorized, code: "no-token", headers: ["WWW-Authenticate": "Bearer"])
            }
            var request = request
            request.storage[CallerKey.self] = String(header.dropFirst(7))
            return try next(request)
        }
        var router = Router()
        router.get("/me") { request in .text(request.storage[CallerKey.self] ?? "nobody") }
        router.get("/fail") { _ in throw Boom() }
        let configuration = testConfiguration { $0.errorLog = { request, error in errors.append(request.path) } }
        try withServer(router, middleware: [auth], configuration: configuration) { server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/me")
            let refused = try client.readResponse()
            #expect(refused.status == 401)
            #expect(refused[header: "WWW-Authenticate"] == "Bearer")
            client.request("GET", "/me", headers: [("Authorization", "Bearer client-7")])
            #expect(try client.readResponse().text == "client-7")
            client.request("GET", "/fail", headers: [("Authorization", "Bearer client-7")])
            #expect(try client.readResponse().status == 500)
            #expect(errors.all == ["/fail"])
        }
    }

    @Test func longTargetsAndHeadersAreRefused() throws {
        try withServer(Self.router()) { server in
            let long = try TestClient(port: server.port)
            long.request("GET", "/books/" + String(repeating: "a", count: 9000))
            #expect(try long.readResponse().status == 414)

            let headers = try TestClient(port: server.port)
            let fields = (0..<40).map { ("X-Filler-\($0)", String(repeating: "b", count: 500)) }
            headers.request("GET", "/healthz", headers: fields)
            #expect(try headers.readResponse().status == 431)

            let huge = try TestClient(port: server.port)
            huge.request("GET", "/healthz", headers: [("X-Huge", String(repeating: "c", count: 100_000))])
            let refused = try huge.readResponse()
            #expect(refused.status == 431 || refused.status == 413)
        }
    }

    @Test func bodyOverTheLimitIs413WithoutBeingRead() throws {
        try withServer(Self.router()) { server in
            // Only the head is sent: the 413 cannot have waited for 2 MiB of body.
            let client = try TestClient(port: server.port)
            client.send("POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: \(2 << 20)\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response[header: "X-Request-Id"] != nil)
            #expect(try JSONParser.parse(response.body)["code"] == "body-too-large")
            #expect(client.waitForClose())

            let fits = try TestClient(port: server.port)
            fits.request("POST", "/size", body: [UInt8](repeating: 65, count: 1 << 20))
            #expect(try fits.readResponse().text == "\(1 << 20)")
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() throws {
        try withServer(Self.router()) { server in
            let client = try TestClient(port: server.port)
            client.send("POST /size HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 66, count: 0x10000) + Array("\r\n".utf8)
            // 32 chunks of 64 KiB: 2 MiB; the server keeps only the first MiB.
            for _ in 0..<32 { client.send(chunk) }
            client.send("0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(try JSONParser.parse(response.body)["code"] == "body-too-large")
            #expect(client.waitForClose())
        }
    }

    @Test func endlessChunkedBodyIsCut() throws {
        try withServer(Self.router()) { server in
            let client = try TestClient(port: server.port)
            client.send("POST /size HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 66, count: 0x10000) + Array("\r\n".utf8)
            var sent = 0
            for _ in 0..<1000 {
                guard client.send(chunk) else { break }
                sent += 1
            }
            #expect(sent < 1000)
            #expect(client.waitForClose())
        }
    }

    @Test func requestIDsAreUniqueAndLogged() throws {
        let entries = Collected<AccessLogEntry>()
        try withServer(Self.router(), configuration: testConfiguration { $0.accessLog = { entries.append($0) } }) {
            server in
            let client = try TestClient(port: server.port)
            var ids: [String] = []
            for index in 0..<50 {
                client.request("GET", "/books/\(index)")
                ids.append(try client.readResponse()[header: "X-Request-Id"] ?? "")
            }
            #expect(Set(ids).count == 50)
            #expect(ids.allSatisfy { $0.count == 32 })
            let logged = entries.wait { $0.count >= 50 }
            #expect(Set(logged.map(\.requestID)) == Set(ids))
        }
    }

    @Test func accessLogRedactsQuerySecrets() throws {
        let entries = Collected<AccessLogEntry>()
        try withServer(Self.router(), configuration: testConfiguration { $0.accessLog = { entries.append($0) } }) {
            server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/books/7?token=s3cr3t-value&page=2&pin=4321")
            let response = try client.readResponse()
            let entry = try #require(entries.wait { !$0.isEmpty }.first)
            #expect(entry.method == "GET")
            #expect(entry.status == 200)
            #expect(entry.target == "/books/7?token=REDACTED&page=2&pin=REDACTED")
            #expect(entry.requestID == response[header: "X-Request-Id"])
            #expect(entry.remoteAddress == "127.0.0.1")
            #expect(entry.completed)
            #expect(!entry.line.contains("s3cr3t") && !entry.line.contains("4321"))
            #expect(entry.line.hasPrefix("127.0.0.1 GET /books/7?token=REDACTED&page=2&pin=REDACTED 200 "))
        }
    }

    @Test func twoHundredConcurrentConnections() throws {
        try withServer(Self.router(), configuration: testConfiguration { $0.threads = 4 }) { server in
            let clients = try (0..<200).map { _ in try TestClient(port: server.port) }
            for (index, client) in clients.enumerated() { client.request("GET", "/books/\(index)") }
            for (index, client) in clients.enumerated() {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.text.contains(#""id":"\#(index)""#))
            }
        }
    }

    @Test func connectionsPerAddressAreCapped() throws {
        try withServer(Self.router(), configuration: testConfiguration { $0.maxConnectionsPerAddress = 2 }) { server in
            let first = try TestClient(port: server.port)
            let second = try TestClient(port: server.port)
            first.request("GET", "/healthz")
            #expect(try first.readResponse().status == 200)
            second.request("GET", "/healthz")
            #expect(try second.readResponse().status == 200)
            let third = try TestClient(port: server.port)
            third.request("GET", "/healthz")
            #expect(third.waitForClose())
            #expect(third.pending.isEmpty)
        }
    }

    @Test func connectionsInTotalAreCapped() throws {
        try withServer(
            Self.router(),
            configuration: testConfiguration {
                $0.threads = 1
                $0.maxConnections = 2
            }
        ) { server in
            let first = try TestClient(port: server.port)
            let second = try TestClient(port: server.port)
            first.request("GET", "/healthz")
            #expect(try first.readResponse().status == 200)
            second.request("GET", "/healthz")
            #expect(try second.readResponse().status == 200)
            // The third waits in the kernel's queue until one of the two goes.
            let third = try TestClient(port: server.port)
            third.request("GET", "/healthz")
            #expect(!third.isReadable(withinMilliseconds: 300))
            first.close()
            #expect(try third.readResponse().status == 200)
        }
    }

    @Test func idleConnectionsTimeOut() throws {
        try withServer(Self.router(), configuration: testConfiguration { $0.connectionTimeoutSeconds = 1 }) { server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/healthz")
            #expect(try client.readResponse().status == 200)
            #expect(client.waitForClose())
        }
    }

    @Test func startRefusesBadSettings() throws {
        #expect(throws: ServerError.badHost("example.org")) {
            try Server.start(router: Router(), configuration: ServerConfiguration(host: "example.org", port: 0))
        }
        #expect(throws: ServerError.badPort(70_000)) {
            try Server.start(router: Router(), configuration: ServerConfiguration(port: 70_000))
        }
        try withServer(Self.router()) { server in
            #expect {
                try Server.start(router: Router(), configuration: ServerConfiguration(port: server.port))
            } throws: { error in
                guard case .cannotListen = error as? ServerError else { return false }
                return true
            }
        }
    }

    @Test(
        "stop closes at once a connection whose request headers have not all arrived; a request at its handler is waited for"
    )
    func stopDoesNotWaitForUnfinishedHeaders() throws {
        var router = Self.router()
        let release = Gate()
        router.get("/slow") { _ in
            release.wait()
            return .text("slow")
        }
        let server = try Server.start(router: router, configuration: testConfiguration())
        let partial = try TestClient(port: server.port)
        #expect(partial.send("GET /healthz HTTP/1.1\r\nHost: a\r\n"))
        for _ in 0..<500 where server.requestsInFlight == 0 { usleep(2_000) }
        #expect(server.requestsInFlight == 1)  // its request line arrived
        let clock = ContinuousClock()
        let start = clock.now
        server.stop()  // the stop timeout is 10 s
        #expect(clock.now - start < .seconds(2))
        #expect(partial.waitForClose())

        // The same with a request at its handler: stop waits for it, and it is answered.
        let busy = try Server.start(router: router, configuration: testConfiguration())
        let client = try TestClient(port: busy.port)
        client.request("GET", "/slow")
        for _ in 0..<500 where busy.requestsInFlight == 0 { usleep(2_000) }
        let done = Gate()
        let stopped = Background {
            busy.stop()
            done.open()
        }
        usleep(200_000)
        #expect(!done.isOpen)
        release.open()
        #expect(try client.readResponse().text == "slow")
        #expect(stopped.join())
    }

    @Test("ServerConfiguration.authority: an IPv6 host in brackets, given with or without them")
    func authority() {
        #expect(ServerConfiguration.authority(host: "::1", port: 8080) == "[::1]:8080")
        #expect(ServerConfiguration.authority(host: "[::1]", port: 8080) == "[::1]:8080")
        #expect(ServerConfiguration.authority(host: "127.0.0.1", port: 80) == "127.0.0.1:80")
        #expect(ServerConfiguration.authority(host: "localhost", port: 80) == "localhost:80")
        #expect(
            ServerError.cannotListen(host: "[::1]", port: 80, reason: "Permission denied").description
                == "cannot listen on [::1]:80: Permission denied")
    }

    @Test func terminationSignalsWaitsForTheSignal() {
        let signals = TerminationSignals([SIGUSR2])
        raise(SIGUSR2)
        #expect(signals.wait() == SIGUSR2)
    }
}
