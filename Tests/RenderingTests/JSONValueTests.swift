import Foundation
import Rendering
import Testing

@Suite struct JSONValueTests {
    @Test func escapesStrings() {
        #expect(JSONValue.quoted("plain") == #""plain""#)
        #expect(JSONValue.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONValue.quoted("\n\r\t\u{8}\u{C}") == #""\n\r\t\b\f""#)
        #expect(JSONValue.quoted("\u{0}\u{1B}\u{1F}\u{7F}") == #""\u0000\u001b\u001f\u007f""#)
        #expect(JSONValue.quoted("\u{2028}\u{2029}") == #""\u2028\u2029""#)
        #expect(JSONValue.quoted("é中😀") == "\"é中😀\"")
        #expect(JSONValue.quoted("/") == #""/""#)
    }

    @Test func writesNumbers() {
        #expect(JSONValue.number(0.5) == "0.5")
        #expect(JSONValue.number(3) == "3.0")
        #expect(JSONValue.number(-2.25) == "-2.25")
        #expect(JSONValue.number(1e300) == "1e+300")
        #expect(JSONValue.number(.infinity) == "null")
        #expect(JSONValue.number(-.infinity) == "null")
        #expect(JSONValue.number(.nan) == "null")
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
