import Formats

/// One access-log record, given to the server's access-log sink when a request ends (streams and deferred
/// responses included).
///
///     configuration.accessLog = { entry in FileHandle.standardError.write(Data((entry.line + "\n").utf8)) }
///     // 127.0.0.1 GET /books?token=REDACTED&page=2 200 1.4ms id=4f0c...
public struct AccessLogEntry: Sendable {
    /// The client's address.
    public var remoteAddress: String
    /// The method as sent.
    public var method: String
    /// The request target with the values of secret-looking query keys, and secret-looking values, replaced by
    /// `REDACTED` (see ``ServerConfiguration/redactedQueryKeys`` and ``ServerConfiguration/isSecretValue``) and control or non-ASCII bytes percent-encoded, cut after 200 bytes
    /// (with `…`).
    public var target: String
    /// The status sent, or nil when the request ended before a response was queued.
    public var status: Int?
    /// From the start of the request line to the end of the response.
    public var duration: Duration
    /// The request's id, as in its `X-Request-Id`.
    public var requestID: String
    /// False when the connection failed, timed out or was closed before the response was complete.
    public var completed: Bool

    /// The record as one line: address, method, target, status (`-` when none), duration in milliseconds, request
    /// id, and `incomplete` when it did not complete.
    ///
    ///     entry.line  // "127.0.0.1 GET /healthz 200 0.3ms id=4f0c..."
    public var line: String {
        let components = duration.components
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        let rounded = (milliseconds * 10).rounded() / 10
        return "\(remoteAddress) \(method) \(target) \(status.map(String.init) ?? "-") \(rounded)ms id=\(requestID)"
            + (completed ? "" : " incomplete")
    }
}

enum LogRedaction {
    /// The most bytes of a target a log line shows; a longer one (a 414's) is cut there and ends with `…`.
    static let maxTargetBytes = 200

    /// `target` (redacted and escaped, so ASCII) cut to ``maxTargetBytes``.
    static func capped(_ target: String) -> String {
        target.utf8.count <= maxTargetBytes ? target : String(target.prefix(maxTargetBytes)) + "…"
    }

    /// `target` with the values of query keys containing any of `secretWords` (case-insensitively) replaced, and
    /// any query value or path segment for which `isSecretValue` is true (percent-decoded, or as sent when it cannot
    /// be decoded).
    ///
    ///     LogRedaction.redact("/a/sk_1?pin=1&q=sk_2&p=2", secretWords: ["pin"], isSecretValue: { $0.hasPrefix("sk_") })
    ///     // "/a/REDACTED?pin=REDACTED&q=REDACTED&p=2"
    static func redact(
        _ target: String, secretWords: [String], isSecretValue: ((String) -> Bool)? = nil
    ) -> String {
        let parts = Substring(target).splitOnByte(UInt8(ascii: "?"), maxSplits: 1, omittingEmpty: false)
        func isSecret(_ text: Substring, plusIsSpace: Bool) -> Bool {
            guard let isSecretValue else { return false }
            // Most segments and values have nothing to decode: asked as they are, without decoding them again.
            let encoded = text.utf8.contains { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }
            guard encoded else { return isSecretValue(String(text)) }
            return isSecretValue((try? PercentDecoding.decode(text, plusIsSpace: plusIsSpace)) ?? String(text))
        }
        var result =
            isSecretValue == nil
            ? escape(parts[0])
            : parts[0].splitOnByte(UInt8(ascii: "/"), omittingEmpty: false).map { segment in
                isSecret(segment, plusIsSpace: false) ? "REDACTED" : escape(segment)
            }.joined(separator: "/")
        guard parts.count > 1 else { return result }
        let words = secretWords.map { $0.lowercased() }
        let items = parts[1].splitOnByte(UInt8(ascii: "&"), omittingEmpty: false).map { item -> String in
            let pieces = item.splitOnByte(UInt8(ascii: "="), maxSplits: 1, omittingEmpty: false)
            if pieces.count == 1 { return isSecret(item, plusIsSpace: true) ? "REDACTED" : escape(item) }
            let key = ((try? PercentDecoding.decode(pieces[0], plusIsSpace: true)) ?? String(pieces[0])).lowercased()
            guard words.contains(where: { key.contains($0) }) || isSecret(pieces[1], plusIsSpace: true) else {
                return escape(item)
            }
            return escape(pieces[0]) + "=REDACTED"
        }
        result += "?" + items.joined(separator: "&")
        return result
    }

    /// Percent-encodes bytes that would break a log line: controls, space, `%`-free non-ASCII.
    static func escape<Text: StringProtocol>(_ text: Text) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte <= 0x20 || byte >= 0x7F {
                output.append(UInt8(ascii: "%"))
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
