import Foundation
import Testing

/// One meaning of `--json` and `--format` for every command (issue 10, item 11): `--json` is `--format json`, before
/// or after the command, and every spelling gives the same document.
@Suite("--json and --format json, everywhere")
struct JSONFormatTests {
    /// The four spellings of JSON output for a command line.
    static func spellings(_ command: [String]) -> [[String]] {
        [["--json"] + command, command + ["--json"], ["--format", "json"] + command, command + ["--format", "json"]]
    }

    /// A command, and what to do in a fresh sandbox before it.
    struct Case: CustomStringConvertible, Sendable {
        var command: [String]
        var setUp: @Sendable (Sandbox) -> Void = { $0.makeSmallLibrary() }
        var description: String { command.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(command: ["list"]),
        Case(command: ["list", "--search", "dune"]),
        Case(command: ["take", "2"]),
        Case(command: ["return", "1"]) { sandbox in
            sandbox.makeSmallLibrary()
            sandbox.run(["take", "1"])
        },
        Case(command: ["renew", "1"]) { sandbox in
            sandbox.makeSmallLibrary()
            sandbox.run(["take", "1"])
        },
        Case(command: ["history"]) { sandbox in
            sandbox.makeSmallLibrary()
            sandbox.run(["take", "1"])
            sandbox.run(["return", "1"])
        },
        Case(command: ["clients"]),
        Case(command: ["clients", "list"]),
        Case(command: ["clients", "add", "Ada Lovelace"]),
        Case(command: ["clients", "use", "2"]),
        Case(command: ["books"]),
        Case(command: ["books", "list", "--search", "hugo"]),
        Case(command: ["books", "add", "--title", "Emma"]),
        Case(command: ["seed"]),
        Case(command: ["import", "--dry-run", "BOOKS"]) { sandbox in
            sandbox.makeSmallLibrary()
            try? "title,author\nEmma,Jane Austen\n".write(
                toFile: sandbox.directory + "/books.csv", atomically: true, encoding: .utf8)
        },
        Case(command: ["import", "BOOKS"]) { sandbox in
            sandbox.makeSmallLibrary()
            try? "title,author\nEmma,Jane Austen\n".write(
                toFile: sandbox.directory + "/books.csv", atomically: true, encoding: .utf8)
        },
        Case(command: ["migrate"]),
        Case(command: ["migrate", "--status"]),
        Case(command: ["init", "--empty"]) { _ in },
        Case(command: ["export"]),
    ]

    @Test("every spelling of JSON gives the same valid document with version 1", arguments: cases)
    func sameDocument(_ testCase: Case) throws {
        var outputs: [String] = []
        for arguments in Self.spellings(testCase.command) {
            let sandbox = Sandbox()
            testCase.setUp(sandbox)
            let resolved = arguments.map { $0 == "BOOKS" ? sandbox.directory + "/books.csv" : $0 }
            let result = sandbox.run(resolved)
            #expect(result.code == 0, "\(arguments): \(result.err)")
            let text = result.out.replacingOccurrences(of: sandbox.directory, with: "<dir>")
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            if testCase.command == ["export"] {
                #expect((object as? [Any])?.count == 3, "\(arguments)")
            } else {
                #expect((object as? [String: Any])?["version"] as? Int == 1, "\(arguments): \(text.prefix(200))")
            }
            outputs.append(text)
        }
        #expect(Set(outputs).count == 1, "the spellings of \(testCase) differ")
    }

    @Test("export: --json is --format json; --format csv is CSV; --json wins over a .csv extension")
    func export() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        #expect(sandbox.run(["export"]).out.hasPrefix("title,author,year"))
        #expect(sandbox.run(["export", "--format", "csv"]).out.hasPrefix("title,author,year"))
        #expect(sandbox.run(["--json", "export"]).out.hasPrefix("[\n{\"title\":\"Dune\""))
        let file = sandbox.directory + "/catalog.csv"
        #expect(sandbox.run(["-q", "export", "--json", "-o", file]).code == 0)
        #expect((try? String(contentsOfFile: file, encoding: .utf8))?.hasPrefix("[\n{") == true)
    }

    @Test(
        "contradicting formats are a usage error, and completion refuses JSON",
        arguments: [
            ["--json", "--format", "text", "list"], ["list", "--format", "text", "--json"],
            ["export", "--json", "--format", "csv"], ["--json", "export", "--format", "csv"],
            ["completion", "bash", "--json"], ["--format", "json", "completion", "bash"],
        ])
    func conflicts(arguments: [String]) {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let result = sandbox.run(arguments)
        #expect(result.code == 64, "\(arguments): \(result.err)")
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix("Error: "))
    }

    @Test("errors under --json stay plain text on standard error")
    func errorsStayText() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let result = sandbox.run(["--json", "take", "99"])
        #expect(result.code == 1)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix("Error: There is no book #99"))
    }

    @Test("--json books gives machine values: the stored status, and availability and dueAt as the screen has them")
    func bookAvailability() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let file = sandbox.directory + "/lost.csv"
        try "title,status\nGone Girl,lost\nOld Atlas,withdrawn\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(sandbox.run(["-q", "import", file]).code == 0)
        sandbox.run(["take", "1"])
        let books = try #require(try parseJSON(sandbox.run(["--json", "books"]).out)["books"] as? [[String: Any]])
        func book(_ id: Int) throws -> [String: Any] { try #require(books.first { $0["id"] as? Int == id }) }
        #expect(try book(1)["status"] as? String == "available")
        #expect(try book(1)["availability"] as? String == "on-loan")
        #expect(try book(1)["dueAt"] as? String == "2026-12-13T23:59:59Z")
        #expect(try book(2)["status"] as? String == "available")
        #expect(try book(2)["availability"] as? String == "available")
        #expect(try book(2)["dueAt"] is NSNull)
        #expect(try book(4)["status"] as? String == "lost" && book(4)["availability"] as? String == "lost")
        #expect(try book(5)["status"] as? String == "withdrawn" && book(5)["availability"] as? String == "withdrawn")
        // The screen names the book's availability with the same word.
        let screen = sandbox.run(["--client", "2", "--json", "list"]).out
        #expect(screen.contains("\"availability\": \"on-loan\""))
        // The text table keeps its words.
        #expect(sandbox.run(["books"]).out.contains("on loan, due back 2026-12-13"))
        let added =
            try parseJSON(sandbox.run(["--json", "books", "add", "--title", "New"]).out)["book"] as? [String: Any]
        #expect(added?["status"] as? String == "available" && added?["availability"] as? String == "available")
    }
}
