/// Writes JSON text: correctly escaped strings and whole values, compact or indented.
///
/// Strings escape `"` and `\`, write `\n`, `\r`, `\t`, `\b`, `\f` in their short forms and every other control
/// character below U+0020 as `\u00XX`; all other text, including non-ASCII, passes through as UTF-8. Non-finite
/// doubles (which ``JSONParser`` never produces) are written as `null`. Object members keep their order.
///
/// For example:
///
///     JSONWriter.quoted("say \"hi\"\n")                  // "\"say \\\"hi\\\"\\n\""
///     JSONWriter.string(from: ["title": "Dune", "year": 1965])  // {"title":"Dune","year":1965}
public enum JSONWriter {
    // MARK: - Strings

    /// Returns `string` as a quoted, escaped JSON string literal.
    ///
    ///     JSONWriter.quoted("a\u{1}b")  // "\"a\\u0001b\""
    public static func quoted(_ string: String) -> String {
        var output = ""
        appendQuoted(string, to: &output)
        return output
    }

    /// Appends `string` as a quoted, escaped JSON string literal to `output`.
    ///
    ///     var json = "{\"title\":"
    ///     JSONWriter.appendQuoted("Dune", to: &json)
    public static func appendQuoted(_ string: String, to output: inout String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        appendQuoted(string, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a quoted, escaped JSON string literal to a UTF-8 byte buffer.
    ///
    ///     var bytes: [UInt8] = []
    ///     JSONWriter.appendQuoted("Dune", to: &bytes)
    public static func appendQuoted(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied whole; the first run is found eight bytes at a time.
            let count = bytes.count
            var runStart = 0
            var index = 0
            if let base = bytes.baseAddress {
                while index + 8 <= count,
                    !mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                {
                    index += 8
                }
            }
            while index < count {
                let byte = bytes[index]
                if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F && byte != 0xE2 {
                    index += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                switch byte {
                case 0xE2:
                    // U+2028 and U+2029 are valid in JSON but end lines in JavaScript source: escape them too.
                    if index + 1 < count, bytes[index] == 0x80, bytes[index + 1] == 0xA8 || bytes[index + 1] == 0xA9 {
                        output.append(contentsOf: (bytes[index + 1] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                        index += 2
                    } else {
                        output.append(byte)
                    }
                case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                default:
                    output.append(contentsOf: "\\u00".utf8)
                    output.append(hexDigit(byte >> 4))
                    output.append(hexDigit(byte & 0x0F))
                }
                runStart = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
        }
        output.append(UInt8(ascii: "\""))
    }

    // MARK: - Values

    /// Returns `value` as JSON text; `indent` > 0 puts members and elements on their own lines.
    ///
    ///     JSONWriter.string(from: [1, 2])             // [1,2]
    ///     JSONWriter.string(from: [1, 2], indent: 2)  // "[\n  1,\n  2\n]"
    public static func string(from value: JSONValue, indent: Int = 0) -> String {
        var bytes: [UInt8] = []
        write(value, indent: indent, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` as JSON text to a UTF-8 byte buffer.
    ///
    ///     var bytes: [UInt8] = []
    ///     JSONWriter.write(["a": true], to: &bytes)
    public static func write(_ value: JSONValue, indent: Int = 0, to output: inout [UInt8]) {
        write(value, indent: indent, level: 0, to: &output)
    }

    // MARK: - Private

    /// `value` written as the element of a container `level` deep (its own elements one level deeper).
    ///
    /// Iterative, with the open arrays and objects on a stack of its own, so a deeply nested value (as deep as
    /// `JSONParser.maximumDepth`, or deeper when built by hand) never overflows the call stack.
    static func write(_ value: JSONValue, indent: Int, level: Int, to output: inout [UInt8]) {
        var open: [OpenContainer] = []
        var next: JSONValue? = value
        while true {
            if let value = next {
                next = nil
                switch value {
                case .null: output.append(contentsOf: "null".utf8)
                case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
                case .int(let number): appendInt(number, to: &output)
                case .double(let number):
                    output.append(contentsOf: Array((number.isFinite ? number.description : "null").utf8))
                case .string(let text): appendQuoted(text, to: &output)
                case .array(let elements):
                    output.append(UInt8(ascii: "["))
                    if elements.isEmpty {
                        output.append(UInt8(ascii: "]"))
                    } else {
                        open.append(.array(elements, next: 0))
                    }
                case .object(let object):
                    output.append(UInt8(ascii: "{"))
                    if object.isEmpty {
                        output.append(UInt8(ascii: "}"))
                    } else {
                        open.append(.object(object.members, next: 0))
                    }
                }
            }
            // The next element of the innermost open container, or its end.
            guard let container = open.popLast() else { return }
            switch container {
            case .array(let elements, let index) where index < elements.count:
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent: indent, level: level + open.count + 1, to: &output)
                next = elements[index]
                open.append(.array(elements, next: index + 1))
            case .object(let members, let index) where index < members.count:
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent: indent, level: level + open.count + 1, to: &output)
                appendQuoted(members[index].key, to: &output)
                output.append(UInt8(ascii: ":"))
                if indent > 0 { output.append(UInt8(ascii: " ")) }
                next = members[index].value
                open.append(.object(members, next: index + 1))
            case .array:
                newline(indent: indent, level: level + open.count, to: &output)
                output.append(UInt8(ascii: "]"))
            case .object:
                newline(indent: indent, level: level + open.count, to: &output)
                output.append(UInt8(ascii: "}"))
            }
        }
    }

    /// An array or object being written, and the position of its next element or member.
    private enum OpenContainer {
        case array([JSONValue], next: Int)
        case object([JSONObject.Member], next: Int)
    }

    private static func newline(indent: Int, level: Int, to output: inout [UInt8]) {
        guard indent > 0 else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    /// Appends the decimal digits of `number` (with "-" when negative), as `String(number)` writes them.
    ///
    ///     JSONWriter.appendInt(-42, to: &bytes)  // "-42"
    public static func appendInt(_ number: Int, to output: inout [UInt8]) {
        // At most 20 bytes: "-9223372036854775808".
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = number.magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// Whether any of the eight bytes of `word` is one `appendQuoted` looks at: below 20, a quote, a backslash,
    /// DEL, or E2 (which starts U+2028 and U+2029). `(x - 0x20...) & ~x & 0x80...` marks a byte below 20 (and no
    /// byte from 80 marks itself, as `~x` clears its high bit); a byte equal to `c` is a zero byte of `x ^ c`.
    ///
    ///     JSONWriter.mayNeedEscape(0x4142_4344_4546_4748)  // false: "ABCDEFGH"
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let below20 = (word &- ones &* 0x20) & ~word & highs
        return below20 | zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x5C))
            | zeroByte(word ^ (ones &* 0x7F)) | zeroByte(word ^ (ones &* 0xE2)) != 0
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
