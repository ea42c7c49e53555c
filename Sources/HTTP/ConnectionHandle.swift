import CMicroHTTPD

/// A libmicrohttpd connection, passed between threads only to resume it (which MHD allows from any thread).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    func suspend() {
        MHD_suspend_connection(pointer)
    }

    func resume() {
        MHD_resume_connection(pointer)
    }
}
