import Foundation
import Rendering
import Testing

/// What gives way when a line is short: names and search text, never a year or a count; commands folded so that
/// their lines paste back as the command; errors folded at standard error's terminal.
@Suite("What gives way on a short line")
struct TerminalFitTests {
    /// A library with three books whose bylines end in a year, one of them before the common era, and one taken.
    static func library() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        sandbox.run(["clients", "add", "John Doe", "--card", "C-0001"])
        sandbox.run(["books", "add", "--title", "Don Quixote", "--author", "Miguel de Cervantes", "--year", "1605"])
        sandbox.run([
            "books", "add", "--title", "The Iliad", "--author", "Homer of Chios the Blind Singer", "--year=-725",
        ])
        sandbox.run(["books", "add", "--title", "Emma", "--author", "Jane Austen", "--year", "1813"])
        sandbox.run(["take", "1"])
        return sandbox
    }

    @Test("the author gives way on a card, the year stays whole", arguments: [20, 21, 27, 33, 40, 60, 80])
    func bylineKeepsTheYear(width: Int) {
        let sandbox = Self.library()
        let result = sandbox.run(["list", "--width", String(width)])
        #expect(result.code == 0, "\(result.err)")
        for (author, year) in [("Miguel", "1605"), ("Homer", "725 BC"), ("Jane A", "1813")] {
            let lines = result.out.split(separator: "\n").filter { $0.contains(author.prefix(3)) }
            #expect(!lines.isEmpty, "\(author) at \(width):\n\(result.out)")
            for line in lines {
                #expect(line.contains("· \(year) ") || line.hasSuffix("· \(year)"), "\(line)")
            }
        }
        #expect(NarrowWidthTests.tooWide(result.out, width: width) == [])
    }

    @Test("a long search text gives way in the library's header; the count stays")
    func searchGivesWayToTheCount() throws {
        let sandbox = Self.library()
        let search = Array(repeating: "iliad", count: 16).joined(separator: " ")
        let result = sandbox.run(["list", "--width", "80", "--search", search])
        let header = try #require(result.out.split(separator: "\n").first { $0.contains("Library") })
        #expect(header.contains("…” (1)"), "\(header)")
        #expect(DisplayWidth.of(String(header)) <= 80)
    }

    @Test("a command folded across lines pastes back as the same command", arguments: [20, 27, 40, 60, 80])
    func foldedCommandPastes(width: Int) throws {
        let sandbox = Self.library()
        let path = sandbox.directory + "/my library file.sqlite"
        try FileManager.default.copyItem(atPath: sandbox.database, toPath: path)
        let result = sandbox.run(["--db", path, "list", "--per-page", "1", "--width", String(width)])
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("Next page") })
        var command: [String] = []
        for line in lines[(start + 1)...] {
            let text = line.trimmingCharacters(in: .whitespaces)
            command.append(text)
            if !text.hasSuffix("\\") { break }
        }
        #expect(command.count > 1 || width >= 60, "\(lines[start...])")
        #expect(command.allSatisfy { DisplayWidth.of($0) <= width - 4 }, "\(command)")
        let expected = "librarycli --db '\(path)' list --page 2 --per-page 1"
        #expect(try Self.words(command.joined(separator: "\n")) == Self.words(expected), "\(command)")
    }

    /// The words bash makes of a command line, one a line in brackets.
    static func words(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -- " + text + "\nprintf '[%s]\\n' \"$@\""]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("an error is folded at standard error's terminal when only standard output is piped")
    func errorFoldedAtStandardErrorsTerminal() {
        let sandbox = Self.library()
        let result = sandbox.run(["take", "99999"], errorWidth: 30)
        #expect(result.code != 0)
        #expect(result.err.split(separator: "\n").count > 1, "\(result.err)")
        #expect(NarrowWidthTests.tooWide(result.err, width: 30) == [], "\(result.err)")
        // Piped both ways, the error stays on one line for scripts.
        let piped = sandbox.run(["take", "99999"])
        #expect(piped.err.split(separator: "\n").count == 1, "\(piped.err)")
    }
}
