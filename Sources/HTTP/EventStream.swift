/// A response body the application writes over time: Server-Sent Events frames (or any bytes), sent to the client
/// as they come. Writes are safe from any thread and never block; while nothing is pending the connection is
/// suspended, so an open stream holds no worker thread.
///
/// A stream ends when the application calls ``close()`` (what was written is sent first), when the client goes
/// away (noticed within the server's hang-up check interval, a second by default, or on the next write), when more than
/// `bufferLimit` bytes wait for a client that does not read, or when the server stops (it closes every stream
/// cleanly). ``onClose(_:)`` tells the application which, once. Use a stream for one response only.
///
///     router.get("/events") { request in
///         let stream = EventStream()
///         let token = hub.subscribe { change in stream.send(data: change.json, event: "changes", id: change.etag) }
///         stream.onClose { _ in hub.unsubscribe(token) }
///         return .eventStream(stream)
///     }
public final class EventStream: Sendable {
    /// Why a stream ended.
    public enum CloseReason: Sendable, Hashable {
        /// The application called ``EventStream/close()``.
        case closedByApplication
        /// The client closed the connection, or it failed or timed out (or the request was `HEAD`, which gets the
        /// head alone).
        case clientDisconnected
        /// The server is stopping.
        case serverStopping
        /// More than the buffer limit waited for a client that does not read; the connection was cut.
        case bufferOverflow
    }

    private struct State {
        var pending: [UInt8] = []
        var offset = 0
        var reason: CloseReason?
        var connection: ConnectionHandle?
        var attached = false
        var suspended = false
        var handlers: [@Sendable (CloseReason) -> Void] = []
    }

    private let state = Locked(State())
    private let bufferLimit: Int

    /// Creates an open stream; at most `bufferLimit` unsent bytes may wait before the stream is cut.
    ///
    ///     let stream = EventStream(bufferLimit: 256 * 1024)
    public init(bufferLimit: Int = 1 << 20) {
        self.bufferLimit = bufferLimit
    }

    /// Whether the stream still accepts writes.
    ///
    ///     if stream.isOpen { stream.send(data: "tick") }
    public var isOpen: Bool {
        state.withLock { $0.reason == nil }
    }

    /// Why the stream ended, or nil while it is open.
    ///
    ///     stream.closeReason  // .clientDisconnected
    public var closeReason: CloseReason? {
        state.withLock { $0.reason }
    }

    /// Sends one event: `event:` and `id:` lines when given, then one `data:` line per line of `data`. CR and LF in
    /// `event` and `id` (which cannot hold them) are replaced by spaces. Returns false when the stream is closed.
    ///
    ///     stream.send(data: #"{"changes":[]}"#, event: "changes", id: "v42")
    ///     // event: changes\nid: v42\ndata: {"changes":[]}\n\n
    @discardableResult
    public func send(data: String, event: String? = nil, id: String? = nil) -> Bool {
        var data = data
        return data.withUTF8 { send(utf8: $0, event: event, id: id) }
    }

    /// Sends one event whose data is UTF-8 text already encoded (as JSON renderers write it), the same frame as
    /// ``send(data:event:id:)`` writes for that text. Returns false when the stream is closed.
    ///
    ///     stream.send(data: Array(#"{"changes":[]}"#.utf8), event: "changes", id: "v42")
    @discardableResult
    public func send(data: [UInt8], event: String? = nil, id: String? = nil) -> Bool {
        data.withUnsafeBufferPointer { send(utf8: $0, event: event, id: id) }
    }

    private func send(utf8 data: UnsafeBufferPointer<UInt8>, event: String?, id: String?) -> Bool {
        var frame: [UInt8] = []
        frame.reserveCapacity(data.count + 64)
        if let event {
            frame += "event: ".utf8
            Self.append(Array(event.utf8)[...], to: &frame, lineBreak: Array(" ".utf8))
            frame.append(0x0A)
        }
        if let id {
            frame += "id: ".utf8
            Self.append(Array(id.utf8)[...], to: &frame, lineBreak: Array(" ".utf8))
            frame.append(0x0A)
        }
        frame += "data: ".utf8
        Self.append(data, to: &frame, lineBreak: Array("\ndata: ".utf8))
        frame += "\n\n".utf8
        return write(frame)
    }

    /// Sends a comment (lines starting with `:`), which clients ignore: a keep-alive. Returns false when closed.
    ///
    ///     stream.comment("keep-alive")  // ": keep-alive\n\n"
    @discardableResult
    public func comment(_ text: String = "") -> Bool {
        var frame = ""
        for line in Self.lines(of: text) { frame += line.isEmpty ? ":\n" : ": \(line)\n" }
        frame += "\n"
        return write(Array(frame.utf8))
    }

    /// Sends the `retry:` field, the client's reconnection delay. Returns false when closed.
    ///
    ///     stream.retry(milliseconds: 2000)
    @discardableResult
    public func retry(milliseconds: Int) -> Bool {
        write(Array("retry: \(max(0, milliseconds))\n\n".utf8))
    }

    /// Sends raw bytes as they are (for a non-SSE stream). Returns false when the stream is closed.
    ///
    ///     stream.write(Array("partial line".utf8))
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let (accepted, wake, fired) = state.withLock { state -> (Bool, ConnectionHandle?, Fired?) in
            guard state.reason == nil else { return (false, nil, nil) }
            if state.pending.count - state.offset + bytes.count > bufferLimit {
                state.pending = []
                state.offset = 0
                return (false, nil, Self.close(&state, .bufferOverflow))
            }
            state.pending.append(contentsOf: bytes)
            return (true, Self.takeWake(&state), nil)
        }
        wake?.resume()
        fired?.run()
        return accepted
    }

    /// Ends the stream once what was written has been sent. Closing again does nothing.
    ///
    ///     stream.close()
    public func close() {
        finish(.closedByApplication)
    }

    /// Calls `handler` once when the stream ends (at once when it has already ended), on whichever thread ends it.
    ///
    ///     stream.onClose { reason in hub.unsubscribe(id) }
    public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
        let reason = state.withLock { state -> CloseReason? in
            if state.reason == nil { state.handlers.append(handler) }
            return state.reason
        }
        if let reason { handler(reason) }
    }

    // MARK: - Server side

    /// Ends the stream for `reason` unless it has ended already.
    func finish(_ reason: CloseReason) {
        let (wake, fired) = state.withLock { state -> (ConnectionHandle?, Fired?) in
            guard state.reason == nil else { return (nil, nil) }
            return (Self.takeWake(&state), Self.close(&state, reason))
        }
        wake?.resume()
        fired?.run()
    }

    /// Binds the stream to its connection; false when it was already bound to one (a stream serves one response).
    func attach(_ connection: ConnectionHandle) -> Bool {
        state.withLock { state in
            guard !state.attached else { return false }
            state.attached = true
            state.connection = connection
            return true
        }
    }

    /// Ends the stream when its connection is suspended (nothing to send) and the client has closed its end, so a
    /// front that went away frees its connection and its subscription at once instead of at the next event or
    /// keep-alive. The look at the socket is made under the stream's lock: while the connection is suspended,
    /// libmicrohttpd cannot close it (it is closed only after ``detach(_:)``, which takes the lock).
    func endIfClientHungUp() {
        let hungUp = state.withLock { state -> Bool in
            guard state.reason == nil, state.suspended, let connection = state.connection else { return false }
            return connection.clientHungUp()
        }
        if hungUp { finish(.clientDisconnected) }
    }

    /// The connection is gone: no more resumes; the stream ends for `reason` if it was still open.
    func detach(_ reason: CloseReason) {
        state.withLock { state in
            state.connection = nil
            state.suspended = false
        }
        finish(reason)
    }

    /// What MHD's content reader returns: bytes copied, 0 after suspending the connection while nothing is pending
    /// (a write resumes it), -1 at the end, -2 to cut the connection.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        state.withLock { state in
            let available = state.pending.count - state.offset
            if available > 0 {
                let count = min(available, capacity)
                state.pending.withUnsafeBytes { bytes in
                    buffer.copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                state.offset += count
                if state.offset == state.pending.count {
                    // Small buffers are kept for the next events; a large one (the first, whole screen) is let go,
                    // since a thousand idle streams would each hold one.
                    state.pending.removeAll(keepingCapacity: state.pending.count <= 4 * 1024)
                    state.offset = 0
                } else if state.offset > 64 * 1024 {
                    state.pending.removeFirst(state.offset)
                    state.offset = 0
                }
                return count
            }
            switch state.reason {
            case .bufferOverflow: return -2
            case .some: return -1
            case nil:
                guard let connection = state.connection else { return -1 }
                state.suspended = true
                connection.suspend()
                return 0
            }
        }
    }

    // MARK: - Private

    private struct Fired {
        var reason: CloseReason
        var handlers: [@Sendable (CloseReason) -> Void]

        func run() {
            for handler in handlers { handler(reason) }
        }
    }

    private static func close(_ state: inout State, _ reason: CloseReason) -> Fired {
        state.reason = reason
        let handlers = state.handlers
        state.handlers = []
        return Fired(reason: reason, handlers: handlers)
    }

    private static func takeWake(_ state: inout State) -> ConnectionHandle? {
        guard state.suspended, let connection = state.connection else { return nil }
        state.suspended = false
        return connection
    }

    /// Appends `text`'s bytes with each line break (CRLF, CR or LF: one break each) replaced by `lineBreak`. A
    /// line break is one of those bytes in UTF-8 whatever surrounds it, so the work is done on bytes; text without
    /// one (compact JSON, as every event's data) is copied whole.
    /// Appends `text`, each line break in it (CR LF, CR or LF) written as `lineBreak`.
    private static func append<Text: Collection<UInt8>>(_ text: Text, to frame: inout [UInt8], lineBreak: [UInt8]) {
        // Most data has no line break (compact JSON): one scan of the bytes, then one copy.
        let hasBreak =
            text.withContiguousStorageIfAvailable { bytes in
                var found = false
                for byte in bytes where byte == 0x0A || byte == 0x0D {
                    found = true
                    break
                }
                return found
            } ?? text.contains { $0 == 0x0A || $0 == 0x0D }
        guard hasBreak else {
            frame.append(contentsOf: text)
            return
        }
        var afterCR = false
        for byte in text {
            if byte == 0x0A && afterCR {
                afterCR = false
                continue
            }
            afterCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                frame += lineBreak
            } else {
                frame.append(byte)
            }
        }
    }

    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    }
}
