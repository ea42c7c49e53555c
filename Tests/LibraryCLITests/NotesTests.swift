import Foundation
import Testing

/// Notes go to standard error and `-q` silences them, for every command (issue 10, item 14).
@Suite("Notes on standard error, silenced by -q")
struct NotesTests {
    @Test("init's note is on standard error; -q init --empty prints nothing at all")
    func initNote() throws {
        let sandbox = Sandbox()
        let quiet = sandbox.run(["-q", "init", "--empty"])
        #expect(quiet.code == 0)
        #expect(quiet.out.isEmpty)
        #expect(quiet.err.isEmpty)
        let other = Sandbox()
        let loud = other.run(["init", "--empty"])
        #expect(loud.out.isEmpty)
        #expect(loud.err == "Created an empty library at \(other.database).\n")
        let again = other.run(["-q", "init"])
        #expect(again.out.isEmpty && again.err.isEmpty)
        // JSON is data: it stays on standard output under -q.
        let json = Sandbox().run(["-q", "--json", "init"])
        #expect(json.out.hasPrefix("{\n  \"version\": 1,"))
        #expect(json.err.isEmpty)
        // An existing library: still a document for the script, and the note (silenced by -q) on stderr.
        let existing = other.run(["--json", "init"])
        let document = try parseJSON(existing.out)
        #expect(document["created"] as? Bool == false)
        #expect(document["database"] as? String == other.database)
        #expect(existing.err == "The library at \(other.database) already exists; nothing was changed.\n")
    }

    /// A session of every kind of command; the import file has an ISBN that cannot be used (a warning).
    static func session(_ sandbox: Sandbox) throws -> [[String]] {
        let file = sandbox.directory + "/books.csv"
        try "title,author,isbn\nEmma,Jane Austen,9.78043902348e+12\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        return [
            ["init", "--empty"], ["init"], ["clients", "add", "Ada Lovelace"], ["clients", "use", "1"],
            ["books", "add", "--title", "Dune"], ["seed"], ["import", file], ["import", "--dry-run", file],
            ["export", "-o", sandbox.directory + "/out.csv"], ["take", "1"], ["renew", "1"], ["return", "1"],
            ["history"], ["list"], ["books"], ["clients"], ["migrate"], ["migrate", "--status"],
        ]
    }

    @Test("with -q, no successful command writes anything to standard error")
    func quietSession() throws {
        let sandbox = Sandbox()
        for arguments in try Self.session(sandbox) {
            let result = sandbox.run(["-q"] + arguments)
            #expect(result.code == 0, "\(arguments): \(result.err)")
            #expect(result.err.isEmpty, "\(arguments) wrote under -q: \(result.err)")
        }
    }

    @Test("without -q, the notes are on standard error and never mixed into the data")
    func notesOnStandardError() throws {
        let sandbox = Sandbox()
        var notes = ""
        for arguments in try Self.session(sandbox) {
            let result = sandbox.run(arguments)
            #expect(result.code == 0, "\(arguments): \(result.err)")
            for word in ["Created", "already exists", "Exported", "warning:"] {
                #expect(!result.out.contains(word), "\(arguments) printed a note on standard output")
            }
            notes += result.err
        }
        for expected in ["Created an empty library", "already exists; nothing was changed", "Exported ", "warning:"] {
            #expect(notes.contains(expected), "missing note: \(expected)")
        }
    }

    @Test("the first use of the default database says so on standard error, and nothing under -q")
    func firstUse() {
        let sandbox = Sandbox()
        let environment = ["XDG_DATA_HOME": sandbox.directory + "/data"]
        let quiet = sandbox.run(["-q", "books"], environment: environment, useDatabase: false)
        #expect(quiet.code == 0)
        #expect(quiet.err.isEmpty)
        let other = Sandbox()
        let loud = other.run(["books"], environment: ["XDG_DATA_HOME": other.directory + "/data"], useDatabase: false)
        #expect(loud.err.hasPrefix("Created the library at "))
        #expect(!loud.out.contains("Created"))
    }
}
