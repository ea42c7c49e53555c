import Testing

@testable import Formats

@Suite("JSONTextWriter writes what JSONWriter writes for the same value")
struct JSONTextWriterTests {
    /// Writes `value` through the streaming writer's calls, as a renderer would.
    static func stream(_ value: JSONValue, into json: inout JSONTextWriter, depth: Int = 0) {
        switch value {
        case .array(let elements):
            json.beginArray()
            for element in elements { stream(element, into: &json, depth: depth + 1) }
            json.endArray()
        case .object(let object):
            json.beginObject()
            for member in object.members {
                json.key(member.key)
                // Every other level is handed over whole, so both ways of writing a value are exercised.
                if depth % 2 == 1 {
                    json.value(member.value)
                } else {
                    stream(member.value, into: &json, depth: depth + 1)
                }
            }
            json.endObject()
        case .string(let text): json.string(text)
        case .int(let number): json.int(number)
        case .bool(let flag): json.bool(flag)
        default: json.value(value)
        }
    }

    /// A random value of the shapes documents have: nested objects and arrays, empty ones, escapes, numbers.
    static func randomValue(_ random: inout SeededRandom, depth: Int = 0) -> JSONValue {
        let strings = ["", "Dune", "say \"hi\"\n", "Фёдор", "tab\there", "\u{1}", "a\u{2028}b"]
        switch random.next(below: depth > 3 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(random.next(below: 2) == 0)
        case 2: return .int(random.next(below: 2_000) - 1_000)
        case 3: return .double(Double(random.next(below: 1_000)) / 8)
        case 4, 5: return .string(strings[random.next(below: strings.count)])
        case 6:
            return .array((0..<random.next(below: 4)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            let count = random.next(below: 4)
            return .object(
                members: (0..<count).map { index in ("k\(index)", randomValue(&random, depth: depth + 1)) })
        }
    }

    @Test("random documents, compact and indented")
    func sameTextAsJSONWriter() {
        var random = SeededRandom(seed: 42)
        for _ in 0..<500 {
            let value = Self.randomValue(&random)
            for indent in [0, 2, 4] {
                var json = JSONTextWriter(indent: indent)
                Self.stream(value, into: &json)
                var expected: [UInt8] = []
                JSONWriter.write(value, indent: indent, to: &expected)
                #expect(
                    String(decoding: json.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                    "indent \(indent): \(value)")
            }
        }
    }

    @Test("text written before is copied as it is, in place of a value")
    func writtenFragments() {
        var json = JSONTextWriter()
        json.beginObject()
        json.key("screen")
        json.written(Array(#"{"version":1}"#.utf8))
        json.key("list")
        json.beginArray()
        json.written(Array("[]".utf8))
        json.written(Array("2".utf8))
        json.endArray()
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"screen":{"version":1},"list":[[],2]}"#)
    }
}

/// SplitMix64: the same values on every run.
struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

@Test("a key made once writes what the same name writes", arguments: [0, 2])
func keysMadeOnceWriteAsNames(indent: Int) {
    for name in ["title", "", "a\"b", "back\\slash", "line\nbreak", "é", "\u{2028}", "minimumItemWidth"] {
        var byName = JSONTextWriter(indent: indent)
        var byKey = JSONTextWriter(indent: indent)
        for writer in [0, 1] {
            func write(_ json: inout JSONTextWriter) {
                json.beginObject()
                if writer == 0 { json.key(name) } else { json.key(JSONTextWriter.Key(name)) }
                json.int(1)
                if writer == 0 { json.key(name) } else { json.key(JSONTextWriter.Key(name)) }
                json.string("x")
                json.endObject()
            }
            if writer == 0 { write(&byName) } else { write(&byKey) }
        }
        #expect(byKey.bytes == byName.bytes, "\(name.debugDescription)")
    }
}
