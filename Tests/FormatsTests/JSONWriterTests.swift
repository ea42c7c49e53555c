import Testing

@testable import Formats

// MARK: - Escaping

@Test(arguments: [
    ("plain", #""plain""#),
    ("say \"hi\"", #""say \"hi\"""#),
    ("back\\slash", #""back\\slash""#),
    ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
    ("\u{0}\u{1}\u{1F}\u{8}\u{C}", #""\u0000\u0001\u001F\b\f""#),
    ("/ and \u{7F}", "\"/ and \\u007F\""),
    ("Cien años 三体 😀", "\"Cien años 三体 😀\""),
    ("", #""""#),
])
func jsonWriterEscapesStrings(_ input: String, _ expected: String) {
    #expect(JSONWriter.quoted(input) == expected)
    var output = "x="
    JSONWriter.appendQuoted(input, to: &output)
    #expect(output == "x=" + expected)
}

// MARK: - Values

@Test func jsonWriterWritesCompactValuesInOrder() {
    let value: JSONValue = ["b": [1, 2.5, nil, true], "a": ["c": "d"], "e": [], "f": .object(JSONObject())]
    #expect(JSONWriter.string(from: value) == #"{"b":[1,2.5,null,true],"a":{"c":"d"},"e":[],"f":{}}"#)
}

@Test func jsonWriterIndents() {
    let value: JSONValue = ["a": [1, 2], "b": [:]]
    #expect(JSONWriter.string(from: value, indent: 2) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}")
}

@Test func jsonWriterWritesNonFiniteDoublesAsNull() {
    #expect(JSONWriter.string(from: [.double(.infinity), .double(.nan)]) == "[null,null]")
}

// MARK: - Round trip

private let roundTripValues: [JSONValue] = [
    .null, true, 0, -1, .int(Int.max), .int(Int.min), 0.1, -0.0, 1e300, .double(.leastNonzeroMagnitude), 1e-7,
    123_456.789,
    "", "quote \" backslash \\ slash / controls \u{0}\u{1}\u{1F}\n\r\t", "Преступление и наказание 三体 😀 العربية",
    [], [[[]]], ["a": 1, "b": ["c": [true, false, nil]]],
    ["z": "last key first", "a": "first key last", "m": -0.5],
]

@Test(arguments: roundTripValues)
func jsonWriterOutputParsesBackToTheSameValue(_ value: JSONValue) throws {
    for indent in [0, 2] {
        let text = JSONWriter.string(from: value, indent: indent)
        let parsed = try JSONParser.parse(text)
        #expect(parsed == value, "\(text)")
        if case .double(let original) = value, case .double(let back) = parsed {
            #expect(original.sign == back.sign)
        }
    }
}

@Test func jsonWriterRoundTripsEveryScalarClass() throws {
    var text = ""
    for scalar in [0, 0x1F, 0x20, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF] {
        text.unicodeScalars.append(Unicode.Scalar(UInt32(scalar))!)
    }
    #expect(try JSONParser.parse(JSONWriter.quoted(text)) == .string(text))
}

// MARK: - Objects

@Test func jsonObjectReplacesInPlaceAndRemoves() {
    var object: JSONObject = ["a": 1, "b": 2, "c": 3]
    object["b"] = 20
    #expect(object.keys == ["a", "b", "c"])
    object["a"] = nil
    #expect(object.keys == ["b", "c"])
    #expect(object["c"] == 3)
    object["d"] = 4
    #expect(object.keys == ["b", "c", "d"])
    let inserted = object.insertNew(key: "b", value: 0)
    #expect(!inserted)
    #expect(object["b"] == 20)
}

/// The writer skips plain text eight bytes at a time and writes integers digit by digit; these hold both to their
/// definitions.
@Suite("JSON written on bytes reads as its definition")
struct JSONWriterDefinitionTests {
    /// A string literal escaped scalar by scalar: quote, backslash and the short escapes; other controls below 20,
    /// DEL, U+2028 and U+2029 as \uXXXX; everything else as it is.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x08: result += "\\b"
            case 0x0C: result += "\\f"
            case 0x00..<0x20, 0x7F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    @Test("random text, with every byte that needs a look at each place of an eight-byte word")
    func randomText() {
        var random = SeededRandom(seed: 0x7E47)
        let pieces = [
            "abcdefgh", "a", "é", "€", "\u{2027}", "\u{2028}", "\u{2029}", "\"", "\\", "\n", "\u{1}", "\u{1F}",
            "\u{7F}",
            "\u{80}", " ", "~", "漢", "😀", "\t",
        ]
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 10) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            var bytes: [UInt8] = []
            JSONWriter.appendQuoted(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == Self.quoted(text), "\(text.debugDescription)")
        }
    }

    @Test("eight bytes at a time: every byte value in every place of a word")
    func everyByteInEveryPlace() {
        let plain: UInt64 = 0x4142_4344_4546_4748
        for value in UInt64(0)...0xFF {
            let needsLook = value < 0x20 || value == 0x22 || value == 0x5C || value == 0x7F || value == 0xE2
            for byte in 0..<8 {
                let word = plain & ~(0xFF << UInt64(byte * 8)) | value << UInt64(byte * 8)
                #expect(JSONWriter.mayNeedEscape(word) == needsLook, "\(value) at \(byte)")
            }
        }
    }

    @Test(
        "integers as String writes them",
        arguments: [0, 1, -1, 9, 10, -10, 99, 1_000_000, Int.max, Int.min, Int.min + 1])
    func integers(number: Int) {
        var bytes: [UInt8] = []
        JSONWriter.appendInt(number, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == String(number))
    }

    @Test("random integers")
    func randomIntegers() {
        var random = SeededRandom(seed: 0x1A7)
        for _ in 0..<10_000 {
            let number = Int(bitPattern: UInt(random.next() >> (random.next() % 64)))
            var bytes: [UInt8] = []
            JSONWriter.appendInt(number, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(number))
        }
    }
}
