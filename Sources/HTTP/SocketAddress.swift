import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 socket address to bind.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    /// The address for an IP literal or `localhost`; nil for anything else.
    init?(host: String, port: Int) {
        let host = host == "localhost" ? "127.0.0.1" : host
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, bare, &ipv4) == 1 {
            isIPv6 = false
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                address.pointee.sin_addr = ipv4
            }
        } else if inet_pton(AF_INET6, bare, &ipv6) == 1 {
            isIPv6 = true
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                address.pointee.sin6_addr = ipv6
            }
        } else {
            return nil
        }
    }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }

    /// The client's address as text, such as `127.0.0.1`; empty when unknown.
    static func clientAddress(of connection: OpaquePointer) -> String {
        var table = mhd
        guard let address = librarycli_mhd_client_address(&table, connection) else { return "" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var ipv4 = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr_in.self).pointee.sin_addr
            guard inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count)) != nil else { return "" }
        case AF_INET6:
            var ipv6 = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_addr
            guard inet_ntop(AF_INET6, &ipv6, &text, socklen_t(text.count)) != nil else { return "" }
        default:
            return ""
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
