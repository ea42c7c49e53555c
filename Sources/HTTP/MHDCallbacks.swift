import CMicroHTTPD

/// The C functions libmicrohttpd calls; each finds the server (or stream) through its `cls`.
enum MHDCallbacks {
    static let uri: librarycli_mhd_uri_callback = { cls, uri, connection in
        guard let cls, let connection else { return nil }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        return core.begin(target: uri.map { String(cString: $0) } ?? "", connection: connection)
    }

    static let access: MHD_AccessHandlerCallback = {
        cls, connection, _, method, version, uploadData, uploadSize, context in
        guard let cls, let connection, let uploadSize, let pointer = context?.pointee else { return .NO }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
        return core.access(
            exchange, connection, method: method.map { String(cString: $0) } ?? "",
            version: version.map { String(cString: $0) } ?? "", uploadData: uploadData, uploadSize: uploadSize)
    }

    static let completed: MHD_RequestCompletedCallback = { cls, _, context, termination in
        guard let cls, let context, let pointer = context.pointee else { return }
        context.pointee = nil
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
        core.completed(exchange, termination: termination)
    }

    static let read: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        guard let cls, let buffer else { return librarycli_mhd_end_with_error() }
        let stream = Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue()
        return stream.read(into: buffer, capacity: capacity)
    }

    static let free: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<EventStream>.fromOpaque(cls).release()
    }
}

/// Reads a connection's request header fields.
enum HeaderReader {
    private final class Box {
        var headers = HTTPHeaders()
    }

    static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        let box = Box()
        withExtendedLifetime(box) {
            _ = mhd.MHD_get_connection_values!(
                connection, .HEADER_KIND,
                { cls, _, key, value in
                    guard let cls, let key else { return .YES }
                    let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
                    box.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                    return .YES
                }, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.headers
    }
}
