import Formats
import Foundation
import Testing

@Suite struct JSONDocumentWritingTests {
    @Test func escapesStrings() {
        #expect(JSONWriter.quoted("plain") == #""plain""#)
        #expect(JSONWriter.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONWriter.quoted("\n\r\t\u{8}\u{C}") == #""\n\r\t\b\f""#)
        #expect(JSONWriter.quoted("\u{0}\u{1B}\u{1F}\u{7F}") == #""\u0000\u001B\u001F\u007F""#)
        #expect(JSONWriter.quoted("\u{2028}\u{2029}") == #""\u2028\u2029""#)
        #expect(JSONWriter.quoted("é中😀") == "\"é中😀\"")
        #expect(JSONWriter.quoted("/") == #""/""#)
    }

    @Test func writesNumbers() {
        #expect(JSONValue.double(0.5).serialized(pretty: false) == "0.5")
        #expect(JSONValue.double(3).serialized(pretty: false) == "3.0")
        #expect(JSONValue.double(-2.25).serialized(pretty: false) == "-2.25")
        #expect(JSONValue.double(1e300).serialized(pretty: false) == "1e+300")
        #expect(JSONValue.double(.infinity).serialized(pretty: false) == "null")
        #expect(JSONValue.double(-.infinity).serialized(pretty: false) == "null")
        #expect(JSONValue.double(.nan).serialized(pretty: false) == "null")
        #expect(
            JSONValue.array([.int(Int.min), .int(Int.max)]).serialized(pretty: false)
                == "[-9223372036854775808,9223372036854775807]")
    }

    @Test func writesCompactAndPretty() {
        let value: JSONValue = ["b": 1, "a": [true, nil, "x"], "empty": [:], "none": []]
        #expect(value.serialized(pretty: false) == #"{"b":1,"a":[true,null,"x"],"empty":{},"none":[]}"#)
        #expect(
            value.serialized(pretty: true) == """
                {
                  "b": 1,
                  "a": [
                    true,
                    null,
                    "x"
                  ],
                  "empty": {},
                  "none": []
                }
                """)
    }

    @Test func roundTripsThroughJSONSerialization() throws {
        let text = "ESC \u{1B} NUL \u{0} quote \" backslash \\ emoji 👨‍👩‍👧 🇺🇦 Arabic ألف line\u{2028}sep \u{10FFFF}"
        let value: JSONValue = ["text": .string(text), "numbers": [0.1, 1e-7, -0.0, 12], "flag": false]
        for pretty in [true, false] {
            let data = Data(value.serialized(pretty: pretty).utf8)
            let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(parsed["text"] as? String == text)
            let numbers = try #require(parsed["numbers"] as? [Double])
            #expect(numbers == [0.1, 1e-7, 0, 12])
            #expect(parsed["flag"] as? Bool == false)
        }
    }
}
