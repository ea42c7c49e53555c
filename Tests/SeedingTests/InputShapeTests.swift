import Foundation
import Seeding
import Testing

@Suite("Input files of the wrong shape are named for what they are; pipes and spreadsheet formulas are read")
struct InputShapeTests {
    // MARK: - Spreadsheet formulas

    @Test("Goodreads' =\"...\" ISBNs are read as the text inside, and =\"\" as empty without a warning")
    func goodreadsFormulas() throws {
        let library = try TestLibrary()
        try library.write(
            "goodreads.csv",
            "Title,Author,ISBN,ISBN13,Year Published\nX,Y,\"=\"\"0439023483\"\"\",\"=\"\"9780439023481\"\"\",\"=\"\"2008\"\"\"\n"
                + "Z,W,\"=\"\"\"\"\",\"=\"\"\"\"\",\n")
        let report = try library.importFiles(["goodreads.csv"])
        #expect(report.warnings == [], "\(report.warnings)")
        let books = try library.books()
        #expect(books.map(\.isbn) == ["9780439023481", nil])
        #expect(books.map(\.year) == [2008, nil])
        #expect(FieldParsing.formulaText(" =\"0439023483\" ") == "0439023483")
        #expect(FieldParsing.formulaText("=\"a\"\"b\"") == "a\"b")
        #expect(FieldParsing.formulaText("=\"a\"&\"b\"") == "=\"a\"&\"b\"")
        #expect(FieldParsing.formulaText("=\"") == "=\"")
        #expect(try FieldParsing.pages("=\"412\"") == 412)
    }
}
