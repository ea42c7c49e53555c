import CMicroHTTPD
import Glibc

/// The least a server on this stack does per request: libmicrohttpd, started through the same shim with the same
/// flags (internal polling threads on epoll, suspend/resume allowed), thread pool and limits as `librarycli serve`
/// (its defaults: 1,024 connections, 256 per address, 30 s timeout, 64 KiB per connection), answering every
/// request with one prepared response: the body given and the header fields `librarycli serve` sends with a screen,
/// their values constant. No routing, no authentication, no database, no rendering, no log.
enum FloorServer {
    static func run(_ arguments: Arguments) throws {
        let body = try readFile(try arguments.string("body"))
        let port = try arguments.integer("port", default: 0)
        let threads = try arguments.integer("threads", default: 4)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let response = body.withUnsafeBytes { buffer in
            mhd.MHD_create_response_from_buffer!(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { throw BenchError("cannot create the response") }
        for (name, value) in [
            ("Content-Type", "application/json; charset=utf-8"), ("ETag", "\"00000000000000000000000000000000\""),
            ("Cache-Control", "no-cache"), ("X-Request-Id", "00000000000000000000000000000000"),
        ] {
            mhd.MHD_add_response_header!(response, name, value)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if let problem = microhttpdLoad.problem { throw BenchError(problem) }
        var table = mhd
        let cls = UnsafeMutableRawPointer(response)
        let daemon = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                librarycli_mhd_start(
                    &table, flags, sockaddr, UInt32(threads > 1 ? threads : 0), 1_024, 256, 30, 64 * 1_024, access,
                    completed, uri, cls)
            }
        }
        guard let daemon else { throw BenchError("cannot listen on 127.0.0.1:\(port)") }
        let bound = librarycli_mhd_bound_port(&table, daemon)
        var line = "Listening on http://127.0.0.1:\(bound)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        mhd.MHD_stop_daemon!(daemon)
        mhd.MHD_destroy_response!(response)
    }

    /// The first call of a request (its headers) only marks it; the second queues the response (queueing on the
    /// first would lose keep-alive).
    private static let access: MHD_AccessHandlerCallback = {
        cls, connection, _, _, _, _, uploadSize, context in
        guard let cls, let connection, let context, let uploadSize else { return .NO }
        if context.pointee == nil {
            context.pointee = cls
            return .YES
        }
        if uploadSize.pointee > 0 {
            uploadSize.pointee = 0
            return .YES
        }
        return mhd.MHD_queue_response!(connection, 200, OpaquePointer(cls))
    }

    private static let completed: MHD_RequestCompletedCallback = { _, _, _, _ in }

    private static let uri: librarycli_mhd_uri_callback = { _, _, _ in nil }
}
