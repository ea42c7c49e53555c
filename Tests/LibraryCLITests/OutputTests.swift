import Foundation
import Testing

@Suite("Text output: widths and colour")
struct OutputTests {
    func displayWidth(_ line: Substring) -> Int {
        // The renderers' own measure is tested in RenderingTests; here: no line may pass the width in any measure
        // that counts a scalar at most 2 cells, so compare scalar counts of non-combining text generously.
        line.unicodeScalars.filter { !(0x2066...0x2069).contains($0.value) && !(0x300...0x36F).contains($0.value) }
            .reduce(0) {
                $0 + (($1.value >= 0x1100 && $1.value <= 0x11FF) || $1.value >= 0x2E80 && $1.value < 0xD800 ? 2 : 1)
            }
    }

    @Test("list fits the width given", arguments: [20, 40, 80, 120])
    func widths(width: Int) {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "1"])
        let result = sandbox.run(["--width", String(width), "list"])
        #expect(result.code == 0)
        for line in result.out.split(separator: "\n") {
            #expect(displayWidth(line) <= width, "\(line)")
        }
    }

    @Test("COLUMNS gives the width when --width is not given")
    func columns() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let result = sandbox.run(["list"], environment: ["COLUMNS": "50"])
        let widest = result.out.split(separator: "\n").map(displayWidth).max() ?? 0
        #expect(widest == 50)
    }

    @Test(
        "one width rule for the screen, help and messages: COLUMNS or a terminal below 20 is 20",
        arguments: ["1", "5", "19"])
    func narrowColumns(columns: String) {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let environment = ["COLUMNS": columns]
        #expect(sandbox.run(["list"], environment: environment).out == sandbox.run(["--width", "20", "list"]).out)
        let help = sandbox.run(["help", "take"], environment: environment)
        #expect(help.out == sandbox.run(["--width", "20", "help", "take"]).out)
        #expect(help.out.split(separator: "\n").allSatisfy { displayWidth($0) <= 20 }, "\(help.out)")
        let error = sandbox.run(["take", "999"], environment: environment)
        #expect(error.code == 1)
        #expect(error.err == sandbox.run(["--width", "20", "take", "999"]).err)
        #expect(error.err.split(separator: "\n").count > 1)
        // A terminal that narrow: the same.
        let terminal = sandbox.run(["take", "999"], terminal: true, width: Int(columns))
        #expect(terminal.err == error.err)
        #expect(sandbox.run(["help", "take"], terminal: true, width: Int(columns)).out == help.out)
    }

    @Test("a refused --width is never used, not even for the error that refuses it", arguments: ["+40", "19", "1001"])
    func refusedWidth(value: String) {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let expected = "Error: Invalid value '\(value)' for '--width <n>': expected a whole number from 20 to 1000.\n"
        for arguments in [["list", "--width", value], ["list", "--width=\(value)"], ["--width", value, "take", "1"]] {
            // To a pipe without COLUMNS: unfolded.
            let piped = sandbox.run(arguments)
            #expect(piped.code == 64)
            #expect(piped.err.hasPrefix(expected), "\(arguments): \(piped.err)")
            // With COLUMNS: folded at COLUMNS.
            let byColumns = sandbox.run(arguments, environment: ["COLUMNS": "30"])
            #expect(byColumns.err.hasPrefix("Error: Invalid value '\(value)'"), "\(byColumns.err)")
            #expect(byColumns.err.split(separator: "\n").count > piped.err.split(separator: "\n").count)
            #expect(byColumns.err.split(separator: "\n").allSatisfy { displayWidth($0) <= 30 }, "\(byColumns.err)")
        }
    }

    @Test("colour only on a terminal, never with NO_COLOR or TERM=dumb, always with --color always")
    func color() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "1"])
        let escape = "\u{1B}["
        #expect(!sandbox.run(["list"], environment: ["TERM": "xterm"]).out.contains(escape))
        #expect(sandbox.run(["list"], environment: ["TERM": "xterm"], terminal: true).out.contains(escape))
        #expect(
            !sandbox.run(["list"], environment: ["TERM": "xterm", "NO_COLOR": "1"], terminal: true).out.contains(escape)
        )
        #expect(!sandbox.run(["list"], environment: ["TERM": "dumb"], terminal: true).out.contains(escape))
        #expect(sandbox.run(["--color", "always", "list"]).out.contains(escape))
        #expect(
            !sandbox.run(["--color", "never", "list"], environment: ["TERM": "xterm"], terminal: true).out.contains(
                escape))
    }

    @Test("list --json is the versioned sections document")
    func json() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let document = try parseJSON(sandbox.run(["list", "--format", "json"]).out)
        #expect(document["version"] as? Int == 1)
        let sections = try #require(document["sections"] as? [[String: Any]])
        let library = try #require(sections.last)
        let items = try #require(library["items"] as? [[String: Any]])
        #expect(items.map { $0["bookId"] as? Int } == [1, 2, 3])
        #expect(items.map { $0["id"] as? String } == ["book-1", "book-2", "book-3"])
    }

    @Test("search and paging")
    func searchAndPages() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let search = sandbox.run(["list", "--search", "MISERABLES"])
        #expect(search.out.contains("Les Misérables"))
        #expect(!search.out.contains("Dune"))
        let page = sandbox.run(["list", "--per-page", "2", "--page", "2"])
        #expect(page.out.contains("Les Misérables"))
        #expect(!page.out.contains("Dune"))
        #expect(page.out.contains("Page 2 of 2 · 3 books"))
        let past = sandbox.run(["list", "--page", "5"])
        #expect(past.out.contains("Page 5 is past the end"))
    }

    @Test("search text up to the limit is searched, white space around it not counted")
    func searchAtTheLimit() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let longest = String(repeating: "é", count: 200)
        for command in [["list"], ["books"]] {
            let result = sandbox.run(command + ["--search", "  " + longest + "  "])
            #expect(result.code == 0, "\(command): \(result.err)")
            #expect(result.out.contains("No books match"), "\(command): \(result.out)")
        }
    }
}
