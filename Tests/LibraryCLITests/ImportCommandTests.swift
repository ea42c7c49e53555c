import Foundation
import Testing

@Suite("Import, export and books add from the command line")
struct ImportCommandTests {
    // MARK: - Copies

    @Test(
        "export then import into an empty database keeps both copies of a book and their statuses; again changes nothing",
        arguments: ["csv", "json"])
    func exportImportKeepsCopies(format: String) throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        for _ in 0..<2 {
            #expect(
                sandbox.run(["books", "add", "--title", "Dune", "--author", "Frank Herbert", "--year", "1965"]).code
                    == 0)
        }
        let withdrawn = sandbox.directory + "/withdrawn.csv"
        let copy = "Dune,Frank Herbert,1965,"
        try "title,author,year,status\n\(copy)\n\(copy)\n\(copy)withdrawn\n".write(
            toFile: withdrawn, atomically: true, encoding: .utf8)
        // Three copies in the file: the two already there are matched, a third, withdrawn, is added.
        let added = sandbox.run(["import", withdrawn])
        #expect(added.out.contains("books: 1 inserted, 0 updated, 2 unchanged, 0 skipped"), "\(added.out)")
        let file = sandbox.directory + "/cp.\(format)"
        #expect(sandbox.run(["export", "--format", format, "-o", file]).code == 0)
        let other = sandbox.directory + "/other.sqlite"
        sandbox.run(["--db", other, "init", "--empty"])
        let imported = sandbox.run(["--db", other, "import", file])
        #expect(imported.code == 0)
        #expect(imported.out.contains("books: 3 inserted, 0 updated, 0 unchanged, 0 skipped"), "\(imported.out)")
        #expect(!imported.err.contains("repeats"), "\(imported.err)")
        let original = sandbox.run(["export", "--format", format]).out
        #expect(sandbox.run(["--db", other, "export", "--format", format]).out == original)
        #expect(original.contains("withdrawn"))
        let again = sandbox.run(["--db", other, "import", file])
        #expect(again.out.contains("books: 0 inserted, 0 updated, 3 unchanged, 0 skipped"), "\(again.out)")
        #expect(sandbox.run(["--db", other, "export", "--format", format]).out == original)
    }

    // MARK: - Columns a file leaves out

    @Test("re-importing a demo book from a file with only title and isbn keeps its author, year, pages, description")
    func missingColumnsKeepFields() throws {
        let sandbox = Sandbox()
        sandbox.run(["init"])
        func odyssey() throws -> [String: Any] {
            let listed = try parseJSON(sandbox.run(["--json", "books", "--search", "9780140268867"]).out)
            return try #require((listed["books"] as? [[String: Any]])?.first)
        }
        let before = try odyssey()
        #expect(before["author"] as? String == "Homer")
        let path = sandbox.directory + "/p.csv"
        try "title,isbn\nThe Odyssey,9780140268867\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = sandbox.run(["import", path])
        #expect(result.out.contains("0 updated, 1 unchanged"), "\(result.out)")
        let after = try odyssey()
        for key in ["title", "author", "year", "pages", "description", "isbn"] {
            #expect("\(after[key] ?? "nil")" == "\(before[key] ?? "nil")", "\(key)")
        }
    }

    // MARK: - ISBNs

    @Test(
        "books add refuses an ISBN whose check digit fails, or zeros, as a usage error, and adds nothing",
        arguments: ["9780306406158", "1234567890", "0", "9770306406155", "9.78043902348e+12"])
    func booksAddRefusesBadISBN(isbn: String) throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let before = try sandbox.dump()
        let result = sandbox.run(["books", "add", "--title", "T", "--isbn", isbn])
        #expect(result.code == 64)
        #expect(result.err.contains("Invalid value '\(isbn)' for '--isbn"), "\(result.err)")
        #expect(result.err.contains("check digit"), "\(result.err)")
        #expect(try sandbox.dump() == before)
    }

    @Test("books add keeps a valid ISBN-10 (X included) as its ISBN-13")
    func booksAddKeepsValidISBN() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let added = sandbox.run(["--json", "books", "add", "--title", "T", "--isbn", "123456789X"])
        #expect(added.code == 0, "\(added.err)")
        let book = try #require(try parseJSON(added.out)["book"] as? [String: Any])
        #expect(book["isbn"] as? String == "9781234567897")
        #expect(sandbox.run(["books", "add", "--title", "U", "--isbn", "9780306406157"]).code == 0)
    }

    @Test("an import leaves out ISBNs of zeros with a warning naming line and value, and imports both rows")
    func importLeavesOutZeros() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let path = sandbox.directory + "/z.csv"
        try "title,author,isbn\nA,X,0\nB,Y,0\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = sandbox.run(["import", path])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("2 inserted"), "\(result.out)")
        #expect(result.err.contains("z.csv: line 2, column 3 (isbn): '0' is not an ISBN"), "\(result.err)")
        #expect(result.err.contains("z.csv: line 3, column 3 (isbn): '0' is not an ISBN"), "\(result.err)")
        #expect(!result.err.contains("repeats"))
    }

    // MARK: - Headers and messages

    @Test("an ISBN-13 header with a hyphen keeps every ISBN; a second default client names its column")
    func headersAndDefaultColumn() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let books = sandbox.directory + "/h.csv"
        try "title,ISBN-13\nDune,9780441172719\n".write(toFile: books, atomically: true, encoding: .utf8)
        #expect(sandbox.run(["import", books]).code == 0)
        let listed = try parseJSON(sandbox.run(["--json", "books"]).out)
        let first = try #require((listed["books"] as? [[String: Any]])?.first)
        #expect(first["isbn"] as? String == "9780441172719")
        let clients = sandbox.directory + "/c.csv"
        try "name,card_number,default\nA,C1,yes\nB,C2,no\nC,C3,yes\n".write(
            toFile: clients, atomically: true, encoding: .utf8)
        let refused = sandbox.run(["seed", "--file", clients])
        #expect(refused.code == 65)
        #expect(refused.err.contains("c.csv: line 4, column 3 (default): only one client"), "\(refused.err)")
    }
}
