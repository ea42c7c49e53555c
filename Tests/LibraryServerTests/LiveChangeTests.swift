import Formats
import Foundation
import HTTP
import HTTPTestSupport
import Library
import LibraryServer
import Testing

/// Reads Server-Sent Events from an open stream's chunks.
final class EventReader {
    struct Event {
        var event: String?
        var id: String?
        var data: String
    }

    let client: TestClient
    private var text = ""

    init(_ client: TestClient) {
        self.client = client
    }

    /// The next event (comments skipped); throws when the stream ends or a read times out.
    func next() throws -> Event {
        for _ in 0..<10_000 {
            while let end = text.range(of: "\n\n") {
                let block = String(text[..<end.lowerBound])
                text = String(text[end.upperBound...])
                var event = Event(data: "")
                var data: [String] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("event: ") { event.event = String(line.dropFirst(7)) }
                    if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                }
                if event.event == nil && data.isEmpty { continue }  // a comment
                event.data = data.joined(separator: "\n")
                return event
            }
            guard let chunk = try client.readChunk() else { throw TestFailure("the stream ended") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        throw TestFailure("no event")
    }
}

@Suite("serve: live changes")
struct LiveChangeTests {
    @Test(
        "changes?since: 304 when nothing changed, the change-set and new ETag after a take, the whole document for an unknown version"
    )
    func changesSince() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let screen = try call(service.port, "GET", "/v1/screen", token: token)
            let etag = try #require(screen[header: "ETag"])
            let quoted = etag.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let same = try call(service.port, "GET", "/v1/screen/changes?since=\(quoted)", token: token)
            #expect(same.status == 304)
            let bare = String(etag.dropFirst().dropLast())
            #expect(try call(service.port, "GET", "/v1/screen/changes?since=\(bare)", token: token).status == 304)

            try library.store().take(bookIDs: [5], clientID: 1, now: TestLibrary.now)
            let changed = try call(service.port, "GET", "/v1/screen/changes?since=\(bare)", token: token)
            #expect(changed.status == 200)
            let json = try changed.json
            #expect(value(json, "changes", "items", "inserted", 0, "id") == .string("client-book-5"))
            let newTag = try #require(json["etag"]?.stringValue)
            #expect(newTag != bare)
            #expect(changed[header: "ETag"] == "\"\(newTag)\"")
            let now = try call(service.port, "GET", "/v1/screen", token: token)
            #expect(now[header: "ETag"] == changed[header: "ETag"])

            let unknown = try call(service.port, "GET", "/v1/screen/changes?since=0123456789abcdef", token: token)
            #expect(unknown.status == 200)
            let whole = try unknown.json
            #expect(whole["changes"] == .null)
            #expect(whole["sections"]?.arrayValue?.count == 3)
            #expect(whole["etag"] == .string(newTag))
            #expect(try call(service.port, "GET", "/v1/screen/changes", token: token).status == 400)
            #expect(try call(service.port, "GET", "/v1/screen/changes?since=x&wait=61", token: token).status == 400)
        }
    }

    @Test("changes?wait holds the request until another connection takes a book, then answers the changes")
    func longPoll() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let etag = try #require(try call(service.port, "GET", "/v1/screen", token: token)[header: "ETag"])
            let bare = String(etag.dropFirst().dropLast())
            let client = try TestClient(port: service.port, timeoutSeconds: 30)
            client.request(
                "GET", "/v1/screen/changes?since=\(bare)&wait=30", headers: [("Authorization", "Bearer \(token)")])
            // The request waits: nothing has changed yet.
            #expect(!client.isReadable(withinMilliseconds: 300))
            try library.store().take(bookIDs: [11], clientID: 1, now: TestLibrary.now)
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(value(try response.json, "changes", "items", "inserted", 0, "id") == .string("client-book-11"))
        }
    }

    @Test("changes?wait answers 304 at the end of the wait when nothing changed")
    func longPollTimesOut() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let etag = try #require(try call(service.port, "GET", "/v1/screen", token: token)[header: "ETag"])
            let bare = String(etag.dropFirst().dropLast())
            let response = try call(service.port, "GET", "/v1/screen/changes?since=\(bare)&wait=1", token: token)
            #expect(response.status == 304)
        }
    }

    @Test(
        "a loan falling due reaches an event stream and a waiting long-poll, with nothing committed: at the second after its due time, not at it"
    )
    func loanFallingDueIsAChange() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.store().take(bookIDs: [5], clientID: 1, now: TestLibrary.now)
        let due = try LibraryRules.dueDate(from: TestLibrary.now)
        let clock = TestClock(TestLibrary.now)
        let service = try library.start(now: clock.now)
        defer { service.stop() }
        let etag = try #require(try call(service.port, "GET", "/v1/screen", token: token)[header: "ETag"])
        let stream = try TestClient(port: service.port, timeoutSeconds: 10)
        stream.request(
            "GET", "/v1/screen/events", headers: [("Authorization", "Bearer \(token)"), ("Last-Event-ID", etag)])
        #expect(try stream.readHead().status == 200)
        let waiting = try TestClient(port: service.port, timeoutSeconds: 10)
        waiting.request(
            "GET", "/v1/screen/changes?since=\(etag.dropFirst().dropLast())&wait=30",
            headers: [("Authorization", "Bearer \(token)")])
        clock.withLock { $0 = due }
        // At its due time the loan is not overdue yet: nothing to send.
        #expect(!waiting.isReadable(withinMilliseconds: 300))
        let overdue = try due.adding(seconds: 1)
        clock.withLock { $0 = overdue }
        let answer = try waiting.readResponse()
        #expect(answer.status == 200)
        let event = try EventReader(stream).next()
        let screen = try call(service.port, "GET", "/v1/screen", token: token)
        #expect(screen.text.contains(#""overdue":1"#))
        #expect(answer[header: "ETag"] == screen[header: "ETag"])
        #expect(event.id.map { "\"\($0)\"" } == screen[header: "ETag"])
        #expect(event.data.contains(#""overdue""#), "\(event.data)")
    }

    @Test(
        "a long-poll reads its screen again when its wait ends: a change the feed was not told of is answered, not 304"
    )
    func longPollReadsAgainAtTheEnd() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let taken = try TestLibrary.now.adding(days: -20)
        try library.store().take(bookIDs: [5], clientID: 1, now: taken)
        let clock = TestClock(TestLibrary.now)
        let service = try library.start(now: clock.now)
        defer { service.stop() }
        let before = try call(service.port, "GET", "/v1/screen", token: token)
        #expect(before.text.contains(#""overdue":1"#))
        let etag = try #require(before[header: "ETag"])
        let waiting = try TestClient(port: service.port, timeoutSeconds: 10)
        waiting.request(
            "GET", "/v1/screen/changes?since=\(etag.dropFirst().dropLast())&wait=1",
            headers: [("Authorization", "Bearer \(token)")])
        #expect(!waiting.isReadable(withinMilliseconds: 300))
        // The clock set back (a correction of the system clock): the loan is no longer overdue. Nothing was
        // committed and no loan fell due, so only the read at the end of the wait sees it.
        clock.withLock { $0 = taken }
        let answer = try waiting.readResponse()
        #expect(answer.status == 200)
        let screen = try call(service.port, "GET", "/v1/screen", token: token)
        #expect(screen.text.contains(#""overdue":0"#))
        #expect(answer[header: "ETag"] == screen[header: "ETag"])
    }

    @Test("stopping the service answers a waiting long-poll 304 and ends open streams")
    func stopWhileWaiting() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let service = try library.start()
        let etag = try #require(try call(service.port, "GET", "/v1/screen", token: token)[header: "ETag"])
        let waiting = try TestClient(port: service.port, timeoutSeconds: 30)
        waiting.request(
            "GET", "/v1/screen/changes?since=\(etag.dropFirst().dropLast())&wait=60",
            headers: [("Authorization", "Bearer \(token)")])
        let stream = try TestClient(port: service.port, timeoutSeconds: 30)
        stream.request("GET", "/v1/screen/events", headers: [("Authorization", "Bearer \(token)")])
        _ = try stream.readHead()
        _ = try EventReader(stream).next()
        #expect(!waiting.isReadable(withinMilliseconds: 100))
        let stopper = Background { service.stop() }
        let answer = try waiting.readResponse()
        #expect(answer.status == 304)
        var ended = false
        for _ in 0..<100 {
            guard try stream.readChunk() != nil else {
                ended = true
                break
            }
        }
        #expect(ended)
        #expect(stopper.join())
    }

    @Test("an event stream starts with the whole screen, then gets a take made by another librarycli process")
    func eventStreamAcrossProcesses() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 2)
        try library.serve { service in
            let client = try TestClient(port: service.port, timeoutSeconds: 30)
            client.request("GET", "/v1/screen/events", headers: [("Authorization", "Bearer \(token)")])
            let head = try client.readHead()
            #expect(head.status == 200)
            #expect(head[header: "Content-Type"]?.hasPrefix("text/event-stream") == true)
            let events = EventReader(client)
            let first = try events.next()
            #expect(first.event == "changes")
            let firstJSON = try JSONParser.parse(first.data)
            #expect(firstJSON["changes"] == .null)
            #expect(firstJSON["etag"]?.stringValue == first.id)

            let take = try Binary.run(["--db", library.path, "--client", "2", "-q", "take", "17"])
            #expect(take.code == 0, "\(take.err)")
            let second = try events.next()
            #expect(second.event == "changes")
            let json = try JSONParser.parse(second.data)
            #expect(value(json, "changes", "items", "inserted", 0, "id") == .string("client-book-17"))
            #expect(json["etag"]?.stringValue == second.id)
            #expect(second.id != first.id)

            // Resuming from the first version gets the changes since, not the whole screen.
            let resumed = try TestClient(port: service.port, timeoutSeconds: 30)
            resumed.request(
                "GET", "/v1/screen/events",
                headers: [("Authorization", "Bearer \(token)"), ("Last-Event-ID", first.id ?? "")])
            #expect(try resumed.readHead().status == 200)
            let caughtUp = try EventReader(resumed).next()
            #expect(caughtUp.id == second.id)
            let caughtUpJSON = try JSONParser.parse(caughtUp.data)
            #expect(value(caughtUpJSON, "changes", "items", "inserted", 0, "id") == .string("client-book-17"))
        }
    }

    @Test(
        "tokens revoke in another process ends that token's event stream and answers its waiting long-poll 401; another token's stream goes on"
    )
    func revokedTokenEndsItsStreams() throws {
        let library = try TestLibrary()
        let issued = try library.store().createToken(for: .client(1), now: TestLibrary.now)
        let other = try library.token(client: 2)
        try library.serve { service in
            let etag = try #require(try call(service.port, "GET", "/v1/screen", token: issued.token)[header: "ETag"])
            let waiting = try TestClient(port: service.port, timeoutSeconds: 20)
            waiting.request(
                "GET", "/v1/screen/changes?since=\(etag.dropFirst().dropLast())&wait=60",
                headers: [("Authorization", "Bearer \(issued.token)")])
            let revokedStream = try TestClient(port: service.port, timeoutSeconds: 20)
            revokedStream.request("GET", "/v1/screen/events", headers: [("Authorization", "Bearer \(issued.token)")])
            #expect(try revokedStream.readHead().status == 200)
            _ = try EventReader(revokedStream).next()
            let otherStream = try TestClient(port: service.port, timeoutSeconds: 20)
            otherStream.request("GET", "/v1/screen/events", headers: [("Authorization", "Bearer \(other)")])
            #expect(try otherStream.readHead().status == 200)
            let otherEvents = EventReader(otherStream)
            _ = try otherEvents.next()
            #expect(!waiting.isReadable(withinMilliseconds: 100))

            let revoke = try Binary.run(["--db", library.path, "-q", "tokens", "revoke", "\(issued.id)"])
            #expect(revoke.code == 0, "\(revoke.err)")
            // Nothing else changed: the revocation alone ends them (before the clients' 20 s read timeout).
            let answer = try waiting.readResponse()
            #expect(answer.status == 401)
            #expect(answer.code == "unknown-token")
            #expect(answer[header: "WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            var ended = false
            for _ in 0..<100 {
                guard try revokedStream.readChunk() != nil else {
                    ended = true
                    break
                }
            }
            #expect(ended)
            #expect(try call(service.port, "GET", "/v1/screen/events", token: issued.token).status == 401)

            // The other client's stream is still open and still gets its changes.
            let take = try call(service.port, "POST", "/v1/loans", token: other, json: #"{"bookIds": [21]}"#)
            #expect(take.status == 201)
            let next = try otherEvents.next()
            let json = try JSONParser.parse(next.data)
            #expect(value(json, "changes", "items", "inserted", 0, "id") == .string("client-book-21"))
        }
    }

    @Test("another client's change that does not alter this screen sends nothing; one that does is sent")
    func onlyRealChangesAreSent() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let client = try TestClient(port: service.port, timeoutSeconds: 30)
            client.request("GET", "/v1/screen/events?perPage=5", headers: [("Authorization", "Bearer \(token)")])
            _ = try client.readHead()
            let events = EventReader(client)
            let first = try events.next()
            // Book 40 is not on this screen's first page of 5: the screen does not change.
            try library.store().take(bookIDs: [40], clientID: 3, now: TestLibrary.now)
            // Book 2 is: its badge changes to on loan.
            try library.store().take(bookIDs: [2], clientID: 3, now: TestLibrary.now)
            let next = try events.next()
            let json = try JSONParser.parse(next.data)
            #expect(next.id != first.id)
            #expect(value(json, "changes", "items", "updated", 0, "id") == .string("book-2"))
        }
    }
}

@Suite("serve: the real binary")
struct ServeProcessTests {
    @Test("serve --port 0 prints one Listening line, answers, and on SIGTERM with a stream open ends it and exits 0")
    func sigterm() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let serve = try ServeProcess(["--db", library.path, "serve", "--port", "0"])
        defer { serve.stop() }
        #expect(serve.firstLine.hasPrefix("Listening on http://127.0.0.1:"))
        let port = serve.port
        #expect(try call(port, "GET", "/healthz").status == 200)
        let screen = try call(port, "GET", "/v1/screen", token: token)
        #expect(screen.status == 200)
        let etag = try #require(screen[header: "ETag"])

        let stream = try TestClient(port: port, timeoutSeconds: 30)
        stream.request("GET", "/v1/screen/events", headers: [("Authorization", "Bearer \(token)")])
        _ = try stream.readHead()
        _ = try EventReader(stream).next()
        // A request in flight: a long-poll waiting for a change.
        let waiting = try TestClient(port: port, timeoutSeconds: 30)
        waiting.request(
            "GET", "/v1/screen/changes?since=\(etag.dropFirst().dropLast())&wait=60",
            headers: [("Authorization", "Bearer \(token)")])
        #expect(!waiting.isReadable(withinMilliseconds: 200))

        kill(serve.process.processIdentifier, SIGTERM)
        // The waiting request is answered (nothing changed: 304) and the stream ends cleanly: the last chunk arrives.
        #expect(try waiting.readResponse().status == 304)
        var ended = false
        for _ in 0..<100 {
            guard let chunk = try stream.readChunk() else {
                ended = true
                break
            }
            _ = chunk
        }
        #expect(ended)
        serve.process.waitUntilExit()
        #expect(serve.process.terminationReason == .exit)
        #expect(serve.process.terminationStatus == 0)
        let all = serve.firstLine + "\n" + serve.rest()
        #expect(all.components(separatedBy: "Listening on").count == 2)
        #expect(all.contains("GET /v1/screen 200"))
        #expect(all.contains("GET /v1/screen/changes?since=\(etag.dropFirst().dropLast())&wait=60 304"))
        #expect(!all.contains(token))
    }

    @Test("serve -q writes no access log: the Listening line alone, whatever it answers; it still exits 0 on SIGINT")
    func quietServe() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let serve = try ServeProcess(["--db", library.path, "-q", "serve", "--port", "0"])
        defer { serve.stop() }
        #expect(try call(serve.port, "GET", "/healthz").status == 200)
        #expect(try call(serve.port, "GET", "/v1/screen?token=secret", token: token).status == 200)
        #expect(try call(serve.port, "GET", "/v1/nothing", token: token).status == 404)
        kill(serve.process.processIdentifier, SIGINT)
        serve.process.waitUntilExit()
        #expect(serve.process.terminationStatus == 0)
        #expect(serve.firstLine == "Listening on http://127.0.0.1:\(serve.port)")
        #expect(serve.rest() == "")
    }

    @Test("serve refuses a bad LIBRARY_NOW (64), a bad host (64) and a port in use (69), before listening")
    func badStarts() throws {
        let library = try TestLibrary()
        let badClock = try Binary.run(
            ["--db", library.path, "serve", "--port", "0"], environment: ["LIBRARY_NOW": "nope"])
        #expect(badClock.code == 64)
        #expect(badClock.err.contains("LIBRARY_NOW"))
        #expect(!badClock.err.contains("Listening"))
        let badHost = try Binary.run(["--db", library.path, "serve", "--host", "example.org", "--port", "0"])
        #expect(badHost.code == 64)
        #expect(badHost.err.contains("example.org"))
        let badPort = try Binary.run(["--db", library.path, "serve", "--port", "70000"])
        #expect(badPort.code == 64)
        try library.serve { service in
            let taken = try Binary.run(["--db", library.path, "serve", "--port", String(service.port)])
            #expect(taken.code == 69)
            #expect(taken.err == "Error: cannot listen on 127.0.0.1:\(service.port): Address already in use.\n")
        }
    }
}

extension ServeProcessTests {
    @Test(
        "serve --host [::1] and --host ::1 listen on IPv6 loopback and print http://[::1]:PORT",
        arguments: ["[::1]", "::1"])
    func ipv6Host(host: String) throws {
        let library = try TestLibrary()
        let serve = try ServeProcess(["--db", library.path, "serve", "--host", host, "--port", "0"])
        defer { serve.stop() }
        #expect(serve.firstLine == "Listening on http://[::1]:\(serve.port)")
        kill(serve.process.processIdentifier, SIGTERM)
        serve.process.waitUntilExit()
        #expect(serve.process.terminationStatus == 0)
    }
}

/// `librarycli serve` as a process: started, its first line of standard error read (the Listening line).
final class ServeProcess {
    let process = Process()
    let firstLine: String
    let port: Int
    private let reader: FileHandle
    private let buffered: String

    init(_ arguments: [String]) throws {
        process.executableURL = Binary.url
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LIBRARY_NOW": "2026-11-29T14:40:00Z"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        reader = err.fileHandleForReading
        var buffer = ""
        for _ in 0..<200 where !buffer.contains("\n") {
            let data = reader.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
        }
        firstLine = String(buffer.prefix { $0 != "\n" })
        buffered = String(buffer.dropFirst(firstLine.count + 1))
        guard let port = Int(firstLine.split(separator: ":").last ?? "") else {
            process.terminate()
            throw TestFailure("serve did not start: \(buffer)")
        }
        self.port = port
    }

    /// What it wrote on standard error after the first line, to its end (call after it exited).
    func rest() -> String {
        buffered + String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }
}
