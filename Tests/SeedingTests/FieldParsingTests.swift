import Library
import Seeding
import StoreTestSupport
import Testing

@Suite("Reading catalog values as people and spreadsheets write them")
struct FieldParsingTests {
    @Test(
        "years: whole numbers, negative before the common era, floats with a zero fraction",
        arguments: [("1997", 1997), ("1997.0", 1997), ("-720.0", -720), (" 2008 ", 2008), ("+12", 12), ("-1", -1)])
    func years(text: String, year: Int) throws {
        #expect(try FieldParsing.year(text) == year)
    }

    @Test(
        "bad years are refused with the value in the reason; there is no year 0",
        arguments: ["1997.5", "abc", "1e3", "12345", "--1", "0", "-0", "0.0"])
    func badYears(text: String) {
        #expect(throws: FieldParsing.FieldProblem.self) { try FieldParsing.year(text) }
        do {
            _ = try FieldParsing.year(text)
        } catch {
            #expect(error.reason.contains("'\(text)'"))
        }
    }

    @Test("empty values are absent, not errors")
    func empty() throws {
        #expect(try FieldParsing.year("") == nil)
        #expect(try FieldParsing.pages("  ") == nil)
        #expect(try FieldParsing.isbn("") == nil)
    }

    @Test("page counts are positive", arguments: ["0", "-3", "12.5", "many"])
    func badPages(text: String) {
        #expect(throws: FieldParsing.FieldProblem.self) { try FieldParsing.pages(text) }
    }

    @Test(
        "ISBNs become ISBN-13 digits",
        arguments: [
            ("9780441172719", "9780441172719"),
            ("978-0-441-17271-9", "9780441172719"),
            ("0441172717", "9780441172719"),
            ("439023483", "9780439023481"),  // a spreadsheet dropped the leading zero
            ("61120081", "9780061120084"),  // ... or two of them
            ("080442957X", "9780804429573"),
        ])
    func isbns(text: String, isbn: String) throws {
        #expect(try FieldParsing.isbn(text) == isbn)
    }

    @Test("an ISBN a spreadsheet turned into a float has lost digits and is refused with a reason")
    func floatISBN() throws {
        #expect(throws: FieldParsing.FieldProblem.self) { try FieldParsing.isbn("9.78043902348e+12") }
        do {
            _ = try FieldParsing.isbn("9.78043902348e+12")
        } catch {
            #expect(error.reason.contains("'9.78043902348e+12'") && error.reason.contains("spreadsheet"))
        }
    }

    @Test(
        "other ISBN shapes, wrong check digits, other prefixes and zeros are refused",
        arguments: [
            "12345", "97804411727190", "ISBN", "978044117271X", "61120082",
            "9780306406158",  // ISBN-13 check digit wrong (7 is right)
            "9770306406155",  // 977: not an ISBN prefix (an ISSN's)
            "1234567890",  // ISBN-10 check digit wrong (X is right)
            "0441172718",  // ... and another
            "0", "0000000000", "9780000000002",  // placeholders of zeros
        ])
    func badISBN(text: String) {
        #expect(throws: FieldParsing.FieldProblem.self) { try FieldParsing.isbn(text) }
    }

    @Test(
        "ISBN-10s and ISBN-13s whose check digits hold are kept",
        arguments: [
            ("123456789X", "9781234567897"), ("123456789x", "9781234567897"), ("9780306406157", "9780306406157"),
            ("979-10-90636-07-1", "9791090636071"), ("0-306-40615-2", "9780306406157"),
        ])
    func validISBN(text: String, isbn: String) throws {
        #expect(try FieldParsing.isbn(text) == isbn)
    }

    @Test("yes and no")
    func flags() throws {
        #expect(try FieldParsing.flag("Yes") == true)
        #expect(try FieldParsing.flag("") == false)
        #expect(throws: FieldParsing.FieldProblem.self) { try FieldParsing.flag("maybe") }
    }
}

/// The ISBN and whole-number readers work on bytes; these are their definitions, on strings, as they were first
/// written, and random values must read the same through both.
@Suite("Catalog values read on bytes read as their definitions do")
struct FieldParsingDefinitionTests {
    @Test("random years, page counts and ISBNs")
    func randomValues() {
        var generator = SeededRandom(seed: 0x15B0)
        let pieces = ["0", "1", "2", "4", "9", "3", "7", "-", "+", " ", ".", "X", "x", "e", "E", "00", "é", "٣"]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 16)
            let text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(Self.read { try FieldParsing.isbn(text) } == Self.isbn(text), "\(text)")
            #expect(Self.read { try FieldParsing.year(text) } == Self.year(text), "\(text)")
            #expect(Self.read { try FieldParsing.pages(text) } == Self.pages(text), "\(text)")
        }
        for text in ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809"] {
            #expect(Self.read { try FieldParsing.pages(text) } == Self.pages(text), "\(text)")
        }
    }

    /// `.some(nil)`: empty; `nil`: refused.
    static func read<Value>(_ parse: () throws -> Value?) -> Value?? {
        do { return .some(try parse()) } catch { return nil }
    }

    // MARK: - The definitions

    static func trimmed(_ text: String) -> String {
        String(
            text.unicodeScalars.drop(while: \.properties.isWhitespace).reversed().drop(while: \.properties.isWhitespace)
                .reversed().map(Character.init))
    }

    static func wholeNumber(_ value: String) -> Int? {
        var integerPart = Substring(value)
        if let dot = value.firstIndex(of: ".") {
            let fraction = value[value.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0 == "0" }) else { return nil }
            integerPart = value[..<dot]
        }
        return Int(integerPart)
    }

    /// `.some(nil)`: empty; `nil`: refused.
    static func year(_ text: String) -> Int?? {
        let value = trimmed(text)
        if value.isEmpty { return .some(nil) }
        guard let year = wholeNumber(value), LibraryRules.isYear(year) else { return nil }
        return year
    }

    static func pages(_ text: String) -> Int?? {
        let value = trimmed(text)
        if value.isEmpty { return .some(nil) }
        guard let pages = wholeNumber(value), (1...LibraryRules.maxPages).contains(pages) else { return nil }
        return pages
    }

    static func isbn(_ text: String) -> String?? {
        let value = trimmed(text)
        if value.isEmpty { return .some(nil) }
        if value.contains(".") || value.contains("e+") || value.contains("e-") || value.contains("E+")
            || value.contains("E-")
        {
            return nil
        }
        let kept = value.filter { $0 != "-" && $0 != " " }
        let isDigits = { (text: String) in !text.isEmpty && text.allSatisfy { ("0"..."9").contains($0) && $0.isASCII } }
        if kept.count == 13, isDigits(kept) {
            guard kept.hasPrefix("978") || kept.hasPrefix("979"),
                check13(Array(kept.prefix(12))) == Int(String(kept.last!))!,
                kept.dropFirst(3).prefix(9).contains(where: { $0 != "0" })
            else { return nil }
            return kept
        }
        var ten = kept
        if (7...9).contains(kept.count), isDigits(kept) {
            ten = String(repeating: "0", count: 10 - kept.count) + kept
        }
        if ten.count == 10, isDigits(String(ten.prefix(9))), let last = ten.last,
            ("0"..."9").contains(last) && last.isASCII || last == "X" || last == "x"
        {
            let body = ten.prefix(9)
            let sum = body.enumerated().reduce(0) { $0 + Int(String($1.element))! * (10 - $1.offset) }
            let check = (11 - sum % 11) % 11
            guard check == (last == "X" || last == "x" ? 10 : Int(String(last))!),
                body.contains(where: { $0 != "0" })
            else { return nil }
            return "978" + body + String(check13(Array("978" + body)))
        }
        return nil
    }

    static func check13(_ twelve: [Character]) -> Int {
        let sum = twelve.enumerated().reduce(0) { $0 + Int(String($1.element))! * ($1.offset % 2 == 0 ? 1 : 3) }
        return (10 - sum % 10) % 10
    }
}
