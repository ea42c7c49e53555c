/// A deterministic random number generator, so random-input tests fail the same way every time.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random titles drawn from the hard cases: wide, combining, emoji sequences, right-to-left, controls.
enum RandomText {
    static let pieces: [String] = [
        "a", "Dune ", " ", "é", "e\u{301}", "中", "文字", "😀", "👨‍👩‍👧", "🇺🇦", "❤️", "1️⃣", "ا", "ليلة ", "שלום",
        "\u{1B}[31m", "\n", "\t", "\r\n", "\u{9B}", "\u{7F}", "\u{202E}", "\u{2066}", "\u{200D}", "\u{301}",
        "ｗｉｄｅ", "한국어", "ก่", "…", "─", "│", "\u{FE0F}", "\u{0}", "Ω",
    ]

    static func make(using random: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }
}
