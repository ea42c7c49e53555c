import Foundation
import Testing

extension BadInputTests {
    /// Odd files that are valid: SQL in every field is stored as plain text (and not run), a BOM with mixed line
    /// ends reads cleanly, and a header alone or an empty array imports nothing.
    @Suite("Odd but valid input files: imported as data")
    struct AcceptedFiles {
        /// Text that would break a query built by pasting strings together.
        static let injections = [
            "'); DROP TABLE books; --",
            "x\"; DELETE FROM clients; --",
            "1 OR 1=1; UPDATE loans SET returned_at = NULL; --",
            "Robert'); DROP TABLE loans;--",
            "'; ATTACH DATABASE '/tmp/pwned.sqlite' AS p; --",
        ]

        @Test("SQL in every text field of a CSV is imported as plain text and runs nothing")
        func sqlInCSV() throws {
            let sandbox = try BadInputTests.sandbox()
            let before = try sandbox.dump()
            var csv = "title,author,description,isbn\n"
            for text in Self.injections {
                let quoted = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                csv += [quoted, quoted, quoted, quoted].joined(separator: ",") + "\n"
            }
            let path = sandbox.directory + "/sql.csv"
            try csv.write(toFile: path, atomically: true, encoding: .utf8)
            let result = sandbox.run(["import", path])
            #expect(result.code == 0, "\(result.err)")
            try expectImported(sandbox, before: before)
        }

        @Test("SQL in every field of a JSON file is imported as plain text and runs nothing")
        func sqlInJSON() throws {
            let sandbox = try BadInputTests.sandbox()
            let before = try sandbox.dump()
            let objects = Self.injections.map { text in
                ["title": text, "author": text, "description": text, "isbn": text]
            }
            let path = sandbox.directory + "/sql.json"
            try JSONSerialization.data(withJSONObject: objects).write(to: URL(fileURLWithPath: path))
            let result = sandbox.run(["import", path])
            #expect(result.code == 0, "\(result.err)")
            try expectImported(sandbox, before: before)
        }

        @Test("SQL in a clients file is stored as names and card numbers")
        func sqlInClients() throws {
            let sandbox = try BadInputTests.sandbox()
            let before = try sandbox.dump()
            var csv = "name,card_number\n"
            for (index, text) in Self.injections.enumerated() {
                let quoted = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                csv += quoted + ",\"" + "C-X\(index) " + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"\n"
            }
            let path = sandbox.directory + "/clients.csv"
            try csv.write(toFile: path, atomically: true, encoding: .utf8)
            let result = sandbox.run(["seed", "--file", path])
            #expect(result.code == 0, "\(result.err)")
            let after = try sandbox.dump()
            #expect(before.allSatisfy(after.contains), "a row that was there is gone")
            let list = sandbox.run(["--json", "clients"])
            for text in Self.injections {
                #expect(list.out.contains(JSONText.quoted(text)), "\(text) is not a client's name")
            }
            let clients = { (rows: [String]) in rows.filter { $0.hasPrefix("clients: ") }.count }
            #expect(clients(after) == clients(before) + Self.injections.count)
        }

        @Test("A BOM with CRLF and LF line ends mixed reads cleanly")
        func bomAndMixedLineEnds() throws {
            let sandbox = try BadInputTests.sandbox()
            let path = sandbox.directory + "/mixed.csv"
            // A line break inside a quoted field is kept in a description (titles and authors refuse control
            // characters: see BadFileTests).
            try Data(
                "\u{FEFF}Title,AUTHOR,Description\r\nFirst,One,\nSecond,Two,\r\nThird,Three,\"two\r\nlines\"\n".utf8
            )
            .write(to: URL(fileURLWithPath: path))
            let result = sandbox.run(["import", path])
            #expect(result.code == 0, "\(result.err)")
            let books = try parseJSON(sandbox.run(["--json", "books", "--all"]).out)["books"] as? [[String: Any]] ?? []
            let titles = books.compactMap { $0["title"] as? String }
            #expect(titles.suffix(3) == ["First", "Second", "Third"])
            #expect(books.suffix(3).compactMap { $0["author"] as? String } == ["One", "Two", "Three"])
            #expect(books.last?["description"] as? String == "two\r\nlines")
        }

        @Test(
            "A header alone or an empty JSON array imports nothing and succeeds",
            arguments: [
                ("header.csv", "title,author,year\n"), ("header-crlf.csv", "\u{FEFF}title\r\n"), ("empty.json", "[]"),
                ("spaced.json", " [ ] \n"),
            ])
        func nothingToImport(name: String, content: String) throws {
            let sandbox = try BadInputTests.sandbox()
            let before = try sandbox.dump()
            let path = sandbox.directory + "/" + name
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let result = sandbox.run(["import", path])
            #expect(result.code == 0, "\(result.err)")
            #expect(try sandbox.dump() == before)
        }

        /// The five injections are now five books, each field holding the text as it was, and every row that was
        /// there before is still there (no table dropped, no row changed).
        private func expectImported(_ sandbox: Sandbox, before: [String]) throws {
            // library_stats holds the book count and book_search* the full-text index, which the import rightly
            // changes; the index is proven to agree with the books by `migrate --check`.
            let after = try sandbox.dump()
            let kept = before.filter { !$0.hasPrefix("library_stats: ") && !$0.hasPrefix("book_search") }
            let check = sandbox.run(["migrate", "--check"])
            #expect(check.code == 0, "\(check.err)")
            #expect(kept.allSatisfy(after.contains), "a row that was there is gone or changed")
            let books = try parseJSON(sandbox.run(["--json", "books", "--all"]).out)["books"] as? [[String: Any]] ?? []
            #expect(books.count == 3 + Self.injections.count)
            let added = books.suffix(Self.injections.count)
            #expect(added.compactMap { $0["title"] as? String } == Self.injections)
            #expect(added.compactMap { $0["author"] as? String } == Self.injections)
            #expect(added.compactMap { $0["description"] as? String } == Self.injections)
            #expect(sandbox.run(["take", "2"]).code == 0, "the library no longer works")
        }
    }
}

/// JSON string quoting as librarycli writes it, to find a name in `--json` output.
private enum JSONText {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(character)
            }
        }
        return out + "\""
    }
}
