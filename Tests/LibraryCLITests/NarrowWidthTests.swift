import Rendering
import Testing

/// Text output at any width from the narrowest `--width` allows: no line passes the width, except a single word
/// with no room of its own (a long path or URL in help).
@Suite("Text output at narrow widths")
struct NarrowWidthTests {
    static let widths = [20, 21, 23, 27, 33, 40, 45, 46, 60]

    /// The lines of `text` wider than `width` that are not one unbreakable word.
    static func overflowing(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            DisplayWidth.of(line) > width && line.drop { $0 == " " }.contains(" ")
        }
    }

    /// The lines of `text` wider than `width`, whatever they hold.
    static func tooWide(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n").map(String.init).filter { DisplayWidth.of($0) > width }
    }

    @Test("tables fit: books, clients, loans, history, tokens", arguments: widths)
    func tables(width: Int) {
        let sandbox = Sandbox()
        sandbox.run(["init"])
        sandbox.run(["take", "3", "4"])
        sandbox.run(["return", "4"])
        sandbox.run(["tokens", "create", "--client", "1", "--label", "a rather long label for a phone"])
        for command in [["books"], ["clients"], ["loans"], ["history"], ["tokens", "list"], ["list"]] {
            let result = sandbox.run(["--width", String(width)] + command)
            #expect(result.code == 0, "\(command): \(result.err)")
            #expect(Self.overflowing(result.out, width: width) == [], "\(command) at \(width)")
        }
    }

    @Test("confirmations, summaries, notes and errors are folded at the width, losing nothing", arguments: widths)
    func messages(width: Int) {
        let sandbox = Sandbox()
        sandbox.run(["init"])
        let title = "An Uncommonly Long Title For A Book With /a/path/that/cannot/be/broken/at/spaces/anywhere"
        let commands: [[String]] = [
            ["books", "add", "--title", title, "--author", "Someone"], ["take", "50"], ["take", "3"], ["loans"],
            ["renew", "1"], ["return", "3"], ["history"], ["clients", "add", "Zed Zimmerman", "--card", "Z-0001"],
            ["books", "--page", "99"], ["tokens", "list"], ["migrate", "--check"], ["migrate", "--status"],
        ]
        var outputs: [String] = []
        for command in commands {
            let result = sandbox.run(["--width", String(width)] + command)
            #expect(Self.overflowing(result.out, width: width) == [], "\(command) at \(width)")
            #expect(Self.overflowing(result.err, width: width) == [], "\(command) at \(width)")
            outputs.append(result.out)
        }
        // Nothing is cut: the confirmation's long word comes back whole once the folds are taken out.
        #expect(outputs[0].split(separator: "\n").joined().contains("/a/path/that/cannot/be/broken/at/spaces/anywhere"))
    }

    @Test("output to a pipe at the default width keeps each message on one line, for scripts")
    func pipedMessages() {
        let sandbox = Sandbox()
        sandbox.run(["init"])
        let title = String(repeating: "A long title ", count: 10) + "end"
        let result = sandbox.run(["books", "add", "--title", title, "--author", "Someone"])
        #expect(result.code == 0)
        #expect(result.out.split(separator: "\n").count == 1, "\(result.out)")
        let refused = sandbox.run(["return", "3", "4"])
        #expect(refused.code == 1)
        #expect(refused.err.split(separator: "\n").count == 1, "\(refused.err)")
        let folded = sandbox.run(["--width", "20", "return", "3", "4"])
        #expect(folded.err.split(separator: "\n").count > 1, "\(folded.err)")
        // Usage errors too: the error, the usage and the advice, one line each.
        let value = String(repeating: "x", count: 90)
        for arguments in [["list", "--per-page", value], ["list", "--no-such-option-\(value)"]] {
            let usage = sandbox.run(arguments)
            #expect(usage.code == 64)
            #expect(usage.err.split(separator: "\n").count == 3, "\(usage.err)")
            #expect(usage.err.hasPrefix("Error: ") && usage.err.contains(value))
        }
        let client = sandbox.run(["list"], environment: ["LIBRARY_CLIENT": "abc"])
        #expect(client.code == 64)
        #expect(client.err.split(separator: "\n").count == 3, "\(client.err)")
    }

    @Test("help and usage errors fit", arguments: widths)
    func help(width: Int) {
        let sandbox = Sandbox()
        let paths = [
            [], ["list"], ["books"], ["books", "add"], ["clients", "add"], ["import"], ["serve"], ["tokens", "create"],
        ]
        for path in paths {
            let help = sandbox.run(["--width", String(width)] + path + ["--help"])
            #expect(help.code == 0)
            #expect(Self.tooWide(help.out, width: width) == [], "\(path) --help at \(width)")
            let error = sandbox.run(["--width", String(width)] + path + ["--no-such-option"])
            #expect(error.code == 64)
            #expect(Self.tooWide(error.err, width: width) == [], "\(path) usage error at \(width)")
        }
    }
}
