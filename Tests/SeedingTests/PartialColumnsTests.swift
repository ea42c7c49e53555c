import Library
import Seeding
import StoreTestSupport
import Testing

/// A file that lacks a column (CSV) or an object that lacks a key (JSON) leaves that fact as it is on the book it
/// matches; an empty cell, or a key with null, empties it; new books get the usual defaults.
@Suite("Imports change only the facts a file gives")
struct PartialColumnsTests {
    static let full = NewBook(
        title: "Dune", author: "Frank Herbert", year: 1965, pages: 412, description: "Spice.", isbn: "9780441172719")

    @Test(
        "a CSV with only title and isbn retitles the book and keeps its author, year, pages and description",
        arguments: StoreKind.available)
    func csvMissingColumnsKept(kind: StoreKind) throws {
        let library = try TestLibrary(kind: kind)
        _ = try library.store.importBooks([Self.full])
        try library.write("books.csv", "title,isbn\nDune (Deluxe),9780441172719\nEmma,9780141439587\n")
        let report = try library.importFiles(["books.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 1, updated: 1))
        #expect(
            try library.books() == [
                BookRecord(
                    title: "Dune (Deluxe)", author: "Frank Herbert", year: 1965, pages: 412, isbn: "9780441172719",
                    description: "Spice."),
                BookRecord(title: "Emma", isbn: "9780141439587"),
            ])
        // Again: nothing to change.
        #expect(try library.importFiles(["books.csv"]).books == ImportReport.Counts(unchanged: 2))
    }

    @Test("an empty cell in a column the file has empties that fact, as before")
    func csvEmptyCellClears() throws {
        let library = try TestLibrary()
        _ = try library.store.importBooks([Self.full])
        try library.write("books.csv", "title,isbn,pages,description\nDune,9780441172719,,\n")
        #expect(try library.importFiles(["books.csv"]).books == ImportReport.Counts(updated: 1))
        let dune = try #require(try library.books().first)
        #expect(dune.pages == nil && dune.description == "")
        #expect(dune.author == "Frank Herbert" && dune.year == 1965)
    }

    @Test("JSON: a key left out keeps the fact, a key with null empties it, each object on its own keys")
    func jsonAbsentKeepsNullClears() throws {
        let library = try TestLibrary()
        _ = try library.store.importBooks([
            Self.full, NewBook(title: "Emma", author: "Jane Austen", year: 1815, pages: 474, description: "Match."),
        ])
        try library.write(
            "books.jsonl",
            #"{"title": "Dune", "isbn": "9780441172719", "pages": null}"# + "\n"
                + #"{"title": "Emma", "author": "Jane Austen", "year": 1815, "description": "Matchmaking."}"# + "\n")
        #expect(try library.importFiles(["books.jsonl"]).books == ImportReport.Counts(updated: 2))
        #expect(
            try library.books() == [
                BookRecord(
                    title: "Dune", author: "Frank Herbert", year: 1965, isbn: "9780441172719", description: "Spice."),
                BookRecord(title: "Emma", author: "Jane Austen", year: 1815, pages: 474, description: "Matchmaking."),
            ])
    }

    @Test("the record read from a row says which facts its file gives")
    func recordFields() throws {
        let columns = try CatalogColumns(header: ["Title", "ISBN", "Pages"])
        #expect(try columns.record(from: ["Dune", "", ""]).fields == [.title, .pages])
        let all = try CatalogColumns(header: ["title", "author", "year", "pages", "description"])
        #expect(try all.record(from: ["Dune", "", "", "", ""]).fields == .all)
    }
}
