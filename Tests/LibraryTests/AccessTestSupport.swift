import Library
import SQLite

extension Fixture {
    /// Every value of every table of the database, as text and as the bytes of blobs, to prove a secret is not kept.
    func everyStoredValue() throws -> [String] {
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
}

extension Timestamp {
    /// This moment plus `seconds`.
    func plus(_ seconds: Int64) -> Timestamp {
        try! Timestamp(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }
}
