// MARK: - Building documents to write

extension JSONObject {
    /// An object with these members in this order. Keys must be unique: repeating one is a programmer's mistake.
    ///
    ///     JSONObject([("id", "book-12"), ("bookId", 12)])
    public init(_ members: [(key: String, value: JSONValue)]) {
        self.init()
        for member in members {
            let isNew = insertNew(key: member.key, value: member.value)
            precondition(isNew, "the key '\(member.key)' is repeated in a JSON object")
        }
    }
}

extension JSONValue {
    /// An object with these members in this order (keys unique), for writing documents whose order is part of their
    /// contract.
    ///
    ///     JSONValue.object(members: [("version", 1), ("sections", [])])
    public static func object(members: [(key: String, value: JSONValue)]) -> JSONValue {
        .object(JSONObject(members))
    }

    /// A string, or `null` when there is none.
    ///
    ///     JSONValue(optional: book.isbn)
    public init(optional text: String?) {
        self = text.map(JSONValue.string) ?? .null
    }

    /// The value as JSON text: pretty (2-space indentation) or compact on one line.
    ///
    ///     JSONValue.array([1, 2]).serialized(pretty: false)  // "[1,2]"
    public func serialized(pretty: Bool = true) -> String {
        JSONWriter.string(from: self, indent: pretty ? 2 : 0)
    }
}
