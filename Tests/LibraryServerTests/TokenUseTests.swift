import Foundation
import HTTP
import Library
import LibraryServer
import SQLite
import Testing

@Suite("serve: a token's last use is recorded off the request path")
struct TokenUseTests {
    @Test(
        "while another connection holds the write lock, a token's first read answers at once; its use is written later")
    func readsDoNotWaitForTheLastUseWrite() throws {
        let library = try TestLibrary()
        let issued = try library.store().createToken(for: .client(1), now: TestLibrary.now)
        let service = try library.start(busyTimeoutMilliseconds: 3_000)
        defer { service.stop() }
        let holder = try Database(path: library.path)
        try holder.execute(script: "BEGIN IMMEDIATE")
        let clock = ContinuousClock()
        let started = clock.now
        let screen = try call(service.port, "GET", "/v1/screen", token: issued.token)
        let took = clock.now - started
        #expect(screen.status == 200)
        #expect(took < .seconds(2), "took \(took)")
        // Nothing could be written meanwhile.
        #expect(try library.store().tokens().first { $0.id == issued.id }?.lastUsedAt == nil)
        try holder.execute(script: "ROLLBACK")
        // Written once the lock is free (retried every second; bounded wait).
        let deadline = clock.now.advanced(by: .seconds(10))
        var lastUsed: Timestamp?
        while lastUsed == nil && clock.now < deadline {
            lastUsed = try library.store().tokens().first { $0.id == issued.id }?.lastUsedAt
            if lastUsed == nil { usleep(50_000) }
        }
        #expect(lastUsed == TestLibrary.now)
    }
}
