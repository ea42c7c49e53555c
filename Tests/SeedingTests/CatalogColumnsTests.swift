import Library
import Seeding
import Testing

@Suite("Finding the catalog's columns from a header")
struct CatalogColumnsTests {
    static let goodbooksHeader = [
        "book_id", "goodreads_book_id", "best_book_id", "work_id", "books_count", "isbn", "isbn13", "authors",
        "original_publication_year", "original_title", "title", "language_code", "average_rating",
    ]

    @Test("a goodbooks-style row: aliases, float years, a mangled ISBN-13 falling back to the ISBN-10")
    func goodbooksRow() throws {
        let columns = try CatalogColumns(header: Self.goodbooksHeader)
        let row = [
            "1", "2767052", "2767052", "2792775", "272", "439023483", "9.78043902348e+12", "Suzanne Collins",
            "2008.0", "The Hunger Games", "The Hunger Games (The Hunger Games, #1)", "eng", "4.34",
        ]
        let record = try columns.record(from: row)
        #expect(record.title == "The Hunger Games (The Hunger Games, #1)")
        #expect(record.author == "Suzanne Collins")
        #expect(record.year == 2008)
        #expect(record.isbn == "9780439023481")
    }

    @Test("header names match case-insensitively and extra columns are ignored")
    func caseInsensitive() throws {
        let columns = try CatalogColumns(header: ["Shelf", " TITLE ", "Author", "Year", "Pages", "ISBN"])
        let record = try columns.record(from: ["B2", "Dune", "Frank Herbert", "1965", "412", ""])
        var expected = BookRecord(title: "Dune", author: "Frank Herbert", year: 1965, pages: 412)
        expected.fields = [.title, .author, .year, .pages]  // no description column
        #expect(record == expected)
    }

    @Test(
        "ISBN-13 and ISBN-10 headers written with a hyphen, a space or nothing, in any case, hold the ISBN",
        arguments: ["ISBN-13", "isbn 13", "ISBN13", "Isbn_13", "ISBN-10", "isbn 10"])
    func isbnHeaders(name: String) throws {
        let columns = try CatalogColumns(header: ["Title", name])
        #expect(try columns.record(from: ["Dune", "0-441-17271-7"]).isbn == "9780441172719")
    }

    @Test("columns without a name (a spreadsheet's trailing commas), however many, are ignored like extra columns")
    func unnamedColumns() throws {
        let columns = try CatalogColumns(header: ["title", "", "author", " ", ""])
        let record = try columns.record(from: ["Dune", "x", "Frank Herbert", "y", "z"])
        #expect(record.title == "Dune" && record.author == "Frank Herbert")
        #expect(columns.usedColumns == [0, 2])
    }

    @Test("names that differ only by a hyphen or a space are the same column, refused as repeated")
    func hyphenRepeats() {
        #expect(throws: CatalogColumns.Problem.self) { try CatalogColumns(header: ["title", "ISBN-13", "isbn_13"]) }
    }

    @Test("the title falls back to another alias when the first is empty")
    func titleFallback() throws {
        let columns = try CatalogColumns(header: ["original_title", "title"])
        #expect(try columns.record(from: ["", "Only Title"]).title == "Only Title")
    }

    @Test("a header without a title column is refused")
    func noTitle() {
        #expect(throws: CatalogColumns.Problem.self) { try CatalogColumns(header: ["author", "year"]) }
    }

    @Test("a bad value names its column")
    func badValue() throws {
        let columns = try CatalogColumns(header: ["title", "author", "year"])
        do {
            _ = try columns.record(from: ["Dune", "Frank Herbert", "soon"])
            Issue.record("expected a problem")
        } catch {
            #expect(error.column == 3)
            #expect(error.columnName == "year")
            #expect(error.reason.contains("'soon'"))
        }
    }

    @Test("an empty title is refused")
    func emptyTitle() throws {
        let columns = try CatalogColumns(header: ["title", "author"])
        #expect(throws: CatalogColumns.Problem.self) { try columns.record(from: ["  ", "Someone"]) }
    }
}

@Suite("Unusable ISBNs")
struct UnusableISBNTests {
    @Test("a row whose ISBNs are all unusable is read without one, and the reason is reported")
    func warnsAndDropsISBN() throws {
        let columns = try CatalogColumns(header: ["title", "isbn13", "isbn"])
        var problems: [CatalogColumns.Problem] = []
        let record = try columns.record(from: ["Reading Lolita in Tehran", "9.78081297106e+12", "812971060"]) {
            problems.append($0)
        }
        #expect(record.isbn == nil)
        #expect(record.title == "Reading Lolita in Tehran")
        // One warning for each value left out, the float's included.
        #expect(problems.map(\.column) == [2, 3])
        #expect(problems.first?.reason.contains("'9.78081297106e+12'") == true)
        #expect(problems.last?.reason.contains("'812971060'") == true)
    }

    @Test("an ISBN written as a float alone is left out with a warning, not silently")
    func floatWarns() throws {
        let columns = try CatalogColumns(header: ["title", "isbn"])
        var problems: [CatalogColumns.Problem] = []
        let record = try columns.record(from: ["Catching Fire", "9.78043902348e+12"]) { problems.append($0) }
        #expect(record.isbn == nil)
        #expect(problems.count == 1)
        #expect(problems.first?.column == 2 && problems.first?.columnName == "isbn")
        #expect(problems.first?.reason.contains("'9.78043902348e+12'") == true)
    }

    @Test("a usable ISBN in a later column wins without a warning")
    func laterColumnWins() throws {
        let columns = try CatalogColumns(header: ["title", "isbn13", "isbn"])
        var problems: [CatalogColumns.Problem] = []
        let record = try columns.record(from: ["Dune", "bad", "0441172717"]) { problems.append($0) }
        #expect(record.isbn == "9780441172719")
        #expect(problems.isEmpty)
    }
}

@Suite("Header names")
struct HeaderNameTests {
    @Test("a name repeated in another case or spacing is refused, naming both columns")
    func repeatedInAnyCase() {
        #expect(throws: CatalogColumns.Problem.self) { try CatalogColumns(header: ["Title", "title"]) }
        #expect(throws: CatalogColumns.Problem.self) { try ClientColumns(header: ["name", "card", " Name "]) }
        do {
            _ = try CatalogColumns.uniqueNames(["isbn", "Page Count", "page_count"])
            Issue.record("expected a problem")
        } catch {
            #expect(error.column == 3)
            #expect(error.reason == "the column 'page_count' appears more than once (columns 2 and 3)")
        }
    }
}
