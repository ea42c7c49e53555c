/// Bytes on their way to a terminal with the controls that could act on it replaced by U+FFFD: ESC, the other C0
/// controls but tab, newline and carriage return, DEL and the C1 controls (U+0080–U+009F, which some terminals take
/// as CSI and OSC). For an export written to a terminal, whose text is kept as stored, so that a title stored with an
/// escape sequence (by another program, or before librarycli refused them) cannot retitle the window or move the
/// cursor. Chunks may split a character: a lead byte at a chunk's end waits for the next chunk.
///
/// For example:
///
///     var safe = TerminalSafeBytes()
///     let shown = safe.cleaned(Array("T\u{1B}]0;x\u{07}".utf8))  // "T�]0;x�"
///     print(safe.replaced)  // 2
struct TerminalSafeBytes {
    /// How many controls were replaced so far.
    private(set) var replaced = 0
    /// A 0xC2 lead byte from the end of the last chunk, not written yet.
    private var pendingLead = false

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The chunk with its controls replaced (a 0xC2 at its end is held back for the next chunk or `finish`).
    mutating func cleaned(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + (pendingLead ? 1 : 0))
        var index = 0
        if pendingLead {
            pendingLead = false
            if let first = bytes.first, (0x80...0x9F).contains(first) {
                result += Self.replacement
                replaced += 1
                index = 1
            } else if bytes.isEmpty {
                pendingLead = true
                return []
            } else {
                result.append(0xC2)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x09, 0x0A, 0x0D:
                result.append(byte)
            case 0x00...0x1F, 0x7F:
                result += Self.replacement
                replaced += 1
            case 0xC2:
                if index + 1 == bytes.count {
                    pendingLead = true
                } else if (0x80...0x9F).contains(bytes[index + 1]) {
                    result += Self.replacement
                    replaced += 1
                    index += 1
                } else {
                    result.append(byte)
                }
            default:
                result.append(byte)
            }
            index += 1
        }
        return result
    }

    /// What is still held back at the end of the output.
    mutating func finish() -> [UInt8] {
        defer { pendingLead = false }
        return pendingLead ? [0xC2] : []
    }
}
