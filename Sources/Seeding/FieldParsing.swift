import Library

/// Parses the values of catalog files: years, page counts and ISBNs as people and spreadsheets write them.
///
/// Each parser returns `nil` for an empty value and throws `FieldProblem` with a plain reason for a bad one.
///
/// For example:
///
///     try FieldParsing.year("1997.0")   // 1997
///     try FieldParsing.year("-720.0")   // -720
///     try FieldParsing.isbn("0-439-02348-3")  // "9780439023481"
///     try FieldParsing.isbn("=\"0439023483\"")  // "9780439023481" (Goodreads' export)
public enum FieldParsing {
    /// Why a value could not be read.
    public struct FieldProblem: Error, Hashable, Sendable {
        /// What is wrong, in plain words.
        public var reason: String
    }

    /// A year: a whole number, possibly negative (before the common era), possibly written as a float (`1997.0`).
    ///
    ///     try FieldParsing.year(" 2008 ")  // 2008
    public static func year(_ text: String) throws(FieldProblem) -> Int? {
        let value = formulaText(text)
        guard !value.isEmpty else { return nil }
        guard let year = wholeNumber(value), LibraryRules.isYear(year) else {
            throw FieldProblem(reason: "'\(value)' is not a year (\(LibraryRules.yearRule))")
        }
        return year
    }

    /// A page count: a positive whole number, possibly written as a float (`412.0`).
    ///
    ///     try FieldParsing.pages("412")  // 412
    public static func pages(_ text: String) throws(FieldProblem) -> Int? {
        let value = formulaText(text)
        guard !value.isEmpty else { return nil }
        guard let pages = wholeNumber(value), (1...LibraryRules.maxPages).contains(pages) else {
            throw FieldProblem(
                reason: "'\(value)' is not a page count (a whole number from 1 to \(LibraryRules.maxPages))")
        }
        return pages
    }

    /// A loan limit: a whole number in `LibraryRules.loanLimits` (0 to 1000).
    ///
    ///     try FieldParsing.loanLimit("5")  // 5
    public static func loanLimit(_ text: String) throws(FieldProblem) -> Int? {
        let value = formulaText(text)
        guard !value.isEmpty else { return nil }
        guard let limit = wholeNumber(value), LibraryRules.loanLimits.contains(limit) else {
            throw FieldProblem(
                reason: "'\(value)' is not a loan limit (a whole number from \(LibraryRules.loanLimits.lowerBound) "
                    + "to \(LibraryRules.loanLimits.upperBound))")
        }
        return limit
    }

    /// A yes/no value: `yes`, `true`, `1`, `y` or `no`, `false`, `0`, `n`, any case; empty is no.
    ///
    ///     try FieldParsing.flag("Yes")  // true
    public static func flag(_ text: String) throws(FieldProblem) -> Bool {
        switch trimmed(text).lowercased() {
        case "", "no", "false", "0", "n": return false
        case "yes", "true", "1", "y": return true
        default: throw FieldProblem(reason: "'\(trimmed(text))' is not yes or no")
        }
    }

    /// A book status: `available`, `lost` or `withdrawn`, any case.
    ///
    ///     try FieldParsing.status("Lost")  // .lost
    public static func status(_ text: String) throws(FieldProblem) -> BookStatus? {
        let value = trimmed(text)
        guard !value.isEmpty else { return nil }
        guard let status = BookStatus(rawValue: value.lowercased()) else {
            throw FieldProblem(reason: "'\(value)' is not a status (available, lost or withdrawn)")
        }
        return status
    }

    /// An ISBN as ISBN-13 digits, by `ISBN.normalized` (the library's one rule): hyphens and spaces are dropped;
    /// an ISBN-10 (final `X` allowed) is converted; a shorter all-digit value is an ISBN-10 whose leading zeros a
    /// spreadsheet dropped (kept only if its check digit holds); check digits must hold. A value a spreadsheet turned
    /// into a float (`9.78043902348e+12`) has lost digits and is refused like any other unusable ISBN. A text formula
    /// (`="0439023483"`, see `formulaText`) is read as the text inside, and `=""` as empty.
    ///
    ///     try FieldParsing.isbn("439023483")  // "9780439023481"
    public static func isbn(_ text: String) throws(FieldProblem) -> String? {
        do {
            return try ISBN.normalized(formulaText(text))
        } catch {
            throw FieldProblem(reason: error.reason)
        }
    }

    /// A value trimmed, and read as the text inside when a spreadsheet wrote it as a text formula, `="0439023483"`
    /// (Goodreads' library export writes every ISBN so, and an empty one as `=""`; Excel users write numbers so to
    /// keep their leading zeros); a quote inside is doubled (`=""""` is one quote). Numbers and ISBNs are read so.
    ///
    ///     FieldParsing.formulaText(" =\"0439023483\" ")  // "0439023483"
    ///     FieldParsing.formulaText("=\"\"")              // ""
    public static func formulaText(_ text: String) -> String {
        let value = trimmed(text)
        guard value.utf8.count >= 3, value.hasPrefix("=\""), value.hasSuffix("\"") else { return value }
        let inner = value.dropFirst(2).dropLast()
        // Inside, every quote is doubled: a lone one means this is no single text formula (`="a"&"b"`).
        let pieces = inner.split(separator: "\"\"", omittingEmptySubsequences: false)
        guard pieces.allSatisfy({ !$0.contains("\"") }) else { return value }
        return trimmed(pieces.joined(separator: "\""))
    }

    // MARK: - Private

    static func trimmed(_ text: String) -> String {
        // Every field of every imported row comes through here: a field with nothing to trim is returned as it is,
        // and one with something to trim is cut once, without rebuilding it scalar by scalar.
        // Most fields start and end with a printable ASCII byte: nothing to trim, decided without walking scalars.
        let printableEnds = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80
        }
        if printableEnds == true { return text }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isWhitespace(scalars[start]) { start = scalars.index(after: start) }
        while start < end {
            let before = scalars.index(before: end)
            guard isWhitespace(scalars[before]) else { break }
            end = before
        }
        if start == scalars.startIndex && end == scalars.endIndex { return text }
        return String(Substring(scalars[start..<end]))
    }

    /// Unicode's White_Space property, answered without a table look-up for ASCII.
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    /// `2008`, `-720`, `+12`, `1997.0`, `1997.00` → the whole number; anything else (`1997.5`, `1e3`, `abc`, a
    /// number beyond `Int`) → nil. Read on the bytes: every imported year and page count comes through here.
    private static func wholeNumber(_ value: String) -> Int? {
        var value = value
        return value.withUTF8 { bytes in
            var index = 0
            let negative = bytes.first == UInt8(ascii: "-")
            if negative || bytes.first == UInt8(ascii: "+") { index = 1 }
            var number = 0
            let firstDigit = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                let digit = Int(bytes[index] - 0x30)
                let (tens, overflowed) = number.multipliedReportingOverflow(by: 10)
                let (next, overflowedAgain) =
                    negative ? tens.subtractingReportingOverflow(digit) : tens.addingReportingOverflow(digit)
                guard !overflowed, !overflowedAgain else { return nil }
                number = next
                index += 1
            }
            guard index > firstDigit else { return nil }
            guard index < bytes.count else { return number }
            // A fraction of zeros only, at least one.
            guard bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count else { return nil }
            for byte in bytes[(index + 1)...] where byte != UInt8(ascii: "0") { return nil }
            return number
        }
    }
}
