import Foundation
import Testing

@Suite("Import: librarycli's own keys read back, unused columns and every warning reported")
struct ImportFeedbackTests {
    private func write(_ text: String, _ name: String, in sandbox: Sandbox) throws -> String {
        let path = sandbox.directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: - Keys librarycli writes

    @Test("the keys --json clients writes (cardNumber, loanLimit, isDefault) import back as they were, with no warning")
    func clientsJSONKeysImportBack() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let csv = try write("name,cardNumber,loanLimit\nA,a1,2\n", "c.csv", in: sandbox)
        let seeded = sandbox.run(["seed", "--file", csv])
        #expect(seeded.code == 0, "\(seeded.err)")
        #expect(!seeded.err.contains("warning"), "\(seeded.err)")
        let listed = try parseJSON(sandbox.run(["--json", "clients"]).out)
        let clients = try #require(listed["clients"] as? [[String: Any]])
        #expect(clients.count == 1 && clients[0]["loanLimit"] as? Int == 2, "\(clients)")

        // What `--json clients` writes, as JSON Lines, into another library: the same clients and limits.
        sandbox.run(["clients", "add", "Jane Roe", "--card", "C-0002", "--limit", "7"])
        let original = try #require(try parseJSON(sandbox.run(["--json", "clients"]).out)["clients"] as? [Any])
        let lines = try original.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let jsonl = try write(lines.joined(separator: "\n") + "\n", "clients.jsonl", in: sandbox)
        let other = sandbox.directory + "/other.sqlite"
        sandbox.run(["--db", other, "init", "--empty"])
        let imported = sandbox.run(["--db", other, "seed", "--file", jsonl])
        #expect(imported.code == 0, "\(imported.err)")
        #expect(!imported.err.contains("warning"), "\(imported.err)")
        let copied = try #require(
            try parseJSON(sandbox.run(["--db", other, "--json", "clients"]).out)["clients"] as? [[String: Any]])
        #expect(copied.map { $0["cardNumber"] as? String } == ["a1", "C-0002"])
        #expect(copied.map { $0["loanLimit"] as? Int } == [2, 7])
        // And which client is the default: each client says so (isDefault), and it seeds back.
        let defaults = try #require(original as? [[String: Any]]).map { $0["isDefault"] as? Bool }
        #expect(defaults.filter { $0 == true }.count == 1 && defaults.allSatisfy { $0 != nil }, "\(original)")
        #expect(copied.map { $0["isDefault"] as? Bool } == defaults)
    }

    @Test("the books --json books writes import back with no warning (id, availability and dueAt are not read)")
    func booksJSONKeysImportBack() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let books = try #require(try parseJSON(sandbox.run(["--json", "books"]).out)["books"] as? [Any])
        let array = try write(
            String(decoding: try JSONSerialization.data(withJSONObject: books), as: UTF8.self), "b.json", in: sandbox)
        let other = sandbox.directory + "/other.sqlite"
        sandbox.run(["--db", other, "init", "--empty"])
        let imported = sandbox.run(["--db", other, "import", array])
        #expect(imported.code == 0, "\(imported.err)")
        #expect(imported.out.contains("books: \(books.count) inserted"), "\(imported.out)")
        #expect(!imported.err.contains("warning"), "\(imported.err)")
        #expect(sandbox.run(["--db", other, "export"]).out == sandbox.run(["export"]).out)
    }

    @Test("an ISBN holding a bidirectional control is refused naming it, on the command line and in an import")
    func isbnWithBidirectionalControl() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let added = sandbox.run(["books", "add", "--title", "T", "--isbn", "978\u{202E}0439023481"])
        #expect(added.code == 64)
        #expect(added.err == "Error: The ISBN holds a bidirectional control (U+202E) at character 4.\n", "\(added.err)")
        let file = try write("title,isbn\nGood,\"0439023483\u{202E}\"\n", "bidi.csv", in: sandbox)
        let imported = sandbox.run(["import", file])
        #expect(imported.code == 0, "\(imported.err)")
        #expect(
            imported.err.contains(
                "(isbn): the ISBN holds a bidirectional control (U+202E) at character 11; imported without it"),
            "\(imported.err)")
    }

    @Test("columns nothing is read from get one warning naming them and the known columns; unnamed ones none")
    func unusedColumnsWarned() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let clients = try write("name,cardNumber,loanLimt\nA,a1,2\nB,b1,3\n", "c.csv", in: sandbox)
        let seeded = sandbox.run(["seed", "--file", clients])
        #expect(seeded.code == 0, "\(seeded.err)")
        let warnings = seeded.err.split(separator: "\n").filter { $0.contains("is not used") }
        #expect(
            warnings == [
                "warning: \(clients): column 3 'loanLimt' is not used; known columns: name, card_number, loan_limit, "
                    + "default, pin and their aliases"
            ], "\(seeded.err)")

        let books = try write("title,Autor,,id\nDune,Frank Herbert,,1\n", "b.csv", in: sandbox)
        let imported = sandbox.run(["import", books])
        #expect(imported.code == 0, "\(imported.err)")
        #expect(imported.err.contains("\(books): column 2 'Autor' is not used; known columns: title, author,"))
        #expect(imported.err.split(separator: "\n").filter { $0.contains("is not used") }.count == 1)

        // Many columns of another program's export: one line naming them all, so the rows' warnings stay in sight.
        let wide = try write("book_id,title,ratings_1,image_url\n1,Emma,5,http://x\n", "wide.csv", in: sandbox)
        let many = sandbox.run(["import", wide])
        #expect(many.code == 0, "\(many.err)")
        #expect(
            many.err.split(separator: "\n").filter { $0.contains("not used") } == [
                "warning: \(wide): 3 columns are not used: 'book_id' (1), 'ratings_1' (3), 'image_url' (4); known "
                    + "columns: title, author, year, pages, isbn, description, status and their aliases"
            ], "\(many.err)")

        let jsonl = try write(
            "{\"title\": \"A\", \"autor\": \"X\"}\n{\"title\": \"B\", \"autor\": \"Y\"}\n", "b.jsonl", in: sandbox)
        let json = sandbox.run(["import", jsonl])
        #expect(json.code == 0, "\(json.err)")
        let keyWarnings = json.err.split(separator: "\n").filter { $0.contains("is not used") }
        #expect(keyWarnings.count == 1 && keyWarnings[0].contains("line 1, key 'autor' is not used; known keys: title"))
        // A key first met further down (the records before it sharing their keys) is warned of at its line too.
        let later = try write(
            "{\"title\": \"C\"}\n{\"title\": \"D\"}\n{\"title\": \"E\", \"url\": \"x\"}\n{\"title\": \"F\"}\n",
            "later.jsonl", in: sandbox)
        let laterWarnings = sandbox.run(["import", later]).err.split(separator: "\n").filter { $0.contains("not used") }
        #expect(
            laterWarnings.count == 1 && laterWarnings[0].contains("line 3, key 'url' is not used"), "\(laterWarnings)")
    }

    // MARK: - Every warning

    @Test("--json lists every warning as data; the text lists twenty and says how to see the rest")
    func everyWarningInJSON() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let rows = (1...25).map { "B\($0),9780306406158\n" }.joined()
        let path = try write("title,isbn\n" + rows, "w.csv", in: sandbox)
        let json = sandbox.run(["--json", "import", "--dry-run", path])
        #expect(json.code == 0, "\(json.err)")
        let report = try parseJSON(json.out)
        let warnings = try #require(report["warnings"] as? [String])
        #expect(warnings.count == 25)
        #expect(warnings.allSatisfy { $0.contains("is not an ISBN") }, "\(warnings)")
        #expect(report["omittedWarnings"] as? Int == 0)

        let text = sandbox.run(["import", path])
        let lines = text.err.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(lines.count == 21, "\(text.err)")
        #expect(lines.last == "warning: ... and 5 more warnings; --json lists them all")
    }

    // MARK: - Standard input and output

    @Test("import - reads standard input (CSV or JSON), seed --file - too; export -o - writes standard output")
    func standardStreams() throws {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let environment = ["LIBRARY_DB": sandbox.database, "HOME": sandbox.directory, "LIBRARY_NOW": sandbox.now]
        let csv = Data("title,author\nDune,Frank Herbert\nEmma,Jane Austen\n".utf8)
        let imported = try Binary.run(["import", "-"], environment: environment, stdin: csv)
        #expect(imported.code == 0, "\(imported.err)")
        #expect(imported.out.contains("books: 2 inserted"), "\(imported.out)")
        let json = Data("{\"title\": \"Ulysses\"}\n".utf8)
        let viaDevice = try Binary.run(["--json", "import", "/dev/stdin"], environment: environment, stdin: json)
        #expect(viaDevice.code == 0, "\(viaDevice.err)")
        #expect(try parseJSON(viaDevice.out)["files"] as? [String] == ["/dev/stdin"])
        let clients = Data("name,card_number\nAda,A-1\n".utf8)
        let seeded = try Binary.run(["seed", "--file", "-"], environment: environment, stdin: clients)
        #expect(seeded.code == 0 && seeded.out.contains("clients: 1 inserted"), "\(seeded.err)")
        #expect(sandbox.run(["seed", "--file", "-", "--file", "-"]).code == 64)

        let empty = try Binary.run(["import", "-"], environment: environment, stdin: Data())
        #expect(empty.code == 66, "\(empty.err)")
        #expect(empty.err.contains("standard input: cannot be read: it is a pipe that gave nothing"), "\(empty.err)")

        let exported = sandbox.run(["export", "-o", "-"])
        #expect(exported.code == 0 && exported.err.isEmpty, "\(exported.err)")
        #expect(exported.out == sandbox.run(["export"]).out)
        #expect(exported.out.contains("Ulysses"))
        #expect(
            !FileManager.default.fileExists(atPath: "-")
                && !FileManager.default.fileExists(atPath: sandbox.directory + "/-"))
    }
}
