import Foundation
import Library
import Seeding
import Testing

@Suite("The embedded demo data")
struct DemoDataTests {
    static let seedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("seed")

    @Test("the embedded files equal the seed/ folder byte for byte")
    func embeddedEqualsFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.seedFolder.path)
            .filter { ["csv", "json", "jsonl"].contains(($0 as NSString).pathExtension) }.sorted()
        #expect(DemoData.files.map(\.name) == names)
        #expect(!names.isEmpty)
        for file in DemoData.files {
            let onDisk = try CatalogFile.read(path: Self.seedFolder.appendingPathComponent(file.name).path)
            #expect(file.books == onDisk.books && file.clients == onDisk.clients && file.lines == onDisk.lines)
            let bytes = try InputFile.read(path: Self.seedFolder.appendingPathComponent(file.name).path)
            #expect(
                try CatalogFile.parse(bytes, name: file.name, format: .csv) == file,
                "the embedded \(file.name) differs from seed/\(file.name)")
        }
    }

    @Test("the demo has 49 books (40 with distinct ISBN-13s) and 4 clients, John Doe the default")
    func contents() {
        #expect(DemoData.books.count == 49)
        #expect(DemoData.books.allSatisfy { $0.isbn == nil || $0.isbn?.count == 13 })
        #expect(Set(DemoData.books.compactMap(\.isbn)).count == 40)
        #expect(DemoData.clients.count == 4)
        #expect(DemoData.clients.filter(\.isDefault).map(\.name) == ["John Doe"])
    }

    @Test("seeding twice: 0 inserted the second time, every row the same, a user's default kept")
    func seedTwice() throws {
        let library = try TestLibrary()
        let first = try CatalogImport.seedDemo(into: library.store, now: library.now)
        #expect(first.books == ImportReport.Counts(inserted: 49))
        #expect(first.clients == ImportReport.Counts(inserted: 4))
        #expect(first.defaultClientCard == "C-0001")
        let jane = try #require(try library.store.client(cardNumber: "C-0002"))
        try library.store.setDefaultClient(id: jane.id)
        let after = try library.dump()
        let second = try CatalogImport.seedDemo(into: library.store, now: try library.now.adding(days: 1))
        #expect(second.books == ImportReport.Counts(unchanged: 49))
        #expect(second.clients == ImportReport.Counts(unchanged: 4))
        #expect(try library.dump() == after)
        #expect(try library.store.defaultClientID() == jane.id)
    }
}
