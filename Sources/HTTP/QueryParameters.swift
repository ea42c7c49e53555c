import Formats

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

    /// The value for a parameter that may be given once, or nil when it is not given. Given more than once is a 400
    /// `bad-parameter` problem naming it: two values, of which one would be ignored, mean the request is not what its
    /// sender thinks (`?perPage=5&perPage=0`). Use it for every parameter a route reads; the subscript takes the
    /// first value unchecked.
    ///
    ///     try request.query.single("page").map { Int($0) }  // ?page=2 -> 2; ?page=2&page=3 -> 400
    ///
    /// - Throws: ``Problem`` (400, `bad-parameter`, with `parameter`).
    public func single(_ key: String) throws(Problem) -> String? {
        var found: String?
        for item in items where item.key == key {
            guard found == nil else {
                throw Problem(
                    status: .badRequest, code: "bad-parameter",
                    detail: "'\(key.prefix(40))' is given more than once; give it once.",
                    extensions: ["parameter": .string(key)])
            }
            found = item.value
        }
        return found
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
