/// Folds text for case- and accent-insensitive search: lower case, Latin letters without diacritics.
///
/// Combining marks (U+0300–U+036F) are dropped, precomposed Latin letters (Latin-1, Latin Extended-A and common
/// others) lose their accents, ligatures are spelled out ("æ" → "ae", "ß" → "ss"), everything else is lower-cased.
///
/// ```swift
/// SearchFolding.fold("Émile Zola — L'Œuvre")  // "emile zola — l'oeuvre"
/// ```
public enum SearchFolding {
    /// The folded form of `text`.
    ///
    /// ```swift
    /// SearchFolding.fold("Łódź")  // "lodz"
    /// ```
    public static func fold(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                folded.append(value >= 0x41 && value <= 0x5A ? Unicode.Scalar(value + 0x20)! : scalar)
            } else if (0x300...0x36F).contains(value) {
                continue
            } else if let replacement = table[value] {
                folded.append(contentsOf: replacement.unicodeScalars)
            } else {
                folded.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(folded)
    }

    /// A LIKE pattern matching text that contains the folded `query`, with `%`, `_` and `\` escaped
    /// (use with `LIKE ? ESCAPE '\'`).
    ///
    /// ```swift
    /// SearchFolding.containsPattern("100%")  // "%100\\%%"
    /// ```
    public static func containsPattern(_ query: String) -> String {
        var pattern = "%"
        for character in fold(query) {
            if character == "%" || character == "_" || character == "\\" {
                pattern.append("\\")
            }
            pattern.append(character)
        }
        return pattern + "%"
    }

    // MARK: - Private

    private static let groups: [(String, String)] = [
        ("ÀÁÂÃÄÅàáâãäåĀāĂăĄąǍǎ", "a"), ("Ææ", "ae"), ("ÇçĆćĈĉĊċČč", "c"), ("ÐðĎďĐđ", "d"),
        ("ÈÉÊËèéêëĒēĔĕĖėĘęĚě", "e"), ("ĜĝĞğĠġĢģ", "g"), ("ĤĥĦħ", "h"), ("ÌÍÎÏìíîïĨĩĪīĬĭĮįİıǏǐ", "i"),
        ("Ĳĳ", "ij"), ("Ĵĵ", "j"), ("Ķķĸ", "k"), ("ĹĺĻļĽľĿŀŁł", "l"), ("ÑñŃńŅņŇňŉŊŋ", "n"),
        ("ÒÓÔÕÖØòóôõöøŌōŎŏŐőƠơǑǒ", "o"), ("Œœ", "oe"), ("ŔŕŖŗŘř", "r"), ("ŚśŜŝŞşŠšſȘș", "s"), ("ßẞ", "ss"),
        ("ŢţŤťŦŧȚț", "t"), ("Þþ", "th"), ("ÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲųƯưǓǔ", "u"), ("Ŵŵ", "w"), ("ÝýÿŶŷŸ", "y"),
        ("ŹźŻżŽž", "z"),
    ]

    private static let table: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for (letters, replacement) in groups {
            for scalar in letters.unicodeScalars {
                table[scalar.value] = replacement
            }
        }
        return table
    }()
}
