import Glibc

/// Holds many event streams open on `librarycli serve`, and says what they cost the server and how fast a change
/// reaches all of them.
///
/// Stream i signs in with token i mod the tokens given (one client each, when there are as many tokens as streams)
/// and connects from 127.0.0.(2 + i / 200), so that no source address passes the server's 256 connections per
/// address. Each stream must answer 200 and bring its first event (the whole screen); then the server's resident
/// memory is read again, `--trigger` runs (a command that changes every screen, such as `librarycli books add`),
/// and each stream must bring a second event. The figures go to standard output, `RESULT streams ...` last.
enum StreamHolder {
    private struct Stream {
        var socket: Int32
        var head: [UInt8] = []
        var headChecked = false
        var tail: [UInt8] = []
        var events = 0
        var arrival: Double?
        var failure: String?
    }

    static func run(_ arguments: Arguments) throws {
        let port = try arguments.integer("port")
        let count = try arguments.integer("count")
        let serverPID = try arguments.integer("server-pid")
        let trigger = try arguments.string("trigger")
        let timeout = Double(try arguments.integer("timeout", default: 120))
        let tokens = String(decoding: try readFile(try arguments.string("tokens")), as: UTF8.self)
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        guard !tokens.isEmpty, count > 0 else { throw BenchError("no tokens, or --count 0") }

        let before = try residentKiB(serverPID)
        let start = monotonicSeconds()
        var streams: [Stream] = []
        streams.reserveCapacity(count)
        for index in 0..<count {
            let socket = try connect(port: port, source: "127.0.0.\(2 + index / 200)")
            let request =
                "GET /v1/screen/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
                + "Authorization: Bearer \(tokens[index % tokens.count])\r\n\r\n"
            guard sendAll(socket, Array(request.utf8)) else { throw BenchError("cannot send on stream \(index)") }
            streams.append(Stream(socket: socket))
        }
        try pump(&streams, until: 1, deadline: start + timeout, since: start)
        let opened = monotonicSeconds() - start
        let held = try residentKiB(serverPID)
        say("opened \(count) event streams in \(fixed(opened, 2)) s (each answered 200 and sent its first event)")

        let triggered = monotonicSeconds()
        let child = try spawn(trigger)
        try pump(&streams, until: 2, deadline: triggered + timeout, since: triggered)
        var status: Int32 = 0
        waitpid(child, &status, 0)
        guard status == 0 else { throw BenchError("the trigger command failed (status \(status)): \(trigger)") }
        let arrivals = streams.compactMap(\.arrival).sorted()
        let median = arrivals[arrivals.count / 2] * 1_000
        let last = arrivals[arrivals.count - 1] * 1_000

        for stream in streams { close(stream.socket) }
        usleep(500_000)
        let after = try residentKiB(serverPID)
        let perStream = Double(held - before) * 1_024 / Double(count)
        say(
            "server resident memory: \(before) KiB before, \(held) KiB with the streams open "
                + "(\(Int(perStream.rounded())) bytes a stream), \(after) KiB 0.5 s after they closed")
        say(
            "a change by another process reached all \(count) streams: median \(fixed(median, 1)) ms, "
                + "last \(fixed(last, 1)) ms after the command started")
        say(
            "RESULT streams count=\(count) open_s=\(fixed(opened, 3)) rss_before_kib=\(before) "
                + "rss_open_kib=\(held) rss_closed_kib=\(after) bytes_per_stream=\(Int(perStream.rounded())) "
                + "change_median_ms=\(fixed(median, 1)) change_last_ms=\(fixed(last, 1))")
    }

    // MARK: - Reading

    /// Polls every stream until each has brought `events` events; throws at the deadline or when one fails.
    private static func pump(_ streams: inout [Stream], until events: Int, deadline: Double, since: Double) throws {
        var fds = streams.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while streams.contains(where: { $0.events < events }) {
            if let failed = streams.firstIndex(where: { $0.failure != nil }) {
                throw BenchError("stream \(failed): \(streams[failed].failure!)")
            }
            let left = deadline - monotonicSeconds()
            guard left > 0 else {
                let waiting = streams.filter { $0.events < events }.count
                throw BenchError("\(waiting) of \(streams.count) streams did not bring event \(events) in time")
            }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left, 1) * 1_000))
            guard ready >= 0 || errno == EINTR else { throw BenchError("poll failed: errno \(errno)") }
            let now = monotonicSeconds()
            for index in fds.indices where fds[index].revents != 0 {
                fds[index].revents = 0
                let got = read(streams[index].socket, &buffer, buffer.count)
                if got <= 0 {
                    if got < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                    streams[index].failure = "the server closed the stream after \(streams[index].events) events"
                    continue
                }
                let before = streams[index].events
                take(Array(buffer[0..<got]), into: &streams[index])
                if before < events && streams[index].events >= events && events > 1 {
                    streams[index].arrival = now - since
                }
            }
        }
    }

    private static let marker = Array("\nevent: changes\n".utf8)

    /// Counts `event: changes` lines (a data line cannot hold one: JSON escapes line breaks) and checks the status.
    private static func take(_ bytes: [UInt8], into stream: inout Stream) {
        if !stream.headChecked {
            stream.head += bytes
            guard stream.head.count >= 12 else { return }
            stream.headChecked = true
            let status = String(decoding: stream.head.prefix(12), as: UTF8.self)
            if status != "HTTP/1.1 200" {
                stream.failure = "answered '\(String(decoding: stream.head.prefix(200), as: UTF8.self))'"
                return
            }
            let rest = stream.head
            stream.head = []
            scan(rest, into: &stream)
            return
        }
        scan(bytes, into: &stream)
    }

    private static func scan(_ bytes: [UInt8], into stream: inout Stream) {
        let text = stream.tail + bytes
        var index = 0
        while index + marker.count <= text.count {
            if text[index] == marker[0] && Array(text[index..<index + marker.count]) == marker {
                stream.events += 1
                index += marker.count
            } else {
                index += 1
            }
        }
        stream.tail = Array(text.suffix(marker.count - 1))
    }

    // MARK: - Sockets and processes

    private static func connect(port: Int, source: String) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchError("socket failed: errno \(errno) (raise ulimit -n?)") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, size) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, size) }
        }
        guard bound == 0, connected == 0 else {
            close(socket)
            throw BenchError("cannot connect from \(source) to 127.0.0.1:\(port): errno \(errno)")
        }
        return socket
    }

    private static func sendAll(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    private static func spawn(_ command: String) throws -> pid_t {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { word in strdup(word) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let result = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
        guard result == 0 else { throw BenchError("cannot run the trigger: error \(result)") }
        return pid
    }

    /// VmRSS of a process, in KiB.
    private static func residentKiB(_ pid: Int) throws -> Int {
        let text = String(decoding: try readFile("/proc/\(pid)/status"), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            if let value = Int(line.dropFirst(6).filter(\.isNumber)) { return value }
        }
        throw BenchError("no VmRSS for process \(pid)")
    }
}

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(abs(scaled % Int(scale)))
    guard digits > 0 else { return "\(whole)" }
    return "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
}
