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
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value for `name` (any case), in order.
    ///
    ///     headers.values(for: "Accept")  // ["text/html", "application/json"]
    public func values(for name: String) -> [String] {
        let key = name.lowercased()
        return fields.filter { $0.name.lowercased() == key }.map(\.value)
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
        let key = name.lowercased()
        fields.removeAll { $0.name.lowercased() == key }
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
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
