import Foundation
import Testing

/// The library products Package.swift declares are the ones README lists for other packages.
@Suite struct PackageProductsTests {
    @Test("Package.swift's library products are README's list, and include Formats and ArgumentParsing")
    func productsMatchReadme() throws {
        let package = try repositoryFile("Package.swift")
        let declared = package.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: ".library(name: \"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
        let readme = try repositoryFile("README.md")
        let sentence = try #require(
            readme.components(separatedBy: "\n\n").first { $0.hasPrefix("Another package can use these modules") })
        let listed = sentence.components(separatedBy: "):").last!.components(separatedBy: ". ").first!
            .split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n`")) }
        #expect(Set(declared) == Set(listed))
        #expect(declared.count == listed.count)
        #expect(declared.contains("Formats"))
        #expect(declared.contains("ArgumentParsing"))
    }

    /// A file of the repository, found from this source file's real location.
    private func repositoryFile(_ name: String, filePath: String = #filePath) throws -> String {
        let source = URL(fileURLWithPath: filePath).resolvingSymlinksInPath()
        let url = source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8)
    }
}
