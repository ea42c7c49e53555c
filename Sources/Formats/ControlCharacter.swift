/// A code point that acts on text instead of showing in it: one list for what text fields refuse, what the terminal
/// replaces and what shell quoting writes as an escape.
///
/// The C0 and C1 controls and DEL, the line and paragraph separators (U+2028, U+2029), and the bidirectional
/// embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069). The marks LRM, RLM and ALM are not among
/// them: they only give a direction to the text beside them.
///
/// ```swift
/// ControlCharacter("\u{1B}")  // .control
/// ControlCharacter("\u{202E}")  // .bidirectionalControl
/// ControlCharacter("\u{200F}")  // nil (RLM)
/// ```
public enum ControlCharacter: Sendable, Equatable {
    /// A C0 or C1 control or DEL (U+0000–U+001F, U+007F–U+009F), tab and newline included.
    case control
    /// U+2028 LINE SEPARATOR.
    case lineSeparator
    /// U+2029 PARAGRAPH SEPARATOR.
    case paragraphSeparator
    /// An embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069): it reorders the text around it.
    case bidirectionalControl

    /// The kind of control `scalar` is, or nil when it shows as itself.
    ///
    /// ```swift
    /// if ControlCharacter(scalar) != nil { print("refused") }
    /// ```
    public init?(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: self = .control
        case 0x2028: self = .lineSeparator
        case 0x2029: self = .paragraphSeparator
        case 0x202A...0x202E, 0x2066...0x2069: self = .bidirectionalControl
        default: return nil
        }
    }

    /// Its name in a message: "a control character", "a line separator", "a paragraph separator", "a bidirectional
    /// control".
    ///
    /// ```swift
    /// ControlCharacter("\u{2028}")?.name  // "a line separator"
    /// ```
    public var name: String {
        switch self {
        case .control: "a control character"
        case .lineSeparator: "a line separator"
        case .paragraphSeparator: "a paragraph separator"
        case .bidirectionalControl: "a bidirectional control"
        }
    }
}
