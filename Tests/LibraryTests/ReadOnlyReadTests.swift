import Library
import PostgreSQL
import SQLite
import StoreTestSupport
import Testing

@Suite("store.read is read-only: every write is an IMMEDIATE write")
struct ReadOnlyReadTests {
    @Test("a write inside store.read fails at once and changes nothing", arguments: StoreKind.available)
    func writeInsideReadFails(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind)
        let writes: [(String, (LibraryStore) throws -> Void)] = [
            ("addClient", { store in _ = try store.addClient(name: "Cid", now: fixture.now) }),
            ("take", { store in _ = try store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now) }),
            ("write", { store in try store.write { store in try store.setDefaultClient(id: fixture.bob.id) } }),
        ]
        for (name, write) in writes {
            let error = #expect(throws: (any Error).self, "\(name)") { try fixture.store.read(write) }
            switch kind {
            case .sqlite:
                let message = (error as? SQLiteError)?.message ?? ""
                #expect(
                    message.contains("cannot write inside a read transaction"), "\(name): \(String(describing: error))")
            case .postgresql:
                // read_only_sql_transaction: the read is a READ ONLY transaction.
                #expect((error as? PostgreSQLError)?.sqlState == "25006", "\(name): \(String(describing: error))")
            }
        }
        #expect(try fixture.store.allClients().map(\.name) == ["Ann", "Bob"])
        #expect(try fixture.store.openLoans(clientID: fixture.ann.id, now: fixture.now).isEmpty)
        #expect(try fixture.store.defaultClientID() == nil)
        // The same writes outside read work.
        _ = try fixture.store.take(bookIDs: [1], clientID: fixture.ann.id, now: fixture.now)
        #expect(try fixture.store.read { try $0.openLoans(clientID: fixture.ann.id, now: fixture.now) }.count == 1)
    }
}
