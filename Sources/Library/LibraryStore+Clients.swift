import SQLite

extension LibraryStore {
    // MARK: - Clients

    /// Adds a client; a unique card number ("C-000042") is generated when `cardNumber` is nil.
    ///
    /// Throws `LibraryError.invalidInput` for a blank name, a name or card number too long or holding a control
    /// character (see `TextField`), or a limit outside `LibraryRules.loanLimits`, and `.cardNumberTaken` for a card
    /// another client has.
    ///
    /// ```swift
    /// let ann = try store.addClient(name: "Ann", now: now)
    /// let bob = try store.addClient(name: "Bob", cardNumber: "B-7", loanLimit: 3, now: now)
    /// ```
    public func addClient(
        name: String, cardNumber: String? = nil, loanLimit: Int = LibraryRules.defaultLoanLimit, now: Timestamp
    ) throws -> Client {
        let name = trimmed(name)
        guard !TextField.isBlank(name) else {
            throw LibraryError.invalidInput("A client's name cannot be empty.", field: "name")
        }
        try Self.check(name, .name)
        guard LibraryRules.loanLimits.contains(loanLimit) else {
            throw LibraryError.invalidInput(
                "A loan limit must be between \(LibraryRules.loanLimits.lowerBound) and "
                    + "\(LibraryRules.loanLimits.upperBound), not \(loanLimit).", field: "loanLimit")
        }
        if let cardNumber {
            guard !TextField.isBlank(trimmed(cardNumber)) else {
                throw LibraryError.invalidInput("A card number cannot be empty.", field: "cardNumber")
            }
            try Self.check(trimmed(cardNumber), .cardNumber)
        }
        return try writing {
            // On PostgreSQL, one client is added at a time, as on SQLite: a generated card is free when it is taken.
            try database.lockUntilCommit(.clients)
            var card = cardNumber.map(trimmed)
            if card == nil {
                var next = (try database.fetchOne("SELECT coalesce(max(id), 0) + 1 FROM clients") { $0.int(0) }) ?? 1
                while try self.client(cardNumber: Self.generatedCard(next)) != nil {
                    next += 1
                }
                card = Self.generatedCard(next)
            }
            let cardNumber = card!
            // Cards are told apart by their key: c-0001 is taken when C-0001 is.
            if let holder = try self.client(cardNumber: cardNumber) {
                throw LibraryError.cardNumberTaken(holder.cardNumber)
            }
            let id: Int?
            do {
                id = try database.fetchOne(
                    "INSERT INTO clients (name, card_number, loan_limit, created_at) VALUES (?, ?, ?, ?) RETURNING id",
                    [name, cardNumber, loanLimit, now.iso8601]
                ) { $0.int(0) }
            } catch let error
                where ConstraintFailure(error)?.isUnique(table: "clients", columns: ["card_number"]) == true
            {
                throw LibraryError.cardNumberTaken(cardNumber)
            }
            guard let id else { throw LibraryError.invalidInput("The client was not added.") }
            return Client(
                id: id, name: name, cardNumber: cardNumber, loanLimit: loanLimit,
                createdAt: now)
        }
    }

    /// The client with this id, or nil.
    ///
    /// ```swift
    /// let client = try store.client(id: 1)
    /// ```
    public func client(id: Int) throws -> Client? {
        try reading {
            try database.fetchOne("SELECT \(Columns.client) FROM clients c WHERE c.id = ?", [id]) {
                try Columns.client($0)
            }
        }
    }

    /// The client with this card number (compared as ``CardNumber/key(_:)`` says: without white space around it,
    /// whatever the case of its letters), or nil.
    ///
    /// ```swift
    /// let client = try store.client(cardNumber: "c-000001")  // the client of card C-000001
    /// ```
    public func client(cardNumber: String) throws -> Client? {
        try reading {
            try database.fetchOne(
                "SELECT \(Columns.client) FROM clients c WHERE \(CardNumber.matchSQL)",
                CardNumber.matchParameters(cardNumber)
            ) { try Columns.client($0) }
        }
    }

    /// Every client, by id.
    ///
    /// ```swift
    /// for client in try store.allClients() { print(client.name) }
    /// ```
    public func allClients() throws -> [Client] {
        try reading {
            try database.fetchAll("SELECT \(Columns.client) FROM clients c ORDER BY c.id") { try Columns.client($0) }
        }
    }

    // MARK: - Default client

    /// The id of the default client (kept in `settings`), or nil when none is set or it no longer exists.
    ///
    /// ```swift
    /// guard let clientID = try store.defaultClientID() else { throw LibraryError.noDefaultClient }
    /// ```
    public func defaultClientID() throws -> Int? {
        try reading {
            try database.fetchOne(
                "SELECT c.id FROM settings s JOIN clients c ON c.id = CAST(s.value AS INTEGER) WHERE s.key = ?",
                [Self.defaultClientKey]
            ) { $0.int(0) }
        }
    }

    /// The default client; throws `LibraryError.noDefaultClient` when none is set.
    ///
    /// ```swift
    /// let me = try store.defaultClient()
    /// ```
    public func defaultClient() throws -> Client {
        try reading {
            guard let id = try defaultClientID(), let client = try client(id: id) else {
                throw LibraryError.noDefaultClient
            }
            return client
        }
    }

    /// Makes `clientID` the default client; throws `LibraryError.noSuchClient` if it does not exist.
    ///
    /// ```swift
    /// try store.setDefaultClient(id: ann.id)
    /// ```
    public func setDefaultClient(id: Int) throws {
        try writing {
            guard try client(id: id) != nil else { throw LibraryError.noSuchClient(id: id) }
            try database.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [Self.defaultClientKey, String(id)])
        }
    }

    // MARK: - Private

    private static let defaultClientKey = "default_client_id"

    private static func generatedCard(_ number: Int) -> String {
        let digits = String(number)
        return "C-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}

/// `text` without leading and trailing whitespace.
func trimmed(_ text: String) -> String {
    // Nothing to trim when the text starts and ends with a visible ASCII character (the common case, on every
    // imported row): no Character is built.
    let visible: ClosedRange<UInt8> = 0x21...0x7E
    if let first = text.utf8.first, let last = text.utf8.last, visible.contains(first), visible.contains(last) {
        return text
    }
    var slice = Substring(text)
    while let first = slice.first, first.isWhitespace { slice.removeFirst() }
    while let last = slice.last, last.isWhitespace { slice.removeLast() }
    return String(slice)
}
