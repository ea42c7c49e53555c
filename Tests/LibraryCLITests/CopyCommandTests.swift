import Foundation
import Testing

/// `librarycli copy --from SRC --to DST` between SQLite files (PostgreSQL on either side is tested where a server
/// is available).
@Suite struct CopyCommandTests {
    @Test("copy moves the whole library, ids, loans and tokens kept, into a new file")
    func copiesEverything() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        #expect(sandbox.run(["take", "2"]).code == 0)
        #expect(sandbox.run(["return", "2"]).code == 0)
        #expect(sandbox.run(["take", "3"]).code == 0)
        let token = sandbox.run(["tokens", "create", "--librarian"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("lc_"))
        let target = sandbox.directory + "/copy.sqlite"
        let copied = sandbox.run(["--json", "copy", "--from", sandbox.database, "--to", target])
        #expect(copied.code == 0, "\(copied.err)")
        #expect(copied.out.contains("\"loans\": 2") || copied.out.contains("\"loans\":2"), "\(copied.out)")
        for arguments in [["--json", "list"], ["history"], ["loans"], ["export"], ["tokens", "list"], ["clients"]] {
            let original = sandbox.run(arguments)
            // The copy named as the original is (LIBRARY_DB), so the screen's commands are the same.
            let copy = sandbox.run(arguments, environment: ["LIBRARY_DB": target])
            #expect(copy.code == 0 && original.out == copy.out, "\(arguments): \(copy.err)")
        }
        #expect(sandbox.run(["--db", target, "migrate", "--check"]).code == 0)
        // New rows in the copy get new ids after the copied ones.
        let added = sandbox.run(["--db", target, "books", "add", "--title", "Added"])
        #expect(added.code == 0 && (added.out + added.err).contains("book #4"), "\(added.out) \(added.err)")
        let client = sandbox.run(["--db", target, "clients", "add", "Third"])
        #expect(client.code == 0 && (client.out + client.err).contains("client #3"), "\(client.out) \(client.err)")
    }

    @Test("copy refuses a target that holds a library, and changes nothing there")
    func refusesANonEmptyTarget() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let target = sandbox.directory + "/other.sqlite"
        #expect(sandbox.run(["--db", target, "init"]).code == 0)
        let before = sandbox.run(["--db", target, "export"]).out
        let result = sandbox.run(["copy", "--from", sandbox.database, "--to", target])
        #expect(result.code == 1)
        #expect(result.err.contains("not empty") && result.err.contains("Nothing was copied"), "\(result.err)")
        #expect(sandbox.run(["--db", target, "export"]).out == before)
    }

    @Test("copy needs both sides, and two different ones")
    func usage() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        #expect(sandbox.run(["copy", "--from", sandbox.database]).code == 64)
        #expect(sandbox.run(["copy", "--from", sandbox.database, "--to", sandbox.database]).code == 64)
        let source = sandbox.directory + "/missing.sqlite"
        let target = sandbox.directory + "/x.sqlite"
        let missing = sandbox.run(["copy", "--from", source, "--to", target])
        #expect(missing.code == 73, "\(missing.err)")
        // It names the missing source and does not advise creating it (an empty library is nothing to copy).
        #expect(missing.err == "Error: the library to copy from, '\(source)', does not exist; nothing was copied.\n")
        #expect(!FileManager.default.fileExists(atPath: source) && !FileManager.default.fileExists(atPath: target))
    }
}
