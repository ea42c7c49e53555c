import Foundation
import SQLite
import Seeding
import StoreTestSupport

@testable import Library

/// A fresh temporary directory with a migrated library database in it, removed when released; or (`.postgresql`)
/// the directory and a fresh PostgreSQL database for the library (see `PostgreSQLTestDatabase`).
final class TestLibrary {
    let path: String
    let store: LibraryStore
    let now = Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 40)!
    /// The PostgreSQL database (nil for SQLite); declared after the store, so the store's connection closes first.
    let postgreSQL: PostgreSQLTestDatabase?

    init(kind: StoreKind = .sqlite) throws {
        path = NSTemporaryDirectory() + "seeding-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        switch kind {
        case .sqlite:
            postgreSQL = nil
            store = try LibraryStore.open(at: path + "/library.db", now: now)
        case .postgresql:
            let database = try PostgreSQLTestDatabase()
            postgreSQL = database
            store = try LibraryStore.open(at: database.url, now: now)
        }
    }

    /// Another connection to an existing PostgreSQL library (the directory is a fresh one).
    init(postgreSQL database: PostgreSQLTestDatabase) throws {
        path = NSTemporaryDirectory() + "seeding-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        store = try LibraryStore.open(at: database.url, now: now)
        postgreSQL = database
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to a file in the directory and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    func importFiles(
        _ names: [String], expecting kind: CatalogKind? = nil, dryRun: Bool = false
    ) throws -> ImportReport {
        try CatalogImport.importFiles(
            names.map(file), into: store, now: now, expecting: kind, options: ImportOptions(dryRun: dryRun))
    }

    /// Every row of books, clients and settings, as text, in a stable order.
    func dump() throws -> [String] {
        var rows: [String] = []
        for table in ["books", "clients", "settings", "library_stats"] {
            let columns = try store.database.sqlite.fetchAll(
                "SELECT name FROM pragma_table_info(?) ORDER BY cid", [table]
            ) {
                $0.string(0)
            }
            let select = "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY 1"
            rows += try store.database.sqlite.fetchAll(select) { row in
                table + ": " + (0..<columns.count).map { "\(row.value($0))" }.joined(separator: " | ")
            }
        }
        return rows
    }

    /// The books as records, in id order; `available` reads as a nil status, as a record without one imports.
    func books() throws -> [BookRecord] {
        try store.database.fetchAll(
            "SELECT title, author, year, pages, isbn, description, status FROM books ORDER BY id"
        ) {
            BookRecord(
                title: $0.string(0), author: $0.string(1), year: $0.intOrNil(2), pages: $0.intOrNil(3),
                isbn: $0.stringOrNil(4), description: $0.string(5),
                status: $0.string(6) == "available" ? nil : BookStatus(rawValue: $0.string(6)))
        }
    }

    func clients() throws -> [ClientRecord] {
        let defaultID = try store.defaultClientID()
        return try store.allClients().map {
            ClientRecord(
                name: $0.name, cardNumber: $0.cardNumber, loanLimit: $0.loanLimit, isDefault: $0.id == defaultID)
        }
    }
}

/// Runs `body`, which must throw a `DataError`, and returns it.
func dataError(_ body: () throws -> Void) throws -> DataError {
    do {
        try body()
    } catch let error as DataError {
        return error
    }
    throw TestFailure("expected a DataError, but nothing was thrown")
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
