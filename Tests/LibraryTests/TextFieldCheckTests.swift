import StoreTestSupport
import Testing

@testable import Library

/// `TextField.check` decides most text on its UTF-8 bytes (printable ASCII eight bytes at a time, then byte by byte);
/// these tests hold it to its definition: at most `maxLength` scalars, none of them a control character, DEL, a C1
/// control, a line or paragraph separator or a bidirectional embedding, override or isolate, and tab, line feed and
/// carriage return only where line breaks are allowed.
@Suite("Text field checks decided on bytes agree with the scalar-by-scalar rule")
struct TextFieldCheckTests {
    static func definition(_ field: TextField, _ text: String) -> Bool {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: if !field.allowsLineBreaks { return false }
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return false
            case 0x202A...0x202E, 0x2066...0x2069: return false
            default: break
            }
        }
        let showsNothing = TextField.isBlank(text) && text.unicodeScalars.contains { !$0.properties.isWhitespace }
        return count <= field.maxLength && !showsNothing
    }

    @Test("random text of every field, near and beyond each length limit", arguments: TextField.allCases)
    func randomText(field: TextField) {
        var random = SeededRandom(seed: 0x7E57 &+ UInt64(field.maxLength))
        let pieces = [
            "a", "Zz", "0123456", " ", "~", "\u{7F}", "\u{1F}", "\t", "\n", "\r", "\u{0}", "é", "\u{80}", "\u{9F}",
            "\u{A0}", "€", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2065}",
            "\u{2066}", "\u{2069}", "\u{206A}", "\u{200E}", "\u{200F}", "\u{061C}", "ⅰ", "😀", "漢字", "abcdefgh",
            "\u{200B}", "\u{FEFF}", "\u{FE0F}", "\u{0301}", "\u{115F}", "Ж", "ё", "ʰ", "\u{3000}",
        ]
        for _ in 0..<3_000 {
            let plain = random.next() % 2 == 0
            var text = ""
            if plain {
                text = String(repeating: "abcdefgh", count: Int(random.next() % UInt64(field.maxLength / 8 + 2)))
            }
            for _ in 0..<Int(random.next() % 12) {
                text += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            let passes = (try? field.check(text)) != nil
            #expect(passes == Self.definition(field, text), "\(field) \(text.unicodeScalars.count) scalars")
        }
    }

    @Test("printable ASCII eight bytes at a time: every byte value in every place")
    func printableASCII() {
        for length in [1, 7, 8, 9, 16, 17] {
            for place in 0..<length {
                for value in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: UInt8(ascii: "m"), count: length)
                    bytes[place] = value
                    let expected = value >= 0x20 && value < 0x7F
                    #expect(bytes.withUnsafeBufferPointer { TextField.isPrintableASCII($0) } == expected)
                }
            }
        }
        #expect([UInt8]().withUnsafeBufferPointer { TextField.isPrintableASCII($0) })
    }

    @Test(
        "bidirectional embeddings, overrides and isolates are refused in every field; LRM, RLM and ALM are kept",
        arguments: TextField.allCases)
    func bidirectionalControls(field: TextField) {
        for value: UInt32 in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let scalar = Unicode.Scalar(value)!
            let hex = String(value, radix: 16, uppercase: true)
            #expect(
                throws: TextFieldProblem(
                    field: field, reason: "the \(field.label) holds a bidirectional control (U+\(hex)) at character 3")
            ) {
                try field.check("ab\(Character(scalar))cd")
            }
        }
        for mark in ["\u{200E}", "\u{200F}", "\u{061C}"] {
            #expect((try? field.check("ab\(mark)cd")) != nil, "\(field) \(mark.unicodeScalars.first!.value)")
        }
    }

    @Test(
        "a value that shows nothing (zero-width, joiners, variation selectors, fillers, lone marks) is blank",
        arguments: [
            "\u{200B}", "\u{FEFF}", "\u{FE0F}", "\u{200D}", "\u{115F}", "\u{3164}", "\u{0301}", " \u{200B} ",
            "\u{200B}\u{0301}\u{FE0F}",
        ])
    func blank(text: String) {
        #expect(TextField.isBlank(text))
        for field in TextField.allCases {
            #expect(
                throws: TextFieldProblem(field: field, reason: "the \(field.label) has no visible character")
            ) { try field.check(text) }
        }
    }

    @Test("visible text is not blank, whatever its script; whitespace alone is left to trimming")
    func notBlank() {
        for text in ["a", "é", "e\u{0301}", "Ж", "森", "😀", "ʰ", "ノ", "\u{0E01}"] {
            #expect(!TextField.isBlank(text), "\(text)")
            #expect((try? TextField.title.check(text)) != nil, "\(text)")
        }
        #expect(TextField.isBlank("  \u{3000}"))
        #expect((try? TextField.description.check("  \n")) != nil)
    }
}
