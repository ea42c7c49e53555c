/// A `%` escape that is not followed by two hex digits, or decoded bytes that are not UTF-8.
///
///     do { _ = try PercentDecoding.decode("a%zz", plusIsSpace: false) } catch { print(error) }  // bad percent-encoding in "a%zz"
///     do { _ = try PercentDecoding.decode("%ff", plusIsSpace: false) } catch { print(error) }
///     // "%ff" is percent-encoded correctly, but the bytes it encodes are not UTF-8
public struct PercentDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the text.
    public enum Reason: Sendable, Equatable {
        /// A `%` not followed by two hex digits.
        case badEscape
        /// The escapes are well formed, but the bytes they decode to are not UTF-8.
        case notUTF8
    }

    /// The text that could not be decoded.
    public var text: String
    /// What is wrong with it.
    public var reason: Reason

    /// An error about `text`: a malformed escape unless told otherwise.
    ///
    ///     PercentDecodingError(text: "books")  // a target that is not a path, say
    public init(text: String, reason: Reason = .badEscape) {
        self.text = text
        self.reason = reason
    }

    /// What went wrong, for a problem's detail.
    public var description: String {
        switch reason {
        case .badEscape: "bad percent-encoding in \"\(text)\""
        case .notUTF8: "\"\(text)\" is percent-encoded correctly, but the bytes it encodes are not UTF-8"
        }
    }
}

/// Percent-decoding (RFC 3986 `%XX` escapes), one implementation for HTTP's targets and queries and PostgreSQL's
/// connection URLs.
///
///     try PercentDecoding.decode("p%40ss", plusIsSpace: false)  // "p@ss"
///     try PercentDecoding.decode("a+b", plusIsSpace: true)      // "a b" (a query's form encoding)
public enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when asked) into UTF-8 text; throws for a malformed escape or bytes
    /// that are not UTF-8.
    public static func decode(_ text: Substring, plusIsSpace: Bool) throws(PercentDecodingError) -> String {
        let utf8 = Array(text.utf8)
        if !utf8.contains(UInt8(ascii: "%")) && !(plusIsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
                else { throw PercentDecodingError(text: String(text)) }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw PercentDecodingError(text: String(text), reason: .notUTF8)
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
