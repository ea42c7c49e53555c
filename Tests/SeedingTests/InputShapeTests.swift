import Foundation
import Seeding
import Testing

@Suite("Input files of the wrong shape are named for what they are; pipes and spreadsheet formulas are read")
struct InputShapeTests {
    private func problem(_ library: TestLibrary, _ name: String, _ bytes: [UInt8]) throws -> String {
        let path = try library.write(name, bytes)
        do {
            _ = try CatalogSource.open(path: path).readAll()
        } catch let error as DataError {
            return error.description
        }
        Issue.record("\(name) was read")
        return ""
    }

    // MARK: - One JSON object

    @Test("one pretty-printed JSON object says so, not 'unexpected end of input'")
    func prettyPrintedObject() throws {
        let library = try TestLibrary()
        let single = try problem(library, "one.json", Array("{\n  \"title\": \"A\"\n}\n".utf8))
        #expect(
            single.hasSuffix(
                "one.json: line 1: expected a JSON array of objects or JSON Lines (one object per line); this is "
                    + "one object over several lines: put each object on one line, or the objects in [ ]"), "\(single)")
        let wrapped = try problem(
            library, "books.json",
            Array("{\n  \"version\": 1,\n  \"books\": [\n    {\"title\": \"A\"}\n  ]\n}\n".utf8))
        #expect(
            wrapped.hasSuffix(
                "this is one object, with the records in its member 'books' (jq '.books' gives them as an array)"),
            "\(wrapped)")
        // The same made compact (`jq -c .`), one line: JSON Lines of one record holding the others.
        for (file, text) in [
            ("books.jsonl", #"{"version":1,"books":[{"title":"A"}]}"# + "\n"),
            ("clients.jsonl", #"{"version":1,"defaultClientId":1,"clients":[{"name":"A","cardNumber":"a"}]}"#),
        ] {
            let compact = try problem(library, file, Array(text.utf8))
            let member = file.hasPrefix("books") ? "books" : "clients"
            #expect(
                compact.hasSuffix(
                    "\(file): line 1: expected a JSON array of objects or JSON Lines (one object per line); this is one "
                        + "object, with the records in its member '\(member)' (jq '.\(member)' gives them as an array)"),
                "\(compact)")
        }
        // A first line that is bad JSON and no whole object keeps its own message.
        let broken = try problem(library, "bad.jsonl", Array("{\"title\": \n{\"title\": \"B\"}\n".utf8))
        #expect(!broken.contains("one object"), "\(broken)")
    }

    // MARK: - Not UTF-8 text

    @Test(
        "UTF-16, gzip and ZIP files are named as such",
        arguments: [
            ([0xFF, 0xFE] + Array("t\0i\0".utf8), "the file is UTF-16 encoded; save it as UTF-8"),
            ([0xFE, 0xFF] + Array("\0t\0i".utf8), "the file is UTF-16 encoded; save it as UTF-8"),
            (Array("t\0i\0t\0".utf8), "the file is UTF-16 encoded; save it as UTF-8"),
            ([0x1F, 0x8B, 0x08, 0x00], "the file is gzip-compressed; decompress it first (gunzip)"),
            (Array("PK\u{03}\u{04}xx".utf8), "the file is a ZIP archive"),
        ] as [([UInt8], String)])
    func notUTF8(bytes: [UInt8], message: String) throws {
        let library = try TestLibrary()
        for name in ["books.csv", "books.json", "books"] {
            let found = try problem(library, name, bytes)
            #expect(found.hasPrefix(library.file(name) + ": " + message), "\(found)")
        }
    }

    @Test("a header separated by semicolons or tabs says so")
    func otherSeparator() throws {
        let library = try TestLibrary()
        let semicolons = try problem(library, "s.csv", Array("title;author\nA;B\n".utf8))
        #expect(
            semicolons.hasSuffix(
                "line 1: no title column: the header 'title;author' looks separated by ';', but librarycli reads "
                    + "comma-separated files; save it with commas"), "\(semicolons)")
        let tabs = try problem(library, "t.csv", Array("name\tcard_number\nA\t1\n".utf8))
        #expect(tabs.contains("the header 'name\\tcard_number' looks separated by tabs"), "\(tabs)")
        // A header of one column without a separator keeps the usual message.
        let plain = try problem(library, "p.csv", Array("titel\nA\n".utf8))
        #expect(plain.hasSuffix("no title column: the header needs one of title, name, book_title, original_title"))
    }

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
