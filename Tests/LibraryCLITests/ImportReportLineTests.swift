import Foundation
import Testing

/// What an import says on its way out: the progress bar's line cleared first, whatever the outcome, and the counts
/// named for what the file held.
@Suite("Import: the progress bar's line is cleared on every exit, and the report names what was imported")
struct ImportReportLineTests {
    private func write(_ text: String, _ name: String, in sandbox: Sandbox) throws -> String {
        let path = sandbox.directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a bad row after the bar was drawn: the bar's line is cleared before the error, for import and seed")
    func errorClearsTheBar() throws {
        let sandbox = Sandbox()
        let rows = (1...30_000).map { "Book \($0),Author,2000\n" }.joined()
        let csv = try write("title,author,year\n" + rows + "Last,Author,0\n", "bad.csv", in: sandbox)
        for arguments in [["import", csv], ["seed", "--file", csv]] {
            let result = sandbox.run(arguments, terminal: true, width: 80)
            #expect(result.code == 65, "\(result.err)")
            #expect(result.err.contains(" rows"), "the bar was drawn: \(result.err.suffix(300))")
            let error = try #require(result.err.range(of: "Error"), "\(result.err.suffix(300))")
            #expect(result.err[..<error.lowerBound].hasSuffix("\r\u{1B}[K"), "\(result.err.suffix(300))")
        }
    }
}

extension ImportReportLineTests {
    @Test("a clients file with a header alone reports clients, not books")
    func emptyClientsFile() throws {
        let sandbox = Sandbox()
        let csv = try write("name,card_number\n", "c.csv", in: sandbox)
        let result = sandbox.run(["seed", "--file", csv])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out == "clients: 0 inserted, 0 updated, 0 unchanged, 0 skipped\n", "\(result.out)")
        let books = try write("title,author\n", "b.csv", in: sandbox)
        #expect(sandbox.run(["seed", "--file", books]).out.hasPrefix("books: 0 inserted"))
    }
}

extension ImportReportLineTests {
    @Test("a clients file whose card column has another name is refused, naming card_number, not read as books")
    func clientsWithoutCardColumn() throws {
        let sandbox = Sandbox()
        let csv = try write("Name,Card #,Limit\nAlice Smith,A-1,3\n", "c.csv", in: sandbox)
        for arguments in [["seed", "--file", csv], ["import", csv]] {
            let result = sandbox.run(arguments)
            #expect(result.code == 65, "\(result.err)")
            #expect(result.err.contains("looks like a clients file"), "\(result.err)")
            #expect(result.err.contains("card_number"), "\(result.err)")
        }
        // A books file with a name column and no author is still books.
        let books = try write("Name,Year,Pages\nDune,1965,412\n", "b.csv", in: sandbox)
        let imported = sandbox.run(["import", books])
        #expect(imported.code == 0, "\(imported.err)")
    }

    @Test("a file of 9,999 columns gets a short warning: 20 unused names, then how many more")
    func manyUnusedColumns() throws {
        let sandbox = Sandbox()
        let extra = (2...9_999).map { "c\($0)" }
        let csv = try write(
            "title," + extra.joined(separator: ",") + "\nA," + String(repeating: ",", count: extra.count - 1) + "\n",
            "wide.csv", in: sandbox)
        let result = sandbox.run(["import", csv])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.count < 2_000, "\(result.err.count) bytes")
        #expect(result.err.contains("9998 columns are not used: 'c2' (2), "), "\(result.err)")
        #expect(result.err.contains("'c21' (21) and 9978 more; known columns"), "\(result.err)")
    }
}
