import CUTF8Proc
import Glibc

/// How many terminal cells text takes, from glibc's maintained Unicode width table (`wcwidth` under `C.UTF-8`);
/// text whose scalars each stand alone is measured with utf8proc's table, which agrees with glibc's on them.
///
/// Widths are measured per grapheme cluster (`Character`), so an accented letter written as two scalars takes one
/// cell, a CJK ideograph two, and an emoji sequence joined with ZWJ two. Control characters count 0: sanitise text
/// with ``TerminalText/sanitized(_:)`` before drawing it.
///
/// The process-wide locale is never changed: a private `C.UTF-8` locale is created once and installed with
/// `uselocale` on the calling thread only for the time of a measurement.
///
/// For example:
///
///     DisplayWidth.of("Dune")    // 4
///     DisplayWidth.of("中文")     // 4
///     DisplayWidth.of("e\u{301}")  // 1
public enum DisplayWidth {
    // MARK: - Measuring

    /// The width of a string in cells: the sum of its grapheme clusters' widths.
    ///
    ///     DisplayWidth.of("Café 😀")  // 7
    public static func of(_ text: String) -> Int {
        if let ascii = asciiWidth(text) { return ascii }
        if let width = standaloneWidth(text) { return width }
        return withUTF8Locale {
            var total = 0
            for character in text { total += measure(character) }
            return total
        }
    }

    /// The width of one grapheme cluster in cells (0, 1 or 2).
    ///
    ///     DisplayWidth.of("中" as Character)  // 2
    public static func of(_ character: Character) -> Int {
        if character.isASCII {
            let value = character.asciiValue ?? 0
            return value >= 0x20 && value < 0x7F ? 1 : 0
        }
        return withUTF8Locale { measure(character) }
    }

    /// The width of one Unicode scalar in cells as the table gives it; control characters count 0.
    ///
    ///     DisplayWidth.of("\u{301}" as Unicode.Scalar)  // 0
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        withUTF8Locale { scalarWidth(scalar) }
    }

    /// Whether glibc's `C.UTF-8` table is in use; `false` means a rough built-in estimate is used instead.
    ///
    ///     DisplayWidth.usesSystemTable  // true on glibc 2.35 and later
    public static var usesSystemTable: Bool { table.locale != nil && table.wcwidth != nil }

    // MARK: - Private

    /// Printable ASCII is one cell per byte; `nil` when the text holds anything else.
    private static func asciiWidth(_ text: String) -> Int? {
        func printable(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
        }
        if let width = text.utf8.withContiguousStorageIfAvailable(printable) { return width }
        return Array(text.utf8).withUnsafeBufferPointer(printable)
    }

    /// The width of text whose every scalar is printable ASCII or ``standsAlone(_:)``, scalar by scalar (each one is
    /// a grapheme cluster of its own there, so this is what measuring cluster by cluster gives); `nil` for any other
    /// text.
    ///
    /// Those scalars' widths come from utf8proc's table, which gives every assigned one of them the width glibc's
    /// gives (a test compares the two on each), unassigned ones 0 as glibc's does: a screen whose text is all
    /// such scalars (Latin, Cyrillic, CJK titles, the arrows and box drawing of the layout) is measured without
    /// loading the `C.UTF-8` locale, which took a tenth of `librarycli list`.
    private static func standaloneWidth(_ text: String) -> Int? {
        var total = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value >= 0x20 && value < 0x7F {
                total += 1
            } else if standsAlone(value) {
                let code = Int32(bitPattern: value)
                if utf8proc_category(code) != UTF8PROC_CATEGORY_CN { total += Int(utf8proc_charwidth(code)) }
            } else {
                return nil
            }
        }
        return total
    }

    /// Scalars that form a grapheme cluster of their own beside printable ASCII and beside each other: the blocks
    /// below hold no combining mark, joiner, variation selector, emoji modifier, regional indicator, Hangul jamo,
    /// prepended or spacing mark (Latin, Greek, Cyrillic letters, punctuation, arrows, box drawing, symbols,
    /// Hangul syllables, CJK ideographs, full-width forms). Any other scalar sends the text to the cluster path.
    private static func standsAlone(_ value: UInt32) -> Bool {
        switch value {
        case 0x00A0...0x02FF, 0x0370...0x0482, 0x048A...0x052F, 0x1E00...0x1EFF, 0x2010...0x205F, 0x2070...0x20CF,
            0x2100...0x27BF, 0x3000...0x3029, 0x3030...0x303F, 0x3041...0x3096, 0x30A0...0x30FF, 0x4E00...0x9FFF,
            0xAC00...0xD7A3, 0xFF01...0xFF60:
            return true
        default:
            return false
        }
    }

    /// Width of a cluster; must run under `withUTF8Locale`.
    private static func measure(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return scalarWidth(first) }
        var sum = 0
        var hasEmoji = false
        var joined = false
        var emojiPresentation = false
        var textPresentation = false
        for scalar in scalars {
            sum += scalarWidth(scalar)
            switch scalar.value {
            case 0x200D: joined = true
            case 0xFE0F: emojiPresentation = true
            case 0xFE0E: textPresentation = true
            default: if scalar.properties.isEmoji { hasEmoji = true }
            }
        }
        if textPresentation { return min(max(0, sum), 1) }
        if (emojiPresentation && first.properties.isEmoji) || (joined && hasEmoji) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        return min(max(0, sum), 2)
    }

    /// Width of one scalar from the table (or the fallback); must run under `withUTF8Locale`.
    private static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if let wcwidth = table.wcwidth, table.locale != nil {
            return max(0, Int(wcwidth(Int32(bitPattern: value))))
        }
        return fallbackWidth(scalar)
    }

    /// A rough estimate for systems without `C.UTF-8`: marks and controls 0, emoji and wide blocks 2, else 1.
    private static func fallbackWidth(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Runs `body` with the private UTF-8 locale installed on this thread, restoring the previous one.
    private static func withUTF8Locale<T>(_ body: () -> T) -> T {
        guard let locale = table.locale else { return body() }
        let previous = uselocale(locale)
        defer { if let previous { uselocale(previous) } }
        return body()
    }

    /// The C `wcwidth` signature, looked up at run time because Glibc's Swift module does not export it.
    private typealias WCWidth = @convention(c) (Int32) -> Int32

    /// The locale and function, created once (a global `let` is initialised once, thread-safely).
    private struct Table: @unchecked Sendable {
        let locale: locale_t?
        let wcwidth: WCWidth?
    }

    private static let table: Table = {
        let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
        let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth")  // RTLD_DEFAULT
        let function = symbol.map { unsafeBitCast($0, to: WCWidth.self) }
        return Table(locale: locale, wcwidth: function)
    }()
}
