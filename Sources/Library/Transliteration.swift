/// A Latin spelling of folded Cyrillic and Greek text, indexed beside it so that Latin words find those names
/// (`dostoevsk` finds "Достоевский"). A small table, one common romanisation per letter; a word-final "ий", "ый" or
/// vowel + "й" (folded to "ии", "ыи", "ои"...) reads "y", as in "Dostoevsky" and "Tolstoy".
///
/// ```swift
/// Transliteration.latin("федор достоевскии")  // "fedor dostoevsky"
/// Transliteration.latin("dune")              // nil: nothing to spell
/// ```
enum Transliteration {
    /// The Latin spelling of the Cyrillic and Greek words of `folded` (the output of `SearchFolding.fold`), one space
    /// between words and punctuation left out, or nil when it has none.
    static func latin(_ folded: String) -> String? {
        var spelled: [String] = []
        let words = folded.unicodeScalars.split(whereSeparator: { !$0.properties.isAlphabetic })
        for word in words where word.contains(where: { table[$0.value] != nil }) {
            spelled.append(spell(word))
        }
        return spelled.isEmpty ? nil : spelled.joined(separator: " ")
    }

    // MARK: - Private

    private static func spell(_ word: Substring.UnicodeScalarView) -> String {
        let scalars = Array(word)
        var result = ""
        for (index, scalar) in scalars.enumerated() {
            // Folding turned "й" into "и": at the end of a word after a vowel it was "й", spelled "y" (and "ий",
            // "ый" are both "y").
            if scalar == "и", index == scalars.count - 1, index > 0, cyrillicVowels.contains(scalars[index - 1]) {
                if scalars[index - 1] == "и" || scalars[index - 1] == "ы" { result.removeLast() }
                result += "y"
                continue
            }
            if let latin = table[scalar.value] {
                result += latin
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static let cyrillicVowels: Set<Unicode.Scalar> = ["а", "е", "и", "о", "у", "ы", "э", "ю", "я", "і"]

    private static let table: [UInt32: String] = {
        let pairs: [(String, String)] = [
            // Russian, Ukrainian, Belarusian, Serbian, Macedonian, Bulgarian (after folding: no ё, й, ї, ў).
            ("а", "a"), ("б", "b"), ("в", "v"), ("г", "g"), ("ґ", "g"), ("д", "d"), ("ђ", "dj"), ("ѓ", "gj"),
            ("е", "e"), ("є", "ye"), ("ж", "zh"), ("з", "z"), ("ѕ", "dz"), ("и", "i"), ("і", "i"), ("ј", "j"),
            ("к", "k"), ("ќ", "kj"), ("л", "l"), ("љ", "lj"), ("м", "m"), ("н", "n"), ("њ", "nj"), ("о", "o"),
            ("п", "p"), ("р", "r"), ("с", "s"), ("т", "t"), ("ћ", "c"), ("у", "u"), ("ф", "f"), ("х", "kh"),
            ("ц", "ts"), ("ч", "ch"), ("џ", "dz"), ("ш", "sh"), ("щ", "shch"), ("ъ", ""), ("ы", "y"), ("ь", ""),
            ("э", "e"), ("ю", "yu"), ("я", "ya"),
            // Greek (after folding: no tonos, final sigma kept apart).
            ("α", "a"), ("β", "v"), ("γ", "g"), ("δ", "d"), ("ε", "e"), ("ζ", "z"), ("η", "i"), ("θ", "th"),
            ("ι", "i"), ("κ", "k"), ("λ", "l"), ("μ", "m"), ("ν", "n"), ("ξ", "x"), ("ο", "o"), ("π", "p"),
            ("ρ", "r"), ("σ", "s"), ("ς", "s"), ("τ", "t"), ("υ", "y"), ("φ", "f"), ("χ", "ch"), ("ψ", "ps"),
            ("ω", "o"),
        ]
        var table: [UInt32: String] = [:]
        for (letter, latin) in pairs {
            table[letter.unicodeScalars.first!.value] = latin
        }
        return table
    }()
}
