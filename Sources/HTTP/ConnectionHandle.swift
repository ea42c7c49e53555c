import CMicroHTTPD

/// A libmicrohttpd connection, passed between threads only to resume it (which MHD allows from any thread).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    func suspend() {
        mhd.MHD_suspend_connection!(pointer)
    }

    func resume() {
        mhd.MHD_resume_connection!(pointer)
    }
}
