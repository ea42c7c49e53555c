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
