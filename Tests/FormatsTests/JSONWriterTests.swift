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
