import Formats
import Testing

@testable import HTTP

@Suite struct CrossOriginTests {
    private func router() -> Router {
        var router = Router()
        router.get("/books") { _ in .text("books", headers: ["ETag": "\"1\"", "Vary": "Accept-Encoding"]) }
        router.post("/books", accepts: .json) { _ in Response(status: .created) }
        router.delete("/books/:id") { _ in throw Problem(status: .conflict, code: "on-loan") }
        return router
    }

    private func respond(_ request: Request, allowing origins: [String]) throws -> Response {
        let chain = Middleware.chain([.crossOrigin(try CrossOrigin(allowing: origins))], around: router().respond(to:))
        return try chain(request)
    }

    @Test("origins are scheme://host[:port] or *, compared without regard to case")
    func origins() throws {
        let policy = try CrossOrigin(allowing: [
            "http://localhost:3000", "HTTPS://App.Example.org", "http://[::1]:8080",
        ])
        #expect(policy.origins == ["http://localhost:3000", "https://app.example.org", "http://[::1]:8080"])
        #expect(policy.allowOrigin(for: "http://localhost:3000") == "http://localhost:3000")
        #expect(policy.allowOrigin(for: "https://app.example.org") == "https://app.example.org")
        #expect(policy.allowOrigin(for: "http://localhost:3001") == nil)
        #expect(policy.allowOrigin(for: "null") == nil)
        #expect(try CrossOrigin(allowing: ["http://a.example", "*"]).allowOrigin(for: "http://b.example") == "*")
        // Ports as a browser writes them: the scheme's default left out, no leading zeros.
        let written = try CrossOrigin(allowing: [
            "http://localhost:80", "https://a.example:443", "http://b.example:03000",
        ])
        #expect(written.origins == ["http://localhost", "https://a.example", "http://b.example:3000"])
        #expect(written.allowOrigin(for: "http://localhost") == "http://localhost")
        for bad in [
            "localhost:3000", "http://localhost:3000/", "http://a.example/app", "http://", "", "http://a b",
            "http://localhost:", "http://localhost:99999", "http://localhost:0", "http://[::1", "http://a]:1",
        ] {
            #expect(throws: CrossOriginError.notAnOrigin(bad)) { try CrossOrigin(allowing: [bad]) }
        }
        #expect(throws: CrossOriginError.noOrigin) { try CrossOrigin(allowing: []) }
    }

    @Test("a preflight from an allowed origin: the router's 204 with Allow-Methods, Allow-Headers and Max-Age")
    func preflight() throws {
        let request = Request(
            method: .options, target: "/books",
            headers: ["Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"])
        let response = try respond(request, allowing: ["http://localhost:3000"])
        #expect(response.status == .noContent)
        #expect(response.headers["Access-Control-Allow-Origin"] == "http://localhost:3000")
        #expect(response.headers["Access-Control-Allow-Methods"] == "GET, HEAD, POST, OPTIONS")
        #expect(
            response.headers["Access-Control-Allow-Headers"]
                == "Authorization, Content-Type, Idempotency-Key, If-None-Match, Prefer, Last-Event-ID")
        #expect(response.headers["Access-Control-Max-Age"] == "600")
        #expect(response.headers["Vary"] == "Origin")
        // From another origin: the plain 204, nothing the browser would take as an allowance.
        var other = request
        other.headers.set("Origin", "http://localhost:3001")
        let refused = try respond(other, allowing: ["http://localhost:3000"])
        #expect(refused.status == .noContent)
        #expect(refused.headers["Allow"] == "GET, HEAD, POST, OPTIONS")
        #expect(!refused.headers.contains { $0.name.hasPrefix("Access-Control-") })
    }

    @Test("answers and thrown problems from an allowed origin carry the origin and the exposed headers; Vary is kept")
    func actualRequests() throws {
        let headers: HTTPHeaders = ["Origin": "http://localhost:3000"]
        let books = try respond(Request(method: .get, target: "/books", headers: headers), allowing: ["*"])
        #expect(books.headers["Access-Control-Allow-Origin"] == "*")
        #expect(books.headers["Access-Control-Expose-Headers"]?.hasPrefix("ETag, X-Request-Id, Link") == true)
        #expect(books.headers.values(for: "Vary") == ["Accept-Encoding", "Origin"])
        let refused = try respond(
            Request(method: .delete, target: "/books/1", headers: headers), allowing: ["http://localhost:3000"])
        #expect(refused.status == .conflict)
        #expect(refused.headers["Access-Control-Allow-Origin"] == "http://localhost:3000")
        // No Origin (not a browser's cross-origin request): nothing but Vary.
        let plain = try respond(Request(method: .get, target: "/books"), allowing: ["*"])
        #expect(plain.headers["Access-Control-Allow-Origin"] == nil)
        #expect(plain.headers.values(for: "Vary") == ["Accept-Encoding", "Origin"])
    }
}
