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
