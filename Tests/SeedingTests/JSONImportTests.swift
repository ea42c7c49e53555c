import Foundation
import Seeding
import Testing

@Suite("Importing JSON and JSON Lines catalogs")
struct JSONImportTests {
    static let expected = [
        BookRecord(title: "Dune", author: "Frank Herbert", year: 1965, pages: 412, isbn: "9780441172719"),
        BookRecord(title: "The Odyssey", author: "Homer", year: -725, description: "Nine years home."),
    ]

    @Test("a JSON array of objects: keys matched case-insensitively, numbers and strings both accepted")
    func array() throws {
        let library = try TestLibrary()
        try library.write(
            "books.json",
            """
            [
              {"Title": "Dune", "AUTHORS": "Frank Herbert", "year": "1965", "num_pages": 412.0, "isbn13": 9780441172719,
               "shelf": ["ignored", {"any": true}]},
              {"title": "The Odyssey", "author": "Homer", "original_publication_year": -725.0, "pages": null,
               "Description": "Nine years home."}
            ]
            """)
        let report = try library.importFiles(["books.json"])
        #expect(report.books == ImportReport.Counts(inserted: 2))
        #expect(try library.books() == Self.expected)
    }

    @Test("JSON Lines, by extension (.jsonl, .ndjson) or by content, with blank lines")
    func lines() throws {
        let text = """
            {"title": "Dune", "author": "Frank Herbert", "year": 1965, "pages": "412", "isbn": "978-0-441-17271-9"}

            {"title": "The Odyssey", "author": "Homer", "year": "-725", "description": "Nine years home."}
            """
        for name in ["books.jsonl", "books.ndjson", "books.txt"] {
            let library = try TestLibrary()
            try library.write(name, text)
            #expect(try library.importFiles([name]).books.inserted == 2)
            #expect(try library.books() == Self.expected)
        }
    }

    @Test(
        "a wrong type names the line and the key; nothing is imported",
        arguments: [
            (#"{"title": "A"}"# + "\n" + #"{"title": "B", "year": true}"#, 2, "year", "boolean"),
            (#"{"title": "A"}"# + "\n\n" + #"{"title": ["B"]}"#, 3, "title", "array"),
            (#"{"title": "A", "Pages": {"n": 3}}"#, 1, "Pages", "object"),
        ])
    func wrongTypes(text: String, line: Int, key: String, kind: String) throws {
        let library = try TestLibrary()
        let path = try library.write("books.jsonl", text)
        let error = try dataError { _ = try library.importFiles(["books.jsonl"]) }
        #expect(
            error == DataError(file: path, line: line, field: key, reason: "expected text or a number, found \(kind)"))
        #expect("\(error)" == "\(path): line \(line), key \"\(key)\": expected text or a number, found \(kind)")
        #expect(try library.books().isEmpty)
    }

    @Test("a syntax error names the line and column, in a JSON array and in JSON Lines; nothing is imported")
    func syntaxErrors() throws {
        for (name, text) in [
            ("a.json", "[{\"title\":\"A\"},\n {\"title\": \"B\" \"year\": 1}]"),
            ("a.jsonl", "{\"title\":\"A\"}\n {\"title\": \"B\" \"year\": 1}"),
        ] {
            let library = try TestLibrary()
            let path = try library.write(name, text)
            let error = try dataError { _ = try library.importFiles([name]) }
            #expect(error.line == 2 && error.column == 16, "\(error)")
            #expect("\(error)".hasPrefix("\(path): line 2, column 16: "), "\(error)")
            #expect(try library.books().isEmpty)
        }
    }

    @Test("a bad value names the key; an object without a title says which keys would do")
    func badValues() throws {
        let library = try TestLibrary()
        try library.write("a.json", #"[{"title": "A"},"# + "\n" + #" {"title": "B", "year": "19x7"}]"#)
        let year = try dataError { _ = try library.importFiles(["a.json"]) }
        #expect(year.line == 2 && year.field == "year" && year.reason.hasPrefix("'19x7' is not a year"))
        try library.write("b.json", #"[{"author": "Nobody"}]"#)
        let title = try dataError { _ = try library.importFiles(["b.json"]) }
        #expect(title.line == 1 && title.reason.hasPrefix("no title key: each object needs one of title, name"))
    }

    @Test("JSON syntax errors and non-object records are bad data with a line")
    func syntax() throws {
        let library = try TestLibrary()
        try library.write("a.json", "[{\"title\": \"A\"},\n{\"title\": \"B\",}]")
        #expect(try dataError { _ = try library.importFiles(["a.json"]) }.line == 2)
        try library.write("b.jsonl", "{\"title\": \"A\"}\n[1]\n")
        let error = try dataError { _ = try library.importFiles(["b.jsonl"]) }
        #expect(error.line == 2 && error.reason == "expected an object, found array")
    }

    @Test("JSON clients: found by a card key; default accepts true/false")
    func clients() throws {
        let library = try TestLibrary()
        try library.write(
            "clients.json",
            #"[{"name": "Ada", "card_number": "A-1", "loan_limit": 2, "default": true}, {"name": "Bo", "card": "B"}]"#)
        let report = try library.importFiles(["clients.json"])
        #expect(report.clients.inserted == 2 && report.defaultClientCard == "A-1")
        #expect(try library.clients().map(\.loanLimit) == [2, 5])
    }
}
