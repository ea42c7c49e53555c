import Testing

@testable import HTTP

@Suite struct StaticFilesTests {
    let files = StaticFiles(files: [
        ("index.html", Array("<!doctype html><p>hi".utf8)), ("app.js", Array("export {};".utf8)),
        ("style.css", Array("p{}".utf8)), ("icon.svg", Array("<svg/>".utf8)), ("notes.bin", [0, 1, 2]),
    ])

    private func router() -> Router {
        var router = Router()
        files.add(to: &router)
        return router
    }

    @Test func theIndexAtTheRootAndEveryFileUnderThePrefixWithItsType() throws {
        let index = try router().respond(to: Request(method: .get, target: "/"))
        #expect(index.status == .ok)
        #expect(index.bodyBytes == Array("<!doctype html><p>hi".utf8))
        #expect(index.headers["Content-Type"] == "text/html; charset=utf-8")
        let types = [
            "app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
            "icon.svg": "image/svg+xml; charset=utf-8", "notes.bin": "application/octet-stream",
            "index.html": "text/html; charset=utf-8",
        ]
        for (name, type) in types {
            let response = try router().respond(to: Request(method: .get, target: "/assets/\(name)"))
            #expect(response.status == .ok, "\(name)")
            #expect(response.headers["Content-Type"] == type, "\(name)")
            #expect(response.bodyBytes == files.files[name]?.bytes)
        }
        #expect(StaticFiles.contentType(forName: "APP.JS") == "text/javascript; charset=utf-8")
    }

    @Test func everyResponseCarriesTheStrictHeadersAnETagAndNoCache() throws {
        for target in ["/", "/assets/app.js"] {
            let response = try router().respond(to: Request(method: .get, target: target))
            let policy = try #require(response.headers["Content-Security-Policy"])
            for directive in [
                "default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'",
                "object-src 'none'", "base-uri 'none'", "require-trusted-types-for 'script'",
            ] {
                #expect(policy.contains(directive), "\(directive)")
            }
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval") && !policy.contains("http"))
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            #expect(response.headers["X-Frame-Options"] == "DENY")
            #expect(response.headers["Cache-Control"] == "no-cache")
            #expect(response.headers["ETag"]?.hasPrefix("\"") == true)
        }
    }

    @Test func ifNoneMatchWithTheTagIs304AndAnotherContentHasAnotherTag() throws {
        let first = try router().respond(to: Request(method: .get, target: "/assets/app.js"))
        let etag = try #require(first.headers["ETag"])
        let cached = try router().respond(
            to: Request(method: .get, target: "/assets/app.js", headers: ["If-None-Match": "\"x\", \(etag)"]))
        #expect(cached.status == .notModified)
        #expect(cached.bodyBytes == [])
        #expect(cached.headers["ETag"] == etag)
        let weak = try router().respond(
            to: Request(method: .get, target: "/assets/app.js", headers: ["If-None-Match": "W/\(etag)"]))
        #expect(weak.status == .notModified)
        let other = try router().respond(
            to: Request(method: .get, target: "/assets/app.js", headers: ["If-None-Match": "\"other\""]))
        #expect(other.status == .ok)
        let changed = StaticFiles(files: [("app.js", Array("export {x};".utf8))])
        #expect(changed.files["app.js"]?.tag != files.files["app.js"]?.tag)
        #expect(
            StaticFiles(files: [("app.js", Array("export {};".utf8))]).files["app.js"]?.tag
                == files.files["app.js"]?.tag)
    }

    @Test func anUnknownNameIs404AndOnlyGETAndHEADAreAnswered() throws {
        #expect(throws: Problem.self) { try router().respond(to: Request(method: .get, target: "/assets/nope.js")) }
        #expect(throws: Problem.self) { try router().respond(to: Request(method: .get, target: "/assets/..%2Fapp.js")) }
        let post = try router().respond(to: Request(method: .post, target: "/assets/app.js"))
        #expect(post.status == .methodNotAllowed)
        #expect(try router().respond(to: Request(method: .head, target: "/")).status == .ok)
        #expect(try router().respond(to: Request(method: .get, target: "/assets/sub/app.js")).status == .notFound)
    }
}
