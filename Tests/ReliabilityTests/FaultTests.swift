import Foundation
import SQLite
import Testing

/// Faults from outside: a full file size limit, a damaged file, file modes.
@Suite("Faults from outside the process")
struct FaultTests {
    // MARK: - File size limit

    @Test("an import over the file size limit (SIGXFSZ at its default): the database opens and holds none of it")
    func fileSizeLimitSignal() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 10)
        let file = sandbox.directory + "/books.csv"
        try writeCatalog(rows: 40_000, to: file)
        // dash counts ulimit -f in 512-byte blocks: 1 MiB, well below what 40,000 books need in the WAL.
        let result = sandbox.shell("ulimit -f 2048; exec \"$LIBRARYCLI\" -q import '\(file)'")
        // Today the kernel's SIGXFSZ kills librarycli (the user sees only the shell's "File size limit
        // exceeded"); ignoring the signal in librarycli would turn this into exit 73 with a message.
        #expect(result.ending == .signaled(SIGXFSZ) || result.ending == .exited(73), "\(result.ending)")
        try expectUnchanged(sandbox, books: 10)
    }

    @Test("an import over the file size limit with SIGXFSZ ignored: exit 73 naming the file, nothing imported")
    func fileSizeLimitIgnored() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 10)
        let file = sandbox.directory + "/books.csv"
        try writeCatalog(rows: 40_000, to: file)
        let result = sandbox.shell("trap '' XFSZ; ulimit -f 2048; exec \"$LIBRARYCLI\" -q import '\(file)'")
        #expect(result.ending == .exited(73), "\(result.err)")
        #expect(result.err.contains(sandbox.database), "\(result.err)")
        #expect(result.err.contains("nothing was changed"), "\(result.err)")
        try expectUnchanged(sandbox, books: 10)
    }

    // MARK: - A damaged file

    @Test("a damaged page in the middle of the books: exit 73 naming the file, never a crash, file untouched")
    func damagedPage() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 3_000)
        let page = try middleBooksLeafPage(sandbox)
        try overwrite(sandbox.database, at: (page - 1) * 4096, count: 4096, with: 0xA5)
        // Listing every book reads the damaged page; page 1 of the library may or may not (and a search reads the
        // full-text index, not every book).
        let search = sandbox.run(["-q", "list", "--all"])
        #expect(search.ending == .exited(73), "\(search.ending): \(search.err)")
        #expect(search.err.contains(sandbox.database), "\(search.err)")
        #expect(search.out.isEmpty)
        for arguments in [
            ["list"], ["books", "--search", "x"], ["take", "1500"], ["--json", "list", "--page", "75"],
        ] {
            let result = sandbox.run(["-q"] + arguments)
            #expect(result.ending == .exited(0) || result.ending == .exited(73), "\(arguments): \(result.ending)")
            if result.ending == .exited(73) {
                #expect(result.err.contains(sandbox.database), "\(arguments): \(result.err)")
            }
        }
        // `take 1500` may write (its book is elsewhere); what matters is no crash. Check `list` alone:
        let listBefore = try sandbox.bytes()
        let list = sandbox.run(["-q", "books", "--all"])
        #expect(list.ending == .exited(73))
        #expect(try sandbox.bytes() == listBefore)
    }

    @Test("a damaged header: exit 73, the message names the file, the file is not modified")
    func damagedHeader() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 3_000)
        try overwrite(sandbox.database, at: 0, count: 100, with: 0x5A)
        let before = try sandbox.bytes()
        for arguments in [["list"], ["take", "3"], ["import", "/nonexistent.csv"], ["seed", "--generate", "5"]] {
            let result = sandbox.run(["-q"] + arguments)
            #expect(result.ending == .exited(73) || result.ending == .exited(66), "\(arguments): \(result.ending)")
            #expect(result.err.contains(sandbox.database) || result.ending == .exited(66), "\(result.err)")
        }
        #expect(try sandbox.bytes() == before)
        #expect(sandbox.size("-wal") == 0)
    }

    // MARK: - File modes

    @Test("under umask 000 the default database's folder and a new LIBRARY_DB file are the owner's alone")
    func privateFiles() throws {
        let sandbox = Sandbox()
        let data = sandbox.directory + "/data"
        let made = sandbox.shell(
            "umask 000; unset LIBRARY_DB; XDG_DATA_HOME='\(data)' exec \"$LIBRARYCLI\" -q list > /dev/null")
        #expect(made.ending == .exited(0), "\(made.err)")
        let folder = data + "/librarycli"
        for path in [data, folder, folder + "/library.sqlite"] {
            let bits = try mode(of: path)
            #expect(bits & 0o077 == 0, "\(path): \(String(bits, radix: 8))")
        }
        // A new database elsewhere, with its WAL and shared-memory files while a long write holds them.
        let created = sandbox.shell("umask 000; exec \"$LIBRARYCLI\" -q init --empty")
        #expect(created.ending == .exited(0), "\(created.err)")
        #expect(try mode(of: sandbox.database) & 0o077 == 0)
        let writer = try sandbox.open(readOnly: false)
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("INSERT INTO settings (key, value) VALUES ('reliability', 'x')")
        for suffix in ["-wal", "-shm"] {
            #expect(try mode(of: sandbox.database + suffix) & 0o077 == 0, "\(suffix)")
        }
        try writer.execute("ROLLBACK")
    }

    @Test(
        "a read-only database file: list works, take exits 73",
        .disabled(if: getuid() == 0, "tests run as root here, and chmod does not stop root")
    )
    func readOnlyFile() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 10)
        chmod(sandbox.database, 0o400)
        #expect(sandbox.run(["-q", "list"]).ending == .exited(0))
        let taken = sandbox.run(["-q", "take", "1"])
        #expect(taken.ending == .exited(73))
        #expect(taken.err.contains(sandbox.database))
    }
}

extension FaultTests {
    @Test(
        "a database another user can read but not write, in a folder they cannot write: list works, take exits 73",
        .enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root to run as another user")
    )
    func readOnlyForAnotherUser() throws {
        let sandbox = Sandbox()
        try sandbox.makeLibrary(limits: [5], books: 10)
        // The other user (nobody) runs a copy of the binary from the sandbox, whatever the checkout's permissions.
        let binary = sandbox.directory + "/librarycli-copy"
        let copied = sandbox.shell("cp \"$LIBRARYCLI\" '\(binary)' && chmod 755 '\(binary)'")
        try #require(copied.ending == .exited(0), "\(copied.err)")
        chmod(sandbox.directory, 0o755)
        chmod(sandbox.database, 0o644)
        let before = FileManager.default.contents(atPath: sandbox.database)
        let asNobody = "setpriv --reuid=65534 --regid=65534 --clear-groups '\(binary)'"
        let listed = sandbox.shell("\(asNobody) -q list")
        #expect(listed.ending == .exited(0), "\(listed.err)")
        #expect(listed.out.contains("Hey Client 1!"))
        let taken = sandbox.shell("\(asNobody) -q take 1")
        #expect(taken.ending == .exited(73), "\(taken.err)")
        #expect(taken.err.contains("read-only"))
        #expect(FileManager.default.contents(atPath: sandbox.database) == before)
    }
}

// MARK: - Helpers

/// After a failed import: librarycli opens the database, which is whole and holds only the books it had.
private func expectUnchanged(_ sandbox: Sandbox, books: Int, sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    let listed = sandbox.run(["-q", "list"])
    #expect(listed.ending == .exited(0), "\(listed.err)", sourceLocation: sourceLocation)
    let db = try sandbox.open()
    #expect(try brokenInvariants(db) == [], sourceLocation: sourceLocation)
    #expect(try db.fetchOne("SELECT count(*) FROM books") { $0.int(0) } == books, sourceLocation: sourceLocation)
}

/// The leaf page of the books table in the middle of its key order (dbstat lists pages in b-tree order).
private func middleBooksLeafPage(_ sandbox: Sandbox) throws -> Int {
    let db = try sandbox.open()
    let size = try db.fetchOne("PRAGMA page_size") { $0.int(0) }
    try #require(size == 4096)
    let leaves = try db.fetchAll("SELECT pageno FROM dbstat WHERE name = 'books' AND pagetype = 'leaf' ORDER BY path") {
        $0.int(0)
    }
    try #require(leaves.count > 10)
    return leaves[leaves.count / 2]
}

/// Overwrites `count` bytes of `path` at `offset` with `byte`.
private func overwrite(_ path: String, at offset: Int, count: Int, with byte: UInt8) throws {
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.seek(toOffset: UInt64(offset))
    try handle.write(contentsOf: Data(repeating: byte, count: count))
    try handle.close()
}

/// The permission bits of `path`.
private func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}
