/// A JSON object: members with unique keys, kept in the order they were added or read.
///
/// For example:
///
///     var object = JSONObject()
///     object["title"] = "Dune"
///     object["year"] = 1965
///     object.keys        // ["title", "year"]
///     object["title"]    // .string("Dune")
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public struct Member: Hashable, Sendable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue

        /// Creates a member.
        ///
        ///     JSONObject.Member(key: "year", value: 1965)
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in order.
    public private(set) var members: [Member] = []
    /// Each key's position, kept only from `indexedCount` members on: a smaller object (as nearly all written
    /// documents' are) finds a key faster by comparing keys in order than by hashing, and is built without
    /// allocating a dictionary.
    private var indexes: [String: Int] = [:]
    private static let indexedCount = 16

    // MARK: - Creating objects

    /// Creates an empty object.
    ///
    ///     JSONObject().isEmpty  // true
    public init() {}

    /// Creates an object from a literal, keeping its order: `let object: JSONObject = ["a": 1]`.
    /// Repeated keys are a programmer error.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (key, value) in elements {
            precondition(self[key] == nil, "duplicate key \(key) in JSON object literal")
            self[key] = value
        }
    }

    // MARK: - Reading and writing members

    /// The keys in order.
    ///
    ///     object.keys  // ["title", "year"]
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    ///
    ///     object.count  // 2
    public var count: Int { members.count }

    /// True when the object has no members.
    ///
    ///     JSONObject().isEmpty  // true
    public var isEmpty: Bool { members.isEmpty }

    /// The value for `key`; setting replaces it in place or appends a new member, and setting nil removes it.
    ///
    ///     object["title"] = "Dune"
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(of: key) else { return nil }
            return members[index].value
        }
        set {
            if let index = index(of: key) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                    reindex()
                }
            } else if let newValue {
                append(key, newValue)
            }
        }
    }

    /// Adds a member whose key must be new; returns false (and changes nothing) when the key already exists.
    ///
    ///     object.insertNew(key: "year", value: 1965)  // true
    @discardableResult
    public mutating func insertNew(key: String, value: JSONValue) -> Bool {
        guard index(of: key) == nil else { return false }
        append(key, value)
        return true
    }

    /// Compares members and their order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members == rhs.members
    }

    /// Hashes members in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members)
    }

    // MARK: - Private

    private func index(of key: String) -> Int? {
        if members.count < Self.indexedCount {
            return members.firstIndex { $0.key == key }
        }
        return indexes[key]
    }

    private mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
        if members.count == Self.indexedCount {
            reindex()
        } else if members.count > Self.indexedCount {
            indexes[key] = members.count - 1
        }
    }

    private mutating func reindex() {
        indexes.removeAll(keepingCapacity: true)
        guard members.count >= Self.indexedCount else { return }
        for (index, member) in members.enumerated() {
            indexes[member.key] = index
        }
    }
}
