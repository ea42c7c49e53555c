import CSQLite

/// The current row of a statement: typed reads of its columns by position (0-based).
///
/// A row is valid only inside the closure or loop iteration that received it: once its statement steps on, is
/// reset or finishes, reading the row stops the program (a precondition) instead of reading another row's or freed
/// memory. The row keeps its statement alive, so it can never point at a finalized one. Copy values out inside the
/// closure.
///
/// ```swift
/// let titles = try db.fetchAll("SELECT id, title FROM books") { row in
///     (row.int(0), row.string(1))
/// }
/// ```
public struct Row {
    private let statement: Statement
    private let generation: UInt64

    init(statement: Statement, generation: UInt64) {
        self.statement = statement
        self.generation = generation
    }

    /// Whether the row can still be read: its statement has not stepped on, been reset or finished since.
    ///
    /// ```swift
    /// var kept: Row?
    /// _ = try db.fetchOne("SELECT 1") { kept = $0 }
    /// kept!.isValid  // false
    /// ```
    public var isValid: Bool { statement.generation == generation }

    /// The statement's handle, checked to still be on this row.
    private var handle: OpaquePointer {
        precondition(
            isValid,
            "a Row was read after its statement moved on (stepped, reset or finished): copy its values out inside "
                + "the closure that received it (\(statement.sql))")
        return statement.handle
    }

    /// The number of columns.
    ///
    /// ```swift
    /// row.count  // 2
    /// ```
    public var count: Int { Int(sqlite3_column_count(handle)) }

    /// Whether the column is NULL.
    ///
    /// ```swift
    /// let year: Int? = row.isNull(2) ? nil : row.int(2)
    /// ```
    public func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// The column as an integer (NULL reads as 0).
    ///
    /// ```swift
    /// let id = row.int(0)
    /// ```
    public func int(_ index: Int) -> Int {
        Int(sqlite3_column_int64(handle, Int32(index)))
    }

    /// The column as a 64-bit integer (NULL reads as 0).
    ///
    /// ```swift
    /// let id = row.int64(0)
    /// ```
    public func int64(_ index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// The column as a Bool (non-zero is true).
    ///
    /// ```swift
    /// let overdue = row.bool(3)
    /// ```
    public func bool(_ index: Int) -> Bool {
        sqlite3_column_int64(handle, Int32(index)) != 0
    }

    /// The column as a double (NULL reads as 0).
    ///
    /// ```swift
    /// let price = row.double(1)
    /// ```
    public func double(_ index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The column as text (NULL reads as "").
    ///
    /// ```swift
    /// let title = row.string(1)
    /// ```
    public func string(_ index: Int) -> String {
        let column = Int32(index)
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column as bytes (NULL reads as []).
    ///
    /// ```swift
    /// let data = row.blob(0)
    /// ```
    public func blob(_ index: Int) -> [UInt8] {
        let column = Int32(index)
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The column as an integer, or nil when NULL.
    ///
    /// ```swift
    /// let year = row.intOrNil(3)
    /// ```
    public func intOrNil(_ index: Int) -> Int? { isNull(index) ? nil : int(index) }

    /// The column as a double, or nil when NULL.
    ///
    /// ```swift
    /// let rating = row.doubleOrNil(4)
    /// ```
    public func doubleOrNil(_ index: Int) -> Double? { isNull(index) ? nil : double(index) }

    /// The column as text, or nil when NULL.
    ///
    /// ```swift
    /// let isbn = row.stringOrNil(6)
    /// ```
    public func stringOrNil(_ index: Int) -> String? { isNull(index) ? nil : string(index) }

    /// The column as bytes, or nil when NULL.
    ///
    /// ```swift
    /// let cover = row.blobOrNil(7)
    /// ```
    public func blobOrNil(_ index: Int) -> [UInt8]? { isNull(index) ? nil : blob(index) }

    /// The column as a `DatabaseValue`, keeping SQLite's storage class.
    ///
    /// ```swift
    /// if case .text(let s) = row.value(0) { print(s) }
    /// ```
    public func value(_ index: Int) -> DatabaseValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return .text(string(index))
        case SQLITE_BLOB: return .blob(blob(index))
        default: return .null
        }
    }
}
