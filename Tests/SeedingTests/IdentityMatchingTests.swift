import Library
import Seeding
import StoreTestSupport
import Testing

/// A row without a usable ISBN meets a book by title + author + year whether the book has an ISBN or not; a row
/// whose ISBN the library lacks meets a book without one that way and fills it in. Titles and authors are compared
/// NFC-normalised and case-folded.
@Suite("Imports match books by title, author and year across ISBNs, whatever the letters' case or normal form")
struct IdentityMatchingTests {
    static let catalog = """
        title,author,year,isbn
        The Odyssey,Homer,-700,9780140268867
        Dune,Frank Herbert,1965,9780441172719

        """

    @Test(
        "re-importing an export whose ISBNs a spreadsheet damaged changes nothing and keeps every ISBN",
        arguments: StoreKind.available)
    func damagedISBNs(kind: StoreKind) throws {
        let library = try TestLibrary(kind: kind)
        try library.write("books.csv", Self.catalog)
        #expect(try library.importFiles(["books.csv"]).books == ImportReport.Counts(inserted: 2))
        let before = try library.books()
        try library.write(
            "damaged.csv",
            "title,author,year,isbn\nThe Odyssey,Homer,-700,9.78014026887e+12\nDune,Frank Herbert,1965,\n")
        let report = try library.importFiles(["damaged.csv"])
        #expect(report.books == ImportReport.Counts(unchanged: 2))
        #expect(report.warnings.count == 1)
        #expect(try library.books() == before)
    }

    @Test(
        "a corrected file with ISBNs fills them into the books a file without ISBNs loaded",
        arguments: StoreKind.available)
    func fillsISBNs(kind: StoreKind) throws {
        let library = try TestLibrary(kind: kind)
        try library.write("bare.csv", "title,author,year\nThe Odyssey,Homer,-700\nDune,Frank Herbert,1965\n")
        #expect(try library.importFiles(["bare.csv"]).books == ImportReport.Counts(inserted: 2))
        try library.write("books.csv", Self.catalog)
        #expect(try library.importFiles(["books.csv"]).books == ImportReport.Counts(updated: 2))
        #expect(try library.books().map(\.isbn) == ["9780140268867", "9780441172719"])
        #expect(try library.importFiles(["books.csv"]).books == ImportReport.Counts(unchanged: 2))
    }

    @Test(
        "of several books that match, one without an ISBN is met first, then the lowest id",
        arguments: StoreKind.available)
    func prefersBookWithoutISBN(kind: StoreKind) throws {
        let library = try TestLibrary(kind: kind)
        _ = try library.store.importBooks([
            NewBook(title: "Dune", author: "Frank Herbert", year: 1965, isbn: "9780441172719"),
            NewBook(title: "Dune", author: "Frank Herbert", year: 1965),
        ])
        try library.write("books.csv", "title,author,year,pages\nDune,Frank Herbert,1965,100\n")
        #expect(try library.importFiles(["books.csv"]).books == ImportReport.Counts(updated: 1))
        #expect(try library.books().map(\.pages) == [nil, 100])
        // Two rows: the second meets the book with the ISBN, which keeps it.
        try library.write(
            "two.csv", "title,author,year,pages\nDune,Frank Herbert,1965,100\nDune,Frank Herbert,1965,7\n")
        #expect(try library.importFiles(["two.csv"]).books == ImportReport.Counts(updated: 1, unchanged: 1))
        #expect(try library.books().map(\.pages) == [7, 100])
        #expect(try library.books().map(\.isbn) == ["9780441172719", nil])
    }

    @Test(
        "a title or author in NFD or another letter case meets the book; the text is stored as the file writes it",
        arguments: StoreKind.available)
    func foldedText(kind: StoreKind) throws {
        let library = try TestLibrary(kind: kind)
        _ = try library.store.importBooks([NewBook(title: "Café Society", author: "Zoë Heller", year: 2001)])
        try library.write("nfd.csv", "title,author,year\nCafe\u{301} Society,Zoe\u{308} Heller,2001\n")
        #expect(try library.importFiles(["nfd.csv"]).books == ImportReport.Counts(unchanged: 1))
        try library.write("case.csv", "title,author,year\nCAFÉ SOCIETY,zoë heller,2001\n")
        #expect(try library.importFiles(["case.csv"]).books == ImportReport.Counts(updated: 1))
        #expect(try library.books().map(\.title) == ["CAFÉ SOCIETY"])
        // Accents still count: "Cafe" is another book.
        try library.write("plain.csv", "title,author,year\nCafe Society,Zoe Heller,2001\n")
        #expect(try library.importFiles(["plain.csv"]).books == ImportReport.Counts(inserted: 1))
    }
}
