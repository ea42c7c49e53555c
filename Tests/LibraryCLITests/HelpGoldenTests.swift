import Foundation
import Testing

/// Compares output with a file in Golden/; `UPDATE_GOLDEN=1 swift test` rewrites the files instead.
enum GoldenFile {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden file \(name); run with UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "differs from Golden/\(name)", sourceLocation: sourceLocation)
    }
}

/// `--help` as the user sees it, at three widths (issue 10, item 13).
@Suite("Help texts, golden")
struct HelpGoldenTests {
    static let paths: [[String]] = [[], ["list"], ["clients"], ["clients", "add"], ["export"], ["help"]]

    @Test("--help at widths 60, 80 and 120", arguments: [60, 80, 120])
    func golden(width: Int) throws {
        let sandbox = Sandbox()
        for path in Self.paths {
            let result = sandbox.run(path + ["--help"], environment: ["COLUMNS": String(width)])
            #expect(result.code == 0)
            let name = (["help"] + path).joined(separator: "-") + "-\(width).txt"
            try GoldenFile.check(result.out, named: name)
            // Only a word longer than the room (a long path) may pass the width.
            for line in result.out.split(separator: "\n") where line.count > width {
                #expect(!line.contains("  "), "\(name): a wrapped line runs past \(width): \(line)")
            }
        }
    }

    @Test("--width sets the width of help as of other text, over COLUMNS")
    func widthOption() {
        let sandbox = Sandbox()
        let byColumns = sandbox.run(["clients", "--help"], environment: ["COLUMNS": "60"]).out
        #expect(sandbox.run(["--width", "60", "clients", "--help"], environment: ["COLUMNS": "120"]).out == byColumns)
        #expect(sandbox.run(["clients", "--help", "--width=60"]).out == byColumns)
        #expect(sandbox.run(["clients", "--help", "--width", "60"]).out == byColumns)
    }

    @Test("two-column sections: each description starts in one column, wrapped lines hang under it")
    func columns() {
        let text = Sandbox().run(["--help"], environment: ["COLUMNS": "60"]).out
        let exitCodes = text.components(separatedBy: "EXIT CODES:\n")[1].components(separatedBy: "\n\n")[0]
        for line in exitCodes.split(separator: "\n") {
            let description = line.dropFirst(7)
            #expect(line.prefix(7).allSatisfy { $0 == " " || $0.isNumber }, "\(line)")
            #expect(description.first != " " && description.first != nil, "misaligned: \(line)")
        }
        let environment = text.components(separatedBy: "ENVIRONMENT:\n")[1]
        for line in environment.split(separator: "\n") {
            #expect(line.dropFirst(18).first != " ", "misaligned: \(line)")
            #expect(line.prefix(18).last == " ", "runs into its description: \(line)")
        }
    }
}
