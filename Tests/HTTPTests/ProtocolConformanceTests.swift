import HTTP
import HTTPTestSupport
import Testing

@Suite("server: request framing and targets (RFC 9112)")
struct ProtocolConformanceTests {
    private func server(log: (@Sendable (AccessLogEntry) -> Void)? = nil) throws -> Server {
        var router = Router()
        router.get("/healthz") { request in .text("ok \(request.path) \(request.query["a"] ?? "-")") }
        router.post("/echo") { request in Response(status: .ok, body: request.body) }
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.accessLog = log
        return try Server.start(router: router, configuration: configuration)
    }

    private func exchange(_ port: Int, _ text: String) throws -> TestClient.Response {
        let client = try TestClient(port: port)
        client.send(text)
        return try client.readResponse()
    }

    @Test("conflicting Content-Length fields are 400 bad-content-length; equal ones are one")
    func conflictingLengths() throws {
        let server = try server()
        defer { server.stop() }
        let conflicting = try exchange(
            server.port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\nContent-Length: 2\r\n\r\n{}")
        #expect(conflicting.status == 400)
        #expect(conflicting.text.contains("bad-content-length"))
        let equal = try exchange(
            server.port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}")
        #expect(equal.status == 200)
        #expect(equal.text == "{}")
    }

    @Test("an HTTP/1.1 request without Host, or with two, is 400; HTTP/1.0 may omit it")
    func host() throws {
        let server = try server()
        defer { server.stop() }
        let missing = try exchange(server.port, "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(missing.status == 400)
        #expect(missing.text.contains("bad-host"))
        #expect(missing[header: "Content-Type"] == "application/problem+json; charset=utf-8")
        let two = try exchange(server.port, "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        #expect(two.status == 400)
        let old = try exchange(server.port, "GET /healthz HTTP/1.0\r\n\r\n")
        #expect(old.status == 200)
    }

    @Test("absolute-form targets are read as their path and query; '*' is for OPTIONS; others say what is wrong")
    func targets() throws {
        let server = try server()
        defer { server.stop() }
        let absolute = try exchange(server.port, "GET http://127.0.0.1/healthz?a=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(absolute.status == 200)
        #expect(absolute.text == "ok /healthz 1")
        let star = try exchange(server.port, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(star.status == 204)
        #expect(star[header: "Allow"] == "GET, HEAD, POST, OPTIONS")
        let starGet = try exchange(server.port, "GET * HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(starGet.status == 400)
        #expect(!starGet.text.contains("percent-encoding"))
        let other = try exchange(server.port, "GET healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(other.status == 400)
        #expect(other.text.contains("bad-target"))
        #expect(!other.text.contains("percent-encoding"))
    }

    @Test("OPTIONS on a route is 204 with Allow; on an unknown path 404")
    func options() throws {
        let server = try server()
        defer { server.stop() }
        let route = try exchange(server.port, "OPTIONS /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(route.status == 204)
        #expect(route[header: "Allow"] == "GET, HEAD, OPTIONS")
        #expect(route[header: "Access-Control-Allow-Origin"] == nil)
        let unknown = try exchange(server.port, "OPTIONS /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(unknown.status == 404)
    }

    @Test("the access log cuts a long target at 200 bytes")
    func longTargetInLog() throws {
        let lines = Locked<[AccessLogEntry]>([])
        let server = try server(log: { entry in lines.withLock { $0.append(entry) } })
        let long = "/" + String(repeating: "a", count: 9_000)
        let response = try exchange(server.port, "GET \(long) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.status == 414)
        server.stop()
        let entry = try #require(lines.withLock { $0.first })
        #expect(entry.target.utf8.count <= 204)
        #expect(entry.target.hasSuffix("…"))
    }
}
