import Foundation
import Glibc
import SQLite
import Testing

/// A database whose file may be written but whose folder may not: SQLite cannot make its journal files beside it,
/// and the message says so instead of calling the file read-only.
@Suite("A database in a read-only folder")
struct ReadOnlyFolderTests {
    @Test(
        "a write names the folder, exits 73 and changes nothing",
        .enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root to run as another user")
    )
    func readOnlyFolder() throws {
        let sandbox = Sandbox()
        sandbox.run(["init"])
        // Everything in the main file: no journal files left for the other user to open.
        let db = try Database(path: sandbox.database)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try db.execute("PRAGMA journal_mode=DELETE")
        let before = try sandbox.dump()
        let folder = sandbox.directory + "/library"
        #expect(mkdir(folder, 0o755) == 0)
        let path = folder + "/library.sqlite"
        #expect(rename(sandbox.database, path) == 0)
        let binary = sandbox.directory + "/librarycli-copy"
        try FileManager.default.copyItem(atPath: Binary.url.path, toPath: binary)
        #expect(chmod(binary, 0o755) == 0 && chmod(sandbox.directory, 0o755) == 0)
        #expect(chown(path, 65534, 65534) == 0 && chmod(path, 0o644) == 0)
        #expect(chown(folder, 65534, 65534) == 0 && chmod(folder, 0o555) == 0)
        let result = try runAsNobody(
            binary, ["--db", path, "take", "3"], environment: ["LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory])
        let errors = result.err
        #expect(result.code == 73, "\(errors)")
        #expect(errors.contains("its folder is read-only"), "\(errors)")
        #expect(errors.contains("library.sqlite-wal"), "\(errors)")
        #expect(chmod(folder, 0o755) == 0 && rename(path, sandbox.database) == 0)
        #expect(try sandbox.dump() == before)
    }

    @Test(
        "a command that reads works on a writable database in a read-only folder, in WAL mode or not",
        .enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root to run as another user"),
        arguments: ["wal", "delete"])
    func readInReadOnlyFolder(journalMode: String) throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        if journalMode != "wal" {
            let db = try Database(path: sandbox.database)
            try db.execute("PRAGMA journal_mode=\(journalMode.uppercased())")
        }
        let folder = sandbox.directory + "/library"
        #expect(mkdir(folder, 0o755) == 0)
        let path = folder + "/library.sqlite"
        #expect(rename(sandbox.database, path) == 0)
        let binary = sandbox.directory + "/librarycli-copy"
        try FileManager.default.copyItem(atPath: Binary.url.path, toPath: binary)
        #expect(chmod(binary, 0o755) == 0 && chmod(sandbox.directory, 0o755) == 0)
        #expect(chown(path, 65534, 65534) == 0 && chmod(path, 0o644) == 0)
        #expect(chown(folder, 65534, 65534) == 0 && chmod(folder, 0o555) == 0)
        let environment = ["LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory]
        for command in [["books"], ["clients"], ["--client", "1", "list"], ["migrate", "--status"]] {
            let result = try runAsNobody(binary, ["--db", path] + command, environment: environment)
            #expect(result.code == 0, "\(journalMode) \(command): \(result.err)")
            #expect(!result.err.contains("read-only"), "\(journalMode) \(command): \(result.err)")
        }
        let write = try runAsNobody(binary, ["--db", path, "take", "1"], environment: environment)
        #expect(write.code == 73, "\(journalMode): \(write.err)")
        #expect(write.err.contains("its folder is read-only"), "\(journalMode): \(write.err)")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(chmod(folder, 0o755) == 0)
    }

    @Test(
        "a write when the -wal or -shm file beside a writable database is not writable names that file",
        .enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root to run as another user"))
    func readOnlyJournalFiles() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let binary = sandbox.directory + "/librarycli-copy"
        try FileManager.default.copyItem(atPath: Binary.url.path, toPath: binary)
        #expect(chmod(binary, 0o755) == 0 && chmod(sandbox.directory, 0o777) == 0)
        #expect(chown(sandbox.database, 65534, 65534) == 0 && chmod(sandbox.database, 0o644) == 0)
        // An open connection (root's) keeps the -wal and -shm files; they are root's and read-only to others.
        let holder = try Database(path: sandbox.database)
        _ = try holder.fetchOne("SELECT count(*) FROM books") { $0.int(0) }
        for suffix in ["-wal", "-shm"] {
            #expect(chown(sandbox.database + suffix, 0, 0) == 0 && chmod(sandbox.database + suffix, 0o644) == 0)
        }
        let before = try sandbox.dump()
        let result = try runAsNobody(
            binary, ["--db", sandbox.database, "take", "1"],
            environment: ["LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory])
        #expect(result.code == 73, "\(result.err)")
        #expect(result.err.contains("library.sqlite-wal") || result.err.contains("library.sqlite-shm"), "\(result.err)")
        #expect(result.err.contains("is read-only") || result.err.contains("cannot write"), "\(result.err)")
        #expect(try sandbox.dump() == before)
        _ = holder
    }
}
