import Library
import StoreTestSupport
import Testing

@Suite struct ClientTests {
    @Test(arguments: StoreKind.available)
    func addsClientsWithGeneratedUniqueCards(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let store = fixture.store
        #expect(fixture.ann.cardNumber == "C-000001")
        #expect(fixture.ann.loanLimit == 5)
        #expect(fixture.bob.cardNumber == "C-000002")
        _ = try store.addClient(name: "Cat", cardNumber: "C-000003", now: fixture.now)
        let dan = try store.addClient(name: "  Dan  ", now: fixture.now)
        #expect(dan.name == "Dan")
        #expect(dan.cardNumber == "C-000004")
        #expect(try store.client(id: dan.id) == dan)
        #expect(try store.client(cardNumber: "C-000003")?.name == "Cat")
        #expect(try store.allClients().map(\.name) == ["Ann", "Bob", "Cat", "Dan"])
        #expect(try store.client(id: 999) == nil)
    }

    @Test(arguments: StoreKind.available)
    func refusesDuplicateCardsAndBadInput(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let store = fixture.store
        #expect(throws: LibraryError.cardNumberTaken("C-000001")) {
            try store.addClient(name: "Eve", cardNumber: "C-000001", now: fixture.now)
        }
        // Cards are told apart without regard to the case of their letters (CardNumber.key).
        #expect(throws: LibraryError.cardNumberTaken("C-000001")) {
            try store.addClient(name: "Eve", cardNumber: " c-000001", now: fixture.now)
        }
        #expect(try store.client(cardNumber: "c-000002")?.name == "Bob")
        #expect(throws: LibraryError.self) { try store.addClient(name: "   ", now: fixture.now) }
        #expect(throws: LibraryError.self) { try store.addClient(name: "Eve", loanLimit: -1, now: fixture.now) }
        #expect(try store.allClients().count == 2)
    }

    @Test(arguments: StoreKind.available)
    func defaultClientIsKeptInSettings(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 0)
        let store = fixture.store
        #expect(try store.defaultClientID() == nil)
        #expect(throws: LibraryError.noDefaultClient) { try store.defaultClient() }
        try store.setDefaultClient(id: fixture.bob.id)
        try store.setDefaultClient(id: fixture.ann.id)
        #expect(try fixture.openStore().defaultClient() == fixture.ann)
        #expect(throws: LibraryError.noSuchClient(id: 42)) { try store.setDefaultClient(id: 42) }
        #expect(try store.defaultClientID() == fixture.ann.id)
    }
}
