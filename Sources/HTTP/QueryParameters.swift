/// The decoded parameters of a request's query string, in order; a key may repeat.
///
///     let query = try QueryParameters(parsing: "search=le+guin&page=2&tag=a&tag=b")
///     query["search"]         // "le guin"
///     query.values(for: "tag")  // ["a", "b"]
///     query["missing"]        // nil
public struct QueryParameters: Sendable, Equatable, Sequence {
    /// One `key=value` pair; a key without `=` has the empty value.
    public struct Item: Sendable, Hashable {
        /// The decoded key.
        public var key: String
        /// The decoded value.
        public var value: String
    }

    /// The items in order.
    public private(set) var items: [Item] = []

    /// No parameters.
    ///
    ///     QueryParameters().isEmpty  // true
    public init() {}

    /// Parses a query string (without the `?`): `&`-separated, `+` for space, `%XX` escapes, UTF-8.
    ///
    ///     try QueryParameters(parsing: "q=%C3%A9t%C3%A9")["q"]  // "été"
    ///
    /// - Throws: ``PercentDecodingError`` for a bad `%` escape or text that is not UTF-8.
    public init(parsing query: String) throws(PercentDecodingError) {
        for part in Substring(query).splitOnByte(UInt8(ascii: "&"), omittingEmpty: true) {
            let pieces = part.splitOnByte(UInt8(ascii: "="), maxSplits: 1, omittingEmpty: false)
            let key = try PercentDecoding.decode(pieces[0], plusIsSpace: true)
            let value = pieces.count > 1 ? try PercentDecoding.decode(pieces[1], plusIsSpace: true) : ""
            items.append(Item(key: key, value: value))
        }
    }

    /// The first value for `key`, or nil.
    ///
    ///     request.query["page"].flatMap { Int($0) }
    public subscript(key: String) -> String? {
        items.first { $0.key == key }?.value
    }

    /// Every value for `key`, in order.
    ///
    ///     request.query.values(for: "id")
    public func values(for key: String) -> [String] {
        items.filter { $0.key == key }.map(\.value)
    }

    /// True when there are no parameters.
    public var isEmpty: Bool { items.isEmpty }

    /// Iterates the items in order.
    ///
    ///     for item in request.query { print(item.key, item.value) }
    public func makeIterator() -> IndexingIterator<[Item]> {
        items.makeIterator()
    }
}

/// A `%` escape that is not followed by two hex digits, or decoded bytes that are not UTF-8.
///
///     do { _ = try QueryParameters(parsing: "a=%zz") } catch { print(error) }  // bad percent-encoding in "%zz"
///     do { _ = try QueryParameters(parsing: "a=%ff") } catch { print(error) }
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
    public var reason: Reason = .badEscape

    /// What went wrong, for a problem's detail.
    public var description: String {
        switch reason {
        case .badEscape: "bad percent-encoding in \"\(text)\""
        case .notUTF8: "\"\(text)\" is percent-encoded correctly, but the bytes it encodes are not UTF-8"
        }
    }
}

enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when asked) into UTF-8 text.
    static func decode(_ text: Substring, plusIsSpace: Bool) throws(PercentDecodingError) -> String {
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
