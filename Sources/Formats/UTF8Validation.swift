// MARK: - UTF-8 validation

/// Strict UTF-8 validation over raw bytes, shared by the CSV and JSON readers.
///
/// Rejects overlong forms, surrogate code points (U+D800...U+DFFF), code points above U+10FFFF,
/// stray continuation bytes and truncated sequences.
enum UTF8Validation {
    /// Returns the offset of the first byte of the first invalid sequence in `bytes[start..<end]`, or nil when
    /// the range is valid UTF-8.
    ///
    ///     UTF8Validation.firstInvalidOffset(in: buffer, from: 0, to: buffer.count)  // nil for valid text
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            var trailing = 0
            var secondLow: UInt8 = 0x80
            var secondHigh: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF:
                trailing = 1
            case 0xE0:
                trailing = 2
                secondLow = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF:
                trailing = 2
            case 0xED:
                trailing = 2
                secondHigh = 0x9F
            case 0xF0:
                trailing = 3
                secondLow = 0x90
            case 0xF1...0xF3:
                trailing = 3
            case 0xF4:
                trailing = 3
                secondHigh = 0x8F
            default:
                return index
            }
            if index + trailing >= end { return index }
            let second = bytes[index + 1]
            if second < secondLow || second > secondHigh { return index }
            var offset = 2
            while offset <= trailing {
                if bytes[index + offset] & 0xC0 != 0x80 { return index }
                offset += 1
            }
            index += trailing + 1
        }
        return nil
    }
}

// MARK: - Text positions

/// Turns a byte offset into a 1-based line and column, counting LF as the line break and characters (Unicode scalars,
/// as editors count them), not bytes, along the line: in `"Пушкин",]` the `]` after the trailing comma is column 10, not byte 16.
///
///     TextPosition(of: 5, in: buffer, bomLength: 0)  // line 1, column 6 when the buffer has no LF before it
struct TextPosition {
    /// The 1-based physical line.
    var line: Int
    /// The 1-based column within the line, in Unicode scalars (a byte of invalid UTF-8 counts as one).
    var column: Int

    /// Computes the position of `offset`. Runs in O(offset); used only when reporting errors.
    init(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>, bomLength: Int) {
        var line = 1
        var lineStart = 0
        var index = 0
        let limit = min(offset, bytes.count)
        while index < limit {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        if line == 1 { lineStart = min(bomLength, offset) }
        self.line = line
        // Every byte but a UTF-8 continuation byte (10xxxxxx) starts a scalar.
        var column = 1
        for index in lineStart..<max(lineStart, limit) where bytes[index] & 0xC0 != 0x80 { column += 1 }
        self.column = column
    }
}

/// The length of a UTF-8 byte order mark at the start of `bytes`: 3 when present, otherwise 0.
///
///     utf8BOMLength(buffer)  // 3 for EF BB BF ...
func utf8BOMLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { return 3 }
    return 0
}
