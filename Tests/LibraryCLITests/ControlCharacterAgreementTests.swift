import Formats
import Library
import LibraryScreen
import Rendering
import Testing

/// Text fields, the terminal and shell quoting treat the same code points as controls: what a field refuses is what the
/// screen would replace or drop and what a hint writes as an escape, so none of the three can let through what another
/// guards against.
struct ControlCharacterAgreementTests {
    /// Every code point of the ranges where controls live, and of the planes' other blocks around them.
    static let scalars: [Unicode.Scalar] = [0...0x3000, 0xFE00...0xFFFF, 0x1F300...0x1F3FF, 0xE0000...0xE007F]
        .flatMap { $0 }.compactMap { Unicode.Scalar(UInt32($0)) }

    @Test("a title refuses, the terminal changes and a hint escapes exactly the control characters")
    func agree() {
        var disagreements: [String] = []
        for scalar in Self.scalars {
            let isControl = ControlCharacter(scalar) != nil
            var text = "a"
            text.unicodeScalars.append(scalar)
            text += "b"
            let refused = (try? TextField.title.check(text)) == nil
            let replaced = TerminalText.sanitized(text) != text
            let escaped = shellQuoted(text).hasPrefix("$'")
            if refused != isControl || replaced != isControl || escaped != isControl {
                disagreements.append(
                    "U+\(String(scalar.value, radix: 16)): control \(isControl), refused \(refused), "
                        + "replaced \(replaced), escaped \(escaped)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test("the marks that only give a direction stay allowed, and a description keeps its line breaks")
    func marksAndBreaks() throws {
        for mark in ["\u{200E}", "\u{200F}", "\u{061C}"] {
            #expect(ControlCharacter(mark.unicodeScalars.first!) == nil)
            try TextField.title.check("Dune" + mark)
        }
        try TextField.description.check("Line one\nLine two\r\n\tindented")
        #expect(throws: TextFieldProblem.self) { try TextField.title.check("Line one\nLine two") }
        #expect(ControlCharacter("\u{2029}")?.name == "a paragraph separator")
        #expect(ControlCharacter("\u{2067}") == .bidirectionalControl)
    }
}
