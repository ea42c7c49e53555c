import SQLite

/// Inserts or updates many clients by card number with reused prepared statements, for idempotent seeding.
///
/// A client matches an existing one by card number: its name and loan limit are updated when they differ, its
/// creation time is kept. Use it inside one write transaction (`store.write { ... }`).
///
/// ```swift
/// try store.write { store in
///     let importer = try ClientImporter(store: store, now: now)
///     let outcome = try importer.importClient(name: "Ann", cardNumber: "C-7", loanLimit: 5)
///     print(importer.counts)
/// }
/// ```
public final class ClientImporter {
    /// What was done so far.
    public private(set) var counts = ImportCounts()

    private let database: StoreDatabase
    /// A client by its card as written (the unique index), and by id.
    private let find: StoreStatement
    private let findByID: StoreStatement
    /// Every client's card key (`CardNumber.key`) and the id of the first client holding it, read once: a card
    /// written in another case is found without comparing every client's card for every row imported.
    private var idsByKey: [String: Int] = [:]
    private let insert: StoreStatement
    private let update: StoreStatement
    private let now: Timestamp

    /// Prepares the statements on the store's connection; `now` is the creation time of new clients.
    ///
    /// ```swift
    /// let importer = try ClientImporter(store: store, now: now)
    /// ```
    public init(store: LibraryStore, now: Timestamp) throws {
        database = store.database
        self.now = now
        find = try database.prepare("SELECT id, name, loan_limit FROM clients WHERE card_number = ?")
        findByID = try database.prepare("SELECT id, name, loan_limit FROM clients WHERE id = ?")
        for (id, card) in try database.fetchAll(
            "SELECT id, card_number FROM clients ORDER BY id", [],
            { row in
                (row.int(0), row.string(1))
            }) where idsByKey[CardNumber.key(card)] == nil
        {
            idsByKey[CardNumber.key(card)] = id
        }
        insert = try database.prepare(
            "INSERT INTO clients (name, card_number, loan_limit, created_at) VALUES (?, ?, ?, ?) RETURNING id")
        update = try database.prepare("UPDATE clients SET name = ?, loan_limit = ? WHERE id = ?")
    }

    /// Inserts the client, or updates the one with this card number; throws `LibraryError.invalidInput` for an
    /// empty name or card number or a loan limit outside 0...1000.
    ///
    /// ```swift
    /// if case .inserted(let id) = try importer.importClient(name: "Ann", cardNumber: "C-7", loanLimit: 5) { ... }
    /// ```
    @discardableResult
    public func importClient(name: String, cardNumber: String, loanLimit: Int) throws -> ImportOutcome {
        precondition(database.isInTransaction, "import clients inside a write transaction")
        guard !name.isEmpty, !cardNumber.isEmpty, LibraryRules.loanLimits.contains(loanLimit) else {
            throw LibraryError.invalidInput(
                "A client needs a name, a card number and a loan limit from \(LibraryRules.loanLimits.lowerBound) to "
                    + "\(LibraryRules.loanLimits.upperBound) (card '\(cardNumber)').")
        }
        for (text, field) in [(name, TextField.name), (cardNumber, .cardNumber)] {
            do {
                try field.check(text)
            } catch {
                throw LibraryError.invalidInput(error.sentence)
            }
        }
        // The card as written first, else the same card in another case (CardNumber.key).
        let decode = { (row: StoreRow) in (row.int(0), row.string(1), row.int(2)) }
        let key = CardNumber.key(cardNumber)
        if let (id, oldName, oldLimit) = try find.fetchOne([trimmed(cardNumber)], decode)
            ?? idsByKey[key].flatMap({ id in try findByID.fetchOne([id], decode) })
        {
            if oldName == name && oldLimit == loanLimit {
                counts.unchanged += 1
                return .unchanged(id: id)
            }
            try update.execute([name, loanLimit, id])
            counts.updated += 1
            return .updated(id: id)
        }
        guard let id = try insert.fetchOne([name, cardNumber, loanLimit, now.iso8601], { $0.int(0) }) else {
            throw LibraryError.invalidInput("The client with card '\(cardNumber)' was not added.")
        }
        idsByKey[key] = id
        counts.inserted += 1
        return .inserted(id: id)
    }
}
