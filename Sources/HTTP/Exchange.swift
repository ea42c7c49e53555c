/// One request's state across libmicrohttpd's calls for it; touched only on its connection's worker thread.
final class Exchange: @unchecked Sendable {
    let target: String
    let requestID: String
    let start: ContinuousClock.Instant
    let remoteAddress: String

    var started = false
    /// Whether the request began after the server started to stop (it is answered 503 `server-stopping`).
    var beganWhileStopping = false
    var method = ""
    var request: Request?
    var body: [UInt8] = []
    var discarded = 0
    var queued = false
    var status: Int?
    var stream: EventStream?
    var deferred: DeferredResponse?
    var deferredHeaders = HTTPHeaders()

    init(target: String, requestID: String, start: ContinuousClock.Instant, remoteAddress: String) {
        self.target = target
        self.requestID = requestID
        self.start = start
        self.remoteAddress = remoteAddress
    }
}
