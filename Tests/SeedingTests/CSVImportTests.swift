import Foundation
import Seeding
import Testing

@Suite("Importing CSV catalogs: edge cases through the whole import")
struct CSVImportTests {
    @Test("quoted fields keep embedded newlines, commas and doubled quotes; BOM and CRLF are handled")
    func quotingBOMAndCRLF() throws {
        let library = try TestLibrary()
        let text =
            "\u{FEFF}Title,Author,Year,Pages,ISBN,Description\r\n"
            + "\"Dune, Messiah\",Frank Herbert,1969,256,,\"He said \"\"no\"\".\r\nThen left.\"\r\n"
            + "The Odyssey,Homer,-725.0,541,0-14-026886-3,\r\n"
        try library.write("books.csv", text)
        let report = try library.importFiles(["books.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 2))
        #expect(
            try library.books() == [
                BookRecord(
                    title: "Dune, Messiah", author: "Frank Herbert", year: 1969, pages: 256,
                    description: "He said \"no\".\r\nThen left."),
                BookRecord(title: "The Odyssey", author: "Homer", year: -725, pages: 541, isbn: "9780140268867"),
            ])
    }

    @Test("a long list of co-authors (goodbooks-10k has one of 742 characters) is imported whole")
    func longCoAuthorList() throws {
        let library = try TestLibrary()
        let authors = (1...40).map { "Contributor Number \($0)" }.joined(separator: ", ")
        #expect(authors.count > 742)
        try library.write("books.csv", "title,authors\nAn Anthology,\"\(authors)\"\n")
        let report = try library.importFiles(["books.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 1))
        #expect(try library.books() == [BookRecord(title: "An Anthology", author: authors)])
    }

    @Test("empty fields are unknown values, not zeros")
    func emptyFields() throws {
        let library = try TestLibrary()
        try library.write("books.csv", "title,author,year,pages,isbn,description\nAnonymous Tales,,,,,\n")
        _ = try library.importFiles(["books.csv"])
        #expect(try library.books() == [BookRecord(title: "Anonymous Tales")])
    }

    @Test("a bad year on row 3 names file, line and column, and nothing is imported")
    func badYearImportsNothing() throws {
        let library = try TestLibrary()
        _ = try library.store.importBooks([.init(title: "Already Here")])
        let before = try library.dump()
        let path = try library.write(
            "books.csv", "title,author,year\nA,X,2001\nB,Y,2002\nC,Z,19x7\nD,W,2004\n")
        let error = try dataError { _ = try library.importFiles(["books.csv"]) }
        #expect(error == DataError(file: path, line: 4, column: 3, field: "year", reason: error.reason))
        #expect(error.reason.hasPrefix("'19x7' is not a year"))
        #expect("\(error)".hasPrefix("\(path): line 4, column 3 (year): '19x7' is not a year"))
        #expect(try library.dump() == before)
    }

    @Test(
        "too many or too few fields are bad data naming the line", arguments: ["A,X,1\nB,Y\n", "A,X,1\nB,Y,2,extra\n"])
    func fieldCount(rows: String) throws {
        let library = try TestLibrary()
        let before = try library.dump()
        try library.write("books.csv", "title,author,year\n" + rows)
        let error = try dataError { _ = try library.importFiles(["books.csv"]) }
        #expect(error.line == 3)
        #expect(error.reason.contains("header has 3"))
        #expect(try library.dump() == before)
    }

    @Test("invalid UTF-8 is bad data, with the column named")
    func invalidUTF8() throws {
        let library = try TestLibrary()
        let path = try library.write(
            "books.csv", Array("title,author\nGood,One\nBad,".utf8) + [0xC3, 0x28] + Array("\n".utf8))
        let error = try dataError { _ = try library.importFiles(["books.csv"]) }
        #expect(error == DataError(file: path, line: 3, column: 2, field: "author", reason: "invalid UTF-8"))
        #expect(try library.books().isEmpty)
    }

    @Test("a status column sets new books' status; an unknown status is bad data")
    func status() throws {
        let library = try TestLibrary()
        try library.write("books.csv", "title,status\nA,Lost\nB,\nC,withdrawn\n")
        _ = try library.importFiles(["books.csv"])
        #expect(try library.books().map(\.status) == [.lost, nil, .withdrawn])
        try library.write("bad.csv", "title,status\nD,borrowed\n")
        let error = try dataError { _ = try library.importFiles(["bad.csv"]) }
        #expect(error.column == 2 && error.field == "status" && error.reason.hasPrefix("'borrowed' is not a status"))
    }

    @Test("a header without a title column is refused on line 1")
    func noTitleColumn() throws {
        let library = try TestLibrary()
        try library.write("books.csv", "author,year\nHomer,-725\n")
        let error = try dataError { _ = try library.importFiles(["books.csv"]) }
        #expect(error.line == 1)
        #expect(error.reason.hasPrefix("no title column"))
    }

    @Test("an empty file has no header: bad data, not a crash")
    func emptyFile() throws {
        let library = try TestLibrary()
        try library.write("books.csv", "")
        let error = try dataError { _ = try library.importFiles(["books.csv"]) }
        #expect(error.reason == "the file has no header row")
    }

    @Test("a clients CSV is found by its card number column and imported")
    func clientsCSV() throws {
        let library = try TestLibrary()
        try library.write("people.csv", "Name,Card,Limit,Default\nAda,A-1,3,yes\nBo,B-2,,no\n")
        let report = try library.importFiles(["people.csv"])
        #expect(report.clients == ImportReport.Counts(inserted: 2))
        #expect(report.defaultClientCard == "A-1")
        #expect(
            try library.clients() == [
                ClientRecord(name: "Ada", cardNumber: "A-1", loanLimit: 3, isDefault: true),
                ClientRecord(name: "Bo", cardNumber: "B-2", loanLimit: 5),
            ])
    }

    @Test("a bad loan limit in a clients file names the column")
    func badLoanLimit() throws {
        let library = try TestLibrary()
        let path = try library.write("clients.csv", "name,card_number,loan_limit\nAda,A-1,many\n")
        let error = try dataError { _ = try library.importFiles(["clients.csv"]) }
        #expect(error.file == path && error.line == 2 && error.column == 3 && error.field == "loan_limit")
        #expect(try library.clients().isEmpty)
    }

    @Test("expecting books but given clients is bad data")
    func expectingBooks() throws {
        let library = try TestLibrary()
        try library.write("clients.csv", "name,card_number\nAda,A-1\n")
        let error = try dataError { _ = try library.importFiles(["clients.csv"], expecting: .books) }
        #expect(error.reason.contains("clients file"))
    }
}
