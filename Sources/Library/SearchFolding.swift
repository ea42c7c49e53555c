import CUTF8Proc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Folds text for search, the same way for the text indexed and the words searched: case and accents ignored in
/// every script.
///
/// utf8proc does the Unicode work: compatibility decomposition (NFKC: "ﬁ" → "fi", full-width → ASCII), case
/// folding ("ß" → "ss", "Σ" → "σ"), marks stripped (accents, diacritics: "Фёдор" → "федор", "Bà" → "ba",
/// "Nguyễn" → "nguyen", "Ἀθῆναι" → "αθηναι"), and lumping of look-alike punctuation ("’" → "'"). A few Latin letters
/// that Unicode does not decompose are then spelled out ("ł" → "l", "ø" → "o", "æ" → "ae", "œ" → "oe", "þ" → "th"),
/// and each Chinese or Japanese character (Han, hiragana, katakana) becomes a word of its own, since those scripts
/// do not separate words with spaces.
///
/// ```swift
/// SearchFolding.fold("Émile Zola — L’Œuvre")  // "emile zola - l'oeuvre"
/// ```
public enum SearchFolding {
    /// The folded form of `text`.
    ///
    /// ```swift
    /// SearchFolding.fold("Łódź")  // "lodz"
    /// SearchFolding.fold("ノルウェイの森")  // "ノ ル ウ ェ イ の 森" (each character a word)
    /// ```
    public static func fold(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            if bytes.allSatisfy({ $0 < 0x80 }) {
                return foldASCII(bytes)
            }
            return spelledOut(unicodeFolded(bytes))
        }
    }

    /// Whether utf8proc's folding left only ASCII (as it does for accented Latin text: "lucía" → "lucia"): then
    /// there is nothing to spell out and no Cyrillic or Greek to transliterate.
    private static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// What the search index holds for a title, an author or a description: the folded text, followed by a Latin
    /// transliteration of its Cyrillic and Greek words when it has any, so that `dostoevsk` finds "Достоевский".
    ///
    /// ```swift
    /// SearchFolding.indexText("Фёдор Достоевский")  // "федор достоевскии fedor dostoevsky"
    /// ```
    public static func indexText(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            // ASCII text has no Cyrillic or Greek to spell: the common case of an import, without a second pass.
            if bytes.allSatisfy({ $0 < 0x80 }) {
                return foldASCII(bytes)
            }
            let unicodeFolded = unicodeFolded(bytes)
            if isASCII(unicodeFolded) { return unicodeFolded }
            let folded = spelledOut(unicodeFolded)
            guard let latin = Transliteration.latin(folded) else { return folded }
            return folded + " " + latin
        }
    }

    /// The form in which an import compares a row's title or author with a book's: NFC-normalised and case-folded,
    /// nothing else (accents, punctuation and spaces count). An NFD "Café" (as macOS tools write it) and "CAFÉ" are
    /// both "café"; equal keys always have equal `indexText`, so the search columns can find the candidates.
    ///
    /// ```swift
    /// SearchFolding.matchKey("Cafe\u{301} Society")  // "café society"
    /// ```
    public static func matchKey(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            if bytes.allSatisfy({ $0 < 0x80 }) { return foldASCII(bytes) }
            var output: UnsafeMutablePointer<utf8proc_uint8_t>?
            let length = utf8proc_map(bytes.baseAddress, utf8proc_ssize_t(bytes.count), &output, matchOptions)
            defer { free(output) }
            guard length >= 0, let output else { return String(decoding: bytes, as: UTF8.self).lowercased() }
            return String(decoding: UnsafeBufferPointer(start: output, count: length), as: UTF8.self)
        }
    }

    // MARK: - Internal

    /// The utf8proc step alone: NFKC, case folding, marks stripped, look-alikes lumped, default-ignorable
    /// characters (soft hyphens, joiners) dropped.
    static func unicodeFolded(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var output: UnsafeMutablePointer<utf8proc_uint8_t>?
        let length = utf8proc_map(bytes.baseAddress, utf8proc_ssize_t(bytes.count), &output, options)
        defer { free(output) }
        guard length >= 0, let output else {
            // Only for text utf8proc cannot read, which a Swift string never is: fold the case alone.
            return String(decoding: bytes, as: UTF8.self).lowercased()
        }
        return String(decoding: UnsafeBufferPointer(start: output, count: length), as: UTF8.self)
    }

    // MARK: - Private

    private static let options = utf8proc_option_t(
        rawValue: UTF8PROC_STABLE.rawValue | UTF8PROC_COMPAT.rawValue | UTF8PROC_COMPOSE.rawValue
            | UTF8PROC_CASEFOLD.rawValue | UTF8PROC_STRIPMARK.rawValue | UTF8PROC_LUMP.rawValue
            | UTF8PROC_IGNORE.rawValue)

    /// `matchKey`'s: canonical composition (NFC) and case folding.
    private static let matchOptions = utf8proc_option_t(
        rawValue: UTF8PROC_STABLE.rawValue | UTF8PROC_COMPOSE.rawValue | UTF8PROC_CASEFOLD.rawValue)

    /// ASCII text folds to its lower case: what utf8proc gives for it, without the call.
    private static func foldASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            }
            return bytes.count
        }
    }

    /// Latin letters Unicode gives no decomposition (so utf8proc keeps them), spelled out; CJK characters spaced.
    private static func spelledOut(_ folded: String) -> String {
        if isASCII(folded) { return folded }
        var result = String.UnicodeScalarView()
        var spaceBefore = false
        for scalar in folded.unicodeScalars {
            if isCJK(scalar.value) {
                if let last = result.last, last != " " { result.append(" ") }
                result.append(scalar)
                spaceBefore = true
                continue
            }
            if spaceBefore && scalar != " " { result.append(" ") }
            spaceBefore = false
            if let replacement = latinLetters[scalar.value] {
                result.append(contentsOf: replacement.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Han (with its extensions and compatibility ideographs), hiragana and katakana.
    private static func isCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F:
            return true
        default:
            return false
        }
    }

    /// Lower-case letters (case folding comes first) that have no Unicode decomposition.
    private static let latinLetters: [UInt32: String] = [
        0x00E6: "ae", 0x0153: "oe", 0x00F8: "o", 0x0142: "l", 0x0111: "d", 0x00F0: "d", 0x00FE: "th", 0x0127: "h",
        0x0131: "i", 0x0167: "t", 0x0138: "k", 0x0180: "b", 0x01B6: "z", 0x0268: "i", 0x0289: "u", 0x0253: "b",
        0x0257: "d",
    ]
}
