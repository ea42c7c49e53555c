import Library

/// Which column of a clients file holds which fact, found from the header by name, case-insensitively:
/// `name`, `card_number` (or `card`, `cardNumber`), `loan_limit` (or `limit`, `loanLimit`), `default` and `pin`: the
/// keys `--json clients` writes read back. Other columns are not read (`CatalogSource` warns of each).
///
/// For example:
///
///     let columns = try ClientColumns(header: ["name", "card_number", "loan_limit", "default"])
///     let client = try columns.record(from: ["John Doe", "C-0001", "5", "yes"])
public struct ClientColumns: Sendable {
    /// Header names accepted for each fact, in order of preference.
    public static let aliases: [(fact: String, names: [String])] = [
        ("name", ["name", "client", "client_name", "full_name"]),
        ("card_number", ["card_number", "card", "card_no", "cardnumber"]),
        ("loan_limit", ["loan_limit", "limit", "max_loans", "loanlimit"]),
        ("default", ["default", "is_default", "isdefault"]),
        ("pin", ["pin"]),
    ]

    /// Whether a header (or a JSON object's keys) describes clients rather than books: it has a card number.
    ///
    ///     ClientColumns.describesClients(["Name", "Card"])  // true
    public static func describesClients(_ names: [String]) -> Bool {
        let cardNames = aliases[1].names
        return names.contains { cardNames.contains(normalized($0)) }
    }

    /// Whether a header without a card number column still looks like a clients file's, so that it is refused rather
    /// than read as books (the names becoming titles): a name column (`name`, `client`, ...), no other title column
    /// and no author, and a loan limit, default or PIN column, or a column whose name holds "card" (`Card #`).
    ///
    ///     ClientColumns.resemblesClients(["Name", "Card #", "Limit"])  // true
    ///     ClientColumns.resemblesClients(["Name", "Author", "Year"])  // false
    public static func resemblesClients(_ header: [String]) -> Bool {
        let names = header.map(normalized)
        let titles = Set(CatalogColumns.aliases[0].names).subtracting(["name"])
        let authors = Set(CatalogColumns.aliases[1].names)
        let clientFacts = Set(aliases[2].names + aliases[3].names + aliases[4].names)
        return names.contains { aliases[0].names.contains($0) }
            && !names.contains { titles.contains($0) || authors.contains($0) }
            && names.contains { clientFacts.contains($0) || $0.contains("card") }
    }

    let header: [String]
    let name: Int
    let card: Int
    let limit: Int?
    let isDefault: Int?
    let pin: Int?

    /// Finds the columns in a header row. Throws when the name or card number column is missing.
    ///
    ///     let columns = try ClientColumns(header: ["Name", "Card"])
    public init(header: [String]) throws(CatalogColumns.Problem) {
        self.header = header
        let names = try CatalogColumns.uniqueNames(header)
        func column(_ index: Int) -> Int? {
            Self.aliases[index].names.lazy.compactMap { names.firstIndex(of: $0) }.first
        }
        guard let name = column(0) else { throw Self.missing(0) }
        guard let card = column(1) else { throw Self.missing(1) }
        self.name = name
        self.card = card
        limit = column(2)
        isDefault = column(3)
        pin = column(4)
    }

    /// Reads one row (its fields in header order) as a client; the loan limit defaults to 5, `default` to no, an
    /// empty `pin` to none.
    ///
    ///     let client = try columns.record(from: ["Ada", "C-0002"])
    public func record(from fields: [String]) throws(CatalogColumns.Problem) -> ClientRecord {
        func text(_ column: Int) -> String {
            column < fields.count ? FieldParsing.trimmed(fields[column]) : ""
        }
        let nameText = text(name)
        guard !nameText.isEmpty else { throw problem(name, "the name is empty") }
        try check(nameText, .name, column: name)
        let cardText = text(card)
        guard !cardText.isEmpty else { throw problem(card, "the card number is empty") }
        try check(cardText, .cardNumber, column: card)
        var record = ClientRecord(name: nameText, cardNumber: cardText)
        if let limit {
            do {
                record.loanLimit = try FieldParsing.loanLimit(text(limit)) ?? LibraryRules.defaultLoanLimit
            } catch {
                throw problem(limit, error.reason)
            }
        }
        if let isDefault {
            do {
                record.isDefault = try FieldParsing.flag(text(isDefault))
            } catch {
                throw problem(isDefault, error.reason)
            }
        }
        if let pin, !text(pin).isEmpty {
            // The reason never repeats the PIN.
            if AccessRules.pinProblem(text(pin)) != nil {
                let digits = AccessRules.pinDigits
                throw problem(pin, "a PIN is \(digits.lowerBound) to \(digits.upperBound) digits (0-9)")
            }
            record.pin = text(pin)
        }
        return record
    }

    // MARK: - Private

    static func normalized(_ name: String) -> String {
        CatalogColumns.normalizedName(name)
    }

    private func check(_ text: String, _ field: TextField, column: Int) throws(CatalogColumns.Problem) {
        do {
            try field.check(text)
        } catch {
            throw problem(column, error.reason)
        }
    }

    private func problem(_ column: Int, _ reason: String) -> CatalogColumns.Problem {
        CatalogColumns.Problem(column: column + 1, columnName: header[column], reason: reason)
    }

    private static func missing(_ index: Int) -> CatalogColumns.Problem {
        let (fact, names) = aliases[index]
        return CatalogColumns.Problem(
            column: nil, columnName: nil,
            reason: "no \(fact == "card_number" ? "card number" : fact) column: the header needs one of "
                + names.joined(separator: ", "))
    }
}
