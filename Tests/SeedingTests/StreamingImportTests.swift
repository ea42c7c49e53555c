import Foundation
import Library
import Seeding
import Testing

@Suite("Streamed imports: the same results as reading whole files, in one transaction")
struct StreamingImportTests {
    /// Books with quoted multi-line fields, a BOM, CRLF, an ISBN-10, a mangled ISBN (a warning), a book without an
    /// ISBN, a repeated ISBN, and a second copy of a book without one, with enough rows to cross the 1 MiB chunks.
    static func books(rows: Int) -> String {
        var text = "\u{FEFF}title,author,year,pages,isbn,description\r\n"
        text += "\"Dune, Messiah\",Frank Herbert,1969,256,,\"He said \"\"no\"\".\r\nThen left.\"\r\n"
        text += "The Odyssey,Homer,-725.0,541,0-14-026886-3,\r\n"
        for number in 1...rows {
            let isbn = String(9_798_000_000_000 + number * 10)
            let checked = isbn.dropLast() + String(checkDigit(String(isbn.dropLast())))
            text += "\"Book \(number)\",\"Author, \(number % 97)\",\(1900 + number % 120),\(number % 900 + 1),"
            text += "\(checked),\"Line one of \(number).\nLine two, with \"\"quotes\"\".\"\r\n"
        }
        text += "Mangled,Someone,2001,,12345X,\r\n"
        text += "The Odyssey (again),Homer,,,978-0-14-026886-7,\r\n"
        text += "\"Dune, Messiah\",Frank Herbert,1969,,,\"Another copy\"\r\n"
        text += "Last,No Newline,,,,"
        return text
    }

    static func checkDigit(_ twelve: String) -> Int {
        let sum = twelve.utf8.enumerated().reduce(0) { sum, item in
            sum + Int(item.element - 0x30) * (item.offset % 2 == 0 ? 1 : 3)
        }
        return (10 - sum % 10) % 10
    }

    @Test("a streamed import gives the report and rows of an import of the files read whole")
    func sameAsWhole() throws {
        let streamed = try TestLibrary()
        let whole = try TestLibrary()
        for library in [streamed, whole] {
            try library.write("books.csv", Self.books(rows: 12_000))
            try library.write(
                "more.jsonl",
                "{\"title\": \"Emma\", \"author\": \"Jane Austen\", \"year\": 1815}\n\n"
                    + "{\"title\": \"Beowulf\", \"isbn\": \"12345\"}\n"
                    + "{\"title\": \"Emma\", \"author\": \"Jane Austen\", \"year\": 1815, \"pages\": 9}\n")
            try library.write("clients.csv", "name,card_number,default\nAda,A-1,yes\n")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: streamed.file("books.csv"))).count > 1 << 20)
        let names = ["books.csv", "more.jsonl", "clients.csv"]
        let report = try streamed.importFiles(names)
        let files = try names.map { try CatalogFile.read(path: whole.file($0)) }
        var expected = try CatalogImport.importFiles(files, into: whole.store, now: whole.now)
        expected.files = expected.files.map { $0.replacing(whole.path, with: streamed.path) }
        expected.warnings = expected.warnings.map { $0.replacing(whole.path, with: streamed.path) }
        #expect(report == expected)
        // The repeated ISBN is skipped; the second copies of "Dune, Messiah" and "Emma" (no ISBN) are books too.
        #expect(report.books == ImportReport.Counts(inserted: 12_008, skipped: 1))
        #expect(report.clients == ImportReport.Counts(inserted: 1))
        #expect(report.warnings.count == 3)
        // By file, then by line: books.csv's bad ISBN, its repeat (line 24006), then more.jsonl's bad ISBN.
        #expect(
            report.warnings[0].hasSuffix("imported without it") && report.warnings[2].hasSuffix("imported without it"))
        #expect(report.warnings[2].contains("more.jsonl: line 3"))
        #expect(
            report.warnings[1]
                == "\(streamed.file("books.csv")): line 24006 repeats \(streamed.file("books.csv")) line 4 "
                + "(ISBN 9780140268867); skipped")
        #expect(try streamed.dump() == whole.dump())
        let books = try streamed.books()
        #expect(books[0].description == "He said \"no\".\r\nThen left.")
        #expect(books[2].description == "Line one of 1.\nLine two, with \"quotes\".")
        #expect(books.suffix(3).map(\.title) == ["Emma", "Beowulf", "Emma"])
        // Idempotent: the second run changes nothing.
        let before = try streamed.dump()
        let again = try streamed.importFiles(names)
        #expect(again.books == ImportReport.Counts(unchanged: 12_008, skipped: 1))
        #expect(try streamed.dump() == before)
    }

    @Test("a bad last row of 5,000 writes nothing and names its file and line", arguments: ["csv", "jsonl"])
    func badLastRow(format: String) throws {
        let library = try TestLibrary()
        _ = try library.store.importBooks([NewBook(title: "Already Here")])
        let before = try library.dump()
        let text: String
        if format == "csv" {
            let rows = (1...5_000).map { "Book \($0),Author,\(1_000 + $0 % 900)\n" }.joined()
            text = "title,author,year\n" + rows + "Last,Author,later\n"
        } else {
            let rows = (1...5_000).map { "{\"title\": \"Book \($0)\", \"year\": \(1_000 + $0 % 900)}\n" }.joined()
            text = "\n" + rows + "{\"title\": \"Last\", \"year\": \"later\"}\n"
        }
        let path = try library.write("books.\(format)", text)
        let error = try dataError { _ = try library.importFiles(["books.\(format)"]) }
        #expect(error.file == path && error.line == 5_002 && error.field == "year")
        #expect(error.reason.hasPrefix("'later' is not a year"))
        #expect(try library.dump() == before)
        // A JSON syntax error on the last line, too.
        try library.write("broken.jsonl", "{\"title\": \"A\"}\n{\"title\": \"B\"}\n{\"title\": }\n")
        let syntax = try dataError { _ = try library.importFiles(["broken.jsonl"]) }
        #expect(syntax.line == 3 && syntax.column == 11)
        #expect(try library.dump() == before)
    }

    @Test("ISBN repeats across two streamed files are skipped and reported with both files and lines; copies are not")
    func repeatsAcrossFiles() throws {
        let library = try TestLibrary()
        try library.write("a.csv", "title,author,year,isbn\nDune,Frank Herbert,1965,9780441172719\nBeowulf,,,\n")
        try library.write(
            "b.jsonl",
            "{\"title\": \"Beowulf\"}\n{\"title\": \"Dune\", \"isbn\": \"0-441-17271-7\"}\n{\"title\": \"Emma\"}\n")
        let report = try library.importFiles(["a.csv", "b.jsonl"])
        #expect(report.books == ImportReport.Counts(inserted: 4, skipped: 1))
        #expect(
            report.warnings == [
                "\(library.file("b.jsonl")): line 2 repeats \(library.file("a.csv")) line 2 (ISBN 9780441172719); "
                    + "skipped"
            ])
        #expect(try library.books().map(\.title) == ["Dune", "Beowulf", "Beowulf", "Emma"])
    }

    @Test("a dry run of a streamed file writes nothing and reports what the real import then does")
    func dryRun() throws {
        let library = try TestLibrary()
        try library.write("books.csv", Self.books(rows: 300))
        let before = try library.dump()
        let preview = try library.importFiles(["books.csv"], dryRun: true)
        #expect(preview.dryRun && preview.books.inserted == 305)
        #expect(try library.dump() == before)
        var real = try library.importFiles(["books.csv"])
        real.dryRun = true
        #expect(real == preview)
    }

    @Test("progress counts the rows of a streamed file first, then reports every N rows and at the end")
    func progress() throws {
        let library = try TestLibrary()
        let rows = (1...25).map { "Book \($0),\"first line\nsecond line\"" }.joined(separator: "\r\n")
        try library.write("books.csv", "title,description\r\n\r\n" + rows + "\r\n")
        try library.write("more.jsonl", "{\"title\": \"X\"}\n\n{\"title\": \"Y\"}")
        var calls: [[Int]] = []
        _ = try CatalogImport.importFiles(
            [library.file("books.csv"), library.file("more.jsonl")], into: library.store, now: library.now,
            options: ImportOptions(progressInterval: 10)
        ) { done, total in calls.append([done, total]) }
        #expect(calls == [[10, 27], [20, 27], [27, 27]])
    }

    @Test("a source reads the same records again after restart(), and counting leaves it at the start")
    func restart() throws {
        let library = try TestLibrary()
        for name in ["books.csv", "books.jsonl", "books.json"] {
            let text =
                name.hasSuffix(".csv")
                ? "title,description\nA,1\nB,\"b\nb\"\nC,3\n"
                : name.hasSuffix(".jsonl")
                    ? "{\"title\": \"A\"}\n{\"title\": \"B\"}\n{\"title\": \"C\"}\n"
                    : "[{\"title\": \"A\"}, {\"title\": \"B\"},\n {\"title\": \"C\"}]"
            let source = try CatalogSource.open(path: try library.write(name, text))
            #expect(try source.countRecords() == 3)
            let first = try source.next()
            _ = try source.next()
            try source.restart()
            #expect(try source.next() == first)
            try source.restart()
            #expect(try source.readAll().books.map(\.title) == ["A", "B", "C"])
        }
    }
}
