import Formats
import Foundation
import HTTP
import HTTPTestSupport
import Library
import Testing

@testable import LibraryServer

@Suite("serve: the web front and what it uses")
struct WebFrontTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("web")

    @Test("the files embedded are exactly web/'s, served at / and /assets/ without a token, with their types")
    func embeddedFilesEqualTheFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { ["html", "css", "js", "svg"].contains(($0 as NSString).pathExtension) }.sorted()
        #expect(names.contains("index.html") && names.contains("app.js"))
        #expect(WebRoutes.files.files.keys.sorted() == names)
        let library = try TestLibrary()
        try library.serve { service in
            for name in names {
                let bytes = try #require(
                    FileManager.default.contents(atPath: Self.folder.appendingPathComponent(name).path))
                let response = try call(service.port, "GET", "/assets/\(name)")
                #expect(response.status == 200, "\(name)")
                #expect(response.body == Array(bytes), "\(name) is served as it is in web/")
                #expect(response[header: "Content-Type"] == StaticFiles.contentType(forName: name))
            }
            let page = try call(service.port, "GET", "/")
            #expect(page.status == 200)
            #expect(page[header: "Content-Type"] == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<script type="module" src="/assets/app.js"></script>"#))
            let policy = try #require(page[header: "Content-Security-Policy"])
            #expect(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'"))
            #expect(page[header: "X-Content-Type-Options"] == "nosniff")
            let etag = try #require(page[header: "ETag"])
            #expect(try call(service.port, "GET", "/", headers: [("If-None-Match", etag)]).status == 304)
            let missing = try call(service.port, "GET", "/assets/nothing.js")
            #expect(missing.status == 404)
            #expect(missing.code == "not-found")
            // No token is needed, and a wrong one is ignored, as on every public route.
            #expect(try call(service.port, "GET", "/assets/app.js", token: "lc_wrong").status == 200)
        }
    }

    @Test("the page has no inline script or style, and sets no text as HTML")
    func noInlineCodeOrHTMLSinks() throws {
        let page = try String(contentsOf: Self.folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!page.contains("<style") && !page.contains("style="))
        let handlers = try NSRegularExpression(pattern: #"\son[a-z]+\s*="#, options: [.caseInsensitive])
        #expect(handlers.numberOfMatches(in: page, range: NSRange(page.startIndex..., in: page)) == 0)
        #expect(page.components(separatedBy: "<script").count == 2, "one script, the module")
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path) where name.hasSuffix(".js") {
            let code = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                #expect(!code.contains(sink), "\(name) uses \(sink)")
            }
        }
    }

    @Test("GET /v1/demo lists the demo sign-ins the server was given, and says demo false without any")
    func demoClients() throws {
        let library = try TestLibrary()
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.accessLog = nil
        let demo = [DemoSignIn(name: "John Doe", cardNumber: "C-0001", pin: "1111")]
        let service = try LibraryService.start(
            databasePath: library.path, configuration: configuration, demoSignIns: demo, now: { TestLibrary.now })
        defer { service.stop() }
        let answer = try call(service.port, "GET", "/v1/demo")
        #expect(answer.status == 200)
        #expect(answer[header: "Cache-Control"] == "no-store")
        #expect(
            answer.text == #"{"demo":true,"clients":[{"name":"John Doe","cardNumber":"C-0001","pin":"1111"}]}"#)
        let plain = try library.serve { plain in try call(plain.port, "GET", "/v1/demo").text }
        #expect(plain == #"{"demo":false,"clients":[]}"#)
    }

    @Test("DELETE /v1/sessions/current signs out: 204, and the token is refused from then on")
    func signOut() throws {
        let library = try TestLibrary()
        try library.serve { service in
            let signIn = try call(
                service.port, "POST", "/v1/sessions", json: #"{"cardNumber": "C-0002", "pin": "2222"}"#)
            let token = try #require(try signIn.json["token"]?.stringValue)
            let other = try library.token(client: 2)
            #expect(try call(service.port, "GET", "/v1/screen", token: token).status == 200)
            let out = try call(service.port, "DELETE", "/v1/sessions/current", token: token)
            #expect(out.status == 204)
            #expect(out.body.isEmpty)
            let after = try call(service.port, "GET", "/v1/screen", token: token)
            #expect(after.status == 401)
            #expect(after.code == "unknown-token")
            #expect(try call(service.port, "DELETE", "/v1/sessions/current", token: token).status == 401)
            #expect(try call(service.port, "DELETE", "/v1/sessions/current").code == "no-token")
            #expect(try call(service.port, "GET", "/v1/screen", token: other).status == 200, "only that token")
            let revoked = try library.store().tokens().filter { $0.revokedAt != nil }
            #expect(revoked.count == 1 && revoked[0].label == "sign-in")
        }
    }

    @Test("?changes=batch-safe: updates carry their old index; another value is 400; the standard form has none")
    func batchSafeParameter() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let etag = try #require(try call(service.port, "GET", "/v1/screen", token: token)[header: "ETag"])
            let since = String(etag.dropFirst().dropLast())
            try library.store().take(bookIDs: [5], clientID: 1, now: TestLibrary.now)
            let standard = try call(service.port, "GET", "/v1/screen/changes?since=\(since)", token: token).json
            let safe = try call(
                service.port, "GET", "/v1/screen/changes?since=\(since)&changes=batch-safe", token: token
            ).json
            let updated = try #require(value(safe, "changes", "items", "updated")?.arrayValue)
            #expect(updated.map { $0["id"] } == [.string("client-1"), .string("book-5")])
            #expect(updated.map { $0["from"] } == [.int(0), .int(4)])
            #expect(value(standard, "changes", "items", "updated", 0, "from") == nil)
            #expect(value(safe, "changes", "items", "inserted") == value(standard, "changes", "items", "inserted"))
            let bad = try call(service.port, "GET", "/v1/screen/changes?since=\(since)&changes=fast", token: token)
            #expect(bad.status == 400)
            #expect(bad.code == "bad-parameter")
            #expect(try call(service.port, "GET", "/v1/screen/events?changes=x", token: token).status == 400)
            let taken = try call(
                service.port, "POST", "/v1/loans?changes=batch-safe", token: token, json: #"{"bookIds": [6]}"#)
            #expect(taken.status == 201)
            #expect(value(try taken.json, "changes", "items", "updated", 0, "from") == .int(0))

            let stream = try TestClient(port: service.port, timeoutSeconds: 10)
            stream.request(
                "GET", "/v1/screen/events?changes=batch-safe",
                headers: [("Authorization", "Bearer \(token)"), ("Last-Event-ID", since)])
            _ = try stream.readHead()
            let event = try EventReader(stream).next()
            let first = try JSONParser.parse(Array(event.data.utf8))
            #expect(value(first, "changes", "items", "updated", 0, "from") == .int(0))
        }
    }

    @Test("at the loan limit the screen's Take actions are disabled with the reason the server gives when tried")
    func takeDisabledAtTheLimit() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 4)  // Kenji Sato: a limit of 2
        try library.store().take(bookIDs: [1, 2], clientID: 4, now: TestLibrary.now)
        try library.serve { service in
            let screen = try call(service.port, "GET", "/v1/screen", token: token).json
            let takes = (value(screen, "sections", 2, "items")?.arrayValue ?? []).compactMap { item in
                item["actions"]?.arrayValue?.first { $0["id"] == .string("take") }
            }
            #expect(takes.count > 10)
            let reason = "You have 2 of your 2 books; you cannot take 1 more book."
            #expect(takes.allSatisfy { $0["disabled"] == .bool(true) && $0["reason"] == .string(reason) })
            let tried = try call(
                service.port, try #require(takes[0]["method"]?.stringValue),
                try #require(takes[0]["href"]?.stringValue), token: token,
                json: try #require(takes[0]["body"]).serialized(pretty: false))
            #expect(tried.status == 409)
            #expect(tried.code == "loan-limit-reached")
            #expect(try tried.json["detail"] == .string(reason))
            let returned = try call(service.port, "DELETE", "/v1/loans/1", token: token)
            let update = value(try returned.json, "changes", "items", "updated")?.arrayValue ?? []
            #expect(update.count > 10, "every Take came back enabled")
            #expect(value(try returned.json, "screen", "sections", 2, "items", 2, "actions", 0, "disabled") == nil)
        }
    }

    @Test("serve shows the demo PINs only while they work: all four on the demo database, none on another")
    func demoDatabaseOnTheBinary() throws {
        let library = try TestLibrary()
        try withServer(database: library.path) { port in
            let json = try call(port, "GET", "/v1/demo").json
            #expect(json["demo"] == .bool(true))
            #expect(
                json["clients"]?.arrayValue?.compactMap { $0["cardNumber"]?.stringValue } == [
                    "C-0001", "C-0002", "C-0003", "C-0004",
                ])
            #expect(value(json, "clients", 2, "name") == .string("Lucía García"))
        }
        try library.store().setPIN(clientID: 2, pin: "987654", now: TestLibrary.now)
        try withServer(database: library.path) { port in
            let cards = try call(port, "GET", "/v1/demo").json["clients"]?.arrayValue?.compactMap {
                $0["cardNumber"]?.stringValue
            }
            #expect(cards == ["C-0001", "C-0003", "C-0004"], "a changed PIN is not shown")
        }
        let empty = library.directory + "/empty.sqlite"
        #expect(try Binary.run(["-q", "--db", empty, "init", "--empty"]).code == 0)
        try withServer(database: empty) { port in
            let answer = try call(port, "GET", "/v1/demo").text
            #expect(answer == #"{"demo":false,"clients":[]}"#)
        }
    }

    /// Runs `librarycli serve --port 0` on `database`, calls `body` with its port, and stops it.
    private func withServer(database: String, _ body: (Int) throws -> Void) throws {
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["-q", "--db", database, "serve", "--port", "0"]
        process.environment = ["PATH": "/usr/bin:/bin", "LIBRARY_NOW": "2026-11-29T14:40:00Z"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        var buffer = ""
        for _ in 0..<200 where !buffer.contains("\n") {
            let data = err.fileHandleForReading.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
        }
        let line = String(buffer.prefix { $0 != "\n" })
        let port = try #require(Int(line.split(separator: ":").last ?? ""), "no Listening line: \(buffer)")
        try body(port)
    }
}
