import Library
import Seeding
import Testing

@Suite("Generating a synthetic catalog")
struct GenerateTests {
    @Test("N books from the generator, deterministic for a seed in an empty library")
    func deterministic() throws {
        let one = try TestLibrary()
        let two = try TestLibrary()
        var calls: [[Int]] = []
        let report = try CatalogImport.generate(
            count: 2500, seed: 7, into: one.store, options: ImportOptions(progressInterval: 1000)
        ) { calls.append([$0, $1]) }
        #expect(report.books == ImportReport.Counts(inserted: 2500))
        #expect(calls == [[1000, 2500], [2000, 2500], [2500, 2500]])
        _ = try CatalogImport.generate(count: 2500, seed: 7, into: two.store)
        #expect(try one.dump() == two.dump())
        var generator = CatalogGenerator(seed: 7)
        #expect(try one.books() == (0..<2500).map { generator.book(number: $0) })
    }

    @Test("every run adds N new books, with the same seed or another, and never rewrites earlier ones")
    func everyRunAdds() throws {
        let library = try TestLibrary()
        _ = try CatalogImport.generate(count: 300, seed: 1, into: library.store)
        let first = try library.books()
        let again = try CatalogImport.generate(count: 300, seed: 1, into: library.store)
        #expect(again.books == ImportReport.Counts(inserted: 300))
        let other = try CatalogImport.generate(count: 200, seed: 99, into: library.store)
        #expect(other.books == ImportReport.Counts(inserted: 200))
        #expect(try library.store.bookCount() == 800)
        let all = try library.books()
        #expect(Array(all.prefix(300)) == first, "an earlier synthetic book was rewritten")
        #expect(Set(all.compactMap(\.isbn)).count == 800, "two synthetic books share an ISBN")
        // Numbering continues after the highest synthetic ISBN, also one imported from a file.
        _ = try library.store.addBook(NewBook(title: "Imported", isbn: CatalogGenerator.isbn(number: 5_000)))
        _ = try CatalogImport.generate(count: 1, seed: 1, into: library.store)
        #expect(try library.books().last?.isbn == CatalogGenerator.isbn(number: 5_001))
    }

    @Test("the synthetic ISBNs running out is refused and adds nothing")
    func isbnsRunOut() throws {
        let library = try TestLibrary()
        let last = CatalogGenerator.maxCount - 1
        _ = try library.store.addBook(NewBook(title: "Last", isbn: CatalogGenerator.isbn(number: last - 1)))
        _ = try CatalogImport.generate(count: 1, seed: 1, into: library.store)
        #expect(throws: LibraryError.self) { _ = try CatalogImport.generate(count: 1, seed: 1, into: library.store) }
        #expect(try library.store.bookCount() == 2)
    }

    @Test("a dry run generates nothing; a count out of range is refused")
    func dryRunAndRange() throws {
        let library = try TestLibrary()
        let report = try CatalogImport.generate(
            count: 10, seed: 1, into: library.store, options: ImportOptions(dryRun: true))
        #expect(report.books.inserted == 10 && report.dryRun)
        #expect(try library.store.bookCount() == 0)
        #expect(throws: LibraryError.self) { _ = try CatalogImport.generate(count: -1, seed: 1, into: library.store) }
    }
}
