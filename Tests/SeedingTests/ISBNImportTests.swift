import Library
import Seeding
import Testing

@Suite("Imports keep only ISBNs that hold, and warn of every one left out")
struct ISBNImportTests {
    @Test("an ISBN that is no ISBN (a wrong check digit, zeros) is left out with a warning; the row is imported")
    func unusableLeftOut() throws {
        let library = try TestLibrary()
        try library.write(
            "books.csv",
            "title,author,isbn\nA,X,0\nB,Y,0\nC,Z,9780306406158\nD,W,1234567890\nE,V,123456789X\n")
        let report = try library.importFiles(["books.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 5))
        #expect(try library.books().map(\.isbn) == [nil, nil, nil, nil, "9781234567897"])
        let file = library.file("books.csv")
        #expect(report.warnings.count == 4)
        #expect(report.warnings[0].hasPrefix("\(file): line 2, column 3 (isbn): '0' is not an ISBN"))
        #expect(report.warnings[1].hasPrefix("\(file): line 3, column 3 (isbn): '0' is not an ISBN"))
        #expect(report.warnings[2].hasPrefix("\(file): line 4, column 3 (isbn): '9780306406158' is not an ISBN"))
        #expect(report.warnings[3].hasPrefix("\(file): line 5, column 3 (isbn): '1234567890' is not an ISBN"))
        #expect(report.warnings.allSatisfy { $0.hasSuffix("; imported without it") })
    }

    @Test("an ISBN a spreadsheet wrote as a float is left out with a warning, in CSV and JSON")
    func floatWarns() throws {
        let library = try TestLibrary()
        try library.write("books.csv", "title,isbn\nCatching Fire,9.78043902348e+12\n")
        try library.write("books.jsonl", #"{"title": "Mockingjay", "isbn": 9.78043902351e+12}"# + "\n")
        let report = try library.importFiles(["books.csv", "books.jsonl"])
        #expect(report.books == ImportReport.Counts(inserted: 2))
        #expect(try library.books().map(\.isbn) == [nil, nil])
        #expect(report.warnings.count == 2)
        #expect(
            report.warnings.first?.hasPrefix(
                "\(library.file("books.csv")): line 2, column 2 (isbn): '9.78043902348e+12' is an ISBN a spreadsheet")
                == true)
        // A JSON number is read as the number it is (9780439023510.0), which is no ISBN: the lost digits are a guess.
        let json = try #require(report.warnings.last)
        #expect(json.hasPrefix("\(library.file("books.jsonl")): line 1, key \"isbn\": '"), "\(json)")
        #expect(json.contains("a spreadsheet may have turned the ISBN into a number"), "\(json)")
    }

    @Test("an ISBN a spreadsheet wrote as a float with all its digits is imported, without a warning")
    func wholeFloatImports() throws {
        let library = try TestLibrary()
        try library.write("books.csv", "title,isbn\nCatching Fire,9.780439023481e+12\nDune,9780441172719.0\n")
        let report = try library.importFiles(["books.csv"])
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(try library.books().map(\.isbn) == ["9780439023481", "9780441172719"])
    }
}

@Suite("An import's warnings come in the order of their lines")
struct WarningOrderTests {
    @Test("a repeated ISBN on line 3 comes before the bad ISBNs of later lines, in CSV and in a JSON array")
    func byLine() throws {
        let library = try TestLibrary()
        let bad = (4...8).map { "B\($0),9780306406158\n" }.joined()
        try library.write("books.csv", "title,isbn\nA,9780441172719\nA again,9780441172719\n" + bad)
        let report = try library.importFiles(["books.csv"])
        // Each warning's first "line N".
        let lines = report.warnings.map { warning in
            warning.split(separator: " ").drop { $0 != "line" }.dropFirst().first?.prefix { $0.isNumber }
        }
        #expect(lines == ["3", "4", "5", "6", "7", "8"], "\(report.warnings)")

        let json = (4...6).map { #"{"title": "B\#($0)", "isbn": "9780306406158"}"# }
        try library.write(
            "books.json",
            "[\n"
                + ([#"{"title": "A", "isbn": "9780441172719"}"#, #"{"title": "A", "isbn": "9780441172719"}"#]
                + json).joined(separator: ",\n") + "\n]\n")
        let again = try library.importFiles(["books.json"])
        #expect(again.warnings.first?.contains("line 3 repeats") == true, "\(again.warnings)")
        #expect(again.warnings.count == 4)
    }
}
