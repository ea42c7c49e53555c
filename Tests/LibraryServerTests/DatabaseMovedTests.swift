import Foundation
import HTTP
import HTTPTestSupport
import Library
import LibraryServer
import SQLite
import Testing

/// The database file deleted, renamed or replaced under a running server: nothing more is written to the file the
/// server has open (no one would ever see it), every request is answered 503 `database-moved`, and one line says so.
@Suite("serve: the database file moved under the server")
struct DatabaseMovedTests {
    /// Book ids the open loans of client 1 hold, read from the library's file at its path.
    static func heldBooks(_ library: TestLibrary) throws -> Set<Int> {
        Set(try library.store().openLoans(clientID: 1, now: TestLibrary.now).map(\.book.id))
    }

    @Test("deleted, renamed or replaced: 503 database-moved for every request, one log line, nothing written")
    func movedFile() throws {
        for change in ["delete", "rename", "replace"] {
            let library = try TestLibrary()
            let token = try library.token(client: 1)
            let kept = library.directory + "/kept.sqlite"
            let backup = library.directory + "/backup.sqlite"
            try FileManager.default.copyItem(atPath: library.path, toPath: backup)
            let lines = Shared<[String]>([])
            let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
            let service = try LibraryService.start(
                databasePath: library.path, configuration: configuration,
                log: { line in lines.withLock { $0.append(line) } }, now: { TestLibrary.now })
            defer { service.stop() }
            let port = service.port
            #expect(try call(port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [8]}"#).status == 201)
            #expect(!service.databaseMoved)

            // The library's file leaves its path; a hard link keeps it to be put back and read afterwards.
            #expect(link(library.path, kept) == 0)
            switch change {
            case "delete": #expect(unlink(library.path) == 0)
            case "rename": #expect(rename(library.path, library.directory + "/renamed.sqlite") == 0)
            default: #expect(rename(backup, library.path) == 0)
            }
            let take = try call(port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [9]}"#)
            #expect(take.status == 503, "\(change)")
            #expect(take.code == "database-moved")
            #expect(take[header: "Retry-After"] == nil)
            for (method, target) in [("GET", "/healthz"), ("GET", "/v1/screen"), ("DELETE", "/v1/loans/8")] {
                let answer = try call(port, method, target, token: token)
                #expect(answer.status == 503, "\(change): \(method) \(target)")
                #expect(answer.code == "database-moved")
            }
            #expect(service.databaseMoved)
            if change == "delete" {
                #expect(!FileManager.default.fileExists(atPath: library.path))  // not made anew either
            }

            // The library's file back at its path: it has book 8 on loan and not book 9 (the refused take wrote
            // nothing), and the server still refuses, as it was told the file moved once.
            #expect(rename(kept, library.path) == 0)
            #expect(try Self.heldBooks(library) == [8])
            #expect(try call(port, "GET", "/healthz").status == 503)
            let logged = lines.withLock { $0 }
            #expect(logged.count == 1, "\(change): \(logged)")
            #expect(logged.first?.hasPrefix("Error: the database file \(library.path) was moved") == true)
        }
    }

    @Test("serve as a process: one Error line naming the file, 503s, and on SIGTERM exit 73 saying why")
    func serveProcess() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let serve = try ServeProcess(["--db", library.path, "-q", "serve", "--port", "0"])
        defer { serve.stop() }
        #expect(try call(serve.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [8]}"#).status == 201)
        try FileManager.default.removeItem(atPath: library.path)
        let take = try call(serve.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [9]}"#)
        #expect(take.status == 503)
        #expect(take.code == "database-moved")
        #expect(try call(serve.port, "GET", "/healthz").status == 503)
        kill(serve.process.processIdentifier, SIGTERM)
        serve.process.waitUntilExit()
        #expect(serve.process.terminationStatus == 73)
        let err = serve.rest()
        let moved = "Error: the database file \(library.path) was moved, renamed, deleted or replaced while"
        #expect(err.components(separatedBy: moved + " the server ran;").count == 2, "\(err)")
        #expect(err.hasSuffix(moved + " serving; the requests after that were refused (503 database-moved).\n"))
        #expect(!FileManager.default.fileExists(atPath: library.path))
    }
}
