import Foundation
import SQLite
import Testing

@Suite("Search from the command line, and migrate --check")
struct SearchCommandTests {
    /// A sandbox with the demo library.
    static func demo() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.run(["-q", "init"])
        return sandbox
    }

    @Test("list --search finds words in any order, and the library header says how many matched")
    func listSearch() throws {
        let sandbox = Self.demo()
        let result = sandbox.run(["--width", "100", "list", "--search", "hobbit tolkien"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("Library: books matching “hobbit tolkien” (1)"), "\(result.out)")
        #expect(result.out.contains("The Hobbit"))
        #expect(!result.out.contains("The Lord of the Rings"))
        let json = try parseJSON(sandbox.run(["--json", "list", "--search", "tolk"]).out)
        let sections = try #require(json["sections"] as? [[String: Any]])
        let library = try #require(sections.last)
        let supplementaries = library["supplementaries"] as? [[String: Any]] ?? []
        let header = try #require(supplementaries.first { $0["kind"] as? String == "header" })
        #expect(header["count"] as? Int == 2)
        let titles = (library["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(Set(titles) == ["The Hobbit", "The Lord of the Rings"])
    }

    @Test("books --search: accents, scripts, ISBNs and ranked order")
    func booksSearch() throws {
        let sandbox = Self.demo()
        for (search, title) in [
            ("федор", "Преступление и наказание"), ("dostoevsk", "Преступление и наказание"),
            ("0-441-17271-7", "Dune"), ("MARQUEZ", "Cien años de soledad"), ("\"animal farm\"", "Animal Farm"),
        ] {
            let json = try parseJSON(sandbox.run(["--json", "books", "--search", search]).out)
            let books = json["books"] as? [[String: Any]] ?? []
            #expect(books.first?["title"] as? String == title, "\(search): \(books.map { $0["title"] ?? "" })")
        }
    }

    @Test(
        "operators and special characters are text: exit 0, results or none",
        arguments: [
            "\"", "*", "AND", "OR", "NOT", "NEAR(", "-", ":", "^", "(", ")", "{", "}", ",", "\"dune", "dune OR x",
            "NEAR(dune hobbit, 2) AND \"x\" * - : ^ ( ) { } ,", String(repeating: "(", count: 200),
        ])
    func hostile(search: String) {
        let sandbox = Self.demo()
        for command in [["list"], ["books"], ["--json", "list"]] {
            let result = sandbox.run(command + ["--search", search])
            #expect(result.code == 0, "\(command) \(search): \(result.err)")
            #expect(result.err.isEmpty, "\(command) \(search): \(result.err)")
        }
    }

    @Test("migrate --check: the index agrees with the books after init, seed and import")
    func checkPasses() throws {
        let sandbox = Self.demo()
        sandbox.run(["-q", "seed", "--generate", "50"])
        let file = sandbox.directory + "/more.csv"
        try Data("title,author\nΟδύσσεια,Όμηρος\nTruyện Kiều,Nguyễn Du\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(sandbox.run(["-q", "import", file]).code == 0)
        let result = sandbox.run(["migrate", "--check"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("The search index agrees with the 101 books."), "\(result.out)")
        let json = try parseJSON(sandbox.run(["--json", "migrate", "--check"]).out)
        let index = try #require(json["searchIndex"] as? [String: Any])
        #expect(index["agrees"] as? Bool == true && index["books"] as? Int == 101)
    }

    @Test("migrate --check: an index that disagrees with the books is exit 73, and nothing is changed")
    func checkFails() throws {
        let sandbox = Self.demo()
        do {
            let db = try Database(path: sandbox.database)
            try db.execute(
                """
                INSERT INTO book_search (book_search, rowid, search_title, search_author, search_description)
                SELECT 'delete', id, search_title, search_author, search_description FROM books WHERE id = 3
                """)
        }
        let before = try sandbox.dump()
        let result = sandbox.run(["migrate", "--check"])
        #expect(result.code == 73, "\(result.err)")
        #expect(result.err.contains("is damaged: the full-text index does not match the books"), "\(result.err)")
        #expect(result.err.contains(sandbox.database))
        #expect(result.out.isEmpty)
        #expect(try sandbox.dump() == before)
    }

    @Test("migrate --check: a kept book count and a loan other tools broke are exit 73, each named, nothing changed")
    func checkFindsBrokenData() throws {
        let sandbox = Self.demo()
        do {
            let db = try Database(path: sandbox.database)
            try db.execute(
                script: """
                    DELETE FROM library_stats;
                    PRAGMA foreign_keys = OFF;
                    INSERT INTO loans (book_id, client_id, taken_at, due_at)
                    VALUES (999, 1, '2026-12-01T00:00:00Z', '2026-12-15T00:00:00Z');
                    """)
        }
        let db = try Database(path: sandbox.database)
        let books = try #require(try db.fetchOne("SELECT count(*) FROM books") { $0.int(0) })
        let loan = try #require(try db.fetchOne("SELECT max(id) FROM loans") { $0.int(0) })
        let before = try sandbox.dump()
        for arguments in [["migrate", "--check"], ["--json", "migrate", "--check"]] {
            let result = sandbox.run(arguments)
            #expect(result.code == 73, "\(arguments): \(result.err)")
            #expect(
                result.err
                    == "Error: '\(sandbox.database)' is damaged: the kept book count is missing, but there are "
                    + "\(books) books; 1 loan names a book that does not exist (loan #\(loan) names book #999). The "
                    + "check changed nothing.\n",
                "\(arguments)")
            #expect(result.out.isEmpty, "\(arguments)")
        }
        #expect(try sandbox.dump() == before)
    }

    @Test("migrate --status --check is a usage error")
    func statusAndCheck() {
        let sandbox = Self.demo()
        let result = sandbox.run(["migrate", "--status", "--check"])
        #expect(result.code == 64)
        #expect(result.err.contains("'--status' and '--check' cannot be used together"))
    }
}
