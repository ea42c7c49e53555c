import Foundation
import Library
import Seeding
import Testing

@Suite("Import: one transaction, idempotent, dry runs, duplicates, matching, clients")
struct ImportBehaviourTests {
    static let books = """
        title,author,year,pages,isbn,description
        Dune,Frank Herbert,1965,412,9780441172719,Spice.
        The Odyssey,Homer,-725,541,,Epic.
        Beowulf,,,,,
        """

    @Test("importing the same files twice reports all unchanged and leaves every row as it was")
    func idempotent() throws {
        let library = try TestLibrary()
        try library.write("books.csv", Self.books)
        try library.write("clients.csv", "name,card_number,loan_limit,default\nAda,A-1,3,yes\nBo,B-2,5,no\n")
        let first = try library.importFiles(["clients.csv", "books.csv"])
        #expect(first.books == ImportReport.Counts(inserted: 3))
        #expect(first.clients == ImportReport.Counts(inserted: 2))
        #expect(first.files == [library.file("clients.csv"), library.file("books.csv")])
        let after = try library.dump()
        let second = try library.importFiles(["clients.csv", "books.csv"])
        #expect(second.books == ImportReport.Counts(unchanged: 3))
        #expect(second.clients == ImportReport.Counts(unchanged: 2))
        #expect(second.defaultClientCard == nil)
        #expect(try library.dump() == after)
    }

    @Test("a clients file matches cards whatever the case of their letters, and a repeat in another case is skipped")
    func cardsIgnoreCase() throws {
        let library = try TestLibrary()
        try library.write("clients.csv", "name,card_number,loan_limit\nAda,A-1,3\n")
        _ = try library.importFiles(["clients.csv"])
        try library.write("again.csv", "name,card_number,loan_limit\nAda Lovelace,a-1,4\nAda Again,A-1,2\n")
        let report = try library.importFiles(["again.csv"])
        #expect(report.clients == ImportReport.Counts(updated: 1, skipped: 1))
        #expect(report.warnings.count == 1 && report.warnings[0].contains("repeats card number A-1"))
        // The card keeps the way it was first written.
        #expect(try library.clients() == [ClientRecord(name: "Ada Lovelace", cardNumber: "A-1", loanLimit: 4)])
    }

    @Test("changed fields update the matched rows in place")
    func updates() throws {
        let library = try TestLibrary()
        try library.write("books.csv", Self.books)
        try library.write("clients.csv", "name,card_number,loan_limit\nAda,A-1,3\n")
        _ = try library.importFiles(["books.csv", "clients.csv"])
        try library.write("books.csv", Self.books.replacing("412", with: "413").replacing("Epic.", with: "Long."))
        try library.write("clients.csv", "name,card_number,loan_limit\nAda Lovelace,A-1,4\n")
        let report = try library.importFiles(["books.csv", "clients.csv"])
        #expect(report.books == ImportReport.Counts(updated: 2, unchanged: 1))
        #expect(report.clients == ImportReport.Counts(updated: 1))
        #expect(try library.books().map(\.pages) == [413, 541, nil])
        #expect(try library.books()[1].description == "Long.")
        #expect(try library.clients() == [ClientRecord(name: "Ada Lovelace", cardNumber: "A-1", loanLimit: 4)])
    }

    @Test("a dry run reports exactly what the real import then does, and changes nothing")
    func dryRun() throws {
        let library = try TestLibrary()
        try library.write("books.csv", Self.books)
        _ = try library.importFiles(["books.csv"])
        try library.write("more.csv", Self.books.replacing("Spice.", with: "Sand.") + "\nEmma,Jane Austen,1815,,,\n")
        try library.write("clients.csv", "name,card_number,default\nAda,A-1,yes\n")
        let before = try library.dump()
        let preview = try library.importFiles(["more.csv", "clients.csv"], dryRun: true)
        #expect(preview.dryRun)
        #expect(preview.books == ImportReport.Counts(inserted: 1, updated: 1, unchanged: 2))
        #expect(preview.clients == ImportReport.Counts(inserted: 1))
        #expect(try library.dump() == before)
        var real = try library.importFiles(["more.csv", "clients.csv"])
        #expect(!real.dryRun)
        real.dryRun = true
        #expect(real == preview)
        #expect(try library.dump() != before)
    }

    @Test("a repeated ISBN or card number within an import is skipped and reported, never inserted twice")
    func duplicates() throws {
        let library = try TestLibrary()
        try library.write("books.csv", Self.books + "\nDune (again),F. Herbert,1965,,978-0-441-17271-9,\n")
        try library.write("also.json", #"[{"title": "Emma", "isbn": "0441172717"}]"#)
        try library.write("clients.csv", "name,card_number\nAda,A-1\nAda again,A-1\n")
        let report = try library.importFiles(["books.csv", "also.json", "clients.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 3, skipped: 2))
        #expect(report.clients == ImportReport.Counts(inserted: 1, skipped: 1))
        #expect(try library.books().map(\.title) == ["Dune", "The Odyssey", "Beowulf"])
        #expect(report.warnings.count == 3)
        #expect(
            report.warnings[0]
                == "\(library.file("books.csv")): line 5 repeats \(library.file("books.csv")) line 2 (ISBN 9780441172719); skipped"
        )
        #expect(report.warnings[1].contains("also.json: line 1 repeats"))
        #expect(report.warnings[2].contains("repeats card number A-1"))
    }

    @Test("books without an ISBN match by title + author + year; a different year is another book")
    func identityMatching() throws {
        let library = try TestLibrary()
        _ = try library.store.importBooks([NewBook(title: "Beowulf", author: "", year: nil, pages: 10)])
        try library.write("books.csv", "title,author,year,pages\nBeowulf,,,99\nBeowulf,,1000,\n")
        let report = try library.importFiles(["books.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 1, updated: 1))
        #expect(try library.books().map(\.pages) == [99, nil])
        #expect(try library.books().map(\.year) == [nil, 1000])
    }

    @Test("the default flag applies only when the library has no default yet")
    func defaultClient() throws {
        let library = try TestLibrary()
        let mine = try library.store.addClient(name: "Me", cardNumber: "M-1", now: library.now)
        try library.store.setDefaultClient(id: mine.id)
        try library.write("clients.csv", "name,card_number,default\nAda,A-1,yes\n")
        let report = try library.importFiles(["clients.csv"])
        #expect(report.defaultClientCard == nil)
        #expect(try library.store.defaultClientID() == mine.id)
        #expect(report.warnings.count == 1 && report.warnings[0].contains("already has one"))
    }

    @Test("two clients marked default is bad data, and nothing is written")
    func twoDefaults() throws {
        let library = try TestLibrary()
        try library.write("books.csv", Self.books)
        let path = try library.write("clients.csv", "name,card_number,default\nAda,A-1,yes\nBo,B-2,yes\n")
        let error = try dataError { _ = try library.importFiles(["books.csv", "clients.csv"]) }
        #expect(error.file == path && error.line == 3 && error.field == "default")
        #expect(try library.books().isEmpty && library.clients().isEmpty)
    }

    @Test("a second default in a CSV file is reported at its column, as every other CSV error is; in JSON by key")
    func secondDefaultNamesColumn() throws {
        let library = try TestLibrary()
        let path = try library.write("clients.csv", "name,card_number,Is_Default\nAda,A-1,yes\nCy,C-3,no\nBo,B-2,yes\n")
        let error = try dataError { _ = try library.importFiles(["clients.csv"]) }
        #expect(error.line == 4 && error.column == 3 && error.field == "Is_Default")
        #expect(error.description.hasPrefix("\(path): line 4, column 3 (Is_Default): only one client can be"))
        let json = try library.write(
            "clients.json",
            #"[{"name": "Ada", "card": "A-1", "default": true}, {"name": "Bo", "card": "B-2", "default": true}]"#)
        let jsonError = try dataError { _ = try library.importFiles(["clients.json"]) }
        #expect(jsonError.description.hasPrefix("\(json): line 1, key \"default\": only one client"))
        // The key as the file writes it (what `--json clients` writes: isDefault).
        let written = try library.write(
            "written.jsonl",
            #"{"name": "Ada", "card": "A-1", "isDefault": true}"# + "\n"
                + #"{"name": "Bo", "card": "B-2", "IsDefault": true}"# + "\n")
        let writtenError = try dataError { _ = try library.importFiles(["written.jsonl"]) }
        #expect(writtenError.description.hasPrefix("\(written): line 2, key \"IsDefault\": only one client"))
        #expect(try library.clients().isEmpty)
    }

    @Test("a bad second file stops the first from being imported too")
    func allFilesOrNone() throws {
        let library = try TestLibrary()
        try library.write("good.csv", Self.books)
        try library.write("bad.csv", "title,year\nX,never\n")
        #expect(throws: DataError.self) { _ = try library.importFiles(["good.csv", "bad.csv"]) }
        #expect(throws: InputFileError.self) { _ = try library.importFiles(["good.csv", "missing.csv"]) }
        #expect(try library.books().isEmpty)
    }

    @Test("progress is reported every N rows and at the end")
    func progress() throws {
        let library = try TestLibrary()
        let rows = (1...25).map { "Book \($0),Author" }.joined(separator: "\n")
        try library.write("books.csv", "title,author\n" + rows + "\n")
        var calls: [[Int]] = []
        _ = try CatalogImport.importFiles(
            [library.file("books.csv")], into: library.store, now: library.now,
            options: ImportOptions(progressInterval: 10)
        ) { done, total in calls.append([done, total]) }
        #expect(calls == [[10, 25], [20, 25], [25, 25]])
    }

    @Test("the report keeps every warning as data, none summarised in prose")
    func everyWarningKept() throws {
        let library = try TestLibrary()
        let rows = Array(repeating: "Same,Author,0-441-17271-7", count: 30).joined(separator: "\n")
        try library.write("books.csv", "title,author,isbn\n" + rows + "\n")
        let report = try library.importFiles(["books.csv"])
        #expect(report.books == ImportReport.Counts(inserted: 1, skipped: 29))
        #expect(report.warnings.count == 29)
        #expect(report.omittedWarnings == 0)
        #expect(report.warnings.allSatisfy { $0.hasSuffix("(ISBN 9780441172719); skipped") }, "\(report.warnings)")
    }
}
