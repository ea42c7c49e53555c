import Foundation
import Glibc
import Testing

/// Failed writes (issue 10, items 1 and 2): to standard output, and to the file of `export --output`.
@Suite("Writes that fail: a full disk, a closed pipe, files that are not files")
struct WriteFailureTests {
    /// The commands of the issue, and more: everything that prints data.
    static let printing: [[String]] = [
        ["list"], ["--json", "list"], ["books", "--all"], ["clients"], ["history"], ["completion", "bash"],
        ["help"], ["--help"], ["--json", "books"], ["export"], ["migrate", "--status"], ["--version"],
    ]

    static let fullDiskMessage = "Error: cannot write to standard output: No space left on device.\n"

    /// A database where every command above has something to print.
    static func sandbox() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "1"])
        sandbox.run(["return", "1"])
        return sandbox
    }

    @Test("a failed write to standard output: one line on stderr, exit 74", arguments: printing)
    func fullDisk(arguments: [String]) {
        let result = Self.sandbox().run(arguments, failingOutputWith: ENOSPC)
        #expect(result.code == 74, "\(arguments): \(result.err)")
        #expect(result.err == Self.fullDiskMessage, "\(arguments)")
    }

    @Test("a closed pipe on standard output ends the command quietly with exit 0", arguments: printing)
    func closedPipe(arguments: [String]) {
        let result = Self.sandbox().run(arguments, failingOutputWith: EPIPE)
        #expect(result.code == 0, "\(arguments): \(result.err)")
        #expect(result.err.isEmpty, "\(arguments)")
    }

    // MARK: - Changes whose output fails

    /// The commands that change the library; each writes its output before its change commits.
    static let changing: [[String]] = [
        ["take", "2"], ["--json", "take", "2"], ["return", "3"], ["renew", "3"], ["clients", "add", "Ann"],
        ["--json", "clients", "add", "Ann"], ["clients", "use", "2"], ["books", "add", "--title", "Emma"],
        ["--json", "books", "add", "--title", "Emma"], ["tokens", "create", "--client", "1"],
        ["--json", "tokens", "create", "--librarian"], ["tokens", "revoke", "1"], ["clients", "pin", "2"],
        ["clients", "pin", "1", "--clear"],
    ]

    /// The sandbox with a loan of book 3, a token and a PIN, so every command above has something to change.
    static func changingSandbox() -> Sandbox {
        let sandbox = Self.sandbox()
        sandbox.run(["take", "3"])
        sandbox.run(["tokens", "create", "--client", "1"])
        sandbox.run(["clients", "pin", "1"], input: "1111\n")
        return sandbox
    }

    @Test("a change whose output cannot be written is rolled back: exit 74, nothing changed", arguments: changing)
    func changeRolledBack(arguments: [String]) throws {
        let sandbox = Self.changingSandbox()
        let before = try sandbox.dump()
        let result = sandbox.run(arguments, failingOutputWith: ENOSPC, input: "2222\n")
        #expect(result.code == 74, "\(arguments): \(result.err)")
        let consequence = arguments.contains("create") ? "no token was created." : "nothing was changed."
        #expect(result.err == "Error: cannot write to standard output: No space left on device; \(consequence)\n")
        #expect(try sandbox.dump() == before, "\(arguments) changed the library")
        // And the same command with standard output working changes it.
        #expect(sandbox.run(arguments, input: "2222\n").code == 0)
        #expect(try sandbox.dump() != before, "\(arguments) changed nothing")
    }

    @Test("a closed pipe keeps the change (the reader left on purpose), except a token nobody could read")
    func changeIntoClosedPipe() throws {
        for arguments in Self.changing {
            let sandbox = Self.changingSandbox()
            let before = try sandbox.dump()
            let result = sandbox.run(arguments, failingOutputWith: EPIPE, input: "2222\n")
            if arguments.contains("create") {
                #expect(result.code == 74, "\(arguments)")
                #expect(result.err == "Error: cannot write to standard output: Broken pipe; no token was created.\n")
                #expect(try sandbox.dump() == before, "\(arguments) created a token nobody saw")
            } else {
                #expect(result.code == 0, "\(arguments): \(result.err)")
                #expect(result.err.isEmpty, "\(arguments)")
                #expect(try sandbox.dump() != before, "\(arguments) changed nothing")
            }
        }
    }

    @Test("a token's advice comes only after the token was written and kept")
    func tokenAdvice() {
        let sandbox = Self.sandbox()
        let shown = sandbox.run(["tokens", "create", "--client", "1"])
        #expect(shown.code == 0)
        #expect(shown.out.hasPrefix("lc_"))
        #expect(shown.err.hasPrefix("Created token #1 for client #1 John Doe. Keep it secret"))
        let lost = sandbox.run(["tokens", "create", "--client", "1"], failingOutputWith: ENOSPC)
        #expect(!lost.err.contains("Created token"))
        #expect(sandbox.run(["tokens", "list", "--json"]).out.components(separatedBy: "\"id\"").count == 2)
    }

    @Test("seed, import, init and copy commit before their report: when it fails they say the change was kept")
    func reportAfterCommit() throws {
        let sandbox = Self.sandbox()
        let file = sandbox.directory + "/books.csv"
        try "title,author\nEmma,Jane Austen\n".write(toFile: file, atomically: true, encoding: .utf8)
        let imported = sandbox.run(["import", file], failingOutputWith: ENOSPC)
        #expect(imported.code == 74)
        #expect(
            imported.err
                == "Error: cannot write to standard output: No space left on device; the import was committed all "
                + "the same; only its report was lost.\n")
        #expect(sandbox.run(["books", "--search", "emma"]).out.contains("Jane Austen"))
        let seeded = sandbox.run(["seed"], failingOutputWith: ENOSPC)
        #expect(seeded.code == 74)
        #expect(seeded.err.hasSuffix("; the seed was committed all the same; only its report was lost.\n"))
        let other = sandbox.directory + "/other.sqlite"
        let created = sandbox.run(["--db", other, "--json", "init", "--empty"], failingOutputWith: ENOSPC)
        #expect(created.code == 74)
        #expect(created.err.hasSuffix("; the library was created all the same; only this report was lost.\n"))
        #expect(sandbox.run(["--db", other, "--json", "init"]).out.contains("\"created\": false"))
        // A dry run changes nothing: the usual message.
        let dry = sandbox.run(["import", "--dry-run", file], failingOutputWith: ENOSPC)
        #expect(dry.code == 74)
        #expect(dry.err == Self.fullDiskMessage)
    }

    @Test("a command that fails keeps its own code when standard output fails too")
    func failureKeepsItsCode() {
        let result = Self.sandbox().run(["take", "99"], failingOutputWith: ENOSPC)
        #expect(result.code == 1)
    }

    // MARK: - The real binary

    /// The environment of the real binary against the sandbox's database.
    static func environment(_ sandbox: Sandbox) -> [String: String] {
        ["LIBRARY_DB": sandbox.database, "LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory]
    }

    /// Runs the binary with standard output on `output` (a file handle, or a pipe whose reader is closed).
    static func run(_ arguments: [String], sandbox: Sandbox, output: Any) throws -> RunResult {
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = arguments
        process.environment = environment(sandbox)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "\(arguments): killed by a signal")
        return RunResult(code: process.terminationStatus, out: "", err: errors)
    }

    static let binaryCommands: [[String]] = [
        ["list"], ["--json", "list"], ["books", "--all"], ["clients"], ["history"], ["completion", "bash"], ["help"],
        ["export"],
    ]

    @Test("the real binary: each command > /dev/full exits 74 with one line on stderr")
    func devFull() throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { return }
        let sandbox = Self.sandbox()
        for arguments in Self.binaryCommands {
            let result = try Self.run(arguments, sandbox: sandbox, output: full)
            #expect(result.code == 74, "\(arguments): \(result.err)")
            #expect(result.err == Self.fullDiskMessage, "\(arguments)")
        }
    }

    @Test("the real binary: each command into a pipe nobody reads exits 0 quietly (SIGPIPE is ignored)")
    func closedPipeBinary() throws {
        let sandbox = Self.sandbox()
        for arguments in Self.binaryCommands {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()  // the first write meets a pipe with no reader: EPIPE
            let result = try Self.run(arguments, sandbox: sandbox, output: pipe)
            #expect(result.code == 0, "\(arguments): \(result.err)")
            #expect(result.err.isEmpty, "\(arguments)")
        }
    }

    @Test("the real binary under a file size limit: export -o and > file exit 74, the old file stays whole")
    func fileSizeLimit() throws {
        let sandbox = Sandbox()
        let environment = Self.environment(sandbox)
        #expect(try Binary.run(["init"], environment: environment).code == 0)
        // About 400 KB of export, more than the limit; the database is only read, so the limit does not touch it.
        #expect(try Binary.run(["seed", "--generate", "3000"], environment: environment).code == 0)
        let file = sandbox.directory + "/out.csv"
        try "old".write(toFile: file, atomically: true, encoding: .utf8)
        let binary = "'" + Binary.url.path + "'"
        for script in [
            "ulimit -f 200; exec \(binary) export -o '\(file)'",
            "ulimit -f 200; exec \(binary) export > '\(sandbox.directory)/stdout.csv'",
        ] {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/bash")
            shell.arguments = ["-c", script]
            shell.environment = environment
            let err = Pipe()
            shell.standardError = err
            shell.standardOutput = FileHandle.nullDevice
            try shell.run()
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 74, "\(script): \(errors)")
            #expect(errors.contains("File too large"), "\(script): \(errors)")
            #expect(!errors.contains("Exported"))
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "old")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }

    // MARK: - export --output

    @Test("export -o refuses a FIFO, a directory and a device like /dev/full with exit 74, and changes none of them")
    func exportToSpecialFiles() throws {
        let sandbox = Self.sandbox()
        let fifo = sandbox.directory + "/fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let folder = sandbox.directory + "/folder"
        #expect(mkdir(folder, 0o755) == 0)
        var targets = [
            (fifo, S_IFIFO, "it is a pipe, not a regular file"),
            (folder, S_IFDIR, "it is a directory, not a regular file"),
        ]
        // A copy of /dev/full's node, the test's own (only root may make one): a regression that replaced
        // the target would replace this copy, never the system's /dev/full.
        let full = sandbox.directory + "/full"
        var device = stat()
        if stat("/dev/full", &device) == 0, mknod(full, S_IFCHR | 0o666, device.st_rdev) == 0 {
            targets.append((full, S_IFCHR, "it is a character device, not a regular file"))
        }
        for (path, kind, message) in targets {
            for arguments in [["export", "-o", path], ["-q", "export", "--json", "--output", path]] {
                let result = try Binary.run(arguments, environment: Self.environment(sandbox))
                #expect(result.code == 74, "\(arguments): \(result.err)")
                #expect(result.err == "Error: cannot write \(path): \(message); nothing was written\n")
                #expect(result.out.isEmpty)
                var after = stat()
                #expect(lstat(path, &after) == 0 && after.st_mode & S_IFMT == kind, "\(path) changed kind")
                if kind == S_IFCHR { #expect(after.st_rdev == device.st_rdev) }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        // The system's /dev/full too, once its copy above was left alone (so a regression cannot replace it).
        var copy = stat()
        var system = stat()
        guard lstat(full, &copy) == 0, copy.st_mode & S_IFMT == S_IFCHR, lstat("/dev/full", &system) == 0,
            system.st_mode & S_IFMT == S_IFCHR
        else { return }
        let result = try Binary.run(["export", "-o", "/dev/full"], environment: Self.environment(sandbox))
        #expect(result.code == 74)
        #expect(result.err.hasPrefix("Error: cannot write /dev/full: it is a character device"))
        var after = stat()
        #expect(lstat("/dev/full", &after) == 0 && after.st_mode & S_IFMT == S_IFCHR && after.st_rdev == system.st_rdev)
    }

    @Test("export -o through a symlink, into a 0600 file, into a new file under umask 027")
    func exportModes() throws {
        let sandbox = Self.sandbox()
        let environment = Self.environment(sandbox)
        let target = sandbox.directory + "/private.csv"
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        #expect(chmod(target, 0o600) == 0)
        let link = sandbox.directory + "/link.csv"
        #expect(symlink("private.csv", link) == 0)
        let result = try Binary.run(["export", "-o", link], environment: environment)
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err == "Exported 3 books to \(link).\n")
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(stat(target, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("title,author"))

        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        let fresh = sandbox.directory + "/fresh.csv"
        shell.arguments = ["-c", "umask 027; exec '\(Binary.url.path)' -q export -o '\(fresh)'"]
        shell.environment = environment
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(stat(fresh, &info) == 0 && info.st_mode & 0o7777 == 0o640)
    }

    @Test(
        "as another user: a file they may not write, or whose owner they cannot keep, is refused and left alone",
        .enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root to run as another user")
    )
    func anotherUser() throws {
        let sandbox = Self.sandbox()
        // nobody runs a copy of the binary, reads the database (opened read-only) and writes in a folder of its own.
        let binary = sandbox.directory + "/librarycli-copy"
        try FileManager.default.copyItem(atPath: Binary.url.path, toPath: binary)
        #expect(
            chmod(binary, 0o755) == 0 && chmod(sandbox.directory, 0o755) == 0 && chmod(sandbox.database, 0o644) == 0)
        let folder = sandbox.directory + "/out"
        #expect(mkdir(folder, 0o777) == 0 && chmod(folder, 0o777) == 0)
        let readOnly = folder + "/read-only.csv"
        let rootsFile = folder + "/roots.csv"
        let fresh = folder + "/fresh.csv"
        for path in [readOnly, rootsFile] { try "old".write(toFile: path, atomically: false, encoding: .utf8) }
        #expect(chown(readOnly, 65534, 65534) == 0 && chmod(readOnly, 0o444) == 0)
        #expect(chmod(rootsFile, 0o666) == 0)  // nobody may write it, but a new file would be nobody's
        func export(_ path: String) throws -> RunResult {
            try runAsNobody(binary, ["export", "-o", path], environment: Self.environment(sandbox))
        }
        let refused = try export(readOnly)
        #expect(refused.code == 74)
        #expect(refused.err == "Error: cannot write \(readOnly): Permission denied\n")
        let owner = try export(rootsFile)
        #expect(owner.code == 74)
        #expect(owner.err.hasPrefix("Error: cannot write \(rootsFile): cannot keep its owner and group"))
        for path in [readOnly, rootsFile] { #expect(try String(contentsOfFile: path, encoding: .utf8) == "old") }
        let created = try export(fresh)
        #expect(created.code == 0, "\(created.err)")
        var info = stat()
        #expect(stat(fresh, &info) == 0 && info.st_uid == 65534)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }
}
