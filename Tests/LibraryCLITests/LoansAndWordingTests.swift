import Foundation
import Testing

@Suite("librarycli loans, and the wording of small things")
struct LoansAndWordingTests {
    /// A library where John Doe (limit 10) holds `count` of 12 books, the first `overdue` of them overdue.
    func library(holding count: Int, overdue: Int = 0) -> Sandbox {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        sandbox.run(["clients", "add", "John Doe", "--card", "C-0001", "--limit", "10"])
        for number in 1...12 { sandbox.run(["books", "add", "--title", "Book \(number)", "--year", "-725"]) }
        if overdue > 0 {
            sandbox.now = "2026-10-01T10:00:00Z"
            sandbox.run(["take"] + (1...overdue).map(String.init))
            sandbox.now = "2026-11-29T10:00:00Z"
        }
        if count > overdue { sandbox.run(["take"] + ((overdue + 1)...count).map(String.init)) }
        return sandbox
    }

    @Test("the screen's row shows what fits and names librarycli loans, which lists every loan with its due date")
    func loansListsEveryLoan() throws {
        let sandbox = library(holding: 10, overdue: 2)
        let screen = sandbox.run(["list", "--width", "80"])
        #expect(screen.out.contains("more → librarycli loans"), "\(screen.out)")
        let loans = sandbox.run(["loans", "--width", "100"])
        #expect(loans.code == 0, "\(loans.err)")
        let lines = loans.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 12)  // header, 10 loans, summary
        #expect(lines[0].hasPrefix("Due"))
        #expect(lines[1].hasPrefix("2026-10-15 overdue") && lines[1].hasSuffix("0 of 2"))
        #expect(lines[3].hasPrefix("2026-12-13 ") && !lines[3].contains("overdue"))
        #expect(!lines.contains { $0.hasSuffix(" ") })
        for number in 1...10 { #expect(loans.out.contains("Book \(number) ")) }
        #expect(lines[11] == "John Doe has 10 books of 10; 2 overdue: please return them.")

        let json = try parseJSON(sandbox.run(["--json", "loans"]).out)
        let entries = try #require(json["loans"] as? [[String: Any]])
        #expect(entries.count == 10)
        #expect(json["overdue"] as? Int == 2)
        #expect(entries.filter { $0["overdue"] as? Bool == true }.count == 2)
        #expect(entries[0]["dueAt"] as? String == "2026-10-15T23:59:59Z")
        let screenJSON = sandbox.run(["--json", "list"]).out
        #expect(screenJSON.contains(#""command": "librarycli loans""#))
    }

    @Test("loans with none says so; under --client it lists that client's")
    func loansEmpty() throws {
        let sandbox = library(holding: 0)
        let result = sandbox.run(["loans"])
        #expect(result.code == 0)
        #expect(result.out == "John Doe has no books on loan. Take one with: librarycli take <book-id>\n")
        #expect(sandbox.run(["--client", "9", "loans"]).code == 1)
    }

    @Test("the greeting: singular with one book, overdue books change it")
    func greeting() throws {
        let one = library(holding: 1)
        #expect(one.run(["list"]).out.contains("You have 1 book out of 10. Don't forget to return it on time."))
        let late = library(holding: 3, overdue: 2)
        #expect(
            late.run(["list", "--width", "200"]).out.contains(
                "You have 2 overdue books: please return them. You hold 3 books out of 10."))
    }

    @Test("nothing to pick: no 'Pick one from the library below' when the library below shows no book")
    func pickOneOnlyWithBooks() throws {
        let sandbox = library(holding: 0)
        let pick = "Pick one from the library below: librarycli take <book-id>"
        #expect(sandbox.run(["list", "--width", "100"]).out.contains(pick))
        for arguments in [
            ["list", "--search", "zzz"], ["list", "--page", "99"], ["list", "--search", "book", "--page", "9"],
        ] {
            let result = sandbox.run(arguments + ["--width", "100"])
            #expect(result.code == 0)
            #expect(result.out.contains("You don't have any books right now!"))
            #expect(!result.out.contains("Pick one"), "\(arguments): \(result.out)")
        }
    }

    @Test("confirmations, summaries and errors isolate right-to-left titles and names; JSON does not")
    func rightToLeftIsolated() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let name = "محمد عبد الله"
        let title = "مئة عام من العزلة"
        let isolatedName = "\u{2068}\(name)\u{2069}"
        let isolatedTitle = "\u{2068}\(title)\u{2069}"
        #expect(
            sandbox.run(["clients", "add", name]).out == "Added client #1 \(isolatedName) (card C-000001, limit 5).\n")
        #expect(sandbox.run(["books", "add", "--title", title]).out == "Added \(isolatedTitle) as book #1.\n")
        let took = sandbox.run(["take", "1"])
        #expect((took.out + took.err).contains("Took \(isolatedTitle) (#1), due 2026-12-13."), "\(took.err)")
        let again = sandbox.run(["take", "1"])
        #expect(again.code == 1)
        #expect(again.err == "Error: You already have \(isolatedTitle) (#1); it is due 2026-12-13.\n")
        let loans = sandbox.run(["loans"]).out.split(separator: "\n").map(String.init)
        #expect(loans.last == "\(isolatedName) has 1 book of 5.")
        // Folded, each line has its own isolate, balanced.
        let folded = sandbox.run(["--width", "20", "take", "1"]).err
        #expect(folded.split(separator: "\n").count > 2)
        for line in folded.split(separator: "\n") {
            let opened = line.unicodeScalars.filter { $0 == "\u{2068}" }.count
            #expect(opened == line.unicodeScalars.filter { $0 == "\u{2069}" }.count, "\(line)")
        }
        // A Latin title beside it is left alone; JSON keeps the text as stored.
        #expect(sandbox.run(["books", "add", "--title", "Dune"]).out == "Added Dune as book #2.\n")
        let json = sandbox.run(["--json", "loans"]).out
        #expect(json.contains(title) && !json.contains("\u{2068}"))
    }

    @Test("the screen's footer names the previous and the next page once each")
    func footer() throws {
        let sandbox = library(holding: 0)
        let middle = sandbox.run(["list", "--page", "2", "--per-page", "4", "--width", "100"]).out
        #expect(middle.contains("  Page 2 of 3 · 12 books\n"))
        #expect(middle.components(separatedBy: "librarycli list --page 3 --per-page 4").count == 2)
        #expect(middle.components(separatedBy: "librarycli list --page 1 --per-page 4").count == 2)
        #expect(middle.contains("Previous page → librarycli list --page 1 --per-page 4"))
    }

    @Test("books writes years before the common era as the screen does, and pages in the singular")
    func booksWording() throws {
        let sandbox = library(holding: 0)
        let table = sandbox.run(["books", "--per-page", "5", "--page", "2"]).out
        #expect(table.contains("725 BC") && !table.contains("-725"))
        #expect(
            table.hasSuffix(
                "Page 2 of 3 · 12 books · previous: librarycli books --page 1 --per-page 5 · next: librarycli books "
                    + "--page 3 --per-page 5\n"))
        let past = sandbox.run(["books", "--page", "7"]).out
        #expect(
            past == "Page 7 is past the end: the library has 12 books, on 1 page. See the last page: librarycli books "
                + "--page 1\n")
        sandbox.run(["books", "add", "--title", "Thin", "--pages", "1"])
        #expect(sandbox.run(["list", "--page", "2", "--per-page", "12"]).out.contains("│ 1 page "))
        // Export keeps the number.
        let exported = sandbox.directory + "/catalog.csv"
        #expect(sandbox.run(["export", "--output", exported]).code == 0)
        #expect(try String(contentsOfFile: exported, encoding: .utf8).contains(",-725,"))
    }

    @Test("--all with --search shows every match, whatever the library's size; more than fit on a page is refused")
    func allMatches() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        #expect(sandbox.run(["seed", "--generate", "10001"]).code == 0)
        sandbox.run(["books", "add", "--title", "Die Verwandlung", "--author", "Franz Kafka"])
        sandbox.run(["clients", "add", "Reader"])
        let books = sandbox.run(["books", "--search", "kafka", "--all"])
        #expect(books.code == 0, "\(books.err)")
        #expect(books.out.contains("Die Verwandlung") && books.out.hasSuffix("Page 1 of 1 · 1 book\n"))
        let list = sandbox.run(["--json", "list", "--search", "kafka", "--all"])
        #expect(list.code == 0, "\(list.err)")
        #expect(list.out.contains("Die Verwandlung"))
        let whole = sandbox.run(["books", "--all"])
        #expect(whole.code == 64)
        #expect(whole.err.hasPrefix("Error: --all shows at most 10000 books and this library has 10002: "))
        // A search without a letter or digit is no search: the whole library, said as such.
        let blank = sandbox.run(["books", "--all", "--search", "-"])
        #expect(
            blank.err.hasPrefix("Error: --all shows at most 10000 books and this library has 10002: "), "\(blank.err)")
    }

    @Test("seed --generate adds N new books every run, and --help says so")
    func generateAlwaysAdds() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        #expect(sandbox.run(["seed", "--generate", "20"]).out.hasPrefix("books: 20 inserted"))
        let first = sandbox.run(["--json", "books", "--all"]).out
        #expect(sandbox.run(["seed", "--generate", "20", "--random-seed", "5"]).out.hasPrefix("books: 20 inserted"))
        #expect(sandbox.run(["seed", "--generate", "20"]).out.hasPrefix("books: 20 inserted"))
        let all = try parseJSON(sandbox.run(["--json", "books", "--all"]).out)
        #expect(all["totalCount"] as? Int == 60)
        let earlier = try #require(try parseJSON(first)["books"] as? [[String: Any]])
        let now = try #require(all["books"] as? [[String: Any]])
        for (old, new) in zip(earlier, now) {
            #expect(
                old["title"] as? String == new["title"] as? String && old["isbn"] as? String == new["isbn"] as? String)
        }
        let help = sandbox.run(["seed", "--help", "--width", "200"], environment: ["COLUMNS": "200"]).out
        #expect(help.contains("every run adds n more"), "\(help)")
    }
}
