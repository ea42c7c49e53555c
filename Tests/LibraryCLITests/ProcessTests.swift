import Foundation
import Testing

/// Runs the built `librarycli` executable as a separate process, as a user or a script would.
struct Binary {
    static let url: URL = {
        // The test bundle sits beside the executable in the build folder.
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = bundleFolder.appendingPathComponent("librarycli")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/librarycli")
    }()

    /// Runs the binary with exactly this environment (nothing inherited), in `folder` when given, and waits for it.
    static func run(
        _ arguments: [String], environment: [String: String], stdin: Data? = nil, in folder: String? = nil
    ) throws -> RunResult {
        let process = Process()
        process.executableURL = url
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            try process.run()
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            code: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errData, as: UTF8.self))
    }
}

@Suite("The librarycli executable, run as a process")
struct ProcessTests {
    @Test("a newcomer's first list creates, seeds and shows the default database; the second is quiet")
    func firstRun() throws {
        let sandbox = Sandbox()
        let environment = [
            "HOME": sandbox.directory, "XDG_DATA_HOME": sandbox.directory + "/data", "PATH": "/usr/bin:/bin",
        ]
        let first = try Binary.run(["list"], environment: environment)
        #expect(first.code == 0, "\(first.err)")
        let path = sandbox.directory + "/data/librarycli/library.sqlite"
        #expect(first.err.hasPrefix("Created the library at \(path) with the demo catalog"))
        #expect(first.out.contains("Hey John Doe!"))
        #expect(first.out.contains("You don't have any books right now!"))
        #expect(first.out.contains("── Library (49) "))
        let second = try Binary.run(["list"], environment: environment)
        #expect(second.code == 0)
        #expect(second.err.isEmpty)
        #expect(second.out == first.out)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int ?? 0o777) & 0o077 == 0)
    }

    @Test("tokens create prints the token alone on stdout; clients pin reads a piped PIN")
    func tokensAndPINs() throws {
        let sandbox = Sandbox()
        let environment = ["LIBRARY_DB": sandbox.database, "LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory]
        #expect(try Binary.run(["init"], environment: environment).code == 0)
        let created = try Binary.run(["tokens", "create", "--client", "2"], environment: environment)
        #expect(created.code == 0, "\(created.err)")
        let lines = created.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("lc_") && lines[0].count == 46)
        #expect(created.err.contains("shown only once") && !created.err.contains("lc_"))
        let listed = try Binary.run(["--json", "tokens", "list"], environment: environment)
        #expect(listed.code == 0 && !listed.out.contains(String(lines[0])))
        let pin = try Binary.run(["clients", "pin", "2"], environment: environment, stdin: Data("8642\n".utf8))
        #expect(pin.code == 0, "\(pin.err)")
        #expect(pin.out == "Set the PIN of client #2 Jane Roe (card C-0002).\n")
        let none = try Binary.run(["clients", "pin", "2"], environment: environment)
        #expect(none.code == 64 && none.err.contains("No PIN on standard input"))
    }

    @Test("exit codes and streams of the real process")
    func exitCodes() throws {
        let sandbox = Sandbox()
        let environment = ["LIBRARY_DB": sandbox.database, "LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory]
        #expect(try Binary.run(["init"], environment: environment).code == 0)
        let usage = try Binary.run(["tkae", "1"], environment: environment)
        #expect(usage.code == 64)
        #expect(usage.out.isEmpty)
        #expect(usage.err.hasPrefix("Error: Unknown command 'tkae'. Did you mean 'take'?"))
        let taken = try Binary.run(["take", "1"], environment: environment)
        #expect(taken.code == 0)
        #expect(taken.out.hasPrefix("Took The Odyssey (#1), due 2026-12-13."))
        let refused = try Binary.run(["take", "1"], environment: environment)
        #expect(refused.code == 1)
        #expect(refused.err.hasPrefix("Error: You already have The Odyssey (#1)"))
        let missing = try Binary.run(["import", sandbox.directory + "/nope.csv"], environment: environment)
        #expect(missing.code == 66)
        #expect(missing.err.contains("nope.csv: no such file"))
    }

    @Test("a bad catalog file: exit 65 naming file, line and column, and nothing imported")
    func badImport() throws {
        let sandbox = Sandbox()
        let environment = ["LIBRARY_DB": sandbox.database, "LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory]
        #expect(try Binary.run(["init", "--empty"], environment: environment).code == 0)
        let file = sandbox.directory + "/books.csv"
        try "title,author,year\nDune,Frank Herbert,1965\nEmma,Jane Austen,18x5\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let before = try sandbox.dump()
        let result = try Binary.run(["import", file], environment: environment)
        #expect(result.code == 65)
        #expect(result.err.contains("books.csv: line 3, column 3 (year): '18x5' is not a year"))
        #expect(try sandbox.dump() == before)
        try "title,author,year\nDune,Frank Herbert,1965\nEmma,Jane Austen,1815\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let good = try Binary.run(["import", file], environment: environment)
        #expect(good.code == 0)
        #expect(good.out == "books: 2 inserted, 0 updated, 0 unchanged, 0 skipped\n")
        let again = try Binary.run(["import", file], environment: environment)
        #expect(again.out == "books: 0 inserted, 0 updated, 2 unchanged, 0 skipped\n")
    }

    @Test("a closed pipe ends output quietly", arguments: [["books", "--per-page", "1000"], ["export"]])
    func closedPipe(arguments: [String]) throws {
        let sandbox = Sandbox()
        let environment = ["LIBRARY_DB": sandbox.database, "LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory]
        #expect(try Binary.run(["init"], environment: environment).code == 0)
        // Enough output to overflow the pipe's buffer, so the writer meets the closed pipe.
        #expect(try Binary.run(["seed", "--generate", "3000"], environment: environment).code == 0)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        let command = ([Binary.url.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        shell.arguments = ["-c", "\(command) | head -n 1; exit ${PIPESTATUS[0]}"]
        shell.environment = environment
        let out = Pipe()
        let err = Pipe()
        shell.standardOutput = out
        shell.standardError = err
        try shell.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(text.split(separator: "\n").count == 1)
        #expect(errors.isEmpty)
        #expect(shell.terminationStatus == 0)
    }

    @Test("8 processes opening one new default database at once all succeed and seed it once")
    func raceToCreate() throws {
        let sandbox = Sandbox()
        let environment = [
            "HOME": sandbox.directory, "XDG_DATA_HOME": sandbox.directory + "/data", "LIBRARY_NOW": sandbox.now,
        ]
        let processes = try (1...8).map { _ -> Process in
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["-q", "--json", "list"]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let codes = processes.map { process -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(codes == Array(repeating: 0, count: 8))
        let books = try Binary.run(["books", "--json"], environment: environment)
        let document = try parseJSON(books.out)
        #expect(document["totalCount"] as? Int == 49)
    }

    @Test("processes making one new library at once: only the one that made it says so")
    func raceToCreateNamedLibrary() throws {
        let sandbox = Sandbox()
        let environment = ["LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory]
        func race(_ arguments: [String]) throws -> [RunResult] {
            try? FileManager.default.removeItem(atPath: sandbox.database)
            let running = try (1...6).map { _ in
                try RunningBinary(["--db", sandbox.database] + arguments, environment: environment)
            }
            return running.map { $0.finish() }
        }
        let inits = try race(["init"])
        #expect(inits.map(\.code) == Array(repeating: 0, count: 6), "\(inits.map(\.err))")
        #expect(inits.filter { $0.err.hasPrefix("Created a library with the demo catalog") }.count == 1)
        #expect(
            inits.filter { $0.err == "The library at \(sandbox.database) already exists; nothing was changed.\n" }
                .count == 5, "\(inits.map(\.err))")
        let adds = try race(["books", "add", "--title", "Dune"])
        #expect(adds.map(\.code) == Array(repeating: 0, count: 6), "\(adds.map(\.err))")
        #expect(adds.filter { $0.err.hasPrefix("Created a new, empty library") }.count == 1, "\(adds.map(\.err))")
    }

    @Test("16 processes race to take the same book: exactly one loan, the others refused with exit 1")
    func raceForOneBook() throws {
        let sandbox = Sandbox()
        let environment = ["LIBRARY_DB": sandbox.database, "LIBRARY_NOW": sandbox.now, "HOME": sandbox.directory]
        #expect(try Binary.run(["init", "--empty"], environment: environment).code == 0)
        #expect(try Binary.run(["books", "add", "--title", "Dune"], environment: environment).code == 0)
        for number in 1...16 {
            _ = try Binary.run(["clients", "add", "Client \(number)"], environment: environment)
        }
        let results = try (1...16).map { client -> Process in
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["--client", String(client), "-q", "take", "1"]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }.map { process -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(results.filter { $0 == 0 }.count == 1)
        #expect(results.filter { $0 == 1 }.count == 15)
        let loans = try sandbox.dump().filter { $0.hasPrefix("loans: ") }
        #expect(loans.count == 1)
    }
}

@Suite("Scripts and progress")
struct ScriptTests {
    @Test("seed/seed.sh builds a library from the seed folder with the CLI, and a second run adds nothing")
    func seedScript() throws {
        let sandbox = Sandbox()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("seed/seed.sh").path
        let environment = [
            "LIBRARYCLI": Binary.url.path, "HOME": sandbox.directory, "PATH": "/usr/bin:/bin",
            "LIBRARY_NOW": sandbox.now,
        ]
        func runScript() throws -> RunResult {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script, sandbox.database]
            process.environment = environment
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return RunResult(code: process.terminationStatus, out: text, err: errors)
        }
        let first = try runScript()
        #expect(first.code == 0, "\(first.err)")
        #expect(first.out.contains("books: 49 inserted"))
        #expect(first.out.contains("Hey John Doe!"))
        let second = try runScript()
        #expect(second.code == 0)
        #expect(second.out.contains("books: 0 inserted, 0 updated, 49 unchanged"))
        #expect(second.err.contains("already exists"))
    }

    @Test("a progress bar on a terminal for big imports; none when not a terminal or with -q")
    func progress() {
        let sandbox = Sandbox()
        sandbox.run(["init", "--empty"])
        let onTerminal = sandbox.run(["seed", "--generate", "25000"], terminal: true)
        #expect(onTerminal.code == 0)
        #expect(onTerminal.err.contains("25000/25000 rows"))
        #expect(onTerminal.out == "books: 25000 inserted, 0 updated, 0 unchanged, 0 skipped\n")
        let piped = sandbox.run(["seed", "--generate", "25000"])
        #expect(piped.err.isEmpty)
        #expect(piped.out == "books: 25000 inserted, 0 updated, 0 unchanged, 0 skipped\n")
        let quiet = sandbox.run(["-q", "seed", "--generate", "25000"], terminal: true)
        #expect(quiet.err.isEmpty)
    }
}
