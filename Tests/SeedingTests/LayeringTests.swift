import Foundation
import Testing

/// Only the Library module runs SQL on the library's tables, so a schema change touches one module.
@Suite("Layering: no SQL outside Library")
struct LayeringTests {
    /// The package's `Sources` folder, found from this file's path.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    static let sqlPattern = #"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b"#

    @Test(
        "Seeding and the CLI hold no SQL and do not import the SQLite module's statements",
        arguments: [
            "Seeding", "LibraryCLI",
        ])
    func noSQL(module: String) throws {
        let folder = Self.sources.appendingPathComponent(module)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let sql = try Regex(Self.sqlPattern)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(text.firstMatch(of: sql) == nil, "\(module)/\(file) runs SQL")
            #expect(!text.contains(".database.prepare") && !text.contains(".database.execute"), "\(module)/\(file)")
        }
    }
}
