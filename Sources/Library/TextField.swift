import Formats

/// A text value the library keeps, with its length limit and the characters it may hold, defined once for the
/// store, the command line and imports.
///
/// Lengths count characters as Unicode code points (so a million combining accents on one letter is a million).
/// No field may hold a control character (C0, DEL or C1), a line or paragraph separator, or a bidirectional
/// embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069: an override can make "gnp.exe" read
/// "exe.png"), except that a description keeps its tabs and line breaks (tab, LF, CR): it may be several paragraphs
/// long. The implicit marks that right-to-left text needs (LRM U+200E, RLM U+200F, ALM U+061C) are allowed.
///
/// ```swift
/// try TextField.name.check("Ada Lovelace")        // fine
/// try TextField.title.check("Dune\u{1B}[31m")     // throws: a control character (U+001B) at character 5
/// try TextField.title.check("Evil \u{202E}gnp.exe") // throws: a bidirectional control (U+202E) at character 6
/// TextField.title.maxLength                        // 500
/// ```
public enum TextField: String, Sendable, Hashable, CaseIterable {
    /// A client's name.
    case name
    /// A library card number.
    case cardNumber
    /// A book's title.
    case title
    /// A book's author or authors.
    case author
    /// A book's description.
    case description
    /// A book's ISBN (as kept; imports and the command line keep ISBN-13 digits).
    case isbn
    /// An access token's label ("Ann's phone"), which says what the token is for (`tokens.label`).
    case tokenLabel

    /// The most characters (Unicode code points) the field may hold, after trimming.
    ///
    /// ```swift
    /// TextField.description.maxLength  // 4000
    /// ```
    public var maxLength: Int {
        switch self {
        case .name: 200
        case .cardNumber: 100
        case .title: 500
        case .author: 1_000
        case .description: 4_000
        case .isbn: 32
        case .tokenLabel: 200
        }
    }

    /// How the field is named in messages: "name", "card number", "title", "author", "description", "ISBN".
    ///
    /// ```swift
    /// TextField.cardNumber.label  // "card number"
    /// ```
    public var label: String {
        switch self {
        case .cardNumber: "card number"
        case .isbn: "ISBN"
        case .tokenLabel: "label"
        default: rawValue
        }
    }

    /// Whether tabs and line breaks (LF, CR) are kept: only in a description.
    ///
    /// ```swift
    /// TextField.description.allowsLineBreaks  // true
    /// ```
    public var allowsLineBreaks: Bool { self == .description }

    /// Throws `TextFieldProblem` when `text` is too long or holds a character the field may not hold.
    ///
    /// ```swift
    /// try TextField.author.check(String(repeating: "a", count: 1_001))
    /// // throws: "the author is 1001 characters long; at most 1000 are allowed"
    /// ```
    public func check(_ text: String) throws(TextFieldProblem) {
        if passesOnBytes(text) { return }
        let count = try checkCharacters(text)
        try checkLength(count)
        // Only whitespace is left to the caller, who trims it (an empty value is refused or left out there).
        if count > 0 && Self.isBlank(text) && text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) {
            throw TextFieldProblem(field: self, reason: "the \(label) has no visible character")
        }
    }

    /// Whether `text` shows nothing: it holds only whitespace, default-ignorable code points (zero-width spaces and
    /// joiners, variation selectors, U+FEFF), Hangul fillers, or combining marks with no base to sit on. A required
    /// field that is blank is empty ("A book's title cannot be empty."); `check` refuses any other blank value that
    /// is not only whitespace ("the author has no visible character").
    ///
    /// ```swift
    /// TextField.isBlank("\u{200B}")       // true
    /// TextField.isBlank(" \u{0301}\u{FE0F}")  // true
    /// TextField.isBlank("e\u{0301}")      // false
    /// ```
    public static func isBlank(_ text: String) -> Bool {
        // The usual text: a visible ASCII character settles it without looking at code points.
        if text.utf8.contains(where: { (0x21...0x7E).contains($0) }) { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            let properties = scalar.properties
            switch scalar.value {
            case 0x115F, 0x1160, 0x3164, 0xFFA0: return true  // Hangul fillers
            default: break
            }
            if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return true }
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .control, .format: return true
            default: return false
            }
        }
    }

    /// Throws `TextFieldProblem` when `text` holds a character the field may not hold, whatever its length (for a
    /// value parsed further, such as an ISBN, whose other faults have words of their own); returns its length in
    /// code points.
    ///
    /// ```swift
    /// try TextField.isbn.checkCharacters("978\u{202E}0439023481")
    /// // throws: "the ISBN holds a bidirectional control (U+202E) at character 4"
    /// ```
    @discardableResult
    public func checkCharacters(_ text: String) throws(TextFieldProblem) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if isRefused(scalar) {
                let what = "\(Self.kind(of: scalar)) (\(Self.codePoint(scalar)))"
                throw TextFieldProblem(field: self, reason: "the \(label) holds \(what) at character \(count)")
            }
        }
        return count
    }

    /// The text without leading and trailing whitespace, checked as `check` does but for a value that shows nothing,
    /// which the store refuses ("A book's title cannot be empty."): what the store keeps.
    ///
    /// ```swift
    /// try TextField.name.checked("  Ada Lovelace ")  // "Ada Lovelace"
    /// ```
    public func checked(_ text: String) throws(TextFieldProblem) -> String {
        let value = trimmed(text)
        // A value that shows nothing is the store's to refuse, as empty where the field is required.
        if passesOnBytes(value) { return value }
        let count = try checkCharacters(value)
        try checkLength(count)
        return value
    }

    // MARK: - Private

    private func checkLength(_ count: Int) throws(TextFieldProblem) {
        if count > maxLength {
            throw TextFieldProblem(
                field: self, reason: "the \(label) is \(count) characters long; at most \(maxLength) are allowed")
        }
    }

    /// Whether `check` passes, decided on the UTF-8 bytes for the usual text: a code point is a byte that is not a
    /// continuation byte (80–BF), and no refused one is there: no byte below 20 or 7F, no C1 control (C2 80–9F), no
    /// line or paragraph separator or bidirectional embedding or override (E2 80 A8–AE), no bidirectional isolate
    /// (E2 81 A6–A9); and something visible is there, so that the text is not blank: a visible ASCII character, or a
    /// code point whose lead byte holds only visible ones (C3–CB: Latin letters and spacing modifiers, D0–D1:
    /// Cyrillic, E4–E9: CJK ideographs). `false` for anything else, which the scalar-by-scalar path then decides (and
    /// words the problem).
    private func passesOnBytes(_ text: String) -> Bool {
        let limit = maxLength
        let passes = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            // Printable ASCII, eight bytes at a time: one code point a byte.
            if bytes.count <= limit && Self.isPrintableASCII(bytes) { return true }
            var count = 0
            var index = 0
            var seesVisible = false
            let end = bytes.count
            while index < end {
                let byte = bytes[index]
                if byte < 0x80 {
                    if byte < 0x20 || byte == 0x7F { return false }
                    if byte != 0x20 { seesVisible = true }
                } else if byte < 0xC0 {
                    index += 1
                    continue
                } else if (0xC3...0xCB).contains(byte) || byte == 0xD0 || byte == 0xD1 || (0xE4...0xE9).contains(byte) {
                    seesVisible = true
                } else if byte == 0xC2 {
                    if index + 1 < end && bytes[index + 1] < 0xA0 { return false }
                } else if byte == 0xE2 && index + 2 < end {
                    let second = bytes[index + 1]
                    let third = bytes[index + 2]
                    if second == 0x80 && (0xA8...0xAE).contains(third) { return false }
                    if second == 0x81 && (0xA6...0xA9).contains(third) { return false }
                }
                count += 1
                index += 1
            }
            // Text with nothing known to be visible may show nothing: the scalar path decides (`isBlank`).
            return count <= limit && seesVisible
        }
        return passes ?? false
    }

    /// Whether every byte is printable ASCII (20–7E), decided eight bytes at a time: `(x - 0x20...) & ~x & 0x80...`
    /// marks a byte below 20 (and `x` itself a byte from 80), and a 7F is a zero byte of `x ^ 0x7F...`.
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let deleted = word ^ (ones &* 0x7F)
            if (word | ((word &- ones &* 0x20) & ~word) | ((deleted &- ones) & ~deleted)) & highs != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x7F { return false }
            index += 1
        }
        return true
    }

    private func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: !allowsLineBreaks
        default: ControlCharacter(scalar) != nil
        }
    }

    /// What a refused code point is, for the reason: "a control character", "a line separator", "a paragraph
    /// separator", "a bidirectional control".
    private static func kind(of scalar: Unicode.Scalar) -> String {
        (ControlCharacter(scalar) ?? .control).name
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// Why a text value cannot be kept: its field and a plain reason.
///
/// ```swift
/// do { try TextField.name.check("Ann\n") } catch { print(error.reason) }
/// // "the name holds a control character (U+000A) at character 4"
/// ```
public struct TextFieldProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field.
    public var field: TextField
    /// What is wrong, in plain words (starting in lower case).
    public var reason: String

    /// Creates a problem.
    ///
    /// ```swift
    /// TextFieldProblem(field: .title, reason: "the title is too long")
    /// ```
    public init(field: TextField, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// The reason as a sentence: "The title is 600 characters long; at most 500 are allowed."
    ///
    /// ```swift
    /// print(problem.sentence)
    /// ```
    public var sentence: String { reason.prefix(1).uppercased() + reason.dropFirst() + "." }

    /// Same as `reason`.
    ///
    /// ```swift
    /// print("\(problem)")
    /// ```
    public var description: String { reason }
}
