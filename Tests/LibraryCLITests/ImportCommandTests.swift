import Foundation
import Testing

@Suite("Import, export and books add from the command line")
struct ImportCommandTests {
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
