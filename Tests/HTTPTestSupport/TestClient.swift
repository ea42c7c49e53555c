import Glibc

/// A small blocking HTTP/1.1 client over one loopback TCP connection, for the tests of HTTP and LibraryServer. Every read is bounded by a
/// receive timeout, so a server that never answers fails the test instead of hanging it.
public final class TestClient {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public struct Response {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public subscript(header name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; reads give up after `timeoutSeconds`.
    public init(port: Int, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            // Not closed here: a class whose initializer throws once every property is set is deinitialized,
            // and deinit closes it. Closing twice could close a descriptor the server in this process had been
            // given meanwhile (libmicrohttpd then aborts: "Failed to remove FD from epoll set").
            throw Failure(description: "connect failed: errno \(errno)")
        }
    }

    deinit {
        Glibc.close(fd)
    }

    public func close() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Writes all of `bytes`; false when the server closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Sends a request with `Host` and, for a body, `Content-Length`.
    @discardableResult
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) -> Bool {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        return send(Array(text.utf8) + body)
    }

    /// Reads more bytes into the buffer; false at end of stream, error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    private func readLine() throws -> String {
        for _ in 0..<10_000 {
            if let end = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard fill() else { throw Failure(description: "connection ended before a line") }
        }
        throw Failure(description: "no line")
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        for _ in 0..<100_000 {
            if buffer.count >= count { break }
            guard fill() else { throw Failure(description: "connection ended inside a body") }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads a status line and header fields.
    public func readHead() throws -> Response {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure(description: "bad status line: \(statusLine)")
        }
        var headers: [(String, String)] = []
        for _ in 0..<1000 {
            let line = try readLine()
            if line.isEmpty { break }
            let pieces = line.split(separator: ":", maxSplits: 1)
            headers.append((String(pieces[0]), pieces.count > 1 ? String(pieces[1]).trimmed : ""))
        }
        return Response(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: [])
    }

    /// Reads one chunk of a chunked body; nil for the last (empty) chunk.
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw Failure(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            for _ in 0..<100 {
                if try readLine().isEmpty { break }
            }
            return nil
        }
        let bytes = try readBytes(size)
        _ = try readLine()
        return bytes
    }

    /// Reads a whole response; `head` for the answer to a HEAD request (no body whatever its length says).
    public func readResponse(head: Bool = false) throws -> Response {
        var response = try readHead()
        if head || response.status == 204 || response.status == 304 { return response }
        if response[header: "Transfer-Encoding"]?.lowercased() == "chunked" {
            for _ in 0..<100_000 {
                guard let chunk = try readChunk() else { return response }
                response.body += chunk
            }
            throw Failure(description: "too many chunks")
        }
        if let length = response[header: "Content-Length"].flatMap({ Int($0) }) {
            response.body = try readBytes(length)
            return response
        }
        for _ in 0..<100_000 {
            if !fill() { break }
        }
        response.body = buffer
        buffer = []
        return response
    }

    /// Reads until the server closes the connection (or the timeout); true when it did close.
    public func waitForClose() -> Bool {
        for _ in 0..<100_000 {
            var byte: UInt8 = 0
            let count = recv(fd, &byte, 1, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
            buffer.append(byte)
        }
        return false
    }

    /// Whether anything (data or the end) arrives within `milliseconds`.
    public func isReadable(withinMilliseconds milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Bytes received and not yet consumed.
    public var pending: [UInt8] { buffer }
}

extension String {
    public var trimmed: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

extension String {
    /// The Server-Sent Events frames in the text: the pieces ended by a blank line.
    public var frames: [String] {
        var frames: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: "\n\n") {
            frames.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        return frames
    }
}
