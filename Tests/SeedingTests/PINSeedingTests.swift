import Foundation
import Library
import SQLite
import Seeding
import Testing

@Suite("PINs in clients files and the demo data")
struct PINSeedingTests {
    @Test("the demo clients get the documented demo PINs, hashed; re-seeding keeps a PIN the client changed")
    func demoPINs() throws {
        let library = try TestLibrary()
        let store = library.store
        _ = try CatalogImport.seedDemo(into: store, now: library.now)
        for (card, pin) in [("C-0001", "1111"), ("C-0002", "2222"), ("C-0003", "3333"), ("C-0004", "4444")] {
            let session = try store.signIn(cardNumber: card, pin: pin, now: library.now)
            #expect(try store.client(id: session.clientID)?.cardNumber == card)
        }
        let pins = try Database(path: library.file("library.db")).fetchAll("SELECT pin_hash FROM client_pins") {
            $0.string(0)
        }
        #expect(pins.count == 4 && pins.allSatisfy { $0.hasPrefix("$argon2id$") })
        let john = try #require(try store.client(cardNumber: "C-0001"))
        try store.setPIN(clientID: john.id, pin: "9876", now: library.now)
        let second = try CatalogImport.seedDemo(into: store, now: library.now)
        #expect(second.clients == ImportReport.Counts(unchanged: 4))
        _ = try store.signIn(cardNumber: "C-0001", pin: "9876", now: library.now)
        #expect(throws: AuthError.signInFailed) {
            try store.signIn(cardNumber: "C-0001", pin: "1111", now: library.now)
        }
    }

    @Test("a clients file's pin column sets PINs for clients without one; empty means none")
    func pinColumn() throws {
        let library = try TestLibrary()
        try library.write("clients.csv", "name,card,pin\nAnn,A-1,4821\nBob,B-2,\n")
        _ = try library.importFiles(["clients.csv"])
        let store = library.store
        _ = try store.signIn(cardNumber: "A-1", pin: "4821", now: library.now)
        let bob = try #require(try store.client(cardNumber: "B-2"))
        #expect(try !store.hasPIN(clientID: bob.id))
        let values = try library.dump().joined(separator: "\n")
        #expect(!values.contains("4821"))
    }

    @Test("a bad PIN in a file is bad data: nothing is imported, and the message does not repeat it")
    func badPIN() throws {
        let library = try TestLibrary()
        try library.write("clients.csv", "name,card,pin\nAnn,A-1,4821\nBob,B-2,12x45\n")
        let error = #expect(throws: DataError.self) { try library.importFiles(["clients.csv"]) }
        #expect(error?.description.contains("line 3") == true)
        #expect(error?.description.contains("12x45") == false)
        #expect(error?.description.contains("4 to 12 digits") == true)
        #expect(try library.store.allClients().isEmpty)
    }

    @Test("a dry run sets no PIN")
    func dryRun() throws {
        let library = try TestLibrary()
        try library.write("clients.csv", "name,card,pin\nAnn,A-1,4821\n")
        _ = try library.importFiles(["clients.csv"], dryRun: true)
        #expect(try library.store.allClients().isEmpty)
        let count = try Database(path: library.file("library.db")).fetchOne("SELECT count(*) FROM client_pins") {
            $0.int(0)
        }
        #expect(count == 0)
    }
}
