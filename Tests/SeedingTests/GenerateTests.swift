import Library
import Seeding
import Testing

@Suite("Generating a synthetic catalog")
struct GenerateTests {
    @Test("N books from the generator, deterministic for a seed, unchanged when run again")
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
        let again = try CatalogImport.generate(count: 2500, seed: 7, into: one.store)
        #expect(again.books == ImportReport.Counts(unchanged: 2500))
        #expect(try one.store.bookCount() == 2500)
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
