import Rendering
import Testing

/// The byte-level fast paths of `DisplayWidth` and `TerminalText` against definitions written out scalar by scalar
/// and cluster by cluster, on random text mixing the scalars the fast paths take with every hard case.
@Suite struct FastPathTests {
    /// Pieces the fast paths take (Latin, Greek, Cyrillic, Vietnamese, punctuation, arrows, box drawing, symbols,
    /// kana, Hangul syllables, ideographs, full-width) and pieces that must send text to the slow paths.
    static let pieces: [String] =
        RandomText.pieces + [
            "Достоевский", "Ωμέγα", "Việt", "—", "’", "·", "→", "✓", "★", "┼", "かな", "カタ", "한", "中", "ｗ", "½", "\u{AD}",
            "\u{85}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{2067}", "\u{FE0E}", "\u{1F3FB}", "\u{E0100}", "\u{309A}",
            "\u{302A}", "\u{483}", "\u{1100}", "\u{11A8}", "\u{1F1EB}\u{1F1F7}", "\u{200C}", "\u{2060}", "\u{20D7}",
            "ـ", "\u{FB1D}", "\u{10800}", "\u{1E800}", "ࠀ", "\u{0}", "\u{C2}", "\u{9F}",
        ]

    static func randomTexts(seed: UInt64, count: Int = 3_000) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
    }

    @Test func aTextIsAsWideAsItsClustersTogether() {
        for text in Self.randomTexts(seed: 11) {
            let clusters = text.reduce(0) { $0 + DisplayWidth.of($1) }
            #expect(DisplayWidth.of(text) == clusters, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func sanitizingMatchesItsDefinition() {
        for text in Self.randomTexts(seed: 12) {
            #expect(
                TerminalText.sanitized(text) == Self.sanitizedByDefinition(text),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func rightToLeftTextIsIsolatedExactlyWhenItHasARightToLeftScalar() {
        for text in Self.randomTexts(seed: 13) {
            let rightToLeft = text.unicodeScalars.contains { scalar in
                switch scalar.value {
                case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
                default: false
                }
            }
            #expect(TerminalText.isolated(text) == (rightToLeft ? "\u{2068}" + text + "\u{2069}" : text))
        }
    }

    /// `sanitized` as its documentation states it, one scalar at a time.
    static func sanitizedByDefinition(_ text: String) -> String {
        var scalars: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: scalars.append(" ")
            case 0x202A...0x202E, 0x2066...0x2069: continue
            case 0x00...0x1F, 0x7F...0x9F: scalars.append("\u{FFFD}")
            default: scalars.append(scalar)
            }
        }
        func joins(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0100...0xE01EF: true
            default: false
            }
        }
        while let first = scalars.first, joins(first) { scalars.removeFirst() }
        while scalars.last == "\u{200D}" { scalars.removeLast() }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }
}
