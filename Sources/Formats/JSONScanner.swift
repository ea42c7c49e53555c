/// The byte-level JSON parser behind ``JSONParser``, ``JSONLinesReader`` and ``JSONRecords``.
///
/// It is iterative (an explicit stack, not recursion), so deeply nested input throws
/// ``JSONError/Reason/nestingTooDeep(limit:)`` instead of overflowing the call stack.
///
///     var scanner = JSONScanner(buffer: buffer, from: 0, to: buffer.count, maxDepth: 512, bomLength: 0)
///     let value = try scanner.parseDocument()
struct JSONScanner {
    let buffer: UnsafeBufferPointer<UInt8>
    var pos: Int
    let end: Int
    let maxDepth: Int
    let bomLength: Int
    private var scratch: [UInt8] = []

    init(buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, maxDepth: Int, bomLength: Int) {
        self.buffer = buffer
        self.pos = start
        self.end = end
        self.maxDepth = Self.clamped(maxDepth)
        self.bomLength = bomLength
    }

    /// A caller's nesting limit within `0...JSONParser.maximumDepth` (see ``JSONParser``).
    static func clamped(_ maxDepth: Int) -> Int {
        min(max(maxDepth, 0), JSONParser.maximumDepth)
    }

    // MARK: - Documents and values

    /// Parses exactly one value surrounded by optional whitespace, up to `end`.
    mutating func parseDocument() throws -> JSONValue {
        skipWhitespace()
        guard pos < end else { throw error(.emptyInput, at: pos) }
        let value = try parseValue()
        skipWhitespace()
        guard pos == end else { throw error(.trailingCharacters, at: pos) }
        return value
    }

    /// Parses one value starting at the next non-whitespace byte, leaving `pos` just after it.
    mutating func parseValue() throws -> JSONValue {
        var kinds: [Bool] = []  // true: object, false: array
        var arrays: [[JSONValue]] = []
        var objects: [JSONObject] = []
        var keys: [(key: String, offset: Int)] = []
        parsing: while true {
            skipWhitespace()
            guard pos < end else { throw error(.unexpectedEnd, at: pos) }
            var value: JSONValue
            switch buffer[pos] {
            case UInt8(ascii: "{"):
                guard kinds.count < maxDepth else { throw error(.nestingTooDeep(limit: maxDepth), at: pos) }
                pos += 1
                skipWhitespace()
                if pos < end && buffer[pos] == UInt8(ascii: "}") {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    keys.append(try parseKey())
                    kinds.append(true)
                    objects.append(JSONObject())
                    continue parsing
                }
            case UInt8(ascii: "["):
                guard kinds.count < maxDepth else { throw error(.nestingTooDeep(limit: maxDepth), at: pos) }
                pos += 1
                skipWhitespace()
                if pos < end && buffer[pos] == UInt8(ascii: "]") {
                    pos += 1
                    value = .array([])
                } else {
                    kinds.append(false)
                    arrays.append([])
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case let byte:
                throw error(.unexpectedCharacter(describe(byte)), at: pos)
            }
            // Attach the finished value to the open containers, closing those that end here.
            while let isObject = kinds.last {
                if isObject {
                    let (key, offset) = keys.removeLast()
                    guard objects[objects.count - 1].insertNew(key: key, value: value) else {
                        throw error(.duplicateKey(key), at: offset)
                    }
                } else {
                    arrays[arrays.count - 1].append(value)
                }
                skipWhitespace()
                guard pos < end else { throw error(.unexpectedEnd, at: pos) }
                let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let byte = buffer[pos]
                if byte == UInt8(ascii: ",") {
                    pos += 1
                    skipWhitespace()
                    if pos < end && buffer[pos] == closing { throw error(.trailingComma, at: pos) }
                    if isObject { keys.append(try parseKey()) }
                    continue parsing
                }
                guard byte == closing else {
                    throw error(.expectedCommaOr(isObject ? "}" : "]"), at: pos)
                }
                pos += 1
                kinds.removeLast()
                value = isObject ? .object(objects.removeLast()) : .array(arrays.removeLast())
            }
            return value
        }
    }

    /// Skips JSON whitespace: space, tab, line feed, carriage return.
    mutating func skipWhitespace() {
        while pos < end {
            let byte = buffer[pos]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            pos += 1
        }
    }

    /// An error located at a byte offset of the whole buffer.
    func error(_ reason: JSONError.Reason, at offset: Int) -> JSONError {
        let position = TextPosition(of: offset, in: buffer, bomLength: bomLength)
        return JSONError(line: position.line, column: position.column, reason: reason)
    }

    // MARK: - Private

    private mutating func parseKey() throws -> (key: String, offset: Int) {
        guard pos < end else { throw error(.unexpectedEnd, at: pos) }
        guard buffer[pos] == UInt8(ascii: "\"") else { throw error(.expectedKey, at: pos) }
        let offset = pos
        let key = try parseString()
        skipWhitespace()
        guard pos < end else { throw error(.unexpectedEnd, at: pos) }
        guard buffer[pos] == UInt8(ascii: ":") else { throw error(.expectedColon, at: pos) }
        pos += 1
        return (key, offset)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let start = pos
        for index in 0..<literal.utf8CodeUnitCount {
            guard pos < end else { throw error(.unexpectedEnd, at: pos) }
            guard buffer[pos] == literal.utf8Start[index] else { throw error(.invalidLiteral, at: start) }
            pos += 1
        }
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = pos
        let negative = buffer[pos] == UInt8(ascii: "-")
        if negative { pos += 1 }
        guard pos < end, isDigit(buffer[pos]) else { throw error(.invalidNumber, at: start) }
        if buffer[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end && isDigit(buffer[pos]) { throw error(.leadingZero, at: start) }
        } else {
            while pos < end && isDigit(buffer[pos]) { pos += 1 }
        }
        var integral = true
        if pos < end && buffer[pos] == UInt8(ascii: ".") {
            integral = false
            pos += 1
            guard pos < end, isDigit(buffer[pos]) else { throw error(.invalidNumber, at: start) }
            while pos < end && isDigit(buffer[pos]) { pos += 1 }
        }
        if pos < end && (buffer[pos] == UInt8(ascii: "e") || buffer[pos] == UInt8(ascii: "E")) {
            integral = false
            pos += 1
            if pos < end && (buffer[pos] == UInt8(ascii: "+") || buffer[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard pos < end, isDigit(buffer[pos]) else { throw error(.invalidNumber, at: start) }
            while pos < end && isDigit(buffer[pos]) { pos += 1 }
        }
        if integral {
            var value = 0
            var overflow = false
            for index in (negative ? start + 1 : start)..<pos where !overflow {
                let digit = Int(buffer[index] &- UInt8(ascii: "0"))
                var carry = false
                (value, overflow) = value.multipliedReportingOverflow(by: 10)
                (value, carry) =
                    negative ? value.subtractingReportingOverflow(digit) : value.addingReportingOverflow(digit)
                overflow = overflow || carry
            }
            if !overflow {
                return negative && value == 0 ? .double(-0.0) : .int(value)
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<pos]), as: UTF8.self)
        guard let value = Double(text) else { throw error(.invalidNumber, at: start) }
        guard value.isFinite else { throw error(.numberOutOfRange, at: start) }
        return .double(value)
    }

    private mutating func parseString() throws -> String {
        let opening = pos
        pos += 1
        let start = pos
        var escaped = false
        while true {
            guard pos < end else { throw error(.unterminatedString, at: opening) }
            let byte = buffer[pos]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                pos += 2
                continue
            }
            if byte < 0x20 { throw error(.controlCharacterInString, at: pos) }
            pos += 1
        }
        let stop = pos
        pos += 1
        if let bad = UTF8Validation.firstInvalidOffset(in: buffer, from: start, to: stop) {
            throw error(.invalidUTF8, at: bad)
        }
        guard escaped else {
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<stop]), as: UTF8.self)
        }
        return try unescape(from: start, to: stop)
    }

    private mutating func unescape(from start: Int, to stop: Int) throws -> String {
        scratch.removeAll(keepingCapacity: true)
        var index = start
        var runStart = start
        while index < stop {
            guard buffer[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
            let escape = buffer[index + 1]
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad(at: index + 2, stop: stop)
                if (0xDC00...0xDFFF).contains(scalar) { throw error(.unpairedSurrogate, at: index) }
                if (0xD800...0xDBFF).contains(scalar) {
                    let next = index + 6
                    guard next + 1 < stop && buffer[next] == UInt8(ascii: "\\") && buffer[next + 1] == UInt8(ascii: "u")
                    else { throw error(.unpairedSurrogate, at: index) }
                    let low = try hexQuad(at: next + 2, stop: stop)
                    guard (0xDC00...0xDFFF).contains(low) else { throw error(.unpairedSurrogate, at: index) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                appendUTF8(scalar)
                index += 4
            default:
                throw error(.invalidEscape, at: index)
            }
            index += 2
            runStart = index
        }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<stop]))
        return scratch.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    private func hexQuad(at start: Int, stop: Int) throws -> UInt32 {
        guard start + 4 <= stop else { throw error(.invalidUnicodeEscape, at: start - 2) }
        var value: UInt32 = 0
        for index in start..<start + 4 {
            let byte = buffer[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidUnicodeEscape, at: start - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

/// A printable description of a byte for error messages: `'x'` or `byte 0x1F`.
private func describe(_ byte: UInt8) -> String {
    if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
}
