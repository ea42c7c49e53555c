/// A JSON value: null, a boolean, a number, a string, an array, or an object with ordered keys.
///
/// Numbers written without a fraction or exponent that fit in `Int` are ``int(_:)``; all others are
/// ``double(_:)`` (so `-0` is `.double(-0.0)`, keeping its sign).
///
/// For example:
///
///     let value = try JSONParser.parse(#"{"title": "Dune", "year": 1965, "tags": ["sf"]}"#)
///     value["title"]?.stringValue  // "Dune"
///     value["year"]?.intValue      // 1965
///     let literal: JSONValue = ["title": "Dune", "year": 1965]
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in `Int`.
    case int(Int)
    /// Any other number; always finite when produced by ``JSONParser``.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keeping its keys in document order.
    case object(JSONObject)

    // MARK: - Accessors

    /// True for `null`.
    ///
    ///     JSONValue.null.isNull  // true
    public var isNull: Bool { self == .null }

    /// The boolean, or nil for other kinds.
    ///
    ///     JSONValue.bool(true).boolValue  // true
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, or nil for other kinds (including doubles, even integral ones).
    ///
    ///     JSONValue.int(3).intValue  // 3
    public var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, for both ``int(_:)`` and ``double(_:)``; nil for other kinds.
    ///
    ///     JSONValue.int(3).doubleValue  // 3.0
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The string, or nil for other kinds.
    ///
    ///     JSONValue.string("a").stringValue  // "a"
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, or nil for other kinds.
    ///
    ///     JSONValue.array([.null]).arrayValue?.count  // 1
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, or nil for other kinds.
    ///
    ///     value.objectValue?.keys  // ["title", "year"]
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member called `key` when this is an object, otherwise nil.
    ///
    ///     value["title"]?.stringValue  // "Dune"
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A short name for the kind of value, used in error messages: `null`, `boolean`, `number`, `string`,
    /// `array` or `object`.
    ///
    ///     JSONValue.int(1).kindName  // "number"
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// Creates `null`: `let value: JSONValue = nil`.
    public init(nilLiteral: ()) { self = .null }

    /// Creates a boolean: `let value: JSONValue = true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// Creates an integer: `let value: JSONValue = 42`.
    public init(integerLiteral value: Int) { self = .int(value) }

    /// Creates a double: `let value: JSONValue = 2.5`.
    public init(floatLiteral value: Double) { self = .double(value) }

    /// Creates a string: `let value: JSONValue = "Dune"`.
    public init(stringLiteral value: String) { self = .string(value) }

    /// Creates an array: `let value: JSONValue = [1, "two", nil]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// Creates an object, keeping the literal's key order: `let value: JSONValue = ["a": 1, "b": 2]`.
    /// Repeated keys are a programmer error.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements {
            precondition(object[key] == nil, "duplicate key \(key) in JSON object literal")
            object[key] = value
        }
        self = .object(object)
    }
}
