/// HTTP header fields in order, looked up by name case-insensitively.
///
///     var headers = HTTPHeaders()
///     headers.add("Content-Type", "application/json")
///     headers["content-type"]  // "application/json"
///     headers.set("Cache-Control", "no-store")
///     headers.remove("cache-control")
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as given.
        public var name: String
        /// The value.
        public var value: String
    }

    private var fields: [Field] = []

    /// No fields.
    ///
    ///     let headers = HTTPHeaders()
    public init() {}

    /// These fields in this order.
    ///
    ///     let headers: HTTPHeaders = ["Allow": "GET, HEAD"]
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The first value for `name` (any case), or nil.
    ///
    ///     request.headers["If-None-Match"]
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value for `name` (any case), in order.
    ///
    ///     headers.values(for: "Accept")  // ["text/html", "application/json"]
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` (any case) is present.
    ///
    ///     headers.contains("Authorization")
    public func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    /// Appends a field, keeping any others with the same name.
    ///
    ///     headers.add("Link", "<...>; rel=\"next\"")
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` (any case) with one field.
    ///
    ///     headers.set("Retry-After", "30")
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name` (any case).
    ///
    ///     headers.remove("Set-Cookie")
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    ///
    ///     for field in headers { print(field.name, field.value) }
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// True when the name is an RFC 9110 token and the value holds no CR, LF or NUL: a field that can be sent as is.
    ///
    ///     HTTPHeaders.isValid(name: "X-A", value: "b\r\nc")  // false
    public static func isValid(name: String, value: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isTokenByte) && !value.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 }
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Whether two field names are the same name: equal bytes, ASCII letters compared without case (field names
    /// are ASCII tokens; any other byte must be equal). No string is made.
    ///
    ///     HTTPHeaders.namesMatch("Content-Type", "content-type")  // true
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                guard a.count == b.count else { return false }
                for index in 0..<a.count where a[index] != b[index] {
                    // Equal once both are folded: letters differ from their other case in bit 0x20 only.
                    let x = a[index] | 0x20
                    guard x == b[index] | 0x20, x >= UInt8(ascii: "a"), x <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
    }
}
