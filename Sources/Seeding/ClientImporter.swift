import Library
import SQLite

/// Inserts or updates clients by card number with reused prepared statements, inside the caller's transaction.
/// A match gets its name and loan limit updated when they differ; its creation time is kept.
final class ClientImporter {
    private(set) var counts = ImportReport.Counts()
    private let database: Database
    private let find: Statement
    private let insert: Statement
    private let update: Statement
    private let now: Timestamp

    init(database: Database, now: Timestamp) throws {
        self.database = database
        self.now = now
        find = try database.prepare("SELECT id, name, loan_limit FROM clients WHERE card_number = ?")
        insert = try database.prepare(
            "INSERT INTO clients (name, card_number, loan_limit, created_at) VALUES (?, ?, ?, ?)")
        update = try database.prepare("UPDATE clients SET name = ?, loan_limit = ? WHERE id = ?")
    }

    /// Imports one client and returns its id.
    func importClient(_ record: ClientRecord) throws -> Int {
        precondition(database.isInTransaction, "import clients inside a write transaction")
        guard !record.name.isEmpty, !record.cardNumber.isEmpty, LibraryRules.loanLimits.contains(record.loanLimit)
        else {
            throw LibraryError.invalidInput(
                "A client needs a name, a card number and a loan limit from \(LibraryRules.loanLimits.lowerBound) to "
                    + "\(LibraryRules.loanLimits.upperBound) (card '\(record.cardNumber)').")
        }
        for (text, field) in [(record.name, TextField.name), (record.cardNumber, .cardNumber)] {
            do {
                try field.check(text)
            } catch {
                throw LibraryError.invalidInput(error.sentence)
            }
        }
        if let (id, name, limit) = try find.fetchOne([record.cardNumber], { ($0.int(0), $0.string(1), $0.int(2)) }) {
            if name == record.name && limit == record.loanLimit {
                counts.unchanged += 1
            } else {
                try update.execute([record.name, record.loanLimit, id])
                counts.updated += 1
            }
            return id
        }
        try insert.execute([record.name, record.cardNumber, record.loanLimit, now.iso8601])
        counts.inserted += 1
        return Int(database.lastInsertedRowID)
    }
}
