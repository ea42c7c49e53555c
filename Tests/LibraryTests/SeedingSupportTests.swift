import Library
import StoreTestSupport
import Testing

@Suite("What Seeding needs from Library: client import, first use, every book in order")
struct SeedingSupportTests {
    @Test(
        "ClientImporter inserts, updates and leaves alone by card number, and refuses bad fields",
        arguments: StoreKind.available)
    func clientImporter(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let outcomes = try fixture.store.write { store in
            let importer = try ClientImporter(store: store, now: fixture.now)
            let first = [
                try importer.importClient(name: "Cid", cardNumber: "K-1", loanLimit: 3),
                try importer.importClient(name: "Cid", cardNumber: "K-1", loanLimit: 3),
                try importer.importClient(name: "Cid Two", cardNumber: "K-1", loanLimit: 4),
            ]
            #expect(throws: LibraryError.self) { try importer.importClient(name: "", cardNumber: "K-2", loanLimit: 1) }
            #expect(throws: LibraryError.self) {
                try importer.importClient(name: "X", cardNumber: "K-3", loanLimit: 1001)
            }
            #expect(importer.counts == ImportCounts(inserted: 1, updated: 1, unchanged: 1))
            return first
        }
        let cid = try #require(try fixture.store.client(cardNumber: "K-1"))
        #expect(outcomes == [.inserted(id: cid.id), .unchanged(id: cid.id), .updated(id: cid.id)])
        #expect(cid.name == "Cid Two" && cid.loanLimit == 4 && cid.createdAt == fixture.now)
        #expect(try fixture.store.allClients().count == 3)
    }

    @Test("firstUse runs its body once; a throw leaves it to do", arguments: StoreKind.available)
    func firstUse(kind: StoreKind) throws {
        struct Refusal: Error {}
        let fixture = try Fixture(kind: kind, books: 0)
        #expect(throws: Refusal.self) {
            try fixture.store.firstUse(now: fixture.now) { store -> Int in
                _ = try store.addClient(name: "Rolled back", now: fixture.now)
                throw Refusal()
            }
        }
        #expect(try fixture.store.allClients().count == 2)
        let first = try fixture.store.firstUse(now: fixture.now) { store in
            try store.addClient(name: "Cid", now: fixture.now).name
        }
        #expect(first == "Cid")
        let again = try fixture.store.firstUse(now: fixture.now) { _ in "ran again" }
        #expect(again == nil)
        #expect(try fixture.store.allClients().map(\.name) == ["Ann", "Bob", "Cid"])
    }

    @Test("forEachBook gives every book once, in id order, across chunks", arguments: StoreKind.available)
    func forEachBook(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 25)
        for chunkSize in [1, 10, 25, 1000] {
            var ids: [Int] = []
            try fixture.store.forEachBook(chunkSize: chunkSize) { ids.append($0.id) }
            #expect(ids == Array(1...25), "chunk size \(chunkSize)")
        }
        var titles: [String] = []
        try Fixture(kind: kind, books: 0).store.forEachBook { titles.append($0.title) }
        #expect(titles.isEmpty)
    }
}
