/// A JSON value whose object members keep their order, for building documents by hand without Foundation.
///
/// The JSON renderer uses it for snapshots; the CLI uses it to add its own top-level members (`changes`,
/// `outcomes`). Build values with cases or literals (a dictionary literal keeps its order) and serialise them with
/// ``serialized(pretty:)``.
///
/// For example:
///
///     let outcome: JSONValue = ["command": "take", "bookId": 12, "ok": true]
///     outcome.serialized(pretty: false)  // {"command":"take","bookId":12,"ok":true}
public indirect enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A number; non-finite values are written as `null`.
    case double(Double)
    /// A string, escaped when written.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object whose members are written in this order. Keys should be unique.
    case object([(key: String, value: JSONValue)])

    // MARK: - Serialising

    /// The value as JSON text: compact (no spaces) or pretty (2-space indentation, `"key": value`).
    ///
    ///     JSONValue.array([1, 2]).serialized(pretty: true)  // "[\n  1,\n  2\n]"
    public func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// A JSON string literal with quotes: `"` and `\` escaped, control characters as `\n`, `\t`… or `\u00XX`,
    /// U+2028 and U+2029 as `\u2028` / `\u2029`; everything else, including characters outside the BMP, as UTF-8.
    ///
    ///     JSONValue.quoted("a\"b\n")  // "\"a\\\"b\\n\""
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F, 0x2028, 0x2029: out += unicodeEscape(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A number as JSON: the shortest decimal that reads back as the same double, or `null` if not finite.
    ///
    ///     JSONValue.number(0.5)  // "0.5"
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) + ".0" }
        return value.description
    }

    // MARK: - Private

    private func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += Self.number(value)
        case .string(let value): out += Self.quoted(value)
        case .array(let elements):
            guard !elements.isEmpty else {
                out += "[]"
                return
            }
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                Self.newline(&out, pretty: pretty, indent: indent + 1)
                element.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            Self.newline(&out, pretty: pretty, indent: indent)
            out += "]"
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.newline(&out, pretty: pretty, indent: indent + 1)
                out += Self.quoted(member.key)
                out += pretty ? ": " : ":"
                member.value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            Self.newline(&out, pretty: pretty, indent: indent)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, pretty: Bool, indent: Int) {
        guard pretty else { return }
        out += "\n" + String(repeating: "  ", count: indent)
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

// MARK: - Literals and conversions

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null` from `nil`.
    ///
    ///     let value: JSONValue = nil
    public init(nilLiteral: ()) { self = .null }

    /// A boolean from a literal.
    ///
    ///     let value: JSONValue = true
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// An integer from a literal.
    ///
    ///     let value: JSONValue = 12
    public init(integerLiteral value: Int) { self = .int(value) }

    /// A number from a literal.
    ///
    ///     let value: JSONValue = 0.5
    public init(floatLiteral value: Double) { self = .double(value) }

    /// A string from a literal.
    ///
    ///     let value: JSONValue = "take"
    public init(stringLiteral value: String) { self = .string(value) }

    /// An array from a literal.
    ///
    ///     let value: JSONValue = [1, "two", nil]
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// An object from a literal, keeping the literal's order.
    ///
    ///     let value: JSONValue = ["id": "book-12", "bookId": 12]
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }

    /// `.string`, or `.null` for `nil`.
    ///
    ///     JSONValue(optional: item.subtitle)
    public init(optional value: String?) { self = value.map(JSONValue.string) ?? .null }
}
