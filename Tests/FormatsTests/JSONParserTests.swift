import Testing

@testable import Formats

// MARK: - Valid documents

/// A JSON document and the value it must parse to.
struct JSONGolden: Sendable, CustomTestStringConvertible {
    var input: String
    var expected: JSONValue
    var testDescription: String { input }

    init(_ input: String, _ expected: JSONValue) {
        self.input = input
        self.expected = expected
    }
}

private let validDocuments: [JSONGolden] = [
    JSONGolden("null", .null),
    JSONGolden("true", true),
    JSONGolden(" false ", false),
    JSONGolden("0", 0),
    JSONGolden("-12", -12),
    JSONGolden("-0", .double(-0.0)),
    JSONGolden("1.5", 1.5),
    JSONGolden("1.0", .double(1.0)),
    JSONGolden("1e2", .double(100)),
    JSONGolden("-2.5E-3", .double(-0.0025)),
    JSONGolden("1e-400", .double(0)),
    JSONGolden("9223372036854775807", .int(Int.max)),
    JSONGolden("-9223372036854775808", .int(Int.min)),
    JSONGolden("9223372036854775808", .double(9_223_372_036_854_775_808)),
    JSONGolden("\"\"", ""),
    JSONGolden(#""a\"b\\c\/d""#, "a\"b\\c/d"),
    JSONGolden(#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
    JSONGolden(#""\u0041\u00e9\u4E09""#, "Aé三"),
    JSONGolden(#""\uD83D\uDE00""#, "😀"),
    JSONGolden(#""\u0000""#, "\u{0}"),
    JSONGolden("\"Ünïcödé 三体 😀\"", "Ünïcödé 三体 😀"),
    JSONGolden("[]", []),
    JSONGolden("{}", .object(JSONObject())),
    JSONGolden(" [ 1 , [ 2 , [ ] ] , { } ] ", [1, [2, []], .object(JSONObject())]),
    JSONGolden(#"{"b": 1, "a": [true, null], "c": {"d": "e"}}"#, ["b": 1, "a": [true, nil], "c": ["d": "e"]]),
    JSONGolden("\u{FEFF}[1]", [1]),
    JSONGolden("\r\n\t[1]\n", [1]),
]

@Test(arguments: validDocuments)
func jsonParsesValidDocument(_ golden: JSONGolden) throws {
    let value = try JSONParser.parse(golden.input)
    #expect(value == golden.expected)
    if case .double(let parsed) = value, case .double(let expected) = golden.expected {
        #expect(parsed.sign == expected.sign)
    }
}

@Test func jsonObjectsKeepKeyOrder() throws {
    let value = try JSONParser.parse(#"{"z": 1, "a": 2, "m": 3}"#)
    #expect(value.objectValue?.keys == ["z", "a", "m"])
    #expect(value["a"] == 2)
    #expect(try JSONParser.parse(#"{"a": 1, "b": 2}"#) != JSONParser.parse(#"{"b": 2, "a": 1}"#))
}

// MARK: - Invalid documents

/// A malformed JSON document and the error it must raise.
struct JSONFailure: Sendable, CustomTestStringConvertible {
    var name: String
    var input: [UInt8]
    var expected: JSONError
    var testDescription: String { name }

    init(_ name: String, _ input: String, _ line: Int, _ column: Int, _ reason: JSONError.Reason) {
        self.init(name, Array(input.utf8), line, column, reason)
    }

    init(_ name: String, _ input: [UInt8], _ line: Int, _ column: Int, _ reason: JSONError.Reason) {
        self.name = name
        self.input = input
        self.expected = JSONError(line: line, column: column, reason: reason)
    }
}

private let invalidDocuments: [JSONFailure] = [
    JSONFailure("empty", "", 1, 1, .emptyInput),
    JSONFailure("whitespace only", "  \n ", 2, 2, .emptyInput),
    JSONFailure("truncated array", "[1, 2", 1, 6, .unexpectedEnd),
    JSONFailure("truncated object", #"{"a": "#, 1, 7, .unexpectedEnd),
    JSONFailure("truncated literal", "tru", 1, 4, .unexpectedEnd),
    JSONFailure("wrong literal", "[nul]", 1, 2, .invalidLiteral),
    JSONFailure("capitalised literal", "True", 1, 1, .unexpectedCharacter("'T'")),
    JSONFailure("trailing comma in array", "[1, 2,]", 1, 7, .trailingComma),
    JSONFailure("trailing comma in object", "{\"a\": 1,\n}", 2, 1, .trailingComma),
    JSONFailure("line comment", "[1] // no", 1, 5, .trailingCharacters),
    JSONFailure("block comment", "/* no */ 1", 1, 1, .unexpectedCharacter("'/'")),
    JSONFailure("leading zero", "[01]", 1, 2, .leadingZero),
    JSONFailure("negative leading zero", "-012", 1, 1, .leadingZero),
    JSONFailure("lone minus", "-", 1, 1, .invalidNumber),
    JSONFailure("no digit after point", "1.", 1, 1, .invalidNumber),
    JSONFailure("no digit before point", ".5", 1, 1, .unexpectedCharacter("'.'")),
    JSONFailure("no exponent digits", "1e+", 1, 1, .invalidNumber),
    JSONFailure("plus sign", "+1", 1, 1, .unexpectedCharacter("'+'")),
    JSONFailure("infinity rejected", "1e400", 1, 1, .numberOutOfRange),
    JSONFailure("negative infinity rejected", "[-1e400]", 1, 2, .numberOutOfRange),
    JSONFailure("NaN rejected", "NaN", 1, 1, .unexpectedCharacter("'N'")),
    JSONFailure("hex number", "0x10", 1, 2, .trailingCharacters),
    JSONFailure("single quotes", "['a']", 1, 2, .unexpectedCharacter("'''")),
    JSONFailure("unterminated string", "[\"abc", 1, 2, .unterminatedString),
    JSONFailure("raw newline in string", "\"a\nb\"", 1, 3, .controlCharacterInString),
    JSONFailure("raw tab in string", "\"a\tb\"", 1, 3, .controlCharacterInString),
    JSONFailure("bad escape", #""\x41""#, 1, 2, .invalidEscape),
    JSONFailure("short unicode escape", #""\u12""#, 1, 2, .invalidUnicodeEscape),
    JSONFailure("non-hex unicode escape", #""\u12G4""#, 1, 2, .invalidUnicodeEscape),
    JSONFailure("lone high surrogate", #""\uD83D""#, 1, 2, .unpairedSurrogate),
    JSONFailure("high surrogate then text", #""\uD83Dabcdef""#, 1, 2, .unpairedSurrogate),
    JSONFailure("high surrogate then non-surrogate", #""\uD83D\u0041""#, 1, 2, .unpairedSurrogate),
    JSONFailure("lone low surrogate", #""x\uDE00""#, 1, 3, .unpairedSurrogate),
    JSONFailure("invalid UTF-8", [0x22, 0x61, 0xFF, 0x22], 1, 3, .invalidUTF8),
    JSONFailure("encoded surrogate UTF-8", [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2, .invalidUTF8),
    JSONFailure("two values", "1 2", 1, 3, .trailingCharacters),
    JSONFailure("missing comma", "[1 2]", 1, 4, .expectedCommaOr("]")),
    JSONFailure("missing colon", #"{"a" 1}"#, 1, 6, .expectedColon),
    JSONFailure("unquoted key", "{a: 1}", 1, 2, .expectedKey),
    JSONFailure("duplicate key", "{\"a\": 1,\n \"a\": 2}", 2, 2, .duplicateKey("a")),
    JSONFailure("mismatched bracket", "[1}", 1, 3, .expectedCommaOr("]")),
    JSONFailure("stray close", "]", 1, 1, .unexpectedCharacter("']'")),
    JSONFailure("NUL byte", [0x5B, 0x00, 0x5D], 1, 2, .unexpectedCharacter("byte 0x00")),
    JSONFailure("error on a later line", "{\n  \"a\": [1,\n  2,,\n]}", 3, 5, .unexpectedCharacter("','")),
    // Columns count characters, as editors do, not bytes: "Пушкин" is 6 characters in 12 bytes, 😀 one in 4.
    JSONFailure("column after Cyrillic", "[\"Пушкин\",]", 1, 11, .trailingComma),
    JSONFailure("column after an emoji", "{\"a\": 1,\n\"😀\" 2}", 2, 5, .expectedColon),
    JSONFailure("column after a byte order mark and accents", "\u{FEFF}[\"é\" \"è\"]", 1, 6, .expectedCommaOr("]")),
    JSONFailure("column after invalid UTF-8", [0x22, 0xFF, 0xFE, 0x61, 0x22], 1, 2, .invalidUTF8),
]

@Test(arguments: invalidDocuments)
func jsonRejectsInvalidDocument(_ failure: JSONFailure) {
    #expect(throws: failure.expected) {
        try JSONParser.parse(failure.input)
    }
}

// MARK: - Nesting

@Test func jsonDeepNestingThrowsInsteadOfCrashing() {
    let depth = 100_000
    let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(throws: JSONError(line: 1, column: 513, reason: .nestingTooDeep(limit: 512))) {
        try JSONParser.parse(arrays)
    }
    let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    #expect(throws: JSONError.self) { try JSONParser.parse(objects) }
}

@Test func jsonNestingUpToTheLimitIsAccepted() throws {
    let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    var value = try JSONParser.parse(atLimit)
    var depth = 0
    while case .array(let elements) = value {
        depth += 1
        guard let first = elements.first else { break }
        value = first
    }
    #expect(depth == 512)
    #expect(throws: JSONError.self) { try JSONParser.parse("[[[1]]]", maxDepth: 2) }
    #expect(try JSONParser.parse("[[1]]", maxDepth: 2) == [[1]])
}

@Test func jsonErrorMessagesArePlain() {
    let error = JSONError(line: 3, column: 5, reason: .trailingComma)
    #expect(error.description == "line 3, column 5: trailing comma")
}
