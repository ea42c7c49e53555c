import Rendering
import Testing

/// Tables too wide for the terminal cut free text (titles, authors, names, labels) first and keep facts of a fixed
/// width (ids, dates, times, numbers, statuses) whole as long as they can.
@Suite("Tables cut free text before facts")
struct TableColumnTests {
    /// The cells of each line of a table, split at runs of two or more spaces.
    static func cells(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { line in
            line.split(separator: "  ").map { $0.trimmingPrefix(" ") }.filter { !$0.isEmpty }.map(String.init)
        }
    }

    @Test("loans at 45 columns: the due date whole, the title cut")
    func loansKeepTheDueDate() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "2"])
        let result = sandbox.run(["--width", "45", "loans"])
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("2026-12-13  "), "\(result.out)")
        #expect(lines[1].contains("0 of 2"), "\(result.out)")
        #expect(lines[1].contains("…"), "the title or author is cut: \(result.out)")
        #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= 45 })
    }

    @Test("history and books keep their dates, ids, years and statuses whole")
    func historyAndBooks() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "2", "3"])
        sandbox.run(["return", "2"])
        let history = sandbox.run(["--width", "46", "history"]).out
        #expect(history.split(separator: "\n")[1].hasPrefix("2026-11-29  2026-11-29   2  "), "\(history)")
        let books = sandbox.run(["--width", "64", "books"]).out
        #expect(
            books.contains("1865  on loan, due back 2026-12-13") || books.contains("1862  on loan, due back 2026-12-13")
        )
        #expect(books.contains("…"), "the titles give way: \(books)")
        #expect(books.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 64 })
    }

    @Test("tokens list at 80 columns shows every time whole, to the minute")
    func tokensKeepTheirTimes() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["tokens", "create", "--librarian"])
        sandbox.run(["tokens", "revoke", "1"])
        let text = sandbox.run(["--width", "80", "tokens", "list"]).out
        #expect(!text.contains("…"), "\(text)")
        let row = try #require(Self.cells(text).dropFirst().first)
        #expect(row == ["1", "librarian", "2026-11-29 10:00", "never", "2026-11-29 10:00"], "\(text)")

        sandbox.run(["tokens", "create", "--client", "1", "--label", "Ann's phone, the one with the green case"])
        let two = sandbox.run(["--width", "80", "tokens", "list"]).out
        let second = try #require(Self.cells(two).dropFirst(2).first)
        #expect(second.suffix(2) == ["2026-11-29 10:00", "never"], "\(two)")
        #expect(second.contains { $0.hasPrefix("Ann") && $0.hasSuffix("…") }, "the label gives way: \(two)")
    }

    @Test("a card number too long to stay whole gives way with the names instead of cutting them to nothing")
    func longCardGivesWay() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["clients", "add", "Long Card", "--card", String(repeating: "K", count: 100)])
        let text = sandbox.run(["--width", "80", "clients"]).out
        #expect(text.contains("Long Card") && text.contains("KKKK…"), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 80 })
    }

    @Test("where a table would cut the facts or leave the text a few letters, the rows are records, nothing cut")
    func narrowShowsRecords() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "2"])
        for width in [20, 33] {
            let loans = sandbox.run(["--width", String(width), "loans"]).out
            #expect(loans.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= width }, "\(loans)")
            #expect(!loans.contains("…"), "\(loans)")
            #expect(loans.contains("2026-12-13"), "the due date whole: \(loans)")
            let books = sandbox.run(["--width", String(width), "books"]).out
            #expect(books.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= width }, "\(books)")
            let lines = books.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(
                lines.filter { !$0.hasPrefix(" ") }.prefix(6).map { String($0.prefix(8)) } == [
                    "ID      ", "Title   ", "Author  ", "Year    ", "Status  ", "",
                ])
            #expect(lines.contains("Year    1965"), "\(books)")
            #expect(books.contains("2026-12-13"), "the due date whole: \(books)")
        }
        // A title too long for one line is wrapped at spaces under itself, not cut.
        sandbox.run([
            "books", "add", "--title", "The Curious Incident of the Dog in the Night-Time", "--author", "Mark",
        ])
        let books = sandbox.run(["--width", "24", "books", "--search", "curious"]).out
        let title = try #require(books.split(separator: "\n").first { $0.hasPrefix("Title") })
        #expect(title == "Title   The Curious", "\(books)")
        #expect(books.contains("        Incident of the"), "\(books)")
    }
}
