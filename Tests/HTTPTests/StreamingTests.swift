import Glibc
import HTTP
import HTTPTestSupport
import Testing

/// Event streams, deferred responses and graceful stop, on the real server.
@Suite(.serialized) struct StreamingTests {
    /// Streams the handler opened, for the test to write into.
    final class Hub: Sendable {
        let streams = Collected<EventStream>()
        let reasons = Collected<EventStream.CloseReason>()
        let deferreds = Collected<DeferredResponse>()
    }

    static func router(_ hub: Hub) -> Router {
        var router = Router()
        router.get("/events") { _ in
            let stream = EventStream()
            stream.onClose { hub.reasons.append($0) }
            stream.send(data: "hello", event: "welcome")
            hub.streams.append(stream)
            return .eventStream(stream)
        }
        router.get("/wait") { request in
            let timeout = Int(request.query["ms"] ?? "") ?? 10_000
            let deferred = DeferredResponse(
                timeout: .milliseconds(timeout), timeoutResponse: .json(["changed": false]))
            hub.deferreds.append(deferred)
            return .deferred(deferred, headers: ["ETag": "\"v1\""])
        }
        router.get("/plain") { _ in .text("plain") }
        return router
    }

    /// Reads chunks until `count` SSE frames (ending in a blank line) have arrived.
    func frames(_ client: TestClient, count: Int) throws -> [String] {
        var text = ""
        for _ in 0..<1000 {
            if text.frames.count >= count { break }
            guard let chunk = try client.readChunk() else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text.frames
    }

    @Test func eventsArriveInOrderAndTheStreamEndsOnStop() throws {
        let hub = Hub()
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.eventStreamKeepAlive = nil
        let server = try Server.start(router: Self.router(hub), configuration: configuration)
        let client = try TestClient(port: server.port)
        client.request("GET", "/events")
        let head = try client.readHead()
        #expect(head.status == 200)
        #expect(head[header: "Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(head[header: "X-Request-Id"] != nil)
        let stream = try #require(hub.streams.wait { !$0.isEmpty }.first)
        for index in 1...20 { stream.send(data: "{\"n\":\(index)}", event: "changes", id: "v\(index)") }
        // Each line of the data on its own field (CRLF, CR and LF each one break); no break in a name or id.
        stream.send(data: "a\r\nb\rc\nd\n\ré", event: "two\nlines", id: "x\r\ny")
        // The same text as UTF-8 bytes: the same frame.
        stream.send(data: Array("a\r\nb\rc\nd\n\ré".utf8), event: "two\nlines", id: "x\r\ny")
        stream.send(data: Array(#"{"n":21}"#.utf8), event: "changes", id: "v21")
        let received = try frames(client, count: 24)
        #expect(received.first == "event: welcome\ndata: hello")
        #expect(
            received.dropFirst().prefix(20)
                == ArraySlice((1...20).map { "event: changes\nid: v\($0)\ndata: {\"n\":\($0)}" }))
        let broken = "event: two lines\nid: x y\ndata: a\ndata: b\ndata: c\ndata: d\ndata: \ndata: é"
        #expect(Array(received.suffix(3)) == [broken, broken, "event: changes\nid: v21\ndata: {\"n\":21}"])

        let stopped = Background { server.stop() }
        #expect(try client.readChunk() == nil)  // the stream ended cleanly: the last chunk
        #expect(stopped.join())
        #expect(hub.reasons.all == [.serverStopping])
        #expect(!stream.send(data: "late"))
    }

    @Test func streamsHoldNoThreadAndEndWhenTheApplicationCloses() throws {
        let hub = Hub()
        try withServer(Self.router(hub), configuration: testConfiguration { $0.threads = 2 }) { server in
            // More open streams than worker threads, and plain requests still answered.
            let clients = try (0..<20).map { _ in try TestClient(port: server.port) }
            for client in clients { client.request("GET", "/events") }
            for client in clients { #expect(try client.readHead().status == 200) }
            let streams = hub.streams.wait { $0.count == 20 }
            #expect(streams.count == 20)
            let plain = try TestClient(port: server.port)
            plain.request("GET", "/plain")
            #expect(try plain.readResponse().text == "plain")

            for (index, stream) in streams.enumerated() { stream.send(data: "\(index)") }
            for stream in streams { stream.close() }
            for client in clients {
                let text = try frames(client, count: 2).joined(separator: "|")
                #expect(text.hasPrefix("event: welcome\ndata: hello|data: "))
                #expect(try client.readChunk() == nil)
            }
            #expect(hub.reasons.wait { $0.count == 20 }.allSatisfy { $0 == .closedByApplication })
            // The connection is still usable after the stream ended.
            clients[0].request("GET", "/plain")
            #expect(try clients[0].readResponse().text == "plain")
        }
    }

    @Test func aThousandOpenStreamsOnTwoThreads() throws {
        let hub = Hub()
        let configuration = testConfiguration {
            $0.threads = 2
            $0.maxConnections = 2000
            $0.maxConnectionsPerAddress = 0
            $0.eventStreamKeepAlive = nil
        }
        // Both ends of every connection live in this process: raise the soft descriptor limit if it is low.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 2500 && limit.rlim_max >= 2500 {
            limit.rlim_cur = 2500
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        try #require(limit.rlim_cur >= 2500, "this test needs 2,500 file descriptors")
        try withServer(Self.router(hub), configuration: configuration) { server in
            let clients = try (0..<1000).map { _ in try TestClient(port: server.port) }
            for client in clients { client.request("GET", "/events") }
            for client in clients { #expect(try client.readHead().status == 200) }
            let streams = hub.streams.wait { $0.count == 1000 }
            #expect(streams.count == 1000)
            for stream in streams { stream.send(data: "x") }
            for client in clients { #expect(try frames(client, count: 2).last == "data: x") }
            for stream in streams { stream.close() }
            #expect(hub.reasons.wait { $0.count == 1000 }.count == 1000)
        }
    }

    @Test func headOnAStreamSendsTheHeadAndEndsIt() throws {
        let hub = Hub()
        try withServer(Self.router(hub)) { server in
            let client = try TestClient(port: server.port)
            client.request("HEAD", "/events")
            #expect(try client.readResponse(head: true).status == 200)
            #expect(hub.reasons.wait { !$0.isEmpty }.count == 1)
            client.request("GET", "/plain")
            #expect(try client.readResponse().text == "plain")
        }
    }

    @Test func clientGoingAwayClosesTheStream() throws {
        let hub = Hub()
        try withServer(Self.router(hub)) { server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/events")
            #expect(try client.readHead().status == 200)
            let stream = try #require(hub.streams.wait { !$0.isEmpty }.first)
            client.close()
            // The server notices on a write.
            #expect(eventually { stream.comment("ping") == false })
            #expect(hub.reasons.wait { !$0.isEmpty } == [.clientDisconnected])
        }
    }

    @Test func clientHangingUpEndsItsIdleStreamWithoutAWrite() throws {
        let hub = Hub()
        let configuration = testConfiguration {
            $0.eventStreamKeepAlive = nil
            $0.eventStreamHangUpCheck = .milliseconds(50)
        }
        try withServer(Self.router(hub), configuration: configuration) { server in
            let staying = try TestClient(port: server.port)
            staying.request("GET", "/events")
            #expect(try staying.readHead().status == 200)
            let leaving = try TestClient(port: server.port)
            leaving.request("GET", "/events")
            #expect(try leaving.readHead().status == 200)
            let streams = hub.streams.wait { $0.count == 2 }
            #expect(streams.count == 2)
            leaving.close()
            // Nothing is written: the hang-up check alone finds the closed socket, and only that one.
            #expect(hub.reasons.wait { !$0.isEmpty } == [.clientDisconnected])
            usleep(300_000)
            #expect(hub.reasons.all == [.clientDisconnected])
            #expect(streams.filter(\.isOpen).count == 1)
            let stillOpen = streams.first { $0.isOpen }
            let open = try #require(stillOpen)
            #expect(open.send(data: "still here"))
            #expect(try frames(staying, count: 2).last == "data: still here")
        }
    }

    @Test func withoutTheHangUpCheckAnIdleStreamWaitsForAWrite() throws {
        let hub = Hub()
        let configuration = testConfiguration {
            $0.eventStreamKeepAlive = nil
            $0.eventStreamHangUpCheck = nil
        }
        try withServer(Self.router(hub), configuration: configuration) { server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/events")
            #expect(try client.readHead().status == 200)
            let stream = try #require(hub.streams.wait { !$0.isEmpty }.first)
            client.close()
            usleep(300_000)
            #expect(hub.reasons.all.isEmpty)
            #expect(eventually { stream.comment("ping") == false })
            #expect(hub.reasons.wait { !$0.isEmpty } == [.clientDisconnected])
        }
    }

    @Test func clientHangingUpEndsItsWaitingRequest() throws {
        let hub = Hub()
        let configuration = testConfiguration { $0.eventStreamHangUpCheck = .milliseconds(50) }
        try withServer(Self.router(hub), configuration: configuration) { server in
            let staying = try TestClient(port: server.port)
            staying.request("GET", "/wait?ms=10000")
            let leaving = try TestClient(port: server.port)
            leaving.request("GET", "/wait?ms=10000")
            let deferreds = hub.deferreds.wait { $0.count == 2 }
            #expect(deferreds.count == 2)
            leaving.close()
            // Long before its 10 s timeout, the waiting request of the client that left is given up; the other waits.
            #expect(eventually(seconds: 3) { deferreds.filter(\.isResolved).count == 1 })
            usleep(300_000)
            #expect(deferreds.filter(\.isResolved).count == 1)
            let waiting = deferreds.first { !$0.isResolved }
            #expect(try #require(waiting).resolve(.text("here")))
            #expect(try staying.readResponse().text == "here")
        }
    }

    @Test func deferredResponseResolvedFromAnotherThread() throws {
        let hub = Hub()
        try withServer(Self.router(hub)) { server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/wait")
            let deferred = try #require(hub.deferreds.wait { !$0.isEmpty }.first)
            let resolver = Background { deferred.resolve(.json(["changed": true], status: .ok)) }
            #expect(resolver.join())
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == #"{"changed":true}"#)
            #expect(response[header: "ETag"] == "\"v1\"")
            #expect(response[header: "X-Request-Id"] != nil)
            // Keep-alive survives the suspension.
            client.request("GET", "/plain")
            #expect(try client.readResponse().text == "plain")
        }
    }

    @Test func deferredResponseTimesOut() throws {
        let hub = Hub()
        try withServer(Self.router(hub)) { server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/wait?ms=50")
            let response = try client.readResponse()
            #expect(response.text == #"{"changed":false}"#)
            let deferred = try #require(hub.deferreds.all.first)
            #expect(!deferred.resolve(.text("late")))
        }
    }

    @Test func waitingLongerThanTheConnectionTimeoutStillAnswers() throws {
        let hub = Hub()
        try withServer(Self.router(hub), configuration: testConfiguration { $0.connectionTimeoutSeconds = 1 }) {
            server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/wait?ms=2500")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == #"{"changed":false}"#)
        }
    }

    @Test func openStreamsGetKeepAliveComments() throws {
        let hub = Hub()
        try withServer(
            Self.router(hub), configuration: testConfiguration { $0.eventStreamKeepAlive = .milliseconds(20) }
        ) {
            server in
            let client = try TestClient(port: server.port)
            client.request("GET", "/events")
            #expect(try client.readHead().status == 200)
            let received = try frames(client, count: 2)
            #expect(received.count == 2)
            #expect(received.last == ": keep-alive")
        }
    }

    @Test func manyWaitingRequestsNeedNoThreads() throws {
        let hub = Hub()
        try withServer(Self.router(hub), configuration: testConfiguration { $0.threads = 1 }) { server in
            let clients = try (0..<30).map { _ in try TestClient(port: server.port) }
            for client in clients { client.request("GET", "/wait") }
            let deferreds = hub.deferreds.wait { $0.count == 30 }
            #expect(deferreds.count == 30)
            for (index, deferred) in deferreds.enumerated() { deferred.resolve(.text("\(index)")) }
            let bodies = try clients.map { try $0.readResponse().text }
            #expect(Set(bodies) == Set((0..<30).map { "\($0)" }))
        }
    }

    @Test func stopAnswersWaitingDeferredResponses() throws {
        let hub = Hub()
        let server = try Server.start(router: Self.router(hub), configuration: ServerConfiguration(port: 0))
        let client = try TestClient(port: server.port)
        client.request("GET", "/wait")
        _ = hub.deferreds.wait { !$0.isEmpty }
        let stopped = Background { server.stop() }
        let response = try client.readResponse()
        #expect(response.text == #"{"changed":false}"#)
        #expect(response[header: "Connection"]?.lowercased() == "close")
        #expect(stopped.join())
    }

    @Test func gracefulStopFinishesASlowRequest() throws {
        let entered = Gate()
        let release = Gate()
        var router = Router()
        router.get("/slow") { _ in
            entered.open()
            release.wait()
            return .text("finished")
        }
        router.get("/fast") { _ in .text("done") }
        let server = try Server.start(router: router, configuration: ServerConfiguration(port: 0, threads: 2))
        let port = server.port
        let client = try TestClient(port: port)
        client.request("GET", "/slow")
        #expect(entered.wait())
        let stopped = Background { server.stop() }
        // Once stopping, a new request is told to come back (503 server-stopping, Retry-After, the connection
        // closed) while the slow request is still running.
        var refused: TestClient.Response?
        #expect(
            eventually {
                guard let other = try? TestClient(port: port) else { return false }
                _ = other.request("GET", "/fast")
                guard let response = try? other.readResponse(), response.status == 503 else { return false }
                refused = response
                return true
            })
        #expect(refused?.text.contains("\"code\":\"server-stopping\"") == true, "\(refused?.text ?? "")")
        #expect(refused?[header: "Retry-After"] == "1" && refused?[header: "Connection"] == "close")
        // The refused request is done once libmicrohttpd has sent it: the slow one is left.
        #expect(eventually { server.requestsInFlight == 1 })
        release.open()
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "finished")
        #expect(stopped.join())
        #expect(server.requestsInFlight == 0)
    }
}
