import Foundation
import Testing

extension BadInputTests {
    /// Bugs the corpus found, kept as regression tests now that they are fixed.
    @Suite("Bad input that librarycli once got wrong")
    struct Bugs {
        @Test(
            "export --output refuses to write over the database it reads", )
        func exportOverTheDatabase() throws {
            let sandbox = try BadInputTests.sandbox()
            let before = try sandbox.dump()
            let result = sandbox.run(["export", "--output", sandbox.database])
            #expect(result.code == 64 || result.code == 73, "exit \(result.code): \(result.err)")
            #expect(try sandbox.dump() == before)
            #expect(sandbox.run(["list"]).code == 0, "the library is gone")
        }

        @Test(
            "import of a named pipe that nobody writes to is refused at once (66), not waited on", )
        func importFIFO() throws {
            let sandbox = try BadInputTests.sandbox()
            let fifo = sandbox.directory + "/books.fifo"
            #expect(mkfifo(fifo, 0o600) == 0)
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["import", fifo]
            process.environment = ["LIBRARY_DB": sandbox.database, "HOME": sandbox.directory]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Not a timing test: a guard so that the hang fails the test instead of blocking the suite.
            for _ in 0..<100 where process.isRunning { usleep(100_000) }
            let hung = process.isRunning
            // SIGKILL: here SIGTERM did not end it (the child seems to inherit a blocked SIGTERM from the runner).
            if hung { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(!hung, "librarycli import <fifo> still waits after 10 s")
            #expect(process.terminationStatus == 66)
        }

        @Test(
            "a header naming one column twice in different case is refused", )
        func duplicateHeaderInAnyCase() throws {
            let sandbox = try BadInputTests.sandbox()
            let before = try sandbox.dump()
            let path = sandbox.directory + "/case.csv"
            try Data("Title,title\nA,B\n".utf8).write(to: URL(fileURLWithPath: path))
            let result = sandbox.run(["import", path])
            BadInputTests.expectFailure(result, code: 65, message: "appears more than once", "import case.csv")
            #expect(try sandbox.dump() == before)
        }

        @Test(
            "a NUL character is refused in JSON as it is in CSV", )
        func nulInJSON() throws {
            let sandbox = try BadInputTests.sandbox()
            let before = try sandbox.dump()
            let path = sandbox.directory + "/nul.json"
            try Data(#"[{"title":"a\u0000b"}]"#.utf8).write(to: URL(fileURLWithPath: path))
            let result = sandbox.run(["import", path])
            BadInputTests.expectFailure(result, code: 65, message: "NUL", "import nul.json")
            #expect(try sandbox.dump() == before)
        }
    }
}
