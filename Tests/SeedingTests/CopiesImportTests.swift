import Library
import Seeding
import StoreTestSupport
import Testing

/// A library holds several copies of a book: rows without an ISBN that repeat title, author and year are copies,
/// each its own book, and a second import of the same rows matches them to distinct copies (changing nothing).
@Suite("Copies without an ISBN survive export and import")
struct CopiesImportTests {
    /// Two copies of Dune (one withdrawn), three of Beowulf (one lost), a book with an ISBN.
    static func fill(_ library: TestLibrary) throws {
        _ = try library.store.importBooks([
            NewBook(title: "Dune", author: "Frank Herbert", year: 1965),
            NewBook(title: "Dune", author: "Frank Herbert", year: 1965),
            NewBook(title: "Beowulf"), NewBook(title: "Beowulf"), NewBook(title: "Beowulf"),
            NewBook(title: "Emma", author: "Jane Austen", year: 1815, isbn: "9780141439587"),
        ])
        try library.store.setStatus(.withdrawn, bookID: 2)
        try library.store.setStatus(.lost, bookID: 4)
    }

    static func exported(_ library: TestLibrary, _ format: ExportFormat) throws -> String {
        var bytes: [UInt8] = []
        try CatalogExport.export(from: library.store, format: format) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(
        "export then import into an empty library keeps every copy and status; importing again changes nothing",
        arguments: StoreKind.available, ExportFormat.allCases)
    func roundTrip(kind: StoreKind, format: ExportFormat) throws {
        let source = try TestLibrary(kind: kind)
        try Self.fill(source)
        let path = source.file("catalog.\(format.rawValue)")
        #expect(try CatalogExport.export(from: source.store, format: format, toFile: path) == 6)
        let target = try TestLibrary(kind: kind)
        let report = try CatalogImport.importFiles([path], into: target.store, now: target.now)
        #expect(report.books == ImportReport.Counts(inserted: 6))
        #expect(report.warnings.isEmpty)
        #expect(try target.books() == source.books())
        #expect(try target.books().map(\.status) == [nil, .withdrawn, nil, .lost, nil, nil])
        #expect(try Self.exported(target, format) == Self.exported(source, format))
        // A second import matches each row to a distinct copy: nothing inserted, nothing changed.
        let again = try CatalogImport.importFiles([path], into: target.store, now: target.now)
        #expect(again.books == ImportReport.Counts(unchanged: 6))
        #expect(try target.books() == source.books())
    }

    @Test(
        "more copies in the file than in the library: the extra ones are added, the others matched",
        arguments: StoreKind.available)
    func moreCopies(kind: StoreKind) throws {
        let library = try TestLibrary(kind: kind)
        _ = try library.store.importBooks([NewBook(title: "Dune", author: "Frank Herbert", year: 1965, pages: 1)])
        try library.write(
            "books.csv", "title,author,year,pages\n" + String(repeating: "Dune,Frank Herbert,1965,2\n", count: 3))
        let report = try library.importFiles(["books.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 2, updated: 1))
        #expect(try library.books().map(\.pages) == [2, 2, 2])
        #expect(try library.importFiles(["books.csv"]).books == ImportReport.Counts(unchanged: 3))
        #expect(try library.books().count == 3)
    }

    @Test(
        "copies that differ in pages or description are met by their own rows, in any order the file lists them",
        arguments: StoreKind.available)
    func copiesInAnotherOrder(kind: StoreKind) throws {
        let library = try TestLibrary(kind: kind)
        _ = try library.store.importBooks([
            NewBook(title: "Dune", author: "Frank Herbert", year: 1965, pages: 412, description: "hardback"),
            NewBook(title: "Dune", author: "Frank Herbert", year: 1965, pages: 604, description: "paperback"),
            NewBook(title: "Dune", author: "Frank Herbert", year: 1965, pages: 896, description: "large print"),
        ])
        let before = try library.books()
        try library.write(
            "books.csv",
            "title,author,year,pages,description\n" + "Dune,Frank Herbert,1965,896,large print\n"
                + "Dune,Frank Herbert,1965,412,hardback\n" + "Dune,Frank Herbert,1965,604,paperback\n")
        #expect(try library.importFiles(["books.csv"]).books == ImportReport.Counts(unchanged: 3))
        #expect(try library.books() == before)
        // A file without the description column matches on pages alone; a changed copy takes the first one left.
        try library.write(
            "pages.csv", "title,author,year,pages\n" + "Dune,Frank Herbert,1965,604\n" + "Dune,Frank Herbert,1965,1\n")
        #expect(try library.importFiles(["pages.csv"]).books == ImportReport.Counts(updated: 1, unchanged: 1))
        #expect(try library.books().map(\.pages) == [1, 604, 896])
        #expect(try library.books().map(\.description) == ["hardback", "paperback", "large print"])
    }

    @Test("a repeated ISBN is still skipped with a warning, even beside copies without one")
    func isbnRepeatsStillSkipped() throws {
        let library = try TestLibrary()
        try library.write(
            "books.csv",
            "title,author,isbn\nDune,Frank Herbert,\nDune,Frank Herbert,\nEmma,,9780141439587\nEmma,,978-0-14-143958-7\n"
        )
        let report = try library.importFiles(["books.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 3, skipped: 1))
        #expect(
            report.warnings == [
                "\(library.file("books.csv")): line 5 repeats \(library.file("books.csv")) line 4 (ISBN 9780141439587); skipped"
            ])
    }
}
