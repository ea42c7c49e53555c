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
}
