/// One SQLite value: NULL, an integer, a real, text or a blob.
///
/// ```swift
/// let value: DatabaseValue = .text("Dune")
/// try db.execute("INSERT INTO t (x) VALUES (?)", [value])
/// ```
public enum DatabaseValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob([UInt8])
}

/// A Swift value that can be bound to a statement parameter.
///
/// ```swift
/// try db.execute("INSERT INTO books (title, year) VALUES (?, ?)", ["Dune", 1965])
/// let year: Int? = nil
/// try db.execute("UPDATE books SET year = ? WHERE id = ?", [year, 1])
/// ```
public protocol DatabaseValueConvertible {
    /// The value as SQLite stores it.
    ///
    /// ```swift
    /// 42.databaseValue  // .integer(42)
    /// ```
    var databaseValue: DatabaseValue { get }
}

// MARK: - Conformances

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    ///
    /// ```swift
    /// DatabaseValue.null.databaseValue  // .null
    /// ```
    public var databaseValue: DatabaseValue { self }
}

extension Int: DatabaseValueConvertible {
    /// An integer value.
    ///
    /// ```swift
    /// 7.databaseValue  // .integer(7)
    /// ```
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: DatabaseValueConvertible {
    /// An integer value.
    ///
    /// ```swift
    /// Int64(7).databaseValue  // .integer(7)
    /// ```
    public var databaseValue: DatabaseValue { .integer(self) }
}

extension Int32: DatabaseValueConvertible {
    /// An integer value.
    ///
    /// ```swift
    /// Int32(7).databaseValue  // .integer(7)
    /// ```
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Bool: DatabaseValueConvertible {
    /// 1 for true, 0 for false.
    ///
    /// ```swift
    /// true.databaseValue  // .integer(1)
    /// ```
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

extension Double: DatabaseValueConvertible {
    /// A real value.
    ///
    /// ```swift
    /// 1.5.databaseValue  // .real(1.5)
    /// ```
    public var databaseValue: DatabaseValue { .real(self) }
}

extension String: DatabaseValueConvertible {
    /// A text value.
    ///
    /// ```swift
    /// "Dune".databaseValue  // .text("Dune")
    /// ```
    public var databaseValue: DatabaseValue { .text(self) }
}

extension Substring: DatabaseValueConvertible {
    /// A text value.
    ///
    /// ```swift
    /// "Dune"[...].databaseValue  // .text("Dune")
    /// ```
    public var databaseValue: DatabaseValue { .text(String(self)) }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    /// A blob value.
    ///
    /// ```swift
    /// [0, 255].databaseValue  // .blob([0, 255])
    /// ```
    public var databaseValue: DatabaseValue { .blob(self) }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// The wrapped value, or NULL.
    ///
    /// ```swift
    /// Int?.none.databaseValue  // .null
    /// ```
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
}
