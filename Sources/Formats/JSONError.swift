/// A problem found while reading JSON or JSON Lines, with where it sits.
///
/// For example:
///
///     do {
///         _ = try JSONParser.parse("[1, 2,]")
///     } catch let error as JSONError {
///         print(error)  // line 1, column 7: trailing comma
///     }
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The input ended where more was expected.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here; holds a printable description of it.
        case unexpectedCharacter(String)
        /// A misspelled `true`, `false` or `null`.
        case invalidLiteral
        /// A number with a leading zero, such as `01`.
        case leadingZero
        /// A malformed number, such as `-` or `1.` or `1e`.
        case invalidNumber
        /// A number too large for a finite `Double`, such as `1e400`.
        case numberOutOfRange
        /// A string still open at the end of the input or line.
        case unterminatedString
        /// A raw control character (below U+0020) inside a string.
        case controlCharacterInString
        /// A backslash followed by a character that is not a JSON escape.
        case invalidEscape
        /// A `\u` not followed by four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\uD800`-`\uDFFF` escape that is not part of a valid surrogate pair.
        case unpairedSurrogate
        /// Bytes that are not valid UTF-8.
        case invalidUTF8
        /// A comma directly before `]` or `}`.
        case trailingComma
        /// An object key that appears twice.
        case duplicateKey(String)
        /// Arrays and objects nested deeper than the limit.
        case nestingTooDeep(limit: Int)
        /// More content after a complete value.
        case trailingCharacters
        /// Something other than a string where an object key belongs.
        case expectedKey
        /// A missing `:` after an object key.
        case expectedColon
        /// A missing `,` or closing bracket after an element; holds the expected bracket.
        case expectedCommaOr(Character)
        /// An empty document.
        case emptyInput
        /// A value of the wrong kind where an object was required (for records read as objects).
        case expectedObject(found: String)
        /// A document that is neither an array of objects nor JSON Lines.
        case unknownLayout

        /// A plain-language explanation, such as `trailing comma`.
        public var description: String {
            switch self {
            case .unexpectedEnd: "unexpected end of input"
            case .unexpectedCharacter(let text): "unexpected character \(text)"
            case .invalidLiteral: "invalid literal; expected true, false or null"
            case .leadingZero: "numbers must not have leading zeros"
            case .invalidNumber: "invalid number"
            case .numberOutOfRange: "number is too large"
            case .unterminatedString: "string is not closed"
            case .controlCharacterInString: "control character in string must be escaped"
            case .invalidEscape: "invalid escape sequence in string"
            case .invalidUnicodeEscape: "\\u must be followed by four hexadecimal digits"
            case .unpairedSurrogate: "unpaired UTF-16 surrogate in \\u escape"
            case .invalidUTF8: "invalid UTF-8"
            case .trailingComma: "trailing comma"
            case .duplicateKey(let key): "duplicate key \"\(key)\""
            case .nestingTooDeep(let limit): "arrays and objects nested deeper than \(limit) levels"
            case .trailingCharacters: "unexpected characters after the value"
            case .expectedKey: "expected a string key"
            case .expectedColon: "expected ':' after the key"
            case .expectedCommaOr(let bracket): "expected ',' or '\(bracket)'"
            case .emptyInput: "no JSON value found"
            case .expectedObject(let found): "expected an object, found \(found)"
            case .unknownLayout: "expected a JSON array of objects or JSON Lines (one object per line)"
            }
        }
    }

    /// The 1-based physical line where the problem sits.
    public var line: Int
    /// The 1-based column within `line` where the problem sits, in characters (Unicode scalars), as editors count.
    public var column: Int
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    ///
    ///     JSONError(line: 1, column: 7, reason: .trailingComma)
    public init(line: Int, column: Int, reason: Reason) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The error as one line: `line 1, column 7: trailing comma`.
    public var description: String {
        "line \(line), column \(column): \(reason)"
    }
}
