/// A search of the catalog: the user's text, trimmed and checked against the library's limit, read as words.
///
/// Every word is required, in any order, and matches the start of a word in the title, the author or the
/// description ("tolk hobb" finds "The Hobbit" by J. R. R. Tolkien); case and accents are ignored in every script
/// (both sides go through `SearchFolding.fold`); text in double quotes is a phrase, its words next to each other
/// in that order. Everything else is text: an operator or a special character of the full-text engine (`AND`,
/// `NEAR(`, `*`, `-`, `:`) is never syntax, and a word with no letter or digit in it is ignored. An ISBN-10 or
/// ISBN-13, with or without hyphens or spaces, finds its book by ISBN. Empty or white-space-only text, or text
/// without a letter or digit, is no search at all; text longer than `maxLength` is refused.
///
/// ```swift
/// let search = try BookSearch("  tolkien hobbit ")  // text "tolkien hobbit"
/// try BookSearch("   ")                             // nil: the whole library
/// ```
public struct BookSearch: Sendable, Hashable {
    /// The longest search text the library takes: 200 characters (Unicode code points), white space around it
    /// not counted.
    ///
    /// ```swift
    /// BookSearch.maxLength  // 200
    /// ```
    public static let maxLength = 200

    /// The text as the user typed it, without white space around it.
    public let text: String

    /// The search for `text`; nil when it is empty, only white space, or has no word with a letter or digit (`-`,
    /// `* :`): words without one are ignored, so such text searches for nothing and is no search at all. Throws
    /// `LibraryError.invalidInput` when it is longer than `maxLength`.
    ///
    /// ```swift
    /// let search = try BookSearch("garcía márquez")
    /// try BookSearch(" - ")  // nil: the whole library
    /// ```
    public init?(_ text: String) throws(LibraryError) {
        let text = trimmed(text)
        guard !text.isEmpty else { return nil }
        if let problem = Self.lengthProblem(text) { throw LibraryError.invalidInput("Search text must be \(problem).") }
        guard
            Self.parts(of: text).contains(where: {
                SearchFolding.fold($0.text).unicodeScalars.contains(where: Self.isTokenCharacter)
            })
        else { return nil }
        self.text = text
    }

    /// Nil when `text` (trimmed) is short enough, else what is wrong with it: "at most 200 characters (this one
    /// has 201)". For front ends that report the problem in their own words before opening the library.
    ///
    /// ```swift
    /// BookSearch.lengthProblem("dune")  // nil
    /// ```
    public static func lengthProblem(_ text: String) -> String? {
        let length = trimmed(text).unicodeScalars.count
        guard length > maxLength else { return nil }
        return "at most \(maxLength) characters (this one has \(length))"
    }

    /// The FTS5 query: each word an FTS5 string with a prefix star, each phrase an FTS5 string, all required; nil
    /// when no word has a letter or digit (such a search matches no book).
    ///
    /// ```swift
    /// try BookSearch("Tolkien \"the hobbit\" NEAR(")?.matchExpression  // "\"tolkien\"* \"the hobbit\""
    /// ```
    public var matchExpression: String? {
        var terms: [String] = []
        for part in Self.parts(of: text) {
            let folded = SearchFolding.fold(part.text)
            guard folded.unicodeScalars.contains(where: Self.isTokenCharacter) else { continue }
            let quoted =
                "\"" + folded.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
            terms.append(part.isPhrase ? quoted : quoted + "*")
        }
        return terms.isEmpty ? nil : terms.joined(separator: " ")
    }

    /// The same search as PostgreSQL's `to_tsquery('simple', ...)` text: each word's tokens (runs of letters and
    /// digits of its folded form, as SQLite's `unicode61` tokenizer splits them) in sequence (`<->`), the last one a
    /// prefix (`:*`) unless the word was a quoted phrase, every word required (`&`). Each token is a quoted lexeme,
    /// so nothing the user typed is ever read as an operator. A sequence of several tokens must lie within one
    /// column, as an FTS5 phrase does: the book's vector holds the title, author and description one after the
    /// other (weights A, B and D, migrations/postgresql/0002), so the sequence is asked for in each weight.
    /// Nil when nothing searchable is left.
    ///
    /// ```swift
    /// try BookSearch("Tolkien hobb")?.tsQuery  // "('tolkien':*) & ('hobb':*)"
    /// try BookSearch("\"the hobbit\"")?.tsQuery
    /// // "('the':A <-> 'hobbit':A | 'the':B <-> 'hobbit':B | 'the':D <-> 'hobbit':D)"
    /// ```
    public var tsQuery: String? {
        var terms: [String] = []
        for part in Self.parts(of: text) {
            let folded = SearchFolding.fold(part.text)
            var tokens: [String] = []
            var current = String.UnicodeScalarView()
            for scalar in folded.unicodeScalars {
                if Self.isTokenCharacter(scalar) {
                    current.append(scalar)
                } else if !current.isEmpty {
                    tokens.append(String(current))
                    current = String.UnicodeScalarView()
                }
            }
            if !current.isEmpty { tokens.append(String(current)) }
            guard !tokens.isEmpty else { continue }
            let lexemes = tokens.map { "'" + $0.replacingAll("\\", with: "\\\\").replacingAll("'", with: "''") + "'" }
            guard lexemes.count > 1 else {
                terms.append("(" + lexemes[0] + (part.isPhrase ? "" : ":*") + ")")
                continue
            }
            let columns = ["A", "B", "D"].map { weight in
                lexemes.enumerated().map { index, lexeme in
                    lexeme + ":" + (index == lexemes.count - 1 && !part.isPhrase ? "*" : "") + weight
                }.joined(separator: " <-> ")
            }
            terms.append("(" + columns.joined(separator: " | ") + ")")
        }
        return terms.isEmpty ? nil : terms.joined(separator: " & ")
    }

    /// The ISBNs the text may stand for, when it is one ISBN-10 or ISBN-13 (hyphens, spaces, quotes and a leading
    /// "ISBN", "ISBN-13:" or "ISBN-10:" allowed): the ISBN-13 first, then the ISBN-10 form; empty for other text.
    ///
    /// ```swift
    /// try BookSearch("0-441-17271-7")?.isbns  // ["9780441172719", "0441172717"]
    /// ```
    public var isbns: [String] {
        let separators: Set<Unicode.Scalar> = ["-", ":", "\"", "\u{2010}", "\u{2011}", "\u{2013}", "“", "”"]
        var scalars = String.UnicodeScalarView(text.lowercased().unicodeScalars.filter { !separators.contains($0) })[
            ...]
        // "ISBN", "ISBN-13:", "isbn10" before the number.
        if scalars.starts(with: "isbn".unicodeScalars) {
            scalars = scalars.dropFirst(4)
            if scalars.starts(with: "13".unicodeScalars) || scalars.starts(with: "10".unicodeScalars),
                scalars.dropFirst(2).first?.properties.isWhitespace == true
            {
                scalars = scalars.dropFirst(2)
            }
        }
        let kept = scalars.filter { !$0.properties.isWhitespace }
        let digits = String(String.UnicodeScalarView(kept)).uppercased()
        let isDigit = { (character: Character) in character >= "0" && character <= "9" }
        if digits.count == 13, digits.allSatisfy(isDigit) {
            guard digits.hasPrefix("978") else { return [digits] }
            let body = digits.dropFirst(3).prefix(9)
            return [digits, String(body) + ISBN.checkDigit10(body)]
        }
        if digits.count == 10, digits.prefix(9).allSatisfy(isDigit), isDigit(digits.last!) || digits.last == "X" {
            return [ISBN.thirteen(fromTenBody: digits.prefix(9)), digits]
        }
        return []
    }

    // MARK: - Private

    /// The words and quoted phrases of `text`, in order. Straight and typographic double quotes open and close
    /// phrases; a quote left open at the end is ignored. White space and control characters separate words.
    private static func parts(of text: String) -> [(text: String, isPhrase: Bool)] {
        var parts: [(text: String, isPhrase: Bool)] = []
        let segments = text.split(omittingEmptySubsequences: false, whereSeparator: { quotes.contains($0) })
        for (index, segment) in segments.enumerated() {
            // Odd segments lie between quotes, unless the last quote was never closed.
            let isPhrase = index % 2 == 1 && index < segments.count - 1
            let words = segment.split(whereSeparator: { character in
                character.unicodeScalars.contains {
                    $0.properties.isWhitespace || $0.properties.generalCategory == .control
                }
            })
            if isPhrase {
                if !words.isEmpty { parts.append((words.joined(separator: " "), true)) }
            } else {
                parts += words.map { (String($0), false) }
            }
        }
        return parts
    }

    private static let quotes: Set<Character> = ["\"", "“", "”", "„", "«", "»", "＂"]

    /// Letters, digits and private-use characters: what FTS5's unicode61 tokenizer keeps in a word.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return false
        }
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
