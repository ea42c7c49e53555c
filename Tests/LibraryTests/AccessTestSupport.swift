import SQLite

@testable import Library

extension Fixture {
    /// Every value of every table of the database, as text and as the bytes of blobs, to prove a secret is not kept.
    func everyStoredValue() throws -> [String] {
        switch kind {
        case .sqlite: try everySQLiteValue()
        case .postgresql: try everyPostgreSQLValue()
        }
    }

    private func everySQLiteValue() throws -> [String] {
        let db = try Database(path: path, options: DatabaseOptions(readOnly: true))
        let tables = try db.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.string(0) }
        var values: [String] = []
        for table in tables {
            try db.cachedStatement("SELECT * FROM \"\(table)\"").forEachRow { row in
                for index in 0..<row.count {
                    switch row.value(index) {
                    case .text(let text): values.append(text)
                    case .blob(let bytes): values.append(String(decoding: bytes, as: UTF8.self))
                    case .integer(let number): values.append(String(number))
                    case .real(let number): values.append(String(number))
                    case .null: break
                    }
                }
            }
        }
        return values
    }

    /// PostgreSQL's: each column of each table of the schema read on its own, `bytea` as its bytes, the rest as text.
    private func everyPostgreSQLValue() throws -> [String] {
        let database = store.database
        let columns = try database.fetchAll(
            """
            SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            """
        ) { (table: $0.string(0), column: $0.string(1), isBytes: $0.string(2) == "bytea") }
        var values: [String] = []
        for (table, column, isBytes) in columns {
            try database.forEachRow("SELECT \"\(column)\" FROM \"\(table)\" WHERE \"\(column)\" IS NOT NULL") { row in
                values.append(isBytes ? String(decoding: row.blob(0), as: UTF8.self) : row.string(0))
            }
        }
        return values
    }
}

extension Timestamp {
    /// This moment plus `seconds`.
    func plus(_ seconds: Int64) -> Timestamp {
        try! Timestamp(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }
}
