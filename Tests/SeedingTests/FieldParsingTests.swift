import Seeding
import Testing

@Suite("Reading catalog values as people and spreadsheets write them")
struct FieldParsingTests {
    @Test(
        "years: whole numbers, negative before the common era, floats with a zero fraction",
        arguments: [("1997", 1997), ("1997.0", 1997), ("-720.0", -720), (" 2008 ", 2008), ("+12", 12), ("0", 0)])
    func years(text: String, year: Int) throws {
        #expect(try FieldParsing.year(text) == year)
    }

    @Test("bad years are refused with the value in the reason", arguments: ["1997.5", "abc", "1e3", "12345", "--1"])
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

    @Test("an ISBN a spreadsheet turned into a float has lost digits and reads as none")
    func floatISBN() throws {
        #expect(try FieldParsing.isbn("9.78043902348e+12") == nil)
    }

    @Test("other ISBN shapes are refused", arguments: ["12345", "97804411727190", "ISBN", "978044117271X", "61120082"])
    func badISBN(text: String) {
        #expect(throws: FieldParsing.FieldProblem.self) { try FieldParsing.isbn(text) }
    }

    @Test("yes and no")
    func flags() throws {
        #expect(try FieldParsing.flag("Yes") == true)
        #expect(try FieldParsing.flag("") == false)
        #expect(throws: FieldParsing.FieldProblem.self) { try FieldParsing.flag("maybe") }
    }
}
