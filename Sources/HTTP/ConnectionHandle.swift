import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// A libmicrohttpd connection, passed between threads only to resume it (which MHD allows from any thread), and its
/// socket, which a suspended connection's owner may look at (never read from) to learn that the client went away.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The connection's socket, or -1 when libmicrohttpd did not say.
    let socket: Int32

    init(pointer: OpaquePointer) {
        self.pointer = pointer
        var table = mhd
        socket = librarycli_mhd_connection_socket(&table, pointer)
    }

    func suspend() {
        mhd.MHD_suspend_connection!(pointer)
    }

    func resume() {
        mhd.MHD_resume_connection!(pointer)
    }

    /// Whether the client closed its end (or the connection failed): a peek at the socket without waiting, which
    /// takes nothing from it. Only for a suspended connection, which libmicrohttpd neither reads nor closes.
    func clientHungUp() -> Bool {
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        if count > 0 { return false }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR: return false
        default: return true
        }
    }
}
