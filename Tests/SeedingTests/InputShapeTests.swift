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

    // MARK: - Pipes

    @Test("a pipe is read whole: /dev/stdin and a shell's <(...) name one")
    func pipe() throws {
        let library = try TestLibrary()
        var ends: [Int32] = [0, 0]
        #expect(Glibc.pipe(&ends) == 0)
        defer { close(ends[0]) }
        let text = Array("title,author\nDune,Frank Herbert\nEmma,Jane Austen\n".utf8)
        #expect(write(ends[1], text, text.count) == text.count)
        close(ends[1])
        let source = try CatalogSource.open(path: "/proc/self/fd/\(ends[0])", name: "standard input")
        #expect(source.name == "standard input" && source.format == .csv)
        let report = try CatalogImport.importFiles([source], into: library.store, now: library.now)
        #expect(report.books.inserted == 2 && report.files == ["standard input"])

        // A named pipe that nobody writes to is refused at once, not waited on.
        let fifo = library.file("books.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(
            throws: InputFileError(
                path: fifo, reason: .unreadable("it is a pipe that gave nothing (is anything writing to it?)"))
        ) {
            try CatalogSource.open(path: fifo)
        }
    }
}
